//! The sign-in slice (SIWX, spec §4 "Sign-in flow"): once an account is connected without a
//! session, SIWXSignMessage asks the visitor to sign a CAIP-122 message in their wallet (EIP-4361
//! on EVM, SIWS on Solana — the family's [`SignIn`] dialect); the signature is checked and the
//! session kept.
//!
//! Two verifiers. The built-in one (`siwx` attribute, `siwx = 'default'`, or an object without
//! functions) checks here: the message's domain is the page's, its nonce the one issued, it has
//! not expired, and the signature is the account's (recovered offline, or for an EVM contract
//! account by the account itself on the chain, ERC-1271); its sessions are the persisted sign-in
//! tokens (`@wallet-modal/siwx_sessions`), checked again when read. The host's own (an object with
//! `getNonce` and `verify`, and optionally `createMessage`, `getSession`, `signOut`) is called
//! through the shell's `@siwx` connector, one method per request: its server decides.
//!
//! Events: `siwxConfig` (from the shell: the verifier, `required`, the page's domain and URI, the
//! app's name and icon, the stored sessions, a random seed for nonces), `siwxSign`, `siwxCancel`
//! (the view's intents). Part: `siwx`. The host hears `signin` `{caipAddress, message, signature}`
//! and `signout` `{caipAddress}` (disconnect, expiry). While sign-in is required and the account
//! has no session, closing is blocked on the sign-in and approval views (`siwx.locked`: the views
//! draw no close button and Escape and the backdrop do nothing).

use crate::account::transactions::{parse_mined_at, rfc3339_utc};
use crate::auth::siwx::{read_message, write_message, SiwxMessageFields};
use crate::chain::family::{self, Call, Verdict};
use crate::connect::connection::Status;
use crate::connect::storage::KEY_SIWX_SESSIONS;
use crate::host::json::{boolean, opt_string, string, Fields};
use crate::host::{obj, Ctx, Fact, Note, Outcome, Requests, Slice};
use crate::service::errors::WmError;
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// The shell's connector for the host's own verifier: `getNonce`, `createMessage`, `verify`,
/// `getSession`, `signOut`, each with one argument.
pub const HOST_VERIFIER: &str = "@siwx";
/// Sessions kept at most (the oldest go first).
const SESSIONS_MAX: usize = 32;
/// The longest message signed or read back (characters).
pub const MESSAGE_MAX: usize = 8_192;
/// How long a built-in session lasts unless the host says otherwise.
const DEFAULT_EXPIRY_MS: u64 = 24 * 3_600_000;
const TIMER_EXPIRY: &str = "siwx-expiry";

/// A sign-in session: the account (CAIP-10), the message signed and its signature.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub caip_address: String,
    pub message: String,
    pub signature: String,
    /// Its message's expiration time (unix ms), if it has one.
    pub expires_at: Option<u64>,
}

