// The Demo Wallet's Solana side: a wallet-standard wallet (no build step, no dependencies) that
// registers itself as wallets do (`wallet-standard:register-wallet`, and again on the app's
// `wallet-standard:app-ready`), holds one ed25519 key (WebCrypto), signs messages and transactions
// and sends them to the local SVM (demo/solana/rpc.mjs) through its JSON-RPC.
//
//   import { installSolanaWallet } from '/demo/wallet/solana-wallet.js';
//   const w = installSolanaWallet({ rpcUrl: 'http://127.0.0.1:8899', autoResponse: 'approve' });
//
// Options: `rpcUrl` (the local chain), `chains` (default: localnet), `name`/`icon` (default: the
// Demo Wallet's, so that a page with both sides lists it once), `seed` (32 bytes hex: the key),
// `autoResponse` ('approve' | 'reject' | null: prompts are then answered by `window.demoSolanaWallet`
// or a confirm() dialog), `global` (the hook's name on window, default `demoSolanaWallet`; null:
// none, a second wallet), `signAndSend: false` (a wallet that only signs: no
// `solana:signAndSendTransaction`).

export const SOLANA_DEMO_SEED = '0b121920272e353c434a51585f666d747b828990979ea5acb3bac1c8cfd6dde4';
/** The address of the default key (SOLANA_DEMO_SEED). */
export const SOLANA_DEMO_ADDRESS = 'FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc';
const DEFAULT_NAME = 'Demo Wallet';
const DEFAULT_ICON =
  'data:image/svg+xml;base64,' +
  btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#3b5bdb"/><path d="M24 34h48v30a6 6 0 0 1-6 6H30a6 6 0 0 1-6-6z" fill="#fff"/><rect x="52" y="44" width="20" height="14" rx="4" fill="#3b5bdb"/><circle cx="60" cy="51" r="3" fill="#fff"/><path d="M28 34l30-12 6 12" fill="none" stroke="#fff" stroke-width="4"/></svg>');

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let s = '';
  while (n > 0n) {
    s = ALPHABET[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b) break;
    s = '1' + s;
  }
  return s;
}

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
const toBase64 = (bytes) => btoa(String.fromCharCode(...bytes));

class WalletError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Registers `wallet` the way wallet-standard wallets do. */
function registerWallet(wallet) {
  const callback = (api) => {
    try {
      api.register(wallet);
    } catch {
      // An app that cannot take it.
    }
  };
  window.addEventListener('wallet-standard:app-ready', (e) => callback(e.detail));
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
}

/** The offset of a legacy or v0 message in a wire transaction, and how many signatures it has. */
function splitTransaction(tx) {
  let count = 0;
  let shift = 0;
  let i = 0;
  for (;;) {
    const b = tx[i++];
    count |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
    shift += 7;
  }
  return { count, signaturesAt: i, messageAt: i + 64 * count };
}

/** Which signature slot is `key`'s: its place among the message's first `required` keys. */
function signerIndex(message, key) {
  const versioned = message[0] & 0x80 ? 1 : 0;
  const required = message[versioned];
  const keysAt = versioned + 3 + 1; // header, then a one-byte key count (the demo's are < 128)
  for (let k = 0; k < required; k++) {
    const slice = message.subarray(keysAt + 32 * k, keysAt + 32 * (k + 1));
    if (slice.every((b, j) => b === key[j])) return k;
  }
  return -1;
}

