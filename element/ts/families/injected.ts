/**
 * What the lazily loaded families' providers share (Bitcoin, Polkadot, Cosmos: loaded when the
 * host configures one of their networks, never in the initial load): the request interface the
 * engine speaks (`family::Checked`: `standard:connect` `[silent]`, `wallet-modal:chain`,
 * `wallet-modal:switchChain` `[caipNetworkId]`, `standard:disconnect`), its events, and errors with
 * a code the engine reads.
 */
import type { Eip1193Provider } from '../provider';
import type { NetworksState } from './index';
import { loadRules } from './rules';

/** What the family's rules (core/src/chain/<namespace>/, lazily loaded) say of a wallet's answer. */
export async function ruled<T>(ask: (rules: Awaited<ReturnType<typeof loadRules>>) => T): Promise<T> {
  const rules = await loadRules();
  try {
    return ask(rules);
  } catch (e) {
    throw new RequestError(-32603, e instanceof Error ? e.message : 'The wallet answered something this chain family does not have');
  }
}

/**
 * `provider.ts`'s reader of hostile objects, written again here: importing it would split it into a
 * chunk of its own that the initial load fetches too.
 */
export function readField(o: unknown, key: string): unknown {
  try {
    return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

export class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a connect request is silent (`[true]`: reconnecting, no prompt). */
export const silent = (params: unknown): boolean => Array.isArray(params) && params[0] === true;

export const str = (v: unknown, max = 4096): string => (typeof v === 'string' ? v.slice(0, max) : '');

/** A name as an id label: lower-case letters and digits, other runs a `-` (at most 40). */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'wallet'
  );
}

/** A method of a hostile object, bound to it; null without it. */
export function fn(o: unknown, name: string): ((...args: unknown[]) => unknown) | null {
  const f = readField(o, name);
  return typeof f === 'function' ? (f as (...args: unknown[]) => unknown).bind(o) : null;
}

/** A wallet's promise, bounded: a wallet that never answers is an error after `ms`. */
export function within<T>(p: unknown, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new RequestError(-32603, `The wallet did not answer ${what}`)), ms);
    Promise.resolve(p).then(
      (v) => (clearTimeout(t), resolve(v as T)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

/** A prompt may wait for the visitor this long; a silent question much less. */
export const PROMPT_MS = 5 * 60_000;
export const SILENT_MS = 10_000;

/**
 * The request interface's common part: listeners, and the chain the modal uses (a wallet of these
 * families has no current chain, or one the modal must follow), chosen among the host's networks of
 * the family (`chains()`: the active one first).
 */
export abstract class FamilyProvider implements Eip1193Provider {
  #listeners = new Map<string, Set<(data: unknown) => void>>();
  protected selected: string | null = null;

  constructor(
    protected readonly namespace: string,
    private readonly state: () => NetworksState | null,
  ) {}

  /** The host's networks of the family (CAIP-2), the active one first. */
  protected chains(): string[] {
    const s = this.state();
    const ids = (s?.networks ?? []).filter((n) => n.namespace === this.namespace).map((n) => n.caipNetworkId);
    const active = s?.network?.caipNetworkId;
    return active && ids.includes(active) ? [active, ...ids.filter((id) => id !== active)] : ids;
  }

  /** A wallet's accounts as the family's rules have them on `chain` (checked, written for it). */
  protected accountsOn(list: unknown, chain: string): Promise<string[]> {
    return ruled((r) => r.accountsOn(this.namespace, JSON.stringify(list), chain));
  }

  /** Tells the engine of the wallet's accounts on the chain used, once the rules checked them. */
  protected tell(list: unknown, chain = this.selected ?? this.chains()[0] ?? ''): void {
    void this.accountsOn(list, chain).then(
      (checked) => this.emit('accountsChanged', checked),
      () => {},
    );
  }

  abstract request(args: { method: string; params?: unknown }): Promise<unknown>;

  on(event: string, listener: (data: unknown) => void): void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  removeListener(event: string, listener: (data: unknown) => void): void {
    this.#listeners.get(event)?.delete(listener);
  }

  protected emit(event: string, data: unknown): void {
    for (const l of [...(this.#listeners.get(event) ?? [])]) {
      try {
        l(data);
      } catch {
        // A listener's own problem.
      }
    }
  }

  /** The chain used: the one selected, else the host's first of the family. */
  protected chain(): string {
    const chain = this.selected ?? this.chains()[0];
    if (!chain) throw new RequestError(4901, 'The page configures no network of this wallet');
    return chain;
  }

  /** The network a switch asks for (`[caipNetworkId]`), one of the host's networks. */
  protected target(params: unknown): string {
    const id = str(Array.isArray(params) ? params[0] : null, 80);
    if (!id || !this.chains().includes(id)) throw new RequestError(4902, 'The page does not configure this network');
    return id;
  }
}
