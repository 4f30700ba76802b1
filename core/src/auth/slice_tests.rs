//! The sign-in slice's flows (spec §4 "Sign-in flow"), through the engine and the sign-in module
//! as the shell routes them; the demo wallet's key is anvil's first (a well-known test key).

use crate::connect::storage::KEY_SIWX_SESSIONS;
use crate::host::harness::*;
use crate::host::Effect;
use k256::ecdsa::SigningKey;

/// anvil's first account's key.
const KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const RANDOM: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn config(extra: Value) -> Value {
    let mut c = json!({"type": "siwxConfig", "domain": "dapp.test", "uri": "https://dapp.test", "appName": "Dapp", "random": RANDOM});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

/// personal_sign of `message` by anvil's first key.
fn sign(message: &str) -> String {
    let key = SigningKey::from_slice(&crate::chain::hash::from_hex(&format!("0x{KEY}")).unwrap()).unwrap();
    let hash = crate::chain::hash::hash_message(message);
    let (sig, rec) = key.sign_prehash_recoverable(&hash);
    let mut bytes = sig.to_bytes().to_vec();
    bytes.push(27 + rec.to_byte());
    crate::chain::hash::to_hex(&bytes)
}

/// Sign-in configured, then the demo wallet connected from the modal.
fn connected(extra: Value) -> Harness {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(config(extra));
    h.send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h
}

/// The message the wallet is asked to sign (personal_sign's hex, as text).
fn asked_message(h: &Harness) -> String {
    let (_, params) = h.request("personal_sign");
    let hex = params[0].as_str().unwrap().to_string();
    String::from_utf8(crate::chain::hash::from_hex(&hex).unwrap()).unwrap()
}

fn locked(h: &Harness) -> bool {
    h.snap.part("siwx")["locked"].as_bool().unwrap()
}

#[test]
fn once_connected_without_a_session_the_modal_shows_sign_in_with_the_app_the_account_and_the_network() {
    let h = connected(json!({}));
    assert!(h.snap.open, "the modal opens again for sign-in");
    assert_eq!(h.view(), View::SiwxSignMessage);
    let s = h.snap.part("siwx");
    assert_eq!(s["appName"], "Dapp");
    assert_eq!(s["session"], Value::Null);
    assert_eq!(s["request"]["address"], ADDR);
    assert_eq!(s["request"]["network"], "Anvil 31337");
    assert_eq!(s["request"]["state"], "idle");
    assert_eq!(s["required"], false);
}

#[test]
fn signing_asks_the_wallet_for_an_eip4361_message_of_this_page_then_keeps_the_session_emits_signin_and_closes() {
    let mut h = connected(json!({"statement": "Sign in to Dapp"}));
    h.send(json!({"type": "siwxSign"}));
    assert_eq!(h.snap.part("siwx")["request"]["state"], "signing");
    let message = asked_message(&h);
    let fields = crate::auth::siwx::parse_siwx_message(&message).unwrap();
    assert_eq!((fields.domain.as_str(), fields.account_address.as_str(), fields.chain_id, fields.uri.as_str()), ("dapp.test", ADDR, 31337, "https://dapp.test"));
    assert_eq!(fields.statement.as_deref(), Some("Sign in to Dapp"));
    assert_eq!(fields.issued_at, "1970-01-01T00:00:01.000Z", "issued at the time given");
    assert_eq!(fields.expiration_time.as_deref(), Some("1970-01-02T00:00:01.000Z"), "a day later by default");
    assert!(fields.nonce.len() >= 8);
    h.answer("personal_sign", json!(sign(&message)));
    let detail = h.emitted("signin").expect("signin");
    assert_eq!(detail["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert_eq!(detail["message"], message);
    assert!(!h.snap.open, "signing in closes the modal");
    let stored = h.persisted(KEY_SIWX_SESSIONS).flatten().expect("the session is kept");
    assert!(stored.contains(&fields.nonce));
    assert_eq!(h.snap.part("siwx")["session"]["caipAddress"], format!("eip155:31337:{ADDR}"));
}

#[test]
fn two_sign_ins_get_two_different_nonces() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"}));
    let first = crate::auth::siwx::parse_siwx_message(&asked_message(&h)).unwrap().nonce;
    h.reject("personal_sign", 4001);
    h.send(json!({"type": "siwxSign"}));
    let second = crate::auth::siwx::parse_siwx_message(&asked_message(&h)).unwrap().nonce;
    assert_ne!(first, second);
}

#[test]
fn a_wallet_rejection_says_error_signing_message_and_keeps_the_view_to_try_again() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"})).reject("personal_sign", 4001);
    assert_eq!(h.view(), View::SiwxSignMessage);
    assert_eq!(h.snap.part("siwx")["request"]["error"], "Error signing message");
    assert_eq!(h.snap.part("siwx")["request"]["state"], "error");
    assert_eq!(h.emitted("error").unwrap()["message"], "Error signing message");
    h.send(json!({"type": "siwxSign"}));
    assert!(h.try_request("personal_sign").is_some(), "signing again asks the wallet again");
}

#[test]
fn a_signature_by_another_key_fails_authentication_disconnects_and_returns_to_connect() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"}));
    let message = asked_message(&h);
    // Signed over another text: recovers to another key; the chain is asked (ERC-1271) and says no.
    h.answer("personal_sign", json!(sign("something else")));
    let (id, url, body) = h.fetch("127.0.0.1:8337");
    assert!(body.unwrap().contains("eth_call"), "{url}");
    assert!(message.len() > 10);
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": r#"{"jsonrpc":"2.0","id":1,"result":"0x"}"#}));
    assert_eq!(h.emitted("error").unwrap()["message"], "A problem occurred while trying initialize authentication");
    assert_eq!(h.snap.status.get("eip155"), Some(&crate::connect::connection::Status::Disconnected));
    assert_eq!(h.view(), View::Connect);
    assert!(h.emitted("signin").is_none());
}

