//! Address rules of the `./core` utilities: EIP-55 checksums, EVM and Solana address checks, and
//! [`UtilError`], the error every utility returns when it rejects its input.
//!
//! EIP-55: take the 40 lowercase hex digits of the address as ASCII, hash them with Keccak-256, and
//! write a letter in upper case exactly when the hash nibble at the same position is 8 or more.

use crate::chain::error::quoted;
use crate::chain::error::UtilError;
use crate::chain::hash::keccak256;



/// The 40 hex digits of `addr` (with or without `0x`), or `None` when it is not such an address.
fn hex_body(addr: &str) -> Option<&str> {
    let body = addr.strip_prefix("0x").unwrap_or(addr);
    if body.len() == 40 && body.bytes().all(|b| b.is_ascii_hexdigit()) {
        Some(body)
    } else {
        None
    }
}

/// EIP-55 checksum of the 40 hex digits (any case): returns the digits in checksum case, no prefix.
fn checksum_body(body: &str) -> String {
    let lower = body.to_ascii_lowercase();
    let hash = keccak256(lower.as_bytes());
    lower
        .bytes()
        .enumerate()
        .map(|(i, c)| {
            let nibble = if i % 2 == 0 {
                hash[i / 2] >> 4
            } else {
                hash[i / 2] & 0x0f
            };
            if c.is_ascii_alphabetic() && nibble >= 8 {
                c.to_ascii_uppercase() as char
            } else {
                c as char
            }
        })
        .collect()
}

/// EIP-55 checksum of a 40-hex-digit address; `0x` is optional in the input and always present in
/// the output. Anything else is rejected.
pub fn checksum_address(addr: &str) -> Result<String, UtilError> {
    match hex_body(addr) {
        Some(body) => Ok(format!("0x{}", checksum_body(body))),
        None => Err(UtilError(format!(
            "Invalid address {}: expected 40 hex digits with an optional 0x prefix",
            quoted(addr)
        ))),
    }
}

/// Whether `addr` is an EVM address.
///
/// Loose (`strict = false`): 40 hex digits, `0x` optional, any case.
/// Strict (`strict = true`, the wallet layer): `0x` required, and an address in mixed case must carry
/// a valid EIP-55 checksum; all-lowercase and all-uppercase digits pass.
pub fn is_evm_address(addr: &str, strict: bool) -> bool {
    let Some(body) = hex_body(addr) else {
        return false;
    };
    if !strict {
        return true;
    }
    if !addr.starts_with("0x") {
        return false;
    }
    let has_lower = body.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = body.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper {
        checksum_body(body) == body
    } else {
        true
    }
}

/// Longest base58 text of 32 bytes (a Solana public key or address): 58^44 > 2^256.
pub const MAX_BASE58_KEY_LEN: usize = 44;
/// Longest base58 text of 64 bytes (an ed25519 signature): 58^88 > 2^512.
pub const MAX_BASE58_SIGNATURE_LEN: usize = 88;
/// Longest text [`decode_base58`] decodes: the longest thing the utilities read in base58 (a
/// signature). Base58 decoding is quadratic in the length (2.7 s for 100,000 characters in the
/// browser), so the length is checked first.
pub const MAX_BASE58_LEN: usize = MAX_BASE58_SIGNATURE_LEN;

/// Decodes base58 (Bitcoin alphabet, the one Solana uses) of at most [`MAX_BASE58_LEN`] characters.
pub fn decode_base58(s: &str) -> Result<Vec<u8>, UtilError> {
    decode_base58_at_most(s, MAX_BASE58_LEN, "base58 string")
}

/// Decodes base58 of at most `max_len` characters; longer text is refused before decoding, with a
/// message naming `what` and the lengths (not the text itself, which may be huge).
fn decode_base58_at_most(s: &str, max_len: usize, what: &str) -> Result<Vec<u8>, UtilError> {
    if s.len() > max_len {
        return Err(UtilError(format!(
            "Invalid {what}: {} characters, expected at most {max_len} base58 characters",
            s.len()
        )));
    }
    bs58::decode(s)
        .into_vec()
        .map_err(|_| UtilError(format!("Invalid {what} {}", quoted(s))))
}

/// The 32 bytes of a base58 Solana public key (at most [`MAX_BASE58_KEY_LEN`] characters).
pub fn decode_solana_public_key(s: &str) -> Result<[u8; 32], UtilError> {
    let bytes = decode_base58_at_most(s, MAX_BASE58_KEY_LEN, "Solana public key")?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
        UtilError(format!(
            "Invalid Solana public key {}: expected 32 bytes, got {}",
            quoted(s),
            bytes.len()
        ))
    })
}

