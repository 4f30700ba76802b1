//! The Bitcoin family: addresses, its wallets' accounts and networks, and message signatures
//! (vectors made by bip322-js 3.0.0 and bitcoinjs-message 2.2.0 with the BIP-322 spec's key,
//! L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k; and the BIP's own).

use super::address::{is_address, parse, Net, Payee};
use super::*;
use crate::chain::family;
use crate::json;

const NS: &str = "bip122";
const WPKH: &str = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";
const WPKH_TEST: &str = "tb1q9vza2e8x573nczrlzms0wvx3gsqjx7vaxwd45v";
const WPKH_REGTEST: &str = "bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vay85cr9";
const TR: &str = "bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3";
const SH_WPKH: &str = "37qyp7jQAzqb2rCBpMvVtLDuuzKAUCVnJb";
const PKH: &str = "14vV3aCHBeStb5bkenkNHbe2YAFinYdXgc";
const PKH_TEST: &str = "mjSSLdHFzft9NC5NNMik7WrMQ9rRhMhNpT";

fn main() -> String {
    format!("bip122:{MAINNET_REF}")
}
fn test() -> String {
    format!("bip122:{TESTNET_REF}")
}

#[test]
fn reads_every_address_form_with_its_network_and_script() {
    let a = parse(WPKH).unwrap();
    assert_eq!(a.net, Net::Main);
    assert_eq!(a.script()[..2], [0x00, 0x14]);
    assert_eq!(parse(&WPKH.to_uppercase()).unwrap(), a, "an upper-case Bech32 address is the same");
    assert_eq!(parse(WPKH_TEST).unwrap().net, Net::Test);
    assert_eq!(parse(WPKH_REGTEST).unwrap().net, Net::Regtest);
    assert!(matches!(parse(TR).unwrap().payee, Payee::Witness { version: 1, ref program } if program.len() == 32));
    assert_eq!(parse(TR).unwrap().script()[..2], [0x51, 0x20]);
    assert!(matches!(parse(SH_WPKH).unwrap().payee, Payee::P2sh(_)));
    assert!(matches!(parse(PKH).unwrap().payee, Payee::P2pkh(_)));
    assert_eq!(parse(PKH_TEST).unwrap().net, Net::Test);
    assert!(parse(PKH_TEST).unwrap().on(Net::Regtest), "testnet's Base58 forms are regtest's too");
    assert!(!parse(WPKH_TEST).unwrap().on(Net::Regtest), "but tb1 is not bcrt1");
}

#[test]
fn refuses_malformed_addresses_with_the_reason() {
    let bad_checksum = format!("{}m", &WPKH[..WPKH.len() - 1]);
    assert_eq!(parse(&bad_checksum), Err("Not a valid Bech32 address (its checksum or characters are wrong)"));
    // A v1 program written with Bech32 (not Bech32m): BIP-350's invalid vector.
    assert!(parse("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd").is_err());
    assert!(parse("bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vaVgkx0l").is_err(), "mixed case");
    assert!(parse("15vV3aCHBeStb5bkenkNHbe2YAFinYdXgc").is_err(), "a Base58 checksum error");
    assert!(parse("0x9vza2e8x573nczrlzms0wvx3gsqjx7va").is_err());
    assert!(parse(&"b".repeat(91)).is_err(), "longer than 90");
    assert!(parse("").is_err());
    assert!(!is_address("FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc"), "a Solana key is not one");
    assert!(!is_address("cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu"), "nor a Cosmos address");
}

#[test]
fn a_wallets_addresses_come_payment_first_and_must_be_bitcoin_addresses() {
    let w = RULES;
    let v = json!([{"address": TR, "purpose": "ordinals"}, {"address": WPKH, "purpose": "payment"}]);
    assert_eq!(w.parse_accounts(&v), Some(vec![WPKH.to_string(), TR.to_string()]), "the payment address is shown");
    assert_eq!(w.parse_accounts(&json!([WPKH, WPKH])), Some(vec![WPKH.to_string()]), "once each");
    assert_eq!(w.parse_accounts(&json!([WPKH, "0xnope"])), None);
    assert_eq!(w.parse_accounts(&json!([])), None);
    assert_eq!(w.parse_accounts(&json!(vec![WPKH; 9])), None, "at most 8");
}

