//! A local WalletConnect v2 relay: `GET /relay` upgrades to a WebSocket speaking the relay JSON-RPC
//! subset the official clients use (`irn_publish`, `irn_batchPublish`, `irn_subscribe`,
//! `irn_batchSubscribe`, `irn_unsubscribe`, `irn_batchUnsubscribe`, `irn_fetchMessages`,
//! `irn_batchFetchMessages`, server push `irn_subscription`) plus the two session-setup methods that
//! `@walletconnect/sign-client` 2.2x sends to the relay itself (`wc_proposeSession`,
//! `wc_approveSession`; each also subscribes the calling socket to the topic it will hear back on,
//! since sign-client skips its own `irn_subscribe` there).
//!
//! Clients connect with `?auth={jwt}&projectId={id}&ua={…}` (or an `Authorization: Bearer` header);
//! the JWT is verified ([`auth::verify_jwt`]) and a missing or bad one gets the upgrade and then an
//! immediate close with code 1008 and a reason such as `invalid auth: expired`.
//!
//! Semantics: a published message goes to every subscriber of its topic except the publishing socket
//! and is kept in the topic's mailbox for its ttl; a subscribe flushes the stored messages the socket
//! has not seen (and did not publish). Pushes carry a fresh 19-digit numeric id and are re-sent until
//! the client answers `{id, result: true}`, a few times at most. Request ids are echoed exactly as
//! received (a string stays a string).
//!
//! Memory is bounded by [`RelayConfig`]: message size, mailbox length, storage time (7 days), stored
//! bytes (in total, per connection, per client id and per peer IP address, with a reserve for small
//! messages), topic count, subscriptions and unacknowledged pushes per connection, the
//! per-connection outgoing queue (a client that does not read is disconnected) and publish / request
//! rates (excess is refused with -32000, persistent flooding closes the socket). Auth tokens are
//! length-bounded before any decoding ([`auth`]).

pub mod auth;
pub mod cluster;
pub mod resp;
mod store;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, Notify};
use tokio::time::{timeout, Instant};

pub use auth::{AuthError, Claims};
pub use store::StoreStats;

use crate::client::{Client, Peer};
use store::{ConnId, ConnShared, Delivery, Msg, Store, StoreError};

/// JSON-RPC error codes.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const SERVER_ERROR: i64 = -32000;
}

/// WebSocket close codes the relay uses.
pub mod close {
    /// Idle timeout.
    pub const GOING_AWAY: u16 = 1001;
    /// Missing / invalid auth, flooding, a client that does not read.
    pub const POLICY: u16 = 1008;
    /// A frame above [`super::RelayConfig::max_frame_bytes`].
    pub const TOO_BIG: u16 = 1009;
    /// Connection limit reached.
    pub const TRY_AGAIN: u16 = 1013;
}

/// Sign protocol tags used by `wc_proposeSession` / `wc_approveSession`.
const TAG_SESSION_PROPOSE: u64 = 1100;
const TAG_SESSION_PROPOSE_RESPONSE: u64 = 1101;
const TAG_SESSION_SETTLE: u64 = 1102;
const DEFAULT_SESSION_TTL: u64 = 300;

/// Limits and timings. [`Default`] holds the values the demo backend uses.
#[derive(Debug, Clone)]
pub struct RelayConfig {
    /// Largest `message` of a publish, in bytes (bigger → -32602).
    pub max_message_bytes: usize,
    /// Largest WebSocket message / frame accepted (bigger → close 1009).
    pub max_frame_bytes: usize,
    /// Stored messages per topic; the oldest are evicted beyond it.
    pub mailbox_limit: usize,
    /// Longest storage time; larger ttls are clamped. The Sign protocol's longest is a session
    /// request's expiry, at most 7 days (docs.walletconnect.com, Sign RPC methods and "Extended
    /// sessions": expiry 300 s to 604,800 s); a pairing proposal lives 300 s, session updates,
    /// extends and deletes one day. Nothing the product sends needs more.
    pub max_ttl: Duration,
    /// Topics tracked at once (with stored messages or subscribers).
    pub max_topics: usize,
    /// Total bytes of stored messages (each counted with a fixed bookkeeping overhead).
    pub max_stored_bytes: usize,
    /// Messages of at most this many bytes are small: pairing proposals, session settlements,
    /// requests and answers (a few KiB each). They may use the reserves below.
    pub small_message_bytes: usize,
    /// The part of `max_stored_bytes` only small messages may use: a flood of big messages, from
    /// however many addresses, leaves room for thousands of pairing proposals.
    pub small_reserve_bytes: usize,
    /// Stored messages one client id (JWT `iss`) may hold at once, over all its connections; one
    /// connection may hold as many.
    pub max_client_stored_messages: usize,
    /// Stored bytes (counted like `max_stored_bytes`) one client id may hold at once. A client
    /// draws its ids itself: the bounds per connection and per address below are the ones it
    /// cannot escape.
    pub max_client_stored_bytes: usize,
    /// Stored bytes one connection may hold at once (what it published, until it expires).
    pub max_conn_stored_bytes: usize,
    /// Stored bytes one peer IP address ([`crate::client`]) may hold at once, over all its
    /// connections and client ids: an eighth of the store by default.
    pub max_ip_stored_bytes: usize,
    /// The part of `max_ip_stored_bytes` only small messages may use: the address's own big
    /// messages never keep its next pairing proposal out.
    pub ip_small_reserve_bytes: usize,
    /// Open relay connections.
    pub max_connections: usize,
    /// Subscriptions per connection.
    pub max_subscriptions: usize,
    /// Topics / messages / subscriptions in one batch request.
    pub max_batch: usize,
    /// Messages returned by one fetch (then `hasMore: true`).
    pub fetch_limit: usize,
    /// Published messages per connection per second.
    pub publish_rate: u32,
    /// Incoming frames per connection per second.
    pub request_rate: u32,
    /// Refusals within one second after which the socket is closed (1008 `rate limited`).
    pub flood_close_after: u32,
    /// Pushes queued for one connection; a full queue closes the connection.
    pub outbox_capacity: usize,
    /// Unacknowledged pushes kept for re-sending per connection (oldest dropped first).
    pub max_pending_acks: usize,
    /// Time before an unacknowledged push is sent again.
    pub ack_timeout: Duration,
    /// Re-sends of an unacknowledged push before it is dropped.
    pub max_redeliveries: u32,
    /// Interval of server pings (the official Node client drops a socket without pings for 35 s).
    pub ping_interval: Duration,
    /// A connection that sends nothing (not even a pong to the server's pings) for this long is
    /// closed (1001). Checked at every ping tick.
    pub idle_timeout: Duration,
    /// A write that takes longer drops the connection.
    pub write_timeout: Duration,
    /// Period of the expired-message sweep.
    pub prune_interval: Duration,
    /// How far in the future a JWT's `iat` may be.
    pub max_iat_skew: Duration,
    /// Longest JWT lifetime (`exp - iat`); the official clients issue one day.
    pub max_token_lifetime: Duration,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            max_message_bytes: 64 * 1024,
            max_frame_bytes: 1024 * 1024,
            mailbox_limit: 100,
            max_ttl: Duration::from_secs(7 * 24 * 3600),
            max_topics: 10_000,
            max_stored_bytes: 64 * 1024 * 1024,
            small_message_bytes: 8 * 1024,
            small_reserve_bytes: 16 * 1024 * 1024,
            max_client_stored_messages: 1000,
            max_client_stored_bytes: 4 * 1024 * 1024,
            max_conn_stored_bytes: 2 * 1024 * 1024,
            max_ip_stored_bytes: 8 * 1024 * 1024,
            ip_small_reserve_bytes: 2 * 1024 * 1024,
            max_connections: 1000,
            max_subscriptions: 1000,
            max_batch: 1000,
            fetch_limit: 500,
            publish_rate: 100,
            request_rate: 1000,
            flood_close_after: 100,
            outbox_capacity: 256,
            max_pending_acks: 1000,
            ack_timeout: Duration::from_secs(5),
            max_redeliveries: 3,
            ping_interval: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(2 * 60),
            write_timeout: Duration::from_secs(10),
            prune_interval: Duration::from_secs(1),
            max_iat_skew: Duration::from_secs(5 * 60),
            max_token_lifetime: Duration::from_secs(auth::DEFAULT_MAX_LIFETIME_S as u64),
        }
    }
}

