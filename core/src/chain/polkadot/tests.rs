//! The Polkadot family: SS58 addresses, its extensions' accounts and networks, and message
//! signatures (vectors made by @polkadot/keyring 14.0.3: `//Alice` sr25519, `//Bob` ed25519, over
//! `u8aWrapBytes`, each checked true by `signatureVerify`).

use super::ss58::{decode, encode, is_address};
use super::*;
use crate::json;

const NS: &str = "polkadot";
const ALICE: &str = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const ALICE_DOT: &str = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const ALICE_KSM: &str = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
const ALICE_KEY: &str = "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const BOB_ED: &str = "5GoNkf6WdbxCFnPdAnYYQyCjAKPJgLNxXwPjwTh6DGg6gN3E";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn reads_and_writes_ss58_with_each_networks_prefix() {
    let (prefix, id) = decode(ALICE).unwrap();
    assert_eq!((prefix, hex(&id)), (42, ALICE_KEY.to_string()));
    assert_eq!(encode(0, &id), ALICE_DOT);
    assert_eq!(encode(2, &id), ALICE_KSM);
    assert_eq!(encode(42, &id), ALICE);
    assert_eq!(decode(ALICE_DOT).unwrap().0, 0);
    let two_byte = encode(1284, &id);
    assert_eq!(decode(&two_byte), Ok((1284, id)), "a two-byte prefix (Moonbeam's 1284) round-trips");
}

#[test]
fn refuses_malformed_addresses_with_the_reason() {
    let mut bad = ALICE.to_string();
    bad.replace_range(10..11, if &ALICE[10..11] == "z" { "y" } else { "z" });
    assert_eq!(decode(&bad), Err("Not a valid Polkadot address (its checksum is wrong)"));
    assert!(decode("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQ0").is_err(), "0 is not Base58");
    assert!(decode("FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc").is_err(), "a Solana key is too short");
    assert!(!is_address(&"1".repeat(51)));
    assert!(!is_address("bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"));
}

#[test]
fn an_extensions_accounts_are_shown_with_the_networks_prefix() {
    let w = RULES;
    let accounts = w.parse_accounts(&json!([ALICE, BOB_ED])).unwrap();
    let dot = format!("polkadot:{POLKADOT_REF}");
    let ksm = format!("polkadot:{KUSAMA_REF}");
    assert_eq!(w.on_network(accounts.clone(), &dot).unwrap()[0], ALICE_DOT);
    assert_eq!(w.on_network(accounts.clone(), &ksm).unwrap()[0], ALICE_KSM);
    assert_eq!(w.on_network(vec![ALICE.into(), ALICE_DOT.into()], &dot).unwrap(), vec![ALICE_DOT.to_string()], "one account once");
    assert_eq!(w.parse_accounts(&json!([ALICE, "nope"])), None);
    assert_eq!(w.parse_accounts(&json!([])), None);
    assert_eq!(w.parse_accounts(&json!(vec![ALICE; 33])), None);
    assert_eq!(w.parse_chain(&json!(dot)), Some(dot.clone()));
    assert_eq!(w.parse_chain(&json!("polkadot:XYZ")), None);
    assert_eq!(prefix_of("polkadot:ffffffffffffffffffffffffffffffff"), 42, "an unknown network: the generic prefix");
}

#[cfg(feature = "crypto")]
mod signatures {
    use super::super::message::{verify, wrap, PolkadotSignatureError as E};
    use super::*;

    #[test]
    fn checks_sr25519_and_ed25519_signatures_over_the_wrapped_message() {
        let sr = "0x307b3fbd91f760287ed3a8ccdc97bc0c8efd1661456df44524bed4b9a7d56b00e10e931fd8024d469de83e225f171ac129b7ca5563117dc67461beb751266a86";
        assert_eq!(verify(ALICE, b"Hello Polkadot", sr), Ok(()));
        assert_eq!(verify(ALICE_DOT, b"Hello Polkadot", sr), Ok(()), "the same account on Polkadot");
        let uni = "0x24124160d06cfd53175503f7f1b723f38c47ba31117ed824e5a5f0245a3dd100b99ad78b42f6a5b782ae4260356eb75cf44b80b604d6837dfc24978537cf0385";
        assert_eq!(verify(ALICE, "Sign in to wallet-modal ✓".as_bytes(), uni), Ok(()));
        let ed = "0x6f58a257b981a1ff6d294f1315406f2735eda00b597a69ea27c67dd4555a4e2d8b63774f0c1ed9884ab06c12ddfb9ddfad505bd081b2bf2ef49d198baee81c06";
        assert_eq!(verify(BOB_ED, b"Hello Polkadot", ed), Ok(()));
        assert_eq!(wrap(b"<Bytes>x</Bytes>"), b"<Bytes>x</Bytes>".to_vec(), "not wrapped twice");
    }

    #[test]
    fn refuses_another_message_another_account_and_malformed_signatures() {
        let sr = "0x307b3fbd91f760287ed3a8ccdc97bc0c8efd1661456df44524bed4b9a7d56b00e10e931fd8024d469de83e225f171ac129b7ca5563117dc67461beb751266a86";
        assert_eq!(verify(ALICE, b"Hello Kusama", sr), Err(E::Mismatch));
        assert_eq!(verify(BOB_ED, b"Hello Polkadot", sr), Err(E::Mismatch));
        assert_eq!(verify(ALICE, b"Hello Polkadot", "0x1234"), Err(E::Malformed));
        assert_eq!(verify(ALICE, b"Hello Polkadot", &format!("0x{}", "zz".repeat(64))), Err(E::Malformed));
        assert_eq!(verify(ALICE, &vec![0u8; 70_000], sr), Err(E::TooLong));
        assert!(matches!(verify("nope", b"x", sr), Err(E::Address(_))));
    }
}
