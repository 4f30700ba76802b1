//! The embedded wallet's wallet service (docs/embedded-wallet.md §2 and §3), served on the frame's
//! own origin: the backend's second listener (`--frame-port`), never on the main one.
//!
//! - [`frame_page`]: `GET /frame` (the secure frame's page, strict CSP, framed only by the
//!   project's allowed origins) and `GET /frame/{*path}` (`dist/frame/*.js` and `*.css`; no source
//!   maps);
//! - [`email`]: `POST /w/v1/email/start` and `/w/v1/email/verify` (login codes, [`otp`]; 30 s per
//!   address, doubling after each burned code, [`throttle`]);
//! - [`device`]: a device not approved for (project, email): the approval link mailed, its page and
//!   form (which makes the account of a new address), and the long-poll `POST /w/v1/device/wait`;
//! - [`session`]: 🔒 routes: the key vault (`/w/v1/key`), `/w/v1/session`, sign-out, the two-step
//!   email change and the test switch `/w/v1/test/expire-session`;
//! - [`Wallet::login`]: one way to turn a verified identity into an account and a session
//!   (email codes, social login, Farcaster), within one project: a wallet is scoped per project;
//! - [`smtp`] + [`mail`]: the mail, sent over SMTP to the sink (maildev in the demo and tests).
//!
//! Every route answers 403 to a request whose `Origin` header is not the frame's own origin; no CORS
//! headers are sent (the frame calls its own origin); nothing but the frame page may be framed.
//! State lives in memory: a restart of the demo forgets accounts, keys and sessions. Every table is
//! bounded in all and per client ([`table`]), every kind of request has a per-client budget
//! ([`Budgets`]).

// Handlers answer an error through `Result`s: its size does not matter here.
#![allow(clippy::result_large_err)]

pub mod account;
mod body;
mod device;
mod email;
pub mod farcaster;
pub mod frame_page;
pub mod mail;
pub mod otp;
mod session;
pub mod smtp;
pub mod social;
pub mod store;
pub mod table;
pub mod throttle;
pub mod validate;

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::watch;

use crate::client::{Buckets, Budget, Client};
use crate::AppState;

pub use account::VerifiedIdentity;

/// Largest JSON body of the wallet routes.
pub const MAX_BODY: usize = 16 * 1024;

/// Everything configurable about the wallet service. [`Default`] holds the demo's values (those of
/// the contract); tests shorten the time-outs and lower the bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletConfig {
    /// The durable store of the accounts and keys (`--store sqlite:PATH` and the master key);
    /// without it they live in memory only and a restart forgets every wallet.
    pub store: Option<StoreConfig>,
    /// The mail server (`--smtp`). Without it every mail fails (502).
    pub smtp: Option<smtp::MailServer>,
    /// The sender of every mail (`--mail-from`): an address the mail server may send from.
    pub mail_from: String,
    /// Each SMTP step (connect, each command and its reply, the message) must finish within this.
    pub smtp_step_timeout: Duration,
    /// A login or email-change code is good for this long (then 410 'Code expired').
    pub code_ttl: Duration,
    /// Wrong tries that burn a code.
    pub max_code_attempts: u32,
    /// One code mail per address in this window (else 429 with `retryAfter`); also the first step
    /// of the backoff after burned codes.
    pub email_throttle: Duration,
    /// Each burned login code doubles an address's wait for its next code (from `email_throttle`),
    /// up to this: a guesser gets 5 tries per hour at most once it is reached.
    pub max_backoff: Duration,
    /// An address's burned codes are forgotten this long after the last one (or at its next
    /// login): long enough that waiting out the backoff does not restart it.
    pub backoff_memory: Duration,
    /// Burned email-change codes (at either step) that lock the account's email changes ...
    pub update_lock_after: u32,
    /// ... for this long (429 with the wait): the codes go to mailboxes the session may not hold.
    pub update_lock: Duration,
    /// The longest `POST /w/v1/device/wait` waits for the approval (then 408).
    pub device_wait: Duration,
    /// A device-approval link is good for this long.
    pub device_link_ttl: Duration,
    /// A session token is good for this long.
    pub session_ttl: Duration,
    /// Most entries per in-memory table (accounts, sessions, pending codes, approvals, throttle);
    /// past it, expired entries are dropped, and when none is, the request gets 503.
    pub max_entries: usize,
    /// Most entries one client (peer IP address, [`crate::client`]) holds in each table: a tenth
    /// of the table by default, so that one address can never fill it for everyone. Past it, the
    /// client's own oldest entry makes room (accounts and backoff records are never evicted: the
    /// client is refused, 429).
    pub max_entries_per_client: usize,
    /// Live sessions per account: one per device and embedding site is plenty; a new login past
    /// it ends the account's oldest session.
    pub max_sessions_per_user: usize,
    /// Each client's token bucket for each kind of request: code and change mails asked, code
    /// tries (login and email change), logins (sessions made), social and Farcaster sign-ins
    /// started. Past it: 429 with `retryAfter`. Sized for a test suite logging in ~100 times in
    /// 10 minutes from one address (60 at once, then one a second) while a flood from one address
    /// gets 60 requests and then one a second.
    pub client_budget: Budget,
}

