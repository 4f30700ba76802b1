//! wasm-bindgen bridge: the `<wallet-modal>` shell talks to the core engine through JSON strings.
//!
//! Every call returns `{"effects": [...], "snapshot": {...}}`. Malformed input from the shell never
//! traps: it comes back as an `error` effect and the state is unchanged.

use wasm_bindgen::prelude::*;
use wm_core::engine::{Effect, Engine, Event, Options, ProviderError};
use wm_core::service::json::{parse, Writer};

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the engine's WebAssembly module runs on one thread (no shared memory, no atomics).
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[wasm_bindgen]
pub struct WasmEngine {
    engine: Engine,
}

/// `{"effects": [...], "snapshot": {...}}`, written with the core's small JSON writer (serde_json
/// would compile a serializer and a `BTreeMap` per type into the WebAssembly).
fn output(effects: &[Effect], snapshot: &wm_core::engine::Snapshot) -> String {
    let mut w = Writer::new();
    w.begin_object().key("effects").begin_array();
    for e in effects {
        w.value(&e.to_json());
    }
    w.end_array().key("snapshot");
    snapshot.write_json(&mut w);
    w.end_object();
    w.finish()
}

fn parse_options(json: &str) -> Result<Options, String> {
    parse(json).map_err(|e| e.to_string()).and_then(Options::from_value)
}

fn malformed_alert(what: &str, err: String) -> Effect {
    Effect::Alert {
        key: "INVALID_EVENT".into(),
        message: format!("wallet-modal: ignored malformed {what}: {err}"),
        description: None,
        severity: "error".into(),
        delay_ms: 0,
    }
}

fn bad_input(engine: &Engine, what: &str, err: String) -> String {
    output(&[malformed_alert(what, err)], &engine.snapshot())
}

/// The id of a `providerResult` event, read on its own (when the rest of the event is malformed).
fn provider_answer_id(v: &wm_core::service::json::Value) -> Option<u64> {
    (v.get("type")?.as_str()? == "providerResult").then(|| v.get("id")?.as_u64()).flatten()
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
        let parsed = parse(event_json).map_err(|e| e.to_string());
        let answer_id = parsed.as_ref().ok().and_then(provider_answer_id);
        match parsed.and_then(Event::from_value) {
            Ok(event) => {
                let out = self.engine.handle(event, now_ms as u64);
                output(&out.effects, &out.snapshot)
            }
            // A wallet's answer the engine cannot read still ends its request (as a failure), so
            // that no request waits forever.
            Err(e) => match answer_id {
                Some(id) => {
                    let error = Some(ProviderError { code: None, message: Some("The wallet's answer could not be read".into()) });
                    let out = self.engine.handle(Event::ProviderResult { id, result: None, error }, now_ms as u64);
                    let mut effects = out.effects;
                    effects.insert(0, malformed_alert("event", e));
                    output(&effects, &out.snapshot)
                }
                None => bad_input(&self.engine, "event", e),
            },
        }
    }

    /// The current snapshot (JSON), for `getState()`.
    pub fn snapshot(&self) -> String {
        self.engine.snapshot().to_json_string()
    }
}

/// Whether the engine wants a `hostRequest` event for this method (see
/// `wm_core::engine::watches_host_request`).
#[wasm_bindgen(js_name = watchesHostRequest)]
pub fn watches_host_request(method: &str) -> bool {
    wm_core::engine::watches_host_request(method)
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
    fn a_malformed_wallet_answer_still_ends_its_request() {
        let mut e = WasmEngine::new(r#"{"projectId":"p","apiUrl":"http://127.0.0.1:1","networks":["eip155:1"]}"#);
        e.dispatch(r#"{"type":"start","legacyProvider":true}"#, 0.0);
        e.dispatch(r#"{"type":"open"}"#, 0.0);
        let out: serde_json::Value = serde_json::from_str(&e.dispatch(r#"{"type":"selectConnector","id":"injected"}"#, 0.0)).unwrap();
        let id = out["effects"].as_array().unwrap().iter().find(|f| f["type"] == "providerRequest").expect("a wallet request")["id"].as_u64().unwrap();
        assert_eq!(out["snapshot"]["connecting"]["state"], "pending");
        // An error whose code is not a number: the event is malformed, the request ends anyway.
        let bad = format!(r#"{{"type":"providerResult","id":{id},"error":{{"code":"x"}}}}"#);
        let out: serde_json::Value = serde_json::from_str(&e.dispatch(&bad, 0.0)).unwrap();
        assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
        assert_eq!(out["snapshot"]["connecting"]["state"], "error");
        assert_eq!(out["snapshot"]["connecting"]["error"]["message"], "Failed to connect");
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
