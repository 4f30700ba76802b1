/**
 * The host of the sans-IO WalletConnect client (`WcClient`, Rust → wasm): it feeds the client
 * randomness, the relay socket's open/close/frames and timer ticks, writes the frames the client
 * produces, persists its state while a session exists and delivers the client's events in order.
 *
 * Everything coming in (frames, stored state, the client's own JSON) is treated as hostile: bad
 * input is dropped, never thrown out of this module.
 */
import type { WcClient, WcWasm } from './wc-wasm';
import { RelaySocket } from './wc-transport';

const MAX_STORED_CHARS = 512 * 1024;
/** With neither session nor pairing the socket stays open this long (to flush a wc_sessionDelete). */
const IDLE_CLOSE_MS = 5_000;
/** Longest single timer; a later deadline is reached in several ticks. */
const MAX_TIMER_MS = 3_600_000;
const MIN_TIMER_MS = 25;

/** Namespaces a session proposal asks for, by chain family (built by the core). */
export type ProposalNamespaces = Record<string, { chains: string[]; methods: string[]; events: string[] }>;

export interface Metadata {
  name: string;
  description: string;
  url: string;
  icons: string[];
}

export interface SessionNamespace {
  chains?: string[];
  accounts: string[];
  methods: string[];
  events: string[];
}

/** The settled session, as the client serialises it (only the fields used here). */
export interface WcSession {
  topic: string;
  peer: { publicKey: string; metadata: Partial<Metadata> };
  namespaces: Record<string, SessionNamespace>;
  expiry: number;
}

export interface RpcErrorShape {
  code: number;
  message: string;
  data?: unknown;
}

/** The client's events (core/src/wc/sign.rs `Event`). Unknown ones are passed on and ignored. */
export type WcEvent =
  | { type: 'pairingUri'; uri: string }
  | { type: 'pairingExpired' }
  | { type: 'sessionProposalRejected'; code: number; message: string }
  | { type: 'connectFailed'; code: number; message: string }
  | { type: 'sessionSettled'; session: WcSession }
  | { type: 'requestSent'; id: number; method: string; chainId: string | null }
  | { type: 'sessionRequestResult'; id: number; outcome: { result: unknown } | { error: RpcErrorShape } }
  | { type: 'sessionEvent'; name: string; data: unknown; chainId: string }
  | { type: 'sessionUpdated'; session: WcSession }
  | { type: 'sessionDeleted'; code: number; message: string }
  | { type: 'sessionExpired' }
  | { type: 'relayFailure'; method: string; code: number | null; message: string };

/** A refused input: the client's state did not change. */
export interface WcRefusal {
  error: string;
  code?: 'needEntropy' | 'tooSoon' | 'invalidState' | 'invalidParams' | 'unauthorized';
  retryAtMs?: number;
  rpcCode?: number;
}

export type WcCommand =
  | { connect: { optionalNamespaces: ProposalNamespaces } }
  | { request: { topic: string; chainId: string; method: string; params: unknown } }
  | 'disconnect';

export interface WcHostOptions {
  wasm: WcWasm;
  relayUrl: string;
  projectId: string;
  metadata: Metadata;
  /** localStorage keys are `{prefix}client` (the client's state) and `{prefix}relay_seed`. */
  storagePrefix: string;
  onEvent(event: WcEvent): void;
}

