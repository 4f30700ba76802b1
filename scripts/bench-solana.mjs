#!/usr/bin/env node
// `make bench` (Solana): the demo page in headless Chromium (fresh profile per run) with the Demo
// Wallet's wallet-standard side answering at once (autoApprove), against the local SVM
// (demo/solana/rpc.mjs, seeded) and the real backend reading it, all on loopback and started here
// (exactly these processes are stopped at the end). Printed, not asserted.
//
//   click -> connect           the wallet's row clicked (the Solana network active) -> the
//                              element's `connect` event (standard:connect, the chain; the wallet's
//                              own prompt excluded: it approves at once)
//   open() -> address + SOL    open() once connected -> the Account view shows the address and the
//                              SOL balance read from the node (the account module loads meanwhile)
//   Send -> confirmed          Send pressed in the preview -> the signature confirmed on the
//                              chain (getSignatureStatuses) and the notice gone
//
// Usage: node scripts/bench-solana.mjs [--runs 5]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { freePort, launch, line, start as startIn, stats, stopAll, waitPort } from './lib/bench.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5;
const start = (cmd, args, env) => startIn(root, cmd, args, env);
const LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
// The ed25519 key of 32 bytes of 7: a receiver.
const RECEIVER = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB';

async function once(base) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setBypassCSP(true); // the measuring code below is evaluated in the page
    await page.goto(`${base}/?autoApprove=1`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('wallet-modal')?.getState?.() && window.demoPage?.solanaWallet, { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 500)); // an idle page
    return await page.evaluate(
      async (local, receiver) => {
        const el = document.querySelector('wallet-modal');
        const root = () => document.querySelector('wallet-modal-overlay').shadowRoot;
        const until = async (fn) => {
          for (let i = 0; ; i++) {
            const v = fn();
            if (v) return v;
            if (i > 3_000) throw new Error(`timed out: ${fn}`);
            await new Promise((r) => requestAnimationFrame(r));
          }
        };
        await el.switchNetwork(local);
        await el.open();
        const row = await until(() => root().querySelector('[data-connector-id="dev.walletmodal.demo"]'));
        const connected = new Promise((resolve) => el.addEventListener('connect', () => resolve(performance.now()), { once: true }));
        const clicked = performance.now();
        row.click();
        const connect = (await connected) - clicked;
        if (el.getState().connection?.namespace !== 'solana') throw new Error('connected, but not on Solana');
        await el.close();
        await new Promise((r) => setTimeout(r, 300));
        const opening = performance.now();
        await el.open();
        await until(() => root().querySelector('[part~="address"]') && /SOL$/.test(root().querySelector('[part~="balance"]:not([aria-busy])')?.textContent ?? ''));
        const account = performance.now() - opening;
        // Send 0.01 SOL: the form, the preview with its fee, then Send.
        const tab = await until(() => [...root().querySelectorAll('[role="tab"]')].find((t) => t.textContent.includes('Tokens')));
        tab.click();
        await until(() => root().querySelector('[part~="token"]'));
        (await until(() => root().querySelector('[part~="send-button"]'))).click();
        const select = await until(() => root().querySelector('[part~="send"] select'));
        select.value = String([...select.options].findIndex((o) => o.textContent.startsWith('SOL')));
        select.dispatchEvent(new Event('change', { bubbles: true }));
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
        const [amount, to] = root().querySelectorAll('[part~="send"] input');
        for (const [input, text] of [[amount, '0.01'], [to, receiver]]) {
          setter.call(input, text);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
        [...root().querySelectorAll('button')].find((b) => b.textContent.includes('Preview send')).click();
        await until(() => [...root().querySelectorAll('[part~="send-preview"] dd')].some((d) => / SOL$/.test(d.firstChild?.textContent ?? '') && !d.textContent.startsWith('0.01 ')));
        const sending = performance.now();
        [...root().querySelectorAll('[part~="send-preview"] button')].find((b) => b.textContent.trim() === 'Send').click();
        await until(() => root().querySelector('[part~="sent"]'));
        const signed = performance.now() - sending;
        await until(() => !root().querySelector('[part~="sent"]'));
        return { connect, account, signed, confirmed: performance.now() - sending };
      },
      LOCAL,
      RECEIVER,
    ).catch(async (e) => {
      await page.screenshot({ path: path.join(tmpdir(), 'wm-bench-solana-failed.png') }).catch(() => {});
      throw e;
    });
  } finally {
    await browser.close();
  }
}

const tmp = mkdtempSync(path.join(tmpdir(), 'wm-bench-solana-'));
try {
  execFileSync('cargo', ['build', '-q', '-p', 'wallet-modal-server'], { cwd: root, stdio: 'inherit' });
  const [anvilPort, port] = await Promise.all([freePort(), freePort()]);
  start(require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), ['--host', '127.0.0.1', '--port', String(anvilPort), '--chain-id', '31337', '--silent']);
  const solanaJson = path.join(tmp, 'solana.json');
  const chain = start('node', ['demo/solana/rpc.mjs', '--port', '0', '--seed', 'demo', '--out', solanaJson]);
  await Promise.all([waitPort(anvilPort), line(chain, /solana on (\S+)/)]);
  const backend = start(path.join(process.env.CARGO_TARGET_DIR || 'target', 'debug/wallet-modal-server'), [
    '--port', String(port), '--root', '.', '--chains', `31337=http://127.0.0.1:${anvilPort}`, '--solana', solanaJson,
  ]);
  await line(backend, /listening on (\S+)/);
  const base = `http://127.0.0.1:${port}`;
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(base));
  console.log('Solana, the demo page in headless Chromium (fresh profile per run), the local SVM and the backend on loopback:');
  console.log(`  row clicked -> connected (wallet answers at once)  ${stats(runs.map((r) => r.connect))}`);
  console.log(`  open() -> address and SOL balance shown          ${stats(runs.map((r) => r.account))}`);
  console.log(`  Send pressed -> signature (signed and sent)     ${stats(runs.map((r) => r.signed))}`);
  console.log(`  Send pressed -> confirmed on the chain           ${stats(runs.map((r) => r.confirmed))}`);
} finally {
  stopAll();
  rmSync(tmp, { recursive: true, force: true });
}
