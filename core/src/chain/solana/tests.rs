//! The Solana family's capabilities, through the adapter the slices use. The transactions are
//! checked against ones @solana/kit 8 (with @solana-program/system and token) compiles for the
//! same transfer (fixtures below, made by `findAssociatedTokenPda` and `compileTransaction`).

use super::*;
use crate::chain::address::{decode_solana_public_key, encode_base58};
use crate::chain::family;
use crate::json;
use crate::service::json::Value;

const NS: &str = "solana";
const FROM: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const TO: &str = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const MINT: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const BLOCKHASH: &str = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
/// @solana/kit: 0.5 SOL from FROM to TO, with BLOCKHASH.
const KIT_SOL: &str = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAEDfowIh2C/3h3dzzLBfyCbgkLuUqrxMfrNiNDqLG0LBvLzI6hOLG5/rLEMBSEMxkCWhtMDQ/L7gNTld/fjms76ZgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAzEkOkozS44c7s0P8ldozF5ymD02/RsLDbpEpnVXU5rkBAgIAAQwCAAAAAGXNHQAAAAA=";
/// @solana/kit: create TO's associated USDC account (idempotent), then 12.5 USDC (6 decimals)
/// checked from FROM's.
const KIT_SPL: &str = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAUIfowIh2C/3h3dzzLBfyCbgkLuUqrxMfrNiNDqLG0LBvKROzHDKLJxOYANnH6lwAvMdNp3POyEPpqCGYtu+EqHV9PqjPWsrKjNBSB1EhdcQ871Sl3Znt4goWtVJTc485fcAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACMlyWPTiSJ8bs9ECkUjg2DC1oTmdr/EIQEjnvY2+n4Wcb6evO+2606PWXzaqvJdDGxu+TC0vbg5HymAgNFL11h8yOoTixuf6yxDAUhDMZAlobTA0Py+4DU5Xf345rO+mYG3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqcxJDpKM0uOHO7ND/JXaMxecpg9Nv0bCw26RKZ1V1Oa5AgQGAAEGBQMHAQEHBAIFAQAKDCC8vgAAAAAABg==";

fn key(s: &str) -> [u8; 32] {
    decode_solana_public_key(s).unwrap()
}

/// A legacy transaction read back: its signatures count, each account with (signer, writable),
/// the blockhash, each instruction as (program, accounts, data) by key.
#[derive(Debug, PartialEq)]
struct Decoded {
    signatures: usize,
    accounts: Vec<(String, bool, bool)>,
    blockhash: String,
    instructions: Vec<(String, Vec<String>, Vec<u8>)>,
}

fn decode(wire: &[u8]) -> Decoded {
    let mut i = 0;
    let mut byte = || {
        i += 1;
        wire[i - 1]
    };
    let signatures = byte() as usize;
    let _ = (0..64 * signatures).map(|_| byte()).count();
    let (n_sig, ro_signed, ro_unsigned) = (byte() as usize, byte() as usize, byte() as usize);
    let n = byte() as usize;
    let keys: Vec<String> = (0..n).map(|_| encode_base58(&(0..32).map(|_| byte()).collect::<Vec<_>>())).collect();
    let accounts = keys
        .iter()
        .enumerate()
        .map(|(k, key)| {
            let signer = k < n_sig;
            let writable = if signer { k < n_sig - ro_signed } else { k < n - ro_unsigned };
            (key.clone(), signer, writable)
        })
        .collect();
    let blockhash = encode_base58(&(0..32).map(|_| byte()).collect::<Vec<_>>());
    let count = byte() as usize;
    let instructions = (0..count)
        .map(|_| {
            let program = keys[byte() as usize].clone();
            let a = byte() as usize;
            let accs = (0..a).map(|_| keys[byte() as usize].clone()).collect();
            let d = byte() as usize;
            (program, accs, (0..d).map(|_| byte()).collect())
        })
        .collect();
    Decoded { signatures, accounts, blockhash, instructions }
}

