//! The EVM family's capabilities, each through the adapter the slices use.

use super::{decimal_to_hex, erc20_transfer_data, hex_chain, ACCOUNTS_MAX};
use crate::chain::family;
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::Value;

const NS: &str = "eip155";

fn v(j: serde_json::Value) -> Value {
    j.into()
}

#[test]
fn the_evm_family_has_every_capability_and_the_others_those_they_can_do() {
    assert!(family::wallet(NS).is_some() && family::switching(NS).is_some() && family::node(NS).is_some());
    assert!(family::transfers(NS).is_some() && family::transactions(NS).is_some() && family::swaps(NS).is_some());
    assert!(family::host_requests(NS).is_some() && family::embedded(NS).is_some() && family::walletconnect(NS).is_some());
    for ns in ["bip122", "polkadot", "cosmos"] {
        // Bitcoin, Polkadot, Cosmos: wallets and network switches; no swaps; sends on Bitcoin
        // (through its Esplora API; no Polkadot or Cosmos node runs here to send through).
        assert!(family::wallet(ns).is_some() && family::switching(ns).is_some(), "{ns}");
        assert!(family::swaps(ns).is_none(), "{ns}");
        assert_eq!((family::transfers(ns).is_some(), family::transactions(ns).is_some()), (ns == "bip122", ns == "bip122"), "{ns}");
        // A node only where one is read (Bitcoin's Esplora API; no Polkadot or Cosmos node here).
        assert_eq!(family::node(ns).is_some(), ns == "bip122", "{ns}");
        assert!(family::namespace(ns).is_some(), "a known namespace: {ns}");
    }
    // Solana: wallets, sends and its node; no swaps (the convert API is EVM only, spec §7) and no
    // host requests to watch (the host talks to the wallet-standard wallet itself).
    assert!(family::wallet("solana").is_some() && family::transfers("solana").is_some() && family::transactions("solana").is_some());
    assert!(family::swaps("solana").is_none() && family::host_requests("solana").is_none());
    assert!(family::wallet("EIP155").is_none() && family::namespace("").is_none());
    assert_eq!(family::account_type(NS), crate::service::entities::AccountType::SmartAccount);
    assert!(family::numeric_refs(NS) && !family::numeric_refs("solana"));
}

