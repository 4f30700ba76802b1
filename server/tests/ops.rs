//! `/healthz`, `/readyz` and `/metrics` (ops.rs) on a real server, its store SQLite or a real
//! PostgreSQL that is killed and started again.

mod common;

use std::net::SocketAddr;

fn options() -> wm_server::Options {
    wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546").unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    }
}

async fn start(store: Option<wm_server::wallet::store::durable::StoreUrl>) -> wm_server::Server {
    let mut config = wm_server::ServerConfig::default();
    config.wallet.store = store.map(|url| wm_server::wallet::StoreConfig { url, master_key: [0x11; 32] });
    wm_server::start_with_frame(options(), config, 0, Some(0), std::future::pending()).await.expect("server starts")
}

/// The value of the metric line that starts with `series ` (labels included).
fn metric(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series).and_then(|v| v.strip_prefix(' ')).and_then(|v| v.parse().ok()))
}

#[tokio::test]
async fn healthz_and_readyz_answer_on_both_listeners_and_name_the_store() {
    let s = start(None).await;
    let frame: SocketAddr = s.frame_addr.unwrap();
    for addr in [s.addr, frame] {
        let h = common::get(addr, "/healthz").await;
        assert_eq!((h.status, h.json()["status"].as_str()), (200, Some("ok")));
        let r = common::get(addr, "/readyz").await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json()["store"], "memory");
    }
    let dir = wm_server::testing::TempDir::new("ops");
    let s = start(Some(wm_server::wallet::store::durable::StoreUrl::Sqlite(dir.join("w.sqlite")))).await;
    let r = common::get(s.addr, "/readyz").await;
    assert_eq!((r.status, r.json()["store"].as_str()), (200, Some("sqlite")));
}

#[tokio::test]
async fn readyz_says_not_ready_while_postgresql_is_down_and_ready_once_it_is_back() {
    let mut pg = wm_server::testing::PgServer::start().unwrap();
    let s = start(Some(wm_server::wallet::store::durable::StoreUrl::Postgres(pg.url("ops")))).await;
    let r = common::get(s.addr, "/readyz").await;
    assert_eq!((r.status, r.json()["store"].as_str()), (200, Some("postgres")));
    pg.stop();
    let r = common::get(s.addr, "/readyz").await;
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.json()["status"], "not ready");
    assert!(r.json()["reason"].as_str().unwrap().contains("could not"), "{}", r.text());
    let m = common::get(s.addr, "/metrics").await.text();
    assert!(metric(&m, "wm_store_errors_total").unwrap() >= 1.0, "{m}");
    pg.restart().unwrap();
    let r = common::get(s.addr, "/readyz").await;
    assert_eq!(r.status, 200, "{}", r.text());
    // The healthz of a server whose store is down stays 200: the process itself serves.
    assert_eq!(common::get(s.addr, "/healthz").await.status, 200);
}

#[tokio::test]
async fn metrics_count_requests_by_route_pattern_and_status_never_by_the_path_asked() {
    let s = start(None).await;
    let address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let _ = common::get(s.addr, &format!("/v1/identity/{address}?projectId=p")).await;
    let _ = common::get(s.addr, "/no/such/page").await;
    let _ = common::get(s.frame_addr.unwrap(), "/w/v1/session").await;
    let r = common::get(s.addr, "/metrics").await;
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/plain; version=0.0.4"));
    let m = r.text();
    assert!(!m.contains(address) && !m.contains("no/such"), "paths never become labels:\n{m}");
    let identity = m.lines().find(|l| l.starts_with("wm_http_requests_total{listener=\"main\",route=\"/v1/identity/{address}\"")).unwrap_or_else(|| panic!("{m}"));
    assert!(identity.ends_with(" 1"), "{identity}");
    assert_eq!(metric(&m, "wm_http_requests_total{listener=\"main\",route=\"unmatched\",status=\"404\"}"), Some(1.0), "{m}");
    assert_eq!(metric(&m, "wm_http_requests_total{listener=\"frame\",route=\"/w/v1/session\",status=\"401\"}"), Some(1.0), "{m}");
    let count = metric(&m, "wm_http_request_duration_seconds_count{listener=\"main\",route=\"/v1/identity/{address}\"}");
    let inf = metric(&m, "wm_http_request_duration_seconds_bucket{listener=\"main\",route=\"/v1/identity/{address}\",le=\"+Inf\"}");
    assert_eq!((count, inf), (Some(1.0), Some(1.0)), "{m}");
    assert!(metric(&m, "process_resident_memory_bytes").unwrap() > 1_000_000.0, "{m}");
    for name in ["wm_relay_connections", "wm_relay_messages_published_total", "wm_relay_messages_delivered_total", "wm_store_errors_total"] {
        assert_eq!(metric(&m, name), Some(0.0), "{name}\n{m}");
    }
}

#[tokio::test]
async fn a_started_server_sweeps_the_stores_expired_rows_and_keeps_the_live_ones() {
    use wm_server::wallet::store::durable::{open, Durable, StoreUrl};
    let pg = wm_server::testing::PgServer::start().unwrap();
    let url = StoreUrl::parse(&pg.url("sweep")).unwrap();
    let now = wm_server::wallet::store::durable::wall_ms();
    {
        let d = open(&url, &[0x11; 32]).unwrap();
        d.put_entry("code", "p/old@example.com", now - 1, "{}").unwrap();
        d.put_entry("siwx-nonce", "n-old", now - 60_000, "1").unwrap();
        d.put_entry("code", "p/live@example.com", now + 600_000, "{}").unwrap();
    }
    let count = || pg.psql("sweep", "SELECT string_agg(key, ',' ORDER BY key) FROM entries");
    assert_eq!(count(), "n-old,p/live@example.com,p/old@example.com");
    let _s = start(Some(url)).await;
    let started = std::time::Instant::now();
    while count() != "p/live@example.com" {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "not swept: {}", count());
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
