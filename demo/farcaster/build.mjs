#!/usr/bin/env node
// Bundles the demo Farcaster client page's script (src/client.js + viem/accounts + viem/siwe from
// node_modules) into demo/farcaster/dist/farcaster-client.js, which the demo backend serves at
// /demo/farcaster/dist/. Run by scripts/demo.sh; by hand: `node demo/farcaster/build.mjs`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
  absWorkingDir: here,
  entryPoints: { 'farcaster-client': 'src/client.js' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`[farcaster] built ${path.relative(process.cwd(), path.join(here, 'dist/farcaster-client.js'))}`);
