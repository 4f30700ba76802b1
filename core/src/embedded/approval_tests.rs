//! The approval slice's flows (ApproveTransaction): what signs goes to the secure frame at once,
//! the frame asks the visitor in its own document, and the modal shows the frame while it does.

use crate::host::harness::*;
use crate::host::Effect;
use crate::service::errors::WmError;

const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/// The frame shows its approval (`open`) or no longer.
fn frame_shows(h: &mut Harness, open: bool) -> &mut Harness {
    let payload = if open { json!({"open": true, "height": 420, "method": "personal_sign"}) } else { json!({"open": false}) };
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/APPROVAL_VIEW", "payload": payload}}))
}

fn frame_view(h: &Harness) -> Option<bool> {
    h.effects.iter().rev().find_map(|e| match e {
        Effect::FrameView { visible } => Some(*visible),
        _ => None,
    })
}

fn frame_rejects(h: &mut Harness) -> &mut Harness {
    let (id, _) = h.frame_post("RPC_REQUEST");
    h.frame_posts.retain(|(_, i, _)| *i != id);
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/RPC_REQUEST_ERROR", "id": id, "payload": {"message": "User rejected the request.", "code": 4001}}}))
}

#[test]
fn a_request_that_signs_goes_to_the_frame_at_once_and_the_modal_shows_the_frame() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.send(json!({"type": "close"}));
    h.host_request("h1", "personal_sign", json!(["0x68656c6c6f", ADDR]));
    let (_, payload) = h.frame_post("RPC_REQUEST");
    assert_eq!((payload["method"].as_str(), payload["chainId"].as_u64()), (Some("personal_sign"), Some(31337)), "the frame asks the visitor");
    assert_eq!(payload["network"], json!({"name": "Anvil 31337", "symbol": "ETH", "decimals": 18}), "with the network to show");
    assert!(h.snap.open && h.view() == View::ApproveTransaction, "the closed modal opens on ApproveTransaction");
    assert_eq!(h.snap.part("approval"), &json!({"open": false, "method": null, "height": 0, "waiting": 1}), "waiting for the frame's approval");
    frame_shows(&mut h, true);
    assert_eq!(frame_view(&h), Some(true), "the frame shows in the modal");
    assert_eq!(h.snap.part("approval"), &json!({"open": true, "method": "personal_sign", "height": 420, "waiting": 1}));
    h.frame_answer("RPC_REQUEST", json!("0xsig"));
    assert_eq!(h.answered("h1"), Some(Ok(json!("0xsig"))), "the host hears the frame's answer");
    frame_shows(&mut h, false);
    assert_eq!(frame_view(&h), Some(false), "the frame hides again");
    assert_eq!(h.snap.part("approval"), &Value::Null);
    assert!(!h.snap.open, "back from the only view: the modal closes");
}

#[test]
fn a_rejection_in_the_frame_is_the_hosts_4001() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "eth_sendTransaction", json!([{"to": BOB, "value": "0x1"}]));
    frame_shows(&mut h, true);
    frame_rejects(&mut h);
    let (code, message) = h.answered("h1").unwrap().unwrap_err();
    assert_eq!((code, message.starts_with("User rejected")), (4001, true), "{message}");
}

#[test]
fn nothing_in_the_page_can_approve_there_is_no_approve_event() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", ADDR]));
    frame_shows(&mut h, true);
    let posts = h.frame_posts.len();
    for intent in ["approve", "reject"] {
        h.send(json!({"type": intent}));
        assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { message, .. } if message.contains("unknown event"))), "`{intent}` is not an event of the modal");
    }
    assert_eq!(h.frame_posts.len(), posts, "nothing more went to the frame");
    assert_eq!(h.answered("h1"), None, "the request still waits for the visitor in the frame");
}

#[test]
fn closing_the_modal_aborts_in_the_frame_which_rejects() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", ADDR]));
    frame_shows(&mut h, true);
    h.send(json!({"type": "close"}));
    assert_eq!(frame_view(&h), Some(false), "the frame hides with the modal");
    h.frame_post("RPC_ABORT");
    frame_rejects(&mut h);
    assert_eq!(h.answered("h1").unwrap().unwrap_err().0, 4001);
    assert_eq!(h.snap.part("approval"), &Value::Null);
}

