// eth_sendTransaction and wallet_sendCalls: a transaction request completed from the network
// (nonce, gas, fees), signed here, sent with eth_sendRawTransaction.

import { isAddress } from 'viem/utils';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { TransactionSerializable } from 'viem';
import { FrameError } from './messages.ts';
import { assertOwnAddress, INVALID_PARAMS } from './sign.ts';
import type { RpcCall } from './jsonrpc.ts';

type Hex = `0x${string}`;

/** What the app may set on a transaction; everything else is read from the network. */
export interface TxRequest {
  to?: Hex;
  value?: bigint;
  data?: Hex;
  gas?: bigint;
  nonce?: number;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const MAX_DATA_CHARS = 2 + 2 * 128 * 1024;
/** Fallback tip when the node has no eth_maxPriorityFeePerGas: 1 gwei. */
const DEFAULT_TIP = 1_000_000_000n;

const bad = (field: string) => new FrameError(`Invalid transaction: ${field}`, INVALID_PARAMS);

function quantity(v: unknown, field: string): bigint | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && QUANTITY.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw bad(field);
}

/** A quantity the node answered. */
export function hexQuantity(v: unknown, what: string): bigint {
  if (typeof v === 'string' && QUANTITY.test(v)) return BigInt(v);
  throw new FrameError(`The network sent an invalid ${what}`, -32603);
}

/**
 * The transaction of eth_sendTransaction's `params[0]` (or one call of wallet_sendCalls), for the
 * wallet `own` on `chainId`: `from`, when present, must be it (4100 otherwise), a `chainId` that
 * chain; `to` a checksum-valid address (absent to create a contract); quantities as 0x hex.
 */
export function parseTx(v: unknown, own: string, chainId: number): TxRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('not an object');
  const t = v as Record<string, unknown>;
  if (t.from !== undefined) assertOwnAddress(own, t.from);
  if (t.chainId !== undefined && t.chainId !== null && quantity(t.chainId, 'chainId') !== BigInt(chainId)) {
    throw new FrameError('Invalid transaction: the chainId is not the active chain', INVALID_PARAMS);
  }
  const tx: TxRequest = {};
  if (t.to !== undefined && t.to !== null) {
    if (typeof t.to !== 'string' || !isAddress(t.to)) throw bad('to');
    tx.to = t.to as Hex;
  }
  const data = t.data ?? t.input;
  if (data !== undefined && data !== null) {
    if (typeof data !== 'string' || data.length > MAX_DATA_CHARS || !DATA.test(data)) throw bad('data');
    tx.data = data as Hex;
  }
  if (tx.to === undefined && !tx.data) throw bad('a transaction without to must carry contract code');
  tx.value = quantity(t.value, 'value');
  tx.gas = quantity(t.gas ?? t.gasLimit, 'gas');
  const nonce = quantity(t.nonce, 'nonce');
  if (nonce !== undefined) {
    if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) throw bad('nonce');
    tx.nonce = Number(nonce);
  }
  tx.gasPrice = quantity(t.gasPrice, 'gasPrice');
  tx.maxFeePerGas = quantity(t.maxFeePerGas, 'maxFeePerGas');
  tx.maxPriorityFeePerGas = quantity(t.maxPriorityFeePerGas, 'maxPriorityFeePerGas');
  return tx;
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

type Fees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

/**
 * The fees: the app's own when it set them; else EIP-1559 when the latest block has a base fee
 * (tip from eth_maxPriorityFeePerGas, max fee = 2 × base fee + tip), else the legacy gas price.
 */
export async function fees(call: RpcCall, tx: TxRequest): Promise<Fees> {
  if (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined) {
    const tip = tx.maxPriorityFeePerGas ?? (await tip1559(call));
    const max = tx.maxFeePerGas ?? 2n * (await baseFee(call) ?? 0n) + tip;
    return { type: 'eip1559', maxFeePerGas: max, maxPriorityFeePerGas: tip < max ? tip : max };
  }
  if (tx.gasPrice !== undefined) return { type: 'legacy', gasPrice: tx.gasPrice };
  const base = await baseFee(call);
  if (base === null) return { type: 'legacy', gasPrice: hexQuantity(await call('eth_gasPrice', []), 'gas price') };
  const tip = await tip1559(call);
  return { type: 'eip1559', maxFeePerGas: 2n * base + tip, maxPriorityFeePerGas: tip };
}

async function baseFee(call: RpcCall): Promise<bigint | null> {
  const block = await call('eth_getBlockByNumber', ['latest', false]);
  const b = (block ?? {}) as { baseFeePerGas?: unknown };
  return b.baseFeePerGas === undefined || b.baseFeePerGas === null ? null : hexQuantity(b.baseFeePerGas, 'base fee');
}