impl RelayConfig {
    /// Applies `--relay-limits name=value,…`: `connections`, `subscriptions`, `topics`,
    /// `message-bytes`, `frame-bytes`, `stored-bytes` (the shares of one client, connection and
    /// address scale with it, as in the defaults), `mailbox` (messages kept per topic), `ttl`
    /// (seconds), `publish-rate` and `request-rate` (per connection per second). Every value is
    /// checked; nothing is changed when one is bad.
    pub fn with_limits(&self, spec: &str) -> Result<RelayConfig, String> {
        let mut c = self.clone();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| format!("--relay-limits: expected name=value, got {part:?}"))?;
            let (name, value) = (name.trim(), value.trim());
            let n = |lo: u64, hi: u64| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (lo..=hi).contains(v))
                    .ok_or_else(|| format!("--relay-limits: {name} must be {lo}..{hi}, got {value:?}"))
            };
            match name {
                "connections" => c.max_connections = n(1, 1_000_000)? as usize,
                "subscriptions" => c.max_subscriptions = n(1, 100_000)? as usize,
                "topics" => c.max_topics = n(1, 10_000_000)? as usize,
                "message-bytes" => c.max_message_bytes = n(1024, 16 << 20)? as usize,
                "frame-bytes" => c.max_frame_bytes = n(4096, 64 << 20)? as usize,
                "stored-bytes" => {
                    let b = n(1 << 20, 1 << 40)? as usize;
                    c.max_stored_bytes = b;
                    c.small_reserve_bytes = b / 4;
                    c.max_client_stored_bytes = b / 16;
                    c.max_conn_stored_bytes = b / 32;
                    c.max_ip_stored_bytes = b / 8;
                    c.ip_small_reserve_bytes = b / 32;
                }
                "mailbox" => c.mailbox_limit = n(1, 100_000)? as usize,
                "ttl" => c.max_ttl = Duration::from_secs(n(300, 30 * 24 * 3600)?),
                "publish-rate" => c.publish_rate = n(1, 1_000_000)? as u32,
                "request-rate" => c.request_rate = n(1, 1_000_000)? as u32,
                _ => {
                    return Err(format!(
                        "--relay-limits: unknown limit {name:?} (connections, subscriptions, topics, message-bytes, frame-bytes, stored-bytes, mailbox, ttl, publish-rate, request-rate)"
                    ))
                }
            }
        }
        if c.max_message_bytes > c.max_frame_bytes / 2 {
            return Err(format!(
                "--relay-limits: message-bytes ({}) must be at most half of frame-bytes ({}): a message travels inside a JSON-RPC frame",
                c.max_message_bytes, c.max_frame_bytes
            ));
        }
        Ok(c)
    }
}

/// Counters for tests and diagnostics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RelayStats {
    pub connections: usize,
    /// Whether both links to Redis are up (None: no cluster).
    pub redis_up: Option<bool>,
    /// What could not be sent to or read from Redis since start.
    pub redis_errors: u64,
    /// Messages accepted from publishers since start.
    pub published: u64,
    /// Pushes sent to subscribers since start (re-sends not counted).
    pub delivered: u64,
    pub topics: usize,
    pub stored_messages: usize,
    /// Accounted bytes: message text plus a fixed overhead per message.
    pub stored_bytes: usize,
    pub subscriptions: usize,
}

