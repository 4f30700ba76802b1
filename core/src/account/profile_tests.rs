//! Several wallets at once (spec §1, §4, §6): ProfileWallets lists every connection, switching
//! makes one current, ending one leaves the others, a reload restores them with the same one
//! current; without the multiWallet feature only the info alert.

use crate::connect::connection::Status;
use crate::connect::storage::KEY_CONNECTIONS;
use crate::host::harness::*;
use crate::host::Effect;

const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER: &str = "dev.walletmodal.other";

/// The demo wallet, then (Add wallet → Connect) another EIP-6963 wallet on the other chain.
fn two_wallets(multi: bool) -> Harness {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).announce();
    h.send(json!({"type": "announce", "uuid": "0b9f7a2c-1111-4c8e-9d7a-2b1c3d4e5f60", "name": "Other Wallet", "icon": "data:image/svg+xml;base64,AA==", "rdns": OTHER, "namespace": "eip155"}));
    h.send(json!({"type": "open"}));
    h.serve("appkit/v1/config", 200, json!({"features": {"multiWallet": multi}}));
    h.send(json!({"type": "selectConnector", "id": RDNS}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "Connect"}));
    assert_eq!(h.view(), View::Connect, "Add wallet: Connect while connected");
    h.send(json!({"type": "selectConnector", "id": OTHER}));
    h.answer("eth_requestAccounts", json!([BOB]));
    h.answer("eth_chainId", json!("0x7a6a"));
    h
}

fn wallets(h: &Harness) -> Vec<(String, String, String)> {
    h.snap.part("profileWallets")["wallets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["connectorId"].as_str().unwrap().to_string(), w["address"].as_str().unwrap().to_string(), w["state"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn a_second_wallet_connects_beside_the_first_and_profile_wallets_lists_both_with_their_balances() {
    let mut h = two_wallets(true);
    assert_eq!(h.snap.connection.as_ref().unwrap().address, BOB, "the new wallet is current");
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "ProfileWallets"}));
    assert_eq!(h.view(), View::ProfileWallets);
    assert_eq!(h.snap.part("profileWallets")["enabled"], true);
    assert_eq!(wallets(&h), vec![(OTHER.into(), BOB.into(), "active".into()), (RDNS.into(), ADDR.into(), "connected".into())]);
    // Each balance from its own network's node.
    h.serve_where("127.0.0.1:8338", BOB, 200, json!({"jsonrpc": "2.0", "id": 1, "result": "0xde0b6b3a7640000"}));
    h.serve_where("127.0.0.1:8337", ADDR, 200, json!({"jsonrpc": "2.0", "id": 1, "result": "0x21e19e0c9bab2400000"}));
    let w = &h.snap.part("profileWallets")["wallets"];
    assert_eq!((w[0]["balance"].as_str(), w[0]["network"].as_str()), (Some("1.000"), Some("Anvil 31338")));
    assert_eq!((w[1]["balance"].as_str(), w[1]["symbol"].as_str()), (Some("10,000.000"), Some("ETH")), "grouped en-US");
}

#[test]
fn switching_makes_another_connection_current_and_the_host_hears_accountschange() {
    let mut h = two_wallets(true);
    h.send(json!({"type": "switchConnection", "namespace": "eip155", "connectorId": RDNS}));
    assert_eq!(h.snap.connection.as_ref().unwrap().address, ADDR);
    assert_eq!(h.emitted("accountschange").unwrap()["address"], ADDR);
    assert_eq!(h.snap.network.as_ref().map(|n| n.caip_network_id.as_str()), Some("eip155:31337"), "the network follows it");
    let stored = h.persisted(KEY_CONNECTIONS).flatten().unwrap();
    assert!(stored.find(RDNS).unwrap() < stored.find(OTHER).unwrap(), "the current one is stored first: {stored}");
}

#[test]
fn ending_one_connection_leaves_the_other_and_ending_the_last_disconnects() {
    let mut h = two_wallets(true);
    h.send(json!({"type": "disconnectConnection", "namespace": "eip155", "connectorId": OTHER}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
    assert_eq!(h.snap.connection.as_ref().unwrap().address, ADDR, "the other wallet is current now");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::ReleaseProvider { connector_id } if connector_id == OTHER)));
    h.send(json!({"type": "disconnectConnection", "namespace": "eip155", "connectorId": RDNS}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn a_reload_reconnects_both_and_the_one_that_was_current_stays_current_whichever_answers_first() {
    let h = two_wallets(true);
    let stored = h.persisted(KEY_CONNECTIONS).flatten().unwrap();
    let mut h2 = Harness::new(json!({}));
    h2.start(json!({ KEY_CONNECTIONS: stored }));
    h2.send(json!({"type": "announce", "uuid": "0b9f7a2c-1111-4c8e-9d7a-2b1c3d4e5f60", "name": "Other Wallet", "icon": "data:image/svg+xml;base64,AA==", "rdns": OTHER, "namespace": "eip155"}));
    let (other_ask, _) = h2.request("eth_accounts");
    h2.announce();
    // The demo wallet (not the one that was current) answers first…
    h2.answer("eth_accounts", json!([ADDR]));
    h2.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h2.snap.connection.as_ref().unwrap().address, ADDR);
    // …then the other one: it was current, it is current again.
    h2.send(json!({"type": "providerResult", "id": other_ask, "result": [BOB]}));
    h2.answer("eth_chainId", json!("0x7a6a"));
    assert_eq!(h2.snap.connection.as_ref().unwrap().address, BOB);
    h2.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "ProfileWallets"}));
    assert_eq!(wallets(&h2).len(), 2, "both connections are back");
}