#[test]
fn an_address_of_another_network_does_not_connect() {
    let w = RULES;
    assert_eq!(w.on_network(vec![WPKH.into()], &main()), Some(vec![WPKH.to_string()]));
    assert_eq!(w.on_network(vec![WPKH_TEST.into()], &main()), None, "a testnet address on mainnet");
    assert_eq!(w.on_network(vec![WPKH.into()], &test()), None, "a mainnet address on testnet");
    assert_eq!(w.on_network(vec![WPKH_REGTEST.into()], &format!("bip122:{LOCAL_REF}")), Some(vec![WPKH_REGTEST.to_string()]));
}

#[test]
fn reads_networks_as_wallets_name_them() {
    let w = RULES;
    assert_eq!(w.parse_chain(&json!("Mainnet")), Some(main()));
    assert_eq!(w.parse_chain(&json!("bitcoin:testnet")), Some(test()));
    assert_eq!(w.parse_chain(&json!("Regtest")), Some(format!("bip122:{REGTEST_REF}")));
    assert_eq!(w.parse_chain(&json!(format!("bip122:{LOCAL_REF}"))), Some(format!("bip122:{LOCAL_REF}")));
    assert_eq!(w.parse_chain(&json!("bip122:XYZ")), None);
    assert_eq!(w.parse_chain(&json!("Dogecoin")), None);
    assert_eq!(w.parse_chain(&json!(1)), None);
}

#[test]
fn a_network_has_the_name_wallets_give_it() {
    assert_eq!(wallet::network_name(&test()), Some("testnet"));
    assert_eq!(wallet::network_name(&main()), Some("mainnet"));
    assert_eq!(wallet::network_name(&format!("bip122:{LOCAL_REF}")), None, "the local chain has none");
    assert_eq!(wallet::sats_network_name(&test()).as_deref(), Some("Testnet"), "as sats-connect's wallet_changeNetwork takes it");
    assert_eq!(wallet::sats_network_name(&format!("bip122:{TESTNET4_REF}")).as_deref(), Some("Testnet4"));
    assert_eq!(wallet::sats_network_name(&format!("bip122:{LOCAL_REF}")).as_deref(), Some("Regtest"), "the local regtest chain is a wallet's Regtest");
    assert_eq!(wallet::sats_network_name("bip122:00000000000000000000000000000000"), None);
}

#[test]
fn the_engine_links_only_the_shape_check_and_the_shell_applies_the_rules() {
    let engine = family::wallet(NS).unwrap();
    assert_eq!(engine.parse_accounts(&json!([WPKH])), Some(vec![WPKH.to_string()]));
    assert_eq!(engine.parse_accounts(&json!(["x".repeat(129)])), None, "longer than any address");
    assert_eq!(engine.parse_accounts(&json!([""])), None);
    assert_eq!(engine.parse_chain(&json!(main())), Some(main()));
    assert_eq!(engine.parse_chain(&json!("solana:abc")), None, "another namespace's chain");
    assert_eq!(engine.accounts_call(true).method, "standard:connect");
    assert_eq!(engine.accounts_call(true).params, json!([true]), "silent: reconnecting");
    assert_eq!(engine.revoke_call().unwrap().method, "standard:disconnect");
}

#[cfg(feature = "crypto")]
mod signatures {
    use super::super::message::{message_hash, verify, BitcoinSignatureError as E};
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn the_message_hash_is_the_bips() {
        assert_eq!(hex(&message_hash(b"")), "c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1");
        assert_eq!(hex(&message_hash(b"Hello World")), "f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a");
    }

