//! wallet-modal demo backend: serves the demo page, the built element (dist/), and stand-ins for the
//! remote APIs the modal calls (project config, allowed origins, wallet catalogue, images, analytics,
//! and the blockchain API of balances, history, prices and names, answered from the anvil chains by
//! [`chain`]).
//!
//! Everything binds to loopback. [`router`] builds the whole app; add routes there (for example a
//! WebSocket relay) and they get CORS handling for free. With a frame port ([`start_with_frame`]),
//! a second listener on its own origin serves the embedded wallet's secure frame and wallet
//! service ([`wallet::router`]), which the main listener never serves.

pub mod catalogue;
pub mod chain;
pub mod client;
pub mod convert;
pub mod entities;
pub mod farcaster;
mod files;
pub mod http;
pub mod images;
pub mod onramp;
pub mod ops;
pub mod projects;
pub mod relay;
pub mod sessions;
pub mod tls;
#[doc(hidden)]
pub mod testing;
pub mod wallet;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::catalogue::{CatalogueWallet, WalletQuery};
use crate::entities::{AllowedOrigins, AnalyticsConfig, ProjectConfig, RemoteFeatures};

/// Analytics sink bounds (defaults of [`AnalyticsLimits`]): events kept, bytes kept (bodies plus
/// their metadata, see [`RecordedEvent::size`]), largest accepted body.
pub const MAX_RECORDED_EVENTS: usize = 1000;
pub const MAX_RECORDED_BYTES: usize = 4 * 1024 * 1024;
pub const MAX_EVENT_BODY: usize = 64 * 1024;
/// Bytes a recorded event is accounted for on top of its body and metadata strings.
pub const RECORDED_EVENT_OVERHEAD: usize = 128;
/// Delay of the `slow` image.
pub const SLOW_IMAGE_DELAY: Duration = Duration::from_secs(5);

/// An EVM network and its upstream JSON-RPC URL.
#[derive(Clone, PartialEq, Eq)]
pub struct ChainConfig {
    pub chain_id: u64,
    pub rpc_url: String,
}

impl std::fmt::Debug for ChainConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (The URL as messages show it: its path may hold an API key.)
        write!(f, "ChainConfig {{ chain_id: {}, rpc_url: {:?} }}", self.chain_id, chain::rpc::shown_url(&self.rpc_url))
    }
}

/// Parses `31337=http://127.0.0.1:8545,eip155:31338=http://127.0.0.1:8546` (each network as its
/// CAIP-2 id or its chain id, with its upstream JSON-RPC URL).
pub fn parse_chains(s: &str) -> Result<Vec<ChainConfig>, String> {
    let mut out: Vec<ChainConfig> = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (id, url) = part
            .split_once('=')
            .ok_or_else(|| format!("expected CHAINID=URL, got {part:?}"))?;
        // A CAIP-2 network (`eip155:1`) or its EVM chain id alone (`1`).
        let id = id.trim();
        let number = match id.split_once(':') {
            Some(("eip155", n)) => n,
            Some((ns, _)) => {
                return Err(format!(
                    "{id}: only eip155 networks are read over --chains (Solana's RPC comes with --solana, Bitcoin's with --bitcoin), not {ns}"
                ))
            }
            None => id,
        };
        let chain_id: u64 = number
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("bad chain id {id:?}: a CAIP-2 eip155 network (eip155:1) or a chain id"))?;
        let url = url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("rpc url must be http(s): {url:?}"));
        }
        if out.iter().any(|c| c.chain_id == chain_id) {
            return Err(format!("chain {chain_id} given twice"));
        }
        out.push(ChainConfig {
            chain_id,
            rpc_url: url.to_string(),
        });
    }
    if out.is_empty() {
        return Err("no chains given".into());
    }
    Ok(out)
}

