//! The buy slice's flows: the OnRampProviders view, over the on-ramp API.

use crate::host::harness::*;
use crate::swap::slice_tests::trading;

const CHAIN: &str = "eip155:31337";
const USDC_LC: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

fn onramp_options() -> Value {
    let limits = json!([{"id": "card", "min": "10.00", "max": "7500.00"}, {"id": "bank_account", "min": "10.00", "max": "25000.00"}]);
    json!({
        "purchaseCurrencies": [
            {"id": "USDC", "name": "USD Coin", "symbol": "USDC", "networks": [{"name": CHAIN, "display_name": "Anvil", "chain_id": "31337", "contract_address": USDC_LC, "decimals": 6}]},
            {"id": "ETH", "name": "Ether", "symbol": "ETH", "networks": [{"name": CHAIN, "display_name": "Anvil", "chain_id": "31337", "contract_address": NATIVE}]},
            {"id": "DAI", "name": "Dai", "symbol": "DAI", "networks": [{"name": "eip155:1", "display_name": "Ethereum", "chain_id": "1", "contract_address": "0x6b17"}]}
        ],
        "paymentCurrencies": [{"id": "USD", "name": "US Dollar", "symbol": "USD", "payment_method_limits": limits}, {"id": "EUR", "name": "Euro", "symbol": "EUR", "payment_method_limits": limits}],
        "providers": [{"id": "meld", "name": "Meld (local)", "feePercent": "1.00"}, {"id": "coinbase", "name": "Coinbase (local)", "feePercent": "2.00"}]
    })
}

impl Harness {
    fn buying(&mut self) -> &mut Self {
        self.holding(CHAIN).send(json!({"type": "navigate", "view": "OnRampProviders"}));
        self.serve("/onramp/options", 200, onramp_options())
    }

    fn quote_bodies(&self) -> Vec<Value> {
        self.effects.iter().filter_map(|e| match e { Effect::Fetch { url, body: Some(b), .. } if url.contains("/v1/onramp/quote") => serde_json::from_str(b).ok(), _ => None }).collect()
    }

    fn answer_quote(&mut self, provider: &str, status: u16, body: Value) -> &mut Self {
        self.serve_where("/v1/onramp/quote", &format!("\"provider\":\"{provider}\""), status, body)
    }
}

fn buy(h: &Harness) -> &Value {
    h.snap.part("buy")
}

