//! Flows through the whole engine: events in, effects and snapshots out, with the wallet and the
//! servers played by the test.

use super::*;
use serde_json::{json, Value};

const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const RDNS: &str = "dev.walletmodal.demo";

fn anvil(id: u64) -> Value {
    json!({"id": id, "caipNetworkId": format!("eip155:{id}"), "name": format!("Anvil {id}"), "chainNamespace": "eip155",
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "rpcUrls": {"default": {"http": [format!("http://127.0.0.1:{}", 8000 + id % 1000)]}}, "testnet": true})
}

fn options(extra: Value) -> Options {
    let mut o = json!({"projectId": "p", "apiUrl": "http://api.test", "analyticsUrl": "http://pulse.test", "origin": "http://127.0.0.1:5000",
        "networks": [anvil(31337), anvil(31338)]});
    if let (Some(o), Some(e)) = (o.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(o).unwrap()
}

struct Harness {
    engine: Engine,
    now: u64,
    effects: Vec<Effect>,
    snap: Snapshot,
}

impl Harness {
    fn new(extra: Value) -> Harness {
        let engine = Engine::new(options(extra));
        let snap = engine.snapshot();
        Harness { engine, now: 1_000, effects: Vec::new(), snap }
    }

    fn send(&mut self, event: Value) -> &mut Self {
        let event: Event = serde_json::from_value(event).unwrap();
        let out = self.engine.handle(event, self.now);
        self.effects = out.effects;
        self.snap = out.snapshot;
        self
    }

    fn start(&mut self, storage: Value) -> &mut Self {
        self.send(json!({"type": "start", "storage": storage, "legacyProvider": false}))
    }

    fn announce(&mut self) -> &mut Self {
        self.send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "Demo Wallet", "icon": "data:image/svg+xml;base64,AA==", "rdns": RDNS}))
    }

    /// The provider request with this method among the last effects.
    fn request(&self, method: &str) -> (u64, Value) {
        self.effects
            .iter()
            .find_map(|e| match e {
                Effect::ProviderRequest { id, method: m, params, .. } if m == method => Some((*id, serde_json::to_value(params).unwrap())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {method} request in {:?}", self.effects))
    }

    fn answer(&mut self, method: &str, result: Value) -> &mut Self {
        let (id, _) = self.request(method);
        self.send(json!({"type": "providerResult", "id": id, "result": result}))
    }

    fn reject(&mut self, method: &str, code: i64) -> &mut Self {
        let (id, _) = self.request(method);
        self.send(json!({"type": "providerResult", "id": id, "error": {"code": code, "message": "no"}}))
    }

    fn fetches(&self) -> Vec<(u64, String)> {
        self.effects.iter().filter_map(|e| match e { Effect::Fetch { id, url, .. } => Some((*id, url.clone())), _ => None }).collect()
    }

    fn emitted(&self, name: &str) -> Option<Value> {
        self.effects.iter().find_map(|e| match e { Effect::Emit { name: n, detail } if *n == name => Some(serde_json::to_value(detail).unwrap()), _ => None })
    }

    fn persisted(&self, key: &str) -> Option<Option<String>> {
        self.effects.iter().find_map(|e| match e { Effect::Persist { key: k, value } if k == key => Some(value.clone()), _ => None })
    }

    fn connect(&mut self) -> &mut Self {
        self.start(json!({})).announce().send(json!({"type": "open"}));
        self.send(json!({"type": "selectConnector", "id": RDNS}));
        self.answer("eth_requestAccounts", json!([ADDR.to_lowercase()]));
        self.answer("eth_chainId", json!("0x7a69"))
    }
}

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
fn nothing_is_fetched_before_open() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce();
    assert!(h.fetches().is_empty());
    h.send(json!({"type": "open"}));
    let urls: Vec<String> = h.fetches().into_iter().map(|(_, u)| u).collect();
    assert!(urls.iter().any(|u| u.starts_with("http://api.test/appkit/v1/config?projectId=p")));
    assert!(urls.iter().any(|u| u.starts_with("http://api.test/projects/v1/origins")));
    assert!(urls.iter().any(|u| u.contains("/getWallets?") && u.contains("entries=4")), "recommended wallets for Connect");
    h.send(json!({"type": "close"})).send(json!({"type": "open"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/appkit/v1/config")), "config is fetched once");
}

#[test]
fn basic_mode_fetches_no_remote_config() {
    let mut h = Harness::new(json!({"basic": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/appkit/v1/config") || u.contains("/getAnalyticsConfig")));
}

#[test]
fn connect_flow_connects_emits_persists_and_closes() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::Connect);
    let ids: Vec<&str> = h.snap.connectors.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids[..2], ["walletConnect", RDNS], "WalletConnect first, then the announced wallet");
    h.send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.view, View::ConnectingExternal);
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connecting));
    h.answer("eth_requestAccounts", json!([ADDR.to_lowercase()]));
    h.answer("eth_chainId", json!("0x7a69"));
    let detail = h.emitted("connect").unwrap();
    assert_eq!(detail["address"], ADDR, "address checksummed");
    assert_eq!(detail["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert_eq!(detail["chainId"], 31337);
    assert_eq!(detail["connectorId"], RDNS);
    assert_eq!(detail["connectorName"], "Demo Wallet");
    assert!(h.emitted("close").is_some(), "the modal closes after connecting");
    assert!(h.persisted(storage::KEY_CONNECTIONS).unwrap().unwrap().contains(ADDR));
    assert_eq!(h.persisted(storage::KEY_RECENT_WALLETS).unwrap().unwrap(), format!("[\"{RDNS}\"]"));
    let account = h.snap.account.clone().unwrap();
    assert_eq!(account.short_address, "0xf3...b92266");
    assert_eq!(account.avatar.len(), 5);
    assert!(h.fetches().iter().any(|(_, u)| u == "http://127.0.0.1:8337"), "balance read from the network's RPC");
}

#[test]
fn balance_is_floored_to_3_decimals_and_cached_30_seconds() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let (id, _) = h.fetches()[0].clone();
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x21e19e0c9bab2400000\"}"}));
    assert_eq!(h.snap.account.as_ref().unwrap().balance.as_deref(), Some("10,000.000"));
    h.send(json!({"type": "open"}));
    assert!(h.fetches().iter().all(|(_, u)| !u.contains("8337")), "fresh balance not fetched again");
    h.send(json!({"type": "close"}));
    h.now += 30_000;
    h.send(json!({"type": "open"}));
    assert!(h.fetches().iter().any(|(_, u)| u.contains("8337")), "refetched after 30 s");
}

