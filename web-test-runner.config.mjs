// Browser tests: every file in test/browser is bundled by scripts/build-tests.mjs into .test-build/
// and run in Debian's Chromium. The element under test is the real build in dist/.
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { summaryReporter } from './test/support/summary-reporter.mjs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const env = {
  backendUrl: process.env.WM_BACKEND_URL ?? '',
  chains: JSON.parse(process.env.WM_CHAINS ?? '[]'),
  // The demo contracts' manifest (addresses, decimals) as deployed for this run.
  contracts: JSON.parse(process.env.WM_CONTRACTS ?? 'null'),
  // The embedded wallet: the secure frame's page on the backend's second port, and the mail sink's
  // web and REST base (maildev: GET {mailUrl}/api/email lists the mail received).
  frameUrl: process.env.WM_FRAME_URL ?? '',
  mailUrl: process.env.WM_MAIL_URL ?? '',
  // Social login's OpenID Connect provider (demo/oidc/provider.mjs): its login page is where the
  // popup of /w/v1/social/uri's authorization URL lands.
  oidcUrl: process.env.WM_OIDC_URL ?? '',
  // The local Solana chain (demo/solana/rpc.mjs) as seeded for the demo wallet: `{rpcUrl, owner,
  // tokens: {usdc, second}}`, or null.
  solana: JSON.parse(process.env.WM_SOLANA ?? 'null'),
  // The local Bitcoin regtest chain (demo/bitcoin/regtest.mjs): `{rpcUrl, genesis, funded}`, or
  // null; the backend serves its Esplora-shaped API at {backendUrl}/bitcoin/api.
  bitcoin: JSON.parse(process.env.WM_BITCOIN ?? 'null'),
  // The bearer token of the backend's test hooks (GET/DELETE /e/recorded) for this run.
  testToken: process.env.WM_TEST_TOKEN ?? '',
};

