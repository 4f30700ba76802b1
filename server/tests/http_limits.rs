//! Connection time-outs of the HTTP server (slowloris) and the analytics sink's memory bound, over
//! real sockets on loopback. Tests needing short time-outs start a server with their own
//! `ServerConfig` (`wm_server::start_with`), so nothing sleeps for long.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use wm_server::http::HttpLimits;
use wm_server::relay::{auth::encode_did_key, RelayConfig};
use wm_server::{AnalyticsLimits, ServerConfig};

/// A server whose `/getWalletImage/slow` and relay work as usual, with these limits.
async fn start_with(config: ServerConfig) -> wm_server::Server {
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::default_chains(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: Some(common::TEST_TOKEN.to_string()),
    };
    wm_server::start_with(options, config, 0, std::future::pending())
        .await
        .expect("server starts")
}

fn http(header_read_ms: u64, idle_ms: u64) -> ServerConfig {
    ServerConfig {
        http: HttpLimits {
            header_read_timeout: Duration::from_millis(header_read_ms),
            idle_timeout: Duration::from_millis(idle_ms),
            ..HttpLimits::default()
        },
        ..ServerConfig::default()
    }
}

/// Reads until the server closes the connection (EOF or reset); returns what was read and when the
/// connection ended, or `None` when it is still open after `limit`.
async fn read_until_closed(s: &mut TcpStream, limit: Duration) -> Option<(Vec<u8>, Instant)> {
    let deadline = tokio::time::Instant::now() + limit;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some((got, Instant::now())),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Reads one response (head and `Content-Length` body) from a keep-alive connection.
async fn read_response(s: &mut TcpStream) -> common::Resp {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().unwrap())
                .unwrap_or(0);
            if raw.len() >= end + 4 + len {
                return common::parse(&raw[..end + 4 + len]);
            }
        }
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .expect("response in time")
            .expect("read");
        assert!(n > 0, "closed before a whole response");
        raw.extend_from_slice(&buf[..n]);
    }
}

fn get_head(addr: SocketAddr, path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n")
}

// ----- request head and keep-alive time-outs ------------------------------------------------------------

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_default_10_s_header_timeout() {
    let s = common::start().await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    let opened = Instant::now();
    let (got, closed) = read_until_closed(&mut c, Duration::from_secs(14))
        .await
        .expect("closed within 14 s");
    let after = closed - opened;
    assert!(got.is_empty(), "{}", String::from_utf8_lossy(&got));
    assert!(
        after >= Duration::from_secs(9) && after < Duration::from_secs(13),
        "closed after {after:?}"
    );
}

#[tokio::test]
async fn a_request_head_trickled_byte_by_byte_is_cut_at_the_header_timeout() {
    let s = start_with(http(500, 10_000)).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    let opened = Instant::now();
    c.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    // A header byte every 50 ms: the connection is never silent, yet the head never ends.
    let mut closed = false;
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if c.write_all(b"X").await.is_err() {
            closed = true;
            break;
        }
        let mut b = [0u8; 64];
        if let Ok(r) = tokio::time::timeout(Duration::from_millis(1), c.read(&mut b)).await {
            if matches!(r, Ok(0) | Err(_)) {
                closed = true;
                break;
            }
        }
    }
    let after = opened.elapsed();
    assert!(closed, "still open after {after:?}");
    assert!(
        after >= Duration::from_millis(450) && after < Duration::from_millis(2000),
        "closed after {after:?}"
    );
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_idle_timeout() {
    let s = start_with(http(5_000, 400)).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(get_head(s.addr, "/demo-config.json").as_bytes())
        .await
        .unwrap();
    assert_eq!(read_response(&mut c).await.status, 200);
    let answered = Instant::now();
    let (got, closed) = read_until_closed(&mut c, Duration::from_secs(3))
        .await
        .expect("idle keep-alive connection closed");
    assert!(got.is_empty());
    let idle = closed - answered;
    assert!(
        idle >= Duration::from_millis(300) && idle < Duration::from_millis(2000),
        "closed after {idle:?} idle"
    );
}