#[test]
fn rejected_connection_shows_connection_rejected_and_retry_asks_again() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.reject("eth_requestAccounts", 4001);
    let c = h.snap.connecting.clone().unwrap();
    assert_eq!(c.state, "error");
    assert_eq!(c.error.unwrap().message, "Connection rejected");
    assert_eq!(h.emitted("error").unwrap()["message"], "Connection rejected");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    h.send(json!({"type": "retry"}));
    assert!(h.request("eth_requestAccounts").0 > 0);
    assert_eq!(h.snap.connecting.unwrap().state, "pending");
}

#[test]
fn other_connection_failures_show_failed_to_connect() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.reject("eth_requestAccounts", -32603);
    assert_eq!(h.snap.connecting.clone().unwrap().error.unwrap().message, "Failed to connect");
    h.send(json!({"type": "retry"}));
    h.answer("eth_requestAccounts", json!(["not an address"]));
    assert_eq!(h.snap.connecting.unwrap().error.unwrap().message, "Failed to connect", "hostile accounts refused");
}

#[test]
fn switch_network_asks_the_wallet_and_follows_chain_changed() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    assert_eq!(h.snap.view, View::SwitchNetwork);
    let (_, params) = h.request("wallet_switchEthereumChain");
    assert_eq!(params, json!([{"chainId": "0x7a6a"}]));
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.emitted("networkchange").unwrap()["caipNetworkId"], "eip155:31338");
    assert_eq!(h.snap.network.as_ref().unwrap().caip_network_id, "eip155:31338");
    assert_eq!(h.snap.view, View::Account);
    assert!(h.persisted(storage::KEY_ACTIVE_NETWORK).is_some());
}

