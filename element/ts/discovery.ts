import { wellFormed, wellFormedReplacer } from './text';

/**
 * Finds injected EVM wallets: EIP-6963 announcements and the legacy `window.ethereum`.
 * Everything a page script announces is hostile: only well-formed announcements with a callable
 * `request` are kept, the first per uuid and per rdns, and the engine validates the info again.
 */

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface Announcement {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export function isProvider(p: unknown): p is Eip1193Provider {
  return typeof p === 'object' && p !== null && typeof readField(p, 'request') === 'function';
}

/**
 * Reads `key` of a hostile object once: a throwing getter or proxy trap reads as undefined. Strings
 * are cut to `max` characters (the engine bounds them again).
 */
export function readField(o: unknown, key: string): unknown {
  try {
    return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown, max = 4096): string => (typeof v === 'string' ? v.slice(0, max) : '');

/** The fields of an announcement, each read once; null when it is not even an object. */
function readAnnouncement(event: Event): { info: Announcement; provider: unknown } | null {
  const detail = readField(event, 'detail');
  const info = readField(detail, 'info');
  if (typeof info !== 'object' || info === null) return null;
  return {
    info: {
      uuid: str(readField(info, 'uuid'), 256),
      name: str(readField(info, 'name'), 256),
      // A data URI image; the engine keeps only safe ones.
      icon: str(readField(info, 'icon'), 200_000),
      rdns: str(readField(info, 'rdns'), 256),
    },
    provider: readField(detail, 'provider'),
  };
}

/**
 * Listens for announcements and asks wallets to announce. Returns a stop function.
 * `onWallet` gets each new wallet once, keyed by its rdns (the engine's connector id); `onBad`
 * gets an announcement that could not be read or has no usable provider (the engine alerts it in
 * debug mode). Nothing a page script announces can throw into the host page from here.
 */
export function discoverWallets(
  onWallet: (info: Announcement, provider: Eip1193Provider) => void,
  onBad: (info: Announcement) => void = () => {},
): () => void {
  const seen = new Set<string>();
  const listener = (event: Event) => {
    const read = readAnnouncement(event);
    if (!read) return onBad({ uuid: '', name: '', icon: '', rdns: '' });
    const { info, provider } = read;
    if (!info.uuid || !info.rdns || !isProvider(provider)) return onBad(info);
    if (seen.has(`u:${info.uuid}`) || seen.has(`r:${info.rdns}`)) return;
    seen.add(`u:${info.uuid}`);
    seen.add(`r:${info.rdns}`);
    onWallet(info, provider);
  };
  window.addEventListener('eip6963:announceProvider', listener);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  return () => window.removeEventListener('eip6963:announceProvider', listener);
}

/** The legacy injected provider, if any. */
export function legacyProvider(): Eip1193Provider | null {
  const eth = readField(window, 'ethereum');
  return isProvider(eth) ? eth : null;
}

/**
 * Turns whatever a wallet rejected with into `{code, message}` (an integer code and a string).
 * It never throws, whatever the wallet threw: throwing getters, proxies, symbols, objects whose
 * `toString` throws. An unknown message is empty (the engine then says 'Failed to connect').
 */
export function providerError(err: unknown): { code: number | null; message: string } {
  const c = readField(err, 'code');
  const m = typeof err === 'string' ? err : readField(err, 'message');
  const code = typeof c === 'number' && Number.isInteger(c) ? c : null;
  const message = typeof m === 'string' ? wellFormed(m.slice(0, 500)) : '';
  return { code, message };
}

/**
 * A JSON-safe, well-formed copy of a wallet's answer (cycles, functions, bigints and throwing
 * getters or `toJSON`s become null; lone surrogates U+FFFD). Never throws.
 */
export function jsonSafe(value: unknown): unknown {
  try {
    const text = JSON.stringify(value ?? null, wellFormedReplacer);
    return text === undefined ? null : clipDepth(JSON.parse(text), MAX_ANSWER_DEPTH);
  } catch {
    return null;
  }
}

/** Wallet answers nested deeper than this are cut (the engine's JSON reader stops at 128). */
const MAX_ANSWER_DEPTH = 32;

/** `v` with whatever lies deeper than `depth` levels replaced by null. */
function clipDepth(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth <= 0) return null;
  if (Array.isArray(v)) return v.map((x) => clipDepth(x, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = clipDepth(x, depth - 1);
  return out;
}
