// Demo Wallet: an injected EVM wallet for the wallet-modal demo and tests.
//
// - EIP-1193 provider: request({method, params}), on/removeListener, events accountsChanged,
//   chainChanged (hex), connect ({chainId}), disconnect (ProviderRpcError 4900).
// - EIP-6963: announces {info: {uuid, name, icon, rdns}, provider} now and on every
//   `eip6963:requestProvider`.
// - Backed by anvil: the dev accounts are unlocked there, so signing and sending are forwarded to the
//   current chain's RPC URL. Account/permission methods, chain switching and prompts are handled here.
// - Prompts: a <demo-wallet-prompt> element (open shadow root, fixed bottom-right) with Approve/Reject,
//   and a programmatic hook `window.demoWallet` for tests (see README.md next to this file).
//
// Plain ES module, no dependencies, no build step. The only module syntax is the `export` line at the
// end: demo/wallet/make-extension.sh strips it and wraps the rest in an IIFE to make the classic
// content script of the Chromium extension. Keep it that way (no import, no import.meta, no top-level await).

const DEMO_WALLET_NAME = 'Demo Wallet';
const DEMO_WALLET_RDNS = 'dev.walletmodal.demo';

/** Anvil's default dev accounts (mnemonic "test test … junk"), EIP-55 checksummed. */
const ANVIL_ACCOUNTS = Object.freeze([
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
]);

/** Used when no chains are given and /demo-config.json cannot be loaded. */
const DEFAULT_CHAINS = Object.freeze([
  { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545', name: 'Anvil A' },
  { chainId: 31338, rpcUrl: 'http://127.0.0.1:8546', name: 'Anvil B' },
]);

/** Methods that need the user's approval. */
const PROMPTED = new Set([
  'eth_requestAccounts',
  'wallet_requestPermissions',
  'wallet_addEthereumChain',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
]);

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">' +
  '<rect width="96" height="96" rx="24" fill="#4f46e5"/>' +
  '<path d="M24 34h40a8 8 0 0 1 8 8v22a8 8 0 0 1-8 8H24z" fill="#fff" opacity=".95"/>' +
  '<path d="M24 34l34-10v10z" fill="#c7d2fe"/>' +
  '<circle cx="62" cy="53" r="5" fill="#4f46e5"/></svg>';
const DEMO_WALLET_ICON = 'data:image/svg+xml;base64,' + btoa(ICON_SVG);

/** An EIP-1193 error: an Error with a numeric `code` (and optional `data`). */
class ProviderRpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

const errors = {
  rejected: () => new ProviderRpcError(4001, 'User rejected the request.'),
  unauthorized: (msg) =>
    new ProviderRpcError(4100, msg || 'The requested account and/or method has not been authorized by the user.'),
  disconnected: () => new ProviderRpcError(4900, 'The provider is disconnected from all chains.'),
  chainDisconnected: (detail) =>
    new ProviderRpcError(4901, 'The provider is disconnected from the specified chain.' + (detail ? ' ' + detail : '')),
  unknownChain: (hex) =>
    new ProviderRpcError(
      4902,
      `Unrecognized chain ID "${hex}". Try adding the chain using wallet_addEthereumChain first.`,
    ),
  invalidRequest: (msg) => new ProviderRpcError(-32600, msg || 'Invalid request.'),
  invalidParams: (msg) => new ProviderRpcError(-32602, msg || 'Invalid params.'),
};

const toHex = (n) => '0x' + Number(n).toString(16);

/** Accepts '0x7a69' (or a number); returns a positive safe integer or null. */
function parseChainId(v) {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? v : null;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(v)) {
    const n = parseInt(v, 16);
    return n > 0 ? n : null;
  }
  return null;
}

const isAddress = (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v);
const sameAddress = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

function utf8ToHex(s) {
  return '0x' + Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Decodes 0x-hex as UTF-8 text when it is printable text; otherwise null. */
function hexToText(hex) {
  if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const bytes = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 + 2 * i, 4 + 2 * i), 16);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? null : text;
  } catch {
    return null;
  }
}

/** '0xde0b6b3a7640000' → '1000000000000000000 wei'; anything unparsable → 'a transaction'. */
function weiText(v) {
  try {
    return v === undefined || v === null ? 'a transaction' : BigInt(v).toString() + ' wei';
  } catch {
    return 'a transaction';
  }
}

