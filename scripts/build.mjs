#!/usr/bin/env node
// `make build`: Rust → wasm32 → wasm-bindgen → wasm-opt -Oz → esbuild → dist/ (+ TypeScript declarations).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = process.env.WM_TOOLS || path.join(homedir(), '.cache/wallet-modal-tools');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
const step = (msg) => console.log(`[build] ${msg}`);
// Cargo's output folder: CARGO_TARGET_DIR when set (relative to the repo, as cargo reads it), else ./target.
const targetDir = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');

// The wasm modules: the element's engine (loaded at start-up), the ./core utilities (curve crypto),
// the WalletConnect client + QR encoder (a lazy chunk, loaded only when WalletConnect is used) and
// the account module (a lazy chunk, loaded when the Account view first shows).
const modules = [
  { crate: 'wallet-modal-element', lib: 'wallet_modal_element', out: 'element/pkg/engine' },
  { crate: 'wallet-modal-utils', lib: 'wallet_modal_utils', out: 'element/pkg/utils' },
  { crate: 'wallet-modal-wc', lib: 'wallet_modal_wc', out: 'element/pkg/wc' },
  // The account module (portfolio, activity): a lazy chunk, loaded when the Account view shows.
  { crate: 'wallet-modal-account', lib: 'wallet_modal_account', out: 'element/pkg/account' },
  // The Swap and the Buy screens' modules: each a lazy chunk, loaded when its button is pressed.
  { crate: 'wallet-modal-swap', lib: 'wallet_modal_swap', out: 'element/pkg/swap' },
  { crate: 'wallet-modal-buy', lib: 'wallet_modal_buy', out: 'element/pkg/buy' },
  // The embedded wallet (email, social, Farcaster, ApproveTransaction): a lazy chunk, loaded when
  // the Connect view shows an email or social row or an embedded session is restored.
  { crate: 'wallet-modal-embedded', lib: 'wallet_modal_embedded', out: 'element/pkg/embedded' },
];

step('cargo build --release --target wasm32-unknown-unknown');
// The standard library is rebuilt for the wasm modules with panics that abort at once (no panic
// message formatting compiled in: panics trap either way in the browser), no panic locations, and
// std's size-optimised code paths: ~10 KB less gzipped engine. `-Zbuild-std` is unstable, so
// RUSTC_BOOTSTRAP=1 enables it on the pinned stable toolchain (as the Linux kernel builds its Rust)
// for this one cargo invocation; native builds and tests are untouched. Needs the rust-src
// component (scripts/tools.sh installs it).
//
// The engine is built on its own: built together, cargo unifies the features the other modules ask
// of their shared dependencies (curve crypto, WalletConnect's ciphers) into the engine's build too,
// which costs the initial load ~600 B gzipped for code it never runs.
for (const group of [modules.slice(0, 1), modules.slice(1)]) {
  run(
    'cargo',
    [
      'build', '--release', '--target', 'wasm32-unknown-unknown',
      '-Zbuild-std=std,panic_abort', '-Zbuild-std-features=optimize_for_size',
      ...group.flatMap((m) => ['-p', m.crate]),
    ],
    {
      env: {
        ...process.env,
        RUSTC_BOOTSTRAP: '1',
        RUSTFLAGS: '-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none',
      },
    },
  );
}

for (const m of modules) {
  step(`wasm-bindgen ${m.lib}`);
  rmSync(path.join(root, m.out), { recursive: true, force: true });
  run(path.join(tools, 'bin/wasm-bindgen'), [
    // No default module path: the glue would name the unhashed file, which bundlers then look for.
    '--target', 'web', '--out-dir', m.out, '--typescript', '--omit-default-module-path',
    path.join(targetDir, 'wasm32-unknown-unknown/release', `${m.lib}.wasm`),
  ]);
  step(`wasm-opt -Oz ${m.lib}`);
  const wasm = path.join(m.out, `${m.lib}_bg.wasm`);
  // `-ocimfs=10`: do not inline big functions into their only caller. The binary gets a few KB
  // larger but ~8 KB smaller gzipped (huge merged functions compress badly). `--converge` and the
  // strips save another ~1 KB.
  run(path.join(root, 'node_modules/.bin/wasm-opt'), [
    // `--low-memory-unused`: Rust's wasm32 layout puts the stack first, growing down from 1 MiB, so
    // the first 1 KiB is never addressed (only a stack overflow could reach it); wasm-opt can then
    // fold small constant offsets into addresses: about 250 B less gzipped engine.
    '-Oz', '--converge', '--one-caller-inline-max-function-size=10', '--low-memory-unused', '--strip-debug', '--strip-producers', wasm, '-o', wasm,
  ]);
}

// The views' stylesheets are CSS in template literals (`const X_CSS = String.raw\`…\``, or `css`):
// minified here, like the JavaScript around them, so the initial sheet costs ~300 B gzip less.
// A template with a substitution, or a plain one with a backslash escape, is left as written.
const minifyViewCss = {
  name: 'minify-view-css',
  setup(build) {
    build.onLoad({ filter: /react-views[\\/].*\.tsx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const contents = source.replace(
        /(\b(?:css|[A-Z_]+_CSS)\s*=\s*)(String\.raw)?`([^`]*)`/g,
        (whole, head, raw, css) => {
          if (css.includes('${') || (!raw && css.includes('\\'))) return whole;
          const min = esbuild.transformSync(css, { loader: 'css', minify: true }).code.trim();
          return head + JSON.stringify(min);
        },
      );
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

step('esbuild');
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
mkdirSync(path.join(root, 'dist'), { recursive: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { 'wallet-modal': 'element/ts/index.ts', core: 'element/ts/core.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  metafile: true,
  legalComments: 'none',
  // Flat output: a chunk resolves `new URL(wasm, import.meta.url)` next to itself.
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.wasm': 'file' },
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['node:fs/promises'],
  plugins: [minifyViewCss],
});
writeFileSync(path.join(root, 'dist/meta.json'), JSON.stringify(result.metafile));

// The secure frame's script (frame/, served by the wallet service as /frame/frame.js on its own
// origin): a bundle of its own, sharing no chunk with the element; its source map alongside.
step('esbuild frame');
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['frame/src/main.ts'],
  outfile: 'dist/frame/frame.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
});

step('tsc declarations');
run(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
step('done');
