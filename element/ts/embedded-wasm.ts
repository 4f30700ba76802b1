/**
 * The embedded wallet's bridge (its own lazy chunk and wasm, `core/src/embedded/module.rs`): the
 * secure frame (a hidden iframe on its own origin), the social login popup, and the EIP-1193
 * provider of the `embedded` connector. Every message is checked both ways: only the frame's
 * window and exact origin are heard, and posts go to that origin only (never `'*'`). What a
 * message says is then validated by the Rust module before anything acts on it.
 */
import initWasm, { WasmEmbedded } from '../pkg/embedded/wallet_modal_embedded.js';
import wasmPath from '../pkg/embedded/wallet_modal_embedded_bg.wasm';
import type { EmbeddedPart, Snapshot } from './protocol';
import type { Effect } from './engine';
import type { Eip1193Provider } from './discovery';

/** The views' intents the module reads. */
export const EMBEDDED_EVENTS = new Set([
  'emailSubmit', 'emailOtp', 'emailResend', 'openUpdateEmail', 'updateEmailSubmit', 'updateEmailOtp',
  'socialLogin', 'farcasterLogin', 'approve', 'reject',
]);
const TIMER_PREFIX = 'embedded-';
/** Largest message heard from the frame or the popup (characters of its JSON). */
const MAX_MESSAGE = 256 * 1024;
/** The social popup (opened 600×800 by the element) is watched every second (spec §9). */
const POPUP_POLL_MS = 1_000;
const SOCIAL_RESULT = '@w3m-social/RESULT';

export interface EmbeddedHost {
  options(): object;
  stringify(value: object): string;
  /** One of the module's engine-shaped effects (startTimer, alert, emit, dispatch). */
  effect(effect: Effect): void;
  render(): void;
}

type Pending = { resolve(v: unknown): void; reject(e: unknown): void };

/** An EIP-1193 error. */
class ProviderRpcError extends Error {
  code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export class EmbeddedBridge {
  readonly #inner: WasmEmbedded;
  readonly #host: EmbeddedHost;
  part: EmbeddedPart | null = null;
  #context = '';
  #iframe: HTMLIFrameElement | null = null;
  #frameOrigin = '';
  #popup: Window | null = null;
  #popupTimer: ReturnType<typeof setInterval> | null = null;
  #hostRequests = new Map<string, Pending>();
  #next = 0;
  #freed = false;
  readonly provider: Eip1193Provider;

  constructor(host: EmbeddedHost) {
    this.#host = host;
    this.#inner = new WasmEmbedded(host.stringify(host.options()));
    const random = crypto.getRandomValues(new Uint8Array(12));
    this.#dispatch({ type: 'init', random: Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('') });
    addEventListener('message', this.#onMessage);
    this.#telegramReturn();
    // The `embedded` connector's EIP-1193 provider: the engine's requests and the host's
    // getProvider('eip155') alike.
    this.provider = {
      request: ({ method, params }: { method: string; params?: unknown }) => {
        if (typeof method !== 'string') return Promise.reject(new ProviderRpcError(-32600, 'Invalid request'));
        const key = `p${++this.#next}`;
        return new Promise((resolve, reject) => {
          this.#hostRequests.set(key, { resolve, reject });
          let safe: unknown;
          try {
            // Only JSON crosses into the module (no BigInt, no cycles, no functions).
            safe = JSON.parse(JSON.stringify(params ?? []));
          } catch {
            this.#hostRequests.delete(key);
            return reject(new ProviderRpcError(-32602, 'Invalid params: not JSON'));
          }
          this.#dispatch({ type: 'request', key, method, params: safe });
        });
      },
      on: () => {},
      removeListener: () => {},
    } as unknown as Eip1193Provider;
  }

  /**
   * A Telegram mini-app social login comes back to the page with `result_uri` in its address: it
   * is removed from the address at once and handed to the module.
   */
  #telegramReturn(): void {
    const url = new URL(location.href);
    const uri = url.searchParams.get('result_uri');
    if (uri === null) return;
    url.searchParams.delete('result_uri');
    history.replaceState(history.state, '', url.toString());
    if (uri.length <= 4096) this.#dispatch({ type: 'socialResult', uri });
  }

  /** Tells the module what the engine knows; unchanged facts send nothing. */
  sync(s: Snapshot): void {
    const a = s.account;
    const context = this.#host.stringify({
      type: 'context',
      view: s.view,
      open: s.open || s.embedded,
      connectorId: a?.connectorId ?? null,
      caipNetworkId: s.network?.caipNetworkId ?? null,
    });
    if (context === this.#context) return;
    this.#context = context;
    this.#dispatchJson(context);
  }