/// Where the accounts and keys are kept: an SQLite file, the keys sealed under `master_key`.
#[derive(Clone, PartialEq, Eq)]
pub struct StoreConfig {
    pub url: store::durable::StoreUrl,
    pub master_key: [u8; 32],
}

impl std::fmt::Debug for StoreConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the master key.)
        write!(f, "StoreConfig {{ url: {:?}, master_key: <redacted> }}", self.url)
    }
}

impl Default for WalletConfig {
    fn default() -> Self {
        WalletConfig {
            store: None,
            smtp: None,
            mail_from: mail::FROM_ADDRESS.to_string(),
            smtp_step_timeout: Duration::from_secs(10),
            code_ttl: Duration::from_secs(10 * 60),
            max_code_attempts: 5,
            email_throttle: Duration::from_secs(30),
            max_backoff: Duration::from_secs(3600),
            backoff_memory: Duration::from_secs(24 * 3600),
            update_lock_after: 3,
            update_lock: Duration::from_secs(3600),
            device_wait: Duration::from_secs(100),
            device_link_ttl: Duration::from_secs(15 * 60),
            session_ttl: Duration::from_secs(7 * 24 * 3600),
            max_entries: 10_000,
            max_entries_per_client: 1_000,
            max_sessions_per_user: 16,
            client_budget: Budget {
                burst: 60,
                every: Duration::from_secs(1),
            },
        }
    }
}

/// One token bucket per client for each kind of request ([`WalletConfig::client_budget`]).
#[derive(Debug)]
pub struct Budgets {
    /// Login-code, device-approval and email-change mails asked.
    pub mails: Buckets,
    /// Codes tried (`email/verify`, `email/update/primary`, `/secondary`).
    pub tries: Buckets,
    /// Sessions made (every login).
    pub logins: Buckets,
    /// Social and Farcaster sign-ins started.
    pub starts: Buckets,
}

impl Budgets {
    fn new(budget: Budget, max_clients: usize) -> Self {
        Budgets {
            mails: Buckets::new(budget, max_clients),
            tries: Buckets::new(budget, max_clients),
            logins: Buckets::new(budget, max_clients),
            starts: Buckets::new(budget, max_clients),
        }
    }
}

/// 429 when `client` has no token left in `buckets`.
pub fn spend(buckets: &Buckets, client: Client) -> Result<(), ApiError> {
    buckets.take(client).map_err(ApiError::busy)
}

/// The wallet service of one server: its stores and switches.
pub struct Wallet {
    pub config: WalletConfig,
    /// `http://127.0.0.1:F` once the frame listener is bound ([`Wallet::set_frame_origin`]).
    frame_origin: Mutex<Option<String>>,
    pub accounts: store::Accounts,
    /// The durable store under the accounts and keys, when there is one (`/readyz`, `/metrics`).
    pub durable: Option<Arc<store::durable::Counted>>,
    /// The key-encryption keys, apart from the accounts (which hold only ciphertexts).
    pub keys: store::KeyStore,
    pub sessions: store::Sessions,
    /// Pending login codes, per (project, email).
    pub codes: otp::Codes,
    /// The mail slot of each address (code mails, backoff after burned codes; `change:<address>`
    /// for the email-change mails).
    pub throttle: throttle::Throttle,
    pub approvals: store::Approvals,
    /// Pending email changes and their lock, per user id.
    pub updates: store::Updates,
    /// Per-client request budgets.
    pub budgets: Budgets,
    /// Mixed into every code hash: a code's hash is worthless without it (drawn per process, or
    /// from the master key when codes are kept in the durable store).
    pepper: [u8; 32],
    /// True once the server stops: long-polls end at once.
    closing: watch::Sender<bool>,
}

impl Wallet {
    /// An in-memory wallet service (a configured store must open: see [`Wallet::open`]).
    pub fn new(config: WalletConfig) -> Arc<Wallet> {
        Wallet::open(config).expect("the wallet store opens")
    }

