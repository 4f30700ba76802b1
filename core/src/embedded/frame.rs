//! The embedded secure frame, sans-IO (spec sections 4, 7, 8, 9).
//!
//! * Loading: the host calls [`FrameClient::load_started`]; the frame must send its ready event
//!   within 20 000 ms, otherwise the load fails (`iframe_load_failed`).
//! * Readiness: ready event + 500 ms. Requests made before that are queued and flushed by
//!   [`FrameClient::tick`] once ready.
//! * Requests: each carries an id (random, passed in by the caller); its response is matched by id
//!   through the event's `_SUCCESS` / `_ERROR` type. Email, device, otp, social and social-redirect
//!   requests time out after 120 000 ms (`iframe_request_timeout`).
//! * `iframe_load_failed` / `iframe_request_timeout` abort every pending request: 'Request was
//!   aborted' for RPC requests, 'Something went wrong' otherwise, and raise the matching alert.
//!   After a load failure new requests fail with 'Unable to load email login dependency'.
//! * An error event rejects with its payload message or 'An error occurred'.
//! * Rejecting an approval aborts pending RPC requests that need approval (RPC abort); safe
//!   methods are not aborted.
//!
//! Wire format (posted messages): app → frame `{"type": "@w3m-app/CONNECT_EMAIL", "id": "…",
//! "payload": …}`; frame → app `{"type": "@w3m-frame/CONNECT_EMAIL_SUCCESS", "id": "…",
//! "payload": …}` (or `_ERROR` with `{"message": "…"}`); readiness `{"type": "@w3m-frame/READY"}`.

use serde::{Deserialize, Serialize};
use crate::service::json::Value;
use std::collections::BTreeMap;

use crate::service::constants::{FRAME_REQUEST_TIMEOUT_MS, IFRAME_LOAD_TIMEOUT_MS, IFRAME_READY_DELAY_MS};
use crate::service::errors::WmError;
use crate::chain::eip155::rpc::{self, RpcPermission};
use crate::service::validation;

/// Type of the frame's ready event.
pub const FRAME_READY: &str = "@w3m-frame/READY";
/// Host-reported load failure event name.
pub const IFRAME_LOAD_FAILED: &str = "iframe_load_failed";
/// Host-reported request time-out event name.
pub const IFRAME_REQUEST_TIMEOUT: &str = "iframe_request_timeout";

/// App → frame events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AppEvent {
    SwitchNetwork,
    ConnectEmail,
    ConnectDevice,
    ConnectOtp,
    ConnectSocial,
    GetSocialRedirectUri,
    GetFarcasterUri,
    ConnectFarcaster,
    GetUser,
    SignOut,
    IsConnected,
    GetChainId,
    GetSmartAccountEnabledNetworks,
    InitSmartAccount,
    SetPreferredAccount,
    RpcRequest,
    UpdateEmail,
    UpdateEmailPrimaryOtp,
    UpdateEmailSecondaryOtp,
    SyncTheme,
    SyncDappData,
    Reload,
    RpcAbort,
}

impl AppEvent {
    pub const ALL: [AppEvent; 23] = [
        AppEvent::SwitchNetwork,
        AppEvent::ConnectEmail,
        AppEvent::ConnectDevice,
        AppEvent::ConnectOtp,
        AppEvent::ConnectSocial,
        AppEvent::GetSocialRedirectUri,
        AppEvent::GetFarcasterUri,
        AppEvent::ConnectFarcaster,
        AppEvent::GetUser,
        AppEvent::SignOut,
        AppEvent::IsConnected,
        AppEvent::GetChainId,
        AppEvent::GetSmartAccountEnabledNetworks,
        AppEvent::InitSmartAccount,
        AppEvent::SetPreferredAccount,
        AppEvent::RpcRequest,
        AppEvent::UpdateEmail,
        AppEvent::UpdateEmailPrimaryOtp,
        AppEvent::UpdateEmailSecondaryOtp,
        AppEvent::SyncTheme,
        AppEvent::SyncDappData,
        AppEvent::Reload,
        AppEvent::RpcAbort,
    ];