impl Session {
    fn write(&self, w: &mut Writer) {
        w.begin_object().key("caipAddress").str(&self.caip_address).key("message").str(&self.message).key("signature").str(&self.signature).end_object();
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Config {
    /// The host's verifier (through [`HOST_VERIFIER`]) rather than the built-in one.
    custom: bool,
    /// Whether the host's verifier writes the message (`createMessage`).
    creates_message: bool,
    required: bool,
    domain: String,
    uri: String,
    app_name: String,
    app_icon: Option<String>,
    statement: Option<String>,
    expiry_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The host's verifier is asked whether the account has a session.
    Checking,
    /// SIWXSignMessage waits for the visitor.
    Idle,
    Nonce,
    Message,
    /// The wallet is asked to sign.
    Signing,
    Verifying,
}

/// The account being signed in.
#[derive(Clone, Debug)]
struct Pending {
    namespace: String,
    caip_network_id: String,
    address: String,
    connector_id: String,
    stage: Stage,
    nonce: String,
    message: String,
    signature: String,
    /// Shown in the view ('Error signing message').
    error: Option<WmError>,
    /// Whether SIWXSignMessage has shown it (leaving the view before does not decline).
    shown: bool,
}

impl Pending {
    fn caip_address(&self) -> String {
        format!("{}:{}", self.caip_network_id, self.address)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Session { caip_address: String },
    Nonce,
    Message,
    Sign,
    Verify,
    Chain,
    Nothing,
}

#[derive(Default)]
pub struct SiwxSlice {
    config: Option<Config>,
    /// The seed of built-in nonces (from the shell's random bytes) and how many were made.
    seed: Vec<u8>,
    issued: u64,
    sessions: Vec<Session>,
    pending: Option<Pending>,
    /// The connected account last seen (CAIP-10), and the accounts the visitor chose not to sign
    /// in with (sign-in not required).
    seen: Option<String>,
    declined: Vec<String>,
    /// The network of the last sign-in (cancelling a required one goes back there).
    last_signed: Option<String>,
    /// The sign-in the embedded wallet's frame signed at login (message, signature).
    embedded: Option<(String, String)>,
    /// The time of what the slice is handling (unix ms).
    now: u64,
    requests: Requests<Asked>,
    /// Whether the engine was last told closing is refused (its visitor's close then shakes).
    told_locked: bool,
}

impl Slice for SiwxSlice {
    const NAME: &'static str = "siwx";
    const EVENTS: &'static [&'static str] = &["siwxConfig", "siwxSign", "siwxCancel"];
    const PARTS: &'static [&'static str] = &["siwx"];
    const VIEWS: &'static [View] = &[View::SiwxSignMessage];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        self.now = ctx.now;
        match ty {
            "siwxConfig" => self.configure(o, ctx)?,
            "siwxSign" => self.sign(ctx),
            "siwxCancel" => self.cancel(ctx),
            _ => {}
        }
        self.tell_lock(ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        self.now = ctx.now;
        if ctx.showing(View::SiwxSignMessage) {
            if let Some(p) = self.pending.as_mut() {
                p.shown = true;
            }
        }
        match note {
            Note::Fact(Fact::Connections | Fact::Network) | Note::Connected | Note::AccountsChanged | Note::ChainChanged { .. } | Note::Disconnected => {
                self.follow(ctx)
            }
            Note::EmbeddedUser(u) => {
                self.embedded = u.as_ref().and_then(|u| u.sign_in.clone());
                // Heard after the connection: the view asking already shows; the sign-in ends it.
                let asking = self.pending.as_ref().filter(|p| p.stage == Stage::Idle).map(|p| (p.connector_id.clone(), p.caip_address()));
                if let Some((connector, caip)) = asking {
                    if self.take_embedded(ctx, &connector, &caip) {
                        self.pending = None;
                        ctx.dispatch(obj(vec![("type", "close".into())]));
                    }
                }
            }
            // The visitor left the sign-in view (back, closed): what was under way is dropped,
            // and sign-in is asked again only when the account changes.
            // (The secure frame's approval of the signature is part of signing, not leaving.)
            Note::Shown(v) if !matches!(v, View::SiwxSignMessage | View::ApproveTransaction) => self.left(ctx),
            Note::Closed => self.left(ctx),
            // Required and still without a session (the page closed the modal itself): opening
            // it again asks again.
            Note::Opened if self.config.as_ref().is_some_and(|c| c.required) && self.pending.as_ref().is_some_and(|p| p.stage == Stage::Idle) => self.show(ctx),
            _ => {}
        }
        self.tell_lock(ctx);
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        self.now = ctx.now;
        let Some(asked) = self.requests.remove(id) else { return };
        self.answered(asked, outcome, ctx);
        self.tell_lock(ctx);
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        self.now = ctx.now;
        let Some(asked) = self.requests.remove(id) else { return };
        self.answered(asked, family::node_outcome(status, body), ctx);
        self.tell_lock(ctx);
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        self.now = ctx.now;
        if id == TIMER_EXPIRY {
            self.expire(ctx);
            self.follow(ctx);
        }
        self.tell_lock(ctx);
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("siwx");
        let Some(c) = self.config.as_ref() else {
            w.null();
            return;
        };
        w.begin_object().key("required").bool(c.required).key("locked").bool(self.locked(ctx)).key("appName").str(&c.app_name).key("appIcon").opt_str(c.app_icon.as_deref());
        w.key("session");
        match ctx.account().and_then(|(_, address, chain, _)| self.session(&format!("{chain}:{address}"))) {
            Some(s) => s.write(w),
            None => {
                w.null();
            }
        }
        w.key("request");
        match self.pending.as_ref().filter(|p| p.stage != Stage::Checking) {
            Some(p) => {
                let state = match p.stage {
                    _ if p.error.is_some() => "error",
                    Stage::Idle => "idle",
                    Stage::Signing => "signing",
                    _ => "preparing",
                };
                let network = ctx.network(&p.caip_network_id).map(|n| n.name.as_str()).unwrap_or(p.caip_network_id.as_str());
                w.begin_object().key("address").str(&p.address).key("caipNetworkId").str(&p.caip_network_id).key("network").str(network);
                w.key("statement").str(c.statement.as_deref().unwrap_or(DEFAULT_STATEMENT)).key("state").str(state);
                w.key("error").opt_str(p.error.as_ref().map(WmError::message).as_deref()).end_object();
            }
            None => {
                w.null();
            }
        }
        w.end_object();
    }
}

/// The statement of a built-in message when the host gives none.
const DEFAULT_STATEMENT: &str = "Sign in with your account to continue.";

fn is_printable_line(s: &str, max: usize) -> bool {
    s.len() <= max && !s.chars().any(char::is_control)
}

impl SiwxSlice {
    // ----- configuration -----

