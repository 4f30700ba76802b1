/**
 * The `solana` family in the shell: finding wallet-standard wallets (the protocol of
 * `@wallet-standard/app`: the `wallet-standard:register-wallet` and `wallet-standard:app-ready`
 * window events) and giving each the request interface the engine speaks. The core's family
 * (core/src/chain/solana/) decides what to ask; this file only carries it: `standard:connect`,
 * `standard:disconnect`, `solana:signAndSendTransaction` and `solana:signMessage` go to the
 * wallet's features (bytes travel as base64), `wallet-modal:chain` and `wallet-modal:switchChain`
 * keep the chain the modal uses (the standard has no current chain). Everything a page registers
 * is hostile: only wallets with a name, `standard:connect` and a `solana:` chain are kept, every
 * field is read once, and nothing a wallet throws reaches the host page.
 */
import { readField, type Eip1193Provider } from '../provider';
import type { Announcement, WalletFamily } from './index';

export const NAMESPACE = 'solana';

const str = (v: unknown, max = 4096): string => (typeof v === 'string' ? v.slice(0, max) : '');
const MAX_ACCOUNTS = 32;
/** The largest transaction Solana carries (bytes), and the longest message signed. */
const MAX_TRANSACTION = 1232;
const MAX_MESSAGE = 64 * 1024;

class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function feature(wallet: object, name: string): Record<string, unknown> | null {
  const f = readField(readField(wallet, 'features'), name);
  return typeof f === 'object' && f !== null ? (f as Record<string, unknown>) : null;
}

function method(wallet: object, featureName: string, fn: string): ((...args: unknown[]) => unknown) | null {
  const f = feature(wallet, featureName);
  const m = f && readField(f, fn);
  return typeof m === 'function' ? (m as (...args: unknown[]) => unknown).bind(f) : null;
}

