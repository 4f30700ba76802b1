//! Every base58 / base64 / hex decoder checks the length of its input before decoding it: base58
//! decoding is quadratic in the length (`verifySolanaMessage` took 2.7 s for a 100,000-character
//! public key, over 20 s for 400 KB), and nothing the decoders read is longer than a few hundred
//! characters. Over-long input is refused with the decoder's typed error naming the lengths.

use std::time::{Duration, Instant};
use wm_core::chain::error::UtilError;
use wm_core::chain::address::{
    decode_base58, decode_solana_public_key, encode_base58, is_solana_address, MAX_BASE58_KEY_LEN,
    MAX_BASE58_LEN, MAX_BASE58_SIGNATURE_LEN,
};

/// Generous for a length check, even in a debug build on a busy machine; decoding 100,000
/// characters of base58 takes seconds.
const QUICK: Duration = Duration::from_millis(100);

/// `f`'s result and how long it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

#[test]
fn base58_length_limits_are_the_longest_encodings_of_32_and_64_bytes() {
    assert_eq!(encode_base58(&[0xff; 32]).len(), MAX_BASE58_KEY_LEN);
    assert_eq!(encode_base58(&[0xff; 64]).len(), MAX_BASE58_SIGNATURE_LEN);
    assert_eq!(MAX_BASE58_LEN, MAX_BASE58_SIGNATURE_LEN);
}

#[test]
fn decode_base58_decodes_88_characters_and_refuses_89_before_decoding() {
    let longest = encode_base58(&[0xff; 64]);
    assert_eq!(decode_base58(&longest).unwrap(), vec![0xff; 64]);
    assert_eq!(
        decode_base58(&format!("{longest}z")),
        Err(UtilError::new("Invalid base58 string: 89 characters, expected at most 88 base58 characters"))
    );
    assert_eq!(decode_base58("0"), Err(UtilError::new("Invalid base58 string \"0\"")));
}