#[tokio::test]
async fn keep_alive_requests_within_the_time_outs_are_all_served() {
    // Each head arrives in two parts 150 ms apart and requests follow each other by 250 ms: the
    // connection lives well beyond both time-outs, but never exceeds either.
    let s = start_with(http(400, 600)).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    let opened = Instant::now();
    for i in 0..5 {
        let head = get_head(s.addr, "/demo-config.json");
        let (a, b) = head.split_at(10);
        c.write_all(a.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(150)).await;
        c.write_all(b.as_bytes()).await.unwrap();
        let r = read_response(&mut c).await;
        assert_eq!(r.status, 200, "request {i}");
        assert_eq!(r.json()["projectId"], "demo-project");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(opened.elapsed() > Duration::from_secs(1));
}

#[tokio::test]
async fn a_slow_handler_is_not_cut_by_short_time_outs() {
    // The slow wallet image answers after 5 s; the head and idle time-outs are far shorter.
    let s = start_with(http(300, 300)).await;
    let started = Instant::now();
    let r = common::get(s.addr, "/getWalletImage/slow").await;
    assert_eq!(r.status, 200);
    assert!(started.elapsed() >= wm_server::SLOW_IMAGE_DELAY);
}

#[tokio::test]
async fn a_slowly_sent_analytics_body_gets_408() {
    let s = start_with(ServerConfig {
        http: HttpLimits {
            body_read_timeout: Duration::from_millis(300),
            ..HttpLimits::default()
        },
        ..ServerConfig::default()
    })
    .await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /e?projectId=p HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{\"eventId\":",
        s.addr
    );
    let sent = Instant::now();
    c.write_all(head.as_bytes()).await.unwrap();
    let (got, _) = read_until_closed(&mut c, Duration::from_secs(3))
        .await
        .expect("answered and closed");
    assert!(sent.elapsed() < Duration::from_secs(2));
    let r = common::parse(&got);
    assert_eq!(r.status, 408);
    assert_eq!(r.json()["status"], 408);
    assert_eq!(common::recorded(s.addr, "").await.json(), json!([]));
}

// ----- WebSockets: the relay's own idle rule, not the HTTP one ------------------------------------------

fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn relay_token(addr: SocketAddr) -> String {
    let key = SigningKey::from_bytes(&[11; 32]);
    let claims = json!({
        "iss": encode_did_key(&key.verifying_key().to_bytes()),
        "sub": "ab".repeat(32),
        "aud": format!("ws://{addr}/relay"),
        "iat": now_s(),
        "exp": now_s() + 86400,
    });
    let h = URL_SAFE_NO_PAD.encode(r#"{"alg":"EdDSA","typ":"JWT"}"#);
    let p = URL_SAFE_NO_PAD.encode(claims.to_string());
    let sig = key.sign(format!("{h}.{p}").as_bytes());
    format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
}

fn short_everything() -> ServerConfig {
    ServerConfig {
        relay: RelayConfig {
            ping_interval: Duration::from_millis(100),
            idle_timeout: Duration::from_millis(600),
            ..RelayConfig::default()
        },
        ..http(200, 200)
    }
}

#[tokio::test]
async fn a_websocket_answering_pings_outlives_the_http_time_outs() {
    let s = start_with(short_everything()).await;
    let url = format!(
        "ws://{}/relay?auth={}&projectId=demo-project",
        s.addr,
        relay_token(s.addr)
    );
    let (mut ws, _) = connect_async(&url).await.expect("websocket connects");
    // Read (and so answer the relay's pings) for 1.5 s: 7× the HTTP time-outs, 2.5× the relay's
    // idle time-out.
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    let mut pings = 0;
    while let Ok(frame) = tokio::time::timeout_at(until, ws.next()).await {
        match frame {
            Some(Ok(Message::Ping(_))) => pings += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(pings >= 5, "{pings} pings");
    let topic = "cd".repeat(32);
    ws.send(Message::text(
        json!({"id": 1, "jsonrpc": "2.0", "method": "irn_subscribe", "params": {"topic": topic}})
            .to_string(),
    ))
    .await
    .unwrap();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                assert!(v["result"].is_string(), "{v}");
                break;
            }
            Ok(Some(Ok(Message::Ping(_)))) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(s.state.relay.stats().connections, 1);
}

#[tokio::test]
async fn a_silent_websocket_is_closed_by_the_relay_idle_timeout() {
    let s = start_with(short_everything()).await;
    let url = format!(
        "ws://{}/relay?auth={}&projectId=demo-project",
        s.addr,
        relay_token(s.addr)
    );
    let (mut ws, _) = connect_async(&url).await.expect("websocket connects");
    let opened = Instant::now();
    // Not reading means not answering pings: the socket is silent.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mut close = None;
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while let Ok(Some(frame)) = tokio::time::timeout_at(until, ws.next()).await {
        if let Ok(Message::Close(c)) = frame {
            close = c.map(|c| (u16::from(c.code), c.reason.as_str().to_string()));
            break;
        }
    }
    assert_eq!(close, Some((1001, "idle timeout".to_string())));
    assert!(opened.elapsed() < Duration::from_secs(3));
    let relay = s.state.relay.clone();
    let until = Instant::now() + Duration::from_secs(5);
    while relay.stats().connections != 0 {
        assert!(Instant::now() < until, "socket not released");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn default_time_outs_close_idle_connections_within_minutes() {
    let http = HttpLimits::default();
    assert_eq!(http.header_read_timeout, Duration::from_secs(10));
    assert_eq!(http.idle_timeout, Duration::from_secs(60));
    assert_eq!(http.body_read_timeout, Duration::from_secs(10));
    let relay = RelayConfig::default();
    assert_eq!(relay.idle_timeout, Duration::from_secs(120));
    // Clients answering the relay's pings are never idle: several pings fit in the time-out.
    assert!(relay.ping_interval * 4 <= relay.idle_timeout);
}

// ----- analytics sink -----------------------------------------------------------------------------------

fn padded_event(id: &str, size: usize) -> Vec<u8> {
    let mut body = format!(r#"{{"eventId":"{id}","pad":""#).into_bytes();
    body.resize(size - 2, b'p');
    body.extend_from_slice(br#""}"#);
    body
}

#[tokio::test]
async fn analytics_sink_keeps_at_most_4_mib_dropping_the_oldest() {
    let s = common::start().await;
    let size = 60 * 1024;
    // 100 × 60 KiB = 6 MiB posted.
    for i in 0..100 {
        let r = common::request(
            s.addr,
            "POST",
            "/e?projectId=p",
            &[],
            &padded_event(&format!("e{i}"), size),
        )
        .await;
        assert_eq!(r.status, 200, "post {i}");
    }
    let r = common::recorded(s.addr, "").await;
    assert!(
        r.body.len() <= wm_server::MAX_RECORDED_BYTES,
        "{} bytes kept",
        r.body.len()
    );
    let list = r.json();
    let list = list.as_array().unwrap();
    let kept = list.len();
    // Every event is accounted with its metadata: 4 MiB / (60 KiB + overhead) = 68.
    assert_eq!(kept, 68);
    assert_eq!(list[kept - 1]["eventId"], "e99");
    assert_eq!(list[0]["eventId"], json!(format!("e{}", 100 - kept)));
    let log = s.state.events.lock().unwrap();
    assert_eq!(log.len(), kept);
    assert!(log.bytes() <= wm_server::MAX_RECORDED_BYTES);
}

#[tokio::test]
async fn analytics_limits_are_configurable_and_bodies_are_kept_as_sent() {
    let s = start_with(ServerConfig {
        analytics: AnalyticsLimits {
            max_events: 10,
            max_bytes: 3 * (1000 + wm_server::RECORDED_EVENT_OVERHEAD + 1),
            max_body: 1000,
        },
        ..ServerConfig::default()
    })
    .await;
    let post = |body: Vec<u8>| {
        let addr = s.addr;
        async move {
            common::request(addr, "POST", "/e?projectId=p", &[], &body)
                .await
                .status
        }
    };
    assert_eq!(post(padded_event("big", 1001)).await, 413);
    // A 1000-byte body of many tiny items (costly as a parsed value) is kept as its text.
    let mut items = String::from(r#"{"eventId":"a","n":["#);
    while items.len() < 996 {
        items.push_str("0,");
    }
    items.push_str("0]}");
    assert!(items.len() <= 1000);
    assert_eq!(post(items.clone().into_bytes()).await, 200);
    for i in 0..3 {
        assert_eq!(post(padded_event(&format!("p{i}"), 1000)).await, 200);
    }
    let list = common::recorded(s.addr, "").await.json();
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["eventId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["p0", "p1", "p2"]);
    common::test_hook(s.addr, "DELETE", "/e/recorded").await;
    assert_eq!(post(items.clone().into_bytes()).await, 200);
    let meta = common::recorded(s.addr, "?withMeta=true").await;
    let v = meta.json();
    assert_eq!(v[0]["projectId"], "p");
    assert_eq!(
        v[0]["event"],
        serde_json::from_str::<Value>(&items).unwrap()
    );
    assert_eq!(
        s.state.events.lock().unwrap().bytes(),
        items.len() + 1 + wm_server::RECORDED_EVENT_OVERHEAD
    );
}