    /// SCREAMING_SNAKE name, e.g. `CONNECT_EMAIL`.
    pub fn name(&self) -> &'static str {
        use AppEvent::*;
        match self {
            SwitchNetwork => "SWITCH_NETWORK",
            ConnectEmail => "CONNECT_EMAIL",
            ConnectDevice => "CONNECT_DEVICE",
            ConnectOtp => "CONNECT_OTP",
            ConnectSocial => "CONNECT_SOCIAL",
            GetSocialRedirectUri => "GET_SOCIAL_REDIRECT_URI",
            GetFarcasterUri => "GET_FARCASTER_URI",
            ConnectFarcaster => "CONNECT_FARCASTER",
            GetUser => "GET_USER",
            SignOut => "SIGN_OUT",
            IsConnected => "IS_CONNECTED",
            GetChainId => "GET_CHAIN_ID",
            GetSmartAccountEnabledNetworks => "GET_SMART_ACCOUNT_ENABLED_NETWORKS",
            InitSmartAccount => "INIT_SMART_ACCOUNT",
            SetPreferredAccount => "SET_PREFERRED_ACCOUNT",
            RpcRequest => "RPC_REQUEST",
            UpdateEmail => "UPDATE_EMAIL",
            UpdateEmailPrimaryOtp => "UPDATE_EMAIL_PRIMARY_OTP",
            UpdateEmailSecondaryOtp => "UPDATE_EMAIL_SECONDARY_OTP",
            SyncTheme => "SYNC_THEME",
            SyncDappData => "SYNC_DAPP_DATA",
            Reload => "RELOAD",
            RpcAbort => "RPC_ABORT",
        }
    }

    /// Posted message type, e.g. `@w3m-app/CONNECT_EMAIL`.
    pub fn app_type(&self) -> String {
        format!("@w3m-app/{}", self.name())
    }
    /// Matching success event type, e.g. `@w3m-frame/CONNECT_EMAIL_SUCCESS`.
    pub fn success_type(&self) -> String {
        format!("@w3m-frame/{}_SUCCESS", self.name())
    }
    /// Matching error event type, e.g. `@w3m-frame/CONNECT_EMAIL_ERROR`.
    pub fn error_type(&self) -> String {
        format!("@w3m-frame/{}_ERROR", self.name())
    }

    pub fn from_name(name: &str) -> Option<AppEvent> {
        AppEvent::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Request time-out: 120 000 ms for email, device, otp, social and social-redirect requests.
    pub fn timeout_ms(&self) -> Option<u64> {
        use AppEvent::*;
        match self {
            ConnectEmail | ConnectDevice | ConnectOtp | ConnectSocial | GetSocialRedirectUri => {
                Some(FRAME_REQUEST_TIMEOUT_MS)
            }
            _ => None,
        }
    }
}

/// A message to post to the frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameOut {
    #[serde(rename = "type")]
    pub msg_type: String,
    pub id: String,
    pub payload: Value,
}

/// The outcome of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameResult {
    pub id: String,
    pub event: AppEvent,
    pub result: Result<Value, WmError>,
}

/// Everything an input produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameReport {
    /// Messages to post now (queued requests flushed on readiness, RPC abort).
    pub outgoing: Vec<FrameOut>,
    /// Settled requests.
    pub results: Vec<FrameResult>,
    /// Alert to raise (IframeLoadFailed / IframeRequestTimeout).
    pub alert: Option<WmError>,
    /// The frame became ready during this input.
    pub became_ready: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Pending {
    event: AppEvent,
    rpc_method: Option<String>,
    deadline_ms: Option<u64>,
    sent: bool,
    payload: Value,
}

/// Frame load state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FrameLoad {
    NotStarted,
    Loading { deadline_ms: u64 },
    /// Ready event received; usable from `ready_at_ms`.
    Ready { ready_at_ms: u64 },
    Failed,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FrameClient {
    load: FrameLoad,
    pending: BTreeMap<String, Pending>,
    order: Vec<String>,
}

impl Default for FrameClient {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameClient {
    pub fn new() -> Self {
        FrameClient { load: FrameLoad::NotStarted, pending: BTreeMap::new(), order: vec![] }
    }

    pub fn load_state(&self) -> FrameLoad {
        self.load
    }

    /// The iframe element was created (or reloaded): the ready event is due within 20 000 ms.
    pub fn load_started(&mut self, now_ms: u64) {
        self.load = FrameLoad::Loading { deadline_ms: now_ms + IFRAME_LOAD_TIMEOUT_MS };
    }

    /// Ready (ready event received and 500 ms passed).
    pub fn is_ready(&self, now_ms: u64) -> bool {
        matches!(self.load, FrameLoad::Ready { ready_at_ms } if now_ms >= ready_at_ms)
    }

