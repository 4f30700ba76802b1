/**
 * The `bip122` family (Bitcoin) in the shell, loaded when the host configures a Bitcoin network:
 * wallet-standard wallets with a `bitcoin:` chain and `bitcoin:connect`, and sats-connect
 * providers (`window.btc_providers`, each `{id, name, icon}` whose `id` names the provider object,
 * `XverseProviders.BitcoinProvider`; its `request(method, params)` answers JSON-RPC). Each gets
 * the request interface the core's family (core/src/chain/bip122/) speaks — connecting, switching,
 * and signing a transfer's PSBT (`signPsbt`: `bitcoin:signTransaction` or sats-connect's
 * `signPsbt`, never broadcast by the wallet: the core checks what it signed first). The host gets the
 * wallet-standard wallet or the sats-connect provider itself from `getProvider('bip122')`.
 */
import type { Eip1193Provider } from '../provider';
import type { Announcement, NetworksState, WalletFamily } from './index';
import { FamilyProvider, PROMPT_MS, readField, RequestError, SILENT_MS, silent as isSilent, fn, ruled, slug, str, within } from './injected';

export const NAMESPACE = 'bip122';
const MAX_ACCOUNTS = 8;
const PURPOSES = ['payment', 'ordinals'];

/** The largest PSBT carried to or from a wallet, base64 (a 200-input transfer is well under it). */
const MAX_PSBT = 270_000;

/**
 * A `signPsbt` request of the core (WalletConnect's: `{account, psbt, signInputs: [{address,
 * index}], broadcast}`), checked: the PSBT and, per address, the inputs it signs.
 */
function psbtRequest(params: unknown): { psbt: string; inputs: Map<string, number[]> } {
  const psbt = str(readField(params, 'psbt'), MAX_PSBT + 1);
  if (!psbt || psbt.length > MAX_PSBT || !/^[A-Za-z0-9+/]+={0,2}$/.test(psbt)) throw new RequestError(-32602, 'signPsbt: expected a PSBT in base64');
  const list = readField(params, 'signInputs');
  const inputs = new Map<string, number[]>();
  for (const i of Array.isArray(list) ? list.slice(0, 200) : []) {
    const address = str(readField(i, 'address'), 100);
    const index = readField(i, 'index');
    if (!address || typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 10_000) throw new RequestError(-32602, 'signPsbt: bad signInputs');
    inputs.set(address, [...(inputs.get(address) ?? []), index]);
  }
  if (!inputs.size) throw new RequestError(-32602, 'signPsbt: no input to sign');
  return { psbt, inputs };
}

/** A wallet's signed PSBT (bytes, or base64) as the core reads it: `{psbt}` in base64. */
function signedPsbt(v: unknown): { psbt: string } {
  if (v instanceof Uint8Array && v.length <= (MAX_PSBT / 4) * 3) {
    let bin = '';
    for (let i = 0; i < v.length; i += 0x8000) bin += String.fromCharCode(...v.subarray(i, i + 0x8000));
    return { psbt: btoa(bin) };
  }
  const psbt = str(v, MAX_PSBT + 1);
  if (!psbt || psbt.length > MAX_PSBT) throw new RequestError(-32603, 'The wallet did not answer a signed PSBT');
  return { psbt };
}

/** `{address, purpose}` of each account a wallet lists (at most 8). */
function accounts(list: unknown): { address: string; purpose: string }[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, MAX_ACCOUNTS)
    .map((a) => ({ address: str(readField(a, 'address'), 100), purpose: str(readField(a, 'purpose'), 16) }))
    .filter((a) => a.address);
}


/**
 * A wallet-standard Bitcoin wallet (its accounts each on one chain; no current chain of its own).
 * Its chains are named `bitcoin:mainnet`-style, or as CAIP-2 (`bip122:<genesis>`: a chain without a
 * name, such as the demo's local regtest one).
 */
export class StandardBitcoin extends FamilyProvider {
  #off: (() => void) | null = null;
  /** The network used, as the wallet names it (`bitcoin:mainnet`). */
  #name: string | null = null;

  constructor(
    readonly wallet: object,
    state: () => NetworksState | null,
  ) {
    super(NAMESPACE, state);
  }

