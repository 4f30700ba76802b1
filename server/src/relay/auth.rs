//! Relay client authentication: the EdDSA JWT that WalletConnect clients pass as `?auth=` (or as an
//! `Authorization: Bearer` header).
//!
//! The token is `base64url(header).base64url(payload).base64url(signature)` without padding. The header
//! must say `alg: EdDSA` (and `typ: JWT` when present); the payload's `iss` is the client id, a
//! `did:key:z…` whose base58btc body is the multicodec prefix `0xED 0x01` followed by the 32-byte
//! Ed25519 public key; the signature is Ed25519 over the ASCII bytes `header.payload`.
//!
//! Every length is checked before anything is decoded ([`MAX_TOKEN_LEN`], [`MAX_HEADER_SEGMENT_LEN`],
//! [`MAX_PAYLOAD_SEGMENT_LEN`], [`MAX_SIGNATURE_SEGMENT_LEN`], [`MAX_DID_KEY_LEN`], [`MAX_AUD_LEN`]):
//! base58 decoding is quadratic, so an unbounded issuer would let one request hold a worker for
//! seconds. `iat` and `exp` must be JSON integers, `exp` at most [`Policy::max_lifetime`] after
//! `iat`, and `aud` the relay URL the client connected to ([`Audience`]).

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD_INDIFFERENT;
use base64::Engine;
use ed25519_dalek::{Signature, VerifyingKey};
use serde_json::Value;

/// Prefix of an Ed25519 `did:key` (multibase `z` = base58btc).
pub const DID_KEY_PREFIX: &str = "did:key:z";
/// Multicodec prefix of an Ed25519 public key.
pub const ED25519_MULTICODEC: [u8; 2] = [0xed, 0x01];

/// Longest token looked at (the official clients' tokens are about 450 characters; the same bound
/// as `wm_core::connect::wc::auth::MAX_JWT_LEN`).
pub const MAX_TOKEN_LEN: usize = 4096;
/// Longest header segment (`{"alg":"EdDSA","typ":"JWT"}` is 36 characters encoded).
pub const MAX_HEADER_SEGMENT_LEN: usize = 256;
/// Longest payload segment.
pub const MAX_PAYLOAD_SEGMENT_LEN: usize = 3072;
/// Longest signature segment: 64 bytes are 86 characters unpadded, 88 padded.
pub const MAX_SIGNATURE_SEGMENT_LEN: usize = 88;
/// Longest `did:key` issuer: `did:key:z` + 47 base58 characters for an Ed25519 key (one spare).
pub const MAX_DID_KEY_LEN: usize = DID_KEY_PREFIX.len() + 48;
/// Longest `aud` (a relay URL).
pub const MAX_AUD_LEN: usize = 1024;
/// Longest token lifetime (`exp - iat`) by default: one day, what the official clients issue
/// (`@walletconnect/core` signs with `ONE_DAY`, `wm_core` with `DEFAULT_JWT_TTL_S`).
pub const DEFAULT_MAX_LIFETIME_S: i64 = 86_400;

/// Claims of a verified token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The client id (`did:key:z…`).
    pub iss: String,
    pub sub: Option<String>,
    pub aud: Option<String>,
    pub iat: i64,
    pub exp: i64,
}

/// Why a token was refused. `Display` gives the WebSocket close reason, e.g. `invalid auth: expired`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    Missing,
    Malformed,
    /// A part longer than its bound: what, and the bound.
    TooLong(&'static str, usize),
    BadHeader,
    BadIssuer,
    BadSignature,
    MissingClaim(&'static str),
    /// `iat` / `exp` that is not a JSON integer (e.g. `1e300`, `1.5`, `"123"`).
    NotInteger(&'static str),
    /// `exp` before `iat`.
    ExpBeforeIat,
    /// `exp - iat` above the allowed lifetime (seconds).
    LifetimeTooLong(i64),
    /// `aud` is not the relay URL the client connected to (which is given).
    WrongAudience(String),
    Expired,
    IssuedInFuture,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::Missing => f.write_str("missing auth"),
            AuthError::Malformed => f.write_str("invalid auth: malformed token"),
            AuthError::TooLong(what, max) => {
                write!(f, "invalid auth: {what} too long (max {max} characters)")
            }
            AuthError::BadHeader => {
                f.write_str("invalid auth: unsupported header (expected EdDSA JWT)")
            }
            AuthError::BadIssuer => {
                f.write_str("invalid auth: bad issuer (expected did:key of an ed25519 key)")
            }
            AuthError::BadSignature => f.write_str("invalid auth: bad signature"),
            AuthError::MissingClaim(c) => write!(f, "invalid auth: missing claim {c}"),
            AuthError::NotInteger(c) => write!(f, "invalid auth: claim {c} must be an integer"),
            AuthError::ExpBeforeIat => f.write_str("invalid auth: exp before iat"),
            AuthError::LifetimeTooLong(max) => {
                write!(
                    f,
                    "invalid auth: lifetime too long (exp more than {max} s after iat)"
                )
            }
            AuthError::WrongAudience(expected) => {
                write!(f, "invalid auth: wrong audience (expected {expected})")
            }
            AuthError::Expired => f.write_str("invalid auth: expired"),
            AuthError::IssuedInFuture => f.write_str("invalid auth: issued in the future"),
        }
    }
}

