//! The convert (swap) API against real anvil chains with the demo's Uniswap V2 market
//! (demo/contracts/deploy.mjs → uniswap.mjs): quotes are the router's `getAmountsOut`, built
//! transactions succeed when an unlocked dev account sends them and move its balances by the quote,
//! the slippage bound holds, prices follow the pools, and bad requests get a clear 4xx.
//! Needs `node_modules` (anvil, solc, ethers, @uniswap/*): `make test` installs them.

mod common;

use common::chain::{
    chain_server, deploy_demo, hex_to_dec, manifest_token, numeric_to_units, wait_indexed, Anvil,
    ACCOUNTS,
};
use common::{get, request};
use serde_json::{json, Value};

const P: &str = "projectId=demo-project";
const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
const ETH: u128 = 1_000_000_000_000_000_000;

/// One anvil with the demo contracts and market, and a backend over it reading that manifest.
async fn setup() -> (Anvil, wm_server::Server, Value, wm_server::testing::TempDir) {
    let anvil = Anvil::start(31337).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&anvil], "http://127.0.0.1:1");
    let s = chain_server(&[&anvil], Some(path)).await;
    (anvil, s, manifest, _manifest_dir)
}

fn uniswap(manifest: &Value, field: &str) -> String {
    manifest["chains"][0]["uniswap"][field]
        .as_str()
        .unwrap()
        .to_lowercase()
}

fn caip10(a: &str) -> String {
    format!("eip155:31337:{a}")
}

fn word(n: u128) -> String {
    format!("{n:064x}")
}

fn word_addr(a: &str) -> String {
    format!("{:0>64}", a.trim_start_matches("0x").to_lowercase())
}

fn u128_of(hex_word: &str) -> u128 {
    let h = hex_word.trim_start_matches("0x");
    let h = h.trim_start_matches('0');
    assert!(h.len() <= 32, "{hex_word} does not fit 128 bits");
    if h.is_empty() {
        0
    } else {
        u128::from_str_radix(h, 16).unwrap()
    }
}

fn dec(s: &Value) -> u128 {
    s.as_str()
        .unwrap_or_else(|| panic!("not a string: {s}"))
        .parse()
        .unwrap()
}

/// `router.getAmountsOut(amount, path)` read by the test itself; `None` when it reverts.
async fn amounts_out(
    anvil: &Anvil,
    router: &str,
    amount: u128,
    path: &[&str],
) -> Option<Vec<u128>> {
    let mut data = format!(
        "0xd06ca61f{}{}{}",
        word(amount),
        word(0x40),
        word(path.len() as u128)
    );
    for a in path {
        data.push_str(&word_addr(a));
    }
    let r = anvil
        .rpc_raw("eth_call", json!([{"to": router, "data": data}, "latest"]))
        .await;
    let hex = r["result"].as_str()?.trim_start_matches("0x").to_string();
    let words: Vec<&str> = (0..hex.len() / 64)
        .map(|i| &hex[i * 64..i * 64 + 64])
        .collect();
    let len = u128_of(words[1]) as usize;
    Some(words[2..2 + len].iter().map(|w| u128_of(w)).collect())
}

async fn reserves(anvil: &Anvil, pair: &str) -> (u128, u128) {
    let r = anvil
        .rpc(
            "eth_call",
            json!([{"to": pair, "data": "0x0902f1ac"}, "latest"]),
        )
        .await;
    let h = r.as_str().unwrap().trim_start_matches("0x");
    (u128_of(&h[..64]), u128_of(&h[64..128]))
}

