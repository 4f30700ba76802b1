//! The on-ramp API (spec §7) and the two local providers against real anvil chains: options,
//! quotes per provider, orders made by `POST /v1/generators/onrampurl`, the checkout page, the
//! test card paying out on anvil, refusals and hostile inputs, the fallback test switch.
//! Needs `node_modules` (anvil, solc, ethers): `make test` installs them.

mod common;

use std::time::{Duration, Instant};

use common::chain::{
    chain_server, deploy_demo, manifest_token, mint_data, transfer_data, Anvil, ACCOUNTS,
};
use common::{get, request, Resp};
use serde_json::{json, Value};

const P: &str = "projectId=demo-project";
/// The providers' payout accounts (anvil dev accounts 4 and 5).
const MELD: &str = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const COINBASE: &str = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
/// A buyer that nothing else uses.
const BUYER: &str = "0x000000000000000000000000000000000000b0b0";

struct Demo {
    a: Anvil,
    b: Anvil,
    manifest: Value,
    s: wm_server::Server,
    // The server reads the manifest's file again while it runs.
    _manifest_dir: wm_server::testing::TempDir,
}

/// Two anvils with the demo contracts, the payout accounts holding USDC and WMT on both, and a
/// backend given the manifest.
async fn demo() -> Demo {
    let (a, b) = (Anvil::start(31337).await, Anvil::start(31338).await);
    let (_manifest_dir, path, manifest) = deploy_demo(&[&a, &b], "http://127.0.0.1:9");
    for anvil in [&a, &b] {
        for sym in ["USDC", "WMT"] {
            let token = manifest_token(&manifest, anvil.chain_id, sym);
            let unit: u128 = if sym == "USDC" {
                1_000_000
            } else {
                1_000_000_000_000_000_000
            };
            for to in [MELD, COINBASE] {
                let r = anvil
                    .send(
                        ACCOUNTS[0],
                        Some(&token),
                        &mint_data(to, 1_000_000 * unit),
                        0,
                    )
                    .await;
                assert_eq!(r["status"], "0x1", "mint {sym}: {r}");
            }
        }
    }
    let s = chain_server(&[&a, &b], Some(path)).await;
    Demo { a, b, manifest, s, _manifest_dir }
}

async fn post(s: &wm_server::Server, path: &str, body: &Value) -> Resp {
    request(
        s.addr,
        "POST",
        path,
        &[("content-type", "application/json")],
        body.to_string().as_bytes(),
    )
    .await
}

async fn quote(s: &wm_server::Server, body: Value) -> Resp {
    post(s, &format!("/v1/onramp/quote?{P}"), &body).await
}

fn reason(r: &Resp) -> String {
    let v = r.json();
    assert_eq!(v["status"], "FAILED", "{v}");
    v["reasons"][0]["description"].as_str().unwrap().to_string()
}