function randomUuid() {
  if (globalThis.crypto && typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function normaliseChains(list) {
  if (!Array.isArray(list)) return null;
  const out = [];
  for (const c of list) {
    const chainId = parseChainId(c && c.chainId);
    if (!chainId || typeof c.rpcUrl !== 'string' || !/^https?:\/\//.test(c.rpcUrl)) continue;
    if (out.some((x) => x.chainId === chainId)) continue;
    out.push({ chainId, rpcUrl: c.rpcUrl, name: typeof c.name === 'string' ? c.name : `Chain ${chainId}` });
  }
  return out.length ? out : null;
}

// ---------------------------------------------------------------------------------------------------------
// Prompt element

const PROMPT_CSS = `
:host { all: initial; position: fixed; right: 16px; bottom: 16px; z-index: 2147483647;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; }
:host([hidden]) { display: none; }
.card { width: 340px; max-width: calc(100vw - 32px); background: #fff; border: 1px solid #e5e7eb;
  border-radius: 14px; box-shadow: 0 12px 32px rgba(0,0,0,.25); overflow: hidden; }
header { display: flex; align-items: center; gap: 10px; padding: 12px 14px; background: #eef2ff; }
header img { width: 28px; height: 28px; border-radius: 7px; }
header .title { font-weight: 700; }
header .queue { margin-left: auto; font-size: 12px; color: #4b5563; }
.body { padding: 12px 14px; }
.origin { font-size: 12px; color: #6b7280; word-break: break-all; }
.method { font-family: ui-monospace, monospace; font-weight: 700; margin: 6px 0; }
.summary { margin: 6px 0; white-space: pre-wrap; word-break: break-word; }
pre { margin: 6px 0 0; max-height: 160px; overflow: auto; background: #f9fafb; border: 1px solid #e5e7eb;
  border-radius: 8px; padding: 8px; font: 12px/1.35 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
.actions { display: flex; gap: 8px; padding: 0 14px 14px; }
button { flex: 1; font: inherit; font-weight: 600; padding: 9px 0; border-radius: 10px; cursor: pointer; border: 1px solid transparent; }
button.approve { background: #4f46e5; color: #fff; }
button.reject { background: #fff; color: #b91c1c; border-color: #fca5a5; }
button:focus-visible { outline: 3px solid #a5b4fc; outline-offset: 1px; }
`;

function definePromptElement() {
  if (typeof customElements === 'undefined' || customElements.get('demo-wallet-prompt')) return;
  class DemoWalletPrompt extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      let styled = false;
      try {
        if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(PROMPT_CSS);
          root.adoptedStyleSheets = [sheet];
          styled = true;
        }
      } catch {
        styled = false;
      }
      if (!styled) {
        const style = document.createElement('style');
        style.textContent = PROMPT_CSS;
        root.append(style);
      }
      const el = (tag, cls, text) => {
        const e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
      };
      const card = el('div', 'card');
      card.setAttribute('role', 'dialog');
      card.setAttribute('aria-label', 'Demo Wallet request');
      const header = el('header');
      const img = el('img');
      img.alt = '';
      img.src = DEMO_WALLET_ICON;
      this._queue = el('span', 'queue');
      header.append(img, el('span', 'title', DEMO_WALLET_NAME), this._queue);
      const body = el('div', 'body');
      this._origin = el('div', 'origin');
      this._method = el('div', 'method');
      this._summary = el('div', 'summary');
      this._params = el('pre', 'params');
      body.append(this._origin, this._method, this._summary, this._params);
      const actions = el('div', 'actions');
      this._reject = el('button', 'reject', 'Reject');
      this._approve = el('button', 'approve', 'Approve');
      this._reject.type = this._approve.type = 'button';
      this._reject.setAttribute('data-action', 'reject');
      this._approve.setAttribute('data-action', 'approve');
      actions.append(this._reject, this._approve);
      card.append(header, body, actions);
      root.append(card);
      this._reject.addEventListener('click', () => this.onAnswer && this.onAnswer(false));
      this._approve.addEventListener('click', () => this.onAnswer && this.onAnswer(true));
    }

    /** Shows one request (all text set through textContent: nothing is parsed as markup). */
    show(item, queued) {
      this._origin.textContent = 'Request from ' + (globalThis.location ? globalThis.location.origin : '');
      this._method.textContent = item.method;
      this._summary.textContent = item.summary || '';
      this._summary.hidden = !item.summary;
      let params;
      try {
        params = JSON.stringify(item.params === undefined ? [] : item.params, null, 2);
      } catch {
        params = String(item.params);
      }
      this._params.textContent = params;
      this._queue.textContent = queued > 1 ? `1 of ${queued}` : '';
      this.setAttribute('data-method', item.method);
      this.hidden = false;
    }
  }
  customElements.define('demo-wallet-prompt', DemoWalletPrompt);
}

