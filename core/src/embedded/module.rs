//! The embedded-wallet module: the email, social and Farcaster logins, the secure frame and the
//! approval of what the embedded wallet signs, run by their own small router in their own
//! WebAssembly module (`element/embedded`), loaded when the Connect view shows an email or social
//! row (or a stored embedded session is to be restored), so the initial load does not carry them.
//!
//! Same shape as the engine: events in (with the time), effects and its part of the snapshot out.
//! The frame protocol itself is [`FrameClient`] (ids, readiness, time-outs, aborts); the email steps
//! and the throttle are the [`EmailSlice`]; what an approval shows is [`crate::embedded::approve`].
//!
//! To the engine the embedded wallet is one more connector (`embedded`): once a login succeeds
//! this module tells the engine (`connectEmbedded`), which asks the connector for its accounts like
//! any wallet; every request to that connector — from the engine, from the host's
//! `getProvider()`, from the account module — comes here as a `request` and is answered by an
//! `answer` effect. Requests that sign open ApproveTransaction first.
//!
//! Module effects beside the engine's (`startTimer`, `alert`, `emit`, `dispatch`):
//! `{"type": "frameLoad", "url"}`, `{"type": "framePost", "message"}`,
//! `{"type": "answer", "key", "result" | "error": {code, message}}`, `{"type": "popup", "url"}`,
//! `{"type": "popupClose"}`.

use std::collections::VecDeque;

use serde_json::{json, Value};

use crate::embedded::approve;
use crate::embedded::email::{EmailSlice, Step};
use crate::embedded::frame::{AppEvent, FrameClient, FrameLoad, FrameOut, FrameReport, FRAME_READY};
use crate::engine::{Ctx, Effect, Options};
use crate::service::errors::WmError;
use crate::service::validation::{self, RpcPermission};

pub use crate::connect::slice::EMBEDDED_ID;
/// The frame used without a `frame-url` attribute.
pub const DEFAULT_FRAME_URL: &str = "https://secure.wallet-modal.dev/frame";
/// Timers of this module start with this (the shell routes them back by it).
pub const TIMER_PREFIX: &str = "embedded-";
const TIMER_FRAME: &str = "embedded-frame";
const TIMER_COUNTDOWN: &str = "embedded-countdown";
const TIMER_SIGN_OUT: &str = "embedded-signout";
/// The wait for the frame's sign-out (spec §9).
pub const SIGN_OUT_WAIT_MS: u64 = 3_000;
/// Social providers this module offers (spec §1), Farcaster apart.
pub const SOCIALS: [&str; 6] = ["google", "github", "apple", "facebook", "x", "discord"];
/// Requests waiting at most (approvals queued, accounts waiting for the frame).
const MAX_WAITING: usize = 32;

/// The logged-in visitor (the frame's Login user).
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    pub address: String,
    pub email: Option<String>,
    pub user_name: Option<String>,
    pub social_provider: Option<String>,
}

fn bounded(v: Option<&Value>, max: usize) -> Option<String> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty() && s.len() <= max).map(str::to_string)
}

impl User {
    /// The frame's Login user, checked: an EIP-55-checkable address; optional fields bounded.
    pub fn from_frame(v: &Value) -> Option<User> {
        let address = bounded(v.get("address"), 42).filter(|a| crate::chain::address::is_evm_address(a, true))?;
        Some(User {
            address: crate::chain::address::checksum_address(&address).ok()?,
            email: bounded(v.get("email"), 254).filter(|e| validation::is_valid_email(e)),
            user_name: bounded(v.get("userName"), 64),
            social_provider: bounded(v.get("socialProvider"), 32),
        })
    }
}

