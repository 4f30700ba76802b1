//! The account slice's flows: balance, host requests, receipts.

use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";

/// Answers the open `eth_getBalance` read with `hex` wei.
fn balance(h: &mut Harness, hex: &str) {
    h.serve_where("8337", "eth_getBalance", 200, json!({"jsonrpc": "2.0", "id": 1, "result": hex}));
}

fn balance_asked(h: &Harness) -> bool {
    h.effects.iter().any(|e| matches!(e, Effect::Fetch { body: Some(b), .. } if b.contains("eth_getBalance")))
}

#[test]
fn the_account_shows_its_short_address_avatar_and_balance_floored_to_3_decimals_cached_30_seconds() {
    let mut h = Harness::new(json!({}));
    h.connect();
    assert!(!h.loaded("account") && !balance_asked(&h), "nothing read until the Account view shows");
    h.account(CHAIN, true);
    balance(&mut h, "0x21e19e0c9bab2400000");
    let account = h.snap.account.clone().unwrap();
    assert_eq!((account.short_address.as_str(), account.avatar.len()), ("0xf3...b92266", 5));
    assert_eq!(account.balance.as_deref(), Some("10,000.000"));
    h.account(CHAIN, false).account(CHAIN, true);
    assert!(!balance_asked(&h), "fresh balance not fetched again");
    h.account(CHAIN, false);
    h.now += 30_000;
    h.account(CHAIN, true);
    assert!(balance_asked(&h), "refetched after 30 s");
}

#[test]
fn a_native_balance_that_cannot_be_read_shows_0_00_and_is_read_again_on_the_next_view() {
    let mut h = Harness::new(json!({}));
    h.now = 1_800_000_000_000;
    h.connect();
    h.account(CHAIN, true);
    h.serve_where("8337", "eth_getBalance", 500, json!(null));
    let account = h.snap.account.clone().unwrap();
    assert_eq!(account.balance.as_deref(), Some("0.00"), "spec §8: 0.00 {{symbol}}");
    h.account(CHAIN, false).account(CHAIN, true);
    assert!(balance_asked(&h), "retried");
    balance(&mut h, "0x21e19e0c9bab2400000");
    assert_eq!(h.snap.account.clone().unwrap().balance.as_deref(), Some("10,000.000"));
}

#[test]
fn the_hosts_transactions_are_not_watched_by_default_and_the_interval_defaults_to_30_seconds() {
    // Spec §9: pending-transaction polling 30,000 ms, off by default.
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "hostRequest", "id": 7, "method": "eth_sendTransaction"}));
    h.send(json!({"type": "hostRequestDone", "id": 7, "result": format!("0x{}", "ab".repeat(32))}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Fetch { body: Some(b), .. } if b.contains("eth_getTransactionReceipt"))), "not watched");
    let o: crate::host::Options = serde_json::from_value(json!({})).unwrap();
    assert_eq!((o.pending_transactions, o.pending_transactions_interval_ms), (false, 30_000));
    let o: crate::host::Options = serde_json::from_value(json!({"pendingTransactionsInterval": 5})).unwrap();
    assert_eq!(o.pending_transactions_interval_ms, 1_000, "at least a second");
    assert!(serde_json::from_value::<crate::host::Options>(json!({"pendingTransactionsInterval": "soon"})).is_err());
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
    // The host asked for its transactions to be watched, every 4 s.
    let mut h = Harness::new(json!({"pendingTransactions": true, "pendingTransactionsInterval": 4000}));
    h.connect();
    let hash = format!("0x{}", "ab".repeat(32));
    // The account module loads for the host's request (the modal is closed) and reads the balance.
    h.send(json!({"type": "hostRequest", "id": 7, "method": "eth_sendTransaction"}));
    assert!(h.loaded("account"));
    assert_eq!(h.snap.wallet_request.as_deref(), Some("eth_sendTransaction"));
    balance(&mut h, "0x21e19e0c9bab2400000");
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
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if *id == timer && *ms == 4000)), "at the host's interval");
    h.send(json!({"type": "timer", "id": timer}));
    let rid = receipt(&h).expect("asked again");
    // Mined within the 30 s cache: the balance is read again anyway.
    h.send(json!({"type": "fetchResult", "id": rid, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"0x1\"}}"}));
    let balance = h.effects.iter().find_map(|e| match e {
        Effect::Fetch { id, body: Some(b), .. } if b.contains("eth_getBalance") => Some(*id),
        _ => None,
    });
    balance.expect("balance read again once mined");
    self::balance(&mut h, "0x1bc16d674ec80000");
    assert_eq!(h.snap.account.as_ref().unwrap().balance.as_deref(), Some("2.000"));
}

