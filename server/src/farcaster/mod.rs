//! Sign In With Farcaster, the demo's stand-ins for what lives outside the app: the Farcaster auth
//! relay (on the main listener, under [`RELAY_PREFIX`]), the fid registry ([`registry`]) and the
//! demo Farcaster client page (`demo/farcaster/`, served at `/demo/farcaster/`). The app side (the
//! wallet service's `/w/v1/farcaster/…` on the frame listener) is `crate::wallet::farcaster`; it
//! talks to this relay over HTTP ([`client`]) and verifies with [`siwf`].
//!
//! The relay speaks the protocol of the official one (farcasterxyz/auth-monorepo, `apps/relay`:
//! `src/server.ts`, `src/handlers.ts`, `src/schemas.ts`) that `@farcaster/auth-client` uses:
//!
//! - `POST /v1/channel` `{siweUri, domain, nonce?, notBefore?, expirationTime?, requestId?,
//!   redirectUrl?, acceptAuthAddress?}` → 201 `{channelToken, url, connectUri, nonce}` (400
//!   `{error: "Validation error", message}`; 400 `{error: "Domain not allowed"}` for farcaster.xyz);
//! - `GET /v1/channel/status` with `Authorization: Bearer <channelToken>` → 202 while pending, 200
//!   once completed (and the channel is closed: the next read is 401), `{state, nonce,
//!   signatureParams, metadata: {ip, userAgent}, acceptAuthAddress}` plus, completed, `{message,
//!   signature, authMethod, fid, username, bio, displayName, pfpUrl, custody, verifications}`;
//!   401 `{error: "Unauthorized"}` without a bearer token or for an unknown or expired channel;
//! - `POST /v1/channel/authenticate` (the Farcaster client; bearer + `X-Farcaster-Auth-Relay-Key`)
//!   `{message, signature, fid, authMethod?, username?, bio?, displayName?, pfpUrl?}` → 201 with the
//!   channel (its `custody` and `verifications` filled from the registry); 401 without the bearer,
//!   with a wrong key, or for an unknown channel.
//!
//! Differences, all of them bounds: a channel lives [`FarcasterConfig::channel_ttl`] (10 min; the
//! official default is 1 h), at most [`FarcasterConfig::max_channels`] at once (then 503), bodies
//! of at most 16 KiB and every field bounded; channel tokens are 32 characters of the official
//! alphabet (official: 8) because here the token is the only secret of a channel; a given `nonce`
//! must be 8–128 letters or digits (what EIP-4361 accepts). The `url` is the demo Farcaster client
//! page, `{main origin}/demo/farcaster/?channelToken=…&nonce=…&siweUri=…&domain=…` (plus
//! `notBefore`, `expirationTime`, `requestId` when given: the parameters the official relay put in
//! its url until auth-monorepo#214; it now carries only `channelToken`). The relay's shared key
//! `X-Farcaster-Auth-Relay-Key` (only the Farcaster client holds it) is [`DEMO_AUTH_KEY`] here,
//! public, and the demo client page sends it.

// Handlers answer an error `Response` through `Result`s: their size does not matter here.
#![allow(clippy::result_large_err)]

pub mod client;
pub mod registry;
pub mod siwf;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::connect_info::ConnectInfo;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use crate::http::{read_body, BodyError, TimedConn};
use crate::AppState;

/// Where the relay's routes live on the main listener.
pub const RELAY_PREFIX: &str = "/farcaster-relay";
/// The relay's shared key (`X-Farcaster-Auth-Relay-Key`), public in the demo.
pub const DEMO_AUTH_KEY: &str = "wallet-modal-demo-farcaster-client";
/// Largest JSON body of the relay's routes.
pub const MAX_BODY: usize = 16 * 1024;
/// Characters of a channel token (the official alphabet: no 0, 1, I, O).
pub const TOKEN_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
pub const TOKEN_LEN: usize = 32;
/// Field bounds.
pub const MAX_URI: usize = 2048;
pub const MAX_DOMAIN: usize = 253;
pub const MAX_TEXT: usize = 256;
pub const MAX_BIO: usize = 1024;
pub const MAX_MESSAGE: usize = siwf::MAX_MESSAGE;

