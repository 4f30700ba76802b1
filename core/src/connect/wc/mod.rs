//! WalletConnect v2, dapp side, sans-IO.
//!
//! Nothing in this module opens a socket, reads a clock or draws random numbers: the host feeds
//! text frames received on the relay WebSocket, the current time (`now_ms`) and random bytes, and
//! gets back frames to send, events for the UI and the next deadline at which to call again.
//!
//! # Layers
//!
//! * [`crypto`] — X25519 key agreement, HKDF-SHA256 symmetric keys, `sha256` topics and the
//!   ChaCha20-Poly1305 type 0 / type 1 envelopes (base64 with padding).
//! * [`pairing`] — the pairing URI `wc:{topic}@2?symKey=…&relay-protocol=irn&expiryTimestamp=…`,
//!   its strict parser and the pairing timing rules (4-minute expiry, expired with under 10 s
//!   left, a new URI at most once a second).
//! * [`auth`] — the relay client identity (`did:key` of an Ed25519 key), the EdDSA JWT presented
//!   when opening the socket, its verifier, and the relay URL query builder.
//! * [`relay`] — the relay JSON-RPC client (`irn_*` requests, responses matched by id, retries and
//!   time-outs, `irn_subscription` pushes and their acknowledgements).
//! * [`namespaces`] — CAIP-2/CAIP-10 checks, the proposal namespaces built from configured chains,
//!   and the validation of the namespaces a wallet settles.
//! * [`rpc`] — sign-protocol tags/TTLs and error codes.
//! * [`sign`] — [`sign::SignClient`], the dapp state machine tying everything together.
//!
//! # Flow (see [`sign`] for the details)
//!
//! 1. `Command::Connect` draws a pairing key and a proposer X25519 key from the entropy pool,
//!    subscribes to the pairing topic, publishes `wc_sessionPropose` (tag 1100, ttl 300) and emits
//!    `Event::PairingUri` for the QR code / deep link.
//! 2. The wallet answers on the pairing topic with `{relay, responderPublicKey}`; the client derives
//!    the session key and topic and subscribes to it.
//! 3. The wallet publishes `wc_sessionSettle` on the session topic; the client validates the
//!    namespaces against what it proposed, answers `true` (tag 1103) and emits `SessionSettled`.
//! 4. Requests, events, updates, extensions, pings and deletion then flow over the session topic.
//!
//! All client state survives a reload through [`sign::SignClient::to_json`] /
//! [`sign::SignClient::from_json`].

pub mod auth;
pub mod crypto;
pub mod namespaces;
pub mod pairing;
pub mod relay;
pub mod rpc;
pub mod sign;

#[cfg(test)]
mod tests;

use core::fmt;

/// Everything that can go wrong in the WalletConnect layer. Hostile input always ends up here,
/// never in a panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A pairing URI that does not follow the format.
    InvalidUri(&'static str),
    /// A key, topic or other hex value of the wrong shape.
    InvalidHex(&'static str),
    /// X25519 produced the all-zero shared secret (low-order peer key).
    WeakSharedSecret,
    /// An envelope that cannot be decoded (bad base64, wrong type byte, too short…).
    InvalidEnvelope(&'static str),
    /// The envelope did not authenticate under the key (or was tampered with).
    DecryptionFailed,
    /// A relay auth token that is malformed, badly signed, expired or for another audience.
    InvalidJwt(&'static str),
    /// A relay or peer frame that is not the JSON-RPC we expect.
    InvalidFrame(&'static str),
    /// A command that makes no sense in the current state (e.g. a request without a session).
    InvalidState(&'static str),
    /// Command arguments that cannot be sent (e.g. malformed namespaces).
    InvalidParams(&'static str),
    /// A session request for a chain or method the session does not allow.
    Unauthorized { code: i64, message: &'static str },
    /// Asked for a new pairing URI sooner than the rules allow; retry at the given time.
    TooSoon { retry_at_ms: u64 },
    /// The entropy pool does not hold enough random bytes; feed `Input::Entropy` and retry.
    NeedEntropy { needed: usize },
    /// A request id is already in use.
    DuplicateId(u64),
    /// Stored state that cannot be restored.
    Storage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUri(m) => write!(f, "invalid pairing uri: {m}"),
            Error::InvalidHex(m) => write!(f, "invalid hex: {m}"),
            Error::WeakSharedSecret => write!(f, "all-zero shared secret"),
            Error::InvalidEnvelope(m) => write!(f, "invalid envelope: {m}"),
            Error::DecryptionFailed => write!(f, "decryption failed"),
            Error::InvalidJwt(m) => write!(f, "invalid jwt: {m}"),
            Error::InvalidFrame(m) => write!(f, "invalid frame: {m}"),
            Error::InvalidState(m) => write!(f, "invalid state: {m}"),
            Error::InvalidParams(m) => write!(f, "invalid params: {m}"),
            Error::Unauthorized { code, message } => write!(f, "{message} ({code})"),
            Error::TooSoon { retry_at_ms } => write!(f, "too soon, retry at {retry_at_ms}"),
            Error::NeedEntropy { needed } => write!(f, "need {needed} more random bytes"),
            Error::DuplicateId(id) => write!(f, "request id {id} already in use"),
            Error::Storage(m) => write!(f, "invalid stored state: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Result alias of this module.
pub type Result<T> = core::result::Result<T, Error>;

/// Lowercase hex of bytes.
pub fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes hex (either case, no `0x`) into exactly `N` bytes.
pub fn hex_decode_array<const N: usize>(s: &str) -> Result<[u8; N]> {
    let b = s.as_bytes();
    if b.len() != N * 2 {
        return Err(Error::InvalidHex("wrong length"));
    }
    let mut out = [0u8; N];
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let hi = hex_val(pair[0]).ok_or(Error::InvalidHex("not hex"))?;
        let lo = hex_val(pair[1]).ok_or(Error::InvalidHex("not hex"))?;
        out[i] = (hi << 4) | lo;
    }
    Ok(out)
}

/// True for a 32-byte topic/key written as 64 lowercase hex digits.
pub fn is_topic(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
}

/// Serde helper: `[u8; 32]` as a 64-digit hex string.
pub(crate) mod hex32 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8; 32], s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(&super::hex_encode(v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> core::result::Result<[u8; 32], D::Error> {
        let s = String::deserialize(d)?;
        super::hex_decode_array::<32>(&s).map_err(serde::de::Error::custom)
    }
}
