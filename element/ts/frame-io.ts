/**
 * The embedded wallet's platform I/O (loaded with its module): the secure frame — a hidden iframe
 * on its own origin — and the social login's popup. Every message is checked both ways: only the
 * frame's window and exact origin (or the popup's) are heard, posts go to that origin only (never
 * `'*'`), and what a message says is then validated by the Rust module before anything acts on it.
 */
import type { Effect } from './protocol';

/** Largest message heard from the frame or the popup (characters of its JSON). */
const MAX_MESSAGE = 256 * 1024;
/** The social popup (opened 600×800 by the element) is watched every second (spec §9). */
const POPUP_POLL_MS = 1_000;
const SOCIAL_RESULT = '@w3m-social/RESULT';

export class FrameIo {
  readonly #send: (event: object) => void;
  #iframe: HTMLIFrameElement | null = null;
  #frameOrigin = '';
  #popup: Window | null = null;
  #popupTimer: ReturnType<typeof setInterval> | null = null;

  /** `send` hands an event to the embedded module. */
  constructor(send: (event: object) => void) {
    this.#send = send;
    addEventListener('message', this.#onMessage);
  }

  /** Seeds the module's message ids and hands it a Telegram return, once the element holds this
   * object (what the module answers may already be this object's effects). */
  start(): void {
    const random = crypto.getRandomValues(new Uint8Array(12));
    this.#send({ type: 'init', random: Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('') });
    this.#telegramReturn();
  }

  /** Carries out one of the embedded module's own effects; false when it is not one of them. */
  effect(e: Effect): boolean {
    switch (e.type) {
      case 'frameLoad':
        this.#loadFrame(e.url);
        return true;
      case 'framePost':
        if (this.#iframe?.contentWindow && this.#frameOrigin) this.#iframe.contentWindow.postMessage(e.message, this.#frameOrigin);
        return true;
      case 'popup':
        if (this.#popup && !this.#popup.closed) this.#popup.location.href = e.url;
        else this.#send({ type: 'popupClosed' });
        return true;
      case 'popupClose':
        this.#closePopup();
        return true;
      default:
        return false;
    }
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
        this.#send({ type: 'popupClosed' });
      }
    }, POPUP_POLL_MS);
  }

  free(): void {
    removeEventListener('message', this.#onMessage);
    this.#closePopup();
    this.#iframe?.remove();
    this.#iframe = null;
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
    if (uri.length <= 4096) this.#send({ type: 'socialResult', uri });
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
      if (d?.type === SOCIAL_RESULT && typeof d.resultUri === 'string') this.#send({ type: 'socialResult', uri: d.resultUri });
      return;
    }
    this.#send({ type: 'frameMessage', data: e.data });
  };

  /** The hidden frame, on its own origin. A load that never says READY fails after 20 s (module). */
  #loadFrame(url: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return this.#send({ type: 'frameLoadFailed' });
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
}