// ---------------------------------------------------------------------------------------------------------
// Provider

/**
 * Installs the demo wallet on `window` (idempotent: a second call returns the first wallet).
 *
 * options:
 *   chains: [{chainId, rpcUrl, name?}]   the anvil chains; when absent, `configUrl` is fetched
 *   configUrl: '/demo-config.json'        JSON with a `chains` array like the above
 *   fallbackChains: [...]                 used when the fetch fails (default: 31337@8545, 31338@8546)
 *   chainId: number                       initial chain (default: the first)
 *   accountIndex: 0                       anvil dev account used
 *   autoResponse: null|'approve'|'reject' answer prompts without the UI
 *   persistPermission: false              keep the site's permission for the tab (a reload reconnects)
 *   autoResponseDelayMs: 0
 *   prompt: true                          render <demo-wallet-prompt> (false: only the hook answers)
 *   announce: true                        EIP-6963 announcement
 *   name, rdns, uuid, icon                override the EIP-6963 info (e.g. for a second wallet)
 *   global: 'demoWallet'                  name of the test hook on window (null: none)
 *   injectWindowEthereum: false           also set window.ethereum when it is free
 */
function installDemoWallet(options = {}) {
  const win = globalThis;
  const hookName = options.global === undefined ? 'demoWallet' : options.global;
  if (hookName && win[hookName] && win[hookName].provider) return win[hookName];

  const listeners = new Map(); // event -> Set<fn>
  const pendingQueue = []; // {id, method, params, summary, resolve, reject}
  const waiters = []; // resolve functions waiting for a pending request
  const requestLog = [];
  let nextPendingId = 1;
  let rpcId = 1;
  let autoResponse = options.autoResponse === undefined ? null : options.autoResponse;
  const autoDelay = Number(options.autoResponseDelayMs) || 0;
  let accountIndex = Number.isInteger(options.accountIndex) ? options.accountIndex : 0;
  // eth_accounts permission granted; with `persistPermission` kept for the tab (sessionStorage), as
  // an extension keeps a site's permission, so that a reload reconnects (the demo page's wallet).
  const AUTH_KEY = `demo-wallet:${options.name ?? 'default'}:authorized`;
  const persist = options.persistPermission === true;
  let authorized = (() => {
    try {
      return persist && sessionStorage.getItem(AUTH_KEY) === '1';
    } catch {
      return false;
    }
  })();
  const setAuthorized = (v) => {
    authorized = v;
    try {
      if (persist && v) sessionStorage.setItem(AUTH_KEY, '1');
      else if (persist) sessionStorage.removeItem(AUTH_KEY);
    } catch {
      // Storage blocked: the permission lasts as long as the page.
    }
  };
  let accountsOverride = null; // set by emitAccountsChanged
  let smartAccount = null; // set by useSmartAccount: a contract account the current key owns
  let rpcConnected = false; // EIP-1193 "connected" (to a chain)
  let chains = [];
  let currentChainId = null;
  let promptEl = null;
  let uninstalled = false;

  const info = Object.freeze({
    uuid: options.uuid || randomUuid(),
    name: options.name || DEMO_WALLET_NAME,
    icon: options.icon || DEMO_WALLET_ICON,
    rdns: options.rdns || DEMO_WALLET_RDNS,
  });

  // ----- events -----
  function emit(event, payload) {
    const set = listeners.get(event);
    if (!set) return;
    for (const fn of Array.from(set)) {
      try {
        fn(payload);
      } catch (e) {
        console.error(`[demo-wallet] ${event} listener threw`, e);
      }
    }
  }

  // ----- state -----
  const currentAccount = () => ANVIL_ACCOUNTS[accountIndex];
  const exposedAccounts = () => {
    if (!authorized) return [];
    if (smartAccount) return [smartAccount];
    return accountsOverride ? accountsOverride.slice() : [currentAccount()];
  };
  const chainById = (id) => chains.find((c) => c.chainId === id);
  const currentChain = () => chainById(currentChainId);

  const ready = (async () => {
    let list = normaliseChains(options.chains);
    if (!list) {
      const url = options.configUrl || '/demo-config.json';
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (res.ok) list = normaliseChains((await res.json()).chains);
      } catch {
        list = null;
      }
    }
    chains = list || normaliseChains(options.fallbackChains) || DEFAULT_CHAINS.map((c) => ({ ...c }));
    const wanted = parseChainId(options.chainId);
    currentChainId = wanted && chainById(wanted) ? wanted : chains[0].chainId;
    rpcConnected = true;
    emit('connect', { chainId: toHex(currentChainId) });
  })();

  // ----- RPC forwarding -----
  async function forward(method, params, chain = currentChain()) {
    if (!rpcConnected) throw errors.disconnected();
    if (!chain) throw errors.chainDisconnected();
    const body = { jsonrpc: '2.0', id: rpcId++, method };
    if (params !== undefined) body.params = params;
    let res;
    try {
      res = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw errors.chainDisconnected(`(${chain.rpcUrl}: ${e && e.message ? e.message : e})`);
    }
    let json;
    try {
      json = await res.json();
    } catch {
      throw new ProviderRpcError(-32603, `Invalid JSON-RPC response from ${chain.rpcUrl} (HTTP ${res.status}).`);
    }
    if (json && json.error) {
      const err = json.error;
      throw new ProviderRpcError(typeof err.code === 'number' ? err.code : -32603, err.message || 'RPC error', err.data);
    }
    return json ? json.result : null;
  }

  // ----- prompts -----
  function renderPrompt() {
    if (options.prompt === false || typeof document === 'undefined') return;
    const head = pendingQueue[0];
    if (!head || autoResponse) {
      if (promptEl) promptEl.hidden = true;
      return;
    }
    definePromptElement();
    if (!promptEl) {
      promptEl = document.createElement('demo-wallet-prompt');
      promptEl.hidden = true;
      promptEl.onAnswer = (ok) => answer(ok);
    }
    if (!promptEl.isConnected) {
      const parent = document.body || document.documentElement;
      if (!parent) return;
      parent.append(promptEl);
    }
    if (typeof promptEl.show === 'function') promptEl.show(head, pendingQueue.length);
  }

  function answer(ok, id) {
    const idx = id === undefined ? 0 : pendingQueue.findIndex((p) => p.id === id);
    if (idx < 0 || !pendingQueue[idx]) return false;
    const [item] = pendingQueue.splice(idx, 1);
    renderPrompt();
    if (ok) item.resolve();
    else item.reject(errors.rejected());
    return true;
  }

  function scheduleAuto() {
    if (!autoResponse || !pendingQueue.length) return;
    const mode = autoResponse;
    setTimeout(() => {
      while (autoResponse === mode && pendingQueue.length) answer(mode === 'approve');
    }, autoDelay);
  }

  /** Resolves when the user approves; rejects with 4001 otherwise. */
  function ask(method, params, summary) {
    return new Promise((resolve, reject) => {
      const item = { id: nextPendingId++, method, params, summary, resolve, reject };
      pendingQueue.push(item);
      const snapshot = publicPending(item);
      while (waiters.length) waiters.shift()(snapshot);
      renderPrompt();
      scheduleAuto();
    });
  }

  const publicPending = (p) => ({ id: p.id, method: p.method, params: p.params, summary: p.summary });

  // ----- methods -----
  function requireAuthorized() {
    if (!authorized) throw errors.unauthorized();
  }

  async function requestAccounts(method, params) {
    if (!authorized) {
      await ask(method, params, `Connect ${currentAccount()} to ${win.location ? win.location.origin : 'this site'}`);
      if (!rpcConnected) {
        rpcConnected = true;
        emit('connect', { chainId: toHex(currentChainId) });
      }
      setAuthorized(true);
      accountsOverride = null;
      emit('accountsChanged', exposedAccounts());
    }
    return exposedAccounts();
  }

  function permissions() {
    if (!authorized) return [];
    return [
      {
        parentCapability: 'eth_accounts',
        invoker: win.location ? win.location.origin : '',
        caveats: [{ type: 'restrictReturnedAccounts', value: exposedAccounts() }],
        date: Date.now(),
      },
    ];
  }

  function switchTo(chainId) {
    if (chainId === currentChainId) return;
    currentChainId = chainId;
    emit('chainChanged', toHex(chainId));
  }

  async function handle(method, params) {
    await ready;
    if (uninstalled) throw errors.disconnected();
    const list = Array.isArray(params) ? params : params === undefined ? [] : [params];
    switch (method) {
      case 'eth_requestAccounts':
        return requestAccounts(method, params);
      case 'eth_accounts':
        return exposedAccounts();
      case 'eth_coinbase':
        return exposedAccounts()[0] || null;
      case 'eth_chainId':
        return toHex(currentChainId);
      case 'net_version':
        return String(currentChainId);
      case 'wallet_requestPermissions': {
        const wanted = list[0] && typeof list[0] === 'object' ? Object.keys(list[0]) : [];
        if (!wanted.includes('eth_accounts')) throw errors.invalidParams('Only eth_accounts can be requested.');
        if (authorized) {
          // Re-requesting permissions always prompts (as wallets do).
          await ask(method, params, `Connect ${currentAccount()}`);
        } else {
          await requestAccounts(method, params);
        }
        return permissions();
      }
      case 'wallet_getPermissions':
        return permissions();
      case 'wallet_revokePermissions': {
        if (authorized) {
          setAuthorized(false);
          accountsOverride = null;
          emit('accountsChanged', []);
        }
        return null;
      }
      case 'wallet_switchEthereumChain': {
        const chainId = parseChainId(list[0] && list[0].chainId);
        if (!chainId) throw errors.invalidParams('Expected [{chainId: "0x…"}].');
        if (!chainById(chainId)) throw errors.unknownChain(toHex(chainId));
        switchTo(chainId);
        return null;
      }
      case 'wallet_addEthereumChain': {
        const p = list[0] || {};
        const chainId = parseChainId(p.chainId);
        const rpcUrl = Array.isArray(p.rpcUrls) ? p.rpcUrls.find((u) => typeof u === 'string' && /^https?:\/\//.test(u)) : null;
        if (!chainId) throw errors.invalidParams('Expected [{chainId: "0x…", chainName, rpcUrls, nativeCurrency}].');
        const known = chainById(chainId);
        if (!known && !rpcUrl) throw errors.invalidParams('rpcUrls must contain an http(s) URL.');
        const label = typeof p.chainName === 'string' && p.chainName ? `${p.chainName} (${chainId})` : String(chainId);
        await ask(method, params, `Add network ${label} and switch to it`);
        if (!known) chains.push({ chainId, rpcUrl, name: typeof p.chainName === 'string' ? p.chainName : `Chain ${chainId}` });
        switchTo(chainId);
        return null;
      }
      case 'personal_sign': {
        requireAuthorized();
        if (list.length < 2) throw errors.invalidParams('Expected [message, address].');
        let [message, address] = list;
        if (isAddress(message) && !isAddress(address)) [message, address] = [address, message]; // legacy order
        if (!exposedAccounts().some((a) => sameAddress(a, address))) {
          throw errors.unauthorized(`Address ${address} is not connected.`);
        }
        if (typeof message !== 'string') throw errors.invalidParams('The message must be a string.');
        const hex = /^0x([0-9a-fA-F]{2})*$/.test(message) ? message : utf8ToHex(message);
        const text = hexToText(hex);
        await ask(method, params, text !== null ? `Sign message:\n${text}` : `Sign data ${hex}`);
        // A smart account's messages are signed by its owner's key (its contract checks them: ERC-1271).
        return forward('personal_sign', [hex, smartAccount && sameAddress(address, smartAccount) ? currentAccount() : address]);
      }
      case 'eth_sign': {
        requireAuthorized();
        const [address, data] = list;
        if (!exposedAccounts().some((a) => sameAddress(a, address))) throw errors.unauthorized();
        await ask(method, params, `Sign raw data ${data}`);
        return forward('eth_sign', [address, data]);
      }
      case 'eth_signTypedData':
      case 'eth_signTypedData_v3':
      case 'eth_signTypedData_v4': {
        requireAuthorized();
        const [address, data] = list;
        if (!exposedAccounts().some((a) => sameAddress(a, address))) throw errors.unauthorized();
        await ask(method, params, 'Sign typed data');
        return forward('eth_signTypedData_v4', [address, typeof data === 'string' ? data : JSON.stringify(data)]);
      }
      case 'eth_sendTransaction': {
        requireAuthorized();
        const tx = list[0];
        if (!tx || typeof tx !== 'object') throw errors.invalidParams('Expected [transaction].');
        const from = tx.from || exposedAccounts()[0];
        if (!exposedAccounts().some((a) => sameAddress(a, from))) throw errors.unauthorized(`Address ${from} is not connected.`);
        await ask(method, params, `Send ${weiText(tx.value)} to ${tx.to || '(contract creation)'}`);
        return forward('eth_sendTransaction', [{ ...tx, from }]);
      }
      default:
        return forward(method, params);
    }
  }

  const provider = {
    isDemoWallet: true,
    /** EIP-1193 request. Always returns a Promise; errors are ProviderRpcError (`code`, `message`). */
    request(args) {
      if (!args || typeof args !== 'object' || Array.isArray(args)) {
        return Promise.reject(errors.invalidRequest('Expected a single object argument {method, params}.'));
      }
      const { method, params } = args;
      if (typeof method !== 'string' || !method) {
        return Promise.reject(errors.invalidRequest("'args.method' must be a non-empty string."));
      }
      if (params !== undefined && (params === null || typeof params !== 'object')) {
        return Promise.reject(errors.invalidRequest("'args.params' must be an object or array if provided."));
      }
      const entry = { method, params, at: Date.now() };
      requestLog.push(entry);
      if (requestLog.length > 500) requestLog.shift();
      return handle(method, params).then(
        (result) => {
          entry.result = result;
          return result;
        },
        (error) => {
          entry.error = { code: error && error.code, message: error && error.message };
          throw error;
        },
      );
    },
    on(event, fn) {
      if (typeof fn !== 'function') return provider;
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
      return provider;
    },
    once(event, fn) {
      const wrapped = (p) => {
        provider.removeListener(event, wrapped);
        fn(p);
      };
      return provider.on(event, wrapped);
    },
    removeListener(event, fn) {
      const set = listeners.get(event);
      if (set) set.delete(fn);
      return provider;
    },
    removeAllListeners(event) {
      if (event === undefined) listeners.clear();
      else listeners.delete(event);
      return provider;
    },
    listenerCount(event) {
      const set = listeners.get(event);
      return set ? set.size : 0;
    },
    /** Legacy helper some dapps call. */
    isConnected() {
      return rpcConnected;
    },
    get chainId() {
      return currentChainId === null ? null : toHex(currentChainId);
    },
    get selectedAddress() {
      return exposedAccounts()[0] || null;
    },
  };
  provider.addListener = provider.on;
  provider.off = provider.removeListener;

  // ----- EIP-6963 -----
  function announce() {
    if (uninstalled || typeof win.dispatchEvent !== 'function') return;
    win.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    );
  }
  const onRequestProvider = () => announce();
  if (options.announce !== false && typeof win.addEventListener === 'function') {
    win.addEventListener('eip6963:requestProvider', onRequestProvider);
  }

  // ----- test hook -----
  const hook = {
    provider,
    info,
    /** Resolves once the chain config is loaded. */
    ready,
    accounts: ANVIL_ACCOUNTS,
    /** 'approve' | 'reject' | null (wait for the UI or approve()/reject()). */
    setAutoResponse(mode) {
      if (mode !== 'approve' && mode !== 'reject' && mode !== null) {
        throw new TypeError("setAutoResponse expects 'approve', 'reject' or null");
      }
      autoResponse = mode;
      renderPrompt();
      scheduleAuto();
    },
    getAutoResponse: () => autoResponse,
    /** Requests waiting for an answer, oldest first: [{id, method, params, summary}]. */
    pending: () => pendingQueue.map(publicPending),
    /** Approves the oldest pending request (or the one with `id`); false when there is none. */
    approve: (id) => answer(true, id),
    /** Rejects the oldest pending request (or the one with `id`) with 4001; false when there is none. */
    reject: (id) => answer(false, id),
    /** Resolves with the oldest pending request, now or when one arrives; rejects after `timeoutMs`. */
    waitForPending(timeoutMs = 5000) {
      if (pendingQueue.length) return Promise.resolve(publicPending(pendingQueue[0]));
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          const i = waiters.indexOf(done);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no pending demo-wallet request within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = (p) => {
          clearTimeout(t);
          resolve(p);
        };
        waiters.push(done);
      });
    },
    /** Emits accountsChanged with `accounts` (as if the user changed them in the wallet). */
    emitAccountsChanged(accounts) {
      if (!Array.isArray(accounts) || !accounts.every(isAddress)) {
        throw new TypeError('emitAccountsChanged expects an array of 0x addresses');
      }
      accountsOverride = accounts.length ? accounts.slice() : null;
      setAuthorized(accounts.length > 0);
      emit('accountsChanged', accounts.slice());
    },
    /**
     * Acts as a smart-account wallet: `address` (a contract account the current dev key owns, such
     * as DemoSmartAccount) is the account it exposes, and its messages are signed by the owner key
     * (the contract says they are its own: ERC-1271). `null` goes back to the dev account.
     */
    useSmartAccount(address) {
      if (address !== null && !isAddress(address)) throw new TypeError('useSmartAccount expects a 0x address or null');
      smartAccount = address;
      if (authorized) emit('accountsChanged', exposedAccounts());
    },
    /** Selects anvil dev account `i` (0–9); emits accountsChanged when connected. */
    setAccount(i) {
      if (!Number.isInteger(i) || i < 0 || i >= ANVIL_ACCOUNTS.length) {
        throw new RangeError(`account index must be 0..${ANVIL_ACCOUNTS.length - 1}`);
      }
      const changed = i !== accountIndex || accountsOverride !== null;
      accountIndex = i;
      accountsOverride = null;
      if (authorized && changed) emit('accountsChanged', exposedAccounts());
      return currentAccount();
    },
    /** Switches chain from the wallet side (emits chainChanged); the chain must be known. */
    async switchChain(chainId) {
      await ready;
      const id = parseChainId(chainId);
      if (!id || !chainById(id)) throw errors.unknownChain(typeof chainId === 'number' ? toHex(chainId) : String(chainId));
      switchTo(id);
    },
    /** The wallet disconnects: accounts cleared, `disconnect` (4900) emitted, forwarded RPC fails with 4900
     *  until the next approved eth_requestAccounts or reconnect(). */
    disconnect() {
      const hadAccounts = authorized;
      setAuthorized(false);
      accountsOverride = null;
      rpcConnected = false;
      emit('disconnect', errors.disconnected());
      if (hadAccounts) emit('accountsChanged', []);
    },
    /** Restores the chain connection (emits `connect`); accounts still need eth_requestAccounts. */
    reconnect() {
      if (rpcConnected) return;
      rpcConnected = true;
      emit('connect', { chainId: toHex(currentChainId) });
    },
    /** Snapshot of the wallet state. */
    state: () => ({
      authorized,
      rpcConnected,
      accounts: exposedAccounts(),
      account: currentAccount(),
      accountIndex,
      chainId: currentChainId,
      chains: chains.map((c) => ({ ...c })),
      pending: pendingQueue.length,
      autoResponse,
    }),
    /** Requests received so far (bounded to 500): [{method, params, at, result?, error?}]. */
    log: () => requestLog.slice(),
    clearLog() {
      requestLog.length = 0;
    },
    /** Dispatches eip6963:announceProvider again. */
    announce,
    /** Removes listeners, rejects pending prompts, removes the UI and the hook. */
    uninstall() {
      uninstalled = true;
      if (typeof win.removeEventListener === 'function') win.removeEventListener('eip6963:requestProvider', onRequestProvider);
      while (pendingQueue.length) answer(false);
      if (promptEl) promptEl.remove();
      listeners.clear();
      if (hookName && win[hookName] === hook) delete win[hookName];
      if (win.ethereum === provider) delete win.ethereum;
    },
  };

  if (hookName) win[hookName] = hook;
  if (options.injectWindowEthereum && !win.ethereum) win.ethereum = provider;
  if (options.announce !== false) announce();
  return hook;
}

// -- module exports: the only module syntax in this file (stripped for the classic extension copy) --
export { installDemoWallet, ProviderRpcError, ANVIL_ACCOUNTS, DEFAULT_CHAINS, DEMO_WALLET_RDNS, DEMO_WALLET_NAME, DEMO_WALLET_ICON };
