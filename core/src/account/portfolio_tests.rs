//! The portfolio slice's flows (the Tokens tab, the account's name, what is held), run in the
//! account module beside the engine.

use crate::account::portfolio::parse_identity;
use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";
const OTHER: &str = "eip155:31338";

pub(crate) fn balances() -> Value {
    json!({"balances": [
        {"name": "Ether", "symbol": "ETH", "chainId": CHAIN, "quantity": {"decimals": "18", "numeric": "9999.5"}, "value": 29998500.0, "price": 3000.0, "iconUrl": "http://api.test/public/getTokenImage/eth"},
        {"name": "USD Coin", "symbol": "USDC", "chainId": CHAIN, "address": format!("{CHAIN}:0x5FbDB2315678afecb367f032d93F642f64180aa3"), "quantity": {"decimals": "6", "numeric": "1000"}, "value": 1000.0, "price": 1.0},
    ]})
}

fn balance_asked(h: &Harness) -> bool {
    h.fetches().iter().any(|(_, u)| u.contains("/balance?"))
}

#[test]
fn nothing_is_asked_until_the_account_view_shows() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, false);
    assert!(!h.loaded("account"), "the module is not even loaded before its views show");
    h.account(CHAIN, true);
    assert!(h.loaded("account"));
    let (_, url, _) = h.fetch("/v1/account/");
    assert!(url.starts_with(&format!("http://api.test/v1/account/{ADDR}/balance?projectId=p&st=wallet-modal")), "{url}");
    assert!(url.contains("currency=usd") && url.contains("chainId=eip155%3A31337"), "{url}");
}

#[test]
fn tokens_show_sorted_with_the_total_and_are_cached_30_seconds() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    let tokens = h.snap.part("tokens").clone();
    assert_eq!(tokens["tokens"][0]["symbol"], "ETH");
    assert_eq!(tokens["tokens"][1]["value"], "$1,000.00");
    assert_eq!(tokens["totalUsd"], "$29,999,500.00");
    assert_eq!(tokens["loading"], false);
    h.account(CHAIN, false).account(CHAIN, true);
    assert!(!balance_asked(&h), "fresh for 30 s");
    h.now += 30_000;
    h.account(CHAIN, false).account(CHAIN, true);
    assert!(balance_asked(&h), "stale after 30 s");
}

#[test]
fn a_failed_read_says_token_balance_unavailable_and_waits_30_seconds() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 500, json!({"error": "x"}));
    assert_eq!(h.snap.part("tokens")["error"]["message"], "Token Balance Unavailable");
    assert_eq!(h.snap.part("banner"), &json!({"variant": "error", "message": "Token Balance Unavailable"}), "spec §8: the error banner");
    h.send(json!({"type": "refreshTokens"}));
    assert!(!balance_asked(&h), "retries held back for 30 s");
    h.now += 30_000;
    h.send(json!({"type": "refreshTokens"}));
    assert!(balance_asked(&h));
}

#[test]
fn a_network_change_while_the_view_is_hidden_reads_the_tokens_again_when_it_shows() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    h.account(CHAIN, false).account(OTHER, false);
    assert!(!balance_asked(&h), "nothing read while hidden");
    h.account(CHAIN, false);
    assert!(!balance_asked(&h), "nothing read while hidden");
    h.account(CHAIN, true);
    assert!(balance_asked(&h), "the cache was dropped by the change");
    assert_eq!(h.snap.part("tokens")["tokens"][0]["symbol"], "ETH", "the old rows stay shown meanwhile");
}

#[test]
fn another_chain_reads_its_own_tokens() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    h.account(OTHER, true);
    let (_, url, _) = h.fetch("/balance?");
    assert!(url.contains("chainId=eip155%3A31338"));
    assert_eq!(h.snap.part("tokens")["tokens"], json!([]), "the old chain's rows are not shown for the new one");
}

