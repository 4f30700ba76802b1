//! Relay client authentication.
//!
//! The client identity is an Ed25519 key made from 32 seed bytes the caller draws once and
//! persists (as hex, [`ClientKey::seed_hex`]). Its id is the `did:key` of the public key:
//! `did:key:z` + base58btc(`0xED 0x01` ‖ public key).
//!
//! When opening the WebSocket the client presents an EdDSA JWT: header
//! `{"alg":"EdDSA","typ":"JWT"}`, payload `{iss, sub, aud, iat, exp}` (issuer = the did:key, subject
//! = a random hex string, audience = the relay URL), both base64url without padding, signed over
//! `header.payload`. Browsers cannot set headers on WebSockets, so the token travels in the query:
//! `?auth=…&projectId=…&ua=…` ([`relay_url`]). [`verify_jwt`] is the relay side of the check.

use base64::Engine as _;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::pairing::percent_encode;
use super::{hex_decode_array, hex_encode, Error, Result};

/// Multicodec prefix of an Ed25519 public key.
pub const ED25519_MULTICODEC: [u8; 2] = [0xed, 0x01];
/// `did:key` prefix of a base58btc multibase key.
pub const DID_KEY_PREFIX: &str = "did:key:z";
/// The JWT header, exactly as serialised.
pub const JWT_HEADER: &str = r#"{"alg":"EdDSA","typ":"JWT"}"#;
/// Default token lifetime: one day.
pub const DEFAULT_JWT_TTL_S: u64 = 86_400;
/// Tolerated clock skew for `iat` in the future when verifying.
pub const MAX_CLOCK_SKEW_S: u64 = 60;
/// Longest token [`verify_jwt`] looks at.
pub const MAX_JWT_LEN: usize = 4096;

/// The claims of a relay auth token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Issuer: the client's did:key.
    pub iss: String,
    /// Subject: random hex identifying this app session.
    pub sub: String,
    /// Audience: the relay URL.
    pub aud: String,
    /// Issued at, unix seconds.
    pub iat: u64,
    /// Expires at, unix seconds.
    pub exp: u64,
}

/// The relay client identity key.
#[derive(Clone)]
pub struct ClientKey {
    seed: [u8; 32],
    signing: SigningKey,
}

impl core::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientKey")
            .field("did", &self.did_key())
            .finish_non_exhaustive()
    }
}

impl ClientKey {
    /// The key of 32 random seed bytes.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        ClientKey {
            seed,
            signing: SigningKey::from_bytes(&seed),
        }
    }
    /// The key of a persisted seed (64 hex digits).
    pub fn from_seed_hex(seed_hex: &str) -> Result<Self> {
        Ok(Self::from_seed(hex_decode_array::<32>(seed_hex.trim())?))
    }
    /// The seed as hex, for persistence.
    pub fn seed_hex(&self) -> String {
        hex_encode(&self.seed)
    }
    /// The Ed25519 public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.signing.verifying_key().to_bytes()
    }
    /// The client id: `did:key:z…`.
    pub fn did_key(&self) -> String {
        did_key_encode(&self.public_key())
    }
    /// A signed token: `iss` = our did:key, `exp` = `iat_s + ttl_s`.
    pub fn sign_jwt(&self, sub: &str, aud: &str, iat_s: u64, ttl_s: u64) -> String {
        let claims = Claims {
            iss: self.did_key(),
            sub: sub.to_string(),
            aud: aud.to_string(),
            iat: iat_s,
            exp: iat_s.saturating_add(ttl_s),
        };
        self.sign_claims(&claims)
    }
    /// Signs arbitrary claims (the issuer is taken as given).
    pub fn sign_claims(&self, claims: &Claims) -> String {
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        // Serialising plain strings and integers cannot fail.
        let payload = serde_json::to_string(claims).unwrap_or_default();
        let data = format!("{}.{}", b64.encode(JWT_HEADER), b64.encode(payload));
        let sig = self.signing.sign(data.as_bytes());
        format!("{data}.{}", b64.encode(sig.to_bytes()))
    }
}

