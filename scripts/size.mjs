#!/usr/bin/env node
// `make size`: raw, gzip and brotli bytes of what loads before the Connect view first paints
// (wallet-modal.js, its static imports, the engine .wasm and the views chunk with its static imports)
// and of each lazily loaded chunk, with the WalletConnect part (JS + wasm) summed apart. Exits
// non-zero when the initial load exceeds the budget or contains any WalletConnect file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const BUDGET_GZIP = 150 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const meta = JSON.parse(readFileSync(path.join(root, 'dist/meta.json'), 'utf8'));
const outputs = meta.outputs;

const sizes = (file) => {
  const buf = readFileSync(path.join(root, file));
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const staticClosure = (file, seen = new Set()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === 'import-statement') staticClosure(imp.path, seen);
    if (imp.kind === 'file-loader' || imp.path.endsWith('.wasm')) seen.add(imp.path);
  }
  return seen;
};
const dynamicOf = (file) => (outputs[file]?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
const wasmOf = (files) => Object.keys(outputs).filter((o) => o.endsWith('.wasm') && [...files].some((f) => (outputs[f]?.imports ?? []).some((i) => i.path === o)));

const entry = 'dist/wallet-modal.js';
const initial = staticClosure(entry);
const viewsChunk = dynamicOf(entry).find((p) => p.includes('react-views'));
if (viewsChunk) staticClosure(viewsChunk, initial);
for (const w of wasmOf(initial)) initial.add(w);
const engineWasm = Object.keys(outputs).find((o) => o.includes('wallet_modal_element_bg'));
if (engineWasm) initial.add(engineWasm);

const fmt = (n) => String(n).padStart(9);
const row = (name, s) => console.log(`${fmt(s.raw)} ${fmt(s.gzip)} ${fmt(s.brotli)}  ${name}`);
const sum = (files) => [...files].map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { raw: 0, gzip: 0, brotli: 0 });

console.log('      raw      gzip    brotli');
console.log('-- initial load (before the Connect view paints)');
for (const f of initial) row(path.basename(f), sizes(f));
const total = sum(initial);
row('TOTAL initial', total);
console.log('-- lazy chunks');
const lazy = Object.keys(outputs).filter((o) => o.endsWith('.js') && !initial.has(o) && !o.endsWith('/core.js'));
for (const f of lazy) row(path.basename(f), sizes(f));

// WalletConnect: the walletconnect.ts and wc-wasm.ts chunks (the provider and the wasm loader the
// QR code view uses), what they import statically beyond the initial load, and the .wasm. None of it
// may be part of the initial load.
const wcEntries = Object.keys(outputs).filter((o) => /^element\/ts\/(walletconnect|wc-wasm)\.ts$/.test(outputs[o].entryPoint ?? ''));
const wcWasm = Object.keys(outputs).find((o) => o.includes('wallet_modal_wc_bg'));
const wcAll = new Set(wcWasm ? [wcWasm] : []);
for (const e of wcEntries) staticClosure(e, wcAll);
const wcFiles = [...wcAll].filter((f) => !initial.has(f));
const wcInInitial = [wcWasm, ...wcEntries].filter((f) => f && initial.has(f));
console.log('-- WalletConnect (lazy): its JS chunks + wasm');
for (const f of wcFiles) row(path.basename(f), sizes(f));
row('WalletConnect (lazy)', sum(wcFiles));
if (wcEntries.length < 2 || !wcWasm) console.log('WalletConnect chunks or wasm missing from the build');

// The account module: account-wasm.ts's chunk and its wasm (loaded when the Account view shows).
const accountEntries = Object.keys(outputs).filter((o) => /^element\/ts\/account-wasm\.ts$/.test(outputs[o].entryPoint ?? ''));
const accountWasm = Object.keys(outputs).find((o) => o.includes('wallet_modal_account_bg'));
const accountAll = new Set(accountWasm ? [accountWasm] : []);
for (const e of accountEntries) staticClosure(e, accountAll);
const accountFiles = [...accountAll].filter((f) => !initial.has(f));
const accountInInitial = [accountWasm, ...accountEntries].filter((f) => f && initial.has(f));
console.log('-- Account module (lazy): its JS chunk + wasm');
for (const f of accountFiles) row(path.basename(f), sizes(f));
row('Account module (lazy)', sum(accountFiles));

console.log('-- ./core entry (core.js + its wasm)');
const core = Object.keys(outputs).filter((o) => o.endsWith('/core.js') || o.includes('wallet_modal_utils_bg'));
for (const f of core) row(path.basename(f), sizes(f));
row('TOTAL ./core', sum(core));
// The Swap and Buy screens' modules: each its loader chunk, what it imports beyond the initial
// load and the account module, and its wasm (loaded when its button is pressed).
const tradeInInitial = [];
for (const [name, file] of [['Swap', 'swap'], ['Buy', 'buy']]) {
  const entries = Object.keys(outputs).filter((o) => outputs[o].entryPoint === `element/ts/${file}-wasm.ts`);
  const wasm = Object.keys(outputs).find((o) => o.includes(`wallet_modal_${file}_bg`));
  const all = new Set(wasm ? [wasm] : []);
  for (const e of entries) staticClosure(e, all);
  const files = [...all].filter((f) => !initial.has(f) && !accountAll.has(f));
  tradeInInitial.push(...[wasm, ...entries].filter((f) => f && initial.has(f)));
  console.log(`-- ${name} module (lazy): its JS chunks + wasm`);
  for (const f of files) row(path.basename(f), sizes(f));
  row(`${name} module (lazy)`, sum(files));
}
const ok = total.gzip <= BUDGET_GZIP && tradeInInitial.length === 0 && wcInInitial.length === 0 && wcEntries.length === 2 && Boolean(wcWasm) && accountInInitial.length === 0 && Boolean(accountWasm);
console.log(`initial gzip ${total.gzip} bytes, budget ${BUDGET_GZIP}: ${total.gzip <= BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`);
console.log(`WalletConnect in the initial load: ${wcInInitial.length ? `YES (error: ${wcInInitial.join(', ')})` : 'no'}`);
console.log(`Account module in the initial load: ${accountInInitial.length ? `YES (error: ${accountInInitial.join(', ')})` : 'no'}`);
process.exitCode = ok ? 0 : 1;