/// What a frame request of this module is for.
#[derive(Clone, Debug, PartialEq)]
enum Purpose {
    ConnectEmail,
    ConnectDevice,
    ConnectOtp,
    /// After a login (`connect`: tell the engine), or to answer the waiting account requests.
    GetUser { login: bool },
    IsConnected,
    SignOut,
    Switch { key: String, chain_id: u64 },
    Rpc { key: String },
    /// A figure for the approval shown (`gas` or `price`), for approval number `approval`.
    Fee { which: &'static str, approval: u64 },
    UpdateEmail,
    UpdateOtp { primary: bool },
    SocialUri,
    ConnectSocial,
    FarcasterUri,
    ConnectFarcaster,
}

/// A request that signs, waiting for the visitor.
#[derive(Clone, Debug)]
struct Approval {
    serial: u64,
    key: String,
    method: String,
    params: Value,
    view: Value,
    gas: Option<String>,
    price: Option<String>,
    sending: bool,
}

/// The social login under way.
#[derive(Clone, Debug, Default)]
struct Social {
    provider: String,
    error: Option<String>,
    busy: bool,
}

#[derive(Clone, Debug, Default)]
struct Farcaster {
    url: Option<String>,
    qr: Option<String>,
    error: Option<String>,
}

/// What the engine knows that this module needs.
#[derive(Clone, Debug, Default, PartialEq)]
struct Context {
    view: String,
    open: bool,
    caip_network_id: Option<String>,
}

pub struct EmbeddedModule {
    ctx: Ctx,
    out: Vec<Value>,
    frame: FrameClient,
    frame_url: String,
    seed: String,
    counter: u64,
    pending: Vec<(String, Purpose)>,
    email: EmailSlice,
    user: Option<User>,
    /// Whether the frame said it has a session (None: not asked yet).
    session: Option<bool>,
    /// EVM chain the frame acts on.
    chain_id: u64,
    /// Account requests (key, method) waiting for the frame to say who is logged in.
    waiting: Vec<(String, String)>,
    approvals: VecDeque<Approval>,
    serial: u64,
    social: Option<Social>,
    farcaster: Option<Farcaster>,
    context: Context,
    notice: Option<String>,
    signing_out: bool,
}

fn text(v: &Value, key: &str, max: usize) -> Result<String, String> {
    v.get(key).and_then(Value::as_str).filter(|s| s.len() <= max).map(str::to_string).ok_or_else(|| format!("missing or invalid field `{key}`"))
}

fn error_json(e: &WmError) -> Value {
    json!({"code": e.code(), "message": e.message()})
}

impl EmbeddedModule {
    pub fn new(opts: Options, frame_url: Option<String>) -> EmbeddedModule {
        let mut ctx = Ctx::new();
        let (networks, _) = opts.resolve_networks();
        ctx.opts = opts;
        ctx.networks = networks;
        let frame_url = frame_url.filter(|u| crate::engine::is_http_url(u) && u.len() <= 2048).unwrap_or_else(|| DEFAULT_FRAME_URL.into());
        EmbeddedModule {
            ctx,
            out: Vec::new(),
            frame: FrameClient::new(),
            frame_url,
            seed: String::new(),
            counter: 0,
            pending: Vec::new(),
            email: EmailSlice::default(),
            user: None,
            session: None,
            chain_id: 0,
            waiting: Vec::new(),
            approvals: VecDeque::new(),
            serial: 0,
            social: None,
            farcaster: None,
            context: Context::default(),
            notice: None,
            signing_out: false,
        }
    }

    /// The module for the element's options JSON (with `frameUrl`; unreadable: defaults).
    pub fn from_options_json(options_json: &str) -> EmbeddedModule {
        let v: Value = serde_json::from_str(options_json).unwrap_or(Value::Null);
        let frame_url = v.get("frameUrl").and_then(Value::as_str).map(str::to_string);
        let options = crate::service::json::parse(options_json).map_err(|e| e.to_string()).and_then(Options::from_value).unwrap_or_default();
        Self::new(options, frame_url)
    }

