//! Flow tests of the embedded module: the frame played by the test, message by message.

use super::*;
use serde_json::json;

const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

fn module() -> EmbeddedModule {
    let mut m = EmbeddedModule::from_options_json(&json!({"projectId": "p", "networks": ["eip155:1", "eip155:137"], "frameUrl": "http://127.0.0.1:9/frame"}).to_string());
    m.handle(&json!({"type": "init", "random": "abcdef0123456789"}), 0);
    m.handle(&json!({"type": "context", "view": "Connect", "open": true}), 0);
    m
}

fn of_type<'a>(effects: &'a [Value], ty: &str) -> Vec<&'a Value> {
    effects.iter().filter(|e| e["type"] == ty).collect()
}

/// The messages posted to the frame: (type, id, payload).
fn posts(effects: &[Value]) -> Vec<(String, String, Value)> {
    of_type(effects, "framePost").iter().map(|e| (e["message"]["type"].as_str().unwrap().to_string(), e["message"]["id"].as_str().unwrap().to_string(), e["message"]["payload"].clone())).collect()
}

fn answer(m: &mut EmbeddedModule, ty: &str, id: &str, payload: Value, now: u64) -> (Vec<Value>, Value) {
    m.handle(&json!({"type": "frameMessage", "data": {"type": ty, "id": id, "payload": payload}}), now)
}

/// Loads the frame and makes it ready (ready event + 500 ms); answers IS_CONNECTED with `session`.
fn ready(m: &mut EmbeddedModule, session: bool) -> u64 {
    let (fx, _) = m.handle(&json!({"type": "preload"}), 10);
    assert_eq!(of_type(&fx, "frameLoad").len(), 1);
    m.handle(&json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY", "payload": {}}}), 100);
    let (fx, _) = m.handle(&json!({"type": "timer", "id": "embedded-frame"}), 600);
    let p = posts(&fx);
    assert_eq!(p[0].0, "@w3m-app/IS_CONNECTED", "who is logged in is asked once ready");
    let (fx, _) = answer(m, "@w3m-frame/IS_CONNECTED_SUCCESS", &p[0].1, json!({"isConnected": session}), 610);
    if session {
        let p = posts(&fx);
        assert_eq!(p[0].0, "@w3m-app/GET_USER");
        answer(m, "@w3m-frame/GET_USER_SUCCESS", &p[0].1, json!({"address": ADDR, "email": "a@example.com", "chainId": 1}), 620);
    }
    700
}

fn login(m: &mut EmbeddedModule) -> u64 {
    let t = ready(m, false);
    let (fx, part) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), t);
    assert_eq!(part["email"]["step"], "sending");
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"] == json!({"type": "navigate", "view": "EmailLogin"})));
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!((ty.as_str(), payload), ("@w3m-app/CONNECT_EMAIL", json!({"email": "a@example.com"})));
    let (_, part) = answer(m, "@w3m-frame/CONNECT_EMAIL_SUCCESS", &id, json!({"action": "VERIFY_OTP"}), t + 10);
    assert_eq!(part["email"]["step"], "otp");
    let (fx, _) = m.handle(&json!({"type": "emailOtp", "otp": "123456"}), t + 20);
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!((ty.as_str(), payload), ("@w3m-app/CONNECT_OTP", json!({"otp": "123456"})));
    let (fx, _) = answer(m, "@w3m-frame/CONNECT_OTP_SUCCESS", &id, json!({}), t + 30);
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/GET_USER");
    let (fx, part) = answer(m, "@w3m-frame/GET_USER_SUCCESS", &id, json!({"address": ADDR.to_lowercase(), "email": "a@example.com", "chainId": 1, "accounts": []}), t + 40);
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"]["type"] == "connectEmbedded"), "the engine is told to connect the embedded wallet");
    assert_eq!(part["user"]["address"], ADDR, "the address comes checksummed");
    m.handle(&json!({"type": "context", "view": "Account", "open": false, "connectorId": "embedded", "caipNetworkId": "eip155:1"}), t + 50);
    t + 50
}

