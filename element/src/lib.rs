//! wasm-bindgen bridge: the `<wallet-modal>` shell talks to the core engine through JSON strings.
//!
//! Every call returns `{"effects": [...], "snapshot": {...}}`. Malformed input from the shell never
//! traps: it comes back as an `error` effect and the state is unchanged.

use wasm_bindgen::prelude::*;
use wm_core::engine::{Effect, Engine, Event, Options};

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the engine's WebAssembly module runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen]
pub struct WasmEngine {
    engine: Engine,
}

/// `{"effects": [...], "snapshot": {...}}`, written straight out (no `serde_json::Value` in between,
/// which would compile a second serializer for every effect and snapshot type).
fn output(effects: &[Effect], snapshot: &wm_core::engine::Snapshot) -> String {
    let mut buf = Vec::with_capacity(4096);
    buf.extend_from_slice(b"{\"effects\":");
    let ok = serde_json::to_writer(&mut buf, effects).is_ok();
    buf.extend_from_slice(b",\"snapshot\":");
    let ok = ok && serde_json::to_writer(&mut buf, snapshot).is_ok();
    buf.push(b'}');
    if !ok {
        return r#"{"effects":[],"snapshot":{}}"#.into();
    }
    String::from_utf8(buf).unwrap_or_default()
}

/// Where a JSON syntax error is, without serde's error text (formatting it pulls in float
/// formatting and serde's type descriptions).
fn syntax_error(err: serde_json::Error) -> String {
    format!("invalid JSON at line {}, column {}", err.line(), err.column())
}

fn parse_options(json: &str) -> Result<Options, String> {
    serde_json::from_str::<serde_json::Value>(json).map_err(syntax_error).and_then(Options::from_value)
}

fn bad_input(engine: &Engine, what: &str, err: String) -> String {
    let effect = Effect::Alert {
        key: "INVALID_EVENT".into(),
        message: format!("wallet-modal: ignored malformed {what}: {err}"),
        description: None,
        severity: "error".into(),
        delay_ms: 0,
    };
    output(&[effect], &engine.snapshot())
}

#[wasm_bindgen]
impl WasmEngine {
    /// Creates the engine from the element's options (JSON). Bad options fall back to defaults.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> WasmEngine {
        let options = parse_options(options_json).unwrap_or_default();
        WasmEngine { engine: Engine::new(options) }
    }

    /// Replaces the options (an attribute or property changed).
    #[wasm_bindgen(js_name = setOptions)]
    pub fn set_options(&mut self, options_json: &str, now_ms: f64) -> String {
        match parse_options(options_json) {
            Ok(options) => {
                self.engine.set_options(options);
                // A no-op event flushes the effects of the option change.
                let out = self.engine.handle(Event::Timer { id: String::new() }, now_ms as u64);
                output(&out.effects, &out.snapshot)
            }
            Err(e) => bad_input(&self.engine, "options", e),
        }
    }

    /// Handles one event (JSON) at `now_ms`.
    pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
        match serde_json::from_str::<serde_json::Value>(event_json).map_err(syntax_error).and_then(Event::from_value) {
            Ok(event) => {
                let out = self.engine.handle(event, now_ms as u64);
                output(&out.effects, &out.snapshot)
            }
            Err(e) => bad_input(&self.engine, "event", e),
        }
    }

    /// The current snapshot (JSON), for `getState()`.
    pub fn snapshot(&self) -> String {
        serde_json::to_string(&self.engine.snapshot()).unwrap_or_else(|_| "{}".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_events_come_back_as_an_alert_effect_without_changing_state() {
        let mut e = WasmEngine::new(r#"{"projectId":"p"}"#);
        let before = e.snapshot();
        let out: serde_json::Value = serde_json::from_str(&e.dispatch("{\"type\":\"nope\"}", 0.0)).unwrap();
        assert_eq!(out["effects"][0]["type"], "alert");
        assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
        assert_eq!(e.snapshot(), before);
        let out: serde_json::Value = serde_json::from_str(&e.dispatch("not json", 0.0)).unwrap();
        assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
    }

    #[test]
    fn bad_options_fall_back_to_defaults() {
        let e = WasmEngine::new("[1,2,3]");
        let snap: serde_json::Value = serde_json::from_str(&e.snapshot()).unwrap();
        assert_eq!(snap["configError"]["message"], "Project Id Not Configured");
    }

    #[test]
    fn dispatch_returns_effects_and_snapshot() {
        let mut e = WasmEngine::new(r#"{"projectId":"p","apiUrl":"http://127.0.0.1:1"}"#);
        let out: serde_json::Value = serde_json::from_str(&e.dispatch(r#"{"type":"open"}"#, 5.0)).unwrap();
        assert_eq!(out["snapshot"]["open"], true);
        assert_eq!(out["snapshot"]["view"], "Connect");
        assert!(out["effects"].as_array().unwrap().iter().any(|f| f["type"] == "emit" && f["name"] == "open"));
    }
}