    /// The bridge's call: one event as JSON at `now_ms` → `{"effects": [...], "part": {...}}`.
    pub fn dispatch_json(&mut self, event_json: &str, now_ms: f64) -> String {
        let v = if event_json.len() > 512 * 1024 { Err("event too large".to_string()) } else { serde_json::from_str::<Value>(event_json).map_err(|e| e.to_string()) };
        let (effects, part) = match v {
            Ok(v) => self.handle(&v, now_ms.max(0.0) as u64),
            Err(e) => {
                self.ctx.push(crate::account::module::malformed_alert(&e));
                self.drain()
            }
        };
        format!(r#"{{"effects":{},"part":{}}}"#, Value::Array(effects), part)
    }

    pub fn handle(&mut self, v: &Value, now_ms: u64) -> (Vec<Value>, Value) {
        self.ctx.now = self.ctx.now.max(now_ms);
        if let Err(e) = self.step(v) {
            self.ctx.push(crate::account::module::malformed_alert(&e));
        }
        self.schedule();
        self.drain()
    }

    fn drain(&mut self) -> (Vec<Value>, Value) {
        let mut effects: Vec<Value> = std::mem::take(&mut self.ctx.out).iter().map(|e| serde_json::from_str(&e.to_json().to_string()).unwrap_or(Value::Null)).collect();
        effects.append(&mut self.out);
        (effects, self.part())
    }

    fn now(&self) -> u64 {
        self.ctx.now
    }

    fn step(&mut self, v: &Value) -> Result<(), String> {
        let ty = v.get("type").and_then(Value::as_str).ok_or("an event needs a `type`")?;
        match ty {
            "init" => {
                let r = text(v, "random", 64)?;
                if r.len() < 16 || !r.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    return Err("`random` must be 16 to 64 letters or digits".into());
                }
                self.seed = r;
            }
            "context" => self.set_context(v)?,
            "preload" => self.ensure_frame(),
            "frameMessage" => self.frame_message(v.get("data").unwrap_or(&Value::Null)),
            "frameLoadFailed" => {
                let r = self.frame.on_load_failed();
                self.report(r);
            }
            "timer" => {
                let id = text(v, "id", 64)?;
                self.timer(&id);
            }
            "emailSubmit" => {
                let email = text(v, "email", 1024)?;
                if let Ok(payload) = self.email.submit(&email, self.now()) {
                    self.email.resent = false;
                    self.ctx.push(Effect::Dispatch { event: crate::service::json::obj(vec![("type", "navigate".into()), ("view", "EmailLogin".into())]) });
                    self.send(AppEvent::ConnectEmail, payload, Purpose::ConnectEmail);
                }
            }
            "emailResend" => {
                let email = self.email.email.clone();
                let step = self.email.step();
                if matches!(step, Step::Otp | Step::Device) {
                    match self.email.submit(&email, self.now()) {
                        Ok(payload) => {
                            self.email.resent = true;
                            self.send(AppEvent::ConnectEmail, payload, Purpose::ConnectEmail);
                        }
                        // Throttled: the code step stays, the countdown shows under it.
                        Err(m) => self.email.code_error = Some(m),
                    }
                    if self.email.step() == Step::Idle {
                        self.email.step = Some(step);
                    }
                }
            }
            "emailOtp" => {
                let otp = text(v, "otp", 64)?;
                if let Ok(payload) = self.email.otp(&otp) {
                    self.send(AppEvent::ConnectOtp, payload, Purpose::ConnectOtp);
                }
            }
            "openUpdateEmail" => {
                if self.user.as_ref().is_some_and(|u| u.email.is_some()) {
                    self.email.update.cancel();
                    self.email.update_error = None;
                    self.email.update_busy = false;
                    self.navigate("UpdateEmailWallet");
                }
            }
            "updateEmailSubmit" => {
                let email = text(v, "email", 1024)?;
                let current = self.user.as_ref().and_then(|u| u.email.clone());
                if let Ok(payload) = self.email.update_start(&email, current.as_deref()) {
                    self.send(AppEvent::UpdateEmail, payload, Purpose::UpdateEmail);
                }
            }
            "updateEmailOtp" => {
                let otp = text(v, "otp", 64)?;
                if let Ok((event, payload)) = self.email.update_otp(&otp) {
                    let primary = event == AppEvent::UpdateEmailPrimaryOtp;
                    self.send(event, payload, Purpose::UpdateOtp { primary });
                }
            }
            "socialLogin" => {
                let provider = text(v, "provider", 32)?;
                if !SOCIALS.contains(&provider.as_str()) {
                    return Err(format!("unknown social provider `{}`", provider.chars().take(32).collect::<String>()));
                }
                self.social = Some(Social { provider: provider.clone(), error: None, busy: true });
                self.send(AppEvent::GetSocialRedirectUri, json!({ "provider": provider }), Purpose::SocialUri);
            }
            "popupClosed" => {
                if let Some(s) = self.social.as_mut().filter(|s| s.busy) {
                    s.busy = false;
                    s.error = Some(WmError::PopupClosed.message());
                    self.ctx.emit_error(&WmError::PopupClosed);
                    self.pending.retain(|(_, p)| !matches!(p, Purpose::SocialUri));
                }
            }
            "socialResult" => {
                let uri = text(v, "uri", 4096)?;
                if !crate::engine::is_http_url(&uri) {
                    return Err("the social result must be an http(s) URI".into());
                }
                if self.social.as_ref().is_some_and(|s| s.busy) || self.social.is_none() {
                    self.social.get_or_insert_with(Social::default).busy = true;
                    self.out.push(json!({"type": "popupClose"}));
                    self.send(AppEvent::ConnectSocial, json!({ "uri": uri }), Purpose::ConnectSocial);
                }
            }
            "farcasterLogin" => {
                self.farcaster = Some(Farcaster::default());
                self.navigate("ConnectingFarcaster");
                self.send(AppEvent::GetFarcasterUri, json!({}), Purpose::FarcasterUri);
            }
            "approve" => self.approve(),
            "reject" => self.reject(),
            "request" => {
                let key = text(v, "key", 40)?;
                let method = text(v, "method", 64)?;
                let params = v.get("params").cloned().unwrap_or(Value::Array(Vec::new()));
                self.request(key, method, params);
            }
            "release" => self.sign_out(),
            other => return Err(format!("unknown embedded event type `{}`", other.chars().take(40).collect::<String>())),
        }
        Ok(())
    }

    // ----- context -----

    fn set_context(&mut self, v: &Value) -> Result<(), String> {
        let view = text(v, "view", 40)?;
        let c = Context {
            open: v.get("open").and_then(Value::as_bool).unwrap_or(false),
            caip_network_id: v.get("caipNetworkId").and_then(Value::as_str).filter(|s| s.len() <= 64).map(str::to_string),
            view,
        };
        let before = std::mem::replace(&mut self.context, c);
        let shows = |c: &Context, v: &str| c.open && c.view == v;
        // Leaving ApproveTransaction (closed, back) rejects what it showed.
        if shows(&before, "ApproveTransaction") && !shows(&self.context, "ApproveTransaction") {
            while let Some(a) = self.approvals.front() {
                if a.sending {
                    break;
                }
                let a = self.approvals.pop_front().unwrap();
                self.answer_err(&a.key, &WmError::UserRejected);
            }
        }
        if shows(&before, "EmailLogin") && !shows(&self.context, "EmailLogin") && self.email.step() != Step::Connecting {
            self.email.reset();
        }
        if shows(&before, "ConnectingFarcaster") && !shows(&self.context, "ConnectingFarcaster") {
            self.farcaster = None;
        }
        if self.context.view != "Account" && self.notice.is_some() && before.view == "Account" {
            self.notice = None;
        }
        if let Some(n) = self.context.caip_network_id.as_deref().and_then(|c| c.strip_prefix("eip155:")).and_then(|n| n.parse::<u64>().ok()) {
            if self.chain_id == 0 {
                self.chain_id = n;
            }
        }
        Ok(())
    }

