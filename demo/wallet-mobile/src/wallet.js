// Demo Mobile Wallet: a WalletConnect wallet in a browser tab, built on the official
// @walletconnect/sign-client (bundled by ../build.mjs). It pairs through the demo backend's relay
// (same origin, /relay), holds anvil's first dev account and answers approved requests through the
// anvil chains of /demo-config.json (the account is unlocked there, so anvil signs and sends); on
// the local Solana chain of the same file it holds an ed25519 key (WebCrypto) and answers
// WalletConnect's Solana methods (solana_signMessage, solana_signTransaction,
// solana_signAndSendTransaction), sending through that chain's JSON-RPC; on the Cosmos Hub and
// Osmosis (no chain runs here) it holds a secp256k1 key (@cosmjs/amino) and answers
// cosmos_getAccounts and cosmos_signAmino.
// Everything shown is read back from sign-client's own stores (IndexedDB), so a reload keeps the
// sessions, the pending proposals and the pending requests.
import { SignClient } from '@walletconnect/sign-client';
import { Secp256k1Wallet } from '@cosmjs/amino';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const USER_REJECTED = { code: 5000, message: 'User rejected.' };
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' };
const CURRENT_CHAIN_KEY = 'demo-mobile-wallet:chain:';

const $ = (id) => document.getElementById(id);

/** `h('button', {class: 'primary', onclick}, 'Approve')`. */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children.flat().filter((c) => c != null));
  return node;
}

function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(([, v]) => v != null && v !== '').flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]));
}

function log(text, isError = false) {
  const time = new Date().toLocaleTimeString();
  $('log').prepend(h('li', { class: isError ? 'error' : false }, `${time} ${text}`));
  (isError ? console.error : console.info)(`[demo mobile wallet] ${text}`);
}

