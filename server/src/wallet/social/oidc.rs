//! The relying-party side of OpenID Connect: discovery, the authorization URL (code flow, PKCE
//! S256), the code exchange at the token endpoint (`client_secret_basic`) and the `id_token`'s
//! checks: its EdDSA (Ed25519) signature against the provider's JWKS, then `iss`, `aud` (`azp`),
//! `exp`, `iat`, `nonce`. The claims (`sub`, `email`, `name`) are read from the verified `id_token`;
//! the userinfo endpoint is not called.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use ed25519_dalek::{Signature, VerifyingKey};
use serde_json::Value;

use super::http::{self, encode};

/// Longest `id_token` accepted.
const MAX_ID_TOKEN: usize = 16 * 1024;
/// Longest `sub` (OpenID Connect Core §2: at most 255 ASCII characters).
pub const MAX_SUB: usize = 255;
/// Clock skew allowed on `exp` and `iat`.
const SKEW_SECS: u64 = 60;

/// What went wrong, in words for the callback page (and the log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OidcError {
    /// The provider could not be reached or answered nonsense.
    Unreachable(String),
    /// The token endpoint refused the code (`error` of its answer).
    Refused(String),
    /// The `id_token` failed a check.
    BadIdToken(String),
}

impl std::fmt::Display for OidcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OidcError::Unreachable(m) => {
                write!(f, "the sign-in provider could not be reached ({m})")
            }
            OidcError::Refused(m) => write!(f, "the sign-in provider refused the sign-in ({m})"),
            OidcError::BadIdToken(m) => {
                write!(f, "the sign-in provider's answer failed a check ({m})")
            }
        }
    }
}

/// The endpoints of the provider's discovery document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovery {
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

async fn get_json(url: &str, timeout: Duration) -> Result<Value, OidcError> {
    let (status, body) = http::get(url, timeout)
        .await
        .map_err(OidcError::Unreachable)?;
    if status != 200 {
        return Err(OidcError::Unreachable(format!("{url} answered {status}")));
    }
    serde_json::from_slice(&body)
        .map_err(|_| OidcError::Unreachable(format!("{url} did not answer JSON")))
}

/// `{issuer}/.well-known/openid-configuration`, whose `issuer` must be `issuer` itself.
pub async fn discover(issuer: &str, timeout: Duration) -> Result<Discovery, OidcError> {
    let doc = get_json(
        &format!("{}/.well-known/openid-configuration", issuer.trim_end_matches('/')),
        timeout,
    )
    .await?;
    if doc["issuer"] != issuer {
        return Err(OidcError::Unreachable(format!(
            "the discovery document names another issuer: {}",
            doc["issuer"]
        )));
    }
    let url = |k: &str| {
        doc[k]
            .as_str()
            // An https issuer's endpoints are https too; an http (loopback) issuer's are https or
            // on loopback: the client secret never crosses a network in the clear.
            .filter(|u| u.starts_with("https://") || (!issuer.starts_with("https://") && crate::chain::rpc::parse_loopback_url(u).is_ok()))
            .filter(|u| u.len() <= 2048)
            .map(str::to_string)
            .ok_or_else(|| OidcError::Unreachable(format!("the discovery document has no {k}")))
    };
    Ok(Discovery {
        authorization_endpoint: url("authorization_endpoint")?,
        token_endpoint: url("token_endpoint")?,
        jwks_uri: url("jwks_uri")?,
    })
}

/// What the authorization request carries.
pub struct AuthRequest<'a> {
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub state: &'a str,
    pub nonce: &'a str,
    pub code_verifier: &'a str,
}

/// `base64url(sha256(verifier))`.
pub fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(crate::wallet::sha256(&[verifier.as_bytes()]))
}

/// The authorization URL: code flow, `scope=openid email profile`, PKCE S256.
pub fn authorization_url(endpoint: &str, r: &AuthRequest) -> String {
    let sep = if endpoint.contains('?') { '&' } else { '?' };
    format!(
        "{endpoint}{sep}response_type=code&client_id={}&redirect_uri={}&scope=openid%20email%20profile\
         &state={}&nonce={}&code_challenge={}&code_challenge_method=S256",
        encode(r.client_id),
        encode(r.redirect_uri),
        encode(r.state),
        encode(r.nonce),
        code_challenge(r.code_verifier),
    )
}

/// The claims of a verified `id_token` that the wallet service uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    pub sub: String,
    /// Absent when the provider said `email_verified: false`.
    pub email: Option<String>,
    pub name: Option<String>,
}