/// Chains used when `--chains` is absent.
pub fn default_chains() -> Vec<ChainConfig> {
    parse_chains("31337=http://127.0.0.1:8545,31338=http://127.0.0.1:8546").expect("valid default")
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Repository root: `demo/` and `dist/` are served from here.
    pub root: PathBuf,
    pub chains: Vec<ChainConfig>,
    /// The deploy manifest of the demo contracts (`demo/contracts/deploy.mjs --out`): prices,
    /// images and the spam list of the blockchain API. Re-read when the file changes.
    pub contracts: Option<PathBuf>,
    /// `--solana`: the local Solana chain as demo/solana/rpc.mjs `--out` described it (its RPC URL
    /// and the demo's mints): the blockchain API answers `solana:` balances from it.
    pub solana: Option<PathBuf>,
    /// `--bitcoin http://user:password@127.0.0.1:port`: the local Bitcoin regtest node's RPC (a
    /// `litecoind -regtest`); the backend serves an Esplora-shaped REST subset of it at
    /// `/bitcoin/api` (chain/esplora.rs).
    pub bitcoin: Option<String>,
    /// `--test-token`: the secret of the test hooks (`GET` and `DELETE /e/recorded`), sent as
    /// `Authorization: Bearer <token>`. Without it, or without that header, they do not exist (404).
    pub test_token: Option<String>,
}

/// Shortest `--test-token`: 32 characters, about 190 bits when drawn from the allowed set.
pub const MIN_TEST_TOKEN: usize = 32;
/// Longest `--test-token` (it travels in a header).
pub const MAX_TEST_TOKEN: usize = 256;

/// `--test-token`: 32–256 characters of `[A-Za-z0-9._~+/=-]` (what a bearer token may hold,
/// RFC 6750's `b64token`).
pub fn parse_test_token(s: &str) -> Result<String, String> {
    let ok = (MIN_TEST_TOKEN..=MAX_TEST_TOKEN).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b));
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "--test-token must be {MIN_TEST_TOKEN}-{MAX_TEST_TOKEN} characters of A-Z a-z 0-9 - . _ ~ + / ="
        ))
    }
}

/// One recorded `POST /e`. The body is kept as the JSON text received (validated as a JSON object),
/// not as a parsed `Value`: a parsed 64 KiB body of small items takes ~1 MiB of memory.
#[derive(Debug, Clone)]
pub struct RecordedEvent {
    pub project_id: Option<String>,
    pub st: Option<String>,
    pub sv: Option<String>,
    pub received_at_ms: u64,
    pub body: Box<str>,
}

impl RecordedEvent {
    /// Bytes this event is accounted for against [`AnalyticsLimits::max_bytes`].
    pub fn size(&self) -> usize {
        let meta = [&self.project_id, &self.st, &self.sv]
            .iter()
            .map(|s| s.as_ref().map_or(0, String::len))
            .sum::<usize>();
        self.body.len() + meta + RECORDED_EVENT_OVERHEAD
    }
}

/// Bounds of the analytics sink (`POST /e`): the oldest events are dropped beyond `max_events`
/// or `max_bytes`; a body above `max_body` is refused (413).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyticsLimits {
    pub max_events: usize,
    pub max_bytes: usize,
    pub max_body: usize,
}

impl Default for AnalyticsLimits {
    fn default() -> Self {
        AnalyticsLimits {
            max_events: MAX_RECORDED_EVENTS,
            max_bytes: MAX_RECORDED_BYTES,
            max_body: MAX_EVENT_BODY,
        }
    }
}

/// The recorded analytics events, oldest first, with their accounted size.
#[derive(Debug, Default)]
pub struct EventLog {
    events: VecDeque<RecordedEvent>,
    bytes: usize,
}

impl EventLog {
    /// Appends `e`, first dropping the oldest events until it fits `limits`.
    pub fn push(&mut self, e: RecordedEvent, limits: &AnalyticsLimits) {
        let size = e.size();
        while !self.events.is_empty()
            && (self.events.len() >= limits.max_events || self.bytes + size > limits.max_bytes)
        {
            if let Some(old) = self.events.pop_front() {
                self.bytes -= old.size();
            }
        }
        self.bytes += size;
        self.events.push_back(e);
    }
    pub fn clear(&mut self) {
        self.events.clear();
        self.bytes = 0;
    }
    pub fn len(&self) -> usize {
        self.events.len()
    }
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
    /// Accounted bytes of the kept events.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
    pub fn iter(&self) -> impl Iterator<Item = &RecordedEvent> {
        self.events.iter()
    }
}