/// Everything configurable about Sign In With Farcaster. [`Default`] holds the demo's values; tests
/// shorten the time-outs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarcasterConfig {
    /// A relay channel (and the wallet service's record of it) lives this long.
    pub channel_ttl: Duration,
    /// The longest `POST /w/v1/farcaster/connect` waits for the Farcaster client (then 408).
    pub connect_wait: Duration,
    /// How often that long-poll reads the relay's status (`watchStatus` reads every second).
    pub poll_interval: Duration,
    /// Most channels open at once, in the relay and in the wallet service (then 503).
    pub max_channels: usize,
    /// Most of the wallet service's channels one client (peer IP address) holds: a tenth by
    /// default; a client past it evicts its own oldest ([`crate::wallet::table`]).
    pub max_channels_per_client: usize,
    /// The relay the wallet service uses; `None`: this backend's own, `{main origin}/farcaster-relay`.
    pub relay_url: Option<String>,
}

impl Default for FarcasterConfig {
    fn default() -> Self {
        FarcasterConfig {
            channel_ttl: Duration::from_secs(10 * 60),
            connect_wait: Duration::from_secs(100),
            poll_interval: Duration::from_millis(500),
            max_channels: 10_000,
            max_channels_per_client: 1_000,
            relay_url: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Channels

/// One relay channel (the official `RelaySession`).
#[derive(Debug, Clone)]
struct Channel {
    expires: Instant,
    nonce: String,
    url: String,
    /// The creation body with the nonce (`signatureParams`).
    params: Map<String, Value>,
    metadata: Value,
    accept_auth_address: bool,
    /// `{message, signature, authMethod, fid, username, bio, displayName, pfpUrl, custody,
    /// verifications}` once the Farcaster client authenticated.
    completed: Option<Map<String, Value>>,
}

impl Channel {
    fn to_json(&self, with_url: bool) -> Value {
        let mut m = Map::new();
        let state = if self.completed.is_some() {
            "completed"
        } else {
            "pending"
        };
        m.insert("state".into(), json!(state));
        m.insert("nonce".into(), json!(self.nonce));
        if with_url {
            m.insert("url".into(), json!(self.url));
            m.insert("connectUri".into(), json!(self.url));
        }
        m.insert("signatureParams".into(), Value::Object(self.params.clone()));
        m.insert("metadata".into(), self.metadata.clone());
        m.insert("acceptAuthAddress".into(), json!(self.accept_auth_address));
        if let Some(c) = &self.completed {
            m.extend(c.clone());
        }
        Value::Object(m)
    }
}

/// The relay's channels (in memory; the official relay keeps them in Redis).
pub struct Relay {
    config: FarcasterConfig,
    channels: Mutex<HashMap<String, Channel>>,
}

impl Relay {
    pub fn new(config: FarcasterConfig) -> Arc<Relay> {
        Arc::new(Relay {
            config,
            channels: Mutex::new(HashMap::new()),
        })
    }

    /// Number of live channels.
    pub fn len(&self) -> usize {
        let now = Instant::now();
        let g = self.channels.lock().unwrap();
        g.values().filter(|c| c.expires > now).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stores a new channel under a fresh token, or `None` when full.
    fn open(&self, make: impl FnOnce(&str) -> Channel) -> Option<String> {
        let now = Instant::now();
        let mut g = self.channels.lock().unwrap();
        if g.len() >= self.config.max_channels {
            g.retain(|_, c| c.expires > now);
            if g.len() >= self.config.max_channels {
                return None;
            }
        }
        let token = new_token();
        let c = make(&token);
        g.insert(token.clone(), c);
        Some(token)
    }

    /// The live channel of `token` (an expired one is dropped).
    fn read(&self, token: &str) -> Option<Channel> {
        let mut g = self.channels.lock().unwrap();
        match g.get(token) {
            Some(c) if c.expires > Instant::now() => Some(c.clone()),
            Some(_) => {
                g.remove(token);
                None
            }
            None => None,
        }
    }

    fn complete(&self, token: &str, fields: Map<String, Value>) -> Option<Channel> {
        let mut g = self.channels.lock().unwrap();
        let c = g.get_mut(token).filter(|c| c.expires > Instant::now())?;
        c.completed = Some(fields);
        Some(c.clone())
    }

    fn close(&self, token: &str) {
        self.channels.lock().unwrap().remove(token);
    }
}

/// 32 characters of [`TOKEN_ALPHABET`] from the OS random source (160 bits).
fn new_token() -> String {
    crate::wallet::random_bytes::<TOKEN_LEN>()
        .iter()
        .map(|b| TOKEN_ALPHABET[(*b as usize) % TOKEN_ALPHABET.len()] as char)
        .collect()
}

// ---------------------------------------------------------------------------------------------------------
// Routes

struct RelayState {
    app: Arc<AppState>,
    relay: Arc<Relay>,
}

type Shared = Arc<RelayState>;

/// The relay's routes, for the main listener.
pub fn router<S: Clone + Send + Sync + 'static>(app: Arc<AppState>) -> Router<S> {
    let relay = Relay::new(app.config.farcaster.clone());
    Router::new()
        .route(
            "/farcaster-relay/healthcheck",
            get(|| async { Json(json!({ "status": "OK" })) }),
        )
        .route("/farcaster-relay/v1/channel", post(create_channel))
        .route("/farcaster-relay/v1/channel/status", get(status))
        .route(
            "/farcaster-relay/v1/channel/authenticate",
            post(authenticate),
        )
        .with_state(Arc::new(RelayState { app, relay }))
}

fn answer(status: StatusCode, body: Value) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn fail(status: StatusCode, error: &str) -> Response {
    answer(status, json!({ "error": error }))
}

fn unauthorized() -> Response {
    fail(StatusCode::UNAUTHORIZED, "Unauthorized")
}

/// The official relay's schema errors: `{error: "Validation error", message: "body/… …"}`.
fn invalid(message: impl Into<String>) -> Response {
    answer(
        StatusCode::BAD_REQUEST,
        json!({ "error": "Validation error", "message": message.into() }),
    )
}

/// The bearer token (`Authorization: <scheme> <token>`, as the official relay splits it).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = v.split(' ').nth(1)?;
    (!token.is_empty() && token.len() <= 128).then_some(token)
}

async fn json_body(st: &RelayState, req: Request) -> Result<Map<String, Value>, Response> {
    match read_body(req, MAX_BODY, st.app.config.http.body_read_timeout).await {
        Ok(b) => match serde_json::from_slice::<Value>(&b) {
            Ok(Value::Object(m)) => Ok(m),
            _ => Err(invalid("body must be object")),
        },
        Err(BodyError::TooLarge) => Err(fail(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("The body exceeds {MAX_BODY} bytes"),
        )),
        Err(BodyError::TimedOut) => {
            let mut r = fail(
                StatusCode::REQUEST_TIMEOUT,
                "The body did not arrive in time",
            );
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            Err(r)
        }
    }
}

/// Checks of one body against its schema: known keys only, each of the right type and bound.
struct Schema<'a>(&'a Map<String, Value>);

impl Schema<'_> {
    fn only(&self, keys: &[&str]) -> Result<(), Response> {
        match self.0.keys().find(|k| !keys.contains(&k.as_str())) {
            Some(_) => Err(invalid("body must NOT have additional properties")),
            None => Ok(()),
        }
    }