const short = (s) => (s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-4)}` : s);

// ----- chains (anvil) --------------------------------------------------------------------------------

let chains = []; // [{caip, chainId, rpcUrl, name}]

async function loadChains() {
  const res = await fetch('/demo-config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`/demo-config.json: HTTP ${res.status}`);
  const config = await res.json();
  chains = config.chains.map((c) => ({ ...c, caip: `eip155:${c.chainId}` }));
  if (config.solana?.rpcUrl) chains.push({ caip: SOLANA_LOCAL, rpcUrl: config.solana.rpcUrl, name: 'Solana Local', solana: true });
  for (const [id, prefix, name] of COSMOS_CHAINS) chains.push({ caip: `cosmos:${id}`, name, cosmos: prefix });
}

// ----- Cosmos (signing only: no chain runs here) ------------------------------------------------------

const COSMOS_CHAINS = [['cosmoshub-4', 'cosmos', 'Cosmos Hub'], ['osmosis-1', 'osmo', 'Osmosis']];
// A fixed secp256k1 key (32 bytes of 0x0c): the wallet's Cosmos account on every chain.
const COSMOS_KEY = new Uint8Array(32).fill(0x0c);
const cosmosWallet = (caip) => Secp256k1Wallet.fromKey(COSMOS_KEY, chainOf(caip).cosmos);

async function handleCosmos(chainId, method, p) {
  const wallet = await cosmosWallet(chainId);
  const [account] = await wallet.getAccounts();
  switch (method) {
    case 'cosmos_getAccounts':
      return [{ address: account.address, algo: account.algo, pubkey: toBase64(account.pubkey) }];
    case 'cosmos_signAmino': {
      if (p.signerAddress !== account.address) throw new RpcError(-32602, 'Not this wallet’s signer');
      return wallet.signAmino(p.signerAddress, p.signDoc);
    }
    default:
      throw new RpcError(-32601, `Method not supported: ${method}`);
  }
}

// ----- Solana (the local chain) --------------------------------------------------------------------------

const SOLANA_LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';
// The ed25519 key of 32 bytes of 0x0e (fixed, like the anvil account): the wallet's Solana account.
const SOLANA_SEED = new Uint8Array(32).fill(0x0e);
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let s = '';
  for (; n > 0n; n /= 58n) s = B58[Number(n % 58n)] + s;
  for (const b of bytes) {
    if (b) break;
    s = '1' + s;
  }
  return s;
}

function fromBase58(s) {
  let n = 0n;
  for (const c of s) {
    const d = B58.indexOf(c);
    if (d < 0) throw new RpcError(-32602, 'not base58');
    n = n * 58n + BigInt(d);
  }
  const out = [];
  for (; n > 0n; n >>= 8n) out.unshift(Number(n & 0xffn));
  for (const c of s) {
    if (c !== '1') break;
    out.unshift(0);
  }
  return Uint8Array.from(out);
}

const toBase64 = (bytes) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

const solanaKey = (async () => {
  const pkcs8 = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20, ...SOLANA_SEED]);
  const key = await crypto.subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
  const { x } = await crypto.subtle.exportKey('jwk', key);
  return { key, address: base58(Uint8Array.from(atob(x.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))) };
})();

/** Its address, once the key is imported (shown in the proposal). */
let solanaAddress = null;

const solanaSign = async (bytes) => new Uint8Array(await crypto.subtle.sign('Ed25519', (await solanaKey).key, bytes));

/** Signs a wire transaction in this account's signature slot: the signed bytes and the signature. */
async function signSolanaTransaction(base64) {
  const tx = fromBase64(base64);
  const count = tx[0]; // fewer than 128 signatures: a one-byte length
  const message = tx.subarray(1 + 64 * count);
  const versioned = message[0] & 0x80 ? 1 : 0;
  const own = fromBase58((await solanaKey).address);
  const keysAt = versioned + 4;
  const slot = [...Array(message[versioned]).keys()].find((k) => message.subarray(keysAt + 32 * k, keysAt + 32 * k + 32).every((b, j) => b === own[j]));
  if (slot === undefined || slot >= count) throw new RpcError(-32602, 'The transaction is not this account’s to sign');
  const signature = await solanaSign(message);
  tx.set(signature, 1 + 64 * slot);
  return { signed: tx, signature };
}

async function handleSolana(chainId, method, p) {
  switch (method) {
    case 'solana_getAccounts':
    case 'solana_requestAccounts':
      return [{ pubkey: (await solanaKey).address }];
    case 'solana_signMessage':
      return { signature: base58(await solanaSign(fromBase58(p.message))) };
    case 'solana_signTransaction': {
      const { signed, signature } = await signSolanaTransaction(p.transaction);
      return { signature: base58(signature), transaction: toBase64(signed) };
    }
    case 'solana_signAndSendTransaction': {
      const { signed } = await signSolanaTransaction(p.transaction);
      return { signature: await anvil(chainId, 'sendTransaction', [toBase64(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }]) };
    }
    default:
      throw new RpcError(4200, `This demo wallet does not do ${method} on Solana`);
  }
}

const chainOf = (caip) => chains.find((c) => c.caip === caip);
const chainName = (caip) => (chainOf(caip) ? `${chainOf(caip).name} (${caip})` : caip);

class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function anvil(caip, method, params) {
  const chain = chainOf(caip);
  if (!chain) throw new RpcError(5100, `Unsupported chain ${caip}`);
  const res = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params }),
  });
  const body = await res.json();
  if (body.error) throw new RpcError(body.error.code, body.error.message);
  return body.result;
}

// ----- request details -------------------------------------------------------------------------------

function decodeMessage(hex) {
  if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) return String(hex);
  const bytes = new Uint8Array(hex.slice(2).match(/../g)?.map((b) => parseInt(b, 16)) ?? []);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return hex; // not text: show the bytes
  }
}

function formatEther(weiHex) {
  if (!weiHex) return '0 ETH';
  const wei = BigInt(weiHex);
  const whole = wei / 10n ** 18n;
  const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''} ETH (${wei} wei)`;
}

function requestDetails(method, params) {
  switch (method) {
    case 'personal_sign':
      return [h('p', { class: 'hint' }, 'Message:'), h('pre', { class: 'message' }, decodeMessage(params[0])), facts([['Signer', params[1]]])];
    case 'eth_sign':
      return [h('pre', { class: 'message' }, decodeMessage(params[1])), facts([['Signer', params[0]]])];
    case 'eth_sendTransaction':
    case 'eth_signTransaction': {
      const tx = params[0] ?? {};
      return facts([['From', tx.from], ['To', tx.to ?? '(contract creation)'], ['Value', formatEther(tx.value)], ['Data', tx.data ?? tx.input], ['Gas', tx.gas]]);
    }
    case 'eth_signTypedData':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v4': {
      const data = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1];
      return [facts([['Signer', params[0]]]), h('pre', { class: 'message' }, JSON.stringify(data, null, 2))];
    }
    default:
      return h('pre', { class: 'message' }, JSON.stringify(params, null, 2));
  }
}