/// The relay: shared by every connection of one server.
pub struct Relay {
    cfg: RelayConfig,
    store: Mutex<Store>,
    next_conn: AtomicU64,
    next_push_id: AtomicU64,
    connections: AtomicUsize,
    pruner_started: AtomicBool,
    /// Messages accepted from publishers, and pushes sent to subscribers (re-sends not counted).
    published: AtomicU64,
    delivered: AtomicU64,
    /// The link to the other instances through Redis, once joined ([`Relay::join_cluster`]).
    cluster: std::sync::OnceLock<Arc<cluster::Cluster>>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay")
            .field("stats", &self.stats())
            .finish()
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// `sha256(topic ‖ client id)` as 64 lowercase hex characters: the subscription id the official
/// clients compute for themselves.
pub fn subscription_id(topic: &str, client_id: &str) -> String {
    let mut h = Sha256::new();
    h.update(topic.as_bytes());
    h.update(client_id.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// 64 lowercase hex characters.
pub fn valid_topic(topic: &str) -> bool {
    topic.len() == 64
        && topic
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Relay {
    pub fn new(cfg: RelayConfig) -> Arc<Self> {
        Arc::new(Relay {
            cfg,
            store: Mutex::new(Store::default()),
            next_conn: AtomicU64::new(1),
            // 13-digit ms timestamp followed by 6 digits: 19-digit ids like the clients' own.
            next_push_id: AtomicU64::new(now_ms().max(1_000_000_000_000) * 1_000_000),
            connections: AtomicUsize::new(0),
            pruner_started: AtomicBool::new(false),
            published: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            cluster: std::sync::OnceLock::new(),
        })
    }

    /// Joins the other instances behind the Redis at `url` ([`cluster`]); `ns` prefixes every key
    /// and channel (instances that share it relay for each other). Needs the runtime.
    pub fn join_cluster(self: &Arc<Self>, url: resp::RedisUrl, ns: &str) {
        let _ = self.cluster.get_or_init(|| cluster::Cluster::start(self, url, ns));
    }

    /// The link to the other instances, when there is one.
    pub fn cluster(&self) -> Option<&Arc<cluster::Cluster>> {
        self.cluster.get()
    }

    /// Fetches what Redis keeps for every topic subscribed to here and hands what is new to the
    /// subscribers (after the link to the other instances was down: what they published meanwhile
    /// and kept is not lost).
    pub async fn catch_up(&self) {
        let Some(cluster) = self.cluster().cloned() else { return };
        let topics = self.store.lock().unwrap().subscribed_topics();
        for topic in topics {
            let now = now_ms();
            for r in cluster.fetch(&topic, now).await {
                self.deliver_remote(&r);
            }
        }
    }

    /// Hands a message another instance accepted to the subscribers connected here.
    pub fn deliver_remote(&self, r: &cluster::Remote) {
        self.store.lock().unwrap().publish_remote(&self.cfg, &r.t, Arc::from(r.m.as_str()), r.p, r.g, r.e, now_ms());
    }

    pub fn config(&self) -> &RelayConfig {
        &self.cfg
    }

    /// Stored messages and accounted bytes the client id `client_id` holds.
    pub fn client_stored(&self, client_id: &str) -> (usize, usize) {
        let u = self.store.lock().unwrap().client_usage(client_id);
        (u.messages, u.bytes)
    }

    /// Stored messages and accounted bytes the peer address `ip` holds.
    pub fn address_stored(&self, ip: IpAddr) -> (usize, usize) {
        let u = self
            .store
            .lock()
            .unwrap()
            .ip_usage(&crate::client::of_ip(ip));
        (u.messages, u.bytes)
    }

    pub fn stats(&self) -> RelayStats {
        let s = self.store.lock().unwrap().stats();
        RelayStats {
            connections: self.connections.load(Ordering::SeqCst),
            published: self.published.load(Ordering::Relaxed),
            delivered: self.delivered.load(Ordering::Relaxed),
            redis_up: self.cluster().map(|c| c.up()),
            redis_errors: self.cluster().map_or(0, |c| c.errors()),
            topics: s.topics,
            stored_messages: s.stored_messages,
            stored_bytes: s.stored_bytes,
            subscriptions: s.subscriptions,
        }
    }

    /// Sweeps expired messages every `prune_interval` while the relay lives (started with the first
    /// connection, so constructing a relay needs no runtime).
    fn start_pruner(self: &Arc<Self>) {
        if self.pruner_started.swap(true, Ordering::SeqCst) {
            return;
        }
        let weak: Weak<Relay> = Arc::downgrade(self);
        let period = self.cfg.prune_interval.max(Duration::from_millis(10));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            loop {
                tick.tick().await;
                let Some(relay) = weak.upgrade() else { break };
                relay.store.lock().unwrap().prune(now_ms());
            }
        });
    }

    /// Answers a WebSocket upgrade request to `path` from `peer`: verifies the auth token from
    /// `?auth=` or `Authorization: Bearer` (its `aud` must be this relay's URL as the client reached
    /// it: the `Host` header and `path`), then runs the connection (closing it at once when auth
    /// failed).
    pub fn upgrade(
        self: &Arc<Self>,
        ws: WebSocketUpgrade,
        path: &str,
        query: &HashMap<String, String>,
        headers: &HeaderMap,
        peer: Client,
        projects: &crate::projects::Projects,
    ) -> Response {
        let token = query.get("auth").cloned().or_else(|| {
            headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    v.strip_prefix("Bearer ")
                        .or_else(|| v.strip_prefix("bearer "))
                })
                .map(str::to_string)
        });
        let audience = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| auth::Audience::new(h, path));
        let auth = match (token.as_deref(), &audience) {
            (None, _) => Err(AuthError::Missing.to_string()),
            (Some(_), None) => Err("invalid auth: no usable Host header to check aud".to_string()),
            (Some(t), Some(audience)) => {
                let policy = auth::Policy {
                    now: (now_ms() / 1000) as i64,
                    max_iat_skew: self.cfg.max_iat_skew.as_secs() as i64,
                    max_lifetime: self.cfg.max_token_lifetime.as_secs() as i64,
                    audience: Some(audience),
                };
                auth::verify_jwt(t, &policy).map_err(|e| e.to_string())
            }
        };
        let auth = match auth {
            Ok(_) if !projects.relay_allows(query.get("projectId").map(String::as_str)) => Err("invalid projectId".to_string()),
            a => a,
        };
        let relay = self.clone();
        ws.max_message_size(self.cfg.max_frame_bytes)
            .max_frame_size(self.cfg.max_frame_bytes)
            .on_upgrade(move |socket| relay.run(socket, auth, peer))
    }

    async fn run(
        self: Arc<Self>,
        mut socket: WebSocket,
        auth: Result<Claims, String>,
        peer: Client,
    ) {
        self.start_pruner();
        let claims = match auth {
            Ok(c) => c,
            Err(reason) => {
                return close_socket(socket, close::POLICY, &reason, self.cfg.write_timeout).await
            }
        };
        if self.connections.fetch_add(1, Ordering::SeqCst) >= self.cfg.max_connections {
            self.connections.fetch_sub(1, Ordering::SeqCst);
            return close_socket(
                socket,
                close::TRY_AGAIN,
                "too many connections",
                self.cfg.write_timeout,
            )
            .await;
        }
        let (tx, rx) = mpsc::channel(self.cfg.outbox_capacity.max(1));
        let shared = Arc::new(ConnShared {
            tx,
            overflow: Notify::new(),
        });
        let id = self.next_conn.fetch_add(1, Ordering::SeqCst);
        let now = Instant::now();
        let mut conn = Conn {
            id,
            client_id: Arc::from(claims.iss),
            peer,
            relay: self.clone(),
            shared,
            subs: HashMap::new(),
            pending: BTreeMap::new(),
            publish_limit: RateLimiter::new(self.cfg.publish_rate, self.cfg.flood_close_after, now),
            frame_limit: RateLimiter::new(self.cfg.request_rate, self.cfg.flood_close_after, now),
            last_rx: now,
            kept: Mutex::new(Vec::new()),
        };
        let outcome = conn.run(&mut socket, rx).await;
        {
            let mut store = self.store.lock().unwrap();
            store.remove_connection(conn.id, conn.subs.keys().map(String::as_str));
        }
        self.connections.fetch_sub(1, Ordering::SeqCst);
        if let Some((code, reason)) = outcome {
            close_socket(socket, code, &reason, self.cfg.write_timeout).await;
        }
    }
}

/// Longest close reason a WebSocket close frame carries (125-byte control payload minus the code).
const MAX_CLOSE_REASON: usize = 123;

/// `reason` cut to [`MAX_CLOSE_REASON`] bytes at a character boundary.
fn close_reason(reason: &str) -> &str {
    let mut end = reason.len().min(MAX_CLOSE_REASON);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    &reason[..end]
}

/// Sends a close frame and waits briefly for the client's answer.
async fn close_socket(mut socket: WebSocket, code: u16, reason: &str, write_timeout: Duration) {
    let frame = CloseFrame {
        code,
        reason: Utf8Bytes::from(close_reason(reason)),
    };
    if let Ok(Ok(())) = timeout(write_timeout, socket.send(Message::Close(Some(frame)))).await {
        let _ = timeout(Duration::from_secs(2), async {
            while let Some(Ok(_)) = socket.recv().await {}
        })
        .await;
    }
}

// ---------------------------------------------------------------------------------------------------------
// Routes

/// `GET /relay` of the demo backend.
pub async fn handler(
    State(st): State<Arc<crate::AppState>>,
    Peer(peer): Peer,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    uri: Uri,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    serve_upgrade(&st.relay, ws, uri.path(), &q, &headers, peer, &st.config.projects)
}

fn serve_upgrade(
    relay: &Arc<Relay>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    path: &str,
    q: &HashMap<String, String>,
    headers: &HeaderMap,
    peer: Client,
    projects: &crate::projects::Projects,
) -> Response {
    match ws {
        Ok(ws) => relay.upgrade(ws, path, q, headers, peer, projects),
        Err(_) => (
            StatusCode::UPGRADE_REQUIRED,
            [(header::UPGRADE, "websocket")],
            Json(json!({
                "error": "expected a WebSocket upgrade (WalletConnect relay)",
                "status": 426,
            })),
        )
            .into_response(),
    }
}

/// A router with only `GET /relay`, for running a relay with its own [`RelayConfig`].
pub fn router(relay: Arc<Relay>) -> Router {
    Router::new()
        .route(
            "/relay",
            get(
                |State(relay): State<Arc<Relay>>,
                 Peer(peer): Peer,
                 ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
                 uri: Uri,
                 Query(q): Query<HashMap<String, String>>,
                 headers: HeaderMap| async move {
                    serve_upgrade(&relay, ws, uri.path(), &q, &headers, peer, &crate::projects::Projects::Demo)
                },
            ),
        )
        .with_state(relay)
}

/// Serves a standalone relay ([`router`]) on 127.0.0.1:`port` (0 = any free port) until the runtime
/// ends, with the default HTTP time-outs; returns the bound address and the relay.
pub async fn serve(cfg: RelayConfig, port: u16) -> std::io::Result<(SocketAddr, Arc<Relay>)> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let addr = listener.local_addr()?;
    let relay = Relay::new(cfg);
    let app = router(relay.clone());
    tokio::spawn(crate::http::serve(
        listener,
        app,
        crate::http::HttpLimits::default(),
        std::future::pending(),
    ));
    Ok((addr, relay))
}

