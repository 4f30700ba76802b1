//! The blockchain API against real anvil chains: the indexer follows what happens on the chain
//! (contracts compiled from demo/contracts/src and deployed by demo/contracts/deploy.mjs, or tokens
//! deployed here from the same artifacts), and the HTTP answers match what the chain says.
//! Needs `node_modules` (anvil, solc, ethers): `make test` installs them.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::chain::{
    approve_data, chain_server, chain_server_with, deploy_demo, deploy_token, hex_to_dec,
    manifest_token, mint_data, numeric_to_units, transfer_data, wait_indexed, Anvil, ACCOUNTS,
};
use common::{get, repo_root, request};
use serde_json::{json, Value};

const P: &str = "projectId=demo-project";

async fn balances(s: &wm_server::Server, who: &str, chain: &str) -> Vec<Value> {
    let r = get(
        s.addr,
        &format!("/v1/account/{who}/balance?currency=usd&chainId={chain}&{P}"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["balances"].as_array().unwrap().clone()
}

fn item<'a>(list: &'a [Value], symbol: &str) -> &'a Value {
    list.iter()
        .find(|b| b["symbol"] == json!(symbol))
        .unwrap_or_else(|| panic!("no {symbol} in {list:?}"))
}

/// Every page of an account's history (`chain` may be empty for all chains).
async fn all_history(s: &wm_server::Server, who: &str, chain: &str) -> (Vec<Value>, Vec<usize>) {
    let mut rows = Vec::new();
    let mut sizes = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/account/{who}/history?{P}");
        if !chain.is_empty() {
            path.push_str(&format!("&chainId={chain}"));
        }
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let r = get(s.addr, &path).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        let data = v["data"].as_array().unwrap();
        sizes.push(data.len());
        rows.extend(data.iter().cloned());
        match v["next"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (rows, sizes),
        }
        assert!(sizes.len() < 100, "paging does not end");
    }
}

fn hashes(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|r| r["metadata"]["hash"].as_str().unwrap().to_string())
        .collect()
}

// ----- discovery --------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn indexer_finds_a_token_anybody_deploys_and_reads_its_metadata_from_the_chain() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    // Deployed after the indexer started, by an account the backend knows nothing about.
    let who = ACCOUNTS[5];
    let token = deploy_token(&anvil, who, "Test Dollar", "TSD", 2).await;
    anvil
        .send(who, Some(&token), &mint_data(who, 12_345), 0)
        .await;
    wait_indexed(s.addr, &[&anvil]).await;

    let list = balances(&s, who, "eip155:31337").await;
    let tsd = item(&list, "TSD");
    assert_eq!(tsd["name"], "Test Dollar");
    assert_eq!(tsd["address"], json!(format!("eip155:31337:{token}")));
    assert_eq!(
        tsd["quantity"],
        json!({"decimals": "2", "numeric": "123.45"})
    );
    // Not a demo token: no price (0, as the hosted API), no value, not spam.
    assert_eq!(tsd["price"], json!(0.0));
    assert!(
        tsd.get("value").is_none() && tsd.get("isSpam").is_none(),
        "{tsd}"
    );
    // Its icon is generated, labelled with its symbol.
    let icon = tsd["iconUrl"].as_str().unwrap();
    let path = icon
        .strip_prefix(&s.origin())
        .expect("icon served by this backend");
    assert_eq!(path, format!("/public/getTokenImage/31337-{token}"));
    let img = get(s.addr, path).await;
    assert_eq!(img.status, 200);
    assert!(img.text().contains(">TS</text>"), "{}", img.text());
    // The native currency comes first.
    assert_eq!(list[0]["symbol"], "ETH");
    assert!(list[0].get("address").is_none());

    // History: the deployment and the mint.
    let (rows, _) = all_history(&s, who, "eip155:31337").await;
    let ops: Vec<&str> = rows
        .iter()
        .map(|r| r["metadata"]["operationType"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["mint", "deploy"]);
    assert_eq!(rows[0]["transfers"][0]["quantity"]["numeric"], "123.45");
    assert_eq!(rows[0]["transfers"][0]["fungible_info"]["symbol"], "TSD");
    assert_eq!(
        rows[1]["metadata"]["sentTo"],
        json!(token),
        "a deployment's sentTo is the new contract"
    );
}

