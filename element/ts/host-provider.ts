/**
 * The provider `getProvider()` gives the host: the connected wallet's own provider seen through a
 * Proxy that forwards everything unchanged (requests, results, errors, events, the wallet's flags
 * such as `isMetaMask`) and tells the element which requests the host made, so the modal can say
 * "Approve in your wallet" while one waits and read the balance again once a sent transaction is
 * mined.
 */
import { readField, type Eip1193Provider } from './provider';

export interface HostRequestWatcher {
  /** A request the engine wants to know of was made; returns its id, or null to ignore it. */
  started(method: string): number | null;
  /** That request ended: its result, or `failed`. */
  ended(id: number, result: unknown, failed: boolean): void;
}

const wrapped = new WeakMap<object, Eip1193Provider>();

/** The forwarding provider for `wallet` (the same object for the same wallet). */
export function forwardingProvider(wallet: Eip1193Provider, watcher: HostRequestWatcher): Eip1193Provider {
  const known = wrapped.get(wallet);
  if (known) return known;
  const request = (args: { method: string; params?: unknown }): Promise<unknown> => {
    const method = readField(args, 'method');
    const id = typeof method === 'string' ? watcher.started(method) : null;
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(wallet.request(args));
    } catch (err) {
      answer = Promise.reject(err);
    }
    if (id !== null) answer.then((result) => watcher.ended(id, result, false), () => watcher.ended(id, null, true));
    return answer;
  };
  // Methods are bound to the wallet (which may keep private fields), once each, so that
  // `provider.on === provider.on` holds as it does on the wallet itself.
  const bound = new Map<PropertyKey, { fn: unknown; bound: unknown }>();
  const proxy = new Proxy(wallet, {
    get(target, prop) {
      if (prop === 'request') return request;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const cached = bound.get(prop);
      if (cached?.fn === value) return cached.bound;
      const b = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { fn: value, bound: b });
      return b;
    },
  });
  wrapped.set(wallet, proxy);
  return proxy;
}
