//! WalletConnect cryptography: X25519, HKDF-SHA256, sha256 topics and ChaCha20-Poly1305 envelopes.
//!
//! * A key pair is made from 32 secret bytes supplied by the caller ([`KeyPair::from_secret`]).
//! * Two peers agree on a symmetric key with [`derive_sym_key`]: X25519(own secret, peer public)
//!   → HKDF-SHA256 with an empty salt and empty info → 32 bytes. An all-zero shared secret (a
//!   low-order peer key) is refused.
//! * The topic of a symmetric key is `hex(sha256(key))` ([`topic_of`]).
//! * Envelopes, base64 (standard alphabet, with padding) of:
//!   * type 0: `0x00 ‖ iv(12) ‖ ciphertext ‖ tag(16)`;
//!   * type 1: `0x01 ‖ sender public key(32) ‖ iv(12) ‖ ciphertext ‖ tag(16)` — the receiver derives
//!     the key from its own secret and the sender's public key.
//!
//!   Encryption takes the 12-byte iv as an argument (the caller draws it at random); decryption
//!   validates every length and the tag, and never panics on hostile input.

use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use sha2::{Digest, Sha256};

use super::{hex_encode, Error, Result};

/// Length of the envelope iv (ChaCha20-Poly1305 nonce).
pub const IV_LEN: usize = 12;
/// Length of the Poly1305 tag.
pub const TAG_LEN: usize = 16;
/// Length of keys (X25519 secrets/publics and symmetric keys).
pub const KEY_LEN: usize = 32;
/// Envelope type byte: symmetric key already shared.
pub const TYPE_0: u8 = 0;
/// Envelope type byte: sender public key included for key agreement.
pub const TYPE_1: u8 = 1;

/// Refuse to decode envelopes larger than this (base64 characters); relays cap messages far lower.
pub const MAX_ENVELOPE_LEN: usize = 4 * 1024 * 1024;

/// SHA-256 of bytes.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// The topic of a symmetric key: lowercase `hex(sha256(key))`.
pub fn topic_of(key: &[u8; 32]) -> String {
    hex_encode(&sha256(key))
}

/// An X25519 key pair. The secret comes from the caller (32 random bytes).
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPair {
    secret: [u8; 32],
    public: [u8; 32],
}

impl core::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("public", &hex_encode(&self.public))
            .finish_non_exhaustive()
    }
}

impl KeyPair {
    /// Builds the key pair of 32 secret bytes (clamped by X25519 as usual).
    pub fn from_secret(secret: [u8; 32]) -> Self {
        KeyPair {
            secret,
            public: x25519_public(&secret),
        }
    }
    /// The public key.
    pub fn public(&self) -> [u8; 32] {
        self.public
    }
    /// The secret bytes as given.
    pub fn secret(&self) -> [u8; 32] {
        self.secret
    }
    /// The symmetric key shared with `peer_public` (see [`derive_sym_key`]).
    pub fn sym_key_with(&self, peer_public: &[u8; 32]) -> Result<[u8; 32]> {
        derive_sym_key(&self.secret, peer_public)
    }
}

/// X25519 public key of a secret.
pub fn x25519_public(secret: &[u8; 32]) -> [u8; 32] {
    x25519_dalek::x25519(*secret, x25519_dalek::X25519_BASEPOINT_BYTES)
}

/// Raw X25519 shared secret; refuses the all-zero result of a low-order peer key.
pub fn shared_secret(secret: &[u8; 32], peer_public: &[u8; 32]) -> Result<[u8; 32]> {
    let shared = x25519_dalek::x25519(*secret, *peer_public);
    // Constant-time-ish all-zero check (OR-fold, no early exit).
    if shared.iter().fold(0u8, |acc, b| acc | b) == 0 {
        return Err(Error::WeakSharedSecret);
    }
    Ok(shared)
}

/// HKDF-SHA256 (empty salt, empty info) of a shared secret into a 32-byte symmetric key.
pub fn hkdf_sym_key(shared: &[u8; 32]) -> [u8; 32] {
    let hk = hkdf::Hkdf::<Sha256>::new(None, shared);
    let mut okm = [0u8; 32];
    // 32 bytes is far below the 255 * 32 HKDF limit: expand cannot fail.
    let _ = hk.expand(&[], &mut okm);
    okm
}

/// Session/response symmetric key: HKDF-SHA256(X25519(secret, peer_public)).
pub fn derive_sym_key(secret: &[u8; 32], peer_public: &[u8; 32]) -> Result<[u8; 32]> {
    Ok(hkdf_sym_key(&shared_secret(secret, peer_public)?))
}