// ----- balances ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn balances_equal_balance_of_and_eth_get_balance_read_from_the_chain() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&anvil], &s.origin());
    s.state
        .chain_api
        .set_manifest(wm_server::chain::manifest::Manifest::load(&path).unwrap());
    wait_indexed(s.addr, &[&anvil]).await;
    let tokens: Vec<(String, u32)> = manifest["chains"][0]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"] == "erc20")
        .map(|t| {
            (
                t["address"].as_str().unwrap().to_lowercase(),
                t["decimals"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    assert_eq!(tokens.len(), 4);
    let mut compared = 0;
    for who in &ACCOUNTS[..4] {
        let list = balances(&s, who, "eip155:31337").await;
        let native = item(&list, "ETH");
        assert_eq!(
            numeric_to_units(native["quantity"]["numeric"].as_str().unwrap(), 18),
            anvil.eth_balance(who).await
        );
        for (token, decimals) in &tokens {
            let on_chain = anvil.balance_of(token, who).await;
            let listed = list
                .iter()
                .find(|b| b["address"] == json!(format!("eip155:31337:{token}")));
            match listed {
                Some(b) => {
                    assert_eq!(b["quantity"]["decimals"], json!(decimals.to_string()));
                    assert_eq!(
                        numeric_to_units(b["quantity"]["numeric"].as_str().unwrap(), *decimals),
                        on_chain,
                        "{who} {token}"
                    );
                    compared += 1;
                }
                None => assert_eq!(on_chain, "0", "{who} holds {token} but it is not listed"),
            }
        }
    }
    assert!(compared >= 6, "only {compared} balances compared");

    // forceUpdate reads the chain's latest state for those tokens (here after a transfer the test
    // made without waiting for the indexer).
    let usdc = manifest_token(&manifest, 31337, "USDC");
    anvil
        .send(
            ACCOUNTS[0],
            Some(&usdc),
            &transfer_data(ACCOUNTS[3], 7_000_000),
            0,
        )
        .await;
    let r = get(
        s.addr,
        &format!("/v1/account/{}/balance?currency=usd&chainId=eip155:31337&forceUpdate=eip155:31337:{usdc}&{P}", ACCOUNTS[3]),
    )
    .await;
    let list = r.json()["balances"].as_array().unwrap().clone();
    assert_eq!(item(&list, "USDC")["quantity"]["numeric"], "7.000000");
}

// ----- history ----------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_pages_newest_first_and_lists_every_transaction_once() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let (me, other) = (ACCOUNTS[6], ACCOUNTS[7]);
    let token = deploy_token(&anvil, me, "Page Token", "PG", 0).await;
    let mut sent = vec![];
    let r = anvil
        .send(me, Some(&token), &mint_data(me, 1_000_000), 0)
        .await;
    sent.push(r["transactionHash"].as_str().unwrap().to_string());
    // Three transactions in one block: ordered by their index in it.
    anvil.rpc("evm_setAutomine", json!([false])).await;
    let mut same_block = vec![];
    for i in 0..3u128 {
        let h = anvil
            .rpc(
                "eth_sendTransaction",
                json!([{"from": me, "to": token, "data": transfer_data(other, 1 + i)}]),
            )
            .await;
        same_block.push(h.as_str().unwrap().to_string());
    }
    anvil.rpc("evm_mine", json!([])).await;
    anvil.rpc("evm_setAutomine", json!([true])).await;
    for h in &same_block {
        let r = anvil.receipt(&json!(h)).await;
        assert_eq!(r["status"], "0x1");
    }
    sent.extend(same_block);
    // Both directions, tokens and ether.
    for i in 0..107u128 {
        let r = match i % 3 {
            0 => {
                anvil
                    .send(me, Some(&token), &transfer_data(other, 10 + i), 0)
                    .await
            }
            1 => {
                anvil
                    .send(other, Some(&token), &transfer_data(me, 1), 0)
                    .await
            }
            _ => anvil.send(me, Some(other), "0x", 1_000_000_000 + i).await,
        };
        sent.push(r["transactionHash"].as_str().unwrap().to_string());
    }
    wait_indexed(s.addr, &[&anvil]).await;

    let (rows, sizes) = all_history(&s, me, "eip155:31337").await;
    // 111 sent + the deployment: pages of 50, newest first, each transaction once.
    assert_eq!(sizes, [50, 50, 12]);
    let got = hashes(&rows);
    let unique: HashSet<&String> = got.iter().collect();
    assert_eq!(unique.len(), got.len(), "a transaction listed twice");
    let mut expected: Vec<String> = sent.iter().rev().cloned().collect();
    assert_eq!(&got[..expected.len()], &expected[..], "not newest first");
    assert_eq!(rows.last().unwrap()["metadata"]["operationType"], "deploy");
    expected.push(got.last().unwrap().clone());
    assert_eq!(got.len(), expected.len());
    let times: Vec<&str> = rows
        .iter()
        .map(|r| r["metadata"]["minedAt"].as_str().unwrap())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "minedAt not descending"
    );
    // Directions as the account sees them.
    for r in &rows[..6] {
        let t = &r["transfers"][0];
        let op = r["metadata"]["operationType"].as_str().unwrap();
        match t["direction"].as_str().unwrap() {
            "in" => assert_eq!(op, "receive"),
            "out" => assert_eq!(op, "send"),
            d => panic!("direction {d}"),
        }
    }

    // A transaction mined between two page requests shows neither twice nor in later pages.
    let first = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&{P}"),
    )
    .await
    .json();
    let cursor = first["next"].as_str().unwrap().to_string();
    let newer = anvil.send(me, Some(other), "0x", 5).await["transactionHash"]
        .as_str()
        .unwrap()
        .to_string();
    wait_indexed(s.addr, &[&anvil]).await;
    let second = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&cursor={cursor}&{P}"),
    )
    .await
    .json();
    assert_eq!(
        hashes(second["data"].as_array().unwrap()),
        got[50..100].to_vec()
    );
    let fresh = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&{P}"),
    )
    .await
    .json();
    assert_eq!(fresh["data"][0]["metadata"]["hash"], json!(newer));

    // A cursor of another chain set, or made up, is refused.
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/history?{P}&cursor={cursor}"),
    )
    .await;
    assert_eq!(
        r.status, 200,
        "one chain configured: no chainId is the same set"
    );
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&cursor=bm9wZQ&{P}"),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["reasons"][0]["field"], "cursor");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_names_each_operation_from_the_accounts_side() {
    let (a, b) = (Anvil::start(31337).await, Anvil::start(31338).await);
    let s = chain_server(&[&a, &b], None).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&a, &b], &s.origin());
    s.state
        .chain_api
        .set_manifest(wm_server::chain::manifest::Manifest::load(&path).unwrap());
    // A transaction that fails on chain: a transfer above the balance, with a gas limit so it is mined
    // (account 7 holds no USDC; 4 and 5 are the on-ramp providers' funded accounts).
    let usdc = manifest_token(&manifest, 31337, "USDC");
    let hash = a
        .rpc(
            "eth_sendTransaction",
            json!([{"from": ACCOUNTS[7], "to": usdc, "data": transfer_data(ACCOUNTS[0], 1), "gas": "0x30000"}]),
        )
        .await;
    assert_eq!(a.receipt(&hash).await["status"], "0x0");
    wait_indexed(s.addr, &[&a, &b]).await;

    let (rows, _) = all_history(&s, ACCOUNTS[0], "eip155:31337").await;
    let ops: Vec<&str> = rows
        .iter()
        .map(|r| r["metadata"]["operationType"].as_str().unwrap())
        .collect();
    // deploy.mjs: 4 deployments, 3 mints, a mint to the friend, sends, receives, NFTs, approve, airdrop,
    // then (uniswap.mjs) the USDC and WMT minted to the market maker (account 9): `execute`.
    assert_eq!(
        ops,
        [
            "execute", "execute", "receive", "approve", "receive", "send", "execute", "mint",
            "mint", "send", "send", "receive", "send", "receive", "send", "execute", "mint",
            "mint", "mint", "deploy", "deploy", "deploy", "deploy"
        ]
    );
    assert!(rows.iter().all(
        |r| r["metadata"]["status"] == "confirmed" && r["metadata"]["chain"] == "eip155:31337"
    ));
    // The NFT the friend sent back: metadata fetched from its tokenURI (this backend's /demo-nft/3).
    let nft = &rows[4]["transfers"][0];
    assert_eq!(nft["nft_info"]["name"], "Wallet Modal Pass #3");
    assert_eq!(nft["nft_info"]["flags"]["is_spam"], false);
    assert!(nft["fungible_info"].is_null());
    let preview = nft["nft_info"]["content"]["preview"]["url"]
        .as_str()
        .unwrap();
    assert_eq!(preview, format!("{}/demo-nft/3/image.svg", s.origin()));
    let img = get(s.addr, preview.strip_prefix(&s.origin()).unwrap()).await;
    assert_eq!(
        img.body,
        std::fs::read(repo_root().join("demo/contracts/images/nft-3.svg")).unwrap()
    );
    // Ether sent: 1.5 ETH at 3000 USD.
    let eth = rows
        .iter()
        .find(|r| r["transfers"][0]["fungible_info"]["symbol"] == "ETH")
        .unwrap();
    assert_eq!(eth["transfers"][0]["direction"], "in");
    assert_eq!(eth["transfers"][0]["quantity"]["numeric"], "0.25");
    assert_eq!(eth["transfers"][0]["value"], json!(750.0));
    // The failed transaction is in its sender's history, as failed, with no transfer.
    let (rows4, _) = all_history(&s, ACCOUNTS[7], "eip155:31337").await;
    assert_eq!(rows4.len(), 1);
    assert_eq!(rows4[0]["metadata"]["status"], "failed");
    assert_eq!(rows4[0]["metadata"]["operationType"], "execute");
    assert_eq!(rows4[0]["transfers"], json!([]));
    // Without chainId: both chains, merged by time, each row naming its chain.
    let (all, _) = all_history(&s, ACCOUNTS[0], "").await;
    assert_eq!(all.len(), 2 * rows.len());
    let chains: HashSet<&str> = all
        .iter()
        .map(|r| r["metadata"]["chain"].as_str().unwrap())
        .collect();
    assert_eq!(chains, HashSet::from(["eip155:31337", "eip155:31338"]));
    let times: Vec<&str> = all
        .iter()
        .map(|r| r["metadata"]["minedAt"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]));
}

