//! `make bench` (scripts/bench.sh): the blockchain API on a real anvil. Printed, not asserted.
//!
//! 1. Setup: 200 ERC-20 tokens (the demo's `DemoToken`, compiled by demo/contracts/deploy.mjs),
//!    minted to anvil's first account, then 5,000 transfers from it, one per block.
//! 2. Indexer catch-up from a cold start (a new backend over that chain, release build): blocks and
//!    transactions per second until it reaches the head. Median of 3.
//! 3. Latency over HTTP (a new loopback connection per request, like the tests' client) with that
//!    account's 200 tokens and 5,400 transactions indexed: `GET …/balance`, the first history page
//!    and a page deep in the cursor chain, p50 and p90 of 200 requests each.
//!
//! 4. The convert (swap) API on a second anvil with the demo contracts and Uniswap V2 market
//!    (demo/contracts/deploy.mjs): `GET /v1/convert/quotes` (the router's `getAmountsOut` over 2 or 3
//!    candidate routes, one batched `eth_call`) and `POST /v1/convert/build-transaction`, p50 and p90 of
//!    200 requests each over loopback.
//!
//! `WM_BENCH_TRANSFERS` and `WM_BENCH_TOKENS` change the sizes.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::chain::{
    artifacts, deploy_demo, manifest_token, mint_data, token_ctor_args, transfer_data, Anvil,
    ACCOUNTS,
};
use common::{get, repo_root, request};
use serde_json::json;
use wm_server::chain::abi;
use wm_server::chain::rpc::{RpcClient, RpcLimits};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Sends from an unlocked account (automine off) and mines it alone in a block, over one keep-alive
/// connection.
async fn send(rpc: &RpcClient, from: &str, nonce: &mut u64, to: Option<&str>, data: &str) {
    let mut tx = json!({"from": from, "data": data, "nonce": format!("{:#x}", *nonce)});
    if let Some(to) = to {
        tx["to"] = json!(to);
    }
    *nonce += 1;
    rpc.call::<String>("eth_sendTransaction", json!([tx]))
        .await
        .expect("eth_sendTransaction");
    rpc.call::<String>("evm_mine", json!([]))
        .await
        .expect("evm_mine");
}

async fn latency(
    addr: std::net::SocketAddr,
    path: &str,
    runs: usize,
) -> (Duration, Duration, usize) {
    let mut times = Vec::with_capacity(runs);
    let mut bytes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let r = get(addr, path).await;
        times.push(t.elapsed());
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        bytes = r.body.len();
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.9), bytes)
}

