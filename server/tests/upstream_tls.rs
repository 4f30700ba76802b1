//! Upstreams over HTTPS: the server binary reads a chain through a TLS endpoint whose certificate
//! a private certificate authority signed (made here with rcgen), trusted with `--ca-file`; without
//! it the chain is refused for its certificate, and what the server reports never shows the
//! upstream URL's path (where providers put API keys). The wallet store reaches PostgreSQL over TLS
//! the same way.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::chain::Anvil;
use serde_json::{json, Value};

/// anvil's first dev account and its starting balance (10,000 ETH).
const DEV: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

struct Pki {
    ca_pem: String,
    cert_pem: String,
    key_pem: String,
    cert: rustls::pki_types::CertificateDer<'static>,
    key: rustls::pki_types::PrivateKeyDer<'static>,
}

/// A certificate authority, and a certificate it signed for `localhost` and 127.0.0.1.
fn pki() -> Pki {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name.push(rcgen::DnType::CommonName, "wallet-modal test CA");
    ca.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::CrlSign];
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let mut leaf = rcgen::CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
    leaf.distinguished_name.push(rcgen::DnType::CommonName, "localhost");
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        cert: cert.der().clone(),
        key: rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
    }
}

/// A TLS endpoint in front of `upstream` (each connection's bytes copied both ways); its port.
async fn tls_proxy(pki: &Pki, upstream: SocketAddr) -> u16 {
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![pki.cert.clone()], pki.key.clone_key())
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                let Ok(mut up) = tokio::net::TcpStream::connect(upstream).await else { return };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut up).await;
            });
        }
    });
    port
}