#[test]
fn buy_offers_the_networks_tokens_usdc_first_and_quotes_each_provider_once_typing_settles() {
    let mut h = trading();
    h.buying();
    assert_eq!(h.view(), View::OnRampProviders);
    assert_eq!(h.snap.title, "Buy");
    let b = buy(&h);
    assert_eq!(b["tokens"].as_array().unwrap().iter().map(|t| t["symbol"].as_str().unwrap()).collect::<Vec<_>>(), ["USDC", "ETH"], "only this network's");
    assert_eq!(b["purchase"], "USDC", "USDC by default (spec §9)");
    assert_eq!(b["payment"], "USD");
    assert_eq!(b["paymentImageUrl"], "http://api.test/public/getCurrencyImage/USD?projectId=p&st=wallet-modal&sv=html-wallet-modal-0.1.0", "spec §7: the currency image endpoint");
    assert_eq!(b["method"], "card");
    assert_eq!(b["balance"], "1,000.000", "what the account holds of it");
    h.send(json!({"type": "buySetAmount", "amount": "5"}));
    assert_eq!(buy(&h)["error"], "The minimum by card is 10.00 USD");
    h.send(json!({"type": "buySetAmount", "amount": "8000"}));
    assert_eq!(buy(&h)["error"], "The maximum by card is 7,500.00 USD");
    h.send(json!({"type": "buySetMethod", "method": "bank_account"}));
    assert_eq!(buy(&h)["error"], Value::Null, "a bank account takes up to 25,000.00");
    h.send(json!({"type": "buySetMethod", "method": "card"})).send(json!({"type": "buySetAmount", "amount": "100"}));
    assert_eq!(buy(&h)["quoting"], true);
    assert!(h.quote_bodies().is_empty(), "not while typing");
    h.timer_fires("buy-quote");
    let bodies = h.quote_bodies();
    assert_eq!(bodies.len(), 2, "one quote per provider");
    assert_eq!(bodies[0], json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00", "network": CHAIN, "provider": "meld", "paymentMethod": "card"}));
    h.answer_quote("coinbase", 200, json!({"purchaseAmount": {"amount": "98", "currency": "USDC"}, "fee": {"amount": "2.00", "currency": "USD"}}));
    assert_eq!(buy(&h)["quoting"], true, "meld is still asked");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99", "currency": "USDC"}, "fee": {"amount": "1.00", "currency": "USD"}}));
    let quotes = buy(&h)["quotes"].as_array().unwrap().clone();
    assert_eq!(buy(&h)["quoting"], false);
    assert_eq!(quotes.iter().map(|q| q["provider"].as_str().unwrap()).collect::<Vec<_>>(), ["meld", "coinbase"], "in the service's order");
    assert_eq!(quotes[0], json!({"provider": "meld", "name": "Meld (local)", "receive": "99", "fee": "1.00", "feePercent": "1.00", "estimate": false}));
}

#[test]
fn buying_opens_the_providers_checkout_and_follows_the_order_until_paid_out() {
    let mut h = trading();
    h.buying().send(json!({"type": "buySetAmount", "amount": "100"}));
    h.timer_fires("buy-quote");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99"}}));
    h.send(json!({"type": "buyChoose", "provider": "meld"}));
    let (_, _, body) = h.fetch("/v1/generators/onrampurl");
    let body: Value = serde_json::from_str(&body.expect("a body")).unwrap();
    assert_eq!(body["destinationWallets"], json!([{"address": ADDR, "blockchains": [CHAIN], "assets": ["USDC"]}]));
    assert_eq!(body["defaultExperience"], "buy");
    assert_eq!(body["presetFiatAmount"], "100.00");
    assert_eq!(buy(&h)["order"]["stage"], "preparing");
    h.serve("/v1/generators/onrampurl", 200, json!({"url": "http://api.test/onramp/meld/checkout/ord_1", "orderId": "ord_1"}));
    assert_eq!(buy(&h)["order"], json!({"stage": "open", "provider": "Meld (local)", "url": "http://api.test/onramp/meld/checkout/ord_1", "status": "PENDING"}));
    h.timer_fires("buy-order");
    h.serve("/v1/onramp/orders/ord_1", 200, json!({"id": "ord_1", "status": "PROCESSING"}));
    assert_eq!(buy(&h)["order"]["status"], "PROCESSING");
    // Leaving Buy keeps following the order; it shows again when Buy opens.
    h.send(json!({"type": "back"}));
    assert_eq!(h.view(), View::Account);
    assert_eq!(buy(&h), &Value::Null, "Buy left");
    h.now += 2_000;
    h.fire("buy-order");
    assert!(h.open_fetch("/v1/onramp/orders/ord_1").is_some(), "still followed");
    h.send(json!({"type": "navigate", "view": "OnRampProviders"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/onramp/options")), "the open order shows, nothing asked again");
    assert_eq!(buy(&h)["order"]["stage"], "open");
    h.serve("/v1/onramp/orders/ord_1", 200, json!({"id": "ord_1", "status": "COMPLETED", "purchaseCurrency": "USDC", "purchaseAmount": "99", "txHash": format!("0x{}", "12".repeat(32))}));
    assert_eq!(buy(&h)["order"]["stage"], "completed");
    assert_eq!(buy(&h)["order"]["amount"], "99");
    assert!(h.noted("account", json!({"note": "balancesChanged"})), "paid out: the balances are read again");
}

#[test]
fn buy_lists_the_accounts_purchases_at_each_provider_by_the_history_calls_onramp_and_reads_them_again_once_paid_out() {
    // Spec §7: GET /v1/account/{account}/history takes `onramp`.
    let mut h = trading();
    h.buying();
    let asked: Vec<String> = h.fetches().into_iter().map(|(_, u)| u).filter(|u| u.contains("/history")).collect();
    assert_eq!(asked.len(), 2, "one call per provider: {asked:?}");
    for (url, provider) in asked.iter().zip(["meld", "coinbase"]) {
        assert!(url.starts_with(&format!("http://api.test/v1/account/{ADDR}/history?")), "{url}");
        assert!(url.contains(&format!("&onramp={provider}&chainId=eip155%3A31337")), "{url}");
    }
    assert_eq!(buy(&h)["purchases"], json!([]));
    let bought = |id: &str, status: &str, mined: &str, numeric: &str| {
        json!({"id": id, "metadata": {"operationType": "buy", "hash": "0xab", "minedAt": mined, "sentFrom": "0x11", "sentTo": ADDR, "status": status},
            "transfers": [{"fungible_info": {"name": "USD Coin", "symbol": "USDC"}, "direction": "in", "quantity": {"numeric": numeric}}]})
    };
    h.serve("onramp=coinbase", 200, json!({"data": []}));
    h.serve("onramp=meld", 200, json!({"data": [bought("ord_a", "ONRAMP_TRANSACTION_STATUS_SUCCESS", "1800000000000", "49.5"), bought("ord_b", "ONRAMP_TRANSACTION_STATUS_FAILED", "1790000000000", "10")], "next": null}));
    let rows = buy(&h)["purchases"].as_array().unwrap().clone();
    assert_eq!(rows.iter().map(|r| (r["amount"].as_str().unwrap(), r["provider"].as_str().unwrap(), r["status"].as_str().unwrap())).collect::<Vec<_>>(),
        [("49.500 USDC", "Meld (local)", "completed"), ("10.000 USDC", "Meld (local)", "failed")]);
    // A purchase paid out: the list is read again.
    h.send(json!({"type": "buySetAmount", "amount": "100"}));
    h.timer_fires("buy-quote");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99"}}));
    h.send(json!({"type": "buyChoose", "provider": "meld"}));
    h.serve("/v1/generators/onrampurl", 200, json!({"url": "http://api.test/onramp/meld/checkout/ord_1", "orderId": "ord_1"}));
    h.timer_fires("buy-order");
    let tx = format!("0x{}", "cd".repeat(32));
    h.serve("/v1/onramp/orders/ord_1", 200, json!({"id": "ord_1", "status": "COMPLETED", "purchaseCurrency": "USDC", "purchaseAmount": "99", "txHash": tx}));
    assert_eq!(h.fetches().iter().filter(|(_, u)| u.contains("/history?") && u.contains("onramp=")).count(), 2, "{:?}", h.fetches());
    // The payout is not indexed yet: the purchases are read again 2 s later, until it is listed.
    h.serve("onramp=coinbase", 200, json!({"data": []}));
    h.serve("onramp=meld", 200, json!({"data": []}));
    h.timer_fires("buy-purchases");
    h.serve("onramp=coinbase", 200, json!({"data": []}));
    let mut paid = bought("ord_1", "ONRAMP_TRANSACTION_STATUS_SUCCESS", "1800000200000", "99");
    paid["metadata"]["hash"] = json!(tx);
    h.serve("onramp=meld", 200, json!({"data": [paid]}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "buy-purchases")), "listed: no more reads");
    assert_eq!(buy(&h)["purchases"][0]["amount"], "99.000 USDC");
    assert_eq!(buy(&h)["purchases"][0]["status"], "completed");
}

#[test]
fn a_purchases_answer_for_an_account_no_longer_shown_is_dropped() {
    let mut h = trading();
    h.buying();
    let bought = json!({"data": [{"id": "ord_old", "metadata": {"operationType": "buy", "hash": "0xab", "minedAt": "1800000000000", "status": "ONRAMP_TRANSACTION_STATUS_SUCCESS"},
        "transfers": [{"fungible_info": {"symbol": "USDC"}, "direction": "in", "quantity": {"numeric": "5"}}]}]});
    // Another account, and Buy shown for it, before the first account's answers come.
    const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    h.switch_account(BOB);
    h.send(json!({"type": "navigate", "view": "OnRampProviders"}));
    h.serve("/onramp/options", 200, onramp_options());
    h.serve(&format!("account/{ADDR}/history?projectId=p&st=wallet-modal&sv=html-wallet-modal-0.1.0&onramp=meld"), 200, bought.clone());
    assert_eq!(buy(&h)["purchases"], json!([]), "the first account's purchase is not the second's");
    h.serve(&format!("account/{BOB}/history?projectId=p&st=wallet-modal&sv=html-wallet-modal-0.1.0&onramp=meld"), 200, bought);
    assert_eq!(buy(&h)["purchases"][0]["id"], "ord_old", "its own answer is shown");
}

#[test]
fn buy_falls_back_to_the_built_in_options_and_to_marked_estimates() {
    let mut h = trading();
    h.holding(CHAIN).send(json!({"type": "navigate", "view": "OnRampProviders"}));
    h.serve("/onramp/options", 500, json!({"error": "x"}));
    let b = buy(&h);
    assert_eq!(b["fallback"], true);
    assert_eq!(b["purchase"], "USDC");
    assert_eq!(b["currencies"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect::<Vec<_>>(), ["USD", "EUR"]);
    h.send(json!({"type": "buySetAmount", "amount": "100"}));
    h.timer_fires("buy-quote");
    h.answer_quote("meld", 500, json!({"error": "x"}));
    let q = &buy(&h)["quotes"][0];
    assert_eq!(q["estimate"], true, "marked as an estimate");
    assert_eq!(q["receive"], "98", "100 USD less the highest fee (2%) at 1 USD");
    // EUR: the mock quote at its fixed rate (1 EUR = 1.08 USD), marked as an estimate too.
    h.send(json!({"type": "buySetPayment", "currency": "EUR"}));
    h.timer_fires("buy-quote");
    h.answer_quote("meld", 500, json!({}));
    let q = &buy(&h)["quotes"][0];
    assert_eq!((q["receive"].as_str(), q["estimate"].as_bool()), (Some("105.84"), Some(true)), "100 EUR less 2% at 1.08 USD per EUR");
    // A checkout that cannot be made says so.
    h.send(json!({"type": "buySetPayment", "currency": "USD"}));
    h.timer_fires("buy-quote");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99"}}));
    h.send(json!({"type": "buyChoose", "provider": "meld"}));
    h.serve("/v1/generators/onrampurl", 200, json!({"url": "javascript:alert(1)", "orderId": "o"}));
    assert_eq!(buy(&h)["order"]["stage"], "failed");
}