#[test]
fn email_login_sends_the_email_then_the_code_then_connects() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e17", "method": "eth_requestAccounts"}), t);
    assert_eq!(of_type(&fx, "answer")[0], &json!({"type": "answer", "key": "e17", "result": [ADDR]}));
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e18", "method": "eth_chainId"}), t);
    assert_eq!(of_type(&fx, "answer")[0]["result"], "0x1");
}

#[test]
fn an_email_submitted_before_the_frame_is_ready_waits_for_it() {
    let mut m = module();
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), 5);
    assert_eq!(of_type(&fx, "frameLoad").len(), 1, "the frame loads on demand");
    assert!(posts(&fx).is_empty(), "nothing is posted before the frame is ready");
    m.handle(&json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY", "payload": {}}}), 50);
    let (fx, part) = m.handle(&json!({"type": "timer", "id": "embedded-frame"}), 550);
    let types: Vec<String> = posts(&fx).into_iter().map(|p| p.0).collect();
    assert!(types.contains(&"@w3m-app/CONNECT_EMAIL".to_string()), "{types:?}");
    assert_eq!(part["email"]["step"], "sending");
}

#[test]
fn a_known_email_on_a_new_browser_approves_the_device_first() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), t);
    let id = posts(&fx)[0].1.clone();
    let (fx, part) = answer(&mut m, "@w3m-frame/CONNECT_EMAIL_SUCCESS", &id, json!({"action": "VERIFY_DEVICE"}), t + 1);
    assert_eq!(part["email"]["step"], "device");
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/CONNECT_DEVICE");
    let (_, part) = answer(&mut m, "@w3m-frame/CONNECT_DEVICE_SUCCESS", &id, json!({}), t + 2);
    assert_eq!(part["email"]["step"], "otp", "then the code");
}

#[test]
fn a_wrong_code_shows_the_frames_message_and_keeps_the_code_field() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), t);
    answer(&mut m, "@w3m-frame/CONNECT_EMAIL_SUCCESS", &posts(&fx)[0].1, json!({"action": "VERIFY_OTP"}), t);
    let (fx, _) = m.handle(&json!({"type": "emailOtp", "otp": "000000"}), t);
    let (_, part) = answer(&mut m, "@w3m-frame/CONNECT_OTP_ERROR", &posts(&fx)[0].1, json!({"message": "Invalid code"}), t);
    assert_eq!(part["email"]["step"], "otp");
    assert_eq!(part["email"]["codeError"], "Invalid code");
}

#[test]
fn resending_within_30_s_counts_down_under_the_code() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), t);
    answer(&mut m, "@w3m-frame/CONNECT_EMAIL_SUCCESS", &posts(&fx)[0].1, json!({"action": "VERIFY_OTP"}), t);
    let (fx, part) = m.handle(&json!({"type": "emailResend"}), t + 5_000);
    assert_eq!(part["email"]["codeError"], "Please try again after 25 seconds");
    assert_eq!(part["email"]["step"], "otp");
    assert!(posts(&fx).is_empty());
    assert!(of_type(&fx, "startTimer").iter().any(|e| e["id"] == "embedded-countdown"));
    let (_, part) = m.handle(&json!({"type": "timer", "id": "embedded-countdown"}), t + 6_000);
    assert_eq!(part["email"]["codeError"], "Please try again after 24 seconds");
    let (fx, part) = m.handle(&json!({"type": "emailResend"}), t + 30_000);
    assert_eq!(posts(&fx)[0].0, "@w3m-app/CONNECT_EMAIL");
    assert_eq!(part["email"]["resent"], true);
}

