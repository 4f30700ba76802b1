//! The Esplora-shaped API over the local Bitcoin regtest chain (src/chain/esplora.rs), against a
//! real `litecoind -regtest` started by demo/bitcoin/regtest.mjs (mined to the Demo Bitcoin
//! wallet's payment address).

mod common;

use serde_json::Value;
use std::process::{Child, Command, Stdio};

struct Regtest {
    child: Child,
    url: String,
    funded: String,
}

impl Drop for Regtest {
    fn drop(&mut self) {
        // SIGTERM: the script stops its litecoind.
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

async fn regtest() -> Regtest {
    let out = std::env::temp_dir().join(format!("wm-bitcoin-test-{}.json", std::process::id()));
    let child = Command::new("node")
        .arg(common::repo_root().join("demo/bitcoin/regtest.mjs"))
        .args(["--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs demo/bitcoin/regtest.mjs");
    // Up to two minutes: litecoind starts and mines 101 blocks, on a machine busy with the suite.
    for _ in 0..1200 {
        if let Ok(text) = std::fs::read_to_string(&out) {
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                let _ = std::fs::remove_file(&out);
                return Regtest { child, url: v["rpcUrl"].as_str().unwrap().into(), funded: v["funded"].as_str().unwrap().into() };
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Stopped before failing: no node left behind.
    drop(Regtest { child, url: String::new(), funded: String::new() });
    panic!("the regtest chain did not start (is litecoind installed? scripts/tools.sh installs it)");
}

async fn server(bitcoin: &str) -> wm_server::Server {
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::default_chains(),
        contracts: None,
        solana: None,
        bitcoin: Some(bitcoin.to_string()),
        test_token: None,
    };
    wm_server::start(options, 0, std::future::pending()).await.expect("server starts")
}

/// One node for both checks (two litecoind starting at once on a busy machine is slow).
#[tokio::test]
async fn the_esplora_api_over_a_real_regtest_node() {
    let chain = regtest().await;
    let s = server(&chain.url).await;
    an_address_holds_what_the_node_scanned_and_lists_its_outputs_and_the_tip_and_fees_are_the_nodes(&chain, &s).await;
    bad_addresses_transactions_and_ids_are_refused_with_why(&s).await;
}

async fn an_address_holds_what_the_node_scanned_and_lists_its_outputs_and_the_tip_and_fees_are_the_nodes(chain: &Regtest, s: &wm_server::Server) {
    let stats = common::get(s.addr, &format!("/bitcoin/api/address/{}", chain.funded)).await;
    assert_eq!(stats.status, 200, "{}", stats.text());
    let v = stats.json();
    // 101 coinbase outputs of 50 BTC (regtest's subsidy before halving).
    assert_eq!(v["chain_stats"]["funded_txo_sum"], 101u64 * 5_000_000_000);
    assert_eq!(v["chain_stats"]["funded_txo_count"], 101);
    let utxo = common::get(s.addr, &format!("/bitcoin/api/address/{}/utxo", chain.funded)).await.json();
    let list = utxo.as_array().unwrap();
    assert_eq!(list.len(), 101);
    assert_eq!(list[0]["value"], 5_000_000_000u64);
    assert_eq!(list[0]["txid"].as_str().unwrap().len(), 64);
    // 101 blocks to the wallet, 100 more so that all its coinbases are mature.
    assert_eq!(common::get(s.addr, "/bitcoin/api/blocks/tip/height").await.text(), "201");
    let fees = common::get(s.addr, "/bitcoin/api/fee-estimates").await.json();
    assert!(fees["1"].as_f64().unwrap() >= 1.0, "at least the node's minimum relay fee: {fees}");
    for target in ["2", "25", "144", "1008"] {
        assert_eq!(fees[target], fees["1"], "Esplora's targets: {target}");
    }
    // Its transactions, newest first: the last 25 of its coinbases (heights 101 down to 77).
    let txs = common::get(s.addr, &format!("/bitcoin/api/address/{}/txs", chain.funded)).await;
    assert_eq!(txs.status, 200, "{}", txs.text());
    let txs = txs.json();
    let list = txs.as_array().unwrap();
    assert_eq!(list.len(), 25, "Esplora's page of confirmed transactions");
    assert_eq!(list[0]["status"]["confirmed"], true);
    assert_eq!(list[0]["status"]["block_height"], 101);
    assert_eq!(list[24]["status"]["block_height"], 77);
    assert_eq!(list[0]["vin"][0]["is_coinbase"], true);
    assert_eq!(list[0]["vout"][0]["scriptpubkey_address"], chain.funded.as_str(), "written as a regtest address");
    assert_eq!(list[0]["vout"][0]["value"], 5_000_000_000u64);
    assert_eq!(list[0]["fee"], 0, "a coinbase pays none");
    let none = common::get(s.addr, "/bitcoin/api/address/bcrt1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3lgth6c/txs").await.json();
    assert_eq!(none, serde_json::json!([]), "an address the chain never paid");
}

async fn bad_addresses_transactions_and_ids_are_refused_with_why(s: &wm_server::Server) {
    let mainnet = common::get(s.addr, "/bitcoin/api/address/bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l").await;
    assert_eq!((mainnet.status, mainnet.text().as_str()), (400, "Not an address of this regtest chain"));
    let junk = common::get(s.addr, "/bitcoin/api/address/bcrt1qnope/utxo").await;
    assert_eq!(junk.status, 400);
    let tx = common::request(s.addr, "POST", "/bitcoin/api/tx", &[("Content-Type", "text/plain")], b"zz-not-hex").await;
    assert_eq!((tx.status, tx.text().as_str()), (400, "Expected a raw transaction as hex (at most 200 KB)"));
    let refused = common::request(s.addr, "POST", "/bitcoin/api/tx", &[("Content-Type", "text/plain")], b"00").await;
    assert_eq!(refused.status, 400, "the node refuses a transaction that does not decode");
    assert!(refused.text().contains("sendrawtransaction"), "{}", refused.text());
    let id = common::get(s.addr, "/bitcoin/api/tx/1234/status").await;
    assert_eq!(id.status, 400);
}