/// Everything configurable about a server. [`Default`] holds the values the demo backend uses.
#[derive(Debug, Clone, Default)]
pub struct ServerConfig {
    /// One JSON line per request on stderr (`--log-requests`, [`ops::track`]).
    pub log_requests: bool,
    /// The Redis that joins this server's relay to the other instances' (`--redis`, [`relay::cluster`]).
    pub redis: Option<relay::resp::RedisUrl>,
    /// The address both listeners bind (`--host`; default 127.0.0.1: loopback only).
    pub host: Option<std::net::IpAddr>,
    /// The secure frame's origin as visitors reach it (`--frame-origin`, e.g. a balancer's
    /// `https://wallet.example.com`); default `http://` + the frame listener's address.
    pub frame_origin: Option<String>,
    pub http: http::HttpLimits,
    pub relay: relay::RelayConfig,
    pub analytics: AnalyticsLimits,
    pub chain: chain::ChainApiConfig,
    pub wallet: wallet::WalletConfig,
    /// Social login's OpenID Connect provider (`--oidc`).
    pub social: wallet::social::SocialConfig,
    pub farcaster: farcaster::FarcasterConfig,
    pub onramp: onramp::OnrampConfig,
    /// The projects served and each one's allowed origins (`--project`; default: the demo's).
    pub projects: projects::Projects,
}

pub struct AppState {
    pub options: Options,
    pub config: ServerConfig,
    pub catalogue: Vec<CatalogueWallet>,
    pub events: Mutex<EventLog>,
    /// Set after binding; the fallback for `apiUrl` when the Host header is unusable.
    pub origin: Mutex<String>,
    /// The WalletConnect relay behind `GET /relay` (WebSocket).
    pub relay: Arc<relay::Relay>,
    /// The blockchain API: one indexer per chain of `options.chains` (started by [`start_with`]).
    pub chain_api: Arc<chain::ChainApi>,
    /// Its Solana side (`options.solana`), when configured.
    pub solana: Option<Arc<chain::solana::SolanaApi>>,
    /// The Esplora stand-in over the local Bitcoin regtest node (`options.bitcoin`), when configured.
    pub esplora: Option<Arc<chain::esplora::Esplora>>,
    /// The embedded wallet's service, served by the frame listener ([`start_with_frame`]).
    pub wallet: Arc<wallet::Wallet>,
    /// Social login's pending requests and one-time results (served by the frame listener).
    pub social: wallet::social::Social,
    /// Sign-in nonces and sessions (`/v1/sessions`).
    pub sessions: sessions::Sessions,
    /// Request metrics and the stopping switch (`/healthz`, `/readyz`, `/metrics`).
    pub ops: ops::Ops,
}

impl AppState {
    pub fn new(options: Options) -> Arc<Self> {
        Self::with_config(options, ServerConfig::default())
    }

    pub fn with_config(options: Options, config: ServerConfig) -> Arc<Self> {
        Self::try_with_config(options, config).expect("the wallet store opens")
    }

    /// The application's state; refused when the wallet service's durable store cannot be opened.
    pub fn try_with_config(options: Options, config: ServerConfig) -> Result<Arc<Self>, String> {
        let wallet = wallet::Wallet::open(config.wallet.clone()).map_err(|e| e.0)?;
        let chain_api = chain::ChainApi::new(
            &options.chains,
            options.contracts.clone(),
            config.chain.clone(),
        );
        let solana = options.solana.as_deref().and_then(|p| match chain::solana::SolanaApi::load(p) {
            Ok(api) => Some(Arc::new(api)),
            Err(e) => {
                eprintln!("--solana: {e}");
                None
            }
        });
        let esplora = options.bitcoin.as_deref().and_then(|u| match chain::esplora::Esplora::new(u) {
            Ok(e) => Some(Arc::new(e)),
            Err(e) => {
                eprintln!("--bitcoin: {e}");
                None
            }
        });
        Ok(Arc::new(AppState {
            chain_api,
            solana,
            esplora,
            options,
            catalogue: catalogue::build(),
            events: Mutex::new(EventLog::default()),
            origin: Mutex::new(String::new()),
            relay: relay::Relay::new(config.relay.clone()),
            wallet,
            social: wallet::social::Social::new(config.social.clone()),
            sessions: sessions::Sessions::default(),
            ops: ops::Ops::default(),
            config,
        }))
    }
}

type Shared = Arc<AppState>;
type Params = Query<HashMap<String, String>>;