#[test]
fn a_stored_session_answers_the_engines_silent_accounts_request_once_the_frame_says_so() {
    let mut m = module();
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e3", "method": "eth_accounts"}), 1);
    assert_eq!(of_type(&fx, "frameLoad").len(), 1);
    assert!(of_type(&fx, "answer").is_empty(), "waits for the frame");
    m.handle(&json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY", "payload": {}}}), 100);
    let (fx, _) = m.handle(&json!({"type": "timer", "id": "embedded-frame"}), 600);
    let id = posts(&fx)[0].1.clone();
    let (fx, _) = answer(&mut m, "@w3m-frame/IS_CONNECTED_SUCCESS", &id, json!({"isConnected": true}), 610);
    let id = posts(&fx)[0].1.clone();
    let (fx, _) = answer(&mut m, "@w3m-frame/GET_USER_SUCCESS", &id, json!({"address": ADDR, "email": "a@example.com"}), 620);
    assert_eq!(of_type(&fx, "answer")[0], &json!({"type": "answer", "key": "e3", "result": [ADDR]}));
    assert!(of_type(&fx, "dispatch").iter().all(|d| d["event"]["type"] != "connectEmbedded"), "a restore is the engine's reconnect, not a new login");
}

#[test]
fn an_expired_session_answers_no_accounts_and_says_session_expired() {
    let mut m = module();
    m.handle(&json!({"type": "request", "key": "e3", "method": "eth_accounts"}), 1);
    m.handle(&json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY", "payload": {}}}), 100);
    let (fx, _) = m.handle(&json!({"type": "timer", "id": "embedded-frame"}), 600);
    let (fx, _) = answer(&mut m, "@w3m-frame/IS_CONNECTED_SUCCESS", &posts(&fx)[0].1, json!({"isConnected": false, "sessionExpired": true}), 610);
    assert_eq!(of_type(&fx, "answer")[0]["result"], json!([]));
    assert!(of_type(&fx, "emit").iter().any(|e| e["detail"]["message"] == "Session Expired"));
}

#[test]
fn personal_sign_waits_for_approval_then_goes_to_the_frame() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "request", "key": "h1", "method": "personal_sign", "params": ["0x68656c6c6f", ADDR]}), t);
    assert!(posts(&fx).is_empty(), "nothing is signed before the visitor approves");
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"] == json!({"type": "navigate", "view": "ApproveTransaction"})));
    assert_eq!(part["approval"]["kind"], "message");
    assert_eq!(part["approval"]["text"], "hello");
    m.handle(&json!({"type": "context", "view": "ApproveTransaction", "open": true, "connectorId": "embedded", "caipNetworkId": "eip155:1"}), t);
    let (fx, _) = m.handle(&json!({"type": "approve"}), t + 1);
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/RPC_REQUEST");
    assert_eq!(payload["method"], "personal_sign");
    assert_eq!(payload["chainId"], 1);
    let (fx, part) = answer(&mut m, "@w3m-frame/RPC_REQUEST_SUCCESS", &id, json!("0xsig"), t + 2);
    assert_eq!(of_type(&fx, "answer")[0], &json!({"type": "answer", "key": "h1", "result": "0xsig"}));
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"]["type"] == "back"), "the approval view is left");
    assert!(part["approval"].is_null());
}

#[test]
fn rejecting_answers_4001_and_aborts_in_the_frame() {
    let mut m = module();
    let t = login(&mut m);
    m.handle(&json!({"type": "request", "key": "h1", "method": "personal_sign", "params": ["hi", ADDR]}), t);
    let (fx, _) = m.handle(&json!({"type": "reject"}), t + 1);
    assert_eq!(of_type(&fx, "answer")[0]["error"]["code"], 4001);
    assert_eq!(posts(&fx)[0].0, "@w3m-app/RPC_ABORT");
}

#[test]
fn closing_the_approval_view_rejects_the_request() {
    let mut m = module();
    let t = login(&mut m);
    m.handle(&json!({"type": "request", "key": "h1", "method": "personal_sign", "params": ["hi", ADDR]}), t);
    m.handle(&json!({"type": "context", "view": "ApproveTransaction", "open": true, "connectorId": "embedded"}), t);
    let (fx, part) = m.handle(&json!({"type": "context", "view": "Account", "open": false, "connectorId": "embedded"}), t);
    assert_eq!(of_type(&fx, "answer")[0]["error"]["code"], 4001);
    assert!(part["approval"].is_null());
}