// ----- prices and spam --------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_apply_to_the_demo_tokens_only_and_the_spam_token_is_flagged() {
    let anvil = Anvil::start(31337).await;
    // This one serves the NFT metadata the collection's tokenURI points at.
    let metadata_server = chain_server(&[&anvil], None).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&anvil], &metadata_server.origin());
    // The manifest given at start, as `make demo` does (`--contracts`).
    let s = chain_server(&[&anvil], Some(path)).await;
    // Someone else's token calling itself USDC gets no price.
    let fake = deploy_token(&anvil, ACCOUNTS[8], "USD Coin", "USDC", 6).await;
    anvil
        .send(
            ACCOUNTS[8],
            Some(&fake),
            &mint_data(ACCOUNTS[0], 5_000_000),
            0,
        )
        .await;
    wait_indexed(s.addr, &[&anvil]).await;

    let list = balances(&s, ACCOUNTS[0], "eip155:31337").await;
    let by_addr = |a: &str| {
        list.iter()
            .find(|b| b["address"] == json!(format!("eip155:31337:{a}")))
            .unwrap()
            .clone()
    };
    let usdc = by_addr(&manifest_token(&manifest, 31337, "USDC"));
    assert_eq!(usdc["price"], json!(1.0));
    assert_eq!(usdc["value"], json!(9916.5));
    assert_eq!(
        usdc["iconUrl"],
        json!(format!("{}/public/getTokenImage/usdc", s.origin()))
    );
    let wmt = by_addr(&manifest_token(&manifest, 31337, "WMT"));
    assert_eq!(
        (wmt["price"].clone(), wmt["value"].clone()),
        (json!(0.25), json!(1225.0))
    );
    let pts = by_addr(&manifest_token(&manifest, 31337, "PTS"));
    assert_eq!(pts["quantity"], json!({"decimals": "0", "numeric": "1000"}));
    assert!(pts["price"] == json!(0.0) && pts.get("value").is_none());
    let fake_item = by_addr(&fake);
    assert!(
        fake_item["price"] == json!(0.0) && fake_item.get("value").is_none(),
        "{fake_item}"
    );
    let spam = by_addr(&manifest_token(&manifest, 31337, "CLAIM"));
    assert_eq!(spam["isSpam"], json!(true));
    assert!(spam["price"] == json!(0.0) && spam.get("value").is_none());
    assert_eq!(list.iter().filter(|b| b.get("isSpam").is_some()).count(), 1);
    let eth = item(&list, "ETH");
    assert_eq!(eth["price"], json!(3000.0));
    let eth_numeric: f64 = eth["quantity"]["numeric"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((eth["value"].as_f64().unwrap() - eth_numeric * 3000.0).abs() < 1e-6);
    // Highest value first after the native currency.
    assert_eq!(list[1]["symbol"], "USDC");

    // History: the airdrop of the spam token is flagged; the NFTs are not.
    let (rows, _) = all_history(&s, ACCOUNTS[0], "eip155:31337").await;
    let flagged: Vec<&Value> = rows
        .iter()
        .flat_map(|r| r["transfers"].as_array().unwrap())
        .filter(|t| t["fungible_info"]["flags"]["is_spam"] == json!(true))
        .collect();
    assert_eq!(flagged.len(), 1);
    assert_eq!(flagged[0]["fungible_info"]["symbol"], "CLAIM");
    assert!(flagged[0]["price"].is_null() && flagged[0]["value"].is_null());
    assert!(rows
        .iter()
        .flat_map(|r| r["transfers"].as_array().unwrap())
        .filter(|t| !t["nft_info"].is_null())
        .all(|t| t["nft_info"]["flags"]["is_spam"] == json!(false)));

    // POST /v1/fungible/price: the priced ones, with the hosted fields.
    let usdc_addr = manifest_token(&manifest, 31337, "USDC");
    let body = json!({
        "projectId": "demo-project", "currency": "usd",
        "addresses": [
            format!("eip155:31337:{usdc_addr}"),
            format!("eip155:31337:{fake}"),
            "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        ],
    });
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
    assert_eq!(f[0]["symbol"], "USDC");
    assert_eq!(f[0]["price"], json!(1.0));
    assert_eq!(f[0]["decimals"], json!(6));
    assert_eq!(f[0]["name"], "USD Coin");
    assert!(f[0]["iconUrl"]
        .as_str()
        .unwrap()
        .ends_with("/public/getTokenImage/usdc"));
    assert_eq!(f[1]["symbol"], "ETH");
    assert_eq!(f[1]["price"], json!(3000.0));
}

// ----- restart, new blocks, chain resets --------------------------------------------------------------

/// Everything the API says about these accounts, with the server's own origin taken out.
async fn snapshot(s: &wm_server::Server, accounts: &[&str]) -> String {
    let mut out = Vec::new();
    for who in accounts {
        out.push(json!(balances(s, who, "eip155:31337").await));
        out.push(json!(all_history(s, who, "").await.0));
    }
    json!(out).to_string().replace(&s.origin(), "ORIGIN")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_indexer_rebuilds_the_same_state_from_the_chain() {
    let anvil = Anvil::start(31337).await;
    let first = chain_server(&[&anvil], None).await;
    let (_manifest_dir, path, _) = deploy_demo(&[&anvil], &first.origin());
    first
        .state
        .chain_api
        .set_manifest(wm_server::chain::manifest::Manifest::load(&path).unwrap());
    wait_indexed(first.addr, &[&anvil]).await;
    let accounts = [ACCOUNTS[0], ACCOUNTS[1], ACCOUNTS[2]];
    let before = snapshot(&first, &accounts).await;
    assert!(before.contains("Wallet Modal Pass #2") && before.contains("CLAIM"));
    first.state.chain_api.stop();

    // A new backend over the same chain (the first one keeps serving the NFT metadata).
    let second = chain_server(&[&anvil], Some(path)).await;
    wait_indexed(second.addr, &[&anvil]).await;
    // Token icons name the server asked; NFT images the one the tokenURI points at (the first).
    let after = snapshot(&second, &accounts)
        .await
        .replace(&first.origin(), "ORIGIN");
    if after != before {
        let at = before
            .bytes()
            .zip(after.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(before.len().min(after.len()));
        let from = at.saturating_sub(300);
        panic!(
            "the rebuilt state differs at byte {at}:\nbefore: …{}\nafter:  …{}",
            &before[from..(at + 200).min(before.len())],
            &after[from..(at + 200).min(after.len())]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_blocks_transfers_are_visible_within_one_second() {
    let anvil = Anvil::start(31337).await;
    // The demo's own settings (the head polled every 200 ms).
    let s = chain_server_with(&[&anvil], None, wm_server::ServerConfig::default()).await;
    let (me, friend) = (ACCOUNTS[0], ACCOUNTS[1]);
    let token = deploy_token(&anvil, me, "Fast", "FST", 6).await;
    anvil
        .send(me, Some(&token), &mint_data(me, 10_000_000), 0)
        .await;
    wait_indexed(s.addr, &[&anvil]).await;
    let mut worst = Duration::ZERO;
    for round in 0..3u128 {
        let r = anvil
            .send(
                me,
                Some(&token),
                &transfer_data(friend, 1_000_000 + round),
                0,
            )
            .await;
        let hash = r["transactionHash"].clone();
        let mined = Instant::now();
        loop {
            let h = get(
                s.addr,
                &format!("/v1/account/{friend}/history?chainId=eip155:31337&{P}"),
            )
            .await
            .json();
            if h["data"][0]["metadata"]["hash"] == hash {
                break;
            }
            assert!(
                mined.elapsed() < Duration::from_secs(1),
                "transfer {hash} not visible 1 s after it was mined"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        worst = worst.max(mined.elapsed());
        let list = balances(&s, friend, "eip155:31337").await;
        let expected = (0..=round).map(|i| 1_000_000 + i).sum::<u128>();
        assert_eq!(
            numeric_to_units(
                item(&list, "FST")["quantity"]["numeric"].as_str().unwrap(),
                6
            ),
            expected.to_string()
        );
    }
    eprintln!("slowest: visible {worst:?} after mining");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reverted_chain_is_indexed_again_from_block_zero() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let (me, friend) = (ACCOUNTS[0], ACCOUNTS[1]);
    let token = deploy_token(&anvil, me, "Rev", "REV", 0).await;
    anvil.send(me, Some(&token), &mint_data(me, 100), 0).await;
    let snap = anvil.rpc("evm_snapshot", json!([])).await;
    anvil
        .send(me, Some(&token), &transfer_data(friend, 40), 0)
        .await;
    anvil
        .send(me, Some(&token), &approve_data(friend, 5), 0)
        .await;
    wait_indexed(s.addr, &[&anvil]).await;
    assert_eq!(
        item(&balances(&s, friend, "eip155:31337").await, "REV")["quantity"]["numeric"],
        "40"
    );
    assert_eq!(
        all_history(&s, me, "eip155:31337").await.0[0]["metadata"]["operationType"],
        "approve"
    );

    // Back to before the transfer, then other blocks of the same height.
    assert_eq!(anvil.rpc("evm_revert", json!([snap])).await, json!(true));
    anvil
        .send(me, Some(&token), &transfer_data(friend, 1), 0)
        .await;
    anvil
        .send(me, Some(&token), &transfer_data(friend, 2), 0)
        .await;
    wait_indexed(s.addr, &[&anvil]).await;
    assert_eq!(
        item(&balances(&s, friend, "eip155:31337").await, "REV")["quantity"]["numeric"],
        "3"
    );
    let (rows, _) = all_history(&s, friend, "eip155:31337").await;
    let amounts: Vec<&str> = rows
        .iter()
        .map(|r| r["transfers"][0]["quantity"]["numeric"].as_str().unwrap())
        .collect();
    assert_eq!(amounts, ["2", "1"]);
    let st = get(s.addr, "/indexer/status").await.json();
    assert!(st["chains"][0]["resets"].as_u64().unwrap() >= 1, "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chain_that_stops_answering_gets_a_503_within_the_request_budget() {
    let anvil = Anvil::start(31337).await;
    let mut config = wm_server::ServerConfig::default();
    config.chain.request_budget = Duration::from_millis(800);
    let s = chain_server_with(&[&anvil], None, config).await;
    wait_indexed(s.addr, &[&anvil]).await;
    let path = format!(
        "/v1/account/{}/balance?currency=usd&chainId=eip155:31337&{P}",
        ACCOUNTS[0]
    );
    assert_eq!(get(s.addr, &path).await.status, 200);
    // Frozen (SIGSTOP to the anvil this test started): connections open, nothing answers.
    anvil.signal("STOP");
    let t = Instant::now();
    let r = get(s.addr, &path).await;
    let waited = t.elapsed();
    anvil.signal("CONT");
    assert_eq!(r.status, 503, "{}", r.text());
    assert!(r.json()["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .contains("did not answer within 800ms"));
    assert!(waited < Duration::from_secs(3), "answered after {waited:?}");
    // History is served from the index, without asking the chain.
    assert_eq!(
        get(s.addr, &format!("/v1/account/{}/history?{P}", ACCOUNTS[0]))
            .await
            .status,
        200
    );
}

// ----- inputs, errors, unsupported chains -------------------------------------------------------------

#[tokio::test]
async fn bad_requests_are_refused_with_400_and_the_reason() {
    // Chains that are not running: validation answers without them.
    let s = common::start().await;
    let me = ACCOUNTS[0];
    let reason = |v: &Value| {
        (
            v["reasons"][0]["field"].as_str().unwrap().to_string(),
            v["reasons"][0]["description"].as_str().unwrap().to_string(),
        )
    };
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!("/v1/account/0x123/balance?currency=usd&{P}"),
            "address",
            "The address provided is invalid",
        ),
        (
            format!("/v1/account/{}/balance?currency=usd&{P}", "a".repeat(5000)),
            "address",
            "invalid",
        ),
        (
            format!("/v1/account/{me}/balance?{P}"),
            "currency",
            "currency is required",
        ),
        (
            format!("/v1/account/{me}/balance?currency=eur&{P}"),
            "currency",
            "not supported: eur",
        ),
        (
            format!("/v1/account/{me}/balance?currency=usd&chainId=eip155:x&{P}"),
            "chainId",
            "CAIP-2",
        ),
        (
            format!("/v1/account/{me}/balance?currency=usd&chainId=a:b:c&{P}"),
            "chainId",
            "CAIP-2",
        ),
        (
            format!(
                "/v1/account/{me}/balance?currency=usd&chainId={}&{P}",
                "1".repeat(300)
            ),
            "chainId",
            "longer than",
        ),
        (
            format!("/v1/account/{me}/balance?currency=usd&forceUpdate=eip155:1:0x12&{P}"),
            "address",
            "invalid",
        ),
        (
            format!(
                "/v1/account/{me}/balance?currency=usd&forceUpdate={}&{P}",
                vec![format!("eip155:1:{me}"); 21].join(",")
            ),
            "forceUpdate",
            "more than 20",
        ),
        (
            format!("/v1/account/{me}/balance?currency=usd"),
            "projectId",
            "projectId is required",
        ),
        (
            format!("/v1/account/{me}/history?{P}&cursor=%%%"),
            "cursor",
            "cursor",
        ),
        (
            format!("/v1/account/{me}/history?{P}&cursor={}", "Q".repeat(600)),
            "cursor",
            "longer than",
        ),
        (
            format!("/v1/account/{me}/history?{P}&chainId=eip155:1"),
            "chainId",
            "eip155:1 is not served by this backend",
        ),
        (
            format!("/v1/account/{me}/history?{P}&onramp=moonpay"),
            "onramp",
            "Unsupported provider",
        ),
        (
            format!("/v1/account/nope/history?{P}"),
            "address",
            "invalid",
        ),
        (format!("/v1/identity/0xnope?{P}"), "address", "invalid"),
    ];
    for (path, field, text) in cases {
        let r = get(s.addr, &path).await;
        assert_eq!(r.status, 400, "{path}: {}", r.text());
        let v = r.json();
        assert_eq!(v["status"], "FAILED", "{path}");
        let (f, d) = reason(&v);
        assert_eq!(f, field, "{path}: {d}");
        assert!(d.contains(text), "{path}: {d:?} lacks {text:?}");
    }
    // The demo's special project ids, as on the other stand-in APIs.
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/balance?currency=usd&projectId=rate-limited"),
    )
    .await;
    assert_eq!(r.status, 429);
    let r = get(s.addr, &format!("/v1/account/{me}/history?projectId=bad")).await;
    assert_eq!(r.status, 403);

    // POST /v1/fungible/price
    let post = |body: Vec<u8>| {
        let addr = s.addr;
        async move {
            request(
                addr,
                "POST",
                "/v1/fungible/price",
                &[("content-type", "application/json")],
                &body,
            )
            .await
        }
    };
    let r = post(b"{not json".to_vec()).await;
    assert_eq!((r.status, reason(&r.json()).0), (400, "body".to_string()));
    let r = post(
        json!({"projectId": "p", "currency": "usd", "addresses": []})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r.json()).0),
        (400, "addresses".to_string())
    );
    let many: Vec<String> = (0..101).map(|_| format!("eip155:31337:{me}")).collect();
    let r = post(
        json!({"projectId": "p", "currency": "usd", "addresses": many})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r.json()).0),
        (400, "addresses".to_string())
    );
    let r = post(
        json!({"projectId": "p", "currency": "usd", "addresses": [me]})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r.json()).0),
        (400, "address".to_string())
    );
    let r = post(
        json!({"currency": "usd", "addresses": [format!("eip155:31337:{me}")]})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r.json()).0),
        (400, "projectId".to_string())
    );
    let r = post(
        json!({"projectId": "p", "currency": "jpy", "addresses": [format!("eip155:31337:{me}")]})
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r.json()).0),
        (400, "currency".to_string())
    );
    let r = post(vec![b' '; 70 * 1024]).await;
    assert_eq!(r.status, 413);
}