    /// A string field: `None` when absent, 400 when not a string, longer than `max` or refused by
    /// `ok` (whose text names the rule, e.g. `must match format "uri"`).
    fn str(
        &self,
        key: &str,
        required: bool,
        max: usize,
        ok: impl Fn(&str) -> bool,
        rule: &str,
    ) -> Result<Option<String>, Response> {
        match self.0.get(key) {
            None if required => Err(invalid(format!("body must have required property '{key}'"))),
            None => Ok(None),
            Some(Value::String(s)) if s.chars().count() > max => Err(invalid(format!(
                "body/{key} must NOT have more than {max} characters"
            ))),
            Some(Value::String(s)) if ok(s) => Ok(Some(s.clone())),
            Some(Value::String(_)) => Err(invalid(format!("body/{key} {rule}"))),
            Some(_) => Err(invalid(format!("body/{key} must be string"))),
        }
    }
}

fn any(_: &str) -> bool {
    true
}

fn is_uri(s: &str) -> bool {
    wm_core::auth::siwx::is_uri(s)
}

/// `^[a-zA-Z0-9.-]+(:[0-9]+)?$`
pub fn is_relay_domain(s: &str) -> bool {
    let (host, port) = match s.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn is_nonce(s: &str) -> bool {
    (8..=128).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// `^[a-z0-9][a-z0-9-]{0,15}$|^[a-z0-9][a-z0-9-]{0,15}\.eth$`
fn is_username(s: &str) -> bool {
    let name = s.strip_suffix(".eth").unwrap_or(s);
    let b = name.as_bytes();
    (1..=16).contains(&b.len())
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// `^0x[a-fA-F0-9]{130}$`
fn is_signature(s: &str) -> bool {
    s.len() == 132 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// `application/x-www-form-urlencoded`, as `URLSearchParams` writes it.
fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn metadata(req: &Request) -> Value {
    let ip = req
        .extensions()
        .get::<ConnectInfo<TimedConn>>()
        .map_or_else(|| "unknown".to_string(), |c| c.0.remote.ip().to_string());
    let ua: String = req
        .headers()
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("Unknown")
        .chars()
        .take(MAX_TEXT)
        .collect();
    json!({ "ip": ip, "userAgent": ua })
}

/// `POST /v1/channel` (official `createChannel`).
async fn create_channel(State(st): State<Shared>, req: Request) -> Response {
    let meta = metadata(&req);
    let origin = crate::own_origin(&st.app, req.headers());
    let body = match json_body(&st, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let s = Schema(&body);
    let checked = (|| {
        s.only(&[
            "siweUri",
            "domain",
            "nonce",
            "notBefore",
            "expirationTime",
            "requestId",
            "redirectUrl",
            "acceptAuthAddress",
        ])?;
        let uri_rule = "must match format \"uri\"";
        let date_rule = "must match format \"date-time\"";
        let date = wm_core::auth::siwx::is_rfc3339_date_time;
        s.str("siweUri", true, MAX_URI, is_uri, uri_rule)?;
        s.str(
            "domain",
            true,
            MAX_DOMAIN,
            is_relay_domain,
            "must match pattern \"^[a-zA-Z0-9.-]+(:[0-9]+)?$\"",
        )?;
        let nonce = s.str(
            "nonce",
            false,
            128,
            is_nonce,
            "must be 8 to 128 letters or digits",
        )?;
        s.str("notBefore", false, 64, date, date_rule)?;
        s.str("expirationTime", false, 64, date, date_rule)?;
        s.str("requestId", false, MAX_TEXT, any, "")?;
        s.str("redirectUrl", false, MAX_URI, any, "")?;
        let accept = match body.get("acceptAuthAddress") {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(invalid("body/acceptAuthAddress must be boolean")),
        };
        Ok((nonce, accept))
    })();
    let (nonce, accept_auth_address) = match checked {
        Ok(v) => v,
        Err(r) => return r,
    };
    let domain = body["domain"].as_str().unwrap_or_default();
    if domain.to_ascii_lowercase().contains("farcaster.xyz") {
        return fail(StatusCode::BAD_REQUEST, "Domain not allowed");
    }
    let nonce = nonce.unwrap_or_else(|| crate::wallet::hex(&crate::wallet::random_bytes::<16>()));
    let mut params = body.clone();
    params.insert("nonce".into(), json!(nonce));
    let expires = Instant::now() + st.relay.config.channel_ttl;
    let opened = st.relay.open(|token| {
        let mut url = format!(
            "{origin}/demo/farcaster/?channelToken={}",
            form_encode(token)
        );
        for key in [
            "nonce",
            "siweUri",
            "domain",
            "notBefore",
            "expirationTime",
            "requestId",
        ] {
            if let Some(v) = params.get(key).and_then(Value::as_str) {
                url.push_str(&format!("&{key}={}", form_encode(v)));
            }
        }
        Channel {
            expires,
            nonce: nonce.clone(),
            url,
            params,
            metadata: meta,
            accept_auth_address,
            completed: None,
        }
    });
    let Some(token) = opened else {
        return fail(
            StatusCode::SERVICE_UNAVAILABLE,
            "The demo's Farcaster relay is full: try again later",
        );
    };
    let url = st.relay.read(&token).map(|c| c.url).unwrap_or_default();
    answer(
        StatusCode::CREATED,
        json!({ "channelToken": token, "url": url, "connectUri": url, "nonce": nonce }),
    )
}

/// `GET /v1/channel/status` (official `status`): 202 pending, 200 completed (then closed).
async fn status(State(st): State<Shared>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers) else {
        return unauthorized();
    };
    let Some(c) = st.relay.read(token) else {
        return unauthorized();
    };
    if c.completed.is_some() {
        st.relay.close(token);
        answer(StatusCode::OK, c.to_json(false))
    } else {
        answer(StatusCode::ACCEPTED, c.to_json(false))
    }
}

/// `POST /v1/channel/authenticate` (official `authenticate`): the Farcaster client hands over the
/// signed message. Nothing is verified here (the app does); `custody` and `verifications` come from
/// the registry.
async fn authenticate(State(st): State<Shared>, req: Request) -> Response {
    let headers = req.headers().clone();
    let body = match json_body(&st, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    // Body first, as fastify validates the schema before the bearer hook runs.
    let s = Schema(&body);
    let checked = (|| {
        s.only(&[
            "message",
            "signature",
            "authMethod",
            "fid",
            "username",
            "bio",
            "displayName",
            "pfpUrl",
        ])?;
        s.str("message", true, MAX_MESSAGE, any, "")?;
        s.str(
            "signature",
            true,
            132,
            is_signature,
            "must match pattern \"^0x[a-fA-F0-9]{130}$\"",
        )?;
        s.str(
            "authMethod",
            false,
            16,
            |m| matches!(m, "custody" | "authAddress"),
            "must be equal to one of the allowed values",
        )?;
        let fid = match body.get("fid") {
            None => return Err(invalid("body must have required property 'fid'")),
            Some(v) => v
                .as_u64()
                .filter(|f| *f <= wm_core::auth::siwx::MAX_CHAIN_ID)
                .ok_or_else(|| invalid("body/fid must be integer"))?,
        };
        s.str(
            "username",
            false,
            20,
            is_username,
            "must match pattern \"^[a-z0-9][a-z0-9-]{0,15}$|^[a-z0-9][a-z0-9-]{0,15}\\.eth$\"",
        )?;
        s.str("bio", false, MAX_BIO, any, "")?;
        s.str("displayName", false, MAX_TEXT, any, "")?;
        s.str(
            "pfpUrl",
            false,
            MAX_URI,
            is_uri,
            "must match format \"uri\"",
        )?;
        Ok(fid)
    })();
    let fid = match checked {
        Ok(f) => f,
        Err(r) => return r,
    };
    let Some(token) = bearer(&headers) else {
        return unauthorized();
    };
    let key = headers
        .get("x-farcaster-auth-relay-key")
        .or_else(|| headers.get("x-farcaster-connect-auth-key"))
        .and_then(|v| v.to_str().ok());
    if key != Some(DEMO_AUTH_KEY) {
        return unauthorized();
    }
    let mut fields = Map::new();
    for k in [
        "message",
        "signature",
        "username",
        "displayName",
        "bio",
        "pfpUrl",
    ] {
        if let Some(v) = body.get(k) {
            fields.insert(k.into(), v.clone());
        }
    }
    fields.insert(
        "authMethod".into(),
        body.get("authMethod")
            .cloned()
            .unwrap_or_else(|| json!("custody")),
    );
    fields.insert("fid".into(), json!(fid));
    fields.insert("custody".into(), json!(registry::custody_of(fid)));
    fields.insert("verifications".into(), json!([]));
    match st.relay.complete(token, fields) {
        Some(c) => answer(StatusCode::CREATED, c.to_json(true)),
        None => unauthorized(),
    }
}

// ---------------------------------------------------------------------------------------------------------
// The demo Farcaster client page

/// Its policy: its own script and style only, talks to its own origin (the relay), never framed.
pub const CLIENT_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `/demo/farcaster/…` (`rel` is what follows `farcaster/`): the page (`""` or `index.html`), its
/// stylesheet and its bundle (`dist/*.js`, `*.js.map`, built by `demo/farcaster/build.mjs`); not
/// its sources.
pub async fn client_file(root: &std::path::Path, rel: &str) -> Response {
    let dir = root.join("demo/farcaster");
    let page = rel.is_empty() || rel == "index.html";
    let bundle = rel.starts_with("dist/") && (rel.ends_with(".js") || rel.ends_with(".js.map"));
    if !(page || bundle || rel == "farcaster.css") {
        return crate::error(StatusCode::NOT_FOUND, "not found");
    }
    let mut res = crate::files::serve(&dir, if page { "index.html" } else { rel }).await;
    if page && res.status() == StatusCode::OK {
        let h = res.headers_mut();
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CLIENT_CSP),
        );
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_characters_of_the_official_alphabet() {
        let t = new_token();
        assert_eq!(t.len(), TOKEN_LEN);
        assert!(t.bytes().all(|b| TOKEN_ALPHABET.contains(&b)));
        assert_ne!(t, new_token());
    }

    #[test]
    fn field_rules_match_the_official_schema() {
        assert!(is_relay_domain("example.com"));
        assert!(is_relay_domain("127.0.0.1:4173"));
        assert!(!is_relay_domain("not a domain"));
        assert!(!is_relay_domain("[::1]:80"));
        assert!(!is_relay_domain("a.com:"));
        assert!(is_username("alice"));
        assert!(is_username("alice.eth"));
        assert!(!is_username("Alice"));
        assert!(!is_username("-alice"));
        assert!(!is_username("a234567890123456x"));
        assert!(is_signature(&format!("0x{}", "aB".repeat(65))));
        assert!(!is_signature("0x123"));
        assert!(is_nonce("abcdEFGH12"));
        assert!(!is_nonce("short"));
        assert_eq!(
            form_encode("http://a b/?x=1&y"),
            "http%3A%2F%2Fa+b%2F%3Fx%3D1%26y"
        );
    }
}
