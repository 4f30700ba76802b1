//! The Cosmos family: Bech32 addresses per chain, its wallets' accounts and chains, and ADR-036
//! signatures (vectors made by @cosmjs/amino 0.39 `Secp256k1Wallet.signAmino` of
//! @keplr-wallet/cosmos 0.13 `makeADR36AminoSignDoc`, each checked true by `verifyADR36Amino`).

use super::*;
use crate::json;

const NS: &str = "cosmos";
const HUB: &str = "cosmos16uhkg9shajn0g2lvcjy923uryqgru8wpltl6el";
const OSMO: &str = "osmo16uhkg9shajn0g2lvcjy923uryqgru8wphsv20d";
const KEY: &str = "AtvPn7LOwIviWPF3NqxdIc1E7XwzlLa3qcHVBaeXpd6P";

#[test]
fn an_address_is_its_chains_own() {
    let w = RULES;
    assert_eq!(w.parse_accounts(&json!([HUB])), Some(vec![HUB.to_string()]));
    assert_eq!(w.on_network(vec![HUB.into()], "cosmos:cosmoshub-4"), Some(vec![HUB.to_string()]));
    assert_eq!(w.on_network(vec![HUB.into()], "cosmos:osmosis-1"), None, "a Hub address on Osmosis");
    assert_eq!(w.on_network(vec![OSMO.into()], "cosmos:osmosis-1"), Some(vec![OSMO.to_string()]));
    assert_eq!(w.on_network(vec![OSMO.into()], "cosmos:juno-1"), Some(vec![OSMO.to_string()]), "a chain whose prefix the modal does not know");
    assert!(is_address(HUB, Some("cosmos")) && !is_address(HUB, Some("osmo")));
}

#[test]
fn refuses_malformed_addresses_and_chains() {
    let w = RULES;
    assert_eq!(w.parse_accounts(&json!(["cosmos16uhkg9shajn0g2lvcjy923uryqgru8wpltl6em"])), None, "a checksum error");
    assert_eq!(w.parse_accounts(&json!(["bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"])), None, "a segwit address is no account (its version makes 21 bytes)");
    let hub_bytes = decode_address(HUB).unwrap().1;
    let other = crate::chain::bech32::encode_bytes("juno", &hub_bytes);
    assert_eq!(w.on_network(vec![other], "cosmos:cosmoshub-4"), None, "another chain's prefix");
    assert_eq!(w.parse_accounts(&json!(["cosmos1qqqsyqcyq5rqwzqfsklu5e"])), None, "4 bytes is no account");
    assert_eq!(w.parse_accounts(&json!([])), None);
    assert_eq!(w.parse_chain(&json!("cosmos:cosmoshub-4")), Some("cosmos:cosmoshub-4".into()));
    assert_eq!(w.parse_chain(&json!("cosmos:a b")), None);
    assert_eq!(w.parse_chain(&json!(format!("cosmos:{}", "x".repeat(33)))), None);
}


#[cfg(feature = "crypto")]
mod signatures {
    use super::super::message::{sign_doc, verify, CosmosSignatureError as E};
    use super::*;

    #[test]
    fn the_sign_document_is_keplrs_byte_for_byte() {
        let doc = sign_doc(HUB, "Sign in to wallet-modal ✓ <&>".as_bytes());
        assert_eq!(String::from_utf8(doc).unwrap(), r#"{"account_number":"0","chain_id":"","fee":{"amount":[],"gas":"0"},"memo":"","msgs":[{"type":"sign/MsgSignData","value":{"data":"U2lnbiBpbiB0byB3YWxsZXQtbW9kYWwg4pyTIDwmPg==","signer":"cosmos16uhkg9shajn0g2lvcjy923uryqgru8wpltl6el"}}],"sequence":"0"}"#);
    }

    #[test]
    fn checks_adr036_signatures_on_each_chain() {
        assert_eq!(verify(HUB, b"Hello Cosmos", KEY, "nSmOGosw9oB/zfQgFQFrnhQF6cMdkNoKIl1I/CCJZChmSeKtiNXve2+XwG3y5UWM6Hv50IzPP9LOQcHXJ+pI7w=="), Ok(()));
        assert_eq!(verify(HUB, "Sign in to wallet-modal ✓ <&>".as_bytes(), KEY, "wTRaawKu5nG2+W7gy3/s0F8cvB1a+D1MHJ0hkKNrwJd3ub9BnGoFLf1Tf+j691L5CXZFKSetlXCgg5AqhGKe3g=="), Ok(()));
        assert_eq!(verify(OSMO, b"Hello Cosmos", KEY, "LnlD5wA6Be9osceXiX3GZtsdRsVf5j9oCkSS2aymueIvNeb9nFTjVizin0yYNvW+ZpqR60dC1RxZH3+3apVSUQ=="), Ok(()));
    }

    #[test]
    fn refuses_another_chains_signature_another_key_and_malformed_input() {
        let hub_sig = "nSmOGosw9oB/zfQgFQFrnhQF6cMdkNoKIl1I/CCJZChmSeKtiNXve2+XwG3y5UWM6Hv50IzPP9LOQcHXJ+pI7w==";
        assert_eq!(verify(OSMO, b"Hello Cosmos", KEY, hub_sig), Err(E::Mismatch), "the signer is in the document");
        assert_eq!(verify(HUB, b"Hello Osmosis", KEY, hub_sig), Err(E::Mismatch));
        assert_eq!(verify(HUB, b"Hello Cosmos", "A8BibpD3Jyy5bbFQT+jdA6Fn3YFRzMg0Ey/0fN1b0J7z", hub_sig), Err(E::KeyMismatch));
        assert!(matches!(verify(HUB, b"Hello Cosmos", KEY, "short"), Err(E::Malformed(_))));
        assert!(matches!(verify(HUB, b"Hello Cosmos", "!!", hub_sig), Err(E::Malformed(_))));
        assert_eq!(verify("cosmos1nope", b"x", KEY, hub_sig), Err(E::Address));
        assert_eq!(verify(HUB, &vec![0u8; 70_000], KEY, hub_sig), Err(E::TooLong));
    }
}