#[test]
fn native_balance_is_floored_to_3_decimals_and_grouped_by_thousands() {
    let node = family::node(NS).unwrap();
    // 10000 ETH (anvil's dev account) and 1.23456789 ETH.
    assert_eq!(node.parse_balance(r#"{"jsonrpc":"2.0","id":1,"result":"0x21e19e0c9bab2400000"}"#, 18).as_deref(), Some("10,000.000"));
    // 19755316.610123 with 6 decimals (a currency with other decimals).
    assert_eq!(node.parse_balance(r#"{"jsonrpc":"2.0","id":1,"result":"0x11f7a4a1044b"}"#, 6).as_deref(), Some("19,755,316.610"));
    assert_eq!(node.parse_balance(r#"{"jsonrpc":"2.0","id":1,"result":"0x0"}"#, 18).as_deref(), Some("0.000"));
    assert_eq!(node.parse_balance(r#"{"jsonrpc":"2.0","id":1,"result":"0x112210f4768db400"}"#, 18).as_deref(), Some("1.234"));
    assert_eq!(node.parse_balance(r#"{"error":{"code":-32000,"message":"x"}}"#, 18), None);
    assert_eq!(node.parse_balance("<html>", 18), None);
}

#[test]
fn balance_request_is_eth_get_balance_at_latest() {
    let v: serde_json::Value = serde_json::from_str(&family::node(NS).unwrap().balance_body(7, "0xabc")).unwrap();
    assert_eq!(v["method"], "eth_getBalance");
    assert_eq!(v["params"], serde_json::json!(["0xabc", "latest"]));
    assert_eq!(v["id"], 7);
}

#[test]
fn mined_means_a_receipt_object() {
    let node = family::node(NS).unwrap();
    assert!(node.is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":{"status":"0x1"}}"#));
    assert!(!node.is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":null}"#));
    assert!(!node.is_mined(500, r#"{"result":{}}"#));
    assert!(!node.is_mined(200, "garbage"));
    let txs = family::transactions(NS).unwrap();
    assert!(txs.mined(&json!({"status": "0x1"})) && !txs.mined(&Value::Null));
}

#[test]
fn accounts_are_checked_and_checksummed() {
    let w = family::wallet(NS).unwrap();
    let lower = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    assert_eq!(w.parse_accounts(&v(serde_json::json!([lower]))), Some(vec!["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266".to_string()]));
    assert_eq!(w.parse_accounts(&v(serde_json::json!([]))), None, "an empty list is no account");
    assert_eq!(w.parse_accounts(&v(serde_json::json!([lower, "nope"]))), None, "one bad entry spoils the list");
    assert_eq!(w.parse_accounts(&v(serde_json::json!(vec![lower; ACCOUNTS_MAX + 1]))), None, "too many");
    assert_eq!(w.parse_accounts(&v(serde_json::json!("0x1"))), None);
    assert_eq!((w.accounts_call(false).method, w.accounts_call(true).method), ("eth_requestAccounts", "eth_accounts"));
}

#[test]
fn chain_ids_are_read_from_hex_decimal_or_number() {
    let w = family::wallet(NS).unwrap();
    assert_eq!(w.parse_chain(&v(serde_json::json!("0x7a69"))).as_deref(), Some("eip155:31337"));
    assert_eq!(w.parse_chain(&v(serde_json::json!("31337"))).as_deref(), Some("eip155:31337"));
    assert_eq!(w.parse_chain(&v(serde_json::json!(1))).as_deref(), Some("eip155:1"));
    for bad in [serde_json::json!("0x"), serde_json::json!("0x0"), serde_json::json!("0x11112222333344445"), serde_json::json!(null), serde_json::json!(-1)] {
        assert_eq!(w.parse_chain(&v(bad.clone())), None, "{bad}");
    }
    assert_eq!(hex_chain("eip155:31337"), "0x7a69");
}

#[test]
fn host_requests_that_prompt_or_send_are_watched_and_sent_hashes_read() {
    let h = family::host_requests(NS).unwrap();
    assert!(h.watches("personal_sign") && h.watches("eth_sendRawTransaction") && !h.watches("eth_call"));
    assert!(h.prompts("eth_sendTransaction") && !h.prompts("eth_sendRawTransaction"));
    let hash = format!("0x{}", "AB".repeat(32));
    assert_eq!(h.sent_transaction("eth_sendTransaction", &hash), Some(hash.to_ascii_lowercase()));
    assert_eq!(h.sent_transaction("personal_sign", &hash), None, "a signature sends nothing");
    assert_eq!(h.sent_transaction("eth_sendTransaction", "0x12"), None);
}

#[test]
fn a_transfer_is_a_value_or_an_erc20_call_and_its_fee_gas_times_price() {
    let t = family::transfers(NS).unwrap();
    const TO: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";
    let native = t.transfer("0xme", TO, None, "1000000000000000000").unwrap();
    assert_eq!((native["to"].as_str(), native["value"].as_str()), (Some(TO), Some("0xde0b6b3a7640000")));
    let token = t.transfer("0xme", TO, Some("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"), "1500000").unwrap();
    assert_eq!(token["to"], "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48");
    assert_eq!(token["data"], "0xa9059cbb000000000000000000000000ab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb000000000000000000000000000000000000000000000000000000000016e360");
    assert!(t.check_receiver(TO).is_ok());
    assert!(t.check_receiver(&TO.to_ascii_lowercase()).is_ok(), "lower case carries no checksum");
    assert!(t.check_receiver("0xab16a96d359eC26a11e2C2b3d8f8B8942d5Bfcdb").unwrap_err().contains("checksum"));
    assert!(t.check_receiver("alice.eth").unwrap_err().contains("not an address"));
    let calls = t.fee_calls(&native);
    let methods: Vec<&str> = calls.iter().map(|c| match c {
        family::Call::Wallet(w) => w.method,
        family::Call::Node(n) => panic!("an EVM wallet reads its node itself, not {}", n.method),
        family::Call::Rest(r) => panic!("an EVM node is JSON-RPC, not {}", r.path),
    }).collect();
    assert_eq!(methods, ["eth_estimateGas", "eth_gasPrice"]);
    assert_eq!(t.fee(&Value::Null, &["0x5208".into(), "0x3b9aca00".into()]).as_deref(), Some("21000000000000"));
    assert_eq!(t.fee(&Value::Null, &["0x5208".into()]), None);
    assert_eq!(t.fee(&Value::Null, &["0x5208".into(), Value::Null]), None, "an answer that is not a quantity");
}

#[test]
fn erc20_transfer_data_rejects_bad_input() {
    const RECEIVER: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";
    assert_eq!(erc20_transfer_data("0x12", "1"), Err(WmError::InvalidAddress));
    assert!(erc20_transfer_data(RECEIVER, "x").is_err());
    assert!(erc20_transfer_data(RECEIVER, &"9".repeat(80)).is_err());
    assert!(erc20_transfer_data(RECEIVER, "0").unwrap().ends_with(&"0".repeat(64)));
    assert_eq!(decimal_to_hex("255").as_deref(), Some("ff"));
    assert_eq!(decimal_to_hex("115792089237316195423570985008687907853269984665640564039457584007913129639935").unwrap(), "f".repeat(64));
}

#[test]
fn the_embedded_wallet_answers_accounts_and_chain_itself_and_hands_on_what_signs() {
    use crate::chain::family::EmbeddedMethod;
    let e = family::embedded(NS).unwrap();
    assert_eq!(e.method("eth_requestAccounts"), EmbeddedMethod::Accounts { silent: false });
    assert_eq!(e.method("eth_chainId"), EmbeddedMethod::Chain);
    assert_eq!(e.method("eth_call"), EmbeddedMethod::Safe);
    assert_eq!(e.method("personal_sign"), EmbeddedMethod::NeedsApproval);
    assert_eq!(e.method("eth_sign"), EmbeddedMethod::Disallowed);
    assert_eq!(e.switch_target(&json!([{"chainId": "0x89"}])).as_deref(), Some("eip155:137"));
    assert_eq!(e.switch_target(&json!([{"chainId": "137"}])), None);
    assert_eq!(e.chain_answer("eip155:31337"), json!("0x7a69"));
    assert_eq!(e.frame_chain("eip155:31337"), Some(json!(31337)));
}

#[test]
fn swaps_read_the_convert_apis_evm_transactions() {
    let s = family::swaps(NS).unwrap();
    assert!(s.networks().contains(&"eip155:1".to_string()) && !s.networks().contains(&"eip155:11155111".to_string()));
    let tx = json!({"from": "0xattacker", "to": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "data": "0x38ed1739", "value": "1000000000000000000", "eip155": {"gas": "150000", "gasPrice": "1"}});
    let t = s.transaction(&tx, "0xme").unwrap();
    assert_eq!((t["from"].as_str(), t["to"].as_str(), t["value"].as_str(), t["gas"].as_str()), (Some("0xme"), Some("0x5fbdb2315678afecb367f032d93f642f64180aa3"), Some("0xde0b6b3a7640000"), Some("0x249f0")));
    assert_eq!(s.receiver(&t), Some("0x5fbdb2315678afecb367f032d93f642f64180aa3"));
    assert!(s.transaction(&json!({"to": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "data": "nothex"}), "0xme").is_none());
    assert!(s.transaction(&json!({"to": "0xZZbDB2315678afecb367f032d93F642f64180aa3", "data": "0x"}), "0xme").is_none(), "not an address");
    assert_eq!(s.build_fields(1), ("eip155", json!({"slippage": "1"})));
    assert_eq!(s.token_address("eip155:31337:0xAbC0000000000000000000000000000000000000").as_deref(), Some("0xabc0000000000000000000000000000000000000"));
}

proptest::proptest! {
    #[test]
    fn decimal_to_hex_matches_u128(n in proptest::num::u128::ANY) {
        proptest::prop_assert_eq!(decimal_to_hex(&n.to_string()).unwrap(), format!("{n:x}"));
    }

    #[test]
    fn the_evm_readers_never_panic(s in ".*", t in ".*") {
        let _ = erc20_transfer_data(&s, &t);
        let _ = family::transfers(NS).unwrap().check_receiver(&s);
        let _ = family::node(NS).unwrap().parse_balance(&s, 18);
        let _ = family::embedded(NS).unwrap().switch_target(&json!([{"chainId": s}]));
    }
}