export function installSolanaWallet(options = {}) {
  const global = options.global === undefined ? 'demoSolanaWallet' : options.global;
  if (global && window[global]) return window[global];
  const chains = options.chains ?? ['solana:localnet'];
  let rpcUrl = options.rpcUrl ?? null;
  let autoResponse = options.autoResponse ?? null;
  const seed = hexBytes(options.seed ?? SOLANA_DEMO_SEED);
  const listeners = new Set();
  const pending = [];
  let connected = false;
  const name = options.name ?? DEFAULT_NAME;
  const authKey = `demo-solana-wallet:${name}:authorized`;
  let authorized = sessionStorage.getItem(authKey) === '1';
  const log = [];

  const load = async (bytes) => {
    const pkcs8 = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20, ...bytes]);
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
    const jwk = await crypto.subtle.exportKey('jwk', privateKey);
    const publicKey = Uint8Array.from(atob(jwk.x.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    return { privateKey, publicKey, address: base58(publicKey) };
  };
  let keys = load(seed);

  const sign = async (bytes) => new Uint8Array(await crypto.subtle.sign('Ed25519', (await keys).privateKey, bytes));

  let account = null;
  const features = [...(options.signAndSend === false ? [] : ['solana:signAndSendTransaction']), 'solana:signTransaction', 'solana:signMessage', ...(options.signIn === false ? [] : ['solana:signIn'])];
  const emit = (properties) => listeners.forEach((fn) => fn(properties));

  /** Asks the visitor (or the test hook, or the auto answer). */
  function ask(method, detail) {
    log.push({ method, detail });
    return new Promise((resolve, reject) => {
      const item = { method, detail, resolve, reject: () => reject(new WalletError(4001, 'User rejected the request.')) };
      if (autoResponse === 'approve') return resolve();
      if (autoResponse === 'reject') return item.reject();
      pending.push(item);
      if (!options.hookOnly && typeof window.confirm === 'function' && !navigator.webdriver) {
        const ok = window.confirm(`${wallet.name} (Solana)\n\n${method}\n${detail ?? ''}`);
        pending.splice(pending.indexOf(item), 1);
        return ok ? resolve() : item.reject();
      }
    });
  }

  async function rpc(method, params) {
    if (!rpcUrl) throw new WalletError(-32603, 'The wallet has no Solana node configured');
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = await res.json();
    if (body.error) throw new WalletError(body.error.code ?? -32603, body.error.message ?? 'RPC error');
    return body.result;
  }

  async function signTransactionBytes(tx) {
    const { publicKey } = await keys;
    const { signaturesAt, messageAt, count } = splitTransaction(tx);
    const message = tx.subarray(messageAt);
    const index = signerIndex(message, publicKey);
    if (index < 0 || index >= count) throw new WalletError(-32602, 'The transaction is not this account\'s to sign');
    const signed = Uint8Array.from(tx);
    const signature = await sign(message);
    signed.set(signature, signaturesAt + 64 * index);
    return { signed, signature };
  }

  const checkAccount = (input) => {
    if (!account || !input || input.account?.address !== account.address) throw new WalletError(4100, 'Unknown account');
  };

  const wallet = {
    version: '1.0.0',
    name,
    icon: options.icon ?? DEFAULT_ICON,
    chains,
    get accounts() {
      return connected && account ? [account] : [];
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input) {
          if (!(input && input.silent && authorized)) {
            if (input && input.silent) return { accounts: [] };
            await ask('connect', location.origin);
          }
          const { publicKey, address } = await keys;
          account = Object.freeze({ address, publicKey, chains, features, label: 'Demo Solana account' });
          connected = true;
          authorized = true;
          sessionStorage.setItem(authKey, '1');
          emit({ accounts: wallet.accounts });
          return { accounts: wallet.accounts };
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        async disconnect() {
          connected = false;
          authorized = false;
          sessionStorage.removeItem(authKey);
          emit({ accounts: [] });
        },
      },
      'standard:events': {
        version: '1.0.0',
        on(event, listener) {
          if (event !== 'change') return () => {};
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      'solana:signMessage': {
        version: '1.1.0',
        async signMessage(...inputs) {
          const out = [];
          for (const input of inputs) {
            checkAccount(input);
            await ask('signMessage', new TextDecoder().decode(input.message));
            out.push({ signedMessage: input.message, signature: await sign(input.message), signatureType: 'ed25519' });
          }
          return out;
        },
      },
      ...(options.signIn === false ? {} : { 'solana:signIn': {
        version: '1.0.0',
        // Sign In With Solana: the wallet writes the message from the dapp's fields (as Phantom
        // does: its own chain names, the lines of EIP-4361) and signs it.
        async signIn(...inputs) {
          const out = [];
          for (const input of inputs) {
            const { address, publicKey } = await keys;
            const lines = [`${input.domain ?? location.host} wants you to sign in with your Solana account:`, address];
            lines.push('', ...(input.statement ? [input.statement, ''] : []));
            const field = (label, v) => v !== undefined && v !== null && v !== '' && lines.push(`${label}: ${v}`);
            field('URI', input.uri);
            field('Version', input.version);
            field('Chain ID', typeof input.chainId === 'string' ? input.chainId.replace(/^solana:/, '') : undefined);
            field('Nonce', input.nonce);
            field('Issued At', input.issuedAt);
            field('Expiration Time', input.expirationTime);
            field('Not Before', input.notBefore);
            field('Request ID', input.requestId);
            if (Array.isArray(input.resources)) lines.push('Resources:', ...input.resources.map((r) => `- ${r}`));
            const text = lines.join('\n');
            await ask('signIn', text);
            const signedMessage = new TextEncoder().encode(text);
            if (!account) {
              account = Object.freeze({ address, publicKey, chains, features, label: 'Demo Solana account' });
              authorized = true;
              sessionStorage.setItem(authKey, '1');
            }
            out.push({ account, signedMessage, signature: await sign(signedMessage), signatureType: 'ed25519' });
          }
          return out;
        },
      } }),
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signTransaction(...inputs) {
          const out = [];
          for (const input of inputs) {
            checkAccount(input);
            await ask('signTransaction', `${input.transaction.length} bytes on ${input.chain}`);
            out.push({ signedTransaction: (await signTransactionBytes(input.transaction)).signed });
          }
          return out;
        },
      },
      ...(options.signAndSend === false ? {} : { 'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(...inputs) {
          const out = [];
          for (const input of inputs) {
            checkAccount(input);
            if (!chains.includes(input.chain)) throw new WalletError(4901, `The wallet is not on ${input.chain}`);
            await ask('signAndSendTransaction', `${input.transaction.length} bytes on ${input.chain}`);
            const { signed, signature } = await signTransactionBytes(input.transaction);
            await rpc('sendTransaction', [toBase64(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }]);
            out.push({ signature });
          }
          return out;
        },
      } }),
    },
  };

  registerWallet(wallet);

  const hook = {
    wallet,
    keys: () => keys,
    log,
    /** Answers the oldest prompt waiting for the hook. */
    answer(ok) {
      const item = pending.shift();
      if (!item) return false;
      if (ok) item.resolve();
      else item.reject();
      return true;
    },
    pending: () => pending.map((p) => p.method),
    setAutoResponse(mode) {
      autoResponse = mode;
    },
    setRpcUrl(url) {
      rpcUrl = url;
    },
    /** The wallet switches to another account (its `change` event). */
    async changeAccount(seedHex) {
      keys = load(hexBytes(seedHex));
      const { publicKey, address } = await keys;
      account = Object.freeze({ address, publicKey, chains, features, label: 'Demo Solana account 2' });
      emit({ accounts: wallet.accounts });
      return address;
    },
  };
  if (global) window[global] = hook;
  return hook;
}
