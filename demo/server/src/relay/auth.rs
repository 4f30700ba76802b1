//! Relay client authentication: the EdDSA JWT that WalletConnect clients pass as `?auth=` (or as an
//! `Authorization: Bearer` header).
//!
//! The token is `base64url(header).base64url(payload).base64url(signature)` without padding. The header
//! must say `alg: EdDSA` (and `typ: JWT` when present); the payload's `iss` is the client id, a
//! `did:key:z…` whose base58btc body is the multicodec prefix `0xED 0x01` followed by the 32-byte
//! Ed25519 public key; the signature is Ed25519 over the ASCII bytes `header.payload`.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD_INDIFFERENT;
use base64::Engine;
use ed25519_dalek::{Signature, VerifyingKey};
use serde_json::Value;

/// Prefix of an Ed25519 `did:key` (multibase `z` = base58btc).
pub const DID_KEY_PREFIX: &str = "did:key:z";
/// Multicodec prefix of an Ed25519 public key.
pub const ED25519_MULTICODEC: [u8; 2] = [0xed, 0x01];

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
    BadHeader,
    BadIssuer,
    BadSignature,
    MissingClaim(&'static str),
    Expired,
    IssuedInFuture,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::Missing => f.write_str("missing auth"),
            AuthError::Malformed => f.write_str("invalid auth: malformed token"),
            AuthError::BadHeader => {
                f.write_str("invalid auth: unsupported header (expected EdDSA JWT)")
            }
            AuthError::BadIssuer => {
                f.write_str("invalid auth: bad issuer (expected did:key of an ed25519 key)")
            }
            AuthError::BadSignature => f.write_str("invalid auth: bad signature"),
            AuthError::MissingClaim(c) => write!(f, "invalid auth: missing claim {c}"),
            AuthError::Expired => f.write_str("invalid auth: expired"),
            AuthError::IssuedInFuture => f.write_str("invalid auth: issued in the future"),
        }
    }
}

impl std::error::Error for AuthError {}

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

/// The Ed25519 public key of a `did:key:z…` client id.
pub fn decode_did_key(did: &str) -> Result<[u8; 32], AuthError> {
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

fn int_claim(m: &serde_json::Map<String, Value>, name: &'static str) -> Result<i64, AuthError> {
    match m.get(name) {
        None | Some(Value::Null) => Err(AuthError::MissingClaim(name)),
        Some(v) => v
            .as_i64()
            .or_else(|| v.as_f64().filter(|f| f.is_finite()).map(|f| f as i64))
            .ok_or(AuthError::Malformed),
    }
}

/// Verifies a relay auth token at unix time `now` (seconds). `max_iat_skew` is how far in the future
/// `iat` may lie (clock skew). The signature is checked before the time claims.
pub fn verify_jwt(token: &str, now: i64, max_iat_skew: i64) -> Result<Claims, AuthError> {
    let token = token.trim();
    if token.is_empty() {
        return Err(AuthError::Missing);
    }
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AuthError::Malformed);
    };
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
    if exp <= now {
        return Err(AuthError::Expired);
    }
    if iat > now.saturating_add(max_iat_skew) {
        return Err(AuthError::IssuedInFuture);
    }
    let text = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(Claims {
        iss,
        sub: text("sub"),
        aud: text("aud"),
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
        let c = verify_jwt(&t, 1500, 60).unwrap();
        assert_eq!(c.iss, encode_did_key(&key.verifying_key().to_bytes()));
        assert_eq!((c.iat, c.exp), (1000, 2000));
        assert_eq!(c.sub.as_deref(), Some("c0ffee"));
    }

    #[test]
    fn refusals_have_clear_reasons() {
        let key = SigningKey::from_bytes(&[2; 32]);
        let other = SigningKey::from_bytes(&[3; 32]);
        let good = claims(&key, 1000, 2000);
        assert_eq!(verify_jwt("", 1500, 60), Err(AuthError::Missing));
        assert_eq!(verify_jwt("a.b", 1500, 60), Err(AuthError::Malformed));
        assert_eq!(verify_jwt("a.b.c.d", 1500, 60), Err(AuthError::Malformed));
        // Signed by a different key than `iss` names.
        let forged = token(&other, HEADER, &good);
        assert_eq!(verify_jwt(&forged, 1500, 60), Err(AuthError::BadSignature));
        assert_eq!(
            verify_jwt(
                &token(&key, r#"{"alg":"HS256","typ":"JWT"}"#, &good),
                1500,
                60
            ),
            Err(AuthError::BadHeader)
        );
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &good), 2000, 60),
            Err(AuthError::Expired)
        );
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &claims(&key, 1700, 2000)), 1500, 60),
            Err(AuthError::IssuedInFuture)
        );
        let mut no_exp = good.clone();
        no_exp.as_object_mut().unwrap().remove("exp");
        assert_eq!(
            verify_jwt(&token(&key, HEADER, &no_exp), 1500, 60),
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
            verify_jwt(&parts.join("."), 1500, 60),
            Err(AuthError::BadSignature)
        );
    }
}