#[tokio::test]
async fn unsupported_chains_answer_like_the_hosted_service_and_dead_chains_say_so() {
    let s = common::start().await; // chains 31337/31338 on ports where nothing listens
    let me = ACCOUNTS[0];
    // Another eip155 chain or another namespace: an empty balance list.
    for chain in ["eip155:1", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "1"] {
        let r = get(
            s.addr,
            &format!("/v1/account/{me}/balance?currency=usd&chainId={chain}&{P}"),
        )
        .await;
        assert_eq!(
            (r.status, r.json()),
            (200, json!({"balances": []})),
            "{chain}"
        );
    }
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp&{P}"),
    )
    .await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"data": [], "next": null}))
    );
    // A configured chain that cannot be reached: 503 naming it.
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/balance?currency=usd&chainId=eip155:31337&{P}"),
    )
    .await;
    assert_eq!(r.status, 503, "{}", r.text());
    let d = r.json()["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        d.contains("eip155:31337") && d.contains("unreachable"),
        "{d}"
    );
    // Its history is simply empty (nothing indexed), and the status says why.
    let r = get(
        s.addr,
        &format!("/v1/account/{me}/history?chainId=eip155:31337&{P}"),
    )
    .await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"data": [], "next": null}))
    );
    let st = get(s.addr, "/indexer/status").await.json();
    let started = Instant::now();
    let mut st = st;
    while st["chains"][0]["error"].is_null() && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        st = get(s.addr, "/indexer/status").await.json();
    }
    assert!(
        st["chains"][0]["error"]
            .as_str()
            .unwrap()
            .contains("cannot connect"),
        "{st}"
    );
    assert!(st["chains"][0]["indexedBlock"].is_null());
}