/// Encodes bytes as base58 (Bitcoin alphabet).
pub fn encode_base58(bytes: &[u8]) -> String {
    bs58::encode(bytes).into_string()
}

/// Whether `addr` is a Solana address: 32 to 44 base58 characters decoding to exactly 32 bytes.
pub fn is_solana_address(addr: &str) -> bool {
    (32..=MAX_BASE58_KEY_LEN).contains(&addr.len()) && decode_solana_public_key(addr).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Vectors from the EIP-55 specification's test cases.
    const EIP55_VECTORS: [&str; 8] = [
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77",
        "0x27b1fdb04752bbc536007a920d24acb045561c26",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ];

    #[test]
    fn eip55_checksum_matches_spec_vectors() {
        for v in EIP55_VECTORS {
            assert_eq!(checksum_address(&v.to_ascii_lowercase()).unwrap(), v);
            assert_eq!(checksum_address(&v[2..].to_ascii_uppercase()).unwrap(), v);
        }
    }

    #[test]
    fn eip55_checksum_adds_0x_prefix_when_input_has_none() {
        assert_eq!(
            checksum_address("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").unwrap(),
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        );
    }

    #[test]
    fn eip55_checksum_rejects_anything_but_40_hex_digits() {
        for bad in [
            "",
            "0x",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",
            "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
            " 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0x0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA",
        ] {
            assert!(checksum_address(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn evm_address_loose_accepts_40_hex_with_optional_prefix_any_case() {
        assert!(is_evm_address(
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            false
        ));
        assert!(is_evm_address(
            "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            false
        ));
        // A wrong checksum is fine in loose mode.
        assert!(is_evm_address(
            "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            false
        ));
        assert!(!is_evm_address(
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae",
            false
        ));
        assert!(!is_evm_address(
            "0xzaaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            false
        ));
        assert!(!is_evm_address("", false));
    }

    #[test]
    fn evm_address_strict_requires_prefix_and_valid_mixed_case_checksum() {
        for v in EIP55_VECTORS {
            assert!(is_evm_address(v, true));
            assert!(is_evm_address(&v.to_ascii_lowercase(), true));
            assert!(is_evm_address(
                &format!("0x{}", v[2..].to_ascii_uppercase()),
                true
            ));
            assert!(!is_evm_address(&v[2..], true), "prefix required");
        }
        assert!(!is_evm_address(
            "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            true
        ));
        assert!(!is_evm_address(
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
            true
        ));
    }

    #[test]
    fn solana_address_is_32_to_44_base58_chars_decoding_to_32_bytes() {
        assert!(is_solana_address("11111111111111111111111111111111"));
        assert!(is_solana_address(
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
        ));
        assert!(is_solana_address(
            "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp7Fk8bGXzWj2m"
        ));
        // Invalid alphabet (0, O, I, l), wrong lengths, wrong decoded size.
        assert!(!is_solana_address(
            "0okenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
        ));
        assert!(!is_solana_address(
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5Dl"
        ));
        assert!(!is_solana_address("1111111111111111111111111111111"));
        assert!(!is_solana_address(
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
        ));
        assert!(!is_solana_address("2222222222222222222222222222222222"));
        assert!(!is_solana_address(""));
    }

    #[test]
    fn base58_roundtrips() {
        let bytes = [0u8, 0, 1, 2, 255, 17];
        assert_eq!(decode_base58(&encode_base58(&bytes)).unwrap(), bytes);
        assert!(decode_base58("0").is_err());
    }

    proptest! {
        #[test]
        fn address_parsers_never_panic_on_arbitrary_strings(s in ".*") {
            let _ = checksum_address(&s);
            let _ = is_evm_address(&s, true);
            let _ = is_evm_address(&s, false);
            let _ = is_solana_address(&s);
            let _ = decode_base58(&s);
        }

        #[test]
        fn eip55_checksum_is_idempotent_and_strict_valid(bytes in proptest::array::uniform20(any::<u8>())) {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let sum = checksum_address(&hex).unwrap();
            prop_assert_eq!(sum.to_ascii_lowercase(), format!("0x{hex}"));
            prop_assert_eq!(checksum_address(&sum).unwrap(), sum.clone());
            prop_assert!(is_evm_address(&sum, true));
        }

        #[test]
        fn solana_address_accepts_every_32_byte_key(bytes in proptest::array::uniform32(any::<u8>())) {
            prop_assert!(is_solana_address(&encode_base58(&bytes)));
        }
    }
}
