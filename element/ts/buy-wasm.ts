/** The Buy screen's module (its own lazy chunk and wasm, loaded when the visitor presses Buy). */
import initWasm, { WasmBuy, isModuleRequest } from '../pkg/buy/wallet_modal_buy.js';
import wasmPath from '../pkg/buy/wallet_modal_buy_bg.wasm';
import { TradeBridge, type TradeHost } from './trade-bridge';

const KIND = {
  screen: 'buy',
  open: 'openBuy',
  events: new Set(['buySetPurchase', 'buySetPayment', 'buySetMethod', 'buySetAmount', 'buyChoose', 'buyReset']),
  timers: 'trade-buy-',
  isRequest: (id: number) => isModuleRequest(id),
} as const;

let loading: Promise<unknown> | null = null;

/** Fetches and instantiates the module once (a failed load can be retried), then a bridge. */
export async function load(host: TradeHost): Promise<TradeBridge> {
  loading ??= initWasm({ module_or_path: new URL(wasmPath as unknown as string, import.meta.url) }).catch((err: unknown) => {
    loading = null;
    throw new Error(`wallet-modal could not load its Buy module: ${String(err)}`);
  });
  await loading;
  return new TradeBridge(host, KIND, new WasmBuy(host.stringify(host.options())));
}