// ---------------------------------------------------------------------------------------------------------
// One connection

struct RateLimiter {
    limit: u32,
    flood_after: u32,
    window_start: Instant,
    count: u32,
    refused: u32,
}

#[derive(Debug, PartialEq, Eq)]
enum Rate {
    Ok,
    Refused,
    Flood,
}

impl RateLimiter {
    fn new(limit: u32, flood_after: u32, now: Instant) -> Self {
        RateLimiter {
            limit,
            flood_after,
            window_start: now,
            count: 0,
            refused: 0,
        }
    }
    fn check(&mut self, n: u32) -> Rate {
        let now = Instant::now();
        if now.duration_since(self.window_start) >= Duration::from_secs(1) {
            self.window_start = now;
            self.count = 0;
            self.refused = 0;
        }
        if self.count.saturating_add(n) <= self.limit {
            self.count += n;
            Rate::Ok
        } else {
            self.refused += 1;
            if self.refused > self.flood_after {
                Rate::Flood
            } else {
                Rate::Refused
            }
        }
    }
}

struct Pending {
    frame: Utf8Bytes,
    topic: Arc<str>,
    sends: u32,
    due: Instant,
}

/// A JSON-RPC error, optionally closing the socket after it is sent.
#[derive(Debug)]
struct RpcError {
    code: i64,
    message: String,
    close: Option<(u16, String)>,
}

fn rpc_err(code: i64, message: impl Into<String>) -> RpcError {
    RpcError {
        code,
        message: message.into(),
        close: None,
    }
}

fn bad_params(message: impl Into<String>) -> RpcError {
    rpc_err(code::INVALID_PARAMS, message)
}

impl From<StoreError> for RpcError {
    fn from(e: StoreError) -> Self {
        rpc_err(code::SERVER_ERROR, e.message())
    }
}

/// What a request produced: the result and pushes to send after it.
struct Outcome {
    result: Result<Value, RpcError>,
    flush: Vec<Delivery>,
    /// Topics just subscribed to whose messages kept by other instances are fetched next.
    pulls: Vec<String>,
}

impl From<Result<Value, RpcError>> for Outcome {
    fn from(result: Result<Value, RpcError>) -> Self {
        Outcome {
            result,
            flush: Vec::new(),
            pulls: Vec::new(),
        }
    }
}

enum Flow {
    Continue,
    /// Close with a code and reason.
    Close(u16, String),
    /// The socket is unusable (write failed or timed out).
    Gone,
}

struct Conn {
    id: ConnId,
    /// The authenticated client id (JWT `iss`); stored messages are charged to it.
    client_id: Arc<str>,
    /// The peer's address; stored messages are charged to it too.
    peer: Client,
    relay: Arc<Relay>,
    shared: Arc<ConnShared>,
    /// topic → subscription id
    subs: HashMap<String, Arc<str>>,
    /// push id → unacknowledged push
    pending: BTreeMap<u64, Pending>,
    publish_limit: RateLimiter,
    frame_limit: RateLimiter,
    last_rx: Instant,
    /// With other instances: Redis's word on the messages this request published, awaited
    /// before the answer (a message answered `true` is in Redis: a crash does not lose it).
    kept: Mutex<Vec<tokio::sync::oneshot::Receiver<()>>>,
}

fn params_object(params: Option<&Value>) -> Result<&Map<String, Value>, RpcError> {
    params
        .and_then(Value::as_object)
        .ok_or_else(|| bad_params("params must be an object"))
}

fn topic_param(m: &Map<String, Value>, key: &str) -> Result<String, RpcError> {
    match m.get(key) {
        Some(Value::String(t)) if valid_topic(t) => Ok(t.clone()),
        Some(_) => Err(bad_params(format!(
            "invalid {key}: expected 64 lowercase hex characters"
        ))),
        None => Err(bad_params(format!("missing {key}"))),
    }
}

fn string_param<'a>(m: &'a Map<String, Value>, key: &str) -> Result<&'a str, RpcError> {
    match m.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(bad_params(format!("{key} must be a string"))),
        None => Err(bad_params(format!("missing {key}"))),
    }
}

fn uint_param(m: &Map<String, Value>, key: &str) -> Result<Option<u64>, RpcError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0)
                    .map(|f| f as u64)
            })
            .map(Some)
            .ok_or_else(|| bad_params(format!("{key} must be a non-negative integer"))),
    }
}

fn array_param<'a>(
    m: &'a Map<String, Value>,
    key: &str,
    max: usize,
) -> Result<&'a Vec<Value>, RpcError> {
    match m.get(key) {
        Some(Value::Array(a)) if a.len() <= max => Ok(a),
        Some(Value::Array(_)) => Err(bad_params(format!("too many {key} (max {max})"))),
        Some(_) => Err(bad_params(format!("{key} must be an array"))),
        None => Err(bad_params(format!("missing {key}"))),
    }
}

fn topics_param(m: &Map<String, Value>, max: usize) -> Result<Vec<String>, RpcError> {
    array_param(m, "topics", max)?
        .iter()
        .map(|t| match t {
            Value::String(t) if valid_topic(t) => Ok(t.clone()),
            _ => Err(bad_params(
                "invalid topic: expected 64 lowercase hex characters",
            )),
        })
        .collect()
}

/// A publish's `ttl` (seconds) as the milliseconds it is stored, at most [`RelayConfig::max_ttl`].
pub fn clamp_ttl_ms(cfg: &RelayConfig, ttl: u64) -> u64 {
    ttl.min(cfg.max_ttl.as_secs()).saturating_mul(1000)
}

/// A validated publish.
struct Publish {
    topic: String,
    message: Arc<str>,
    ttl_ms: u64,
    tag: u64,
}

fn msg_json(m: &Msg) -> Value {
    json!({
        "topic": &*m.topic,
        "message": &*m.message,
        "publishedAt": m.published_at,
        "tag": m.tag,
    })
}

/// A response id as the u64 the relay sent (numbers, digit strings, and the `"123n"` strings that
/// `@walletconnect/safe-json` writes for big integers).
fn ack_key(id: &Value) -> Option<u64> {
    match id {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.strip_suffix('n').unwrap_or(s).parse().ok(),
        _ => None,
    }
}

impl Conn {
    fn cfg(&self) -> &RelayConfig {
        &self.relay.cfg
    }

