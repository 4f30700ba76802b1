// eth_sendTransaction and wallet_sendCalls: a transaction request checked, completed from the
// network (gas, fees) BEFORE the visitor sees it, so that the approval shows the very fields that
// are signed; then, once approved, the nonce read and the transaction signed and sent inside the
// account's lock (nonce.ts).

import { isAddress } from 'viem/utils';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { TransactionSerializable } from 'viem';
import { FrameError } from './messages.ts';
import { isNonceError, withNonceLock } from './nonce.ts';
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

function callData(v: unknown, field: string): Hex | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > MAX_DATA_CHARS || !DATA.test(v)) throw bad(field);
  return v as Hex;
}

/** A quantity the node answered. */
export function hexQuantity(v: unknown, what: string): bigint {
  if (typeof v === 'string' && QUANTITY.test(v)) return BigInt(v);
  throw new FrameError(`The network sent an invalid ${what}`, -32603);
}

/**
 * The transaction of eth_sendTransaction's `params[0]` (or one call of wallet_sendCalls), for the
 * wallet `own` on `chainId`: `from`, when present, must be it (4100 otherwise), a `chainId` that
 * chain; `to` a checksum-valid address (absent to create a contract); quantities as 0x hex. The
 * call data is `data` or `input` (null counts as absent); both present and different is refused,
 * since wallets disagree on which one wins.
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
  const data = callData(t.data, 'data');
  const input = callData(t.input, 'input');
  if (data !== undefined && input !== undefined && data.toLowerCase() !== input.toLowerCase()) {
    throw bad('data and input differ (send one of them)');
  }
  const payload = data ?? input;
  if (payload !== undefined && payload !== '0x') tx.data = payload;
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
  if (tx.gasPrice !== undefined && (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined)) {
    throw bad('gasPrice cannot be set with maxFeePerGas or maxPriorityFeePerGas');
  }
  return tx;
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

export type Fees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

/**
 * The fees: the app's own when it set them; else EIP-1559 when the latest block has a base fee
 * (tip from eth_maxPriorityFeePerGas, max fee = 2 × base fee + tip), else the legacy gas price.
 */
