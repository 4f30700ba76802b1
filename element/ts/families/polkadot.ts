/**
 * The `polkadot` family in the shell (loaded when the host configures a Polkadot network): finding
 * `window.injectedWeb3` extensions (what `@polkadot/extension-dapp`'s `web3Enable` reads: each
 * key an extension, `{enable(origin), version}`) and giving each the request interface the core's
 * family (core/src/chain/polkadot/) speaks. `enable(origin)` answers the extension's `accounts`
 * (`get`, `subscribe`) and `signer` (`signRaw`); the host gets that object from `getProvider`.
 */
import type { Eip1193Provider } from '../provider';
import type { Announcement, NetworksState, WalletFamily } from './index';
import { FamilyProvider, PROMPT_MS, readField, RequestError, SILENT_MS, silent as isSilent, fn, slug, str, within } from './injected';

export const NAMESPACE = 'polkadot';
const MAX_ACCOUNTS = 32;
/** Names extensions are known by (the key is the id). */
const NAMES: Record<string, string> = { 'polkadot-js': 'polkadot{.js}', talisman: 'Talisman', 'subwallet-js': 'SubWallet', 'fearless-wallet': 'Fearless' };

export class InjectedProvider extends FamilyProvider {
  #injected: object | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(
    readonly extension: object,
    readonly id: string,
    state: () => NetworksState | null,
  ) {
    super(NAMESPACE, state);
  }

  /** The enabled extension (`{accounts, signer}`), what `getProvider('polkadot')` gives. */
  get injected(): object | null {
    return this.#injected;
  }

  async #enable(silent: boolean): Promise<object> {
    if (this.#injected) return this.#injected;
    const enable = fn(this.extension, 'enable');
    if (!enable) throw new RequestError(4200, 'The extension cannot connect (no enable)');
    const origin = (document.title || location.host).slice(0, 100);
    const injected = await within<unknown>(enable(origin), silent ? SILENT_MS : PROMPT_MS, 'enable');
    if (typeof injected !== 'object' || injected === null) throw new RequestError(4001, 'The extension did not allow this site');
    this.#injected = injected;
    const subscribe = fn(readField(injected, 'accounts'), 'subscribe');
    try {
      const off = subscribe?.((list: unknown) => {
        const a = addresses(list);
        if (a.length) this.tell(a);
        else this.emit('accountsChanged', []);
      });
      this.#unsubscribe = typeof off === 'function' ? (off as () => void) : null;
    } catch {
      // An extension without working subscriptions still connects.
    }
    return injected;
  }

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    switch (method) {
      case 'standard:connect': {
        const quiet = isSilent(params);
        const injected = await this.#enable(quiet);
        const get = fn(readField(injected, 'accounts'), 'get');
        if (!get) throw new RequestError(4200, 'The extension has no accounts.get');
        const list = addresses(await within(get(), quiet ? SILENT_MS : PROMPT_MS, 'its accounts'));
        if (!list.length) throw new RequestError(4100, 'The extension has no account for this site');
        return this.accountsOn(list, this.chain());
      }
      case 'wallet-modal:chain':
        return this.chain();
      case 'wallet-modal:switchChain': {
        this.selected = this.target(params);
        this.emit('chainChanged', this.selected);
        const get = fn(readField(this.#injected, 'accounts'), 'get');
        if (get) this.tell(addresses(await within(get(), SILENT_MS, 'its accounts')));
        return null;
      }
      case 'standard:disconnect':
        this.#unsubscribe?.();
        this.#unsubscribe = null;
        this.#injected = null;
        return null;
      default:
        throw new RequestError(4200, `The extension does not support ${str(method, 64)}`);
    }
  }
}

/** The addresses of an extension's account list (at most 32). */
function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, MAX_ACCOUNTS)
    .map((a) => str(readField(a, 'address'), 64))
    .filter(Boolean);
}

/**
 * Announces each extension of `window.injectedWeb3` (and those injected within the next seconds:
 * extensions inject at document start, some later). The connector id is `polkadot.<key>`.
 */
export function discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad: (info: Announcement) => void = () => {}, state: () => NetworksState | null = () => null): () => void {
  const seen = new Set<string>();
  const look = () => {
    const all = readField(window, 'injectedWeb3');
    if (typeof all !== 'object' || all === null) return;
    let keys: string[];
    try {
      keys = Object.keys(all).slice(0, 32);
    } catch {
      return;
    }
    for (const key of keys) {
      const id = slug(key);
      if (seen.has(id)) continue;
      seen.add(id);
      const extension = readField(all, key);
      const info: Announcement = { uuid: `polkadot-${id}`, name: NAMES[key] ?? str(key, 64), icon: '', rdns: `polkadot.${id}` };
      if (typeof extension !== 'object' || extension === null || !fn(extension, 'enable')) onBad(info);
      else onWallet(info, new InjectedProvider(extension, id, state));
    }
  };
  look();
  const timers = [300, 1000, 3000].map((ms) => setTimeout(look, ms));
  return () => timers.forEach(clearTimeout);
}

/** What the host gets from `getProvider('polkadot')`: the enabled extension (`{accounts, signer}`). */
export function hostProvider(provider: Eip1193Provider): unknown {
  return provider instanceof InjectedProvider ? (provider.injected ?? undefined) : undefined;
}

export const polkadot: WalletFamily = { namespace: NAMESPACE, discoverWallets, hostProvider };
