//! `GET /v1/account/{address}/nfts` against real anvil chains with the demo collection deployed by
//! demo/contracts/deploy.mjs: who holds which item follows the Transfer logs on the chain.

mod common;

use common::chain::{chain_server, deploy_demo, wait_indexed, Anvil, ACCOUNTS};
use common::get;
use serde_json::{json, Value};

const P: &str = "projectId=demo-project";

async fn nfts(s: &wm_server::Server, who: &str, query: &str) -> Value {
    let r = get(s.addr, &format!("/v1/account/{who}/nfts?{P}{query}")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

fn ids(v: &Value) -> Vec<&str> {
    v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["tokenId"].as_str().unwrap())
        .collect()
}

fn word(hex_addr: &str) -> String {
    format!("{:0>64}", hex_addr.trim_start_matches("0x").to_lowercase())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_holds_the_items_it_received_last_with_their_names_and_images() {
    let a = Anvil::start(31337).await;
    let s = chain_server(&[&a], None).await;
    let (_manifest_dir, path, manifest) = deploy_demo(&[&a], &s.origin());
    s.state
        .chain_api
        .set_manifest(wm_server::chain::manifest::Manifest::load(&path).unwrap());
    wait_indexed(s.addr, &[&a]).await;

    // deploy.mjs: #1 and #2 minted to the demo account, #3 to the friend; #2 sent to the friend, #3
    // sent back. The item received last comes first.
    let mine = nfts(&s, ACCOUNTS[0], "&chainId=eip155:31337").await;
    assert_eq!(ids(&mine), ["3", "1"]);
    assert_eq!(nfts(&s, ACCOUNTS[1], "").await["data"][0]["tokenId"], "2");
    let first = &mine["data"][0];
    assert_eq!(first["name"], "Wallet Modal Pass #3");
    assert_eq!(first["contract"]["name"], "Wallet Modal Pass");
    assert_eq!(first["contract"]["symbol"], "WMP");
    assert_eq!(first["chainId"], "eip155:31337");
    assert_eq!(first["isSpam"], false);
    assert_eq!(mine["next"], Value::Null);
    let image = first["imageUrl"].as_str().unwrap();
    assert_eq!(image, format!("{}/demo-nft/3/image.svg", s.origin()));
    assert_eq!(
        get(s.addr, image.strip_prefix(&s.origin()).unwrap())
            .await
            .status,
        200
    );
    let collection = first["contract"]["address"].as_str().unwrap().to_string();
    let in_manifest = manifest.to_string().to_lowercase();
    assert!(
        in_manifest.contains(&collection.to_lowercase()),
        "{collection}"
    );

    // The demo account sends #1 to the friend: the lists follow the chain.
    let data = format!(
        "0x23b872dd{}{}{:0>64}",
        word(ACCOUNTS[0]),
        word(ACCOUNTS[1]),
        "1"
    );
    let receipt = a.send(ACCOUNTS[0], Some(&collection), &data, 0).await;
    assert_eq!(receipt["status"], "0x1");
    wait_indexed(s.addr, &[&a]).await;
    assert_eq!(ids(&nfts(&s, ACCOUNTS[0], "").await), ["3"]);
    assert_eq!(ids(&nfts(&s, ACCOUNTS[1], "").await), ["1", "2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collection_deployed_for_another_backend_address_is_re_pointed_by_deploy_rebase() {
    // `make demo` deploys before the backend binds its port; when that port was taken meanwhile the
    // backend starts on another and `deploy.mjs --rebase` points the collection at it.
    let a = Anvil::start(31337).await;
    let s = chain_server(&[&a], None).await;
    let (_manifest_dir, path, _) = deploy_demo(&[&a], "http://127.0.0.1:9");
    let status = std::process::Command::new("node")
        .arg(common::repo_root().join("demo/contracts/deploy.mjs"))
        .args(["--rebase", &format!("{}/", s.origin()), "--out"])
        .arg(&path)
        .env("DEPLOY_QUIET", "1")
        .status()
        .unwrap();
    assert!(status.success(), "deploy.mjs --rebase failed");
    let manifest: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(manifest["apiUrl"], s.origin());
    // The collection's tokenURI(3), asked of the chain: the backend's new address.
    let collection = manifest["chains"][0]["tokens"].as_array().unwrap().iter().find(|t| t["kind"] == "erc721").unwrap()["address"].as_str().unwrap().to_string();
    assert_eq!(manifest["chains"][0]["tokens"].as_array().unwrap().iter().find(|t| t["kind"] == "erc721").unwrap()["baseURI"], format!("{}/demo-nft/", s.origin()));
    let out = a.rpc("eth_call", json!([{"to": collection, "data": format!("0xc87b56dd{:0>64}", "3")}, "latest"])).await;
    let bytes: Vec<u8> = (2..out.as_str().unwrap().len()).step_by(2).map(|i| u8::from_str_radix(&out.as_str().unwrap()[i..i + 2], 16).unwrap()).collect();
    let len = u64::from_be_bytes(bytes[56..64].try_into().unwrap()) as usize;
    let uri = String::from_utf8(bytes[64..64 + len].to_vec()).unwrap();
    assert_eq!(uri, format!("{}/demo-nft/3", s.origin()));
    let meta = get(s.addr, "/demo-nft/3").await;
    assert_eq!((meta.status, meta.json()["name"].as_str()), (200, Some("Wallet Modal Pass #3")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_nft_queries_are_refused_and_other_namespaces_hold_nothing() {
    let a = Anvil::start(31337).await;
    let s = chain_server(&[&a], None).await;
    let who = ACCOUNTS[0];
    for (query, field) in [
        ("&cursor=abc", "cursor"),
        ("&cursor=-1", "cursor"),
        ("&cursor=1234567890", "cursor"),
        ("&chainId=eip155:1", "chainId"),
        ("&chainId=nonsense:", "chainId"),
    ] {
        let r = get(s.addr, &format!("/v1/account/{who}/nfts?{P}{query}")).await;
        assert_eq!(r.status, 400, "{query}: {}", r.text());
        assert_eq!(r.json()["reasons"][0]["field"], field, "{query}");
    }
    let r = get(s.addr, &format!("/v1/account/0x12/nfts?{P}")).await;
    assert_eq!(r.status, 400);
    let r = get(s.addr, &format!("/v1/account/{who}/nfts")).await;
    assert!(
        r.status == 400 || r.status == 401 || r.status == 403,
        "{}",
        r.status
    );
    let other = nfts(&s, who, "&chainId=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").await;
    assert_eq!(other, json!({ "data": [], "next": null }));
    // A Solana account's own (base58) address on its network: nothing held here either, no error.
    let solana = nfts(&s, "FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc", "&chainId=solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ").await;
    assert_eq!(solana, json!({ "data": [], "next": null }));
    // Without `--solana`, a Solana network's balances are none (not an error).
    let r = get(s.addr, &format!("/v1/account/FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc/balance?{P}&currency=usd&chainId=solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ")).await;
    assert_eq!((r.status, r.json()), (200, json!({ "balances": [] })));
}
