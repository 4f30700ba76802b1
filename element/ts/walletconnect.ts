/**
 * An EIP-1193 provider over a WalletConnect v2 session, loaded lazily (dynamic `import()`) the
 * first time the element needs WalletConnect. It behaves like an injected wallet's provider:
 *
 * - `eth_requestAccounts` pairs: the URI goes to `onUri` (QR code, deep links) and is renewed
 *   before it expires; the promise resolves with the accounts once the wallet settled the session,
 *   or rejects with 4001 when the wallet rejects.
 * - `eth_accounts`, `eth_chainId` are answered from the session; `wallet_switchEthereumChain`
 *   goes to the wallet when it allowed the method, otherwise switches among the session's chains.
 * - The Solana family's calls (core/src/chain/solana/wallet.rs) likewise: `standard:connect` pairs,
 *   `wallet-modal:chain` and `wallet-modal:switchChain` answer and switch among the session's
 *   chains, `standard:disconnect` is left to the release; WalletConnect's `solana_*` methods go to
 *   the wallet with their one object as params.
 * - Everything else goes to the wallet as `wc_sessionRequest` on the active chain.
 * - Wallet events come out as `accountsChanged`, `chainChanged`, `disconnect`.
 *
 * `release()` ends the session (wc_sessionDelete) or cancels the pairing; `close()` only stops the
 * socket, leaving the stored session for the next page load.
 */
import { loadWcWasm, type WcWasm } from './wc-wasm';
import { WcHost, readStored, writeStored, type Metadata, type ProposalNamespaces, type WcEvent, type WcSession } from './wc-host';
import {
  ProviderRpcError,
  addressesOf,
  allowsMethod,
  chainHex,
  sessionAccounts,
  sessionChains,
  toCaipChain,
  uriExpiryMs,
  walletError,
} from './families/eip155.walletconnect';
import { isSolanaChain, solanaParams, solanaSessionAccounts, solanaSessionChains } from './families/solana.walletconnect';
import { checkedAccounts, isMoreChain, moreSessionAccounts, moreSessionChains } from './families/more.walletconnect';

/** The session's chains of every family it has. */
const chainsOf = (session: WcSession): string[] => [...sessionChains(session), ...solanaSessionChains(session), ...moreSessionChains(session)];
/** The addresses the session holds on `chain`, whatever its family. */
const accountsOn = (session: WcSession, chain: string): string[] =>
  isSolanaChain(chain) ? solanaSessionAccounts(session, chain) : isMoreChain(chain) ? moreSessionAccounts(session, chain) : sessionAccounts(session, chain);
/** A chain as its family's wallets announce it (`0x7a69`; other families' chains as CAIP-2). */
const chainEvent = (chain: string): string => (isSolanaChain(chain) || isMoreChain(chain) ? chain : chainHex(chain));

export { ProviderRpcError };

export interface WalletConnectOptions {
  relayUrl: string;
  projectId: string;
  /** Prefix of this module's localStorage keys (`{prefix}client`, `{prefix}relay_seed`, `{prefix}chain`). */
  storagePrefix: string;
  /** Our app as the wallet shows it; default: the page's title, description, origin and icon. */
  metadata?: Metadata;
  /** CAIP-2 ids of the configured networks, proposed to the wallet. */
  chains(): string[];
  /** The network active in the modal: kept after connecting when the wallet approved it. */
  activeChain(): string | null;
  /** A new pairing URI (with its expiry), or null once there is none to show. */
  onUri(uri: string | null, expiresAtMs: number | null): void;
}

type Listener = (data: unknown) => void;
interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Our app as the wallet shows it in the proposal. */
export function pageMetadata(): Metadata {
  const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href;
  return {
    name: document.title.trim().slice(0, 100) || location.hostname,
    description: document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content.slice(0, 300) ?? '',
    url: location.origin,
    icons: icon && /^https?:/.test(icon) ? [icon] : [],
  };
}

const notConnected = () => new ProviderRpcError(4900, 'WalletConnect: no session; connect first');

/** Loads the WalletConnect module and makes a provider (restoring a stored session if any). */
export async function createWalletConnectProvider(opts: WalletConnectOptions): Promise<WalletConnectProvider> {
  return new WalletConnectProvider(await loadWcWasm(), opts);
}