#[tokio::test]
async fn supported_chains_lists_the_chains_the_api_reads_and_needs_a_project() {
    let s = common::start().await;
    let r = get(s.addr, &format!("/v1/supported-chains?{P}")).await;
    assert_eq!(r.status, 200);
    let v = r.json();
    let http: Vec<&str> = v["http"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert!(http.contains(&"eip155:31337"), "{v}");
    assert!(http.iter().all(|c| c.starts_with("eip155:") || c.starts_with("solana:")), "{v}");
    assert_eq!(v["ws"], json!([]));
    assert_eq!(get(s.addr, "/v1/supported-chains").await.status, 400, "no project id");
}

#[tokio::test]
async fn identity_names_only_the_demo_accounts() {
    let s = common::start().await;
    let r = get(
        s.addr,
        &format!(
            "/v1/identity/{}?{P}&sender={}",
            "0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266", ACCOUNTS[1]
        ),
    )
    .await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["name"], "alice.demo.eth");
    let avatar = v["avatar"].as_str().unwrap();
    assert_eq!(
        avatar,
        format!("{}/public/getAssetImage/avatar-alice", s.origin())
    );
    assert_eq!(
        get(s.addr, avatar.strip_prefix(&s.origin()).unwrap())
            .await
            .status,
        200
    );
    assert_eq!(
        get(s.addr, &format!("/v1/identity/{}?{P}", ACCOUNTS[1]))
            .await
            .json()["name"],
        "bob.demo.eth"
    );
    for who in [
        ACCOUNTS[2],
        "0x0000000000000000000000000000000000000001",
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    ] {
        let r = get(s.addr, &format!("/v1/identity/{who}?{P}")).await;
        assert_eq!(
            (r.status, r.json()),
            (200, json!({"name": null, "avatar": null})),
            "{who}"
        );
    }
    assert_eq!(
        get(s.addr, &format!("/v1/identity/{}", ACCOUNTS[0]))
            .await
            .status,
        400
    );
}