    /// The wallet service, its accounts and keys read from the durable store when it has one;
    /// refused when that store cannot be opened or its keys cannot be opened with the master key.
    pub fn open(config: WalletConfig) -> Result<Arc<Wallet>, store::durable::StoreError> {
        let (max, per_client) = (config.max_entries, config.max_entries_per_client);
        let per_user = config.max_sessions_per_user;
        let pace = throttle::Pace {
            window: config.email_throttle,
            max_backoff: config.max_backoff,
            memory: config.backoff_memory,
        };
        let lock = store::UpdateLock {
            after: config.update_lock_after,
            lasts: config.update_lock,
        };
        let (accounts, keys, sessions, codes, throttle, approvals, updates, pepper, durable) = match &config.store {
            Some(s) => {
                let d = store::durable::open(&s.url, &s.master_key)?;
                (
                    store::Accounts::durable(max, per_client, d.clone())?,
                    store::KeyStore::durable(d.clone())?,
                    store::Sessions::durable(max, per_client, per_user, d.clone())?,
                    otp::Codes::durable(max, per_client, d.clone())?,
                    throttle::Throttle::durable(pace, max, per_client, d.clone())?,
                    store::Approvals::durable(max, per_client, d.clone())?,
                    store::Updates::durable(lock, d.clone())?,
                    // The codes' pepper outlives the process with them: drawn from the master key
                    // (never stored), so a stored code hash is still worthless without it.
                    sha256(&[b"wallet-modal login code pepper", &s.master_key]),
                    Some(d),
                )
            }
            None => (
                store::Accounts::new(max, per_client),
                store::KeyStore::default(),
                store::Sessions::new(max, per_client, per_user),
                otp::Codes::new(max, per_client),
                throttle::Throttle::new(pace, max, per_client),
                store::Approvals::new(max, per_client),
                store::Updates::new(lock),
                random_bytes(),
                None,
            ),
        };
        Ok(Arc::new(Wallet {
            frame_origin: Mutex::new(None),
            accounts,
            durable,
            keys,
            sessions,
            codes,
            throttle,
            approvals,
            updates,
            budgets: Budgets::new(config.client_budget, max),
            pepper,
            closing: watch::channel(false).0,
            config,
        }))
    }

    /// The frame listener's origin, `http://127.0.0.1:F`.
    pub fn set_frame_origin(&self, origin: String) {
        *self.frame_origin.lock().unwrap() = Some(origin);
    }

    pub fn frame_origin(&self) -> Option<String> {
        self.frame_origin.lock().unwrap().clone()
    }

    /// The frame page's URL (`{origin}/frame`), when there is a frame listener.
    pub fn frame_url(&self) -> Option<String> {
        self.frame_origin().map(|o| format!("{o}/frame"))
    }

    /// Ends the long-polls (the server stops).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Whether `origin` is the frame's own origin: the bound one, or the same port reached through
    /// another loopback name (the `Host` the client used).
    fn is_own_origin(&self, origin: &[u8], host: Option<&str>) -> bool {
        let Some(own) = self.frame_origin() else {
            return false;
        };
        if origin == own.as_bytes() {
            return true;
        }
        let port = own.rsplit_once(':').map(|(_, p)| p);
        let Some(host) = host else {
            return false;
        };
        let loopback = ["127.0.0.1:", "localhost:", "[::1]:"]
            .iter()
            .any(|p| host.starts_with(p));
        loopback
            && host.rsplit_once(':').map(|(_, p)| p) == port
            && origin == format!("http://{host}").as_bytes()
    }
}

/// 32 (or N) bytes from the operating system's random source.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the operating system's random source");
    b
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `N` bytes of exactly `2N` hex digits (what [`hex`] wrote), else None.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != 2 * N || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// Equal bytes, compared in a time that does not depend on where they differ.
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

// ---------------------------------------------------------------------------------------------------------
// Errors