#[test]
fn a_contract_account_whose_chain_check_says_valid_signs_in() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"}));
    h.answer("personal_sign", json!(format!("0x{}", "ab".repeat(100))));
    let (id, ..) = h.fetch("127.0.0.1:8337");
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": r#"{"jsonrpc":"2.0","id":1,"result":"0x1626ba7e00000000000000000000000000000000000000000000000000000000"}"#}));
    assert!(h.emitted("signin").is_some());
}

#[test]
fn while_required_closing_does_nothing_and_cancelling_disconnects() {
    let mut h = connected(json!({"required": true}));
    assert!(locked(&h), "closing is blocked: no close button, Escape and the backdrop do nothing");
    assert!(!h.snap.can_go_back, "and no way back");
    // The visitor's Escape or backdrop click is refused: the modal stays and shakes for 500 ms.
    h.send(json!({"type": "dismiss"}));
    assert!(h.snap.open && h.snap.shake, "refused close shakes");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 500 } if id == "shake")), "for 500 ms");
    h.timer_fires("shake");
    assert!(!h.snap.shake, "then it ends");
    // The page may close the modal itself (`close()`): opening it again asks again.
    h.send(json!({"type": "close"}));
    h.send(json!({"type": "open"}));
    assert_eq!(h.view(), View::SiwxSignMessage, "asked again on open");
    h.send(json!({"type": "siwxCancel"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&crate::connect::connection::Status::Disconnected));
    assert_eq!(h.view(), View::Connect);
    assert!(!locked(&h), "nothing to sign: the modal can close again");
    h.send(json!({"type": "open"})).send(json!({"type": "dismiss"}));
    assert!(!h.snap.open && !h.snap.shake, "the visitor's close closes again");
}

#[test]
fn not_required_cancelling_closes_and_leaves_the_account_connected_without_asking_again() {
    let mut h = connected(json!({}));
    assert!(!locked(&h), "sign-in not required: closing is not blocked");
    h.send(json!({"type": "siwxCancel"}));
    assert!(!h.snap.open);
    assert_eq!(h.snap.status.get("eip155"), Some(&crate::connect::connection::Status::Connected));
    h.send(json!({"type": "open"}));
    assert_eq!(h.view(), View::Account, "not asked again for the same account");
}