    async fn run(
        &mut self,
        socket: &mut WebSocket,
        mut rx: mpsc::Receiver<Delivery>,
    ) -> Option<(u16, String)> {
        let ping_every = self.cfg().ping_interval.max(Duration::from_millis(10));
        let retry_every =
            (self.cfg().ack_timeout / 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut retry = tokio::time::interval_at(Instant::now() + retry_every, retry_every);
        retry.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let shared = self.shared.clone();
        loop {
            let flow = tokio::select! {
                biased;
                _ = shared.overflow.notified() => {
                    Flow::Close(close::POLICY, "outgoing queue full: client does not read".into())
                }
                frame = socket.recv() => match frame {
                    None => return None,
                    Some(Err(e)) => {
                        let text = e.to_string();
                        if text.contains("too long") || text.contains("Space limit") || text.contains("capacity") {
                            Flow::Close(close::TOO_BIG, format!("message too big (max {} bytes)", self.cfg().max_frame_bytes))
                        } else {
                            return None;
                        }
                    }
                    Some(Ok(msg)) => {
                        self.last_rx = Instant::now();
                        match msg {
                            Message::Text(t) => self.on_text(socket, t.as_str()).await,
                            Message::Binary(b) => match std::str::from_utf8(&b) {
                                Ok(t) => self.on_text(socket, t).await,
                                Err(_) => self.on_text(socket, "\u{0}").await,
                            },
                            // Keep reading: tungstenite answers the close, then the stream ends.
                            Message::Close(_) => Flow::Continue,
                            Message::Ping(_) | Message::Pong(_) => Flow::Continue,
                        }
                    }
                },
                Some(d) = rx.recv() => self.deliver(socket, d).await,
                _ = ping.tick() => {
                    if self.last_rx.elapsed() >= self.cfg().idle_timeout {
                        Flow::Close(close::GOING_AWAY, "idle timeout".into())
                    } else {
                        self.send(socket, Message::Ping(Default::default())).await
                    }
                }
                _ = retry.tick() => self.redeliver(socket).await,
            };
            match flow {
                Flow::Continue => {}
                Flow::Close(code, reason) => return Some((code, reason)),
                Flow::Gone => return None,
            }
        }
    }

    async fn send(&self, socket: &mut WebSocket, msg: Message) -> Flow {
        match timeout(self.cfg().write_timeout, socket.send(msg)).await {
            Ok(Ok(())) => Flow::Continue,
            _ => Flow::Gone,
        }
    }

    async fn send_json(&self, socket: &mut WebSocket, v: &Value) -> Flow {
        self.send(socket, Message::Text(Utf8Bytes::from(v.to_string())))
            .await
    }

    async fn respond(
        &self,
        socket: &mut WebSocket,
        id: &Value,
        result: &Result<Value, RpcError>,
    ) -> Flow {
        let v = match result {
            Ok(r) => json!({ "id": id, "jsonrpc": "2.0", "result": r }),
            Err(e) => json!({
                "id": id, "jsonrpc": "2.0",
                "error": { "code": e.code, "message": e.message },
            }),
        };
        self.send_json(socket, &v).await
    }

    /// Queues a push for acknowledgement and sends it.
    async fn deliver(&mut self, socket: &mut WebSocket, d: Delivery) -> Flow {
        let id = self.relay.next_push_id.fetch_add(1, Ordering::Relaxed);
        self.relay.delivered.fetch_add(1, Ordering::Relaxed);
        let frame = json!({
            "id": id,
            "jsonrpc": "2.0",
            "method": "irn_subscription",
            "params": { "id": &*d.sub_id, "data": msg_json(&d.msg) },
        });
        let frame = Utf8Bytes::from(frame.to_string());
        while self.pending.len() >= self.cfg().max_pending_acks.max(1) {
            self.pending.pop_first();
        }
        self.pending.insert(
            id,
            Pending {
                frame: frame.clone(),
                topic: d.msg.topic.clone(),
                sends: 1,
                due: Instant::now() + self.cfg().ack_timeout,
            },
        );
        self.send(socket, Message::Text(frame)).await
    }

    /// Re-sends pushes whose ack is overdue; drops those re-sent `max_redeliveries` times.
    async fn redeliver(&mut self, socket: &mut WebSocket) -> Flow {
        let now = Instant::now();
        let due: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| p.due <= now)
            .map(|(id, _)| *id)
            .collect();
        let max = self.cfg().max_redeliveries;
        let ack_timeout = self.cfg().ack_timeout;
        for id in due {
            let Some(p) = self.pending.get_mut(&id) else {
                continue;
            };
            if p.sends > max {
                self.pending.remove(&id);
                continue;
            }
            p.sends += 1;
            p.due = now + ack_timeout;
            let frame = p.frame.clone();
            if let Flow::Gone = self.send(socket, Message::Text(frame)).await {
                return Flow::Gone;
            }
        }
        Flow::Continue
    }

    fn on_ack(&mut self, id: &Value) {
        if let Some(k) = ack_key(id) {
            if self.pending.remove(&k).is_some() {
                return;
            }
        }
        // A client that parsed the id into a double answers with a rounded number.
        let approx = match id {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.strip_suffix('n').unwrap_or(s).parse::<f64>().ok(),
            _ => None,
        };
        if let Some(f) = approx {
            if let Some(k) = self.pending.keys().copied().find(|k| *k as f64 == f) {
                self.pending.remove(&k);
            }
        }
    }

    async fn on_text(&mut self, socket: &mut WebSocket, text: &str) -> Flow {
        let rate = self.frame_limit.check(1);
        if rate == Rate::Flood {
            return Flow::Close(close::POLICY, "rate limited: too many requests".into());
        }
        let parsed: Result<Value, _> = serde_json::from_str(text);
        let v = match parsed {
            Ok(v) => v,
            Err(_) => {
                let err = Err(rpc_err(code::PARSE_ERROR, "parse error: invalid JSON"));
                return self.respond(socket, &Value::Null, &err).await;
            }
        };
        let Value::Object(m) = v else {
            let err = Err(rpc_err(
                code::INVALID_REQUEST,
                "invalid request: expected a JSON-RPC object (batches are not supported)",
            ));
            return self.respond(socket, &Value::Null, &err).await;
        };
        let id = m.get("id").cloned();
        if id
            .as_ref()
            .is_some_and(|id| !matches!(id, Value::String(_) | Value::Number(_) | Value::Null))
        {
            let err = Err(rpc_err(
                code::INVALID_REQUEST,
                "invalid request: id must be a string or a number",
            ));
            return self.respond(socket, &Value::Null, &err).await;
        }
        let Some(method) = m.get("method") else {
            // A response: the acknowledgement of a push.
            if let (Some(id), true) = (&id, m.contains_key("result") || m.contains_key("error")) {
                self.on_ack(id);
                return Flow::Continue;
            }
            let err = Err(rpc_err(
                code::INVALID_REQUEST,
                "invalid request: missing method",
            ));
            return self
                .respond(socket, id.as_ref().unwrap_or(&Value::Null), &err)
                .await;
        };
        let outcome: Outcome = match (rate, method.as_str()) {
            (Rate::Refused | Rate::Flood, _) => {
                Err(rpc_err(code::SERVER_ERROR, "rate limited")).into()
            }
            (Rate::Ok, None) => Err(rpc_err(
                code::INVALID_REQUEST,
                "invalid request: method must be a string",
            ))
            .into(),
            (Rate::Ok, Some(method)) => self.dispatch(method, m.get("params")),
        };
        let close = outcome.result.as_ref().err().and_then(|e| e.close.clone());
        // Answered once Redis holds what was published (or could not: then counted there, and
        // answered anyway: the sockets here had it).
        let kept = std::mem::take(&mut *self.kept.lock().unwrap());
        if !kept.is_empty() {
            let all = async {
                for k in kept {
                    let _ = k.await;
                }
            };
            let _ = timeout(cluster::FETCH_WAIT, all).await;
        }
        // Requests without an id are notifications: no answer.
        if let Some(id) = &id {
            if let Flow::Gone = self.respond(socket, id, &outcome.result).await {
                return Flow::Gone;
            }
        }
        if let Some((code, reason)) = close {
            return Flow::Close(code, reason);
        }
        for d in outcome.flush {
            if let Flow::Gone = self.deliver(socket, d).await {
                return Flow::Gone;
            }
        }
        // With other instances: what they keep for these topics (published there before anyone
        // here listened), queued to this socket like a live message.
        if let Some(cluster) = self.relay.cluster().cloned() {
            for topic in &outcome.pulls {
                let now = now_ms();
                for r in cluster.fetch(topic, now).await {
                    self.relay.store.lock().unwrap().publish_remote(self.cfg(), &r.t, Arc::from(r.m.as_str()), r.p, r.g, r.e, now);
                }
            }
        }
        Flow::Continue
    }

