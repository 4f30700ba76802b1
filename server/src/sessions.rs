//! Sign-in sessions (SIWX), as a dapp's own server keeps them: a nonce per sign-in, the signed
//! message checked with the core compiled natively (`wm_core::auth::slice::verify_session`:
//! CAIP-122 text of an allowed page's domain for the account and its network, unexpired, signed by
//! the account — recovered offline, ed25519, or an EVM contract account asked on its chain with
//! ERC-1271), then kept until it expires or is revoked.
//!
//! - `GET /v1/sessions/nonce` → `{nonce}`: issued once, usable once, for ten minutes.
//! - `POST /v1/sessions` `{message, signature, caipAddress}` → `{pci, caipAddress, expiresAt}`:
//!   the nonce of the message must be one issued here and not used yet.
//! - `GET /v1/sessions/{address}` → `{sessions: [{pci, caipAddress, message, expiresAt}]}` (the
//!   signatures, which prove a session, are never returned).
//! - `POST /v1/sessions/{address}/revoke` `{pci, signature}` → `{revoked: true}`: the signature of
//!   that session proves the caller holds it.
//!
//! The page's domain is the request's `Origin` (one the project allows), or this server's own
//! host without one. Every refusal is a 4xx with a message that says why.
//!
//! With a store (`--store`), nonces and sessions are kept there (entries `siwx-nonce` and
//! `siwx-session`, the latter keyed `{address}|{pci}`): a nonce issued by one instance is used once
//! on any, and sessions survive a restart and are seen by every instance. A store that cannot be
//! reached is answered 503; nothing is then issued or kept. Without one, this process's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use wm_core::auth::slice::{chain_says_valid, verify_session, SessionCheck};

use crate::client::Peer;
use crate::wallet::store::durable::Durable;
use crate::{error, own_origin, AppState, Shared};

/// How long an issued nonce can be used.
const NONCE_TTL_MS: u64 = 10 * 60_000;
/// Nonces waiting at most; sessions kept at most (the oldest go first).
const NONCES_MAX: usize = 10_000;
const SESSIONS_MAX: usize = 10_000;
/// Sessions one address keeps in the store at most (its oldest-expiring go first).
const ADDRESS_SESSIONS_MAX: usize = 100;
const NONCE_KIND: &str = "siwx-nonce";
const SESSION_KIND: &str = "siwx-session";
/// The largest body read (a message is at most 8 KB).
const BODY_MAX: usize = 16 * 1024;
/// A session lasts this long when its message has no expiration time.
const DEFAULT_TTL_MS: u64 = 24 * 3_600_000;
/// And at most this long, whatever its message says (the store keeps nothing forever).
const MAX_TTL_MS: u64 = 30 * 24 * 3_600_000;
/// Nonces one client (peer address) may ask for: 120 at once, then one every 2 s; what bounds
/// how fast one client can make sessions (each also needs a signature).
const NONCE_BUDGET: crate::client::Budget = crate::client::Budget { burst: 120, every: std::time::Duration::from_secs(2) };

#[derive(Clone, Debug)]
struct Session {
    pci: String,
    caip_address: String,
    message: String,
    signature: String,
    expires_at: u64,
}

impl Session {
    /// The store's body of a session.
    fn body(&self) -> String {
        json!({ "pci": self.pci, "caipAddress": self.caip_address, "message": self.message, "signature": self.signature, "expiresAt": self.expires_at })
            .to_string()
    }

    /// A session read from the store; `None` for a body this server did not write.
    fn from_body(body: &str) -> Option<Session> {
        if body.len() > 4 * BODY_MAX {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Some(Session {
            pci: text("pci")?,
            caip_address: text("caipAddress")?,
            message: text("message")?,
            signature: text("signature")?,
            expires_at: v.get("expiresAt")?.as_u64()?,
        })
    }

    fn listed(&self) -> Value {
        json!({ "pci": self.pci, "caipAddress": self.caip_address, "message": self.message, "expiresAt": self.expires_at })
    }
}

pub struct Sessions {
    /// Nonces this process issued and when each stops being usable (without a store, the only
    /// record; with one, the bound on what this process issues).
    nonces: Mutex<HashMap<String, u64>>,
    sessions: Mutex<Vec<Session>>,
    /// Nonces asked per client ([`NONCE_BUDGET`]).
    nonce_budget: crate::client::Buckets,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions { nonces: Mutex::default(), sessions: Mutex::default(), nonce_budget: crate::client::Buckets::new(NONCE_BUDGET, NONCES_MAX) }
    }
}