async fn start_backend(anvil: &Anvil) -> wm_server::Server {
    let options = wm_server::Options {
        root: repo_root(),
        chains: wm_server::parse_chains(&format!("{}={}", anvil.chain_id, anvil.url)).unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    wm_server::start_with(
        options,
        wm_server::ServerConfig::default(),
        0,
        std::future::pending(),
    )
    .await
    .expect("backend starts")
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let tokens = env_usize("WM_BENCH_TOKENS", 200);
    let transfers = env_usize("WM_BENCH_TRANSFERS", 5000);
    println!("== blockchain API (demo backend, anvil; printed, not asserted)");

    // ----- setup ----------------------------------------------------------------------------------------
    let t0 = Instant::now();
    let bytecode = artifacts()["contracts"]["DemoToken"]["bytecode"]
        .as_str()
        .unwrap()
        .to_string();
    // Without old states: mining gets slower with every block kept, and nothing here needs them.
    let anvil = Anvil::start_with(31337, &["--prune-history"]).await;
    let rpc = RpcClient::new(&anvil.url, RpcLimits::default()).unwrap();
    let me = ACCOUNTS[0];
    rpc.call::<serde_json::Value>("evm_setAutomine", json!([false]))
        .await
        .expect("evm_setAutomine");
    let sender = abi::parse_addr(me).unwrap();
    let mut nonce = 0u64;
    let mut token_addrs = Vec::with_capacity(tokens);
    for i in 0..tokens {
        let data = format!(
            "{bytecode}{}",
            token_ctor_args(
                &format!("Bench Token {i}"),
                &format!("B{i}"),
                6 + (i % 13) as u8
            )
        );
        token_addrs.push(abi::addr_hex(&abi::create_address(&sender, nonce)));
        send(&rpc, me, &mut nonce, None, &data).await;
    }
    for t in &token_addrs {
        send(
            &rpc,
            me,
            &mut nonce,
            Some(t),
            &mint_data(me, 1_000_000_000_000),
        )
        .await;
    }
    for i in 0..transfers {
        let to = ACCOUNTS[1 + i % 9];
        send(
            &rpc,
            me,
            &mut nonce,
            Some(&token_addrs[i % tokens]),
            &transfer_data(to, 1 + i as u128),
        )
        .await;
    }
    let head = anvil.block_number().await;
    let sent: String = rpc
        .call("eth_getTransactionCount", json!([me, "latest"]))
        .await
        .unwrap();
    assert_eq!(
        u64::from_str_radix(sent.trim_start_matches("0x"), 16).unwrap(),
        nonce,
        "not every transaction was mined"
    );
    assert_eq!(head, nonce, "one transaction per block");
    let code: String = rpc
        .call(
            "eth_getCode",
            json!([token_addrs.last().unwrap(), "latest"]),
        )
        .await
        .unwrap();
    assert!(code.len() > 2, "the last token has no code");
    println!(
        "setup: {tokens} tokens deployed and minted, {transfers} transfers, one per block: {head} blocks in {:.1} s",
        t0.elapsed().as_secs_f64()
    );

    // ----- catch-up from a cold start ---------------------------------------------------------------------
    let mut runs = Vec::new();
    let mut server = None;
    for _ in 0..3 {
        if let Some(s) = server.take() {
            let s: wm_server::Server = s;
            s.state.chain_api.stop();
            s.handle.abort();
        }
        let t = Instant::now();
        let s = start_backend(&anvil).await;
        loop {
            let indexed = s.state.chain_api.chains[0].state.read().unwrap().indexed;
            if indexed == Some(head) {
                break;
            }
            assert!(
                t.elapsed() < Duration::from_secs(300),
                "the indexer did not catch up"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        runs.push(t.elapsed());
        server = Some(s);
    }
    runs.sort();
    let median = runs[1];
    let txs = server.as_ref().unwrap().state.chain_api.chains[0]
        .state
        .read()
        .unwrap()
        .txs
        .len();
    assert_eq!(txs as u64, nonce, "the index holds every transaction");
    println!(
        "indexer catch-up, cold start: {} blocks ({txs} transactions, {tokens} tokens) in {} = {:.0} blocks/s, {:.0} tx/s (median of 3: {})",
        head + 1,
        ms(median),
        (head + 1) as f64 / median.as_secs_f64(),
        txs as f64 / median.as_secs_f64(),
        runs.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(", ")
    );

    // ----- latency ----------------------------------------------------------------------------------------
    let s = server.unwrap();
    let p = "projectId=bench";
    let balance = format!("/v1/account/{me}/balance?currency=usd&chainId=eip155:31337&{p}");
    let items = get(s.addr, &balance).await.json()["balances"]
        .as_array()
        .unwrap()
        .len();
    let (p50, p90, bytes) = latency(s.addr, &balance, 200).await;
    println!(
        "GET …/balance ({items} items, {bytes} B): p50 {}, p90 {}",
        ms(p50),
        ms(p90)
    );
    let first = format!("/v1/account/{me}/history?chainId=eip155:31337&{p}");
    let (p50, p90, bytes) = latency(s.addr, &first, 200).await;
    println!(
        "GET …/history first page (50 rows, {bytes} B): p50 {}, p90 {}",
        ms(p50),
        ms(p90)
    );
    // A page in the middle of the account's history, through the cursors.
    let mut cursor = String::new();
    let pages = txs.min(5400) / 50 / 2;
    for _ in 0..pages {
        let r = get(s.addr, &format!("{first}&cursor={cursor}"))
            .await
            .json();
        cursor = r["next"].as_str().expect("more pages").to_string();
    }
    let deep = format!("{first}&cursor={cursor}");
    let (p50, p90, bytes) = latency(s.addr, &deep, 200).await;
    println!(
        "GET …/history page {} (50 rows, {bytes} B): p50 {}, p90 {}",
        pages + 1,
        ms(p50),
        ms(p90)
    );
    s.state.chain_api.stop();

    // ----- convert API on the Uniswap V2 market ------------------------------------------------------------
    convert_latency().await;
}

async fn convert_latency() {
    let anvil = Anvil::start(31337).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&anvil], "http://127.0.0.1:1");
    let options = wm_server::Options {
        root: repo_root(),
        chains: wm_server::parse_chains(&format!("{}={}", anvil.chain_id, anvil.url)).unwrap(),
        contracts: Some(path),
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let s = wm_server::start_with(
        options,
        wm_server::ServerConfig::default(),
        0,
        std::future::pending(),
    )
    .await
    .expect("backend starts");
    let c = |a: &str| format!("eip155:31337:{a}");
    let (usdc, wmt) = (
        manifest_token(&manifest, 31337, "USDC"),
        manifest_token(&manifest, 31337, "WMT"),
    );
    let native = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
    let me = ACCOUNTS[0];
    for (label, from, to, amount) in [
        ("1 ETH → USDC", native, usdc.as_str(), "1000000000000000000"),
        ("100 USDC → WMT", usdc.as_str(), wmt.as_str(), "100000000"),
    ] {
        let path = format!(
            "/v1/convert/quotes?amount={amount}&from={}&to={}&userAddress={}&projectId=bench",
            c(from),
            c(to),
            c(me)
        );
        let (p50, p90, _) = latency(s.addr, &path, 200).await;
        println!(
            "GET /v1/convert/quotes ({label}, getAmountsOut over the candidate routes): p50 {}, p90 {}",
            ms(p50),
            ms(p90)
        );
    }
    let body = json!({
        "projectId": "bench", "amount": "1000000000000000000", "from": c(native), "to": c(&usdc),
        "userAddress": c(me), "eip155": {"slippage": 1},
    })
    .to_string();
    let mut times = Vec::with_capacity(200);
    for _ in 0..200 {
        let t = Instant::now();
        let r = request(
            s.addr,
            "POST",
            "/v1/convert/build-transaction",
            &[("content-type", "application/json")],
            body.as_bytes(),
        )
        .await;
        times.push(t.elapsed());
        assert_eq!(r.status, 200, "build-transaction: {}", r.text());
    }
    times.sort();
    println!(
        "POST /v1/convert/build-transaction (1 ETH → USDC, with eth_estimateGas): p50 {}, p90 {}",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.9))
    );
    s.state.chain_api.stop();
}
