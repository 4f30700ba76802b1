/**
 * The `<wallet-modal>` element: attributes and properties in, DOM events out, and the platform
 * I/O the engine asks for (fetch, storage, wallets, timers, clipboard). It holds no product rules:
 * every decision is made by the Rust engine, which answers each event with effects and a snapshot.
 */
import { Engine, engineWatches, loadEngine, type Effect } from './engine';
import { discoverWallets, jsonSafe, legacyProvider, providerError, readField, type Eip1193Provider } from './discovery';
import { forwardingProvider, type HostRequestWatcher } from './host-provider';
import { isWellFormed, wellFormed, wellFormedReplacer } from './text';
import type { Namespace, Snapshot, ViewIntent as Intent, ViewName, ViewSnapshot } from './protocol';
import type { AccountBridge } from './account-wasm';
import type { EmbeddedBridge } from './embedded-wasm';
import { OVERLAY_TAG, ensureOverlayDefined, type WalletModalOverlay } from './overlay';
import type { WalletConnectProvider } from './walletconnect';

type MountedViews = { render(s: ViewSnapshot, sync?: boolean): void; unmount(): void };


const STORAGE_PREFIX = '@wallet-modal/';
/** The engine's connector id for WalletConnect. */
const WALLETCONNECT_ID = 'walletConnect';
/** The engine's connector id for the embedded wallet (email, social, Farcaster). */
const EMBEDDED_ID = 'embedded';
/** The intents that start an embedded login (the module loads on the first if not yet there; its
 * other intents come from its own screens, shown only once it is loaded). */
const EMBEDDED_INTENTS = new Set(['emailSubmit', 'socialLogin', 'farcasterLogin']);
/** Relay used without a `relay-url` attribute. */
const DEFAULT_RELAY_URL = 'wss://relay.walletconnect.org';
/** Keys of the lazily loaded WalletConnect module (client state, relay key seed, chain). */
const WC_STORAGE_PREFIX = `${STORAGE_PREFIX}wc_`;
const MAX_BODY_CHARS = 1_000_000;
const BOOLEAN_ATTRS = ['debug', 'basic', 'embedded'] as const;
const DEFAULT_ON_ATTRS = ['reconnect', 'enable-eip6963', 'enable-network-switch'] as const;
/** CSS variables mirrored from the element onto the overlay appended to the body. */
export const THEME_VARIABLES = [
  '--wm-accent',
  '--wm-font-family',
  '--wm-font-size-master',
  '--wm-border-radius-master',
  '--wm-color-mix',
  '--wm-color-mix-strength',
  '--wm-z-index',
  '--wm-qr-color',
] as const;

export type ThemeMode = 'light' | 'dark' | 'system';
export type ThemeVariables = Partial<Record<(typeof THEME_VARIABLES)[number], string>>;

export interface OpenOptions {
  view?: ViewName;
  namespace?: Namespace;
}

/** `open()`'s argument, read once and defensively: `open(null)` is `open()`. */
function openEvent(options: unknown): { type: 'open'; view?: string; namespace?: string } {
  const view = readField(options, 'view');
  const namespace = readField(options, 'namespace');
  return {
    type: 'open',
    // Any other value is named in the engine's 'Unknown view' error.
    view: view == null ? undefined : typeof view === 'string' ? view : String(typeof view),
    namespace: typeof namespace === 'string' ? namespace : undefined,
  };
}

/** `detail` of the element's events. */
export interface WalletModalEventMap {
  open: CustomEvent<{ view: ViewName }>;
  close: CustomEvent<{ connected: boolean }>;
  connect: CustomEvent<{
    namespace: Namespace;
    address: string;
    caipAddress: string;
    chainId: number | null;
    caipNetworkId: string;
    connectorId: string;
    connectorName: string;
    reconnected: boolean;
  }>;
  disconnect: CustomEvent<{ namespace: Namespace; connectorId: string }>;
  networkchange: CustomEvent<{ caipNetworkId: string; supported: boolean }>;
  accountschange: CustomEvent<{ address: string; caipAddress: string; connectorId: string }>;
  error: CustomEvent<{ code: number; key: string; message: string }>;
}