/// An address as a store key: EVM addresses in lower case (they are compared in any case).
fn address_key(address: &str) -> String {
    if address.starts_with("0x") {
        address.to_ascii_lowercase()
    } else {
        address.to_string()
    }
}

/// A session's key in the store: `{address}|{pci}`.
fn session_key(caip_address: &str, pci: &str) -> String {
    let address = caip_address.rsplit_once(':').map_or(caip_address, |(_, a)| a);
    format!("{}|{pci}", address_key(address))
}

fn store_down() -> Response {
    error(StatusCode::SERVICE_UNAVAILABLE, "the sign-in store cannot be reached: try again in a moment")
}


fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    getrandom::fill(&mut b).expect("the OS has randomness");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn router(state: Shared) -> Router<Shared> {
    let _ = state;
    Router::new()
        .route("/v1/sessions/nonce", get(nonce))
        .route("/v1/sessions", post(create))
        .route("/v1/sessions/{address}", get(list))
        .route("/v1/sessions/{address}/revoke", post(revoke))
}

/// The domain a message must name: the calling page's (its `Origin`, if the project allows it),
/// else this server's own host.
fn page_domain(st: &AppState, headers: &HeaderMap, project: &str) -> Result<String, Response> {
    match headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
        Some(origin) if origin.len() <= 256 => {
            if !st.config.projects.origin_allowed(project, origin) {
                return Err(error(StatusCode::FORBIDDEN, "this origin is not one the project allows"));
            }
            Ok(origin.split_once("://").map(|(_, h)| h).unwrap_or(origin).to_string())
        }
        Some(_) => Err(error(StatusCode::BAD_REQUEST, "the Origin header is too long")),
        None => Ok(own_origin(st, headers).split_once("://").map(|(_, h)| h.to_string()).unwrap_or_default()),
    }
}

async fn nonce(State(st): State<Shared>, Peer(client): Peer, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    if let Err((status, msg)) = st.config.projects.check(&q, &headers) {
        return error(status, msg);
    }
    if let Err(seconds) = st.sessions.nonce_budget.take(client) {
        return error(StatusCode::TOO_MANY_REQUESTS, &format!("too many sign-ins from your network: try again in {seconds} seconds"));
    }
    let now = now_ms();
    let n = random_hex(16);
    {
        let mut nonces = st.sessions.nonces.lock().unwrap();
        nonces.retain(|_, until| *until > now);
        if nonces.len() >= NONCES_MAX {
            return error(StatusCode::TOO_MANY_REQUESTS, "too many sign-ins under way: try again in a few minutes");
        }
        nonces.insert(n.clone(), now + NONCE_TTL_MS);
    }
    if let Some(store) = st.wallet.durable.as_deref() {
        // Written before it is handed out (the lock above is not held across the store's call);
        // expired ones are deleted by the server's sweep ([`crate::sweep_store`]).
        if store.put_entry(NONCE_KIND, &n, now + NONCE_TTL_MS, "1").is_err() {
            st.sessions.nonces.lock().unwrap().remove(&n);
            return store_down();
        }
    }
    Json(json!({ "nonce": n })).into_response()
}

/// The JSON object of a body, bounded; or the refusal.
fn body_object(body: &Bytes) -> Result<serde_json::Map<String, Value>, Response> {
    if body.len() > BODY_MAX {
        return Err(error(StatusCode::PAYLOAD_TOO_LARGE, "the body is larger than 16 KB"));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(o)) => Ok(o),
        _ => Err(error(StatusCode::BAD_REQUEST, "the body must be a JSON object")),
    }
}