/// `POST /v1/generators/onrampurl`: the order id and the checkout path.
async fn order(s: &wm_server::Server, body: Value) -> (String, String) {
    let r = post(s, &format!("/v1/generators/onrampurl?{P}"), &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let url = v["url"].as_str().unwrap();
    let path = url
        .strip_prefix(&s.origin())
        .unwrap_or_else(|| panic!("{url} is not on this backend"))
        .to_string();
    (v["orderId"].as_str().unwrap().to_string(), path)
}

async fn status(s: &wm_server::Server, id: &str) -> Value {
    let r = get(s.addr, &format!("/v1/onramp/orders/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

async fn wait_final(s: &wm_server::Server, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let o = status(s, id).await;
        if o["status"] == "COMPLETED" || o["status"] == "FAILED" {
            return o;
        }
        assert_eq!(o["status"], "PROCESSING", "{o}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "not paid out: {o}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The blockchain API's price of a CAIP-10 asset (once the indexer has seen the token).
async fn fungible_price(s: &wm_server::Server, caip10: &str) -> f64 {
    let started = Instant::now();
    loop {
        let v = post(
            s,
            "/v1/fungible/price",
            &json!({"projectId": "demo-project", "currency": "usd", "addresses": [caip10]}),
        )
        .await
        .json();
        if let Some(p) = v["fungibles"][0]["price"].as_f64() {
            return p;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no price for {caip10}: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn card(number: &str) -> Value {
    json!({"cardNumber": number, "expiry": "12/35", "cvc": "123"})
}

fn units(amount: &str, decimals: u32) -> u128 {
    common::chain::numeric_to_units(amount, decimals)
        .parse()
        .unwrap()
}

fn dec(s: &str) -> u128 {
    s.parse().unwrap()
}

// ----- options and quotes ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_list_each_chains_currencies_and_both_payment_methods_with_limits() {
    let d = demo().await;
    let r = get(d.s.addr, &format!("/v1/onramp/options?{P}")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let pay = v["paymentCurrencies"].as_array().unwrap();
    assert_eq!(pay.len(), 2);
    for (c, id) in pay.iter().zip(["USD", "EUR"]) {
        assert_eq!(c["id"], id);
        assert_eq!(
            c["payment_method_limits"],
            json!([{"id": "card", "min": "10.00", "max": "7500.00"},
                   {"id": "bank_account", "min": "10.00", "max": "25000.00"}])
        );
    }
    let buy = v["purchaseCurrencies"].as_array().unwrap();
    let ids: Vec<&str> = buy.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["USDC", "ETH", "WMT"]);
    for c in buy {
        let nets = c["networks"].as_array().unwrap();
        let names: Vec<&str> = nets.iter().map(|n| n["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["eip155:31337", "eip155:31338"], "{c}");
        assert_eq!(nets[0]["chain_id"], "31337");
        assert_eq!(nets[1]["display_name"], "Anvil B");
        if c["id"] != "ETH" {
            let sym = c["id"].as_str().unwrap();
            assert_eq!(
                nets[1]["contract_address"],
                json!(manifest_token(&d.manifest, 31338, sym))
            );
        }
    }
    let providers: Vec<(&str, &str)> = v["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["feePercent"].as_str().unwrap()))
        .collect();
    assert_eq!(providers, [("meld", "1.00"), ("coinbase", "2.00")]);
    // The core's own reading of the answer.
    let parsed: wm_core::service::entities::OnrampOptions = serde_json::from_value(v).unwrap();
    assert_eq!(parsed.purchase_currencies[0].symbol, "USDC");
    // Project checks as on the other blockchain API routes.
    assert_eq!(get(d.s.addr, "/v1/onramp/options").await.status, 400);
    assert_eq!(
        get(d.s.addr, "/v1/onramp/options?projectId=server-error")
            .await
            .status,
        500
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotes_per_provider_are_the_amount_minus_the_fee_at_the_price() {
    let d = demo().await;
    let q = |buy: &str, pay: &str, amount: Value, network: &str, provider: Option<&str>| {
        let mut b = json!({"purchaseCurrency": buy, "paymentCurrency": pay, "amount": amount, "network": network});
        if let Some(p) = provider {
            b["provider"] = json!(p);
        }
        b
    };
    // USDC at 1 USD: 100 − 1 % = 99, 100 − 2 % = 98.
    let r = quote(
        &d.s,
        q("USDC", "USD", json!("100"), "eip155:31337", Some("meld")),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(
        v["purchaseAmount"],
        json!({"amount": "99", "currency": "USDC"})
    );
    assert_eq!(v["fee"], json!({"amount": "1.00", "currency": "USD"}));
    assert_eq!(v["coinbaseFee"], v["fee"]);
    assert_eq!(v["paymentTotal"]["amount"], "100.00");
    assert_eq!(v["paymentSubtotal"]["amount"], "99.00");
    assert_eq!(v["networkFee"]["amount"], "0.00");
    assert_eq!(
        (v["provider"].as_str(), v["network"].as_str()),
        (Some("meld"), Some("eip155:31337"))
    );
    assert!(v["quoteId"].as_str().unwrap().starts_with("quote_"));
    let parsed: wm_core::service::entities::OnrampQuote = serde_json::from_value(v).unwrap();
    assert_eq!(parsed.purchase_amount.amount, "99");

    let r = quote(
        &d.s,
        q("USDC", "USD", json!(100), "eip155:31338", Some("coinbase")),
    )
    .await;
    let v = r.json();
    assert_eq!(v["purchaseAmount"]["amount"], "98", "{v}");
    assert_eq!(v["fee"]["amount"], "2.00");
    // Without a provider: the best quote (meld's).
    let v = quote(
        &d.s,
        q("USDC", "USD", json!("100.00"), "eip155:31338", None),
    )
    .await
    .json();
    assert_eq!(
        (
            v["provider"].as_str(),
            v["purchaseAmount"]["amount"].as_str()
        ),
        (Some("meld"), Some("99"))
    );
    // EUR = 1.08 USD: (250 − 2 %) × 1.08 = 264.60 USDC.
    let v = quote(
        &d.s,
        q(
            "USDC",
            "EUR",
            json!("250"),
            "eip155:31337",
            Some("coinbase"),
        ),
    )
    .await
    .json();
    assert_eq!(v["purchaseAmount"]["amount"], "264.6", "{v}");
    assert_eq!(v["fee"], json!({"amount": "5.00", "currency": "EUR"}));
    // ETH at the blockchain API's price (3000 USD): (100 − 1 %) / 3000 = 0.033.
    let price = fungible_price(
        &d.s,
        "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    )
    .await;
    let v = quote(
        &d.s,
        q("ETH", "USD", json!("100"), "eip155:31337", Some("meld")),
    )
    .await
    .json();
    let eth: f64 = v["purchaseAmount"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((eth - 99.0 / price).abs() < 1e-8, "{eth} vs 99/{price}");
    // WMT (the 18-decimal demo token) at its price: 0.25 USD → (100 − 2 %) / 0.25 = 392.
    let wmt = manifest_token(&d.manifest, 31337, "WMT");
    let wmt_price = fungible_price(&d.s, &format!("eip155:31337:{wmt}")).await;
    let v = quote(
        &d.s,
        q("WMT", "USD", json!("100"), "31337", Some("coinbase")),
    )
    .await
    .json();
    let got: f64 = v["purchaseAmount"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (got - 98.0 / wmt_price).abs() < 1e-6,
        "{got} vs 98/{wmt_price}"
    );
    // AppKit's body: currencies as objects, the network as the currency's symbol.
    let appkit = json!({
        "purchaseCurrency": {"id": "2b92315d-eab7-5bef-84fa-089a131333f5", "name": "USD Coin", "symbol": "USDC", "networks": []},
        "paymentCurrency": {"id": "USD", "payment_method_limits": []},
        "amount": "50", "network": "USDC"});
    let v = quote(&d.s, appkit).await.json();
    assert_eq!(v["purchaseAmount"]["amount"], "49.5", "{v}");

    // Limits, with clear messages.
    let r = quote(&d.s, q("USDC", "USD", json!("9.99"), "eip155:31337", None)).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        reason(&r),
        "9.99 USD is below the card minimum of 10.00 USD"
    );
    let r = quote(
        &d.s,
        q("USDC", "EUR", json!("7500.01"), "eip155:31337", None),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        reason(&r),
        "7500.01 EUR is above the card maximum of 7500.00 EUR"
    );
    let mut bank = q("USDC", "USD", json!("25000"), "eip155:31337", None);
    bank["paymentMethod"] = json!("bank_account");
    assert_eq!(quote(&d.s, bank.clone()).await.status, 200);
    bank["amount"] = json!("25000.01");
    let r = quote(&d.s, bank).await;
    assert_eq!(
        reason(&r),
        "25000.01 USD is above the bank account maximum of 25000.00 USD"
    );
    let r = quote(
        &d.s,
        q("USDC", "USD", json!("10.001"), "eip155:31337", None),
    )
    .await;
    assert_eq!(reason(&r), "amount \"10.001\" has more than 2 decimals");
}

// ----- orders, checkout, payouts ----------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paying_with_the_test_card_pays_out_usdc_on_anvil_and_completes_the_order() {
    let d = demo().await;
    let usdc = manifest_token(&d.manifest, 31337, "USDC");
    let before = dec(&d.a.balance_of(&usdc, BUYER).await);
    let meld_before = dec(&d.a.balance_of(&usdc, MELD).await);
    let (id, path) = order(
        &d.s,
        json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337"], "assets": ["USDC"]}],
               "defaultNetwork": "eip155:31337", "partnerUserId": BUYER, "defaultExperience": "buy",
               "presetFiatAmount": 100, "presetCryptoAmount": 99}),
    )
    .await;
    assert_eq!(path, format!("/onramp/meld/checkout/{id}"));
    let o = status(&d.s, &id).await;
    assert_eq!(o["status"], "PENDING");
    assert_eq!(
        (
            o["purchaseAmount"].as_str(),
            o["paymentAmount"].as_str(),
            o["fee"].as_str()
        ),
        (Some("99"), Some("100.00"), Some("1.00"))
    );
    assert_eq!(o["destination"].as_str().unwrap().to_lowercase(), BUYER);
    assert_eq!(o["network"], "eip155:31337");

    // The checkout page: amount, fee, what one receives, where; no inline script; a strict CSP.
    let page = get(d.s.addr, &path).await;
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").unwrap();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    let html = page.text();
    for s in [
        "Meld (local)",
        "100.00 USD",
        "1.00 USD (1.00 %)",
        "99 USDC",
        "Anvil A (eip155:31337)",
        "name=\"cardNumber\"",
        "name=\"expiry\"",
        "name=\"cvc\"",
        "/onramp/assets/checkout.js",
    ] {
        assert!(html.contains(s), "{s} not in the page");
    }
    assert!(!html.contains("<script>"), "inline script");
    for asset in ["checkout.js", "checkout.css"] {
        let r = get(d.s.addr, &format!("/onramp/assets/{asset}")).await;
        assert_eq!(r.status, 200, "{asset}");
    }
    // The page's provider only.
    assert_eq!(
        get(d.s.addr, &format!("/onramp/coinbase/checkout/{id}"))
            .await
            .status,
        404
    );

    let r = post(&d.s, &format!("{path}/pay"), &card("4242 4242 4242 4242")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let o = wait_final(&d.s, &id).await;
    assert_eq!(o["status"], "COMPLETED", "{o}");
    let hash = o["txHash"].as_str().unwrap();
    let receipt = d.a.receipt(&json!(hash)).await;
    assert_eq!(receipt["status"], "0x1");
    assert_eq!(receipt["from"], MELD);
    assert_eq!(receipt["to"].as_str().unwrap(), usdc);
    assert_eq!(
        dec(&d.a.balance_of(&usdc, BUYER).await),
        before + 99_000_000
    );
    assert_eq!(
        dec(&d.a.balance_of(&usdc, MELD).await),
        meld_before - 99_000_000
    );
    // Paid once only.
    let r = post(&d.s, &format!("{path}/pay"), &card("4242424242424242")).await;
    assert_eq!(r.status, 409);
    assert_eq!(reason(&r), "This order is already paid (status COMPLETED)");
    // The page now says so, without the form.
    let html = get(d.s.addr, &path).await.text();
    assert!(
        html.contains("You can close this window") && html.contains(hash),
        "{html}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coinbase_pays_out_eth_on_the_second_chain_for_a_preset_crypto_amount() {
    let d = demo().await;
    let before = dec(&d.b.eth_balance(BUYER).await);
    let other_chain = dec(&d.a.eth_balance(BUYER).await);
    let (id, path) = order(
        &d.s,
        json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337", "eip155:31338"], "assets": ["ETH"]}],
               "defaultNetwork": "31338", "partnerUserId": "user-1", "provider": "coinbase",
               "presetCryptoAmount": "0.5"}),
    )
    .await;
    assert!(path.starts_with("/onramp/coinbase/checkout/"), "{path}");
    let o = status(&d.s, &id).await;
    // 0.5 ETH at 3000 USD with a 2 % fee: 1530.62 USD (rounded up to the cent).
    assert_eq!(
        (o["paymentAmount"].as_str(), o["fee"].as_str()),
        (Some("1530.62"), Some("30.61")),
        "{o}"
    );
    let bought = o["purchaseAmount"].as_str().unwrap().to_string();
    assert!(bought.starts_with("0.5"), "{bought}");
    // A plain form post (no script) is answered with a redirect to the page.
    let r = request(
        d.s.addr,
        "POST",
        &format!("{path}/pay"),
        &[("content-type", "application/x-www-form-urlencoded")],
        b"cardNumber=4242+4242+4242+4242&expiry=12%2F35&cvc=999",
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location"), Some(path.as_str()));
    let o = wait_final(&d.s, &id).await;
    assert_eq!(o["status"], "COMPLETED", "{o}");
    let receipt = d.b.receipt(&o["txHash"]).await;
    assert_eq!(
        (receipt["status"].as_str(), receipt["from"].as_str()),
        (Some("0x1"), Some(COINBASE))
    );
    assert_eq!(
        dec(&d.b.eth_balance(BUYER).await),
        before + units(&bought, 18)
    );
    assert_eq!(dec(&d.a.eth_balance(BUYER).await), other_chain);
    // The history call's `onramp` (spec §7): the purchase is Coinbase's, read from the chain once
    // indexed; Meld has none.
    let history = |provider: &str| format!("/v1/account/{BUYER}/history?{P}&chainId=eip155:31338&onramp={provider}");
    let mut listed = Value::Null;
    for _ in 0..100 {
        listed = get(d.s.addr, &history("coinbase")).await.json();
        if listed["data"].as_array().is_some_and(|l| !l.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let p = &listed["data"][0];
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(p["metadata"]["hash"], o["txHash"], "{p}");
    assert_eq!(
        (p["metadata"]["operationType"].as_str(), p["metadata"]["status"].as_str()),
        (Some("buy"), Some("ONRAMP_TRANSACTION_STATUS_SUCCESS"))
    );
    assert_eq!(p["metadata"]["sentFrom"].as_str().map(str::to_lowercase), Some(COINBASE.to_lowercase()));
    assert_eq!(p["transfers"][0]["quantity"]["numeric"].as_str().map(|q| q.starts_with("0.5")), Some(true), "{p}");
    let meld: Value = get(d.s.addr, &history("meld")).await.json();
    assert_eq!(meld["data"], json!([]), "nothing bought from Meld");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_card_is_refused_and_nothing_is_paid() {
    let d = demo().await;
    let usdc = manifest_token(&d.manifest, 31337, "USDC");
    let before = d.a.balance_of(&usdc, BUYER).await;
    let head = d.a.block_number().await;
    let (id, path) = order(
        &d.s,
        json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337"]}],
               "partnerUserId": BUYER, "presetFiatAmount": "20"}),
    )
    .await;
    let pay = format!("{path}/pay");
    let r = post(&d.s, &pay, &card("4000 0000 0000 0002")).await;
    assert_eq!(r.status, 402);
    assert_eq!(
        reason(&r),
        "Card declined: Meld (local) accepts only the test card 4242 4242 4242 4242 (any future expiry, any CVC)"
    );
    let r = post(&d.s, &pay, &card("4242 4242 4242 4241")).await;
    assert_eq!(
        (r.status, reason(&r)),
        (
            400,
            "The card number is not valid (check the digits)".into()
        )
    );
    let r = post(
        &d.s,
        &pay,
        &json!({"cardNumber": "4242424242424242", "expiry": "01/20", "cvc": "123"}),
    )
    .await;
    assert_eq!((r.status, reason(&r)), (400, "The card has expired".into()));
    let r = post(
        &d.s,
        &pay,
        &json!({"cardNumber": "4242424242424242", "expiry": "12/35", "cvc": "1"}),
    )
    .await;
    assert_eq!(r.json()["reasons"][0]["field"], "cvc");
    // Without script: the page again, with the message.
    let r = request(
        d.s.addr,
        "POST",
        &pay,
        &[("content-type", "application/x-www-form-urlencoded")],
        b"cardNumber=5555555555554444&expiry=12%2F35&cvc=123",
    )
    .await;
    assert_eq!(r.status, 402);
    assert!(r
        .text()
        .contains("Card declined: Meld (local) accepts only the test card"));
    assert!(r.header("content-security-policy").is_some());

    let o = status(&d.s, &id).await;
    assert_eq!(o["status"], "PENDING");
    assert!(o.get("txHash").is_none());
    assert_eq!(d.a.balance_of(&usdc, BUYER).await, before);
    assert_eq!(d.a.block_number().await, head, "nothing was sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_fails_when_the_provider_cannot_pay_it_out() {
    let d = demo().await;
    // Meld gives all its WMT on chain A away.
    let wmt = manifest_token(&d.manifest, 31337, "WMT");
    let all: u128 = dec(&d.a.balance_of(&wmt, MELD).await);
    d.a.send(MELD, Some(&wmt), &transfer_data(ACCOUNTS[9], all), 0)
        .await;
    let (id, path) = order(
        &d.s,
        json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337"], "assets": ["WMT"]}],
               "partnerUserId": "u", "presetFiatAmount": "10"}),
    )
    .await;
    let r = post(&d.s, &format!("{path}/pay"), &card("4242424242424242")).await;
    assert_eq!(r.status, 200);
    let o = wait_final(&d.s, &id).await;
    assert_eq!(o["status"], "FAILED");
    let e = o["error"].as_str().unwrap();
    assert!(
        e.contains("Meld (local) cannot pay out") && e.contains("holds 0 WMT"),
        "{e}"
    );
    assert_eq!(d.a.balance_of(&wmt, BUYER).await, "0");
}

// ----- refusals ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_inputs_get_clear_4xx_answers() {
    let d = demo().await;
    let url = format!("/v1/generators/onrampurl?{P}");
    let good = json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337"], "assets": ["USDC"]}],
                      "partnerUserId": "u", "presetFiatAmount": "50"});
    let with = |k: &str, v: Value| {
        let mut b = good.clone();
        b[k] = v;
        b
    };
    let wallet = |w: Value| with("destinationWallets", json!([w]));
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!([]), 400, "body must be a JSON object"),
        (json!("x"), 400, "body must be a JSON object"),
        (with("destinationWallets", json!([])), 400, "must list 1 to 10 wallets"),
        (with("destinationWallets", json!(vec![json!({"address": BUYER, "blockchains": ["31337"]}); 11])), 400, "must list 1 to 10"),
        (wallet(json!({"address": "0x123", "blockchains": ["eip155:31337"]})), 400, "destinationWallets[0].address must be an address"),
        (wallet(json!({"address": BUYER, "blockchains": ["eip155:1"]})), 400, "Unknown network \"eip155:1\" in destinationWallets[0].blockchains (this backend serves eip155:31337, eip155:31338)"),
        (wallet(json!({"address": BUYER, "blockchains": []})), 400, "destinationWallets[0].blockchains must list 1 to 20"),
        (wallet(json!({"address": BUYER, "blockchains": [7]})), 400, "must hold strings"),
        (wallet(json!({"address": BUYER, "blockchains": ["eip155:31337"], "assets": ["DOGE"]})), 400, "Unknown asset \"DOGE\""),
        (with("defaultNetwork", json!("eip155:31338")), 400, "No destination wallet lists eip155:31338"),
        (with("defaultNetwork", json!("x".repeat(200))), 400, "longer than 128"),
        (with("partnerUserId", json!("")), 400, "partnerUserId is required"),
        (with("defaultExperience", json!("sell")), 400, "defaultExperience must be \"buy\""),
        (with("provider", json!("moonpay")), 400, "Unknown provider \"moonpay\""),
        (with("paymentCurrency", json!("GBP")), 400, "Unknown payment currency \"GBP\""),
        (with("presetFiatAmount", json!("-5")), 400, "must be a decimal number"),
        (with("presetFiatAmount", json!("1e3")), 400, "must be a decimal number"),
        (with("presetFiatAmount", json!(true)), 400, "must be a decimal number"),
        (with("presetFiatAmount", json!("5")), 400, "5.00 USD is below the card minimum of 10.00 USD"),
        (with("presetFiatAmount", json!("10000")), 400, "10000.00 USD is above the card maximum of 7500.00 USD"),
        (with("presetFiatAmount", json!("9".repeat(39))), 400, "too large"),
        (with("presetFiatAmount", Value::Null), 400, "presetFiatAmount (or presetCryptoAmount) is required"),
        (json!({"destinationWallets": good["destinationWallets"], "partnerUserId": "u", "presetCryptoAmount": "0.0000001"}), 400, "at most 6 decimals"),
        (json!({"destinationWallets": good["destinationWallets"], "partnerUserId": "u", "presetCryptoAmount": "1000000"}), 400, "above the card maximum"),
    ];
    for (body, want, msg) in cases {
        let r = post(&d.s, &url, &body).await;
        assert_eq!(r.status, want, "{body}: {}", r.text());
        assert!(
            reason(&r).contains(msg),
            "{body}: {} does not say {msg:?}",
            r.text()
        );
    }
    let q = format!("/v1/onramp/quote?{P}");
    let good_q = json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100", "network": "eip155:31337"});
    let with_q = |k: &str, v: Value| {
        let mut b = good_q.clone();
        b[k] = v;
        b
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            with_q("purchaseCurrency", json!("PTS")),
            "Unknown purchase currency \"PTS\" (offered: ETH, USDC, WMT)",
        ),
        (
            with_q("purchaseCurrency", json!({"id": 5})),
            "purchaseCurrency.id must be a string",
        ),
        (
            with_q("purchaseCurrency", json!(["USDC"])),
            "must be a currency id",
        ),
        (
            with_q("paymentCurrency", Value::Null),
            "paymentCurrency is required",
        ),
        (
            with_q("network", json!("eip155:1")),
            "Unknown network \"eip155:1\"",
        ),
        (
            with_q("amount", json!("")),
            "amount must be a decimal number",
        ),
        (
            with_q("amount", json!("NaN")),
            "amount must be a decimal number",
        ),
        (with_q("amount", json!("0")), "below the card minimum"),
        (
            with_q("paymentMethod", json!("cash")),
            "Unknown payment method \"cash\"",
        ),
        (with_q("provider", json!(1)), "provider must be a string"),
    ];
    for (body, msg) in cases {
        let r = post(&d.s, &q, &body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        assert!(
            reason(&r).contains(msg),
            "{body}: {} does not say {msg:?}",
            r.text()
        );
    }
    // Not JSON, too large, not a project.
    let r = request(
        d.s.addr,
        "POST",
        &q,
        &[("content-type", "application/json")],
        b"{not json",
    )
    .await;
    assert_eq!(r.status, 400);
    let big = format!("{{\"amount\": \"{}\"}}", "1".repeat(20_000));
    let r = request(
        d.s.addr,
        "POST",
        &q,
        &[("content-type", "application/json")],
        big.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 413);
    assert_eq!(post(&d.s, "/v1/onramp/quote", &good_q).await.status, 400);
    assert_eq!(
        post(&d.s, "/v1/onramp/quote?projectId=bad", &good_q)
            .await
            .status,
        403
    );

    // Orders and checkout paths.
    assert_eq!(
        get(d.s.addr, "/v1/onramp/orders/ord_nope").await.status,
        404
    );
    assert_eq!(get(d.s.addr, "/v1/onramp/orders/a%20b").await.status, 400);
    assert_eq!(
        get(d.s.addr, &format!("/v1/onramp/orders/{}", "a".repeat(65)))
            .await
            .status,
        400
    );
    assert_eq!(
        get(d.s.addr, "/onramp/stripe/checkout/ord_1").await.status,
        404
    );
    assert_eq!(
        get(d.s.addr, "/onramp/meld/checkout/%3Cscript%3E")
            .await
            .status,
        400
    );
    assert_eq!(
        get(d.s.addr, "/onramp/assets/..%2Fmod.rs").await.status,
        404
    );
    let (_, path) = order(&d.s, good.clone()).await;
    let pay = format!("{path}/pay");
    let r = request(
        d.s.addr,
        "POST",
        &pay,
        &[("content-type", "text/plain")],
        b"4242",
    )
    .await;
    assert_eq!(r.status, 415);
    let r = request(
        d.s.addr,
        "POST",
        &pay,
        &[("content-type", "application/json")],
        b"[1]",
    )
    .await;
    assert_eq!(r.status, 400);
    let r = request(
        d.s.addr,
        "POST",
        &pay,
        &[("content-type", "application/json")],
        &[b' '; 5000],
    )
    .await;
    assert_eq!(r.status, 413);
    let r = post(
        &d.s,
        &pay,
        &json!({"cardNumber": "<b>4242</b>", "expiry": "12/35", "cvc": "123"}),
    )
    .await;
    assert_eq!(r.status, 400);
    // Test switch: booleans only, known switches only.
    assert_eq!(
        post(&d.s, "/onramp/fail", &json!({"options": "yes"}))
            .await
            .status,
        400
    );
    assert_eq!(
        post(&d.s, "/onramp/fail", &json!({"swap": true}))
            .await
            .status,
        400
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_test_switch_makes_options_and_quote_answer_500_until_reset() {
    // No chain is needed for this: the backend's chains need not answer.
    let s = common::start().await;
    let body = json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "100", "network": "eip155:31337"});
    assert_eq!(
        get(s.addr, &format!("/v1/onramp/options?{P}")).await.status,
        200
    );
    assert_eq!(quote(&s, body.clone()).await.status, 200);
    let r = post(&s, "/onramp/fail", &json!({"options": true})).await;
    assert_eq!(r.json(), json!({"options": true, "quote": false}));
    assert_eq!(
        get(s.addr, &format!("/v1/onramp/options?{P}")).await.status,
        500
    );
    assert_eq!(quote(&s, body.clone()).await.status, 200);
    post(&s, "/onramp/fail", &json!({"quote": true})).await;
    let r = quote(&s, body.clone()).await;
    assert_eq!(r.status, 500);
    assert_eq!(
        reason(&r),
        "Internal server error (forced by POST /onramp/fail)"
    );
    assert_eq!(
        get(s.addr, "/onramp/fail").await.json(),
        json!({"options": true, "quote": true})
    );
    post(
        &s,
        "/onramp/fail",
        &json!({"options": false, "quote": false}),
    )
    .await;
    assert_eq!(
        get(s.addr, &format!("/v1/onramp/options?{P}")).await.status,
        200
    );
    assert_eq!(quote(&s, body).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_manifest_only_each_chains_eth_is_offered() {
    let s = common::start().await;
    let v = get(s.addr, &format!("/v1/onramp/options?{P}")).await.json();
    let ids: Vec<&str> = v["purchaseCurrencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ETH"]);
    let r = quote(&s, json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100", "network": "eip155:31337"})).await;
    assert_eq!(
        (r.status, reason(&r)),
        (
            400,
            "Unknown purchase currency \"USDC\" (offered: ETH)".into()
        )
    );
    let v = quote(&s, json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "30", "network": "eip155:31338"})).await.json();
    assert_eq!(
        v["purchaseAmount"],
        json!({"amount": "0.0099", "currency": "ETH"}),
        "{v}"
    );
}

/// A backend without anvil or manifest (each chain's ETH has a fixed price) and these on-ramp
/// bounds.
async fn plain_with(onramp: wm_server::onramp::OnrampConfig) -> wm_server::Server {
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546")
            .unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let config = wm_server::ServerConfig {
        onramp,
        ..Default::default()
    };
    wm_server::start_with(options, config, 0, std::future::pending())
        .await
        .expect("server starts")
}

fn eth_order() -> Value {
    json!({"destinationWallets": [{"address": BUYER, "blockchains": ["eip155:31337"], "assets": ["ETH"]}],
           "partnerUserId": "u", "presetFiatAmount": "50"})
}

#[tokio::test]
async fn a_visitors_pending_order_survives_a_flood_of_orders_from_another_address() {
    let s = plain_with(wm_server::onramp::OnrampConfig {
        max_orders: 20,
        max_orders_per_client: 5,
        order_budget: wm_server::client::Budget {
            burst: 1000,
            every: Duration::from_millis(1),
        },
        ..Default::default()
    })
    .await;
    let (id, checkout) = order(&s, eth_order()).await;
    // 100 orders from 127.0.0.2: five times the table. The flood only replaces its own.
    let url = format!("/v1/generators/onrampurl?{P}");
    let body = eth_order().to_string();
    let headers = [("content-type", "application/json")];
    for i in 0..100 {
        let r = common::request_from(
            common::OTHER_CLIENT,
            s.addr,
            "POST",
            &url,
            &headers,
            body.as_bytes(),
        )
        .await;
        assert_eq!(r.status, 200, "{i}: {}", r.text());
    }
    assert_eq!(status(&s, &id).await["status"], "PENDING");
    let page = get(s.addr, &checkout).await;
    assert_eq!(page.status, 200, "{}", page.text());
    // Other visitors fill the table with live orders: a newcomer is then refused, nobody evicted.
    for host in 3..6u8 {
        let from = std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, host));
        for _ in 0..5 {
            let r =
                common::request_from(from, s.addr, "POST", &url, &headers, body.as_bytes()).await;
            assert_eq!(r.status, 200, "{}", r.text());
        }
    }
    let newcomer = std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 9));
    let r = common::request_from(newcomer, s.addr, "POST", &url, &headers, body.as_bytes()).await;
    assert_eq!(
        (r.status, reason(&r)),
        (
            503,
            "The on-ramp is full of open orders: try again in a few minutes".into()
        )
    );
    assert_eq!(status(&s, &id).await["status"], "PENDING");
}

#[tokio::test]
async fn order_creation_is_limited_per_client_address() {
    let s = plain_with(wm_server::onramp::OnrampConfig {
        order_budget: wm_server::client::Budget {
            burst: 3,
            every: Duration::from_secs(60),
        },
        ..Default::default()
    })
    .await;
    let url = format!("/v1/generators/onrampurl?{P}");
    let body = eth_order().to_string();
    let headers = [("content-type", "application/json")];
    let from = |ip| {
        let (url, body) = (url.clone(), body.clone());
        let addr = s.addr;
        async move { common::request_from(ip, addr, "POST", &url, &headers, body.as_bytes()).await }
    };
    for _ in 0..3 {
        assert_eq!(from(common::OTHER_CLIENT).await.status, 200);
    }
    let r = from(common::OTHER_CLIENT).await;
    assert_eq!(r.status, 429, "{}", r.text());
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((59..=60).contains(&wait), "{wait}");
    assert_eq!(
        reason(&r),
        format!("Too many orders from your network: please try again after {wait} seconds")
    );
    // The visitor at 127.0.0.1 has its own budget.
    order(&s, eth_order()).await;
}
