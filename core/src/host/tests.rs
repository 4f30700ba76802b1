//! The engine itself: options, and the JSON of the snapshot and the effects.

use crate::host::harness::*;

#[test]
fn missing_project_id_shows_config_error_and_fires_error_event() {
    let mut h = Harness::new(json!({"projectId": "  "}));
    h.start(json!({}));
    assert_eq!(h.emitted("error").unwrap()["message"], "Project Id Not Configured");
    h.send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::ConfigError);
    assert!(h.snap.open);
    assert!(h.fetches().is_empty(), "nothing is fetched for a misconfigured element");
}

#[test]
fn unknown_network_ids_raise_network_not_found_in_debug() {
    let mut h = Harness::new(json!({"debug": true, "networks": ["eip155:1", "eip155:424242"]}));
    h.start(json!({}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "NETWORK_NOT_FOUND")));
    assert_eq!(h.snap.networks.len(), 1);
}

#[test]
fn the_engine_writes_exactly_the_snapshot_keys_its_slices_declare() {
    let mut h = Harness::new(json!({}));
    h.connect();
    // The engine's snapshot keys are exactly those its slices declare (`Slice::PARTS`); the protocol
    // test (test/node/protocol.test.mjs) checks them against element/ts/protocol.ts.
    let e = match &h.hosts_engine_snapshot() { Value::Object(o) => o.keys().cloned().collect::<Vec<_>>(), _ => panic!() };
    let mut keys: Vec<&str> = e.iter().map(String::as_str).collect();
    let mut expected: Vec<&str> = crate::modules::Engine::describe().iter().flat_map(|s| s.parts.iter().copied()).collect();
    keys.sort();
    expected.sort();
    assert_eq!(keys, expected);
    let v: Value = h.snap.raw.clone();
    assert_eq!(v["connection"], json!({"namespace": "eip155", "address": ADDR, "caipNetworkId": "eip155:31337", "connectorId": RDNS, "connectorName": "Demo Wallet"}));
    assert_eq!(v["status"]["eip155"], "connected");
    assert_eq!(v["walletFeatures"], json!(["onramp", "swaps", "receive", "send"]), "walletFeaturesOrder");
    assert_eq!(v["view"], "Connect");
    assert_eq!(v["connectors"][0]["kind"], "walletConnect");
    assert_eq!(v["network"]["caipNetworkId"], "eip155:31337");
    assert_eq!(v["allWallets"]["hasMore"], false);
}

#[test]
fn effects_serialise_tagged_by_type_in_camel_case() {
    let e = Effect::ProviderRequest { id: 7, connector_id: "c".into(), method: "eth_chainId".into(), params: crate::service::json::Value::Array(vec![]) };
    assert_eq!(e.to_json().to_string(), r#"{"type":"providerRequest","id":7,"connectorId":"c","method":"eth_chainId","params":[]}"#);
    let e = Effect::Alert { key: "K".into(), message: "m".into(), description: None, severity: "error".into(), delay_ms: 5 };
    assert_eq!(e.to_json().to_string(), r#"{"type":"alert","key":"K","message":"m","description":null,"severity":"error","delayMs":5}"#);
    assert_eq!(Effect::RestoreFocus.to_json().to_string(), r#"{"type":"restoreFocus"}"#);
    let e = Effect::Persist { key: "k".into(), value: None };
    assert_eq!(e.to_json().to_string(), r#"{"type":"persist","key":"k","value":null}"#);
}

