//! Unit tests of `connection`.

use super::*;

fn conn(id: &str, addr: &str, chain: &str) -> Connection {
    Connection { connector_id: id.into(), accounts: vec![addr.into()], caip_network_id: chain.into() }
}

#[test]
fn status_defaults_to_disconnected_per_namespace() {
    let s = ConnectionState::default();
    assert_eq!(s.status("eip155"), Status::Disconnected);
    assert_eq!(s.address("eip155"), None);
}

#[test]
fn connect_event_makes_connection_connected_and_current() {
    let mut s = ConnectionState::default();
    let change = s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert!(change.connected);
    assert_eq!(s.status("eip155"), Status::Connected);
    assert_eq!(s.current("eip155").unwrap().connector_id, "a");
    s.on_connect("eip155", conn("b", "0x2", "eip155:1"));
    assert_eq!(s.current("eip155").unwrap().connector_id, "b");
    assert_eq!(s.connections("eip155").len(), 2);
    assert_eq!(s.address("eip155"), Some("0x2"));
    assert_eq!(s.status("solana"), Status::Disconnected, "status is kept per namespace");
}

#[test]
fn reconnecting_the_same_connector_replaces_its_connection() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    s.on_connect("eip155", conn("a", "0x9", "eip155:10"));
    assert_eq!(s.connections("eip155").len(), 1);
    assert_eq!(s.address("eip155"), Some("0x9"));
}

#[test]
fn disconnecting_the_last_connection_gives_disconnected() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert!(s.on_disconnect("eip155", "a").disconnected);
    assert_eq!(s.status("eip155"), Status::Disconnected);
    assert!(s.current("eip155").is_none());
    assert_eq!(s.connector_id("eip155"), None);
}

#[test]
fn disconnecting_one_of_several_makes_the_first_remaining_current() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    s.on_connect("eip155", conn("b", "0x2", "eip155:1"));
    s.on_connect("eip155", conn("c", "0x3", "eip155:1"));
    s.on_disconnect("eip155", "c");
    assert_eq!(s.status("eip155"), Status::Connected);
    assert_eq!(s.current("eip155").unwrap().connector_id, "a");
}

#[test]
fn disconnecting_an_unknown_connector_changes_nothing() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert_eq!(s.on_disconnect("eip155", "zzz"), Change::default());
    assert_eq!(s.status("eip155"), Status::Connected);
}

#[test]
fn accounts_changed_updates_the_active_address() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert!(s.on_accounts_changed("eip155", "a", vec!["0x5".into()]).accounts_changed);
    assert_eq!(s.address("eip155"), Some("0x5"));
    assert!(!s.on_accounts_changed("eip155", "a", vec!["0x5".into()]).accounts_changed, "same list: no change");
}

#[test]
fn accounts_changed_to_empty_list_disconnects() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert!(s.on_accounts_changed("eip155", "a", vec![]).disconnected);
    assert_eq!(s.status("eip155"), Status::Disconnected);
}

#[test]
fn chain_changed_updates_the_connection_chain() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    assert!(s.on_chain_changed("eip155", "a", "eip155:10").chain_changed);
    assert_eq!(s.current("eip155").unwrap().caip_network_id, "eip155:10");
    assert!(!s.on_chain_changed("eip155", "b", "eip155:5").chain_changed, "unknown connector ignored");
}

#[test]
fn email_login_sets_connecting() {
    let mut s = ConnectionState::default();
    s.on_email_login("eip155");
    assert_eq!(s.status("eip155"), Status::Connecting);
}

#[test]
fn resetting_the_account_sets_disconnected_and_clears_connector_id() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    s.reset_account("eip155");
    assert_eq!(s.status("eip155"), Status::Disconnected);
    assert_eq!(s.connector_id("eip155"), None);
}

#[test]
fn disconnecting_clears_email_cache_last_used_chain_and_social_username() {
    assert_eq!(CLEARED_ON_DISCONNECT, ["emailCache", "lastUsedChain", "socialUsername"]);
}

#[test]
fn startup_with_reconnect_syncs_stored_connections_of_configured_namespaces() {
    let mut s = ConnectionState::default();
    let stored = vec![("eip155".to_string(), conn("a", "0x1", "eip155:1")), ("cosmos".to_string(), conn("k", "x", "cosmos:hub"))];
    let to_check = s.startup(true, &["eip155".into(), "solana".into()], stored);
    assert_eq!(to_check.len(), 1, "namespaces without networks are not reconnected");
    assert_eq!(s.status("eip155"), Status::Reconnecting);
    assert_eq!(s.status("solana"), Status::Disconnected);
}

#[test]
fn startup_without_reconnect_sets_every_namespace_disconnected() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    let to_check = s.startup(false, &["eip155".into()], vec![("eip155".into(), conn("a", "0x1", "eip155:1"))]);
    assert!(to_check.is_empty());
    assert_eq!(s.status("eip155"), Status::Disconnected);
    assert!(s.connections("eip155").is_empty());
}

#[test]
fn multi_wallet_states_are_active_connected_or_disconnected() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    s.on_connect("eip155", conn("b", "0x2", "eip155:1"));
    assert_eq!(s.wallet_state("eip155", "b"), WalletState::Active);
    assert_eq!(s.wallet_state("eip155", "a"), WalletState::Connected);
    assert_eq!(s.wallet_state("eip155", "c"), WalletState::Disconnected);
    assert!(s.make_current("eip155", "a"));
    assert_eq!(s.wallet_state("eip155", "a"), WalletState::Active);
    assert!(!s.make_current("eip155", "c"));
}

#[test]
fn disconnect_all_clears_the_namespace() {
    let mut s = ConnectionState::default();
    s.on_connect("eip155", conn("a", "0x1", "eip155:1"));
    s.on_connect("eip155", conn("b", "0x2", "eip155:1"));
    assert!(s.disconnect_all("eip155").disconnected);
    assert_eq!(s.status("eip155"), Status::Disconnected);
    assert!(s.all().is_empty());
}