#[test]
fn a_transaction_approval_shows_the_fee_from_the_frames_node() {
    let mut m = module();
    let t = login(&mut m);
    let tx = json!({"from": ADDR, "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "value": "0xde0b6b3a7640000"});
    let (fx, part) = m.handle(&json!({"type": "request", "key": "h2", "method": "eth_sendTransaction", "params": [tx]}), t);
    assert_eq!(part["approval"]["transactions"][0]["value"], "1 ETH");
    let p = posts(&fx);
    let gas = p.iter().find(|x| x.2["method"] == "eth_estimateGas").unwrap().1.clone();
    let price = p.iter().find(|x| x.2["method"] == "eth_gasPrice").unwrap().1.clone();
    answer(&mut m, "@w3m-frame/RPC_REQUEST_SUCCESS", &gas, json!("0x5208"), t + 1);
    let (_, part) = answer(&mut m, "@w3m-frame/RPC_REQUEST_SUCCESS", &price, json!("0x3b9aca00"), t + 2);
    assert_eq!(part["approval"]["fee"], "0.000021 ETH");
}

#[test]
fn a_message_for_another_account_is_refused_without_asking() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "request", "key": "h1", "method": "personal_sign", "params": ["hi", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]}), t);
    assert_eq!(of_type(&fx, "answer")[0]["error"]["message"], "The message is to be signed by another account");
    assert!(part["approval"].is_null());
}

#[test]
fn a_disallowed_method_is_refused_and_says_action_not_allowed() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "request", "key": "h1", "method": "eth_sign", "params": []}), t);
    let a = of_type(&fx, "answer")[0];
    assert_eq!(a["error"], json!({"code": 4200, "message": "Requested RPC call is not allowed"}));
    assert!(posts(&fx).is_empty());
    assert_eq!(part["notice"], "Action not allowed");
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"]["type"] == "showBanner"));
}

#[test]
fn safe_methods_go_to_the_frame_without_approval() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "request", "key": "h1", "method": "eth_getBalance", "params": [ADDR, "latest"]}), t);
    assert_eq!(posts(&fx)[0].2["method"], "eth_getBalance");
    assert!(part["approval"].is_null());
}

#[test]
fn a_frame_that_never_gets_ready_fails_what_waits_with_the_load_message() {
    let mut m = module();
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), 0);
    assert!(of_type(&fx, "startTimer").iter().any(|t| t["id"] == "embedded-frame" && t["ms"] == 20_000));
    let (_, part) = m.handle(&json!({"type": "timer", "id": "embedded-frame"}), 20_000);
    assert_eq!(part["frame"], "failed");
    assert_eq!(part["email"]["step"], "idle");
    assert_eq!(part["email"]["fieldError"], "Unable to load email login dependency");
}

#[test]
fn a_frame_that_refuses_the_origin_fails_at_once() {
    let mut m = module();
    m.handle(&json!({"type": "request", "key": "e1", "method": "eth_accounts"}), 0);
    let (fx, part) = m.handle(&json!({"type": "frameMessage", "data": {"type": "@w3m-frame/INIT_ERROR", "payload": {"message": "origin"}}}), 5);
    assert_eq!(part["frame"], "failed");
    assert_eq!(of_type(&fx, "answer")[0]["error"]["message"], "Unable to load email login dependency");
}

#[test]
fn frame_messages_that_answer_nothing_are_ignored() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (_, before) = m.handle(&json!({"type": "context", "view": "Connect", "open": true}), t);
    for data in [json!({"type": "@w3m-frame/CONNECT_OTP_SUCCESS", "id": "nope", "payload": {}}), json!("text"), json!({"type": 5}), json!({"type": "other/READY"})] {
        let (fx, part) = m.handle(&json!({"type": "frameMessage", "data": data}), t);
        assert!(of_type(&fx, "answer").is_empty() && of_type(&fx, "dispatch").is_empty());
        assert_eq!(part, before);
    }
}

#[test]
fn a_login_user_without_a_valid_address_does_not_connect() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, _) = m.handle(&json!({"type": "emailSubmit", "email": "a@example.com"}), t);
    answer(&mut m, "@w3m-frame/CONNECT_EMAIL_SUCCESS", &posts(&fx)[0].1, json!({"action": "VERIFY_OTP"}), t);
    let (fx, _) = m.handle(&json!({"type": "emailOtp", "otp": "123456"}), t);
    let (fx, _) = answer(&mut m, "@w3m-frame/CONNECT_OTP_SUCCESS", &posts(&fx)[0].1, json!({}), t);
    let (fx, part) = answer(&mut m, "@w3m-frame/GET_USER_SUCCESS", &posts(&fx)[0].1, json!({"address": "0xnot-an-address"}), t);
    assert!(of_type(&fx, "dispatch").is_empty());
    assert_eq!(part["email"]["fieldError"], "Failed to connect");
}