#[test]
fn switch_to_unknown_chain_adds_it_on_4902() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4902);
    let (_, params) = h.request("wallet_addEthereumChain");
    assert_eq!(params[0]["chainId"], "0x7a6a");
    assert_eq!(params[0]["rpcUrls"], json!(["http://127.0.0.1:8338"]));
    h.answer("wallet_addEthereumChain", Value::Null);
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31338");
}

#[test]
fn failed_switch_navigates_back() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "SwitchNetwork"}));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4001);
    assert_eq!(h.snap.view, View::Account);
    assert!(h.snap.switching.is_none());
    assert_eq!(h.emitted("error").unwrap()["code"], 4001);
}

#[test]
fn wallet_on_unconfigured_chain_shows_unsupported_chain() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x1"}));
    assert_eq!(h.emitted("networkchange").unwrap()["supported"], false);
    h.send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::UnsupportedChain);
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a69"}));
    assert_eq!(h.snap.view, View::Account);
}

#[test]
fn accounts_changed_updates_account_and_empty_list_disconnects() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "accountsChanged", "data": [other]}));
    assert_eq!(h.emitted("accountschange").unwrap()["address"], other);
    assert_eq!(h.snap.account.as_ref().unwrap().address, other);
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "accountsChanged", "data": []}));
    assert!(h.emitted("disconnect").is_some());
    assert!(h.snap.account.is_none());
}

#[test]
fn events_from_a_wallet_that_is_not_connected_are_ignored() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "providerEvent", "connectorId": "com.other", "name": "accountsChanged", "data": []}));
    assert!(h.snap.account.is_some());
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": {"evil": true}}));
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31337");
}

#[test]
fn disconnect_clears_connection_storage_and_returns_to_connect() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::Account);
    h.send(json!({"type": "disconnect"}));
    assert_eq!(h.emitted("disconnect").unwrap()["connectorId"], RDNS);
    assert_eq!(h.persisted(storage::KEY_WALLET_ID), Some(None));
    assert_eq!(h.persisted(storage::KEY_EMAIL_CACHE), Some(None));
    assert_eq!(h.persisted(storage::KEY_LAST_USED_CHAIN), Some(None));
    assert_eq!(h.persisted(storage::KEY_SOCIAL_USERNAME), Some(None));
    assert_eq!(h.persisted(storage::KEY_CONNECTIONS), Some(Some("[]".into())));
    assert_eq!(h.snap.view, View::Connect);
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    h.request("wallet_revokePermissions");
}

fn stored_connection() -> Value {
    json!({
        storage::KEY_CONNECTIONS: format!("[{{\"namespace\":\"eip155\",\"connectorId\":\"{RDNS}\",\"accounts\":[\"{ADDR}\"],\"caipNetworkId\":\"eip155:31337\"}}]"),
        storage::KEY_ACTIVE_NETWORK: "\"eip155:31338\"",
    })
}

#[test]
fn reload_reconnects_silently_when_the_wallet_announces() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection());
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Reconnecting));
    assert_eq!(h.snap.network.as_ref().unwrap().caip_network_id, "eip155:31338", "stored configured chain restored");
    h.announce();
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
    assert!(!h.snap.open, "no modal on a silent reconnect");
}

#[test]
fn reload_with_revoked_permission_ends_disconnected() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection()).announce();
    h.answer("eth_accounts", json!([]));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn reload_without_the_wallet_times_out_to_disconnected() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection());
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if id == "reconnect" && *ms == RECONNECT_TIMEOUT_MS)));
    h.send(json!({"type": "timer", "id": "reconnect"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn reconnect_off_sets_every_namespace_disconnected() {
    let mut h = Harness::new(json!({"reconnect": false}));
    h.start(stored_connection()).announce();
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
}

#[test]
fn stored_chain_not_configured_is_not_restored() {
    let mut h = Harness::new(json!({}));
    h.start(json!({storage::KEY_ACTIVE_NETWORK: "\"eip155:1\""}));
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31337");
}

#[test]
fn corrupt_storage_is_ignored_with_a_debug_alert() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({storage::KEY_CONNECTIONS: "{oops", storage::KEY_RECENT_WALLETS: "7"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "CORRUPT_STORAGE")));
    let mut quiet = Harness::new(json!({}));
    quiet.start(json!({storage::KEY_CONNECTIONS: "{oops"}));
    assert!(!quiet.effects.iter().any(|e| matches!(e, Effect::Alert { .. })), "alerts only in debug mode");
}

#[test]
fn origin_not_allowed_raises_invalid_app_configuration_once_in_debug() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/origins")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"allowedOrigins\":[\"https://*.example.com\"]}"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_APP_CONFIGURATION")));
    assert_eq!(h.emitted("error").unwrap()["message"], "Invalid App Configuration");
}