/// The same accounts with the same flags, in any order within their kind.
fn same(a: &Decoded, b: &Decoded) -> bool {
    let mut x = a.accounts.clone();
    let mut y = b.accounts.clone();
    x.sort();
    y.sort();
    a.signatures == b.signatures && x == y && a.accounts[0] == b.accounts[0] && a.blockhash == b.blockhash && a.instructions == b.instructions
}

fn blockhash_answer() -> Value {
    (json!({"context": {"slot": 5}, "value": {"blockhash": BLOCKHASH, "lastValidBlockHeight": 155}}))
}

fn mint_answer(owner: &str, decimals: u64) -> Value {
    (json!({"context": {"slot": 5}, "value": {"owner": owner, "lamports": 1, "executable": false, "data": {"program": "spl-token", "parsed": {"type": "mint", "info": {"decimals": decimals}}, "space": 82}}}))
}

fn wire(tx: &Value) -> Vec<u8> {
    from_base64(tx["transaction"].as_str().unwrap(), 1232).unwrap()
}

#[test]
fn a_wallet_standard_wallet_is_asked_for_its_accounts_silently_on_reconnect_and_its_chain_is_read_as_caip2() {
    let w = family::wallet(NS).unwrap();
    assert_eq!(w.accounts_call(false).method, "standard:connect");
    assert_eq!((json!([{"silent": true}])), w.accounts_call(true).params);
    assert_eq!(w.parse_accounts(&(json!([FROM, TO]))), Some(vec![FROM.to_string(), TO.to_string()]));
    assert_eq!(w.parse_accounts(&(json!([]))), None, "zero accounts");
    assert_eq!(w.parse_accounts(&(json!(["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"]))), None, "not base58");
    let short = encode_base58(&[7u8; 31]);
    assert_eq!(w.parse_accounts(&(json!([short]))), None, "a 31-byte key");
    assert_eq!(w.parse_accounts(&(json!(vec![FROM; 33]))), None, "more than 32 accounts");
    assert_eq!(w.parse_chain(&"solana:devnet".into()).as_deref(), Some("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"));
    assert_eq!(w.parse_chain(&"solana:localnet".into()).as_deref(), Some("solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"));
    assert_eq!(w.parse_chain(&"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into()).as_deref(), Some("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"));
    assert_eq!(w.parse_chain(&"solana:nonsense".into()), None);
    assert_eq!(w.parse_chain(&"eip155:1".into()), None);
    assert_eq!(w.revoke_call().unwrap().method, "standard:disconnect");
    assert_eq!(standard_chain("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"), "solana:mainnet");
    assert_eq!(standard_chain("solana:Zzzz4UsFv8P8NJdTREpY1vzqKqZKvdp"), "solana:Zzzz4UsFv8P8NJdTREpY1vzqKqZKvdp", "no name: the CAIP-2 id");
}

#[test]
fn a_switch_selects_one_of_the_wallets_chains_and_a_refusal_is_never_an_unknown_network_to_add() {
    let s = family::switching(NS).unwrap();
    let all = crate::chain::networks::builtin_networks();
    let devnet = crate::chain::networks::find_network(&all, "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1").unwrap().clone();
    let call = s.switch_call(&devnet);
    assert_eq!(call.method, "wallet-modal:switchChain");
    assert_eq!(call.params, (json!([{"chain": "solana:devnet", "caipNetworkId": "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"}])));
    assert!(!s.unknown_network(4902));
}

#[test]
fn associated_token_accounts_are_the_program_addresses_kit_finds() {
    let token = key(TOKEN_PROGRAM);
    let token22 = key(TOKEN_2022_PROGRAM);
    assert_eq!(encode_base58(&associated_token_account(&key(FROM), &key(MINT), &token).unwrap()), "FGETo8T8wMcN2wCjav8VK6eh3dLk63evNDPxzLSJra8B");
    assert_eq!(encode_base58(&associated_token_account(&key(FROM), &key(MINT), &token22).unwrap()), "GdjpegrtGwU3pgtzPivYVViSA8rmGL248qBVKzsrU3DD");
    assert_eq!(encode_base58(&associated_token_account(&key(TO), &key(MINT), &token).unwrap()), "AmvU9KEJZ2F3u7E3H43k1VU3S5GZPPSKQzJnbJtAJjvN");
    assert!(on_curve(&key(FROM)) && !on_curve(&key("AmvU9KEJZ2F3u7E3H43k1VU3S5GZPPSKQzJnbJtAJjvN")));
}

#[test]
fn half_a_sol_is_the_transaction_kit_compiles_byte_for_byte() {
    let t = family::transfers(NS).unwrap();
    let tx = t.transfer(FROM, TO, None, "500000000").unwrap();
    let calls = t.fee_calls(&tx);
    assert!(matches!(&calls[..], [family::Call::Node(c)] if c.method == "getLatestBlockhash"));
    let answers = [blockhash_answer()];
    assert_eq!(t.fee(&tx, &answers).as_deref(), Some("5000"), "one signature");
    let done = t.finish(tx, &answers).unwrap();
    assert_eq!(done["transaction"].as_str(), Some(KIT_SOL));
    assert_eq!(t.max_reserve(), 5000, "Max leaves the fee");
}

#[test]
fn a_token_to_a_receiver_without_an_account_creates_it_and_its_rent_is_in_the_fee() {
    let t = family::transfers(NS).unwrap();
    let tx = t.transfer(FROM, TO, Some(&format!("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:{MINT}")), "12500000").unwrap();
    assert_eq!(tx["mint"], MINT, "the CAIP-10 token is its mint");
    let calls = t.fee_calls(&tx);
    let methods: Vec<&str> = calls.iter().map(|c| match c {
        family::Call::Node(c) => c.method,
        family::Call::Wallet(c) => panic!("a Solana wallet reads no chain: {}", c.method),
        family::Call::Rest(c) => panic!("a Solana node is JSON-RPC: {}", c.path),
    }).collect();
    assert_eq!(methods, ["getLatestBlockhash", "getAccountInfo", "getMultipleAccounts", "getMinimumBalanceForRentExemption", "getMinimumBalanceForRentExemption"]);
    let family::Call::Node(accounts) = &calls[2] else { unreachable!() };
    assert_eq!(accounts.params[0][0], "AmvU9KEJZ2F3u7E3H43k1VU3S5GZPPSKQzJnbJtAJjvN", "the receiver's Token account is looked for");
    let none = (json!({"context": {"slot": 5}, "value": [null, null]}));
    let answers = [blockhash_answer(), mint_answer(TOKEN_PROGRAM, 6), none, 2_039_280u64.into(), 2_074_080u64.into()];
    assert_eq!(t.fee(&tx, &answers).as_deref(), Some("2044280"), "the signature and the new account's rent");
    assert_eq!(t.fee_detail(&tx, &answers), Some(("the receiver's new token account", "2039280".to_string())));
    let done = t.finish(tx.clone(), &answers).unwrap();
    let ours = decode(&wire(&done));
    let kit = decode(&from_base64(KIT_SPL, 1232).unwrap());
    assert!(same(&ours, &kit), "ours {ours:#?}\nkit {kit:#?}");

    // The receiver has its account: no creation, no rent.
    let exists = (json!({"context": {"slot": 5}, "value": [{"owner": TOKEN_PROGRAM, "lamports": 2_039_280, "data": ["", "base64"]}, null]}));
    let answers = [blockhash_answer(), mint_answer(TOKEN_PROGRAM, 6), exists, 2_039_280u64.into(), 2_074_080u64.into()];
    assert_eq!(t.fee(&tx, &answers).as_deref(), Some("5000"));
    assert_eq!(t.fee_detail(&tx, &answers), None);
    let d = decode(&wire(&t.finish(tx.clone(), &answers).unwrap()));
    assert_eq!(d.instructions.len(), 1);
    assert_eq!(d.instructions[0].2, kit.instructions[1].2, "the same TransferChecked");
}

#[test]
fn what_the_chain_says_that_forbids_a_transfer_is_said_plainly() {
    let t = family::transfers(NS).unwrap();
    let tx = t.transfer(FROM, TO, Some(MINT), "1").unwrap();
    let none = (json!({"value": [null, null]}));
    let err = |answers: &[Value]| t.finish(tx.clone(), answers).unwrap_err();
    assert!(err(&[Value::Null]).contains("recent block"));
    assert!(err(&[blockhash_answer(), (json!({"value": null})), none.clone()]).contains("mint was not found"));
    assert!(err(&[blockhash_answer(), mint_answer(FROM, 6), none.clone()]).contains("not an SPL token"));
    assert!(err(&[blockhash_answer(), mint_answer(TOKEN_PROGRAM, 200), none.clone()]).contains("more than 18 decimals"), "absurd decimals");
    assert!(t.transfer(FROM, TO, None, "18446744073709551616").is_err(), "more lamports than a u64 holds");
    assert!(t.check_receiver(TO).is_ok());
    assert!(t.check_receiver(&encode_base58(&[1u8; 31])).unwrap_err().contains("32-byte key"));
    assert!(t.check_receiver("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").is_err());
    assert!(t.check_receiver("1111").is_err());
}

#[test]
fn a_signature_is_read_in_base64_or_base58_and_followed_on_the_node() {
    let x = family::transactions(NS).unwrap();
    let sig = [9u8; 64];
    let b58 = encode_base58(&sig);
    assert_eq!(x.sent(&(json!({"signature": to_base64(&sig)}))).as_deref(), Some(b58.as_str()));
    assert_eq!(x.sent(&(json!({"signature": b58.clone()}))).as_deref(), Some(b58.as_str()));
    assert_eq!(x.sent(&(json!({"signature": to_base64(&[0u8; 64])}))), None, "an empty signature");
    assert_eq!(x.sent(&(json!({"signature": to_base64(&[1u8; 32])}))), None, "32 bytes");
    assert_eq!(x.sent(&(json!({"signature": "x".repeat(100_000)}))), None);
    assert_eq!(x.sent(&(json!("nope"))), None);
    let family::Call::Node(call) = x.receipt_call(&b58) else { panic!("a signature's status is the node's") };
    assert_eq!(call.method, "getSignatureStatuses");
    assert!(x.mined(&(json!({"value": [{"confirmationStatus": "confirmed", "err": null}]}))));
    assert!(!x.mined(&(json!({"value": [null]}))));
    assert_eq!(x.send_call((json!({"transaction": "AQ=="}))).method, "solana_signAndSendTransaction");
}

#[test]
fn a_node_error_or_a_failed_request_is_an_error_with_its_reason() {
    assert_eq!(family::node_outcome(200, r#"{"jsonrpc":"2.0","id":1,"result":{"value":3}}"#).unwrap(), (json!({"value": 3})));
    let e = family::node_outcome(200, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}"#).unwrap_err();
    assert_eq!((e.code(), e.message()), (-32602, "bad".to_string()));
    assert!(family::node_outcome(500, "oops").unwrap_err().message().contains("HTTP 500"));
    assert!(family::node_outcome(0, "").unwrap_err().message().contains("did not answer"));
    let cut = format!("{{\"jsonrpc\":\"2.0\",\"result\":\"{}", "x".repeat(1000));
    assert!(family::node_outcome(200, &cut).unwrap_err().message().contains("not JSON-RPC"), "a body cut short (the shell keeps 1 MB of it)");
}

proptest::proptest! {
    #[test]
    fn the_engines_small_key_check_agrees_with_the_base58_decoder(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 28..36), zeros in 0usize..3) {
        let mut b = vec![0u8; zeros];
        b.extend(bytes);
        let s = encode_base58(&b);
        proptest::prop_assert_eq!(wallet::is_key(&s), crate::chain::address::is_solana_address(&s));
    }

    #[test]
    fn the_small_key_check_never_panics(s in ".{0,60}") {
        let _ = wallet::is_key(&s);
    }
}

/// Against the base64 crate (the WalletConnect feature's dependency).
#[cfg(feature = "walletconnect")]
mod base64_oracle {
    use super::*;

    proptest::proptest! {
        #[test]
        fn base64_round_trips_as_the_standard_alphabet_writes_it(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            use base64::Engine as _;
            let ours = to_base64(&bytes);
            proptest::prop_assert_eq!(&ours, &base64::engine::general_purpose::STANDARD.encode(&bytes));
            proptest::prop_assert_eq!(from_base64(&ours, 200), Some(bytes));
        }

        #[test]
        fn base64_decoding_refuses_what_is_not_padded_base64_and_never_panics(s in "[A-Za-z0-9+/=]{0,12}|.{0,12}") {
            use base64::Engine as _;
            let ours = from_base64(&s, 100);
            let theirs = base64::engine::general_purpose::STANDARD.decode(&s).ok();
            proptest::prop_assert_eq!(ours, theirs);
        }
    }
}

#[test]
fn the_embedded_wallet_answers_a_solana_wallets_requests_and_shows_every_signature_first() {
    use family::EmbeddedMethod::*;
    let e = family::embedded(NS).unwrap();
    assert_eq!(e.user_address(FROM).as_deref(), Some(FROM));
    assert_eq!(e.user_address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), None, "an EVM address is not a Solana account");
    let w = family::wallet(NS).unwrap();
    assert_eq!(e.method(w.accounts_call(false).method), Accounts { silent: false });
    assert_eq!(e.method(w.chain_call().method), Chain);
    assert_eq!(e.method(w.revoke_call().unwrap().method), Revoke);
    assert_eq!(e.method(family::transactions(NS).unwrap().send_call(Value::Null).method), NeedsApproval);
    for m in ["solana_signMessage", "solana_signTransaction", "solana_signAllTransactions", "solana_signAndSendTransaction"] {
        assert_eq!(e.method(m), NeedsApproval, "{m}");
    }
    for m in ["getBalance", "sendTransaction", "eth_sendTransaction", "personal_sign"] {
        assert_eq!(e.method(m), Disallowed, "{m}");
    }
    let local = format!("solana:{LOCALNET_REF}");
    assert_eq!(e.frame_chain(&local), Some(Value::String(LOCALNET_REF.into())));
    assert_eq!(e.frame_chain("eip155:1"), None);
    assert_eq!(w.parse_chain(&e.chain_answer(&local)).as_deref(), Some(local.as_str()), "the chain answer reads back");
    let devnet = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
    assert_eq!(e.switch_target(&(json!([{"chain": "solana:devnet", "caipNetworkId": devnet}]))).as_deref(), Some(devnet));
    assert_eq!(e.switch_target(&(json!([{"caipNetworkId": "eip155:1"}]))), None);
}

#[test]
fn a_transaction_a_wallet_only_signed_is_relayed_through_the_node_whose_answer_is_the_signature() {
    let x = family::transactions(NS).unwrap();
    let signed = to_base64(&[1u8; 200]);
    let Ok(Some(family::Call::Node(call))) = x.relay(&Value::Null, &(json!({"transaction": signed.clone()}))) else { panic!("relayed through the node") };
    assert_eq!(call.method, "sendTransaction");
    assert_eq!(call.params, json!([signed, {"encoding": "base64", "preflightCommitment": "confirmed"}]));
    assert_eq!(x.relay(&Value::Null, &(json!({"signature": to_base64(&[9u8; 64]), "transaction": signed}))), Ok(None), "sent already");
    assert_eq!(x.relay(&Value::Null, &(json!({"transaction": "not base64!"}))), Ok(None));
    assert_eq!(x.relay(&Value::Null, &(json!({"transaction": to_base64(&[1u8; 2000])}))), Ok(None), "larger than a transaction");
    let b58 = encode_base58(&[9u8; 64]);
    assert_eq!(x.sent(&Value::String(b58.clone())).as_deref(), Some(b58.as_str()), "the node's answer");
}
