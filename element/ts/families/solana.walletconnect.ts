/**
 * The `solana` family over a WalletConnect session (in the WalletConnect chunk): its chains and
 * accounts in a settled session (`solana:<genesis reference>`, base58 addresses), and the params of
 * WalletConnect's Solana methods, which are one object where the core sends a one-item list.
 */
import type { SessionNamespace, WcSession } from '../wc-host';

const CHAIN_RE = /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/;
const ADDRESS_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const isSolanaChain = (chain: string): boolean => CHAIN_RE.test(chain);

function solanaNamespaces(session: WcSession): SessionNamespace[] {
  return Object.entries(session.namespaces ?? {})
    .filter(([key, ns]) => (key === 'solana' || key.startsWith('solana:')) && typeof ns === 'object' && ns !== null)
    .map(([, ns]) => ns);
}

const accountsOf = (ns: SessionNamespace): string[] => (Array.isArray(ns.accounts) ? ns.accounts.filter((a): a is string => typeof a === 'string') : []);

/** The session's Solana chains, in order (its namespaces' chains and its accounts' chains). */
export function solanaSessionChains(session: WcSession): string[] {
  const out = new Set<string>();
  for (const ns of solanaNamespaces(session)) {
    for (const c of Array.isArray(ns.chains) ? ns.chains : []) if (CHAIN_RE.test(c)) out.add(c);
    for (const a of accountsOf(ns)) {
      const chain = a.split(':').slice(0, 2).join(':');
      if (CHAIN_RE.test(chain)) out.add(chain);
    }
  }
  return [...out];
}

/** The addresses the session holds on a Solana `chain` (deduplicated, in order). */
export function solanaSessionAccounts(session: WcSession, chain: string): string[] {
  const out: string[] = [];
  for (const a of solanaNamespaces(session).flatMap(accountsOf)) {
    if (!a.startsWith(`${chain}:`)) continue;
    const address = a.slice(chain.length + 1);
    if (ADDRESS_RE.test(address) && !out.includes(address)) out.push(address);
  }
  return out;
}

/** WalletConnect's Solana methods take one object (`{transaction}`, `{message, pubkey}`). */
export function solanaParams(method: string, params: unknown): unknown {
  return method.startsWith('solana_') && Array.isArray(params) && params.length === 1 ? params[0] : params;
}
