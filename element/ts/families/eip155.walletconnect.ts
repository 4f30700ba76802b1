/**
 * The `eip155` family over a WalletConnect session (in the WalletConnect chunk): the chains and
 * accounts of a settled session, chain id forms, and WalletConnect errors as EIP-1193 errors.
 */
import type { RpcErrorShape, SessionNamespace, WcSession } from '../wc-host';

const CHAIN_RE = /^eip155:[1-9][0-9]{0,17}$/;
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** A provider error as EIP-1193 describes it (`code`, `message`, optional `data`). */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** `eip155:N` → `0x…`. */
export function chainHex(chain: string): string {
  return `0x${BigInt(chain.slice('eip155:'.length)).toString(16)}`;
}

/**
 * A chain given as hex (`0x7a69`), decimal number or string, or CAIP-2 (`eip155:31337`), as CAIP-2;
 * null when it is none of these.
 */
export function toCaipChain(v: unknown): string | null {
  let n: bigint;
  try {
    if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && CHAIN_RE.test(v)) return v;
    else if (typeof v === 'string' && /^(0x[0-9a-fA-F]{1,16}|[0-9]{1,18})$/.test(v)) n = BigInt(v);
    else return null;
  } catch {
    return null;
  }
  const caip = `eip155:${n}`;
  return CHAIN_RE.test(caip) ? caip : null;
}

/** The chains one settled namespace covers: its key when that is a chain, its chains, its accounts' chains. */
function namespaceChains(key: string, ns: SessionNamespace): string[] {
  const out = new Set<string>(CHAIN_RE.test(key) ? [key] : []);
  for (const c of Array.isArray(ns.chains) ? ns.chains : []) if (CHAIN_RE.test(c)) out.add(c);
  for (const a of Array.isArray(ns.accounts) ? ns.accounts : []) {
    const chain = String(a).split(':').slice(0, 2).join(':');
    if (CHAIN_RE.test(chain)) out.add(chain);
  }
  return [...out];
}

function eip155Namespaces(session: WcSession): Array<[string, SessionNamespace]> {
  return Object.entries(session.namespaces ?? {}).filter(([key, ns]) => (key === 'eip155' || key.startsWith('eip155:')) && typeof ns === 'object' && ns !== null);
}

/** The session's EVM chains, in order. */
export function sessionChains(session: WcSession): string[] {
  return [...new Set(eip155Namespaces(session).flatMap(([key, ns]) => namespaceChains(key, ns)))];
}

/** Addresses the session holds on `chain` (deduplicated, in order). */
export function sessionAccounts(session: WcSession, chain: string): string[] {
  const accounts = eip155Namespaces(session).flatMap(([, ns]) => (Array.isArray(ns.accounts) ? ns.accounts : []));
  return addressesOf(accounts.filter((a) => typeof a === 'string' && a.startsWith(`${chain}:`)));
}

/** Whether the wallet allowed `method` on `chain`. */
export function allowsMethod(session: WcSession, chain: string, method: string): boolean {
  return eip155Namespaces(session).some(
    ([key, ns]) => namespaceChains(key, ns).includes(chain) && Array.isArray(ns.methods) && ns.methods.includes(method),
  );
}

/** Addresses from an `accountsChanged` payload (plain or CAIP-10); anything else is dropped. */
export function addressesOf(data: unknown): string[] {
  if (!Array.isArray(data)) return [];
  const out: string[] = [];
  for (const a of data) {
    if (typeof a !== 'string') continue;
    const address = a.split(':').pop() ?? '';
    if (ADDRESS_RE.test(address) && !out.some((x) => x.toLowerCase() === address.toLowerCase())) out.push(address);
  }
  return out;
}

/** The expiry (ms) written in a pairing URI (`expiryTimestamp`, unix seconds), or null. */
export function uriExpiryMs(uri: string): number | null {
  const m = /[?&]expiryTimestamp=([0-9]{1,12})(&|$)/.exec(uri);
  return m ? Number(m[1]) * 1000 : null;
}

/** A wallet's (or the client's) error as an EIP-1193 error: user rejection is 4001 everywhere. */
export function walletError(e: RpcErrorShape): ProviderRpcError {
  const code = typeof e.code === 'number' ? e.code : -32603;
  const message = typeof e.message === 'string' && e.message ? e.message : 'WalletConnect request failed';
  if (code >= 5000 && code <= 5003) return new ProviderRpcError(4001, message, { walletConnectCode: code });
  if (code === 8000) return new ProviderRpcError(-32603, `WalletConnect: ${message}`, { walletConnectCode: code });
  return new ProviderRpcError(code, message, e.data);
}