#[test]
fn decode_base58_refuses_400_kb_quickly() {
    let (result, elapsed) = timed(|| decode_base58(&"z".repeat(400_000)));
    assert_eq!(
        result,
        Err(UtilError::new("Invalid base58 string: 400000 characters, expected at most 88 base58 characters"))
    );
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[test]
fn decode_solana_public_key_decodes_44_characters_and_refuses_45() {
    let longest = encode_base58(&[0xff; 32]);
    assert_eq!(decode_solana_public_key(&longest), Ok([0xff; 32]));
    assert_eq!(decode_solana_public_key(&"1".repeat(32)), Ok([0; 32]));
    assert_eq!(
        decode_solana_public_key(&format!("{longest}1")),
        Err(UtilError::new("Invalid Solana public key: 45 characters, expected at most 44 base58 characters"))
    );
}

#[test]
fn decode_solana_public_key_names_the_decoded_size_and_bad_characters() {
    assert_eq!(
        decode_solana_public_key(&encode_base58(&[1; 31])),
        Err(UtilError::new(format!("Invalid Solana public key \"{}\": expected 32 bytes, got 31", encode_base58(&[1; 31]))))
    );
    assert_eq!(decode_solana_public_key("0OIl"), Err(UtilError::new("Invalid Solana public key \"0OIl\"")));
}

#[test]
fn is_solana_address_refuses_a_100000_char_address_quickly() {
    let (valid, elapsed) = timed(|| is_solana_address(&"z".repeat(100_000)));
    assert!(!valid);
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[cfg(feature = "crypto")]
mod crypto {
    use super::*;
    use wm_core::chain::signature::{check_solana_message, parse_evm_signature, recover_message_address, verify_message, verify_solana_message};

    const SIGNATURE: [u8; 64] = [7; 64];
    const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    #[test]
    fn verify_solana_message_rejects_a_100000_char_public_key_quickly() {
        let key = "z".repeat(100_000);
        let (result, elapsed) = timed(|| check_solana_message(&key, b"hello", &SIGNATURE));
        assert_eq!(
            result,
            Err(UtilError::new("Invalid Solana public key: 100000 characters, expected at most 44 base58 characters"))
        );
        assert!(elapsed < QUICK, "{elapsed:?}");
        let (valid, elapsed) = timed(|| verify_solana_message(&key, b"hello", &SIGNATURE));
        assert!(!valid);
        assert!(elapsed < QUICK, "{elapsed:?}");
    }

    #[test]
    fn verify_solana_message_rejects_a_400_kb_public_key_quickly() {
        let (valid, elapsed) = timed(|| verify_solana_message(&"2".repeat(400_000), b"hello", &SIGNATURE));
        assert!(!valid);
        assert!(elapsed < QUICK, "{elapsed:?}");
    }

    #[test]
    fn check_solana_message_gives_the_reason_of_each_refusal() {
        assert_eq!(
            check_solana_message(&"1".repeat(32), b"m", &SIGNATURE[..63]),
            Err(UtilError::new("Invalid Solana signature: expected 64 bytes, got 63"))
        );
        // y = 2 has no x on the curve: these bytes are not the encoding of an ed25519 point.
        let mut y_2 = [0u8; 32];
        y_2[0] = 2;
        let key = encode_base58(&y_2);
        assert_eq!(
            check_solana_message(&key, b"m", &SIGNATURE),
            Err(UtilError::new(format!("Invalid Solana public key \"{key}\": not an ed25519 point")))
        );
        assert_eq!(
            check_solana_message(&"1".repeat(32), b"m", &SIGNATURE),
            Err(UtilError::new("Invalid Solana signature: it does not verify for this key and message"))
        );
    }

    #[test]
    fn parse_evm_signature_refuses_more_than_132_characters_before_decoding() {
        let too_long = format!("0x{}", "ab".repeat(66));
        assert_eq!(
            parse_evm_signature(&too_long).unwrap_err(),
            UtilError::new("Invalid signature: 134 characters, expected 0x + 130 hex digits")
        );
        // At the limit, the existing checks answer as before.
        let v_29 = format!("0x{}1d", "11".repeat(64));
        assert_eq!(parse_evm_signature(&v_29).unwrap_err(), UtilError::new("Invalid signature: v must be 27, 28, 0 or 1, got 29"));
    }

    #[test]
    fn recover_message_address_rejects_a_400_kb_signature_quickly_with_a_short_message() {
        let sig = format!("0x{}", "ab".repeat(200_000));
        let (result, elapsed) = timed(|| recover_message_address("hello", &sig));
        assert_eq!(result, Err(UtilError::new("Invalid signature: 400002 characters, expected 0x + 130 hex digits")));
        assert!(elapsed < QUICK, "{elapsed:?}");
        assert!(!verify_message(ADDRESS, "hello", &sig));
    }
}

#[cfg(feature = "walletconnect")]
mod walletconnect {
    use super::*;
    use wm_core::connect::wc::auth::{did_key_decode, did_key_encode, verify_jwt, MAX_JWT_LEN};
    use wm_core::connect::wc::crypto::{Envelope, MAX_ENVELOPE_LEN};
    use wm_core::connect::wc::pairing::{PairingUri, MAX_URI_LEN};
    use wm_core::connect::wc::{hex_decode_array, Error};

    #[test]
    fn hex_decode_array_accepts_exactly_2n_digits_and_refuses_longer_text_quickly() {
        assert_eq!(hex_decode_array::<2>("aBcd"), Ok([0xab, 0xcd]));
        assert_eq!(hex_decode_array::<2>("abcde"), Err(Error::InvalidHex("wrong length")));
        assert_eq!(hex_decode_array::<2>("abcdef"), Err(Error::InvalidHex("wrong length")));
        let (result, elapsed) = timed(|| hex_decode_array::<32>(&"a".repeat(400_000)));
        assert_eq!(result, Err(Error::InvalidHex("wrong length")));
        assert!(elapsed < QUICK, "{elapsed:?}");
    }

    #[test]
    fn did_key_decode_refuses_an_over_long_key_before_decoding() {
        let did = did_key_encode(&[0xff; 32]);
        assert_eq!(did_key_decode(&did), Ok([0xff; 32]));
        let (result, elapsed) = timed(|| did_key_decode(&format!("{did}{}", "z".repeat(100_000))));
        assert_eq!(result, Err(Error::InvalidJwt("did:key too long")));
        assert!(elapsed < QUICK, "{elapsed:?}");
    }

    #[test]
    fn verify_jwt_refuses_a_token_over_max_jwt_len_before_decoding() {
        let token = format!("{}.{}.{}", "e".repeat(MAX_JWT_LEN), "e", "e");
        assert_eq!(verify_jwt(&token, 0, None), Err(Error::InvalidJwt("too long")));
    }

    #[test]
    fn envelope_decode_refuses_text_over_max_envelope_len_before_decoding() {
        let text = "A".repeat(MAX_ENVELOPE_LEN + 4);
        assert_eq!(Envelope::decode(&text), Err(Error::InvalidEnvelope("too long")));
    }

    #[test]
    fn pairing_uri_parse_refuses_a_uri_over_max_uri_len_before_decoding() {
        let uri = format!("wc:{}@2?symKey={}&relay-protocol=irn", "a".repeat(64), "b".repeat(MAX_URI_LEN));
        assert_eq!(PairingUri::parse(&uri).map(|_| ()), Err(Error::InvalidUri("too long")));
    }
}