  /** Whether an event is the module's: its intents and timers. */
  handles(event: object): boolean {
    const e = event as { type?: unknown; id?: unknown };
    if (typeof e.type !== 'string') return false;
    if (EMBEDDED_EVENTS.has(e.type)) return true;
    return e.type === 'timer' && typeof e.id === 'string' && e.id.startsWith(TIMER_PREFIX);
  }

  run(event: object): void {
    this.#dispatch(event);
  }

  /**
   * Watches the social login popup the element opened in the visitor's click (checked every
   * second: closing it is 'Popup closed'); the module then sends it to the provider's page.
   */
  watchPopup(popup: Window): void {
    if (this.#popup !== popup) this.#closePopup();
    this.#popup = popup;
    clearInterval(this.#popupTimer ?? undefined);
    this.#popupTimer = setInterval(() => {
      if (this.#popup?.closed) {
        this.#closePopup();
        this.#dispatch({ type: 'popupClosed' });
      }
    }, POPUP_POLL_MS);
  }

  #closePopup(): void {
    if (this.#popupTimer) clearInterval(this.#popupTimer);
    this.#popupTimer = null;
    if (this.#popup && !this.#popup.closed) this.#popup.close();
    this.#popup = null;
  }

  #onMessage = (e: MessageEvent): void => {
    if (!this.#frameOrigin || e.origin !== this.#frameOrigin) return;
    const fromFrame = this.#iframe !== null && e.source === this.#iframe.contentWindow;
    const fromPopup = this.#popup !== null && e.source === this.#popup;
    if (!fromFrame && !fromPopup) return;
    let json: string;
    try {
      json = JSON.stringify(e.data);
    } catch {
      return;
    }
    if (typeof json !== 'string' || json.length > MAX_MESSAGE) return;
    if (fromPopup) {
      const d = e.data as { type?: unknown; resultUri?: unknown };
      if (d?.type === SOCIAL_RESULT && typeof d.resultUri === 'string') this.#dispatch({ type: 'socialResult', uri: d.resultUri });
      return;
    }
    this.#dispatch({ type: 'frameMessage', data: e.data });
  };

  #dispatch(event: object): void {
    this.#dispatchJson(this.#host.stringify(event));
  }

  #dispatchJson(json: string): void {
    if (this.#freed) return;
    const out = JSON.parse(this.#inner.dispatch(json, Date.now())) as { effects: Array<Effect & Record<string, unknown>>; part: EmbeddedPart };
    this.part = out.part;
    for (const effect of out.effects) this.#effect(effect);
    this.#host.render();
  }

  #effect(e: Effect & Record<string, unknown>): void {
    switch (e.type) {
      case 'frameLoad':
        return this.#loadFrame(e.url as string);
      case 'framePost':
        if (this.#iframe?.contentWindow && this.#frameOrigin) this.#iframe.contentWindow.postMessage(e.message, this.#frameOrigin);
        return;
      case 'answer': {
        const key = e.key as string;
        const error = e.error as { code: number; message: string } | undefined;
        const p = this.#hostRequests.get(key);
        this.#hostRequests.delete(key);
        if (!p) return;
        if (error) p.reject(new ProviderRpcError(error.code, error.message));
        else p.resolve(e.result);
        return;
      }
      case 'popup':
        if (this.#popup && !this.#popup.closed) this.#popup.location.href = e.url as string;
        else this.#dispatch({ type: 'popupClosed' });
        return;
      case 'popupClose':
        return this.#closePopup();
      default:
        return this.#host.effect(e);
    }
  }

  /** The hidden frame, on its own origin. A load that never says READY fails after 20 s (module). */
  #loadFrame(url: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return this.#dispatch({ type: 'frameLoadFailed' });
    }
    this.#iframe?.remove();
    const f = document.createElement('iframe');
    f.title = 'wallet-modal secure frame';
    f.setAttribute('aria-hidden', 'true');
    f.tabIndex = -1;
    f.hidden = true;
    this.#frameOrigin = origin;
    f.src = url;
    this.#iframe = f;
    document.body.appendChild(f);
  }

  free(): void {
    this.#freed = true;
    removeEventListener('message', this.#onMessage);
    this.#closePopup();
    this.#iframe?.remove();
    this.#iframe = null;
    for (const p of this.#hostRequests.values()) p.reject(new ProviderRpcError(4900, 'Disconnected'));
    this.#hostRequests.clear();
    this.#inner.free();
  }
}

let loading: Promise<unknown> | null = null;

/** Fetches and instantiates the module once (a failed load can be retried), then a bridge. */
export async function loadEmbeddedBridge(host: EmbeddedHost): Promise<EmbeddedBridge> {
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) }).catch((err: unknown) => {
    loading = null;
    throw new Error(`wallet-modal could not load its embedded-wallet module: ${String(err)}`);
  });
  await loading;
  return new EmbeddedBridge(host);
}