export class WalletConnectProvider {
  readonly #opts: WalletConnectOptions;
  readonly #host: WcHost;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #requests = new Map<number, Deferred<unknown>>();
  readonly #chainKey: string;
  #chain: string | null = null;
  /** Accounts announced by an `accountsChanged` event, until the session itself changes. */
  #accountsOverride: string[] | null = null;
  #connect: Deferred<string[]> | null = null;
  #wasm: WcWasm;
  #pairRetry: ReturnType<typeof setTimeout> | null = null;
  /** Set while we end the session ourselves (no `disconnect` event for that). */
  #ending = false;

  constructor(wasm: WcWasm, opts: WalletConnectOptions) {
    this.#opts = opts;
    this.#wasm = wasm;
    this.#chainKey = `${opts.storagePrefix}chain`;
    this.#host = new WcHost({
      wasm,
      relayUrl: opts.relayUrl,
      projectId: opts.projectId,
      metadata: opts.metadata ?? pageMetadata(),
      storagePrefix: opts.storagePrefix,
      onEvent: (e) => this.#onEvent(e),
    });
    const session = this.#host.session();
    if (session) this.#chain = this.#pickChain(session, readStored(this.#chainKey));
  }

  // ----- EIP-1193 -----

  async request(args: { method: string; params?: unknown }): Promise<unknown> {
    const method = typeof args?.method === 'string' ? args.method : '';
    const params = args?.params ?? [];
    switch (method) {
      case 'eth_requestAccounts':
      case 'standard:connect':
        return this.#requestAccounts().then((accounts) => (this.#chain && isMoreChain(this.#chain) ? checkedAccounts(this.#chain, accounts) : accounts));
      case 'wallet-modal:chain':
        if (!this.#chain || !this.#host.session()) throw notConnected();
        return this.#chain;
      case 'wallet-modal:switchChain':
        return this.#selectChain(params);
      case 'standard:disconnect':
      case 'eth_accounts':
        return this.#accounts();
      case 'eth_chainId':
        if (!this.#chain || !this.#host.session()) throw notConnected();
        return chainHex(this.#chain);
      case 'wallet_switchEthereumChain':
        return this.#switchChain(params);
      case 'wallet_revokePermissions':
        // The element follows with releaseProvider, which ends the session.
        return null;
      case '':
        throw new ProviderRpcError(-32602, 'WalletConnect: request needs a method name');
      default:
        return this.#forward(method, solanaParams(method, params));
    }
  }

  on(event: string, listener: Listener): this {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  removeListener(event: string, listener: Listener): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  // ----- element lifecycle -----

  /** The element is done with this connector: ends the session (wc_sessionDelete) or cancels pairing. */
  release(): void {
    const pairing = this.#connect !== null || this.#host.pairingUri() !== null;
    this.#failConnect(new ProviderRpcError(4001, 'WalletConnect: connection cancelled'));
    if (this.#host.session()) {
      this.#ending = true;
      try {
        this.#host.command('disconnect'); // wc_sessionDelete
      } finally {
        this.#ending = false;
      }
    } else if (pairing) {
      this.#host.command('disconnect'); // drops the proposal
    }
    this.#chain = null;
    this.#accountsOverride = null;
    writeStored(this.#chainKey, null);
  }

  /** The element left the page: stop the socket and timers; the session stays stored. */
  close(): void {
    this.#failConnect(new ProviderRpcError(4900, 'WalletConnect: provider closed'), false);
    for (const r of this.#requests.values()) r.reject(new ProviderRpcError(4900, 'WalletConnect: provider closed'));
    this.#requests.clear();
    this.#host.close();
  }

  // ----- requests -----

  #accounts(): string[] {
    const session = this.#host.session();
    if (!session || !this.#chain) return [];
    return this.#accountsOverride ?? accountsOn(session, this.#chain);
  }

  #requestAccounts(): Promise<string[]> {
    if (this.#host.session()) return Promise.resolve(this.#accounts());
    if (this.#connect) return this.#connect.promise;
    this.#connect = deferred<string[]>();
    const { promise } = this.#connect;
    this.#pair();
    return promise;
  }

  /** Proposes a session (again); the URI arrives as a `pairingUri` event. */
  #pair(): void {
    this.#pairRetry = null;
    if (!this.#connect) return;
    // The core builds the optional namespaces (every configured chain family, its methods and events).
    const proposal = JSON.parse(this.#wasm.proposalNamespaces(JSON.stringify(this.#opts.chains()))) as ProposalNamespaces | { error: string };
    if ('error' in proposal && typeof proposal.error === 'string') {
      return this.#failConnect(new ProviderRpcError(-32603, `WalletConnect: ${proposal.error}`));
    }
    const r = this.#host.command({ connect: { optionalNamespaces: proposal as ProposalNamespaces } });
    if (!('error' in r)) return;
    if (r.code === 'tooSoon' && typeof r.retryAtMs === 'number') {
      this.#pairRetry = setTimeout(() => this.#pair(), Math.max(0, r.retryAtMs - Date.now()));
    } else {
      this.#failConnect(new ProviderRpcError(-32603, `WalletConnect: ${r.error}`));
    }
  }

  /** Ends a pending connect with `err`; `notify`: tell the element there is no URI any more. */
  #failConnect(err: ProviderRpcError, notify = true): void {
    const c = this.#connect;
    if (!c) return;
    this.#connect = null;
    if (this.#pairRetry) clearTimeout(this.#pairRetry);
    this.#pairRetry = null;
    if (notify) this.#opts.onUri(null, null);
    c.reject(err);
  }

  async #switchChain(params: unknown): Promise<null> {
    const first = Array.isArray(params) ? (params[0] as { chainId?: unknown } | undefined) : undefined;
    const target = toCaipChain(first?.chainId);
    if (!target) throw new ProviderRpcError(-32602, 'wallet_switchEthereumChain: params[0].chainId must be a hex chain id');
    const session = this.#host.session();
    if (!session || !this.#chain) throw notConnected();
    if (target === this.#chain) return null;
    if (!sessionChains(session).includes(target)) {
      throw new ProviderRpcError(4902, `Unrecognized chain ID ${chainHex(target)}: the WalletConnect session does not include ${target}`);
    }
    if (allowsMethod(session, this.#chain, 'wallet_switchEthereumChain')) {
      await this.#forward('wallet_switchEthereumChain', [{ chainId: chainHex(target) }]);
    }
    this.#setChain(target);
    return null;
  }

  /**
   * Selects one of the session's chains (`[{caipNetworkId}]`, or `[caipNetworkId]` from the families
   * the engine checks with `family::Checked`): no wallet request, as a Solana wallet has no current chain.
   */
  async #selectChain(params: unknown): Promise<null> {
    const first = Array.isArray(params) ? (params[0] as { caipNetworkId?: unknown } | string | undefined) : undefined;
    const id = typeof first === 'string' ? first : first?.caipNetworkId;
    const target = typeof id === 'string' ? id : '';
    const session = this.#host.session();
    if (!session || !this.#chain) throw notConnected();
    if (!chainsOf(session).includes(target)) throw new ProviderRpcError(4902, `The WalletConnect session does not include ${target.slice(0, 80)}`);
    this.#setChain(target);
    return null;
  }

  /** Sends a request to the wallet on the active chain and waits for its answer. */
  #forward(method: string, params: unknown): Promise<unknown> {
    const session = this.#host.session();
    if (!session || !this.#chain) return Promise.reject(notConnected());
    const r = this.#host.command({ request: { topic: session.topic, chainId: this.#chain, method, params } });
    if ('error' in r) {
      if (r.rpcCode === 5100) return Promise.reject(new ProviderRpcError(4901, `WalletConnect: the session does not include ${this.#chain}`));
      if (r.rpcCode === 5101) return Promise.reject(new ProviderRpcError(4200, `WalletConnect: the wallet did not approve ${method} on ${this.#chain}`));
      return Promise.reject(new ProviderRpcError(-32603, `WalletConnect: ${r.error}`));
    }
    const sent = r.events.find((e): e is Extract<WcEvent, { type: 'requestSent' }> => e.type === 'requestSent');
    if (!sent) return Promise.reject(new ProviderRpcError(-32603, 'WalletConnect: the request was not sent'));
    const d = deferred<unknown>();
    this.#requests.set(sent.id, d);
    return d.promise;
  }

  // ----- the client's events -----

  #onEvent(e: WcEvent): void {
    switch (e.type) {
      case 'pairingUri':
        if (this.#connect) this.#opts.onUri(e.uri, uriExpiryMs(e.uri));
        return;
      case 'pairingExpired':
        // Fewer than 10 s left: show a fresh URI.
        return this.#pair();
      case 'sessionProposalRejected':
        return this.#failConnect(new ProviderRpcError(4001, 'User rejected the request.', { walletConnectCode: e.code, reason: e.message }));
      case 'connectFailed':
        return this.#failConnect(new ProviderRpcError(-32603, `WalletConnect: ${e.message}`, { walletConnectCode: e.code }));
      case 'sessionSettled':
        return this.#settled(e.session);
      case 'sessionRequestResult': {
        const d = this.#requests.get(e.id);
        this.#requests.delete(e.id);
        if (!d) return;
        if ('error' in e.outcome) d.reject(walletError(e.outcome.error));
        else d.resolve(e.outcome.result);
        return;
      }
      case 'sessionEvent':
        return this.#walletEvent(e.name, e.data, e.chainId);
      case 'sessionUpdated':
        return this.#sessionChanged(e.session);
      case 'sessionDeleted':
      case 'sessionExpired':
        return this.#ended(e.type === 'sessionDeleted' ? e.message : 'Session expired');
    }
  }

  #settled(session: WcSession): void {
    this.#accountsOverride = null;
    this.#setChain(this.#pickChain(session, this.#opts.activeChain()), false);
    const c = this.#connect;
    this.#connect = null;
    this.#opts.onUri(null, null);
    const chain = this.#chain;
    if (chain) this.#emit('connect', { chainId: chainEvent(chain) });
    c?.resolve(this.#accounts());
  }

  #walletEvent(name: string, data: unknown, eventChain: string): void {
    const session = this.#host.session();
    if (!session) return;
    if (name === 'chainChanged') {
      const chain = toCaipChain(data) ?? toCaipChain(eventChain) ?? (isSolanaChain(eventChain) ? eventChain : null);
      if (chain && chainsOf(session).includes(chain)) this.#setChain(chain);
    } else if (name === 'accountsChanged') {
      const accounts = addressesOf(data);
      if (!accounts.length) return;
      this.#accountsOverride = accounts;
      this.#emit('accountsChanged', accounts);
    }
  }

  /** The wallet changed the namespaces: keep the chain if still there, announce new accounts. */
  #sessionChanged(session: WcSession): void {
    const before = this.#accounts().join();
    this.#accountsOverride = null;
    if (!this.#chain || !chainsOf(session).includes(this.#chain)) this.#setChain(this.#pickChain(session, null));
    const after = this.#accounts();
    if (after.join() !== before) this.#emit('accountsChanged', after);
  }

  #ended(reason: string): void {
    const wasConnected = this.#chain !== null;
    this.#chain = null;
    this.#accountsOverride = null;
    writeStored(this.#chainKey, null);
    if (!this.#ending && wasConnected) this.#emit('disconnect', new ProviderRpcError(4900, `WalletConnect: ${reason}`));
  }

  // ----- helpers -----

  /** `preferred` if the session has it, else the first configured network it has, else its first. */
  #pickChain(session: WcSession, preferred: string | null): string | null {
    const chains = chainsOf(session);
    if (preferred && chains.includes(preferred)) return preferred;
    return this.#opts.chains().find((c) => chains.includes(c)) ?? chains[0] ?? null;
  }

  #setChain(chain: string | null, announce = true): void {
    if (chain === this.#chain) return;
    const accountsBefore = this.#accounts().join();
    this.#chain = chain;
    writeStored(this.#chainKey, chain);
    if (!announce || !chain) return;
    this.#emit('chainChanged', chainEvent(chain));
    if (this.#accountsOverride || this.#accounts().join() === accountsBefore) return;
    // The lazily loaded families' accounts go through their rules first, as at connect.
    if (isMoreChain(chain)) void checkedAccounts(chain, this.#accounts()).then((a) => this.#emit('accountsChanged', a), () => {});
    else this.#emit('accountsChanged', this.#accounts());
  }

  #emit(event: string, data: unknown): void {
    for (const fn of [...(this.#listeners.get(event) ?? [])]) {
      try {
        fn(data);
      } catch (err) {
        console.error(`[wallet-modal] a WalletConnect ${event} listener threw`, err);
      }
    }
  }
}