  #feature(name: string, f: string) {
    return fn(readField(readField(this.wallet, 'features'), name), f);
  }

  #walletChains(): string[] {
    const c = readField(this.wallet, 'chains');
    return Array.isArray(c) ? c.slice(0, 16).map((x) => str(x, 80)).filter((x) => x.startsWith('bitcoin:') || x.startsWith('bip122:')) : [];
  }

  #chainName(): string {
    return this.#name ?? this.#walletChains()[0] ?? 'bitcoin:mainnet';
  }

  /** The accounts on the network used (those declaring it, or all when they declare none). */
  #on(list: unknown): { address: string; purpose: string }[] {
    const chain = this.#chainName();
    const all = Array.isArray(list) ? list.slice(0, 64) : [];
    const mine = all.filter((a) => {
      const c = readField(a, 'chains');
      return !Array.isArray(c) || c.includes(chain);
    });
    return accounts(mine);
  }

  #caip(): Promise<string> {
    return ruled((r) => r.chainOf(NAMESPACE, this.#chainName()));
  }

  /** The wallet's chain named `id` (CAIP-2), if it has one. */
  async #walletChain(id: string): Promise<string | null> {
    const ids = await Promise.all(this.#walletChains().map((c) => ruled((r) => r.chainOf(NAMESPACE, c)).catch(() => null)));
    return this.#walletChains()[ids.indexOf(id)] ?? null;
  }

  /** Before the first connection: the page's network (the active one first) the wallet has. */
  async #pick(): Promise<void> {
    for (const id of this.#name ? [] : this.chains()) {
      const name = await this.#walletChain(id);
      if (name) return void ((this.#name = name), (this.selected = id));
    }
  }

  #listen() {
    if (this.#off) return;
    const on = this.#feature('standard:events', 'on');
    try {
      const off = on?.('change', (props: unknown) => {
        const all = readField(props, 'accounts');
        if (!Array.isArray(all)) return;
        const list = this.#on(all);
        if (!list.length) return this.emit('disconnect', []);
        void this.#caip().then((c) => this.tell(list, c), () => {});
      });
      this.#off = typeof off === 'function' ? (off as () => void) : null;
    } catch {
      // Without events the connection still works.
    }
  }

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    switch (method) {
      case 'standard:connect': {
        const quiet = isSilent(params);
        await this.#pick();
        let all = readField(this.wallet, 'accounts');
        if (!this.#on(all).length) {
          if (quiet) {
            const connect = this.#feature('standard:connect', 'connect');
            if (!connect) throw new RequestError(4100, 'Not connected');
            all = readField(await within(connect({ silent: true }), SILENT_MS, 'connect'), 'accounts');
          } else {
            const connect = this.#feature('bitcoin:connect', 'connect');
            if (!connect) throw new RequestError(4200, 'The wallet cannot connect (no bitcoin:connect)');
            all = readField(await within(connect({ purposes: PURPOSES }), PROMPT_MS, 'connect'), 'accounts');
          }
        }
        const list = this.#on(all);
        if (!list.length) throw new RequestError(4100, 'The wallet has no Bitcoin account for this site');
        this.#listen();
        return this.accountsOn(list, await this.#caip());
      }
      case 'wallet-modal:chain':
        return this.#caip();
      case 'wallet-modal:switchChain': {
        const target = this.target(params);
        // The wallet's name of that network (`bitcoin:testnet`, or the CAIP-2 id itself).
        const name = await this.#walletChain(target);
        if (!name) throw new RequestError(4902, 'The wallet does not support this network');
        this.#name = name;
        this.selected = target;
        this.emit('chainChanged', target);
        const list = this.#on(readField(this.wallet, 'accounts'));
        if (list.length) this.tell(list, target);
        return null;
      }
      case 'signPsbt': {
        // bitcoin:signTransaction: the PSBT's bytes and, per account, the inputs it signs.
        const { psbt, inputs } = psbtRequest(params);
        const sign = this.#feature('bitcoin:signTransaction', 'signTransaction');
        if (!sign) throw new RequestError(4200, 'The wallet cannot sign transactions (no bitcoin:signTransaction)');
        const all = readField(this.wallet, 'accounts');
        const mine = Array.isArray(all) ? all.slice(0, 64) : [];
        const inputsToSign = [...inputs].map(([address, signingIndexes]) => {
          const account = mine.find((a) => readField(a, 'address') === address);
          if (!account) throw new RequestError(4100, 'The wallet does not hold the address that pays');
          return { account, signingIndexes };
        });
        const bytes = Uint8Array.from(atob(psbt), (c) => c.charCodeAt(0));
        const out = await within<unknown>(sign({ psbt: bytes, inputsToSign, chain: this.#chainName() }), PROMPT_MS, 'signTransaction');
        return signedPsbt(readField(Array.isArray(out) ? out[0] : out, 'signedPsbt'));
      }
      case 'standard:disconnect': {
        this.#off?.();
        this.#off = null;
        const disconnect = this.#feature('standard:disconnect', 'disconnect');
        try {
          await within(disconnect?.(), SILENT_MS, 'disconnect');
        } catch {
          // Best effort.
        }
        return null;
      }
      default:
        throw new RequestError(4200, `The wallet does not support ${str(method, 64)}`);
    }
  }
}

/** A sats-connect provider (`request(method, params)` answering JSON-RPC). */
export class SatsProvider extends FamilyProvider {
  #offs: (() => void)[] = [];

  constructor(
    readonly provider: object,
    state: () => NetworksState | null,
  ) {
    super(NAMESPACE, state);
  }

  /** One sats-connect request: its `result`, or its `error` thrown with the wallet's code. */
  async call(method: string, params: unknown, ms: number): Promise<unknown> {
    const request = fn(this.provider, 'request');
    if (!request) throw new RequestError(4200, 'The wallet has no request method');
    const res = await within<unknown>(request(method, params), ms, method);
    const error = readField(res, 'error');
    if (error) {
      const code = readField(error, 'code');
      throw new RequestError(typeof code === 'number' ? code : -32603, str(readField(error, 'message'), 300) || `The wallet refused ${method}`);
    }
    const result = readField(res, 'result');
    return result === undefined && readField(res, 'status') === undefined ? res : result;
  }

  async #addresses(silent: boolean): Promise<{ address: string; purpose: string }[]> {
    if (silent) return accounts(readField(await this.call('wallet_getAccount', null, SILENT_MS), 'addresses'));
    try {
      return accounts(readField(await this.call('wallet_connect', { addresses: PURPOSES }, PROMPT_MS), 'addresses'));
    } catch (e) {
      if (!(e instanceof RequestError) || e.code !== -32601) throw e;
      // An older provider: getAddresses.
      return accounts(readField(await this.call('getAddresses', { purposes: PURPOSES }, PROMPT_MS), 'addresses'));
    }
  }

  /** The network the wallet is on (CAIP-2), as it says; else the one used. */
  async #caip(): Promise<string> {
    let name = '';
    try {
      name = str(readField(readField(await this.call('wallet_getNetwork', null, SILENT_MS), 'bitcoin'), 'name'), 32);
    } catch {
      // A provider without wallet_getNetwork: the network used.
    }
    if (!name) return this.selected ?? this.chain();
    const chain = await ruled((r) => r.chainOf(NAMESPACE, name));
    if (this.chains().includes(chain)) return chain;
    // A wallet names a network, not a chain: the page's network of that name, if it has one (a
    // wallet's Regtest is the page's local regtest chain, whatever its genesis).
    for (const c of this.chains()) if ((await ruled((r) => r.bitcoinNetworkName(c))) === name) return c;
    return chain;
  }

  #listen() {
    if (this.#offs.length) return;
    const add = fn(this.provider, 'addListener');
    if (!add) return;
    const reread = () =>
      void Promise.all([this.#addresses(true), this.#caip()]).then(([l, c]) => (l.length ? this.tell(l, c) : this.emit('disconnect', [])), () => {});
    for (const [event, cb] of [
      ['accountChange', reread],
      ['networkChange', () => void this.#caip().then((c) => ((this.selected = c), this.emit('chainChanged', c), reread()), () => {})],
      ['disconnect', () => this.emit('disconnect', [])],
    ] as const) {
      try {
        const off = add(event, cb);
        if (typeof off === 'function') this.#offs.push(off as () => void);
      } catch {
        // Without events the connection still works.
      }
    }
  }

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    switch (method) {
      case 'standard:connect': {
        const list = await this.#addresses(isSilent(params));
        if (!list.length) throw new RequestError(4100, 'The wallet has no Bitcoin account for this site');
        this.#listen();
        return this.accountsOn(list, await this.#caip());
      }
      case 'wallet-modal:chain':
        return this.#caip();
      case 'wallet-modal:switchChain': {
        const target = this.target(params);
        const name = await ruled((r) => r.bitcoinNetworkName(target));
        if (!name) throw new RequestError(4902, 'The wallet cannot move to this network');
        await this.call('wallet_changeNetwork', { name }, PROMPT_MS);
        this.selected = target;
        this.emit('chainChanged', target);
        const list = await this.#addresses(true);
        if (list.length) this.tell(list, target);
        return null;
      }
      case 'signPsbt': {
        // sats-connect's signPsbt: the inputs each address signs, the wallet not broadcasting.
        const { psbt, inputs } = psbtRequest(params);
        const out = await this.call('signPsbt', { psbt, signInputs: Object.fromEntries(inputs), broadcast: false }, PROMPT_MS);
        const txid = str(readField(out, 'txid'), 64);
        return { ...signedPsbt(readField(out, 'psbt')), ...(txid ? { txid } : {}) };
      }
      case 'standard:disconnect':
        this.#offs.splice(0).forEach((off) => off());
        try {
          await this.call('wallet_disconnect', null, SILENT_MS);
        } catch {
          // Best effort.
        }
        return null;
      default:
        throw new RequestError(4200, `The wallet does not support ${str(method, 64)}`);
    }
  }
}

/** The object an `id` path names on window (`XverseProviders.BitcoinProvider`, at most 3 deep). */
function at(path: string): unknown {
  const parts = path.split('.');
  if (parts.length > 3) return undefined;
  return parts.reduce<unknown>((o, k) => readField(o, k), window);
}

/**
 * Announces wallet-standard Bitcoin wallets (`bitcoin.<name>`) and sats-connect providers
 * (`sats.<id>`); `onBad` gets one that cannot connect. Returns a stop function.
 */
export function discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void, onBad: (info: Announcement) => void = () => {}, state: () => NetworksState | null = () => null): () => void {
  const seen = new Set<unknown>();
  const takeStandard = (wallet: unknown) => {
    if (typeof wallet !== 'object' || wallet === null || seen.has(wallet)) return;
    seen.add(wallet);
    const c = readField(wallet, 'chains');
    if (!Array.isArray(c) || !c.some((x) => typeof x === 'string' && (x.startsWith('bitcoin:') || x.startsWith('bip122:')))) return;
    const name = str(readField(wallet, 'name'), 256);
    const info: Announcement = { uuid: `bitcoin-${slug(name)}`, name, icon: str(readField(wallet, 'icon'), 200_000), rdns: `bitcoin.${slug(name)}` };
    const ok = name && fn(readField(readField(wallet, 'features'), 'bitcoin:connect'), 'connect');
    if (!ok) onBad(info);
    else onWallet(info, new StandardBitcoin(wallet, state));
  };
  const api = Object.freeze({
    register: (...wallets: unknown[]) => {
      wallets.slice(0, 64).forEach(takeStandard);
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
    // A page listener threw; the others heard it.
  }

  const takeSats = () => {
    let list = readField(window, 'btc_providers');
    if (!Array.isArray(list)) list = readField(readField(window, 'XverseProviders'), 'BitcoinProvider') ? [{ id: 'XverseProviders.BitcoinProvider', name: 'Xverse', icon: '' }] : [];
    for (const entry of (list as unknown[]).slice(0, 16)) {
      const id = str(readField(entry, 'id'), 100);
      if (!id || seen.has(`sats:${id}`)) continue;
      seen.add(`sats:${id}`);
      const name = str(readField(entry, 'name'), 256);
      const provider = at(id);
      const info: Announcement = { uuid: `sats-${slug(id)}`, name, icon: str(readField(entry, 'icon'), 200_000), rdns: `sats.${slug(id)}` };
      if (!name || typeof provider !== 'object' || provider === null || !fn(provider, 'request')) onBad(info);
      else onWallet(info, new SatsProvider(provider, state));
    }
  };
  takeSats();
  const timer = setTimeout(takeSats, 1000);
  return () => {
    window.removeEventListener('wallet-standard:register-wallet', onRegister);
    clearTimeout(timer);
  };
}

/** What the host gets from `getProvider('bip122')`: the wallet-standard wallet or the sats-connect provider. */
export function hostProvider(provider: Eip1193Provider): unknown {
  if (provider instanceof StandardBitcoin) return provider.wallet;
  if (provider instanceof SatsProvider) return provider.provider;
  return undefined;
}

export const bip122: WalletFamily = { namespace: NAMESPACE, discoverWallets, hostProvider };
