//! Unit tests of `slice`.

use super::*;

fn evm() -> &'static dyn Swaps {
    family::swaps("eip155").unwrap()
}

#[test]
fn tokens_are_read_defensively_and_only_for_the_chain() {
    let body = json!({"tokens": [
        {"name": "Ether", "symbol": "ETH", "address": format!("eip155:31337:{}", evm().native_token()), "decimals": 18, "logoUri": "http://x/eth.svg"},
        {"name": "USD Coin", "symbol": "USDC", "address": "eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3", "decimals": 6},
        {"name": "Other", "symbol": "O", "address": "eip155:1:0x5FbDB2315678afecb367f032d93F642f64180aa3", "decimals": 6},
        {"name": "Bad", "symbol": "B", "address": "eip155:31337:0x12", "decimals": 6},
        {"name": "Huge", "symbol": "H", "address": "eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa4", "decimals": 99}
    ]})
    .to_string();
    let t = parse_tokens(evm(), &body, "eip155:31337").unwrap();
    assert_eq!(t.iter().map(|t| t.symbol.as_str()).collect::<Vec<_>>(), ["ETH", "USDC"]);
    assert_eq!(t[1].address, "0x5fbdb2315678afecb367f032d93f642f64180aa3");
    assert!(parse_tokens(evm(), "[]", "eip155:31337").is_none());
}

#[test]
fn a_built_transaction_is_sent_from_the_connected_account() {
    let body = json!({"tx": {"from": "0xattacker", "to": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "data": "0x38ed1739", "value": "1000000000000000000", "eip155": {"gas": "150000", "gasPrice": "1"}}}).to_string();
    let tx: serde_json::Value = serde_json::from_str(&parse_tx(evm(), &body, "0xme").unwrap().to_string()).unwrap();
    assert_eq!(tx["from"], "0xme");
    assert_eq!(tx["to"], "0x5fbdb2315678afecb367f032d93f642f64180aa3");
    assert_eq!(tx["value"], "0xde0b6b3a7640000");
    assert_eq!(tx["gas"], "0x249f0");
    assert!(parse_tx(evm(), r#"{"tx":{"to":"0x5FbDB2315678afecb367f032d93F642f64180aa3","data":"nothex"}}"#, "0xme").is_none());
    assert!(parse_tx(evm(), r#"{"tx":{"to":"0xZZbDB2315678afecb367f032d93F642f64180aa3","data":"0x"}}"#, "0xme").is_none(), "not an address");
    assert_eq!(parse_quote(r#"{"quotes":[{"toAmount":"2990000000"}]}"#).as_deref(), Some("2990000000"));
    assert_eq!(parse_quote(r#"{"quotes":[{"toAmount":"-1"}]}"#), None);
}