/// The server binary with `args`; its main listener.
fn server(args: &[String]) -> (common::chain::KillOnDrop, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--root"])
        .arg(common::repo_root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect(&line).parse().unwrap();
    (common::chain::KillOnDrop(child), addr)
}

/// The first chain of `/indexer/status` once it has caught up or failed.
async fn chain_status(addr: SocketAddr) -> Value {
    let started = Instant::now();
    loop {
        let v = common::get(addr, "/indexer/status").await.json()["chains"][0].clone();
        if v["indexedBlock"].as_u64().is_some() || !v["error"].is_null() || started.elapsed() > Duration::from_secs(20) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_chain_behind_https_is_read_with_the_ca_file_trusted_and_refused_for_its_certificate_without() {
    let anvil = Anvil::start(31337).await;
    let pki = pki();
    let port = tls_proxy(&pki, anvil.addr).await;
    let dir = wm_server::testing::TempDir::new("tls");
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, &pki.ca_pem).unwrap();
    // The query stands for an API key: it must not show in what the server reports.
    let chains = format!("eip155:31337=https://localhost:{port}/?apikey=SECRET-API-KEY");

    let (_trusting, addr) = server(&["--chains".into(), chains.clone(), "--ca-file".into(), ca_file.display().to_string()]);
    let status = chain_status(addr).await;
    assert!(status["indexedBlock"].as_u64().is_some(), "{status}");
    assert_eq!(status["rpcUrl"], json!(format!("https://localhost:{port}/…")));
    let balance = common::get(addr, &format!("/v1/account/{DEV}/balance?projectId=demo&currency=usd&chainId=eip155:31337")).await;
    assert_eq!(balance.status, 200, "{}", balance.text());
    let native = balance.json()["balances"].as_array().unwrap().iter().find(|b| b["symbol"] == "ETH").cloned().unwrap_or_default();
    assert_eq!(native["quantity"]["numeric"], json!("10000.000000000000000000"), "read over TLS from anvil: {native}");

    let (_doubting, addr) = server(&["--chains".into(), chains]);
    let status = chain_status(addr).await;
    assert!(status["indexedBlock"].is_null(), "{status}");
    let error = status["error"].as_str().unwrap_or_default();
    assert!(error.contains("certificate") && error.contains("UnknownIssuer"), "{status}");
    assert!(!status.to_string().contains("SECRET-API-KEY"), "{status}");

    // A file that is not certificates stops the start.
    std::fs::write(&ca_file, "not a certificate").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server")).args(["--port", "0", "--ca-file"]).arg(&ca_file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no certificate"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[tokio::test]
async fn the_store_reaches_postgresql_over_tls_with_its_certificate_checked() {
    let pki = pki();
    let pg = wm_server::testing::PgServer::start_tls(&pki.cert_pem, &pki.key_pem).unwrap();
    let url = format!("{}?sslmode=require", pg.url("tls"));
    let dir = wm_server::testing::TempDir::new("tls-pg");
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, &pki.ca_pem).unwrap();
    let start = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--root"])
            .arg(common::repo_root())
            .args(extra)
            .env("WM_STORE", &url)
            .env("WM_MASTER_KEY", common::process::MASTER)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };

    // Its certificate's authority not trusted: the start stops, saying why.
    let out = start(&[]).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("connect to its database") && err.contains("certificate"), "{err}");

    // Trusted: the store works, over TLS (as the database itself reports the connection).
    let mut child = start(&["--ca-file", ca_file.to_str().unwrap()]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let child = common::chain::KillOnDrop(child);
    let addr: SocketAddr = line.trim().strip_prefix("listening on http://").expect(&line).parse().unwrap();
    let ready = common::get(addr, "/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.text());
    let ssl = pg.psql("postgres", "SELECT bool_and(s.ssl) || '/' || (count(*) > 0) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = 'tls'");
    assert_eq!(ssl, "true/true", "the store's connections, every one over TLS");
    drop(child);
}

#[tokio::test]
async fn two_relays_join_through_redis_over_tls_and_one_without_the_ca_is_not_ready() {
    let pki = pki();
    let redis = wm_server::testing::RedisServer::start_tls(&pki.cert_pem, &pki.key_pem).unwrap();
    let url = redis.tls_url().unwrap();
    let dir = wm_server::testing::TempDir::new("tls-redis");
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, &pki.ca_pem).unwrap();
    let trusting = ["--redis".to_string(), url.clone(), "--ca-file".to_string(), ca_file.display().to_string()];
    let (_a, a) = server(&trusting);
    let (_b, b) = server(&trusting);
    for addr in [a, b] {
        let started = Instant::now();
        while common::get(addr, "/readyz").await.status != 200 {
            assert!(started.elapsed() < Duration::from_secs(10), "{}", common::get(addr, "/readyz").await.text());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let topic = common::relay::topic(7);
    let mut on_a = common::relay::Client::connect(a, 1).await;
    on_a.subscribe(&topic).await;
    let mut on_b = common::relay::Client::connect(b, 2).await;
    on_b.publish(&topic, "over-tls", 300, 1108).await;
    assert_eq!(on_a.push_acked().await["params"]["data"]["message"], "over-tls");

    // Its certificate's authority not trusted: the relay serves its own sockets and says it
    // cannot reach Redis.
    let (_c, c) = server(&["--redis".to_string(), url]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ready = common::get(c, "/readyz").await;
    assert_eq!(ready.status, 503, "{}", ready.text());
    assert!(ready.text().contains("Redis"), "{}", ready.text());
}

// ----- mail: a provider over implicit TLS (maildev), a submission server with STARTTLS -----

const SMTP_PASSWORD: &str = "smtp-Secret-4242";

/// The server binary with the wallet service (its frame on a free port) mailing through `smtp`,
/// with `env` (`WM_SMTP_PASSWORD`) and `extra` arguments; its stderr in `log`.
fn mailing_server(smtp: &str, env: &[(&str, &str)], extra: &[&str], log: &std::path::Path) -> (common::chain::KillOnDrop, common::frame::Frame) {
    let mut child = common::chain::KillOnDrop(Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args(["--port", "0", "--frame-port", "0", "--smtp", smtp, "--root"])
        .arg(common::repo_root())
        .args(extra)
        .env_remove("WM_SMTP_PASSWORD")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap());
    let mut out = BufReader::new(child.0.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server exited: {}", std::fs::read_to_string(log).unwrap_or_default());
        if let Some(a) = line.trim().strip_prefix("frame on http://") {
            return (child, common::frame::Frame::new(a.parse().unwrap()));
        }
    }
}

/// The PKI's CA, certificate and key as files in `dir`.
fn pki_files(pki: &Pki, dir: &wm_server::testing::TempDir) -> (String, String, String) {
    let file = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap();
        dir.join(name).display().to_string()
    };
    (file("ca.pem", &pki.ca_pem), file("cert.pem", &pki.cert_pem), file("key.pem", &pki.key_pem))
}

fn recipient(name: &str) -> String {
    format!("{name}.{}@example.com", std::process::id())
}

#[tokio::test]
async fn mail_reaches_a_provider_over_implicit_tls_with_a_login_and_fails_clearly_without_the_ca_or_the_right_password() {
    let pki = pki();
    let dir = wm_server::testing::TempDir::new("tls-smtps");
    let (ca, cert, key) = pki_files(&pki, &dir);
    let user = "mailer@shop.example.com";
    let mail = common::mail::Maildev::start_with(&[
        "--incoming-secure", "--incoming-cert", &cert, "--incoming-key", &key, "--incoming-user", user, "--incoming-pass", SMTP_PASSWORD,
    ])
    .await;
    // The user is an address: its @ percent-encoded in the URL.
    let url = format!("smtps://mailer%40shop.example.com@localhost:{}", mail.smtp.port());
    let sender = ["--ca-file", ca.as_str(), "--mail-from", "login@shop.example.com"];

    let log = dir.join("ok.log");
    let (_ok, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", SMTP_PASSWORD)], &sender, &log);
    let to = recipient("smtps");
    let r = frame.start_login_in("demo", &to, &common::frame::device("smtps")).await;
    assert_eq!(r.status, 200, "{} {}", r.text(), std::fs::read_to_string(&log).unwrap());
    let sent = common::frame::approval_link(&mail, &frame, &to, 1).await;
    assert!(sent.contains("/w/v1/device/approve?token="), "{sent}");
    let m = &common::frame::approvals(&mail, &to).await[0];
    assert_eq!(m["from"][0]["address"], "login@shop.example.com", "{m}");

    // A wrong password: the visitor gets 502, the log has the server's refusal and no password.
    let log = dir.join("wrong.log");
    let (_wrong, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", "wrong-password-77")], &sender, &log);
    let r = frame.start_login_in("demo", &recipient("smtps-wrong"), &common::frame::device("smtps")).await;
    assert_eq!(r.status, 502, "{}", r.text());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("SMTP AUTH: the server answered 535"), "{text}");
    assert!(!text.contains("wrong-password-77") && !text.contains(SMTP_PASSWORD), "{text}");

    // The provider's certificate from a CA nobody trusts: refused before anything is sent.
    let log = dir.join("untrusted.log");
    let (_untrusted, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", SMTP_PASSWORD)], &["--mail-from", "login@shop.example.com"], &log);
    let r = frame.start_login_in("demo", &recipient("smtps-untrusted"), &common::frame::device("smtps")).await;
    assert_eq!(r.status, 502, "{}", r.text());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("SMTP TLS") && text.contains("UnknownIssuer"), "{text}");
    assert_eq!(mail.all().await.len(), 1, "only the first server's mail arrived");
}

#[tokio::test]
async fn mail_goes_over_starttls_to_a_submission_server_and_nothing_is_sent_to_one_that_does_not_offer_it() {
    let pki = pki();
    let dir = wm_server::testing::TempDir::new("tls-starttls");
    let (ca, cert, key) = pki_files(&pki, &dir);
    let mut child = Command::new("node")
        .arg(common::repo_root().join("server/tests/smtp-starttls.mjs"))
        .args(["--cert", &cert, "--key", &key, "--user", "mailer"])
        .env("WM_SMTP_TEST_PASSWORD", SMTP_PASSWORD)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs server/tests/smtp-starttls.mjs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let _submission = common::chain::KillOnDrop(child);
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port: u16 = line.trim().strip_prefix("smtp on ").expect(&line).parse().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for l in out.lines().map_while(Result::ok) {
            let _ = tx.send(serde_json::from_str(&l).unwrap());
        }
    });

    let log = dir.join("starttls.log");
    let url = format!("smtp+starttls://mailer@localhost:{port}");
    let (_s, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", SMTP_PASSWORD)], &["--ca-file", &ca], &log);
    let to = recipient("starttls");
    let r = frame.start_login_in("demo", &to, &common::frame::device("starttls")).await;
    assert_eq!(r.status, 200, "{} {}", r.text(), std::fs::read_to_string(&log).unwrap());
    let got = rx.recv_timeout(Duration::from_secs(10)).expect("the submission server received the mail");
    assert_eq!((&got["secure"], &got["user"], &got["to"]), (&json!(true), &json!("mailer"), &json!([to])), "{got}");
    assert_eq!(got["from"], "no-reply@wallet-modal.test");
    assert!(got["data"].as_str().unwrap().contains("Subject: Confirm it's you signing in"), "{got}");

    // Without the CA the submission server's certificate is refused after STARTTLS, before the
    // login.
    let log = dir.join("untrusted.log");
    let (_untrusted, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", SMTP_PASSWORD)], &[], &log);
    let r = frame.start_login_in("demo", &recipient("starttls-untrusted"), &common::frame::device("starttls")).await;
    assert_eq!(r.status, 502, "{}", r.text());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("SMTP TLS") && text.contains("UnknownIssuer"), "{text}");

    // A server that does not offer STARTTLS (a plain maildev): nothing is sent in the clear, not
    // even the login.
    let plain = common::mail::Maildev::start().await;
    let log = dir.join("no-starttls.log");
    let url = format!("smtp+starttls://mailer@localhost:{}", plain.smtp.port());
    let (_s, frame) = mailing_server(&url, &[("WM_SMTP_PASSWORD", SMTP_PASSWORD)], &["--ca-file", &ca], &log);
    let r = frame.start_login_in("demo", &recipient("no-starttls"), &common::frame::device("plain")).await;
    assert_eq!(r.status, 502, "{}", r.text());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("does not offer STARTTLS"), "{text}");
    assert!(plain.all().await.is_empty() && rx.recv_timeout(Duration::from_millis(300)).is_err(), "nothing arrived anywhere");
}
