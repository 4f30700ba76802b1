use super::*;
use crate::chain::family::{Call, SignIn, Verdict};

/// anvil's first account (a well-known test key) signed "hello" with personal_sign.
const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

#[test]
fn a_key_signature_that_recovers_to_the_account_is_valid_and_one_by_another_key_asks_the_chain() {
    // Signed by the dev key 0xac09…ff80 (anvil's first account), message "hello".
    let sig = "0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c";
    assert_eq!(Evm.verify("hello", ADDRESS, sig), Verdict::Valid);
    assert_eq!(Evm.verify("hello", &ADDRESS.to_lowercase(), sig), Verdict::Valid);
    // The same signature over another message recovers to another key: the account may be a contract.
    match Evm.verify("hellO", ADDRESS, sig) {
        Verdict::AskChain(Call::Node(c)) => {
            assert_eq!(c.method, "eth_call");
            let data = c.params[0].get("data").and_then(|d| d.as_str()).unwrap().to_string();
            assert!(data.starts_with("0x1626ba7e"), "{data}");
            // selector, hash, offset 64, length 65, the signature padded to 96 bytes
            assert_eq!(data.len(), 2 + 8 + 64 * 3 + 96 * 2);
            assert_eq!(&data[2 + 8 + 64..2 + 8 + 128], &format!("{:064x}", 64));
            assert_eq!(&data[2 + 8 + 128..2 + 8 + 192], &format!("{:064x}", 65));
            assert_eq!(c.params[0].get("to").and_then(|d| d.as_str()), Some(ADDRESS));
        }
        v => panic!("expected a question to the chain, got {v:?}"),
    }
}

#[test]
fn the_chain_says_valid_only_with_the_selector_in_a_whole_word() {
    let word = |s: &str| crate::service::json::Value::from(s);
    assert!(Evm.chain_says(&word("0x1626ba7e00000000000000000000000000000000000000000000000000000000")));
    assert!(!Evm.chain_says(&word("0xffffffff00000000000000000000000000000000000000000000000000000000")));
    assert!(!Evm.chain_says(&word("0x1626ba7e")));
    assert!(!Evm.chain_says(&word("0x1626ba7e00000000000000000000000000000000000000000000000000000001")));
}

#[test]
fn the_wallet_is_asked_with_personal_sign_of_the_utf8_text_and_its_answer_read_as_hex() {
    let c = Evm.sign_call("hi ✓", ADDRESS);
    assert_eq!(c.method, "personal_sign");
    assert_eq!(c.params[0].as_str(), Some("0x686920e29c93"));
    let sig = format!("0x{}", "Ab".repeat(65));
    assert_eq!(Evm.signature(&sig.as_str().into()), Some(sig.to_lowercase()));
    assert_eq!(Evm.signature(&"0x1234".into()), None);
    assert_eq!(Evm.signature(&format!("0x{}", "zz".repeat(65)).as_str().into()), None);
    assert_eq!(Evm.signature(&format!("0x{}", "ab".repeat(3000)).as_str().into()), None, "bounded");
    assert_eq!(Evm.chain_id("eip155:31337").as_deref(), Some("31337"));
    assert_eq!(Evm.chain_id("solana:31337"), None);
}
