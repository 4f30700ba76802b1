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
  return typeof p === 'object' && p !== null && typeof (p as Eip1193Provider).request === 'function';
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Listens for announcements and asks wallets to announce. Returns a stop function.
 * `onWallet` gets each new wallet once, keyed by its rdns (the engine's connector id).
 */
export function discoverWallets(onWallet: (info: Announcement, provider: Eip1193Provider) => void): () => void {
  const seen = new Set<string>();
  const listener = (event: Event) => {
    const detail = (event as CustomEvent).detail as { info?: Record<string, unknown>; provider?: unknown } | null;
    if (!detail || typeof detail !== 'object' || !detail.info || typeof detail.info !== 'object') return;
    const info: Announcement = {
      uuid: str(detail.info.uuid),
      name: str(detail.info.name),
      icon: str(detail.info.icon),
      rdns: str(detail.info.rdns),
    };
    if (!info.uuid || !info.rdns || !isProvider(detail.provider)) return;
    if (seen.has(`u:${info.uuid}`) || seen.has(`r:${info.rdns}`)) return;
    seen.add(`u:${info.uuid}`);
    seen.add(`r:${info.rdns}`);
    onWallet(info, detail.provider);
  };
  window.addEventListener('eip6963:announceProvider', listener);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  return () => window.removeEventListener('eip6963:announceProvider', listener);
}

/** The legacy injected provider, if any. */
export function legacyProvider(): Eip1193Provider | null {
  const eth = (window as unknown as { ethereum?: unknown }).ethereum;
  return isProvider(eth) ? eth : null;
}

/** Turns whatever a wallet rejected with into `{code, message}` (numbers and strings only). */
export function providerError(err: unknown): { code: number | null; message: string } {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'number' && Number.isInteger(e.code) ? e.code : null;
  const message = typeof e.message === 'string' ? e.message.slice(0, 500) : String(err).slice(0, 500);
  return { code, message };
}

/** A JSON-safe copy of a wallet's answer (cycles, functions and bigints become null). */
export function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return null;
  }
}