    #[test]
    fn checks_bip322_simple_signatures_of_segwit_nested_segwit_and_taproot() {
        let cases = [
            (WPKH, "", "AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy"),
            (WPKH, "Hello World", "AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy"),
            (WPKH, "Sign in to wallet-modal ✓", "AkgwRQIhANYi0V+EqGffAjXZbbaFRfZhv5p1LWeVAlHVfgDni+5oAiBSOxW7wVGMVeiL5dvr4Ow4/YEagpAj4n5IyoSmK0CnngEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy"),
            // BIP-322's own vectors.
            (WPKH, "", "AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI="),
            (WPKH, "Hello World", "AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI="),
            (TR, "", "AUE9bWcWgAHb3QAihmJIWUFs1BSrpvvNUPJ7AlIHjDUXTqVLINWgI/ud26U+ySh5ezlt1bN1q3gdxrCrLp5yUYyaAQ=="),
            (TR, "Hello World", "AUF0a/6nYs9gtXm2S9wwkdlMnne5o/7aSxOlAmqhZndKeVf8oWQXAx1YJ3CLwEkgarnHMHEp4DSuNCVroPl+4G9GAQ=="),
            (TR, "Sign in to wallet-modal ✓", "AUGJEY337uE4pGux3ugBxf1etWULt4XO9J53DZzlJ0snv98gmITTxsYCAos4Ph8J/RtnBHvaGMmCd5i90HAqnYN4AQ=="),
            (SH_WPKH, "Hello World", "AkcwRAIgRfq2Gfv9guFcXAf2vQEJSHX8FP5OuiHs1DSK1I0wk/0CIGPzqm6QNPTDJuki148OQ2DbJtXyrr71s4xYPwogQUupASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI="),
        ];
        for (address, message, sig) in cases {
            assert_eq!(verify(address, message.as_bytes(), sig), Ok(()), "{address} {message:?}");
        }
    }

    #[test]
    fn checks_legacy_signatures_for_p2pkh_and_segwit_addresses() {
        let legacy = "IOW2xi+ebJLeBtr674l4QH76dqDoVjLV80R9EFKFQX5rBrlCXPIZaYs8Yuayg0ZqjyiCbLy9pzZIS7JWT65/nsU=";
        let electrum = "KOW2xi+ebJLeBtr674l4QH76dqDoVjLV80R9EFKFQX5rBrlCXPIZaYs8Yuayg0ZqjyiCbLy9pzZIS7JWT65/nsU=";
        assert_eq!(verify(PKH, b"Hello World", legacy), Ok(()));
        assert_eq!(verify(WPKH, b"Hello World", electrum), Ok(()));
        assert_eq!(verify(WPKH, b"Hello World", legacy), Ok(()), "the compressed key pays the segwit address whatever the header");
        assert_eq!(verify(PKH, b"Hello world", legacy), Err(E::Mismatch), "another message");
        assert_eq!(verify(TR, b"Hello World", legacy), Err(E::Unsupported("a legacy signature for a taproot address")));
    }

    #[test]
    fn refuses_another_message_another_address_and_malformed_signatures() {
        let sig = "AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy";
        assert_eq!(verify(WPKH, b"Hello World!", sig), Err(E::Mismatch));
        assert_eq!(verify("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", b"Hello World", sig), Err(E::Mismatch), "another key's address");
        let tr = "AUF0a/6nYs9gtXm2S9wwkdlMnne5o/7aSxOlAmqhZndKeVf8oWQXAx1YJ3CLwEkgarnHMHEp4DSuNCVroPl+4G9GAQ==";
        assert_eq!(verify(TR, b"Hello World!", tr), Err(E::Mismatch));
        assert!(matches!(verify(WPKH, b"x", "not base64!"), Err(E::Malformed(_))));
        assert!(matches!(verify(WPKH, b"x", "AA=="), Err(E::Malformed(_))), "an empty witness");
        assert!(matches!(verify(WPKH, b"x", "Af8="), Err(E::Malformed(_))), "an item too long");
        assert_eq!(verify(WPKH, b"x", &"A".repeat(2000)), Err(E::TooLong));
        assert_eq!(verify(WPKH, &vec![b'a'; 70_000], sig), Err(E::TooLong));
        assert!(matches!(verify("bc1nope", b"x", sig), Err(E::Address(_))));
    }
}

/// The demo wallet's regtest payment address (script 0014 6ffb…7f8b) and one 50 BTC output of it.
const DEMO_REGTEST: &str = "bcrt1qdlanrh4nqzh4vhmv6ywmvfnmkrhdclutn34t0y";
const COINBASE: &str = "dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302";

fn utxo_answer() -> crate::service::json::Value {
    json!([{"txid": COINBASE, "vout": 0, "value": 5_000_000_000u64, "status": {"confirmed": true}}, {"txid": COINBASE, "vout": 1, "value": 20_000u64, "status": {"confirmed": false}}])
}

