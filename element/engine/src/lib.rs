//! The engine's WebAssembly module: the host of `wm_core::modules::Engine`, loaded at start-up.

use wasm_bindgen::prelude::*;

wallet_modal_host::export_host!(wm_core::modules::Engine);

/// Whether the engine wants a `hostRequest` event for this method of a namespace's provider (the
/// wallet prompts for it, or it sends a transaction): the shell asks before telling the engine.
#[wasm_bindgen(js_name = watchesHostRequest)]
pub fn watches_host_request(namespace: &str, method: &str) -> bool {
    wm_core::chain::family::host_requests(namespace).is_some_and(|a| a.watches(method))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn out(s: String) -> Value {
        serde_json::from_str(&s).unwrap()
    }

    #[test]
    fn malformed_events_come_back_as_an_alert_effect_without_changing_state() {
        let mut e = WasmHost::new(r#"{"projectId":"p"}"#);
        let before = e.snapshot();
        let o = out(e.dispatch("{\"type\":\"nope\"}", 0.0));
        assert_eq!(o["effects"][0]["type"], "alert");
        assert_eq!(o["effects"][0]["key"], "INVALID_EVENT");
        assert_eq!(e.snapshot(), before);
        assert_eq!(out(e.dispatch("not json", 0.0))["effects"][0]["key"], "INVALID_EVENT");
        let huge = format!(r#"{{"type":"open","view":"{}"}}"#, "x".repeat(3 * 1024 * 1024));
        assert_eq!(out(e.dispatch(&huge, 0.0))["effects"][0]["key"], "INVALID_EVENT", "an event over 2 MB is not even parsed");
    }

    #[test]
    fn a_malformed_wallet_answer_still_ends_its_request() {
        let mut e = WasmHost::new(r#"{"projectId":"p","apiUrl":"http://127.0.0.1:1","networks":["eip155:1"]}"#);
        e.dispatch(r#"{"type":"start","legacyNamespace":"eip155"}"#, 0.0);
        e.dispatch(r#"{"type":"open"}"#, 0.0);
        let o = out(e.dispatch(r#"{"type":"selectConnector","id":"injected"}"#, 0.0));
        let id = o["effects"].as_array().unwrap().iter().find(|f| f["type"] == "providerRequest").expect("a wallet request")["id"].as_u64().unwrap();
        assert_eq!(o["snapshot"]["connecting"]["state"], "pending");
        // An error whose code is not a number: the event is malformed, the request ends anyway.
        let bad = format!(r#"{{"type":"providerResult","id":{id},"error":{{"code":"x"}}}}"#);
        let o = out(e.dispatch(&bad, 0.0));
        assert_eq!(o["effects"][0]["key"], "INVALID_EVENT");
        assert_eq!(o["snapshot"]["connecting"]["state"], "error");
        assert_eq!(o["snapshot"]["connecting"]["error"]["message"], "Failed to connect");
    }

    #[test]
    fn bad_options_fall_back_to_defaults() {
        let e = WasmHost::new("[1,2,3]");
        assert_eq!(out(e.snapshot())["configError"]["message"], "Project Id Not Configured");
    }

    #[test]
    fn dispatch_returns_effects_notes_and_snapshot() {
        let mut e = WasmHost::new(r#"{"projectId":"p","apiUrl":"http://127.0.0.1:1"}"#);
        let o = out(e.dispatch(r#"{"type":"open"}"#, 5.0));
        assert_eq!(o["snapshot"]["open"], true);
        assert_eq!(o["snapshot"]["view"], "Connect");
        assert!(o["effects"].as_array().unwrap().iter().any(|f| f["type"] == "emit" && f["name"] == "open"));
        assert!(o["notes"].as_array().unwrap().iter().any(|n| n["note"] == "opened"), "what the other modules hear");
        let facts = out(e.facts());
        assert!(facts.as_array().unwrap().iter().any(|n| n["note"] == "frame" && n["frame"]["open"] == true && n["frame"]["view"] == "Connect"));
    }

    #[test]
    fn the_namespace_decides_which_host_requests_the_engine_hears() {
        assert!(watches_host_request("eip155", "eth_sendTransaction"));
        assert!(!watches_host_request("eip155", "eth_call"));
        assert!(!watches_host_request("solana", "eth_sendTransaction"), "no family, nothing watched");
    }
}