#[tokio::test]
async fn token_images_and_the_collections_metadata_are_served_from_the_repo() {
    let s = common::start().await;
    let images = repo_root().join("demo/contracts/images");
    for id in ["usdc", "wmt", "pts", "claim", "eth"] {
        let r = get(s.addr, &format!("/public/getTokenImage/{id}")).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("image/svg+xml"));
        assert_eq!(
            r.body,
            std::fs::read(images.join(format!("{id}.svg"))).unwrap(),
            "{id}"
        );
    }
    // Other ids: generated as before; unknown ones 404.
    let r = get(s.addr, "/public/getTokenImage/USDT").await;
    assert!(r.status == 200 && r.text().contains(">US</text>"));
    assert_eq!(
        get(s.addr, "/public/getTokenImage/missing").await.status,
        404
    );

    let r = get(s.addr, "/demo-nft/5").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["name"], "Wallet Modal Pass #5");
    assert_eq!(
        v["image"],
        json!(format!("{}/demo-nft/5/image.svg", s.origin()))
    );
    let img = get(s.addr, "/demo-nft/5/image.svg").await;
    assert_eq!(img.body, std::fs::read(images.join("nft-2.svg")).unwrap());
    assert_eq!(get(s.addr, "/demo-nft/x1").await.status, 404);
    assert_eq!(
        get(s.addr, &format!("/demo-nft/{}", "9".repeat(100)))
            .await
            .status,
        404
    );
    assert_eq!(hex_to_dec("0xff"), "255");
}

