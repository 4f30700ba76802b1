/**
 * A trade module's bridge (the Swap screen's or the Buy screen's own wasm module, loaded when the
 * visitor presses its button): events in as JSON, effects and its part out. It hears the account,
 * its network, whether the Account view shows, what the account holds (the account module's
 * `held`) and the project's swap networks through `context` events.
 */
import type { AccountPart, Snapshot, TradePart } from './protocol';
import type { Effect } from './engine';

/** What a trade module's wasm class offers. */
export interface TradeWasm {
  dispatch(eventJson: string, nowMs: number): string;
  free(): void;
}

/** What the bridge needs from the element. */
export interface TradeHost {
  options(): object;
  stringify(value: object): string;
  effect(effect: Effect): void;
  render(): void;
}

export interface TradeKind {
  /** 'swap' | 'buy': the part's screen while it shows. */
  screen: 'swap' | 'buy';
  /** The intent that opens it. */
  open: string;
  /** The screen's own intents. */
  events: ReadonlySet<string>;
  /** Its timers' ids start with this. */
  timers: string;
  isRequest(id: number): boolean;
}

export class TradeBridge {
  readonly #inner: TradeWasm;
  readonly #host: TradeHost;
  readonly kind: TradeKind;
  #context = '';
  part: TradePart | null = null;

  constructor(host: TradeHost, kind: TradeKind, inner: TradeWasm) {
    this.#host = host;
    this.kind = kind;
    this.#inner = inner;
  }

  /** Tells the module what the engine and the account module know; unchanged facts send nothing. */
  sync(s: Snapshot, account: AccountPart | null): void {
    const a = s.account;
    const visible = s.view === 'Account' && (s.open || s.embedded);
    const context = this.#host.stringify({
      type: 'context',
      visible,
      account: a ? { namespace: a.namespace, address: a.address, caipNetworkId: a.caipAddress.split(':').slice(0, 2).join(':'), connectorId: a.connectorId } : null,
      held: account?.held ?? [],
      swapNetworks: s.swapNetworks,
    });
    if (context === this.#context) return;
    this.#context = context;
    this.#dispatch(context);
  }

  /** Whether an event is this module's: its intents, its answers and timers, back while it shows. */
  handles(event: object): boolean {
    const e = event as { type?: unknown; id?: unknown };
    if (typeof e.type !== 'string') return false;
    if (e.type === this.kind.open || this.kind.events.has(e.type)) return true;
    if (e.type === 'back') return Boolean(this.part?.screen);
    if (e.type === 'timer') return typeof e.id === 'string' && e.id.startsWith(this.kind.timers);
    return (e.type === 'fetchResult' || e.type === 'providerResult') && typeof e.id === 'number' && this.kind.isRequest(e.id);
  }

  run(event: object): void {
    this.#dispatch(this.#host.stringify(event));
  }

  #dispatch(json: string): void {
    const out = JSON.parse(this.#inner.dispatch(json, Date.now())) as { effects: Effect[]; part: TradePart };
    this.part = out.part;
    for (const effect of out.effects) this.#host.effect(effect);
    this.#host.render();
  }

  free(): void {
    this.#inner.free();
  }
}

/**
 * A trade module's loader: fetches and instantiates its wasm once (a failed load can be retried),
 * then makes a bridge to a new module instance.
 */
export function tradeLoader(
  init: (o: { module_or_path: URL }) => Promise<unknown>,
  wasmUrl: URL,
  make: (optionsJson: string) => TradeWasm,
  kind: TradeKind,
): (host: TradeHost) => Promise<TradeBridge> {
  let loading: Promise<unknown> | null = null;
  return async (host) => {
    loading ??= init({ module_or_path: wasmUrl }).catch((err: unknown) => {
      loading = null;
      throw new Error(`wallet-modal could not load its ${kind.screen} module: ${String(err)}`);
    });
    await loading;
    return new TradeBridge(host, kind, make(host.stringify(host.options())));
  };
}
