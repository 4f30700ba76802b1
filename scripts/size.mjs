#!/usr/bin/env node
// `make size`: raw, gzip and brotli bytes of what loads before the Connect view first paints
// (wallet-modal.js, its static imports, the engine .wasm and the views chunk with its static
// imports), of each lazily loaded host module (its glue chunk and .wasm: core/src/modules.rs), of
// each lazy view chunk, of WalletConnect and of ./core; then what a visitor loads for each path
// (open; Account; Swap; Buy; email login; WalletConnect), and for a connected visitor who opens
// Account, Swap and Buy. Exits non-zero when the initial load exceeds its budget or holds a lazily
// loaded module.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const BUDGET_GZIP = 150 * 1024;
/** The target for engine + everything a connected visitor opens (Account, Swap, Buy). */
const CONNECTED_TARGET_GZIP = 250 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const meta = JSON.parse(readFileSync(path.join(root, 'dist/meta.json'), 'utf8'));
const outputs = meta.outputs;

const cache = new Map();
const sizes = (file) => {
  if (!cache.has(file)) {
    const buf = readFileSync(path.join(root, file));
    cache.set(file, {
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return cache.get(file);
};
/** A file with what it imports statically, and the .wasm files they name. */
const staticClosure = (file, seen = new Set()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === 'import-statement') staticClosure(imp.path, seen);
    if (imp.kind === 'file-loader' || imp.path.endsWith('.wasm')) seen.add(imp.path);
  }
  return seen;
};
const outputOf = (entry) => Object.keys(outputs).find((o) => outputs[o].entryPoint === entry);
const wasmOf = (lib) => Object.keys(outputs).find((o) => o.endsWith('.wasm') && path.basename(o).startsWith(`${lib}_bg-`));
const viewChunk = (name) => Object.keys(outputs).find((o) => path.basename(o).startsWith(`${name}-`) && o.endsWith('.js'));

const fmt = (n) => String(n).padStart(9);
const row = (name, s) => console.log(`${fmt(s.raw)} ${fmt(s.gzip)} ${fmt(s.brotli)}  ${name}`);
const sum = (files) => [...files].map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { raw: 0, gzip: 0, brotli: 0 });

// ----- the initial load -----
const entry = 'dist/wallet-modal.js';
const initial = new Set();
for (const imp of outputs[entry].imports) if (imp.kind === 'import-statement') staticClosure(imp.path, initial);
initial.add(entry);
const engineWasm = wasmOf('wallet_modal_engine');
if (engineWasm) initial.add(engineWasm);
const viewsChunk = outputs[entry].imports.find((i) => i.kind === 'dynamic-import' && i.path.includes('react-views'))?.path;
if (viewsChunk) staticClosure(viewsChunk, initial);
// wallet-modal.js names every module's .wasm (the loader's literal URLs); only the engine's loads at once.
for (const f of [...initial]) if (f.endsWith('.wasm') && f !== engineWasm) initial.delete(f);

console.log('      raw      gzip    brotli');
console.log('-- initial load (before the Connect view paints)');
for (const f of initial) row(path.basename(f), sizes(f));
const total = sum(initial);
row('TOTAL initial', total);

/** What a lazily loaded part adds beyond `have`: its chunks' static closure and its wasm. */
function part(label, files, have = initial) {
  const all = new Set();
  for (const f of files.filter(Boolean)) staticClosure(f, all);
  const extra = [...all].filter((f) => !have.has(f) && !(f.endsWith('.wasm') && !files.includes(f)));
  console.log(`-- ${label}`);
  for (const f of extra) row(path.basename(f), sizes(f));
  const s = sum(extra);
  row(`${label}`, s);
  return { files: extra, size: s };
}