fn seal(key: &[u8; 32], iv: &[u8; IV_LEN], plaintext: &[u8]) -> Vec<u8> {
    let cipher = ChaCha20Poly1305::new(&Key::from(*key));
    // Encryption only fails for plaintexts beyond 256 GiB, impossible here.
    cipher
        .encrypt(&Nonce::from(*iv), plaintext)
        .unwrap_or_default()
}

fn open(key: &[u8; 32], iv: &[u8; IV_LEN], sealed: &[u8]) -> Result<Vec<u8>> {
    if sealed.len() < TAG_LEN {
        return Err(Error::InvalidEnvelope("too short"));
    }
    let cipher = ChaCha20Poly1305::new(&Key::from(*key));
    cipher
        .decrypt(&Nonce::from(*iv), sealed)
        .map_err(|_| Error::DecryptionFailed)
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Type 0 envelope of `plaintext` under `sym_key` with the given iv, base64 with padding.
pub fn encrypt_type0(sym_key: &[u8; 32], iv: &[u8; IV_LEN], plaintext: &[u8]) -> String {
    let sealed = seal(sym_key, iv, plaintext);
    let mut out = Vec::with_capacity(1 + IV_LEN + sealed.len());
    out.push(TYPE_0);
    out.extend_from_slice(iv);
    out.extend_from_slice(&sealed);
    b64(&out)
}

/// Type 1 envelope: like type 0 with the sender's public key after the type byte. `sym_key` is
/// the key derived from the sender's secret and the receiver's public key.
pub fn encrypt_type1(
    sym_key: &[u8; 32],
    sender_public: &[u8; 32],
    iv: &[u8; IV_LEN],
    plaintext: &[u8],
) -> String {
    let sealed = seal(sym_key, iv, plaintext);
    let mut out = Vec::with_capacity(1 + KEY_LEN + IV_LEN + sealed.len());
    out.push(TYPE_1);
    out.extend_from_slice(sender_public);
    out.extend_from_slice(iv);
    out.extend_from_slice(&sealed);
    b64(&out)
}

/// A decoded (still sealed) envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Envelope {
    /// `0x00 ‖ iv ‖ sealed`.
    Type0 { iv: [u8; IV_LEN], sealed: Vec<u8> },
    /// `0x01 ‖ sender_public ‖ iv ‖ sealed`.
    Type1 {
        sender_public: [u8; 32],
        iv: [u8; IV_LEN],
        sealed: Vec<u8>,
    },
}

impl Envelope {
    /// Decodes base64 (standard, padded) and splits the envelope; checks every length.
    pub fn decode(encoded: &str) -> Result<Envelope> {
        if encoded.len() > MAX_ENVELOPE_LEN {
            return Err(Error::InvalidEnvelope("too long"));
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|_| Error::InvalidEnvelope("bad base64"))?;
        let (&ty, rest) = bytes.split_first().ok_or(Error::InvalidEnvelope("empty"))?;
        match ty {
            TYPE_0 => {
                if rest.len() < IV_LEN + TAG_LEN {
                    return Err(Error::InvalidEnvelope("too short"));
                }
                let (iv, sealed) = rest.split_at(IV_LEN);
                let iv: [u8; IV_LEN] = iv.try_into().map_err(|_| Error::InvalidEnvelope("iv"))?;
                Ok(Envelope::Type0 {
                    iv,
                    sealed: sealed.to_vec(),
                })
            }
            TYPE_1 => {
                if rest.len() < KEY_LEN + IV_LEN + TAG_LEN {
                    return Err(Error::InvalidEnvelope("too short"));
                }
                let (pk, rest) = rest.split_at(KEY_LEN);
                let (iv, sealed) = rest.split_at(IV_LEN);
                let sender_public: [u8; 32] = pk
                    .try_into()
                    .map_err(|_| Error::InvalidEnvelope("public key"))?;
                let iv: [u8; IV_LEN] = iv.try_into().map_err(|_| Error::InvalidEnvelope("iv"))?;
                Ok(Envelope::Type1 {
                    sender_public,
                    iv,
                    sealed: sealed.to_vec(),
                })
            }
            _ => Err(Error::InvalidEnvelope("unsupported type")),
        }
    }

    /// The type byte.
    pub fn type_byte(&self) -> u8 {
        match self {
            Envelope::Type0 { .. } => TYPE_0,
            Envelope::Type1 { .. } => TYPE_1,
        }
    }

