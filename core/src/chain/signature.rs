//! Signature checks of the `./core` entry (feature `crypto`): recovering the signer of an EIP-191
//! `personal_sign` signature over secp256k1, and verifying Solana (ed25519) message signatures.
//!
//! An EVM signature is 65 bytes `r ‖ s ‖ v` written as `0x` + 130 hex digits, with `v` in {27, 28}
//! or {0, 1}. The signer address is the last 20 bytes of Keccak-256 of the uncompressed public key
//! (without its `0x04` tag).

use crate::chain::error::quoted;
use crate::chain::address::{checksum_address, decode_solana_public_key, is_evm_address};
use crate::chain::error::UtilError;
use crate::chain::hash::{from_hex, hash_message, keccak256, to_hex};
use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};

/// Length of an EVM signature as text: `0x` + 130 hex digits (65 bytes).
pub const EVM_SIGNATURE_LEN: usize = 2 + 65 * 2;

/// Splits a 65-byte `r ‖ s ‖ v` signature given as `0x` + 130 hex digits. Longer text is refused
/// before it is decoded.
pub fn parse_evm_signature(signature: &str) -> Result<(Signature, RecoveryId), UtilError> {
    if signature.len() > EVM_SIGNATURE_LEN {
        return Err(UtilError(format!(
            "Invalid signature: {} characters, expected 0x + 130 hex digits",
            signature.len()
        )));
    }
    let bytes = from_hex(signature).map_err(|_| {
        UtilError(format!(
            "Invalid signature {}: expected 0x + 130 hex digits",
            quoted(signature)
        ))
    })?;
    if bytes.len() != 65 {
        return Err(UtilError(format!(
            "Invalid signature: expected 65 bytes (r, s, v), got {}",
            bytes.len()
        )));
    }
    let y_odd = match bytes[64] {
        0 | 27 => false,
        1 | 28 => true,
        v => {
            return Err(UtilError(format!(
                "Invalid signature: v must be 27, 28, 0 or 1, got {v}"
            )))
        }
    };
    let sig = Signature::from_slice(&bytes[..64])
        .map_err(|_| UtilError("Invalid signature: r and s must be in 1..n-1".into()))?;
    Ok((sig, RecoveryId::new(y_odd, false)))
}

/// The checksummed address of the key that produced `signature` over the 32-byte `prehash`.
pub fn recover_address_from_hash(prehash: &[u8; 32], signature: &str) -> Result<String, UtilError> {
    let (sig, recid) = parse_evm_signature(signature)?;
    let key = VerifyingKey::recover_from_prehash(prehash, &sig, recid)
        .map_err(|_| UtilError("Invalid signature: no public key recovers from it".into()))?;
    Ok(public_key_address(&key))
}

/// The checksummed address of a secp256k1 public key.
pub fn public_key_address(key: &VerifyingKey) -> String {
    let point = key.to_sec1_point(false);
    let hash = keccak256(&point.as_bytes()[1..]);
    checksum_address(&to_hex(&hash[12..])).expect("20 bytes of hex are an address")
}

/// The checksummed signer of an EIP-191 `personal_sign` signature over the UTF-8 bytes of `message`.
/// Rejects a malformed signature.
pub fn recover_message_address(message: &str, signature: &str) -> Result<String, UtilError> {
    recover_address_from_hash(&hash_message(message), signature)
}

/// Whether `signature` is `address`'s `personal_sign` signature of `message`. The address is compared
/// case-insensitively; a wrong address, message or a malformed signature gives `false`.
pub fn verify_message(address: &str, message: &str, signature: &str) -> bool {
    if !is_evm_address(address, false) {
        return false;
    }
    let wanted = address
        .strip_prefix("0x")
        .unwrap_or(address)
        .to_ascii_lowercase();
    match recover_message_address(message, signature) {
        Ok(signer) => signer[2..].to_ascii_lowercase() == wanted,
        Err(_) => false,
    }
}

/// Whether `signature` (64 bytes) is a valid ed25519 signature of `message` by the base58 public key
/// `public_key` (32 bytes). Anything malformed gives `false`.
pub fn verify_solana_message(public_key: &str, message: &[u8], signature: &[u8]) -> bool {
    check_solana_message(public_key, message, signature).is_ok()
}