#[test]
fn switching_away_and_back_reads_the_tokens_again() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    h.account(CHAIN, false).account(OTHER, true);
    assert!(balance_asked(&h), "the other chain is read");
    h.serve("/balance?", 200, json!({"balances": []}));
    h.account(OTHER, false).account(CHAIN, true);
    assert!(balance_asked(&h), "back on the first chain: read again");
}

#[test]
fn the_accounts_name_comes_from_the_identity_service_and_is_kept_5_minutes() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    let (_, url, _) = h.fetch("/v1/identity/");
    assert!(url.contains(&format!("/v1/identity/{ADDR}?")) && url.contains(&format!("sender={ADDR}")), "{url}");
    h.serve("/v1/identity/", 200, json!({"name": "alice.demo.eth", "avatar": null}));
    assert_eq!(h.snap.part("accountName"), "alice.demo.eth");
    h.account(CHAIN, false).account(CHAIN, true);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/v1/identity/")), "kept");
    assert_eq!(parse_identity(r#"{"name": null}"#), None);
    assert_eq!(parse_identity(r#"{"name": "a\u0000b"}"#), None, "no control characters");
}

#[test]
fn what_is_held_is_a_fact_for_the_other_slices_and_a_transaction_of_the_modal_mined_reads_it_again() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    let held = h.notes.iter().find_map(|(m, n)| (*m == "account" && n["note"] == "holdings").then(|| n["holdings"].clone())).expect("the holdings are told");
    assert_eq!((&held[0]["address"], &held[0]["balance"], held[0]["price"].as_f64()), (&json!(null), &json!("9999.5"), Some(3000.0)));
    assert_eq!(held[1]["address"], "0x5FbDB2315678afecb367f032d93F642f64180aa3", "the contract without its CAIP-10 prefix");
    h.send_to("account", json!({"type": "notes", "notes": [{"note": "balancesChanged"}]}));
    assert!(balance_asked(&h), "read again without waiting for the cache");
}

#[test]
fn a_late_answer_for_the_network_left_does_not_replace_the_tokens_of_the_network_shown() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    h.account(OTHER, true);
    let (old, ..) = h.fetch("chainId=eip155%3A31338");
    h.account(CHAIN, true);
    let (new, ..) = h.fetch("chainId=eip155%3A31337");
    h.send(json!({"type": "fetchResult", "id": new, "status": 200, "body": balances().to_string()}));
    assert_eq!(h.snap.part("tokens")["tokens"].as_array().unwrap().len(), 2);
    h.send(json!({"type": "fetchResult", "id": old, "status": 200, "body": json!({"balances": []}).to_string()}));
    assert_eq!(h.snap.part("tokens")["tokens"].as_array().unwrap().len(), 2, "the 31337 tokens stay");
    assert_eq!(h.snap.part("tokens")["loading"], false);
}

#[test]
fn bad_events_of_the_account_view_are_refused_with_a_reason() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    for (v, why) in [
        (json!({"type": "selectAccountTab"}), "tab"),
        (json!({"type": "sendSetToken", "index": "x"}), "index"),
        (json!({"type": "swapSetAmount"}), "amount"),
    ] {
        h.send(v.clone());
        let alert = h.effects.iter().find_map(|e| match e { Effect::Alert { key, message, .. } if key == "INVALID_EVENT" => Some(message.clone()), _ => None });
        assert!(alert.as_deref().is_some_and(|m| m.contains(why)), "{v}: {alert:?}");
    }
}