    fn navigate(&mut self, view: &str) {
        self.ctx.push(Effect::Dispatch { event: crate::service::json::obj(vec![("type", "navigate".into()), ("view", view.into())]) });
    }

    // ----- the frame -----

    fn ensure_frame(&mut self) {
        if self.frame.load_state() != FrameLoad::NotStarted {
            return;
        }
        let (chain, rpc) = self.chain_and_rpc(None);
        let url = crate::embedded::frame::frame_url(&self.frame_url, self.ctx.opts.project_id(), &chain.to_string(), &self.ctx.sdk_version(), self.ctx.opts.debug, rpc.as_deref());
        self.frame.load_started(self.now());
        self.out.push(json!({"type": "frameLoad", "url": url}));
    }

    /// The chain id (numeric) and RPC URL for `chain_id`, or for the active network.
    fn chain_and_rpc(&self, chain_id: Option<u64>) -> (u64, Option<String>) {
        let want = chain_id.or((self.chain_id != 0).then_some(self.chain_id));
        let network = self.ctx.networks.iter().filter(|n| n.chain_namespace == crate::service::entities::ChainNamespace::Eip155).find(|n| match want {
            Some(id) => n.caip_network_id == format!("eip155:{id}"),
            None => self.context.caip_network_id.as_deref().is_none_or(|c| c == n.caip_network_id),
        });
        let id = network.and_then(|n| n.caip_network_id.strip_prefix("eip155:")).and_then(|s| s.parse().ok()).or(want).unwrap_or(1);
        (id, network.and_then(|n| self.ctx.rpc_url(n)))
    }

    fn next_id(&mut self) -> String {
        self.counter += 1;
        let seed = if self.seed.is_empty() { "0000000000000000" } else { &self.seed };
        format!("{seed}{:x}", self.counter)
    }

    fn send(&mut self, event: AppEvent, payload: Value, purpose: Purpose) {
        self.ensure_frame();
        let id = self.next_id();
        match self.frame.request(event, &id, payload, self.now()) {
            Ok(msg) => {
                self.pending.push((id, purpose));
                if let Some(m) = msg {
                    self.post(m);
                }
            }
            Err(e) => self.settle(purpose, Err(e)),
        }
    }

    fn post(&mut self, m: FrameOut) {
        self.out.push(json!({"type": "framePost", "message": {"type": m.msg_type, "id": m.id, "payload": m.payload}}));
    }

    /// A message from the frame (the shell checked its window and origin). The core validates the
    /// rest: a bounded type and id, then the payload of the request it answers.
    fn frame_message(&mut self, data: &Value) {
        let Some(ty) = data.get("type").and_then(Value::as_str).filter(|t| t.len() <= 80 && t.starts_with("@w3m-frame/")) else { return };
        let id = data.get("id").and_then(Value::as_str).filter(|i| i.len() <= 80);
        let payload = data.get("payload").cloned().unwrap_or(Value::Null);
        if ty == "@w3m-frame/INIT_ERROR" {
            if self.frame.load_state() != FrameLoad::Failed {
                self.ctx.alert(&WmError::InvalidAppConfiguration);
                let r = self.frame.on_load_failed();
                self.report(r);
            }
            return;
        }
        let was_ready = matches!(self.frame.load_state(), FrameLoad::Ready { .. });
        let r = self.frame.on_message(ty, id, &payload, self.now());
        self.report(r);
        if ty == FRAME_READY && !was_ready {
            // Who is logged in: asked once the frame is ready (queued until then).
            self.send(AppEvent::IsConnected, json!({}), Purpose::IsConnected);
        }
    }

    fn report(&mut self, r: FrameReport) {
        for m in r.outgoing {
            self.post(m);
        }
        if let Some(a) = &r.alert {
            self.ctx.alert(a);
        }
        // Requests a load failure aborted say so (spec §8), not 'Something went wrong'.
        let load_failed = self.frame.load_state() == FrameLoad::Failed;
        for res in r.results {
            let Some(pos) = self.pending.iter().position(|(id, _)| *id == res.id) else { continue };
            let (_, purpose) = self.pending.remove(pos);
            let result = if load_failed { res.result.map_err(|_| WmError::EmailLoginDependencyLoadFailed) } else { res.result };
            self.settle(purpose, result);
        }
        if self.frame.load_state() == FrameLoad::Failed {
            self.frame_failed();
        }
    }