#[test]
fn allowed_origin_with_wildcard_raises_nothing() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/origins")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"allowedOrigins\":[\"http://127.0.0.1:*\"]}"}));
    assert!(h.effects.is_empty());
}

#[test]
fn remote_config_failure_falls_back_to_defaults_with_debug_notice() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/appkit/v1/config")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 500, "body": ""}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "REMOTE_CONFIG")));
}

#[test]
fn analytics_events_wait_for_the_analytics_switch_and_are_sent_when_enabled() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Beacon { .. })));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":true}"}));
    let beacon = h.effects.iter().find_map(|e| match e { Effect::Beacon { url, body } => Some((url.clone(), body.clone())), _ => None }).unwrap();
    assert!(beacon.0.starts_with("http://pulse.test/e?projectId=p&st="));
    assert!(beacon.1.contains("MODAL_OPEN"));
    h.send(json!({"type": "close"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Beacon { body, .. } if body.contains("MODAL_CLOSE"))));
}

#[test]
fn analytics_disabled_sends_nothing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":false}"}));
    h.send(json!({"type": "close"}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Beacon { .. })));
}

#[test]
fn all_wallets_search_is_debounced_and_pages_by_40() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    let (_, url) = h.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
    assert!(url.contains("page=1") && url.contains("entries=40"));
    h.send(json!({"type": "searchWallets", "query": "demo"}));
    assert!(h.fetches().is_empty(), "nothing before the debounce timer");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 300 } if id == "wallet-search")));
    h.send(json!({"type": "timer", "id": "wallet-search"}));
    let (_, url) = h.fetches()[0].clone();
    assert!(url.contains("entries=100") && url.contains("search=demo"));
}

#[test]
fn close_resets_to_connect_and_restores_focus() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    h.send(json!({"type": "close"}));
    assert!(!h.snap.open);
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.effects.contains(&Effect::RestoreFocus));
    assert_eq!(h.emitted("close").unwrap()["connected"], false);
}

#[test]
fn back_from_the_first_view_closes() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "back"}));
    assert!(!h.snap.open);
}

#[test]
fn embedded_mode_shows_account_after_close_when_connected() {
    let mut h = Harness::new(json!({"embedded": true}));
    h.connect();
    h.send(json!({"type": "open", "view": "SwitchNetwork"})).send(json!({"type": "close"}));
    assert_eq!(h.snap.view, View::Account);
    assert!(h.snap.embedded);
}

#[test]
fn shake_lasts_500_ms() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "shake"}));
    assert!(h.snap.shake);
    h.now += 500;
    h.send(json!({"type": "timer", "id": "shake"}));
    assert!(!h.snap.shake);
}

#[test]
fn unknown_network_ids_raise_network_not_found_in_debug() {
    let mut h = Harness::new(json!({"debug": true, "networks": ["eip155:1", "eip155:424242"]}));
    h.start(json!({}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "NETWORK_NOT_FOUND")));
    assert_eq!(h.snap.networks.len(), 1);
}

