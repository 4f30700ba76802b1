// One transaction at a time per account and chain, across every frame of this origin (each tab of
// a dapp has its own frame): the pending nonce is read, the transaction signed and handed to the
// node inside one Web Lock, so two tabs never sign the same nonce. Without Web Locks (an old
// browser, Node in the tests) the queue is this document's. A node that still answers a nonce
// error (a transaction sent by some other wallet holding the key meanwhile) gets one retry with
// the nonce read again.

import { FrameError } from './messages.ts';

const local = new Map<string, Promise<unknown>>();

interface LockManager {
  request<T>(name: string, options: { mode: 'exclusive' }, fn: () => Promise<T>): Promise<T>;
}

function lockManager(): LockManager | null {
  const nav = (globalThis as { navigator?: { locks?: LockManager } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

/** The lock's name for `address` on `chainId`. */
export const nonceLockName = (chainId: number, address: string): string => `wm-frame/nonce/${chainId}/${address.toLowerCase()}`;

/** Runs `fn` holding the account's lock (queued behind whoever holds it). */
export function withNonceLock<T>(chainId: number, address: string, fn: () => Promise<T>): Promise<T> {
  const name = nonceLockName(chainId, address);
  const locks = lockManager();
  if (locks) return locks.request(name, { mode: 'exclusive' }, fn);
  const before = local.get(name) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => {});
  local.set(name, tail);
  void tail.then(() => {
    if (local.get(name) === tail) local.delete(name);
  });
  return run;
}

/** Whether the node refused a transaction for its nonce (used already, or too low). */
export function isNonceError(e: unknown): boolean {
  return e instanceof FrameError && /nonce too low|nonce has already been used|invalid nonce|already known|replacement transaction underpriced/i.test(e.message);
}