    /// The frame could not load: everything waiting on it ends with 'Unable to load email login
    /// dependency'.
    fn frame_failed(&mut self) {
        let e = WmError::EmailLoginDependencyLoadFailed;
        for (key, _) in std::mem::take(&mut self.waiting) {
            self.answer_err(&key, &e);
        }
        if matches!(self.email.step(), Step::Sending | Step::Verifying | Step::Connecting | Step::Device) {
            self.email.step = Some(Step::Idle);
            self.email.field_error = Some(e.message());
        }
        if let Some(s) = self.social.as_mut().filter(|s| s.busy) {
            s.busy = false;
            s.error = Some(e.message());
        }
        if let Some(f) = self.farcaster.as_mut() {
            f.error = Some(e.message());
        }
        self.session = Some(false);
    }

    fn timer(&mut self, id: &str) {
        match id {
            TIMER_FRAME => {
                let r = self.frame.tick(self.now());
                self.report(r);
            }
            // The next tick is scheduled while the message still shows (`schedule`).
            TIMER_COUNTDOWN => {
                self.email.countdown(self.now());
            }
            TIMER_SIGN_OUT => {
                // The frame did not answer within 3 s: signed out here all the same.
                if self.signing_out {
                    self.signing_out = false;
                    self.pending.retain(|(_, p)| *p != Purpose::SignOut);
                }
            }
            _ => {}
        }
    }

