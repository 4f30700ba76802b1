//! Hashing and hex utilities of the `./core` entry: Keccak-256 (the original Keccak padding that
//! Ethereum uses, not NIST SHA3-256), the EIP-191 `personal_sign` message hash, hex encoding, and the
//! shape checks for transaction hashes and signed messages.

use crate::chain::error::quoted;
use crate::chain::error::UtilError;
use sha3::{Digest, Keccak256};

/// Keccak-256 of `data`.
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    let digest = Keccak256::digest(data);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_slice());
    out
}

/// Keccak-256 of `data` as `0x`-prefixed lowercase hex.
pub fn keccak256_hex(data: &[u8]) -> String {
    to_hex(&keccak256(data))
}

/// The bytes EIP-191 (version `0x45`, `personal_sign`) hashes for `message`:
/// `"\x19Ethereum Signed Message:\n" ‖ decimal UTF-8 byte length ‖ UTF-8 bytes`.
pub fn eip191_payload(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 32);
    out.extend_from_slice(b"\x19Ethereum Signed Message:\n");
    out.extend_from_slice(message.len().to_string().as_bytes());
    out.extend_from_slice(message);
    out
}

/// EIP-191 `personal_sign` hash of the UTF-8 bytes of `message`.
pub fn hash_message(message: &str) -> [u8; 32] {
    keccak256(&eip191_payload(message.as_bytes()))
}

/// EIP-191 `personal_sign` hash of `message` as `0x`-prefixed lowercase hex.
pub fn hash_message_hex(message: &str) -> String {
    to_hex(&hash_message(message))
}

/// `0x`-prefixed lowercase hex of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 0x0f) as usize] as char);
    }
    s
}

/// Decodes `0x`-prefixed hex (either case, an even number of digits, `0x` alone is empty).
/// Linear in the length and of any size (calldata, keys, signatures): a caller reading untrusted
/// text of a known size checks its length first, as `signature::parse_evm_signature` does.
pub fn from_hex(s: &str) -> Result<Vec<u8>, UtilError> {
    let body = s
        .strip_prefix("0x")
        .ok_or_else(|| UtilError(format!("Invalid hex {}: missing 0x prefix", quoted(s))))?;
    if body.len() % 2 != 0 || !body.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(UtilError(format!(
            "Invalid hex {}: expected an even number of hex digits",
            quoted(s)
        )));
    }
    Ok(body
        .as_bytes()
        .chunks(2)
        .map(|pair| (nibble(pair[0]) << 4) | nibble(pair[1]))
        .collect())
}

fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// Whether `s` is `0x` followed by `min` or more (or exactly `min` when `exact`) hex digits.
fn is_prefixed_hex(s: &str, min: usize, exact: bool) -> bool {
    match s.strip_prefix("0x") {
        Some(body) => {
            (if exact {
                body.len() == min
            } else {
                body.len() >= min
            }) && body.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => false,
    }
}

/// A transaction hash: `0x` followed by exactly 64 hex digits.
pub fn is_transaction_hash(s: &str) -> bool {
    is_prefixed_hex(s, 64, true)
}

/// A signed message: `0x` followed by at least 62 hex digits.
pub fn is_signed_message(s: &str) -> bool {
    is_prefixed_hex(s, 62, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keccak256_is_keccak_not_sha3() {
        // Keccak-256("") — SHA3-256("") would be 0xa7ffc6f8….
        assert_eq!(
            keccak256_hex(b""),
            "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(
            keccak256_hex(b"hello"),
            "0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8"
        );
    }

    #[test]
    fn eip191_hash_message_matches_known_vector() {
        assert_eq!(
            hash_message_hex("hello world"),
            "0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68"
        );
    }

    #[test]
    fn eip191_length_prefix_is_utf8_byte_length() {
        // "é" is one character but two UTF-8 bytes: the prefix must say 2.
        let payload = eip191_payload("é".as_bytes());
        assert_eq!(&payload[..26], b"\x19Ethereum Signed Message:\n");
        assert_eq!(&payload[26..], b"2\xc3\xa9");
        assert_eq!(
            hash_message("é"),
            keccak256(b"\x19Ethereum Signed Message:\n2\xc3\xa9")
        );
        assert_ne!(
            hash_message("é"),
            keccak256(b"\x19Ethereum Signed Message:\n1\xc3\xa9")
        );
    }

    #[test]
    fn hex_roundtrip_and_rejects_malformed() {
        assert_eq!(from_hex("0x00ffAb").unwrap(), vec![0, 255, 0xab]);
        assert_eq!(from_hex("0x").unwrap(), Vec::<u8>::new());
        assert_eq!(to_hex(&[0, 255, 0xab]), "0x00ffab");
        for bad in ["", "00", "0x0", "0xgg", "0X00", "0x 0"] {
            assert!(from_hex(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn transaction_hash_is_0x_plus_exactly_64_hex() {
        let h = format!("0x{}", "a".repeat(64));
        assert!(is_transaction_hash(&h));
        assert!(is_transaction_hash(&format!("0x{}", "F0".repeat(32))));
        assert!(!is_transaction_hash(&format!("0x{}", "a".repeat(63))));
        assert!(!is_transaction_hash(&format!("0x{}", "a".repeat(65))));
        assert!(!is_transaction_hash(&"a".repeat(66)));
        assert!(!is_transaction_hash(&format!("0x{}g", "a".repeat(63))));
    }

    #[test]
    fn signed_message_is_0x_plus_at_least_62_hex() {
        assert!(is_signed_message(&format!("0x{}", "a".repeat(62))));
        assert!(is_signed_message(&format!("0x{}", "a".repeat(130))));
        assert!(!is_signed_message(&format!("0x{}", "a".repeat(61))));
        assert!(!is_signed_message(&"a".repeat(64)));
        assert!(!is_signed_message(&format!("0x{}z", "a".repeat(62))));
    }

    proptest! {
        #[test]
        fn hex_checks_never_panic_and_roundtrip(s in ".*", bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = from_hex(&s);
            let _ = is_transaction_hash(&s);
            let _ = is_signed_message(&s);
            prop_assert_eq!(from_hex(&to_hex(&bytes)).unwrap(), bytes);
        }
    }
}