export default {
  rootDir: '.',
  files: process.env.WM_TEST_FILES ? process.env.WM_TEST_FILES.split(',') : [`${process.env.WM_TEST_BUILD_DIR || '.test-build'}/**/*.test.js`],
  // One page at a time: focus moves only in the focused page.
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 300_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-quic',
          '--no-first-run',
          '--no-default-browser-check',
        ],
      },
    }),
  ],
  plugins: [
    {
      name: 'wallet-modal-visitor',
      async executeCommand({ command, payload, session }) {
        if (command !== 'visitor' || session.browser.type !== 'puppeteer') return undefined;
        const browser = session.browser.getPage(session.id).browser();
        const byUrl = async (prefix, timeout = 10_000) => {
          for (const start = Date.now(); Date.now() - start < timeout; await new Promise((r) => setTimeout(r, 100))) {
            const page = (await browser.pages()).find((p) => p.url().startsWith(prefix));
            if (page) return page;
          }
          throw new Error(`no window at ${prefix}`);
        };
        switch (payload?.action) {
          // Chromium's time-zone override for the test's page (`zone` undefined: back to the machine's).
          case 'timezone': {
            await session.browser.getPage(session.id).emulateTimezone(payload.zone);
            return true;
          }
          // The demo Farcaster client: open the sign-in link, press Approve, wait until signed.
          case 'farcaster-approve': {
            const page = await browser.newPage();
            try {
              await page.goto(payload.url, { waitUntil: 'load' });
              await page.waitForSelector('#fc-approve:not([disabled])', { timeout: 10_000 });
              await page.click('#fc-approve');
              await page.waitForSelector('#fc-app[data-state="signed"]', { timeout: 10_000 });
              return true;
            } finally {
              await page.close();
            }
          }
          // The social login popup at the local OpenID Connect provider: sign in as `login`, allow.
          case 'oidc-login': {
            const page = await byUrl(payload.prefix);
            await page.waitForSelector('#login', { timeout: 10_000 });
            await page.type('#login', payload.login);
            await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button.primary')]);
            await page.waitForSelector('button.primary', { timeout: 10_000 });
            await page.click('button.primary'); // Allow: the popup goes on to the wallet service and closes
            return true;
          }
          // A signature made in the page, checked by the family's reference library here in Node
          // (bip322-js, @polkadot/util-crypto, @keplr-wallet/cosmos): not the product's own check.
          case 'reference-verify': {
            const { family, address, message, signature, publicKey } = payload;
            if (family === 'bip122') {
              const { Verifier } = await import('bip322-js');
              return Verifier.verifySignature(address, message, signature);
            }
            if (family === 'polkadot') {
              const { cryptoWaitReady, signatureVerify } = await import('@polkadot/util-crypto');
              await cryptoWaitReady();
              return signatureVerify(message, signature, address).isValid;
            }
            if (family === 'cosmos') {
              const { verifyADR36Amino } = await import('@keplr-wallet/cosmos');
              const prefix = address.slice(0, address.lastIndexOf('1'));
              return verifyADR36Amino(prefix, address, message, Buffer.from(publicKey, 'base64'), Buffer.from(signature, 'base64'));
            }
            throw new Error(`no reference verifier for ${family}`);
          }
          // A block on the local Bitcoin regtest chain (to an anyone-can-spend script): what
          // confirms a transfer sent there. Answers the new height.
          case 'bitcoin-mine': {
            if (!env.bitcoin) throw new Error('no local Bitcoin chain in this run (WM_BITCOIN)');
            const url = new URL(env.bitcoin.rpcUrl);
            const rpc = async (method, params) => {
              const res = await fetch(`http://${url.host}/`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` },
                body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
              });
              const body = await res.json();
              if (body.error) throw new Error(`${method}: ${body.error.message}`);
              return body.result;
            };
            await rpc('generatetodescriptor', [payload.blocks ?? 1, 'raw(51)']);
            return rpc('getblockcount', []);
          }
          // The test's page is the one the visitor looks at (a rendered, visible page: what an
          // IntersectionObserver needs to deliver entries).
          case 'bring-to-front': {
            await session.browser.getPage(session.id).bringToFront();
            return true;
          }
          // Runs `script` (a function body) in the `index`th frame of the test's page whose address
          // starts with `prefix` (another origin's page: the secure frame, or one posing as it), and
          // returns what it returns. Tests use it to play a hostile window, never the product.
          case 'frame-eval': {
            const page = session.browser.getPage(session.id);
            for (const start = Date.now(); Date.now() - start < 10_000; await new Promise((r) => setTimeout(r, 100))) {
              const frames = page.frames().filter((f) => f !== page.mainFrame() && f.url().startsWith(payload.prefix));
              const frame = frames[payload.index ?? 0];
              if (frame) return frame.evaluate(new Function(payload.script));
            }
            throw new Error(`no frame at ${payload.prefix}`);
          }
          // The visitor clicks `selector` in the frame whose address starts with `prefix` with the
          // mouse (a trusted click, with user activation): how a visitor approves in the secure
          // frame. Waits until the element shows and is enabled; returns false if it never is.
          case 'frame-click': {
            const page = session.browser.getPage(session.id);
            await page.bringToFront();
            // As a visitor would: only once the frame shows in the page and has stopped moving
            // (the modal's opening animation), so that the click lands where the button is.
            let lastBox = null;
            for (const start = Date.now(); Date.now() - start < (payload.timeout ?? 10_000); await new Promise((r) => setTimeout(r, 100))) {
              const frame = page.frames().find((f) => f !== page.mainFrame() && !f.detached && f.url().startsWith(payload.prefix));
              const handle = frame && (await frame.$(payload.selector).catch(() => null));
              const ready = handle && (await handle.evaluate((b) => !b.disabled && b.getClientRects().length > 0).catch(() => false));
              const box = ready ? await (await frame.frameElement())?.boundingBox() : null;
              const still = box && lastBox && ['x', 'y', 'width', 'height'].every((k) => Math.abs(box[k] - lastBox[k]) < 0.5);
              lastBox = box;
              if (still) {
                await handle.click();
                return true;
              }
            }
            return false;
          }
          // axe-core inside the frame whose address starts with `prefix` (its own document, under
          // its own CSP: evaluated through the DevTools protocol): the serious violations, and
          // the theme the frame shows.
          case 'frame-axe': {
            const page = session.browser.getPage(session.id);
            const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(payload.prefix));
            if (!frame) throw new Error(`no frame at ${payload.prefix}`);
            await frame.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
            return frame.evaluate(async () => {
              const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
              const violations = r.violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
              return { theme: document.documentElement.dataset.theme ?? 'light', violations };
            });
          }
          // A screenshot of the test's page as the visitor sees it, to `.test-build/screens/<name>.png`.
          case 'screenshot': {
            const name = String(payload.name ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 80) || 'screen';
            const page = session.browser.getPage(session.id);
            const { mkdirSync } = await import('node:fs');
            mkdirSync('.test-build/screens', { recursive: true });
            await page.screenshot({ path: `.test-build/screens/${name}.png` });
            return `.test-build/screens/${name}.png`;
          }
          // The visitor presses `key` on the keyboard (trusted), in whatever has focus.
          case 'press': {
            const page = session.browser.getPage(session.id);
            await page.keyboard.press(payload.key);
            return true;
          }
          // The visitor opens the device-approval link mailed to them and presses "Approve this device".
          case 'approve-device': {
            const page = await browser.newPage();
            try {
              await page.goto(payload.url, { waitUntil: 'load' });
              await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type="submit"]')]);
              return await page.evaluate(() => document.body.innerText.slice(0, 200));
            } finally {
              await page.close();
              await session.browser.getPage(session.id).bringToFront();
            }
          }
          // The visitor closes the window whose address starts with `prefix` (a login popup).
          case 'close-window': {
            await (await byUrl(payload.prefix)).close();
            return true;
          }
          default:
            throw new Error(`unknown visitor action ${payload?.action}`);
        }
      },
    },
    {
      name: 'wallet-modal-test-env',
      async serve(context) {
        if (context.path === '/test-env.json') return { body: JSON.stringify(env), type: 'application/json' };
        // The mail sink's messages to one address, newest first (read from Node: the sink sends no CORS headers).
        if (context.path === '/test-mail' && env.mailUrl) {
          const to = String(context.query.to ?? '').toLowerCase();
          const all = await fetch(`${env.mailUrl}/api/email`).then((r) => r.json(), () => []);
          const mine = (Array.isArray(all) ? all : [])
            .filter((m) => (m.to ?? []).some((t) => String(t.address).toLowerCase() === to))
            .map((m) => ({ subject: m.subject, text: m.text, time: Date.parse(m.time ?? m.date ?? '') || 0 }))
            .reverse(); // maildev lists in arrival order; its times have 1 s resolution
          return { body: JSON.stringify(mine), type: 'application/json' };
        }
      },
    },
  ],
  reporters: [defaultReporter({ reportTestResults: true, reportTestProgress: false }), summaryReporter()],
};
