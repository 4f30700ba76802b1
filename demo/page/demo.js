// The demo dapp: loads the demo config, installs the Demo Wallet, loads the <wallet-modal> element from
// /dist, creates it with the anvil networks and logs everything the host page receives.
// No inline scripts or styles (the page's CSP is `script-src 'self' 'wasm-unsafe-eval'`).
//
// Query parameters (for trying the error paths by hand):
//   ?projectId=foreign-origin | rate-limited | server-error | bad | features-off | single-wallet
//   ?autoApprove=1   answer Demo Wallet prompts automatically

import { installDemoWallet } from '/demo/wallet/demo-wallet.js';
import { installSolanaWallet } from '/demo/wallet/solana-wallet.js';

const HOST_EVENTS = ['open', 'close', 'connect', 'disconnect', 'networkchange', 'accountschange', 'signin', 'signout', 'error'];
const MAX_LOG = 200;

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const logEntries = [];

/** JSON for display: survives BigInt, Errors, functions, DOM nodes and cycles. */
function show(value) {
  const seen = new WeakSet();
  return JSON.stringify(
    value,
    (key, v) => {
      if (typeof v === 'bigint') return v.toString() + 'n';
      if (typeof v === 'function') return '[function]';
      if (v instanceof Error) return { name: v.name, message: v.message, code: v.code, data: v.data };
      if (typeof Node !== 'undefined' && v instanceof Node) return `[${v.nodeName}]`;
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    },
    2,
  );
}

function banner(text, kind = 'info') {
  const el = $('banner');
  el.textContent = text;
  el.classList.toggle('error', kind === 'error');
  el.hidden = !text;
}

function setResult(text) {
  $('result').textContent = text;
}

function errorText(e) {
  if (!e) return 'Unknown error';
  const code = e.code !== undefined ? ` (code ${e.code})` : '';
  return `${e.message || String(e)}${code}`;
}

function log(type, detail, target) {
  const entry = { time: new Date(), type, detail };
  logEntries.unshift(entry);
  if (logEntries.length > MAX_LOG) logEntries.pop();
  const li = document.createElement('li');
  if (type === 'error') li.className = 'error';
  const time = document.createElement('span');
  time.className = 'time';
  time.textContent = entry.time.toLocaleTimeString();
  const name = document.createElement('span');
  name.className = 'type';
  name.textContent = type;
  const body = document.createElement('span');
  body.textContent = ' ' + show(detail) + (target ? `  ← <${target}>` : '');
  li.append(time, name, body);
  const list = $('log');
  list.prepend(li);
  while (list.children.length > MAX_LOG) list.lastElementChild.remove();
}

