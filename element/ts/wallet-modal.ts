/**
 * The `<wallet-modal>` element: attributes and properties in, DOM events out, and the platform
 * I/O the hosts ask for (fetch, storage, wallets, timers, clipboard, the secure frame). It holds no
 * product rules: every decision is made by the Rust hosts — the engine, loaded at start-up, and
 * the modules of `core/src/modules.rs`, loaded when one of their events, views or connectors is
 * first needed — which answer each event with effects, notes and their snapshot.
 *
 * Routing is the route table's (`routes.gen.ts`, written by the Rust side): an event goes to the
 * module whose slice reads its type, an answer or a timer to the module that asked, a request to
 * a connector to the module that answers it; each module's notes go to every other module; a
 * module that loads late first hears the engine's facts.
 */
import { engineWatches, loadModule, registerModule, setWasmUrl } from './modules';
import { ModuleHost } from './host';
import { ENGINE, ROUTES, type ModuleName, type ModuleRoute } from './routes.gen';
import { FAMILIES, loadMoreFamilies, type WalletFamily } from './families/index';
import { jsonSafe, providerError, readField, type Eip1193Provider } from './provider';
import { forwardingProvider, type HostRequestWatcher } from './host-provider';
import { isWellFormed, wellFormed, wellFormedReplacer } from './text';
import type { Effect, HostOutput, Namespace, Snapshot, ViewIntent as Intent, ViewName, ViewSnapshot } from './protocol';
import type { FrameIo } from './frame-io';
import { markSocialStarted, takeSocialStarted } from './social-mark';
import { OVERLAY_TAG, ensureOverlayDefined, type WalletModalOverlay } from './overlay';
import type { WalletConnectProvider } from './walletconnect';

type MountedViews = { render(s: ViewSnapshot, sync?: boolean): void; setLocale(tag: string, localNumbers?: boolean): Promise<unknown>; unmount(): void };


const STORAGE_PREFIX = '@wallet-modal/';
/** The engine's connector id for WalletConnect. */
const WALLETCONNECT_ID = 'walletConnect';
/** Relay used without a `relay-url` attribute. */
const DEFAULT_RELAY_URL = 'wss://relay.walletconnect.org';
/** Keys of the lazily loaded WalletConnect module (client state, relay key seed, chain). */
const WC_STORAGE_PREFIX = `${STORAGE_PREFIX}wc_`;
const MAX_BODY_CHARS = 1_000_000;
const BOOLEAN_ATTRS = ['basic', 'embedded', 'pending-transactions'] as const;
/** On unless set to "false" (spec §1). */
const DEFAULT_ON_ATTRS = ['debug', 'reconnect', 'enable-eip6963', 'enable-network-switch'] as const;
/** CSS variables mirrored from the element onto the overlay appended to the body. */
/** A request through a module's provider (the embedded wallet's): the longest method name and the
 * largest params (characters of their JSON) handed on; anything larger is refused at once. */
const MAX_METHOD_CHARS = 64;
const MAX_PARAMS_CHARS = 192 * 1024;

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

/** The `wallets` property: catalogue wallet ids (the README's "Host options"). */
export interface WalletsOption {
  /** Shown first in Connect and All Wallets, in this order. */
  featured?: string[];
  /** Only these are listed. */
  include?: string[];
  /** Never listed. */
  exclude?: string[];
  /** Only wallets with the catalogue's certified badge are listed. */
  certified?: boolean;
}

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
  /** Signed in (SIWX): the CAIP-10 account, the message it signed and the signature. */
  signin: CustomEvent<{ caipAddress: string; message: string; signature: string }>;
  /** A session ended: the account disconnected, or its message expired. */
  signout: CustomEvent<{ caipAddress: string }>;
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

