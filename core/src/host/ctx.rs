//! The shared facts every slice reads (options, networks, features, connections per namespace, the
//! active network, the modal frame, the time) and the one place effects and notes are collected.
//!
//! The facts are owned by the slices that change them (the engine's); a host that hears another
//! host's fact note learns its value here (see [`super::Fact`]), so every host reads the same facts.

use super::note::Note;
use super::{obj, Effect, Options, BANNER_SHOWN_MS, SDK_TYPE};
use crate::chain::family::{node_body, Call, WalletCall};
use crate::chain::networks::{default_rpc_host_url, find_network};
use crate::connect::connection::ConnectionState;
use crate::connect::storage;
use crate::service::constants::RPC_TIMEOUT_MS;
#[cfg(feature = "modules")]
use crate::service::constants::RPC_FALLBACK_POLLING_MS;
use crate::service::entities::{Network, RemoteFeatures};
use crate::service::errors::{Severity, WmError};
use crate::service::json::Value;
use crate::service::url;
use crate::ui::alerts::Alerts;
use crate::ui::banner::{Banner, BannerVariant};
use crate::ui::modal::ModalState;
use crate::ui::router::{closing_blocked, Router, View};
use super::options::is_http_url;
use crate::service::json::Writer;

/// The owner of the modal frame's own timers (no slice's place).
pub(crate) const FRAME_TIMERS: usize = usize::MAX;
pub(crate) const TIMER_SHAKE: &str = "shake";
pub(crate) const TIMER_BANNER_REOPEN: &str = "banner-reopen";
pub(crate) const TIMER_BANNER_HIDE: &str = "banner-hide";
#[cfg(feature = "modules")]
const TIMER_RPC_POLL: &str = "rpc-poll";

pub struct Ctx {
    pub opts: Options,
    pub networks: Vec<Network>,
    pub features: RemoteFeatures,
    /// Set while the options cannot work (no project id): the modal shows only ConfigError.
    pub config_error: Option<WmError>,
    /// Network ids of the options that are neither built in nor valid network objects.
    pub unknown_networks: Vec<String>,
    /// Connections per namespace.
    pub conn: ConnectionState,
    /// The network chosen (by the host, the visitor or the wallet), if any.
    pub active_network: Option<String>,
    pub router: Router,
    pub modal: ModalState,
    pub banner: Banner,
    pub now: u64,
    /// The header title while it is not the view's own (a failed connection names itself).
    pub title: Option<&'static str>,
    /// The names of the connectors known (announced wallets, WalletConnect, the embedded wallet).
    pub connector_names: Vec<(String, String)>,
    /// What the connected account holds (the portfolio's answer).
    pub holdings: Vec<super::note::Holding>,
    /// The chains the blockchain API reads (`/v1/supported-chains`; `*`: unknown, none skipped),
    /// once asked (the account module's).
    pub api_chains: Option<Vec<String>>,
    /// The ranking of networks' several RPC URLs, and their node calls under way (modules only:
    /// the engine makes no node call).
    #[cfg(feature = "modules")]
    pub(crate) rpc: crate::chain::rpc_rank::RpcRank,
    /// The JSON-RPC batches under way (modules only).
    #[cfg(feature = "modules")]
    batches: crate::chain::rpc_batch::RpcBatches,
    alerts: Alerts,
    /// Keys of debug notices already shown.
    notices: Vec<String>,
    next_id: u64,
    pub(crate) out: Vec<Effect>,
    /// The place in its host of the slice being handed something: its requests and timers carry it.
    pub(crate) slice: usize,
    /// Running timers by id, and the slice each belongs to.
    timers: Vec<(String, usize)>,
    pub(crate) notes: Vec<Note>,
}

impl Ctx {
    pub(crate) fn new() -> Ctx {
        Ctx {
            opts: Options::default(),
            networks: Vec::new(),
            features: RemoteFeatures::default_remote(),
            config_error: None,
            unknown_networks: Vec::new(),
            conn: ConnectionState::default(),
            active_network: None,
            router: Router::default(),
            modal: ModalState::default(),
            banner: Banner::new(),
            now: 0,
            title: None,
            #[cfg(feature = "modules")]
            rpc: Default::default(),
            #[cfg(feature = "modules")]
            batches: Default::default(),
            api_chains: None,
            connector_names: Vec::new(),
            holdings: Vec::new(),
            alerts: Alerts::new(),
            notices: Vec::new(),
            next_id: 1,
            out: Vec::new(),
            slice: 0,
            timers: Vec::new(),
            notes: Vec::new(),
        }
    }

