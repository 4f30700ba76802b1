// The package in a dapp developer's own stack: `npm pack` the product, install the tarball into a
// copy of each example app (examples/react: Vite + React 19 + TypeScript, examples/vue: Vite + Vue 3,
// examples/svelte: Vite + Svelte 5, examples/angular: Angular 21's own esbuild builder, strict,
// examples/webpack: webpack 5, plain DOM) with its own pinned dependencies from the registry, build it
// with its normal production command (`npm run build`: React, Vue and Angular type-check), serve its
// dist/ and drive it in Chromium with the demo wallet (EIP-6963): the app's Connect button opens
// the modal (`open({view})`), the `connect` event reaches the framework's state, `theme-mode` is
// bound from it, Disconnect clears it. Each host's initial load is printed (test diagnostics).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(path.join(tmpdir(), 'wallet-modal-hosts-'));
const HOSTS = ['react', 'vue', 'svelte', 'angular', 'webpack'];
/**
 * What differs per host's build: the folder of dist/ its .wasm files land in, its entry chunk (the
 * framework, the app and the element's shell) and which loaded files are the package's own (Vite keeps
 * the package's chunk names; Angular (`chunk-HASH.js`) and webpack (`ID.HASH.js`) do not, and these
 * apps have no lazy code of their own: every file they load after their entry chunk is the package's).
 */
const VITE = { wasmDir: 'assets', entry: /^\/assets\/index-/, modal: (f) => /wallet_modal_|react-views|wallet-modal/.test(f) };
const LAYOUT = {
  react: VITE,
  vue: VITE,
  svelte: VITE,
  // angular.json copies the .wasm files next to the chunks (dist/ root, `outputPath.browser: ""`).
  angular: { wasmDir: '.', entry: /^\/main-[A-Z0-9]+\.js$/, modal: (f) => f !== '/' && !/^\/main-/.test(f) },
  // webpack emits them as assets (`new URL(…, import.meta.url)`) into output.path.
  webpack: { wasmDir: '.', entry: /^\/main\.[0-9a-f]+\.js$/, modal: (f) => f !== '/' && !/^\/main\./.test(f) },
};
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };
let tarball;
let browser;

/** The demo wallet as a page script: one EIP-6963 wallet on chain 1 answering at once. */
const wallet = readFileSync(path.join(repo, 'demo/wallet/demo-wallet.js'), 'utf8').replace(/^export \{[^}]*\};?\s*$/m, '') +
  `\ninstallDemoWallet({ chains: [{ chainId: 1, rpcUrl: 'http://127.0.0.1:9' }], autoResponse: 'approve', prompt: false });`;

before(async () => {
  tarball = path.join(work, execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').pop());
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
});

after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A copy of examples/<host> with the packed tarball as its wallet-modal, installed and built. */
function build(host) {
  const app = path.join(work, host);
  cpSync(path.join(repo, 'examples', host), app, { recursive: true, filter: (src) => !/node_modules|[\\/]dist$|[\\/]\.angular$/.test(src) });
  const pkg = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8'));
  pkg.dependencies['wallet-modal'] = `file:${tarball}`;
  writeFileSync(path.join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, stdio: 'pipe' });
  // Its normal production build; the modal's API pointed at a closed port (nothing remote here).
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: app, stdio: 'pipe', env: { ...process.env, VITE_WM_API_URL: 'http://127.0.0.1:9' } });
  return path.join(app, 'dist');
}

function serve(dist) {
  const server = createServer((req, res) => {
    const file = path.join(dist, decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/$/, '/index.html'));
    if (!file.startsWith(dist)) return res.writeHead(403).end();
    let body;
    try {
      body = readFileSync(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const overlay = `document.querySelector('wallet-modal-overlay')?.shadowRoot`;

for (const host of HOSTS) {
  test(`${host}: built from the packed tarball, the app connects the demo wallet through the modal, binds its theme and disconnects`, async (t) => {
    const dist = build(host);
    const layout = LAYOUT[host];
    const assets = readdirSync(path.join(dist, layout.wasmDir));
    for (const module of ['engine', 'account', 'embedded', 'wc']) {
      assert.ok(
        assets.some((f) => f.startsWith(`wallet_modal_${module}_bg`) && f.endsWith('.wasm')),
        `${host}: the ${module} module's wasm is in ${path.posix.join('dist', layout.wasmDir)}`,
      );
    }
    const server = await serve(dist);
    const page = await browser.newPage();
    try {
      const loaded = [];
      const failed = [];
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.port === '9' || url.pathname === '/favicon.ico') return; // the closed API port; no icon
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
        else if (url.host === `127.0.0.1:${server.address().port}`) loaded.push(url.pathname);
      });
      page.on('pageerror', (e) => failed.push(e.message));
      await page.evaluateOnNewDocument(wallet);
      await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
      assert.equal(await page.$eval('#address', (e) => e.textContent), 'not connected');

      // The app's button: open({view: 'Connect'}); the visitor picks the Demo Wallet.
      await page.click('#open');
      await page.waitForFunction(`${overlay}?.querySelector('[role="dialog"][data-view="Connect"] [data-connector-id="dev.walletmodal.demo"]')`, { timeout: 20_000 });
      const initial = [...new Set(loaded)];
      const gzip = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(path.join(dist, f === '/' ? 'index.html' : f))).length, 0);
      const modalFiles = initial.filter(layout.modal);
      const kb = (files) => (gzip(files) / 1024).toFixed(1);
      t.diagnostic(
        `${host}: initial load up to the Connect view ${kb(initial)} KB gzip in ${initial.length} files: the app's entry chunk (the framework, the app and the element's shell) ` +
          `${kb(initial.filter((f) => layout.entry.test(f)))} KB, the package's own chunks and wasm ${kb(modalFiles)} KB`,
      );
      await page.evaluate(`${overlay}.querySelector('[data-connector-id="dev.walletmodal.demo"]').click()`);

      // The connect event reached the framework's state.
      await page.waitForFunction(() => document.querySelector('#address').textContent.startsWith('0x'), { timeout: 20_000 });
      const address = await page.$eval('#address', (e) => e.textContent);
      assert.equal(address.toLowerCase(), '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
      assert.equal(await page.evaluate(() => document.querySelector('wallet-modal').getState().connection.address), address);

      // theme-mode bound from the framework's state.
      await page.evaluate(() => document.querySelector('wallet-modal').close());
      await page.click('#theme');
      await page.waitForFunction(() => document.querySelector('wallet-modal').getAttribute('theme-mode') === 'dark');
      await page.click('#open');
      await page.waitForFunction(`${overlay}?.querySelector('.wm-app[data-theme="dark"] [role="dialog"][data-view="Account"]')`, { timeout: 20_000 });
      await page.evaluate(() => document.querySelector('wallet-modal').close());

      // Disconnect from the app's button: the framework's state hears it.
      await page.click('#disconnect');
      await page.waitForFunction(() => document.querySelector('#address').textContent === 'not connected', { timeout: 10_000 });
      assert.equal(await page.evaluate(() => document.querySelector('wallet-modal').getState().status.eip155), 'disconnected');
      assert.deepEqual(failed, [], `${host}: nothing failed to load or threw`);
    } finally {
      await page.close();
      server.close();
    }
  });
}