#[test]
fn without_the_feature_switching_and_ending_only_say_multi_wallet_not_enabled() {
    let mut h = two_wallets(false);
    assert_eq!(h.snap.part("profileWallets")["enabled"], false);
    for (i, ty) in ["switchConnection", "disconnectConnection"].into_iter().enumerate() {
        h.send(json!({"type": ty, "namespace": "eip155", "connectorId": RDNS}));
        let alert = h.effects.iter().find_map(|e| match e { Effect::Alert { message, severity, .. } => Some((message.clone(), severity.clone())), _ => None });
        let once = if i == 0 { Some(("Multi-wallet not enabled".to_string(), "info".to_string())) } else { None };
        assert_eq!(alert, once, "{ty}: the info alert, once (spec: alerts show once per key)");
        assert!(h.snap.shake, "{ty}: the refused action shakes the modal");
        assert_eq!(h.snap.connection.as_ref().unwrap().address, BOB, "{ty}: nothing changed");
        assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
    }
}

/// Two wallets connected on the same network (31337), ProfileWallets shown: their two balance
/// calls to that node, made in one tick.
fn two_wallets_on_one_network() -> Harness {
    let mut h = two_wallets(true);
    h.send(json!({"type": "providerEvent", "connectorId": OTHER, "name": "chainChanged", "data": "0x7a69"}));
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "ProfileWallets"}));
    assert_eq!(h.view(), View::ProfileWallets);
    h
}

/// The open fetches to the 31337 node: (id, body).
fn node_fetches(h: &Harness) -> Vec<(u64, Value)> {
    h.effects
        .iter()
        .filter_map(|e| match e {
            Effect::Fetch { id, url, body: Some(b), .. } if url.contains("127.0.0.1:8337") => Some((*id, serde_json::from_str(b).unwrap())),
            _ => None,
        })
        .collect()
}

#[test]
fn node_calls_made_together_go_as_one_json_rpc_batch_and_each_hears_its_own_answer() {
    let mut h = two_wallets_on_one_network();
    let fetches = node_fetches(&h);
    assert_eq!(fetches.len(), 1, "one request for both balances: {fetches:?}");
    let (batch_id, body) = &fetches[0];
    let calls = body.as_array().expect("a JSON-RPC batch (an array)");
    assert_eq!(calls.len(), 2);
    let id_of = |addr: &str| calls.iter().find(|c| c["params"][0].as_str().unwrap().eq_ignore_ascii_case(addr)).unwrap()["id"].clone();
    // The node answers in any order (JSON-RPC 2.0 §6): each balance is matched by its id.
    let answer = json!([
        {"jsonrpc": "2.0", "id": id_of(ADDR), "result": "0x21e19e0c9bab2400000"},
        {"jsonrpc": "2.0", "id": id_of(BOB), "result": "0xde0b6b3a7640000"},
    ]);
    h.send(json!({"type": "fetchResult", "id": batch_id, "status": 200, "body": answer.to_string()}));
    let w = &h.snap.part("profileWallets")["wallets"];
    assert_eq!((w[0]["address"].as_str(), w[0]["balance"].as_str()), (Some(BOB), Some("1.000")));
    assert_eq!((w[1]["address"].as_str(), w[1]["balance"].as_str()), (Some(ADDR), Some("10,000.000")));
}

#[test]
fn a_node_that_takes_no_batches_gets_the_calls_again_one_by_one() {
    let mut h = two_wallets_on_one_network();
    let (batch_id, _) = node_fetches(&h)[0].clone();
    let refused = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "batch requests are not supported"}});
    h.send(json!({"type": "fetchResult", "id": batch_id, "status": 200, "body": refused.to_string()}));
    let alone = node_fetches(&h);
    assert_eq!(alone.len(), 2, "each call alone: {alone:?}");
    assert!(alone.iter().all(|(id, b)| b.is_object() && b["id"].as_u64() == Some(*id)));
    for (addr, result) in [(BOB, "0xde0b6b3a7640000"), (ADDR, "0x21e19e0c9bab2400000")] {
        let (id, _) = alone.iter().find(|(_, b)| b["params"][0].as_str().unwrap().eq_ignore_ascii_case(addr)).unwrap();
        h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()}));
    }
    let w = &h.snap.part("profileWallets")["wallets"];
    assert_eq!((w[0]["balance"].as_str(), w[1]["balance"].as_str()), (Some("1.000"), Some("10,000.000")));
    // From then on that node's calls go alone.
    h.send(json!({"type": "navigate", "view": "Account", "reset": true}));
    h.now += 10 * 60_000;
    h.send(json!({"type": "navigate", "view": "ProfileWallets"}));
    let again = node_fetches(&h);
    assert_eq!(again.len(), 2, "both balances read again, each alone: {again:?}");
    assert!(again.iter().all(|(_, b)| b.is_object()));
}