    fn dispatch(&mut self, method: &str, params: Option<&Value>) -> Outcome {
        match method {
            "irn_publish" => self.publish(params).into(),
            "irn_batchPublish" => self.batch_publish(params).into(),
            "irn_subscribe" => self.subscribe(params, false),
            "irn_batchSubscribe" => self.subscribe(params, true),
            "irn_unsubscribe" => self.unsubscribe(params).into(),
            "irn_batchUnsubscribe" => self.batch_unsubscribe(params).into(),
            "irn_fetchMessages" => self.fetch(params, false).into(),
            "irn_batchFetchMessages" => self.fetch(params, true).into(),
            "wc_proposeSession" => self.propose_session(params),
            "wc_approveSession" => self.approve_session(params),
            other => Err(rpc_err(
                code::METHOD_NOT_FOUND,
                format!("method not found: {other}"),
            ))
            .into(),
        }
    }

    /// Counts `n` publishes against the rate limit.
    fn check_publish_rate(&mut self, n: u32) -> Result<(), RpcError> {
        match self.publish_limit.check(n) {
            Rate::Ok => Ok(()),
            Rate::Refused => Err(rpc_err(code::SERVER_ERROR, "rate limited")),
            Rate::Flood => Err(RpcError {
                code: code::SERVER_ERROR,
                message: "rate limited".into(),
                close: Some((close::POLICY, "rate limited: too many publishes".into())),
            }),
        }
    }

    fn message_value(&self, m: &Map<String, Value>, key: &str) -> Result<Arc<str>, RpcError> {
        let message = string_param(m, key)?;
        let max = self.cfg().max_message_bytes;
        if message.len() > max {
            return Err(bad_params(format!(
                "{key} too large: {} bytes (max {max})",
                message.len()
            )));
        }
        Ok(Arc::from(message))
    }

    fn ttl_ms(&self, ttl: u64) -> u64 {
        clamp_ttl_ms(self.cfg(), ttl)
    }

    fn parse_publish(&self, p: &Value) -> Result<Publish, RpcError> {
        let m = params_object(Some(p))?;
        let topic = topic_param(m, "topic")?;
        let message = self.message_value(m, "message")?;
        let ttl = uint_param(m, "ttl")?.ok_or_else(|| bad_params("missing ttl"))?;
        let tag = uint_param(m, "tag")?.unwrap_or(0);
        if m.get("prompt")
            .is_some_and(|p| !p.is_boolean() && !p.is_null())
        {
            return Err(bad_params("prompt must be a boolean"));
        }
        Ok(Publish {
            topic,
            message,
            ttl_ms: self.ttl_ms(ttl),
            tag,
        })
    }

    fn store_publish(&self, p: Publish) -> Result<(), RpcError> {
        let now = now_ms();
        let mut store = self.relay.store.lock().unwrap();
        store.publish(
            self.cfg(),
            self.id,
            &self.client_id,
            self.peer,
            &p.topic,
            p.message.clone(),
            p.tag,
            p.ttl_ms,
            now,
        )?;
        drop(store);
        self.relay.published.fetch_add(1, Ordering::Relaxed);
        if let Some(cluster) = self.relay.cluster() {
            let until = if p.ttl_ms > 0 { now.saturating_add(p.ttl_ms) } else { 0 };
            if let Some(kept) = cluster.publish(&p.topic, &p.message, now, p.tag, until) {
                self.kept.lock().unwrap().push(kept);
            }
        }
        Ok(())
    }

    fn publish(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        self.check_publish_rate(1)?;
        let p = self.parse_publish(params.unwrap_or(&Value::Null))?;
        self.store_publish(p)?;
        Ok(Value::Bool(true))
    }

    fn batch_publish(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let m = params_object(params)?;
        let list = array_param(m, "messages", self.cfg().max_batch)?;
        self.check_publish_rate(list.len().max(1) as u32)?;
        let parsed = list
            .iter()
            .map(|p| self.parse_publish(p))
            .collect::<Result<Vec<_>, _>>()?;
        for p in parsed {
            self.store_publish(p)?;
        }
        Ok(Value::Bool(true))
    }

    /// Subscribes this connection to `topics`; returns the ids and the stored messages to flush.
    fn subscribe_topics(
        &mut self,
        topics: &[String],
    ) -> Result<(Vec<Arc<str>>, Vec<Delivery>), RpcError> {
        let new: HashSet<&String> = topics
            .iter()
            .filter(|t| !self.subs.contains_key(*t))
            .collect();
        let max = self.cfg().max_subscriptions;
        if self.subs.len() + new.len() > max {
            return Err(rpc_err(
                code::SERVER_ERROR,
                format!("subscription limit reached (max {max} per connection)"),
            ));
        }
        let now = now_ms();
        let mut ids = Vec::with_capacity(topics.len());
        let mut flush = Vec::new();
        let mut store = self.relay.store.lock().unwrap();
        if !store.has_room_for(&self.relay.cfg, topics) {
            return Err(StoreError::TooManyTopics.into());
        }
        for topic in topics {
            let sub_id: Arc<str> = match self.subs.get(topic) {
                Some(id) => id.clone(),
                None => Arc::from(subscription_id(topic, &self.client_id)),
            };
            flush.extend(store.subscribe(
                &self.relay.cfg,
                self.id,
                &self.shared,
                topic,
                sub_id.clone(),
                now,
            )?);
            self.subs.insert(topic.clone(), sub_id.clone());
            ids.push(sub_id);
        }
        Ok((ids, flush))
    }

    fn subscribe(&mut self, params: Option<&Value>, batch: bool) -> Outcome {
        let topics = params_object(params).and_then(|m| {
            if batch {
                topics_param(m, self.cfg().max_batch)
            } else {
                topic_param(m, "topic").map(|t| vec![t])
            }
        });
        let topics = match topics {
            Ok(t) => t,
            Err(e) => return Err(e).into(),
        };
        match self.subscribe_topics(&topics) {
            Ok((ids, flush)) => {
                let result = if batch {
                    Value::Array(ids.iter().map(|i| Value::String(i.to_string())).collect())
                } else {
                    Value::String(ids[0].to_string())
                };
                Outcome {
                    result: Ok(result),
                    flush,
                    pulls: topics,
                }
            }
            Err(e) => Err(e).into(),
        }
    }

    fn drop_subscription(&mut self, topic: &str) {
        if self.subs.remove(topic).is_some() {
            self.relay.store.lock().unwrap().unsubscribe(self.id, topic);
            self.pending.retain(|_, p| &*p.topic != topic);
        }
    }

    fn unsubscribe(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let m = params_object(params)?;
        let topic = topic_param(m, "topic")?;
        string_param(m, "id")?;
        self.drop_subscription(&topic);
        Ok(Value::Bool(true))
    }

    fn batch_unsubscribe(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let m = params_object(params)?;
        let list = array_param(m, "subscriptions", self.cfg().max_batch)?;
        let topics = list
            .iter()
            .map(|s| {
                let s = s
                    .as_object()
                    .ok_or_else(|| bad_params("subscriptions must be {topic, id} objects"))?;
                string_param(s, "id")?;
                topic_param(s, "topic")
            })
            .collect::<Result<Vec<_>, _>>()?;
        for t in topics {
            self.drop_subscription(&t);
        }
        Ok(Value::Bool(true))
    }

    fn fetch(&mut self, params: Option<&Value>, batch: bool) -> Result<Value, RpcError> {
        let m = params_object(params)?;
        let topics = if batch {
            topics_param(m, self.cfg().max_batch)?
        } else {
            vec![topic_param(m, "topic")?]
        };
        let limit = self.cfg().fetch_limit.max(1);
        let (messages, has_more) =
            self.relay
                .store
                .lock()
                .unwrap()
                .fetch(self.id, &topics, limit, now_ms());
        Ok(json!({
            "messages": messages.iter().map(msg_json).collect::<Vec<_>>(),
            "hasMore": has_more,
        }))
    }