    // ----- effects -----

    pub fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// A request id carrying the slice that asks (its place in its host, in the low 4 bits): the
    /// answer goes back to it by the id alone.
    pub fn request_id(&mut self) -> u64 {
        self.id() << 4 | self.slice as u64
    }

    /// Asks a wallet (or a connector a slice answers); the answer goes to the slice that asks.
    /// Returns the request id.
    pub fn wallet_request(&mut self, connector_id: &str, call: WalletCall) -> u64 {
        let id = self.request_id();
        self.out.push(Effect::ProviderRequest { id, connector_id: connector_id.into(), method: call.method.into(), params: call.params });
        id
    }

    /// A family's request (see [`Call`]): to the wallet, or to the node of the active network
    /// (`None` when that network has no usable RPC URL). A wallet's answer comes to the slice's
    /// `on_provider_result`, a node's to its `on_fetch_result` (read it with
    /// `family::node_outcome`, a REST API's with `family::rest_outcome`).
    pub fn call(&mut self, connector_id: &str, call: Call) -> Option<u64> {
        match call {
            Call::Wallet(c) => Some(self.wallet_request(connector_id, c)),
            Call::Node(c) => {
                let network = self.active_caip_network().and_then(|id| self.network(&id).cloned())?;
                let url = self.rpc_url(&network)?;
                let id = self.request_id();
                self.fetch(id, url, Some(node_body(id, &c)));
                Some(id)
            }
            // A REST API's path under the network's own URL (the hosted RPC speaks JSON-RPC only).
            Call::Rest(c) => {
                let network = self.active_caip_network().and_then(|id| self.network(&id).cloned())?;
                let base = network.default_rpc_url().filter(|u| is_http_url(u)).map(str::to_string).or_else(|| self.rpc_url(&network))?;
                let id = self.request_id();
                self.fetch(id, format!("{}{}", base.trim_end_matches('/'), c.path), c.body);
                Some(id)
            }
        }
    }

    /// An HTTP request (`body` makes it a POST) with an id from [`Ctx::request_id`] (known before,
    /// e.g. to be written into a JSON-RPC body); the answer goes to the slice the id names.
    pub fn fetch(&mut self, id: u64, url: String, body: Option<String>) {
        // A node call through a network with several RPC URLs: ranked, and sent on on failure.
        #[cfg(feature = "modules")]
        if let Some(urls) = self.networks.iter().map(|n| &n.rpc_urls.default.http).find(|l| l.len() > 1 && l.contains(&url)) {
            let urls = urls.clone();
            self.rpc.sent(id, &url, body.as_deref(), &urls, self.now);
            if !self.rpc.polling {
                self.rpc.polling = true;
                self.frame_timer_start(TIMER_RPC_POLL, RPC_FALLBACK_POLLING_MS);
            }
        }
        self.send_fetch(id, url, body);
    }

    fn send_fetch(&mut self, id: u64, url: String, body: Option<String>) {
        let method = if body.is_some() { "POST" } else { "GET" };
        self.out.push(Effect::Fetch { id, url, method, body, timeout_ms: RPC_TIMEOUT_MS });
    }

    /// A fetch's answer arrived: true when it was a node call that failed and went on to the
    /// network's next RPC URL (the slice hears the answer of that one instead).
    #[cfg(feature = "modules")]
    pub(crate) fn rpc_retried(&mut self, id: u64, status: u16) -> bool {
        match self.rpc.answered(id, status, self.now) {
            crate::chain::rpc_rank::Verdict::Retry { url, body } => {
                self.send_fetch(id, url, body);
                true
            }
            crate::chain::rpc_rank::Verdict::Deliver => false,
            crate::chain::rpc_rank::Verdict::Sampled => true,
        }
    }