#[test]
fn snapshot_serialises_with_exactly_the_view_contract_names() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let v: Value = serde_json::from_str(&h.snap.to_json_string()).unwrap();
    // element/ts/protocol.ts `interface Snapshot`, in order.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = vec!["open", "embedded", "loading", "shake", "view", "title", "canGoBack", "canClose", "themeMode", "connectMethods", "socials",
        "connectors", "status", "account", "network", "networks", "connecting", "walletConnect", "switching", "allWallets", "configError", "imagePreloadTimeoutMs", "banner", "walletRequest"];
    let mut keys_sorted = keys.clone();
    keys_sorted.sort();
    expected.sort();
    assert_eq!(keys_sorted, expected);
    assert_eq!(v["account"]["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert_eq!(v["account"]["connectorName"], "Demo Wallet");
    assert_eq!(v["status"]["eip155"], "connected");
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

#[test]
fn switching_to_another_namespace_syncs_the_active_network_without_asking_the_wallet() {
    let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
    let mut h = Harness::new(json!({"networks": [anvil(31337), anvil(31338), solana]}));
    h.connect();
    h.send(json!({"type": "switchNetwork", "caipNetworkId": solana}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })), "no wallet request across namespaces");
    assert_eq!(h.persisted(storage::KEY_ACTIVE_NETWORK), Some(Some(format!("\"{solana}\""))));
    assert_eq!(h.emitted("networkchange").unwrap()["caipNetworkId"], solana);
}

#[test]
fn switching_to_an_unconfigured_network_reports_network_not_found() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:999"}));
    assert_eq!(h.emitted("error").unwrap()["message"], WmError::NetworkNotFound.message());
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
}

// ----- WalletConnect -----

const WC_URI: &str = "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&relay-protocol=irn&expiryTimestamp=1975";

impl Harness {
    /// Opens the modal with a catalogue page holding one wallet that is not installed.
    fn open_with_catalogue_wallet(&mut self) -> &mut Self {
        self.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
        let (id, _) = self.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
        let body = json!({"count": 1, "data": [{"id": "mobile1", "name": "Phone Wallet", "image_id": "img1",
            "mobile_link": "phonewallet://", "desktop_link": null, "webapp_link": "https://phone.example/app"}]});
        self.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": body.to_string()}))
    }
}

#[test]
fn choosing_walletconnect_asks_the_walletconnect_connector_for_accounts_once() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnect);
    let connector = h.effects.iter().find_map(|e| match e { Effect::ProviderRequest { connector_id, method, .. } if method == "eth_requestAccounts" => Some(connector_id.clone()), _ => None });
    assert_eq!(connector.as_deref(), Some("walletConnect"));
    assert_eq!(h.snap.status["eip155"], Status::Connecting);
    let wc = h.snap.wallet_connect.clone().expect("a pairing is shown");
    assert!(wc.uri.is_none() && wc.wallet.is_none());
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })), "the request under way keeps its pairing");
}

#[test]
fn the_pairing_uri_from_the_shell_is_shown_and_copied_and_junk_is_refused() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 9000}));
    assert!(h.snap.wallet_connect.is_none(), "no URI is taken while no pairing is shown");
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let wc = h.snap.wallet_connect.clone().unwrap();
    assert_eq!(wc.uri.as_deref(), Some(WC_URI));
    assert_eq!(wc.expires_at_ms, Some(241_000));
    h.send(json!({"type": "copyUri"}));
    assert!(h.effects.contains(&Effect::Copy { text: WC_URI.into() }));
    for junk in ["javascript:alert(1)", "wc:a b", ""] {
        h.send(json!({"type": "walletConnectUri", "uri": junk, "expiresAtMs": 1}));
        let wc = h.snap.wallet_connect.clone().unwrap();
        assert!(wc.uri.is_none() && wc.expires_at_ms.is_none(), "{junk:?} is not shown");
    }
}

#[test]
fn a_catalogue_wallet_that_is_not_installed_pairs_with_its_deep_links() {
    let mut h = Harness::new(json!({}));
    h.open_with_catalogue_wallet();
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnect);
    h.request("eth_requestAccounts");
    let w = h.snap.wallet_connect.clone().unwrap().wallet.expect("the chosen wallet");
    assert_eq!(w.name, "Phone Wallet");
    assert_eq!((w.mobile_link.as_deref(), w.webapp_link.as_deref()), (None, None), "no links before there is a URI");
    assert_eq!(h.snap.connecting.as_ref().unwrap().name, "Phone Wallet");
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let w = h.snap.wallet_connect.clone().unwrap().wallet.unwrap();
    let enc = crate::service::url::encode_component(WC_URI);
    assert_eq!(w.mobile_link, None, "the mobile app is not offered on desktop");
    assert_eq!(w.webapp_link, Some(format!("https://phone.example/app/wc?uri={enc}")));
}