    /// Opens the envelope with an already known symmetric key (either type).
    pub fn open_with_key(&self, sym_key: &[u8; 32]) -> Result<Vec<u8>> {
        match self {
            Envelope::Type0 { iv, sealed } | Envelope::Type1 { iv, sealed, .. } => {
                open(sym_key, iv, sealed)
            }
        }
    }
}

/// Decrypts a type 0 envelope with the symmetric key. Any other type is refused.
pub fn decrypt_type0(sym_key: &[u8; 32], encoded: &str) -> Result<Vec<u8>> {
    match Envelope::decode(encoded)? {
        env @ Envelope::Type0 { .. } => env.open_with_key(sym_key),
        _ => Err(Error::InvalidEnvelope("expected type 0")),
    }
}

/// Decrypts a type 1 envelope with the receiver's secret: derives the key from the embedded
/// sender public key. Returns the sender's public key and the plaintext.
pub fn decrypt_type1(receiver_secret: &[u8; 32], encoded: &str) -> Result<([u8; 32], Vec<u8>)> {
    match Envelope::decode(encoded)? {
        env @ Envelope::Type1 { sender_public, .. } => {
            let key = derive_sym_key(receiver_secret, &sender_public)?;
            Ok((sender_public, env.open_with_key(&key)?))
        }
        _ => Err(Error::InvalidEnvelope("expected type 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::wc::hex_decode_array;
    use proptest::prelude::*;

    // Known-answer vectors produced independently with the official JS libraries in a scratch
    // directory (`npm install @walletconnect/utils@2 @noble/curves @noble/hashes`, utils 2.25.0):
    //   secretA[i] = i + 1, secretB[i] = 0xa0 + 3i (i = 0..32)
    //   pubA/pubB = x25519.getPublicKey(...) (@noble/curves)
    //   shared = x25519.getSharedSecret(a, pubB)
    //   sessionKey = utils.deriveSymKey(hex(a), pubB)  (also = noble hkdf(sha256, shared))
    //   sessionTopic = utils.hashKey(sessionKey)
    //   iv[i] = 0xc0 + i (i = 0..12)
    //   type0 = utils.encrypt({message, symKey: sessionKey, iv})
    //   type1 = utils.encrypt({message, symKey: sessionKey, iv, type: 1, senderPublicKey: pubA})
    const SECRET_A: &str = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
    const SECRET_B: &str = "a0a3a6a9acafb2b5b8bbbec1c4c7cacdd0d3d6d9dcdfe2e5e8ebeef1f4f7fafd";
    const PUB_A: &str = "07a37cbc142093c8b755dc1b10e86cb426374ad16aa853ed0bdfc0b2b86d1c7c";
    const PUB_B: &str = "bcb0b9cc0d02337c52329e4c4a97a10fc2bc8f7612ff6881e88576a3cd993f78";
    const SHARED: &str = "df1ab032adce74e8c1009c900bf7d9b8b5335d2ab35521b31a6d2cf096711177";
    const SESSION_KEY: &str = "837484ef1b7ac1e488a883e13b0f79008a63ee95d04077f01aa1080696aaad0a";
    const SESSION_TOPIC: &str = "642ac8ab56fabbfb26821fca65ae068256bf3738f711f70981e8e1e54a661678";
    const MESSAGE: &str =
        r#"{"id":1700000000000123,"jsonrpc":"2.0","method":"wc_sessionPing","params":{}}"#;
    const TYPE0: &str = "AMDBwsPExcbHyMnKy/0/3e+vaZhVn5tCM4gzcisCRYJ8Td1hFdWoUzIKYeqquUbWKoKbfUsPmMIhlf+h+oyjA0DKJKZ+E6CQC1KgN+KID8z5zwpW5MEOb60kJzTVOq5QhnEngH4aEzhLOQ==";
    const TYPE1: &str = "AQejfLwUIJPIt1XcGxDobLQmN0rRaqhT7QvfwLK4bRx8wMHCw8TFxsfIycrL/T/d769pmFWfm0IziDNyKwJFgnxN3WEV1ahTMgph6qq5RtYqgpt9Sw+YwiGV/6H6jKMDQMokpn4ToJALUqA34ogPzPnPClbkwQ5vrSQnNNU6rlCGcSeAfhoTOEs5";
    // utils.encrypt({message: "", symKey: sessionKey, iv})
    const TYPE0_EMPTY: &str = "AMDBwsPExcbHyMnKy9ifpdV5oBGcr2OGZVV57hU=";
    // utils.hashKey("404142…5f") (the pairing symKey of the pairing tests)
    const PAIRING_KEY: &str = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f";
    const PAIRING_TOPIC: &str = "ca2a4fe727faaecf16ecd130a86e0885c5540c05375340445071c0657555fd42";

    fn h32(s: &str) -> [u8; 32] {
        hex_decode_array::<32>(s).unwrap()
    }
    fn iv() -> [u8; 12] {
        core::array::from_fn(|i| 0xc0 + i as u8)
    }

    #[test]
    fn topic_is_hex_sha256_of_the_key_matching_js_hash_key() {
        assert_eq!(topic_of(&h32(PAIRING_KEY)), PAIRING_TOPIC);
        assert_eq!(topic_of(&h32(SESSION_KEY)), SESSION_TOPIC);
    }

    #[test]
    fn x25519_public_keys_match_noble() {
        assert_eq!(hex_encode(&x25519_public(&h32(SECRET_A))), PUB_A);
        assert_eq!(
            hex_encode(&KeyPair::from_secret(h32(SECRET_B)).public()),
            PUB_B
        );
    }

    #[test]
    fn x25519_shared_secret_matches_noble_and_is_symmetric() {
        assert_eq!(
            hex_encode(&shared_secret(&h32(SECRET_A), &h32(PUB_B)).unwrap()),
            SHARED
        );
        assert_eq!(
            hex_encode(&shared_secret(&h32(SECRET_B), &h32(PUB_A)).unwrap()),
            SHARED
        );
    }

    #[test]
    fn hkdf_with_empty_salt_and_info_matches_js_derive_sym_key() {
        assert_eq!(hex_encode(&hkdf_sym_key(&h32(SHARED))), SESSION_KEY);
        assert_eq!(
            hex_encode(&derive_sym_key(&h32(SECRET_A), &h32(PUB_B)).unwrap()),
            SESSION_KEY
        );
        let b = KeyPair::from_secret(h32(SECRET_B));
        assert_eq!(
            hex_encode(&b.sym_key_with(&h32(PUB_A)).unwrap()),
            SESSION_KEY
        );
    }

    #[test]
    fn all_zero_shared_secret_is_refused() {
        // The identity point (0) and other low-order points give an all-zero shared secret.
        assert_eq!(
            shared_secret(&h32(SECRET_A), &[0u8; 32]),
            Err(Error::WeakSharedSecret)
        );
        let mut one = [0u8; 32];
        one[0] = 1;
        assert_eq!(
            derive_sym_key(&h32(SECRET_A), &one),
            Err(Error::WeakSharedSecret)
        );
    }

    #[test]
    fn type0_envelope_with_fixed_iv_matches_js_encrypt() {
        assert_eq!(
            encrypt_type0(&h32(SESSION_KEY), &iv(), MESSAGE.as_bytes()),
            TYPE0
        );
        assert_eq!(encrypt_type0(&h32(SESSION_KEY), &iv(), b""), TYPE0_EMPTY);
    }

    #[test]
    fn type0_envelope_from_js_decrypts() {
        assert_eq!(
            decrypt_type0(&h32(SESSION_KEY), TYPE0).unwrap(),
            MESSAGE.as_bytes()
        );
        assert_eq!(decrypt_type0(&h32(SESSION_KEY), TYPE0_EMPTY).unwrap(), b"");
    }

    #[test]
    fn type1_envelope_with_fixed_iv_matches_js_encrypt() {
        let key = h32(SESSION_KEY);
        assert_eq!(
            encrypt_type1(&key, &h32(PUB_A), &iv(), MESSAGE.as_bytes()),
            TYPE1
        );
    }

    #[test]
    fn type1_envelope_from_js_decrypts_with_the_receiver_secret() {
        let (sender, plain) = decrypt_type1(&h32(SECRET_B), TYPE1).unwrap();
        assert_eq!(hex_encode(&sender), PUB_A);
        assert_eq!(plain, MESSAGE.as_bytes());
        // The key known on the topic opens it too.
        assert_eq!(
            Envelope::decode(TYPE1)
                .unwrap()
                .open_with_key(&h32(SESSION_KEY))
                .unwrap(),
            MESSAGE.as_bytes()
        );
    }

    #[test]
    fn decrypt_with_the_wrong_key_fails() {
        assert_eq!(
            decrypt_type0(&h32(PAIRING_KEY), TYPE0),
            Err(Error::DecryptionFailed)
        );
        assert_eq!(
            decrypt_type1(&h32(SECRET_A), TYPE1).map(|_| ()),
            Err(Error::DecryptionFailed)
        );
    }

    #[test]
    fn tampered_envelopes_fail_authentication() {
        let raw = base64::engine::general_purpose::STANDARD
            .decode(TYPE0)
            .unwrap();
        for i in 1..raw.len() {
            let mut t = raw.clone();
            t[i] ^= 0x01;
            let enc = b64(&t);
            assert_eq!(
                decrypt_type0(&h32(SESSION_KEY), &enc),
                Err(Error::DecryptionFailed),
                "byte {i}"
            );
        }
    }

    #[test]
    fn malformed_envelopes_are_refused() {
        let key = h32(SESSION_KEY);
        assert!(matches!(
            decrypt_type0(&key, ""),
            Err(Error::InvalidEnvelope(_))
        ));
        assert!(matches!(
            decrypt_type0(&key, "AA=="),
            Err(Error::InvalidEnvelope(_))
        ));
        assert!(matches!(
            decrypt_type0(&key, "!!!!"),
            Err(Error::InvalidEnvelope(_))
        ));
        // Unpadded base64 is not the standard padded form.
        assert!(matches!(
            decrypt_type0(&key, TYPE0.trim_end_matches('=')),
            Err(Error::InvalidEnvelope(_))
        ));
        // Type 2 (plaintext) and unknown types are not accepted here.
        assert!(matches!(
            decrypt_type0(&key, &b64(&[2, b'{', b'}'])),
            Err(Error::InvalidEnvelope(_))
        ));
        assert!(matches!(
            decrypt_type0(&key, &b64(&[9u8; 40])),
            Err(Error::InvalidEnvelope(_))
        ));
        // Type 0 where type 1 is expected and vice versa.
        assert!(matches!(
            decrypt_type1(&key, TYPE0),
            Err(Error::InvalidEnvelope(_))
        ));
        assert!(matches!(
            decrypt_type0(&key, TYPE1),
            Err(Error::InvalidEnvelope(_))
        ));
        // Exactly one byte short of iv + tag.
        let mut short = vec![0u8];
        short.extend_from_slice(&[0u8; IV_LEN + TAG_LEN - 1]);
        assert_eq!(
            decrypt_type0(&key, &b64(&short)),
            Err(Error::InvalidEnvelope("too short"))
        );
        let mut short1 = vec![1u8];
        short1.extend_from_slice(&[0u8; KEY_LEN + IV_LEN + TAG_LEN - 1]);
        assert_eq!(
            decrypt_type1(&key, &b64(&short1)).map(|_| ()),
            Err(Error::InvalidEnvelope("too short"))
        );
    }

    #[test]
    fn type1_with_a_low_order_sender_key_is_refused() {
        let env = encrypt_type1(&h32(SESSION_KEY), &[0u8; 32], &iv(), b"x");
        assert_eq!(
            decrypt_type1(&h32(SECRET_B), &env).map(|_| ()),
            Err(Error::WeakSharedSecret)
        );
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic_when_decrypted(s in ".{0,200}") {
            let key = h32(SESSION_KEY);
            let _ = decrypt_type0(&key, &s);
            let _ = decrypt_type1(&key, &s);
        }

        #[test]
        fn arbitrary_envelope_bytes_never_panic_and_never_authenticate(bytes in proptest::collection::vec(any::<u8>(), 0..160)) {
            let key = h32(SESSION_KEY);
            let enc = b64(&bytes);
            prop_assert!(decrypt_type0(&key, &enc).is_err());
            prop_assert!(decrypt_type1(&h32(SECRET_B), &enc).is_err());
        }

        #[test]
        fn type0_roundtrips(plain in proptest::collection::vec(any::<u8>(), 0..300), ivb in any::<[u8; 12]>(), k in any::<[u8; 32]>()) {
            let enc = encrypt_type0(&k, &ivb, &plain);
            prop_assert_eq!(decrypt_type0(&k, &enc).unwrap(), plain);
        }

        #[test]
        fn type1_roundtrips_between_two_key_pairs(plain in proptest::collection::vec(any::<u8>(), 0..100), a in any::<[u8; 32]>(), b in any::<[u8; 32]>(), ivb in any::<[u8; 12]>()) {
            let a = KeyPair::from_secret(a);
            let b = KeyPair::from_secret(b);
            let key = a.sym_key_with(&b.public()).unwrap();
            let enc = encrypt_type1(&key, &a.public(), &ivb, &plain);
            let (sender, got) = decrypt_type1(&b.secret(), &enc).unwrap();
            prop_assert_eq!(sender, a.public());
            prop_assert_eq!(got, plain);
        }
    }
}