    /// Number of requests awaiting a response (queued or sent).
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// Start a request. Payloads are validated (email for connect/update email, otp string, RPC
    /// method allow-list). Returns the message to post now, or `None` if queued until ready.
    pub fn request(
        &mut self,
        event: AppEvent,
        id: &str,
        payload: Value,
        now_ms: u64,
    ) -> Result<Option<FrameOut>, WmError> {
        if self.load == FrameLoad::Failed {
            return Err(WmError::EmailLoginDependencyLoadFailed);
        }
        if id.is_empty() || self.pending.contains_key(id) {
            return Err(WmError::RpcInvalidRequest);
        }
        let mut rpc_method = None;
        match event {
            AppEvent::ConnectEmail | AppEvent::UpdateEmail => {
                validation::parse_email_payload(&payload)?;
            }
            AppEvent::ConnectOtp | AppEvent::UpdateEmailPrimaryOtp | AppEvent::UpdateEmailSecondaryOtp => {
                validation::parse_otp_payload(&payload)?;
            }
            AppEvent::RpcRequest => {
                let m = payload.get("method").and_then(Value::as_str).unwrap_or("");
                rpc::check_rpc_method(m)?;
                rpc_method = Some(m.to_string());
            }
            _ => {}
        }
        let ready = self.is_ready(now_ms);
        self.pending.insert(
            id.to_string(),
            Pending {
                event,
                rpc_method,
                deadline_ms: event.timeout_ms().map(|t| now_ms + t),
                sent: ready,
                payload: payload.clone(),
            },
        );
        self.order.push(id.to_string());
        Ok(ready.then(|| FrameOut { msg_type: event.app_type(), id: id.to_string(), payload }))
    }

    /// A message from the frame (`type`, optional `id`, `payload`). Unknown types and ids are
    /// ignored (empty report).
    pub fn on_message(&mut self, msg_type: &str, id: Option<&str>, payload: &Value, now_ms: u64) -> FrameReport {
        let mut report = FrameReport::default();
        if msg_type == FRAME_READY {
            if !matches!(self.load, FrameLoad::Ready { .. }) {
                self.load = FrameLoad::Ready { ready_at_ms: now_ms + IFRAME_READY_DELAY_MS };
            }
            let mut r = self.tick(now_ms);
            report.outgoing.append(&mut r.outgoing);
            report.became_ready = r.became_ready;
            return report;
        }
        let Some(id) = id else { return report };
        let Some(p) = self.pending.get(id) else { return report };
        let result = if msg_type == p.event.success_type() {
            Ok(payload.clone())
        } else if msg_type == p.event.error_type() {
            Err(WmError::frame_error(payload.get("message").and_then(Value::as_str)))
        } else {
            return report;
        };
        let event = p.event;
        self.remove(id);
        report.results.push(FrameResult { id: id.to_string(), event, result });
        report
    }

    /// The host reports `iframe_load_failed` (e.g. the iframe's error event).
    pub fn on_load_failed(&mut self) -> FrameReport {
        self.load = FrameLoad::Failed;
        FrameReport {
            results: self.abort_all(),
            alert: Some(WmError::IframeLoadFailed),
            ..Default::default()
        }
    }

    /// Advance time: load time-out, readiness (flushing queued requests) and request time-outs.
    pub fn tick(&mut self, now_ms: u64) -> FrameReport {
        let mut report = FrameReport::default();
        if let FrameLoad::Loading { deadline_ms } = self.load {
            if now_ms >= deadline_ms {
                return self.on_load_failed();
            }
        }
        if self.is_ready(now_ms) {
            let ids: Vec<String> = self.order.clone();
            for id in ids {
                if let Some(p) = self.pending.get_mut(&id) {
                    if !p.sent {
                        p.sent = true;
                        report.outgoing.push(FrameOut {
                            msg_type: p.event.app_type(),
                            id: id.clone(),
                            payload: p.payload.clone(),
                        });
                        report.became_ready = true;
                    }
                }
            }
        }
        let timed_out = self
            .pending
            .values()
            .any(|p| p.deadline_ms.is_some_and(|d| now_ms >= d));
        if timed_out {
            report.results = self.abort_all();
            report.alert = Some(WmError::IframeRequestTimeout);
        }
        report
    }