function deepActiveElement(): Element | null {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/**
 * Our keys in localStorage. A key or value that is not text (a lone UTF-16 surrogate) is left out
 * and named in `unreadable`, so the engine ignores that key alone (with a debug alert) and still
 * restores everything else.
 */
function readStorage(): { storage: Record<string, string>; unreadable: string[] } {
  const storage: Record<string, string> = {};
  const unreadable: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      // The WalletConnect module's own state is not the engine's business.
      if (!key?.startsWith(STORAGE_PREFIX) || key.startsWith(WC_STORAGE_PREFIX)) continue;
      const value = localStorage.getItem(key) ?? '';
      if (isWellFormed(key) && isWellFormed(value)) storage[key] = value;
      else unreadable.push(wellFormed(key));
    }
  } catch {
    // Storage disabled (privacy mode, sandboxed frame): start with nothing stored.
  }
  return { storage, unreadable };
}

let viewsModule: Promise<typeof import('../../react-views/index.tsx')> | null = null;

/** The views chunk (React and the Connect view), fetched once for every element on the page. */
function loadViews(): Promise<typeof import('../../react-views/index.tsx')> {
  if (!viewsModule) {
    viewsModule = import('../../react-views/index.tsx');
    viewsModule.catch(() => (viewsModule = null)); // a failed load can be retried
  }
  return viewsModule;
}

function isMobile(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse) and (max-width: 600px)').matches;
}

export class WalletModalElement extends HTMLElement {
  static readonly observedAttributes = [
    'project-id',
    'theme-mode',
    'default-network',
    'api-url',
    'analytics-url',
    'rpc-url',
    'relay-url',
    'frame-url',
    ...BOOLEAN_ATTRS,
    ...DEFAULT_ON_ATTRS,
  ];

  #engine: Engine | null = null;
  #ready: Promise<void> | null = null;
  #snapshot: Snapshot | null = null;
  #views: MountedViews | null = null;
  #viewsLoading: Promise<void> | null = null;
  #overlay: WalletModalOverlay | null = null;
  #networks: unknown[] | undefined;
  #features: unknown;
  #providers = new Map<string, Eip1193Provider>();
  /** The WalletConnect provider, loaded on first use (pairing, or restoring a stored session). */
  #walletConnect: Promise<WalletConnectProvider> | null = null;
  /** Counts releases of the lazily loaded connectors (WalletConnect, embedded): a request queued
   * behind the module load is dropped when the engine released the connector meanwhile. */
  #lazyReleases = 0;
  #listeners = new Map<string, Array<[string, (...args: unknown[]) => void]>>();
  #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #stopDiscovery: (() => void) | null = null;
  #media: MediaQueryList | null = null;
  #opener: Element | null = null;
  #generation = 0;
  /** Events waiting for the one being handled (see `#run`). */
  #queue: object[] = [];
  #dispatching = false;
  /** Ids of host requests through getProvider() that the engine hears of. */
  #hostRequestIds = 0;
  /** True while open() dispatches: that render is committed at once (the modal shows this frame). */
  #renderSync = false;
  /** The account module (portfolio, activity: lazy slices in their own wasm), loaded when the
   * Account view first shows. */
  #account: AccountBridge | null = null;
  #accountLoading = false;
  /** The embedded-wallet module (email, social, Farcaster, the secure frame), loaded when the
   * Connect view shows an email or social row, or an embedded session is to be restored. */
  #embedded: EmbeddedBridge | null = null;
  #embeddedLoading: Promise<EmbeddedBridge> | null = null;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  // ----- properties -----

  /** Networks: CAIP-2 ids of built-in networks or network objects. Default: the built-in list. */
  get networks(): unknown[] | undefined {
    return this.#networks;
  }
  set networks(value: unknown[] | undefined) {
    this.#networks = Array.isArray(value) ? value : undefined;
    this.#optionsChanged();
  }

  /** Local features, used when the remote project configuration cannot be fetched. */
  get features(): unknown {
    return this.#features;
  }
  set features(value: unknown) {
    this.#features = value;
    this.#optionsChanged();
  }

  get projectId(): string {
    return this.getAttribute('project-id') ?? '';
  }
  set projectId(v: string) {
    this.setAttribute('project-id', v);
  }

  get themeMode(): ThemeMode {
    const m = this.getAttribute('theme-mode');
    return m === 'light' || m === 'dark' ? m : 'system';
  }
  set themeMode(v: ThemeMode) {
    this.setAttribute('theme-mode', v);
  }

  // ----- lifecycle -----

