#!/usr/bin/env node
// `npx wallet-modal-devnet [--json FILE] [--verbose]`: starts the devnet (index.mjs), prints its URLs
// and then its description as JSON on stdout (also written to FILE), and runs until Ctrl-C or TERM,
// then stops exactly the processes it started.
import { writeFileSync } from 'node:fs';
import { startDevnet } from './index.mjs';

const args = process.argv.slice(2);
const usage = 'usage: wallet-modal-devnet [--json FILE] [--verbose]';
let jsonFile = null;
let verbose = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json' && args[i + 1]) jsonFile = args[++i];
  else if (args[i] === '--verbose') verbose = true;
  else {
    console.error(args[i] === '--help' || args[i] === '-h' ? usage : `wallet-modal-devnet: unknown option ${args[i]}\n${usage}`);
    process.exit(args[i] === '--help' || args[i] === '-h' ? 0 : 2);
  }
}

let devnet;
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.error('wallet-modal-devnet: stopping');
  await devnet?.stop();
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  devnet = await startDevnet({ verbose });
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
const d = devnet.description;
const lines = [
  ['Demo page', d.page],
  ['Backend (api-url)', d.apiUrl],
  ['WalletConnect relay', d.relayUrl],
  ['Secure frame', d.frameUrl],
  ...d.evm.chains.map((c) => [`${c.name} (${c.caipNetworkId})`, c.rpcUrl]),
  ...(d.solana ? [[`Solana (${d.solana.caipNetworkId})`, d.solana.rpcUrl]] : []),
  ...(d.bitcoin ? [['Bitcoin Esplora API', d.bitcoin.esploraUrl]] : []),
  ['Mail sink', d.mail.web],
  ['OpenID Connect', d.oidc.issuer],
  ['EVM test wallet', d.wallets.evm],
];
console.error(`\nwallet-modal devnet is up${devnet.log ? ` (log: ${devnet.log})` : ''}\n`);
for (const [k, v] of lines) console.error(`  ${k.padEnd(28)} ${v}`);
console.error('\n  Ctrl-C stops it. The description follows on stdout.\n');
const json = JSON.stringify(d, null, 2);
if (jsonFile) writeFileSync(jsonFile, json);
console.log(json);
const ended = await devnet.exited;
if (!stopping) {
  console.error(`wallet-modal-devnet: a devnet process exited (${ended.signal ?? `exit ${ended.code}`}); stopped`);
  await devnet.stop();
  process.exit(1);
}
