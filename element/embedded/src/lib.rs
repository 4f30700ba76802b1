//! wasm-bindgen bridge: the shell talks to the embedded-wallet module (`wm_core::embedded::module`)
//! through JSON strings, like the engine's bridge. Loaded when the Connect view shows an email or
//! social row, or when a stored embedded session is restored.

use wasm_bindgen::prelude::*;
use wm_core::embedded::module::EmbeddedModule;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the module's WebAssembly instance runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen]
pub struct WasmEmbedded {
    module: EmbeddedModule,
}

#[wasm_bindgen]
impl WasmEmbedded {
    /// Creates the module from the element's options (the engine's JSON, plus `frameUrl`).
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> WasmEmbedded {
        WasmEmbedded { module: EmbeddedModule::from_options_json(options_json) }
    }

    /// Handles one event (JSON) at `now_ms`: `{"effects": [...], "part": {...}}`.
    pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
        self.module.dispatch_json(event_json, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_events_come_back_as_an_alert() {
        let mut m = WasmEmbedded::new(r#"{"projectId":"p","frameUrl":"http://127.0.0.1:1/frame"}"#);
        for bad in ["not json", r#"{"type":"nope"}"#, "[1]"] {
            let out: serde_json::Value = serde_json::from_str(&m.dispatch(bad, 1.0)).unwrap();
            assert_eq!(out["effects"][0]["key"], "INVALID_EVENT", "{bad}");
            assert_eq!(out["part"]["frame"], "idle");
        }
    }

    #[test]
    fn the_frame_url_comes_from_the_options_with_the_spec_parameters() {
        let mut m = WasmEmbedded::new(r#"{"projectId":"p","networks":["eip155:137"],"frameUrl":"http://127.0.0.1:1/frame"}"#);
        let out: serde_json::Value = serde_json::from_str(&m.dispatch(r#"{"type":"preload"}"#, 1.0)).unwrap();
        let load = out["effects"].as_array().unwrap().iter().find(|e| e["type"] == "frameLoad").unwrap();
        let url = load["url"].as_str().unwrap();
        assert!(url.starts_with("http://127.0.0.1:1/frame?projectId=p&chainId=137&version="), "{url}");
        assert!(url.contains("&enableLogger=false"), "{url}");
    }
}