impl std::error::Error for AuthError {}

/// The relay URL a token must name as `aud`: the `Host` the client connected to and the path of
/// the relay route. Accepted: `ws://` or `wss://` (TLS may end in front of the relay), scheme and
/// host in any case, the port written or left to the scheme's default, any query string (a client
/// may carry one in its relay URL) — but the host, port and path must be exactly these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audience {
    /// Lowercase host (IPv6 in brackets).
    host: String,
    /// Port from the Host header; `None` = the scheme's default.
    port: Option<u16>,
    path: String,
}

/// Splits `host[:port]` (IPv6 as `[::1]:port`); `None` when malformed.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    if authority.is_empty() || authority.contains(['@', '/', '?', '#', ' ']) {
        return None;
    }
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest.find(']')?;
        let host = &authority[..end + 2];
        match &rest[end + 1..] {
            "" => (host, None),
            p => (host, Some(p.strip_prefix(':')?)),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() || (host.contains(':') && !host.starts_with('[')) {
        return None;
    }
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    Some((host.to_ascii_lowercase(), port))
}

impl Audience {
    /// From the request's `Host` header and path (e.g. `127.0.0.1:4173`, `/relay`).
    pub fn new(host_header: &str, path: &str) -> Option<Audience> {
        if host_header.len() > MAX_AUD_LEN {
            return None;
        }
        let (host, port) = split_authority(host_header.trim())?;
        Some(Audience {
            host,
            port,
            path: path.to_string(),
        })
    }

    /// Whether `aud` names this relay.
    pub fn matches(&self, aud: &str) -> bool {
        if aud.len() > MAX_AUD_LEN {
            return false;
        }
        let Some((scheme, rest)) = aud.split_once("://") else {
            return false;
        };
        let default_port = match scheme.to_ascii_lowercase().as_str() {
            "ws" => 80,
            "wss" => 443,
            _ => return false,
        };
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        let (authority, path) = match rest.find('/') {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        let Some((host, port)) = split_authority(authority) else {
            return false;
        };
        host == self.host
            && port.unwrap_or(default_port) == self.port.unwrap_or(default_port)
            && path == self.path
    }
}

impl fmt::Display for Audience {
    /// The URL a client would use: `ws://host[:port]/path`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(p) => write!(f, "ws://{}:{p}{}", self.host, self.path),
            None => write!(f, "ws://{}{}", self.host, self.path),
        }
    }
}

/// What [`verify_jwt`] checks besides the signature.
#[derive(Debug, Clone)]
pub struct Policy<'a> {
    /// Unix time, seconds.
    pub now: i64,
    /// How far in the future `iat` may lie (clock skew), seconds.
    pub max_iat_skew: i64,
    /// Longest `exp - iat`, seconds.
    pub max_lifetime: i64,
    /// The relay URL `aud` must name; `None` skips the audience check.
    pub audience: Option<&'a Audience>,
}

impl Policy<'_> {
    /// The time checks only (no audience), with the default lifetime bound.
    pub fn at(now: i64, max_iat_skew: i64) -> Policy<'static> {
        Policy {
            now,
            max_iat_skew,
            max_lifetime: DEFAULT_MAX_LIFETIME_S,
            audience: None,
        }
    }
}

