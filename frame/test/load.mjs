// Loads the frame's TypeScript sources (all but main.ts; the approval's are given a document, in
// Node frame/test/dom.mjs's) in Node for the tests in test/node/frame-*.test.mjs: esbuild bundles
// them (with viem and the language catalogues) into one ES module in a temporary folder, which is
// imported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const modules = [
  'origin', 'messages', 'store', 'validate', 'http', 'keys', 'sign', 'tx', 'nonce', 'rpc', 'jsonrpc', 'api', 'wallet', 'handlers', 'frame', 'prepare',
  'solana', 'review/review', 'review/calls', 'review/tokens', 'review/networks', 'review/text', 'consent/gate', 'consent/theme',
  'consent/view', 'consent/consent', 'i18n/i18n',
];

/** Every export of frame/src/{origin,messages,…}.ts, as one namespace. */
export async function loadFrame() {
  const dir = mkdtempSync(path.join(tmpdir(), 'wm-frame-test-'));
  const outfile = path.join(dir, 'frame.mjs');
  try {
    await esbuild.build({
      absWorkingDir: root,
      stdin: {
        contents: modules.map((m) => `export * from './frame/src/${m}.ts';`).join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      // The frame is browser code; Node 20 has every global it uses (fetch, crypto, atob, TextEncoder).
      platform: 'browser',
      target: 'es2022',
      outfile,
      logLevel: 'error',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