async function loadConfig() {
  try {
    const res = await fetch('/demo-config.json', { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.json();
  } catch (e) {
    banner(`Could not load /demo-config.json (${errorText(e)}); using anvil on 8545/8546.`, 'error');
    return {
      chains: [
        { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545', name: 'Anvil A' },
        { chainId: 31338, rpcUrl: 'http://127.0.0.1:8546', name: 'Anvil B' },
      ],
      apiUrl: location.origin,
      projectId: 'demo-project',
    };
  }
}

/** The local Solana chain's CAIP-2 id (its genesis hash is fixed: demo/solana/rpc.mjs). */
const SOLANA_LOCAL = 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ';

/** CAIP network objects for the anvil chains, and the local Solana chain when there is one. */
function networksFrom(config) {
  const solana = config.solana
    ? [{
        id: SOLANA_LOCAL.split(':')[1],
        caipNetworkId: SOLANA_LOCAL,
        name: 'Solana Local',
        chainNamespace: 'solana',
        nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
        rpcUrls: { default: { http: [config.solana.rpcUrl] } },
        testnet: true,
      }]
    : [];
  // The local Bitcoin regtest chain (litecoind): its CAIP-2 id is that node's genesis, not Bitcoin's.
  const bitcoin = config.bitcoin
    ? [{
        id: '530827f38f93b43ed12af0b3ad25a288',
        caipNetworkId: 'bip122:530827f38f93b43ed12af0b3ad25a288',
        name: 'Bitcoin Regtest',
        chainNamespace: 'bip122',
        nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
        rpcUrls: { default: { http: [config.bitcoin.esploraUrl] } },
        testnet: true,
      }]
    : [];
  return [...anvilNetworks(config), ...solana, ...bitcoin, ...OTHER_FAMILIES];
}

/** Networks of the families without a local chain here: connect, switch and sign only (no balances). */
const OTHER_FAMILIES = [
  'bip122:000000000019d6689c085ae165831e93',
  'bip122:000000000933ea01ad0ee984209779ba',
  ...[
    ['polkadot:91b171bb158e2d3848fa23a9f1c25182', 'Polkadot', 'DOT', 10, 'https://rpc.polkadot.io'],
    ['polkadot:b0a8d493285c2df73290dfb7e61f870f', 'Kusama', 'KSM', 12, 'https://kusama-rpc.polkadot.io'],
    ['cosmos:cosmoshub-4', 'Cosmos Hub', 'ATOM', 6, 'https://cosmos-rpc.publicnode.com'],
    ['cosmos:osmosis-1', 'Osmosis', 'OSMO', 6, 'https://osmosis-rpc.publicnode.com'],
  ].map(([caipNetworkId, name, symbol, decimals, rpc]) => ({
    id: caipNetworkId.split(':')[1],
    caipNetworkId,
    name,
    chainNamespace: caipNetworkId.split(':')[0],
    nativeCurrency: { name, symbol, decimals },
    rpcUrls: { default: { http: [rpc] } },
  })),
];

/**
 * The Bitcoin (wallet-standard and sats-connect), Polkadot (injectedWeb3) and Keplr test wallets,
 * bundled by demo/wallet/build.mjs; the page works without them.
 */
async function installFamilyWallets(approve) {
  const opts = { autoResponse: approve ? 'approve' : null, confirm: true };
  const load = (file) => import(`/demo/wallet/dist/${file}.js`).catch(() => null);
  const [btc, dot, keplr] = await Promise.all([load('bitcoin-wallet'), load('polkadot-extension'), load('keplr-wallet')]);
  return [
    btc?.installBitcoinWallet({ ...opts, kind: 'standard' }),
    btc?.installBitcoinWallet({ ...opts, kind: 'sats', network: 'testnet' }),
    dot?.installPolkadotExtension(opts),
    keplr?.installKeplrWallet(opts),
  ].filter(Boolean);
}

function anvilNetworks(config) {
  return config.chains.map((c, i) => ({
    id: c.chainId,
    caipNetworkId: `eip155:${c.chainId}`,
    name: c.name || `Anvil ${String.fromCharCode(65 + i)}`,
    chainNamespace: 'eip155',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [c.rpcUrl] } },
    testnet: true,
  }));
}

function utf8Hex(text) {
  return '0x' + Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function main() {
  const config = await loadConfig();
  const networks = networksFrom(config);

  // The Demo Wallet: the Chromium extension may already have injected it (same code, same hook).
  const byExtension = Boolean(window.demoWallet);
  const wallet = installDemoWallet({ chains: config.chains, persistPermission: true });
  // Its Solana side: a wallet-standard wallet with the same name (the modal lists the wallet once).
  const solanaWallet = config.solana ? installSolanaWallet({ rpcUrl: config.solana.rpcUrl }) : null;
  if (params.get('autoApprove') === '1') wallet.setAutoResponse('approve');
  $('auto-approve').checked = wallet.getAutoResponse() === 'approve';
  solanaWallet?.setAutoResponse($('auto-approve').checked ? 'approve' : null);
  const familyWallets = await installFamilyWallets($('auto-approve').checked);
  $('auto-approve').addEventListener('change', (e) => {
    wallet.setAutoResponse(e.target.checked ? 'approve' : null);
    solanaWallet?.setAutoResponse(e.target.checked ? 'approve' : null);
    for (const w of familyWallets) w.setAutoResponse(e.target.checked ? 'approve' : null);
  });
  const walletStatus = () => {
    const s = wallet.state();
    $('wallet-status').textContent =
      `${byExtension ? 'injected by the extension' : 'installed by this page'} · ` +
      `${s.authorized ? 'connected' : 'not connected'} · chain ${s.chainId ?? '…'} · ${s.pending} pending`;
  };
  for (const ev of ['accountsChanged', 'chainChanged', 'connect', 'disconnect']) wallet.provider.on(ev, walletStatus);
  wallet.ready.then(walletStatus);
  setInterval(walletStatus, 1000);

  // Everything the host receives: bubbling, composed CustomEvents from the element.
  for (const type of HOST_EVENTS) {
    document.addEventListener(type, (e) => {
      if (!(e instanceof CustomEvent)) return;
      const from = e.composedPath()[0];
      log(type, e.detail, from && from.localName);
      refresh();
    });
  }

  // The element.
  let modal = null;
  try {
    await import('/dist/wallet-modal.js');
    await Promise.race([
      customElements.whenDefined('wallet-modal'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('<wallet-modal> was not defined')), 5000)),
    ]);
    modal = document.createElement('wallet-modal');
    modal.setAttribute('project-id', params.get('projectId') ?? config.projectId ?? 'demo-project');
    modal.setAttribute('api-url', config.apiUrl || location.origin);
    modal.setAttribute('analytics-url', config.apiUrl || location.origin);
    // The backend's WalletConnect relay (ws:// beside http://): the demo mobile wallet uses it too.
    modal.setAttribute('relay-url', `${(config.apiUrl || location.origin).replace(/^http/, 'ws').replace(/\/$/, '')}/relay`);
    // The secure frame of the embedded wallet (email, social, Farcaster), on the backend's second origin.
    if (config.frameUrl) modal.setAttribute('frame-url', config.frameUrl);
    modal.networks = networks;
    document.body.append(modal);
  } catch (e) {
    banner(
      `The element bundle /dist/wallet-modal.js is not available (${errorText(e)}). ` +
        'Build it first (make build), then reload. The Demo Wallet works without it.',
      'error',
    );
  }

  // Sign-in (SIWX): off, the modal's own verifier, or this backend as the dapp's server — its
  // nonce, its check of the signed message (with wallet-modal/core, natively) and its sessions.
  const api = (config.apiUrl || location.origin).replace(/\/$/, '');
  const project = encodeURIComponent(params.get('projectId') ?? config.projectId ?? 'demo-project');
  const server = async (path, init) => {
    const res = await fetch(`${api}${path}${path.includes('?') ? '&' : '?'}projectId=${project}`, init);
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
    return body;
  };
  const post = (path, body) => server(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // What proves this page's sessions to the backend (as a dapp keeps its session cookie):
  // caipAddress → {pci, signature}, kept across reloads.
  const SIGNED_IN = 'demo-siwx-sessions';
  const signedIn = new Map(Object.entries(JSON.parse(localStorage.getItem(SIGNED_IN) || '{}')));
  const keepSignedIn = () => localStorage.setItem(SIGNED_IN, JSON.stringify(Object.fromEntries(signedIn)));
  const backendSiwx = (required) => ({
    required,
    statement: 'Sign in to the wallet-modal demo.',
    getNonce: async () => (await server('/v1/sessions/nonce')).nonce,
    verify: async ({ message, signature, caipAddress }) => {
      try {
        const s = await post('/v1/sessions', { message, signature, caipAddress });
        signedIn.set(caipAddress, { pci: s.pci, signature });
        keepSignedIn();
        return true;
      } catch (e) {
        log('siwx', { refused: errorText(e) });
        return false;
      }
    },
    getSession: async ({ caipAddress }) => {
      const address = caipAddress.split(':').pop();
      const { sessions } = await server(`/v1/sessions/${encodeURIComponent(address)}`);
      return sessions.find((s) => s.caipAddress.toLowerCase() === caipAddress.toLowerCase()) ?? null;
    },
    signOut: async ({ caipAddress }) => {
      const s = signedIn.get(caipAddress);
      signedIn.delete(caipAddress);
      keepSignedIn();
      if (s) await post(`/v1/sessions/${encodeURIComponent(caipAddress.split(':').pop())}/revoke`, s).catch(() => {});
    },
  });
  const applySiwx = (mode) => {
    if (!modal) return;
    modal.siwx = mode === 'off' ? undefined : mode === 'default' ? 'default' : backendSiwx(mode === 'required');
  };
  $('siwx').value = params.get('siwx') ?? 'off';
  applySiwx($('siwx').value);
  $('siwx').addEventListener('change', (e) => applySiwx(e.target.value));

  const call = (name, ...args) => {
    if (!modal || typeof modal[name] !== 'function') throw new Error(`wallet-modal.${name}() is not available`);
    return modal[name](...args);
  };
  const provider = () => {
    const p = modal && typeof modal.getProvider === 'function' ? modal.getProvider('eip155') : null;
    if (!p) throw new Error('Not connected: use Connect first.');
    return p;
  };

  async function refresh() {
    let state = null;
    if (modal && typeof modal.getState === 'function') {
      try {
        state = await modal.getState();
        $('state').textContent = show(state);
      } catch (e) {
        $('state').textContent = 'getState() failed: ' + errorText(e);
      }
    }
    try {
      const p = modal && typeof modal.getProvider === 'function' ? modal.getProvider('eip155') : null;
      const [address] = p ? await p.request({ method: 'eth_accounts' }) : [];
      const other = !address && state?.connection && state.connection.namespace !== 'eip155' ? state.connection : null;
      if (other) {
        // Another family's account (Solana, Bitcoin, …): as the modal's state says it.
        $('address').textContent = other.address;
        $('network').textContent = networks.find((n) => n.caipNetworkId === other.caipNetworkId)?.name ?? other.caipNetworkId;
        return;
      }
      $('address').textContent = address || 'not connected';
      if (p && address) {
        const chainId = parseInt(await p.request({ method: 'eth_chainId' }), 16);
        const net = networks.find((n) => n.id === chainId);
        $('network').textContent = net ? `${net.name} (${chainId})` : String(chainId);
      } else {
        $('network').textContent = '–';
      }
    } catch {
      $('address').textContent = 'not connected';
    }
  }

  // Header.
  $('connect').addEventListener('click', () => {
    try {
      call('open');
    } catch (e) {
      setResult(errorText(e));
    }
  });
  let dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const applyTheme = () => {
    document.documentElement.classList.toggle('dark', dark);
    $('theme-toggle').textContent = dark ? 'Light mode' : 'Dark mode';
    try {
      if (modal) call('setThemeMode', dark ? 'dark' : 'light');
    } catch (e) {
      setResult(errorText(e));
    }
  };
  $('theme-toggle').addEventListener('click', () => {
    dark = !dark;
    applyTheme();
  });
  applyTheme();
  $('accent').addEventListener('input', (e) => {
    if (modal) modal.style.setProperty('--wm-accent', e.target.value);
  });

  // Actions through the modal's provider.
  $('sign').addEventListener('click', async () => {
    setResult('Waiting for the wallet…');
    try {
      const p = provider();
      const [address] = await p.request({ method: 'eth_accounts' });
      if (!address) throw new Error('No account connected.');
      const message = `Hello from Anvil Dapp (${location.host}) at ${new Date().toISOString()}`;
      const signature = await p.request({ method: 'personal_sign', params: [utf8Hex(message), address] });
      setResult(`personal_sign\nmessage: ${message}\naddress: ${address}\nsignature: ${signature}`);
    } catch (e) {
      setResult('Sign failed: ' + errorText(e));
    }
  });
  $('send').addEventListener('click', async () => {
    setResult('Waiting for the wallet…');
    try {
      const p = provider();
      const [from] = await p.request({ method: 'eth_accounts' });
      if (!from) throw new Error('No account connected.');
      const to = wallet.accounts[1];
      const hash = await p.request({
        method: 'eth_sendTransaction',
        params: [{ from, to, value: '0x2386f26fc10000' }], // 0.01 ETH
      });
      setResult(`eth_sendTransaction\nfrom: ${from}\nto: ${to}\nhash: ${hash}`);
    } catch (e) {
      setResult('Send failed: ' + errorText(e));
    }
  });
  // A faucet for the demo: a new embedded wallet (email, Google, Farcaster) starts empty. Anvil's
  // last unlocked dev account sends 1 ETH to the connected address on its current network.
  $('faucet').addEventListener('click', async () => {
    try {
      const state = call('getState');
      const to = state?.connection?.address;
      const chainId = Number(state?.network?.caipNetworkId?.split(':')[1]);
      const chain = config.chains.find((c) => c.chainId === chainId);
      if (!to || !chain) throw new Error('Connect a wallet on an anvil network first.');
      const node = async (method, params) => {
        const res = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
        const body = await res.json();
        if (body.error) throw new Error(body.error.message);
        return body.result;
      };
      const accounts = await node('eth_accounts', []);
      const hash = await node('eth_sendTransaction', [{ from: accounts[accounts.length - 1], to, value: '0xde0b6b3a7640000' }]);
      setResult(`faucet: 1 ETH to ${to} on ${chain.name}\nhash: ${hash}`);
    } catch (e) {
      setResult('Faucet failed: ' + errorText(e));
    }
  });
  $('disconnect').addEventListener('click', async () => {
    try {
      await call('disconnect');
      setResult('Disconnected.');
    } catch (e) {
      setResult('Disconnect failed: ' + errorText(e));
    }
    refresh();
  });
  $('refresh-state').addEventListener('click', refresh);
  $('clear-log').addEventListener('click', () => {
    logEntries.length = 0;
    $('log').replaceChildren();
  });

  // Analytics sink of the demo backend (`api`, above).
  // The backend's recorded analytics answer only the run's token, which scripts/demo.sh put in this
  // page's address fragment (`#analytics=…`): fragments never leave the browser.
  const analyticsToken = new URLSearchParams(location.hash.slice(1)).get('analytics') ?? '';
  const recorded = (init = {}) => fetch(`${api}/e/recorded${init.method ? '' : '?withMeta=true'}`, { cache: 'no-store', ...init, headers: { authorization: `Bearer ${analyticsToken}` } });
  $('load-analytics').addEventListener('click', async () => {
    try {
      if (!analyticsToken) throw new Error('open the demo at the address make demo printed (it carries #analytics=…)');
      const res = await recorded();
      if (!res.ok) throw new Error(`the backend answered ${res.status}: the analytics token of this address is not this run's`);
      const events = await res.json();
      $('analytics').textContent = `${events.length} event(s)\n` + show(events);
    } catch (e) {
      $('analytics').textContent = 'Failed: ' + errorText(e);
    }
  });
  $('clear-analytics').addEventListener('click', async () => {
    await recorded({ method: 'DELETE' }).catch(() => {});
    $('analytics').textContent = '–';
  });

  // For end-to-end scripts.
  window.demoPage = { config, networks, modal, wallet, solanaWallet, log: logEntries, refresh };
  refresh();
}

main().catch((e) => banner('Demo failed to start: ' + errorText(e), 'error'));
