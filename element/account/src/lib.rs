//! wasm-bindgen bridge: the shell talks to the account module (the Account view's lazily loaded
//! slices, `wm_core::account::module`) through JSON strings, like the engine's bridge.
//!
//! Every call returns `{"effects": [...], "part": {...}}`. Malformed input never traps: it comes
//! back as an alert effect and the state is unchanged.

use wasm_bindgen::prelude::*;
use wm_core::account::module::{malformed_alert, AccountModule, ModuleEvent};
use wm_core::engine::{Effect, Options};
use wm_core::service::json::parse;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the module's WebAssembly instance runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

fn output(effects: &[Effect], part: &serde_json::Value) -> String {
    let effects: Vec<String> = effects.iter().map(|e| e.to_json().to_string()).collect();
    format!(r#"{{"effects":[{}],"part":{}}}"#, effects.join(","), part)
}

#[wasm_bindgen]
pub struct WasmAccount {
    module: AccountModule,
}

#[wasm_bindgen]
impl WasmAccount {
    /// Creates the module from the element's options (the same JSON the engine gets).
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> WasmAccount {
        let options = parse(options_json).map_err(|e| e.to_string()).and_then(Options::from_value).unwrap_or_default();
        WasmAccount { module: AccountModule::new(options) }
    }

    /// Handles one event (JSON) at `now_ms`.
    pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
        let event = serde_json::from_str::<serde_json::Value>(event_json).map_err(|e| e.to_string()).and_then(|v| ModuleEvent::from_json(&v));
        match event {
            Ok(e) => {
                let (effects, part) = self.module.handle(e, now_ms.max(0.0) as u64);
                output(&effects, &part)
            }
            Err(err) => output(&[malformed_alert(&err)], &self.module.part()),
        }
    }
}

/// Whether a request id (from a `fetch` effect) belongs to the account module's slices.
#[wasm_bindgen(js_name = isAccountRequest)]
pub fn is_account_request(id: f64) -> bool {
    id >= 0.0 && id.fract() == 0.0 && wm_core::engine::SliceId::of_request(id as u64).is_some_and(|s| s.in_account_module())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_events_come_back_as_an_alert_and_change_nothing() {
        let mut m = WasmAccount::new(r#"{"projectId":"p"}"#);
        let before = m.dispatch(r#"{"type":"selectAccountTab","tab":"tokens"}"#, 1.0);
        for bad in ["not json", r#"{"type":"nope"}"#, r#"[1]"#] {
            let out: serde_json::Value = serde_json::from_str(&m.dispatch(bad, 2.0)).unwrap();
            assert_eq!(out["effects"][0]["type"], "alert", "{bad}");
            assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
            let before: serde_json::Value = serde_json::from_str(&before).unwrap();
            assert_eq!(out["part"], before["part"]);
        }
    }

    #[test]
    fn only_the_account_slices_request_ids_are_the_modules() {
        assert!(is_account_request(16.0 * 3.0 + 5.0));
        assert!(is_account_request(16.0 * 3.0 + 6.0));
        assert!(!is_account_request(16.0 * 3.0 + 2.0), "the connect slice's");
        assert!(!is_account_request(-3.0) && !is_account_request(5.5));
    }
}
