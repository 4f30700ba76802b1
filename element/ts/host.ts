/**
 * The one bridge to a host module (the engine or a lazily loaded one): events in as JSON, and out
 * its effects, the notes its slices raised for the other modules, and its snapshot. Every string
 * that goes in is made well-formed first.
 */
import type { ModuleName } from './routes.gen';
import type { HostOutput } from './protocol';
import type { WasmHost } from './modules';
import { wellFormedReplacer } from './text';

const json = (v: unknown) => JSON.stringify(v, wellFormedReplacer);

export class ModuleHost {
  readonly name: ModuleName;
  readonly #inner: WasmHost;
  /** Its snapshot as last returned. */
  snapshot: Record<string, unknown>;

  constructor(name: ModuleName, inner: WasmHost) {
    this.name = name;
    this.#inner = inner;
    this.snapshot = JSON.parse(inner.snapshot()) as Record<string, unknown>;
  }

  dispatch(event: object): HostOutput {
    return this.#take(this.#inner.dispatch(json(event), Date.now()));
  }

  setOptions(options: object): HostOutput {
    return this.#take(this.#inner.setOptions(json(options), Date.now()));
  }

  /** The shared facts as notes, for a module that loads late. */
  facts(): unknown[] {
    return JSON.parse(this.#inner.facts()) as unknown[];
  }

  free(): void {
    this.#inner.free();
  }

  #take(text: string): HostOutput {
    const out = JSON.parse(text) as HostOutput;
    this.snapshot = out.snapshot;
    return out;
  }
}
