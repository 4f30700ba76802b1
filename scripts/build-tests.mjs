#!/usr/bin/env node
// Bundles each browser test (TS/TSX/JS, with React and chai) into .test-build/ for web-test-runner.
// The product itself is NOT bundled in: tests import the real build from /dist/ and the demo wallet
// from /demo/, which the test server serves as they are.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const walk = (dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.test\.(t|j)sx?$/.test(f) ? [p] : [];
  });
const entries = walk(path.join(root, 'test/browser'));
// WM_TEST_BUILD_DIR lets two runs in one checkout keep apart (default .test-build).
const outdir = process.env.WM_TEST_BUILD_DIR || '.test-build';
rmSync(path.join(root, outdir), { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir,
  outbase: 'test/browser',
  entryNames: '[dir]/[name]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  loader: { '.wasm': 'file' },
  define: { 'process.env.NODE_ENV': '"development"' },
  external: ['/dist/*', '/demo/*'],
  logLevel: 'warning',
});
// A test that bundles the shell's sources (the WalletConnect provider, the views) loads the wasm
// modules by the loaders' literal `new URL('./wallet_modal_x_bg.wasm', import.meta.url)`: pointed
// here at the wasm-bindgen output the test server serves from element/pkg/.
const bundles = (dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? bundles(p) : f.endsWith('.js') ? [p] : [];
  });
for (const file of bundles(path.join(root, outdir))) {
  const js = readFileSync(file, 'utf8');
  const out = js.replace(/(["'])\.\/wallet_modal_(\w+)_bg\.wasm\1/g, (_, q, m) => `${q}/element/pkg/${m}/wallet_modal_${m}_bg.wasm${q}`);
  if (out !== js) writeFileSync(file, out);
}
console.log(`[tests] bundled ${entries.length} browser test files`);
