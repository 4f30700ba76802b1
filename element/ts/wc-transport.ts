/**
 * The relay WebSocket: opens on demand, reconnects with capped exponential back-off (reset once a
 * socket opens) and hands text frames over. It knows nothing of the protocol; the URL (with a fresh
 * auth token) is asked for on every attempt.
 */

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/** Frames larger than this are dropped unread (the relay's own limit is far below). */
export const MAX_FRAME_CHARS = 1_000_000;

export interface RelaySocketHandlers {
  /** A fresh relay URL, or an Error when none can be built (then the attempt is retried later). */
  url(): string | Error;
  onOpen(): void;
  onFrame(text: string): void;
  onClose(): void;
}

/** Delay before reconnect attempt `attempt` (0-based): base × 2^attempt, capped, ±20 % jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(exp * (0.8 + 0.4 * random()));
}

export class RelaySocket {
  readonly #h: RelaySocketHandlers;
  #socket: WebSocket | null = null;
  #open = false;
  #wanted = false;
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | null = null;

  constructor(handlers: RelaySocketHandlers) {
    this.#h = handlers;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Keeps a socket open from now on (no-op when one is open or being opened). */
  start(): void {
    this.#wanted = true;
    if (!this.#socket && !this.#retry) this.#connect();
  }

  /** Closes the socket and stops reconnecting. */
  stop(): void {
    this.#wanted = false;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const s = this.#socket;
    this.#socket = null;
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null;
      s.close(1000);
    }
    if (this.#open) {
      this.#open = false;
      this.#h.onClose();
    }
  }

  /** Writes a frame; returns false when no socket is open (the caller's state machine resends). */
  send(frame: string): boolean {
    if (!this.#open || !this.#socket) return false;
    try {
      this.#socket.send(frame);
      return true;
    } catch {
      return false;
    }
  }

  #connect(): void {
    const url = this.#h.url();
    if (url instanceof Error) return this.#scheduleRetry();
    let s: WebSocket;
    try {
      s = new WebSocket(url);
    } catch {
      return this.#scheduleRetry();
    }
    this.#socket = s;
    s.onopen = () => {
      this.#open = true;
      this.#attempt = 0;
      this.#h.onOpen();
    };
    s.onmessage = (e: MessageEvent) => {
      if (typeof e.data === 'string' && e.data.length <= MAX_FRAME_CHARS) this.#h.onFrame(e.data);
    };
    // `error` is always followed by `close`.
    s.onclose = () => {
      if (this.#socket !== s) return;
      this.#socket = null;
      const wasOpen = this.#open;
      this.#open = false;
      if (wasOpen) this.#h.onClose();
      this.#scheduleRetry();
    };
  }

  #scheduleRetry(): void {
    if (!this.#wanted || this.#retry) return;
    const delay = backoffMs(this.#attempt++);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#wanted && !this.#socket) this.#connect();
    }, delay);
  }
}
