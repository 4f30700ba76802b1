//! `make bench` (scripts/bench.sh): the wallet service's email login on each store, and the
//! WalletConnect relay under 1,000 connected clients. Printed, not asserted.
//!
//! 1. Logins: on the in-memory service, an SQLite file and a real PostgreSQL (a cluster of this
//!    bench's own), `WM_BENCH_LOGINS` addresses (default 40) each log in once (the device approved
//!    by its mailed link), then again, timed: `POST /w/v1/email/start` (the code stored and mailed
//!    to a local maildev) and `POST /w/v1/email/verify` (the code checked, the session written),
//!    over loopback. Reported: each call's time (p50, p90; start includes the SMTP conversation
//!    with the sink) and logins per second one after another. The goal to report against: < 20 ms
//!    of server time.
//! 2. Relay: `WM_BENCH_RELAY_CLIENTS` (default 1,000) WebSockets on one relay, subscribed in pairs
//!    to a topic each; every client publishes `WM_BENCH_RELAY_MESSAGES` (default 10) messages to
//!    its peer, paced so that the relay is offered 5,000 and then `WM_BENCH_RELAY_RATE` (default
//!    10,000) messages per second. Reported: messages per second, the delivery latency (p50, p99;
//!    the relay and its clients share this process's cores) and the resident memory per 1,000
//!    clients. Goals: 1,000 clients under 200 MB, ≥ 5,000 messages/s with p99 < 50 ms on loopback.
//! 3. Relay instances: the server binary as one process, then as two processes behind one Redis
//!    (a server of this bench's own), `WM_BENCH_INSTANCE_CLIENTS` (default 800) clients in pairs
//!    whose two ends sit on different instances (every message crosses Redis), offered 10,000 and
//!    20,000 messages per second. Goal to report against: two instances relay ≥ 1.6× one. (Here
//!    both processes, Redis and the clients share two cores.)

#[path = "../tests/common/mod.rs"]
mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use common::frame::{ask_code, device, Frame, LOGIN, PROJECT};
use common::mail::Maildev;
use common::relay::Client;
use wm_server::wallet::store::durable::StoreUrl;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

async fn logins(name: &str, store: Option<StoreUrl>, n: usize) {
    let mail = Maildev::start().await;
    let mut config = wm_server::ServerConfig::default();
    config.wallet.smtp = Some(wm_server::wallet::smtp::MailServer::parse(&mail.smtp.to_string(), None).unwrap());
    config.wallet.email_throttle = Duration::from_millis(1);
    config.wallet.store = store.map(|url| wm_server::wallet::StoreConfig { url, master_key: [0x5a; 32] });
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545").unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let server = wm_server::start_with_frame(options, config, 0, Some(0), std::future::pending()).await.expect("server starts");
    let frame = Frame::new(server.frame_addr.unwrap());
    let (mut starts, mut verifies) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut total = Duration::ZERO;
    for i in 0..n {
        // One loopback address per visitor: the per-client budgets are a visitor's.
        let f = frame.from(IpAddr::V4(Ipv4Addr::new(127, 0, 1 + (i / 250) as u8, 1 + (i % 250) as u8)));
        let addr = format!("bench{i}@example.com");
        let dev = device(&format!("bench{i}"));
        let code = ask_code(&f, &mail, PROJECT, &addr, &dev, 1).await;
        assert_eq!(f.verify_in(PROJECT, &addr, &dev, &code).await.status, 200);
        tokio::time::sleep(Duration::from_millis(2)).await;
        // The timed login (the mail read between the two calls is not the server's time).
        let t = Instant::now();
        let r = f.start_login_in(PROJECT, &addr, &dev).await;
        let start = t.elapsed();
        assert_eq!(r.status, 200, "{}", r.text());
        let code = mail.code(&addr, LOGIN, 2).await;
        let t = Instant::now();
        let r = f.verify_in(PROJECT, &addr, &dev, &code).await;
        let verify = t.elapsed();
        assert_eq!(r.status, 200, "{}", r.text());
        starts.push(start);
        verifies.push(verify);
        total += start + verify;
    }
    starts.sort();
    verifies.sort();
    println!(
        "  {name:<11} start (code stored, mail handed to the SMTP sink): p50 {}, p90 {}; verify (code checked, session written): p50 {}, p90 {}; {:.0} logins/s one after another",
        ms(pct(&starts, 0.5)),
        ms(pct(&starts, 0.9)),
        ms(pct(&verifies, 0.5)),
        ms(pct(&verifies, 0.9)),
        n as f64 / total.as_secs_f64()
    );
}

fn now_us() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}

fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm").ok().and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok()).unwrap_or(0) * 4096
}

async fn relay(clients: usize, messages: usize, rate: usize) {
    let cfg = wm_server::relay::RelayConfig { max_connections: clients + 16, ..wm_server::relay::RelayConfig::default() };
    let (addr, relay) = wm_server::relay::serve(cfg, 0).await.expect("relay starts");
    let (total, line) = relay_on(&[addr], clients, messages, rate).await;
    println!("  relay, {line} (this process: the relay and its clients)");
    assert_eq!(relay.stats().delivered as usize, total);
}

