/**
 * The families loaded lazily (Bitcoin, Polkadot, Cosmos) over a WalletConnect session (in the
 * WalletConnect chunk): their chains and accounts in a settled session, read as CAIP-2 and CAIP-10
 * (`bip122:<genesis>`, `polkadot:<genesis>`, `cosmos:<chain id>`). What a wallet answered is
 * checked by the families' rules (`rules.ts`) before the engine hears of it.
 */
import type { SessionNamespace, WcSession } from '../wc-host';

const NAMESPACES = ['bip122', 'polkadot', 'cosmos'];
const CHAIN_RE = /^(bip122|polkadot|cosmos):[-_a-zA-Z0-9]{1,64}$/;

export const isMoreChain = (chain: string): boolean => CHAIN_RE.test(chain);

function namespaces(session: WcSession): SessionNamespace[] {
  return Object.entries(session.namespaces ?? {})
    .filter(([key, ns]) => NAMESPACES.includes(key.split(':')[0]) && typeof ns === 'object' && ns !== null)
    .map(([, ns]) => ns);
}

const accountsOf = (ns: SessionNamespace): string[] => (Array.isArray(ns.accounts) ? ns.accounts.filter((a): a is string => typeof a === 'string' && a.length <= 200) : []);

/** The session's chains of these families, in order (its namespaces' chains and its accounts'). */
export function moreSessionChains(session: WcSession): string[] {
  const out = new Set<string>();
  for (const ns of namespaces(session)) {
    for (const c of Array.isArray(ns.chains) ? ns.chains : []) if (typeof c === 'string' && CHAIN_RE.test(c)) out.add(c);
    for (const a of accountsOf(ns)) {
      const chain = a.split(':').slice(0, 2).join(':');
      if (CHAIN_RE.test(chain)) out.add(chain);
    }
  }
  return [...out];
}

/** The addresses the session holds on `chain` (deduplicated, in order; the rules check them). */
export function moreSessionAccounts(session: WcSession, chain: string): string[] {
  const out: string[] = [];
  for (const a of namespaces(session).flatMap(accountsOf)) {
    if (!a.startsWith(`${chain}:`)) continue;
    const address = a.slice(chain.length + 1);
    if (/^[a-zA-Z0-9]{1,128}$/.test(address) && !out.includes(address)) out.push(address);
  }
  return out;
}

/** The accounts as the chain's family has them (checked, written for the network). */
export async function checkedAccounts(chain: string, accounts: string[]): Promise<string[]> {
  const { loadRules } = await import('./rules');
  const rules = await loadRules();
  return rules.accountsOn(chain.split(':')[0], JSON.stringify(accounts), chain);
}
