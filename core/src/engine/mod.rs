//! The engine: one value holding the modal's whole state, driven by [`Event`]s with the time passed
//! in, answering with [`Effect`]s for the shell to carry out and a [`Snapshot`] for the views.
//!
//! Each rule lives in its own module (router, connection, wallets, catalogue, storage, config,
//! balance, origins, alerts); the engine only sequences them.

mod effect;
mod event;
pub(crate) mod json;
mod options;
mod snapshot;

pub use effect::Effect;
pub use event::{Event, ProviderError};
pub use options::{is_http_url, NetworkInput, Options, DEFAULT_ANALYTICS_URL, DEFAULT_API_URL};
pub use snapshot::*;

use crate::ui::alerts::Alerts;
use crate::ui::banner::{Banner, BannerVariant};
use crate::service::analytics::{Analytics, AnalyticsContext, MODAL_OPEN};
use crate::account::balance::{balance_request_body, parse_balance_response, BalanceCache};
use crate::connect::catalogue::{Catalogue, PageRequest};
use crate::service::config::{parse_config_response, resolve};
use crate::service::gates::{gates, BUILT};
use crate::connect::connection::{Connection, ConnectionState, Status, CLEARED_ON_DISCONNECT};
use crate::service::constants::{IMAGE_PRELOAD_TIMEOUT_MS, RPC_TIMEOUT_MS};
use crate::service::entities::{Network, RemoteFeatures};
use crate::service::errors::WmError;
use crate::chain::format::{avatar_gradient, truncate_address};
use crate::ui::modal::{ModalEvent, ModalState};
use crate::chain::networks::{default_rpc_host_url, find_network};
use crate::ui::router::{closing_blocked, host_view, initial_view, Back, HostView, OpenContext, Router, View};
use crate::connect::switching::{decide_switch, ProviderKind, SwitchDecision};
use crate::connect::storage::{self, Stored};
use crate::service::url;
use crate::service::entities::WalletListing;
use crate::connect::wallets::{connector_rows, Discovery, WALLETCONNECT_ID};
use json::obj;
use crate::service::json::Value;

/// A reconnect that the wallet has not confirmed within this time is dropped.
pub const RECONNECT_TIMEOUT_MS: u64 = 3_000;
const TIMER_SHAKE: &str = "shake";
const TIMER_SEARCH: &str = "wallet-search";
const TIMER_RECONNECT: &str = "reconnect";
const TIMER_BANNER_REOPEN: &str = "banner-reopen";
const TIMER_BANNER_HIDE: &str = "banner-hide";
/// Prefix of the timers that poll a sent transaction's receipt (`receipt:{hash}`).
const TIMER_RECEIPT: &str = "receipt:";
pub use crate::account::host_requests::{watches_host_request, RECEIPT_POLLS_MAX, RECEIPT_POLL_MS};
use crate::account::host_requests::{is_mined, receipt_request_body, HostRequests, ReceiptOutcome};
/// How long an error or success banner stays (a loading banner stays until replaced).
pub const BANNER_SHOWN_MS: u64 = 6_000;
const EIP155: &str = "eip155";
/// The SDK type sent as `st` to every service.
const SDK_TYPE: &str = "wallet-modal";

/// What an outstanding request is for.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    Config,
    Origins,
    AnalyticsConfig,
    Catalogue,
    Balance { network: String, address: String },
    RequestAccounts { connector_id: String },
    Accounts { connector_id: String, reconnect: bool },
    ChainId { connector_id: String, accounts: Vec<String>, reconnect: bool },
    SwitchChain { connector_id: String, target: String },
    AddChain { connector_id: String, target: String },
    /// `eth_getTransactionReceipt` for a transaction sent through the host's provider.
    Receipt { hash: String },
    Ignore,
}

#[derive(Clone, Debug)]
struct Connecting {
    connector_id: String,
    error: Option<WmError>,
}

/// A WalletConnect pairing shown to the visitor (the shell's client makes the URI).
#[derive(Clone, Debug, Default)]
struct Pairing {
    uri: Option<String>,
    expires_at_ms: Option<u64>,
    /// The catalogue wallet chosen, for its deep links; `None` for the plain WalletConnect row.
    wallet: Option<WalletListing>,
}

#[derive(Clone, Debug)]
struct Switching {
    target: String,
    error: Option<WmError>,
}

/// Outstanding requests by id. A few at a time: a list is as fast as a map here and much smaller
/// in WebAssembly than another `BTreeMap` instantiation.
#[derive(Default)]
struct PendingMap(Vec<(u64, Pending)>);

impl PendingMap {
    fn insert(&mut self, id: u64, pending: Pending) {
        self.remove(&id);
        self.0.push((id, pending));
    }

    #[inline(never)]
    fn remove(&mut self, id: &u64) -> Option<Pending> {
        let i = self.0.iter().position(|(k, _)| k == id)?;
        Some(self.0.remove(i).1)
    }

    fn values(&self) -> impl Iterator<Item = &Pending> {
        self.0.iter().map(|(_, p)| p)
    }
}

/// Remote configuration fetch progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Remote {
    NotAsked,
    Asked,
    Done,
}

pub struct Engine {
    opts: Options,
    networks: Vec<Network>,
    router: Router,
    modal: ModalState,
    conn: ConnectionState,
    discovery: Discovery,
    catalogue: Catalogue,
    balances: BalanceCache,
    alerts: Alerts,
    features: RemoteFeatures,
    remote: Remote,
    analytics: Analytics,
    /// False until `/getAnalyticsConfig` answered; events wait in `queued_analytics` until then.
    analytics_known: bool,
    queued_analytics: Vec<ModalEvent>,
    recent: Vec<String>,
    active_network: Option<String>,
    connecting: Option<Connecting>,
    pairing: Option<Pairing>,
    switching: Option<Switching>,
    banner: Banner,
    /// What the host asks the wallet through `getProvider()`, and the transactions it sent.
    host_requests: HostRequests,
    config_error: Option<WmError>,
    dark: bool,
    started: bool,
    /// Stored connections waiting for their wallet to announce itself.
    to_reconnect: Vec<(String, Connection)>,
    pending: PendingMap,
    /// Keys of debug notices already shown.
    notices: Vec<String>,
    next_id: u64,
    now: u64,
    out: Vec<Effect>,
}

/// What `handle` gives back.
#[derive(Clone, Debug)]
pub struct Output {
    pub effects: Vec<Effect>,
    pub snapshot: Snapshot,
}

impl Engine {
    pub fn new(opts: Options) -> Engine {
        let mut engine = Engine {
            opts: Options::default(),
            networks: Vec::new(),
            router: Router::default(),
            modal: ModalState::default(),
            conn: ConnectionState::default(),
            discovery: Discovery::default(),
            catalogue: Catalogue::default(),
            balances: BalanceCache::default(),
            alerts: Alerts::new(),
            features: RemoteFeatures::default_remote(),
            remote: Remote::NotAsked,
            analytics: Analytics::new(false),
            analytics_known: false,
            queued_analytics: Vec::new(),
            recent: Vec::new(),
            active_network: None,
            connecting: None,
            pairing: None,
            switching: None,
            banner: Banner::new(),
            host_requests: HostRequests::default(),
            config_error: None,
            dark: false,
            started: false,
            to_reconnect: Vec::new(),
            pending: PendingMap::default(),
            notices: Vec::new(),
            next_id: 1,
            now: 0,
            out: Vec::new(),
        };
        // Effects of the first options (an error for a missing project id) go out with the first event.
        engine.set_options(opts);
        engine
    }

