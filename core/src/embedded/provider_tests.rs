//! The embedded wallet's provider slice (the `embedded` connector), with the secure frame played
//! by the test: what the engine and the host page ask it.

use crate::host::harness::*;

const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

fn stored() -> Value {
    json!({storage::KEY_CONNECTIONS: format!("[{{\"namespace\":\"eip155\",\"connectorId\":\"embedded\",\"accounts\":[\"{ADDR}\"],\"caipNetworkId\":\"eip155:31337\"}}]")})
}

#[test]
fn a_stored_session_answers_the_engines_silent_accounts_request_once_the_frame_says_so() {
    let mut h = Harness::new(json!({}));
    h.start(stored());
    assert!(h.effects.iter().any(|e| matches!(e, Effect::FrameLoad { .. })), "the frame loads for it");
    assert!(h.frame_posts.is_empty(), "waits for the frame");
    h.frame_ready().frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h.frame_answer("GET_USER", json!({"address": ADDR, "email": "a@example.com"}));
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
    assert!(!h.dispatched().iter().any(|d| d["type"] == "connectEmbedded"), "a restore is the engine's reconnect, not a new login");
}

#[test]
fn an_expired_session_answers_no_accounts_and_says_session_expired() {
    let mut h = Harness::new(json!({}));
    h.start(stored());
    h.frame_ready().frame_answer("IS_CONNECTED", json!({"isConnected": false, "sessionExpired": true}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Emit { name: "error", detail } if detail["message"] == "Session Expired")));
    assert!(h.snap.connection.is_none(), "not reconnected");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn a_frame_that_refuses_the_origin_fails_at_once() {
    let mut h = Harness::new(json!({}));
    h.start(stored());
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/INIT_ERROR", "payload": {"message": "origin"}}}));
    assert_eq!(h.snap.part("frame"), "failed");
    assert!(h.snap.connection.is_none(), "the reconnect ends");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    assert!(h.emitted("error").is_none(), "another refusal is no unverified domain");
}

#[test]
fn a_frame_that_refuses_this_pages_origin_says_unverified_domain() {
    let mut h = Harness::new(json!({}));
    h.start(stored());
    // The frame's own words (frame/src/frame.ts NOT_ALLOWED_ORIGIN).
    let message = "Invalid App Configuration: this origin is not allowed for the project";
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/INIT_ERROR", "payload": {"message": message}}}));
    assert_eq!(h.snap.part("frame"), "failed");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, message, .. } if key == "UNVERIFIED_DOMAIN" && message == "Unverified domain")), "{:?}", h.effects);
    assert_eq!(h.emitted("error").unwrap()["message"], "Unverified domain");
}

#[test]
fn safe_methods_go_to_the_frame_without_approval_and_disallowed_ones_are_refused() {
    let mut h = Harness::new(json!({}));
    h.email_login().send(json!({"type": "open"}));
    h.host_request("h1", "eth_getBalance", json!([ADDR, "latest"]));
    let (_, payload) = h.frame_post("RPC_REQUEST");
    assert_eq!((payload["method"].as_str(), payload["chainId"].as_u64()), (Some("eth_getBalance"), Some(31337)));
    assert_eq!(h.snap.part("approval"), &Value::Null);
    h.frame_answer("RPC_REQUEST", json!("0x1"));
    assert_eq!(h.answered("h1"), Some(Ok(json!("0x1"))));
    let posts = h.frame_posts.len();
    h.host_request("h2", "eth_sign", json!([]));
    assert_eq!(h.answered("h2"), Some(Err((4200, "Requested RPC call is not allowed".into()))));
    // Spec §8: the unsupported-method alert shows after 300 ms (the shell waits `delayMs`).
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, delay_ms: 300, .. } if key == "RPC_METHOD_NOT_ALLOWED")), "{:?}", h.effects);
    assert_eq!(h.frame_posts.len(), posts, "nothing goes to the frame");
    assert_eq!(h.snap.part("embeddedNotice"), "Action not allowed");
    assert_eq!(h.snap.banner.as_ref().map(|b| b.message.as_str()), Some("Action not allowed"));
}

#[test]
fn switching_network_goes_through_the_frame() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("e9", "wallet_switchEthereumChain", json!([{"chainId": "0x7a6a"}]));
    assert_eq!(h.frame_post("SWITCH_NETWORK").1["chainId"], 31338);
    h.frame_answer("SWITCH_NETWORK", json!({"chainId": 31338}));
    assert_eq!(h.answered("e9"), Some(Ok(Value::Null)));
    h.host_request("e10", "eth_chainId", json!([]));
    assert_eq!(h.answered("e10"), Some(Ok(json!("0x7a6a"))));
    h.host_request("e11", "wallet_switchEthereumChain", json!([{"chainId": "0x2105"}]));
    assert_eq!(h.answered("e11").unwrap().unwrap_err().0, 4902, "a network the project does not have");
}

#[test]
fn the_engines_revoke_on_disconnect_is_answered_without_an_approval_and_disconnect_signs_out() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("p7", "wallet_revokePermissions", json!([{"eth_accounts": {}}]));
    assert_eq!(h.answered("p7"), Some(Ok(Value::Null)));
    assert_eq!(h.snap.part("approval"), &Value::Null);
    h.send(json!({"type": "disconnect"}));
    h.frame_post("SIGN_OUT");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 3_000 } if id == "embedded-signout")));
    assert_eq!(h.snap.part("embeddedUser"), &Value::Null);
    h.host_request("e1", "eth_accounts", json!([]));
    h.frame_answer("IS_CONNECTED", json!({"isConnected": false}));
    assert_eq!(h.answered("e1"), Some(Ok(json!([]))));
}

#[test]
fn frame_messages_that_answer_nothing_are_ignored() {
    let mut h = Harness::new(json!({}));
    h.email_login().send(json!({"type": "open"}));
    let before = h.snap.raw.clone();
    for data in [json!({"type": "@w3m-frame/CONNECT_OTP_SUCCESS", "id": "nope", "payload": {}}), json!("text"), json!({"type": 5}), json!({"type": "other/READY"})] {
        h.send(json!({"type": "frameMessage", "data": data}));
        assert!(!h.effects.iter().any(|e| matches!(e, Effect::Answer { .. } | Effect::Dispatch { .. })));
        assert_eq!(h.snap.raw, before);
    }
}

#[test]
fn malformed_events_change_nothing() {
    let mut h = Harness::new(json!({}));
    h.email_login().send(json!({"type": "open"}));
    let before = h.snap.raw.clone();
    for bad in [
        json!({"type": "emailSubmit"}),
        json!({"type": "request", "connector": "embedded", "key": "k".repeat(41), "method": "eth_chainId"}),
        json!({"type": "init", "random": "short"}),
        json!({"type": "socialLogin", "provider": "myspace"}),
    ] {
        h.send(bad.clone());
        assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_EVENT")), "{bad}");
        assert_eq!(h.snap.raw, before, "{bad}");
    }
    let _ = BOB;
}