/// Everything the code exchange needs.
pub struct Exchange<'a> {
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub client_secret: &'a str,
    pub redirect_uri: &'a str,
    pub code: &'a str,
    pub code_verifier: &'a str,
    pub nonce: &'a str,
}

/// Trades the code for tokens and answers the `id_token`'s checked claims.
pub async fn exchange(
    d: &Discovery,
    x: &Exchange<'_>,
    timeout: Duration,
) -> Result<Claims, OidcError> {
    let form = format!(
        "grant_type=authorization_code&code={}&redirect_uri={}&code_verifier={}",
        encode(x.code),
        encode(x.redirect_uri),
        encode(x.code_verifier),
    );
    // RFC 6749 §2.3.1: both parts form-encoded before base64.
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!(
            "{}:{}",
            encode(x.client_id),
            encode(x.client_secret)
        ))
    );
    let (status, body) = http::post_form(&d.token_endpoint, Some(&basic), &form, timeout)
        .await
        .map_err(OidcError::Unreachable)?;
    let answer: Value = serde_json::from_slice(&body).map_err(|_| {
        OidcError::Unreachable(format!("the token endpoint answered {status} without JSON"))
    })?;
    if status != 200 {
        let error = answer["error"].as_str().unwrap_or("no error code");
        return Err(OidcError::Refused(truncate(error, 100)));
    }
    let id_token = answer["id_token"]
        .as_str()
        .ok_or_else(|| OidcError::BadIdToken("no id_token".into()))?;
    let jwks = get_json(&d.jwks_uri, timeout).await?;
    verify_id_token(id_token, &jwks, x.issuer, x.client_id, x.nonce, now_secs())
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

fn bad(m: impl Into<String>) -> OidcError {
    OidcError::BadIdToken(m.into())
}

fn decode_part(part: &str) -> Result<Vec<u8>, OidcError> {
    URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| bad("not base64url"))
}

/// Checks a compact JWS `id_token` (EdDSA over Ed25519, or RS256: RSASSA-PKCS1-v1_5 with SHA-256
/// and a 2,048–4,096-bit key) and its claims at time `now`.
pub fn verify_id_token(
    token: &str,
    jwks: &Value,
    issuer: &str,
    client_id: &str,
    nonce: &str,
    now: u64,
) -> Result<Claims, OidcError> {
    if token.len() > MAX_ID_TOKEN {
        return Err(bad("too long"));
    }
    let parts: Vec<&str> = token.split('.').collect();
    let [header_b64, payload_b64, signature_b64] = parts[..] else {
        return Err(bad("not a signed JWT"));
    };
    let header: Value =
        serde_json::from_slice(&decode_part(header_b64)?).map_err(|_| bad("bad header"))?;
    let signed = &token[..header_b64.len() + 1 + payload_b64.len()];
    match header["alg"].as_str() {
        Some("EdDSA") => {
            let key = signing_key(jwks, header["kid"].as_str())?;
            let signature = Signature::from_slice(&decode_part(signature_b64)?)
                .map_err(|_| bad("bad signature length"))?;
            key.verify_strict(signed.as_bytes(), &signature)
                .map_err(|_| bad("bad signature"))?;
        }
        Some("RS256") => {
            let key = rsa_key(jwks, header["kid"].as_str())?;
            verify_rs256(&key, signed.as_bytes(), &decode_part(signature_b64)?)?;
        }
        _ => return Err(bad(format!("unsupported alg {}", header["alg"]))),
    }

    let c: Value =
        serde_json::from_slice(&decode_part(payload_b64)?).map_err(|_| bad("bad payload"))?;
    if c["iss"] != issuer {
        return Err(bad("iss is not the provider"));
    }
    let aud_ok = match &c["aud"] {
        Value::String(a) => a == client_id,
        Value::Array(a) => {
            a.iter().any(|v| v == client_id) && (a.len() == 1 || c["azp"] == client_id)
        }
        _ => false,
    };
    if !aud_ok {
        return Err(bad("aud is not this client"));
    }
    if c.get("azp").is_some_and(|azp| azp != client_id) {
        return Err(bad("azp is not this client"));
    }
    let exp = c["exp"].as_u64().ok_or_else(|| bad("no exp"))?;
    if exp + SKEW_SECS <= now {
        return Err(bad("expired"));
    }
    let iat = c["iat"].as_u64().ok_or_else(|| bad("no iat"))?;
    if iat > now + SKEW_SECS {
        return Err(bad("issued in the future"));
    }
    match c["nonce"].as_str() {
        Some(n) if crate::wallet::same_bytes(n.as_bytes(), nonce.as_bytes()) => {}
        _ => return Err(bad("nonce does not match")),
    }
    let sub = c["sub"]
        .as_str()
        .filter(|s| !s.is_empty() && s.len() <= MAX_SUB && !s.chars().any(char::is_control))
        .ok_or_else(|| bad("bad sub"))?;
    let email = c["email"]
        .as_str()
        .filter(|_| c["email_verified"] != false)
        .map(str::to_string);
    let name = c["name"].as_str().map(str::to_string);
    Ok(Claims {
        sub: sub.to_string(),
        email,
        name,
    })
}

