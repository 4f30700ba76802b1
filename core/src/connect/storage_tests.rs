//! Unit tests of `storage`.

use super::*;
use proptest::prelude::*;

#[test]
fn stored_chain_id_restored_only_if_configured() {
    let configured = vec!["eip155:1".to_string(), "eip155:137".to_string()];
    assert_eq!(restorable_network(Some("eip155:137"), &configured), Some("eip155:137"));
    assert_eq!(restorable_network(Some("eip155:10"), &configured), None);
    assert_eq!(restorable_network(None, &configured), None);
    assert_eq!(restorable_network(Some("garbage"), &configured), None);
}

fn map(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

#[test]
fn stored_values_round_trip() {
    let conns = vec![(
        "eip155".to_string(),
        Connection { connector_id: "dev.walletmodal.demo".into(), accounts: vec![ADDR.into()], caip_network_id: "eip155:31337".into() },
    )];
    let entries: Vec<(String, String)> = [
        encode_wallet_id("dev.walletmodal.demo"),
        encode_active_network("eip155:31337"),
        encode_recent_wallets(&["a".into(), "b".into()]),
        encode_connections(&conns),
    ]
    .into_iter()
    .collect();
    let s = load(&entries);
    assert_eq!(s.wallet_id.as_deref(), Some("dev.walletmodal.demo"));
    assert_eq!(s.active_network.as_deref(), Some("eip155:31337"));
    assert_eq!(s.recent_wallets, vec!["a", "b"]);
    assert_eq!(s.connections, conns);
    assert!(s.ignored.is_empty());
}

#[test]
fn every_key_uses_the_namespaced_prefix() {
    for k in [KEY_WALLET_ID, KEY_ACTIVE_NETWORK, KEY_RECENT_WALLETS, KEY_CONNECTIONS, KEY_SIWX_SESSIONS, KEY_EMAIL_CACHE, KEY_LAST_USED_CHAIN, KEY_SOCIAL_USERNAME] {
        assert!(k.starts_with(PREFIX), "{k}");
    }
}

#[test]
fn corrupt_storage_values_are_ignored_and_reported() {
    let s = load(&map(&[
        (KEY_WALLET_ID, "{not json"),
        (KEY_ACTIVE_NETWORK, "\"eip155\""),
        (KEY_RECENT_WALLETS, "{\"a\":1}"),
        (KEY_CONNECTIONS, "[{\"namespace\":\"eip155\"}]"),
    ]));
    assert_eq!(s.wallet_id, None);
    assert_eq!(s.active_network, None);
    assert!(s.recent_wallets.is_empty());
    assert!(s.connections.is_empty());
    assert_eq!(s.ignored.len(), 4);
}

#[test]
fn foreign_connection_with_mismatched_namespace_or_bad_account_is_ignored() {
    let bad_ns = r#"[{"namespace":"solana","connectorId":"x","accounts":["0x1"],"caipNetworkId":"eip155:1"}]"#;
    assert!(load(&map(&[(KEY_CONNECTIONS, bad_ns)])).connections.is_empty());
    let bad_acct = r#"[{"namespace":"eip155","connectorId":"x","accounts":["a:b"],"caipNetworkId":"eip155:1"}]"#;
    assert!(load(&map(&[(KEY_CONNECTIONS, bad_acct)])).connections.is_empty());
    let markup_id = r#"[{"namespace":"eip155","connectorId":"<img>","accounts":["0x1"],"caipNetworkId":"eip155:1"}]"#;
    assert!(load(&map(&[(KEY_CONNECTIONS, markup_id)])).connections.is_empty());
}

#[test]
fn oversized_values_are_ignored() {
    let big = format!("\"{}\"", "a".repeat(MAX_VALUE_BYTES + 1));
    let s = load(&map(&[(KEY_WALLET_ID, &big)]));
    assert_eq!(s.wallet_id, None);
    assert_eq!(s.ignored, vec![KEY_WALLET_ID.to_string()]);
}

#[test]
fn recent_wallets_keep_two_most_recent_first() {
    let r = push_recent(&[], "a");
    let r = push_recent(&r, "b");
    let r = push_recent(&r, "c");
    assert_eq!(r, vec!["c", "b"]);
    assert_eq!(push_recent(&r, "b"), vec!["b", "c"], "re-used wallet moves to the front");
    let s = load(&map(&[(KEY_RECENT_WALLETS, r#"["x","y","x","z"]"#)]));
    assert_eq!(s.recent_wallets, vec!["x", "y"]);
}

#[test]
fn stored_chain_restored_only_if_configured() {
    let configured = vec!["eip155:1".to_string(), "eip155:10".to_string()];
    assert_eq!(restorable_network(Some("eip155:10"), &configured), Some("eip155:10"));
    assert_eq!(restorable_network(Some("eip155:5"), &configured), None);
    assert_eq!(restorable_network(None, &configured), None);
}

proptest! {
    #[test]
    fn loading_arbitrary_storage_never_panics(a in ".*", b in ".*", c in ".*", d in ".*") {
        let s = load(&map(&[(KEY_WALLET_ID, &a), (KEY_ACTIVE_NETWORK, &b), (KEY_RECENT_WALLETS, &c), (KEY_CONNECTIONS, &d)]));
        prop_assert!(s.recent_wallets.len() <= 2);
    }
}

// ----- read by hand like the derived deserializers -----

use crate::host::json::FromJson;
use serde_json::json;

#[test]
fn stored_connections_read_like_the_derived_deserializer() {
    for s in [
        json!({"namespace": "eip155", "connectorId": "a", "accounts": ["0x1"], "caipNetworkId": "eip155:1"}),
        json!({"namespace": "eip155", "connectorId": "a", "accounts": ["0x1"], "caipNetworkId": "eip155:1", "extra": 1}),
        json!({"namespace": "eip155", "connectorId": "a", "accounts": ["0x1"]}),
        json!({"namespace": "eip155", "connectorId": "a", "accounts": "0x1", "caipNetworkId": "eip155:1"}),
        json!([]),
    ] {
        assert_eq!(StoredConnection::from_json(s.clone().into()).ok(), serde_json::from_value::<StoredConnection>(s.clone()).ok(), "{s}");
    }
}