// ----- the wallet ------------------------------------------------------------------------------------

let client;
const busy = new Set(); // ids of proposals/requests being answered

function sessionChains(session) {
  return [...new Set(Object.values(session.namespaces).flatMap((ns) => [...(ns.chains ?? []), ...ns.accounts.map((a) => a.split(':').slice(0, 2).join(':'))]))];
}

/** The chains proposed in `family`'s namespaces (`eip155` or `solana`). */
function proposedChains(namespaces, family = 'eip155') {
  return Object.entries(namespaces ?? {})
    .filter(([key]) => key === family || key.startsWith(`${family}:`))
    .flatMap(([key, ns]) => ns.chains ?? [key]);
}

function currentChain(session) {
  const stored = localStorage.getItem(CURRENT_CHAIN_KEY + session.topic);
  const list = sessionChains(session);
  return list.includes(stored) ? stored : list[0];
}

async function answer(id, work) {
  busy.add(id);
  render();
  try {
    await work();
  } catch (e) {
    log(e.message ?? String(e), true);
  } finally {
    busy.delete(id);
    render();
  }
}

async function approveProposal(proposal) {
  const namespaces = {};
  const all = [];
  for (const family of ['eip155', 'solana', 'cosmos']) {
    const wanted = [...proposedChains(proposal.requiredNamespaces, family), ...proposedChains(proposal.optionalNamespaces, family)];
    const approved = [...new Set(wanted)].filter((c) => chainOf(c));
    if (!approved.length) continue;
    const offered = [proposal.requiredNamespaces?.[family], proposal.optionalNamespaces?.[family]].filter(Boolean);
    const account = family === 'solana' ? (await solanaKey).address : ACCOUNT;
    const accounts = [];
    for (const c of approved) accounts.push(`${c}:${family === 'cosmos' ? (await (await cosmosWallet(c)).getAccounts())[0].address : account}`);
    namespaces[family] = {
      chains: approved,
      accounts,
      methods: [...new Set(offered.flatMap((n) => n.methods ?? []))],
      events: [...new Set(offered.flatMap((n) => n.events ?? []))],
    };
    all.push(...approved);
  }
  const { topic, acknowledged } = await client.approve({ id: proposal.id, namespaces });
  log(`approved ${proposal.proposer.metadata.name} on ${all.join(', ')}`);
  await acknowledged();
  log(`session ${short(topic)} settled`);
}

async function handleRequest(session, chainId, method, params) {
  if (chainId.startsWith('solana:')) return handleSolana(chainId, method, params ?? {});
  if (chainId.startsWith('cosmos:')) return handleCosmos(chainId, method, params ?? {});
  switch (method) {
    case 'eth_accounts':
    case 'eth_requestAccounts':
      return [ACCOUNT];
    case 'eth_chainId':
      return `0x${Number(chainId.split(':')[1]).toString(16)}`;
    case 'wallet_switchEthereumChain': {
      const target = `eip155:${BigInt(params[0].chainId)}`;
      await switchChain(session, target);
      return null;
    }
    case 'wallet_addEthereumChain':
      if (chainOf(`eip155:${BigInt(params[0].chainId)}`)) return null;
      throw new RpcError(4902, `This demo wallet only knows ${chains.map((c) => c.caip).join(', ')}`);
    default:
      return anvil(chainId, method, params);
  }
}

async function respond(request, approve) {
  const { topic, id, params } = request;
  const { chainId, request: { method, params: args } } = params;
  let response;
  if (!approve) {
    response = { id, jsonrpc: '2.0', error: USER_REJECTED };
  } else {
    try {
      const session = client.session.get(topic);
      response = { id, jsonrpc: '2.0', result: await handleRequest(session, chainId, method, args) };
    } catch (e) {
      response = { id, jsonrpc: '2.0', error: { code: e.code ?? -32603, message: e.message ?? String(e) } };
    }
  }
  await client.respond({ topic, response });
  log(response.error ? `${method}: answered error ${response.error.code} ${response.error.message}` : `${method}: answered ${JSON.stringify(response.result)}`);
}