    /// The next time `tick` must be called, if any.
    pub fn deadline(&self) -> Option<u64> {
        let mut d: Option<u64> = None;
        let mut consider = |t: u64| d = Some(d.map_or(t, |x: u64| x.min(t)));
        match self.load {
            FrameLoad::Loading { deadline_ms } => consider(deadline_ms),
            FrameLoad::Ready { ready_at_ms } if self.pending.values().any(|p| !p.sent) => {
                consider(ready_at_ms)
            }
            _ => {}
        }
        for p in self.pending.values() {
            if let Some(t) = p.deadline_ms {
                consider(t);
            }
        }
        d
    }

    /// The user rejected an approval: abort pending RPC requests that need approval (safe methods
    /// are not aborted). Returns the RPC-abort message to post (with `abort_id`) and the aborted
    /// requests, each rejected with 'Request was aborted'.
    pub fn abort_rpc(&mut self, abort_id: &str) -> FrameReport {
        let ids: Vec<String> = self
            .order
            .iter()
            .filter(|id| {
                self.pending.get(*id).is_some_and(|p| {
                    p.event == AppEvent::RpcRequest
                        && p.rpc_method.as_deref().map(rpc::rpc_permission)
                            != Some(RpcPermission::Safe)
                })
            })
            .cloned()
            .collect();
        let mut report = FrameReport::default();
        for id in ids {
            if let Some(p) = self.remove(&id) {
                report.results.push(FrameResult { id, event: p.event, result: Err(WmError::RequestAborted) });
            }
        }
        report.outgoing.push(FrameOut {
            msg_type: AppEvent::RpcAbort.app_type(),
            id: abort_id.to_string(),
            payload: Value::Null,
        });
        report
    }

    fn remove(&mut self, id: &str) -> Option<Pending> {
        self.order.retain(|x| x != id);
        self.pending.remove(id)
    }

    fn abort_all(&mut self) -> Vec<FrameResult> {
        let ids = std::mem::take(&mut self.order);
        let mut out = vec![];
        for id in ids {
            if let Some(p) = self.pending.remove(&id) {
                out.push(FrameResult { id, event: p.event, result: Err(aborted_error(p.event)) });
            }
        }
        out
    }
}

/// The error an aborted request rejects with: 'Request was aborted' for RPC requests,
/// 'Something went wrong' otherwise.
pub fn aborted_error(event: AppEvent) -> WmError {
    if event == AppEvent::RpcRequest {
        WmError::RequestAborted
    } else {
        WmError::SomethingWentWrong
    }
}

/// The frame URL with query parameters projectId, chainId, version, enableLogger and rpcUrl.
pub fn frame_url(
    base: &str,
    project_id: &str,
    chain_id: &str,
    version: &str,
    enable_logger: bool,
    rpc_url: Option<&str>,
) -> String {
    let mut q = vec![
        ("projectId", project_id.to_string()),
        ("chainId", chain_id.to_string()),
        ("version", version.to_string()),
        ("enableLogger", enable_logger.to_string()),
    ];
    if let Some(r) = rpc_url {
        q.push(("rpcUrl", r.to_string()));
    }
    let query: Vec<String> = q.iter().map(|(k, v)| format!("{k}={}", crate::service::url::encode_component(v))).collect();
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{}", query.join("&"))
}


// ---------------------------------------------------------------------------------------------
// Email connect response and two-step email update
// ---------------------------------------------------------------------------------------------

/// What the email connect response asks for next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EmailConnectAction {
    /// Approve this device from the email link.
    VerifyDevice,
    /// Enter the one-time code.
    VerifyOtp,
    /// Already verified: connected.
    Connect,
}

/// `{"action": "VERIFY_DEVICE" | "VERIFY_OTP" | "CONNECT"}` → the action.
pub fn parse_email_connect_action(payload: &Value) -> Option<EmailConnectAction> {
    match payload.get("action")?.as_str()? {
        "VERIFY_DEVICE" => Some(EmailConnectAction::VerifyDevice),
        "VERIFY_OTP" => Some(EmailConnectAction::VerifyOtp),
        "CONNECT" => Some(EmailConnectAction::Connect),
        _ => None,
    }
}

/// Steps of the two-step email update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "camelCase")]
pub enum EmailUpdateStep {
    Idle,
    /// Update requested; waiting for the frame's answer.
    Requested { new_email: String },
    /// Enter the code sent to the current (primary) email.
    PrimaryOtp { new_email: String },
    /// Enter the code sent to the new (secondary) email.
    SecondaryOtp { new_email: String },
    Done { new_email: String },
}

/// Two-step email update: primary one-time code, then secondary one-time code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailUpdateFlow {
    pub step: EmailUpdateStep,
}