#[test]
fn the_supported_chains_are_asked_once_before_the_first_balance_call_and_an_unsupported_chain_skips_the_calls() {
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true);
    let (_, url, _) = h.fetch("/v1/supported-chains");
    assert!(url.starts_with("http://api.test/v1/supported-chains?projectId=p"), "{url}");
    assert!(!balance_asked(&h), "the balance waits for the list");
    h.serve("/v1/supported-chains", 200, json!({"http": [OTHER], "ws": []}));
    // 31337 is not read by the API: no balance, history or NFT call; the error banner says so.
    assert!(!balance_asked(&h) && !h.fetches().iter().any(|(_, u)| u.contains("/identity/")), "skipped");
    assert_eq!(h.snap.part("tokens")["error"]["message"], "Token Balance Unavailable");
    assert_eq!(h.snap.part("banner"), &json!({"variant": "error", "message": "Token Balance Unavailable"}), "spec §8: also for an unsupported network");
    h.send(json!({"type": "selectAccountTab", "tab": "activity"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/history")), "no history call");
    assert!(h.snap.part("activity")["unavailable"].is_string(), "{}", h.snap.part("activity"));
    h.send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/nfts")), "no NFT call");
    assert_eq!(h.snap.part("nfts")["empty"], true);
    // The supported chain is read at once (the 30 s hold is the unsupported chain's), and the list
    // is not asked again.
    h.account(OTHER, true);
    assert!(balance_asked(&h));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/v1/supported-chains")), "asked once");
}

#[test]
fn a_supported_chains_list_that_cannot_be_read_skips_nothing() {
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true).serve("/v1/supported-chains", 503, json!({}));
    assert!(balance_asked(&h));
}

#[test]
fn tokens_the_balance_answer_left_unpriced_are_priced_by_the_fungible_price_api() {
    let mut h = Harness::new(json!({}));
    let dai = format!("{CHAIN}:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0");
    let answer = json!({"balances": [
        {"name": "Ether", "symbol": "ETH", "chainId": CHAIN, "quantity": {"decimals": "18", "numeric": "1"}, "value": 3000.0, "price": 3000.0},
        {"name": "Dai", "symbol": "DAI", "chainId": CHAIN, "address": dai, "quantity": {"decimals": "18", "numeric": "250"}},
    ]});
    h.account(CHAIN, true).serve("/balance?", 200, answer);
    let (_, url, body) = h.fetch("/v1/fungible/price");
    assert!(url.starts_with("http://api.test/v1/fungible/price?projectId=p"), "{url}");
    let body: Value = serde_json::from_str(&body.expect("a POST")).unwrap();
    assert_eq!(body, json!({"currency": "usd", "addresses": [dai], "projectId": "p"}), "only the unpriced token");
    assert_eq!(h.snap.part("tokens")["totalUsd"], "$3,000.00");
    let priced = json!({"fungibles": [{"address": dai.to_lowercase(), "name": "Dai", "symbol": "DAI", "price": 1.0, "decimals": 18, "iconUrl": "http://api.test/public/getTokenImage/dai"}]});
    h.serve("/v1/fungible/price", 200, priced);
    let tokens = h.snap.part("tokens");
    assert_eq!(tokens["totalUsd"], "$3,250.00", "{tokens}");
    let row = tokens["tokens"].as_array().unwrap().iter().find(|t| t["symbol"] == "DAI").unwrap();
    assert_eq!(row["value"], "$250.00");
    assert_eq!(row["iconUrl"], "http://api.test/public/getTokenImage/dai");
}

#[test]
fn an_answer_with_every_price_asks_no_price_api_and_a_failed_price_call_keeps_the_rows() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).serve("/balance?", 200, balances());
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/fungible/price")));
    let mut h = Harness::new(json!({}));
    let answer = json!({"balances": [{"name": "Dai", "symbol": "DAI", "chainId": CHAIN, "address": format!("{CHAIN}:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"), "quantity": {"decimals": "18", "numeric": "2"}}]});
    h.account(CHAIN, true).serve("/balance?", 200, answer).serve("/v1/fungible/price", 500, json!({}));
    assert_eq!(h.snap.part("tokens")["tokens"][0]["symbol"], "DAI");
    assert_eq!(h.snap.part("tokens")["error"], Value::Null);
}