#[test]
fn on_mobile_the_mobile_app_link_is_offered_and_unsafe_catalogue_links_are_dropped() {
    let mut h = Harness::new(json!({"mobile": true}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    let (id, _) = h.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
    let body = json!({"count": 1, "data": [{"id": "mobile1", "name": "Phone Wallet", "image_id": "",
        "mobile_link": "phonewallet://", "desktop_link": "phonewallet-desktop://", "webapp_link": "javascript:alert(1)"}]});
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": body.to_string()}));
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let w = h.snap.wallet_connect.clone().unwrap().wallet.unwrap();
    assert_eq!(w.mobile_link, Some(format!("phonewallet://wc?uri={}", crate::service::url::encode_component(WC_URI))));
    assert_eq!(w.desktop_link, None, "the desktop app is not offered on mobile");
    assert_eq!(w.webapp_link, None, "a javascript: link is never offered");
}

#[test]
fn walletconnect_approval_connects_like_an_injected_wallet() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a6a"));
    let detail = h.emitted("connect").expect("connect event");
    assert_eq!(detail["connectorId"], "walletConnect");
    assert_eq!(detail["connectorName"], "WalletConnect");
    assert_eq!(detail["caipNetworkId"], "eip155:31338");
    assert!(!h.snap.open, "the modal closes after connecting");
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
    assert_eq!(h.snap.account.as_ref().unwrap().connector_name, "WalletConnect");
}

#[test]
fn a_wallet_rejecting_the_pairing_shows_connection_rejected_and_retry_pairs_again() {
    let mut h = Harness::new(json!({}));
    h.open_with_catalogue_wallet();
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    h.reject("eth_requestAccounts", 4001);
    let c = h.snap.connecting.clone().unwrap();
    assert_eq!(c.error.unwrap().message, "Connection rejected");
    assert_eq!(h.emitted("error").unwrap()["message"], "Connection rejected");
    h.send(json!({"type": "retry"}));
    h.request("eth_requestAccounts");
    assert_eq!(h.snap.wallet_connect.clone().unwrap().wallet.unwrap().id, "mobile1", "retry keeps the chosen wallet");
}

#[test]
fn closing_while_pairing_releases_the_connector_and_reports_modal_closed() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "close"}));
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert_eq!(h.emitted("error").unwrap()["message"], "Modal closed");
    assert_eq!(h.snap.status["eip155"], Status::Disconnected);
    assert!(h.snap.wallet_connect.is_none());
    h.send(json!({"type": "providerResult", "id": id, "result": [ADDR]}));
    assert!(h.snap.account.is_none(), "a late approval after close is ignored");
}

#[test]
fn the_basic_pairing_view_starts_a_pairing_when_shown_and_lists_wallets() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "ConnectingWalletConnectBasic"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnectBasic);
    h.request("eth_requestAccounts");
    assert!(h.snap.wallet_connect.is_some());
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/getWallets") && u.contains("entries=40")), "the wallet list beside the QR code");
}

#[test]
fn a_stored_walletconnect_connection_is_restored_without_an_announcement() {
    let conns = json!([{"namespace": "eip155", "connectorId": "walletConnect", "accounts": [ADDR], "caipNetworkId": "eip155:31337"}]).to_string();
    let mut h = Harness::new(json!({}));
    h.start(json!({"@wallet-modal/connections": conns}));
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status["eip155"], Status::Connected);
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
}

#[test]
fn walletconnect_switches_and_disconnects_through_the_session() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    let (_, params) = h.request("wallet_switchEthereumChain");
    assert_eq!(params[0]["chainId"], "0x7a6a");
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.snap.account.as_ref().unwrap().caip_address, format!("eip155:31338:{ADDR}"));
    h.send(json!({"type": "disconnect"}));
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert!(h.emitted("disconnect").is_some());
}