/// `did:key:z` + base58btc(0xED 0x01 ‖ public key).
pub fn did_key_encode(public_key: &[u8; 32]) -> String {
    let mut bytes = Vec::with_capacity(34);
    bytes.extend_from_slice(&ED25519_MULTICODEC);
    bytes.extend_from_slice(public_key);
    format!("{DID_KEY_PREFIX}{}", bs58::encode(bytes).into_string())
}

/// The Ed25519 public key of a `did:key`.
pub fn did_key_decode(did: &str) -> Result<[u8; 32]> {
    let z = did
        .strip_prefix(DID_KEY_PREFIX)
        .ok_or(Error::InvalidJwt("issuer is not a did:key"))?;
    if z.len() > 64 {
        return Err(Error::InvalidJwt("did:key too long"));
    }
    let bytes = bs58::decode(z)
        .into_vec()
        .map_err(|_| Error::InvalidJwt("did:key is not base58"))?;
    if bytes.len() != 34 || bytes[..2] != ED25519_MULTICODEC {
        return Err(Error::InvalidJwt("did:key is not an ed25519 key"));
    }
    let mut key = [0u8; 32];
    key.copy_from_slice(&bytes[2..]);
    Ok(key)
}

#[derive(Deserialize)]
struct Header {
    alg: String,
    typ: Option<String>,
}

/// Verifies a relay auth token: structure, header, Ed25519 signature by the issuer's did:key,
/// `exp > now_s`, `iat` not more than a minute ahead and not after `exp`, and the audience when
/// `expected_aud` is given.
pub fn verify_jwt(token: &str, now_s: u64, expected_aud: Option<&str>) -> Result<Claims> {
    if token.len() > MAX_JWT_LEN {
        return Err(Error::InvalidJwt("too long"));
    }
    let mut parts = token.split('.');
    let (h, p, s) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(h), Some(p), Some(s), None) => (h, p, s),
        _ => return Err(Error::InvalidJwt("expected three parts")),
    };
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let header = b64
        .decode(h)
        .map_err(|_| Error::InvalidJwt("header is not base64url"))?;
    let header: Header = core::str::from_utf8(&header)
        .ok()
        .and_then(|h| serde_json::from_str(h).ok())
        .ok_or(Error::InvalidJwt("header is not json"))?;
    if header.alg != "EdDSA" || header.typ.as_deref() != Some("JWT") {
        return Err(Error::InvalidJwt("header must be EdDSA / JWT"));
    }
    let payload = b64
        .decode(p)
        .map_err(|_| Error::InvalidJwt("payload is not base64url"))?;
    let claims: Claims = core::str::from_utf8(&payload)
        .ok()
        .and_then(|p| serde_json::from_str(p).ok())
        .ok_or(Error::InvalidJwt("payload claims"))?;
    let sig = b64
        .decode(s)
        .map_err(|_| Error::InvalidJwt("signature is not base64url"))?;
    let sig: [u8; 64] = sig
        .as_slice()
        .try_into()
        .map_err(|_| Error::InvalidJwt("signature length"))?;
    let key = did_key_decode(&claims.iss)?;
    let key = VerifyingKey::from_bytes(&key).map_err(|_| Error::InvalidJwt("bad issuer key"))?;
    let data_len = h.len() + 1 + p.len();
    key.verify_strict(&token.as_bytes()[..data_len], &Signature::from_bytes(&sig))
        .map_err(|_| Error::InvalidJwt("bad signature"))?;
    if claims.exp <= now_s {
        return Err(Error::InvalidJwt("expired"));
    }
    if claims.iat > claims.exp || claims.iat > now_s.saturating_add(MAX_CLOCK_SKEW_S) {
        return Err(Error::InvalidJwt("issued in the future"));
    }
    if let Some(aud) = expected_aud {
        if claims.aud != aud {
            return Err(Error::InvalidJwt("wrong audience"));
        }
    }
    Ok(claims)
}

