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

/// A server on `store` (stopped by sending on the answer's channel, which lets go of its store).
async fn on_store(anvil: &Anvil, url: wm_server::wallet::store::durable::StoreUrl) -> (wm_server::Server, tokio::sync::oneshot::Sender<()>) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut config = wm_server::ServerConfig::default();
    config.wallet.store = Some(wm_server::wallet::StoreConfig { url, master_key: [0x51; 32] });
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains(&format!("31337={}", anvil.url)).unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let s = wm_server::start_with(options, config, 0, async move {
        let _ = stopped.await;
    })
    .await
    .expect("server starts");
    (s, stop)
}

async fn stop(s: wm_server::Server, stop: tokio::sync::oneshot::Sender<()>) {
    stop.send(()).unwrap();
    let wm_server::Server { handle, state, .. } = s;
    drop(state);
    let _ = handle.await;
}

async fn listed(s: &wm_server::Server, address: &str) -> Value {
    request(s.addr, "GET", &format!("/v1/sessions/{address}?projectId=demo"), &[], b"").await.json()["sessions"].clone()
}

#[tokio::test]
async fn with_an_sqlite_store_a_session_outlives_a_restart_and_a_nonce_issued_before_it_is_used_once_after() {
    let anvil = Anvil::start(31337).await;
    let dir = wm_server::testing::TempDir::new("siwx");
    let url = wm_server::wallet::store::durable::StoreUrl::Sqlite(dir.join("store.sqlite"));
    let caip = format!("eip155:31337:{ADDRESS}");

    let (a, stop_a) = on_store(&anvil, url.clone()).await;
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&a).await, now_ms() + 3_600_000);
    let sig = sign(KEY, &msg);
    let r = sign_in(&a, &msg, &sig, &caip).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let pci = r.json()["pci"].as_str().unwrap().to_string();
    let pending = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&a).await, now_ms() + 3_600_000);
    stop(a, stop_a).await;

    let (b, stop_b) = on_store(&anvil, url.clone()).await;
    let sessions = listed(&b, &ADDRESS.to_lowercase()).await;
    assert_eq!(sessions.as_array().map(Vec::len), Some(1), "{sessions}");
    assert_eq!((sessions[0]["pci"].as_str(), sessions[0]["message"].as_str()), (Some(pci.as_str()), Some(msg.as_str())));
    assert!(sessions[0].get("signature").is_none());
    // The nonce issued before the restart works once after it.
    let second = sign(KEY, &pending);
    assert_eq!(sign_in(&b, &pending, &second, &caip).await.status, 201);
    let again = sign_in(&b, &pending, &second, &caip).await;
    assert_eq!(again.status, 401, "a replay: {}", again.text());
    assert_eq!(listed(&b, ADDRESS).await.as_array().map(Vec::len), Some(2));
    // Revoked after the restart, and it stays revoked over the next.
    let r = post(&b, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sign(OTHER_KEY, "x")})).await;
    assert_eq!(r.status, 403, "{}", r.text());
    let r = post(&b, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sig})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    stop(b, stop_b).await;
    let (c, stop_c) = on_store(&anvil, url).await;
    let sessions = listed(&c, ADDRESS).await;
    assert_eq!(sessions.as_array().map(Vec::len), Some(1), "{sessions}");
    assert_ne!(sessions[0]["pci"].as_str(), Some(pci.as_str()), "the revoked one is gone");
    stop(c, stop_c).await;
}

#[tokio::test]
async fn two_instances_on_postgresql_share_nonces_and_sessions_and_a_nonce_is_used_once_whichever_gets_it() {
    let anvil = Anvil::start(31337).await;
    let pg = wm_server::testing::PgServer::start().unwrap();
    let url = wm_server::wallet::store::durable::StoreUrl::parse(&pg.url("siwx")).unwrap();
    let (a, stop_a) = on_store(&anvil, url.clone()).await;
    let (b, stop_b) = on_store(&anvil, url).await;
    let caip = format!("eip155:31337:{ADDRESS}");

    // Issued by A, used on B; the same message sent to both at once is taken by one.
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&a).await, now_ms() + 3_600_000);
    let sig = sign(KEY, &msg);
    let (ra, rb) = tokio::join!(sign_in(&a, &msg, &sig, &caip), sign_in(&b, &msg, &sig, &caip));
    let mut statuses = [ra.status, rb.status];
    statuses.sort();
    assert_eq!(statuses, [201, 401], "A: {} B: {}", ra.text(), rb.text());
    let made = if ra.status == 201 { ra.json() } else { rb.json() };
    let pci = made["pci"].as_str().unwrap();
    // Each instance lists it; a revoke on one ends it on the other.
    for s in [&a, &b] {
        assert_eq!(listed(s, ADDRESS).await[0]["pci"].as_str(), Some(pci));
    }
    let r = post(&a, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sig})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(listed(&b, ADDRESS).await, json!([]));
    let r = post(&b, &format!("/v1/sessions/{ADDRESS}/revoke?projectId=demo"), &json!({"pci": pci, "signature": sig})).await;
    assert_eq!(r.status, 404, "already revoked on A: {}", r.text());
    // Another address's list is its own.
    assert_eq!(listed(&b, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8").await, json!([]));
    stop(a, stop_a).await;
    stop(b, stop_b).await;
}

#[tokio::test]
async fn a_session_lasts_at_most_30_days_and_one_client_cannot_ask_for_nonces_without_end() {
    let anvil = Anvil::start(31337).await;
    let s = chain_server(&[&anvil], None).await;
    // A message that says it expires in ten years: kept 30 days.
    let msg = message("127.0.0.1:5173", ADDRESS, 31337, &nonce(&s).await, now_ms() + 10 * 365 * 86_400_000);
    let r = sign_in(&s, &msg, &sign(KEY, &msg), &format!("eip155:31337:{ADDRESS}")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let expires = r.json()["expiresAt"].as_u64().unwrap();
    let month = 30 * 86_400_000;
    assert!(expires <= now_ms() + month && expires > now_ms() + month - 60_000, "{expires}");
    // The client's nonce budget runs out (120 at once) and says when to come back.
    let mut refused = None;
    for _ in 0..130 {
        let r = request(s.addr, "GET", "/v1/sessions/nonce?projectId=demo", &[("Origin", ORIGIN)], b"").await;
        if r.status != 200 {
            refused = Some(r);
            break;
        }
    }
    let r = refused.expect("refused within 130 asks");
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.text().contains("try again in"), "{}", r.text());
}