/// The JWKS's signing key (`use` absent or `sig`) of the `kind` asked for, named `kid`, or the
/// only one of that kind when the header names none.
fn jwks_key<'a>(jwks: &'a Value, kid: Option<&str>, kind: impl Fn(&Value) -> bool) -> Result<&'a Value, OidcError> {
    let keys = jwks["keys"].as_array().ok_or_else(|| bad("no JWKS keys"))?;
    let mut signing = keys.iter().filter(|k| kind(k) && k.get("use").is_none_or(|u| u == "sig"));
    match kid {
        Some(kid) => signing.find(|k| k["kid"] == kid),
        None => signing.next().filter(|_| signing.next().is_none()),
    }
    .ok_or_else(|| bad("no matching key in the JWKS"))
}

/// The Ed25519 key of `kid` in the JWKS (or its only Ed25519 key when the header names none).
fn signing_key(jwks: &Value, kid: Option<&str>) -> Result<VerifyingKey, OidcError> {
    let key = jwks_key(jwks, kid, |k| k["kty"] == "OKP" && k["crv"] == "Ed25519")?;
    let x = key["x"].as_str().ok_or_else(|| bad("JWKS key without x"))?;
    let bytes: [u8; 32] = decode_part(x)?
        .try_into()
        .map_err(|_| bad("JWKS key of the wrong length"))?;
    VerifyingKey::from_bytes(&bytes).map_err(|_| bad("bad JWKS key"))
}

/// The JWKS's RSA signing key `kid` (or its only one), bounded: 2,048 to 4,096 bits.
fn rsa_key(jwks: &Value, kid: Option<&str>) -> Result<rsa::RsaPublicKey, OidcError> {
    let key = jwks_key(jwks, kid, |k| k["kty"] == "RSA" && k.get("alg").is_none_or(|a| a == "RS256"))?;
    let part = |name: &str| {
        key[name]
            .as_str()
            .ok_or_else(|| bad(format!("JWKS key without {name}")))
            .and_then(|v| if v.len() <= 1400 { Ok(v) } else { Err(bad("JWKS RSA key of an unsupported size")) })
            .and_then(decode_part)
    };
    let (n, e) = (part("n")?, part("e")?);
    let bits = n.iter().position(|b| *b != 0).map_or(0, |i| (n.len() - i) * 8);
    if !(2048..=4096).contains(&bits) || e.is_empty() || e.len() > 8 {
        return Err(bad("JWKS RSA key of an unsupported size"));
    }
    rsa::RsaPublicKey::new(rsa::BigUint::from_bytes_be(&n), rsa::BigUint::from_bytes_be(&e)).map_err(|_| bad("bad JWKS key"))
}

/// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2; JWS "RS256", RFC 7518 §3.3).
fn verify_rs256(key: &rsa::RsaPublicKey, signed: &[u8], signature: &[u8]) -> Result<(), OidcError> {
    use sha2::Digest;
    // DER of DigestInfo's algorithm for SHA-256, before the 32-byte hash (RFC 8017 §9.2, note 1).
    const SHA256_PREFIX: [u8; 19] = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20];
    let hashed = sha2::Sha256::digest(signed);
    let scheme = rsa::Pkcs1v15Sign { hash_len: Some(32), prefix: SHA256_PREFIX.to_vec().into_boxed_slice() };
    key.verify(scheme, &hashed, signature).map_err(|_| bad("bad signature"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};
    use serde_json::json;

    const ISS: &str = "http://127.0.0.1:9999";

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[7u8; 32])
    }

    fn jwks(k: &SigningKey, kid: &str) -> Value {
        json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "use": "sig", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(k.verifying_key().to_bytes())}]})
    }

    fn jwt(k: &SigningKey, header: Value, claims: Value) -> String {
        let h = URL_SAFE_NO_PAD.encode(header.to_string());
        let p = URL_SAFE_NO_PAD.encode(claims.to_string());
        let s = k.sign(format!("{h}.{p}").as_bytes());
        format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(s.to_bytes()))
    }

    fn claims() -> Value {
        json!({"iss": ISS, "aud": "google", "sub": "alice", "nonce": "n1", "exp": 2000, "iat": 1000,
               "email": "alice@example.com", "email_verified": true, "name": "Alice"})
    }

    #[test]
    fn an_rs256_token_needs_an_rsa_key_of_2048_to_4096_bits_and_its_own_signature() {
        let h = URL_SAFE_NO_PAD.encode(json!({"alg": "RS256", "kid": "r1"}).to_string());
        let p = URL_SAFE_NO_PAD.encode(claims().to_string());
        let token = format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode([1u8; 256]));
        let check = |jwks: Value| verify_id_token(&token, &jwks, ISS, "google", "n1", 1500).unwrap_err().to_string();
        // Only an Ed25519 key: none to check an RS256 signature with.
        let ed = json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "r1", "x": URL_SAFE_NO_PAD.encode(key().verifying_key().to_bytes())}]});
        assert!(check(ed).contains("no matching key"));
        let rsa = |bytes: usize| json!({"keys": [{"kty": "RSA", "kid": "r1", "n": URL_SAFE_NO_PAD.encode(vec![0xc5u8; bytes]), "e": "AQAB"}]});
        assert!(check(rsa(128)).contains("unsupported size"), "1,024 bits");
        assert!(check(rsa(1024)).contains("unsupported size"), "8,192 bits");
        assert!(check(rsa(256)).contains("bad signature"), "a 2,048-bit key, a signature it did not make");
        let wrong_alg = json!({"keys": [{"kty": "RSA", "kid": "r1", "alg": "RS512", "n": URL_SAFE_NO_PAD.encode(vec![0xc5u8; 256]), "e": "AQAB"}]});
        assert!(check(wrong_alg).contains("no matching key"));
    }

    fn check(token: &str) -> Result<Claims, OidcError> {
        verify_id_token(token, &jwks(&key(), "k1"), ISS, "google", "n1", 1500)
    }

    #[test]
    fn a_signed_id_token_with_the_right_claims_passes() {
        let t = jwt(&key(), json!({"alg": "EdDSA", "kid": "k1"}), claims());
        assert_eq!(
            check(&t),
            Ok(Claims {
                sub: "alice".into(),
                email: Some("alice@example.com".into()),
                name: Some("Alice".into())
            })
        );
    }

    #[test]
    fn every_claim_and_the_signature_are_checked() {
        let h = json!({"alg": "EdDSA", "kid": "k1"});
        let with = |k: &str, v: Value| {
            let mut c = claims();
            c[k] = v;
            jwt(&key(), h.clone(), c)
        };
        for (t, why) in [
            (with("iss", json!("http://127.0.0.1:1")), "iss"),
            (with("aud", json!("github")), "aud"),
            (with("aud", json!(["google", "github"])), "aud"),
            (with("nonce", json!("n2")), "nonce"),
            (with("exp", json!(1400)), "expired"),
            (with("iat", json!(1700)), "future"),
            (with("sub", json!("")), "sub"),
            (with("azp", json!("github")), "azp"),
            (jwt(&key(), json!({"alg": "none"}), claims()), "alg"),
            (
                jwt(&key(), json!({"alg": "EdDSA", "kid": "k2"}), claims()),
                "key",
            ),
            (
                jwt(&SigningKey::from_bytes(&[8u8; 32]), h.clone(), claims()),
                "signature",
            ),
        ] {
            assert!(
                matches!(check(&t), Err(OidcError::BadIdToken(_))),
                "{why}: {:?}",
                check(&t)
            );
        }
        // A payload changed after signing.
        let t = jwt(&key(), h.clone(), claims());
        let mut parts: Vec<String> = t.split('.').map(str::to_string).collect();
        let mut c = claims();
        c["sub"] = json!("mallory");
        parts[1] = URL_SAFE_NO_PAD.encode(c.to_string());
        assert!(check(&parts.join(".")).is_err());
        // An unverified email is dropped.
        let t = with("email_verified", json!(false));
        assert_eq!(check(&t).unwrap().email, None);
    }

    #[test]
    fn the_authorization_url_carries_pkce_state_and_nonce() {
        let u = authorization_url(
            "http://127.0.0.1:9999/auth",
            &AuthRequest {
                client_id: "x",
                redirect_uri: "http://127.0.0.1:5/w/v1/social/callback",
                state: "s",
                nonce: "n",
                code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
            },
        );
        assert_eq!(
            u,
            "http://127.0.0.1:9999/auth?response_type=code&client_id=x\
             &redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fw%2Fv1%2Fsocial%2Fcallback\
             &scope=openid%20email%20profile&state=s&nonce=n\
             &code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
        );
    }
}
