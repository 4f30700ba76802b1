#!/usr/bin/env node
// The local Bitcoin chain of `make demo` and the tests: Debian's `litecoind` in regtest (Litecoin
// Core, a Bitcoin Core 0.21 fork: segwit and taproot consensus, mempool, mining), started with a
// data folder of its own on a free port, driven with Bitcoin-format addresses through raw output
// scripts. It mines 101 blocks to the Demo Bitcoin wallet's regtest payment address, then 100 to
// an anyone-can-spend script (so that all of the wallet's coinbases can be spent), prints `bitcoin on http://user:password@127.0.0.1:port` and, with
// `--out FILE`, writes `{rpcUrl, genesis, funded}` there. Stopping this process stops the node.
// Its genesis (and so the CAIP-2 id, bip122:530827f38f93b43ed12af0b3ad25a288) is litecoind's
// regtest genesis, not Bitcoin's.
//
//   node demo/bitcoin/regtest.mjs [--out bitcoin.json] [--mine-every 10]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BITCOIN_DEMO_SEED, bitcoinAddresses } from '../wallet/families/bitcoin-wallet.js';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const out = arg('--out');

try {
  execFileSync('litecoind', ['-version'], { stdio: 'ignore' });
} catch {
  console.error('litecoind is not installed (Debian: apt-get install litecoind; scripts/tools.sh installs it)');
  process.exit(2);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const dir = mkdtempSync(path.join(tmpdir(), 'wm-regtest-'));
const [rpcPort, port] = [await freePort(), await freePort()];
const auth = 'wm:regtest';
const node = spawn(
  'litecoind',
  [
    '-regtest', '-server', '-listen=0', `-port=${port}`, `-rpcport=${rpcPort}`, '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1',
    `-rpcuser=${auth.split(':')[0]}`, `-rpcpassword=${auth.split(':')[1]}`, `-datadir=${dir}`,
    // MWEB would activate after ~430 blocks and break block templates without it (REAL-PARTS.md).
    '-vbparams=mweb:-2:0', '-txindex=1', '-fallbackfee=0.0002', '-printtoconsole=0',
  ],
  { stdio: 'ignore' },
);
// On SIGTERM/SIGINT: stop litecoind, wait for it to exit (SIGKILL after 10 s), then remove its
// data folder, so no run leaves a chain behind in the temporary folder.
let stopping = false;
const exited = new Promise((resolve) => node.once('exit', resolve));
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  node.kill('SIGTERM');
  const kill = setTimeout(() => node.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(kill);
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
};
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
// A failed start (litecoind not answering, a refused call) stops the node too.
process.on('uncaughtException', (e) => {
  console.error(e?.stack ?? String(e));
  stop(1);
});
node.on('exit', (code) => {
  if (stopping) return;
  console.error(`litecoind exited (${code})`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});

const rpcUrl = `http://127.0.0.1:${rpcPort}/`;
async function rpc(method, params = []) {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

for (let i = 0; ; i++) {
  try {
    await rpc('getblockcount');
    break;
  } catch (e) {
    if (i > 1200) throw new Error(`litecoind did not answer in 2 minutes: ${e.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const { payment } = bitcoinAddresses(BITCOIN_DEMO_SEED, 'regtest');
const script = Buffer.from(payment.script).toString('hex');
await rpc('generatetodescriptor', [101, `raw(${script})`]);
// A hundred more blocks to an anyone-can-spend script: every coinbase the wallet holds is then
// mature (spendable after 100 confirmations), whichever of them a transfer picks.
await rpc('generatetodescriptor', [100, 'raw(51)']);
const genesis = await rpc('getblockhash', [0]);
const url = `http://${auth}@127.0.0.1:${rpcPort}`;
if (out) writeFileSync(out, JSON.stringify({ rpcUrl: url, genesis, funded: payment.address }));
console.log(`bitcoin on ${url}`);

// `--mine-every SECONDS` (make demo): a block whenever the mempool holds a transaction, checked
// that often, so that a transfer sent in the demo confirms as on a real chain (only slower there).
const every = Number(arg('--mine-every'));
if (every > 0) {
  setInterval(async () => {
    try {
      if ((await rpc('getmempoolinfo')).size > 0) await rpc('generatetodescriptor', [1, 'raw(51)']);
    } catch (e) {
      console.error(`mining: ${e.message}`);
    }
  }, every * 1000);
}
