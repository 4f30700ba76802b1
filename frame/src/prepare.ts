// A request that signs, prepared for the visitor: checked, completed from the network (gas, fees,
// token units) and turned into what the approval shows — from the very values that are then
// signed. `execute` signs (and sends) exactly those once the visitor approved.

import type { PrivateKeyAccount } from 'viem/accounts';
import { t } from './i18n/i18n.ts';
import { FrameError } from './messages.ts';
import type { RpcCall } from './jsonrpc.ts';
import { callShown, feeAmount, messageReview, typedDataReview, type CallShown, type Review, type Row } from './review/review.ts';
import { decodeCall, TOKEN_AMOUNT_CALLS } from './review/calls.ts';
import type { NetworkShown } from './review/networks.ts';
import { tokenInfo, type TokenInfo } from './review/tokens.ts';
import { parsePersonalSign, parseTypedDataRequest, signTypedData } from './sign.ts';
import { maxFee, prepareSendCalls, prepareSendTransaction, sendPrepared, type PreparedTx } from './tx.ts';

export interface Prepared {
  method: string;
  review: Review;
  /** Signs (and sends); `beforeSign` may throw to stop (an abort, a session that ended). */
  execute(beforeSign: () => void | Promise<void>): Promise<unknown>;
}

type Hex = `0x${string}`;

const gwei = (n: bigint) => `${feeAmount(n, 9, 'gwei').replace(/ gwei$/, '')} gwei`;

/** The gas and fee rows of one prepared transaction, exactly as signed. */
export function feeRows(p: PreparedTx, network: NetworkShown, waitsFor: number | null): Row[] {
  const rows: Row[] = [];
  rows.push([t('Gas limit'), p.gas === null ? t('estimated once transaction {n} is mined', { n: String(waitsFor) }) : p.gas.toString()]);
  if (p.fees.type === 'eip1559') {
    rows.push([t('Max fee per gas'), gwei(p.fees.maxFeePerGas)]);
    rows.push([t('Priority fee per gas'), gwei(p.fees.maxPriorityFeePerGas)]);
  } else {
    rows.push([t('Gas price'), gwei(p.fees.gasPrice)]);
  }
  const fee = maxFee(p);
  if (fee !== null) rows.push([p.fees.type === 'eip1559' ? t('Network fee (at most)') : t('Network fee'), feeAmount(fee, network.decimals, network.symbol)]);
  // A nonce the site chose can replace a pending transaction of yours, or wait to be sent later.
  if (p.nonce !== undefined) rows.push([t('Nonce (set by the site)'), p.nonce.toString()]);
  return rows;
}

async function tokenOf(call: RpcCall, chainId: number, p: PreparedTx): Promise<TokenInfo | null> {
  if (!p.to || !p.data) return null;
  const decoded = decodeCall(p.data);
  return decoded && TOKEN_AMOUNT_CALLS.has(decoded.name) ? tokenInfo(call, chainId, p.to) : null;
}

async function transactionsReview(call: RpcCall, chainId: number, list: PreparedTx[], network: NetworkShown): Promise<Review> {
  const tokens = await Promise.all(list.map((p) => tokenOf(call, chainId, p)));
  const calls: CallShown[] = [];
  const warnings: string[] = [];
  let total = 0n;
  let unknown = 0;
  list.forEach((p, i) => {
    const r = callShown(p, network, tokens[i], feeRows(p, network, i));
    calls.push(r.shown);
    for (const w of r.warnings) if (!warnings.includes(w)) warnings.push(w);
    const fee = maxFee(p);
    if (fee === null) unknown++;
    else total += fee;
  });
  const value = list.reduce((s, p) => s + p.value, 0n);
  const params = { amount: feeAmount(value + total, network.decimals, network.symbol), n: unknown };
  let shown: string;
  if (value > 0n) {
    if (unknown === 0) shown = t('{amount} at most (value and network fee)', params);
    else if (unknown === 1) shown = t('{amount} plus the gas of 1 later transaction at most (value and network fee)', params);
    else shown = t('{amount} plus the gas of {n} later transactions at most (value and network fee)', params);
  } else if (unknown === 0) shown = t('{amount} at most (network fee)', params);
  else if (unknown === 1) shown = t('{amount} plus the gas of 1 later transaction at most (network fee)', params);
  else shown = t('{amount} plus the gas of {n} later transactions at most (network fee)', params);
  return { kind: 'transactions', calls, total: shown, warnings };
}

/** `method` with `params`, for `account` on `network`, prepared; throws the FrameError to answer. */
export async function prepare(method: string, params: readonly unknown[], account: PrivateKeyAccount, network: NetworkShown, call: RpcCall): Promise<Prepared> {
  const chainId = network.chainId;
  if (typeof chainId !== 'number') throw new FrameError('Requested RPC call is not allowed', 4200);
  const own = account.address as Hex;
  switch (method) {
    case 'personal_sign': {
      const message = parsePersonalSign(params, own);
      return { method, review: messageReview(message), execute: async (before) => (await before(), account.signMessage({ message })) };
    }
    case 'eth_signTypedData_v4': {
      const td = parseTypedDataRequest(params, own, chainId);
      return { method, review: typedDataReview(td), execute: async (before) => (await before(), signTypedData(account, td)) };
    }
    case 'eth_sendTransaction': {
      const p = await prepareSendTransaction(call, own, params, chainId);
      return {
        method,
        review: await transactionsReview(call, chainId, [p], network),
        execute: async (before) => (await sendPrepared(call, account, chainId, [p], before))[0],
      };
    }
    case 'wallet_sendCalls': {
      const list = await prepareSendCalls(call, own, params, chainId);
      return {
        method,
        review: await transactionsReview(call, chainId, list, network),
        execute: async (before) => ({ id: (await sendPrepared(call, account, chainId, list, before))[0] }),
      };
    }
  }
  throw new FrameError('Requested RPC call is not allowed', 4200);
}