/// The whole application.
pub fn router(state: Shared) -> Router {
    let bitcoin: Router<Shared> = match &state.esplora {
        Some(e) => chain::esplora::router(e.clone()),
        None => Router::new(),
    };
    Router::new()
        .merge(bitcoin)
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/demo-config.json", get(demo_config))
        .route("/demo/{*path}", get(demo_file))
        .route("/dist/{*path}", get(dist_file))
        .route(
            "/wallet-mobile",
            get(|| async { axum::response::Redirect::permanent("/wallet-mobile/") }),
        )
        .route("/wallet-mobile/", get(wallet_mobile_page))
        // The modal's deep link to a universal link: `{webapp_link}/wc?uri=…`.
        .route("/wallet-mobile/wc", get(wallet_mobile_page))
        .route("/wallet-mobile/{*path}", get(wallet_mobile_file))
        .route("/appkit/v1/config", get(project_config))
        .route("/projects/v1/origins", get(origins))
        .route("/getWallets", get(get_wallets))
        .route("/getWalletImage/{id}", get(wallet_image))
        .route("/public/getAssetImage/{id}", get(public_image))
        .route("/public/getTokenImage/{id}", get(chain::api::token_image))
        .route("/public/getCurrencyImage/{id}", get(public_image))
        .route("/getAnalyticsConfig", get(analytics_config))
        .route("/e", axum::routing::post(record_event))
        .route("/e/recorded", get(recorded_events).delete(clear_events))
        .route("/relay", get(relay::handler))
        // Blockchain API (chain/api.rs)
        .route("/v1/supported-chains", get(chain::api::supported_chains))
        .route("/v1/account/{address}/balance", get(chain::api::balance))
        .route("/v1/account/{address}/history", get(chain::api::history))
        .route("/v1/account/{address}/nfts", get(chain::nfts::nfts))
        .route(
            "/v1/fungible/price",
            axum::routing::post(chain::api::fungible_price),
        )
        .route("/v1/identity/{address}", get(chain::api::identity))
        // Convert (swap) API on the anvil chains' Uniswap V2 market (convert/)
        .route("/v1/convert/tokens", get(convert::tokens))
        .route("/v1/convert/quotes", get(convert::quotes))
        .route("/v1/convert/allowance", get(convert::allowance))
        .route("/v1/convert/gas-price", get(convert::gas_price))
        .route("/v1/convert/build-approve", get(convert::build_approve))
        .route(
            "/v1/convert/build-transaction",
            axum::routing::post(convert::build_transaction),
        )
        .route("/demo-nft/{id}", get(chain::api::nft_metadata))
        .route("/demo-nft/{id}/image.svg", get(chain::api::nft_image))
        .route("/indexer/status", get(chain::api::status))
        // On-ramp (onramp/): options, quote, onrampurl, orders, checkout pages, test switch
        .merge(onramp::router(state.clone()))
        // Sign In With Farcaster: the auth relay stand-in (farcaster/)
        .merge(farcaster::router(state.clone()))
        // Sign-in sessions (SIWX) verified with the core (sessions.rs)
        .merge(sessions::router(state.clone()))
        // Health, readiness and metrics (ops.rs)
        .merge(ops::router())
        .fallback(|| async { error(StatusCode::NOT_FOUND, "not found") })
        .layer(middleware::from_fn_with_state((state.clone(), "main"), ops::track))
        .layer(middleware::from_fn(cors))
        .with_state(state)
}