    /// The node calls made while handling one event, to one URL, go as one JSON-RPC batch (spec
    /// §9: wait 0, at most 1,000 a batch; `chain::rpc_batch`), in the place of the first of them.
    #[cfg(feature = "modules")]
    pub(crate) fn batch_node_calls(&mut self) {
        use crate::chain::rpc_batch::is_node_call;
        // Each effect read once: the node URL of a node call that may go in a batch.
        let keys: Vec<Option<String>> = self
            .out
            .iter()
            .map(|e| match e {
                Effect::Fetch { id, url, body: Some(b), .. } if self.batches.batches_to(url) && is_node_call(*id, b) => Some(url.clone()),
                _ => None,
            })
            .collect();
        let together = |u: &String| keys.iter().flatten().filter(|k| *k == u).count() > 1;
        // The calls of each URL, gathered at the place of its first (`Err(group)`).
        let mut groups: Vec<(String, Vec<(u64, String)>)> = Vec::new();
        let mut placed: Vec<Result<Effect, usize>> = Vec::new();
        for (e, key) in std::mem::take(&mut self.out).into_iter().zip(&keys) {
            match (e, key) {
                (Effect::Fetch { id, body: Some(b), .. }, Some(u)) if together(u) => match groups.iter().position(|g| &g.0 == u) {
                    Some(g) => groups[g].1.push((id, b)),
                    None => {
                        placed.push(Err(groups.len()));
                        groups.push((u.clone(), vec![(id, b)]));
                    }
                },
                (e, _) => placed.push(Ok(e)),
            }
        }
        let slice = self.slice as u64;
        for p in placed {
            match p {
                Ok(e) => self.out.push(e),
                Err(g) => {
                    let (url, calls) = std::mem::take(&mut groups[g]);
                    let mut next = self.next_id;
                    let sent = self.batches.combine(&url, calls, || {
                        next += 1;
                        (next - 1) << 4 | slice
                    });
                    self.next_id = next;
                    for (id, body) in sent {
                        self.out.push(Effect::Fetch { id, url: url.clone(), method: "POST", body: Some(body), timeout_ms: RPC_TIMEOUT_MS });
                    }
                }
            }
        }
    }

    /// The answer to a JSON-RPC batch of ours (`None`: `id` is none): each call's own answer, for
    /// its slice; a node that takes no batches has the calls sent again alone.
    #[cfg(feature = "modules")]
    pub(crate) fn unbatch(&mut self, id: u64, status: u16, body: &str) -> Option<Vec<(u64, u16, String)>> {
        match self.batches.answered(id, status, body)? {
            crate::chain::rpc_batch::Split::Answers(a) => Some(a),
            crate::chain::rpc_batch::Split::Resend(calls) => {
                for (call, url, body) in calls {
                    self.send_fetch(call, url, Some(body));
                }
                Some(Vec::new())
            }
        }
    }

    /// (Re)starts a timer of the slice being handed something.
    pub fn timer(&mut self, id: &str, ms: u64) {
        let slice = self.slice;
        match self.timers.iter_mut().find(|(k, _)| k == id) {
            Some(t) => t.1 = slice,
            None => self.timers.push((id.to_string(), slice)),
        }
        self.out.push(Effect::StartTimer { id: id.into(), ms });
    }

    /// (Re)starts one of the modal frame's own timers (the shake, the banner), which the host
    /// hands to [`Ctx::frame_timer`] whichever slice started it.
    fn frame_timer_start(&mut self, id: &str, ms: u64) {
        let slice = self.slice;
        self.slice = FRAME_TIMERS;
        self.timer(id, ms);
        self.slice = slice;
    }

    /// One of the modal frame's own timers fired.
    pub(super) fn frame_timer(&mut self, id: &str) {
        match id {
            TIMER_BANNER_REOPEN => {
                self.banner.tick(self.now);
                self.banner_timers();
            }
            TIMER_BANNER_HIDE if self.banner.deadline().is_none() => {
                self.banner.hide();
            }
            TIMER_SHAKE => self.modal.tick(self.now),
            #[cfg(feature = "modules")]
            TIMER_RPC_POLL => self.rpc_poll(),
            _ => {}
        }
    }

    /// The fallback polling (spec §9: 4,000 ms): while the modal shows, each URL of the active
    /// network (when it has several and its family a ping) is probed, a sample for its ranking;
    /// otherwise the polling stops until the next node call through such a network.
    #[cfg(feature = "modules")]
    fn rpc_poll(&mut self) {
        let network = self.active_caip_network().and_then(|id| self.network(&id).cloned());
        let ping = network.as_ref().and_then(|n| crate::chain::family::node(n.chain_namespace.as_str())?.ping_call());
        let urls: Vec<String> = network.map(|n| n.rpc_urls.default.http.into_iter().filter(|u| is_http_url(u)).collect()).unwrap_or_default();
        let (Some(ping), true, true) = (ping, urls.len() > 1, self.modal.open) else {
            self.rpc.polling = false;
            return;
        };
        for url in urls {
            // (Tagged with no slice's place: a probe's answer is never a slice's.)
            let id = self.id() << 4 | 15;
            self.rpc.probe(id, &url, self.now);
            self.send_fetch(id, url, Some(crate::chain::family::node_body(id, &ping)));
        }
        self.frame_timer_start(TIMER_RPC_POLL, RPC_FALLBACK_POLLING_MS);
    }

