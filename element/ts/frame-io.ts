/**
 * The embedded wallet's platform I/O (loaded with its module): the secure frame — a hidden iframe
 * on its own origin — and the social login's popup. Every message is checked both ways: only the
 * frame's window and exact origin (or the popup's) are heard, posts go to that origin only (never
 * `'*'`), and what a message says is then validated by the Rust module before anything acts on it.
 */
import type { Effect } from './protocol';

/** Largest message heard from the frame or the popup (characters of its JSON). */
const MAX_MESSAGE = 256 * 1024;
/** The frame's approval leaves the modal's focus order (the frame asks; the slot takes it back). */
const FOCUS_OUT = '@w3m-frame/FOCUS_OUT';
/** Above the modal's overlay, whatever `--wm-z-index` says. */
const TOP_LAYER_Z = '2147483647';
/** The social popup (opened 600×800 by the element) is watched every second (spec §9). */
const POPUP_POLL_MS = 1_000;
const SOCIAL_RESULT = '@w3m-social/RESULT';
/** A language tag the frame accepts (frame/src/validate.ts `localeTag`); anything else is not passed. */
const LOCALE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

export class FrameIo {
  readonly #send: (event: object) => void;
  #iframe: HTMLIFrameElement | null = null;
  #frameOrigin = '';
  #popup: Window | null = null;
  #popupTimer: ReturnType<typeof setInterval> | null = null;
  readonly #findSlot: () => HTMLElement | null;
  /** Whether the frame's approval shows in the modal, and the placing loop while it does. */
  #visible = false;
  #raf = 0;
  #slot: HTMLElement | null = null;
  /** Focus handed back by the frame lands on the slot without going back in. */
  #focusReturning = false;

  /** `send` hands an event to the embedded module; `findSlot` finds ApproveTransaction's place for the frame. */
  /** `takeSocialStarted`: social-mark.ts's, lent by the element (imported here, it would be a chunk of the initial load of its own). */
  /** `locale`: the modal's language (the `locale` attribute, else the browser's), read when the frame loads. */
  constructor(
    send: (event: object) => void,
    findSlot: () => HTMLElement | null = () => null,
    private readonly takeSocialStarted: () => boolean = () => false,
    private readonly locale: () => string = () => '',
  ) {
    this.#send = send;
    this.#findSlot = findSlot;
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
      case 'frameView':
        this.#show(e.visible);
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
    this.#show(false);
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
    // Only a login this tab started comes back: a link carrying someone else's result (login CSRF)
    // is dropped. The frame's service also binds the result to the device that asked for it.
    if (!this.takeSocialStarted()) return;
    if (uri.length <= 4096) this.#send({ type: 'socialResult', uri });
  }

  /**
   * Shows the frame's approval over ApproveTransaction's slot, or hides the frame again. The frame
   * stays where it was loaded (moving an iframe reloads it): it is laid over the slot, above the
   * modal, every animation frame while it shows, within the part of the slot that is on screen.
   * The frame's own document asks the visitor and only a click there approves.
   */
  #show(visible: boolean): void {
    const f = this.#iframe;
    this.#visible = visible;
    cancelAnimationFrame(this.#raf);
    if (!f) return;
    if (!visible) {
      this.#slot?.removeEventListener('focus', this.#onSlotFocus);
      this.#slot = null;
      f.hidden = true;
      f.setAttribute('aria-hidden', 'true');
      f.tabIndex = -1;
      f.title = 'wallet-modal secure frame';
      f.removeAttribute('style');
      f.removeAttribute('data-wm-trap-satellite');
      return;
    }
    f.title = 'wallet-modal secure approval';
    f.removeAttribute('aria-hidden');
    f.setAttribute('data-wm-trap-satellite', '');
    f.tabIndex = -1;
    let focused = false;
    const place = () => {
      if (!this.#visible) return;
      const slot = this.#findSlot();
      if (slot !== this.#slot) {
        this.#slot?.removeEventListener('focus', this.#onSlotFocus);
        slot?.addEventListener('focus', this.#onSlotFocus);
        this.#slot = slot;
      }
      const r = slot?.isConnected ? visibleRect(slot) : null;
      if (r) {
        Object.assign(f.style, {
          position: 'fixed',
          left: `${r.left}px`,
          top: `${r.top}px`,
          width: `${r.width}px`,
          height: `${r.height}px`,
          border: '0',
          margin: '0',
          padding: '0',
          zIndex: TOP_LAYER_Z,
          colorScheme: 'normal',
        });
        f.hidden = false;
        if (!focused) {
          focused = true;
          f.focus();
        }
      } else {
        f.hidden = true;
      }
      this.#raf = requestAnimationFrame(place);
    };
    place();
  }

  /** Tab reached the slot: focus goes into the frame (unless the frame just handed it back). */
  #onSlotFocus = (): void => {
    if (this.#focusReturning) return;
    if (this.#visible && this.#iframe && !this.#iframe.hidden) this.#iframe.focus();
  };

  /** The frame's last (or first) element was left by Tab: the modal's focus order goes on from the slot. */
  #focusOut(backwards: boolean): void {
    const slot = this.#slot;
    if (!slot?.isConnected) return;
    this.#focusReturning = true;
    slot.focus({ preventScroll: true });
    this.#focusReturning = false;
    slot.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: backwards, bubbles: true, composed: true, cancelable: true }));
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
    const d = e.data as { type?: unknown; payload?: { backwards?: unknown } } | null;
    if (d?.type === FOCUS_OUT) return this.#focusOut(d.payload?.backwards === true);
    this.#send({ type: 'frameMessage', data: e.data });
  };

  /**
   * The hidden frame, on its own origin, in the modal's language (its page is translated by the
   * frame itself; a later change of `locale` applies the next time the frame loads). A load that
   * never says READY fails after 20 s (module).
   */
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
    f.src = withLocale(url, this.locale());
    this.#iframe = f;
    document.body.appendChild(f);
  }
}

/**
 * `url` (the core's frame URL, every parameter kept as it is) with `locale=<tag>` added, when `tag`
 * is a language tag the frame accepts and the URL has none yet.
 */
export function withLocale(url: string, tag: string): string {
  if (tag.length > 35 || !LOCALE_TAG.test(tag)) return url;
  const at = url.indexOf('#');
  const [base, fragment] = at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
  const query = base.indexOf('?');
  if (query >= 0 && new URLSearchParams(base.slice(query)).has('locale')) return url;
  const joiner = query < 0 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}locale=${encodeURIComponent(tag)}${fragment}`;
}

/**
 * The part of `el` on screen: its box cut by the viewport and by every ancestor that clips
 * (scrolling card bodies), across shadow roots; null when nothing of it shows.
 */
function visibleRect(el: HTMLElement): { left: number; top: number; width: number; height: number } | null {
  const r = el.getBoundingClientRect();
  let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
  for (let n: Node | null = el.parentNode; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
    if (!(n instanceof Element) || n === document.documentElement) continue;
    const cs = getComputedStyle(n);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const c = n.getBoundingClientRect();
    [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
  }
  [left, top, right, bottom] = [Math.max(left, 0), Math.max(top, 0), Math.min(right, innerWidth), Math.min(bottom, innerHeight)];
  return right - left >= 1 && bottom - top >= 1 ? { left, top, width: right - left, height: bottom - top } : null;
}
