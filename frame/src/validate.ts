// Checks on what the app and the frame URL hand the frame: every value bounded before use.

import { FrameError } from './messages.ts';

export const MAX_URL = 2048;

/** An http(s) URL of at most 2048 characters, or null. */
export function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_URL) return null;
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password) return null;
    return v;
  } catch {
    return null;
  }
}

/** A positive safe-integer chain id (a number, or a decimal / 0x string from the URL), or null. */
export function chainId(v: unknown): number | null {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^(?:[1-9][0-9]{0,15}|0x[0-9a-fA-F]{1,13})$/.test(v)) n = Number(v);
  else return null;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** A Solana network's CAIP-2 reference (32 base58 characters), or null. */
export function solanaRef(v: unknown): string | null {
  return typeof v === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32}$/.test(v) ? v : null;
}

/** A bounded string of printable characters (no control characters), or null. */
export function text(v: unknown, max: number): string | null {
  if (typeof v !== 'string' || v.length > max) return null;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(v) ? null : v;
}

/** An email address as the service accepts it: at most 254 characters, one `@`, a dotted domain. */
export function email(v: unknown): string | null {
  const s = text(v, 254);
  if (!s) return null;
  return /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/.test(s) ? s : null;
}

/** A 6-digit code. */
export function otp(v: unknown): string | null {
  return typeof v === 'string' && /^[0-9]{6}$/.test(v) ? v : null;
}

/** `v` checked by `check`, or a FrameError with `message`. */
export function must<T>(v: T | null, message: string): T {
  if (v === null) throw new FrameError(message);
  return v;
}

/** The frame URL's parameters (docs/embedded-wallet.md §1). */
export interface FrameParams {
  projectId: string;
  chainId: number | null;
  version: string | null;
  enableLogger: boolean;
  rpcUrl: string | null;
  /** The modal's language (a BCP 47-like tag, i18n/i18n.ts resolves it), or null: English. */
  locale: string | null;
}

/** A BCP 47-like language tag (`es`, `pt-BR`, `zh-Hans-CN`) of at most 35 characters, or null. */
export function localeTag(v: unknown): string | null {
  return typeof v === 'string' && v.length <= 35 && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/.test(v) ? v : null;
}

/** The parameters of the frame URL's `search`, or null when projectId is missing or malformed. */
export function frameParams(search: string): FrameParams | null {
  if (search.length > 8192) return null;
  const q = new URLSearchParams(search);
  const projectId = q.get('projectId');
  if (!projectId || !/^[A-Za-z0-9_-]{1,128}$/.test(projectId)) return null;
  const version = q.get('version');
  return {
    projectId,
    // Numeric per the contract; a CAIP-2 `eip155:N` (what the core's frame_url test passes) reads the same.
    chainId: chainId(q.get('chainId')?.replace(/^eip155:/, '') ?? undefined),
    version: version ? text(version, 64) : null,
    enableLogger: q.get('enableLogger') === 'true',
    rpcUrl: httpUrl(q.get('rpcUrl') ?? undefined),
    locale: localeTag(q.get('locale')),
  };
}