  connectedCallback(): void {
    const generation = ++this.#generation;
    this.#ready = this.#start(generation);
  }

  disconnectedCallback(): void {
    this.#generation++;
    this.#stopDiscovery?.();
    this.#stopDiscovery = null;
    this.#media?.removeEventListener('change', this.#onMedia);
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    for (const id of [...this.#listeners.keys()]) this.#unlisten(id);
    this.#closeWalletConnect();
    this.#views?.unmount();
    this.#views = null;
    this.#viewsLoading = null;
    this.#overlay?.remove();
    this.#overlay = null;
    this.#engine?.free();
    this.#engine = null;
    this.#account?.free();
    this.#account = null;
    this.#accountLoading = false;
    this.#embedded?.free();
    this.#embedded = null;
    this.#providers.delete(EMBEDDED_ID);
    this.#embeddedLoading = null;
  }

  attributeChangedCallback(name: string): void {
    if (name === 'theme-mode') this.#applyTheme();
    this.#optionsChanged();
  }

  async #start(generation: number): Promise<void> {
    // The element is defined (ready for the host); the engine and the views chunk (our own code,
    // not a service) are fetched side by side now, so that an open() right away waits for neither
    // in turn. The views mount as soon as both are here.
    void loadViews().catch(() => {});
    try {
      await loadEngine();
    } catch (err) {
      this.#emit('error', { code: 5000, key: 'ENGINE_LOAD_FAILED', message: `wallet-modal could not load its engine: ${String(err)}` });
      return;
    }
    if (generation !== this.#generation) return;
    this.#engine = new Engine(this.#options());
    const legacy = legacyProvider();
    if (legacy) this.#providers.set('injected', legacy);
    this.#run({ type: 'start', ...readStorage(), legacyProvider: Boolean(legacy) });
    this.#media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    this.#media?.addEventListener('change', this.#onMedia);
    this.#applyTheme();
    this.#stopDiscovery = discoverWallets(
      (info, provider) => {
        this.#providers.set(info.rdns, provider);
        this.#run({ type: 'announce', ...info });
      },
      (info) => this.#run({ type: 'announce', ...info, usable: false }),
    );
    // The views (React and the Connect view, rendered ahead hidden and inert) mount as soon as
    // their chunk is here, so that open() only shows them: the first wallet option appears within
    // a frame. Code from our own origin is not a service request: nothing goes to a remote service
    // before open().
    void this.#ensureViews().catch(() => {});
    // A Telegram mini-app social login came back with `result_uri` (the module takes it).
    if (location.search.includes('result_uri=')) void this.#loadEmbedded().catch(() => {});
  }

  #options(): object {
    const on = (name: string) => this.getAttribute(name) !== 'false';
    return {
      projectId: this.getAttribute('project-id') ?? '',
      networks: this.#networks,
      defaultNetwork: this.getAttribute('default-network') ?? undefined,
      debug: this.hasAttribute('debug') && on('debug'),
      reconnect: on('reconnect'),
      enableEip6963: on('enable-eip6963'),
      enableNetworkSwitch: on('enable-network-switch'),
      basic: this.hasAttribute('basic') && on('basic'),
      embedded: this.hasAttribute('embedded') && on('embedded'),
      apiUrl: this.getAttribute('api-url') ?? undefined,
      analyticsUrl: this.getAttribute('analytics-url') ?? undefined,
      rpcUrl: this.getAttribute('rpc-url') ?? undefined,
      frameUrl: this.getAttribute('frame-url') ?? undefined,
      features: this.#features,
      mobile: isMobile(),
      origin: location.origin,
      href: location.href,
    };
  }

  #optionsChanged(): void {
    if (!this.#engine) return;
    this.#apply(this.#engine.setOptions(this.#options()));
  }

  // ----- public methods -----