#[test]
fn going_back_from_the_pairing_view_drops_the_pairing_quietly() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "back"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert!(h.emitted("error").is_none(), "going back is not an error");
    assert_eq!(h.snap.status["eip155"], Status::Disconnected);
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
    h.send(json!({"type": "providerResult", "id": id, "result": [ADDR]}));
    assert!(h.snap.account.is_none(), "a late approval of the dropped pairing is ignored");
}

#[test]
fn choosing_an_injected_wallet_while_pairing_drops_the_pairing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (wc_id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "back"}));
    h.send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.view, View::ConnectingExternal);
    assert_eq!(h.snap.status["eip155"], Status::Connecting);
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h.send(json!({"type": "providerResult", "id": wc_id, "result": ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]}));
    assert_eq!(h.snap.account.as_ref().unwrap().connector_id, RDNS, "the injected connection stays");
}

#[test]
fn an_unknown_connector_id_starts_nothing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "no.such.wallet"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
}

// ----- audit fixes: host API edges, banner, wallet requests from the host, storage -----

#[test]
fn open_with_an_unknown_view_reports_it_and_opens_the_default_view() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open", "view": "Nope"}));
    assert!(h.snap.open);
    assert_eq!(h.snap.view, View::Connect);
    let e = h.emitted("error").expect("an error event");
    assert_eq!(e["key"], "UNKNOWN_VIEW");
    assert_eq!(e["message"], "Unknown view: Nope");
}

#[test]
fn open_account_while_disconnected_opens_connect() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open", "view": "Account"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.emitted("error").is_none(), "asking for Account before connecting is not an error");
}

#[test]
fn open_with_a_view_not_built_yet_never_shows_it_empty() {
    for name in ["Swap", "ApproveTransaction", "EmailLogin", "ProfileWallets", "RegisterAccountName", "SIWXSignMessage"] {
        let mut h = Harness::new(json!({}));
        h.connect().send(json!({"type": "open", "view": name}));
        assert_eq!(h.snap.view, View::Account, "{name}: connected, the default view is Account");
        assert_eq!(h.emitted("error").unwrap()["message"], format!("The {name} view is not available yet"));
    }
}

#[test]
fn a_switch_rejected_in_the_wallet_shows_an_error_banner_that_hides_later() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4001);
    assert_eq!(h.snap.view, View::Account);
    assert_eq!(h.emitted("error").unwrap()["code"], 4001, "the error event is kept");
    let banner = h.snap.banner.clone().expect("an error banner");
    assert_eq!(banner.variant, "error");
    assert_eq!(banner.message, "Switching to Anvil 31338 was rejected in the wallet");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if id == "banner-hide" && *ms == BANNER_SHOWN_MS)));
    h.send(json!({"type": "timer", "id": "banner-hide"}));
    assert!(h.snap.banner.is_none());
}

#[test]
fn a_switch_failing_otherwise_names_the_reason_and_the_banner_can_be_dismissed() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", -32603);
    assert_eq!(h.snap.banner.clone().unwrap().message, "Could not switch to Anvil 31338: Internal error");
    h.send(json!({"type": "dismissBanner"}));
    assert!(h.snap.banner.is_none());
}

#[test]
fn a_host_request_waiting_for_the_wallet_is_shown_until_it_ends() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "hostRequest", "id": 1, "method": "eth_call"}));
    assert_eq!(h.snap.wallet_request, None, "reads do not wait for the visitor");
    h.send(json!({"type": "hostRequest", "id": 2, "method": "personal_sign"}));
    assert_eq!(h.snap.wallet_request.as_deref(), Some("personal_sign"));
    h.send(json!({"type": "hostRequestDone", "id": 2, "failed": true}));
    assert_eq!(h.snap.wallet_request, None);
}