    /// The slice a timer belongs to (once per start).
    pub(super) fn timer_owner(&mut self, id: &str) -> Option<usize> {
        let i = self.timers.iter().position(|(k, _)| k == id)?;
        Some(self.timers.remove(i).1)
    }

    pub fn note(&mut self, note: Note) {
        self.notes.push(note);
    }

    /// Hands an event to the host whose slice reads its type (through the shell).
    pub fn dispatch(&mut self, event: Value) {
        self.out.push(Effect::Dispatch { event });
    }

    /// The name shown for a connector.
    pub fn connector_name(&self, id: &str) -> &str {
        self.connector_names.iter().find(|(k, _)| k == id).map(|(_, n)| n.as_str()).unwrap_or_default()
    }

    /// Whether the modal shows `view` now (open, or embedded in the page).
    pub fn showing(&self, view: View) -> bool {
        (self.modal.open || self.opts.embedded) && self.router.view() == view
    }

    pub fn emit(&mut self, name: &'static str, detail: Value) {
        self.out.push(Effect::Emit { name, detail });
    }

    /// The `error` event, and its report to analytics (the engine's service slice sends it).
    pub fn emit_error(&mut self, e: &WmError) {
        let message = e.message();
        self.emit("error", obj(vec![("code", e.code().into()), ("key", e.key().into()), ("message", message.as_str().into())]));
        self.note(Note::ErrorReport { key: e.key().into(), message });
    }

    pub fn persist(&mut self, key: &str, value: Option<String>) {
        self.out.push(Effect::Persist { key: key.into(), value });
    }

    pub fn persist_connections(&mut self) {
        let (k, v) = storage::encode_connections(&self.conn.all());
        self.persist(&k, Some(v));
    }

    pub fn persist_active_network(&mut self, chain: &str) {
        let (k, v) = storage::encode_active_network(chain);
        self.persist(&k, Some(v));
    }

    pub fn push(&mut self, effect: Effect) {
        self.out.push(effect);
    }