/// A running server (used by `main` and the tests).
pub struct Server {
    pub addr: SocketAddr,
    /// The frame listener (the secure frame and the wallet service), when started with one.
    pub frame_addr: Option<SocketAddr>,
    pub state: Shared,
    pub handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:F` of the frame listener.
    pub fn frame_origin(&self) -> Option<String> {
        self.frame_addr.map(|a| format!("http://{a}"))
    }
}

/// Binds 127.0.0.1:`port` (0 picks a free port) and serves until `shutdown` resolves.
pub async fn start(
    options: Options,
    port: u16,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<Server> {
    start_with(options, ServerConfig::default(), port, shutdown).await
}

/// [`start`] with other limits and time-outs.
pub async fn start_with(
    options: Options,
    config: ServerConfig,
    port: u16,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<Server> {
    start_with_frame(options, config, port, None, shutdown).await
}

/// [`start_with`], plus (with `frame_port`, 0 = any free port) the frame listener on
/// 127.0.0.1:`frame_port`: the secure frame's own origin, serving only the frame page, its script
/// and the wallet service ([`wallet::router`]). Both stop when `shutdown` resolves; `handle` ends
/// when both have.
pub async fn start_with_frame(
    options: Options,
    config: ServerConfig,
    port: u16,
    frame_port: Option<u16>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<Server> {
    let host = config.host.unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
    let listener = tokio::net::TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    let frame_listener = match frame_port {
        Some(p) => Some(tokio::net::TcpListener::bind((host, p)).await?),
        None => None,
    };
    let frame_addr = frame_listener
        .as_ref()
        .map(|l| l.local_addr())
        .transpose()?;
    let limits = config.http.clone();
    let state = AppState::try_with_config(options, config).map_err(std::io::Error::other)?;
    *state.origin.lock().unwrap() = format!("http://{addr}");
    if let Some(a) = frame_addr {
        let origin = state.config.frame_origin.clone().unwrap_or_else(|| format!("http://{a}"));
        state.wallet.set_frame_origin(origin);
    }
    let app = router(state.clone());
    if let Some(url) = &state.config.redis {
        state.relay.join_cluster(url.clone(), "wm:relay");
    }
    if let Some(d) = &state.wallet.durable {
        state.chain_api.set_store(d.clone());
        tokio::spawn(sweep_store(Arc::downgrade(d)));
    }
    state.chain_api.start();
    let chain_api = state.chain_api.clone();
    // One shutdown for both listeners; the wallet's long-polls end first.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopping = state.clone();
    tokio::spawn(async move {
        shutdown.await;
        // Not ready from now on (a balancer sends no more); requests in flight finish.
        stopping.ops.drain();
        stopping.wallet.close();
        let _ = stop_tx.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|v| *v).await;
    };
    let frame = frame_listener.map(|l| {
        let app = wallet::router(state.clone())
            .merge(ops::router().with_state(state.clone()))
            .layer(middleware::from_fn_with_state((state.clone(), "frame"), ops::track));
        http::serve(l, app, limits.clone(), stopped(stop_rx.clone()))
    });
    let main = http::serve(listener, app, limits, stopped(stop_rx));
    let handle = tokio::spawn(async move {
        let r = match frame {
            Some(frame) => {
                let (m, f) = tokio::join!(main, frame);
                m.and(f)
            }
            None => main.await,
        };
        chain_api.stop();
        r
    });
    Ok(Server {
        addr,
        frame_addr,
        state,
        handle,
    })
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/// A crash on purpose at a named point, for the crash tests: when `$WM_FAILPOINTS` (a comma list,
/// read once) names `point`, the process aborts there, as a `kill -9` landing at that instant
/// would end it. Unset (always, outside those tests), this is one lookup.
pub fn failpoint(point: &str) {
    static POINTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let points = POINTS.get_or_init(|| std::env::var("WM_FAILPOINTS").map(|v| v.split(',').map(str::to_string).collect()).unwrap_or_default());
    if points.iter().any(|p| p == point) {
        eprintln!("failpoint {point}: aborting");
        std::process::abort();
    }
}

pub(crate) fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        Json(json!({ "error": message, "status": status.as_u16() })),
    )
        .into_response()
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// How often the store's expired rows are deleted.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Deletes the store's expired entries and sessions (login codes, mail gates, approval links,
/// sign-in nonces…) at start and every ten minutes: nothing reads them any more, and nothing else
/// deletes them (the tables are read one row at a time, not loaded). Every instance sweeps; a
/// sweep that fails is tried at the next. Ends once the server has let go of its store.
pub async fn sweep_store(d: std::sync::Weak<wallet::store::durable::Counted>) {
    use wallet::store::durable::Durable;
    while let Some(store) = d.upgrade() {
        let _ = tokio::task::spawn_blocking(move || store.purge_expired(wallet::store::durable::wall_ms())).await;
        tokio::time::sleep(SWEEP_EVERY).await;
    }
}

/// CORS for every route: `*` origin, preflight answered with 204.
async fn cors(req: Request, next: Next) -> Response {
    if req.method() == Method::OPTIONS {
        let requested = req
            .headers()
            .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
            .cloned()
            .unwrap_or_else(|| HeaderValue::from_static("content-type"));
        let mut res = StatusCode::NO_CONTENT.into_response();
        let h = res.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
        );
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, requested);
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        h.insert(
            header::VARY,
            HeaderValue::from_static("Access-Control-Request-Headers"),
        );
        return res;
    }
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("cross-origin"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

// ---------------------------------------------------------------------------------------------------------
// Static files and demo config

async fn index(State(st): State<Shared>) -> Response {
    files::serve(&st.options.root.join("demo"), "page/index.html").await
}

async fn demo_file(State(st): State<Shared>, Path(path): Path<String>) -> Response {
    // Only the browser-facing parts of demo/ (never the server's sources or build output).
    let allowed = ["page/", "wallet/"];
    if let Some(rest) = path.strip_prefix("farcaster/") {
        return farcaster::client_file(&st.options.root, rest).await;
    }
    if !allowed.iter().any(|p| path.starts_with(p)) {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    files::serve(&st.options.root.join("demo"), &path).await
}

/// The Demo Mobile Wallet (demo/wallet-mobile/index.html); `?uri=wc:…` is read by the page.
async fn wallet_mobile_page(State(st): State<Shared>) -> Response {
    files::serve(&st.options.root.join("demo/wallet-mobile"), "index.html").await
}

/// Its stylesheet and its bundle (built by demo/wallet-mobile/build.mjs into dist/); not its sources.
async fn wallet_mobile_file(State(st): State<Shared>, Path(path): Path<String>) -> Response {
    if path != "wallet.css" && !path.starts_with("dist/") {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    files::serve(&st.options.root.join("demo/wallet-mobile"), &path).await
}

async fn dist_file(State(st): State<Shared>, Path(path): Path<String>) -> Response {
    files::serve(&st.options.root.join("dist"), &path).await
}

/// The origin the client used, when it is a loopback origin; otherwise the bound address.
pub(crate) fn own_origin(st: &AppState, headers: &HeaderMap) -> String {
    let fallback = st.origin.lock().unwrap().clone();
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return fallback;
    };
    let port_of = |s: &str| s.rsplit_once(':').map(|(_, p)| p.to_string());
    let bound_port = port_of(&fallback);
    let loopback = ["127.0.0.1:", "localhost:", "[::1]:"]
        .iter()
        .any(|p| host.starts_with(p));
    if loopback && port_of(host) == bound_port {
        format!("http://{host}")
    } else {
        fallback
    }
}

async fn demo_config(State(st): State<Shared>, headers: HeaderMap) -> Response {
    // The demo page's settings hand the upstream RPC URLs to the browser: a deployment (its
    // projects listed) keeps them to itself.
    if st.config.projects != projects::Projects::Demo {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    let chains: Vec<Value> = st
        .options
        .chains
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let letter = (b'A' + (i as u8 % 26)) as char;
            json!({ "chainId": c.chain_id, "rpcUrl": c.rpc_url, "name": format!("Anvil {letter}") })
        })
        .collect();
    let mut res = Json(json!({
        "chains": chains,
        "apiUrl": own_origin(&st, &headers),
        "projectId": "demo-project",
        // The secure frame of the embedded wallet (null without a frame listener).
        "frameUrl": st.wallet.frame_url(),
        // The local Solana chain and the demo's mints (null without `--solana`).
        "solana": st.options.solana.as_ref().and_then(|p| std::fs::read_to_string(p).ok()).and_then(|t| serde_json::from_str::<Value>(&t).ok()),
        // The local Bitcoin regtest chain's Esplora subset (null without `--bitcoin`).
        "bitcoin": st.esplora.as_ref().map(|_| json!({"esploraUrl": format!("{}/bitcoin/api", own_origin(&st, &headers))})),
    }))
    .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

// ---------------------------------------------------------------------------------------------------------
// Project configuration, origins

/// Features of a project. The demo project gets the spec's default remote features with multi-wallet
/// on; `projectId=features-off` gets basic mode (everything off); `single-wallet` has multi-wallet off.
pub fn demo_features(project: &str) -> RemoteFeatures {
    match project {
        "features-off" => RemoteFeatures::none(),
        "single-wallet" => RemoteFeatures::default_remote(),
        _ => RemoteFeatures {
            multi_wallet: true,
            ..RemoteFeatures::default_remote()
        },
    }
}

async fn project_config(
    State(st): State<Shared>,
    headers: HeaderMap,
    Query(q): Params,
) -> Response {
    match st.config.projects.check(&q, &headers) {
        Ok(id) => {
            let mut features = demo_features(&id);
            // With --oidc-clients, the social rows are the providers this server has a client for
            // (Farcaster has none to configure).
            let social = &st.social.config;
            if !social.clients.is_empty() {
                features.socials.retain(|p| p == "farcaster" || social.client(p).is_some());
            }
            // The demo's anvil chains have a Uniswap V2 market: swaps are offered there too
            // (project `swaps-spec-networks`: only on the spec's networks, for the tests).
            if !features.swaps.is_empty() && id != "swaps-spec-networks" {
                features.swap_networks = st.chain_api.chains.iter().map(|c| c.caip2()).collect();
            }
            Json(ProjectConfig { features }).into_response()
        }
        Err((status, msg)) => error(status, msg),
    }
}

async fn origins(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    let id = match st.config.projects.check(&q, &headers) {
        Ok(id) => id,
        Err((status, msg)) => return error(status, msg),
    };
    Json(AllowedOrigins {
        allowed_origins: st.config.projects.origins(&id),
    })
    .into_response()
}

// ---------------------------------------------------------------------------------------------------------
// Wallet catalogue and images

async fn get_wallets(State(st): State<Shared>, Query(q): Params) -> Response {
    match WalletQuery::parse(|k| q.get(k).cloned()) {
        Ok(wq) => Json(catalogue::query(&st.catalogue, &wq)).into_response(),
        Err(msg) => error(StatusCode::BAD_REQUEST, &msg),
    }
}

fn svg_response(body: String) -> Response {
    let mut res = (StatusCode::OK, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    res
}

async fn slow_image() -> Response {
    tokio::time::sleep(SLOW_IMAGE_DELAY).await;
    let mut res = svg_response(images::svg("slow", "Slow"));
    // Never cached: every page must see the delay (the image preload time-out is tested with it).
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Known wallet image ids only (plus `slow`); unknown → 404.
async fn wallet_image(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    if id == catalogue::SLOW_IMAGE_ID {
        return slow_image().await;
    }
    if id == catalogue::BROKEN_IMAGE_ID {
        return error(StatusCode::NOT_FOUND, "unknown image id");
    }
    match st.catalogue.iter().find(|w| w.listing.image_id == id) {
        Some(w) => svg_response(images::svg(&id, &w.listing.name)),
        None => error(StatusCode::NOT_FOUND, "unknown image id"),
    }
}

/// Asset, token and currency images: any well-formed id (1–64 of `[A-Za-z0-9._-]`), since networks,
/// tokens and currencies are open sets; `missing`/`unknown` and malformed ids → 404; `slow` → 5 s.
pub(crate) async fn public_image(Path(id): Path<String>) -> Response {
    if id == catalogue::SLOW_IMAGE_ID {
        return slow_image().await;
    }
    if !images::valid_id(&id)
        || ["missing", "unknown", catalogue::BROKEN_IMAGE_ID].contains(&id.as_str())
    {
        return error(StatusCode::NOT_FOUND, "unknown image id");
    }
    svg_response(images::svg(&id, &id))
}

// ---------------------------------------------------------------------------------------------------------
// Analytics

async fn analytics_config(headers: HeaderMap, Query(q): Params) -> Response {
    let enabled = projects::requested_id(&q, &headers) != Some("analytics-disabled");
    Json(AnalyticsConfig {
        is_analytics_enabled: enabled,
    })
    .into_response()
}

/// Whether `bytes` is one JSON object (validated without building a `Value`).
fn is_json_object(bytes: &[u8]) -> Result<(), &'static str> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        Ok(_) if first == Some(&b'{') => Ok(()),
        Ok(_) => Err("body must be a JSON object"),
        Err(_) => Err("body must be JSON"),
    }
}

async fn record_event(State(st): State<Shared>, Query(q): Params, req: Request) -> Response {
    let limits = &st.config.analytics;
    let too_large = format!("body exceeds {} bytes", limits.max_body);
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limits.max_body) {
        return error(StatusCode::PAYLOAD_TOO_LARGE, &too_large);
    }
    // (Owned: the request's body is read below.)
    let requested = projects::requested_id(&q, req.headers()).unwrap_or_default().to_string();
    let id = requested.as_str();
    let refused = match &st.config.projects {
        // The demo's sink takes any project's events but `bad`'s (its other refusal ids play the
        // hosted service's answers to the modal's other calls).
        projects::Projects::Demo if id.is_empty() => Some((StatusCode::BAD_REQUEST, "projectId is required")),
        projects::Projects::Demo if id == "bad" => Some((StatusCode::FORBIDDEN, "Invalid projectId")),
        projects::Projects::Demo => None,
        listed => listed.check_id(id).err(),
    };
    if let Some((status, msg)) = refused {
        return error(status, msg);
    }
    let read = axum::body::to_bytes(req.into_body(), limits.max_body);
    let bytes = match tokio::time::timeout(st.config.http.body_read_timeout, read).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => return error(StatusCode::PAYLOAD_TOO_LARGE, &too_large),
        Err(_) => {
            let mut res = error(StatusCode::REQUEST_TIMEOUT, "body not received in time");
            res.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return res;
        }
    };
    if let Err(msg) = is_json_object(&bytes) {
        return error(StatusCode::BAD_REQUEST, msg);
    }
    let Ok(body) = String::from_utf8(bytes.to_vec()) else {
        return error(StatusCode::BAD_REQUEST, "body must be JSON");
    };
    let event = RecordedEvent {
        project_id: Some(requested.clone()),
        st: q.get("st").cloned(),
        sv: q.get("sv").cloned(),
        received_at_ms: now_ms(),
        body: body.into_boxed_str(),
    };
    st.events.lock().unwrap().push(event, limits);
    Json(json!({ "ok": true })).into_response()
}

/// The recorded bodies, oldest first (a test hook: [`test_hook_open`]). `?withMeta=true` wraps
/// each as `{projectId, st, sv, receivedAt, event}`. Bodies are written out as received.
async fn recorded_events(
    State(st): State<Shared>,
    headers: HeaderMap,
    Query(q): Params,
) -> Response {
    if !test_hook_open(&st, &headers) {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    let with_meta = matches!(q.get("withMeta").map(String::as_str), Some("true" | "1"));
    let mut out = String::from("[");
    {
        let events = st.events.lock().unwrap();
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if with_meta {
                let meta = json!({
                    "projectId": e.project_id, "st": e.st, "sv": e.sv, "receivedAt": e.received_at_ms,
                })
                .to_string();
                // `{...meta}` + `,"event":` + body + `}`
                out.push_str(&meta[..meta.len() - 1]);
                out.push_str(",\"event\":");
                out.push_str(&e.body);
                out.push('}');
            } else {
                out.push_str(&e.body);
            }
        }
    }
    out.push(']');
    let mut res = (StatusCode::OK, out).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn clear_events(State(st): State<Shared>, headers: HeaderMap) -> Response {
    if !test_hook_open(&st, &headers) {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    st.events.lock().unwrap().clear();
    (StatusCode::NO_CONTENT, Body::empty()).into_response()
}

/// The test hooks exist only with `--test-token`, and only for a request carrying
/// `Authorization: Bearer <that token>`: any other request gets the 404 of an unknown route, so
/// that nothing tells a visitor the hooks are there.
fn test_hook_open(st: &AppState, headers: &HeaderMap) -> bool {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    match (st.options.test_token.as_deref(), given) {
        (Some(token), Some(t)) => wallet::same_bytes(t.as_bytes(), token.as_bytes()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_parse() {
        let c = parse_chains("31337=http://127.0.0.1:8545, 31338=http://127.0.0.1:8546").unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(
            c[1],
            ChainConfig {
                chain_id: 31338,
                rpc_url: "http://127.0.0.1:8546".into()
            }
        );
        assert!(parse_chains("").is_err());
        assert!(parse_chains("x=http://a").is_err());
        assert!(parse_chains("1=ftp://a").is_err());
        assert!(parse_chains("1=http://a,1=http://b").is_err());
        assert!(parse_chains("1").is_err());
        assert!(parse_chains("0=http://a").is_err());
    }

    #[test]
    fn chains_are_named_by_caip2_network_or_chain_id_and_other_namespaces_are_pointed_elsewhere() {
        let c = parse_chains("eip155:1=https://rpc.example.com/v1/KEY,10=http://127.0.0.1:9545").unwrap();
        assert_eq!((c[0].chain_id, c[0].rpc_url.as_str()), (1, "https://rpc.example.com/v1/KEY"));
        assert_eq!(c[1].chain_id, 10);
        assert!(parse_chains("eip155:1=http://a,1=http://b").unwrap_err().contains("given twice"));
        let e = parse_chains("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=http://a").unwrap_err();
        assert!(e.contains("--solana"), "{e}");
        assert!(parse_chains("eip155:x=http://a").unwrap_err().contains("CAIP-2"));
    }
}
