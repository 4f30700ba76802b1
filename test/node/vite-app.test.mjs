// What a dapp developer does first: `npm pack` the package, install the tarball into a fresh Vite
// app that imports `wallet-modal` and `wallet-modal/core`, `vite build` it, serve its `dist/` and
// open it in Chromium. The bundler must find every `.wasm` (the loaders name each one with a
// literal `new URL('./file.wasm', import.meta.url)`): open() shows the Connect view, and
// `wallet-modal/core`'s init() loads its module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const app = mkdtempSync(path.join(tmpdir(), 'wallet-modal-vite-'));
let server;
let browser;

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

before(async () => {
  // The package as npm would publish it.
  const packed = execFileSync('npm', ['pack', '--pack-destination', app, '--silent'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'a-dapp', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(app, packed)], { cwd: app, stdio: 'pipe' });
  writeFileSync(
    path.join(app, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A dapp</title></head>
<body><button id="connect">Connect</button><wallet-modal project-id="a-project" api-url="http://127.0.0.1:9"></wallet-modal>
<script type="module" src="/main.js"></script></body></html>`,
  );
  writeFileSync(
    path.join(app, 'main.js'),
    `import 'wallet-modal';
import { init, checksumAddress } from 'wallet-modal/core';
window.coreResult = init().then(() => checksumAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'), (e) => 'init failed: ' + e.message);
document.getElementById('connect').addEventListener('click', () => document.querySelector('wallet-modal').open());
`,
  );
  // The repo's own Vite (a devDependency): the app's build as \`npx vite build\` would run it.
  execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'pipe' });
  const dist = path.join(app, 'dist');
  server = createServer((req, res) => {
    const file = path.join(dist, decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/$/, '/index.html'));
    if (!file.startsWith(dist)) return res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
});

after(async () => {
  await browser?.close();
  server?.close();
  rmSync(app, { recursive: true, force: true });
});

test('vite build copies every wasm the package loads, by its literal URL', () => {
  const assets = readdirSync(path.join(app, 'dist/assets'));
  for (const module of ['engine', 'account', 'embedded', 'utils', 'wc']) {
    assert.ok(assets.some((f) => f.startsWith(`wallet_modal_${module}_bg`) && f.endsWith('.wasm')), `the ${module} module's wasm is in dist/assets: ${assets}`);
  }
});

test('in the built app, open() shows the Connect view and wallet-modal/core init() works', async () => {
  const page = await browser.newPage();
  const failed = [];
  page.on('response', (r) => r.status() >= 400 && !r.url().startsWith('http://127.0.0.1:9/') && failed.push(`${r.status()} ${r.url()}`));
  page.on('pageerror', (e) => failed.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
  assert.equal(await page.evaluate(() => window.coreResult), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  await page.click('#connect');
  await page.waitForFunction(
    () => {
      const root = document.querySelector('wallet-modal-overlay')?.shadowRoot;
      const card = root?.querySelector('[role="dialog"][data-view="Connect"]');
      return Boolean(card && card.getBoundingClientRect().height > 0 && root.querySelector('[part~="wallet"], [part~="connector"], button'));
    },
    { timeout: 15_000 },
  );
  assert.equal(await page.evaluate(() => document.querySelector('wallet-modal').getState().view), 'Connect');
  assert.deepEqual(failed, [], 'nothing of the package failed to load');
  await page.close();
});