#[test]
fn chain_changed_reads_the_balance_again_even_while_cached() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    balance(&mut h, "0x1");
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a6a"}));
    assert!(balance_asked(&h), "the other chain's balance");
    h.serve_where("8338", "eth_getBalance", 200, json!({"jsonrpc": "2.0", "id": 1, "result": "0x1"}));
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a69"}));
    assert!(h.fetches().iter().any(|(_, u)| u.contains("8337")), "back on the first chain within 30 s: read again");
}

#[test]
fn copying_the_address_shows_the_success_banner() {
    let mut h = Harness::new(json!({}));
    h.account("eip155:31337", true).send(json!({"type": "copyAddress"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Copy { text } if text == ADDR)));
    assert_eq!(h.snap.part("banner"), &json!({"variant": "success", "message": "Address copied"}));
}

/// The last native-balance call: (id, URL, body).
fn balance_call(h: &Harness) -> (u64, String, Option<String>) {
    h.effects.iter().rev().find_map(|e| match e {
        Effect::Fetch { id, url, body: Some(b), .. } if b.contains("eth_getBalance") => Some((*id, url.clone(), Some(b.clone()))),
        _ => None,
    }).expect("a balance call")
}

/// Connected on 31337 whose first RPC URL is dead (nothing answers), the Account view shown.
fn dead_first_url_account() -> Harness {
    let mut net = anvil(31337);
    net["rpcUrls"]["default"]["http"] = json!(["http://dead.test:1", "http://127.0.0.1:8337"]);
    let mut h = Harness::new(json!({"networks": [net, anvil(31338)]}));
    h.now = 1_800_000_000_000;
    h.connect();
    h.account(CHAIN, true);
    h
}

#[test]
fn while_the_modal_shows_each_rpc_url_is_probed_every_4_seconds_and_a_dead_one_is_ranked_down_before_any_call_fails() {
    // Spec §9's fallback polling (4,000 ms): the ranking learns of a dead URL by its probes.
    let mut h = dead_first_url_account();
    let (id, url, _) = balance_call(&h);
    assert_eq!(url, "http://dead.test:1");
    // The first node call through the network starts the polling.
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 4_000 } if id == "rpc-poll")), "{:?}", h.effects);
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1\"}"}));
    for round in 0..3 {
        h.now += 4_000;
        h.fire("rpc-poll");
        let probes: Vec<(u64, String, Value)> = h
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Fetch { id, url, body: Some(b), .. } => Some((*id, url.clone(), serde_json::from_str(b).unwrap())),
                _ => None,
            })
            .collect();
        assert_eq!(probes.iter().map(|p| p.1.as_str()).collect::<Vec<_>>(), ["http://dead.test:1", "http://127.0.0.1:8337"], "round {round}");
        assert!(probes.iter().all(|p| p.2["method"] == "eth_blockNumber" && p.2["id"].as_u64() == Some(p.0)));
        assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 4_000 } if id == "rpc-poll")), "polling goes on while open");
        // The dead URL never answers; the live one does.
        h.now += 50;
        h.send(json!({"type": "fetchResult", "id": probes[1].0, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x10\"}"}));
        h.now += 10_000;
        h.send(json!({"type": "fetchResult", "id": probes[0].0, "status": 0, "body": ""}));
        assert!(h.fetches().is_empty(), "a probe is not sent on: {:?}", h.fetches());
    }
    // The next read goes to the live URL at once: no call ever had to fail for it.
    h.now += 60_000;
    h.account(CHAIN, false).account(CHAIN, true);
    assert_eq!(balance_call(&h).1, "http://127.0.0.1:8337");
    // Closed, the next tick probes nothing and the polling stops.
    h.account(CHAIN, false);
    h.fire("rpc-poll");
    assert!(h.fetches().is_empty());
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "rpc-poll")));
}

#[test]
fn a_dead_first_rpc_url_is_ranked_down_and_the_balance_comes_from_the_second() {
    // Spec §9: RPC ranking over a network's URLs (10 samples, stability 0.7, latency 0.3).
    let mut h = dead_first_url_account();
    let (id, url, body) = balance_call(&h);
    assert_eq!(url, "http://dead.test:1", "no sample yet: the network's order");
    // No answer within the 10 s timeout (the shell says status 0): sent on to the second URL, same call.
    h.now += 10_000;
    h.send(json!({"type": "fetchResult", "id": id, "status": 0, "body": ""}));
    let (again, url2, body2) = balance_call(&h);
    assert_eq!((again, url2.as_str(), &body2), (id, "http://127.0.0.1:8337", &body), "{:?}", h.effects);
    assert_eq!(h.snap.account.clone().unwrap().balance, None, "the slice heard nothing yet");
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x21e19e0c9bab2400000\"}"}));
    assert_eq!(h.snap.account.clone().unwrap().balance.as_deref(), Some("10,000.000"));
    // The next read goes to the second URL first: the dead one is ranked down.
    h.now += 60_000;
    h.account(CHAIN, false).account(CHAIN, true);
    assert_eq!(balance_call(&h).1, "http://127.0.0.1:8337");
}
