//! wasm-bindgen bridge: the shell talks to the Buy screen's module (`wm_core::trade::module` with
//! the buy slice) through JSON strings, like the engine's bridge. Loaded when Buy is pressed.

use wasm_bindgen::prelude::*;
use wm_core::trade::module::TradeModule;
use wm_core::trade::buy::BuySlice;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the module's WebAssembly instance runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen]
pub struct WasmBuy {
    module: TradeModule<BuySlice>,
}

#[wasm_bindgen]
impl WasmBuy {
    /// Creates the module from the element's options (the same JSON the engine gets).
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> WasmBuy {
        WasmBuy { module: TradeModule::from_options_json(options_json) }
    }

    /// Handles one event (JSON) at `now_ms`: `{"effects": [...], "part": {...}}`.
    pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
        self.module.dispatch_json(event_json, now_ms)
    }
}

/// Whether a request id (of a `fetch` or `providerRequest` effect) is this module's.
#[wasm_bindgen(js_name = isModuleRequest)]
pub fn is_module_request(id: f64) -> bool {
    TradeModule::<BuySlice>::is_request(id)
}