fn bounded<'a>(part: &'a str, what: &'static str, max: usize) -> Result<&'a str, AuthError> {
    if part.len() > max {
        Err(AuthError::TooLong(what, max))
    } else {
        Ok(part)
    }
}

fn b64(part: &str) -> Result<Vec<u8>, AuthError> {
    URL_SAFE_NO_PAD_INDIFFERENT
        .decode(part)
        .map_err(|_| AuthError::Malformed)
}

fn json_object(bytes: &[u8]) -> Result<serde_json::Map<String, Value>, AuthError> {
    match serde_json::from_slice(bytes) {
        Ok(Value::Object(m)) => Ok(m),
        _ => Err(AuthError::Malformed),
    }
}

/// The Ed25519 public key of a `did:key:z…` client id. The length is bounded before decoding.
pub fn decode_did_key(did: &str) -> Result<[u8; 32], AuthError> {
    if did.len() > MAX_DID_KEY_LEN {
        return Err(AuthError::BadIssuer);
    }
    let body = did
        .strip_prefix(DID_KEY_PREFIX)
        .ok_or(AuthError::BadIssuer)?;
    let raw = bs58::decode(body)
        .into_vec()
        .map_err(|_| AuthError::BadIssuer)?;
    if raw.len() != 34 || raw[..2] != ED25519_MULTICODEC {
        return Err(AuthError::BadIssuer);
    }
    let mut key = [0u8; 32];
    key.copy_from_slice(&raw[2..]);
    Ok(key)
}

/// The `did:key:z…` client id of an Ed25519 public key.
pub fn encode_did_key(public_key: &[u8; 32]) -> String {
    let mut raw = Vec::with_capacity(34);
    raw.extend_from_slice(&ED25519_MULTICODEC);
    raw.extend_from_slice(public_key);
    format!("{DID_KEY_PREFIX}{}", bs58::encode(raw).into_string())
}

/// A JSON integer claim (no floats: `1e300` or `1.5` are refused, as a relay deserialising into
/// `i64` refuses them).
fn int_claim(m: &serde_json::Map<String, Value>, name: &'static str) -> Result<i64, AuthError> {
    match m.get(name) {
        None | Some(Value::Null) => Err(AuthError::MissingClaim(name)),
        Some(v) => v.as_i64().ok_or(AuthError::NotInteger(name)),
    }
}

