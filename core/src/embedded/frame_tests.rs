//! Unit tests of `frame`.

use super::*;
use crate::json;

fn ready_client(now: u64) -> FrameClient {
    let mut c = FrameClient::new();
    c.load_started(now);
    c.on_message(FRAME_READY, None, &Value::Null, now);
    c.tick(now + 500);
    c
}

#[test]
fn frame_ready_on_ready_event_plus_500_ms() {
    let mut c = FrameClient::new();
    c.load_started(0);
    assert!(!c.is_ready(0));
    c.on_message(FRAME_READY, None, &Value::Null, 1_000);
    assert!(!c.is_ready(1_499));
    assert!(c.is_ready(1_500));
}

#[test]
fn requests_before_ready_are_queued_and_flushed_when_ready() {
    let mut c = FrameClient::new();
    c.load_started(0);
    let out = c.request(AppEvent::GetUser, "r1", json!({}), 10).unwrap();
    assert!(out.is_none());
    c.on_message(FRAME_READY, None, &Value::Null, 100);
    assert_eq!(c.deadline(), Some(600));
    assert!(c.tick(599).outgoing.is_empty());
    let r = c.tick(600);
    assert_eq!(r.outgoing.len(), 1);
    assert_eq!(r.outgoing[0].msg_type, "@w3m-app/GET_USER");
    assert_eq!(r.outgoing[0].id, "r1");
    assert!(r.became_ready);
    assert!(c.tick(700).outgoing.is_empty());
}

#[test]
fn response_matched_by_id_success_and_error_events() {
    let mut c = ready_client(0);
    let out = c.request(AppEvent::GetChainId, "a", json!({}), 1_000).unwrap().unwrap();
    assert_eq!(out.msg_type, "@w3m-app/GET_CHAIN_ID");
    c.request(AppEvent::GetUser, "b", json!({}), 1_000).unwrap();
    // wrong id / unrelated type are ignored
    assert!(c.on_message("@w3m-frame/GET_CHAIN_ID_SUCCESS", Some("zzz"), &json!({}), 1_001).results.is_empty());
    assert!(c.on_message("@w3m-frame/GET_USER_SUCCESS", Some("a"), &json!({}), 1_001).results.is_empty());
    let r = c.on_message("@w3m-frame/GET_CHAIN_ID_SUCCESS", Some("a"), &json!({"chainId": 1}), 1_002);
    assert_eq!(r.results[0].result, Ok(json!({"chainId": 1})));
    let r = c.on_message("@w3m-frame/GET_USER_ERROR", Some("b"), &json!({"message": "no session"}), 1_003);
    assert_eq!(r.results[0].result.as_ref().unwrap_err().message(), "no session");
    assert_eq!(c.pending_count(), 0);
}

#[test]
fn frame_error_event_without_message_gives_an_error_occurred() {
    let mut c = ready_client(0);
    c.request(AppEvent::SignOut, "s", json!({}), 600).unwrap();
    let r = c.on_message("@w3m-frame/SIGN_OUT_ERROR", Some("s"), &json!({}), 700);
    assert_eq!(r.results[0].result.as_ref().unwrap_err().message(), "An error occurred");
}

#[test]
fn iframe_load_timeout_20000_ms_aborts_pending_and_alerts() {
    let mut c = FrameClient::new();
    c.load_started(0);
    c.request(AppEvent::ConnectEmail, "e", json!({"email": "a@b.co"}), 0).unwrap();
    c.request(AppEvent::RpcRequest, "r", json!({"method": "eth_chainId", "chainNamespace": "eip155"}), 0).unwrap();
    assert_eq!(c.deadline(), Some(20_000));
    assert!(c.tick(19_999).results.is_empty());
    let r = c.tick(20_000);
    assert_eq!(r.alert, Some(WmError::IframeLoadFailed));
    assert_eq!(r.results.len(), 2);
    assert_eq!(r.results[0].result, Err(WmError::SomethingWentWrong));
    assert_eq!(r.results[1].result.as_ref().unwrap_err().message(), "Request was aborted");
    assert_eq!(
        c.request(AppEvent::GetUser, "x", json!({}), 20_001).unwrap_err().message(),
        "Unable to load email login dependency"
    );
    // reloading allows retrying
    c.load_started(30_000);
    assert!(c.request(AppEvent::GetUser, "x", json!({}), 30_001).is_ok());
}

#[test]
fn iframe_load_failed_event_aborts_pending_requests() {
    let mut c = FrameClient::new();
    c.load_started(0);
    c.request(AppEvent::GetUser, "u", json!({}), 0).unwrap();
    let r = c.on_load_failed();
    assert_eq!(r.alert, Some(WmError::IframeLoadFailed));
    assert_eq!(r.results[0].result, Err(WmError::SomethingWentWrong));
}

