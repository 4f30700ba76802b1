use super::*;
use crate::chain::family::{SignIn, Verdict};
use crate::chain::solana::{DEVNET_REF, LOCALNET_REF, MAINNET_REF};
use ed25519_dalek::{Signer, SigningKey};

fn key() -> (SigningKey, String) {
    let k = SigningKey::from_bytes(&[0x0e; 32]);
    let address = bs58::encode(k.verifying_key().to_bytes()).into_string();
    (k, address)
}

#[test]
fn an_ed25519_signature_of_the_text_by_the_account_is_valid_and_any_other_is_not() {
    let (k, address) = key();
    assert_eq!(address, "oapfTk8FG2np1vSoGANkbijWiQApHZMFAytSdCoass9");
    let sig = bs58::encode(k.sign(b"sign in").to_bytes()).into_string();
    assert_eq!(Siws.verify("sign in", &address, &sig), Verdict::Valid);
    assert_eq!(Siws.verify("sign in!", &address, &sig), Verdict::Invalid);
    let other = bs58::encode(SigningKey::from_bytes(&[7; 32]).sign(b"sign in").to_bytes()).into_string();
    assert_eq!(Siws.verify("sign in", &address, &other), Verdict::Invalid);
    assert_eq!(Siws.verify("sign in", &address, "not base58 0OIl"), Verdict::Invalid);
}

#[test]
fn the_wallet_is_asked_with_solana_sign_message_of_the_base58_text_and_answers_a_base58_signature() {
    let (k, address) = key();
    let c = Siws.sign_call("hi", &address);
    assert_eq!(c.method, "solana_signMessage");
    assert_eq!(c.params[0].get("message").and_then(|m| m.as_str()), Some("8wr"));
    assert_eq!(c.params[0].get("pubkey").and_then(|m| m.as_str()), Some(address.as_str()));
    let sig = bs58::encode(k.sign(b"hi").to_bytes()).into_string();
    let answer = crate::service::json::obj(vec![("signature", sig.as_str().into())]);
    assert_eq!(Siws.signature(&answer), Some(sig));
    assert_eq!(Siws.signature(&crate::service::json::obj(vec![("signature", "abc".into())])), None, "not 64 bytes");
}

#[test]
fn a_chain_id_is_the_networks_caip2_reference_and_a_wallets_own_names_for_it_are_the_same_network() {
    assert_eq!(Siws.chain_id(&format!("solana:{LOCALNET_REF}")).as_deref(), Some(LOCALNET_REF));
    assert!(Siws.same_chain(MAINNET_REF, &format!("solana:{MAINNET_REF}")));
    assert!(Siws.same_chain("mainnet", &format!("solana:{MAINNET_REF}")));
    assert!(Siws.same_chain("solana:devnet", &format!("solana:{DEVNET_REF}")));
    assert!(!Siws.same_chain("devnet", &format!("solana:{MAINNET_REF}")));
    assert!(!Siws.same_chain("eip155:1", "eip155:1"));
}

#[test]
fn a_wallet_that_wrote_the_message_itself_answers_its_text_in_base58() {
    let text = "dapp.test wants you to sign in with your Solana account:";
    let answer = crate::service::json::obj(vec![("signedMessage", bs58::encode(text.as_bytes()).into_string().into())]);
    assert_eq!(Siws.signed_message(&answer).as_deref(), Some(text));
    assert_eq!(Siws.signed_message(&crate::service::json::obj(vec![("signedMessage", "0OIl".into())])), None, "not base58");
    let long = crate::service::json::obj(vec![("signedMessage", "2".repeat(20_000).into())]);
    assert_eq!(Siws.signed_message(&long), None, "bounded before decoding");
}