/// Verifies a relay auth token. Lengths are checked first, then the header, the issuer and the
/// Ed25519 signature, then the claims: `iat` / `exp` integers, `iat <= exp <= iat + max_lifetime`,
/// `exp` in the future, `iat` at most `max_iat_skew` ahead, and `aud` when the policy names one.
pub fn verify_jwt(token: &str, policy: &Policy<'_>) -> Result<Claims, AuthError> {
    let token = bounded(token, "token", MAX_TOKEN_LEN)?.trim();
    if token.is_empty() {
        return Err(AuthError::Missing);
    }
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AuthError::Malformed);
    };
    bounded(h, "header", MAX_HEADER_SEGMENT_LEN)?;
    bounded(p, "payload", MAX_PAYLOAD_SEGMENT_LEN)?;
    bounded(s, "signature", MAX_SIGNATURE_SEGMENT_LEN)?;
    let header = json_object(&b64(h)?)?;
    if header.get("alg").and_then(Value::as_str) != Some("EdDSA") {
        return Err(AuthError::BadHeader);
    }
    if header.get("typ").is_some_and(|t| t.as_str() != Some("JWT")) {
        return Err(AuthError::BadHeader);
    }
    let payload = json_object(&b64(p)?)?;
    let iss = match payload.get("iss") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => return Err(AuthError::MissingClaim("iss")),
        Some(_) => return Err(AuthError::BadIssuer),
    };
    let key = VerifyingKey::from_bytes(&decode_did_key(&iss)?).map_err(|_| AuthError::BadIssuer)?;
    let sig: [u8; 64] = b64(s)?.try_into().map_err(|_| AuthError::BadSignature)?;
    let signed = &token.as_bytes()[..h.len() + 1 + p.len()];
    key.verify_strict(signed, &Signature::from_bytes(&sig))
        .map_err(|_| AuthError::BadSignature)?;

    let exp = int_claim(&payload, "exp")?;
    let iat = int_claim(&payload, "iat")?;
    if exp < iat {
        return Err(AuthError::ExpBeforeIat);
    }
    if exp.saturating_sub(iat) > policy.max_lifetime {
        return Err(AuthError::LifetimeTooLong(policy.max_lifetime));
    }
    if exp <= policy.now {
        return Err(AuthError::Expired);
    }
    if iat > policy.now.saturating_add(policy.max_iat_skew) {
        return Err(AuthError::IssuedInFuture);
    }
    let text = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_string);
    let aud = text("aud");
    if let Some(expected) = policy.audience {
        match payload.get("aud") {
            None | Some(Value::Null) => return Err(AuthError::MissingClaim("aud")),
            Some(Value::String(a)) if expected.matches(a) => {}
            Some(_) => return Err(AuthError::WrongAudience(expected.to_string())),
        }
    }
    Ok(Claims {
        iss,
        sub: text("sub"),
        aud,
        iat,
        exp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ed25519_dalek::{Signer, SigningKey};

    fn token(key: &SigningKey, header: &str, payload: &Value) -> String {
        let h = URL_SAFE_NO_PAD.encode(header);
        let p = URL_SAFE_NO_PAD.encode(payload.to_string());
        let sig = key.sign(format!("{h}.{p}").as_bytes());
        format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
    }

    fn claims(key: &SigningKey, iat: i64, exp: i64) -> Value {
        serde_json::json!({
            "iss": encode_did_key(&key.verifying_key().to_bytes()),
            "sub": "c0ffee", "aud": "ws://127.0.0.1/relay", "iat": iat, "exp": exp,
        })
    }

    const HEADER: &str = r#"{"alg":"EdDSA","typ":"JWT"}"#;

    #[test]
    fn did_key_round_trips() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let pk = key.verifying_key().to_bytes();
        let did = encode_did_key(&pk);
        assert!(did.starts_with("did:key:z6Mk"), "{did}");
        assert_eq!(decode_did_key(&did).unwrap(), pk);
        assert_eq!(decode_did_key("did:key:zabc"), Err(AuthError::BadIssuer));
        assert_eq!(
            decode_did_key("did:web:example.com"),
            Err(AuthError::BadIssuer)
        );
    }

    #[test]
    fn valid_token_verifies() {
        let key = SigningKey::from_bytes(&[1; 32]);
        let t = token(&key, HEADER, &claims(&key, 1000, 2000));
        let c = verify_jwt(&t, &Policy::at(1500, 60)).unwrap();
        assert_eq!(c.iss, encode_did_key(&key.verifying_key().to_bytes()));
        assert_eq!((c.iat, c.exp), (1000, 2000));
        assert_eq!(c.sub.as_deref(), Some("c0ffee"));
    }

    #[test]
    fn refusals_have_clear_reasons() {
        let key = SigningKey::from_bytes(&[2; 32]);
        let other = SigningKey::from_bytes(&[3; 32]);
        let good = claims(&key, 1000, 2000);
        assert_eq!(
            verify_jwt("", &Policy::at(1500, 60)),
            Err(AuthError::Missing)
        );
        assert_eq!(
            verify_jwt("a.b", &Policy::at(1500, 60)),
            Err(AuthError::Malformed)
        );
        assert_eq!(
            verify_jwt("a.b.c.d", &Policy::at(1500, 60)),
            Err(AuthError::Malformed)
        );
        // Signed by a different key than `iss` names.
        let forged = token(&other, HEADER, &good);
        assert_eq!(
            verify_jwt(&forged, &Policy::at(1500, 60)),
            Err(AuthError::BadSignature)
        );
        assert_eq!(
            verify_jwt(
                &token(&key, r#"{"alg":"HS256","typ":"JWT"}"#, &good),
                &Policy::at(1500, 60)
            ),
            Err(AuthError::BadHeader)
        );
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &good), &Policy::at(2000, 60)),
            Err(AuthError::Expired)
        );
        assert_eq!(
            verify_jwt(
                &token(&key, HEADER, &claims(&key, 1700, 2000)),
                &Policy::at(1500, 60)
            ),
            Err(AuthError::IssuedInFuture)
        );
        let mut no_exp = good.clone();
        no_exp.as_object_mut().unwrap().remove("exp");
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &no_exp), &Policy::at(1500, 60)),
            Err(AuthError::MissingClaim("exp"))
        );
        assert_eq!(AuthError::Expired.to_string(), "invalid auth: expired");
        assert_eq!(
            AuthError::BadSignature.to_string(),
            "invalid auth: bad signature"
        );
    }

    #[test]
    fn tampered_payload_fails_signature() {
        let key = SigningKey::from_bytes(&[4; 32]);
        let t = token(&key, HEADER, &claims(&key, 1000, 2000));
        let mut parts: Vec<String> = t.split('.').map(str::to_string).collect();
        parts[1] = URL_SAFE_NO_PAD.encode(claims(&key, 1000, 9999).to_string());
        assert_eq!(
            verify_jwt(&parts.join("."), &Policy::at(1500, 60)),
            Err(AuthError::BadSignature)
        );
    }

    #[test]
    fn long_issuers_are_refused_without_being_decoded() {
        // 128,000 base58 characters took ~5.6 s to decode before the length bound.
        let did = format!("{DID_KEY_PREFIX}{}", "z".repeat(128_000));
        let started = std::time::Instant::now();
        assert_eq!(decode_did_key(&did), Err(AuthError::BadIssuer));
        assert!(started.elapsed() < std::time::Duration::from_millis(100));
        // A real Ed25519 did:key is 47 base58 characters after the prefix, within the bound.
        let real = encode_did_key(&SigningKey::from_bytes(&[9; 32]).verifying_key().to_bytes());
        assert_eq!(real.len(), DID_KEY_PREFIX.len() + 47);
        assert!(real.len() <= MAX_DID_KEY_LEN);
    }

    #[test]
    fn every_segment_is_bounded_before_decoding() {
        let key = SigningKey::from_bytes(&[5; 32]);
        let good = token(&key, HEADER, &claims(&key, 1000, 2000));
        let policy = Policy::at(1500, 60);
        assert!(good.len() < 600, "{}", good.len());
        let long = "A".repeat(MAX_TOKEN_LEN + 1);
        assert_eq!(
            verify_jwt(&long, &policy),
            Err(AuthError::TooLong("token", MAX_TOKEN_LEN))
        );
        let parts: Vec<&str> = good.split('.').collect();
        let h = "A".repeat(MAX_HEADER_SEGMENT_LEN + 1);
        assert_eq!(
            verify_jwt(&format!("{h}.{}.{}", parts[1], parts[2]), &policy),
            Err(AuthError::TooLong("header", MAX_HEADER_SEGMENT_LEN))
        );
        let p = "A".repeat(MAX_PAYLOAD_SEGMENT_LEN + 1);
        assert_eq!(
            verify_jwt(&format!("{}.{p}.{}", parts[0], parts[2]), &policy),
            Err(AuthError::TooLong("payload", MAX_PAYLOAD_SEGMENT_LEN))
        );
        let sig = "A".repeat(MAX_SIGNATURE_SEGMENT_LEN + 1);
        assert_eq!(
            verify_jwt(&format!("{}.{}.{sig}", parts[0], parts[1]), &policy),
            Err(AuthError::TooLong("signature", MAX_SIGNATURE_SEGMENT_LEN))
        );
        // A long issuer inside a token that fits: refused as a bad issuer.
        let mut c = claims(&key, 1000, 2000);
        c["iss"] = Value::String(format!("{DID_KEY_PREFIX}{}", "z".repeat(2000)));
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &c), &policy),
            Err(AuthError::BadIssuer)
        );
        assert_eq!(
            AuthError::TooLong("token", 4096).to_string(),
            "invalid auth: token too long (max 4096 characters)"
        );
    }

    #[test]
    fn exp_and_iat_must_be_integers_within_a_day() {
        let key = SigningKey::from_bytes(&[6; 32]);
        let policy = Policy::at(1500, 60);
        let with = |name: &str, v: Value| {
            let mut c = claims(&key, 1000, 2000);
            c[name] = v;
            verify_jwt(&token(&key, HEADER, &c), &policy)
        };
        let float = serde_json::Number::from_f64(1e300).unwrap();
        assert_eq!(
            with("exp", Value::Number(float)),
            Err(AuthError::NotInteger("exp"))
        );
        assert_eq!(
            with("exp", serde_json::json!(2000.5)),
            Err(AuthError::NotInteger("exp"))
        );
        assert_eq!(
            with("exp", serde_json::json!("2000")),
            Err(AuthError::NotInteger("exp"))
        );
        assert_eq!(
            with("exp", serde_json::json!(u64::MAX)),
            Err(AuthError::NotInteger("exp"))
        );
        assert_eq!(
            with("iat", serde_json::json!(1000.0)),
            Err(AuthError::NotInteger("iat"))
        );
        assert_eq!(
            with("exp", serde_json::json!(i64::MAX)),
            Err(AuthError::LifetimeTooLong(DEFAULT_MAX_LIFETIME_S))
        );
        assert_eq!(
            with("iat", serde_json::json!(i64::MIN)),
            Err(AuthError::LifetimeTooLong(DEFAULT_MAX_LIFETIME_S))
        );
        assert_eq!(
            with("exp", serde_json::json!(1000 + DEFAULT_MAX_LIFETIME_S + 1)),
            Err(AuthError::LifetimeTooLong(DEFAULT_MAX_LIFETIME_S))
        );
        assert_eq!(
            with("exp", serde_json::json!(999)),
            Err(AuthError::ExpBeforeIat)
        );
        // Exactly one day is what the official clients issue.
        let day = with("exp", serde_json::json!(1000 + DEFAULT_MAX_LIFETIME_S)).unwrap();
        assert_eq!(day.exp - day.iat, 86_400);
    }

    #[test]
    fn audience_is_the_relay_url_the_client_connected_to() {
        let a = Audience::new("127.0.0.1:4173", "/relay").unwrap();
        assert_eq!(a.to_string(), "ws://127.0.0.1:4173/relay");
        for ok in [
            "ws://127.0.0.1:4173/relay",
            "wss://127.0.0.1:4173/relay",
            "WSS://127.0.0.1:4173/relay",
            "ws://127.0.0.1:4173/relay?projectId=x",
            "ws://127.0.0.1:4173/relay#f",
        ] {
            assert!(a.matches(ok), "{ok}");
        }
        for bad in [
            "wss://relay.walletconnect.org",
            "ws://127.0.0.1/relay",
            "ws://127.0.0.1:4174/relay",
            "ws://localhost:4173/relay",
            "ws://127.0.0.1:4173/relay/",
            "ws://127.0.0.1:4173",
            "ws://127.0.0.1:4173/Relay",
            "http://127.0.0.1:4173/relay",
            "ws://u@127.0.0.1:4173/relay",
            "ws://127.0.0.1:04173x/relay",
            "127.0.0.1:4173/relay",
            "",
        ] {
            assert!(!a.matches(bad), "{bad}");
        }
        assert!(!a.matches(&format!(
            "ws://127.0.0.1:4173/relay?{}",
            "x".repeat(MAX_AUD_LEN)
        )));
        // Default ports: Host without a port matches the scheme's default port.
        let d = Audience::new("Relay.Example", "/relay").unwrap();
        assert!(d.matches("ws://relay.example/relay"));
        assert!(d.matches("ws://relay.example:80/relay"));
        assert!(d.matches("wss://relay.example/relay"));
        assert!(!d.matches("ws://relay.example:8080/relay"));
        let v6 = Audience::new("[::1]:9000", "/relay").unwrap();
        assert!(v6.matches("ws://[::1]:9000/relay"));
        assert!(!v6.matches("ws://[::2]:9000/relay"));
        assert!(Audience::new("a:b:c", "/relay").is_none());
        assert!(Audience::new("", "/relay").is_none());
        assert!(Audience::new("h:99999", "/relay").is_none());

        let key = SigningKey::from_bytes(&[8; 32]);
        let policy = Policy {
            audience: Some(&a),
            ..Policy::at(1500, 60)
        };
        let mut c = claims(&key, 1000, 2000);
        c["aud"] = Value::String("ws://127.0.0.1:4173/relay".into());
        assert!(verify_jwt(&token(&key, HEADER, &c), &policy).is_ok());
        c["aud"] = Value::String("wss://relay.walletconnect.org".into());
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &c), &policy),
            Err(AuthError::WrongAudience("ws://127.0.0.1:4173/relay".into()))
        );
        c.as_object_mut().unwrap().remove("aud");
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &c), &policy),
            Err(AuthError::MissingClaim("aud"))
        );
    }
}
