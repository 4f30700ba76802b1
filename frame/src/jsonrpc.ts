// JSON-RPC 2.0 over HTTP to the app's network (the request's rpcUrl): 10 s per call, an answer of at
// most 1 MB; a JSON-RPC error comes back as a FrameError with the node's message and code.

import { FrameError } from './messages.ts';
import { fetchText, HttpFailure, type Fetch } from './http.ts';

export const RPC_TIMEOUT_MS = 10_000;
export const RPC_MAX_BYTES = 1_000_000;

export type RpcCall = (method: string, params: unknown[]) => Promise<unknown>;

let nextId = 1;

/** A caller bound to `rpcUrl`. */
export function rpcClient(fetchFn: Fetch, rpcUrl: string): RpcCall {
  return async (method, params) => {
    const id = nextId++;
    let res: { status: number; text: string };
    try {
      res = await fetchText(
        fetchFn,
        rpcUrl,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
          credentials: 'omit',
          cache: 'no-store',
        },
        RPC_TIMEOUT_MS,
        RPC_MAX_BYTES,
      );
    } catch (e) {
      const kind = e instanceof HttpFailure ? e.kind : 'network';
      throw new FrameError(
        kind === 'timeout' ? 'The network did not answer in time' : kind === 'too-large' ? 'The network answer is too large' : 'Unable to reach the network',
        -32603,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new FrameError(`The network answered HTTP ${res.status}`, -32603);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new FrameError('The network sent an unexpected answer', -32603);
    }
    const b = body as { error?: unknown; result?: unknown };
    if (b.error !== undefined && b.error !== null) {
      const err = b.error as { message?: unknown; code?: unknown };
      const message = typeof err.message === 'string' ? err.message.slice(0, 1000) : 'RPC error';
      const code = typeof err.code === 'number' && Number.isSafeInteger(err.code) ? err.code : -32603;
      throw new FrameError(message, code);
    }
    if (!('result' in b)) throw new FrameError(`The network answered HTTP ${res.status}`, -32603);
    return b.result;
  };
}
