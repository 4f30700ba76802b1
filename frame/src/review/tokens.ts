// A token contract's symbol and decimals, read from the network with eth_call (`symbol()`,
// `decimals()`), for showing an ERC-20 amount in the token's units. The answers are hostile:
// bounded, hidden characters removed, and a token whose answers do not decode is shown in base
// units. Answers are kept per chain and contract for the life of the frame.

import { hexToString } from 'viem/utils';
import type { RpcCall } from '../jsonrpc.ts';
import { shown } from './text.ts';

export interface TokenInfo {
  symbol: string | null;
  decimals: number | null;
}

const SYMBOL = '0x95d89b41';
const DECIMALS = '0x313ce567';
/** A review waits this long for the token's answers, then shows base units. */
export const TOKEN_INFO_WAIT_MS = 1_500;
const MAX_ANSWER_CHARS = 2 + 64 * 8;
const MAX_SYMBOL = 16;
const cache = new Map<string, TokenInfo>();

/** An ABI `string` (or a `bytes32` of text, as old tokens answer) of at most 16 shown characters, else null. */
export function decodeSymbol(answer: unknown): string | null {
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]*$/.test(answer) || answer.length > MAX_ANSWER_CHARS) return null;
  const hex = answer.slice(2);
  let text: string;
  try {
    if (hex.length === 64) {
      text = hexToString(`0x${hex}`).replace(/\0+$/, '');
    } else {
      if (hex.length < 128) return null;
      const offset = Number(BigInt(`0x${hex.slice(0, 64)}`));
      if (offset !== 32) return null;
      const len = Number(BigInt(`0x${hex.slice(64, 128)}`));
      if (len > 64 || hex.length < 128 + len * 2) return null;
      text = hexToString(`0x${hex.slice(128, 128 + len * 2)}`);
    }
  } catch {
    return null;
  }
  const s = shown(text, MAX_SYMBOL).trim();
  return s && !s.includes('\uFFFD') ? s : null;
}

/** A `uint8` decimals answer of at most 36, else null. */
export function decodeDecimals(answer: unknown): number | null {
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(answer)) return null;
  const n = BigInt(answer);
  return n <= 36n ? Number(n) : null;
}

async function ask(call: RpcCall, to: string, data: string): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      call('eth_call', [{ to, data }, 'latest']),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(null), TOKEN_INFO_WAIT_MS);
      }),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The symbol and decimals of the token at `address` on `chainId`. */
export async function tokenInfo(call: RpcCall, chainId: number, address: string): Promise<TokenInfo> {
  const key = `${chainId}:${address.toLowerCase()}`;
  const known = cache.get(key);
  if (known) return known;
  const [symbol, decimals] = await Promise.all([ask(call, address, SYMBOL), ask(call, address, DECIMALS)]);
  const info = { symbol: decodeSymbol(symbol), decimals: decodeDecimals(decimals) };
  if (info.symbol !== null || info.decimals !== null) cache.set(key, info);
  return info;
}