  /** Opens the modal, optionally on a view and for a namespace. */
  async open(options?: OpenOptions | null): Promise<void> {
    const event = openEvent(options);
    await this.#ready;
    const opener = deepActiveElement();
    if (opener && !this.#containsDeep(opener)) this.#opener = opener;
    await this.#ensureViews();
    this.#renderSync = true;
    try {
      this.#run(event);
    } finally {
      this.#renderSync = false;
    }
  }

  /** Closes the modal (unless the current view blocks closing). */
  async close(): Promise<void> {
    await this.#ready;
    this.#run({ type: 'close' });
  }

  /** Disconnects a namespace, or every namespace. */
  async disconnect(namespace?: Namespace): Promise<void> {
    await this.#ready;
    this.#run({ type: 'disconnect', namespace });
  }

  /** Switches to a configured network by CAIP-2 id (asks the wallet when connected). */
  async switchNetwork(caipNetworkId: string): Promise<void> {
    await this.#ready;
    this.#run({ type: 'switchNetwork', caipNetworkId: String(caipNetworkId) });
  }

  /** A plain copy of the current state. */
  getState(): Snapshot | null {
    return this.#snapshot ? structuredClone(this.#snapshot) : null;
  }

  /** The connected wallet's EIP-1193 provider for a namespace, for viem, ethers or wagmi. */
  getProvider(namespace: Namespace = 'eip155'): Eip1193Provider | undefined {
    const account = this.#snapshot?.account;
    if (!account || account.namespace !== namespace) return undefined;
    const wallet = this.#providers.get(account.connectorId);
    // The embedded wallet asks for approval in the modal itself (ApproveTransaction): not watched.
    return wallet && (account.connectorId === EMBEDDED_ID ? wallet : forwardingProvider(wallet, this.#hostRequests));
  }

  /** Tells the engine of the host's requests it watches (wallet prompts, sent transactions). */
  #hostRequests: HostRequestWatcher = {
    started: (method) => {
      if (!this.#engine || !engineWatches(method)) return null;
      const id = ++this.#hostRequestIds;
      this.#run({ type: 'hostRequest', id, method });
      return id;
    },
    ended: (id, result, failed) => {
      this.#run({ type: 'hostRequestDone', id, result: typeof result === 'string' ? result.slice(0, 200) : null, failed });
    },
  };

  setThemeMode(mode: ThemeMode): void {
    this.themeMode = mode;
  }

  /** Sets theme CSS variables on the element (and the overlay that mirrors them). */
  setThemeVariables(variables: ThemeVariables): void {
    for (const [name, value] of Object.entries(variables)) {
      if (!(THEME_VARIABLES as readonly string[]).includes(name)) continue;
      if (value == null || value === '') this.style.removeProperty(name);
      else this.style.setProperty(name, String(value));
    }
    this.#mirrorTheme();
  }

  // ----- engine plumbing -----

  /**
   * Events reach the engine one at a time, in order. An effect can raise an event synchronously
   * (the WalletConnect client makes its pairing URI while the request for accounts is being sent):
   * that event waits until the current one's effects are done, so the snapshot rendered last is
   * always the engine's newest (a nested event used to be overwritten by the outer, older one).
   */
  #run(event: object): void {
    if (!this.#engine) return;
    this.#queue.push(event);
    if (this.#dispatching) return;
    this.#dispatching = true;
    while (this.#queue.length > 0 && this.#engine) {
      const next = this.#queue.shift()!;
      try {
        const type = (next as { type?: unknown }).type;
        // A social login's popup opens in the visitor's click, before anything else happens (a
        // window opened later, once the module answers, would be blocked): 600×800 (spec §9).
        const popup = type === 'socialLogin' ? open('about:blank', 'wallet-modal-social', 'popup=yes,width=600,height=800') : null;
        if (this.#embedded?.handles(next)) {
          if (popup !== null) this.#embedded.watchPopup(popup);
          this.#embedded.run(next);
        } else if (typeof type === 'string' && EMBEDDED_INTENTS.has(type)) {
          void this.#loadEmbedded().then(
            (b) => {
              if (popup !== null) b.watchPopup(popup);
              b.run(next);
            },
            () => popup?.close(),
          );
        } else if (this.#account?.handles(next)) this.#account.run(next);
        else this.#apply(this.#engine.dispatch(next));
      } catch (err) {
        // Reported like an uncaught error, without losing the events queued behind this one.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    this.#queue.length = 0;
    this.#dispatching = false;
  }

  #apply(output: { effects: Effect[]; snapshot: Snapshot }): void {
    this.#snapshot = output.snapshot;
    this.#syncAccount();
    this.#syncEmbedded();
    if (this.#renderSync && this.#views) {
      // Opening: the modal is drawn first; the requests it starts (config, wallets, analytics)
      // go out in the next task, so that this frame only paints the modal.
      this.#views.render(this.#viewSnapshot(), true);
      const later = output.effects.filter((e) => e.type === 'fetch' || e.type === 'beacon');
      for (const effect of output.effects) if (!later.includes(effect)) this.#effect(effect);
      if (later.length > 0) {
        const generation = this.#generation;
        setTimeout(() => {
          if (generation === this.#generation) for (const effect of later) this.#effect(effect);
        }, 0);
      }
      return;
    }
    for (const effect of output.effects) this.#effect(effect);
    this.#views?.render(this.#viewSnapshot(), false);
  }

  /** What the views render: the engine's snapshot, with the account (and trade) modules' parts. */
  #viewSnapshot(): ViewSnapshot {
    const part = this.#account?.part ?? null;
    const trade = this.#account?.trade ?? null;
    const s = { ...this.#snapshot!, portfolio: part, trade, embeddedWallet: this.#embedded?.part ?? null };
    // A screen of a module (Receive, Swap) titles the header and is left with its back button.
    const title = trade?.title ?? part?.title;
    if (title && s.view === 'Account') Object.assign(s, { title, canGoBack: true });
    return s;
  }

  /** What a lazily loaded module (account, embedded wallet) needs from the element. */
  #moduleHost = {
    options: () => this.#options(),
    stringify: (v: object) => JSON.stringify(v, wellFormedReplacer),
    effect: (e: Effect) => this.#effect(e),
    render: () => this.#views?.render(this.#viewSnapshot()),
  };

  /** The account module hears what the engine knows; it loads the first time Account shows. */
  #syncAccount(): void {
    const s = this.#snapshot!;
    if (this.#account) return this.#account.sync(s);
    if (this.#accountLoading || s.view !== 'Account' || !(s.open || s.embedded)) return;
    this.#accountLoading = true;
    const generation = this.#generation;
    import('./account-wasm')
      .then((m) => m.loadAccountBridge(this.#moduleHost))
      .then(
        (bridge) => {
          if (generation !== this.#generation) return bridge.free();
          this.#account = bridge;
          bridge.sync(this.#snapshot!);
        },
        (err: unknown) => {
          // Retried the next time the Account view shows.
          this.#accountLoading = false;
          queueMicrotask(() => {
            throw err;
          });
        },
      );
  }

  /** The embedded module hears the engine's facts; it loads (with its frame, in the background)
   * when the Connect view shows an email or social row. */
  #syncEmbedded(): void {
    const s = this.#snapshot!;
    if (this.#embedded) return this.#embedded.sync(s);
    const offered = s.connectMethods.includes('email') || s.connectMethods.includes('social');
    if (offered && (s.open || s.embedded) && s.view === 'Connect') {
      void this.#loadEmbedded().then((b) => b.run({ type: 'preload' }), () => {});
    }
  }

  /** Loads the embedded-wallet module once (a failed load is tried again on the next need). */
  #loadEmbedded(): Promise<EmbeddedBridge> {
    const generation = this.#generation;
    return (this.#embeddedLoading ??= import('./embedded-wasm')
      .then((m) => m.loadEmbeddedBridge(this.#moduleHost))
      .then(
        (bridge) => {
          if (generation !== this.#generation) throw (bridge.free(), new Error('wallet-modal left the page'));
          this.#embedded = bridge;
          this.#providers.set(EMBEDDED_ID, bridge.provider);
          bridge.sync(this.#snapshot!);
          this.#moduleHost.render();
          return bridge;
        },
        (err: unknown) => {
          this.#embeddedLoading = null;
          throw err;
        },
      ));
  }

  #effect(e: Effect): void {
    switch (e.type) {
      case 'providerRequest':
        return this.#providerRequest(e.id as number, e.connectorId as string, e.method as string, e.params);
      case 'releaseProvider':
        return this.#release(e.connectorId as string);
      case 'fetch':
        return void this.#fetch(e.id as number, e.url as string, e.method as string, e.body as string | null, e.timeoutMs as number);
      case 'beacon':
        return void fetch(e.url as string, { method: 'POST', body: e.body as string, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => {});
      case 'persist':
        try {
          if (e.value == null) localStorage.removeItem(e.key as string);
          else localStorage.setItem(e.key as string, e.value as string);
        } catch {
          // Storage full or disabled: the session still works, it just won't survive a reload.
        }
        return;
      case 'emit':
        return this.#emit(e.name as string, e.detail);
      case 'startTimer': {
        const id = e.id as string;
        clearTimeout(this.#timers.get(id));
        this.#timers.set(id, setTimeout(() => { this.#timers.delete(id); this.#run({ type: 'timer', id }); }, e.ms as number));
        return;
      }
      case 'alert': {
        const log = e.severity === 'error' ? console.error : e.severity === 'warning' ? console.warn : console.info;
        const text = `[wallet-modal] ${e.message as string}${e.description ? ` — ${e.description as string}` : ''}`;
        setTimeout(() => log(text), (e.delayMs as number) || 0);
        return;
      }
      case 'dispatch':
        // A lazily loaded module tells the engine something (an analytics event).
        return this.#run(e.event as object);
      case 'copy':
        return void navigator.clipboard?.writeText(e.text as string).catch(() => {});
      case 'restoreFocus': {
        const opener = this.#opener;
        this.#opener = null;
        if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
        return;
      }
    }
  }

  /**
   * Every event bubbles and is composed, except `error`: an `error` event reaching `window` is taken
   * for a script error by global handlers (error trackers, test runners), so like the native `error`
   * events of `<img>` and `<script>` it stays on the element.
   */
  #emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: name !== 'error', composed: true }));
  }

  #providerRequest(id: number, connectorId: string, method: string, params: unknown): void {
    // WalletConnect and the embedded wallet load on their first request (pairing, a login, a
    // stored session to restore); a request queued behind the load is dropped if the engine
    // released the connector meanwhile (e.g. the modal closed).
    const lazy: (() => Promise<unknown>) | null =
      connectorId === WALLETCONNECT_ID ? () => this.#loadWalletConnect() : connectorId === EMBEDDED_ID ? () => this.#loadEmbedded() : null;
    if (lazy && !this.#providers.has(connectorId)) {
      const [generation, releases] = [this.#generation, this.#lazyReleases];
      const fail = (message: string) => this.#run({ type: 'providerResult', id, error: { code: 4900, message } });
      lazy().then(
        () => {
          if (generation !== this.#generation) return;
          if (releases !== this.#lazyReleases) return fail(`${connectorId}: released before it loaded`);
          this.#providerRequest(id, connectorId, method, params);
        },
        (err: unknown) => fail(err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    const provider = this.#providers.get(connectorId);
    if (!provider) {
      this.#run({ type: 'providerResult', id, error: { code: 4900, message: 'Provider not found' } });
      return;
    }
    this.#listen(connectorId, provider);
    let request: Promise<unknown>;
    try {
      request = Promise.resolve(provider.request({ method, params }));
    } catch (err) {
      request = Promise.reject(err);
    }
    request.then(
      (result) => this.#run({ type: 'providerResult', id, result: jsonSafe(result) }),
      (err) => this.#run({ type: 'providerResult', id, error: providerError(err) }),
    );
  }

  /** Subscribes to a wallet's events once. */
  #listen(connectorId: string, provider: Eip1193Provider): void {
    if (this.#listeners.has(connectorId) || typeof readField(provider, 'on') !== 'function') return;
    const pairs: Array<[string, (...args: unknown[]) => void]> = ['accountsChanged', 'chainChanged', 'disconnect'].map((name) => [
      name,
      (data: unknown) => this.#run({ type: 'providerEvent', connectorId, name, data: jsonSafe(data) }),
    ]);
    for (const [name, fn] of pairs) {
      try {
        provider.on!(name, fn);
      } catch {
        // A wallet whose `on` throws still answers requests; it just cannot tell us of changes.
      }
    }
    this.#listeners.set(connectorId, pairs);
  }

  /** The engine is done with a connector: stop listening; WalletConnect also ends its session or pairing. */
  #release(connectorId: string): void {
    this.#unlisten(connectorId);
    if (connectorId === EMBEDDED_ID) {
      this.#lazyReleases++;
      return this.#embedded?.run({ type: 'release' });
    }
    if (connectorId !== WALLETCONNECT_ID) return;
    this.#lazyReleases++;
    (this.#providers.get(connectorId) as WalletConnectProvider | undefined)?.release();
  }

  #unlisten(connectorId: string): void {
    const provider = this.#providers.get(connectorId);
    for (const [name, fn] of this.#listeners.get(connectorId) ?? []) {
      try {
        provider?.removeListener?.(name, fn);
      } catch {
        // Nothing more to do for a wallet that throws here.
      }
    }
    this.#listeners.delete(connectorId);
  }

  /** Loads the WalletConnect chunk (and its wasm) once and registers its provider. */
  #loadWalletConnect(): Promise<WalletConnectProvider> {
    if (this.#walletConnect) return this.#walletConnect;
    const loading: Promise<WalletConnectProvider> = import('./walletconnect')
      .then(({ createWalletConnectProvider }) =>
        createWalletConnectProvider({
          relayUrl: this.getAttribute('relay-url') || DEFAULT_RELAY_URL,
          projectId: this.projectId,
          storagePrefix: WC_STORAGE_PREFIX,
          chains: () => (this.#snapshot?.networks ?? []).map((n) => n.caipNetworkId),
          activeChain: () => this.#snapshot?.network?.caipNetworkId ?? null,
          onUri: (uri, expiresAtMs) => this.#run({ type: 'walletConnectUri', uri, expiresAtMs }),
        }),
      )
      .then(
        (provider) => {
          if (this.#walletConnect === loading) this.#providers.set(WALLETCONNECT_ID, provider);
          else provider.close(); // the element left the page meanwhile
          return provider;
        },
        (err: unknown) => {
          if (this.#walletConnect === loading) this.#walletConnect = null; // a failed load can be retried
          throw err;
        },
      );
    this.#walletConnect = loading;
    return loading;
  }

  /** The element left the page: the socket closes, the session stays stored for the next load. */
  #closeWalletConnect(): void {
    const provider = this.#providers.get(WALLETCONNECT_ID) as WalletConnectProvider | undefined;
    this.#providers.delete(WALLETCONNECT_ID);
    this.#walletConnect = null;
    provider?.close();
  }

  async #fetch(id: number, url: string, method: string, body: string | null, timeoutMs: number): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let status = 0;
    let text = '';
    try {
      const res = await fetch(url, {
        method,
        body: body ?? undefined,
        headers: body ? { 'content-type': 'application/json' } : undefined,
        signal: controller.signal,
      });
      status = res.status;
      text = (await res.text()).slice(0, MAX_BODY_CHARS);
    } catch {
      status = 0;
    } finally {
      clearTimeout(timer);
    }
    this.#run({ type: 'fetchResult', id, status, body: text });
  }

  // ----- views, overlay, theme -----

  /** Loads the views chunk and mounts them: inline when embedded, else in an overlay on the body. */
  #ensureViews(): Promise<void> {
    if (this.#viewsLoading) return this.#viewsLoading;
    const loading = loadViews().then(({ mountViews }) => {
      if (!this.isConnected || this.#views) return;
      let root: ShadowRoot = this.shadowRoot!;
      if (!this.hasAttribute('embedded')) {
        ensureOverlayDefined();
        this.#overlay = document.createElement(OVERLAY_TAG) as WalletModalOverlay;
        document.body.appendChild(this.#overlay);
        root = this.#overlay.shadowRoot!;
        this.#mirrorTheme();
      }
      this.#views = mountViews(root, { onIntent: (intent: Intent) => this.#run(intent) });
      if (this.#snapshot) this.#views.render(this.#viewSnapshot());
    });
    // A failed load (the network dropped) is tried again on the next open().
    loading.catch(() => {
      if (this.#viewsLoading === loading) this.#viewsLoading = null;
    });
    this.#viewsLoading = loading;
    return loading;
  }

  #containsDeep(el: Element): boolean {
    return this.contains(el) || this.shadowRoot!.contains(el) || Boolean(this.#overlay?.shadowRoot?.contains(el));
  }

  #onMedia = () => this.#applyTheme();

  #applyTheme(): void {
    const mode = this.themeMode;
    const dark = mode === 'dark' || (mode === 'system' && Boolean(this.#media?.matches));
    this.#run({ type: 'theme', dark });
  }

  /** Copies the theme variables in force on the element to the overlay on the body. */
  #mirrorTheme(): void {
    if (!this.#overlay) return;
    const computed = getComputedStyle(this);
    for (const name of THEME_VARIABLES) {
      const value = computed.getPropertyValue(name).trim();
      if (value) this.#overlay.style.setProperty(name, value);
      else this.#overlay.style.removeProperty(name);
    }
  }
}

export type { Snapshot, Intent };
