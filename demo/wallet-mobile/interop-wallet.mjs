// The wallet side of the native interop test (server/tests/wc_interop.rs): the official
// @walletconnect/sign-client, driven over stdin/stdout with one JSON object per line.
//
//   node demo/wallet-mobile/interop-wallet.mjs --relay ws://127.0.0.1:P/relay [--rpc eip155:31337=http://…]…
//
// stdin commands:  {"pair": "wc:…"}
//                  {"emit": {"topic": "…", "chainId": "eip155:31338", "name": "chainChanged", "data": 31338}}
//                  {"disconnect": "<session topic>"}
// stdout events:   {"event": "ready"}
//                  {"event": "session_proposal", "proposer": {…metadata}, "chains": [...], "methods": [...]}
//                  {"event": "approved", "topic": "…", "accounts": [...]}
//                  {"event": "session_request", "method": "…", "chainId": "…"}
//                  {"event": "responded", "method": "…", "result": … | "error": {…}}
//                  {"event": "emitted", "name": "…"}, {"event": "disconnected", "topic": "…"}
//                  {"event": "session_delete", "topic": "…"}, {"event": "error", "message": "…"}
//
// The wallet approves every proposal with anvil's first dev account on the chains it has an RPC
// for, and answers every request by forwarding it to that chain's anvil (the account is unlocked
// there, so anvil signs and sends). Storage is in memory: nothing is written to disk.
import { createInterface } from 'node:readline';
import { SignClient } from '@walletconnect/sign-client';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function parseArgs(argv) {
  const args = { relay: '', rpc: {} };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--relay') args.relay = value;
    else if (flag === '--rpc') {
      const at = value.indexOf('=');
      args.rpc[value.slice(0, at)] = value.slice(at + 1);
    } else throw new Error(`unknown argument ${flag}`);
  }
  if (!args.relay) throw new Error('usage: interop-wallet.mjs --relay ws://HOST:PORT/relay [--rpc CHAIN=URL]…');
  return args;
}

const say = (event, fields = {}) => process.stdout.write(JSON.stringify({ event, ...fields }) + '\n');

/** In-memory IKeyValueStorage. */
class MemoryStorage {
  #m = new Map();
  async getKeys() { return [...this.#m.keys()]; }
  async getEntries() { return [...this.#m.entries()]; }
  async getItem(k) { return this.#m.get(k); }
  async setItem(k, v) { this.#m.set(k, v); }
  async removeItem(k) { this.#m.delete(k); }
}

async function rpc(url, method, params) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

const args = parseArgs(process.argv.slice(2));
const chains = Object.keys(args.rpc);

const wallet = await SignClient.init({
  projectId: 'demo-project',
  relayUrl: args.relay,
  logger: process.env.WC_LOG || 'silent',
  telemetryEnabled: false,
  storage: new MemoryStorage(),
  metadata: { name: 'Interop Wallet', description: 'official sign-client', url: 'http://127.0.0.1', icons: [] },
});

wallet.on('session_proposal', async ({ id, params }) => {
  const offered = { ...params.requiredNamespaces.eip155, ...params.optionalNamespaces.eip155 };
  say('session_proposal', { proposer: params.proposer.metadata, chains: offered.chains ?? [], methods: offered.methods ?? [] });
  const approvedChains = (offered.chains ?? []).filter((c) => chains.includes(c));
  const namespaces = {
    eip155: {
      chains: approvedChains,
      accounts: approvedChains.map((c) => `${c}:${ACCOUNT}`),
      methods: offered.methods ?? [],
      events: offered.events ?? [],
    },
  };
  try {
    const { topic, acknowledged } = await wallet.approve({ id, namespaces });
    await acknowledged();
    say('approved', { topic, accounts: namespaces.eip155.accounts });
  } catch (e) {
    say('error', { message: `approve failed: ${e.message}` });
  }
});

wallet.on('session_request', async ({ topic, id, params }) => {
  const { chainId, request } = params;
  say('session_request', { method: request.method, chainId });
  let response;
  try {
    const url = args.rpc[chainId];
    if (!url) throw Object.assign(new Error(`no RPC for ${chainId}`), { code: 5100 });
    response = { id, jsonrpc: '2.0', result: await rpc(url, request.method, request.params) };
  } catch (e) {
    response = { id, jsonrpc: '2.0', error: { code: e.code ?? 5000, message: e.message } };
  }
  await wallet.respond({ topic, response });
  say('responded', { method: request.method, ...('result' in response ? { result: response.result } : { error: response.error }) });
});

wallet.on('session_delete', ({ topic }) => say('session_delete', { topic }));

async function run(command) {
  if (command.pair) {
    await wallet.pair({ uri: command.pair });
  } else if (command.emit) {
    const { topic, chainId, name, data } = command.emit;
    await wallet.emit({ topic, chainId, event: { name, data } });
    say('emitted', { name });
  } else if (command.disconnect) {
    await wallet.disconnect({ topic: command.disconnect, reason: { code: 6000, message: 'User disconnected.' } });
    say('disconnected', { topic: command.disconnect });
  } else {
    throw new Error(`unknown command ${JSON.stringify(command)}`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  Promise.resolve()
    .then(() => run(JSON.parse(line)))
    .catch((e) => say('error', { message: `${line.slice(0, 80)}: ${e.message}` }));
});
// The test closes stdin (or kills us) when it is done.
process.stdin.on('end', () => setImmediate(process.exit));
say('ready');
