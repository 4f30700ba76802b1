//! What an operator watches: `GET /healthz` (the process serves), `GET /readyz` (it can serve
//! visitors now: its wallet store answers and it is not stopping) and `GET /metrics` (Prometheus
//! text format: requests and their latencies per route, relay sockets and messages, store errors,
//! resident memory). On both listeners; the metrics count both. Nothing here carries a secret:
//! routes are the router's patterns (`/v1/account/{address}/balance`), never a request's path.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::AppState;

/// Latency buckets (seconds).
const BUCKETS: [f64; 11] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];
/// At most this many (listener, route, status) series; later ones are counted under route `other`.
const MAX_SERIES: usize = 2_000;

#[derive(Default)]
struct Histogram {
    /// Per bucket (non-cumulative), then the overflow.
    counts: [u64; BUCKETS.len() + 1],
    sum: f64,
}

/// The server's request metrics and its stopping switch.
#[derive(Default)]
pub struct Ops {
    requests: Mutex<HashMap<(&'static str, String, u16), u64>>,
    latency: Mutex<HashMap<(&'static str, String), Histogram>>,
    /// Set when the server begins to stop: `/readyz` answers 503 while requests in flight finish.
    draining: AtomicBool,
}

impl Ops {
    pub fn drain(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    fn record(&self, listener: &'static str, route: String, status: u16, seconds: f64) {
        let mut requests = self.requests.lock().unwrap();
        let route = if requests.len() >= MAX_SERIES && !requests.contains_key(&(listener, route.clone(), status)) { "other".to_string() } else { route };
        *requests.entry((listener, route.clone(), status)).or_default() += 1;
        drop(requests);
        let mut latency = self.latency.lock().unwrap();
        let h = latency.entry((listener, route)).or_default();
        let i = BUCKETS.iter().position(|b| seconds <= *b).unwrap_or(BUCKETS.len());
        h.counts[i] += 1;
        h.sum += seconds;
    }
}

/// Counts each request of `listener` (`main` or `frame`) by its route pattern and status; with
/// `--log-requests`, also logs it as one JSON line on stderr. Only the pattern and the method: a
/// path or a query can carry a token (an approval link's), a header a session, a body a code.
pub async fn track(State((state, listener)): State<(Arc<AppState>, &'static str)>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map_or("unmatched", |m| m.as_str()).to_string();
    let method = req.method().as_str().to_string();
    let started = Instant::now();
    let res = next.run(req).await;
    let elapsed = started.elapsed();
    if state.config.log_requests {
        let at = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let line = json!({"at": at, "listener": listener, "method": method, "route": route, "status": res.status().as_u16(), "ms": elapsed.as_secs_f64() * 1000.0});
        eprintln!("{line}");
    }
    state.ops.record(listener, route, res.status().as_u16(), elapsed.as_secs_f64());
    res
}

/// `/healthz`, `/readyz` and `/metrics`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/healthz", get(|| async { Json(json!({ "status": "ok" })) }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state.ops.draining.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "stopping" }))).into_response();
    }
    // With other instances behind Redis, a relay cut off from them is not ready either.
    if state.relay.stats().redis_up == Some(false) {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "not ready", "reason": "the relay cannot reach Redis" }))).into_response();
    }
    let store = state.wallet.durable.clone();
    let kind = store.as_ref().map_or("memory", |d| d.kind);
    // The store's call may block (a database round trip): off the request's thread.
    let ping = tokio::task::spawn_blocking(move || store.map_or(Ok(()), |d| crate::wallet::store::durable::Durable::ping(&*d))).await;
    match ping {
        Ok(Ok(())) => Json(json!({ "status": "ready", "store": kind })).into_response(),
        Ok(Err(e)) => (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "not ready", "store": kind, "reason": e.0 }))).into_response(),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "not ready", "store": kind }))).into_response(),
    }
}

