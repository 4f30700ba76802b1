/** The Buy screen's module (its own lazy chunk and wasm, loaded when the visitor presses Buy). */
import initWasm, { WasmBuy, isModuleRequest } from '../pkg/buy/wallet_modal_buy.js';
import wasmPath from '../pkg/buy/wallet_modal_buy_bg.wasm';
import { tradeLoader } from './trade-bridge';

export const load = tradeLoader(initWasm, new URL(wasmPath as unknown as string, import.meta.url), (options) => new WasmBuy(options), {
  screen: 'buy',
  open: 'openBuy',
  events: new Set(['buySetPurchase', 'buySetPayment', 'buySetMethod', 'buySetAmount', 'buyChoose', 'buyReset']),
  timers: 'trade-buy-',
  isRequest: (id: number) => isModuleRequest(id),
});
