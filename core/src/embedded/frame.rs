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
use crate::chain::family::{self, EmbeddedMethod};
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
    /// The frame said READY again: it reloaded, and what it had been sent ended (`results`).
    pub reloaded: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Pending {
    event: AppEvent,
    /// An RPC request that needs the visitor's approval (aborted when they reject).
    signs: bool,
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
        let mut signs = false;
        match event {
            AppEvent::ConnectEmail | AppEvent::UpdateEmail => {
                validation::parse_email_payload(&payload)?;
            }
            AppEvent::ConnectOtp | AppEvent::UpdateEmailPrimaryOtp | AppEvent::UpdateEmailSecondaryOtp => {
                validation::parse_otp_payload(&payload)?;
            }
            AppEvent::RpcRequest => {
                let m = payload.get("method").and_then(Value::as_str).unwrap_or("");
                let ns = payload.get("chainNamespace").and_then(Value::as_str).unwrap_or("");
                match family::embedded(ns).map(|e| e.method(m)) {
                    None | Some(EmbeddedMethod::Disallowed) => return Err(WmError::RpcMethodNotAllowed),
                    Some(kind) => signs = kind == EmbeddedMethod::NeedsApproval,
                }
            }
            _ => {}
        }
        let ready = self.is_ready(now_ms);
        self.pending.insert(
            id.to_string(),
            Pending {
                event,
                signs,
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
            if matches!(self.load, FrameLoad::Ready { .. }) {
                // A second READY: the frame reloaded (RELOAD, or the page moved the iframe). What it
                // had been sent is gone with its old document: each ends now, never silently.
                report.reloaded = true;
                report.results = self.abort_sent();
            } else {
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
            let message = payload.get("message").and_then(Value::as_str).filter(|m| m.len() <= 500);
            // An RPC error keeps the frame's EIP-1193 code (4001: the visitor rejected in the frame).
            let code = payload.get("code").and_then(Value::as_i64).filter(|c| p.event == AppEvent::RpcRequest && (-32768..=4999).contains(c));
            match code {
                Some(code) => Err(WmError::Provider { code, message: message.unwrap_or("An error occurred").to_string() }), // i18n
                None => Err(WmError::frame_error(message)),
            }
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

    /// The visitor left the approval: pending RPC requests that need approval are aborted (safe
    /// methods are not). Those still queued here end now, rejected by the visitor; those the frame
    /// has are the frame's to end (the RPC-abort message, with `abort_id`): it rejects what was not
    /// approved yet, and what was approved keeps its answer.
    pub fn abort_rpc(&mut self, abort_id: &str) -> FrameReport {
        let ids: Vec<String> = self
            .order
            .iter()
            .filter(|id| self.pending.get(*id).is_some_and(|p| p.event == AppEvent::RpcRequest && p.signs && !p.sent))
            .cloned()
            .collect();
        let mut report = FrameReport::default();
        for id in ids {
            if let Some(p) = self.remove(&id) {
                report.results.push(FrameResult { id, event: p.event, result: Err(WmError::UserRejected) });
            }
        }
        if matches!(self.load, FrameLoad::Ready { .. }) {
            report.outgoing.push(FrameOut { msg_type: AppEvent::RpcAbort.app_type(), id: abort_id.to_string(), payload: Value::Null });
        }
        report
    }

    /// Every request already posted ends: 'Request was aborted' for RPC requests, 'Something went
    /// wrong' otherwise (those still queued are posted again once the frame is ready).
    fn abort_sent(&mut self) -> Vec<FrameResult> {
        let ids: Vec<String> = self.order.iter().filter(|id| self.pending.get(*id).is_some_and(|p| p.sent)).cloned().collect();
        let mut out = Vec::new();
        for id in ids {
            if let Some(p) = self.remove(&id) {
                let result = Err(if p.event == AppEvent::RpcRequest { WmError::RequestAborted } else { WmError::SomethingWentWrong });
                out.push(FrameResult { id, event: p.event, result });
            }
        }
        out
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
#[path = "frame_tests.rs"]
mod tests;
