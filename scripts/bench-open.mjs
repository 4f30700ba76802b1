#!/usr/bin/env node
// `make bench` (browser part): how fast the modal is ready and opens, in Debian's headless Chromium
// with a fresh profile per run and every non-loopback request blocked. Printed, not asserted.
//
//   ready            page start -> <wallet-modal> defined (customElements.whenDefined)
//   engine started   page start -> its engine started (getState() != null)
//   open, idle 1 s   open() once the engine started and the page was idle for 1 s -> the first wallet
//                    option is in the page, laid out and visible
//   open at ready    open() called the moment the element is defined -> the same
//
// Usage: node scripts/bench-open.mjs [--runs 7] [--dist DIR] (DIR defaults to ./dist).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('runs', '7'));
const DIST = path.resolve(arg('dist', path.join(root, 'dist')));

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body>
<button id="open">Connect</button>
<wallet-modal project-id="bench" api-url="/api" analytics-url="/api"></wallet-modal>
<script type="module">
  const t0 = performance.now();
  const mode = new URLSearchParams(location.search).get('mode');
  const el = document.querySelector('wallet-modal');
  const firstOption = () => {
    const root = document.querySelector('wallet-modal-overlay')?.shadowRoot;
    const row = root?.querySelector('[data-connector-id]');
    // In the page, laid out, and not hidden (the closed modal may hold a hidden, inert copy).
    return row && row.getBoundingClientRect().width > 0 && row.checkVisibility({ visibilityProperty: true, opacityProperty: false }) ? row : null;
  };
  /** Resolves with the time the first wallet option is in the page (checked on every DOM change). */
  const visible = () => new Promise((resolve) => {
    if (firstOption()) return resolve(performance.now());
    const mo = new MutationObserver(() => { if (firstOption()) { mo.disconnect(); resolve(performance.now()); } });
    mo.observe(document.body, { childList: true, subtree: true });
    const poll = () => { const sr = document.querySelector('wallet-modal-overlay')?.shadowRoot; if (sr) mo.observe(sr, { childList: true, subtree: true, attributes: true }); if (firstOption()) { mo.disconnect(); resolve(performance.now()); } else requestAnimationFrame(poll); };
    requestAnimationFrame(poll);
  });
  await import('/dist/wallet-modal.js');
  await customElements.whenDefined('wallet-modal');
  const ready = performance.now() - t0;
  if (mode === 'idle') {
    while (!el.getState()) await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 1000));
  }
  const start = performance.now();
  const shown = visible();
  el.open();
  const open = (await shown) - start;
  while (!el.getState()) await new Promise((r) => setTimeout(r, 0));
  window.__bench = { ready, open };
</script></body></html>`;

const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css' };
const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/bench.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  if (url.pathname.startsWith('/dist/')) {
    const file = path.join(DIST, path.normalize(url.pathname.slice('/dist/'.length)));
    if (!file.startsWith(DIST)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      return res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      return res.writeHead(404).end();
    }
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

async function once(mode) {
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (r) => (new URL(r.url()).hostname === '127.0.0.1' ? r.continue() : r.abort()));
    await page.goto(`${base}/bench.html?mode=${mode}`);
    await page.waitForFunction(() => window.__bench, { timeout: 20_000 });
    return await page.evaluate(() => window.__bench);
  } finally {
    await browser.close();
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return `median ${median.toFixed(1)} ms  (min ${s[0].toFixed(1)}, max ${s.at(-1).toFixed(1)}, ${s.length} runs)`;
};

try {
  const idle = [];
  const atReady = [];
  for (let i = 0; i < RUNS; i++) {
    idle.push(await once('idle'));
    atReady.push(await once('ready'));
  }
  console.log(`browser, ${DIST === path.join(root, 'dist') ? 'dist/' : DIST}, headless Chromium, fresh profile per run:`);
  console.log(`  ready (element defined)                  ${stats([...idle, ...atReady].map((r) => r.ready))}`);
  console.log(`  open() -> first wallet option, idle 1 s   ${stats(idle.map((r) => r.open))}`);
  console.log(`  open() -> first wallet option, at ready   ${stats(atReady.map((r) => r.open))}`);
} finally {
  server.close();
}