/** Makes `caip` the session's chain: adds it to the session first when the dapp proposed it. */
async function switchChain(session, caip) {
  const family = caip.startsWith('solana:') ? 'solana' : 'eip155';
  if (!sessionChains(session).includes(caip)) {
    const proposed = [...proposedChains(session.requiredNamespaces, family), ...proposedChains(session.optionalNamespaces, family)];
    if (!proposed.includes(caip) || !session.namespaces[family]) throw new RpcError(4902, `The dapp did not propose ${caip}`);
    const ns = session.namespaces[family];
    const account = family === 'solana' ? (await solanaKey).address : ACCOUNT;
    const namespaces = {
      ...session.namespaces,
      [family]: { ...ns, chains: [...(ns.chains ?? []), caip], accounts: [...ns.accounts, `${caip}:${account}`] },
    };
    const { acknowledged } = await client.update({ topic: session.topic, namespaces });
    await acknowledged();
    log(`session ${short(session.topic)} now covers ${caip}`);
  }
  const data = family === 'solana' ? caip : Number(caip.split(':')[1]);
  await client.emit({ topic: session.topic, chainId: caip, event: { name: 'chainChanged', data } });
  localStorage.setItem(CURRENT_CHAIN_KEY + session.topic, caip);
  log(`chainChanged → ${chainName(caip)}`);
}

async function disconnect(session) {
  await client.disconnect({ topic: session.topic, reason: USER_DISCONNECTED });
  localStorage.removeItem(CURRENT_CHAIN_KEY + session.topic);
  log(`disconnected from ${session.peer.metadata.name}`);
}

async function pair(uri) {
  uri = uri.trim();
  if (!uri.startsWith('wc:')) throw new Error('A WalletConnect URI starts with "wc:"');
  log('pairing…');
  await client.pair({ uri });
}

// ----- rendering -------------------------------------------------------------------------------------

function proposalCard(p) {
  const meta = p.proposer.metadata;
  const wanted = [...new Set([...proposedChains(p.requiredNamespaces), ...proposedChains(p.optionalNamespaces)])];
  const wantedSolana = [...proposedChains(p.requiredNamespaces, 'solana'), ...proposedChains(p.optionalNamespaces, 'solana')];
  wanted.push(...new Set(wantedSolana));
  wanted.push(...new Set([...proposedChains(p.requiredNamespaces, 'cosmos'), ...proposedChains(p.optionalNamespaces, 'cosmos')]));
  const supported = wanted.filter((c) => chainOf(c));
  const others = Object.keys({ ...p.requiredNamespaces, ...p.optionalNamespaces }).filter((k) => !k.startsWith('eip155') && !k.startsWith('solana') && !k.startsWith('cosmos'));
  const off = busy.has(p.id);
  return h('article', { class: 'card prompt' },
    h('h3', {}, `${meta.name} wants to connect`),
    facts([
      ['Dapp', meta.url],
      ['Chains', wanted.map((c) => `${chainName(c)}${chainOf(c) ? '' : ' (not supported)'}`).join(', ')],
      ['Ignored', others.join(', ')],
      ['Account', ACCOUNT],
      ['Solana account', wantedSolana.length ? solanaAddress : null],
    ]),
    h('div', { class: 'row' },
      h('button', { class: 'primary', disabled: off || !supported.length, onclick: () => answer(p.id, () => approveProposal(p)) }, 'Approve'),
      h('button', { class: 'danger', disabled: off, onclick: () => answer(p.id, async () => { await client.reject({ id: p.id, reason: USER_REJECTED }); log(`rejected ${meta.name}`); }) }, 'Reject')));
}

function requestCard(r) {
  const { chainId, request } = r.params;
  const peer = client.session.keys.includes(r.topic) ? client.session.get(r.topic).peer.metadata.name : 'dapp';
  const off = busy.has(r.id);
  return h('article', { class: 'card prompt' },
    h('h3', {}, `${peer}: ${request.method}`),
    facts([['Chain', chainName(chainId)]]),
    requestDetails(request.method, request.params ?? []),
    h('div', { class: 'row' },
      h('button', { class: 'primary', disabled: off, onclick: () => answer(r.id, () => respond(r, true)) }, 'Approve'),
      h('button', { class: 'danger', disabled: off, onclick: () => answer(r.id, () => respond(r, false)) }, 'Reject')));
}