#[test]
fn a_transfer_reads_the_payers_outputs_and_the_fee_rate_and_the_wallet_signs_its_psbt() {
    let t = family::transfers(NS).unwrap();
    let tx = t.transfer(DEMO_REGTEST, WPKH_REGTEST, None, "1000000").unwrap();
    let paths: Vec<String> = t.fee_calls(&tx).into_iter().map(|c| match c {
        family::Call::Rest(r) if r.body.is_none() => r.path,
        other => panic!("Bitcoin's chain is read with REST GETs, not {other:?}"),
    }).collect();
    assert_eq!(paths, [format!("/address/{DEMO_REGTEST}/utxo"), "/fee-estimates".to_string()]);
    let answers = [utxo_answer(), json!({"1": 20.5, "2": 10.2, "6": 3.0, "144": 1.0})];
    // One P2WPKH input, two P2WPKH outputs (141 vB) at the two-block target's 10.2 sat/vB.
    assert_eq!(t.fee(&tx, &answers).as_deref(), Some("1439"));
    let done = t.finish(tx.clone(), &answers).unwrap();
    assert_eq!(done["account"], DEMO_REGTEST);
    assert_eq!(done["broadcast"], false);
    assert_eq!(done["signInputs"], json!([{"address": DEMO_REGTEST, "index": 0}]), "the largest output alone pays");
    let psbt = crate::chain::base64::from_base64(done["psbt"].as_str().unwrap(), 10_000).unwrap();
    let payer = parse(DEMO_REGTEST).unwrap().script();
    assert_eq!(psbt::psbt_outputs(&psbt).unwrap(), vec![(parse(WPKH_REGTEST).unwrap().script(), 1_000_000), (payer, 5_000_000_000 - 1_000_000 - 1439)], "change back to the payer");
    // Fee rates below one sat/vB are paid at one; an API with no known target has no rate.
    assert_eq!(t.fee(&tx, &[utxo_answer(), json!({"2": 0.4})]).as_deref(), Some("141"));
    assert_eq!(t.fee(&tx, &[utxo_answer(), json!({"25": 4.0})]), None);
}

#[test]
fn a_transfer_that_cannot_be_made_says_why() {
    let t = family::transfers(NS).unwrap();
    assert!(t.check_receiver("bcrt1qnotanaddress").unwrap_err().starts_with("The receiver address is not a Bitcoin address"));
    let e = |r: Result<crate::service::json::Value, crate::service::errors::WmError>| r.unwrap_err().message();
    assert_eq!(e(t.transfer(DEMO_REGTEST, WPKH, None, "1000")), "The receiver's address is for another Bitcoin network than yours");
    assert_eq!(e(t.transfer(DEMO_REGTEST, WPKH_REGTEST, Some("bip122:x:rune"), "1000")), "Bitcoin transfers move BTC only");
    assert!(e(t.transfer(PKH, WPKH, None, "1000")).contains("native segwit"), "a legacy payer");
    let tx = t.transfer(DEMO_REGTEST, WPKH_REGTEST, None, "1000000").unwrap();
    let rate = json!({"2": 1.0});
    assert_eq!(t.finish(tx.clone(), &[json!({"error": "x"}), rate.clone()]).unwrap_err(), "The network did not list the outputs your address holds: try again");
    assert_eq!(t.finish(tx.clone(), &[json!([{"txid": "zz", "vout": 0, "value": 1}]), rate.clone()]).unwrap_err(), "The network did not list the outputs your address holds: try again", "one bad output spoils the list");
    assert_eq!(t.finish(tx.clone(), &[utxo_answer(), crate::service::json::Value::Null]).unwrap_err(), "The network did not give a fee rate: try again");
    let poor = json!([{"txid": COINBASE, "vout": 0, "value": 1_000_100u64}]);
    assert_eq!(t.finish(tx.clone(), &[poor.clone(), rate.clone()]).unwrap_err(), "Insufficient balance to pay the amount and the network fee");
    assert_eq!(t.fee(&tx, &[poor, rate]), None);
    let dust = t.transfer(DEMO_REGTEST, WPKH_REGTEST, None, "100").unwrap();
    assert!(t.finish(dust, &[utxo_answer(), json!({"2": 1.0})]).unwrap_err().contains("dust"));
}