    fn configure(&mut self, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if !boolean(o, "enabled", Some(true))? {
            self.config = None;
            self.pending = None;
            return Ok(());
        }
        let text = |o: &mut Fields, key: &str, max: usize| -> Result<Option<String>, String> {
            Ok(opt_string(o, key)?.filter(|s| is_printable_line(s, max) && !s.is_empty()))
        };
        let domain = text(o, "domain", 255)?.ok_or("`domain` must be the page's host")?;
        let uri = text(o, "uri", 2_048)?.ok_or("`uri` must be the page's address")?;
        let statement = text(o, "statement", 512)?;
        let expiry_ms = match o.get("expiresInSeconds") {
            None | Some(Value::Null) => DEFAULT_EXPIRY_MS,
            Some(v) => v.as_f64().filter(|s| s.is_finite() && *s >= 1.0 && *s <= 31_536_000.0).map(|s| (s * 1000.0) as u64).ok_or("`expiresInSeconds` must be 1 to 31536000")?,
        };
        let random = string(o, "random")?;
        if random.len() < 32 || random.len() > 128 || !random.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err("`random` must be 32 to 128 hex digits".into());
        }
        let first = self.config.is_none();
        self.config = Some(Config {
            custom: boolean(o, "custom", Some(false))?,
            creates_message: boolean(o, "createsMessage", Some(false))?,
            required: boolean(o, "required", Some(false))?,
            domain,
            uri,
            app_name: text(o, "appName", 128)?.unwrap_or_default(),
            app_icon: text(o, "appIcon", 2_048)?.filter(|u| crate::host::is_http_url(u) || u.starts_with("data:image/")),
            statement,
            expiry_ms,
        });
        self.seed = random.into_bytes();
        if first {
            if let Some(stored) = opt_string(o, "stored")? {
                self.sessions = self.read_stored(&stored, ctx);
                self.persist(ctx);
            }
        }
        self.follow(ctx);
        Ok(())
    }

    /// The persisted sessions that still hold: well formed, of this page, unexpired, and signed by
    /// their account (a contract account's was checked on the chain when kept).
    fn read_stored(&self, text: &str, ctx: &mut Ctx) -> Vec<Session> {
        if text.len() > SESSIONS_MAX * (MESSAGE_MAX + 1_024) {
            ctx.alert_text("CORRUPT_STORAGE", "Ignored the stored sign-in sessions: too large");
            return Vec::new();
        }
        let Ok(Value::Array(list)) = crate::service::json::parse(text) else { return Vec::new() };
        let mut out = Vec::new();
        for v in list.into_iter().take(SESSIONS_MAX) {
            let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            let (Some(caip_address), Some(message), Some(signature)) = (field("caipAddress"), field("message"), field("signature")) else { continue };
            if let Ok(s) = self.checked(&caip_address, &message, &signature, None) {
                if !matches!(self.verdict(&s), Verdict::Invalid) {
                    out.push(s);
                }
            }
        }
        out
    }

    // ----- following the connection -----

    /// The connected account now: (namespace, CAIP-2 network, address, connector).
    fn account(ctx: &Ctx) -> Option<(String, String, String, String)> {
        let (ns, address, chain, connector) = ctx.account()?;
        Some((ns.to_string(), chain.to_string(), address.to_string(), connector.to_string()))
    }

    fn session(&self, caip_address: &str) -> Option<&Session> {
        self.sessions.iter().find(|s| same_account(&s.caip_address, caip_address))
    }

    /// The connection changed: sign out of an account that disconnected, ask for a session for a
    /// new one.
    fn follow(&mut self, ctx: &mut Ctx) {
        let Some(config) = self.config.clone() else { return };
        let now = Self::account(ctx);
        let caip = now.as_ref().map(|(_, chain, address, _)| format!("{chain}:{address}"));
        if self.seen != caip {
            if let Some(old) = self.seen.take() {
                let ns = old.split(':').next().unwrap_or_default().to_string();
                if ctx.conn.status(&ns) == Status::Disconnected {
                    self.sign_out(&old, ctx);
                }
            }
            self.seen = caip.clone();
            if self.pending.as_ref().is_some_and(|p| Some(p.caip_address()) != caip) {
                self.pending = None;
            }
        }
        self.expire(ctx);
        let Some((namespace, chain, address, connector_id)) = now else { return };
        let caip = format!("{chain}:{address}");
        if self.session(&caip).is_some() {
            self.last_signed = Some(chain);
            return;
        }
        if self.pending.is_some() || self.declined.iter().any(|d| same_account(d, &caip)) || !family::has_sign_in(&namespace) {
            return;
        }
        if self.take_embedded(ctx, &connector_id, &caip) {
            return;
        }
        let mut p = Pending { namespace, caip_network_id: chain, address, connector_id, stage: Stage::Idle, nonce: String::new(), message: String::new(), signature: String::new(), error: None, shown: false };
        if config.custom {
            p.stage = Stage::Checking;
            let id = ctx.wallet_request(HOST_VERIFIER, crate::chain::family::WalletCall::new("getSession", vec![self.fields_value(&p)]));
            self.requests.insert(id, Asked::Session { caip_address: caip });
            self.pending = Some(p);
        } else {
            self.pending = Some(p);
            self.show(ctx);
        }
    }