/** The chains a wallet or an account declares (strings starting `solana:`, at most 16). */
function solanaChains(o: unknown): string[] {
  const chains = readField(o, 'chains');
  if (!Array.isArray(chains)) return [];
  return chains
    .slice(0, 16)
    .map((c) => str(c, 64))
    .filter((c) => c.startsWith('solana:'));
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(s: unknown, max: number): Uint8Array {
  if (typeof s !== 'string' || s.length > Math.ceil(max / 3) * 4) throw new RequestError(-32602, 'Invalid params: not base64 of a transaction');
  const bin = atob(s);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function bytes(v: unknown, max: number): Uint8Array | null {
  return v instanceof Uint8Array && v.length <= max ? v : null;
}

/** The request interface the engine speaks to a wallet-standard wallet. */
class StandardProvider implements Eip1193Provider {
  readonly #wallet: object;
  #chain: string | null = null;
  #listeners = new Map<string, Set<(data: unknown) => void>>();
  #off: (() => void) | null = null;

  constructor(wallet: object) {
    this.#wallet = wallet;
  }

  /** The wallet-standard wallet itself (what `getProvider('solana')` gives the host). */
  get wallet(): object {
    return this.#wallet;
  }

  /** Its Solana accounts, as the wallet lists them now (at most 32). */
  #accounts(): object[] {
    const list = readField(this.#wallet, 'accounts');
    if (!Array.isArray(list)) return [];
    return list.slice(0, MAX_ACCOUNTS).filter((a): a is object => typeof a === 'object' && a !== null && solanaChains(a).length > 0);
  }

  #account(): object {
    const a = this.#accounts()[0];
    if (!a) throw new RequestError(4100, 'The wallet has no Solana account connected');
    return a;
  }

  /** The chain the modal uses: the one it selected, else the account's (or wallet's) first. */
  #currentChain(): string {
    const a = this.#accounts()[0];
    const supported = [...solanaChains(a), ...solanaChains(this.#wallet)];
    if (this.#chain && supported.includes(this.#chain)) return this.#chain;
    return supported[0] ?? '';
  }

  async request(args: { method: string; params?: unknown }): Promise<unknown> {
    const name = readField(args, 'method');
    const params = readField(args, 'params');
    const first = Array.isArray(params) ? params[0] : undefined;
    switch (name) {
      case 'standard:connect': {
        const connect = method(this.#wallet, 'standard:connect', 'connect');
        if (!connect) throw new RequestError(4200, 'The wallet cannot connect (no standard:connect)');
        await connect({ silent: readField(first, 'silent') === true });
        return this.#accounts().map((a) => str(readField(a, 'address'), 64));
      }
      case 'wallet-modal:chain':
        return this.#currentChain();
      case 'wallet-modal:switchChain': {
        const wanted = [str(readField(first, 'chain'), 64), str(readField(first, 'caipNetworkId'), 64)];
        const supported = [...solanaChains(this.#accounts()[0]), ...solanaChains(this.#wallet)];
        const chain = wanted.find((c) => c && supported.includes(c));
        if (!chain) throw new RequestError(4902, 'The wallet does not support this network');
        this.#chain = chain;
        this.#emit('chainChanged', chain);
        return null;
      }
      case 'standard:disconnect': {
        const disconnect = method(this.#wallet, 'standard:disconnect', 'disconnect');
        if (disconnect) await disconnect();
        return null;
      }
      case 'solana:signAndSendTransaction': {
        const send = method(this.#wallet, 'solana:signAndSendTransaction', 'signAndSendTransaction');
        if (!send) throw new RequestError(4200, 'The wallet cannot send transactions (no solana:signAndSendTransaction)');
        const transaction = fromBase64(readField(first, 'transaction'), MAX_TRANSACTION);
        const out = await send({ account: this.#account(), chain: this.#currentChain(), transaction });
        const signature = bytes(readField(Array.isArray(out) ? out[0] : undefined, 'signature'), 64);
        if (!signature) throw new RequestError(-32603, 'The wallet did not answer a signature');
        return { signature: toBase64(signature) };
      }
      case 'solana:signMessage': {
        const sign = method(this.#wallet, 'solana:signMessage', 'signMessage');
        if (!sign) throw new RequestError(4200, 'The wallet cannot sign messages (no solana:signMessage)');
        const message = fromBase64(readField(first, 'message'), MAX_MESSAGE);
        const out = await sign({ account: this.#account(), message });
        const signature = bytes(readField(Array.isArray(out) ? out[0] : undefined, 'signature'), 64);
        if (!signature) throw new RequestError(-32603, 'The wallet did not answer a signature');
        return { signature: toBase64(signature) };
      }
      default:
        throw new RequestError(4200, `The wallet does not support ${str(name, 64)}`);
    }
  }

  on(event: string, listener: (data: unknown) => void): void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    this.#subscribe();
  }

  removeListener(event: string, listener: (data: unknown) => void): void {
    this.#listeners.get(event)?.delete(listener);
    if ([...this.#listeners.values()].every((s) => s.size === 0)) {
      this.#off?.();
      this.#off = null;
    }
  }

  #emit(event: string, data: unknown): void {
    for (const fn of this.#listeners.get(event) ?? []) fn(data);
  }

  /** The wallet's `change` event: its accounts (or chains) changed. */
  #subscribe(): void {
    if (this.#off) return;
    const on = method(this.#wallet, 'standard:events', 'on');
    if (!on) return;
    try {
      const off = on('change', (properties: unknown) => {
        if (readField(properties, 'accounts') === undefined) return;
        const list = this.#accounts().map((a) => str(readField(a, 'address'), 64));
        this.#emit(list.length ? 'accountsChanged' : 'disconnect', list);
      });
      this.#off = typeof off === 'function' ? () => void (off as () => void)() : () => {};
    } catch {
      // A wallet whose events throw still answers requests.
    }
  }
}

/** A name as an id label: lower-case letters and digits, other runs a `-` (at most 40). */
function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'wallet'
  );
}

/**
 * Listens for wallet-standard wallets (those registered before the page's `app-ready` and after)
 * and calls `onWallet` once per wallet with a Solana chain; `onBad` gets a registration that is
 * not a usable wallet. The connector id is `standard.<name>` (stable across reloads, for
 * reconnecting). Returns a stop function.
 */
export function discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad: (info: Announcement) => void = () => {}): () => void {
  const seen = new Set<object>();
  let count = 0;
  const take = (wallet: unknown) => {
    if (typeof wallet !== 'object' || wallet === null || seen.has(wallet)) return;
    seen.add(wallet);
    const name = str(readField(wallet, 'name'), 256);
    const info: Announcement = { uuid: `standard-${++count}`, name, icon: str(readField(wallet, 'icon'), 200_000), rdns: `standard.${slug(name)}` };
    // A wallet of another family only (no Solana chain) is not ours to list.
    if (!solanaChains(wallet).length) return Array.isArray(readField(wallet, 'chains')) ? undefined : onBad(info);
    if (!name || !method(wallet, 'standard:connect', 'connect')) return onBad(info);
    onWallet(info, new StandardProvider(wallet));
  };
  const api = Object.freeze({
    register: (...wallets: unknown[]) => {
      wallets.slice(0, 64).forEach(take);
      return () => {};
    },
  });
  const onRegister = (event: Event) => {
    const callback = readField(event, 'detail');
    if (typeof callback !== 'function') return;
    try {
      callback(api);
    } catch {
      // A wallet's registration that throws is its own problem.
    }
  };
  window.addEventListener('wallet-standard:register-wallet', onRegister);
  try {
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
  } catch {
    // A listener of a page script threw: the others still heard it.
  }
  return () => window.removeEventListener('wallet-standard:register-wallet', onRegister);
}

/** Solana has no legacy global provider the modal reads. */
export function legacyProvider(): Eip1193Provider | null {
  return null;
}

/** What the host gets from `getProvider('solana')`: the wallet-standard wallet itself. */
export function hostProvider(provider: Eip1193Provider): unknown {
  return provider instanceof StandardProvider ? provider.wallet : undefined;
}

export const solana: WalletFamily = { namespace: NAMESPACE, discoverWallets, legacyProvider, hostProvider };