fn field<'a>(o: &'a serde_json::Map<String, Value>, k: &str) -> Result<&'a str, Response> {
    o.get(k).and_then(Value::as_str).ok_or_else(|| error(StatusCode::BAD_REQUEST, &format!("`{k}` must be a string")))
}

async fn create(State(st): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>, body: Bytes) -> Response {
    let project = match st.config.projects.check(&q, &headers) {
        Ok(p) => p,
        Err((status, msg)) => return error(status, msg),
    };
    let domain = match page_domain(&st, &headers, &project) {
        Ok(d) => d,
        Err(r) => return r,
    };
    let o = match body_object(&body) {
        Ok(o) => o,
        Err(r) => return r,
    };
    let (message, signature, caip_address) = match (field(&o, "message"), field(&o, "signature"), field(&o, "caipAddress")) {
        (Ok(m), Ok(s), Ok(c)) => (m, s, c),
        (Err(r), ..) | (_, Err(r), _) | (.., Err(r)) => return r,
    };
    let now = now_ms();
    let check = match verify_session(&domain, now, caip_address, message, signature, None) {
        Ok(c) => c,
        Err(e) => return error(StatusCode::UNAUTHORIZED, &format!("sign-in refused: {e}")),
    };
    // The message's nonce: one issued here, used now for the first and last time.
    let nonce = message.lines().find_map(|l| l.strip_prefix("Nonce: ")).unwrap_or_default().to_string();
    let local = st.sessions.nonces.lock().unwrap().remove(&nonce);
    let fresh = match st.wallet.durable.as_deref() {
        // Used once, whichever instance issued it: the store's entry is taken away conditionally.
        Some(store) => match store.swap_entry(NONCE_KIND, &nonce, Some("1"), None, now) {
            Ok(taken) => taken,
            Err(_) => return store_down(),
        },
        None => local.is_some_and(|until| until > now),
    };
    if !fresh {
        return error(StatusCode::UNAUTHORIZED, "sign-in refused: the nonce was not issued here, was already used, or expired");
    }
    let expires = match check {
        SessionCheck::Valid(s) => s.expires_at,
        SessionCheck::AskChain(s, call) => {
            // An EVM contract account: its chain says whether the signature is its own.
            let chain_id = caip_address.split(':').nth(1).and_then(|c| c.parse::<u64>().ok());
            let Some(chain) = chain_id.and_then(|id| st.chain_api.chain(id)) else {
                return error(StatusCode::UNAUTHORIZED, "sign-in refused: the signature is not the account's key's, and this server cannot ask its chain");
            };
            let Ok(rpc) = chain.rpc.as_ref() else { return error(StatusCode::BAD_GATEWAY, "the account's chain cannot be reached") };
            let params: Value = serde_json::from_str(&call.params.to_string()).unwrap_or(Value::Null);
            let answer: Result<Value, _> = rpc.call(call.method, params).await;
            let said = answer.map(|v| chain_says_valid(caip_address, &wm_core::service::json::Value::from(v))).unwrap_or(false);
            if !said {
                return error(StatusCode::UNAUTHORIZED, "sign-in refused: the signature is not the account's");
            }
            s.expires_at
        }
    };
    let session = Session {
        pci: random_hex(16),
        caip_address: caip_address.to_string(),
        message: message.to_string(),
        signature: signature.to_string(),
        expires_at: expires.unwrap_or(now + DEFAULT_TTL_MS).min(now + MAX_TTL_MS),
    };
    let out = json!({ "pci": session.pci, "caipAddress": session.caip_address, "expiresAt": session.expires_at });
    if let Some(store) = st.wallet.durable.as_deref() {
        let key = session_key(&session.caip_address, &session.pci);
        let prefix = format!("{}|", key.rsplit_once('|').map_or("", |(a, _)| a));
        let Ok(mut held) = store.entries_under(SESSION_KIND, &prefix, now) else { return store_down() };
        // An address keeps its newest sessions: those expiring first make room.
        held.sort_by_key(|(_, b)| Session::from_body(b).map_or(0, |s| s.expires_at));
        for (old, _) in held.iter().take((held.len() + 1).saturating_sub(ADDRESS_SESSIONS_MAX)) {
            if store.delete_entry(SESSION_KIND, old).is_err() {
                return store_down();
            }
        }
        if store.put_entry(SESSION_KIND, &key, session.expires_at, &session.body()).is_err() {
            return store_down();
        }
        return (StatusCode::CREATED, Json(out)).into_response();
    }
    let mut sessions = st.sessions.sessions.lock().unwrap();
    sessions.retain(|s| s.expires_at > now);
    if sessions.len() >= SESSIONS_MAX {
        sessions.remove(0);
    }
    sessions.push(session);
    (StatusCode::CREATED, Json(out)).into_response()
}