    /// New options from the host (an attribute or property changed).
    pub fn set_options(&mut self, opts: Options) {
        let (networks, unknown) = opts.resolve_networks();
        self.opts = opts;
        self.networks = networks;
        for _ in unknown {
            self.alert(&WmError::NetworkNotFound);
        }
        if self.opts.basic {
            self.features = resolve(true, None, None).features;
        } else if self.remote == Remote::NotAsked {
            self.features = self.opts.features.clone().unwrap_or_else(RemoteFeatures::default_remote);
        }
        let missing = self.opts.project_id().is_empty();
        if missing && self.config_error.is_none() {
            self.config_error = Some(WmError::ProjectIdNotConfigured);
            self.emit_error(&WmError::ProjectIdNotConfigured);
            self.alert(&WmError::ProjectIdNotConfigured);
        } else if !missing {
            self.config_error = None;
        }
        if let Some(default) = self.opts.default_network.clone() {
            if self.active_network.is_none() && find_network(&self.networks, &default).is_some() {
                self.active_network = Some(default);
            }
        }
        if self.active_network.as_deref().is_some_and(|a| find_network(&self.networks, a).is_none()) {
            self.active_network = None;
        }
    }

    /// Handles one event at `now_ms`.
    pub fn handle(&mut self, event: Event, now_ms: u64) -> Output {
        self.now = self.now.max(now_ms);
        self.modal.tick(self.now);
        self.on_event(event);
        Output { effects: std::mem::take(&mut self.out), snapshot: self.snapshot() }
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Start { storage, legacy_provider, unreadable } => self.start(&storage, legacy_provider, unreadable),
            Event::Open { view, unknown_view, namespace } => {
                if let Some(name) = unknown_view {
                    let e = WmError::UnknownView { name };
                    self.alert_text("UNKNOWN_VIEW", &e.message());
                    self.emit_error(&e);
                }
                self.open(view, namespace)
            }
            Event::Close => self.close(),
            Event::Back => match self.router.go_back(self.connected()) {
                Back::Close => self.close(),
                Back::Shown(_) => self.after_navigation(),
            },
            Event::Navigate { view } => {
                self.router.push(view);
                self.after_navigation();
            }
            Event::Shake => {
                let until = self.modal.shake(self.now);
                self.out.push(Effect::StartTimer { id: TIMER_SHAKE.into(), ms: until - self.now });
            }
            Event::Theme { dark } => self.dark = dark,
            Event::Announce { usable: false, .. } => {
                if self.opts.enable_eip6963 {
                    self.alert_text("BAD_ANNOUNCEMENT", "Ignored an EIP-6963 wallet announcement that could not be read or has no callable provider");
                }
            }
            Event::Announce { uuid, name, icon, rdns, usable: true } => {
                if self.opts.enable_eip6963 {
                    match self.discovery.announce(&uuid, &name, &icon, &rdns) {
                        Ok(w) => {
                            let id = w.id.clone();
                            self.try_reconnect(&id);
                        }
                        Err(crate::connect::wallets::Refused::Duplicate) => {}
                        Err(why) => {
                            let what = match why {
                                crate::connect::wallets::Refused::BadUuid => "its uuid",
                                crate::connect::wallets::Refused::BadName => "its name",
                                _ => "its rdns",
                            };
                            self.alert_text("BAD_ANNOUNCEMENT", &format!("Ignored an EIP-6963 wallet announcement: {what} is missing or invalid"));
                        }
                    }
                }
            }
            Event::SelectConnector { id } => self.select_connector(&id),
            Event::SelectWallet { id } => self.select_wallet(&id),
            Event::Retry => match self.connecting.clone() {
                Some(c) if c.connector_id == WALLETCONNECT_ID => {
                    let wallet = self.pairing.as_ref().and_then(|p| p.wallet.clone());
                    self.connect_walletconnect(wallet);
                }
                Some(c) => self.select_connector(&c.connector_id),
                None => {}
            },
            Event::SearchWallets { query } => {
                let ms = self.catalogue.set_query(&query);
                self.out.push(Effect::StartTimer { id: TIMER_SEARCH.into(), ms });
            }
            Event::LoadMoreWallets => {
                let id = self.id();
                if let Some(req) = self.catalogue.request_more(id) {
                    self.fetch_wallets(id, req);
                }
            }
            Event::SwitchNetwork { caip_network_id } => self.switch_network(&caip_network_id),
            Event::Disconnect { namespace } => self.disconnect(namespace.as_deref()),
            Event::CopyUri => {
                if let Some(uri) = self.pairing.as_ref().and_then(|p| p.uri.clone()) {
                    self.out.push(Effect::Copy { text: uri });
                }
            }
            Event::WalletConnectUri { uri, expires_at_ms } => self.pairing_uri(uri, expires_at_ms),
            Event::CopyAddress => {
                if let Some(a) = self.conn.address(EIP155) {
                    self.out.push(Effect::Copy { text: a.to_string() });
                }
            }
            Event::ProviderResult { id, result, error } => self.provider_result(id, result, error),
            Event::ProviderEvent { connector_id, name, data } => self.provider_event(&connector_id, &name, &data),
            Event::FetchResult { id, status, body } => self.fetch_result(id, status, &body),
            Event::Timer { id } => self.timer(&id),
            Event::HostRequest { id, method } => self.host_requests.started(id, method),
            Event::HostRequestDone { id, result, failed } => self.host_request_done(id, result, failed),
            Event::DismissBanner => {
                self.banner.hide();
            }
        }
    }

    // ----- start-up and persistence -----

    /// Start-up: what storage holds. A bad value costs only its own key (ignored, and alerted in
    /// debug mode, `unreadable` being the keys the shell could not even read as text).
    fn start(&mut self, entries: &[(String, String)], legacy_provider: bool, unreadable: Vec<String>) {
        if self.started {
            return;
        }
        self.started = true;
        self.discovery.set_legacy(legacy_provider);
        let Stored { wallet_id: _, active_network, recent_wallets, connections, mut ignored } = storage::load(entries);
        ignored.extend(unreadable);
        if !ignored.is_empty() {
            self.alert_text("CORRUPT_STORAGE", &format!("Ignored corrupt or foreign stored values for {}", ignored.join(", ")));
        }
        self.recent = recent_wallets;
        let configured: Vec<String> = self.networks.iter().map(|n| n.caip_network_id.clone()).collect();
        if let Some(a) = storage::restorable_network(active_network.as_deref(), &configured) {
            self.active_network = Some(a.to_string());
        }
        let namespaces = self.namespaces();
        self.to_reconnect = self.conn.startup(self.opts.reconnect, &namespaces, connections);
        if !self.opts.reconnect {
            self.persist(storage::KEY_CONNECTIONS, None);
        }
        if !self.to_reconnect.is_empty() {
            self.out.push(Effect::StartTimer { id: TIMER_RECONNECT.into(), ms: RECONNECT_TIMEOUT_MS });
            for id in self.to_reconnect.iter().map(|(_, c)| c.connector_id.clone()).collect::<Vec<_>>() {
                self.try_reconnect(&id);
            }
        }
    }

    /// A stored connection's wallet is present: ask it silently for its accounts.
    fn try_reconnect(&mut self, connector_id: &str) {
        if connector_id != WALLETCONNECT_ID && self.discovery.find(connector_id).is_none() {
            return;
        }
        let Some(pos) = self.to_reconnect.iter().position(|(_, c)| c.connector_id == connector_id) else { return };
        self.to_reconnect.remove(pos);
        self.provider_request(connector_id, "eth_accounts", Value::Array(Vec::new()), Pending::Accounts { connector_id: connector_id.into(), reconnect: true });
    }

    fn persist(&mut self, key: &str, value: Option<String>) {
        self.out.push(Effect::Persist { key: key.into(), value });
    }

    fn persist_connections(&mut self) {
        let (k, v) = storage::encode_connections(&self.conn.all());
        self.persist(&k, Some(v));
    }

    // ----- open, close, navigation -----

    fn open(&mut self, view: Option<View>, namespace: Option<String>) {
        if self.config_error.is_some() {
            self.router.reset(View::ConfigError);
        } else {
            let requested = match view.map(|v| (v, host_view(v, self.connected(), self.active_unsupported()))) {
                Some((_, HostView::Show(v))) => Some(v),
                Some((v, HostView::NotAvailable)) => {
                    let e = WmError::ViewNotAvailable { name: v.name().into() };
                    self.alert_text("VIEW_NOT_AVAILABLE", &e.message());
                    self.emit_error(&e);
                    None
                }
                Some((_, HostView::Default)) | None => None,
            };
            let ctx = OpenContext {
                has_adapters: !self.namespaces().is_empty(),
                connected: self.connected(),
                mobile: self.opts.mobile,
                requested,
            };
            let mut v = initial_view(&ctx);
            if v == View::Account && self.active_unsupported() {
                v = View::UnsupportedChain;
            }
            self.router.reset(v);
        }
        let connected = self.connected();
        if let Some(ev) = self.modal.open(namespace, connected) {
            self.out.push(Effect::Emit { name: "open", detail: obj(vec![("view", self.router.view().name().into())]) });
            self.analytics(ev);
        }
        if self.config_error.is_none() {
            self.fetch_remote_config();
            self.after_navigation();
        }
    }

    fn close(&mut self) {
        if !self.modal.open && !self.opts.embedded {
            return;
        }
        if closing_blocked(self.router.view(), false, false) {
            let until = self.modal.shake(self.now);
            self.out.push(Effect::StartTimer { id: TIMER_SHAKE.into(), ms: until - self.now });
            return;
        }
        let connected = self.connected();
        self.router.on_close(self.opts.embedded, connected);
        if self.router.view() == View::Connect && self.config_error.is_some() {
            self.router.reset(View::ConfigError);
        }
        if let Some(ev) = self.modal.close(connected) {
            self.out.push(Effect::Emit { name: "close", detail: obj(vec![("connected", connected.into())]) });
            self.out.push(Effect::RestoreFocus);
            self.analytics(ev);
        }
        self.cancel_pairing(true);
        if self.connecting.as_ref().is_some_and(|c| c.error.is_some()) {
            self.connecting = None;
        }
        self.switching = None;
    }

    /// Loads what the view now shown needs, and nothing before it is needed.
    fn after_navigation(&mut self) {
        if !matches!(self.router.view(), View::ConnectingWalletConnect | View::ConnectingWalletConnectBasic) {
            self.cancel_pairing(false);
        }
        match self.router.view() {
            View::Connect => {
                let id = self.id();
                if let Some(req) = self.catalogue.request_recommended(id) {
                    self.fetch_wallets(id, req);
                }
            }
            View::AllWallets | View::ConnectingWalletConnectBasic => {
                let id = self.id();
                if let Some(req) = self.catalogue.request_first_page(id) {
                    self.fetch_wallets(id, req);
                }
                if self.router.view() == View::ConnectingWalletConnectBasic && self.pairing.is_none() && !self.connected() {
                    self.connect_walletconnect(None);
                }
            }
            View::ConnectingWalletConnect if self.pairing.is_none() && !self.connected() => self.connect_walletconnect(None),
            View::Account => self.refresh_balance(false),
            _ => {}
        }
    }

    // ----- remote configuration, origins, analytics -----

    fn service_query(&self) -> Vec<(&'static str, String)> {
        vec![("projectId", self.opts.project_id().to_string()), ("st", SDK_TYPE.into()), ("sv", self.sdk_version())]
    }

    fn sdk_version(&self) -> String {
        if self.opts.sdk_version.is_empty() { "html-wallet-modal-0.1.0".into() } else { self.opts.sdk_version.clone() }
    }

    fn api_get(&mut self, path: &str, extra: &[(&str, String)], pending: Pending) {
        let mut q = self.service_query();
        q.extend(extra.iter().map(|(k, v)| (*k, v.clone())));
        let pairs: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let url = url::build(self.opts.api_url(), path, &pairs);
        let id = self.id();
        self.pending.insert(id, pending);
        self.out.push(Effect::Fetch { id, url, method: "GET", body: None, timeout_ms: RPC_TIMEOUT_MS });
    }

    /// Config, allowed origins and the analytics switch are fetched on the first open.
    fn fetch_remote_config(&mut self) {
        if self.remote != Remote::NotAsked || self.opts.basic {
            return;
        }
        self.remote = Remote::Asked;
        self.api_get("/appkit/v1/config", &[], Pending::Config);
        self.api_get("/projects/v1/origins", &[], Pending::Origins);
        self.api_get("/getAnalyticsConfig", &[], Pending::AnalyticsConfig);
    }

    fn analytics(&mut self, ev: ModalEvent) {
        if self.opts.basic {
            return;
        }
        if !self.analytics_known {
            self.queued_analytics.push(ev);
            return;
        }
        let ctx = AnalyticsContext {
            project_id: self.opts.project_id().to_string(),
            sdk_type: SDK_TYPE.into(),
            sdk_version: self.sdk_version(),
            url: self.opts.href.clone(),
            domain: self.opts.origin.split("://").nth(1).unwrap_or("").to_string(),
        };
        let seq = self.id();
        let event_id = format!("{}-{seq}", self.now);
        let open = ev.event == MODAL_OPEN;
        let address = self.conn.address(EIP155).map(str::to_string);
        if let Some(req) = self.analytics.modal_event(&ctx, &event_id, open, ev.connected, address.as_deref(), self.now) {
            let body = req.body.to_json().to_string();
            self.out.push(Effect::Beacon { url: req.url(self.opts.analytics_url()), body });
        }
    }

    // ----- connecting an injected wallet -----

    fn select_connector(&mut self, id: &str) {
        let Some(wallet) = self.discovery.find(id) else {
            // The WalletConnect row, or a catalogue wallet that is not installed: pairing.
            let listing = self.catalogue.items.iter().chain(self.catalogue.recommended.iter()).find(|w| w.id == id).cloned();
            if listing.is_none() && id != WALLETCONNECT_ID {
                return; // neither installed, nor in the catalogue, nor WalletConnect: nothing to connect
            }
            if listing.is_some() && self.router.view() != View::ConnectingWalletConnect {
                self.router.push(View::ConnectingWalletConnect);
            } else if id == WALLETCONNECT_ID && !matches!(self.router.view(), View::ConnectingWalletConnect | View::ConnectingWalletConnectBasic) {
                self.router.push(View::ConnectingWalletConnect);
            }
            return self.connect_walletconnect(listing);
        };
        self.cancel_pairing(false);
        self.connecting = Some(Connecting { connector_id: wallet.id.clone(), error: None });
        self.conn.set_status(EIP155, Status::Connecting);
        if self.router.view() != View::ConnectingExternal {
            self.router.push(View::ConnectingExternal);
        }
        self.provider_request(&wallet.id, "eth_requestAccounts", Value::Array(Vec::new()), Pending::RequestAccounts { connector_id: wallet.id.clone() });
    }

    /// Asks the shell's WalletConnect connector for accounts: it pairs (the URI comes back as a
    /// `WalletConnectUri` event) and answers once the wallet approved. One request at a time; a
    /// request already under way keeps its URI.
    fn connect_walletconnect(&mut self, wallet: Option<WalletListing>) {
        let pending = self.pending.values().any(|p| matches!(p, Pending::RequestAccounts { connector_id } if connector_id == WALLETCONNECT_ID));
        let pairing = self.pairing.get_or_insert_with(Pairing::default);
        pairing.wallet = wallet;
        self.connecting = Some(Connecting { connector_id: WALLETCONNECT_ID.into(), error: None });
        if pending {
            return;
        }
        self.conn.set_status(EIP155, Status::Connecting);
        self.provider_request(WALLETCONNECT_ID, "eth_requestAccounts", Value::Array(Vec::new()), Pending::RequestAccounts { connector_id: WALLETCONNECT_ID.into() });
    }

    /// A new pairing URI from the shell; ignored unless a pairing is being shown. Only `wc:` URIs
    /// of a sane length are taken (the shell's client made it, but nothing from outside is trusted).
    fn pairing_uri(&mut self, uri: Option<String>, expires_at_ms: Option<u64>) {
        let Some(p) = self.pairing.as_mut() else { return };
        let uri = uri.filter(|u| u.starts_with("wc:") && u.len() <= 1024 && !u.chars().any(char::is_whitespace));
        p.expires_at_ms = expires_at_ms.filter(|_| uri.is_some());
        p.uri = uri;
    }

    /// The pairing is no longer shown: the shell drops it (and its pending request). Closing the
    /// modal reports 'Modal closed' to the host; leaving the pairing view for another one (back,
    /// another wallet) is the visitor changing their mind and reports nothing.
    fn cancel_pairing(&mut self, closing: bool) {
        if self.pairing.take().is_none() {
            return;
        }
        let before = self.pending.0.len();
        self.pending.0.retain(|(_, p)| !matches!(p, Pending::RequestAccounts { connector_id } if connector_id == WALLETCONNECT_ID));
        if self.pending.0.len() == before {
            return;
        }
        if self.connecting.as_ref().is_some_and(|c| c.connector_id == WALLETCONNECT_ID) {
            self.connecting = None;
        }
        if !self.pending.values().any(|p| matches!(p, Pending::RequestAccounts { .. })) {
            let status = if self.conn.current(EIP155).is_some() { Status::Connected } else { Status::Disconnected };
            self.conn.set_status(EIP155, status);
        }
        self.out.push(Effect::ReleaseProvider { connector_id: WALLETCONNECT_ID.into() });
        if closing {
            self.emit_error(&WmError::ModalClosed);
        }
    }

    /// The name shown for a connector: the announced wallet's, or WalletConnect's.
    fn connector_name(&self, connector_id: &str) -> String {
        match self.discovery.find(connector_id) {
            Some(w) => w.name,
            None if connector_id == WALLETCONNECT_ID => "WalletConnect".into(),
            None => String::new(),
        }
    }

    fn select_wallet(&mut self, id: &str) {
        let installed = self.catalogue.items.iter().chain(self.catalogue.recommended.iter()).find(|w| w.id == id).and_then(|w| w.rdns.clone());
        match installed.filter(|r| self.discovery.is_installed_rdns(r)) {
            Some(rdns) => self.select_connector(&rdns),
            None => self.select_connector(id),
        }
    }

    fn provider_request(&mut self, connector_id: &str, method: &str, params: Value, pending: Pending) {
        let id = self.id();
        self.pending.insert(id, pending);
        self.out.push(Effect::ProviderRequest { id, connector_id: connector_id.into(), method: method.into(), params });
    }

    fn provider_result(&mut self, id: u64, result: Option<Value>, error: Option<ProviderError>) {
        let Some(pending) = self.pending.remove(&id) else { return };
        let outcome = match error {
            Some(e) => Err(WmError::from_provider_code(e.code.unwrap_or(0), e.message.as_deref().unwrap_or(""))),
            None => Ok(result.unwrap_or(Value::Null)),
        };
        match pending {
            Pending::RequestAccounts { connector_id } | Pending::Accounts { connector_id, reconnect: false } => match outcome.map(parse_accounts) {
                Ok(Some(accounts)) => {
                    self.provider_request(&connector_id, "eth_chainId", Value::Array(Vec::new()), Pending::ChainId { connector_id: connector_id.clone(), accounts, reconnect: false })
                }
                Ok(None) => self.connect_failed(&connector_id, WmError::FailedToConnect),
                Err(e) => {
                    let e = if e.code() == 4001 { WmError::ConnectionRejected } else { WmError::FailedToConnect };
                    self.connect_failed(&connector_id, e)
                }
            },
            Pending::Accounts { connector_id, reconnect: true } => match outcome.map(parse_accounts) {
                Ok(Some(accounts)) => {
                    self.provider_request(&connector_id.clone(), "eth_chainId", Value::Array(Vec::new()), Pending::ChainId { connector_id, accounts, reconnect: true })
                }
                _ => self.reconnect_failed(&connector_id),
            },
            Pending::ChainId { connector_id, accounts, reconnect } => match outcome.ok().and_then(|v| parse_chain_id(&v)) {
                Some(chain) => self.connected_to(&connector_id, accounts, chain, reconnect),
                None if reconnect => self.reconnect_failed(&connector_id),
                None => self.connect_failed(&connector_id, WmError::FailedToConnect),
            },
            Pending::SwitchChain { connector_id, target } => match outcome {
                Ok(_) => self.switched(&connector_id, &target),
                Err(e) if e.code() == 4902 => self.add_chain(&connector_id, &target),
                Err(e) => self.switch_failed(e),
            },
            Pending::AddChain { connector_id, target } => match outcome {
                Ok(_) => {
                    self.provider_request(&connector_id, "wallet_switchEthereumChain", Value::Array(vec![obj(vec![("chainId", hex_chain(&target).into())])]), Pending::SwitchChain { connector_id: connector_id.clone(), target })
                }
                Err(e) if e.code() == 4001 => self.switch_failed(e),
                Err(_) => self.switch_failed(WmError::ChainNotSupported),
            },
            _ => {}
        }
    }

    fn connect_failed(&mut self, connector_id: &str, error: WmError) {
        if self.conn.current(EIP155).is_some() {
            self.conn.set_status(EIP155, Status::Connected);
        } else {
            self.conn.set_status(EIP155, Status::Disconnected);
        }
        self.emit_error(&error);
        self.connecting = Some(Connecting { connector_id: connector_id.into(), error: Some(error) });
    }

    fn reconnect_failed(&mut self, connector_id: &str) {
        self.conn.on_disconnect(EIP155, connector_id);
        if self.conn.current(EIP155).is_none() {
            self.conn.set_status(EIP155, Status::Disconnected);
        }
        self.persist_connections();
    }

    fn connected_to(&mut self, connector_id: &str, accounts: Vec<String>, chain: String, reconnect: bool) {
        let was_unsupported = find_network(&self.networks, &chain).is_none();
        let change = self.conn.on_connect(EIP155, Connection { connector_id: connector_id.into(), accounts, caip_network_id: chain.clone() });
        self.connecting = None;
        if connector_id == WALLETCONNECT_ID {
            self.pairing = None;
        }
        if !was_unsupported {
            self.active_network = Some(chain.clone());
            let (k, v) = storage::encode_active_network(&chain);
            self.persist(&k, Some(v));
        }
        self.recent = storage::push_recent(&self.recent, connector_id);
        let (k, v) = storage::encode_recent_wallets(&self.recent);
        self.persist(&k, Some(v));
        let (k, v) = storage::encode_wallet_id(connector_id);
        self.persist(&k, Some(v));
        self.persist_connections();
        if change.connected {
            self.out.push(Effect::Emit { name: "connect", detail: self.account_detail(reconnect) });
        }
        self.refresh_balance(false);
        if self.modal.open {
            if was_unsupported && self.opts.enable_network_switch {
                self.router.reset(View::UnsupportedChain);
            } else if !reconnect {
                self.close();
            }
        }
    }

    fn account_detail(&self, reconnect: bool) -> Value {
        let c = self.conn.current(EIP155);
        let address = self.conn.address(EIP155).unwrap_or_default();
        let chain = c.map(|c| c.caip_network_id.clone()).unwrap_or_default();
        let connector_id = c.map(|c| c.connector_id.clone()).unwrap_or_default();
        let name = self.connector_name(&connector_id);
        obj(vec![
            ("namespace", EIP155.into()),
            ("address", address.into()),
            ("caipAddress", format!("{chain}:{address}").into()),
            ("chainId", chain.split(':').nth(1).and_then(|s| s.parse::<u64>().ok()).into()),
            ("caipNetworkId", chain.into()),
            ("connectorId", connector_id.into()),
            ("connectorName", name.into()),
            ("reconnected", reconnect.into()),
        ])
    }

    // ----- wallet events -----

    fn provider_event(&mut self, connector_id: &str, name: &str, data: &Value) {
        if self.conn.current(EIP155).is_none_or(|c| c.connector_id != connector_id) {
            return;
        }
        match name {
            "accountsChanged" => {
                let Some(accounts) = parse_accounts(data.clone()).or_else(|| data.as_array().filter(|a| a.is_empty()).map(|_| Vec::new())) else { return };
                let change = self.conn.on_accounts_changed(EIP155, connector_id, accounts);
                if change.disconnected {
                    self.after_disconnect(connector_id);
                } else if change.accounts_changed {
                    self.persist_connections();
                    self.out.push(Effect::Emit { name: "accountschange", detail: self.account_detail(false) });
                    self.refresh_balance(true);
                }
            }
            "chainChanged" => {
                let Some(chain) = parse_chain_id(data) else { return };
                self.chain_changed(connector_id, &chain);
            }
            "disconnect" => {
                self.conn.on_disconnect(EIP155, connector_id);
                self.after_disconnect(connector_id);
            }
            _ => {}
        }
    }

    fn chain_changed(&mut self, connector_id: &str, chain: &str) {
        if !self.conn.on_chain_changed(EIP155, connector_id, chain).chain_changed {
            return;
        }
        self.persist_connections();
        let supported = find_network(&self.networks, chain).is_some();
        if supported {
            self.active_network = Some(chain.to_string());
            let (k, v) = storage::encode_active_network(chain);
            self.persist(&k, Some(v));
        }
        self.out.push(Effect::Emit { name: "networkchange", detail: obj(vec![("caipNetworkId", chain.into()), ("supported", supported.into())]) });
        if let Some(s) = &self.switching {
            if s.target == chain {
                self.switching = None;
                if self.modal.open && matches!(self.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
                    self.router.reset(View::Account);
                }
            }
        }
        if !supported && self.modal.open && self.opts.enable_network_switch {
            self.router.reset(View::UnsupportedChain);
        } else if supported && self.modal.open && self.router.view() == View::UnsupportedChain {
            self.router.reset(View::Account);
        }
        self.refresh_balance(true);
    }

    // ----- network switching -----

    fn switch_network(&mut self, caip_network_id: &str) {
        let target = find_network(&self.networks, caip_network_id).cloned();
        let target_ns = target.as_ref().map(|t| t.chain_namespace.as_str()).unwrap_or_default();
        let active_ns = self.active_caip_network().and_then(|a| a.split(':').next().map(str::to_string)).unwrap_or_default();
        let connected = self.conn.address(target_ns).is_some();
        // The embedded wallet (auth provider) comes later.
        let wc = self.conn.current(target_ns).is_some_and(|c| c.connector_id == WALLETCONNECT_ID);
        let provider = connected.then_some(if wc { ProviderKind::WalletConnect } else { ProviderKind::External });
        match decide_switch(target.is_some(), &active_ns, target_ns, connected, provider) {
            SwitchDecision::Unsupported => {
                self.alert(&WmError::NetworkNotFound);
                self.emit_error(&WmError::NetworkNotFound);
            }
            SwitchDecision::AdapterSwitch => {
                let Some(c) = self.conn.current(target_ns).cloned() else { return };
                if c.caip_network_id == caip_network_id {
                    return;
                }
                self.switching = Some(Switching { target: caip_network_id.to_string(), error: None });
                if self.modal.open && !matches!(self.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
                    self.router.push(View::SwitchNetwork);
                }
                self.provider_request(
                    &c.connector_id,
                    "wallet_switchEthereumChain",
                    Value::Array(vec![obj(vec![("chainId", hex_chain(caip_network_id).into())])]),
                    Pending::SwitchChain { connector_id: c.connector_id.clone(), target: caip_network_id.to_string() },
                );
            }
            SwitchDecision::ActiveNetworkOnly
            | SwitchDecision::AddressSync
            | SwitchDecision::AuthSwitch
            | SwitchDecision::WalletConnectSwitch => {
                // The active network (and with it the namespace's address) changes; no wallet is asked.
                if self.active_network.as_deref() != Some(caip_network_id) {
                    self.active_network = Some(caip_network_id.to_string());
                    let (k, v) = storage::encode_active_network(caip_network_id);
                    self.persist(&k, Some(v));
                    self.out.push(Effect::Emit { name: "networkchange", detail: obj(vec![("caipNetworkId", caip_network_id.into()), ("supported", true.into())]) });
                }
            }
        }
    }

    /// The network shown as active: the connected wallet's chain, else the chosen one, else the first.
    fn active_caip_network(&self) -> Option<String> {
        self.conn
            .current(EIP155)
            .map(|c| c.caip_network_id.clone())
            .or_else(|| self.active_network.clone())
            .or_else(|| self.networks.first().map(|n| n.caip_network_id.clone()))
    }

    fn add_chain(&mut self, connector_id: &str, target: &str) {
        let Some(n) = find_network(&self.networks, target).cloned() else { return self.switch_failed(WmError::ChainNotSupported) };
        let currency = &n.native_currency;
        let params = Value::Array(vec![obj(vec![
            ("chainId", hex_chain(target).into()),
            ("chainName", n.name.clone().into()),
            (
                "nativeCurrency",
                obj(vec![("name", currency.name.clone().into()), ("symbol", currency.symbol.clone().into()), ("decimals", currency.decimals.into())]),
            ),
            ("rpcUrls", n.rpc_urls.default.http.clone().into()),
            ("blockExplorerUrls", n.explorer_url().map(|u| vec![u.to_string()]).unwrap_or_default().into()),
        ])]);
        self.provider_request(connector_id, "wallet_addEthereumChain", params, Pending::AddChain { connector_id: connector_id.into(), target: target.into() });
    }

    fn switched(&mut self, connector_id: &str, target: &str) {
        // Wallets also send chainChanged; applying it here makes the switch independent of that.
        self.chain_changed(connector_id, target);
        self.switching = None;
        if self.modal.open && matches!(self.router.view(), View::SwitchNetwork | View::UnsupportedChain) {
            self.router.reset(View::Account);
            self.after_navigation();
        }
    }

    /// A failed switch navigates back, says why in an error banner, and fires `error`.
    fn switch_failed(&mut self, error: WmError) {
        self.emit_error(&error);
        let name = self.switching.as_ref().and_then(|s| find_network(&self.networks, &s.target)).map(|n| n.name.clone());
        let name = name.as_deref().unwrap_or("the network");
        let text = match error.code() {
            4001 => format!("Switching to {name} was rejected in the wallet"),
            _ => format!("Could not switch to {name}: {}", error.message()),
        };
        self.show_banner(BannerVariant::Error, &text);
        self.switching = None;
        if self.modal.open && self.router.view() == View::SwitchNetwork {
            if let Back::Close = self.router.go_back(self.connected()) {
                self.close();
            }
        }
    }

    // ----- notification banner -----

    fn show_banner(&mut self, variant: BannerVariant, message: &str) {
        self.banner.show(variant, message, self.now);
        self.banner_timers();
    }

    /// Timers for the banner: the 150 ms reopen, then hiding an error or success after a while.
    fn banner_timers(&mut self) {
        if let Some(deadline) = self.banner.deadline() {
            self.out.push(Effect::StartTimer { id: TIMER_BANNER_REOPEN.into(), ms: deadline.saturating_sub(self.now) });
        } else if self.banner.current().is_some_and(|b| b.variant != BannerVariant::Loading) {
            self.out.push(Effect::StartTimer { id: TIMER_BANNER_HIDE.into(), ms: BANNER_SHOWN_MS });
        }
    }

    // ----- what the host asks the wallet (through getProvider()) -----

    /// A host request ended; a sent transaction is watched until mined (`account::host_requests`).
    fn host_request_done(&mut self, id: u64, result: Option<Value>, failed: bool) {
        let network = self.conn.current(EIP155).map(|c| c.caip_network_id.clone());
        if let Some(hash) = self.host_requests.ended(id, result.as_ref().and_then(Value::as_str), failed, network.as_deref()) {
            self.fetch_receipt(&hash);
        }
    }

    fn fetch_receipt(&mut self, hash: &str) {
        let Some(network) = self.host_requests.poll(hash) else { return };
        let Some(url) = find_network(&self.networks, &network).cloned().and_then(|n| self.rpc_url(&n)) else { return };
        let id = self.id();
        self.pending.insert(id, Pending::Receipt { hash: hash.to_string() });
        self.out.push(Effect::Fetch { id, url, method: "POST", body: Some(receipt_request_body(id, hash)), timeout_ms: RPC_TIMEOUT_MS });
    }

    fn receipt_result(&mut self, hash: &str, status: u16, body: &str) {
        match self.host_requests.receipt(hash, is_mined(status, body)) {
            ReceiptOutcome::Mined => self.refresh_balance(true),
            ReceiptOutcome::Again => self.out.push(Effect::StartTimer { id: format!("{TIMER_RECEIPT}{hash}"), ms: RECEIPT_POLL_MS }),
            ReceiptOutcome::Stop => {}
        }
    }

    // ----- disconnecting -----

    fn disconnect(&mut self, namespace: Option<&str>) {
        let namespaces: Vec<String> = match namespace {
            Some(ns) => vec![ns.to_string()],
            None => self.namespaces(),
        };
        for ns in namespaces {
            let ids: Vec<String> = self.conn.connections(&ns).iter().map(|c| c.connector_id.clone()).collect();
            if ids.is_empty() {
                continue;
            }
            for id in &ids {
                // Best effort: wallets that support it drop the site's permission.
                self.provider_request(id, "wallet_revokePermissions", Value::Array(vec![obj(vec![("eth_accounts", obj(Vec::new()))])]), Pending::Ignore);
            }
            self.conn.disconnect_all(&ns);
            for id in ids {
                self.after_disconnect(&id);
            }
        }
    }

    fn after_disconnect(&mut self, connector_id: &str) {
        self.persist_connections();
        if self.conn.current(EIP155).is_none() {
            self.persist(storage::KEY_WALLET_ID, None);
            for key in CLEARED_ON_DISCONNECT {
                let key = match key {
                    "emailCache" => storage::KEY_EMAIL_CACHE,
                    "lastUsedChain" => storage::KEY_LAST_USED_CHAIN,
                    _ => storage::KEY_SOCIAL_USERNAME,
                };
                self.persist(key, None);
            }
        }
        if self.conn.current(EIP155).is_none() {
            self.host_requests.clear();
        }
        self.out.push(Effect::ReleaseProvider { connector_id: connector_id.into() });
        self.out.push(Effect::Emit { name: "disconnect", detail: obj(vec![("namespace", EIP155.into()), ("connectorId", connector_id.into())]) });
        if self.modal.open && !self.connected() {
            self.router.reset(View::Connect);
            self.after_navigation();
        }
    }

    // ----- balance -----

    fn active_unsupported(&self) -> bool {
        self.conn.current(EIP155).is_some_and(|c| find_network(&self.networks, &c.caip_network_id).is_none())
    }

    fn rpc_url(&self, n: &Network) -> Option<String> {
        let builtin = crate::chain::networks::builtin_networks().iter().any(|b| b.caip_network_id == n.caip_network_id && b.rpc_urls == n.rpc_urls);
        match (&self.opts.rpc_url, builtin) {
            (Some(base), true) if is_http_url(base) => {
                Some(url::build(base, "", &[("chainId", &n.caip_network_id), ("projectId", self.opts.project_id())]))
            }
            (None, true) => Some(default_rpc_host_url(&n.caip_network_id, self.opts.project_id())),
            _ => n.default_rpc_url().filter(|u| is_http_url(u)).map(str::to_string),
        }
    }

    fn refresh_balance(&mut self, force: bool) {
        let Some(c) = self.conn.current(EIP155).cloned() else { return };
        let Some(address) = self.conn.address(EIP155).map(str::to_string) else { return };
        let Some(network) = find_network(&self.networks, &c.caip_network_id).cloned() else { return };
        if !force && self.balances.fresh(&network.caip_network_id, &address, self.now).is_some() {
            return;
        }
        if self.pending.values().any(|p| matches!(p, Pending::Balance { network: n, address: a } if *n == network.caip_network_id && *a == address)) {
            return;
        }
        let Some(url) = self.rpc_url(&network) else { return };
        let id = self.id();
        self.pending.insert(id, Pending::Balance { network: network.caip_network_id.clone(), address: address.clone() });
        self.out.push(Effect::Fetch { id, url, method: "POST", body: Some(balance_request_body(id, &address)), timeout_ms: RPC_TIMEOUT_MS });
    }

    // ----- HTTP answers -----

    fn fetch_wallets(&mut self, id: u64, req: PageRequest) {
        let chains: Vec<String> = self.networks.iter().map(|n| n.caip_network_id.clone()).collect();
        let mut q = self.service_query();
        q.push(("page", req.page.to_string()));
        q.push(("entries", req.entries.to_string()));
        q.push(("search", req.search.clone()));
        q.push(("chains", chains.join(",")));
        let pairs: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let url = url::build(self.opts.api_url(), "/getWallets", &pairs);
        self.pending.insert(id, Pending::Catalogue);
        self.out.push(Effect::Fetch { id, url, method: "GET", body: None, timeout_ms: RPC_TIMEOUT_MS });
    }

    fn fetch_result(&mut self, id: u64, status: u16, body: &str) {
        let Some(pending) = self.pending.remove(&id) else { return };
        match pending {
            Pending::Config => {
                self.remote = Remote::Done;
                let resolved = resolve(self.opts.basic, self.opts.features.as_ref(), parse_config_response(status, body));
                self.features = resolved.features;
                if let Some(notice) = resolved.notice {
                    self.alert_text("REMOTE_CONFIG", &notice);
                }
            }
            Pending::Origins => match crate::service::origins::classify_origins_response(status, body) {
                Ok(list) if !list.is_empty() && !crate::service::origins::origin_allowed(&self.opts.origin, &list) => {
                    self.alert(&WmError::InvalidAppConfiguration);
                    self.emit_error(&WmError::InvalidAppConfiguration);
                }
                Ok(_) => {}
                Err(e) => self.alert(&e),
            },
            Pending::AnalyticsConfig => {
                let enabled = (200..300).contains(&status)
                    && crate::service::json::parse(body).ok().and_then(|v| v.get("isAnalyticsEnabled").and_then(Value::as_bool)).unwrap_or(false);
                self.analytics.set_enabled(enabled);
                self.analytics_known = true;
                for ev in std::mem::take(&mut self.queued_analytics) {
                    self.analytics(ev);
                }
            }
            Pending::Catalogue => {
                self.catalogue.on_response(id, status, body);
            }
            Pending::Receipt { hash } => self.receipt_result(&hash, status, body),
            Pending::Balance { network, address } => {
                let decimals = find_network(&self.networks, &network).map(|n| n.native_currency.decimals).unwrap_or(18);
                let value = (200..300).contains(&status).then(|| parse_balance_response(body, decimals as u32)).flatten();
                match value {
                    Some(v) => self.balances.store(&network, &address, v, self.now),
                    // A failed lookup shows 0.000 rather than nothing, and is retried on the next view.
                    None if self.balances.last(&network, &address).is_none() => self.balances.store(&network, &address, "0.000".into(), 0),
                    None => {}
                }
            }
            _ => {}
        }
    }

    fn timer(&mut self, id: &str) {
        if let Some(hash) = id.strip_prefix(TIMER_RECEIPT) {
            return self.fetch_receipt(hash);
        }
        match id {
            TIMER_BANNER_REOPEN => {
                self.banner.tick(self.now);
                self.banner_timers();
            }
            TIMER_BANNER_HIDE => {
                if self.banner.deadline().is_none() {
                    self.banner.hide();
                }
            }
            TIMER_SHAKE => self.modal.tick(self.now),
            TIMER_SEARCH => {
                let rid = self.id();
                let req = self.catalogue.request_search(rid);
                self.fetch_wallets(rid, req);
            }
            TIMER_RECONNECT => {
                for (ns, c) in std::mem::take(&mut self.to_reconnect) {
                    self.conn.on_disconnect(&ns, &c.connector_id);
                }
                for ns in self.namespaces() {
                    if self.conn.status(&ns) == Status::Reconnecting && self.conn.current(&ns).is_none() {
                        self.conn.set_status(&ns, Status::Disconnected);
                    }
                }
            }
            _ => {}
        }
    }

    // ----- helpers -----

    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn connected(&self) -> bool {
        self.conn.address(EIP155).is_some()
    }

    /// Namespaces that have configured networks (the chain adapters).
    fn namespaces(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for n in &self.networks {
            let ns = n.chain_namespace.as_str().to_string();
            if !out.contains(&ns) {
                out.push(ns);
            }
        }
        out
    }

    fn alert(&mut self, e: &WmError) {
        if let Some(a) = self.alerts.raise(e, self.opts.debug) {
            self.out.push(Effect::Alert {
                key: a.key.into(),
                message: a.message,
                description: a.description.map(str::to_string),
                severity: match a.severity {
                    crate::service::errors::Severity::Error => "error",
                    crate::service::errors::Severity::Warning => "warning",
                    crate::service::errors::Severity::Info => "info",
                }
                .into(),
                delay_ms: a.delay_ms,
            });
        }
    }

    fn alert_text(&mut self, key: &str, message: &str) {
        if self.opts.debug && !self.notices.iter().any(|k| k == key) {
            self.notices.push(key.to_string());
            self.out.push(Effect::Alert { key: key.into(), message: message.into(), description: None, severity: "info".into(), delay_ms: 0 });
        }
    }

    fn emit_error(&mut self, e: &WmError) {
        self.out.push(Effect::Emit { name: "error", detail: obj(vec![("code", e.code().into()), ("key", e.key().into()), ("message", e.message().into())]) });
    }

    fn network_view(&self, n: &Network, active: Option<&str>) -> NetworkView {
        NetworkView {
            caip_network_id: n.caip_network_id.clone(),
            name: n.name.clone(),
            namespace: n.chain_namespace.as_str().into(),
            symbol: n.native_currency.symbol.clone(),
            testnet: n.testnet,
            active: active == Some(n.caip_network_id.as_str()),
            image_url: n.assets.as_ref().and_then(|a| a.image_url.clone()).filter(|u| is_http_url(u) || u.starts_with("data:image/")),
        }
    }

    fn image_url(&self, image_id: &str) -> String {
        url::build(self.opts.api_url(), &format!("/getWalletImage/{}", url::segment(image_id)), &[("projectId", self.opts.project_id()), ("st", SDK_TYPE)])
    }

    /// The header title: the view's, except while connecting, where a failure names itself.
    fn title(&self, view: View) -> String {
        let failed = self.connecting.as_ref().and_then(|c| c.error.as_ref());
        match (view, failed) {
            (View::ConnectingExternal | View::ConnectingWalletConnect, Some(WmError::ConnectionRejected)) => "Connection rejected".into(),
            (View::ConnectingExternal | View::ConnectingWalletConnect, Some(_)) => "Connection failed".into(),
            _ => view.title().into(),
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        let current = self.conn.current(EIP155);
        let active = self.active_caip_network();
        let network = active.as_deref().and_then(|a| find_network(&self.networks, a)).map(|n| self.network_view(n, active.as_deref()));
        let account = self.conn.address(EIP155).zip(current).map(|(address, c)| {
            let net = find_network(&self.networks, &c.caip_network_id);
            let balance = net.and_then(|n| self.balances.last(&n.caip_network_id, address)).map(str::to_string);
            AccountView {
                namespace: EIP155.into(),
                address: address.to_string(),
                caip_address: format!("{}:{address}", c.caip_network_id),
                short_address: truncate_address(address),
                avatar: avatar_gradient(address).to_vec(),
                balance: if net.is_none() { Some("0.000".into()) } else { balance },
                balance_symbol: net.map(|n| n.native_currency.symbol.clone()).unwrap_or_else(|| "ETH".into()),
                connector_id: c.connector_id.clone(),
                connector_name: self.connector_name(&c.connector_id),
                explorer_url: net.and_then(|n| n.explorer_url()).filter(|u| is_http_url(u)).map(|u| format!("{}/address/{address}", u.trim_end_matches('/'))),
            }
        });
        let pairing_wallet = self.pairing.as_ref().and_then(|p| p.wallet.as_ref());
        let connecting = self.connecting.as_ref().map(|c| {
            let w = self.discovery.find(&c.connector_id);
            let name = match (&w, pairing_wallet) {
                (Some(w), _) => w.name.clone(),
                (None, Some(p)) if c.connector_id == WALLETCONNECT_ID => p.name.clone(),
                (None, _) if c.connector_id == WALLETCONNECT_ID => "WalletConnect".into(),
                (None, _) => c.connector_id.clone(),
            };
            ConnectingView {
                connector_id: c.connector_id.clone(),
                name,
                icon: w.and_then(|w| w.icon),
                state: if c.error.is_some() { "error" } else { "pending" },
                error: c.error.as_ref().map(ErrorInfo::from),
            }
        });
        let switching = self.switching.as_ref().and_then(|s| {
            let target = find_network(&self.networks, &s.target)?;
            Some(SwitchingView {
                target: self.network_view(target, active.as_deref()),
                state: if s.error.is_some() { "error" } else { "pending" },
                error: s.error.as_ref().map(ErrorInfo::from),
            })
        });
        let view = self.router.view();
        let gates = gates(&self.features, BUILT);
        let items = self
            .catalogue
            .items
            .iter()
            .map(|w| WalletListingView {
                id: w.id.clone(),
                name: w.name.clone(),
                image_url: (!w.image_id.is_empty()).then(|| self.image_url(&w.image_id)),
                installed: w.rdns.as_deref().is_some_and(|r| self.discovery.is_installed_rdns(r)),
            })
            .collect();
        Snapshot {
            open: self.modal.open,
            embedded: self.opts.embedded,
            loading: self.modal.loading,
            shake: self.modal.is_shaking(self.now),
            view,
            title: self.title(view),
            can_go_back: self.router.can_go_back(),
            // Embedded in the page, there is nothing to close.
            can_close: !self.opts.embedded && !closing_blocked(view, false, false),
            banner: self.banner.current().map(|b| BannerView {
                variant: match b.variant {
                    BannerVariant::Loading => "loading",
                    BannerVariant::Success => "success",
                    BannerVariant::Error => "error",
                },
                message: b.message.clone(),
            }),
            wallet_request: self.host_requests.waiting_for_wallet().filter(|_| self.connected()).map(str::to_string),
            theme_mode: if self.dark { "dark" } else { "light" },
            connect_methods: gates.connect_methods,
            socials: gates.socials,
            connectors: connector_rows(&self.discovery, &self.recent, &self.catalogue.recommended, true, |id| self.image_url(id)),
            status: self.conn.statuses(),
            account,
            network,
            networks: self.networks.iter().map(|n| self.network_view(n, active.as_deref())).collect(),
            connecting,
            wallet_connect: self.pairing.as_ref().map(|p| WalletConnectView {
                uri: p.uri.clone(),
                expires_at_ms: p.expires_at_ms,
                wallet: p.wallet.as_ref().map(|w| {
                    // The app links carrying the URI: the mobile app on phones, the desktop app
                    // elsewhere, the web app everywhere; unsafe catalogue links are dropped.
                    let link = |base: &Option<String>, offered: bool| {
                        p.uri.as_deref().zip(base.as_deref().filter(|_| offered)).and_then(|(uri, base)| url::wallet_deep_link(base, uri))
                    };
                    PairingWalletView {
                        id: w.id.clone(),
                        name: w.name.clone(),
                        image_url: (!w.image_id.is_empty()).then(|| self.image_url(&w.image_id)),
                        mobile_link: link(&w.mobile_link, self.opts.mobile),
                        desktop_link: link(&w.desktop_link, !self.opts.mobile),
                        webapp_link: link(&w.webapp_link, true),
                    }
                }),
            }),
            switching,
            all_wallets: AllWalletsView {
                items,
                count: self.catalogue.count,
                query: self.catalogue.query.clone(),
                loading: self.catalogue.loading,
                has_more: self.catalogue.has_more() && !self.catalogue.failed,
                error: self.catalogue.failed.then(|| ErrorInfo { code: 5000, key: "WALLETS_UNAVAILABLE", message: "Failed to load wallets".into() }),
            },
            config_error: self.config_error.as_ref().map(ErrorInfo::from),
            image_preload_timeout_ms: IMAGE_PRELOAD_TIMEOUT_MS,
        }
    }
}

/// The hex chain id (`0x7a69`) of an `eip155:N` network id.
fn hex_chain(caip_network_id: &str) -> String {
    let n: u64 = caip_network_id.split(':').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    format!("{n:#x}")
}

/// A wallet's account list: non-empty, every entry a 20-byte hex address.
fn parse_accounts(v: Value) -> Option<Vec<String>> {
    let list = v.as_array()?;
    if list.is_empty() || list.len() > 32 {
        return None;
    }
    list.iter()
        .map(|a| a.as_str().filter(|s| crate::chain::address::is_evm_address(s, false) && s.starts_with("0x")).map(|s| crate::chain::address::checksum_address(s).unwrap_or_else(|_| s.to_string())))
        .collect()
}

/// A wallet's chain id (hex string, decimal string or number) as `eip155:N`.
fn parse_chain_id(v: &Value) -> Option<String> {
    let n = match v {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => match s.strip_prefix("0x") {
            Some(h) if !h.is_empty() && h.len() <= 16 => u64::from_str_radix(h, 16).ok()?,
            Some(_) => return None,
            None => s.parse().ok()?,
        },
        _ => return None,
    };
    (n > 0).then(|| format!("eip155:{n}"))
}

#[cfg(test)]
mod tests;
