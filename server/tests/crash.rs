//! Crash safety of the server binary on each store: `kill -9` in the middle of an email login
//! (after the device link, after the code) and of a key upload, a new process on the same store:
//! the link and the code mailed before the crash still work (once), the mail throttle still holds,
//! the visitor's session is still good, and the login reaches the same wallet. The same run's logs (every request logged,
//! `--log-requests`) are grepped for the codes, links, session tokens, keys and the master key.

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use common::frame::{approval_link, approvals, device, LOGIN, PROJECT};
use common::mail::Maildev;
use common::process::MASTER;
use serde_json::{json, Value};

const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

fn spawn(store: &str, smtp: SocketAddr, frame_port: u16, log: &Path) -> common::process::Server {
    common::process::spawn(store, smtp, frame_port, log, &[])
}

fn ciphertext() -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode((0u8..60).map(|b| b ^ 0xa5).collect::<Vec<u8>>())
}

/// Every secret this run handed out: codes and links (from the mail), session tokens and keys.
fn secrets(mail: &[Value], logins: &[Value]) -> Vec<String> {
    let mut out = vec![MASTER.to_string(), ciphertext()];
    for m in mail {
        let subject = m["subject"].as_str().unwrap_or("");
        if let Some(code) = subject.strip_prefix("Your login code is ") {
            out.push(code.trim().to_string());
        }
        let text = m["text"].as_str().unwrap_or("");
        for token in text.split(|c: char| c.is_whitespace()).filter_map(|w| w.split_once("token=").map(|(_, t)| t.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_').to_string())) {
            out.push(token);
        }
    }
    for v in logins {
        for k in ["session", "kek"] {
            if let Some(s) = v[k].as_str() {
                out.push(s.to_string());
            }
        }
    }
    assert!(out.len() >= 8, "the run handed out codes, links, sessions and keys: {out:?}");
    out
}

async fn crash_and_restart_keep_the_wallet(store: &str, dir: &Path) {
    let mail = Maildev::start().await;
    let log: PathBuf = dir.join("server.log");
    let addr = "crash@example.com";
    let dev = device("crash");
    let mut logins = Vec::new();
    let frame_port = common::mail::free_port();

    // 1. Killed in the middle of a login: the device's approval link is mailed, then the process
    // dies.
    let s = spawn(store, mail.smtp, frame_port, &log);
    let r = s.frame.start_login_in(PROJECT, addr, &dev).await;
    assert_eq!((r.status, r.json()["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{}", r.text());
    drop(s);
    // A new process: the address's mail slot still holds (no second mail at once), and the link
    // mailed before the crash approves the device; its code logs in.
    let s = spawn(store, mail.smtp, frame_port, &log);
    let held = s.frame.start_login_in(PROJECT, addr, &dev).await;
    assert_eq!(held.status, 429, "{}", held.text());
    let link = approval_link(&mail, &s.frame, addr, 1).await;
    let approved = s.frame.approve(&link).await;
    assert_eq!(approved.status, 200, "{}", approved.text());
    let code = mail.code(addr, LOGIN, 1).await;
    let first = s.frame.verify_in(PROJECT, addr, &dev, &code).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    logins.push(first.clone());
    // 2. Killed in the middle of a key upload: the upload and the kill race.
    let session = first["session"].as_str().unwrap().to_string();
    let frame = s.frame;
    let upload = tokio::spawn(async move { frame.post_auth("/w/v1/key", &session, json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await });
    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    drop(s);
    let answered = upload.await.map(|r| r.status).unwrap_or(0);
    // 3. A new process: the visitor is still logged in (the session was kept); the ciphertext is
    // there whole or not at all.
    let s = spawn(store, mail.smtp, frame_port, &log);
    let session = first["session"].as_str().unwrap();
    let kept = s.frame.get_auth("/w/v1/session", session).await;
    assert_eq!((kept.status, &kept.json()["userId"]), (200, &first["userId"]), "{}", kept.text());
    let again = s.frame.post_auth("/w/v1/key", session, json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await;
    match again.status {
        409 => {}
        200 => assert_ne!(answered, 200, "an upload answered 200 is kept"),
        other => panic!("{other}: {}", again.text()),
    }
    // 4. A code is mailed, the process is killed before it is entered: the code mailed before the
    // crash logs in after it, to the same account, key and address.
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let r = s.frame.start_login_in(PROJECT, addr, &dev).await;
    assert_eq!((r.status, r.json()["action"].as_str()), (200, Some("VERIFY_OTP")), "{}", r.text());
    let code = mail.code(addr, LOGIN, 2).await;
    drop(s);
    let s = spawn(store, mail.smtp, frame_port, &log);
    let last = s.frame.verify_in(PROJECT, addr, &dev, &code).await;
    assert_eq!(last.status, 200, "{}", last.text());
    let last = last.json();
    logins.push(last.clone());
    assert_eq!((&last["userId"], &last["kek"], last["keyCiphertext"].as_str()), (&first["userId"], &first["kek"], Some(ciphertext().as_str())));
    let view = s.frame.get_auth("/w/v1/session", last["session"].as_str().unwrap()).await.json();
    assert_eq!(view["address"], ADDRESS, "the same address");
    // Used up: the same code does not log in twice, across a restart either.
    drop(s);
    let s = spawn(store, mail.smtp, frame_port, &log);
    assert_eq!(s.frame.verify_in(PROJECT, addr, &dev, &code).await.status, 400);
    drop(s);

    // No secret in any line the server wrote, though every request was logged.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.lines().filter(|l| l.contains("\"route\":\"/w/v1/email/verify\"")).count() >= 3, "every request was logged:\n{text}");
    let mut mails = mail.all().await;
    assert!(approvals(&mail, addr).await.len() >= 1);
    mails.retain(|m| m["to"][0]["address"] == addr);
    for secret in secrets(&mails, &logins) {
        assert!(!text.contains(&secret), "the log holds a secret ({} characters)", secret.len());
    }
}

fn temp(name: &str) -> wm_server::testing::TempDir {
    wm_server::testing::TempDir::new(&format!("crash-{name}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_server_killed_mid_login_and_mid_key_upload_restarts_to_the_same_wallet_and_logs_no_secret() {
    let dir = temp("sqlite");
    crash_and_restart_keep_the_wallet(&format!("sqlite:{}", dir.join("wallet.sqlite").display()), dir.path()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_server_killed_mid_login_and_mid_key_upload_restarts_to_the_same_wallet_and_logs_no_secret() {
    let dir = temp("postgres");
    let pg = wm_server::testing::PgServer::start().unwrap();
    crash_and_restart_keep_the_wallet(&pg.url("crash"), dir.path()).await;
}

/// Killed in the middle of a relay delivery: what the relay accepted and had not yet delivered
/// (a peer offline, another not acknowledging) is delivered by the new process, from Redis.
async fn crash_keeps_the_relays_queued_messages(store: &str, dir: &Path) {
    use common::relay::{topic, Client};
    let mail = Maildev::start().await;
    let redis = wm_server::testing::RedisServer::start().unwrap();
    let log = dir.join("relay.log");
    let with_redis = ["--redis", &redis.url()];
    let (offline, busy) = (topic(7), topic(8));
    let s = common::process::spawn(store, mail.smtp, 0, &log, &with_redis);
    let mut dapp = Client::connect(s.addr, 1).await;
    let mut wallet = Client::connect(s.addr, 2).await;
    wallet.subscribe(&busy).await;
    dapp.publish(&offline, "for-the-offline-wallet", 300, 1100).await;
    dapp.publish(&busy, "request-1", 300, 1108).await;
    // The push reaches the wallet, which dies before acknowledging it; the process is killed
    // while a second request is on its way.
    let first = wallet.push().await;
    assert_eq!(first["params"]["data"]["message"], "request-1");
    dapp.publish(&busy, "request-2", 300, 1108).await;
    drop(s);
    let s = common::process::spawn(store, mail.smtp, 0, &log, &with_redis);
    let mut wallet = Client::connect(s.addr, 3).await;
    wallet.subscribe(&busy).await;
    let mut got = vec![wallet.push_acked().await, wallet.push_acked().await];
    wallet.subscribe(&offline).await;
    got.push(wallet.push_acked().await);
    let messages: Vec<&str> = got.iter().map(|p| p["params"]["data"]["message"].as_str().unwrap()).collect();
    assert_eq!(messages, ["request-1", "request-2", "for-the-offline-wallet"]);
    wallet.no_push().await;
    drop(s);
    // The control: without Redis, the same crash loses what was queued.
    let s = common::process::spawn(store, mail.smtp, 0, &log, &[]);
    let mut dapp = Client::connect(s.addr, 1).await;
    dapp.publish(&topic(10), "kept-in-memory-only", 300, 1100).await;
    drop(s);
    let s = common::process::spawn(store, mail.smtp, 0, &log, &[]);
    let mut wallet = Client::connect(s.addr, 2).await;
    wallet.subscribe(&topic(10)).await;
    wallet.no_push().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_server_killed_mid_relay_delivery_delivers_the_queued_messages_after_the_restart() {
    let dir = temp("relay-sqlite");
    crash_keeps_the_relays_queued_messages(&format!("sqlite:{}", dir.join("wallet.sqlite").display()), dir.path()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_server_killed_mid_relay_delivery_delivers_the_queued_messages_after_the_restart() {
    let dir = temp("relay-postgres");
    let pg = wm_server::testing::PgServer::start().unwrap();
    crash_keeps_the_relays_queued_messages(&pg.url("relay"), dir.path()).await;
}

/// Killed in the middle of on-ramp payouts (at several moments, while the payer's account is also
/// used by someone else): after the restart every paid order is paid out, and none twice.
async fn crash_pays_each_order_once(store: &str, dir: &Path) {
    use common::chain::Anvil;
    let mail = Maildev::start().await;
    let anvil = Anvil::start(31337).await;
    let log = dir.join("onramp.log");
    let chains = format!("31337={}", anvil.url);
    let args = ["--chains", chains.as_str(), "--payout-lease", "1"];
    // Meld's payout account (anvil's dev account 4), which the test also spends from.
    const PAYER: &str = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    let card = json!({"cardNumber": "4242 4242 4242 4242", "expiry": "12/35", "cvc": "123"}).to_string();
    let mut orders: Vec<(String, String, String)> = Vec::new(); // (id, destination, amount)
    let mut s = common::process::spawn(store, mail.smtp, 0, &log, &args);
    for (round, delay_ms) in [0u64, 2, 8, 25].into_iter().enumerate() {
        let mut this_round = Vec::new();
        for i in 0..3 {
            let destination = format!("0x00000000000000000000000000000000{:04x}{:04x}", 0xc0de, round * 16 + i);
            let body = json!({"destinationWallets": [{"address": destination, "blockchains": ["eip155:31337"], "assets": ["ETH"]}],
                              "partnerUserId": "crash", "provider": "meld", "presetFiatAmount": "30"}).to_string();
            let r = common::request(s.addr, "POST", "/v1/generators/onrampurl?projectId=demo-project", &[("content-type", "application/json")], body.as_bytes()).await;
            assert_eq!(r.status, 200, "{}", r.text());
            let id = r.json()["orderId"].as_str().unwrap().to_string();
            let amount = common::get(s.addr, &format!("/v1/onramp/orders/{id}")).await.json()["purchaseAmount"].as_str().unwrap().to_string();
            this_round.push((id, destination, amount));
        }
        // Pay all three at once; someone else spends from the payer meanwhile; the process is
        // killed `delay_ms` later.
        let addr = s.addr;
        for (id, _, _) in &this_round {
            let (path, card) = (format!("/onramp/meld/checkout/{id}/pay"), card.clone());
            tokio::spawn(async move { common::request(addr, "POST", &path, &[("content-type", "application/json")], card.as_bytes()).await.status });
        }
        let other = anvil.send(PAYER, Some("0x000000000000000000000000000000000000dead"), "0x", 1);
        tokio::time::sleep(std::time::Duration::from_millis(delay_ms)).await;
        drop(s);
        other.await;
        s = common::process::spawn(store, mail.smtp, 0, &log, &args);
        // The buyer's window pays again what the crash left unpaid (the page still showed the form).
        for (id, _, _) in &this_round {
            let now = common::get(s.addr, &format!("/v1/onramp/orders/{id}")).await.json();
            if now["status"] == "PENDING" {
                let r = common::request(s.addr, "POST", &format!("/onramp/meld/checkout/{id}/pay"), &[("content-type", "application/json")], card.as_bytes()).await;
                assert!(r.status == 200 || r.status == 409, "{}", r.text());
            }
        }
        orders.extend(this_round);
    }
    // And at the two exact instants that matter: the attempt written but not sent, and sent (mined)
    // but its hash not written.
    for (n, point) in ["payout-attempt-written", "payout-sent"].into_iter().enumerate() {
        drop(s);
        let crashing = common::process::spawn_env(store, mail.smtp, 0, &log, &args, &[("WM_FAILPOINTS", point)]);
        let destination = format!("0x00000000000000000000000000000000{:04x}{:04x}", 0xfa11, n);
        let body = json!({"destinationWallets": [{"address": destination, "blockchains": ["eip155:31337"], "assets": ["ETH"]}],
                          "partnerUserId": "crash", "provider": "meld", "presetFiatAmount": "30"}).to_string();
        let r = common::request(crashing.addr, "POST", "/v1/generators/onrampurl?projectId=demo-project", &[("content-type", "application/json")], body.as_bytes()).await;
        let id = r.json()["orderId"].as_str().unwrap().to_string();
        let amount = common::get(crashing.addr, &format!("/v1/onramp/orders/{id}")).await.json()["purchaseAmount"].as_str().unwrap().to_string();
        let (addr, path, card) = (crashing.addr, format!("/onramp/meld/checkout/{id}/pay"), card.clone());
        let _ = tokio::spawn(async move { common::request(addr, "POST", &path, &[("content-type", "application/json")], card.as_bytes()).await }).await;
        let mut crashing = crashing;
        let started = std::time::Instant::now();
        let ended = loop {
            if let Some(status) = crashing.child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "the process never reached {point}");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        assert!(!ended.success(), "the process stopped at {point}");
        s = common::process::spawn(store, mail.smtp, 0, &log, &args);
        orders.push((id, destination, amount));
    }
    // Every order ends paid out (taken up again by the new processes), each destination holding
    // exactly its order's amount: nothing paid twice.
    for (id, destination, amount) in &orders {
        let started = std::time::Instant::now();
        let o = loop {
            let o = common::get(s.addr, &format!("/v1/onramp/orders/{id}")).await.json();
            if o["status"] == "COMPLETED" || o["status"] == "FAILED" {
                break o;
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "not paid out: {o}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        assert_eq!(o["status"], "COMPLETED", "{o}");
        let held: u128 = anvil.eth_balance(destination).await.parse().unwrap();
        let (whole, frac) = amount.split_once('.').unwrap_or((amount, ""));
        let expected: u128 = format!("{whole}{frac:0<18}").parse().unwrap();
        assert_eq!(held, expected, "order {id} paid {held} wei to {destination} for {amount} ETH");
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!text.contains(MASTER), "no key in the log");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_server_killed_mid_payout_pays_every_order_out_once_after_the_restart() {
    let dir = temp("onramp-sqlite");
    crash_pays_each_order_once(&format!("sqlite:{}", dir.join("wallet.sqlite").display()), dir.path()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_server_killed_mid_payout_pays_every_order_out_once_after_the_restart() {
    let dir = temp("onramp-postgres");
    let pg = wm_server::testing::PgServer::start().unwrap();
    crash_pays_each_order_once(&pg.url("onramp"), dir.path()).await;
}