#[test]
fn switching_network_goes_through_the_frame() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e9", "method": "wallet_switchEthereumChain", "params": [{"chainId": "0x89"}]}), t);
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/SWITCH_NETWORK");
    assert_eq!(payload["chainId"], 137);
    let (fx, _) = answer(&mut m, "@w3m-frame/SWITCH_NETWORK_SUCCESS", &id, json!({"chainId": 137}), t + 1);
    assert_eq!(of_type(&fx, "answer")[0]["result"], Value::Null);
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e10", "method": "eth_chainId"}), t + 2);
    assert_eq!(of_type(&fx, "answer")[0]["result"], "0x89");
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e11", "method": "wallet_switchEthereumChain", "params": [{"chainId": "0x2105"}]}), t + 3);
    assert_eq!(of_type(&fx, "answer")[0]["error"]["code"], 4902, "a network the project does not have");
}

#[test]
fn the_engines_revoke_on_disconnect_is_answered_without_an_approval() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "request", "key": "p7", "method": "wallet_revokePermissions", "params": [{"eth_accounts": {}}]}), t);
    assert_eq!(of_type(&fx, "answer")[0], &json!({"type": "answer", "key": "p7", "result": null}));
    assert!(part["approval"].is_null() && posts(&fx).is_empty());
}

#[test]
fn disconnect_signs_out_in_the_frame() {
    let mut m = module();
    let t = login(&mut m);
    let (fx, part) = m.handle(&json!({"type": "release"}), t);
    assert_eq!(posts(&fx)[0].0, "@w3m-app/SIGN_OUT");
    assert!(of_type(&fx, "startTimer").iter().any(|e| e["id"] == "embedded-signout" && e["ms"] == 3_000));
    assert!(part["user"].is_null());
    let (fx, _) = m.handle(&json!({"type": "request", "key": "e1", "method": "eth_accounts"}), t + 1);
    assert_eq!(of_type(&fx, "answer")[0]["result"], json!([]));
}

#[test]
fn the_email_change_takes_two_codes() {
    let mut m = module();
    let t = login(&mut m);
    m.handle(&json!({"type": "openUpdateEmail"}), t);
    let (fx, _) = m.handle(&json!({"type": "updateEmailSubmit", "email": "b@example.com"}), t);
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/UPDATE_EMAIL");
    let (_, part) = answer(&mut m, "@w3m-frame/UPDATE_EMAIL_SUCCESS", &id, json!({"action": "VERIFY_PRIMARY_OTP"}), t);
    assert_eq!(part["update"]["step"], "primaryOtp");
    let (fx, _) = m.handle(&json!({"type": "updateEmailOtp", "otp": "111111"}), t);
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/UPDATE_EMAIL_PRIMARY_OTP");
    let (_, part) = answer(&mut m, "@w3m-frame/UPDATE_EMAIL_PRIMARY_OTP_SUCCESS", &id, json!({"action": "VERIFY_SECONDARY_OTP"}), t);
    assert_eq!(part["update"]["step"], "secondaryOtp");
    let (fx, _) = m.handle(&json!({"type": "updateEmailOtp", "otp": "222222"}), t);
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/UPDATE_EMAIL_SECONDARY_OTP");
    let (_, part) = answer(&mut m, "@w3m-frame/UPDATE_EMAIL_SECONDARY_OTP_SUCCESS", &id, json!({"email": "b@example.com"}), t);
    assert_eq!(part["update"]["step"], "done");
    assert_eq!(part["user"]["email"], "b@example.com");
}

