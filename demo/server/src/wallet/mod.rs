//! The embedded wallet's wallet service (docs/embedded-wallet.md §2 and §3), served on the frame's
//! own origin: the backend's second listener (`--frame-port`), never on the main one.
//!
//! - [`frame_page`]: `GET /frame` (the secure frame's page, strict CSP) and `GET /frame/{*path}`
//!   (`dist/frame/*.js` and `*.js.map`);
//! - [`email`]: `POST /w/v1/email/start` and `/w/v1/email/verify` (login codes, 30 s per email);
//! - [`device`]: a known email on an unknown device: the approval link mailed, its page and form,
//!   and the long-poll `POST /w/v1/device/wait`;
//! - [`session`]: 🔒 routes: the key vault (`/w/v1/key`), `/w/v1/session`, sign-out, the two-step
//!   email change and the test switch `/w/v1/test/expire-session`;
//! - [`account::Wallet::login`]: one way to turn a verified identity into an account and a session
//!   (email codes now; social login and Farcaster later);
//! - [`smtp`] + [`mail`]: the mail, sent over SMTP to the sink (maildev in the demo and tests).
//!
//! Every route answers 403 to a request whose `Origin` header is not the frame's own origin; no CORS
//! headers are sent (the frame calls its own origin). State lives in memory: a restart of the demo
//! forgets accounts, keys and sessions.

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

use crate::AppState;

pub use account::VerifiedIdentity;

/// Largest JSON body of the wallet routes.
pub const MAX_BODY: usize = 16 * 1024;

/// Everything configurable about the wallet service. [`Default`] holds the demo's values (those of
/// the contract); tests shorten the time-outs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletConfig {
    /// The SMTP sink, `HOST:PORT` (`--smtp`). Without it every mail fails (502).
    pub smtp: Option<String>,
    /// Each SMTP step (connect, each command and its reply, the message) must finish within this.
    pub smtp_step_timeout: Duration,
    /// A login or email-change code is good for this long (then 410 'Code expired').
    pub code_ttl: Duration,
    /// Wrong tries that burn a code.
    pub max_code_attempts: u32,
    /// One `POST /w/v1/email/start` per email in this window (else 429 with `retryAfter`).
    pub email_throttle: Duration,
    /// The longest `POST /w/v1/device/wait` waits for the approval (then 408).
    pub device_wait: Duration,
    /// A device-approval link is good for this long.
    pub device_link_ttl: Duration,
    /// A session token is good for this long.
    pub session_ttl: Duration,
    /// Most entries per in-memory table (accounts, sessions, pending codes, approvals, throttle);
    /// past it, expired entries are dropped, and when none is, the request gets 503.
    pub max_entries: usize,
}

impl Default for WalletConfig {
    fn default() -> Self {
        WalletConfig {
            smtp: None,
            smtp_step_timeout: Duration::from_secs(10),
            code_ttl: Duration::from_secs(10 * 60),
            max_code_attempts: 5,
            email_throttle: Duration::from_secs(30),
            device_wait: Duration::from_secs(100),
            device_link_ttl: Duration::from_secs(15 * 60),
            session_ttl: Duration::from_secs(7 * 24 * 3600),
            max_entries: 10_000,
        }
    }
}

/// The wallet service of one server: its stores and switches.
pub struct Wallet {
    pub config: WalletConfig,
    /// `http://127.0.0.1:F` once the frame listener is bound ([`Wallet::set_frame_origin`]).
    frame_origin: Mutex<Option<String>>,
    pub accounts: store::Accounts,
    /// The key-encryption keys, apart from the accounts (which hold only ciphertexts).
    pub keys: store::KeyStore,
    pub sessions: store::Sessions,
    /// Pending login codes, per email.
    pub codes: otp::Codes,
    /// The last code mail per email (`POST /w/v1/email/start`).
    pub throttle: otp::Throttle,
    pub approvals: store::Approvals,
    /// Pending email changes, per user id.
    pub updates: store::Updates,
    /// Mixed into every code hash: a code's hash is worthless outside this process.
    pepper: [u8; 32],
    /// True once the server stops: long-polls end at once.
    closing: watch::Sender<bool>,
}

impl Wallet {
    pub fn new(config: WalletConfig) -> Arc<Wallet> {
        let max = config.max_entries;
        Arc::new(Wallet {
            frame_origin: Mutex::new(None),
            accounts: store::Accounts::new(max),
            keys: store::KeyStore::default(),
            sessions: store::Sessions::new(max),
            codes: otp::Codes::new(max),
            throttle: otp::Throttle::new(config.email_throttle, max),
            approvals: store::Approvals::new(max),
            updates: store::Updates::default(),
            pepper: random_bytes(),
            closing: watch::channel(false).0,
            config,
        })
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
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("Please try again after {seconds} seconds"),
            )
        }
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

/// Refuses (403) a request whose `Origin` is not the frame's own; adds the frame origin's headers
/// (no CORS: nothing but the frame itself calls it).
async fn frame_origin_only(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    if !origin_allowed(&st.wallet, req.headers()) {
        return ApiError::new(StatusCode::FORBIDDEN, "Origin not allowed").into_response();
    }
    let mut res = next.run(req).await;
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
