//! The email slice's flows (EmailLogin, UpdateEmailWallet) and the frame slice under them, with the
//! secure frame played by the test, message by message.

use crate::host::harness::*;

fn email(h: &Harness) -> &Value {
    h.snap.part("email")
}

#[test]
fn email_login_sends_the_email_then_the_code_then_the_engine_connects_the_embedded_wallet() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.loaded("embedded"), "nothing of the embedded wallet loads before the visitor means to log in");
    h.send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    assert!(h.loaded("embedded"));
    assert_eq!(h.view(), View::EmailLogin);
    assert_eq!(email(&h)["step"], "sending");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::FrameLoad { url } if url.starts_with("http://frame.test/frame?projectId=p&chainId=31337"))), "the frame loads on demand");
    assert!(h.frame_posts.is_empty(), "nothing is posted before the frame is ready");
    h.frame_ready();
    assert_eq!(h.frame_post("CONNECT_EMAIL").1, json!({"email": "a@example.com"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    h.frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    assert_eq!(email(&h)["step"], "otp");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connecting), "spec §4: connecting once the code is sent");
    h.send(json!({"type": "emailOtp", "otp": "123456"}));
    assert_eq!(h.frame_post("CONNECT_OTP").1, json!({"otp": "123456"}));
    h.frame_answer("CONNECT_OTP", json!({}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { connector_id, method, .. } if connector_id == "embedded" && method == "eth_requestAccounts")), "the engine connects the embedded wallet");
    h.frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    assert_eq!(h.frame_post("GET_USER").1, json!({"chainId": 31337}));
    h.frame_answer("GET_USER", json!({"address": ADDR.to_lowercase(), "email": "a@example.com", "chainId": 31337, "accounts": []}));
    let detail = h.emitted("connect").expect("connected");
    assert_eq!(detail["address"], ADDR, "the address comes checksummed");
    assert_eq!(h.snap.part("embeddedUser")["email"], "a@example.com");
    assert_eq!(email(&h)["step"], "idle", "the login is done");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
}

#[test]
fn an_email_login_left_after_its_code_was_sent_resets_the_namespace() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    h.frame_ready();
    h.frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connecting));
    h.send(json!({"type": "close"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected), "spec §4: the account reset (disconnected, no connector)");
    assert_eq!(h.snap.part("connection"), &Value::Null);
}

#[test]
fn a_known_email_on_a_new_browser_approves_the_device_first() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    h.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_DEVICE"}));
    assert_eq!(email(&h)["step"], "device");
    h.frame_answer("CONNECT_DEVICE", json!({}));
    assert_eq!(email(&h)["step"], "otp", "then the code");
}

#[test]
fn a_wrong_code_shows_the_frames_message_and_keeps_the_code_field() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    h.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    h.send(json!({"type": "emailOtp", "otp": "000000"})).frame_fail("CONNECT_OTP", "Invalid code");
    assert_eq!(email(&h)["step"], "otp");
    assert_eq!(email(&h)["codeError"], "Invalid code");
}

#[test]
fn resending_within_30_s_counts_down_under_the_code() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    let sent_at = h.now;
    h.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    let posts = h.frame_posts.len();
    h.now = sent_at + 5_000;
    h.send(json!({"type": "emailResend"}));
    assert_eq!(email(&h)["codeError"], "Please try again after 25 seconds");
    assert_eq!(email(&h)["step"], "otp");
    assert_eq!(h.frame_posts.len(), posts, "nothing sent");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "email-countdown")));
    h.now = sent_at + 6_000;
    h.fire("email-countdown");
    assert_eq!(email(&h)["codeError"], "Please try again after 24 seconds");
    h.now = sent_at + 30_000;
    h.send(json!({"type": "emailResend"}));
    h.frame_post("CONNECT_EMAIL");
    assert_eq!(email(&h)["resent"], true);
}

#[test]
fn a_login_user_without_a_valid_address_does_not_connect() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    h.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    h.send(json!({"type": "emailOtp", "otp": "123456"})).frame_answer("CONNECT_OTP", json!({}));
    h.frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h.frame_answer("GET_USER", json!({"address": "0xnot-an-address"}));
    assert!(h.emitted("connect").is_none());
    assert!(h.snap.connection.is_none());
    assert_eq!(email(&h)["fieldError"], "Failed to connect");
}

#[test]
fn a_frame_that_never_gets_ready_fails_what_waits_with_the_load_message() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 20_000 } if id == "frame-deadline")));
    h.now += 20_000;
    h.fire("frame-deadline");
    assert_eq!(h.snap.part("frame"), "failed");
    assert_eq!(email(&h)["step"], "idle");
    assert_eq!(email(&h)["fieldError"], "Unable to load email login dependency");
}

#[test]
fn the_email_change_takes_two_codes() {
    let mut h = Harness::new(json!({}));
    h.email_login().send(json!({"type": "open"})).send(json!({"type": "openUpdateEmail"}));
    assert_eq!(h.view(), View::UpdateEmailWallet);
    h.send(json!({"type": "updateEmailSubmit", "email": "a@example.com"}));
    assert_eq!(h.snap.part("emailUpdate")["error"], "That is already your email");
    h.send(json!({"type": "updateEmailSubmit", "email": "b@example.com"})).frame_answer("UPDATE_EMAIL", json!({"action": "VERIFY_PRIMARY_OTP"}));
    assert_eq!(h.snap.part("emailUpdate")["step"], "primaryOtp");
    h.send(json!({"type": "updateEmailOtp", "otp": "111111"})).frame_answer("UPDATE_EMAIL_PRIMARY_OTP", json!({"action": "VERIFY_SECONDARY_OTP"}));
    assert_eq!(h.snap.part("emailUpdate")["step"], "secondaryOtp");
    h.send(json!({"type": "updateEmailOtp", "otp": "222222"})).frame_answer("UPDATE_EMAIL_SECONDARY_OTP", json!({"email": "b@example.com"}));
    assert_eq!(h.snap.part("emailUpdate")["step"], "done");
    assert_eq!(h.snap.part("embeddedUser")["email"], "b@example.com", "the Account view shows the new email");
}

#[test]
fn the_email_field_loads_the_frame_which_says_ready_once_usable_with_nothing_asked_of_it() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.loaded("embedded"), "nothing of the embedded wallet on open()");
    h.send(json!({"type": "loadFrame"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::FrameLoad { .. })), "the frame loads on the visitor's intent");
    assert_eq!(h.snap.part("frame"), "loading");
    h.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY"}}));
    assert_eq!(h.snap.part("frame"), "loading", "usable 500 ms after READY");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 500 } if id == "frame-deadline")), "woken when usable");
    h.now += 500;
    h.fire("frame-deadline");
    assert_eq!(h.snap.part("frame"), "ready");
}