    /// `wc_proposeSession {pairingTopic, sessionProposal, ttl?, tag?}`: subscribes this socket to the
    /// pairing topic (sign-client creates the pairing without subscribing itself) and publishes the
    /// (encrypted) proposal there (tag 1100 unless given).
    fn propose_session(&mut self, params: Option<&Value>) -> Outcome {
        let parsed = (|| {
            self.check_publish_rate(1)?;
            let m = params_object(params)?;
            let topic = topic_param(m, "pairingTopic")?;
            let message = self.message_value(m, "sessionProposal")?;
            let ttl = uint_param(m, "ttl")?.unwrap_or(DEFAULT_SESSION_TTL);
            let tag = uint_param(m, "tag")?.unwrap_or(TAG_SESSION_PROPOSE);
            Ok(Publish {
                topic,
                message,
                ttl_ms: self.ttl_ms(ttl),
                tag,
            })
        })();
        let publish = match parsed {
            Ok(p) => p,
            Err(e) => return Err(e).into(),
        };
        let flush = match self.subscribe_topics(std::slice::from_ref(&publish.topic)) {
            Ok((_, flush)) => flush,
            Err(e) => return Err(e).into(),
        };
        let pulls = vec![publish.topic.clone()];
        Outcome {
            result: self.store_publish(publish).map(|()| Value::Bool(true)),
            flush,
            pulls,
        }
    }

