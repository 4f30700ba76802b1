//! wasm-bindgen bridge: the shell talks to the Swap screen's module (`wm_core::trade::module` with
//! the swap slice) through JSON strings, like the engine's bridge. Loaded when Swap is pressed.

use wasm_bindgen::prelude::*;
use wm_core::trade::module::TradeModule;
use wm_core::trade::swap::SwapSlice;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the module's WebAssembly instance runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen]
pub struct WasmSwap {
    module: TradeModule<SwapSlice>,
}

#[wasm_bindgen]
impl WasmSwap {
    /// Creates the module from the element's options (the same JSON the engine gets).
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> WasmSwap {
        WasmSwap { module: TradeModule::from_options_json(options_json) }
    }

    /// Handles one event (JSON) at `now_ms`: `{"effects": [...], "part": {...}}`.
    pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
        self.module.dispatch_json(event_json, now_ms)
    }
}

/// Whether a request id (of a `fetch` or `providerRequest` effect) is this module's.
#[wasm_bindgen(js_name = isModuleRequest)]
pub fn is_module_request(id: f64) -> bool {
    TradeModule::<SwapSlice>::is_request(id)
}
