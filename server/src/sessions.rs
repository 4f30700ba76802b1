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

use crate::{check_project, error, own_origin, AppState, Shared};

/// How long an issued nonce can be used.
const NONCE_TTL_MS: u64 = 10 * 60_000;
/// Nonces waiting at most; sessions kept at most (the oldest go first).
const NONCES_MAX: usize = 10_000;
const SESSIONS_MAX: usize = 10_000;
/// The largest body read (a message is at most 8 KB).
const BODY_MAX: usize = 16 * 1024;
/// A session lasts this long when its message has no expiration time.
const DEFAULT_TTL_MS: u64 = 24 * 3_600_000;

#[derive(Clone, Debug)]
struct Session {
    pci: String,
    caip_address: String,
    message: String,
    signature: String,
    expires_at: u64,
}

#[derive(Default)]
pub struct Sessions {
    /// Issued nonces and when each stops being usable.
    nonces: Mutex<HashMap<String, u64>>,
    sessions: Mutex<Vec<Session>>,
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
            if !crate::origin_allowed_for(project, origin) {
                return Err(error(StatusCode::FORBIDDEN, "this origin is not one the project allows"));
            }
            Ok(origin.split_once("://").map(|(_, h)| h).unwrap_or(origin).to_string())
        }
        Some(_) => Err(error(StatusCode::BAD_REQUEST, "the Origin header is too long")),
        None => Ok(own_origin(st, headers).split_once("://").map(|(_, h)| h.to_string()).unwrap_or_default()),
    }
}

async fn nonce(State(st): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    if let Err((status, msg)) = check_project(&q, &headers) {
        return error(status, msg);
    }
    let now = now_ms();
    let mut nonces = st.sessions.nonces.lock().unwrap();
    nonces.retain(|_, until| *until > now);
    if nonces.len() >= NONCES_MAX {
        return error(StatusCode::TOO_MANY_REQUESTS, "too many sign-ins under way: try again in a few minutes");
    }
    let n = random_hex(16);
    nonces.insert(n.clone(), now + NONCE_TTL_MS);
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
    let project = match check_project(&q, &headers) {
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
    {
        let mut nonces = st.sessions.nonces.lock().unwrap();
        match nonces.remove(&nonce) {
            Some(until) if until > now => {}
            _ => return error(StatusCode::UNAUTHORIZED, "sign-in refused: the nonce was not issued here, was already used, or expired"),
        }
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
        expires_at: expires.unwrap_or(now + DEFAULT_TTL_MS),
    };
    let out = json!({ "pci": session.pci, "caipAddress": session.caip_address, "expiresAt": session.expires_at });
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
    if let Err((status, msg)) = check_project(&q, &headers) {
        return error(status, msg);
    }
    if address.len() > 128 {
        return error(StatusCode::BAD_REQUEST, "the address is too long");
    }
    let now = now_ms();
    let sessions = st.sessions.sessions.lock().unwrap();
    let mine: Vec<Value> = sessions
        .iter()
        .filter(|s| s.expires_at > now && of_address(&s.caip_address, &address))
        .map(|s| json!({ "pci": s.pci, "caipAddress": s.caip_address, "message": s.message, "expiresAt": s.expires_at }))
        .collect();
    Json(json!({ "sessions": mine })).into_response()
}

async fn revoke(State(st): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>, Path(address): Path<String>, body: Bytes) -> Response {
    if let Err((status, msg)) = check_project(&q, &headers) {
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
