//! Cosmos message signatures (ADR-036, as Keplr's `signArbitrary` makes them): the signer signs
//! an amino sign document carrying the data, with secp256k1 over SHA-256 of its canonical JSON
//! (keys sorted, no spaces), and its key's address (RIPEMD-160 of SHA-256) is the signer's.

use super::decode_address;
use k256::ecdsa::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

/// The longest data checked (bytes).
pub const MAX_DATA_LEN: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CosmosSignatureError {
    Address,
    Malformed(&'static str),
    TooLong,
    KeyMismatch,
    Mismatch,
}

impl core::fmt::Display for CosmosSignatureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Address => write!(f, "Not a Cosmos address (Bech32 of 20 or 32 bytes)"),
            Self::Malformed(why) => write!(f, "Not an ADR-036 signature: {why}"),
            Self::TooLong => write!(f, "The data is too long (at most {MAX_DATA_LEN} bytes)"),
            Self::KeyMismatch => write!(f, "The public key is not the signer's"),
            Self::Mismatch => write!(f, "The signature is not the signer's over this data"),
        }
    }
}

/// The ADR-036 sign document of `data` signed by `signer`, as the bytes signed.
pub fn sign_doc(signer: &str, data: &[u8]) -> Vec<u8> {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(data);
    // Both values are Base64 and Bech32: nothing in them needs escaping.
    format!(r#"{{"account_number":"0","chain_id":"","fee":{{"amount":[],"gas":"0"}},"memo":"","msgs":[{{"type":"sign/MsgSignData","value":{{"data":"{data}","signer":"{signer}"}}}}],"sequence":"0"}}"#).into_bytes()
}

/// Whether `signature` (Base64, 64 bytes) by `public_key` (Base64, a compressed secp256k1 key)
/// is `signer`'s over `data`.
pub fn verify(signer: &str, data: &[u8], public_key: &str, signature: &str) -> Result<(), CosmosSignatureError> {
    use base64::Engine;
    use CosmosSignatureError as E;
    let (hrp, account) = decode_address(signer).ok_or(E::Address)?;
    if data.len() > MAX_DATA_LEN {
        return Err(E::TooLong);
    }
    if public_key.len() > 64 || signature.len() > 128 {
        return Err(E::Malformed("a key or signature too long"));
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let key = b64.decode(public_key).map_err(|_| E::Malformed("the key is not Base64"))?;
    let sig = b64.decode(signature).map_err(|_| E::Malformed("the signature is not Base64"))?;
    if key.len() != 33 {
        return Err(E::Malformed("the key is not a compressed secp256k1 key"));
    }
    let h: [u8; 20] = ripemd::Ripemd160::digest(Sha256::digest(&key)).into();
    if account != h {
        return Err(E::KeyMismatch);
    }
    let signer = crate::chain::bech32::encode_bytes(&hrp, &account);
    let hash: [u8; 32] = Sha256::digest(sign_doc(&signer, data)).into();
    let key = VerifyingKey::from_sec1_bytes(&key).map_err(|_| E::Malformed("not a secp256k1 key"))?;
    let sig = Signature::from_slice(&sig).map_err(|_| E::Malformed("a signature is 64 bytes"))?.normalize_s();
    use k256::ecdsa::signature::hazmat::PrehashVerifier;
    key.verify_prehash(&hash, &sig).map_err(|_| E::Mismatch)
}