/// A server whose wallet store (and so its indexes) is the SQLite file `store`, on `chains`.
async fn stored_server(chains: &str, manifest: Option<std::path::PathBuf>, store: &std::path::Path) -> wm_server::Server {
    let options = wm_server::Options {
        root: repo_root(),
        chains: wm_server::parse_chains(chains).unwrap(),
        contracts: manifest,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let mut config = wm_server::ServerConfig::default();
    config.chain.poll_interval = Duration::from_millis(50);
    config.wallet.store = Some(wm_server::wallet::StoreConfig { url: wm_server::wallet::store::durable::StoreUrl::Sqlite(store.to_path_buf()), master_key: [3; 32] });
    wm_server::start_with(options, config, 0, std::future::pending()).await.expect("server starts")
}

async fn indexed_block(s: &wm_server::Server) -> Value {
    get(s.addr, "/indexer/status").await.json()["chains"][0]["indexedBlock"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_store_a_restart_goes_on_from_the_stored_index_and_a_restarted_chain_is_indexed_again() {
    let dir = wm_server::testing::TempDir::new("index-store");
    let store = dir.join("w.sqlite");
    let anvil = Anvil::start(31337).await;
    let chain = format!("31337={}", anvil.url);
    let first = stored_server(&chain, None, &store).await;
    let (_manifest_dir, path, _) = deploy_demo(&[&anvil], &first.origin());
    first.state.chain_api.set_manifest(wm_server::chain::manifest::Manifest::load(&path).unwrap());
    wait_indexed(first.addr, &[&anvil]).await;
    let head = indexed_block(&first).await;
    let before = all_history(&first, ACCOUNTS[0], "eip155:31337").await.0;
    assert!(before.len() > 3, "{before:?}");
    // Kept once caught up.
    let d = first.state.wallet.durable.clone().unwrap();
    let started = Instant::now();
    while wm_server::wallet::store::durable::Durable::entry(&*d, "chain-index", "eip155:31337", 1).unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(10), "the index was not kept");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    first.state.chain_api.stop();
    drop(first);

    // A server that cannot reach the chain at all still knows it: the index came from the store.
    let offline = stored_server("31337=http://127.0.0.1:9", Some(path.clone()), &store).await;
    let started = Instant::now();
    while indexed_block(&offline).await != head {
        assert!(started.elapsed() < Duration::from_secs(10), "not restored: {}", indexed_block(&offline).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let kept = all_history(&offline, ACCOUNTS[0], "eip155:31337").await.0;
    assert_eq!(hashes(&kept), hashes(&before), "the same history, from the store");
    offline.state.chain_api.stop();
    drop(offline);

    // Back on the chain, one more transfer since: it goes on from the stored block.
    let r = anvil.send(ACCOUNTS[0], Some(ACCOUNTS[9]), "0x", 1).await;
    assert_eq!(r["status"], "0x1");
    let again = stored_server(&chain, Some(path.clone()), &store).await;
    wait_indexed(again.addr, &[&anvil]).await;
    let after = all_history(&again, ACCOUNTS[0], "eip155:31337").await.0;
    assert_eq!(after.len(), before.len() + 1, "the new transfer, once");
    assert_eq!(after[0]["metadata"]["hash"], r["transactionHash"]);
    assert_eq!(hashes(&after[1..]), hashes(&before));
    again.state.chain_api.stop();
    drop(again);

    // Another chain under the same id (restarted from its genesis): the stored index is dropped.
    let fresh = Anvil::start(31337).await;
    let other = stored_server(&format!("31337={}", fresh.url), None, &store).await;
    wait_indexed(other.addr, &[&fresh]).await;
    let rows = all_history(&other, ACCOUNTS[0], "eip155:31337").await.0;
    assert!(rows.is_empty(), "nothing of the first chain: {rows:?}");
}
