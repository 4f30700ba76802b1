//! The approval slice's flows (ApproveTransaction): what signs waits for the visitor.

use crate::host::harness::*;

const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

#[test]
fn personal_sign_waits_for_approval_then_goes_to_the_frame() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    let posts = h.frame_posts.len();
    h.host_request("h1", "personal_sign", json!(["0x68656c6c6f", ADDR]));
    assert_eq!(h.frame_posts.len(), posts, "nothing is signed before the visitor approves");
    assert_eq!(h.view(), View::ApproveTransaction, "the closed modal opens on it");
    let a = h.snap.part("approval").clone();
    assert_eq!((a["kind"].as_str(), a["text"].as_str(), a["network"].as_str()), (Some("message"), Some("hello"), Some("Anvil 31337")));
    h.send(json!({"type": "approve"}));
    let (_, payload) = h.frame_post("RPC_REQUEST");
    assert_eq!((payload["method"].as_str(), payload["chainId"].as_u64()), (Some("personal_sign"), Some(31337)));
    h.frame_answer("RPC_REQUEST", json!("0xsig"));
    assert_eq!(h.answered("h1"), Some(Ok(json!("0xsig"))));
    assert_eq!(h.snap.part("approval"), &Value::Null);
    assert!(!h.snap.open, "back from the only view: the modal closes");
}

#[test]
fn rejecting_answers_4001_and_aborts_in_the_frame() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", ADDR])).send(json!({"type": "reject"}));
    assert_eq!(h.answered("h1").unwrap().unwrap_err().0, 4001);
    h.frame_post("RPC_ABORT");
}

#[test]
fn closing_the_approval_view_rejects_the_request() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", ADDR])).send(json!({"type": "close"}));
    assert_eq!(h.answered("h1").unwrap().unwrap_err().0, 4001);
    assert_eq!(h.snap.part("approval"), &Value::Null);
}

#[test]
fn a_transaction_approval_shows_the_fee_from_the_frames_node() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    let tx = json!({"from": ADDR, "to": BOB, "value": "0xde0b6b3a7640000"});
    h.host_request("h2", "eth_sendTransaction", json!([tx]));
    assert_eq!(h.snap.part("approval")["transactions"][0]["value"], "1 ETH");
    let gas = h.frame_posts.iter().find(|p| p.2["method"] == "eth_estimateGas").unwrap().1.clone();
    let price = h.frame_posts.iter().find(|p| p.2["method"] == "eth_gasPrice").unwrap().1.clone();
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/RPC_REQUEST_SUCCESS", "id": gas, "payload": "0x5208"}}));
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/RPC_REQUEST_SUCCESS", "id": price, "payload": "0x3b9aca00"}}));
    assert_eq!(h.snap.part("approval")["fee"], "0.000021 ETH");
}

#[test]
fn a_message_for_another_account_is_refused_without_asking() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", BOB]));
    assert_eq!(h.answered("h1"), Some(Err((-32602, "The message is to be signed by another account".into()))));
    assert_eq!(h.snap.part("approval"), &Value::Null);
}

#[test]
fn requests_wait_in_order_and_signing_out_ends_them() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("a", "personal_sign", json!(["one", ADDR])).host_request("b", "personal_sign", json!(["two", ADDR]));
    assert_eq!((h.snap.part("approval")["text"].as_str(), h.snap.part("approval")["queued"].as_u64()), (Some("one"), Some(1)));
    h.send(json!({"type": "reject"}));
    assert_eq!(h.snap.part("approval")["text"], "two", "the next one shows");
    h.send_to("embedded", json!({"type": "release", "connector": "embedded"}));
    assert_eq!(h.answered("b").unwrap().unwrap_err().0, 4900, "signed out: what waited is refused");
}