#[test]
fn email_device_otp_social_requests_time_out_after_120000_ms() {
    for ev in [AppEvent::ConnectEmail, AppEvent::ConnectDevice, AppEvent::ConnectOtp, AppEvent::ConnectSocial, AppEvent::GetSocialRedirectUri] {
        assert_eq!(ev.timeout_ms(), Some(120_000));
    }
    assert_eq!(AppEvent::GetUser.timeout_ms(), None);
    assert_eq!(AppEvent::RpcRequest.timeout_ms(), None);
    let mut c = ready_client(0);
    c.request(AppEvent::ConnectOtp, "o", json!({"otp": "123456"}), 1_000).unwrap();
    c.request(AppEvent::RpcRequest, "r", json!({"method": "personal_sign", "chainNamespace": "eip155"}), 1_000).unwrap();
    assert_eq!(c.deadline(), Some(121_000));
    assert!(c.tick(120_999).results.is_empty());
    let r = c.tick(121_000);
    assert_eq!(r.alert, Some(WmError::IframeRequestTimeout));
    let msgs: Vec<String> = r.results.iter().map(|x| x.result.as_ref().unwrap_err().message()).collect();
    assert_eq!(msgs, vec!["Something went wrong", "Request was aborted"]);
    assert_eq!(c.deadline(), None);
}

#[test]
fn request_payloads_are_validated() {
    let mut c = ready_client(0);
    assert_eq!(c.request(AppEvent::ConnectEmail, "1", json!({"email": "bad"}), 600), Err(WmError::InvalidEmail));
    assert_eq!(c.request(AppEvent::UpdateEmail, "1", json!({"email": 3}), 600), Err(WmError::InvalidEmail));
    assert_eq!(c.request(AppEvent::ConnectOtp, "1", json!({"otp": 123456}), 600), Err(WmError::InvalidOtp));
    assert_eq!(c.request(AppEvent::RpcRequest, "1", json!({"method": "eth_sign", "chainNamespace": "eip155"}), 600), Err(WmError::RpcMethodNotAllowed));
    c.request(AppEvent::GetUser, "dup", json!({}), 600).unwrap();
    assert_eq!(c.request(AppEvent::GetUser, "dup", json!({}), 600), Err(WmError::RpcInvalidRequest));
    assert_eq!(c.pending_count(), 1);
}

#[test]
fn leaving_the_approval_leaves_what_the_frame_has_to_the_frame_and_keeps_safe_requests() {
    let mut c = ready_client(0);
    c.request(AppEvent::RpcRequest, "sign", json!({"method": "personal_sign", "chainNamespace": "eip155"}), 600).unwrap();
    c.request(AppEvent::RpcRequest, "bal", json!({"method": "eth_getBalance", "chainNamespace": "eip155"}), 600).unwrap();
    c.request(AppEvent::GetUser, "user", json!({}), 600).unwrap();
    let r = c.abort_rpc("abort-1");
    assert!(r.results.is_empty(), "the frame answers what it has (approved ones keep their answer)");
    assert_eq!(r.outgoing[0].msg_type, "@w3m-app/RPC_ABORT");
    assert_eq!(c.pending_count(), 3);
}

#[test]
fn leaving_the_approval_rejects_signing_requests_still_queued_for_a_loading_frame() {
    let mut c = FrameClient::new();
    c.load_started(0);
    c.request(AppEvent::RpcRequest, "sign", json!({"method": "personal_sign", "chainNamespace": "eip155"}), 10).unwrap();
    c.request(AppEvent::RpcRequest, "bal", json!({"method": "eth_getBalance", "chainNamespace": "eip155"}), 10).unwrap();
    let r = c.abort_rpc("abort-1");
    assert_eq!(r.results.len(), 1);
    assert_eq!((r.results[0].id.as_str(), &r.results[0].result), ("sign", &Err(WmError::UserRejected)));
    assert!(r.outgoing.is_empty(), "nothing was posted to a frame not loaded yet");
    assert_eq!(c.pending_count(), 1);
}

#[test]
fn an_rpc_error_keeps_the_frames_code_so_a_rejection_in_the_frame_is_4001() {
    let mut c = ready_client(0);
    c.request(AppEvent::RpcRequest, "sign", json!({"method": "personal_sign", "chainNamespace": "eip155"}), 600).unwrap();
    let r = c.on_message("@w3m-frame/RPC_REQUEST_ERROR", Some("sign"), &json!({"message": "User rejected the request.", "code": 4001}), 700);
    let e = r.results[0].result.clone().unwrap_err();
    assert_eq!((e.code(), e.message()), (4001, "User rejected the request.".to_string()));
    c.request(AppEvent::GetUser, "user", json!({}), 800).unwrap();
    let r = c.on_message("@w3m-frame/GET_USER_ERROR", Some("user"), &json!({"message": "nope", "code": 4001}), 900);
    assert_eq!(r.results[0].result, Err(WmError::frame_error(Some("nope"))), "only RPC errors carry a code");
}

