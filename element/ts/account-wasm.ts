/**
 * The account module (the Account view's portfolio and activity slices, in their own WebAssembly
 * module) and its bridge to the element. Only reached through a dynamic `import()`, so neither the
 * module nor this plumbing is part of the initial load.
 */
import initWasm, { WasmAccount, isAccountRequest } from '../pkg/account/wallet_modal_account.js';
import wasmPath from '../pkg/account/wallet_modal_account_bg.wasm';
import type { AccountPart, Snapshot, TradePart } from './protocol';
import type { Effect } from './engine';
import type { TradeBridge } from './trade-bridge';

/** The trade modules (the Swap and Buy screens, each its own lazy chunk and wasm), by the intent
 * that first loads them: the Account view's buttons. */
const TRADES: Record<string, { name: 'swap' | 'buy'; load: (host: AccountHost) => Promise<TradeBridge> }> = {
  openSwap: { name: 'swap', load: (host) => import('./swap-wasm').then((m) => m.load(host)) },
  openBuy: { name: 'buy', load: (host) => import('./buy-wasm').then((m) => m.load(host)) },
};

/** Events the account module reads from the views (the Account view's tabs and lists). */
const ACCOUNT_EVENTS = new Set([
  'selectAccountTab', 'refreshTokens', 'loadMoreActivity', 'loadMoreNfts', 'openReceive', 'openSend',
  'sendSetToken', 'sendSetAmount', 'sendSetReceiver', 'sendMax', 'sendPreview', 'sendConfirm',
  'accountChanged',
]);
/** Timers the module starts carry this prefix. */
const TIMER_PREFIX = 'account-';

/** What the bridge needs from the element. */
export interface AccountHost {
  /** The element's options (the same the engine gets). */
  options(): object;
  /** JSON of an event, made well-formed (the element's own stringify). */
  stringify(value: object): string;
  /** Carries out one of the module's effects (fetch, emit, alert…), like the engine's. */
  effect(effect: Effect): void;
  /** The module's part changed: render again. */
  render(): void;
}

export class AccountBridge {
  readonly #inner: WasmAccount;
  readonly #host: AccountHost;
  /** The context last sent (JSON): unchanged facts send nothing. */
  #context = '';
  part: AccountPart | null = null;
  #snapshot: Snapshot | null = null;
  readonly #trades = new Map<'swap' | 'buy', TradeBridge>();
  readonly #tradesLoading = new Set<'swap' | 'buy'>();

  constructor(host: AccountHost) {
    this.#host = host;
    this.#inner = new WasmAccount(host.stringify(host.options()));
  }

  /** Tells the module what the engine knows (the account, its network, whether Account shows). */
  sync(s: Snapshot): void {
    this.#snapshot = s;
    this.#syncTrades();
    const a = s.account;
    const visible = s.view === 'Account' && (s.open || s.embedded);
    const account = a
      ? { namespace: a.namespace, address: a.address, caipNetworkId: a.caipAddress.split(':').slice(0, 2).join(':'), connectorId: a.connectorId }
      : null;
    const context = this.#host.stringify({ type: 'context', visible, account });
    if (context === this.#context) return;
    this.#context = context;
    this.#dispatch(context);
  }

  /** Whether an event is the module's: its intents, and the answers to its requests. */
  handles(event: object): boolean {
    const e = event as { type?: unknown; id?: unknown };
    if (this.#tradeOf(event) || (typeof e.type === 'string' && e.type in TRADES)) return true;
    if (typeof e.type === 'string' && ACCOUNT_EVENTS.has(e.type)) return true;
    // The header's back button leaves the module's own screen first.
    if (e.type === 'back' && this.part?.screen !== undefined && this.part.screen !== 'main') return true;
    if (e.type === 'timer') return typeof e.id === 'string' && e.id.startsWith(TIMER_PREFIX);
    return (e.type === 'fetchResult' || e.type === 'providerResult') && typeof e.id === 'number' && isAccountRequest(e.id);
  }

  run(event: object): void {
    const trade = this.#tradeOf(event);
    if (trade) return trade.run(event);
    const type = (event as { type?: unknown }).type;
    if (typeof type === 'string' && type in TRADES) return this.#loadTrade(type, event);
    this.#dispatch(this.#host.stringify(event));
  }

  /** The part of the trade module whose screen shows, if any. */
  get trade(): TradePart | null {
    for (const t of this.#trades.values()) if (t.part?.screen) return t.part;
    return null;
  }

  #tradeOf(event: object): TradeBridge | undefined {
    for (const t of this.#trades.values()) if (t.handles(event)) return t;
    return undefined;
  }

  /** Loads a trade module the first time its button is pressed, then hands it the intent. */
  #loadTrade(type: string, event: object): void {
    const spec = TRADES[type];
    if (this.#tradesLoading.has(spec.name)) return;
    this.#tradesLoading.add(spec.name);
    spec.load(this.#host).then(
      (bridge) => {
        this.#tradesLoading.delete(spec.name);
        if (this.#freed) return bridge.free();
        this.#trades.set(spec.name, bridge);
        this.#syncTrades();
        bridge.run(event);
      },
      (err: unknown) => {
        // Retried the next time the button is pressed.
        this.#tradesLoading.delete(spec.name);
        queueMicrotask(() => {
          throw err;
        });
      },
    );
  }

  /** The trade modules hear the engine's facts and what the account holds. */
  #syncTrades(): void {
    if (this.#snapshot) for (const t of this.#trades.values()) t.sync(this.#snapshot, this.part);
  }

  #dispatch(json: string): void {
    const out = JSON.parse(this.#inner.dispatch(json, Date.now())) as { effects: Effect[]; part: AccountPart };
    this.part = out.part;
    for (const effect of out.effects) this.#host.effect(effect);
    this.#syncTrades();
    this.#host.render();
  }

  #freed = false;

  free(): void {
    this.#freed = true;
    for (const t of this.#trades.values()) t.free();
    this.#trades.clear();
    this.#inner.free();
  }
}

let loading: Promise<unknown> | null = null;

/** Fetches and instantiates the module once (a failed load can be retried), then a bridge. */
export async function loadAccountBridge(host: AccountHost): Promise<AccountBridge> {
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) }).catch((err: unknown) => {
    loading = null;
    throw new Error(`wallet-modal could not load its account module: ${String(err)}`);
  });
  await loading;
  return new AccountBridge(host);
}