function sessionCard(s) {
  const meta = s.peer.metadata;
  const current = currentChain(s);
  const proposed = ['eip155', 'solana'].flatMap((f) => [...proposedChains(s.requiredNamespaces, f), ...proposedChains(s.optionalNamespaces, f)]);
  const switchable = chains.filter((c) => sessionChains(s).includes(c.caip) || proposed.includes(c.caip));
  const off = busy.has(s.topic);
  return h('article', { class: 'card' },
    h('h3', {}, meta.name),
    facts([['Dapp', meta.url], ['Topic', short(s.topic)], ['Chain', chainName(current)], ['Expires', new Date(s.expiry * 1000).toLocaleString()]]),
    h('div', { class: 'row' },
      switchable.map((c) => h('button', {
        class: c.caip === current ? 'current' : false,
        disabled: off,
        title: `emit chainChanged ${c.caip}`,
        onclick: () => answer(s.topic, () => switchChain(s, c.caip)),
      }, `Switch to ${c.name}`)),
      h('button', { class: 'danger', disabled: off, onclick: () => answer(s.topic, () => disconnect(s)) }, 'Disconnect')));
}

function render() {
  if (!client) return;
  const now = Date.now() / 1000;
  const proposals = client.proposal.getAll().filter((p) => !p.expiryTimestamp || p.expiryTimestamp > now);
  $('proposals').replaceChildren(...proposals.map(proposalCard));
  $('requests').replaceChildren(...client.getPendingSessionRequests().map(requestCard));
  const sessions = client.session.getAll();
  $('sessions').replaceChildren(...(sessions.length ? sessions.map(sessionCard) : [h('p', { class: 'hint' }, 'No session.')]));
}

function setStatus(text, ok) {
  $('status').textContent = text;
  $('status').classList.toggle('ok', ok);
}

// ----- start -----------------------------------------------------------------------------------------

async function main() {
  solanaAddress = (await solanaKey).address;
  $('account').textContent = short(ACCOUNT);
  await loadChains();
  client = await SignClient.init({
    projectId: 'demo-project',
    relayUrl: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/relay`,
    telemetryEnabled: false,
    logger: 'error',
    metadata: {
      name: 'Demo Mobile Wallet',
      description: 'wallet-modal demo: WalletConnect wallet backed by anvil',
      url: `${location.origin}/wallet-mobile/`,
      icons: [],
    },
  });
  setStatus('relay connected', true);
  client.core.relayer.on('relayer_connect', () => setStatus('relay connected', true));
  client.core.relayer.on('relayer_disconnect', () => setStatus('relay disconnected', false));

  client.on('session_proposal', ({ params }) => { log(`proposal from ${params.proposer.metadata.name}`); render(); });
  client.on('session_request', ({ params }) => { log(`request ${params.request.method} on ${params.chainId}`); render(); });
  client.on('session_delete', ({ topic }) => { log(`the dapp ended session ${short(topic)}`); render(); });
  client.on('session_expire', ({ topic }) => { log(`session ${short(topic)} expired`); render(); });
  client.on('proposal_expire', () => render());
  client.on('session_ping', ({ topic }) => log(`ping from ${short(topic)}`));

  $('pair-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('uri');
    pair(input.value).then(() => { input.value = ''; }, (err) => log(`pairing failed: ${err.message}`, true));
  });

  render();
  log(`ready: ${client.session.length} session(s), chains ${chains.map((c) => c.caip).join(', ')}`);

  // Deep link: …/wallet-mobile/?uri=wc%3A… or …/wallet-mobile/wc?uri=… (the modal's link form).
  // The URI leaves the address bar at once, so a reload does not pair again.
  const uri = new URLSearchParams(location.search).get('uri');
  if (uri) {
    history.replaceState(null, '', '/wallet-mobile/');
    await pair(uri).catch((err) => log(`pairing failed: ${err.message}`, true));
  }
}

main().catch((e) => {
  setStatus('failed', false);
  log(`start failed: ${e.message ?? e}`, true);
});