/// An error answer: `{"error": "…"}` (and `retryAfter` for 429).
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: Cow<'static, str>,
    pub retry_after: Option<u64>,
    /// Close the connection after the answer (a body that did not arrive in time).
    pub close: bool,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<Cow<'static, str>>) -> Self {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
            close: false,
        }
    }
    pub fn bad(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn session_expired() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "Session Expired")
    }
    pub fn mail_failed() -> Self {
        Self::new(StatusCode::BAD_GATEWAY, "Could not send the email")
    }
    pub fn full() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "The demo's wallet service is full: try again later",
        )
    }
    pub fn throttled(seconds: u64) -> Self {
        Self::wait(seconds, format!("Please try again after {seconds} seconds"))
    }
    /// 429 with `retryAfter` and `message`.
    pub fn wait(seconds: u64, message: impl Into<Cow<'static, str>>) -> Self {
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }
    /// The client spent its budget of this kind of request.
    pub fn busy(seconds: u64) -> Self {
        Self::wait(
            seconds,
            format!(
                "Too many requests from your network: please try again after {seconds} seconds"
            ),
        )
    }
    /// A table had no room for the entry: the client holds its share (429), or everyone's live
    /// entries fill it (503).
    pub fn no_room(n: table::NoRoom) -> Self {
        match n {
            table::NoRoom::Client => Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many pending requests from your network: finish or wait for the earlier ones",
            ),
            table::NoRoom::Full => Self::full(),
            table::NoRoom::Store => Self::store_failed(),
        }
    }

    /// The durable store could not keep a change: 503, nothing changed.
    pub fn store_failed() -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "The wallet service could not save this: try again in a moment")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some(s) = self.retry_after {
            body["retryAfter"] = json!(s);
        }
        let mut res = (self.status, Json(body)).into_response();
        let h = res.headers_mut();
        if let Some(s) = self.retry_after {
            h.insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if self.close {
            h.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        res
    }
}

pub type ApiResult = Result<Json<Value>, ApiError>;

// ---------------------------------------------------------------------------------------------------------
// Router

/// Everything the frame listener serves: the frame page and its script, and the wallet API. Add a
/// sub-router (social login, Farcaster) to the `merge` list; it gets the origin check and the
/// headers below.
pub fn router(app: Arc<AppState>) -> Router {
    Router::new()
        .merge(frame_page::router())
        .route("/w/v1/origins", get(crate::origins))
        .merge(email::router())
        .merge(device::router())
        .merge(session::router())
        .merge(social::router())
        .merge(farcaster::router(app.clone()))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "Not found") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
        })
        .layer(middleware::from_fn_with_state(
            app.clone(),
            frame_origin_only,
        ))
        .with_state(app)
}

/// Marks a response the one page that may be framed (the frame page: its CSP names the project's
/// allowed origins as `frame-ancestors`).
#[derive(Debug, Clone, Copy)]
pub struct Embeddable;

/// The policy of every response of the frame listener that sets none of its own (JSON, scripts,
/// stylesheets): never framed.
pub const NEVER_FRAMED: &str = "frame-ancestors 'none'";

/// Refuses (403) a request whose `Origin` is not the frame's own; adds the frame origin's headers
/// to every answer (no CORS: nothing but the frame itself calls it): `frame-ancestors 'none'` and,
/// on HTML, `X-Frame-Options: DENY`, except on the frame page ([`Embeddable`]).
async fn frame_origin_only(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let mut res = if origin_allowed(&st.wallet, req.headers()) {
        next.run(req).await
    } else {
        ApiError::new(StatusCode::FORBIDDEN, "Origin not allowed").into_response()
    };
    let embeddable = res.extensions().get::<Embeddable>().is_some();
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    // `same-origin`, not `no-referrer`: under no-referrer a browser sends `Origin: null` with a
    // form POST (the device approval page's button), which the check above then refuses.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    if !embeddable {
        h.entry(header::CONTENT_SECURITY_POLICY)
            .or_insert(HeaderValue::from_static(NEVER_FRAMED));
        let html = h
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/html"));
        if html {
            h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        }
    }
    res
}

/// No `Origin` header (a navigation, a same-origin GET, a non-browser client), or only the frame's.
fn origin_allowed(w: &Wallet, headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    headers
        .get_all(header::ORIGIN)
        .iter()
        .all(|o| w.is_own_origin(o.as_bytes(), host))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_origin_is_the_bound_one_or_its_loopback_alias() {
        let w = Wallet::new(WalletConfig::default());
        assert!(!w.is_own_origin(b"http://127.0.0.1:5000", None));
        w.set_frame_origin("http://127.0.0.1:5000".into());
        assert!(w.is_own_origin(b"http://127.0.0.1:5000", None));
        assert!(w.is_own_origin(b"http://localhost:5000", Some("localhost:5000")));
        assert!(!w.is_own_origin(b"http://localhost:5000", Some("127.0.0.1:5000")));
        assert!(!w.is_own_origin(b"http://localhost:5001", Some("localhost:5001")));
        assert!(!w.is_own_origin(b"http://evil.test:5000", Some("evil.test:5000")));
        assert!(!w.is_own_origin(b"null", None));
        assert!(!w.is_own_origin(b"http://127.0.0.1:4173", None));
    }

    #[test]
    fn same_bytes_compares_whole_slices() {
        assert!(same_bytes(b"abc", b"abc"));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"ab"));
    }
}