    /// One timer for the frame's next deadline, and the countdown while the throttle shows.
    fn schedule(&mut self) {
        if let Some(d) = self.frame.deadline() {
            self.ctx.push(Effect::StartTimer { id: TIMER_FRAME.into(), ms: d.saturating_sub(self.now()) });
        }
        if self.email.throttle_shows() && !self.ctx.out.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == TIMER_COUNTDOWN)) {
            let ms = 1_000 - self.email.throttle.remaining_ms(self.now()) % 1_000;
            self.ctx.push(Effect::StartTimer { id: TIMER_COUNTDOWN.into(), ms: if ms == 0 { 1_000 } else { ms } });
        }
    }

    // ----- answers -----

    fn settle(&mut self, purpose: Purpose, result: Result<Value, WmError>) {
        match purpose {
            Purpose::ConnectEmail => {
                self.email.sent(result.as_ref(), self.ctx.now);
                if self.email.step() == Step::Device {
                    self.send(AppEvent::ConnectDevice, json!({}), Purpose::ConnectDevice);
                } else if self.email.step() == Step::Connecting {
                    self.send(AppEvent::GetUser, json!({ "chainId": self.chain_and_rpc(None).0 }), Purpose::GetUser { login: true });
                }
            }
            Purpose::ConnectDevice => match result {
                Ok(_) if self.email.step() == Step::Device => self.email.step = Some(Step::Otp),
                Ok(_) => {}
                Err(e) if self.email.step() == Step::Device => {
                    self.email.step = Some(Step::Idle);
                    self.email.field_error = Some(e.message());
                }
                Err(_) => {}
            },
            Purpose::ConnectOtp => {
                if self.email.verified(result.as_ref()) {
                    self.send(AppEvent::GetUser, json!({ "chainId": self.chain_and_rpc(None).0 }), Purpose::GetUser { login: true });
                }
            }
            Purpose::GetUser { login } => match result.ok().as_ref().and_then(User::from_frame) {
                Some(user) => {
                    self.user = Some(user);
                    self.session = Some(true);
                    self.answer_waiting();
                    if login {
                        self.email.reset();
                        self.social = None;
                        self.farcaster = None;
                        self.ctx.push(Effect::Dispatch { event: crate::service::json::obj(vec![("type", "connectEmbedded".into())]) });
                    }
                }
                None => {
                    self.session = Some(false);
                    self.answer_waiting();
                    if login {
                        self.email.step = Some(Step::Idle);
                        self.email.field_error = Some(WmError::FailedToConnect.message());
                        if let Some(s) = self.social.as_mut() {
                            s.busy = false;
                            s.error = Some(WmError::FailedToConnect.message());
                        }
                    }
                }
            },
            Purpose::IsConnected => match result {
                Ok(v) if v.get("isConnected").and_then(Value::as_bool) == Some(true) => {
                    self.send(AppEvent::GetUser, json!({ "chainId": self.chain_and_rpc(None).0 }), Purpose::GetUser { login: false });
                }
                Ok(v) => {
                    if v.get("sessionExpired").and_then(Value::as_bool) == Some(true) {
                        self.ctx.alert(&WmError::SessionExpired);
                        self.ctx.emit_error(&WmError::SessionExpired);
                    }
                    self.session = Some(false);
                    self.answer_waiting();
                }
                Err(_) => {
                    self.session = Some(false);
                    self.answer_waiting();
                }
            },
            Purpose::SignOut => {
                self.signing_out = false;
            }
            Purpose::Switch { key, chain_id } => match result {
                Ok(_) => {
                    self.chain_id = chain_id;
                    self.answer_ok(&key, Value::Null);
                }
                Err(e) => self.answer_err(&key, &e),
            },
            Purpose::Rpc { key } => {
                let sent = self.approvals.front().is_some_and(|a| a.key == key && a.sending);
                match result {
                    Ok(v) => self.answer_ok(&key, v),
                    Err(e) => self.answer_err(&key, &e),
                }
                if sent {
                    self.approvals.pop_front();
                    self.next_approval();
                }
            }
            Purpose::Fee { which, approval } => {
                let value = result.ok().and_then(|v| v.as_str().filter(|s| s.len() <= 66 && s.starts_with("0x")).map(str::to_string));
                if let Some(a) = self.approvals.iter_mut().find(|a| a.serial == approval) {
                    match which {
                        "gas" => a.gas = value,
                        _ => a.price = value,
                    }
                }
            }
            Purpose::UpdateEmail => {
                self.email.update_busy = false;
                match result {
                    Ok(v) => self.email.update.on_update_email_success(&v),
                    Err(e) => {
                        self.email.update.on_update_email_error();
                        self.email.update_error = Some(e.message());
                    }
                }
            }
            Purpose::UpdateOtp { primary } => {
                self.email.update_busy = false;
                match result {
                    Ok(_) if primary => self.email.update.on_primary_otp_success(),
                    Ok(v) => {
                        if let Some(new_email) = self.email.update.on_secondary_otp_success() {
                            let new_email = bounded(v.get("email"), 254).unwrap_or(new_email);
                            if let Some(u) = self.user.as_mut() {
                                u.email = Some(new_email);
                            }
                        }
                    }
                    Err(e) => self.email.update_error = Some(e.message()),
                }
            }
            Purpose::SocialUri => match result.ok().as_ref().and_then(|v| bounded(v.get("uri"), 4096)).filter(|u| crate::engine::is_http_url(u)) {
                Some(uri) if self.social.as_ref().is_some_and(|s| s.busy) => self.out.push(json!({"type": "popup", "url": uri})),
                Some(_) => {}
                None => {
                    if let Some(s) = self.social.as_mut() {
                        s.busy = false;
                        s.error = Some(WmError::SocialConnectionFailed.message());
                    }
                    self.out.push(json!({"type": "popupClose"}));
                    self.ctx.emit_error(&WmError::SocialConnectionFailed);
                }
            },
            Purpose::ConnectSocial | Purpose::ConnectFarcaster => match result.ok().as_ref().and_then(User::from_frame) {
                Some(_) => self.send(AppEvent::GetUser, json!({ "chainId": self.chain_and_rpc(None).0 }), Purpose::GetUser { login: true }),
                None => {
                    let e = if purpose == Purpose::ConnectSocial { WmError::SocialConnectionFailed } else { WmError::FarcasterConnectionFailed };
                    if let Some(s) = self.social.as_mut().filter(|_| purpose == Purpose::ConnectSocial) {
                        s.busy = false;
                        s.error = Some(e.message());
                    }
                    if let Some(f) = self.farcaster.as_mut().filter(|_| purpose == Purpose::ConnectFarcaster) {
                        f.error = Some(e.message());
                    }
                    self.ctx.emit_error(&e);
                }
            },
            Purpose::FarcasterUri => match result.ok().as_ref().and_then(|v| bounded(v.get("url"), 2048)).filter(|u| crate::engine::is_http_url(u)) {
                Some(url) => {
                    if let Some(f) = self.farcaster.as_mut() {
                        f.qr = crate::ui::qr::QrCode::encode(url.as_bytes(), crate::ui::qr::EcLevel::M).ok().map(|q| q.to_svg());
                        f.url = Some(url);
                        self.send(AppEvent::ConnectFarcaster, json!({}), Purpose::ConnectFarcaster);
                    }
                }
                None => {
                    if let Some(f) = self.farcaster.as_mut() {
                        f.error = Some(WmError::FarcasterConnectionFailed.message());
                    }
                    self.ctx.emit_error(&WmError::FarcasterConnectionFailed);
                }
            },
        }
    }

    fn answer_ok(&mut self, key: &str, result: Value) {
        self.out.push(json!({"type": "answer", "key": key, "result": result}));
    }

    fn answer_err(&mut self, key: &str, e: &WmError) {
        self.out.push(json!({"type": "answer", "key": key, "error": error_json(e)}));
    }

    /// Account requests that waited for the frame to say who is logged in.
    fn answer_waiting(&mut self) {
        for (key, method) in std::mem::take(&mut self.waiting) {
            self.account_request(&key, &method);
        }
    }

    // ----- requests to the embedded wallet (EIP-1193) -----

    fn request(&mut self, key: String, method: String, params: Value) {
        match method.as_str() {
            "eth_accounts" | "eth_requestAccounts" | "eth_chainId" => {
                if self.session.is_none() && self.user.is_none() {
                    if self.waiting.len() >= MAX_WAITING {
                        return self.answer_err(&key, &WmError::RpcInvalidRequest);
                    }
                    self.waiting.push((key, method));
                    // Restoring a stored session: the frame loads (and says who is logged in).
                    self.ensure_frame();
                    return;
                }
                self.account_request(&key, &method)
            }
            "wallet_switchEthereumChain" => {
                let target = params.get(0).and_then(|p| p.get("chainId")).and_then(Value::as_str).and_then(|h| h.strip_prefix("0x")).and_then(|h| u64::from_str_radix(h, 16).ok());
                let Some(chain_id) = target else { return self.answer_err(&key, &WmError::Provider { code: -32602, message: "Invalid chainId".into() }) };
                let caip = format!("eip155:{chain_id}");
                match self.ctx.network(&caip).map(|n| self.ctx.rpc_url(n)) {
                    Some(rpc) => self.send(AppEvent::SwitchNetwork, json!({"chainId": chain_id, "rpcUrl": rpc}), Purpose::Switch { key, chain_id }),
                    None => self.answer_err(&key, &WmError::Provider { code: 4902, message: "Unrecognized chain".into() }),
                }
            }
            // The engine's disconnect asks this of every wallet: the embedded wallet's session ends
            // when the engine then releases the connector (SIGN_OUT), so there is nothing to revoke.
            "wallet_revokePermissions" => self.answer_ok(&key, Value::Null),
            _ => match validation::rpc_permission(&method) {
                RpcPermission::Disallowed => {
                    self.ctx.alert(&WmError::RpcMethodNotAllowed);
                    self.notice = Some(WmError::RpcMethodNotAllowed.ui_text().unwrap_or("Action not allowed").into());
                    self.ctx.push(Effect::Dispatch {
                        event: crate::service::json::obj(vec![("type", "showBanner".into()), ("message", "Action not allowed".into())]),
                    });
                    self.answer_err(&key, &WmError::Provider { code: 4200, message: "Requested RPC call is not allowed".into() })
                }
                _ if self.user.is_none() => self.answer_err(&key, &WmError::Provider { code: 4100, message: WmError::NotConnectedToEmailOrSocial.message() }),
                RpcPermission::Safe => self.rpc(key, method, params),
                RpcPermission::NeedsApproval => self.queue_approval(key, method, params),
            },
        }
    }

    fn account_request(&mut self, key: &str, method: &str) {
        match (method, &self.user) {
            ("eth_chainId", _) => {
                let (id, _) = self.chain_and_rpc(None);
                self.answer_ok(key, Value::String(format!("0x{id:x}")))
            }
            (_, Some(u)) => {
                let a = u.address.clone();
                self.answer_ok(key, json!([a]))
            }
            ("eth_accounts", None) => self.answer_ok(key, json!([])),
            (_, None) => self.answer_err(key, &WmError::Provider { code: 4100, message: WmError::NotConnectedToEmailOrSocial.message() }),
        }
    }

    fn rpc(&mut self, key: String, method: String, params: Value) {
        let (chain_id, rpc) = self.chain_and_rpc(None);
        let payload = json!({"method": method, "params": params, "chainId": chain_id, "chainNamespace": "eip155", "rpcUrl": rpc});
        self.send(AppEvent::RpcRequest, payload, Purpose::Rpc { key });
    }

    // ----- ApproveTransaction -----

    fn queue_approval(&mut self, key: String, method: String, params: Value) {
        if self.approvals.len() >= MAX_WAITING {
            return self.answer_err(&key, &WmError::RpcInvalidRequest);
        }
        let (symbol, decimals, network) = {
            let (id, _) = self.chain_and_rpc(None);
            let n = self.ctx.network(&format!("eip155:{id}"));
            (
                n.map(|n| n.native_currency.symbol.clone()).unwrap_or_else(|| "ETH".into()),
                n.map(|n| n.native_currency.decimals).unwrap_or(18),
                n.map(|n| n.name.clone()).unwrap_or_else(|| format!("Chain {id}")),
            )
        };
        let own = self.user.as_ref().map(|u| u.address.to_ascii_lowercase()).unwrap_or_default();
        let view = match method.as_str() {
            "personal_sign" => match (params.get(0).and_then(Value::as_str), params.get(1).and_then(Value::as_str)) {
                (Some(data), Some(addr)) if addr.eq_ignore_ascii_case(&own) => approve::message_view(data),
                (Some(_), Some(_)) => Err("The message is to be signed by another account".into()),
                _ => Err("personal_sign needs [message, address]".into()),
            },
            "eth_signTypedData_v4" => match (params.get(0).and_then(Value::as_str), params.get(1)) {
                (Some(addr), Some(data)) if addr.eq_ignore_ascii_case(&own) => approve::typed_data_view(data),
                (Some(_), Some(_)) => Err("The data is to be signed by another account".into()),
                _ => Err("eth_signTypedData_v4 needs [address, typedData]".into()),
            },
            "eth_sendTransaction" => match params.get(0) {
                Some(tx) if tx.get("from").and_then(Value::as_str).is_none_or(|f| f.eq_ignore_ascii_case(&own)) => {
                    approve::transaction_view(tx, &symbol, decimals).map(|t| json!({"kind": "transaction", "transactions": [t]}))
                }
                Some(_) => Err("The transaction is to be sent from another account".into()),
                None => Err("eth_sendTransaction needs [transaction]".into()),
            },
            "wallet_sendCalls" => match params.get(0).and_then(|p| validation::parse_batch_calls(p).ok().map(|_| p)) {
                Some(p) => p
                    .get("calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty() && c.len() <= 16)
                    .ok_or_else(|| "wallet_sendCalls needs 1 to 16 calls".to_string())
                    .and_then(|calls| calls.iter().map(|c| approve::transaction_view(c, &symbol, decimals)).collect::<Result<Vec<_>, _>>())
                    .map(|t| json!({"kind": "transaction", "transactions": t})),
                None => Err("wallet_sendCalls needs calls with 0x `to` and `data`".into()),
            },
            _ => Err(format!("{method} is not supported by this wallet")),
        };
        let mut view = match view {
            Ok(v) => v,
            Err(m) => return self.answer_err(&key, &WmError::Provider { code: -32602, message: m }),
        };
        view["method"] = json!(method);
        view["network"] = json!(network);
        self.serial += 1;
        let serial = self.serial;
        let tx = (method == "eth_sendTransaction").then(|| params.get(0).cloned()).flatten();
        self.approvals.push_back(Approval { serial, key, method, params, view, gas: None, price: None, sending: false });
        if let Some(mut tx) = tx {
            // The fee shown: the frame's node estimates the gas and gives the price.
            if tx.get("from").is_none() {
                tx["from"] = json!(own);
            }
            let (chain_id, rpc) = self.chain_and_rpc(None);
            for (which, method, params) in [("gas", "eth_estimateGas", json!([tx])), ("price", "eth_gasPrice", json!([]))] {
                let payload = json!({"method": method, "params": params, "chainId": chain_id, "chainNamespace": "eip155", "rpcUrl": rpc});
                self.send(AppEvent::RpcRequest, payload, Purpose::Fee { which, approval: serial });
            }
        }
        if self.approvals.len() == 1 {
            self.navigate("ApproveTransaction");
        }
    }

    fn approve(&mut self) {
        let Some(a) = self.approvals.front_mut().filter(|a| !a.sending) else { return };
        a.sending = true;
        let (key, method, params) = (a.key.clone(), a.method.clone(), a.params.clone());
        self.rpc(key, method, params);
    }

    fn reject(&mut self) {
        let Some(a) = self.approvals.front().filter(|a| !a.sending).cloned() else { return };
        self.approvals.pop_front();
        self.answer_err(&a.key, &WmError::UserRejected);
        // Anything of it the frame has is dropped too (spec §6: safe methods are not aborted).
        let id = self.next_id();
        let r = self.frame.abort_rpc(&id);
        self.report(r);
        self.next_approval();
    }

    /// The next approval shows, or the view is left.
    fn next_approval(&mut self) {
        if self.approvals.is_empty() {
            if self.context.open && self.context.view == "ApproveTransaction" {
                self.ctx.push(Effect::Dispatch { event: crate::service::json::obj(vec![("type", "back".into())]) });
            }
        } else if !(self.context.open && self.context.view == "ApproveTransaction") {
            self.navigate("ApproveTransaction");
        }
    }

    // ----- sign out -----

    fn sign_out(&mut self) {
        let was = self.user.take().is_some() || self.session == Some(true);
        self.session = Some(false);
        for a in std::mem::take(&mut self.approvals) {
            self.answer_err(&a.key, &WmError::Provider { code: 4900, message: "Disconnected".into() });
        }
        self.email.reset();
        if was && self.frame.load_state() != FrameLoad::Failed {
            self.signing_out = true;
            self.send(AppEvent::SignOut, json!({}), Purpose::SignOut);
            self.ctx.push(Effect::StartTimer { id: TIMER_SIGN_OUT.into(), ms: SIGN_OUT_WAIT_MS });
        }
    }

    // ----- part -----

    pub fn part(&self) -> Value {
        let frame = match self.frame.load_state() {
            FrameLoad::NotStarted => "idle",
            FrameLoad::Loading { .. } => "loading",
            FrameLoad::Ready { ready_at_ms } if self.now() >= ready_at_ms => "ready",
            FrameLoad::Ready { .. } => "loading",
            FrameLoad::Failed => "failed",
        };
        let approval = self.approvals.front().map(|a| {
            let mut v = a.view.clone();
            if let (Some(g), Some(p)) = (&a.gas, &a.price) {
                let (id, _) = self.chain_and_rpc(None);
                let n = self.ctx.network(&format!("eip155:{id}"));
                let symbol = n.map(|n| n.native_currency.symbol.clone()).unwrap_or_else(|| "ETH".into());
                let decimals = n.map(|n| n.native_currency.decimals).unwrap_or(18);
                v["fee"] = json!(approve::fee_text(g, p, &symbol, decimals));
            }
            v["sending"] = json!(a.sending);
            v["queued"] = json!(self.approvals.len() - 1);
            v
        });
        json!({
            "frame": frame,
            "email": self.email.view(self.now()),
            "update": self.email.update_view(),
            "user": self.user.as_ref().map(|u| json!({"address": u.address, "email": u.email, "userName": u.user_name, "socialProvider": u.social_provider})),
            "approval": approval,
            "social": self.social.as_ref().map(|s| json!({"provider": s.provider, "busy": s.busy, "error": s.error})),
            "farcaster": self.farcaster.as_ref().map(|f| json!({"url": f.url, "qr": f.qr, "error": f.error})),
            "notice": self.notice,
        })
    }
}

#[cfg(test)]
#[path = "module_tests.rs"]
mod tests;
