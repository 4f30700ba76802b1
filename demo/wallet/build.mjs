#!/usr/bin/env node
// Bundles the test wallets that need libraries (demo/wallet/families/: the Bitcoin wallets on
// @scure/btc-signer, the Polkadot extension on @polkadot/keyring, the Keplr wallet on @cosmjs/amino)
// into demo/wallet/dist/, served at /demo/wallet/dist/. Run by scripts/demo.sh and scripts/test.sh;
// by hand: `node demo/wallet/build.mjs`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
  absWorkingDir: here,
  entryPoints: {
    'bitcoin-wallet': 'families/bitcoin-wallet.js',
    'polkadot-extension': 'families/polkadot-extension.js',
    'keplr-wallet': 'families/keplr-wallet.js',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
console.log('[wallets] built demo/wallet/dist/{bitcoin-wallet,polkadot-extension,keplr-wallet}.js');