#[test]
fn the_signed_psbt_is_broadcast_through_the_api_and_followed_to_its_block() {
    use crate::chain::base64::to_base64;
    let x = family::transactions(NS).unwrap();
    let unhex = |s: &str| (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect::<Vec<u8>>();
    let approved = json!({"psbt": to_base64(&unhex(psbt::tests::SCURE)), "account": DEMO_REGTEST, "broadcast": false});
    let call = x.send_call(approved.clone());
    assert_eq!((call.method, &call.params), ("signPsbt", &approved), "WalletConnect's signPsbt request");
    let signed = json!({"psbt": to_base64(&unhex(psbt::tests::SCURE_SIGNED))});
    let Ok(Some(family::Call::Rest(post))) = x.relay(&approved, &signed) else { panic!("broadcast through the API") };
    assert_eq!((post.path.as_str(), post.body.as_deref()), ("/tx", Some(psbt::tests::SCURE_RAW)));
    // What the wallet signed must be what the visitor approved.
    let other = json!({"psbt": to_base64(&unhex(&psbt::tests::SCURE.replace("40420f00", "80841e00")))});
    assert_eq!(x.relay(&other, &signed), Err("The wallet signed another transaction than the one you approved".into()));
    assert_eq!(x.relay(&approved, &json!({"psbt": "not base64"})), Ok(None), "then no transaction id: the form says so");
    assert_eq!(x.relay(&approved, &json!({"psbt": to_base64(&unhex(psbt::tests::SCURE_SIGNED)), "txid": "ab".repeat(32)})), Ok(None), "the wallet sent it");
    let id = "9a2e28b110eeaf7e45570c4412b37f48fe71d70656e179e70d64f0f8888f3802";
    assert_eq!(x.sent(&json!(id)).as_deref(), Some(id), "the API's answer: the id as text");
    assert_eq!(x.sent(&json!({"txid": id.to_uppercase()})).as_deref(), Some(id));
    assert_eq!(x.sent(&json!("sendrawtransaction RPC error")), None);
    let family::Call::Rest(status) = x.receipt_call(id) else { panic!("a REST GET") };
    assert_eq!(status.path, format!("/tx/{id}/status"));
    assert!(x.mined(&json!({"confirmed": true, "block_height": 102})));
    assert!(!x.mined(&json!({"confirmed": false})) && !x.mined(&json!("confirmed")));
}

#[test]
fn a_rest_answer_is_its_json_or_its_text_and_a_refusal_is_the_apis_words_bounded() {
    use crate::chain::family::rest_outcome;
    assert_eq!(rest_outcome(200, r#"{"confirmed":true}"#).unwrap(), json!({"confirmed": true}));
    assert_eq!(rest_outcome(200, "9a2e28b1\n").unwrap(), json!("9a2e28b1"), "a transaction id as text");
    assert_eq!(rest_outcome(200, &"<".repeat(300)).unwrap_err().message(), "The network's API answered something that is not JSON");
    assert_eq!(rest_outcome(400, "bad-txns-inputs-missingorspent").unwrap_err().message(), "The network's API refused the request: bad-txns-inputs-missingorspent");
    assert_eq!(rest_outcome(400, &"x".repeat(5000)).unwrap_err().message().len(), "The network's API refused the request: ".len() + 200);
    assert_eq!(rest_outcome(503, "").unwrap_err().message(), "The network's API answered HTTP 503");
    assert_eq!(rest_outcome(0, "").unwrap_err().message(), "The network's API did not answer");
}

#[test]
fn a_witness_scripts_address_is_written_back_on_its_network() {
    use super::address::segwit_address;
    for (a, net) in [(WPKH, Net::Main), (WPKH_TEST, Net::Test), (WPKH_REGTEST, Net::Regtest), (TR, Net::Main)] {
        assert_eq!(segwit_address(&parse(a).unwrap().script(), net).as_deref(), Some(a));
    }
    assert_eq!(segwit_address(&parse(PKH).unwrap().script(), Net::Main), None, "not a witness program");
    assert_eq!(segwit_address(&[0x00, 0x14, 1, 2], Net::Main), None, "a length that lies");
    assert_eq!(segwit_address(&[0x51], Net::Regtest), None, "OP_TRUE alone");
    assert_eq!(segwit_address(&[0x00, 0x03, 1, 2, 3], Net::Main), None, "v0 takes 20 or 32 bytes");
}
