#!/usr/bin/env node
// `make bench` (Bitcoin, Polkadot, Cosmos): the demo page in headless Chromium (fresh profile per
// run) with its test wallets answering at once (autoApprove: the wallet's own prompt excluded), the
// backend on loopback started here (exactly these processes are stopped at the end). For each
// family's wallet, printed, not asserted:
//
//   click -> connect      the wallet's row clicked -> the element's `connect` event (the wallet's
//                         accounts checked by the family's rules, its network read)
//   open() -> address     open() once connected -> the Account view shows the address
//
// Usage: node scripts/bench-families.mjs [--runs 5]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { freePort, launch, line, start as startIn, stats, stopAll, waitPort } from './lib/bench.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5;
const start = (cmd, args, env) => startIn(root, cmd, args, env);
const WALLETS = [
  ['Bitcoin (wallet-standard)', 'bitcoin.demo-bitcoin', 'bip122'],
  ['Bitcoin (sats-connect)', 'sats.demosatsprovider', 'bip122'],
  ['Polkadot (injectedWeb3)', 'polkadot.demo-polkadot', 'polkadot'],
  ['Cosmos (Keplr)', 'keplr.keplr', 'cosmos'],
];

async function once(base) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setBypassCSP(true); // the measuring code below is evaluated in the page
    await page.goto(`${base}/?autoApprove=1`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('wallet-modal')?.getState?.(), { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 800)); // an idle page, the families' code loaded
    return await page.evaluate(async (wallets) => {
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
      const out = {};
      for (const [, id, ns] of wallets) {
        await el.open();
        const row = await until(() => root().querySelector(`[data-connector-id="${id}"]`));
        const connected = new Promise((resolve) => el.addEventListener('connect', () => resolve(performance.now()), { once: true }));
        const clicked = performance.now();
        row.click();
        const connect = (await connected) - clicked;
        const address = el.getState().connection?.address;
        if (el.getState().connection?.namespace !== ns) throw new Error(`${id}: connected, but not in ${ns}`);
        await el.close();
        await new Promise((r) => setTimeout(r, 300));
        const opening = performance.now();
        await el.open();
        await until(() => root().querySelector('[part~="address"]')?.textContent?.startsWith(address.slice(0, 4)));
        out[id] = { connect, account: performance.now() - opening };
        await el.disconnect(ns);
        await el.close();
        await new Promise((r) => setTimeout(r, 300));
      }
      return out;
    }, WALLETS);
  } finally {
    await browser.close();
  }
}

try {
  execFileSync('cargo', ['build', '-q', '-p', 'wallet-modal-server'], { cwd: root, stdio: 'inherit' });
  execFileSync('node', ['demo/wallet/build.mjs'], { cwd: root, stdio: 'ignore' });
  const [anvilPort, port] = await Promise.all([freePort(), freePort()]);
  start(require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), ['--host', '127.0.0.1', '--port', String(anvilPort), '--chain-id', '31337', '--silent']);
  await waitPort(anvilPort);
  const backend = start(path.join(process.env.CARGO_TARGET_DIR || 'target', 'debug/wallet-modal-server'), ['--port', String(port), '--root', '.', '--chains', `31337=http://127.0.0.1:${anvilPort}`]);
  await line(backend, /listening on (\S+)/);
  const base = `http://127.0.0.1:${port}`;
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(base));
  console.log('Bitcoin, Polkadot, Cosmos: the demo page in headless Chromium (fresh profile per run), the test wallets answering at once:');
  for (const [label, id] of WALLETS) {
    console.log(`  ${label.padEnd(27)} row clicked -> connected  ${stats(runs.map((r) => r[id].connect))}`);
    console.log(`  ${''.padEnd(27)} open() -> address shown    ${stats(runs.map((r) => r[id].account))}`);
  }
} catch (e) {
  console.error(`families bench failed: ${e.message} (a screenshot: ${path.join(tmpdir(), 'wm-bench-families-failed.png')})`);
  process.exitCode = 1;
} finally {
  stopAll();
}
