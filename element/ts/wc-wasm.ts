/**
 * Loads the WalletConnect WebAssembly module (the sans-IO sign client and the QR encoder) once.
 * Only ever reached through a dynamic `import()`, so the module stays out of the initial load.
 */
import initWasm, { WcClient, proposalNamespaces, qrSvg, relayAuthUrl } from '../pkg/wc/wallet_modal_wc.js';
import wasmPath from '../pkg/wc/wallet_modal_wc_bg.wasm';

export interface WcWasm {
  WcClient: typeof WcClient;
  qrSvg: typeof qrSvg;
  relayAuthUrl: typeof relayAuthUrl;
  proposalNamespaces: typeof proposalNamespaces;
}

let loading: Promise<WcWasm> | null = null;

/** Fetches and instantiates the module; a failed load can be retried. */
export function loadWcWasm(): Promise<WcWasm> {
  // The file loader gives a path string (wasm-bindgen's .d.ts types the import as the module).
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) }).then(
    () => ({ WcClient, qrSvg, relayAuthUrl, proposalNamespaces }),
    (err: unknown) => {
      loading = null;
      throw new Error(`wallet-modal could not load its WalletConnect module: ${String(err)}`);
    },
  );
  return loading;
}

export type { WcClient };
