#!/usr/bin/env node
// `make build`: Rust → wasm32 → wasm-bindgen → wasm-opt -Oz → esbuild → dist/ (+ TypeScript declarations).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = process.env.WM_TOOLS || path.join(homedir(), '.cache/wallet-modal-tools');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
const step = (msg) => console.log(`[build] ${msg}`);
// Cargo's output folder: CARGO_TARGET_DIR when set (relative to the repo, as cargo reads it), else ./target.
const targetDir = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');

// The wasm modules: the host modules of core/src/modules.rs (the engine, loaded at start-up; the
// account module, the embedded wallet and sign-in, each loaded when first needed), the ./core utilities
// (curve crypto) and the WalletConnect client + QR encoder (loaded only when WalletConnect is used).
const modules = [
  { crate: 'wallet-modal-engine', lib: 'wallet_modal_engine', out: 'element/pkg/engine' },
  { crate: 'wallet-modal-utils', lib: 'wallet_modal_utils', out: 'element/pkg/utils' },
  { crate: 'wallet-modal-wc', lib: 'wallet_modal_wc', out: 'element/pkg/wc' },
  { crate: 'wallet-modal-account', lib: 'wallet_modal_account', out: 'element/pkg/account' },
  { crate: 'wallet-modal-embedded', lib: 'wallet_modal_embedded', out: 'element/pkg/embedded' },
  { crate: 'wallet-modal-siwx', lib: 'wallet_modal_siwx', out: 'element/pkg/siwx' },
  // The rules of the families whose shell files load lazily (Bitcoin, Polkadot, Cosmos).
  { crate: 'wallet-modal-families', lib: 'wallet_modal_families', out: 'element/pkg/families' },
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
        // sha2's compact SHA-256 (a loop, not 64 unrolled rounds): ~3 KB less gzipped account
        // module (the Solana family's program addresses) and WalletConnect module.
        RUSTFLAGS: '-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none --cfg sha2_backend_soft="compact"',
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
    '-Oz', '--converge', '--one-caller-inline-max-function-size=10', '--low-memory-unused', '--strip-debug', '--strip-producers',
    // The engine only (the initial load): its control flow flattened and rebuilt, then shrunk
    // again: ~350 B less gzipped; then the values that can reach each place inferred over the
    // whole module (GUFA: the exports count as unknown callers) and what they make constant or
    // dead removed: ~100 B more.
    ...(m.lib === 'wallet_modal_engine' ? ['--flatten', '--rereloop', '-Oz', '--gufa-optimizing', '--converge', '-Oz'] : []),
    wasm, '-o', wasm,
  ]);
}

// The views' stylesheets are CSS in template literals (`const X_CSS = String.raw\`…\``, or `css`):
// minified here, like the JavaScript around them, so the initial sheet costs ~300 B gzip less.
// A template with a substitution, or a plain one with a backslash escape, is left as written.
// The views' internal custom properties (`--_accent`, `--_fg2`…: never set by a host, which sets
// `--wm-*`) get short names, the same in every file (~85 B gzip off the initial sheet).
const cssVars = new Map();
{
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
  const names = new Set(walk(path.join(root, 'react-views')).flatMap((f) => readFileSync(f, 'utf8').match(/--_[a-z][a-z0-9-]*/g) ?? []));
  [...names].sort().forEach((name, i) => cssVars.set(name, `--_${i.toString(36)}`));
}
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
      return { contents: contents.replace(/--_[a-z][a-z0-9-]*/g, (name) => cssVars.get(name) ?? name), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
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
  // WM_DEBUG_BUILD=1: readable stacks (a local debugging aid; never in CI).
  minify: !process.env.WM_DEBUG_BUILD,
  sourcemap: false,
  metafile: true,
  legalComments: 'none',
  // Text as UTF-8, not \u escapes (module scripts are always read as UTF-8): the language
  // catalogues are a third smaller.
  charset: 'utf8',
  // Flat output: a chunk resolves `new URL('./x.wasm', import.meta.url)` next to itself.
  chunkNames: '[name]-[hash]',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['node:fs/promises'],
  plugins: [minifyViewCss],
});
// The local names again, by terser's mangler: it hands the shortest names and the most frequent
// characters to the most used bindings, which gzip compresses better than esbuild's naming
// (~0.9 KB less gzipped initial load, most of it in react-dom); strings, properties and exported
// names are untouched. Terser's safe compressor (two passes) is kept for a chunk only when its
// output gzips smaller (our own shell: ~170 B less; React's code is smaller as esbuild left it).
if (!process.env.WM_DEBUG_BUILD) {
  const { minify } = await import('terser');
  const gz = (code) => gzipSync(code, { level: 9 }).length;
  for (const out of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
    const p = path.join(root, out);
    const src = readFileSync(p, 'utf8');
    const opts = { module: true, ecma: 2020, mangle: true, format: { comments: false } };
    const named = (await minify(src, { ...opts, compress: false })).code;
    const compressed = (await minify(src, { ...opts, compress: { passes: 2 } })).code;
    writeFileSync(p, gz(compressed) < gz(named) ? compressed : named);
  }
}
// Each module's `.wasm` goes beside the chunks with a content hash in its name, and the literal
// `new URL('./x_bg.wasm', import.meta.url)` of the loaders (element/ts/modules.ts, core.ts,
// wc-wasm.ts) is rewritten to that name: still a literal, which a dapp's bundler follows to copy
// the file with its own build.
const wasmFiles = {};
for (const m of modules) {
  const file = `${m.lib}_bg.wasm`;
  const bytes = readFileSync(path.join(root, m.out, file));
  const hashed = `${m.lib}_bg-${createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase()}.wasm`;
  copyFileSync(path.join(root, m.out, file), path.join(root, 'dist', hashed));
  wasmFiles[file] = hashed;
}
let rewritten = 0;
for (const f of readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js'))) {
  const p = path.join(root, 'dist', f);
  let js = readFileSync(p, 'utf8');
  const before = js;
  for (const [plain, hashed] of Object.entries(wasmFiles)) {
    js = js.replaceAll(`"./${plain}"`, `"./${hashed}"`);
  }
  if (js !== before) {
    writeFileSync(p, js);
    rewritten++;
    // The size report follows which chunk references which wasm.
    const out = result.metafile.outputs[`dist/${f}`];
    if (out) for (const [plain, hashed] of Object.entries(wasmFiles)) if (before.includes(`"./${plain}"`)) out.imports.push({ path: `dist/${hashed}`, kind: 'file-loader' });
  }
}
for (const [plain, hashed] of Object.entries(wasmFiles)) result.metafile.outputs[`dist/${hashed}`] = { imports: [], bytes: 0, inputs: {}, entryPoint: undefined, wasm: plain };
if (rewritten === 0) throw new Error('no loader names a .wasm file: the literal new URL(...) pattern was lost');
writeFileSync(path.join(root, 'dist/meta.json'), JSON.stringify(result.metafile));