export function parseJson(text: string | null | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readStored(key: string): string | null {
  try {
    const v = localStorage.getItem(key);
    return v !== null && v.length <= MAX_STORED_CHARS ? v : null;
  } catch {
    return null; // storage disabled
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Full or disabled: the session works, it just will not survive a reload.
  }
}

export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The persisted 32-byte seed of the relay client key (a new one when missing or malformed). */
function relaySeed(key: string): string {
  const stored = readStored(key);
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return stored;
  const seed = randomHex(32);
  writeStored(key, seed);
  return seed;
}

/** A well-formed session object, or null. */
function asSession(v: unknown): WcSession | null {
  if (!isObject(v) || typeof v.topic !== 'string' || !isObject(v.namespaces) || !isObject(v.peer)) return null;
  return v as unknown as WcSession;
}

export class WcHost {
  readonly #opts: WcHostOptions;
  readonly #client: WcClient;
  readonly #socket: RelaySocket;
  readonly #clientKey: string;
  readonly #seed: string;
  /** Names this page's connection in the relay auth token (JWT `sub`). */
  readonly #sub = randomHex(16);
  #tick: ReturnType<typeof setTimeout> | null = null;
  #idle: ReturnType<typeof setTimeout> | null = null;
  #queue: WcEvent[] = [];
  #delivering = false;
  #closed = false;

  constructor(opts: WcHostOptions) {
    this.#opts = opts;
    this.#clientKey = `${opts.storagePrefix}client`;
    this.#seed = relaySeed(`${opts.storagePrefix}relay_seed`);
    this.#client = this.#restore() ?? new opts.wasm.WcClient(JSON.stringify({ metadata: opts.metadata }));
    this.#socket = new RelaySocket({
      url: () => this.#relayUrl(),
      onOpen: () => this.#feed('connected'),
      onFrame: (frame) => this.#feed({ frame }),
      onClose: () => this.#feed('disconnected'),
    });
    this.#afterStep();
  }

  /** The settled session, or null. */
  session(): WcSession | null {
    return this.#closed ? null : asSession(parseJson(this.#client.session()));
  }

  /** The URI of the pairing waiting for a wallet, or null. */
  pairingUri(): string | null {
    return this.#closed ? null : (this.#client.pairingUri() ?? null);
  }

  /** Runs a command; returns the events it produced (also delivered to `onEvent`) or the refusal. */
  command(command: WcCommand): { events: WcEvent[] } | WcRefusal {
    if (this.#closed) return { error: 'WalletConnect client closed', code: 'invalidState' };
    this.#socket.start();
    return this.#feed({ command });
  }

  /** Stops the socket and the timers; the stored session stays for the next page or element. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.stop();
    for (const t of [this.#tick, this.#idle]) if (t) clearTimeout(t);
    this.#tick = this.#idle = null;
    this.#queue = [];
    this.#client.free();
  }

  #restore(): WcClient | null {
    const stored = readStored(this.#clientKey);
    if (!stored) return null;
    try {
      return this.#opts.wasm.WcClient.fromJson(stored);
    } catch {
      writeStored(this.#clientKey, null); // corrupt or foreign: start afresh
      return null;
    }
  }

  #relayUrl(): string | Error {
    const { relayUrl, projectId } = this.#opts;
    const params = { seed: this.#seed, sub: this.#sub, relayUrl, projectId, nowMs: Date.now() };
    const out = parseJson(this.#opts.wasm.relayAuthUrl(JSON.stringify(params)));
    if (isObject(out) && typeof out.url === 'string') return out.url;
    return new Error(`WalletConnect relay URL: ${isObject(out) ? String(out.error) : 'no answer'}`);
  }

  #feed(input: unknown): { events: WcEvent[] } | WcRefusal {
    if (this.#closed) return { error: 'WalletConnect client closed', code: 'invalidState' };
    let step: unknown;
    try {
      const wanted = this.#client.entropyWanted();
      if (wanted > 0) this.#client.addEntropy(crypto.getRandomValues(new Uint8Array(Math.min(wanted, 65_536))));
      step = parseJson(this.#client.handle(JSON.stringify(input), Date.now()));
    } catch (err) {
      // A trap in the module (a bug, not bad input: bad input comes back as {error}).
      return { error: `WalletConnect client failed: ${String(err)}` };
    }
    if (!isObject(step)) return { error: 'WalletConnect client: unreadable step' };
    if (typeof step.error === 'string') return step as unknown as WcRefusal;
    const events: WcEvent[] = [];
    for (const out of Array.isArray(step.outputs) ? step.outputs : []) {
      if (!isObject(out)) continue;
      if (out.type === 'send' && typeof out.value === 'string') this.#socket.send(out.value);
      else if (out.type === 'event' && isObject(out.value) && typeof out.value.type === 'string') events.push(out.value as WcEvent);
    }
    this.#afterStep();
    this.#queue.push(...events);
    this.#deliver();
    return { events };
  }

  /** Persists, re-arms the tick timer and opens or winds down the socket. */
  #afterStep(): void {
    const session = this.#client.session() !== undefined;
    writeStored(this.#clientKey, session ? this.#client.toJson() : null);

    if (this.#tick) clearTimeout(this.#tick);
    this.#tick = null;
    const deadline = this.#client.nextDeadline();
    if (deadline !== undefined && Number.isFinite(deadline)) {
      const ms = Math.min(MAX_TIMER_MS, Math.max(MIN_TIMER_MS, deadline - Date.now()));
      this.#tick = setTimeout(() => {
        this.#tick = null;
        this.#feed('tick');
      }, ms);
    }

    // A session, a proposal (approved or not) or a relay request awaiting its answer all have a
    // deadline; with none the socket has nothing left to do.
    if (session || deadline !== undefined) {
      if (this.#idle) clearTimeout(this.#idle);
      this.#idle = null;
      this.#socket.start();
    } else if (!this.#idle) {
      this.#idle = setTimeout(() => {
        this.#idle = null;
        if (!this.#closed && this.#client.session() === undefined && this.#client.nextDeadline() === undefined) this.#socket.stop();
      }, IDLE_CLOSE_MS);
    }
  }

  /** Events in the order they happened, even when a handler runs another command. */
  #deliver(): void {
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let e = this.#queue.shift(); e; e = this.#queue.shift()) {
        try {
          this.#opts.onEvent(e);
        } catch (err) {
          console.error('[wallet-modal] WalletConnect event handler failed', err);
        }
      }
    } finally {
      this.#delivering = false;
    }
  }
}
