#!/usr/bin/env node
// Bundles the Demo Mobile Wallet (src/wallet.js + @walletconnect/sign-client from node_modules) into
// demo/wallet-mobile/dist/wallet-mobile.js, which the demo backend serves at /wallet-mobile/dist/.
// Run by scripts/demo.sh; by hand: `node demo/wallet-mobile/build.mjs`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
  absWorkingDir: here,
  entryPoints: { 'wallet-mobile': 'src/wallet.js' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  // Some of sign-client's dependencies still look for Node's `global` and `process.env`.
  define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
console.log(`[wallet-mobile] built ${path.relative(process.cwd(), path.join(here, 'dist/wallet-mobile.js'))}`);
