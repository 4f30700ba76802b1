#!/usr/bin/env node
// The frame in a real browser against the real wallet service, by hand (not part of make test):
//   node frame/test/smoke.mjs
// Needs the demo backend built (`cargo build -p wallet-modal-server`), node_modules and Chromium.
// Starts, on free loopback ports, a maildev, an anvil, the backend with its frame listener (serving
// this checkout's frame, bundled into a temporary root), and a page on another origin that embeds
// the frame; then logs in by email in headless Chromium, signs, sends a transaction, reloads, signs
// out, and checks that a project not allowing the page's origin gets INIT_ERROR. Exactly the
// processes it started are stopped at the end.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import puppeteer from 'puppeteer-core';
import { verifyMessage } from 'viem';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const children = [];
const tmp = mkdtempSync(path.join(tmpdir(), 'wm-frame-smoke-'));
const step = (m) => console.log(`[smoke] ${m}`);

function start(cmd, args, waitFor) {
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${out}`)), 30_000);
    const on = (d) => {
      out += d;
      const m = waitFor(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}): ${out}`)));
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const PAGE = `<!doctype html><meta charset=utf-8><title>dapp</title><body><script type=module>
const frameUrl = new URLSearchParams(location.search).get('frame');
const origin = new URL(frameUrl).origin;
const f = document.createElement('iframe');
window.first = new Promise((resolve) => addEventListener('message', (e) => {
  if (e.source === f.contentWindow && e.origin === origin && /READY|INIT_ERROR/.test(e.data?.type)) resolve(e.data);
}));
let n = 0;
window.call = (event, payload = {}) => new Promise((resolve) => {
  const id = 'smoke_' + String(++n).padStart(12, '0');
  addEventListener('message', function on(e) {
    if (e.source !== f.contentWindow || e.origin !== origin || e.data?.id !== id) return;
    removeEventListener('message', on);
    resolve(e.data);
  });
  f.contentWindow.postMessage({ type: '@w3m-app/' + event, id, payload }, origin);
});
f.src = frameUrl;
document.body.append(f);
</script>`;

async function main() {
  step('bundling the frame');
  mkdirSync(path.join(tmp, 'root/dist/frame'), { recursive: true });
  symlinkSync(path.join(root, 'demo'), path.join(tmp, 'root/demo'));
  await esbuild.build({
    absWorkingDir: root, entryPoints: ['frame/src/main.ts'], outfile: path.join(tmp, 'root/dist/frame/frame.js'),
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, sourcemap: true, logLevel: 'error',
  });

  step('maildev, anvil, backend');
  const [smtp, web] = [await freePort(), await freePort()];
  await start('node', [path.join(root, 'node_modules/maildev/dist/bin/maildev.js'), '--smtp', String(smtp), '--web', String(web), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1'], (o) => /Press Ctrl\+C to stop/.test(o));
  const anvilBin = require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
  const anvil = await start(anvilBin, ['--host', '127.0.0.1', '--port', '0', '--chain-id', '31337'], (o) => o.match(/Listening on (127\.0\.0\.1:\d+)/)?.[1]);
  const rpcUrl = `http://${anvil}`;
  const backend = path.join(root, process.env.CARGO_TARGET_DIR || 'target', 'debug/wallet-modal-server');
  const frameBase = await start(backend, ['--port', '0', '--frame-port', '0', '--root', path.join(tmp, 'root'), '--chains', `31337=${rpcUrl}`, '--smtp', `127.0.0.1:${smtp}`], (o) => o.match(/^frame on (\S+)$/m)?.[1]);
  step(`frame service on ${frameBase}, anvil ${rpcUrl}`);

  const page = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise((r) => page.listen(0, '127.0.0.1', r));
  const dapp = `http://127.0.0.1:${page.address().port}`;

  const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    const problems = [];
    tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    tab.on('pageerror', (e) => problems.push(String(e)));
    const frameUrl = (projectId) => `${frameBase}/frame?projectId=${projectId}&chainId=31337&version=smoke&enableLogger=false&rpcUrl=${encodeURIComponent(rpcUrl)}`;
    const open = async (projectId) => {
      await tab.goto(`${dapp}/?frame=${encodeURIComponent(frameUrl(projectId))}`);
      return tab.evaluate(() => window.first);
    };
    const call = (event, payload) => tab.evaluate((e, p) => window.call(e, p), event, payload);
    const ok = async (event, payload) => {
      const a = await call(event, payload);
      assert.equal(a.type, `@w3m-frame/${event}_SUCCESS`, `${event}: ${JSON.stringify(a.payload)}`);
      return a.payload;
    };

    assert.deepEqual(await open('demo-project'), { type: '@w3m-frame/READY', payload: {} });
    step('READY');
    assert.deepEqual(await ok('IS_CONNECTED'), { isConnected: false });
    const email = `smoke-${Date.now()}@example.com`;
    assert.deepEqual(await ok('CONNECT_EMAIL', { email }), { action: 'VERIFY_OTP' });
    let code;
    for (let i = 0; i < 50 && !code; i++) {
      const mails = await (await fetch(`http://127.0.0.1:${web}/api/email`)).json();
      code = mails.find((m) => m.to?.[0]?.address === email)?.subject.match(/(\d{6})$/)?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(code, 'the login code was mailed');
    assert.deepEqual(await ok('CONNECT_OTP', { otp: code }), {});
    const user = await ok('GET_USER', { chainId: 31337 });
    assert.equal(user.email, email);
    assert.match(user.address, /^0x[0-9a-fA-F]{40}$/);
    step(`logged in as ${user.address}`);

    const rpc = (method, params) => ({ method, params, chainId: 31337, chainNamespace: 'eip155', rpcUrl });
    const sig = await ok('RPC_REQUEST', rpc('personal_sign', ['0x68656c6c6f', user.address]));
    assert.ok(await verifyMessage({ address: user.address, message: 'hello', signature: sig }));
    step('personal_sign verified');
    await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [user.address, '0xde0b6b3a7640000'] }) });
    const hash = await ok('RPC_REQUEST', rpc('eth_sendTransaction', [{ from: user.address, to: '0x000000000000000000000000000000000000bEEF', value: '0x1' }]));
    const receipt = await ok('RPC_REQUEST', rpc('eth_getTransactionReceipt', [hash]));
    assert.equal(receipt.status, '0x1');
    step(`transaction ${hash} mined`);

    assert.deepEqual(await open('demo-project'), { type: '@w3m-frame/READY', payload: {} });
    assert.deepEqual(await ok('IS_CONNECTED'), { isConnected: true });
    assert.equal((await ok('GET_USER')).address, user.address);
    step('restored after a reload');
    assert.deepEqual(await ok('SIGN_OUT'), {});
    assert.deepEqual(await ok('IS_CONNECTED'), { isConnected: false });
    assert.deepEqual(await open('demo-project'), { type: '@w3m-frame/READY', payload: {} });
    assert.deepEqual(await ok('IS_CONNECTED'), { isConnected: false });
    step('signed out');

    assert.deepEqual(await open('foreign-origin'), {
      type: '@w3m-frame/INIT_ERROR',
      payload: { message: 'Invalid App Configuration: this origin is not allowed for the project' },
    });
    step('INIT_ERROR for a project that does not allow the page');
    assert.deepEqual(problems, [], 'no console errors (CSP, script)');
    step('all good');
  } finally {
    await browser.close();
    page.close();
  }
}

try {
  await main();
} finally {
  for (const c of children) c.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