    /// The embedded wallet's frame signed in at login (the built-in verifier checks it like any
    /// other): the account is signed in with no second prompt. Whether it was taken.
    fn take_embedded(&mut self, ctx: &mut Ctx, connector_id: &str, caip: &str) -> bool {
        if connector_id != crate::connect::slice::EMBEDDED_ID || self.config.as_ref().is_none_or(|c| c.custom) {
            return false;
        }
        let Some((message, signature)) = self.embedded.clone() else { return false };
        let Ok(session) = self.checked(caip, &message, &signature, None) else { return false };
        if self.verdict(&session) != Verdict::Valid {
            return false;
        }
        ctx.emit("signin", obj(vec![("caipAddress", caip.into()), ("message", message.into()), ("signature", signature.into())]));
        self.last_signed = split_caip10(caip).map(|(c, _)| c.to_string());
        self.keep(session, ctx);
        true
    }

    /// Opens the modal on SIWXSignMessage.
    fn show(&self, ctx: &mut Ctx) {
        if !ctx.showing(View::SiwxSignMessage) {
            ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::SiwxSignMessage.name().into()), ("reset", true.into())]));
        }
    }

    /// The visitor left the sign-in view: what was under way ends; unless sign-in is required,
    /// the account is not asked again until it changes.
    fn left(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.as_ref().filter(|p| p.stage != Stage::Checking && p.shown) else { return };
        let required = self.config.as_ref().is_some_and(|c| c.required);
        if !required {
            self.declined.push(p.caip_address());
            self.pending = None;
            self.requests.drop_where(|_| true);
        } else if ctx.modal.open {
            // Required: the view is shown again (only cancelling or disconnecting ends it).
            self.show(ctx);
        }
    }

    /// Whether closing is blocked now: sign-in is required, the account has no session, and the
    /// sign-in or approval view shows (spec §2).
    fn locked(&self, ctx: &Ctx) -> bool {
        let required = self.config.as_ref().is_some_and(|c| c.required) && self.pending.as_ref().is_some_and(|p| p.stage != Stage::Checking);
        crate::ui::router::closing_blocked(ctx.router.view(), required, false)
    }

    /// Tells the engine when closing becomes refused or allowed again: the visitor's close
    /// (Escape, the backdrop) then shakes the modal instead (spec §4).
    fn tell_lock(&mut self, ctx: &mut Ctx) {
        let locked = self.locked(ctx);
        if locked != self.told_locked {
            self.told_locked = locked;
            ctx.dispatch(obj(vec![("type", if locked { "lock" } else { "unlock" }.into())]));
        }
    }

    // ----- signing in -----

    fn sign(&mut self, ctx: &mut Ctx) {
        let Some(config) = self.config.clone() else { return };
        let Some(p) = self.pending.as_mut().filter(|p| matches!(p.stage, Stage::Idle)) else { return };
        p.error = None;
        if config.custom {
            p.stage = Stage::Nonce;
            let id = ctx.wallet_request(HOST_VERIFIER, crate::chain::family::WalletCall::new("getNonce", vec![]));
            self.requests.insert(id, Asked::Nonce);
        } else {
            self.issued += 1;
            let mut input = self.seed.clone();
            input.extend_from_slice(&self.issued.to_be_bytes());
            let digest = <sha2::Sha256 as sha2::Digest>::digest(&input);
            p.nonce = crate::chain::hash::to_hex(&digest[..12])[2..].to_string();
            self.write_message(ctx);
        }
    }

    /// The message's fields for the pending account (its `chainId` as the family writes it).
    fn fields(&self, p: &Pending) -> Option<(SiwxMessageFields, String)> {
        let c = self.config.as_ref()?;
        let s = family::sign_in(&p.namespace)?;
        let chain = s.chain_id(&p.caip_network_id)?;
        let issued = self.now;
        let fields = SiwxMessageFields {
            domain: c.domain.clone(),
            account_address: s.message_address(&p.address)?,
            chain_id: chain.parse().unwrap_or(0),
            uri: c.uri.clone(),
            version: "1".into(),
            nonce: p.nonce.clone(),
            statement: Some(c.statement.clone().unwrap_or_else(|| DEFAULT_STATEMENT.into())),
            resources: None,
            issued_at: rfc3339_utc(issued as i64),
            expiration_time: Some(rfc3339_utc((issued + c.expiry_ms) as i64)),
            not_before: None,
            request_id: None,
        };
        Some((fields, chain))
    }

    fn fields_value(&self, p: &Pending) -> Value {
        let (f, chain) = match self.fields(p) {
            Some(x) => x,
            None => return obj(vec![("caipAddress", p.caip_address().into())]),
        };
        obj(vec![
            ("caipAddress", p.caip_address().into()),
            ("accountAddress", f.account_address.into()),
            ("chainId", chain.into()),
            ("domain", f.domain.into()),
            ("uri", f.uri.into()),
            ("version", f.version.into()),
            ("nonce", f.nonce.into()),
            ("statement", f.statement.unwrap_or_default().into()),
            ("issuedAt", f.issued_at.into()),
            ("expirationTime", f.expiration_time.unwrap_or_default().into()),
        ])
    }

    /// The message to sign: the host's (`createMessage`) or the family's dialect of the fields.
    fn write_message(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.clone() else { return };
        if self.config.as_ref().is_some_and(|c| c.custom && c.creates_message) {
            self.set_stage(Stage::Message);
            let id = ctx.wallet_request(HOST_VERIFIER, crate::chain::family::WalletCall::new("createMessage", vec![self.fields_value(&p)]));
            self.requests.insert(id, Asked::Message);
            return;
        }
        let text = self.fields(&p).and_then(|(f, chain)| write_message(family::sign_in(&p.namespace)?.dialect(), &f, &chain).ok());
        match text {
            Some(t) => self.ask_signature(t, ctx),
            None => self.failed(ctx),
        }
    }

    fn set_stage(&mut self, stage: Stage) {
        if let Some(p) = self.pending.as_mut() {
            p.stage = stage;
        }
    }

    fn ask_signature(&mut self, message: String, ctx: &mut Ctx) {
        let Some(p) = self.pending.as_mut() else { return };
        let Some(s) = family::sign_in(&p.namespace) else { return };
        p.message = message;
        p.stage = Stage::Signing;
        let call = s.sign_call(&p.message, &p.address);
        let id = ctx.wallet_request(&p.connector_id.clone(), call);
        self.requests.insert(id, Asked::Sign);
        ctx.note(Note::WalletPrompt(Some("signMessage".into())));
    }

    fn answered(&mut self, asked: Asked, outcome: Outcome, ctx: &mut Ctx) {
        match asked {
            Asked::Session { caip_address } => {
                let Some(p) = self.pending.as_ref().filter(|p| p.stage == Stage::Checking && p.caip_address() == caip_address) else { return };
                let namespace = p.namespace.clone();
                let has = outcome.ok().and_then(|v| self.host_session(&v, &caip_address, &namespace));
                match has {
                    Some(s) => {
                        self.pending = None;
                        self.keep(s, ctx);
                    }
                    None => {
                        self.set_stage(Stage::Idle);
                        self.show(ctx);
                    }
                }
            }
            Asked::Nonce => match outcome.ok().and_then(|v| v.as_str().filter(|n| n.len() >= 8 && n.len() <= 128 && n.bytes().all(|b| b.is_ascii_alphanumeric())).map(str::to_string)) {
                Some(nonce) => {
                    if let Some(p) = self.pending.as_mut() {
                        p.nonce = nonce;
                    }
                    self.write_message(ctx);
                }
                None => self.failed(ctx),
            },
            Asked::Message => match outcome.ok().and_then(|v| v.as_str().filter(|m| !m.is_empty() && m.len() <= MESSAGE_MAX).map(str::to_string)) {
                Some(m) => self.ask_signature(m, ctx),
                None => self.failed(ctx),
            },
            Asked::Sign => {
                ctx.note(Note::WalletPrompt(None));
                let Some(p) = self.pending.as_mut().filter(|p| p.stage == Stage::Signing) else { return };
                let f = family::sign_in(&p.namespace);
                let signature = outcome.as_ref().ok().and_then(|v| f?.signature(v));
                match signature {
                    Some(sig) => {
                        // A wallet that wrote the message itself: its text is what is checked.
                        if let Some(text) = outcome.as_ref().ok().and_then(|v| f?.signed_message(v)) {
                            p.message = text;
                        }
                        p.signature = sig;
                        p.stage = Stage::Verifying;
                        self.verify(ctx);
                    }
                    None => {
                        // Rejected, or an answer that is no signature: the view stays, to try again.
                        p.stage = Stage::Idle;
                        p.error = Some(WmError::ErrorSigningMessage);
                        ctx.emit_error(&WmError::ErrorSigningMessage);
                    }
                }
            }
            Asked::Verify => match outcome {
                Ok(Value::Bool(true)) => self.signed_in(ctx),
                _ => self.failed(ctx),
            },
            Asked::Chain => {
                let ok = outcome.ok().zip(self.pending.as_ref()).is_some_and(|(v, p)| family::sign_in(&p.namespace).is_some_and(|s| s.chain_says(&v)));
                if ok {
                    self.signed_in(ctx)
                } else {
                    self.failed(ctx)
                }
            }
            Asked::Nothing => {}
        }
    }

    /// The signature of the pending account: the host's verifier decides, or the built-in one.
    fn verify(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.clone() else { return };
        if self.config.as_ref().is_some_and(|c| c.custom) {
            let arg = obj(vec![("message", p.message.clone().into()), ("signature", p.signature.clone().into()), ("caipAddress", p.caip_address().into())]);
            let id = ctx.wallet_request(HOST_VERIFIER, crate::chain::family::WalletCall::new("verify", vec![arg]));
            self.requests.insert(id, Asked::Verify);
            return;
        }
        let session = match self.checked(&p.caip_address(), &p.message, &p.signature, Some(&p.nonce)) {
            Ok(s) => s,
            Err(_) => return self.failed(ctx),
        };
        match self.verdict(&session) {
            Verdict::Valid => self.signed_in(ctx),
            Verdict::Invalid => self.failed(ctx),
            Verdict::AskChain(call) => match call {
                Call::Node(_) | Call::Rest(_) => match ctx.call(&p.connector_id, call) {
                    Some(id) => self.requests.insert(id, Asked::Chain),
                    None => self.failed(ctx),
                },
                Call::Wallet(_) => {
                    let id = ctx.call(&p.connector_id, call).unwrap_or_default();
                    self.requests.insert(id, Asked::Chain);
                }
            },
        }
    }

    /// A message and signature as a session of `caip_address`, if the message is well formed, of
    /// this page, for that account and network, unexpired (and, when given, carries the nonce
    /// issued). The signature is not checked here (see [`SiwxSlice::verdict`]).
    pub fn checked(&self, caip_address: &str, message: &str, signature: &str, nonce: Option<&str>) -> Result<Session, String> {
        let c = self.config.as_ref().ok_or("sign-in is not configured")?;
        check_session(&c.domain, self.now, caip_address, message, signature, nonce)
    }

    fn verdict(&self, s: &Session) -> Verdict {
        let (chain, address) = split_caip10(&s.caip_address).unwrap_or_default();
        let ns = chain.split(':').next().unwrap_or_default();
        match family::sign_in(ns) {
            Some(f) => f.verify(&s.message, address, &s.signature),
            None => Verdict::Invalid,
        }
    }

    /// The host's `getSession` answer: a session object of this account (or `true`).
    fn host_session(&self, v: &Value, caip_address: &str, _namespace: &str) -> Option<Session> {
        let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        match v {
            Value::Bool(true) => Some(Session { caip_address: caip_address.into(), message: String::new(), signature: String::new(), expires_at: None }),
            Value::Object(_) => {
                let account = field("caipAddress").unwrap_or_else(|| caip_address.to_string());
                if !same_account(&account, caip_address) {
                    return None;
                }
                let message = field("message").filter(|m| m.len() <= MESSAGE_MAX).unwrap_or_default();
                // `expirationTime` (RFC 3339, as in the message) or `expiresAt` (unix ms).
                let expires_at = field("expirationTime")
                    .and_then(|t| parse_mined_at(&t))
                    .map(|t| t.max(0) as u64)
                    .or_else(|| v.get("expiresAt").and_then(Value::as_f64).filter(|t| t.is_finite() && *t > 0.0).map(|t| t as u64));
                if expires_at.is_some_and(|t| t <= self.now) {
                    return None;
                }
                Some(Session { caip_address: caip_address.into(), message, signature: field("signature").unwrap_or_default(), expires_at })
            }
            _ => None,
        }
    }

    fn signed_in(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.take() else { return };
        let expires_at = read_message_expiry(&p.namespace, &p.message);
        let s = Session { caip_address: p.caip_address(), message: p.message, signature: p.signature, expires_at };
        ctx.emit("signin", obj(vec![("caipAddress", s.caip_address.clone().into()), ("message", s.message.clone().into()), ("signature", s.signature.clone().into())]));
        self.last_signed = Some(p.caip_network_id);
        self.keep(s, ctx);
        ctx.dispatch(obj(vec![("type", "close".into())]));
    }

    fn keep(&mut self, s: Session, ctx: &mut Ctx) {
        self.sessions.retain(|o| !same_account(&o.caip_address, &s.caip_address));
        self.sessions.push(s);
        if self.sessions.len() > SESSIONS_MAX {
            self.sessions.remove(0);
        }
        self.persist(ctx);
        self.arm_expiry(ctx);
    }

    /// Sign-in failed on the verifier's side: the spec's message, disconnected, back to Connect.
    fn failed(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.take() else { return };
        self.requests.drop_where(|_| true);
        ctx.emit_error(&WmError::AuthInitFailed);
        ctx.dispatch(obj(vec![("type", "showBanner".into()), ("message", WmError::AuthInitFailed.message().into())]));
        ctx.dispatch(obj(vec![("type", "disconnect".into()), ("namespace", p.namespace.into())]));
    }

    /// Cancelling: without required sign-in the modal closes (the visitor stays connected);
    /// with it, back to the last network signed in on if it still has a session, else disconnect.
    fn cancel(&mut self, ctx: &mut Ctx) {
        let Some(p) = self.pending.take() else { return };
        self.requests.drop_where(|_| true);
        let required = self.config.as_ref().is_some_and(|c| c.required);
        if !required {
            self.declined.push(p.caip_address());
            ctx.dispatch(obj(vec![("type", "close".into())]));
            return;
        }
        let back = self.last_signed.clone().filter(|n| *n != p.caip_network_id && self.session(&format!("{n}:{}", p.address)).is_some());
        match back {
            Some(network) => ctx.dispatch(obj(vec![("type", "switchNetwork".into()), ("caipNetworkId", network.into())])),
            None => ctx.dispatch(obj(vec![("type", "disconnect".into()), ("namespace", p.namespace.into())])),
        }
    }

    // ----- sessions -----

    /// The account disconnected: its sessions on every network of its namespace end.
    fn sign_out(&mut self, caip_address: &str, ctx: &mut Ctx) {
        let Some((chain, address)) = split_caip10(caip_address) else { return };
        let ns = chain.split(':').next().unwrap_or_default();
        let of_account = |s: &Session| {
            split_caip10(&s.caip_address).is_some_and(|(c, _)| c.split(':').next() == Some(ns)) && same_account(&s.caip_address, &format!("{}:{address}", split_caip10(&s.caip_address).map(|(c, _)| c).unwrap_or_default()))
        };
        let gone: Vec<String> = self.sessions.iter().filter(|s| of_account(s)).map(|s| s.caip_address.clone()).collect();
        self.sessions.retain(|s| !of_account(s));
        if self.config.as_ref().is_some_and(|c| c.custom) {
            let id = ctx.wallet_request(HOST_VERIFIER, crate::chain::family::WalletCall::new("signOut", vec![obj(vec![("caipAddress", caip_address.into())])]));
            self.requests.insert(id, Asked::Nothing);
        }
        if !gone.is_empty() {
            self.persist(ctx);
        }
        for caip in gone {
            ctx.emit("signout", obj(vec![("caipAddress", caip.into())]));
        }
    }

    /// Drops the sessions that expired (the host hears `signout`) and sets the timer for the next.
    fn expire(&mut self, ctx: &mut Ctx) {
        let now = self.now;
        let gone: Vec<String> = self.sessions.iter().filter(|s| s.expires_at.is_some_and(|t| t <= now)).map(|s| s.caip_address.clone()).collect();
        for caip in &gone {
            self.sessions.retain(|s| s.caip_address != *caip);
            ctx.emit("signout", obj(vec![("caipAddress", caip.clone().into())]));
        }
        if !gone.is_empty() {
            self.persist(ctx);
        }
        self.arm_expiry(ctx);
    }

    fn arm_expiry(&self, ctx: &mut Ctx) {
        if let Some(next) = self.sessions.iter().filter_map(|s| s.expires_at).min() {
            ctx.timer(TIMER_EXPIRY, next.saturating_sub(self.now).clamp(1, 2_147_483_647));
        }
    }

    fn persist(&self, ctx: &mut Ctx) {
        if self.config.as_ref().is_some_and(|c| c.custom) {
            return;
        }
        let mut w = Writer::new();
        w.begin_array();
        for s in &self.sessions {
            s.write(&mut w);
        }
        w.end_array();
        ctx.persist(KEY_SIWX_SESSIONS, Some(w.finish()));
    }
}