#[test]
fn a_stored_session_of_this_page_holds_after_a_reload_and_one_for_another_domain_does_not() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"}));
    let message = asked_message(&h);
    h.answer("personal_sign", json!(sign(&message)));
    let stored = h.persisted(KEY_SIWX_SESSIONS).flatten().unwrap();

    // Reload: the wallet reconnects silently and the stored session holds: nothing is asked.
    let reload = |domain: &str| {
        let mut h = Harness::new(json!({}));
        h.start(json!({"@wallet-modal/connections": format!(r#"[{{"namespace":"eip155","connectorId":"{RDNS}","accounts":["{ADDR}"],"caipNetworkId":"eip155:31337"}}]"#)}));
        h.send(config(json!({"domain": domain, "stored": stored.clone()})));
        h.announce();
        h.answer("eth_accounts", json!([ADDR]));
        h.answer("eth_chainId", json!("0x7a69"));
        h
    };
    let h = reload("dapp.test");
    assert_eq!(h.snap.part("siwx")["session"]["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert!(!h.snap.open, "signed in: nothing to ask");
    let h = reload("evil.test");
    assert_eq!(h.snap.part("siwx")["session"], Value::Null, "a session of another page is not this one's");
    assert_eq!(h.view(), View::SiwxSignMessage);
}

#[test]
fn a_session_expires_at_its_messages_expiration_time_signs_out_and_asks_again() {
    let mut h = connected(json!({"expiresInSeconds": 60}));
    h.send(json!({"type": "siwxSign"}));
    let message = asked_message(&h);
    h.answer("personal_sign", json!(sign(&message)));
    assert!(!h.snap.open);
    h.timer_fires("siwx-expiry");
    assert_eq!(h.emitted("signout").unwrap()["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert!(h.snap.open && h.view() == View::SiwxSignMessage, "expiry asks again");
}

#[test]
fn switching_to_a_network_without_a_session_asks_again_and_disconnecting_signs_out() {
    let mut h = connected(json!({}));
    h.send(json!({"type": "siwxSign"}));
    let message = asked_message(&h);
    h.answer("personal_sign", json!(sign(&message)));
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a6a"}));
    assert!(h.snap.open && h.view() == View::SiwxSignMessage, "no session on 31338");
    assert_eq!(h.snap.part("siwx")["request"]["network"], "Anvil 31338");
    h.send(json!({"type": "siwxCancel"}));
    h.send(json!({"type": "disconnect"}));
    let out = h.effects.iter().find_map(|e| match e { Effect::Emit { name: "signout", detail } => Some(serde_json::to_value(detail).unwrap()), _ => None });
    assert_eq!(out.unwrap()["caipAddress"], format!("eip155:31337:{ADDR}"));
}

#[test]
fn with_the_hosts_verifier_its_nonce_message_and_verdict_decide() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(config(json!({"custom": true, "createsMessage": true})));
    h.send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    // First the host is asked whether the account has a session.
    let (_, params) = h.request("getSession");
    assert_eq!(params[0]["caipAddress"], format!("eip155:31337:{ADDR}"));
    h.answer("getSession", Value::Null);
    assert_eq!(h.view(), View::SiwxSignMessage);
    h.send(json!({"type": "siwxSign"}));
    h.answer("getNonce", json!("hostnonce123"));
    let (_, params) = h.request("createMessage");
    assert_eq!(params[0]["nonce"], "hostnonce123");
    assert_eq!(params[0]["chainId"], "31337");
    h.answer("createMessage", json!("the host's own text"));
    assert_eq!(asked_message(&h), "the host's own text");
    h.answer("personal_sign", json!(sign("the host's own text")));
    let (_, params) = h.request("verify");
    assert_eq!(params[0]["message"], "the host's own text");
    assert_eq!(params[0]["caipAddress"], format!("eip155:31337:{ADDR}"));
    h.answer("verify", json!(true));
    assert!(h.emitted("signin").is_some());
    assert!(h.persisted(KEY_SIWX_SESSIONS).is_none(), "the host keeps its sessions");
}

#[test]
fn the_hosts_verifier_saying_no_or_a_bad_nonce_fails_authentication() {
    for bad_nonce in [true, false] {
        let mut h = Harness::new(json!({}));
        h.start(json!({})).announce().send(config(json!({"custom": true})));
        h.send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
        h.answer("eth_requestAccounts", json!([ADDR]));
        h.answer("eth_chainId", json!("0x7a69"));
        h.answer("getSession", json!(null));
        h.send(json!({"type": "siwxSign"}));
        if bad_nonce {
            h.answer("getNonce", json!("short"));
        } else {
            h.answer("getNonce", json!("goodnonce1"));
            let message = asked_message(&h);
            h.answer("personal_sign", json!(sign(&message)));
            h.answer("verify", json!(false));
        }
        assert_eq!(h.emitted("error").unwrap()["message"], "A problem occurred while trying initialize authentication", "bad nonce: {bad_nonce}");
        assert_eq!(h.view(), View::Connect);
    }
}

#[test]
fn check_session_refuses_replays_other_domains_chains_accounts_expired_and_oversized_messages() {
    use crate::auth::slice::check_session;
    let fields = |domain: &str, chain: u64, exp: &str| crate::auth::siwx::SiwxMessageFields {
        domain: domain.into(),
        account_address: ADDR.into(),
        chain_id: chain,
        uri: "https://dapp.test".into(),
        version: "1".into(),
        nonce: "abcdefgh12".into(),
        statement: None,
        resources: None,
        issued_at: "2026-01-01T00:00:00.000Z".into(),
        expiration_time: Some(exp.into()),
        not_before: None,
        request_id: None,
    };
    let text = |d: &str, c: u64, e: &str| crate::auth::siwx::create_siwx_message(&fields(d, c, e)).unwrap();
    let now = 1_767_225_700_000; // 2026-01-01T00:01:40Z
    let acct = format!("eip155:1:{ADDR}");
    let ok = text("dapp.test", 1, "2026-01-02T00:00:00.000Z");
    assert!(check_session("dapp.test", now, &acct, &ok, "0x", Some("abcdefgh12")).is_ok());
    let err = |r: Result<_, String>| r.unwrap_err();
    assert!(err(check_session("dapp.test", now, &acct, &ok, "0x", Some("othernonce1"))).contains("nonce"));
    assert!(err(check_session("dapp.test", now, &acct, &text("evil.test", 1, "2026-01-02T00:00:00.000Z"), "0x", None)).contains("evil.test"));
    assert!(err(check_session("dapp.test", now, &acct, &text("dapp.test", 5, "2026-01-02T00:00:00.000Z"), "0x", None)).contains("chain 5"));
    assert!(err(check_session("dapp.test", now, &acct, &text("dapp.test", 1, "2026-01-01T00:00:01.000Z"), "0x", None)).contains("expired"));
    assert!(err(check_session("dapp.test", now, "eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8", &ok, "0x", None)).contains("another account"));
    assert!(err(check_session("dapp.test", now, &acct, &"x".repeat(100_000), "0x", None)).contains("longer than"));
    assert!(err(check_session("dapp.test", now, "bitcoin:x:y", &ok, "0x", None)).contains("not supported"));
}

/// Sign-in configured, an email login up to the frame's Login user (the test answers GET_USER).
fn email_login_until_user() -> Harness {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(config(json!({})));
    h.send(json!({"type": "open"}));
    h.send(json!({"type": "emailSubmit", "email": "a@example.com"}));
    h.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
    h.send(json!({"type": "emailOtp", "otp": "123456"})).frame_answer("CONNECT_OTP", json!({}));
    h.frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h
}

#[test]
fn the_embedded_wallets_sign_in_at_login_completes_sign_in_with_no_second_prompt() {
    let mut h = email_login_until_user();
    // What the frame signs at login (frame/src/siwx.ts): a sign-in to this page's domain.
    let fields = crate::auth::siwx::SiwxMessageFields {
        domain: "dapp.test".into(),
        account_address: ADDR.into(),
        chain_id: 31337,
        uri: "https://dapp.test".into(),
        version: "1".into(),
        nonce: "a1b2c3d4e5f60718293a4b5c".into(),
        statement: Some("Sign in with your account to continue.".into()),
        resources: None,
        issued_at: "1970-01-01T00:00:01.000Z".into(),
        expiration_time: Some("1970-01-02T00:00:01.000Z".into()),
        not_before: None,
        request_id: None,
    };
    let message = crate::auth::siwx::create_siwx_message(&fields).unwrap();
    h.frame_answer("GET_USER", json!({"address": ADDR, "email": "a@example.com", "chainId": 31337, "message": message, "signature": sign(&message)}));
    let detail = h.emitted("signin").expect("signed in at login");
    assert_eq!(detail["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert_ne!(h.view(), View::SiwxSignMessage, "no second prompt");
    assert_eq!(h.snap.part("siwx")["session"]["message"], message.as_str());
}

#[test]
fn an_embedded_sign_in_for_another_domain_is_not_taken_and_the_visitor_is_asked() {
    let mut h = email_login_until_user();
    let text = format!("evil.test wants you to sign in with your Ethereum account:\n{ADDR}\n\n\nURI: https://evil.test\nVersion: 1\nChain ID: 31337\nNonce: abcdefgh12\nIssued At: 1970-01-01T00:00:01.000Z");
    h.frame_answer("GET_USER", json!({"address": ADDR, "chainId": 31337, "message": text, "signature": sign(&text)}));
    assert!(h.emitted("signin").is_none());
    assert_eq!(h.view(), View::SiwxSignMessage, "asked instead");
}

#[test]
fn cancelling_a_required_sign_in_on_another_network_switches_back_to_the_last_signed_one() {
    let mut h = connected(json!({"required": true}));
    h.send(json!({"type": "siwxSign"}));
    let message = asked_message(&h);
    h.answer("personal_sign", json!(sign(&message)));
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a6a"}));
    assert_eq!(h.view(), View::SiwxSignMessage, "no session on 31338: asked");
    h.send(json!({"type": "siwxCancel"}));
    let (_, params) = h.request("wallet_switchEthereumChain");
    assert_eq!(params[0]["chainId"], "0x7a69", "back to 31337, where the account has a session");
    assert_eq!(h.snap.status.get("eip155"), Some(&crate::connect::connection::Status::Connected), "still connected");
}
