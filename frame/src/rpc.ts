// RPC_REQUEST: the allow-list (the same lists as the element's, core/src/service/validation.rs,
// spec §6) and what the frame does with each method.

import { FrameError } from './messages.ts';
import { httpUrl, chainId as parseChainId } from './validate.ts';
import { UNAUTHORIZED, INVALID_PARAMS } from './sign.ts';
import type { RpcCall } from './jsonrpc.ts';
import type { Keys } from './keys.ts';
import { prepare, type Prepared } from './prepare.ts';
import { networkShown, solanaNetworkShown, type NetworkShown } from './review/networks.ts';
import { prepareSolana } from './solana.ts';

/** Answered by the frame or forwarded to the app's RPC without the visitor's approval. */
export const SAFE_METHODS: ReadonlySet<string> = new Set([
  'eth_accounts',
  'eth_requestAccounts',
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getAccount',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_maxPriorityFeePerGas',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_newPendingTransactionFilter',
  'eth_sendRawTransaction',
  'eth_syncing',
  'eth_uninstallFilter',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  'wallet_getAssets',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_estimateUserOperationGas',
  'eth_supportedEntryPoints',
]);

/** Signed only after the visitor approved them in the frame's own approval. */
export const APPROVAL_METHODS: ReadonlySet<string> = new Set([
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_revokePermissions',
  'eth_sendUserOperation',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAllTransactions',
  'solana_signAndSendTransaction',
]);

/** Allowed, but not something this (EOA) wallet does. */
const UNSUPPORTED = new Set(['wallet_grantPermissions', 'wallet_revokePermissions', 'eth_sendUserOperation', 'solana_signAllTransactions']);

export type Permission = 'safe' | 'approval' | 'disallowed';

export function permission(method: string): Permission {
  if (SAFE_METHODS.has(method)) return 'safe';
  if (APPROVAL_METHODS.has(method)) return 'approval';
  return 'disallowed';
}

export const NOT_ALLOWED = () => new FrameError('Requested RPC call is not allowed', 4200);
export const NOT_CONNECTED = () => new FrameError('Not connected to email or social', UNAUTHORIZED);
export const USER_REJECTED = () => new FrameError('User rejected the request.', 4001);

/** A checked RPC_REQUEST payload. */
export interface RpcRequest {
  method: string;
  params: unknown[];
  /** The EVM chain id (0 on Solana). */
  chainId: number;
  /** A Solana network's CAIP-2 reference (the element's `chainNamespace: 'solana'`), else null. */
  solana: string | null;
  rpcUrl: string;
  /** How the page names the network (`{name, symbol, decimals}`, untrusted; see review/networks.ts). */
  network: unknown;
}

/**
 * The RPC_REQUEST payload checked: method a string of at most 64 characters, params an array (or
 * absent), a chain id, an http(s) rpcUrl. The element sends `rpcUrl: null` for a network it has no
 * RPC URL for: then `knownRpc(chainId)` (the frame URL's or SWITCH_NETWORK's, for that chain) is used.
 */
export function parseRpcRequest(payload: Record<string, unknown>, knownRpc: (chainId: number) => string | null = () => null): RpcRequest {
  const { method, params = [] } = payload;
  if (typeof method !== 'string' || method.length === 0 || method.length > 64) throw new FrameError('Invalid RPC request: method', INVALID_PARAMS);
  if (!Array.isArray(params)) throw new FrameError('Invalid RPC request: params', INVALID_PARAMS);
  if (payload.chainNamespace === 'solana') {
    // A Solana network: its CAIP-2 reference, and its node (always given: the frame keeps none).
    const ref = payload.chainId;
    if (typeof ref !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32}$/.test(ref)) throw new FrameError('Invalid RPC request: chainId', INVALID_PARAMS);
    const rpcUrl = httpUrl(payload.rpcUrl);
    if (rpcUrl === null) throw new FrameError('Invalid RPC request: rpcUrl', INVALID_PARAMS);
    return { method, params, chainId: 0, solana: ref, rpcUrl, network: payload.network };
  }
  const chainId = parseChainId(payload.chainId);
  if (chainId === null) throw new FrameError('Invalid RPC request: chainId', INVALID_PARAMS);
  const rpcUrl = payload.rpcUrl === null || payload.rpcUrl === undefined ? knownRpc(chainId) : httpUrl(payload.rpcUrl);
  if (rpcUrl === null) throw new FrameError('Invalid RPC request: rpcUrl', INVALID_PARAMS);
  return { method, params, chainId, solana: null, rpcUrl, network: payload.network };
}

export interface RpcContext {
  /** The keys while logged in, else null. */
  keys: Keys | null;
  /** A JSON-RPC caller for `rpcUrl`. */
  call: RpcCall;
  /** Throws when the request was aborted (RPC_ABORT) before it was signed. */
  checkAborted: () => void;
  /** Shows the prepared request in the frame's approval; true once the visitor approved it there. */
  consent: (prepared: Prepared, network: NetworkShown) => Promise<boolean>;
  /** Runs before each signature (the session checked at the service); throws to stop. */
  beforeSign?: () => Promise<void>;
}

/** The JSON-RPC result of `req`; throws a FrameError with the message (and code) to answer. */
export async function handleRpc(req: RpcRequest, ctx: RpcContext): Promise<unknown> {
  const { method, params, chainId } = req;
  const perm = permission(method);
  if (perm === 'disallowed') throw NOT_ALLOWED();
  switch (method) {
    case 'eth_accounts':
    case 'eth_requestAccounts':
      return ctx.keys ? [ctx.keys.address] : [];
    case 'eth_chainId':
      return `0x${chainId.toString(16)}`;
  }
  if (req.solana && !method.startsWith('solana_')) throw NOT_ALLOWED();
  if (!req.solana && method.startsWith('solana_')) throw NOT_ALLOWED();
  if (perm === 'safe') return ctx.call(method, params);
  if (!ctx.keys) throw NOT_CONNECTED();
  if (UNSUPPORTED.has(method)) throw new FrameError('Not supported by this wallet', 4200);
  const network = req.solana ? solanaNetworkShown(req.solana, req.network) : networkShown(chainId, req.network);
  const prepared =
    req.solana ? await prepareSolana(method, params, ctx.keys, network, ctx.call) : await prepare(method, params, ctx.keys.evm, network, ctx.call);
  ctx.checkAborted();
  if (!(await ctx.consent(prepared, network))) throw USER_REJECTED();
  return prepared.execute(async () => {
    ctx.checkAborted();
    await ctx.beforeSign?.();
  });
}
