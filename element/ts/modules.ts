/**
 * The one loader of the host modules (the engine, and each lazily loaded module of
 * `core/src/modules.rs`): each module's wasm-bindgen glue and its `.wasm`, the latter named by a
 * literal `new URL('./file.wasm', import.meta.url)` — the pattern Vite, Rollup, webpack 5, Parcel
 * and esbuild all recognise — so that a dapp's bundler copies the file with its own build. (The
 * build rewrites the name to the hashed file it writes beside this chunk.) A failed load can be
 * tried again. `setWasmUrl` lets a host serve the files from elsewhere.
 */
import initEngine, { WasmHost as EngineHost, watchesHostRequest } from '../pkg/engine/wallet_modal_engine.js';
import type { ModuleName } from './routes.gen';

/** A host module's class, as every module's glue exports it (`element/host`'s `export_host!`). */
export interface WasmHost {
  dispatch(eventJson: string, nowMs: number): string;
  setOptions(optionsJson: string, nowMs: number): string;
  snapshot(): string;
  facts(): string;
  free(): void;
}

type Glue = { default: (o: { module_or_path: URL | string }) => Promise<unknown>; WasmHost: new (optionsJson: string) => WasmHost };

type Entry = { glue: () => Promise<Glue>; wasm: () => URL };

/** Where each module's code and `.wasm` are: the literal URLs are what bundlers follow. */
const MODULES: Partial<Record<ModuleName, Entry>> = {
  engine: {
    glue: async () => ({ default: initEngine, WasmHost: EngineHost }) as unknown as Glue,
    wasm: () => new URL('./wallet_modal_engine_bg.wasm', import.meta.url),
  },
  account: {
    glue: () => import('./account-glue') as unknown as Promise<Glue>,
    wasm: () => new URL('./wallet_modal_account_bg.wasm', import.meta.url),
  },
  embedded: {
    glue: () => import('../pkg/embedded/wallet_modal_embedded.js') as unknown as Promise<Glue>,
    wasm: () => new URL('./wallet_modal_embedded_bg.wasm', import.meta.url),
  },
};

/** A module used by few pages (sign-in) names its files in its own lazy chunk (`siwx.ts`), which
 * registers them here before the module is first needed. */
export function registerModule(name: ModuleName, entry: Entry): void {
  MODULES[name] ??= entry;
}

const overrides = new Map<ModuleName, string | URL>();
const loading = new Map<ModuleName, Promise<Glue>>();

/** Serves a module's `.wasm` from another place (a CDN, a bundler that moved it); before it loads. */
export function setWasmUrl(module: ModuleName, url: string | URL): void {
  overrides.set(module, url);
}

/** Fetches and instantiates a module once (shared by every element on the page). */
export function loadModule(name: ModuleName): Promise<Glue> {
  let p = loading.get(name);
  if (!p) {
    const m = MODULES[name];
    p = !m ? Promise.reject(new Error('not registered')) : m.glue().then(async (glue) => {
      await glue.default({ module_or_path: overrides.get(name) ?? m!.wasm() });
      return glue;
    });
    p.catch(() => loading.delete(name));
    loading.set(name, p);
  }
  return p.catch((err: unknown) => {
    throw new Error(`wallet-modal could not load its ${name} module: ${err instanceof Error ? err.message : String(err)}`);
  });
}

/** Whether the engine wants to hear of a host request with this method (after the engine loaded). */
export function engineWatches(namespace: string, method: string): boolean {
  return watchesHostRequest(namespace, method);
}
