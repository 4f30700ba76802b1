// The network a request signs on, as the approval names it. The chain id is what is signed and is
// always shown; the name and native currency come from this table for well-known chains (the
// embedding page cannot rename Ethereum), else from what the page says (marked as the site's
// name), else "Chain N" in ETH.

import { t } from '../i18n/i18n.ts';
import { shown } from './text.ts';

export interface NetworkShown {
  /** The EVM chain id, or a Solana network's CAIP-2 reference. */
  chainId: number | string;
  name: string;
  symbol: string;
  decimals: number;
  /** The name came from the embedding page (not a chain this frame knows). */
  namedBySite: boolean;
}

const KNOWN: Record<number, [string, string]> = {
  1: ['Ethereum', 'ETH'],
  10: ['OP Mainnet', 'ETH'],
  56: ['BNB Smart Chain', 'BNB'],
  100: ['Gnosis', 'XDAI'],
  137: ['Polygon', 'POL'],
  250: ['Fantom', 'FTM'],
  324: ['ZKsync Era', 'ETH'],
  8217: ['Kaia', 'KAIA'],
  8453: ['Base', 'ETH'],
  42161: ['Arbitrum One', 'ETH'],
  42220: ['Celo', 'CELO'],
  43114: ['Avalanche', 'AVAX'],
  11155111: ['Sepolia', 'ETH'],
  1313161554: ['Aurora', 'ETH'],
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How `chainId` is named, `said` being the page's `{name, symbol, decimals}` (optional, untrusted). */
export function networkShown(chainId: number, said: unknown): NetworkShown {
  const known = Object.hasOwn(KNOWN, chainId) ? KNOWN[chainId] : null;
  if (known) return { chainId, name: known[0], symbol: known[1], decimals: 18, namedBySite: false };
  const s = isRecord(said) ? said : {};
  const name = typeof s.name === 'string' ? shown(s.name, 40).trim() : '';
  const symbol = typeof s.symbol === 'string' ? shown(s.symbol, 12).trim() : '';
  const decimals = typeof s.decimals === 'number' && Number.isInteger(s.decimals) && s.decimals >= 0 && s.decimals <= 36 ? s.decimals : 18;
  // Anything the page said of a chain the frame does not know (its name, its currency's symbol or
  // decimals) is marked as the site's.
  const bySite = name !== '' || symbol !== '' || (isRecord(s) && s.decimals !== undefined && decimals !== 18);
  return { chainId, name: name || t('Chain {chainId}', { chainId }), symbol: symbol || 'ETH', decimals, namedBySite: bySite };
}

/** Solana's public networks by CAIP-2 reference. */
const SOLANA: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'Solana',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'Solana Devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'Solana Testnet',
};

/** How a Solana network (its CAIP-2 reference) is named: its currency is always SOL (9 decimals). */
export function solanaNetworkShown(reference: string, said: unknown): NetworkShown {
  if (Object.hasOwn(SOLANA, reference)) return { chainId: reference, name: SOLANA[reference], symbol: 'SOL', decimals: 9, namedBySite: false };
  const s = isRecord(said) ? said : {};
  const name = typeof s.name === 'string' ? shown(s.name, 40).trim() : '';
  return { chainId: reference, name: name || `Solana ${reference.slice(0, 8)}`, symbol: 'SOL', decimals: 9, namedBySite: name !== '' };
}