/// [`verify_solana_message`] with the reason of a refusal: a public key that is not 32 bytes of
/// base58 (over-long text refused before decoding) or not an ed25519 point, a signature that is not
/// 64 bytes, or a signature that does not verify.
pub fn check_solana_message(public_key: &str, message: &[u8], signature: &[u8]) -> Result<(), UtilError> {
    use ed25519_dalek::Verifier;
    let key_bytes = decode_solana_public_key(public_key)?;
    let sig_bytes = <[u8; 64]>::try_from(signature).map_err(|_| {
        UtilError(format!("Invalid Solana signature: expected 64 bytes, got {}", signature.len()))
    })?;
    let key = ed25519_dalek::VerifyingKey::from_bytes(&key_bytes)
        .map_err(|_| UtilError(format!("Invalid Solana public key {}: not an ed25519 point", quoted(public_key))))?;
    let sig = ed25519_dalek::Signature::from_bytes(&sig_bytes);
    key.verify(message, &sig)
        .map_err(|_| UtilError("Invalid Solana signature: it does not verify for this key and message".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::address::encode_base58;
    use k256::ecdsa::SigningKey;
    use proptest::prelude::*;

    /// The well-known first development key of Hardhat/Anvil, whose address is public.
    const DEV_KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    const DEV_ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    fn dev_key() -> SigningKey {
        SigningKey::from_slice(&from_hex(&format!("0x{DEV_KEY}")).unwrap()).unwrap()
    }

    /// personal_sign with `key`, v as 27/28.
    fn sign(key: &SigningKey, message: &str) -> String {
        let (sig, recid) = key.sign_prehash_recoverable(&hash_message(message));
        let mut bytes = sig.to_bytes().to_vec();
        bytes.push(27 + recid.to_byte());
        to_hex(&bytes)
    }

    #[test]
    fn recover_message_address_returns_checksummed_signer() {
        let key = dev_key();
        assert_eq!(public_key_address(key.verifying_key()), DEV_ADDRESS);
        let sig = sign(&key, "hello world");
        assert_eq!(
            recover_message_address("hello world", &sig).unwrap(),
            DEV_ADDRESS
        );
    }

    #[test]
    fn recover_accepts_v_as_0_or_1_like_27_or_28() {
        let key = dev_key();
        let sig = sign(&key, "hi");
        let v: u8 = u8::from_str_radix(&sig[130..], 16).unwrap();
        let alt = format!("{}{:02x}", &sig[..130], v - 27);
        assert_eq!(recover_message_address("hi", &alt).unwrap(), DEV_ADDRESS);
    }

    #[test]
    fn recover_accepts_high_s_signatures_like_viem() {
        // Flipping s to n - s and the parity of v recovers the same key.
        let key = dev_key();
        let (sig, recid) = key.sign_prehash_recoverable(&hash_message("high s"));
        let (r, s) = sig.split_scalars();
        let high = Signature::from_scalars(r.to_bytes(), (-*s).to_bytes()).unwrap();
        let mut bytes = high.to_bytes().to_vec();
        bytes.push(28 - recid.to_byte());
        assert_eq!(
            recover_message_address("high s", &to_hex(&bytes)).unwrap(),
            DEV_ADDRESS
        );
    }

    #[test]
    fn recover_rejects_malformed_signatures() {
        let sig = sign(&dev_key(), "x");
        let cases = [
            String::new(),
            "0x".into(),
            sig[2..].to_string(),                           // no prefix
            sig[..130].to_string(),                         // 64 bytes
            format!("{sig}00"),                             // 66 bytes
            format!("{}1d", &sig[..130]),                   // v = 29
            format!("{}02", &sig[..130]),                   // v = 2
            format!("0x{}{}", "00".repeat(32), &sig[66..]), // r = 0
            format!("0x{}{}", "ff".repeat(32), &sig[66..]), // r >= n
            format!("{}{}", &sig[..129], "g"),              // not hex
        ];
        for bad in cases {
            assert!(recover_message_address("x", &bad).is_err(), "{bad:?}");
            assert!(!verify_message(DEV_ADDRESS, "x", &bad), "{bad:?}");
        }
    }

    #[test]
    fn verify_message_compares_address_case_insensitively_and_returns_false_on_mismatch() {
        let sig = sign(&dev_key(), "sign me");
        assert!(verify_message(DEV_ADDRESS, "sign me", &sig));
        assert!(verify_message(
            &DEV_ADDRESS.to_ascii_lowercase(),
            "sign me",
            &sig
        ));
        assert!(verify_message(
            &DEV_ADDRESS[2..].to_ascii_uppercase(),
            "sign me",
            &sig
        ));
        assert!(!verify_message(DEV_ADDRESS, "sign me!", &sig));
        assert!(!verify_message(
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            "sign me",
            &sig
        ));
        assert!(!verify_message("not an address", "sign me", &sig));
    }

    #[test]
    fn solana_ed25519_verify_over_bytes_with_base58_key() {
        use ed25519_dalek::Signer;
        let key = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
        let public = encode_base58(key.verifying_key().as_bytes());
        let msg = b"Sign in to example.com";
        let sig = key.sign(msg).to_bytes();
        assert!(verify_solana_message(&public, msg, &sig));
        assert!(!verify_solana_message(
            &public,
            b"Sign in to evil.com",
            &sig
        ));
        let mut bad = sig;
        bad[0] ^= 1;
        assert!(!verify_solana_message(&public, msg, &bad));
        assert!(!verify_solana_message(&public, msg, &sig[..63]));
        assert!(!verify_solana_message("not-base58-0OIl", msg, &sig));
        assert!(!verify_solana_message(
            &encode_base58(&[1u8; 31]),
            msg,
            &sig
        ));
    }

    proptest! {
        #[test]
        fn signature_parsers_never_panic(s in ".*", msg in ".*", bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
            let _ = recover_message_address(&msg, &s);
            let _ = verify_message(&s, &msg, &s);
            let _ = verify_solana_message(&s, msg.as_bytes(), &bytes);
            let _ = recover_message_address(&msg, &to_hex(&bytes));
        }

        #[test]
        fn recover_inverts_sign_for_any_key_and_message(seed in proptest::array::uniform32(1u8..), msg in ".*") {
            if let Ok(key) = SigningKey::from_slice(&seed) {
                let sig = sign(&key, &msg);
                let addr = public_key_address(key.verifying_key());
                prop_assert_eq!(recover_message_address(&msg, &sig).unwrap(), addr.clone());
                prop_assert!(verify_message(&addr, &msg, &sig));
            }
        }
    }
}
