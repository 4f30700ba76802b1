//! Polkadot message signatures, checked offline: an extension's `signRaw` signs the message
//! wrapped in `<Bytes>…</Bytes>` (sr25519, as `@polkadot/util-crypto`'s `signatureVerify` checks;
//! ed25519 keys too). A signature over the bare message is accepted as `signatureVerify` does.

use super::ss58;

/// The longest message checked (bytes).
pub const MAX_MESSAGE_LEN: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolkadotSignatureError {
    Address(&'static str),
    Malformed,
    TooLong,
    Mismatch,
}

impl core::fmt::Display for PolkadotSignatureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Address(why) => write!(f, "{why}"),
            Self::Malformed => write!(f, "Not a Polkadot signature: expected 64 bytes as 0x-prefixed hex"),
            Self::TooLong => write!(f, "The message is too long (at most {MAX_MESSAGE_LEN} bytes)"),
            Self::Mismatch => write!(f, "The signature is not this address's over this message"),
        }
    }
}

/// The bytes an extension signs for `message`: `<Bytes>message</Bytes>` (once).
pub fn wrap(message: &[u8]) -> Vec<u8> {
    if message.starts_with(b"<Bytes>") && message.ends_with(b"</Bytes>") {
        return message.to_vec();
    }
    [b"<Bytes>".as_slice(), message, b"</Bytes>"].concat()
}

/// Whether `signature` (0x hex, 64 bytes) is `address`'s over `message`.
pub fn verify(address: &str, message: &[u8], signature: &str) -> Result<(), PolkadotSignatureError> {
    use PolkadotSignatureError as E;
    let (_, key) = ss58::decode(address).map_err(E::Address)?;
    if message.len() > MAX_MESSAGE_LEN {
        return Err(E::TooLong);
    }
    let hex = signature.strip_prefix("0x").unwrap_or(signature);
    if hex.len() != 128 {
        return Err(E::Malformed);
    }
    let mut sig = [0u8; 64];
    for (i, b) in sig.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2).ok_or(E::Malformed)?, 16).map_err(|_| E::Malformed)?;
    }
    let wrapped = wrap(message);
    let candidates = [wrapped.as_slice(), message];
    if let (Ok(pk), Ok(s)) = (schnorrkel::PublicKey::from_bytes(&key), schnorrkel::Signature::from_bytes(&sig)) {
        if candidates.iter().any(|m| pk.verify_simple(b"substrate", m, &s).is_ok()) {
            return Ok(());
        }
    }
    if let Ok(pk) = ed25519_dalek::VerifyingKey::from_bytes(&key) {
        let s = ed25519_dalek::Signature::from_bytes(&sig);
        if candidates.iter().any(|m| pk.verify_strict(m, &s).is_ok()) {
            return Ok(());
        }
    }
    Err(E::Mismatch)
}