#[test]
fn a_request_the_frame_got_from_elsewhere_opens_the_modal_on_the_frames_approval() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.send(json!({"type": "close"}));
    frame_shows(&mut h, true);
    assert!(h.snap.open && h.view() == View::ApproveTransaction, "a page script posting to the frame cannot hide the approval");
    assert_eq!(frame_view(&h), Some(true));
    frame_shows(&mut h, false);
    assert!(!h.snap.open, "answered in the frame: the modal closes");
}

#[test]
fn the_frame_takes_the_modals_theme_without_being_loaded_for_it() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.send(json!({"type": "frameTheme", "dark": true, "variables": {"--wm-accent": "#3b5bdb"}}));
    assert!(h.frame_posts.iter().all(|(t, ..)| t != "@w3m-app/SYNC_THEME"), "no approval yet: the theme waits");
    h.host_request("h1", "personal_sign", json!(["hi", ADDR]));
    let order: Vec<&str> = h.frame_posts.iter().map(|(t, ..)| t.as_str()).filter(|t| t.ends_with("SYNC_THEME") || t.ends_with("RPC_REQUEST")).collect();
    assert_eq!(order, ["@w3m-app/SYNC_THEME", "@w3m-app/RPC_REQUEST"], "themed before it shows");
    assert_eq!(h.frame_post("SYNC_THEME").1, json!({"themeMode": "dark", "themeVariables": {"--wm-accent": "#3b5bdb"}}));
    h.send(json!({"type": "frameTheme", "dark": false}));
    assert_eq!(h.frame_post("SYNC_THEME").1["themeMode"], "light", "a change reaches a frame in use");
}

#[test]
fn a_sign_out_in_another_tab_disconnects_the_embedded_wallet() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/SIGNED_OUT", "payload": {}}}));
    assert!(h.snap.connection.is_none(), "signed out everywhere");
}

#[test]
fn signing_out_ends_what_waits_with_4900() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("a", "personal_sign", json!(["one", ADDR])).host_request("b", "personal_sign", json!(["two", ADDR]));
    assert_eq!(h.snap.part("approval")["waiting"], 2, "both wait in the frame, one shown at a time there");
    h.send_to("embedded", json!({"type": "release", "connector": "embedded"}));
    assert_eq!((h.answered("a").unwrap().unwrap_err().0, h.answered("b").unwrap().unwrap_err().0), (4900, 4900));
}

#[test]
fn a_request_without_a_network_of_the_app_is_refused_without_asking() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    let posts = h.frame_posts.len();
    h.send(json!({"type": "request", "connector": "approval", "key": "x", "method": "approve", "params": {"answer": "h9", "method": "personal_sign", "params": ["hi", ADDR], "network": "eip155:999999"}}));
    assert_eq!(h.answered("h9").unwrap().unwrap_err().0, -32602);
    assert_eq!(h.frame_posts.len(), posts);
}

#[test]
fn a_malformed_request_to_a_connector_is_answered_not_dropped() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("long", &"m".repeat(65), json!([]));
    assert_eq!(h.answered("long").unwrap().unwrap_err().0, -32602, "a method name too long");
    h.send(json!({"type": "request", "connector": "embedded", "key": "k1", "method": 5}));
    let e = h.answered("k1").expect("answered").unwrap_err();
    assert_eq!(e.0, -32602);
    assert!(e.1.starts_with("Invalid request: "), "{}", e.1);
}

#[test]
fn a_frame_that_reloads_ends_what_it_was_asked_instead_of_leaving_it_hanging() {
    let mut h = Harness::new(json!({}));
    h.email_login();
    h.host_request("h1", "personal_sign", json!(["hi", ADDR]));
    frame_shows(&mut h, true);
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY"}}));
    let (code, message) = h.answered("h1").expect("answered").unwrap_err();
    assert_eq!((code, message.as_str()), (WmError::RequestAborted.code(), "Request was aborted"));
    assert_eq!(frame_view(&h), Some(false), "the old approval is gone");
    assert_eq!(h.snap.part("approval"), &Value::Null);
}
