//! Sign-in sessions (`/v1/sessions`) against a real anvil chain: EIP-4361 messages written and
//! signed here (k256, `personal_sign`) as a wallet would, checked by the backend with the core
//! compiled natively; a contract account (DemoSmartAccount, compiled from source, ERC-1271)
//! deployed on anvil signs in through its owner's key; and every refusal says why.

mod common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::chain::{artifacts, chain_server, Anvil};
use common::request;
use k256::ecdsa::SigningKey;
use serde_json::{json, Value};
use wm_core::chain::hash::{from_hex, hash_message, to_hex};

/// anvil's first two dev keys.
const KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const OTHER_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ORIGIN: &str = "http://127.0.0.1:5173";

fn key(k: &str) -> SigningKey {
    SigningKey::from_slice(&from_hex(k).unwrap()).unwrap()
}

fn sign(k: &str, message: &str) -> String {
    let (sig, recid) = key(k).sign_prehash_recoverable(&hash_message(message));
    let mut bytes = sig.to_bytes().to_vec();
    bytes.push(27 + recid.to_byte());
    to_hex(&bytes)
}

fn iso(ms: u64) -> String {
    wm_core::account::transactions::rfc3339_utc(ms as i64)
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

fn message(domain: &str, address: &str, chain: u64, nonce: &str, expires_ms: u64) -> String {
    let f = wm_core::auth::siwx::SiwxMessageFields {
        domain: domain.into(),
        account_address: address.into(),
        chain_id: chain,
        uri: format!("http://{domain}"),
        version: "1".into(),
        nonce: nonce.into(),
        statement: Some("Sign in to the demo".into()),
        resources: None,
        issued_at: iso(now_ms() - 1000),
        expiration_time: Some(iso(expires_ms)),
        not_before: None,
        request_id: None,
    };
    wm_core::auth::siwx::create_siwx_message(&f).unwrap()
}

async fn nonce(s: &wm_server::Server) -> String {
    let r = request(s.addr, "GET", "/v1/sessions/nonce?projectId=demo", &[("Origin", ORIGIN)], b"").await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["nonce"].as_str().unwrap().to_string()
}

async fn post(s: &wm_server::Server, path: &str, body: &Value) -> common::Resp {
    let body = body.to_string();
    request(s.addr, "POST", path, &[("Origin", ORIGIN), ("Content-Type", "application/json")], body.as_bytes()).await
}

async fn sign_in(s: &wm_server::Server, msg: &str, signature: &str, caip: &str) -> common::Resp {
    post(s, "/v1/sessions?projectId=demo", &json!({"message": msg, "signature": signature, "caipAddress": caip})).await
}

#[tokio::test]
async fn a_signed_in_account_has_a_session_listed_by_address_and_revoked_with_its_signature() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let n = nonce(&s).await;
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &n, now_ms() + 3_600_000);
    let sig = sign(KEY, &msg);
    let r = sign_in(&s, &msg, &sig, &format!("eip155:31337:{ADDRESS}")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let pci = r.json()["pci"].as_str().unwrap().to_string();

    let list = request(s.addr, "GET", &format!("/v1/sessions/{}?projectId=demo", ADDRESS.to_lowercase()), &[], b"").await.json();
    assert_eq!(list["sessions"][0]["pci"], pci.as_str());
    assert_eq!(list["sessions"][0]["message"], msg.as_str());
    assert!(list["sessions"][0].get("signature").is_none(), "the proof is never handed out");

    let r = post(&s, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sign(OTHER_KEY, "x")})).await;
    assert_eq!(r.status, 403, "{}", r.text());
    let r = post(&s, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sig})).await;
    assert_eq!((r.status, r.json()["revoked"].clone()), (200, json!(true)));
    let list = request(s.addr, "GET", &format!("/v1/sessions/{ADDRESS}?projectId=demo"), &[], b"").await.json();
    assert_eq!(list["sessions"], json!([]));
}

#[tokio::test]
async fn replays_unknown_nonces_other_domains_chains_expired_messages_other_keys_and_huge_bodies_are_refused() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let caip = format!("eip155:31337:{ADDRESS}");
    let later = now_ms() + 3_600_000;

    // Used once: the same message again is a replay.
    let n = nonce(&s).await;
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &n, later);
    assert_eq!(sign_in(&s, &msg, &sign(KEY, &msg), &caip).await.status, 201);
    let r = sign_in(&s, &msg, &sign(KEY, &msg), &caip).await;
    assert_eq!(r.status, 401);
    assert!(r.text().contains("already used"), "{}", r.text());

    let refused = |r: common::Resp, why: &str| {
        assert_eq!(r.status, 401, "{}", r.text());
        assert!(r.text().contains(why), "expected {why:?} in {}", r.text());
    };
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, "neverIssued123", later);
    refused(sign_in(&s, &msg, &sign(KEY, &msg), &caip).await, "not issued here");
    let msg = message("evil.example", ADDRESS, 31337, &nonce(&s).await, later);
    refused(sign_in(&s, &msg, &sign(KEY, &msg), &caip).await, "for evil.example, not 127.0.0.1:5173");
    let msg = message("127.0.0.1:5173", ADDRESS, 1, &nonce(&s).await, later);
    refused(sign_in(&s, &msg, &sign(KEY, &msg), &caip).await, "chain 1, not eip155:31337");
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&s).await, now_ms() - 1);
    refused(sign_in(&s, &msg, &sign(KEY, &msg), &caip).await, "expired");
    // Another key's signature: the account has no code on the chain, so it is not the account's.
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&s).await, later);
    refused(sign_in(&s, &msg, &sign(OTHER_KEY, &msg), &caip).await, "not the account's");

    let big = json!({"message": "x".repeat(100_000), "signature": "0x00", "caipAddress": caip});
    let r = post(&s, "/v1/sessions?projectId=demo", &big).await;
    assert_eq!(r.status, 413, "{}", r.text());
    let r = request(s.addr, "POST", "/v1/sessions?projectId=demo", &[("Origin", "https://phish.example")], b"{}").await;
    assert_eq!(r.status, 403, "an origin the project does not allow: {}", r.text());
}

#[tokio::test]
async fn a_contract_account_signs_in_through_its_owner_and_erc1271_on_the_chain() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    let code = artifacts()["contracts"]["DemoSmartAccount"]["bytecode"].as_str().unwrap().to_string();
    let owner = format!("{:0>64}", &ADDRESS[2..].to_lowercase());
    let r = anvil.send(ADDRESS, None, &format!("{code}{owner}"), 0).await;
    assert_eq!(r["status"], json!("0x1"), "deploy: {r}");
    let account = wm_core::chain::address::checksum_address(r["contractAddress"].as_str().unwrap()).unwrap();
    let caip = format!("eip155:31337:{account}");

    let msg = message("127.0.0.1:5173", &account, 31337, &nonce(&s).await, now_ms() + 3_600_000);
    let r = sign_in(&s, &msg, &sign(KEY, &msg), &caip).await;
    assert_eq!(r.status, 201, "the owner's signature is the account's: {}", r.text());
    let msg = message("127.0.0.1:5173", &account, 31337, &nonce(&s).await, now_ms() + 3_600_000);
    let r = sign_in(&s, &msg, &sign(OTHER_KEY, &msg), &caip).await;
    assert_eq!(r.status, 401, "another key is not: {}", r.text());
}
