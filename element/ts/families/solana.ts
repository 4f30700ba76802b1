/**
 * The `solana` family in the shell: finding wallet-standard wallets (the protocol of
 * `@wallet-standard/app`: the `wallet-standard:register-wallet` and `wallet-standard:app-ready`
 * window events) and giving each the request interface the engine speaks (`solana.provider.ts`,
 * loaded on first use). The core's family (core/src/chain/solana/) decides what to ask; the shell
 * only carries it. Everything a page registers is hostile: only wallets with a name,
 * `standard:connect` and a `solana:` chain are kept, every field is read once, and nothing a wallet
 * throws reaches the host page.
 */
import { readField, type Eip1193Provider } from '../provider';
import type { Announcement, WalletFamily } from './index';

export const NAMESPACE = 'solana';

export const str = (v: unknown, max = 4096): string => (typeof v === 'string' ? v.slice(0, max) : '');

/** A feature of a wallet-standard wallet (`standard:connect`, …), read once; null without it. */
export function feature(wallet: object, name: string): Record<string, unknown> | null {
  const f = readField(readField(wallet, 'features'), name);
  return typeof f === 'object' && f !== null ? (f as Record<string, unknown>) : null;
}

/** A feature's method, bound to the feature; null without it. */
export function method(wallet: object, featureName: string, fn: string): ((...args: unknown[]) => unknown) | null {
  const f = feature(wallet, featureName);
  const m = f && readField(f, fn);
  return typeof m === 'function' ? (m as (...args: unknown[]) => unknown).bind(f) : null;
}

/** The chains a wallet or an account declares (strings starting `solana:`, at most 16). */
export function solanaChains(o: unknown): string[] {
  const chains = readField(o, 'chains');
  if (!Array.isArray(chains)) return [];
  return chains
    .slice(0, 16)
    .map((c) => str(c, 64))
    .filter((c) => c.startsWith('solana:'));
}

/**
 * A wallet's request interface as the engine gets it at once; its code (`solana.provider.ts`) loads
 * on the first request or subscription, outside the initial load.
 */
class LazyProvider implements Eip1193Provider {
  #real: Promise<import('./solana.provider').StandardProvider> | null = null;
  constructor(readonly wallet: object) {}

  #load() {
    return (this.#real ??= import('./solana.provider').then(({ StandardProvider }) => new StandardProvider(this.wallet, { readField, method, solanaChains, str })));
  }

  request(args: { method: string; params?: unknown }): Promise<unknown> {
    return this.#load().then((p) => p.request(args));
  }

  on(event: string, listener: (data: unknown) => void): void {
    this.#load().then((p) => p.on(event, listener), () => {});
  }

  removeListener(event: string, listener: (data: unknown) => void): void {
    this.#load().then((p) => p.removeListener(event, listener), () => {});
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
    onWallet(info, new LazyProvider(wallet));
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

/** What the host gets from `getProvider('solana')`: the wallet-standard wallet itself. */
export function hostProvider(provider: Eip1193Provider): unknown {
  return provider instanceof LazyProvider ? provider.wallet : undefined;
}

export const solana: WalletFamily = { namespace: NAMESPACE, discoverWallets, hostProvider };
