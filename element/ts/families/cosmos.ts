/**
 * The `cosmos` family in the shell (loaded when the host configures a Cosmos network): finding
 * `window.keplr` (and wallets with its API) and giving it the request interface the core's family
 * (core/src/chain/cosmos/) speaks: `enable(chainIds)`, `getKey(chainId)` (its `bech32Address`),
 * the `keplr_keystorechange` window event. The host gets `window.keplr` itself from `getProvider`.
 */
import type { Eip1193Provider } from '../provider';
import type { Announcement, NetworksState, WalletFamily } from './index';
import { FamilyProvider, PROMPT_MS, readField, RequestError, SILENT_MS, silent as isSilent, fn, str, within } from './injected';

export const NAMESPACE = 'cosmos';

const chainId = (caip: string) => caip.slice('cosmos:'.length);

export class KeplrProvider extends FamilyProvider {
  #onKeystore = () => {
    void this.#address(SILENT_MS).then(
      (a) => this.tell([a], this.chain()),
      () => {},
    );
  };

  constructor(
    readonly keplr: object,
    state: () => NetworksState | null,
  ) {
    super(NAMESPACE, state);
  }

  async #address(ms: number, chain = this.chain()): Promise<string> {
    const getKey = fn(this.keplr, 'getKey');
    if (!getKey) throw new RequestError(4200, 'The wallet has no getKey');
    const key = await within(getKey(chainId(chain)), ms, 'its key');
    const address = str(readField(key, 'bech32Address'), 128);
    if (!address) throw new RequestError(-32603, 'The wallet answered no address');
    return address;
  }

  async #enable(chain: string, ms: number): Promise<void> {
    const enable = fn(this.keplr, 'enable');
    if (!enable) throw new RequestError(4200, 'The wallet cannot connect (no enable)');
    await within(enable(chainId(chain)), ms, 'enable');
  }

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    switch (method) {
      case 'standard:connect': {
        const quiet = isSilent(params);
        const ms = quiet ? SILENT_MS : PROMPT_MS;
        await this.#enable(this.chain(), ms);
        const address = await this.#address(ms);
        const checked = await this.accountsOn([address], this.chain());
        window.removeEventListener('keplr_keystorechange', this.#onKeystore);
        window.addEventListener('keplr_keystorechange', this.#onKeystore);
        return checked;
      }
      case 'wallet-modal:chain':
        return this.chain();
      case 'wallet-modal:switchChain': {
        const target = this.target(params);
        await this.#enable(target, PROMPT_MS);
        const address = await this.#address(SILENT_MS, target);
        this.selected = target;
        this.emit('chainChanged', target);
        this.tell([address], target);
        return null;
      }
      case 'standard:disconnect': {
        window.removeEventListener('keplr_keystorechange', this.#onKeystore);
        const disable = fn(this.keplr, 'disable');
        try {
          await within(disable?.(this.chains().map(chainId)), SILENT_MS, 'disable');
        } catch {
          // Best effort: the session ends in the modal whatever the wallet says.
        }
        return null;
      }
      default:
        throw new RequestError(4200, `The wallet does not support ${str(method, 64)}`);
    }
  }
}

/** Announces `window.keplr` (now, or when the page has loaded: Keplr injects by then). */
export function discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad: (info: Announcement) => void = () => {}, state: () => NetworksState | null = () => null): () => void {
  let done = false;
  const look = () => {
    if (done) return;
    const keplr = readField(window, 'keplr');
    if (typeof keplr !== 'object' || keplr === null) return;
    done = true;
    const name = str(readField(keplr, 'name'), 64) || 'Keplr';
    const info: Announcement = { uuid: 'keplr', name, icon: '', rdns: 'keplr.keplr' };
    if (!fn(keplr, 'enable') || !fn(keplr, 'getKey')) onBad(info);
    else onWallet(info, new KeplrProvider(keplr, state));
  };
  look();
  window.addEventListener('load', look);
  const timer = setTimeout(look, 1000);
  return () => {
    window.removeEventListener('load', look);
    clearTimeout(timer);
  };
}

/** What the host gets from `getProvider('cosmos')`: `window.keplr` itself. */
export function hostProvider(provider: Eip1193Provider): unknown {
  return provider instanceof KeplrProvider ? provider.keplr : undefined;
}

export const cosmos: WalletFamily = { namespace: NAMESPACE, discoverWallets, hostProvider };
