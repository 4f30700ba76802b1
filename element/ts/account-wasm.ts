/**
 * The account module (the Account view's portfolio and activity slices, in their own WebAssembly
 * module) and its bridge to the element. Only reached through a dynamic `import()`, so neither the
 * module nor this plumbing is part of the initial load.
 */
import initWasm, { WasmAccount, isAccountRequest } from '../pkg/account/wallet_modal_account.js';
import wasmPath from '../pkg/account/wallet_modal_account_bg.wasm';
import type { AccountPart, Snapshot } from './protocol';
import type { Effect } from './engine';

/** Events the account module reads from the views (the Account view's tabs and lists). */
const ACCOUNT_EVENTS = new Set([
  'selectAccountTab', 'refreshTokens', 'loadMoreActivity', 'loadMoreNfts', 'openReceive', 'openSend',
  'sendSetToken', 'sendSetAmount', 'sendSetReceiver', 'sendMax', 'sendPreview', 'sendConfirm',
  'openSwap', 'swapSetFrom', 'swapSetTo', 'swapSetAmount', 'swapMax', 'swapFlip', 'swapApprove', 'swapConfirm',
  'openBuy', 'buySetPurchase', 'buySetPayment', 'buySetMethod', 'buySetAmount', 'buyChoose', 'buyReset',
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

  constructor(host: AccountHost) {
    this.#host = host;
    this.#inner = new WasmAccount(host.stringify(host.options()));
  }

  /** Tells the module what the engine knows (the account, its network, whether Account shows). */
  sync(s: Snapshot): void {
    const a = s.account;
    const visible = s.view === 'Account' && (s.open || s.embedded);
    const account = a
      ? { namespace: a.namespace, address: a.address, caipNetworkId: a.caipAddress.split(':').slice(0, 2).join(':'), connectorId: a.connectorId }
      : null;
    const context = this.#host.stringify({ type: 'context', visible, account, swapNetworks: s.walletFeatures?.includes('swaps') ? s.swapNetworks : [] });
    if (context === this.#context) return;
    this.#context = context;
    this.#dispatch(context);
  }

  /** Whether an event is the module's: its intents, and the answers to its requests. */
  handles(event: object): boolean {
    const e = event as { type?: unknown; id?: unknown };
    if (typeof e.type === 'string' && ACCOUNT_EVENTS.has(e.type)) return true;
    // The header's back button leaves the module's own screen first.
    if (e.type === 'back' && this.part?.screen !== undefined && this.part.screen !== 'main') return true;
    if (e.type === 'timer') return typeof e.id === 'string' && e.id.startsWith(TIMER_PREFIX);
    return (e.type === 'fetchResult' || e.type === 'providerResult') && typeof e.id === 'number' && isAccountRequest(e.id);
  }

  run(event: object): void {
    this.#dispatch(this.#host.stringify(event));
  }

  #dispatch(json: string): void {
    const out = JSON.parse(this.#inner.dispatch(json, Date.now())) as { effects: Effect[]; part: AccountPart };
    this.part = out.part;
    for (const effect of out.effects) this.#host.effect(effect);
    this.#host.render();
  }

  free(): void {
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