export async function fees(call: RpcCall, tx: TxRequest): Promise<Fees> {
  if (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined) {
    const tip = tx.maxPriorityFeePerGas ?? (await tip1559(call));
    const max = tx.maxFeePerGas ?? 2n * ((await baseFee(call)) ?? 0n) + tip;
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

function estimate(call: RpcCall, tx: TxRequest, from: Hex): Promise<bigint> {
  return call('eth_estimateGas', [
    {
      from,
      ...(tx.to && { to: tx.to }),
      ...(tx.value !== undefined && { value: hex(tx.value) }),
      ...(tx.data && { data: tx.data }),
    },
  ]).then((g) => hexQuantity(g, 'gas estimate'));
}

/** A transaction ready to sign but for its nonce: what the approval shows. `gas` null: estimated when sent (it depends on an earlier call). */
export interface PreparedTx {
  to: Hex | null;
  value: bigint;
  data?: Hex;
  gas: bigint | null;
  fees: Fees;
  /** The app's own nonce, if it set one. */
  nonce?: number;
  request: TxRequest;
}

/** Gas and fees of `tx` (the app's, else the network's), before any approval. */
export async function prepareTx(call: RpcCall, tx: TxRequest, from: Hex, opts: { gasMayWait?: boolean; fees?: Fees } = {}): Promise<PreparedTx> {
  const [gas, fee] = await Promise.all([
    tx.gas !== undefined
      ? tx.gas
      : estimate(call, tx, from).catch((e: unknown) => {
          if (opts.gasMayWait) return null;
          throw e;
        }),
    opts.fees ?? fees(call, tx),
  ]);
  return { to: tx.to ?? null, value: tx.value ?? 0n, data: tx.data, gas, fees: fee, nonce: tx.nonce, request: tx };
}

/** The largest fee `p` can cost (gas × max fee per gas, or × gas price), or null while its gas is unknown. */
export function maxFee(p: PreparedTx): bigint | null {
  if (p.gas === null) return null;
  return p.gas * (p.fees.type === 'eip1559' ? p.fees.maxFeePerGas : p.fees.gasPrice);
}

/** The serializable transaction of `p` at `nonce` (gas given when `p` had none). */
export function serializable(p: PreparedTx, chainId: number, nonce: number, gas: bigint): TransactionSerializable {
  const common = { chainId, nonce, gas, to: p.to, value: p.value, data: p.data };
  return p.fees.type === 'eip1559'
    ? { ...common, type: 'eip1559', maxFeePerGas: p.fees.maxFeePerGas, maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas }
    : { ...common, type: 'legacy', gasPrice: p.fees.gasPrice };
}

async function pendingNonce(call: RpcCall, from: Hex): Promise<number> {
  return Number(hexQuantity(await call('eth_getTransactionCount', [from, 'pending']), 'nonce'));
}

async function sendRaw(call: RpcCall, raw: Hex): Promise<Hex> {
  const hash = await call('eth_sendRawTransaction', [raw]);
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new FrameError('The network sent an invalid transaction hash', -32603);
  return hash as Hex;
}

export const MAX_CALLS = 32;
const RECEIPT_WAIT_MS = 60_000;
const RECEIPT_POLL_MS = 1_000;

/** Whether `hash` was mined and succeeded within a minute. */
async function minedOk(call: RpcCall, hash: Hex): Promise<boolean> {
  const until = Date.now() + RECEIPT_WAIT_MS;
  while (Date.now() < until) {
    const receipt = (await call('eth_getTransactionReceipt', [hash])) as { status?: unknown } | null;
    if (receipt) return receipt.status === '0x1' || receipt.status === 1;
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
  return false;
}

/**
 * Signs and sends the prepared transactions in order, with consecutive nonces read inside the
 * account's lock (unless the app set them), and answers their hashes. `beforeSign` may throw to
 * stop (an abort, a session that ended). A node's nonce error is retried once with the nonce read
 * again. A transaction whose gas waited for the one before it is estimated once that one is mined.
 */
export function sendPrepared(call: RpcCall, account: PrivateKeyAccount, chainId: number, list: PreparedTx[], beforeSign: () => void | Promise<void>): Promise<Hex[]> {
  const from = account.address;
  return withNonceLock(chainId, from, async () => {
    const hashes: Hex[] = [];
    let next: number | null = null;
    for (const p of list) {
      try {
        let gas: bigint;
        if (p.gas !== null) gas = p.gas;
        else {
          // Its gas depends on the one before: estimated once that one is mined; a batch whose
          // earlier transaction reverted or never came stops there.
          if (hashes.length > 0 && !(await minedOk(call, hashes[hashes.length - 1]))) return hashes;
          gas = await estimate(call, p.request, from);
        }
        let nonce: number = p.nonce ?? next ?? (await pendingNonce(call, from));
        for (let attempt = 0; ; attempt++) {
          await beforeSign();
          const raw = await account.signTransaction(serializable(p, chainId, nonce, gas));
          try {
            hashes.push(await sendRaw(call, raw));
            break;
          } catch (e) {
            if (attempt > 0 || p.nonce !== undefined || !isNonceError(e)) throw e;
            nonce = await pendingNonce(call, from);
          }
        }
        next = nonce + 1;
      } catch (e) {
        // Once a transaction of the batch is on its way, the answer says so (its id), never an
        // error that would make the app send it again.
        if (hashes.length > 0) return hashes;
        throw e;
      }
    }
    return hashes;
  });
}

/** eth_sendTransaction `[tx]` prepared (checked, gas and fees filled). */
export async function prepareSendTransaction(call: RpcCall, own: Hex, params: readonly unknown[], chainId: number): Promise<PreparedTx> {
  return prepareTx(call, parseTx(params[0], own, chainId), own);
}

/**
 * wallet_sendCalls `[{version, chainId?, from?, calls: [{to, value?, data?}]}]` prepared: every call
 * checked, each with its gas (a later call whose gas cannot be estimated yet, because it depends
 * on an earlier one — approve then swap — is estimated once the earlier one is mined) and the same
 * fees per gas.
 */
export async function prepareSendCalls(call: RpcCall, own: Hex, params: readonly unknown[], chainId: number): Promise<PreparedTx[]> {
  const p = params[0];
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad('wallet_sendCalls expects [{calls}]');
  const req = p as Record<string, unknown>;
  if (req.from !== undefined) assertOwnAddress(own, req.from);
  if (req.chainId !== undefined && quantity(req.chainId, 'chainId') !== BigInt(chainId)) {
    throw new FrameError('wallet_sendCalls: the chainId is not the active chain', INVALID_PARAMS);
  }
  const calls = req.calls;
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_CALLS) throw bad('calls');
  const txs = calls.map((c) => {
    const tx = parseTx(c, own, chainId);
    // Consecutive nonces are the wallet's: a call's own nonce would break the batch.
    delete tx.nonce;
    return tx;
  });
  const first = await prepareTx(call, txs[0], own);
  const rest = await Promise.all(txs.slice(1).map((tx) => prepareTx(call, tx, own, { gasMayWait: true, fees: tx.gasPrice ?? tx.maxFeePerGas ?? tx.maxPriorityFeePerGas ? undefined : first.fees })));
  return [first, ...rest];
}

/** Prepare and send at once (no approval: for the tests of signing and sending themselves). */
export async function sendTransaction(call: RpcCall, account: PrivateKeyAccount, params: readonly unknown[], chainId: number, beforeSign: () => void): Promise<Hex> {
  const [hash] = await sendPrepared(call, account, chainId, [await prepareSendTransaction(call, account.address, params, chainId)], beforeSign);
  return hash;
}

/** wallet_sendCalls prepared and sent at once; `{id: <the first hash>}`. */
export async function sendCalls(call: RpcCall, account: PrivateKeyAccount, params: readonly unknown[], chainId: number, beforeSign: () => void): Promise<{ id: Hex }> {
  const hashes = await sendPrepared(call, account, chainId, await prepareSendCalls(call, account.address, params, chainId), beforeSign);
  return { id: hashes[0] };
}