impl Default for EmailUpdateFlow {
    fn default() -> Self {
        EmailUpdateFlow { step: EmailUpdateStep::Idle }
    }
}

impl EmailUpdateFlow {
    pub fn new() -> Self {
        Self::default()
    }

    /// Request the change: the new email must be valid. Returns the UPDATE_EMAIL payload.
    pub fn start(&mut self, new_email: &str) -> Result<Value, WmError> {
        validation::validate_email(new_email)?;
        self.step = EmailUpdateStep::Requested { new_email: new_email.to_string() };
        Ok(crate::json!({ "email": new_email }))
    }

    /// UPDATE_EMAIL succeeded: `{"action": "VERIFY_PRIMARY_OTP" | "VERIFY_SECONDARY_OTP"}`
    /// (default primary).
    pub fn on_update_email_success(&mut self, payload: &Value) {
        if let EmailUpdateStep::Requested { new_email } = &self.step {
            let new_email = new_email.clone();
            self.step = match payload.get("action").and_then(Value::as_str) {
                Some("VERIFY_SECONDARY_OTP") => EmailUpdateStep::SecondaryOtp { new_email },
                _ => EmailUpdateStep::PrimaryOtp { new_email },
            };
        }
    }

    /// The payload for the current step's otp (`{"otp": …}`) and which event to send.
    pub fn otp_request(&self, otp: &str) -> Result<(AppEvent, Value), WmError> {
        let payload = crate::json!({ "otp": otp });
        validation::parse_otp_payload(&payload)?;
        match self.step {
            EmailUpdateStep::PrimaryOtp { .. } => Ok((AppEvent::UpdateEmailPrimaryOtp, payload)),
            EmailUpdateStep::SecondaryOtp { .. } => Ok((AppEvent::UpdateEmailSecondaryOtp, payload)),
            _ => Err(WmError::RpcInvalidRequest),
        }
    }

    /// The primary code was accepted: go to the secondary code.
    pub fn on_primary_otp_success(&mut self) {
        if let EmailUpdateStep::PrimaryOtp { new_email } = &self.step {
            self.step = EmailUpdateStep::SecondaryOtp { new_email: new_email.clone() };
        }
    }

    /// The secondary code was accepted: done; returns the new email.
    pub fn on_secondary_otp_success(&mut self) -> Option<String> {
        if let EmailUpdateStep::SecondaryOtp { new_email } = &self.step {
            let e = new_email.clone();
            self.step = EmailUpdateStep::Done { new_email: e.clone() };
            return Some(e);
        }
        None
    }

    /// The update request itself failed: back to idle. (A failed otp keeps the step for retry.)
    pub fn on_update_email_error(&mut self) {
        if matches!(self.step, EmailUpdateStep::Requested { .. }) {
            self.step = EmailUpdateStep::Idle;
        }
    }

    pub fn cancel(&mut self) {
        self.step = EmailUpdateStep::Idle;
    }
}

#[cfg(test)]
mod tests {
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
        c.request(AppEvent::RpcRequest, "r", json!({"method": "eth_chainId"}), 0).unwrap();
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
        c.request(AppEvent::RpcRequest, "r", json!({"method": "personal_sign"}), 1_000).unwrap();
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
        assert_eq!(c.request(AppEvent::RpcRequest, "1", json!({"method": "eth_sign"}), 600), Err(WmError::RpcMethodNotAllowed));
        c.request(AppEvent::GetUser, "dup", json!({}), 600).unwrap();
        assert_eq!(c.request(AppEvent::GetUser, "dup", json!({}), 600), Err(WmError::RpcInvalidRequest));
        assert_eq!(c.pending_count(), 1);
    }

    #[test]
    fn reject_aborts_approval_rpc_requests_but_not_safe_ones() {
        let mut c = ready_client(0);
        c.request(AppEvent::RpcRequest, "sign", json!({"method": "personal_sign"}), 600).unwrap();
        c.request(AppEvent::RpcRequest, "bal", json!({"method": "eth_getBalance"}), 600).unwrap();
        c.request(AppEvent::GetUser, "user", json!({}), 600).unwrap();
        let r = c.abort_rpc("abort-1");
        assert_eq!(r.results.len(), 1);
        assert_eq!(r.results[0].id, "sign");
        assert_eq!(r.results[0].result, Err(WmError::RequestAborted));
        assert_eq!(r.outgoing[0].msg_type, "@w3m-app/RPC_ABORT");
        assert_eq!(c.pending_count(), 2);
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
}
