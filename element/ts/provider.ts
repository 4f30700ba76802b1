/**
 * What every family's wallet provider shares: the EIP-1193-shaped `request`, and reading whatever a
 * wallet answers or throws without ever throwing into the host page.
 */
import { wellFormed, wellFormedReplacer } from './text';

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(event: string, listener: (...args: unknown[]) => void): unknown;
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