// ----- each lazily loaded host module (core/src/modules.rs) -----
// (The account module's glue is loaded through its wrapper, element/ts/account-glue.ts.)
const hostGlue = (name) => outputOf(name === 'account' ? 'element/ts/account-glue.ts' : `element/pkg/${name}/wallet_modal_${name}.js`);
const account = part('account module (lazy): glue + wasm', [hostGlue('account'), wasmOf('wallet_modal_account')]);
const embedded = part('embedded wallet module (lazy): glue + wasm + frame I/O', [hostGlue('embedded'), wasmOf('wallet_modal_embedded'), outputOf('element/ts/frame-io.ts')]);
const wc = part('WalletConnect (lazy): its chunks + wasm', [outputOf('element/ts/walletconnect.ts'), outputOf('element/ts/wc-wasm.ts'), wasmOf('wallet_modal_wc')]);
const siwx = part('sign-in module (lazy, when the page asks for sign-in): glue + wasm + shell', [hostGlue('siwx'), wasmOf('wallet_modal_siwx'), outputOf('element/ts/siwx.ts')]);
// The chain families whose code loads when the host configures one of their networks (Bitcoin,
// Polkadot, Cosmos: one chunk, their rules wasm), and each family's own share of that chunk.
const familiesChunk = outputOf('element/ts/families/more.ts');
const families = [part('Bitcoin, Polkadot and Cosmos families (lazy, when the page configures one of their networks): shell + rules wasm', [familiesChunk, wasmOf('wallet_modal_families')])];
for (const ns of ['bip122', 'polkadot', 'cosmos']) {
  const bytes = Object.entries(meta.outputs[familiesChunk]?.inputs ?? {}).find(([k]) => k.endsWith(`families/${ns}.ts`))?.[1].bytesInOutput ?? 0;
  console.log(`   ${ns}: its own code ${bytes} B minified of that chunk`);
}
if (families[0].size.gzip > 40 * 1024) console.log(`over the 40 KB gzip target per family: ${families[0].size.gzip}`);
const inInitial = [account, embedded, wc, siwx, ...families].flatMap((p) => p.files).filter((f) => initial.has(f));

console.log('-- lazy view chunks');
for (const f of Object.keys(outputs).filter((o) => o.endsWith('.js') && !initial.has(o) && !o.endsWith('/core.js'))) row(path.basename(f), sizes(f));

console.log('-- ./core entry (core.js + its wasm)');
const core = ['dist/core.js', wasmOf('wallet_modal_utils')].filter(Boolean);
for (const f of core) row(path.basename(f), sizes(f));
row('TOTAL ./core', sum(core));

// ----- what a visitor loads, path by path -----
console.log('-- per path (gzip, the initial load included)');
const loaded = new Set(initial);
const path_ = (label, files) => {
  const all = new Set(initial);
  for (const f of files.filter(Boolean)) staticClosure(f, all);
  for (const f of [...all]) if (f.endsWith('.wasm') && f !== engineWasm && !files.includes(f)) all.delete(f);
  console.log(`${fmt(sum(all).gzip)}  ${label}`);
  return all;
};
const accountView = [hostGlue('account'), wasmOf('wallet_modal_account'), viewChunk('Account')];
path_('open (Connect)', []);
path_('Account', accountView);
path_('Swap (from Account)', [...accountView, viewChunk('Swap')]);
path_('Buy (from Account)', [...accountView, viewChunk('Buy')]);
path_('email login', [hostGlue('embedded'), wasmOf('wallet_modal_embedded'), outputOf('element/ts/frame-io.ts'), viewChunk('LoginRows'), viewChunk('EmailLogin')]);
path_('WalletConnect', [outputOf('element/ts/walletconnect.ts'), outputOf('element/ts/wc-wasm.ts'), wasmOf('wallet_modal_wc'), viewChunk('ConnectingWalletConnect')]);
const connected = path_('engine + everything a connected visitor opens (Account, Swap, Buy)', [...accountView, viewChunk('Swap'), viewChunk('Buy')]);
void loaded;
const connectedGzip = sum(connected).gzip;

const ok = total.gzip <= BUDGET_GZIP && inInitial.length === 0 && Boolean(engineWasm) && account.files.length > 0 && embedded.files.length > 0 && wc.files.length > 0;
console.log(`initial gzip ${total.gzip} bytes, budget ${BUDGET_GZIP}: ${total.gzip <= BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`);
console.log(`connected visitor gzip ${connectedGzip} bytes, target ${CONNECTED_TARGET_GZIP}: ${connectedGzip <= CONNECTED_TARGET_GZIP ? 'within target' : 'over target'}`);
console.log(`a lazily loaded module in the initial load: ${inInitial.length ? `YES (error: ${inInitial.join(', ')})` : 'no'}`);
process.exitCode = ok ? 0 : 1;