/// `chain:address` of a CAIP-10 account id.
fn split_caip10(caip: &str) -> Option<(&str, &str)> {
    let (chain, address) = caip.rsplit_once(':')?;
    chain.contains(':').then_some((chain, address))
}

/// Two CAIP-10 ids of one account (as its family writes addresses: EVM's in any case).
fn same_account(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (Some((ca, aa)), Some((cb, ab))) = (split_caip10(a), split_caip10(b)) else { return false };
    let f = family::sign_in(ca.split(':').next().unwrap_or_default());
    ca == cb && f.is_some_and(|f| f.message_address(aa).is_some() && f.message_address(aa) == f.message_address(ab))
}

fn read_message_expiry(namespace: &str, message: &str) -> Option<u64> {
    let d = family::sign_in(namespace)?.dialect();
    let (f, _) = read_message(d, message).ok()?;
    f.expiration_time.and_then(|t| parse_mined_at(&t)).map(|t| t.max(0) as u64)
}

/// Checks a sign-in message against what the page expects — the verifier's rules other than the
/// signature itself: at most [`MESSAGE_MAX`] characters; the family's dialect; the domain; the
/// account and network of `caip_address`; not expired and not before its time at `now_ms`; and,
/// when given, the nonce issued. A clear error names what is wrong.
pub fn check_session(domain: &str, now_ms: u64, caip_address: &str, message: &str, signature: &str, nonce: Option<&str>) -> Result<Session, String> {
    if message.len() > MESSAGE_MAX {
        return Err(format!("the message is longer than {MESSAGE_MAX} characters"));
    }
    if signature.len() > 8_192 {
        return Err("the signature is too long".into());
    }
    let (chain, address) = split_caip10(caip_address).ok_or("the account must be a CAIP-10 id (namespace:reference:address)")?;
    let ns = chain.split(':').next().unwrap_or_default();
    let family = family::sign_in(ns).ok_or_else(|| format!("sign-in is not supported on {ns}"))?;
    let (f, chain_text) = read_message(family.dialect(), message).map_err(|e| e.0)?;
    if f.domain != domain {
        return Err(format!("the message is for {}, not {domain}", f.domain));
    }
    if family.message_address(address).as_deref() != Some(f.account_address.as_str()) {
        return Err("the message is for another account".into());
    }
    if !family.same_chain(&chain_text, chain) {
        return Err(format!("the message is for chain {chain_text}, not {chain}"));
    }
    if let Some(n) = nonce {
        if f.nonce != n {
            return Err("the message's nonce is not the one issued".into());
        }
    }
    let at = |t: &Option<String>| t.as_deref().filter(|t| !t.is_empty()).and_then(parse_mined_at);
    let expires_at = at(&f.expiration_time).map(|t| t.max(0) as u64);
    if expires_at.is_some_and(|t| t <= now_ms) {
        return Err("the message has expired".into());
    }
    if at(&f.not_before).is_some_and(|t| t > now_ms as i64) {
        return Err("the message is not valid yet".into());
    }
    Ok(Session { caip_address: caip_address.into(), message: message.into(), signature: signature.into(), expires_at })
}

