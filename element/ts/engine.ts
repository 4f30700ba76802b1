/** Loads the engine's WebAssembly module once and creates engines from it. */
import initWasm, { WasmEngine, watchesHostRequest } from '../pkg/engine/wallet_modal_element.js';
import wasmPath from '../pkg/engine/wallet_modal_element_bg.wasm';
import type { Snapshot } from './protocol';
import { wellFormedReplacer } from './text';

export interface Effect {
  type: string;
  [key: string]: unknown;
}

export interface EngineOutput {
  effects: Effect[];
  snapshot: Snapshot;
}

let loading: Promise<unknown> | null = null;

/** Fetches and instantiates the engine module (shared by every element on the page). */
export function loadEngine(): Promise<unknown> {
  // The file loader gives a path string (wasm-bindgen's .d.ts types the import as the module).
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) });
  return loading;
}

/** A typed wrapper around the wasm engine: JSON in, parsed output back. */
export class Engine {
  readonly #inner: WasmEngine;

  constructor(options: object) {
    this.#inner = new WasmEngine(JSON.stringify(options, wellFormedReplacer));
  }

  dispatch(event: object): EngineOutput {
    return JSON.parse(this.#inner.dispatch(JSON.stringify(event, wellFormedReplacer), Date.now())) as EngineOutput;
  }

  setOptions(options: object): EngineOutput {
    return JSON.parse(this.#inner.setOptions(JSON.stringify(options, wellFormedReplacer), Date.now())) as EngineOutput;
  }

  snapshot(): Snapshot {
    return JSON.parse(this.#inner.snapshot()) as Snapshot;
  }

  free(): void {
    this.#inner.free();
  }
}

/** Whether the engine wants to hear of a host request with this method (after `loadEngine()`). */
export function engineWatches(method: string): boolean {
  return watchesHostRequest(method);
}