/// A label value, escaped as the text format asks.
fn label(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

/// The process's resident memory in bytes (Linux), else 0.
fn resident_bytes() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm").ok().and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()));
    pages.unwrap_or(0) * 4096
}

async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let mut out = String::new();
    let _ = writeln!(out, "# HELP wm_http_requests_total Requests answered, by listener, route pattern and status.");
    let _ = writeln!(out, "# TYPE wm_http_requests_total counter");
    let mut requests: Vec<_> = state.ops.requests.lock().unwrap().iter().map(|(k, v)| (k.clone(), *v)).collect();
    requests.sort();
    for ((listener, route, status), n) in requests {
        let _ = writeln!(out, "wm_http_requests_total{{listener=\"{listener}\",route=\"{}\",status=\"{status}\"}} {n}", label(&route));
    }
    let _ = writeln!(out, "# HELP wm_http_request_duration_seconds Time to answer a request, by listener and route pattern.");
    let _ = writeln!(out, "# TYPE wm_http_request_duration_seconds histogram");
    {
        let latency = state.ops.latency.lock().unwrap();
        let mut keys: Vec<_> = latency.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let h = &latency[&key];
            let labels = format!("listener=\"{}\",route=\"{}\"", key.0, label(&key.1));
            let mut total = 0;
            for (i, b) in BUCKETS.iter().enumerate() {
                total += h.counts[i];
                let _ = writeln!(out, "wm_http_request_duration_seconds_bucket{{{labels},le=\"{b}\"}} {total}");
            }
            total += h.counts[BUCKETS.len()];
            let _ = writeln!(out, "wm_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {total}");
            let _ = writeln!(out, "wm_http_request_duration_seconds_sum{{{labels}}} {}", h.sum);
            let _ = writeln!(out, "wm_http_request_duration_seconds_count{{{labels}}} {total}");
        }
    }
    let r = state.relay.stats();
    for (name, kind, help, v) in [
        ("wm_relay_connections", "gauge", "Relay WebSockets open.", r.connections as u64),
        ("wm_relay_subscriptions", "gauge", "Relay subscriptions held.", r.subscriptions as u64),
        ("wm_relay_stored_messages", "gauge", "Relay messages kept for peers (until acknowledged or expired).", r.stored_messages as u64),
        ("wm_relay_messages_published_total", "counter", "Relay messages accepted from publishers.", r.published),
        ("wm_relay_messages_delivered_total", "counter", "Relay pushes sent to subscribers (re-sends not counted).", r.delivered),
        ("wm_relay_redis_up", "gauge", "1 when the relay's links to Redis are up (0: down, or no --redis).", u64::from(r.redis_up == Some(true))),
        ("wm_relay_redis_errors_total", "counter", "Relay messages or fetches Redis did not take or answer.", r.redis_errors),
        ("wm_store_errors_total", "counter", "Wallet store calls that failed.", state.wallet.durable.as_ref().map_or(0, |d| d.errors())),
        ("process_resident_memory_bytes", "gauge", "Resident memory of the server process.", resident_bytes()),
    ] {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], out).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_lands_in_its_bucket_and_series_beyond_the_bound_are_counted_as_other() {
        let ops = Ops::default();
        ops.record("main", "/a".into(), 200, 0.003);
        ops.record("main", "/a".into(), 200, 7.0);
        {
            let latency = ops.latency.lock().unwrap();
            let h = &latency[&("main", "/a".to_string())];
            assert_eq!(h.counts[2], 1, "3 ms is in the 5 ms bucket");
            assert_eq!(h.counts[BUCKETS.len()], 1, "7 s is past the last bucket");
        }
        for i in 0..MAX_SERIES + 10 {
            ops.record("main", format!("/r{i}"), 200, 0.0);
        }
        let requests = ops.requests.lock().unwrap();
        assert!(requests.len() <= MAX_SERIES + 1, "{}", requests.len());
        assert!(requests.contains_key(&("main", "other".to_string(), 200)));
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