/// The relay WebSocket URL with `auth`, `projectId` and `ua` query parameters appended (values
/// percent-encoded; existing query parameters of `base` are kept).
pub fn relay_url(base: &str, auth: &str, project_id: &str, ua: &str) -> String {
    let sep = if base.contains('?') {
        if base.ends_with('?') || base.ends_with('&') {
            ""
        } else {
            "&"
        }
    } else {
        "?"
    };
    format!(
        "{base}{sep}auth={}&projectId={}&ua={}",
        percent_encode(auth),
        percent_encode(project_id),
        percent_encode(ua)
    )
}

/// The user agent we announce: `wc-2/rust-wallet-modal-{sdk_version}/{os}/{environment}`.
pub fn user_agent(sdk_version: &str, os: &str, environment: &str) -> String {
    format!("wc-2/rust-wallet-modal-{sdk_version}/{os}/{environment}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Produced with @walletconnect/relay-auth (dependency of @walletconnect/utils 2.25.0) in
    // /tmp/wc-kat: seed[i] = 0x70 + i; kp = generateKeyPair(seed);
    // signJWT(sub, "wss://relay.walletconnect.org", 86400, kp, 1700000000); verifyJWT(jwt) == true.
    const SEED: &str = "707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f";
    const PUB: &str = "1ce56a48c82ff99162a14bc544612674e5d61fb9317e65d4055780fdbcb4dc35";
    const DID: &str = "did:key:z6MkgQ4Mf4cSSxyKwDrx9hGMwGcofmeMsrq1a3NSg7qH1ubr";
    const SUB: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";
    const AUD: &str = "wss://relay.walletconnect.org";
    const JWT: &str = "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJkaWQ6a2V5Ono2TWtnUTRNZjRjU1N4eUt3RHJ4OWhHTXdHY29mbWVNc3JxMWEzTlNnN3FIMXViciIsInN1YiI6IjFmMWUxZDFjMWIxYTE5MTgxNzE2MTUxNDEzMTIxMTEwMGYwZTBkMGMwYjBhMDkwODA3MDYwNTA0MDMwMjAxMDAiLCJhdWQiOiJ3c3M6Ly9yZWxheS53YWxsZXRjb25uZWN0Lm9yZyIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDg2NDAwfQ.wQaVOxbN-95m6zn6VRDDDubxvEn1chFIlwtXLI75KU1i_SLeymu62zn0LMtW5ieUtuYEzggC0cZCkBE4fs1LAw";

    fn key() -> ClientKey {
        ClientKey::from_seed_hex(SEED).unwrap()
    }

    #[test]
    fn client_key_public_key_and_did_key_match_relay_auth() {
        let k = key();
        assert_eq!(hex_encode(&k.public_key()), PUB);
        assert_eq!(k.did_key(), DID);
        assert_eq!(did_key_decode(DID).unwrap(), k.public_key());
        assert_eq!(k.seed_hex(), SEED);
    }

    #[test]
    fn jwt_signature_matches_relay_auth_byte_for_byte() {
        assert_eq!(key().sign_jwt(SUB, AUD, 1_700_000_000, 86_400), JWT);
    }

    #[test]
    fn verify_accepts_the_relay_auth_token() {
        let c = verify_jwt(JWT, 1_700_000_001, Some(AUD)).unwrap();
        assert_eq!(
            c,
            Claims {
                iss: DID.into(),
                sub: SUB.into(),
                aud: AUD.into(),
                iat: 1_700_000_000,
                exp: 1_700_086_400
            }
        );
        assert!(verify_jwt(JWT, 1_700_000_001, None).is_ok());
    }

    #[test]
    fn verify_refuses_expired_future_or_foreign_audience_tokens() {
        assert_eq!(
            verify_jwt(JWT, 1_700_086_400, None),
            Err(Error::InvalidJwt("expired"))
        );
        assert_eq!(
            verify_jwt(JWT, 1_699_999_000, None),
            Err(Error::InvalidJwt("issued in the future"))
        );
        assert!(verify_jwt(JWT, 1_699_999_940, None).is_ok());
        assert_eq!(
            verify_jwt(JWT, 1_700_000_001, Some("wss://other")),
            Err(Error::InvalidJwt("wrong audience"))
        );
    }

    #[test]
    fn verify_refuses_tampered_or_malformed_tokens() {
        let (data, sig) = JWT.rsplit_once('.').unwrap();
        let (h, p) = data.split_once('.').unwrap();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        // Payload changed (other audience) with the old signature.
        let p2 = b64.encode(
            String::from_utf8(b64.decode(p).unwrap())
                .unwrap()
                .replace("walletconnect", "evil"),
        );
        assert_eq!(
            verify_jwt(&format!("{h}.{p2}.{sig}"), 1_700_000_001, None),
            Err(Error::InvalidJwt("bad signature"))
        );
        // Signed by another key but claiming our issuer.
        let other = ClientKey::from_seed([7u8; 32]);
        let forged = other.sign_claims(&Claims {
            iss: DID.into(),
            sub: SUB.into(),
            aud: AUD.into(),
            iat: 1_700_000_000,
            exp: 1_700_086_400,
        });
        assert_eq!(
            verify_jwt(&forged, 1_700_000_001, None),
            Err(Error::InvalidJwt("bad signature"))
        );
        // Other header.
        let h2 = b64.encode(r#"{"alg":"none","typ":"JWT"}"#);
        assert!(verify_jwt(&format!("{h2}.{p}.{sig}"), 1_700_000_001, None).is_err());
        for bad in [
            "",
            "a",
            "a.b",
            "a.b.c",
            "a.b.c.d",
            &format!("{JWT}."),
            &format!("{h}.{p}.{sig}="),
            &format!("{h}.{p}."),
            &format!("{h}.{p}.AAAA"),
        ] {
            assert!(verify_jwt(bad, 1_700_000_001, None).is_err(), "{bad}");
        }
        // Issuer that is not an ed25519 did:key.
        assert!(did_key_decode("did:key:z6DtQkGG").is_err());
        assert!(did_key_decode("did:web:example.com").is_err());
        assert!(did_key_decode("did:key:z0OIl").is_err());
    }

    #[test]
    fn fresh_tokens_roundtrip_through_verify() {
        let k = ClientKey::from_seed([42u8; 32]);
        let t = k.sign_jwt("abc", "ws://127.0.0.1:9000", 100, DEFAULT_JWT_TTL_S);
        let c = verify_jwt(&t, 150, Some("ws://127.0.0.1:9000")).unwrap();
        assert_eq!(
            (c.iss, c.iat, c.exp),
            (k.did_key(), 100, 100 + DEFAULT_JWT_TTL_S)
        );
    }

    #[test]
    fn relay_url_appends_encoded_query_parameters() {
        assert_eq!(
            relay_url("wss://relay.walletconnect.org", "a.b-c_d", "0123abcd", "wc-2/rust-wallet-modal-0.1.0/wasm/browser"),
            "wss://relay.walletconnect.org?auth=a.b-c_d&projectId=0123abcd&ua=wc-2%2Frust-wallet-modal-0.1.0%2Fwasm%2Fbrowser"
        );
        assert_eq!(
            relay_url("ws://127.0.0.1:1/?x=1", "t", "p", "u"),
            "ws://127.0.0.1:1/?x=1&auth=t&projectId=p&ua=u"
        );
        assert_eq!(
            relay_url("ws://h/?", "t", "p", "u"),
            "ws://h/?auth=t&projectId=p&ua=u"
        );
        assert_eq!(
            user_agent("0.1.0", "wasm", "browser"),
            "wc-2/rust-wallet-modal-0.1.0/wasm/browser"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_tokens_never_panic(s in ".{0,400}") {
            let _ = verify_jwt(&s, 1_700_000_001, Some(AUD));
        }

        #[test]
        fn token_shaped_garbage_never_verifies(h in "[A-Za-z0-9_-]{0,60}", p in "[A-Za-z0-9_-]{0,200}", s in "[A-Za-z0-9_-]{0,90}") {
            let token = format!("{h}.{p}.{s}");
            prop_assert!(verify_jwt(&token, 1_700_000_001, None).is_err());
        }
    }
}
