/**
 * Text from outside (wallets, storage, the host) may hold lone UTF-16 surrogates, which are not
 * text: they cannot be encoded as UTF-8, and the engine's JSON reader refuses them. Every string
 * that goes to the engine passes through here first.
 */

/** `s` with each lone surrogate replaced by U+FFFD (what `String.prototype.toWellFormed` does). */
export function wellFormed(s: string): string {
  return s.replace(/\p{Cs}/gu, '\uFFFD');
}

/** True when `s` holds no lone surrogate. */
export function isWellFormed(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}

/**
 * A `JSON.stringify` replacer making every string and object key well-formed, so that whatever
 * reached the shell, the engine gets an event it can read (and so always gets its answer).
 */
export function wellFormedReplacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'string') return isWellFormed(value) ? value : wellFormed(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.some((k) => !isWellFormed(k))) {
      const out: Record<string, unknown> = {};
      for (const k of keys) out[wellFormed(k)] = (value as Record<string, unknown>)[k];
      return out;
    }
  }
  return value;
}