/** The lazily loaded modules and what loads each one (`routes.gen.ts`). */
const lazyModules = () => Object.entries(ROUTES) as Array<[ModuleName, ModuleRoute]>;

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
    'locale',
    'number-format',
    'pending-transactions-interval',
    ...BOOLEAN_ATTRS,
    ...DEFAULT_ON_ATTRS,
  ];

  /** Serves a module's `.wasm` from another place than beside this script (before it loads). */
  static setWasmUrl(module: ModuleName, url: string | URL): void {
    setWasmUrl(module, url);
  }

  /** The hosts loaded: the engine first, then the modules as they load. */
  #hosts = new Map<ModuleName, ModuleHost>();
  /** Modules loading, and the events that wait for them, in order. */
  #waiting = new Map<ModuleName, object[]>();
  #ready: Promise<void> | null = null;
  #siwx: unknown;
  /** Why the engine could not load, if it could not. */
  #failed: string | null = null;
  #views: MountedViews | null = null;
  #viewsLoading: Promise<void> | null = null;
  #overlay: WalletModalOverlay | null = null;
  #networks: unknown[] | undefined;
  #features: unknown;
  /** Wallets' providers by connector id (the announced ones, `injected`, WalletConnect). */
  #providers = new Map<string, Eip1193Provider>();
  /** The providers of the connectors a module answers (`embedded`, and the modules' own). */
  #connectorProviders = new Map<string, Eip1193Provider>();
  /** Requests to those connectors waiting for their module's answer, by key. */
  #connectorCalls = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #keys = 0;
  /** The WalletConnect provider, loaded on first use (pairing, or restoring a stored session). */
  #walletConnect: Promise<WalletConnectProvider> | null = null;
  /** Counts releases of WalletConnect: a request queued behind its load is dropped when the engine
   * released the connector meanwhile. */
  #wcReleases = 0;
  /** The embedded wallet's platform I/O (its frame, the social popup), once its module loaded. */
  #frameIo: FrameIo | null = null;
  /** A social login's popup opened in the visitor's click before the module loaded. */
  #popup: Window | null = null;
  #listeners = new Map<string, Array<[string, (...args: unknown[]) => void]>>();
  #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #stopDiscovery: (() => void) | null = null;
  #media: MediaQueryList | null = null;
  #opener: Element | null = null;
  #generation = 0;
  /** Events waiting for the one being handled (see `#run`), each with the module it goes to. */
  #queue: Array<{ module: ModuleName | null; event: object }> = [];
  #dispatching = false;
  /** Ids of host requests through getProvider() that the engine hears of. */
  #hostRequestIds = 0;
  /** True while open() dispatches: that render is committed at once (the modal shows this frame). */
  #renderSync = false;

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

  /**
   * The catalogue wallets: `{featured?, include?, exclude?: string[]; certified?: boolean}` (catalogue ids;
   * featured ones first in Connect and All Wallets, in this order).
   */
  get wallets(): WalletsOption | undefined {
    return this.#wallets;
  }
  set wallets(value: WalletsOption | undefined) {
    this.#wallets = value && typeof value === 'object' ? value : undefined;
    this.#optionsChanged();
  }
  #wallets: WalletsOption | undefined;

  /**
   * Sign-in with the wallet (SIWX): `'default'` (or the `siwx` attribute, read at start; `siwx="required"`) checks
   * signatures in the modal and keeps sessions in localStorage; an object `{required?, statement?,
   * expiresInSeconds?}` too; with `getNonce` and `verify` (and optionally `createMessage`,
   * `getSession`, `signOut`) the dapp's server decides (README, "Sign-in"). AppKit's legacy
   * `siweConfig` property is read with it (element/ts/siwx.ts).
   */
  get siwx(): unknown {
    return this.#siwx;
  }
  set siwx(value: unknown) {
    this.#siwx = value;
    this.#syncSiwx();
  }

  /** The sign-in module hears the option in force (it loads the first time there is one). */
  #syncSiwx(): void {
    // Pages that never ask for sign-in fetch nothing of it.
    const asked = this.#siwx != null || this.hasAttribute('siwx') || 'siweConfig' in this || this.#hosts.has('siwx');
    if (asked && this.#hosts.has(ENGINE))
      void import('./siwx').then((m) => m.syncSiwx(this, this.#siwx, this.#providers, this.#hosts.has('siwx'), (e) => this.#run(e), (d) => this.#emit('error', d), registerModule));
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
    this.#frameIo?.free();
    this.#frameIo = null;
    for (const host of this.#hosts.values()) host.free();
    this.#hosts.clear();
    this.#waiting.clear();
    for (const call of this.#connectorCalls.values()) call.reject(new ProviderRpcError(4900, 'Disconnected'));
    this.#connectorCalls.clear();
    this.#queue.length = 0;
    this.#dispatching = false;
  }

  attributeChangedCallback(name: string): void {
    if (name === 'theme-mode') this.#applyTheme();
    if (name === 'locale' || name === 'number-format') {
      // (A language whose chunk cannot load leaves the views in the one they show.)
      this.#views?.setLocale(this.#locale(), this.#localNumbers()).catch(() => {});
      return;
    }
    this.#optionsChanged();
  }

  async #start(generation: number): Promise<void> {
    // The element is defined (ready for the host); the engine and the views chunk (our own code,
    // not a service) are fetched side by side now, so that an open() right away waits for neither
    // in turn. The views mount as soon as both are here.
    void loadViews().catch(() => {});
    let glue;
    try {
      glue = await loadModule(ENGINE);
    } catch (err) {
      this.#failed = `wallet-modal could not load its engine: ${err instanceof Error ? err.message : String(err)}`;
      this.#emit('error', { code: 5000, key: 'ENGINE_LOAD_FAILED', message: this.#failed });
      return;
    }
    if (generation !== this.#generation) return;
    this.#hosts.set(ENGINE, new ModuleHost(ENGINE, new glue.WasmHost(this.#json(this.#options()))));
    // A family's legacy provider (`window.ethereum`) is the `injected` connector (the first found).
    const legacy = FAMILIES.map((f) => ({ namespace: f.namespace, provider: f.legacyProvider?.() })).find((l) => l.provider);
    if (legacy?.provider) this.#providers.set('injected', legacy.provider);
    this.#run({ type: 'start', ...readStorage(), legacyNamespace: legacy?.namespace });
    this.#syncSiwx();
    this.#media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    this.#media?.addEventListener('change', this.#onMedia);
    this.#applyTheme();
    const stops: (() => void)[] = [];
    this.#stopDiscovery = () => stops.forEach((stop) => stop());
    this.#families = [];
    this.#discover = (family: WalletFamily) => {
      const { namespace } = family;
      this.#families.push(family);
      stops.push(
        family.discoverWallets(
          (info, provider) => {
            this.#providers.set(info.rdns, provider);
            this.#run({ type: 'announce', ...info, namespace });
          },
          (info) => this.#run({ type: 'announce', ...info, namespace, usable: false }),
          () => this.#engineSnapshot(),
        ),
      );
    };
    FAMILIES.forEach(this.#discover);
    // Inside an iframe the parent may be a Safe whose app this page is (its own chunk).
    if (parent !== window) void import('./families/eip155.safe').then((m) => generation === this.#generation && this.#discover?.(m.safe), () => {});
    this.#loadFamilies();
    // The views (React and the Connect view, rendered ahead hidden and inert) mount as soon as
    // their chunk is here, so that open() only shows them: the first wallet option appears within
    // a frame. Code from our own origin is not a service request: nothing goes to a remote service
    // before open().
    void this.#ensureViews().catch(() => {});
    // A Telegram mini-app social login came back with `result_uri`: the embedded wallet takes it.
    if (location.search.includes('result_uri=')) this.#load('embedded');
  }

  #json(v: object): string {
    return JSON.stringify(v, wellFormedReplacer);
  }

  #options(): object {
    const on = (name: string) => this.getAttribute(name) !== 'false';
    // Whole milliseconds (the core keeps 1 s to 1 h); anything else leaves the spec's 30 s.
    const interval = Number.parseInt(this.getAttribute('pending-transactions-interval') ?? '', 10);
    return {
      projectId: this.getAttribute('project-id') ?? '',
      networks: this.#networks,
      defaultNetwork: this.getAttribute('default-network') ?? undefined,
      debug: on('debug'),
      reconnect: on('reconnect'),
      enableEip6963: on('enable-eip6963'),
      enableNetworkSwitch: on('enable-network-switch'),
      basic: this.hasAttribute('basic') && on('basic'),
      embedded: this.hasAttribute('embedded') && on('embedded'),
      apiUrl: this.getAttribute('api-url') ?? undefined,
      analyticsUrl: this.getAttribute('analytics-url') ?? undefined,
      rpcUrl: this.getAttribute('rpc-url') ?? undefined,
      frameUrl: this.getAttribute('frame-url') ?? undefined,
      pendingTransactions: this.hasAttribute('pending-transactions') && on('pending-transactions'),
      pendingTransactionsInterval: interval > 0 ? interval : undefined,
      // The core reads each list comma-separated (a non-list: the core refuses it by name).
      featuredWallets: String(this.#wallets?.featured ?? ''),
      includeWallets: String(this.#wallets?.include ?? ''),
      excludeWallets: String(this.#wallets?.exclude ?? ''),
      certifiedWallets: this.#wallets?.certified === true,
      features: this.#features,
      mobile: isMobile(),
      origin: location.origin,
      href: location.href,
    };
  }

  #optionsChanged(): void {
    if (!this.#hosts.has(ENGINE)) return;
    const options = this.#options();
    for (const [name, host] of this.#hosts) this.#apply(name, host.setOptions(options));
    this.#render();
    this.#loadFamilies();
  }

  /** The families whose wallets are looked for: those of the initial load, and those loaded. */
  #families: WalletFamily[] = [];
  #discover: ((family: WalletFamily) => void) | null = null;
  #more: Promise<readonly WalletFamily[]> | null = null;

  /**
   * Loads the code of the families not in the initial load (Bitcoin, Polkadot, Cosmos) once the host
   * configures a network of one, and looks for the wallets of those it configures.
   */
  #loadFamilies(): void {
    const namespaces = (this.#engineSnapshot()?.networks ?? []).map((n) => n.namespace as string);
    const generation = this.#generation;
    if (namespaces.some((ns) => !FAMILIES.some((f) => f.namespace === ns))) {
      this.#more ??= loadMoreFamilies().catch(() => ((this.#more = null), []));
    }
    void this.#more?.then((more) => {
      for (const f of more) if (generation === this.#generation && namespaces.includes(f.namespace) && !this.#families.includes(f)) this.#discover?.(f);
    });
  }

  // ----- public methods -----

  /** Opens the modal, optionally on a view and for a namespace. */
  async open(options?: OpenOptions | null): Promise<void> {
    const event = openEvent(options);
    await this.#ready;
    const opener = deepActiveElement();
    if (opener && !this.#containsDeep(opener)) this.#opener = opener;
    await this.#ensureViews();
    if (this.#failed) return this.#showFailure();
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
    if (this.#failed) return this.#views?.render(this.#failureSnapshot(false));
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

  /** A plain copy of the current state (the engine's and every loaded module's parts). */
  getState(): ViewSnapshot | null {
    return this.#hosts.has(ENGINE) ? structuredClone(this.#viewSnapshot()) : null;
  }

  /**
   * The connected wallet's provider for a namespace: an EIP-1193 provider with `eip155` (for viem,
   * ethers or wagmi); with `solana`, the wallet-standard wallet (its `features`:
   * `solana:signMessage`, `solana:signAndSendTransaction`, …), or for a WalletConnect session or the
   * embedded wallet a provider whose `request` takes WalletConnect's Solana methods
   * (`solana_signMessage {message, pubkey}`, …); `undefined` while nothing is connected there.
   */
  getProvider(namespace: 'eip155'): Eip1193Provider | undefined;
  getProvider(namespace: 'solana'): StandardWallet | Eip1193Provider | undefined;
  getProvider(namespace: Namespace): Eip1193Provider | StandardWallet | undefined;
  getProvider(namespace: Namespace): Eip1193Provider | StandardWallet | undefined {
    const account = this.#engineSnapshot()?.connection;
    if (!account || account.namespace !== namespace) return undefined;
    // A connector a module answers (the embedded wallet: its secure frame asks for approval, shown
    // in ApproveTransaction): not watched.
    if (this.#moduleOfConnector(account.connectorId)) return this.#connectorProvider(account.connectorId);
    const wallet = this.#providers.get(account.connectorId);
    if (!wallet) return undefined;
    // A family whose wallets the host speaks to another way (a wallet-standard wallet object).
    const own = this.#families.find((f) => f.namespace === namespace)?.hostProvider?.(wallet);
    if (own) return own as StandardWallet;
    return forwardingProvider(wallet, this.#hostRequests(namespace));
  }

  /** Tells the engine of the host's requests it watches (wallet prompts, sent transactions). */
  #hostRequests(namespace: string): HostRequestWatcher {
    return {
      started: (method) => {
        if (!this.#hosts.has(ENGINE) || !engineWatches(namespace, method)) return null;
        const id = ++this.#hostRequestIds;
        this.#run({ type: 'hostRequest', id, method });
        return id;
      },
      ended: (id, result, failed) => {
        this.#run({ type: 'hostRequestDone', id, result: typeof result === 'string' ? result.slice(0, 200) : null, failed });
      },
    };
  }

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
    if (this.#hosts.has('embedded')) this.#run(this.#frameTheme(), 'embedded');
  }

  // ----- the hosts -----

  /** The module an event goes to: the lazily loaded one whose slice reads its type, else the engine. */
  #route(event: object): ModuleName {
    const e = event as { type?: unknown; connector?: unknown };
    if ((e.type === 'request' || e.type === 'release') && typeof e.connector === 'string') return this.#moduleOfConnector(e.connector) ?? ENGINE;
    return lazyModules().find(([, route]) => (route.events as readonly unknown[]).includes(e.type))?.[0] ?? ENGINE;
  }

  #moduleOfConnector(connector: string): ModuleName | undefined {
    return lazyModules().find(([, route]) => (route.connectors as readonly string[]).includes(connector))?.[0];
  }

  /**
   * Events reach the hosts one at a time, in order. An effect can raise an event synchronously
   * (the WalletConnect client makes its pairing URI while the request for accounts is being sent;
   * a module's notes go to the others): that event waits until the current one's effects are
   * done, so the snapshot rendered last is always the newest. `module` names the host that must
   * get it (an answer, a timer); otherwise the route table says.
   */
  #run(event: object, module: ModuleName | null = null): void {
    if (!this.#hosts.has(ENGINE)) return;
    this.#queue.push({ module, event });
    if (this.#dispatching) return;
    this.#dispatching = true;
    while (this.#queue.length > 0 && this.#hosts.has(ENGINE)) {
      const next = this.#queue.shift()!;
      try {
        const type = (next.event as { type?: unknown }).type;
        // A social login's popup opens in the visitor's click, before anything else happens (a
        // window opened later, once the module answers, would be blocked): 600×800 (spec §9).
        if (type === 'socialLogin') {
          markSocialStarted();
          this.#watchPopup(open('about:blank', 'wallet-modal-social', 'popup=yes,width=600,height=800'));
        }
        const target = next.module ?? this.#route(next.event);
        const host = this.#hosts.get(target);
        if (host) this.#apply(target, host.dispatch(next.event));
        else this.#load(target, next.event);
      } catch (err) {
        // Reported like an uncaught error, without losing the events queued behind this one.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    this.#queue.length = 0;
    this.#dispatching = false;
    this.#render();
  }

  /**
   * Loads a module once (a failed load is tried again on the next need), then hands it the
   * engine's facts and the events that waited for it, in order.
   */
  #load(name: ModuleName, event?: object): void {
    const waiting = this.#waiting.get(name);
    if (waiting) {
      if (event) waiting.push(event);
      return;
    }
    this.#waiting.set(name, event ? [event] : []);
    const generation = this.#generation;
    // The embedded wallet's I/O (its frame, the social popup) is ready before its module hears
    // anything: every effect it answers with has somewhere to go.
    Promise.all([loadModule(name), name === 'embedded' ? import('./frame-io') : null]).then(
      ([glue, io]) => {
        if (generation !== this.#generation || this.#hosts.has(name)) return;
        const host = new ModuleHost(name, new glue.WasmHost(this.#json(this.#options())));
        this.#hosts.set(name, host);
        const events = this.#waiting.get(name) ?? [];
        this.#waiting.delete(name);
        if (io) {
          this.#frameIo = new io.FrameIo(
            (e) => this.#run(e, 'embedded'),
            () => (this.#overlay?.shadowRoot ?? this.shadowRoot)?.querySelector<HTMLElement>('[data-wm-frame-slot]') ?? null,
            takeSocialStarted,
            () => this.#locale(),
          );
          if (this.#popup) this.#frameIo.watchPopup(this.#popup);
        }
        // A module that loads late hears the engine's facts once, then notes.
        this.#run({ type: 'notes', notes: this.#hosts.get(ENGINE)!.facts() }, name);
        if (io) {
          this.#frameIo?.start();
          this.#run(this.#frameTheme(), name);
        }
        for (const e of events) this.#run(e, name);
      },
      (err: unknown) => {
        if (generation !== this.#generation) return;
        const events = this.#waiting.get(name) ?? [];
        this.#waiting.delete(name);
        const message = err instanceof Error ? err.message : String(err);
        // Whatever waited for it ends now: a request to its connector fails, the visitor is told.
        for (const e of events) {
          const key = readField(e, 'key');
          if (typeof key === 'string') this.#settleCall(key, { error: { code: 4900, message } });
        }
        this.#popup?.close();
        this.#emit('error', { code: 5000, key: 'MODULE_LOAD_FAILED', message });
        this.#run({ type: 'showBanner', message: 'Could not load this part of the modal; try again' }); // i18n
      },
    );
  }

  #apply(module: ModuleName, output: HostOutput): void {
    for (const effect of output.effects) this.#effect(module, effect);
    // What one module's slices told the others.
    if (output.notes.length > 0) {
      for (const other of this.#hosts.keys()) if (other !== module) this.#run({ type: 'notes', notes: output.notes }, other);
    }
    if (module === ENGINE) this.#loadForView();
  }

  /** A view that needs a module loads it while it shows (Account and its screens, say). */
  #loadForView(): void {
    const s = this.#engineSnapshot();
    if (!s || !(s.open || s.embedded)) return;
    for (const [name, route] of lazyModules()) {
      if (!this.#hosts.has(name) && (route.views as readonly string[]).includes(s.view)) this.#load(name);
    }
  }

  #engineSnapshot(): Snapshot | null {
    return (this.#hosts.get(ENGINE)?.snapshot as Snapshot | undefined) ?? null;
  }

  /** What the views render: the engine's snapshot merged with every loaded module's parts. */
  #viewSnapshot(): ViewSnapshot {
    const merged: Record<string, unknown> = {};
    for (const host of this.#hosts.values()) Object.assign(merged, host.snapshot);
    return merged as unknown as ViewSnapshot;
  }

  #render(): void {
    if (!this.#views || !this.#hosts.has(ENGINE)) return;
    this.#views.render(this.#viewSnapshot(), this.#renderSync);
  }

  /** The engine could not load: the modal says so instead of showing nothing (the views read
   * nothing else of a snapshot with a `configError`). */
  #failureSnapshot(open: boolean): ViewSnapshot {
    const failure = { open, view: 'ConfigError', title: 'Configuration Error', canClose: true, configError: { code: 5000, key: 'ENGINE_LOAD_FAILED', message: this.#failed } };
    return failure as unknown as ViewSnapshot;
  }

  #showFailure(): void {
    this.#views?.render(this.#failureSnapshot(true), true);
  }

  #effect(module: ModuleName, e: Effect): void {
    switch (e.type) {
      case 'providerRequest':
        return this.#providerRequest(module, e.id, e.connectorId, e.method, e.params);
      case 'releaseProvider':
        return this.#release(e.connectorId);
      case 'fetch':
        if (this.#renderSync) {
          // Opening: the modal is drawn first; the requests it starts (config, wallets,
          // analytics) go out in the next task, so that this frame only paints the modal.
          const generation = this.#generation;
          setTimeout(() => generation === this.#generation && void this.#fetch(module, e.id, e.url, e.method, e.body, e.timeoutMs), 0);
          return;
        }
        return void this.#fetch(module, e.id, e.url, e.method, e.body, e.timeoutMs);
      case 'persist':
        try {
          if (e.value == null) localStorage.removeItem(e.key);
          else localStorage.setItem(e.key, e.value);
        } catch {
          // Storage full or disabled: the session still works, it just won't survive a reload.
        }
        return;
      case 'emit':
        return this.#emit(e.name, e.detail);
      case 'startTimer': {
        const key = `${module}:${e.id}`;
        clearTimeout(this.#timers.get(key));
        this.#timers.set(
          key,
          setTimeout(() => {
            this.#timers.delete(key);
            this.#run({ type: 'timer', id: e.id }, module);
          }, e.ms),
        );
        return;
      }
      case 'alert': {
        const log = e.severity === 'error' ? console.error : e.severity === 'warning' ? console.warn : console.info;
        const text = `[wallet-modal] ${e.message}${e.description ? ` — ${e.description}` : ''}`;
        setTimeout(() => log(text), e.delayMs || 0);
        return;
      }
      case 'dispatch':
        // A slice asks another module's slice for something (a screen asking the engine to navigate).
        return this.#run(e.event);
      case 'answer':
        return this.#settleCall(e.key, e);
      case 'copy':
        return void navigator.clipboard?.writeText(e.text).catch(() => {});
      case 'restoreFocus': {
        const opener = this.#opener;
        this.#opener = null;
        if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
        return;
      }
      default:
        // The embedded wallet's own I/O (its frame, the social popup).
        this.#frameIo?.effect(e);
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

  // ----- wallets and connectors -----

  /** The provider of a connector a module answers: its requests go to that module (loading it). */
  #connectorProvider(connector: string): Eip1193Provider {
    let p = this.#connectorProviders.get(connector);
    if (!p) {
      p = {
        request: (args: unknown) => {
          const method = readField(args, 'method');
          const params = readField(args, 'params');
          if (typeof method !== 'string' || method.length === 0) return Promise.reject(new ProviderRpcError(-32600, 'Invalid request: `method` must be a string'));
          if (method.length > MAX_METHOD_CHARS) return Promise.reject(new ProviderRpcError(-32600, `Invalid request: \`method\` is longer than ${MAX_METHOD_CHARS} characters`));
          let safe: unknown;
          let json: string;
          try {
            // Only JSON crosses into the module (no BigInt, no cycles, no functions).
            json = JSON.stringify(params ?? []);
            safe = JSON.parse(json);
          } catch {
            return Promise.reject(new ProviderRpcError(-32602, 'Invalid params: not JSON'));
          }
          if (json.length > MAX_PARAMS_CHARS) return Promise.reject(new ProviderRpcError(-32602, `Invalid params: larger than ${MAX_PARAMS_CHARS / 1024} KiB`));
          const key = `c${++this.#keys}`;
          return new Promise((resolve, reject) => {
            this.#connectorCalls.set(key, { resolve, reject });
            this.#run({ type: 'request', connector, key, method, params: safe });
          });
        },
        on: () => {},
        removeListener: () => {},
      } as unknown as Eip1193Provider;
      this.#connectorProviders.set(connector, p);
    }
    return p;
  }

  /** A module answered a request to its connector. */
  #settleCall(key: string, answer: { result?: unknown; error?: { code: number; message: string } }): void {
    const call = this.#connectorCalls.get(key);
    this.#connectorCalls.delete(key);
    if (!call) return;
    if (answer.error) call.reject(new ProviderRpcError(answer.error.code, answer.error.message));
    else call.resolve(answer.result);
  }

  #providerRequest(module: ModuleName, id: number, connectorId: string, method: string, params: unknown): void {
    const answer = (event: object) => this.#run({ type: 'providerResult', id, ...event }, module);
    let provider: Eip1193Provider | undefined;
    if (this.#moduleOfConnector(connectorId)) provider = this.#connectorProvider(connectorId);
    else if (connectorId === WALLETCONNECT_ID && !this.#providers.has(connectorId)) {
      // WalletConnect loads on its first request (pairing, a stored session); a request queued
      // behind the load is dropped if the engine released the connector meanwhile.
      const [generation, releases] = [this.#generation, this.#wcReleases];
      this.#loadWalletConnect().then(
        () => {
          if (generation !== this.#generation) return;
          if (releases !== this.#wcReleases) return answer({ error: { code: 4900, message: `${connectorId}: released before it loaded` } });
          this.#providerRequest(module, id, connectorId, method, params);
        },
        (err: unknown) => answer({ error: { code: 4900, message: err instanceof Error ? err.message : String(err) } }),
      );
      return;
    } else provider = this.#providers.get(connectorId);
    if (!provider) return answer({ error: { code: 4900, message: 'Provider not found' } });
    this.#listen(connectorId, provider);
    let request: Promise<unknown>;
    try {
      request = Promise.resolve(provider.request({ method, params }));
    } catch (err) {
      request = Promise.reject(err);
    }
    request.then(
      (result) => answer({ result: jsonSafe(result) }),
      (err) => answer({ error: providerError(err) }),
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

  /** The engine is done with a connector: stop listening; a module's connector hears it (the
   * embedded wallet signs out); WalletConnect also ends its session or pairing. */
  #release(connectorId: string): void {
    this.#unlisten(connectorId);
    const module = this.#moduleOfConnector(connectorId);
    if (module) {
      if (this.#hosts.has(module)) this.#run({ type: 'release', connector: connectorId }, module);
      return;
    }
    if (connectorId !== WALLETCONNECT_ID) return;
    this.#wcReleases++;
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

  /** The social login's popup, opened in the click (closed again if the module cannot load). */
  #watchPopup(popup: Window | null): void {
    if (!popup) return;
    this.#popup = popup;
    this.#frameIo?.watchPopup(popup);
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
          chains: () => (this.#engineSnapshot()?.networks ?? []).map((n) => n.caipNetworkId),
          activeChain: () => this.#engineSnapshot()?.network?.caipNetworkId ?? null,
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

  async #fetch(module: ModuleName, id: number, url: string, method: string, body: string | null, timeoutMs: number): Promise<void> {
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
    this.#run({ type: 'fetchResult', id, status, body: text }, module);
  }

  // ----- views, overlay, theme -----

  /**
   * Loads the views chunk and mounts them: inline when embedded or when appending is off
   * (`append-to-body="false"`: the dialog stays in the element's own shadow root, in the page's
   * stacking where the element is), else in an overlay on the body.
   */
  #ensureViews(): Promise<void> {
    if (this.#viewsLoading) return this.#viewsLoading;
    const loading = loadViews().then(({ mountViews }) => {
      if (!this.isConnected || this.#views) return;
      let root: ShadowRoot = this.shadowRoot!;
      if (!this.hasAttribute('embedded') && this.getAttribute('append-to-body') !== 'false') {
        ensureOverlayDefined();
        this.#overlay = document.createElement(OVERLAY_TAG) as WalletModalOverlay;
        document.body.appendChild(this.#overlay);
        root = this.#overlay.shadowRoot!;
        this.#mirrorTheme();
      }
      const views = mountViews(root, { onIntent: (intent: Intent) => this.#run(intent) });
      this.#views = views;
      this.#render();
      // The views in the page's language before they show (English needs no chunk); a language
      // whose chunk cannot load leaves them in English rather than keep the modal from opening.
      return views.setLocale(this.#locale(), this.#localNumbers()).then(() => {}, () => {});
    });
    // A failed load (the network dropped) is tried again on the next open().
    loading.catch(() => {
      if (this.#viewsLoading === loading) this.#viewsLoading = null;
    });
    this.#viewsLoading = loading;
    return loading;
  }

  /** Amounts in the page's language's format (`number-format="locale"`) rather than the spec's en-US. */
  #localNumbers(): boolean {
    return this.getAttribute('number-format') === 'locale';
  }

  /** The language asked for: the `locale` attribute, else the browser's. */
  #locale(): string {
    return this.getAttribute('locale') || (typeof navigator !== 'undefined' ? navigator.language : '') || 'en';
  }

  #containsDeep(el: Element): boolean {
    return this.contains(el) || this.shadowRoot!.contains(el) || Boolean(this.#overlay?.shadowRoot?.contains(el));
  }

  #onMedia = () => this.#applyTheme();

  #isDark(): boolean {
    const mode = this.themeMode;
    return mode === 'dark' || (mode === 'system' && Boolean(this.#media?.matches));
  }

  #applyTheme(): void {
    this.#run({ type: 'theme', dark: this.#isDark() });
    if (this.#hosts.has('embedded')) this.#run(this.#frameTheme(), 'embedded');
  }

  /** The theme variables in force on the element: name → value ('' when unset). */
  #themeValues(): Array<[string, string]> {
    const computed = getComputedStyle(this);
    return THEME_VARIABLES.map((name) => [name, computed.getPropertyValue(name).trim()]);
  }

  /** The modal's theme for the secure frame's approval (SYNC_THEME): the mode and the variables set. */
  #frameTheme(): { type: 'frameTheme'; dark: boolean; variables: Record<string, string> } {
    const variables = Object.fromEntries(this.#themeValues().filter(([, v]) => v && v.length <= 200));
    return { type: 'frameTheme', dark: this.#isDark(), variables };
  }

  /** Copies the theme variables in force on the element to the overlay on the body. */
  #mirrorTheme(): void {
    if (!this.#overlay) return;
    for (const [name, value] of this.#themeValues()) {
      if (value) this.#overlay.style.setProperty(name, value);
      else this.#overlay.style.removeProperty(name);
    }
  }
}

/** The element's events, typed: `el.addEventListener('connect', (e) => e.detail.address)`. */
export interface WalletModalElement {
  addEventListener<K extends keyof WalletModalEventMap>(type: K, listener: (this: WalletModalElement, ev: WalletModalEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof WalletModalEventMap>(type: K, listener: (this: WalletModalElement, ev: WalletModalEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** An EIP-1193 error. */
/** A wallet-standard wallet (`@wallet-standard/base`'s `Wallet`), as `getProvider('solana')` gives it. */
export interface StandardWallet {
  readonly version: string;
  readonly name: string;
  readonly icon: string;
  readonly chains: readonly string[];
  readonly accounts: readonly { address: string; publicKey: Uint8Array; chains: readonly string[]; features: readonly string[] }[];
  readonly features: Readonly<Record<string, unknown>>;
}

class ProviderRpcError extends Error {
  code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export type { Snapshot, Intent };