#[test]
fn app_event_names_round_trip() {
    for e in AppEvent::ALL {
        assert_eq!(AppEvent::from_name(e.name()), Some(e));
        assert!(e.app_type().starts_with("@w3m-app/"));
        assert!(e.success_type().ends_with("_SUCCESS"));
        assert!(e.error_type().ends_with("_ERROR"));
        assert_eq!(serde_json::to_value(e).unwrap(), serde_json::json!(e.name()));
    }
}

#[test]
fn frame_url_carries_the_query_parameters() {
    assert_eq!(
        frame_url("https://secure.example/sdk", "pid", "eip155:1", "1.0.0", false, Some("https://rpc/x?y=1")),
        "https://secure.example/sdk?projectId=pid&chainId=eip155%3A1&version=1.0.0&enableLogger=false&rpcUrl=https%3A%2F%2Frpc%2Fx%3Fy%3D1"
    );
    assert!(frame_url("https://a/b?c=d", "p", "1", "v", true, None).starts_with("https://a/b?c=d&projectId=p"));
}

#[test]
fn email_connect_response_action_is_verify_device_verify_otp_or_connect() {
    assert_eq!(parse_email_connect_action(&json!({"action": "VERIFY_DEVICE"})), Some(EmailConnectAction::VerifyDevice));
    assert_eq!(parse_email_connect_action(&json!({"action": "VERIFY_OTP"})), Some(EmailConnectAction::VerifyOtp));
    assert_eq!(parse_email_connect_action(&json!({"action": "CONNECT"})), Some(EmailConnectAction::Connect));
    assert_eq!(parse_email_connect_action(&json!({"action": "OTHER"})), None);
    assert_eq!(parse_email_connect_action(&json!(null)), None);
}

#[test]
fn email_update_is_two_steps_primary_then_secondary_otp() {
    let mut f = EmailUpdateFlow::new();
    assert_eq!(f.start("bad"), Err(WmError::InvalidEmail));
    assert_eq!(f.step, EmailUpdateStep::Idle);
    assert_eq!(f.start("new@b.co").unwrap(), json!({"email": "new@b.co"}));
    f.on_update_email_success(&json!({"action": "VERIFY_PRIMARY_OTP"}));
    assert_eq!(f.step, EmailUpdateStep::PrimaryOtp { new_email: "new@b.co".into() });
    assert_eq!(f.otp_request("111111").unwrap().0, AppEvent::UpdateEmailPrimaryOtp);
    assert_eq!(f.otp_request(""), Err(WmError::InvalidOtp));
    assert_eq!(f.on_secondary_otp_success(), None);
    f.on_primary_otp_success();
    assert_eq!(f.otp_request("222222").unwrap().0, AppEvent::UpdateEmailSecondaryOtp);
    assert_eq!(f.on_secondary_otp_success(), Some("new@b.co".into()));
    assert!(matches!(f.step, EmailUpdateStep::Done { .. }));
    let mut g = EmailUpdateFlow::new();
    g.start("x@y.io").unwrap();
    g.on_update_email_error();
    assert_eq!(g.step, EmailUpdateStep::Idle);
}

proptest::proptest! {
    #[test]
    fn frame_inputs_never_panic(t in ".*", id in ".*", body in ".*", now in 0u64..1_000_000) {
        let mut c = ready_client(0);
        let payload: Value = serde_json::from_str(&body).unwrap_or(Value::String(body.clone()));
        let _ = c.request(AppEvent::RpcRequest, &id, payload.clone(), now);
        let _ = c.request(AppEvent::ConnectEmail, &format!("{id}e"), payload.clone(), now);
        let _ = c.on_message(&t, Some(&id), &payload, now);
        let _ = c.tick(now + 200_000);
        let _ = parse_email_connect_action(&payload);
        let _ = AppEvent::from_name(&t);
        let _ = frame_url(&t, &id, &body, &t, true, Some(&id));
    }
}

#[test]
fn an_rpc_request_of_no_family_the_embedded_wallet_serves_is_refused() {
    let mut c = FrameClient::new();
    assert_eq!(c.request(AppEvent::RpcRequest, "a", json!({"method": "eth_call"}), 0), Err(WmError::RpcMethodNotAllowed), "no family named");
    assert_eq!(c.request(AppEvent::RpcRequest, "b", json!({"method": "eth_call", "chainNamespace": "cosmos"}), 0), Err(WmError::RpcMethodNotAllowed));
    assert!(c.request(AppEvent::RpcRequest, "c", json!({"method": "eth_call", "chainNamespace": "eip155"}), 0).is_ok());
}
