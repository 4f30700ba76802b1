//! The account slice's flows: balance, host requests, receipts.

use crate::engine::harness::*;

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