#[test]
fn social_login_opens_the_providers_page_in_the_popup_and_popup_closed_is_reported() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, part) = m.handle(&json!({"type": "socialLogin", "provider": "google"}), t);
    assert_eq!(part["social"]["busy"], true);
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!((ty.as_str(), payload), ("@w3m-app/GET_SOCIAL_REDIRECT_URI", json!({"provider": "google"})));
    let (fx, _) = answer(&mut m, "@w3m-frame/GET_SOCIAL_REDIRECT_URI_SUCCESS", &id, json!({"uri": "http://127.0.0.1:9/auth"}), t);
    assert_eq!(of_type(&fx, "popup")[0]["url"], "http://127.0.0.1:9/auth");
    let (fx, part) = m.handle(&json!({"type": "popupClosed"}), t + 5);
    assert_eq!(part["social"]["error"], "Popup closed");
    assert!(of_type(&fx, "emit").iter().any(|e| e["detail"]["message"] == "Popup closed"));
    let (fx, _) = m.handle(&json!({"type": "socialLogin", "provider": "myspace"}), t);
    assert_eq!(of_type(&fx, "alert")[0]["key"], "INVALID_EVENT");
}

#[test]
fn the_social_result_logs_in() {
    let mut m = module();
    let t = ready(&mut m, false);
    m.handle(&json!({"type": "socialLogin", "provider": "github"}), t);
    let (fx, _) = m.handle(&json!({"type": "socialResult", "uri": "http://127.0.0.1:9/w/v1/social/result?r=abc"}), t);
    assert_eq!(of_type(&fx, "popupClose").len(), 1);
    let (ty, id, payload) = posts(&fx).remove(0);
    assert_eq!((ty.as_str(), payload["uri"].as_str()), ("@w3m-app/CONNECT_SOCIAL", Some("http://127.0.0.1:9/w/v1/social/result?r=abc")));
    let (fx, _) = answer(&mut m, "@w3m-frame/CONNECT_SOCIAL_SUCCESS", &id, json!({"address": ADDR, "userName": "octocat", "socialProvider": "github"}), t);
    let id = posts(&fx)[0].1.clone();
    let (fx, part) = answer(&mut m, "@w3m-frame/GET_USER_SUCCESS", &id, json!({"address": ADDR, "userName": "octocat", "socialProvider": "github"}), t);
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"]["type"] == "connectEmbedded"));
    assert_eq!(part["user"]["userName"], "octocat");
}

#[test]
fn farcaster_shows_a_qr_code_of_the_link_and_connects_once_approved() {
    let mut m = module();
    let t = ready(&mut m, false);
    let (fx, _) = m.handle(&json!({"type": "farcasterLogin"}), t);
    assert!(of_type(&fx, "dispatch").iter().any(|d| d["event"]["view"] == "ConnectingFarcaster"));
    let id = posts(&fx)[0].1.clone();
    let (fx, part) = answer(&mut m, "@w3m-frame/GET_FARCASTER_URI_SUCCESS", &id, json!({"url": "http://127.0.0.1:9/farcaster?channelToken=x"}), t);
    assert!(part["farcaster"]["qr"].as_str().unwrap().starts_with("<svg"));
    let (ty, id, _) = posts(&fx).remove(0);
    assert_eq!(ty, "@w3m-app/CONNECT_FARCASTER");
    let (fx, _) = answer(&mut m, "@w3m-frame/CONNECT_FARCASTER_SUCCESS", &id, json!({"address": ADDR, "userName": "alice"}), t);
    assert_eq!(posts(&fx)[0].0, "@w3m-app/GET_USER");
}

#[test]
fn malformed_events_change_nothing_and_never_panic() {
    let mut m = module();
    let (_, before) = m.handle(&json!({"type": "context", "view": "Connect", "open": true}), 1);
    for bad in [json!({"type": "emailSubmit"}), json!({"type": "request", "key": "k"}), json!({"type": "nope"}), json!([1]), json!({"type": "init", "random": "short"})] {
        let (fx, part) = m.handle(&bad, 2);
        assert_eq!(of_type(&fx, "alert")[0]["key"], "INVALID_EVENT", "{bad}");
        assert_eq!(part, before);
    }
    let out: Value = serde_json::from_str(&m.dispatch_json("not json", 3.0)).unwrap();
    assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
}