#[test]
fn a_transaction_sent_through_the_host_provider_refreshes_the_balance_once_mined() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let (id, _) = h.fetches()[0].clone();
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x21e19e0c9bab2400000\"}"}));
    let hash = format!("0x{}", "ab".repeat(32));
    h.send(json!({"type": "hostRequest", "id": 7, "method": "eth_sendTransaction"}));
    assert_eq!(h.snap.wallet_request.as_deref(), Some("eth_sendTransaction"));
    h.send(json!({"type": "hostRequestDone", "id": 7, "result": hash}));
    assert_eq!(h.snap.wallet_request, None);
    let receipt = |h: &Harness| h.effects.iter().find_map(|e| match e {
        Effect::Fetch { id, body: Some(b), .. } if b.contains("eth_getTransactionReceipt") && b.contains(&hash) => Some(*id),
        _ => None,
    });
    // Not mined yet: asked again after a while.
    let rid = receipt(&h).expect("the receipt is asked for");
    h.send(json!({"type": "fetchResult", "id": rid, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}"}));
    let timer = format!("receipt:{hash}");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if *id == timer && *ms == RECEIPT_POLL_MS)));
    h.send(json!({"type": "timer", "id": timer}));
    let rid = receipt(&h).expect("asked again");
    // Mined within the 30 s cache: the balance is read again anyway.
    h.send(json!({"type": "fetchResult", "id": rid, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"0x1\"}}"}));
    let balance = h.effects.iter().find_map(|e| match e {
        Effect::Fetch { id, body: Some(b), .. } if b.contains("eth_getBalance") => Some(*id),
        _ => None,
    });
    let bid = balance.expect("balance read again once mined");
    h.send(json!({"type": "fetchResult", "id": bid, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1bc16d674ec80000\"}"}));
    assert_eq!(h.snap.account.as_ref().unwrap().balance.as_deref(), Some("2.000"));
}

#[test]
fn chain_changed_reads_the_balance_again_even_while_cached() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let (id, _) = h.fetches()[0].clone();
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1\"}"}));
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a6a"}));
    let (id, _) = h.fetches()[0].clone();
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1\"}"}));
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a69"}));
    assert!(h.fetches().iter().any(|(_, u)| u.contains("8337")), "back on the first chain within 30 s: read again");
}

#[test]
fn an_unreadable_stored_key_is_ignored_alone_and_the_stored_connection_reconnects() {
    let mut h = Harness::new(json!({"debug": true}));
    h.send(json!({"type": "start", "storage": stored_connection(), "unreadable": ["@wallet-modal/x"]}));
    let alert = h.effects.iter().find_map(|e| match e { Effect::Alert { key, message, .. } if key == "CORRUPT_STORAGE" => Some(message.clone()), _ => None });
    assert!(alert.expect("a debug alert").contains("@wallet-modal/x"));
    h.announce();
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
}

#[test]
fn a_rejected_connection_titles_the_view_connection_rejected() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.title, "Connecting");
    h.reject("eth_requestAccounts", 4001);
    assert_eq!(h.snap.title, "Connection rejected");
    h.send(json!({"type": "retry"}));
    h.reject("eth_requestAccounts", -32603);
    assert_eq!(h.snap.title, "Connection failed");
}

#[test]
fn embedded_mode_offers_no_close_button() {
    let mut h = Harness::new(json!({"embedded": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.snap.can_close);
    let mut m = Harness::new(json!({}));
    m.start(json!({})).send(json!({"type": "open"}));
    assert!(m.snap.can_close);
}

#[test]
fn a_bad_announcement_is_ignored_with_a_debug_alert_and_names_lose_bidi_controls() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "announce", "uuid": "", "name": "", "icon": "", "rdns": ""}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "BAD_ANNOUNCEMENT")));
    let mut u = Harness::new(json!({"debug": true}));
    u.start(json!({})).send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "X", "icon": "", "rdns": RDNS, "usable": false}));
    assert!(u.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "BAD_ANNOUNCEMENT")));
    u.send(json!({"type": "open"}));
    assert!(!u.snap.connectors.iter().any(|c| c.id == RDNS), "an unusable announcement is not listed");
    h.send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "Evil\u{202E}tellaW", "icon": "", "rdns": RDNS}));
    h.send(json!({"type": "open"}));
    let row = h.snap.connectors.iter().find(|c| c.id == RDNS).expect("the good announcement is listed");
    assert_eq!(row.name, "EviltellaW");
}