async fn quote(s: &wm_server::Server, from: &str, to: &str, amount: u128) -> u128 {
    let r = get(
        s.addr,
        &format!(
            "/v1/convert/quotes?amount={amount}&from={}&to={}&userAddress={}&{P}",
            caip10(from),
            caip10(to),
            caip10(ACCOUNTS[0])
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let q = &v["quotes"][0];
    assert_eq!(q["fromAmount"], json!(amount.to_string()));
    assert_eq!(q["fromAccount"], json!(caip10(from)));
    assert_eq!(q["toAccount"], json!(caip10(to)));
    assert!(q["id"].is_null());
    dec(&q["toAmount"])
}

async fn build(s: &wm_server::Server, body: Value) -> common::Resp {
    request(
        s.addr,
        "POST",
        "/v1/convert/build-transaction",
        &[("content-type", "application/json")],
        body.to_string().as_bytes(),
    )
    .await
}

/// Sends a built `{tx}` from its `from` account (unlocked on anvil) and returns the receipt.
async fn send_built(anvil: &Anvil, tx: &Value) -> Value {
    let plain = |v: &Value| v.as_str().unwrap().rsplit(':').next().unwrap().to_string();
    let mut t = json!({
        "from": plain(&tx["from"]),
        "to": plain(&tx["to"]),
        "data": tx["data"],
        "value": format!("{:#x}", dec(&tx["value"])),
    });
    if let Some(gas) = tx["eip155"].get("gas") {
        t["gas"] = json!(format!("{:#x}", dec(gas)));
    }
    let hash = anvil.rpc("eth_sendTransaction", json!([t])).await;
    anvil.receipt(&hash).await
}

fn gas_cost(receipt: &Value) -> u128 {
    u128_of(receipt["gasUsed"].as_str().unwrap())
        * u128_of(receipt["effectiveGasPrice"].as_str().unwrap())
}

async fn token_balance(anvil: &Anvil, token: &str, who: &str) -> u128 {
    anvil.balance_of(token, who).await.parse().unwrap()
}

async fn eth_balance(anvil: &Anvil, who: &str) -> u128 {
    anvil.eth_balance(who).await.parse().unwrap()
}

// ----- tokens, quotes, gas price ----------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotes_are_the_routers_amounts_out_over_the_best_route() {
    let (anvil, s, manifest, _manifest_dir) = setup().await;
    let (usdc, wmt) = (
        manifest_token(&manifest, 31337, "USDC"),
        manifest_token(&manifest, 31337, "WMT"),
    );
    let (router, weth) = (uniswap(&manifest, "router"), uniswap(&manifest, "weth"));
    let onramp = &manifest["chains"][0]["onramp"]["providers"];
    assert_eq!(
        onramp,
        &json!([
            {"id": "meld", "address": "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"},
            {"id": "coinbase", "address": "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"},
        ])
    );
    for who in [ACCOUNTS[4], ACCOUNTS[5]] {
        assert_eq!(
            token_balance(&anvil, &usdc, who).await,
            1_000_000 * 1_000_000
        );
        assert_eq!(token_balance(&anvil, &wmt, who).await, 10_000 * ETH);
    }

    // Tokens: the native currency first, then every pooled token (not the spam one).
    let r = get(
        s.addr,
        &format!("/v1/convert/tokens?chainId=eip155:31337&{P}"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let tokens = r.json()["tokens"].as_array().unwrap().clone();
    let symbols: Vec<&str> = tokens
        .iter()
        .map(|t| t["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["ETH", "USDC", "WETH", "WMT"]);
    assert_eq!(tokens[0]["address"], json!(caip10(NATIVE)));
    assert_eq!(tokens[0]["decimals"], json!(18));
    assert_eq!(tokens[1]["address"], json!(caip10(&usdc)));
    assert_eq!(tokens[1]["name"], "USD Coin");
    assert_eq!(tokens[1]["decimals"], json!(6));
    assert!(tokens[1]["logoUri"]
        .as_str()
        .unwrap()
        .ends_with("/public/getTokenImage/usdc"));
    assert!(tokens.iter().all(|t| t["eip2612"] == json!(false)));
    let one = get(
        s.addr,
        &format!("/v1/convert/tokens?chainId=eip155:31337&address={wmt}&{P}"),
    )
    .await;
    assert_eq!(one.json()["tokens"].as_array().unwrap().len(), 1);

    // ETH → USDC: the direct pool; the same amount as the router says.
    let q = quote(&s, NATIVE, &usdc, ETH).await;
    let direct = amounts_out(&anvil, &router, ETH, &[&weth, &usdc])
        .await
        .unwrap();
    let via_wmt = amounts_out(&anvil, &router, ETH, &[&weth, &wmt, &usdc])
        .await
        .unwrap();
    assert_eq!(q, *direct.last().unwrap().max(via_wmt.last().unwrap()));
    assert!((2_950_000_000..3_000_000_000).contains(&q), "{q}");
    // USDC → WMT and WMT → ETH, each the best of the routes the router can take.
    for (from, to, amount, path_to) in [
        (&usdc, &wmt, 100_000_000u128, &wmt),
        (&wmt, &weth, 400 * ETH, &weth),
    ] {
        let to_asked = if path_to == &weth {
            NATIVE.to_string()
        } else {
            to.to_string()
        };
        let q = quote(&s, from, &to_asked, amount).await;
        let mut best = 0;
        for mid in [None, Some(&weth), Some(&usdc)] {
            let path: Vec<&str> = match mid {
                None => vec![from, path_to],
                Some(m) if m != from && m != path_to => vec![from, m, path_to],
                _ => continue,
            };
            if let Some(a) = amounts_out(&anvil, &router, amount, &path).await {
                best = best.max(*a.last().unwrap());
            }
        }
        assert_eq!(q, best, "{from} → {to_asked}");
        assert!(q > 0);
    }
    // A larger trade moves further along the curve: less per unit.
    let q10 = quote(&s, NATIVE, &usdc, 10 * ETH).await;
    assert!(q10 < 10 * q);

    // Gas price: the node's, then +10 % and +25 %.
    let r = get(
        s.addr,
        &format!("/v1/convert/gas-price?chainId=eip155:31337&{P}"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let g = r.json();
    let node: u128 = hex_to_dec(anvil.rpc("eth_gasPrice", json!([])).await.as_str().unwrap())
        .parse()
        .unwrap();
    assert_eq!(dec(&g["standard"]), node);
    assert_eq!(dec(&g["fast"]), node * 110 / 100);
    assert_eq!(dec(&g["instant"]), node * 125 / 100);
}

// ----- built transactions on the chain ----------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_swaps_succeed_and_move_balances_by_the_quote() {
    let (anvil, s, manifest, _manifest_dir) = setup().await;
    let (usdc, wmt) = (
        manifest_token(&manifest, 31337, "USDC"),
        manifest_token(&manifest, 31337, "WMT"),
    );
    let router = uniswap(&manifest, "router");
    let me = ACCOUNTS[6];

    // 1. ETH → USDC (swapExactETHForTokens), the gas estimated by the backend.
    let amount = 2 * ETH;
    let q = quote(&s, NATIVE, &usdc, amount).await;
    let r = build(
        &s,
        json!({
            "projectId": "demo-project", "amount": amount.to_string(), "from": caip10(NATIVE),
            "to": caip10(&usdc), "userAddress": caip10(me), "eip155": {"slippage": 1},
        }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let tx = r.json()["tx"].clone();
    assert_eq!(tx["from"], json!(caip10(me)));
    assert_eq!(tx["to"], json!(caip10(&router)));
    assert_eq!(tx["value"], json!(amount.to_string()));
    assert_eq!(dec(&tx["amount"]), q);
    assert!(tx["data"].as_str().unwrap().starts_with("0x7ff36ab5"));
    assert!(dec(&tx["eip155"]["gas"]) > 21_000 && dec(&tx["eip155"]["gasPrice"]) > 0);
    let (eth0, usdc0) = (
        eth_balance(&anvil, me).await,
        token_balance(&anvil, &usdc, me).await,
    );
    let receipt = send_built(&anvil, &tx).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    assert!(u128_of(receipt["gasUsed"].as_str().unwrap()) <= dec(&tx["eip155"]["gas"]));
    let got = token_balance(&anvil, &usdc, me).await - usdc0;
    // Nothing else traded in between: exactly the quote (within the slippage in any case).
    assert_eq!(got, q);
    assert_eq!(
        eth0 - eth_balance(&anvil, me).await,
        amount + gas_cost(&receipt)
    );

    // 2. USDC → WMT: the allowance first (0), then approve, then the swap.
    let amount = 1_000_000_000u128; // 1,000 USDC
    let addr = s.addr;
    let allowance = |who: &str| {
        let path = format!(
            "/v1/convert/allowance?tokenAddress={}&userAddress={}&{P}",
            caip10(&usdc),
            caip10(who)
        );
        async move { get(addr, &path).await.json()["allowance"].clone() }
    };
    assert_eq!(allowance(me).await, json!("0"));
    // Without the approval the swap would fail: the estimate says so, clearly.
    let body = json!({
        "projectId": "demo-project", "amount": amount.to_string(), "from": caip10(&usdc),
        "to": caip10(&wmt), "userAddress": caip10(me), "eip155": {"slippage": "0.5"},
    });
    let r = build(&s, body.clone()).await;
    assert_eq!(r.status, 400, "{}", r.text());
    let why = r.json()["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        why.contains("the swap would fail") && why.contains("approved the router"),
        "{why}"
    );
    let r = get(
        s.addr,
        &format!(
            "/v1/convert/build-approve?from={}&to={}&userAddress={}&{P}",
            caip10(&usdc),
            caip10(&wmt),
            caip10(me)
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let approve = r.json()["tx"].clone();
    assert_eq!(approve["from"], json!(caip10(&usdc)));
    assert_eq!(approve["to"], json!(caip10(&usdc)));
    assert_eq!(approve["value"], "0");
    assert_eq!(
        approve["data"],
        json!(format!(
            "0x095ea7b3{}{}",
            word_addr(&router),
            "f".repeat(64)
        ))
    );
    assert!(dec(&approve["eip155"]["gasPrice"]) > 0);
    // Sent to the token (AppKit sends it to `tx.from`'s address; here both are the token).
    let approve_tx = json!({"from": caip10(me), "to": approve["to"], "data": approve["data"], "value": "0", "eip155": {}});
    assert_eq!(send_built(&anvil, &approve_tx).await["status"], "0x1");
    assert_eq!(allowance(me).await, json!(U256_MAX));
    let q = quote(&s, &usdc, &wmt, amount).await;
    let r = build(&s, body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let tx = r.json()["tx"].clone();
    assert!(tx["data"].as_str().unwrap().starts_with("0x38ed1739"));
    assert_eq!(tx["value"], "0");
    let (usdc0, wmt0) = (
        token_balance(&anvil, &usdc, me).await,
        token_balance(&anvil, &wmt, me).await,
    );
    let receipt = send_built(&anvil, &tx).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    let trade_hash = receipt["transactionHash"].clone();
    assert_eq!(usdc0 - token_balance(&anvil, &usdc, me).await, amount);
    assert_eq!(token_balance(&anvil, &wmt, me).await - wmt0, q);

    // 3. WMT → ETH (swapExactTokensForETH), gas not estimated (as AppKit asks): a fixed limit.
    let amount = token_balance(&anvil, &wmt, me).await / 2;
    let approve = get(
        s.addr,
        &format!(
            "/v1/convert/build-approve?from={}&to={}&amount={amount}&{P}",
            caip10(&wmt),
            caip10(NATIVE)
        ),
    )
    .await
    .json()["tx"]
        .clone();
    assert_eq!(
        approve["data"],
        json!(format!("0x095ea7b3{}{}", word_addr(&router), word(amount)))
    );
    let approve_tx = json!({"from": caip10(me), "to": approve["to"], "data": approve["data"], "value": "0", "eip155": {}});
    assert_eq!(send_built(&anvil, &approve_tx).await["status"], "0x1");
    let q = quote(&s, &wmt, NATIVE, amount).await;
    let r = build(
        &s,
        json!({
            "projectId": "demo-project", "amount": amount.to_string(), "from": caip10(&wmt),
            "to": caip10(NATIVE), "userAddress": me, "disableEstimate": true,
        }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let tx = r.json()["tx"].clone();
    assert!(tx["data"].as_str().unwrap().starts_with("0x18cbafe5"));
    let (eth0, wmt0) = (
        eth_balance(&anvil, me).await,
        token_balance(&anvil, &wmt, me).await,
    );
    let receipt = send_built(&anvil, &tx).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    assert_eq!(eth_balance(&anvil, me).await + gas_cost(&receipt) - eth0, q);
    assert_eq!(wmt0 - token_balance(&anvil, &wmt, me).await, amount);

    // The blockchain API sees the token-for-token swap as a trade (USDC out, WMT in).
    wait_indexed(s.addr, &[&anvil]).await;
    let h = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&{P}"),
    )
    .await
    .json();
    let row = h["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metadata"]["hash"] == trade_hash)
        .expect("the swap is in the history");
    assert_eq!(row["metadata"]["operationType"], "trade");
    // ...and the token-for-ether one too: the ether the router unwrapped (WETH's Withdrawal log)
    // comes in, though it moved in no Transfer log.
    let row = h["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metadata"]["hash"] == receipt["transactionHash"])
        .expect("the token-for-ether swap is in the history");
    assert_eq!(row["metadata"]["operationType"], "trade", "{row}");
    let eth_in = row["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["fungible_info"]["symbol"] == "ETH")
        .expect("the ether received");
    assert_eq!(eth_in["direction"], "in");
    let numeric = eth_in["quantity"]["numeric"].as_str().unwrap();
    assert_eq!(
        numeric_to_units(numeric, 18),
        q.to_string(),
        "the quote, exactly"
    );
}

const U256_MAX: &str =
    "115792089237316195423570985008687907853269984665640564039457584007913129639935";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_slippage_bound_is_in_the_calldata_and_holds_on_chain() {
    let (anvil, s, manifest, _manifest_dir) = setup().await;
    let usdc = manifest_token(&manifest, 31337, "USDC");
    let (me, whale) = (ACCOUNTS[7], ACCOUNTS[8]);
    let amount = ETH;
    let body = |slippage: Value, who: &str| {
        json!({
            "projectId": "demo-project", "amount": amount.to_string(), "from": caip10(NATIVE),
            "to": caip10(&usdc), "userAddress": caip10(who), "eip155": {"slippage": slippage},
            "disableEstimate": true,
        })
    };
    // amountOutMin = out × (100 − slippage) / 100, the first argument of swapExactETHForTokens.
    let min_of = |tx: &Value| u128_of(&tx["data"].as_str().unwrap()[10..74]);
    for (slippage, keep_bps) in [
        (json!(1), 9900u128),
        (json!(0), 10_000),
        (json!("2.5"), 9750),
        (json!(50), 5000),
    ] {
        let tx = build(&s, body(slippage.clone(), me)).await.json()["tx"].clone();
        let out = dec(&tx["amount"]);
        assert_eq!(min_of(&tx), out * keep_bps / 10_000, "slippage {slippage}");
    }
    // Without eip155: 1 %.
    let mut no_slippage = body(json!(1), me);
    no_slippage.as_object_mut().unwrap().remove("eip155");
    let tx = build(&s, no_slippage).await.json()["tx"].clone();
    assert_eq!(min_of(&tx), dec(&tx["amount"]) * 99 / 100);

    // The price moves by less than the slippage before it is mined: it goes through, above the bound.
    let tx = build(&s, body(json!(1), me)).await.json()["tx"].clone();
    let small = build(&s, body(json!(1), whale)).await.json()["tx"].clone();
    assert_eq!(send_built(&anvil, &small).await["status"], "0x1");
    let usdc0 = token_balance(&anvil, &usdc, me).await;
    let receipt = send_built(&anvil, &tx).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    let got = token_balance(&anvil, &usdc, me).await - usdc0;
    assert!(
        got >= min_of(&tx) && got < dec(&tx["amount"]),
        "{got} vs {}",
        tx["amount"]
    );

    // It moves by more (a whale buys 50 ETH worth first): the router refuses, nothing is taken.
    let tx = build(&s, body(json!(1), me)).await.json()["tx"].clone();
    let mut whale_body = body(json!(1), whale);
    whale_body["amount"] = json!((50 * ETH).to_string());
    let big = build(&s, whale_body).await.json()["tx"].clone();
    assert_eq!(send_built(&anvil, &big).await["status"], "0x1");
    let (eth0, usdc0) = (
        eth_balance(&anvil, me).await,
        token_balance(&anvil, &usdc, me).await,
    );
    let receipt = send_built(&anvil, &tx).await;
    assert_eq!(
        receipt["status"], "0x0",
        "the bound did not hold: {receipt}"
    );
    assert_eq!(token_balance(&anvil, &usdc, me).await, usdc0);
    assert_eq!(eth0 - eth_balance(&anvil, me).await, gas_cost(&receipt));
}

// ----- prices from the pools --------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_follow_the_pools_reserves() {
    let (anvil, s, manifest, _manifest_dir) = setup().await;
    let usdc = manifest_token(&manifest, 31337, "USDC");
    let weth = uniswap(&manifest, "weth");
    let pair = |a: &str, b: &str| -> String {
        manifest["chains"][0]["uniswap"]["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["symbols"] == json!([a, b]))
            .unwrap()["address"]
            .as_str()
            .unwrap()
            .to_string()
    };
    wait_indexed(s.addr, &[&anvil]).await;
    let addr = s.addr;
    let balances = |who: &'static str| async move {
        get(
            addr,
            &format!("/v1/account/{who}/balance?currency=usd&chainId=eip155:31337&{P}"),
        )
        .await
        .json()["balances"]
            .as_array()
            .unwrap()
            .clone()
    };
    let price_of = |list: &[Value], sym: &str| {
        list.iter().find(|b| b["symbol"] == sym).unwrap()["price"]
            .as_f64()
            .unwrap()
    };
    // At deployment the pools hold the table's prices exactly.
    let list = balances(ACCOUNTS[0]).await;
    assert_eq!(price_of(&list, "ETH"), 3000.0);
    assert_eq!(price_of(&list, "USDC"), 1.0);
    assert_eq!(price_of(&list, "WMT"), 0.25);
    // A trade moves the ETH price: USDC reserve / WETH reserve of the pool.
    let r = build(
        &s,
        json!({
            "projectId": "demo-project", "amount": (100 * ETH).to_string(), "from": caip10(NATIVE),
            "to": caip10(&usdc), "userAddress": caip10(ACCOUNTS[3]), "eip155": {"slippage": 1},
        }),
    )
    .await;
    assert_eq!(send_built(&anvil, &r.json()["tx"]).await["status"], "0x1");
    wait_indexed(s.addr, &[&anvil]).await;
    let (r_usdc, r_weth) = reserves(&anvil, &pair("USDC", "WETH")).await;
    let expected = (r_usdc as f64 / 1e6) / (r_weth as f64 / 1e18);
    assert!(expected < 2600.0, "{expected}");
    let list = balances(ACCOUNTS[0]).await;
    assert!(
        (price_of(&list, "ETH") - expected).abs() < 1e-6,
        "{} vs {expected}",
        price_of(&list, "ETH")
    );
    let eth = list.iter().find(|b| b["symbol"] == "ETH").unwrap();
    let numeric: f64 = eth["quantity"]["numeric"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((eth["value"].as_f64().unwrap() - numeric * price_of(&list, "ETH")).abs() < 1e-3);
    // WMT is priced by its USDC pool (untouched): still 0.25.
    assert_eq!(price_of(&list, "WMT"), 0.25);
    // POST /v1/fungible/price: the same, and WETH (no table price) too.
    let body = json!({"projectId": "demo-project", "currency": "usd", "addresses": [caip10(NATIVE), caip10(&weth)]});
    let r = request(
        s.addr,
        "POST",
        "/v1/fungible/price",
        &[("content-type", "application/json")],
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let f = r.json()["fungibles"].as_array().unwrap().clone();
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f.iter()
            .all(|p| (p["price"].as_f64().unwrap() - expected).abs() < 1e-6),
        "{f:?}"
    );
    assert_eq!(f[1]["symbol"], "WETH");
}

// ----- bad requests -----------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_a_clear_4xx() {
    // Chain A has the market; chain B is served by the backend but has none.
    let (a, b) = (Anvil::start(31337).await, Anvil::start(31338).await);
    let (_manifest_dir, path, manifest) = deploy_demo(&[&a], "http://127.0.0.1:1");
    let s = chain_server(&[&a, &b], Some(path)).await;
    let usdc = manifest_token(&manifest, 31337, "USDC");
    let wmt = manifest_token(&manifest, 31337, "WMT");
    let me = ACCOUNTS[0];

    let expect = |path: String, status: u16, field: &'static str, contains: &'static str| {
        let s_addr = s.addr;
        async move {
            let r = get(s_addr, &path).await;
            assert_eq!(r.status, status, "{path}: {}", r.text());
            let v = r.json();
            assert_eq!(v["status"], "FAILED", "{path}: {v}");
            assert_eq!(v["reasons"][0]["field"], field, "{path}: {v}");
            let d = v["reasons"][0]["description"].as_str().unwrap();
            assert!(d.contains(contains), "{path}: {d:?} lacks {contains:?}");
        }
    };
    let q = |amount: &str, from: &str, to: &str| {
        format!("/v1/convert/quotes?amount={amount}&from={from}&to={to}&{P}")
    };
    let (u, w) = (caip10(&usdc), caip10(&wmt));
    // Chains.
    expect(
        q(
            "1000000",
            &format!("eip155:1:{usdc}"),
            &format!("eip155:1:{wmt}"),
        ),
        400,
        "from",
        "Chain ID eip155:1 is not supported",
    )
    .await;
    expect(
        q(
            "1000000",
            &format!("eip155:31338:{usdc}"),
            &format!("eip155:31338:{wmt}"),
        ),
        400,
        "from",
        "Chain ID eip155:31338 is not supported (this backend swaps on eip155:31337)",
    )
    .await;
    expect(
        q("1000000", &u, &format!("eip155:31338:{wmt}")),
        400,
        "to",
        "`from` and `to` chain IDs must have the same value",
    )
    .await;
    expect(
        q(
            "1",
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112",
            &w,
        ),
        400,
        "from",
        "is not supported",
    )
    .await;
    expect(
        format!("/v1/convert/tokens?chainId=eip155:1&{P}"),
        400,
        "chainId",
        "Chain ID eip155:1 is not supported",
    )
    .await;
    expect(
        format!("/v1/convert/tokens?chainId=eip155:31338&{P}"),
        400,
        "chainId",
        "Chain ID eip155:31338 is not supported",
    )
    .await;
    expect(
        format!("/v1/convert/gas-price?chainId=nope!&{P}"),
        400,
        "chainId",
        "CAIP-2",
    )
    .await;
    expect(
        format!("/v1/convert/tokens?{P}"),
        400,
        "chainId",
        "chainId is required",
    )
    .await;
    // Addresses.
    expect(
        q("1000000", "eip155:31337:0x5FbDB", &w),
        400,
        "from",
        "must be a CAIP-10 address",
    )
    .await;
    expect(
        q("1000000", &usdc, &w),
        400,
        "from",
        "must be a CAIP-10 address",
    )
    .await;
    expect(
        q("1000000", &u, &format!("eip155:31337:{}", "a".repeat(120))),
        400,
        "to",
        "to is longer than 128 characters",
    )
    .await;
    expect(
        format!("{}&userAddress=0x123", q("1000000", &u, &w)),
        400,
        "userAddress",
        "must be an address",
    )
    .await;
    expect(q("1000000", &u, &u), 400, "to", "the same token").await;
    expect(
        q(
            "1000000",
            &caip10(NATIVE),
            &caip10(&uniswap(&manifest, "weth")),
        ),
        400,
        "to",
        "deposit/withdraw",
    )
    .await;
    // A token without a pool, and an address that is no token.
    expect(
        q("1000000", &u, &caip10(ACCOUNTS[5])),
        400,
        "to",
        "no Uniswap V2 route",
    )
    .await;
    expect(
        format!(
            "/v1/convert/allowance?tokenAddress={}&userAddress={me}&{P}",
            caip10(ACCOUNTS[5])
        ),
        400,
        "tokenAddress",
        "is not an ERC-20",
    )
    .await;
    // Amounts: decimal integers in base units.
    for bad in [
        "1.5",
        "-1",
        "0x10",
        "1e6",
        "abc",
        "115792089237316195423570985008687907853269984665640564039457584007913129639936",
    ] {
        expect(
            q(bad, &u, &w),
            400,
            "amount",
            "decimal integer in the token's base units",
        )
        .await;
    }
    expect(q("0", &u, &w), 400, "amount", "greater than 0").await;
    expect(
        format!("/v1/convert/quotes?from={u}&to={w}&{P}"),
        400,
        "amount",
        "amount is required",
    )
    .await;
    expect(
        q(&"9".repeat(200), &u, &w),
        400,
        "amount",
        "longer than 128",
    )
    .await;
    // Project ids.
    let r = get(
        s.addr,
        &format!("/v1/convert/quotes?amount=1&from={u}&to={w}"),
    )
    .await;
    assert_eq!(
        (r.status, r.json()["reasons"][0]["field"].clone()),
        (400, json!("projectId"))
    );
    let r = get(
        s.addr,
        &format!("/v1/convert/quotes?amount=1&from={u}&to={w}&projectId=bad"),
    )
    .await;
    assert_eq!(r.status, 403);
    // Approvals.
    expect(
        format!(
            "/v1/convert/build-approve?from={}&to={u}&{P}",
            caip10(NATIVE)
        ),
        400,
        "from",
        "needs no approval",
    )
    .await;
    expect(
        format!("/v1/convert/build-approve?from={u}&to={w}&amount=1.0&{P}",),
        400,
        "amount",
        "decimal integer",
    )
    .await;
    let r = get(
        s.addr,
        &format!(
            "/v1/convert/allowance?tokenAddress={}&userAddress={me}&{P}",
            caip10(NATIVE)
        ),
    )
    .await;
    assert_eq!(r.json()["allowance"], json!(U256_MAX));
    // build-transaction bodies.
    let post = |body: String| {
        let s_addr = s.addr;
        async move {
            request(
                s_addr,
                "POST",
                "/v1/convert/build-transaction",
                &[("content-type", "application/json")],
                body.as_bytes(),
            )
            .await
        }
    };
    let ok = json!({"projectId": "demo-project", "amount": "1000000", "from": u, "to": w, "userAddress": caip10(me)});
    for (patch, field, contains) in [
        (
            json!({"eip155": {"slippage": 50.5}}),
            "eip155.slippage",
            "from 0 to 50",
        ),
        (
            json!({"eip155": {"slippage": -1}}),
            "eip155.slippage",
            "from 0 to 50",
        ),
        (
            json!({"eip155": {"slippage": "lots"}}),
            "eip155.slippage",
            "percentage",
        ),
        (json!({"eip155": 1}), "eip155", "must be an object"),
        (json!({"amount": 1.5}), "amount", "must be a string"),
        (json!({"amount": "1.5"}), "amount", "decimal integer"),
        (
            json!({"userAddress": null}),
            "userAddress",
            "userAddress is required",
        ),
        (
            json!({"userAddress": "eip155:31338:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"}),
            "userAddress",
            "chain IDs must have the same value",
        ),
        (
            json!({"to": "eip155:1:0x5FbDB2315678afecb367f032d93F642f64180aa3", "from": "eip155:1:0x5FbDB2315678afecb367f032d93F642f64180aa4"}),
            "from",
            "Chain ID eip155:1 is not supported",
        ),
        (
            json!({"disableEstimate": "yes"}),
            "disableEstimate",
            "true or false",
        ),
        (
            json!({"projectId": null}),
            "projectId",
            "projectId is required",
        ),
    ] {
        let mut body = ok.clone();
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = post(body.to_string()).await;
        assert!(r.status == 400, "{body}: {} {}", r.status, r.text());
        let v = r.json();
        assert_eq!(v["reasons"][0]["field"], field, "{body}: {v}");
        assert!(
            v["reasons"][0]["description"]
                .as_str()
                .unwrap()
                .contains(contains),
            "{body}: {v}"
        );
    }
    let r = post("not json".into()).await;
    assert_eq!(
        (r.status, r.json()["reasons"][0]["field"].clone()),
        (400, json!("body"))
    );
    let r = post(format!("{{\"amount\":\"{}\"}}", "1".repeat(20_000))).await;
    assert_eq!(r.status, 413);
    // A well-formed one works on this chain (the estimate: account 0 holds USDC but approved nothing).
    let r = post(json!({"projectId": "demo-project", "amount": "1000000", "from": u, "to": w, "userAddress": caip10(me), "disableEstimate": true}).to_string()).await;
    assert_eq!(r.status, 200, "{}", r.text());
}
