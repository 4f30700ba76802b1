#!/usr/bin/env node
// `make bench` (sign-in): the demo page in headless Chromium (fresh profile per run) with the Demo
// Wallet answering at once (autoApprove) and sign-in on (`?siwx=default`: checked in the modal, and
// `?siwx=server`: checked by the backend's /v1/sessions), anvil and the backend on loopback, started
// here (exactly these processes are stopped at the end); then the check itself in WebAssembly
// (`wallet-modal/core` verifySiwxSession in Node). Printed, not asserted.
//
//   row clicked -> SIWXSignMessage   the Demo Wallet's row clicked -> the sign-in view shows
//                                    (connect, the sign-in module's check, the view)
//   Sign -> signed in                Sign pressed -> the `signin` event (nonce, message, the
//                                    wallet's signature, the verifier; the visitor excluded)
//   verify in wasm                   one verifySiwxSession call (EIP-4361 + secp256k1 recovery;
//                                    Sign In With Solana + ed25519)
//
// Usage: node scripts/bench-siwx.mjs [--runs 5]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launch, line, start as startIn, stats, stopAll, waitPort } from './lib/bench.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5;
const start = (cmd, args, env) => startIn(root, cmd, args, env);

async function once(base, mode) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setBypassCSP(true); // the measuring code below is evaluated in the page
    await page.goto(`${base}/?autoApprove=1&siwx=${mode}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('wallet-modal')?.getState?.(), { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 500)); // an idle page
    return await page.evaluate(async () => {
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
      await el.open();
      const row = await until(() => root().querySelector('[data-connector-id="dev.walletmodal.demo"]'));
      const clicked = performance.now();
      row.click();
      const sign = await until(() => root().querySelector('[part~="siwx"][data-state="idle"] [part~="siwx-sign"]'));
      const shown = performance.now() - clicked;
      const signedIn = new Promise((resolve) => el.addEventListener('signin', () => resolve(performance.now()), { once: true }));
      const pressed = performance.now();
      sign.click();
      const signed = (await signedIn) - pressed;
      // Signed out again (the backend revokes its session): the next run is asked again.
      const out = new Promise((resolve) => el.addEventListener('signout', resolve, { once: true }));
      await el.disconnect();
      await out;
      for (let i = 0; i < 100; i++) {
        const { sessions } = await (await fetch(`/v1/sessions/${el.getState().connection?.address ?? '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'}?projectId=demo-project`)).json();
        if (!sessions.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return { shown, signed };
    });
  } finally {
    await browser.close();
  }
}

/** verifySiwxSession in Node: the median of many calls, for an EVM and a Solana sign-in. */
async function verifyInWasm() {
  const core = await import(path.join(root, 'dist/core.js'));
  await core.init();
  const { privateKeyToAccount } = await import('viem/accounts');
  const { base58 } = await import(path.join(root, 'demo/wallet/solana-wallet.js'));
  const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  const tail = 'URI: https://dapp.example\nVersion: 1\nChain ID: %C\nNonce: benchNonce123\nIssued At: 2026-11-27T12:00:00.000Z';
  const evm = `dapp.example wants you to sign in with your Ethereum account:\n${account.address}\n\nSign in\n\n${tail.replace('%C', '1')}`;
  const keys = crypto.generateKeyPairSync('ed25519');
  const pub = base58(keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
  const ref = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
  const sol = `dapp.example wants you to sign in with your Solana account:\n${pub}\n\nSign in\n\n${tail.replace('%C', ref)}`;
  const cases = {
    'EIP-4361, secp256k1 recovery': { message: evm, signature: await account.signMessage({ message: evm }), caipAddress: `eip155:1:${account.address}` },
    'Sign In With Solana, ed25519': { message: sol, signature: base58(crypto.sign(null, Buffer.from(sol), keys.privateKey)), caipAddress: `solana:${ref}:${pub}` },
  };
  const out = {};
  for (const [name, c] of Object.entries(cases)) {
    const input = { domain: 'dapp.example', nonce: 'benchNonce123', now: Date.parse('2026-11-27T12:01:00Z'), ...c };
    if (core.verifySiwxSession(input).valid !== true) throw new Error(`${name}: not valid`);
    const times = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      core.verifySiwxSession(input);
      times.push(performance.now() - t);
    }
    out[name] = times;
  }
  return out;
}

try {
  execFileSync('cargo', ['build', '-q', '-p', 'wallet-modal-server'], { cwd: root, stdio: 'inherit' });
  const [anvilPort, port] = await Promise.all([freePort(), freePort()]);
  start(require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), ['--host', '127.0.0.1', '--port', String(anvilPort), '--chain-id', '31337', '--silent']);
  await waitPort(anvilPort);
  const backend = start(path.join(process.env.CARGO_TARGET_DIR || 'target', 'debug/wallet-modal-server'), ['--port', String(port), '--root', '.', '--chains', `31337=http://127.0.0.1:${anvilPort}`]);
  await line(backend, /listening on (\S+)/);
  const base = `http://127.0.0.1:${port}`;
  console.log('Sign-in (SIWX), the demo page in headless Chromium (fresh profile per run), anvil and the backend on loopback:');
  for (const mode of ['default', 'server']) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(base, mode));
    const label = mode === 'default' ? 'checked in the modal' : 'checked by the backend';
    console.log(`  [${label}] row clicked -> SIWXSignMessage shown   ${stats(runs.map((r) => r.shown))}`);
    console.log(`  [${label}] Sign -> signed in (wallet at once)     ${stats(runs.map((r) => r.signed))}`);
  }
  for (const [name, times] of Object.entries(await verifyInWasm())) console.log(`  verifySiwxSession in wasm (Node), ${name}: ${stats(times)}`);
} finally {
  stopAll();
}
