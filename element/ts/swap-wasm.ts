/** The Swap screen's module (its own lazy chunk and wasm, loaded when the visitor presses Swap). */
import initWasm, { WasmSwap, isModuleRequest } from '../pkg/swap/wallet_modal_swap.js';
import wasmPath from '../pkg/swap/wallet_modal_swap_bg.wasm';
import { tradeLoader } from './trade-bridge';

export const load = tradeLoader(initWasm, new URL(wasmPath as unknown as string, import.meta.url), (options) => new WasmSwap(options), {
  screen: 'swap',
  open: 'openSwap',
  events: new Set(['swapSetFrom', 'swapSetTo', 'swapSetAmount', 'swapMax', 'swapFlip', 'swapApprove', 'swapConfirm']),
  timers: 'trade-swap-',
  isRequest: (id: number) => isModuleRequest(id),
});