    /// A debug-mode alert from the error catalogue (once per key).
    pub fn alert(&mut self, e: &WmError) {
        if let Some(a) = self.alerts.raise(e, self.opts.debug) {
            self.out.push(Effect::Alert {
                key: a.key.into(),
                message: a.message,
                description: a.description.map(str::to_string),
                severity: match a.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "info",
                }
                .into(),
                delay_ms: a.delay_ms,
            });
        }
    }

    /// A debug-mode notice with its own text (once per key).
    pub fn alert_text(&mut self, key: &str, message: &str) {
        if self.opts.debug && !self.notices.iter().any(|k| k == key) {
            self.notices.push(key.to_string());
            self.out.push(Effect::Alert { key: key.into(), message: message.into(), description: None, severity: "info".into(), delay_ms: 0 });
        }
    }

    // ----- the modal frame -----

    /// Records that a view is shown after navigation; the slices load what it needs.
    pub fn shown(&mut self) {
        let view = self.router.view();
        self.note(Note::Shown(view));
    }

    pub fn shake(&mut self) {
        let until = self.modal.shake(self.now);
        self.frame_timer_start(TIMER_SHAKE, until - self.now);
    }

    /// Closes the modal (unless the view forbids it: then it shakes).
    pub fn close(&mut self) {
        if !self.modal.open && !self.opts.embedded {
            return;
        }
        if closing_blocked(self.router.view(), false, false) {
            return self.shake();
        }
        let connected = self.connected();
        self.router.on_close(self.opts.embedded, connected);
        if self.router.view() == View::Connect && self.config_error.is_some() {
            self.router.reset(View::ConfigError);
        }
        if let Some(ev) = self.modal.close(connected) {
            self.emit("close", obj(vec![("connected", connected.into())]));
            self.out.push(Effect::RestoreFocus);
            self.note(Note::Analytics(ev));
        }
        self.note(Note::Closed);
    }

    /// The modal frame's banner, asked from a lazily loaded module (`variant`: `error`, `success`
    /// or `loading`): the engine shows it, with the 150 ms rule.
    pub fn banner_from_module(&mut self, variant: &str, message: &str) {
        self.dispatch(obj(vec![("type", "showBanner".into()), ("variant", variant.into()), ("message", message.into())]));
    }

    /// Swap or Buy shown in a restricted time zone (spec §5): refused — the Account view again, the
    /// modal shakes, and a debug alert says why.
    pub fn refuse_in_restricted_region(&mut self) {
        self.alert_text("REGION_RESTRICTED", "Swap and Buy are not offered in this time zone (mainland China, Hong Kong, Macau)");
        self.dispatch(obj(vec![("type", "navigate".into()), ("view", "Account".into()), ("reset", true.into())]));
        self.dispatch(obj(vec![("type", "shake".into())]));
    }

    pub fn show_banner(&mut self, variant: BannerVariant, message: &str) {
        self.banner.show(variant, message, self.now);
        self.banner_timers();
    }

    /// Timers for the banner: the 150 ms reopen, then hiding an error or success after a while.
    pub(crate) fn banner_timers(&mut self) {
        if let Some(deadline) = self.banner.deadline() {
            self.frame_timer_start(TIMER_BANNER_REOPEN, deadline.saturating_sub(self.now));
        } else if self.banner.current().is_some_and(|b| b.variant != BannerVariant::Loading) {
            self.frame_timer_start(TIMER_BANNER_HIDE, BANNER_SHOWN_MS);
        }
    }

    // ----- connections and networks -----

    /// Namespaces that have configured networks.
    pub fn namespaces(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for n in &self.networks {
            let ns = n.chain_namespace.as_str();
            if !out.iter().any(|o| o == ns) {
                out.push(ns.to_string());
            }
        }
        out
    }

    /// The namespace of the active network (else of the first network).
    pub fn active_namespace(&self) -> &str {
        let id = self.active_network.as_deref().or_else(|| self.networks.first().map(|n| n.caip_network_id.as_str()));
        id.and_then(|a| a.split(':').next()).unwrap_or_default()
    }

    /// The active namespace when `has` holds for it (a capability of its family, say), else the
    /// first configured namespace for which it does.
    pub fn namespace_where(&self, has: fn(&str) -> bool) -> Option<String> {
        let active = self.active_namespace();
        if has(active) {
            return Some(active.to_string());
        }
        self.namespaces().into_iter().find(|ns| has(ns))
    }

    /// Whether any namespace has a connected account.
    pub fn connected(&self) -> bool {
        self.networks.iter().any(|n| self.conn.address(n.chain_namespace.as_str()).is_some())
    }

    /// The network shown as active: the connected wallet's chain, else the chosen one, else the first.
    pub fn active_caip_network(&self) -> Option<String> {
        self.conn
            .current(self.active_namespace())
            .map(|c| c.caip_network_id.clone())
            .or_else(|| self.active_network.clone())
            .or_else(|| self.networks.first().map(|n| n.caip_network_id.clone()))
    }

    /// The active namespace's connected account: (namespace, address, its chain, its connector).
    pub fn account(&self) -> Option<(&str, &str, &str, &str)> {
        let ns = self.active_namespace();
        let c = self.conn.current(ns)?;
        Some((ns, self.conn.address(ns)?, c.caip_network_id.as_str(), c.connector_id.as_str()))
    }

    /// Whether the connected wallet is on a network the app did not configure.
    pub fn active_unsupported(&self) -> bool {
        self.conn.current(self.active_namespace()).is_some_and(|c| find_network(&self.networks, &c.caip_network_id).is_none())
    }

    pub fn network(&self, caip_network_id: &str) -> Option<&Network> {
        find_network(&self.networks, caip_network_id)
    }

    /// A wallet reports it is on `chain`: the connection follows, the active network too when the
    /// app has it, the host hears `networkchange`, and the view follows (UnsupportedChain or back).
    pub fn chain_changed(&mut self, namespace: &str, connector_id: &str, chain: &str) {
        if !self.conn.on_chain_changed(namespace, connector_id, chain).chain_changed {
            return;
        }
        self.persist_connections();
        let supported = self.network(chain).is_some();
        if supported {
            self.active_network = Some(chain.to_string());
            self.persist_active_network(chain);
        }
        self.emit("networkchange", obj(vec![("caipNetworkId", chain.into()), ("supported", supported.into())]));
        if !supported && self.modal.open && self.opts.enable_network_switch {
            self.router.reset(View::UnsupportedChain);
        } else if supported && self.modal.open && self.router.view() == View::UnsupportedChain {
            self.router.reset(View::Account);
        }
        self.note(Note::ChainChanged { chain: chain.into() });
    }

    // ----- services -----

    pub fn sdk_version(&self) -> &str {
        if self.opts.sdk_version.is_empty() { "html-wallet-modal-0.1.0" } else { &self.opts.sdk_version }
    }

    /// A hosted API URL with the project query every service gets (`projectId`, `st`, `sv`).
    pub fn api_url(&self, path: &str, extra: &[(&str, String)]) -> String {
        let pairs: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.api_url_strs(path, &pairs)
    }

    /// [`Ctx::api_url`] with borrowed values (no copies: the engine's own calls).
    pub fn api_url_strs(&self, path: &str, extra: &[(&str, &str)]) -> String {
        let mut q = vec![("projectId", self.opts.project_id()), ("st", SDK_TYPE), ("sv", self.sdk_version())];
        q.extend_from_slice(extra);
        url::build(self.opts.api_url(), path, &q)
    }

    /// A catalogue wallet's image (`/getWalletImage/{id}`).
    pub fn image_url(&self, image_id: &str) -> String {
        self.image_at("/getWalletImage/", image_id)
    }

    /// An image of the hosted API by id (`route` ends with `/`; spec §7's image endpoints).
    fn image_at(&self, route: &str, image_id: &str) -> String {
        url::build(self.opts.api_url(), &format!("{route}{}", url::segment(image_id)), &[("projectId", self.opts.project_id()), ("st", SDK_TYPE)])
    }

    /// Whether the blockchain API reads `chain` (`None` until its list is known).
    pub fn api_supports(&self, chain: &str) -> Option<bool> {
        self.api_chains.as_ref().map(|l| l.iter().any(|c| c == chain || c == "*"))
    }

    /// The node URL of a network: the hosted RPC for built-in networks, the network's own otherwise.
    pub fn rpc_url(&self, n: &Network) -> Option<String> {
        let builtin = crate::chain::networks::builtin_networks().iter().any(|b| b.caip_network_id == n.caip_network_id && b.rpc_urls == n.rpc_urls);
        match (&self.opts.rpc_url, builtin) {
            (Some(base), true) if is_http_url(base) => {
                Some(url::build(base, "", &[("chainId", &n.caip_network_id), ("projectId", self.opts.project_id())]))
            }
            (None, true) => Some(default_rpc_host_url(&n.caip_network_id, self.opts.project_id())),
            #[cfg(feature = "modules")]
            _ if n.rpc_urls.default.http.len() > 1 => {
                let urls: Vec<String> = n.rpc_urls.default.http.iter().filter(|u| is_http_url(u)).cloned().collect();
                self.rpc.ranked(&urls).into_iter().next()
            }
            _ => n.default_rpc_url().filter(|u| is_http_url(u)).map(str::to_string),
        }
    }

    /// A network as the views show it.
    pub fn write_network(&self, n: &Network, active: Option<&str>, w: &mut Writer) {
        w.begin_object();
        w.key("caipNetworkId").str(&n.caip_network_id).key("name").str(&n.name).key("namespace").str(n.chain_namespace.as_str());
        w.key("symbol").str(&n.native_currency.symbol).key("testnet").bool(n.testnet).key("active").bool(active == Some(n.caip_network_id.as_str()));
        // Its own image URL, else the hosted API's image of its `assets.imageId`.
        let assets = n.assets.as_ref();
        let image = assets.and_then(|a| a.image_url.as_deref()).filter(|u| is_http_url(u) || u.starts_with("data:image/"));
        let id = assets.and_then(|a| a.image_id.as_deref()).filter(|id| id.len() <= 128);
        w.key("imageUrl");
        match (image, id) {
            (Some(u), _) => w.str(u),
            (None, Some(id)) => w.str(&self.image_at("/public/getAssetImage/", id)),
            _ => w.null(),
        };
        w.end_object();
    }
}