/// Whether a CAIP-10 account is `address` (EVM addresses in any case).
fn of_address(caip: &str, address: &str) -> bool {
    caip.rsplit_once(':').is_some_and(|(_, a)| a == address || (a.starts_with("0x") && a.eq_ignore_ascii_case(address)))
}

async fn list(State(st): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>, Path(address): Path<String>) -> Response {
    if let Err((status, msg)) = st.config.projects.check(&q, &headers) {
        return error(status, msg);
    }
    if address.len() > 128 {
        return error(StatusCode::BAD_REQUEST, "the address is too long");
    }
    let now = now_ms();
    let mine: Vec<Value> = match st.wallet.durable.as_deref() {
        Some(store) => match store.entries_under(SESSION_KIND, &format!("{}|", address_key(&address)), now) {
            Ok(held) => held
                .iter()
                .filter_map(|(_, b)| Session::from_body(b))
                .filter(|s| s.expires_at > now && of_address(&s.caip_address, &address))
                .map(|s| s.listed())
                .collect(),
            Err(_) => return store_down(),
        },
        None => {
            let sessions = st.sessions.sessions.lock().unwrap();
            sessions.iter().filter(|s| s.expires_at > now && of_address(&s.caip_address, &address)).map(Session::listed).collect()
        }
    };
    Json(json!({ "sessions": mine })).into_response()
}

async fn revoke(State(st): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>, Path(address): Path<String>, body: Bytes) -> Response {
    if let Err((status, msg)) = st.config.projects.check(&q, &headers) {
        return error(status, msg);
    }
    let o = match body_object(&body) {
        Ok(o) => o,
        Err(r) => return r,
    };
    let (pci, signature) = match (field(&o, "pci"), field(&o, "signature")) {
        (Ok(p), Ok(s)) => (p, s),
        (Err(r), _) | (_, Err(r)) => return r,
    };
    if let Some(store) = st.wallet.durable.as_deref() {
        if address.len() > 128 || pci.len() > 64 {
            return error(StatusCode::NOT_FOUND, "no such session for this address");
        }
        let key = format!("{}|{pci}", address_key(&address));
        let now = now_ms();
        let held = match store.entry(SESSION_KIND, &key, now) {
            Ok(Some(b)) => b,
            Ok(None) => return error(StatusCode::NOT_FOUND, "no such session for this address"),
            Err(_) => return store_down(),
        };
        let Some(session) = Session::from_body(&held).filter(|s| of_address(&s.caip_address, &address)) else {
            return error(StatusCode::NOT_FOUND, "no such session for this address");
        };
        if session.signature != signature {
            return error(StatusCode::FORBIDDEN, "the signature is not this session's");
        }
        return match store.swap_entry(SESSION_KIND, &key, Some(&held), None, now) {
            Ok(_) => Json(json!({ "revoked": true })).into_response(),
            Err(_) => store_down(),
        };
    }
    let mut sessions = st.sessions.sessions.lock().unwrap();
    match sessions.iter().position(|s| s.pci == pci && of_address(&s.caip_address, &address)) {
        None => error(StatusCode::NOT_FOUND, "no such session for this address"),
        Some(i) if sessions[i].signature != signature => error(StatusCode::FORBIDDEN, "the signature is not this session's"),
        Some(i) => {
            sessions.remove(i);
            Json(json!({ "revoked": true })).into_response()
        }
    }
}