/// What a verifier concludes about a sign-in: valid, or the question to ask the account's chain
/// before it is (an EVM contract account: `eth_call` of ERC-1271, whose answer
/// [`chain_says_valid`] reads).
#[derive(Clone, Debug, PartialEq)]
pub enum SessionCheck {
    Valid(Session),
    AskChain(Session, crate::chain::family::WalletCall),
}

/// A dapp backend's check of a sign-in ([`check_session`], then the signature): an error names
/// what is wrong.
pub fn verify_session(domain: &str, now_ms: u64, caip_address: &str, message: &str, signature: &str, nonce: Option<&str>) -> Result<SessionCheck, String> {
    let s = check_session(domain, now_ms, caip_address, message, signature, nonce)?;
    let (chain, address) = split_caip10(caip_address).unwrap_or_default();
    let family = family::sign_in(chain.split(':').next().unwrap_or_default()).ok_or("sign-in is not supported here")?;
    match family.verify(message, address, signature) {
        Verdict::Valid => Ok(SessionCheck::Valid(s)),
        Verdict::AskChain(Call::Node(c) | Call::Wallet(c)) => Ok(SessionCheck::AskChain(s, c)),
        Verdict::AskChain(Call::Rest(_)) => Err("the account's chain cannot be asked here".into()),
        Verdict::Invalid => Err("the signature is not the account's".into()),
    }
}

/// Whether the account's chain said the signature is its own (the answer to
/// [`SessionCheck::AskChain`]'s call).
pub fn chain_says_valid(caip_address: &str, answer: &Value) -> bool {
    let ns = caip_address.split(':').next().unwrap_or_default();
    family::sign_in(ns).is_some_and(|f| f.chain_says(answer))
}

#[cfg(test)]
#[path = "slice_tests.rs"]
mod tests;
