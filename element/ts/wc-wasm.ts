/**
 * Loads the WalletConnect WebAssembly module (the sans-IO sign client and the QR encoder) once.
 * Only ever reached through a dynamic `import()`, so the module stays out of the initial load.
 */
import initWasm, { WcClient, proposalNamespaces, qrSvg, relayAuthUrl } from '../pkg/wc/wallet_modal_wc.js';

export interface WcWasm {
  WcClient: typeof WcClient;
  qrSvg: typeof qrSvg;
  relayAuthUrl: typeof relayAuthUrl;
  proposalNamespaces: typeof proposalNamespaces;
}

let loading: Promise<WcWasm> | null = null;

/** Fetches and instantiates the module; a failed load can be retried. */
export function loadWcWasm(): Promise<WcWasm> {
  // A literal URL: the build writes the hashed file beside this chunk, and bundlers follow it.
  loading ??= initWasm({ module_or_path: new URL('./wallet_modal_wc_bg.wasm', import.meta.url) }).then(
    () => ({ WcClient, qrSvg, relayAuthUrl, proposalNamespaces }),
    (err: unknown) => {
      loading = null;
      throw new Error(`wallet-modal could not load its WalletConnect module: ${String(err)}`);
    },
  );
  return loading;
}

export type { WcClient };
