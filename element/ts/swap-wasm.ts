/** The Swap screen's module (its own lazy chunk and wasm, loaded when the visitor presses Swap). */
import initWasm, { WasmSwap, isModuleRequest } from '../pkg/swap/wallet_modal_swap.js';
import wasmPath from '../pkg/swap/wallet_modal_swap_bg.wasm';
import { TradeBridge, type TradeHost } from './trade-bridge';

const KIND = {
  screen: 'swap',
  open: 'openSwap',
  events: new Set(['swapSetFrom', 'swapSetTo', 'swapSetAmount', 'swapMax', 'swapFlip', 'swapApprove', 'swapConfirm']),
  timers: 'trade-swap-',
  isRequest: (id: number) => isModuleRequest(id),
} as const;

let loading: Promise<unknown> | null = null;

/** Fetches and instantiates the module once (a failed load can be retried), then a bridge. */
export async function load(host: TradeHost): Promise<TradeBridge> {
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) }).catch((err: unknown) => {
    loading = null;
    throw new Error(`wallet-modal could not load its Swap module: ${String(err)}`);
  });
  await loading;
  return new TradeBridge(host, KIND, new WasmSwap(host.stringify(host.options())));
}