    /// `wc_approveSession {sessionTopic, pairingTopic, sessionProposalResponse,
    /// sessionSettlementRequest, ttl?}`: subscribes this socket to the session topic (the client
    /// does not send its own subscribe), publishes the proposal response on the pairing topic (tag
    /// 1101) and the settle request on the session topic (tag 1102).
    fn approve_session(&mut self, params: Option<&Value>) -> Outcome {
        let parsed = (|| {
            self.check_publish_rate(2)?;
            let m = params_object(params)?;
            let session_topic = topic_param(m, "sessionTopic")?;
            let pairing_topic = topic_param(m, "pairingTopic")?;
            let response = self.message_value(m, "sessionProposalResponse")?;
            let settle = self.message_value(m, "sessionSettlementRequest")?;
            let ttl_ms = self.ttl_ms(uint_param(m, "ttl")?.unwrap_or(DEFAULT_SESSION_TTL));
            Ok((session_topic, pairing_topic, response, settle, ttl_ms))
        })();
        let (session_topic, pairing_topic, response, settle, ttl_ms) = match parsed {
            Ok(p) => p,
            Err(e) => return Err(e).into(),
        };
        let flush = match self.subscribe_topics(std::slice::from_ref(&session_topic)) {
            Ok((_, flush)) => flush,
            Err(e) => return Err(e).into(),
        };
        let pulls = vec![session_topic.clone()];
        let published = self
            .store_publish(Publish {
                topic: pairing_topic,
                message: response,
                ttl_ms,
                tag: TAG_SESSION_PROPOSE_RESPONSE,
            })
            .and_then(|()| {
                self.store_publish(Publish {
                    topic: session_topic,
                    message: settle,
                    ttl_ms,
                    tag: TAG_SESSION_SETTLE,
                })
            });
        Outcome {
            result: published.map(|()| Value::Bool(true)),
            flush,
            pulls,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_limits_from_the_configuration_are_checked_and_scale_the_shares() {
        let d = RelayConfig::default();
        let c = d.with_limits("connections=20000, stored-bytes=1073741824,ttl=86400,mailbox=50,publish-rate=10").unwrap();
        assert_eq!((c.max_connections, c.max_stored_bytes, c.mailbox_limit, c.publish_rate), (20_000, 1 << 30, 50, 10));
        assert_eq!(c.max_ttl, Duration::from_secs(86_400));
        assert_eq!((c.max_ip_stored_bytes, c.small_reserve_bytes, c.max_client_stored_bytes), (1 << 27, 1 << 28, 1 << 26));
        assert_eq!(c.max_message_bytes, d.max_message_bytes, "what is not named stays");
        for (bad, says) in [
            ("connections=0", "connections must be 1..1000000"),
            ("connections=lots", "connections must be"),
            ("ttl=10", "ttl must be 300.."),
            ("sockets=5", "unknown limit \"sockets\""),
            ("connections", "expected name=value"),
            ("message-bytes=1048576", "at most half of frame-bytes"),
        ] {
            let e = d.with_limits(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn ttls_are_clamped_to_seven_days() {
        let cfg = RelayConfig::default();
        assert_eq!(clamp_ttl_ms(&cfg, 300), 300_000);
        assert_eq!(clamp_ttl_ms(&cfg, 604_800), 604_800_000);
        assert_eq!(clamp_ttl_ms(&cfg, 30 * 86_400), 604_800_000);
        assert_eq!(clamp_ttl_ms(&cfg, u64::MAX), 604_800_000);
    }

    #[test]
    fn topics_must_be_lowercase_hex_of_32_bytes() {
        assert!(valid_topic(&"ab".repeat(32)));
        assert!(!valid_topic(&"AB".repeat(32)));
        assert!(!valid_topic(&"ab".repeat(31)));
        assert!(!valid_topic(&"zz".repeat(32)));
    }

    #[test]
    fn close_reasons_fit_a_close_frame() {
        assert_eq!(close_reason("idle timeout"), "idle timeout");
        let long = format!(
            "invalid auth: wrong audience (expected ws://{}/relay)",
            "é".repeat(100)
        );
        let cut = close_reason(&long);
        assert!(cut.len() <= MAX_CLOSE_REASON && long.starts_with(cut));
        assert!(cut.len() >= MAX_CLOSE_REASON - 1);
    }

    #[test]
    fn subscription_id_is_sha256_of_topic_and_client_id() {
        // sha256("abc")
        assert_eq!(
            subscription_id("a", "bc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn ack_ids_accept_numbers_strings_and_bigint_strings() {
        assert_eq!(
            ack_key(&json!(1687239522123456789u64)),
            Some(1687239522123456789)
        );
        assert_eq!(
            ack_key(&json!("1687239522123456789")),
            Some(1687239522123456789)
        );
        assert_eq!(
            ack_key(&json!("1687239522123456789n")),
            Some(1687239522123456789)
        );
        assert_eq!(ack_key(&json!(null)), None);
    }

    #[test]
    fn rate_limiter_refuses_then_reports_flood() {
        let mut r = RateLimiter::new(2, 2, Instant::now());
        assert_eq!(r.check(1), Rate::Ok);
        assert_eq!(r.check(1), Rate::Ok);
        assert_eq!(r.check(1), Rate::Refused);
        assert_eq!(r.check(1), Rate::Refused);
        assert_eq!(r.check(1), Rate::Flood);
    }

    const LOCAL: Client = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    fn owner() -> Arc<str> {
        Arc::from("did:key:z6MkOwner")
    }

    fn shared() -> Arc<ConnShared> {
        let (tx, _rx) = mpsc::channel(4);
        Arc::new(ConnShared {
            tx,
            overflow: Notify::new(),
        })
    }

    #[test]
    fn store_clamps_mailbox_and_prunes_expired() {
        let cfg = RelayConfig {
            mailbox_limit: 3,
            ..RelayConfig::default()
        };
        let mut s = Store::default();
        let topic = "ab".repeat(32);
        for i in 0..5 {
            s.publish(
                &cfg,
                1,
                &owner(),
                LOCAL,
                &topic,
                Arc::from(format!("m{i}")),
                1,
                1000,
                10,
            )
            .unwrap();
        }
        assert_eq!(s.stats().stored_messages, 3);
        let (msgs, more) = s.fetch(2, std::slice::from_ref(&topic), 10, 20);
        assert!(!more);
        let texts: Vec<&str> = msgs.iter().map(|m| &*m.message).collect();
        assert_eq!(texts, ["m2", "m3", "m4"]);
        // The publisher does not fetch its own messages.
        assert!(s
            .fetch(1, std::slice::from_ref(&topic), 10, 20)
            .0
            .is_empty());
        s.prune(1010);
        assert_eq!(s.stats(), StoreStats::default());
    }

    #[test]
    fn store_refuses_beyond_topic_and_byte_caps() {
        let cfg = RelayConfig {
            max_topics: 1,
            max_stored_bytes: 10 + 2 * store::STORED_MESSAGE_OVERHEAD,
            ..RelayConfig::default()
        };
        let mut s = Store::default();
        let (a, b) = ("aa".repeat(32), "bb".repeat(32));
        s.publish(
            &cfg,
            1,
            &owner(),
            LOCAL,
            &a,
            Arc::from("12345678"),
            0,
            1000,
            0,
        )
        .unwrap();
        assert_eq!(s.stats().stored_bytes, 8 + store::STORED_MESSAGE_OVERHEAD);
        assert_eq!(
            s.publish(&cfg, 1, &owner(), LOCAL, &b, Arc::from("1"), 0, 1000, 0),
            Err(StoreError::TooManyTopics)
        );
        assert_eq!(
            s.publish(&cfg, 1, &owner(), LOCAL, &a, Arc::from("123"), 0, 1000, 0),
            Err(StoreError::StorageFull)
        );
        assert_eq!(
            s.subscribe(&cfg, 2, &shared(), &b, Arc::from("x"), 0)
                .unwrap_err(),
            StoreError::TooManyTopics
        );
    }

    #[test]
    fn store_charges_each_client_id_and_keeps_the_global_cap() {
        let o = store::STORED_MESSAGE_OVERHEAD;
        let cfg = RelayConfig {
            max_client_stored_messages: 3,
            max_client_stored_bytes: 2 * (10 + o),
            max_stored_bytes: 5 * (10 + o),
            mailbox_limit: 2,
            ..RelayConfig::default()
        };
        let mut s = Store::default();
        let (a, b, c): (Arc<str>, Arc<str>, Arc<str>) =
            (Arc::from("did:a"), Arc::from("did:b"), Arc::from("did:c"));
        let (t1, t2) = ("a1".repeat(32), "a2".repeat(32));
        let ten = || Arc::from("0123456789");
        s.publish(&cfg, 1, &a, LOCAL, &t1, ten(), 0, 1000, 0)
            .unwrap();
        s.publish(&cfg, 1, &a, LOCAL, &t2, ten(), 0, 1000, 0)
            .unwrap();
        let quota = s
            .publish(&cfg, 1, &a, LOCAL, &t2, ten(), 0, 1000, 0)
            .unwrap_err();
        assert!(matches!(quota, StoreError::ClientQuota { .. }));
        assert!(quota.message().starts_with("client storage quota exceeded"));
        // The same client id on another connection shares the quota; live messages are free.
        assert!(s
            .publish(&cfg, 2, &a, LOCAL, &t2, ten(), 0, 1000, 0)
            .is_err());
        s.publish(&cfg, 2, &a, LOCAL, &t2, ten(), 0, 0, 0).unwrap();
        assert_eq!(
            s.client_usage("did:a"),
            store::Usage {
                messages: 2,
                bytes: 2 * (10 + o)
            }
        );
        // Others still publish, until the global cap.
        s.publish(&cfg, 3, &b, LOCAL, &t1, ten(), 0, 1000, 0)
            .unwrap();
        s.publish(&cfg, 3, &b, LOCAL, &t1, ten(), 0, 1000, 0)
            .unwrap();
        // The mailbox of t1 (limit 2) evicted a's oldest message: a is charged one less.
        assert_eq!(s.client_usage("did:a").messages, 1);
        s.publish(&cfg, 4, &c, LOCAL, &t2, ten(), 0, 1000, 0)
            .unwrap();
        s.publish(&cfg, 4, &c, LOCAL, &"a3".repeat(32), ten(), 0, 1000, 0)
            .unwrap();
        assert_eq!(s.stats().stored_messages, 5);
        assert_eq!(
            s.publish(&cfg, 1, &a, LOCAL, &"a4".repeat(32), ten(), 0, 1000, 0),
            Err(StoreError::StorageFull)
        );
        // Expiry releases every client's charge.
        s.prune(2000);
        assert_eq!(s.client_usage("did:a"), store::Usage::default());
        assert_eq!(s.client_usage("did:c"), store::Usage::default());
        assert_eq!(s.stats(), StoreStats::default());
    }

    #[test]
    fn store_charges_each_connection_and_address_and_keeps_a_reserve_for_small_messages() {
        let unit = 100 + store::STORED_MESSAGE_OVERHEAD;
        let cfg = RelayConfig {
            small_message_bytes: 50,
            max_stored_bytes: 10 * unit,
            small_reserve_bytes: 4 * unit,
            max_conn_stored_bytes: 2 * unit,
            max_ip_stored_bytes: 4 * unit,
            ip_small_reserve_bytes: unit,
            ..RelayConfig::default()
        };
        let ip = |n: u8| IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n));
        let mut s = Store::default();
        let big = || Arc::from("b".repeat(100));
        let small = || Arc::from("s".repeat(10));
        let t = "e1".repeat(32);
        let id = |n: u32| -> Arc<str> { Arc::from(format!("did:{n}")) };
        let mut publish = |conn: ConnId, owner: u32, from: u8, m: Arc<str>| {
            s.publish(&cfg, conn, &id(owner), ip(from), &t, m, 0, 1000, 0)
        };
        // One connection: two big messages, then its quota.
        publish(1, 1, 2, big()).unwrap();
        publish(1, 1, 2, big()).unwrap();
        let e = publish(1, 1, 2, big()).unwrap_err();
        assert!(e.message().contains("per connection"), "{}", e.message());
        // New connections and ids from the same address: its quota (big ones: 3 of 4 units).
        publish(2, 2, 2, big()).unwrap();
        let e = publish(3, 3, 2, big()).unwrap_err();
        assert!(e.message().contains("per IP address"), "{}", e.message());
        // ... while its small messages still have the address's reserve.
        publish(4, 4, 2, small()).unwrap();
        // Another address fills the big part of the store (6 of 10 units, the small one counts) ...
        for n in 0..2 {
            publish(10 + n, 10 + n as u32, 3, big()).unwrap();
        }
        assert_eq!(publish(20, 20, 4, big()), Err(StoreError::StorageFull));
        // ... and a small message (a pairing proposal) from anyone still goes in.
        publish(21, 21, 5, small()).unwrap();
        assert_eq!(s.ip_usage(&ip(2)).messages, 4);
    }

    #[test]
    fn store_flushes_unseen_messages_once() {
        let cfg = RelayConfig::default();
        let mut s = Store::default();
        let topic = "cd".repeat(32);
        s.publish(
            &cfg,
            1,
            &owner(),
            LOCAL,
            &topic,
            Arc::from("hello"),
            7,
            1000,
            0,
        )
        .unwrap();
        let conn = shared();
        let first = s
            .subscribe(&cfg, 2, &conn, &topic, Arc::from("sub"), 1)
            .unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].msg.tag, 7);
        assert!(s
            .subscribe(&cfg, 2, &conn, &topic, Arc::from("sub"), 1)
            .unwrap()
            .is_empty());
        // Expired messages are not flushed even before the sweep.
        assert!(s
            .subscribe(&cfg, 3, &conn, &topic, Arc::from("sub"), 2000)
            .unwrap()
            .is_empty());
    }
}
