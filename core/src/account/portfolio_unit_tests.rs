//! Unit tests of `portfolio`.

use super::*;

const CHAIN: &str = "eip155:31337";

fn token(symbol: &str, decimals: &str, numeric: &str, value: Option<f64>, chain: &str) -> Value {
    let mut t = json!({"name": format!("{symbol} token"), "symbol": symbol, "chainId": chain, "address": format!("{chain}:0x{:0>40}", symbol.len()),
        "quantity": {"decimals": decimals, "numeric": numeric}, "iconUrl": "https://api.test/public/getTokenImage/x"});
    if let Some(v) = value {
        t["value"] = json!(v);
        t["price"] = json!(1.0);
    }
    t
}

#[test]
fn rows_are_sorted_by_value_and_low_quality_spam_and_other_chains_are_dropped() {
    let mut spam = token("SPAM", "18", "5", Some(1e9), CHAIN);
    spam["flags"] = json!({"is_spam": true});
    let body = json!({"balances": [
        token("WMT", "18", "1000.123456", Some(250.03), CHAIN),
        token("ETH", "18", "9999.9999", Some(29_999_999.7), CHAIN),
        token("ZERO", "0", "7", Some(7.0), CHAIN),
        token("USDC", "6", "1234567.891", Some(1_234_567.89), CHAIN),
        token("NOPRICE", "18", "3", None, CHAIN),
        token("OTHER", "18", "1", Some(1e12), "eip155:1"),
        spam,
    ]})
    .to_string();
    let rows = parse_balances(&body, CHAIN).unwrap();
    let symbols: Vec<&str> = rows.iter().map(|r| r.symbol.as_str()).collect();
    assert_eq!(symbols, ["ETH", "USDC", "WMT", "NOPRICE"]);
    assert_eq!(rows[0].quantity, "9,999.999", "floored, grouped");
    assert_eq!(rows[3].value, None, "no price, no value, still listed");
    assert_eq!(total_usd(&rows), "$31,234,817.62");
    assert_eq!(rows[1].to_json()["value"], "$1,234,567.89");
}

#[test]
fn junk_answers_are_refused_and_junk_rows_skipped() {
    assert_eq!(parse_balances("<html>", CHAIN), None);
    assert_eq!(parse_balances(r#"{"balances": 3}"#, CHAIN), None);
    let body = json!({"balances": [
        {"name": "x", "symbol": "X", "chainId": CHAIN},
        {"name": "", "symbol": "X", "chainId": CHAIN, "quantity": {"decimals": "18", "numeric": "1"}},
        {"name": "y", "symbol": "Y", "chainId": CHAIN, "quantity": {"decimals": "18", "numeric": "1"}, "iconUrl": "javascript:alert(1)"},
    ]})
    .to_string();
    let rows = parse_balances(&body, CHAIN).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].icon_url, None, "only http(s) or data:image icons");
    let many = json!({"balances": vec![token("T", "18", "1", Some(1.0), CHAIN); TOKENS_MAX + 50]}).to_string();
    assert_eq!(parse_balances(&many, CHAIN).unwrap().len(), TOKENS_MAX);
}

#[test]
fn token_names_and_symbols_lose_bidi_and_invisible_characters() {
    let mut t = token("USDC", "6", "1", Some(1.0), CHAIN);
    t["symbol"] = json!("US\u{202E}CD\u{202C}");
    t["name"] = json!("USD\u{200B} Coin\u{2066}");
    let rows = parse_balances(&json!({"balances": [t]}).to_string(), CHAIN).unwrap();
    assert_eq!((rows[0].symbol.as_str(), rows[0].name.as_str()), ("USCD", "USD Coin"), "shown as written, not reordered");
    assert_eq!(parse_identity(r#"{"name": "vitalik\u202e.eth"}"#).as_deref(), Some("vitalik.eth"));
}