// `wallet-modal/wagmi`: the connector, on its own (no chunk shared with the element, which it only
// talks to through the page's <wallet-modal>); wagmi and viem are the app's own, not bundled.
step('esbuild wagmi');
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { wagmi: 'element/ts/wagmi.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: !process.env.WM_DEBUG_BUILD,
  legalComments: 'none',
  external: ['@wagmi/core', 'viem'],
});

// The secure frame's script and stylesheet (frame/, served by the wallet service as /frame/frame.js
// and /frame/frame.css on its own origin): a bundle of its own, sharing no chunk with the element.
// Each language's catalogue (frame/src/i18n/<tag>.ts) is a file of its own,
// dist/frame/i18n/<tag>-<hash>.js, which frame.js imports (dynamic import, same origin) only for
// the language it shows: English loads none. (esbuild's code splitting would also cut viem's own
// lazy imports out of frame.js; the catalogues are built apart and frame.js names them instead.)
// No source map is published next to it (the wallet service serves only .js and .css).
step('esbuild frame');
rmSync(path.join(root, 'dist/frame'), { recursive: true, force: true });
const frameCatalogues = readdirSync(path.join(root, 'frame/src/i18n')).filter((f) => f.endsWith('.ts') && f !== 'i18n.ts');
const catalogueBuild = await esbuild.build({
  absWorkingDir: root,
  entryPoints: frameCatalogues.map((f) => `frame/src/i18n/${f}`),
  outdir: 'dist/frame/i18n',
  entryNames: '[name]-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // The texts as they are (not \u escapes): module scripts are always read as UTF-8.
  charset: 'utf8',
  minify: !process.env.WM_DEBUG_BUILD,
  legalComments: 'none',
  metafile: true,
});
/** frame/src/i18n/<tag>.ts → its built file, as frame.js imports it (relative to /frame/frame.js). */
const catalogueFiles = new Map(
  Object.entries(catalogueBuild.metafile.outputs).map(([out, o]) => [path.resolve(root, o.entryPoint), `./i18n/${path.basename(out)}`]),
);
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['frame/src/main.ts'],
  outfile: 'dist/frame/frame.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // WM_DEBUG_BUILD=1: readable stacks (a local debugging aid; never in CI).
  minify: !process.env.WM_DEBUG_BUILD,
  sourcemap: false,
  legalComments: 'none',
  plugins: [
    {
      name: 'frame-catalogues',
      setup(b) {
        // import('./es.ts') in frame/src/i18n/i18n.ts: the catalogue built above, not bundled in.
        b.onResolve({ filter: /^\.\/[\w-]+\.ts$/ }, (args) => {
          if (args.kind !== 'dynamic-import' || !args.importer.endsWith(path.join('frame', 'src', 'i18n', 'i18n.ts'))) return undefined;
          const file = catalogueFiles.get(path.resolve(args.resolveDir, args.path));
          if (!file) throw new Error(`frame: no catalogue built for ${args.path}`);
          return { path: file, external: true };
        });
      },
    },
  ],
});
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['frame/src/consent/frame.css'],
  outfile: 'dist/frame/frame.css',
  bundle: true,
  minify: true,
  legalComments: 'none',
});

step('tsc declarations');
run(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
step('done');