async function tip1559(call: RpcCall): Promise<bigint> {
  try {
    return hexQuantity(await call('eth_maxPriorityFeePerGas', []), 'priority fee');
  } catch {
    return DEFAULT_TIP;
  }
}

/** Everything a signature needs: the app's fields, the rest from the network. */
export async function fillTx(call: RpcCall, tx: TxRequest, from: Hex, chainId: number): Promise<TransactionSerializable> {
  const estimate = () =>
    call('eth_estimateGas', [
      {
        from,
        ...(tx.to && { to: tx.to }),
        ...(tx.value !== undefined && { value: hex(tx.value) }),
        ...(tx.data && { data: tx.data }),
      },
    ]).then((g) => hexQuantity(g, 'gas estimate'));
  const [nonce, gas, fee] = await Promise.all([
    tx.nonce ?? call('eth_getTransactionCount', [from, 'pending']).then((n) => Number(hexQuantity(n, 'nonce'))),
    tx.gas ?? estimate(),
    fees(call, tx),
  ]);
  const common = { chainId, nonce, gas, to: tx.to ?? null, value: tx.value ?? 0n, data: tx.data };
  return fee.type === 'eip1559'
    ? { ...common, type: 'eip1559', maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas }
    : { ...common, type: 'legacy', gasPrice: fee.gasPrice };
}

/** Sign `filled` and send it; the transaction hash. `beforeSign` may throw to stop (an abort). */
export async function signAndSend(call: RpcCall, account: PrivateKeyAccount, filled: TransactionSerializable, beforeSign: () => void): Promise<Hex> {
  beforeSign();
  const raw = await account.signTransaction(filled);
  const hash = await call('eth_sendRawTransaction', [raw]);
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new FrameError('The network sent an invalid transaction hash', -32603);
  return hash as Hex;
}

/** eth_sendTransaction `[tx]` → the transaction hash. */
export async function sendTransaction(call: RpcCall, account: PrivateKeyAccount, params: readonly unknown[], chainId: number, beforeSign: () => void): Promise<Hex> {
  const tx = parseTx(params[0], account.address, chainId);
  return signAndSend(call, account, await fillTx(call, tx, account.address, chainId), beforeSign);
}

export const MAX_CALLS = 32;
const RECEIPT_WAIT_MS = 60_000;
const RECEIPT_POLL_MS = 1_000;

async function waitForReceipt(call: RpcCall, hash: Hex): Promise<void> {
  const until = Date.now() + RECEIPT_WAIT_MS;
  while (Date.now() < until) {
    if (await call('eth_getTransactionReceipt', [hash])) return;
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
}

/**
 * wallet_sendCalls `[{version, chainId?, from?, calls: [{to, value?, data?}]}]`: each call sent as
 * its own transaction, in order, with consecutive nonces; `{id: <the first hash>}`. A later call
 * whose gas cannot be estimated yet (it depends on an earlier one, e.g. approve then swap) is
 * estimated again once the earlier transaction is mined.
 */
export async function sendCalls(call: RpcCall, account: PrivateKeyAccount, params: readonly unknown[], chainId: number, beforeSign: () => void): Promise<{ id: Hex }> {
  const p = params[0];
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad('wallet_sendCalls expects [{calls}]');
  const req = p as Record<string, unknown>;
  if (req.from !== undefined) assertOwnAddress(account.address, req.from);
  if (req.chainId !== undefined && quantity(req.chainId, 'chainId') !== BigInt(chainId)) {
    throw new FrameError('wallet_sendCalls: the chainId is not the active chain', INVALID_PARAMS);
  }
  const calls = req.calls;
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_CALLS) throw bad('calls');
  const txs = calls.map((c) => parseTx(c, account.address, chainId));
  const from = account.address;
  const first = Number(hexQuantity(await call('eth_getTransactionCount', [from, 'pending']), 'nonce'));
  const hashes: Hex[] = [];
  for (const [i, tx] of txs.entries()) {
    const withNonce = { ...tx, nonce: first + i };
    let filled: TransactionSerializable;
    try {
      filled = await fillTx(call, withNonce, from, chainId);
    } catch (e) {
      if (i === 0 || tx.gas !== undefined) throw e;
      await waitForReceipt(call, hashes[i - 1]);
      filled = await fillTx(call, withNonce, from, chainId);
    }
    hashes.push(await signAndSend(call, account, filled, beforeSign));
  }
  return { id: hashes[0] };
}