/// Pairs of clients on `addrs` (the two ends of a pair on different ones when there are two),
/// paced to offer `rate` messages per second: the messages and the line to print.
async fn relay_on(addrs: &[std::net::SocketAddr], clients: usize, messages: usize, rate: usize) -> (usize, String) {
    // Topics of this run only (a relay keeps what earlier runs published for their ttl).
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let base = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) * 1_000_000;
    let before = resident_bytes();
    let mut all = Vec::with_capacity(clients);
    for i in 0..clients {
        // Spread over loopback addresses: the relay's per-address limits are a visitor's.
        let from = IpAddr::V4(Ipv4Addr::new(127, 1, (i / 200) as u8, 1 + (i % 200) as u8));
        all.push(Client::connect_from(addrs[i % addrs.len()], (i % 250) as u8, from).await);
    }
    let connected = resident_bytes();
    // Pairs: client 2k and 2k+1 share topic k; each publishes to the other.
    for (i, c) in all.iter_mut().enumerate() {
        c.subscribe(&common::relay::topic_n(base + i / 2)).await;
    }
    // Paced: every client publishes one message each `every`, the clients' starts spread over one
    // period, so the relay is offered `rate` messages per second in all.
    let every = Duration::from_secs_f64(clients as f64 / rate as f64);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (i, mut c) in all.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let topic = common::relay::topic_n(base + i / 2);
            let mut latencies = Vec::with_capacity(messages);
            let first = started + every.mul_f64(i as f64 / clients as f64);
            for m in 0..messages {
                tokio::time::sleep_until((first + every * m as u32).into()).await;
                c.publish(&topic, &format!("{}", now_us()), 300, 1108 + m as u64).await;
                // The peer's message of this round (the pair publishes in step); one that does
                // not come within 10 s is counted lost.
                let Some(p) = c.push_within(Duration::from_secs(10)).await else {
                    latencies.push(Duration::MAX);
                    continue;
                };
                c.send(serde_json::json!({"id": p["id"], "jsonrpc": "2.0", "result": true})).await;
                let sent: u64 = p["params"]["data"]["message"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
                latencies.push(Duration::from_micros(now_us().saturating_sub(sent)));
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let total = clients * messages;
    let lost = latencies.iter().filter(|l| **l == Duration::MAX).count();
    latencies.retain(|l| *l != Duration::MAX);
    let line = format!(
        "{clients} clients offered {rate} messages/s: {total} messages in {:.2} s = {:.0} messages/s; delivery p50 {}, p99 {}{}; this process grew {:.1} MB per 1,000 clients",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        ms(pct(&latencies, 0.5)),
        ms(pct(&latencies, 0.99)),
        if lost > 0 { format!(" ({lost} not delivered within 10 s)") } else { String::new() },
        (connected.saturating_sub(before)) as f64 / 1e6 * 1000.0 / clients as f64,
    );
    (total, line)
}

/// A process's resident memory in bytes.
fn resident_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/statm")).ok().and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// A server process of this bench, killed when dropped (also when the bench fails midway).
struct Instance(std::process::Child);

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server binary on a free port (its relay on `/relay`), joined to `redis` when given.
fn instance(redis: Option<&str>) -> (Instance, std::net::SocketAddr) {
    use std::io::BufRead;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"));
    cmd.args(["--port", "0", "--root"]).arg(common::repo_root()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null());
    if let Some(r) = redis {
        cmd.args(["--redis", r]);
    }
    let mut child = cmd.spawn().expect("the server binary starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect("listening").parse().unwrap();
    (Instance(child), addr)
}

async fn instances(clients: usize, messages: usize) {
    let redis = match wm_server::testing::RedisServer::start() {
        Ok(r) => r,
        Err(e) => return println!("  not measured ({e})"),
    };
    for rate in [10_000, 20_000] {
        let (one, a) = instance(None);
        let (_, line) = relay_on(&[a], clients, messages, rate).await;
        println!("  one instance: {line}; the server process {:.0} MB", resident_of(one.0.id()) as f64 / 1e6);
        drop(one);
        let (first, a) = instance(Some(&redis.url()));
        let (second, b) = instance(Some(&redis.url()));
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, line) = relay_on(&[a, b], clients, messages, rate).await;
        println!("  two instances, every pair split across them: {line}; the server processes {:.0} + {:.0} MB", resident_of(first.0.id()) as f64 / 1e6, resident_of(second.0.id()) as f64 / 1e6);
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let messages = env_usize("WM_BENCH_RELAY_MESSAGES", 10);
        // `WM_BENCH_ONLY=instances`: the relay instances part alone (`logins`: the wallet service's).
        if std::env::var("WM_BENCH_ONLY").as_deref() == Ok("instances") {
            println!("WalletConnect relay instances (server processes; two behind one Redis):");
            return instances(env_usize("WM_BENCH_INSTANCE_CLIENTS", 800), messages).await;
        }
        let n = env_usize("WM_BENCH_LOGINS", 40);
        println!("wallet service, {n} email logins each (release build, loopback, maildev):");
        logins("in memory", None, n).await;
        let dir = std::env::temp_dir().join(format!("wm-bench-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        logins("SQLite", Some(StoreUrl::Sqlite(dir.join("wallet.sqlite"))), n).await;
        let _ = std::fs::remove_dir_all(&dir);
        match wm_server::testing::PgServer::start() {
            Ok(pg) => logins("PostgreSQL", Some(StoreUrl::Postgres(pg.url("bench"))), n).await,
            Err(e) => println!("  PostgreSQL: not measured ({e})"),
        }
        // `WM_BENCH_ONLY=logins`: the wallet service part alone.
        if std::env::var("WM_BENCH_ONLY").as_deref() == Ok("logins") {
            return;
        }
        let clients = env_usize("WM_BENCH_RELAY_CLIENTS", 1000);
        println!("WalletConnect relay (one instance):");
        for rate in [5_000, env_usize("WM_BENCH_RELAY_RATE", 10_000)] {
            relay(clients, messages, rate).await;
        }
        println!("WalletConnect relay instances (server processes; two behind one Redis):");
        instances(env_usize("WM_BENCH_INSTANCE_CLIENTS", 800), messages).await;
    });
}
