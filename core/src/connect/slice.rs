//! The connect slice: finding wallets (EIP-6963 announcements, the catalogue), connecting one
//! (injected, or WalletConnect through the shell's connector, which pairs and shows a URI),
//! reconnecting on start, following the wallet's own events, and disconnecting. Every wallet call
//! goes through the chain adapter of the connection's namespace.

use crate::chain::family;
use crate::connect::catalogue::{Catalogue, PageRequest};
use crate::connect::connection::{Connection, Status, CLEARED_ON_DISCONNECT};
use crate::connect::storage::{self, Stored};
use crate::connect::wallets::{connector_rows, ConnectorRow, Discovery, Refused, WALLETCONNECT_ID};
use crate::host::json::{boolean, opt_string, string, string_or_default, uint, Fields};
use crate::host::{obj, Ctx, Effect, Note, Outcome, Requests, Slice};
use crate::service::entities::WalletListing;
use crate::service::errors::{write_error, WmError};
use crate::service::json::{Value, Writer};
use crate::service::url;
use crate::ui::router::View;

/// The embedded wallet's connector (its provider is the shell's, backed by the secure frame).
pub const EMBEDDED_ID: &str = "embedded";
/// A reconnect that the wallet has not confirmed within this time is dropped.
pub const RECONNECT_TIMEOUT_MS: u64 = 3_000;
const TIMER_SEARCH: &str = "wallet-search";
const TIMER_RECONNECT: &str = "reconnect";
/// What AllWallets says when the wallet catalogue could not be read.
const WALLETS_FAILED: &str = "Failed to load wallets"; // i18n

/// The connect slice's events, read from their JSON (see [`ConnectEvent::read`]).
#[derive(Clone, Debug)]
pub enum ConnectEvent {
    /// The element is connected to the page: persisted values and whether window.ethereum exists.
    Start {
        storage: Vec<(String, String)>,
        /// The namespace of a family's legacy provider (`window.ethereum`), when the page has one.
        legacy: Option<String>,
        /// Keys the shell could not read as text (e.g. a lone UTF-16 surrogate): ignored, reported.
        unreadable: Vec<String>,
    },
    /// An EIP-6963 announcement (the provider object itself stays in the shell). `usable` is false
    /// when the shell could not read the announcement or its provider is not callable.
    Announce { uuid: String, name: String, icon: String, rdns: String, namespace: String, usable: bool },
    /// A Connect/AllWallets row was chosen.
    SelectConnector { id: String },
    /// A catalogue wallet was chosen.
    SelectWallet { id: String },
    /// The embedded wallet's module logged the visitor in: connect its connector.
    ConnectEmbedded,
    /// The embedded wallet's email login sent its code (`started`), or was left before it connected.
    EmbeddedLogin { started: bool },
    Retry,
    SearchWallets { query: String },
    LoadMoreWallets,
    /// Host `disconnect(namespace?)` or the Account view; with `connectorId`, that one connection
    /// only (ProfileWallets, multi-wallet).
    Disconnect { namespace: Option<String>, connector_id: Option<String> },
    /// ProfileWallets (multi-wallet): make another connection of a namespace current.
    SwitchConnection { namespace: String, connector_id: String },
    /// Put the WalletConnect pairing URI on the clipboard.
    CopyUri,
    /// The shell's WalletConnect client has a (new) pairing URI, or none (`uri` null).
    WalletConnectUri { uri: Option<String>, expires_at_ms: Option<u64> },
    /// A wallet event: `accountsChanged`, `chainChanged`, `disconnect`.
    ProviderEvent { connector_id: String, name: String, data: Value },
}

impl ConnectEvent {
    /// The event of this JSON `type`, read from its fields.
    fn read(ty: &str, o: &mut Fields) -> Result<ConnectEvent, String> {
        use crate::host::json::bad;
        Ok(match ty {
            "start" => {
                let storage = match o.get("storage").cloned() {
                    None => Vec::new(),
                    Some(Value::Object(m)) => {
                        let mut out = Vec::new();
                        for (k, v) in m {
                            let Value::String(v) = v else { return Err(bad("storage")) };
                            out.push((k, v));
                        }
                        out
                    }
                    Some(_) => return Err(bad("storage")),
                };
                let unreadable = match o.get("unreadable").cloned() {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(keys)) => keys.into_iter().filter_map(|k| k.as_str().map(|k| k.chars().take(200).collect())).take(64).collect(),
                    Some(_) => return Err(bad("unreadable")),
                };
                ConnectEvent::Start { storage, legacy: opt_string(o, "legacyNamespace")?.filter(|n| n.len() <= 16), unreadable }
            }
            "announce" => ConnectEvent::Announce {
                uuid: string_or_default(o, "uuid")?,
                name: string_or_default(o, "name")?,
                icon: string_or_default(o, "icon")?,
                rdns: string_or_default(o, "rdns")?,
                namespace: string_or_default(o, "namespace")?,
                usable: boolean(o, "usable", Some(true))?,
            },
            "selectConnector" => ConnectEvent::SelectConnector { id: string(o, "id")? },
            "selectWallet" => ConnectEvent::SelectWallet { id: string(o, "id")? },
            "connectEmbedded" => ConnectEvent::ConnectEmbedded,
            "embeddedLogin" => ConnectEvent::EmbeddedLogin { started: boolean(o, "started", None)? },
            "retry" => ConnectEvent::Retry,
            "searchWallets" => ConnectEvent::SearchWallets { query: string(o, "query")? },
            "loadMoreWallets" => ConnectEvent::LoadMoreWallets,
            "disconnect" => ConnectEvent::Disconnect { namespace: opt_string(o, "namespace")?, connector_id: opt_string(o, "connectorId")? },
            "useConnection" => ConnectEvent::SwitchConnection { namespace: string(o, "namespace")?, connector_id: string(o, "connectorId")? },
            "copyUri" => ConnectEvent::CopyUri,
            "walletConnectUri" => ConnectEvent::WalletConnectUri {
                uri: opt_string(o, "uri")?,
                expires_at_ms: match o.get("expiresAtMs") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(uint(o, "expiresAtMs", u64::MAX)?),
                },
            },
            _ => ConnectEvent::ProviderEvent {
                connector_id: string(o, "connectorId")?,
                name: string(o, "name")?,
                data: o.get("data").cloned().unwrap_or(Value::Null),
            },
        })
    }
}

/// What a request of this slice is for.
#[derive(Clone, Debug, PartialEq)]
enum Asked {
    /// Accounts asked with a prompt (connecting), or silently (`reconnect`).
    Accounts { connector_id: String, namespace: String, reconnect: bool },
    ChainId { connector_id: String, namespace: String, accounts: Vec<String>, reconnect: bool },
    Catalogue,
    /// Best effort (revoking the site's permission): the answer does not matter.
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

#[derive(Default)]
pub struct ConnectSlice {
    discovery: Discovery,
    catalogue: Catalogue,
    recent: Vec<String>,
    connecting: Option<Connecting>,
    pairing: Option<Pairing>,
    started: bool,
    /// Stored connections waiting for their wallet to announce itself.
    to_reconnect: Vec<(String, Connection)>,
    requests: Requests<Asked>,
}

fn is_prompt(a: &Asked, connector: &str) -> bool {
    matches!(a, Asked::Accounts { connector_id, reconnect: false, .. } if connector_id == connector)
}

impl Slice for ConnectSlice {
    const NAME: &'static str = "connect";
    const EVENTS: &'static [&'static str] = &[
        "start", "announce", "selectConnector", "selectWallet", "connectEmbedded", "embeddedLogin", "retry", "searchWallets", "loadMoreWallets", "disconnect", "copyUri",
        "walletConnectUri", "providerEvent", "useConnection",
    ];
    /// `connection`: the active namespace's connected account (what `getProvider()` serves).
    const PARTS: &'static [&'static str] = &["connectors", "status", "connecting", "walletConnect", "allWallets", "connection"];
    const VIEWS: &'static [View] =
        &[View::Connect, View::AllWallets, View::ConnectingExternal, View::ConnectingWalletConnect, View::ConnectingWalletConnectBasic];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        let event = ConnectEvent::read(ty, o)?;
        self.handle(event, ctx);
        self.title(ctx);
        Ok(())
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("connectors").begin_array();
        for c in self.rows(ctx) {
            c.write_json(w);
        }
        w.end_array().key("status").begin_object();
        for (ns, status) in ctx.conn.statuses().iter() {
            w.key(ns).str(status.name());
        }
        w.end_object().key("connecting");
        self.write_connecting(w);
        w.key("walletConnect");
        self.write_wallet_connect(ctx, w);
        w.key("allWallets");
        self.write_all_wallets(ctx, w);
        w.key("connection");
        match ctx.account() {
            Some((namespace, address, chain, connector)) => {
                w.begin_object().key("namespace").str(namespace).key("address").str(address).key("caipNetworkId").str(chain);
                w.key("connectorId").str(connector).key("connectorName").str(ctx.connector_name(connector)).end_object();
            }
            None => {
                w.null();
            }
        }
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        self.heard(note, ctx);
        self.title(ctx);
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        self.answered(id, outcome, ctx);
        self.title(ctx);
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, _ctx: &mut Ctx) {
        match self.requests.remove(id) {
            Some(Asked::Catalogue) => _ = self.catalogue.on_response(id, status, body, &_ctx.opts.wallets.featured),
            _ => {}
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        match id {
            TIMER_SEARCH => {
                let rid = ctx.request_id();
                let req = self.catalogue.request_search(rid);
                self.fetch_wallets(ctx, rid, req);
            }
            TIMER_RECONNECT => {
                for (ns, c) in std::mem::take(&mut self.to_reconnect) {
                    ctx.conn.on_disconnect(&ns, &c.connector_id);
                }
                for ns in ctx.namespaces() {
                    if ctx.conn.status(&ns) == Status::Reconnecting && ctx.conn.current(&ns).is_none() {
                        ctx.conn.set_status(&ns, Status::Disconnected);
                    }
                }
            }
            _ => {}
        }
    }
}

impl ConnectSlice {
    fn handle(&mut self, event: ConnectEvent, ctx: &mut Ctx) {
        match event {
            ConnectEvent::Start { storage, legacy, unreadable } => self.start(ctx, &storage, legacy.as_deref(), unreadable),
            ConnectEvent::Announce { usable: false, .. } => {
                if ctx.opts.enable_eip6963 {
                    ctx.alert_text("BAD_ANNOUNCEMENT", "Ignored an EIP-6963 wallet announcement that could not be read or has no callable provider");
                }
            }
            ConnectEvent::Announce { uuid, name, icon, rdns, namespace, usable: true } => {
                if !ctx.opts.enable_eip6963 {
                    return;
                }
                match self.discovery.announce(&uuid, &name, &icon, &rdns, &namespace) {
                    Ok(w) => {
                        let id = w.id.clone();
                        self.try_reconnect(ctx, &id);
                    }
                    Err(Refused::Duplicate) => {}
                    Err(why) => {
                        let what = match why {
                            Refused::BadUuid => "its uuid",
                            Refused::BadName => "its name",
                            Refused::BadNamespace => "its chain family",
                            _ => "its rdns",
                        };
                        ctx.alert_text("BAD_ANNOUNCEMENT", &format!("Ignored a wallet announcement: {what} is missing or invalid"));
                    }
                }
            }
            ConnectEvent::SelectConnector { id } => self.select_connector(ctx, &id),
            ConnectEvent::SelectWallet { id } => {
                let rdns = self.listing(&id).and_then(|w| w.rdns.clone());
                match rdns.filter(|r| self.discovery.is_installed_rdns(r)) {
                    Some(rdns) => self.select_connector(ctx, &rdns),
                    None => self.select_connector(ctx, &id),
                }
            }
            ConnectEvent::ConnectEmbedded => {
                // In the active namespace when the embedded wallet serves its family, else the first that it serves.
                self.connecting = Some(Connecting { connector_id: EMBEDDED_ID.into(), error: None });
                if let Some(ns) = ctx.namespace_where(|ns| family::has_embedded(ns) && family::has_wallet(ns)) {
                    ctx.conn.set_status(&ns, Status::Connecting);
                    self.ask_accounts(ctx, &ns, EMBEDDED_ID, false);
                }
            }
            // Spec §4: an email login sets its namespace connecting when the code is sent; left
            // before it connected, the namespace is reset (disconnected, no connector). A
            // namespace with a wallet connected is not touched.
            ConnectEvent::EmbeddedLogin { started } => {
                if let Some(ns) = ctx.namespace_where(|ns| family::has_embedded(ns) && family::has_wallet(ns)) {
                    match (started, ctx.conn.status(&ns)) {
                        (true, Status::Disconnected) => ctx.conn.on_email_login(&ns),
                        (false, Status::Connecting) if self.connecting.as_ref().is_none_or(|c| c.connector_id != EMBEDDED_ID) => ctx.conn.reset_account(&ns),
                        _ => {}
                    }
                }
            }
            ConnectEvent::Retry => match self.connecting.as_ref().map(|c| c.connector_id.clone()) {
                Some(id) if id == WALLETCONNECT_ID => {
                    let wallet = self.pairing.as_ref().and_then(|p| p.wallet.clone());
                    self.connect_walletconnect(ctx, wallet);
                }
                Some(id) => self.select_connector(ctx, &id),
                None => {}
            },
            ConnectEvent::SearchWallets { query } => {
                let ms = self.catalogue.set_query(&query);
                ctx.timer(TIMER_SEARCH, ms);
            }
            ConnectEvent::LoadMoreWallets => {
                let id = ctx.request_id();
                if let Some(req) = self.catalogue.request_more(id) {
                    self.fetch_wallets(ctx, id, req);
                }
            }
            ConnectEvent::Disconnect { namespace: Some(ns), connector_id: Some(id) } => {
                if ctx.conn.on_disconnect(&ns, &id).disconnected {
                    self.after_disconnect(ctx, &ns, &id);
                }
            }
            ConnectEvent::Disconnect { namespace, .. } => self.disconnect(ctx, namespace.as_deref()),
            ConnectEvent::SwitchConnection { namespace, connector_id } => {
                if ctx.conn.make_current(&namespace, &connector_id) {
                    let chain = ctx.conn.current(&namespace).map(|c| c.caip_network_id.clone()).filter(|c| ctx.network(c).is_some());
                    if let Some(chain) = chain {
                        ctx.persist_active_network(&chain);
                        ctx.active_network = Some(chain);
                    }
                    ctx.persist_connections();
                    let detail = self.account_detail(ctx, &namespace, false);
                    ctx.emit("accountschange", detail);
                    ctx.note(Note::AccountsChanged);
                }
            }
            ConnectEvent::CopyUri => {
                if let Some(uri) = self.pairing.as_ref().and_then(|p| p.uri.clone()) {
                    ctx.push(Effect::Copy { text: uri });
                }
            }
            ConnectEvent::WalletConnectUri { uri, expires_at_ms } => self.pairing_uri(uri, expires_at_ms),
            ConnectEvent::ProviderEvent { connector_id, name, data } => self.provider_event(ctx, &connector_id, &name, &data),
        }
    }

}

impl ConnectSlice {
    fn heard(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Shown(view) => self.shown(ctx, *view),
            Note::Closed => {
                self.cancel_pairing(ctx, true);
                if self.connecting.as_ref().is_some_and(|c| c.error.is_some()) {
                    self.connecting = None;
                }
            }
            _ => {}
        }
    }

    fn answered(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Accounts { connector_id, namespace, reconnect } => {
                let Some(a) = family::wallet(&namespace) else { return };
                match outcome.map(|v| a.parse_accounts(&v)) {
                    Ok(Some(accounts)) => {
                        let id = ctx.wallet_request(&connector_id, a.chain_call());
                        self.requests.insert(id, Asked::ChainId { connector_id, namespace, accounts, reconnect });
                    }
                    _ if reconnect => self.reconnect_failed(ctx, &namespace, &connector_id),
                    Ok(None) => self.connect_failed(ctx, &namespace, &connector_id, WmError::FailedToConnect),
                    Err(e) => {
                        let e = if e.code() == 4001 { WmError::ConnectionRejected } else { WmError::FailedToConnect };
                        self.connect_failed(ctx, &namespace, &connector_id, e)
                    }
                }
            }
            Asked::ChainId { connector_id, namespace, accounts, reconnect } => {
                match outcome.ok().and_then(|v| family::wallet(&namespace).and_then(|a| a.parse_chain(&v))) {
                    Some(chain) => self.connected_to(ctx, &namespace, &connector_id, accounts, chain, reconnect),
                    None if reconnect => self.reconnect_failed(ctx, &namespace, &connector_id),
                    None => self.connect_failed(ctx, &namespace, &connector_id, WmError::FailedToConnect),
                }
            }
            Asked::Catalogue | Asked::Ignore => {}
        }
    }

}

impl ConnectSlice {
    // ----- start-up -----

    /// Start-up: what storage holds. A bad value costs only its own key (ignored, and alerted in
    /// debug mode, `unreadable` being the keys the shell could not even read as text).
    fn start(&mut self, ctx: &mut Ctx, entries: &[(String, String)], legacy: Option<&str>, unreadable: Vec<String>) {
        if self.started {
            return;
        }
        self.started = true;
        self.discovery.set_legacy(legacy);
        let Stored { wallet_id: _, active_network, recent_wallets, connections, mut ignored } = storage::load(entries);
        ignored.extend(unreadable);
        if !ignored.is_empty() {
            ctx.alert_text("CORRUPT_STORAGE", &format!("Ignored corrupt or foreign stored values for {}", crate::service::text::join(&ignored, ", ")));
        }
        self.recent = recent_wallets;
        let configured: Vec<String> = ctx.networks.iter().map(|n| n.caip_network_id.clone()).collect();
        if let Some(a) = storage::restorable_network(active_network.as_deref(), &configured) {
            ctx.active_network = Some(a.to_string());
        }
        let namespaces = ctx.namespaces();
        self.to_reconnect = ctx.conn.startup(ctx.opts.reconnect, &namespaces, connections);
        if !ctx.opts.reconnect {
            ctx.persist(storage::KEY_CONNECTIONS, None);
        }
        if !self.to_reconnect.is_empty() {
            ctx.timer(TIMER_RECONNECT, RECONNECT_TIMEOUT_MS);
            for id in self.to_reconnect.iter().map(|(_, c)| c.connector_id.clone()).collect::<Vec<_>>() {
                self.try_reconnect(ctx, &id);
            }
        }
    }

    /// A stored connection's wallet is present: ask it silently for its accounts.
    fn try_reconnect(&mut self, ctx: &mut Ctx, connector_id: &str) {
        if connector_id != WALLETCONNECT_ID && connector_id != EMBEDDED_ID && self.discovery.find(connector_id).is_none() {
            return;
        }
        let Some(pos) = self.to_reconnect.iter().position(|(_, c)| c.connector_id == connector_id) else { return };
        let (namespace, _) = self.to_reconnect.remove(pos);
        self.ask_accounts(ctx, &namespace, connector_id, true);
    }

    /// Asks a wallet for its accounts in a namespace (`false` when its family cannot connect one).
    fn ask_accounts(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, reconnect: bool) -> bool {
        let Some(a) = family::wallet(namespace) else { return false };
        let id = ctx.wallet_request(connector_id, a.accounts_call(reconnect));
        self.requests.insert(id, Asked::Accounts { connector_id: connector_id.into(), namespace: namespace.into(), reconnect });
        true
    }

    // ----- what a view needs -----

    /// Loads what the view now shown needs, and nothing before it is needed; leaving the pairing
    /// views drops the pairing.
    fn shown(&mut self, ctx: &mut Ctx, view: View) {
        if !matches!(view, View::ConnectingWalletConnect | View::ConnectingWalletConnectBasic) {
            self.cancel_pairing(ctx, false);
        }
        let idle = self.pairing.is_none() && !ctx.connected();
        if matches!(view, View::Connect | View::AllWallets) {
            let id = ctx.request_id();
            if let Some(req) = self.catalogue.request_featured(id, &ctx.opts.wallets.featured) {
                self.fetch_wallets(ctx, id, req);
            }
        }
        match view {
            View::Connect => {
                let id = ctx.request_id();
                if let Some(req) = self.catalogue.request_recommended(id) {
                    self.fetch_wallets(ctx, id, req);
                }
            }
            View::AllWallets | View::ConnectingWalletConnectBasic => {
                let id = ctx.request_id();
                if let Some(req) = self.catalogue.request_first_page(id) {
                    self.fetch_wallets(ctx, id, req);
                }
                if view == View::ConnectingWalletConnectBasic && idle {
                    self.connect_walletconnect(ctx, None);
                }
            }
            View::ConnectingWalletConnect if idle => self.connect_walletconnect(ctx, None),
            _ => {}
        }
    }

    /// `GET /getWallets` for one request, with the host's `wallets` choice: the featured ones are
    /// asked by id and left out of the plain list (shown before it), `include`/`exclude` and the
    /// certified badge apply to every other list.
    fn fetch_wallets(&mut self, ctx: &mut Ctx, id: u64, req: PageRequest) {
        let chains: Vec<String> = ctx.networks.iter().map(|n| n.caip_network_id.clone()).collect();
        let chains = crate::service::text::join(&chains, ",");
        let w = &ctx.opts.wallets;
        let (page, entries) = (req.page.to_string(), req.entries.to_string());
        let mut exclude = String::new();
        let (include, badge) = if req.featured {
            (&w.featured, "")
        } else {
            exclude.push_str(&w.exclude);
            if req.search.is_empty() && !w.featured.is_empty() {
                if !exclude.is_empty() {
                    exclude.push(',');
                }
                exclude.push_str(&w.featured);
            }
            (&w.include, if w.certified { "certified" } else { "" })
        };
        let url = ctx.api_url_strs(
            "/getWallets",
            &[("page", &page), ("entries", &entries), ("search", &req.search), ("chains", &chains), ("include", include), ("exclude", &exclude), ("badge_type", badge)],
        );
        self.requests.insert(id, Asked::Catalogue);
        ctx.fetch(id, url, None);
    }

    fn listing(&self, id: &str) -> Option<&WalletListing> {
        self.catalogue.items.iter().chain(&self.catalogue.recommended).chain(&self.catalogue.featured).find(|w| w.id == id)
    }

    // ----- connecting -----

    fn select_connector(&mut self, ctx: &mut Ctx, id: &str) {
        // A wallet of several families connects in the active namespace when it can.
        let Some(wallet) = self.discovery.for_namespace(id, ctx.active_namespace()) else {
            // The WalletConnect row, or a catalogue wallet that is not installed: pairing.
            let listing = self.listing(id).cloned();
            if listing.is_none() && id != WALLETCONNECT_ID {
                return; // neither installed, nor in the catalogue, nor WalletConnect: nothing to connect
            }
            let view = ctx.router.view();
            if listing.is_some() && view != View::ConnectingWalletConnect
                || id == WALLETCONNECT_ID && !matches!(view, View::ConnectingWalletConnect | View::ConnectingWalletConnectBasic)
            {
                ctx.router.push(View::ConnectingWalletConnect);
            }
            return self.connect_walletconnect(ctx, listing);
        };
        self.cancel_pairing(ctx, false);
        self.connecting = Some(Connecting { connector_id: wallet.id.clone(), error: None });
        if ctx.router.view() != View::ConnectingExternal {
            ctx.router.push(View::ConnectingExternal);
        }
        ctx.conn.set_status(wallet.namespace, Status::Connecting);
        if !self.ask_accounts(ctx, wallet.namespace, &wallet.id, false) {
            self.connect_failed(ctx, wallet.namespace, &wallet.id, WmError::FailedToConnect);
        }
    }

    /// Asks the shell's WalletConnect connector for accounts: it pairs (the URI comes back as a
    /// `WalletConnectUri` event) and answers once the wallet approved. One request at a time; a
    /// request already under way keeps its URI.
    fn connect_walletconnect(&mut self, ctx: &mut Ctx, wallet: Option<WalletListing>) {
        let pending = self.requests.any(|a| is_prompt(a, WALLETCONNECT_ID));
        self.pairing.get_or_insert_with(Pairing::default).wallet = wallet;
        self.connecting = Some(Connecting { connector_id: WALLETCONNECT_ID.into(), error: None });
        if pending {
            return;
        }
        let Some(ns) = ctx.namespace_where(|ns| family::has_wallet(ns)) else { return self.connect_failed(ctx, "", WALLETCONNECT_ID, WmError::FailedToConnect) };
        ctx.conn.set_status(&ns, Status::Connecting);
        self.ask_accounts(ctx, &ns, WALLETCONNECT_ID, false);
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
    fn cancel_pairing(&mut self, ctx: &mut Ctx, closing: bool) {
        if self.pairing.take().is_none() {
            return;
        }
        if !self.requests.drop_where(|a| is_prompt(a, WALLETCONNECT_ID)) {
            return;
        }
        if self.connecting.as_ref().is_some_and(|c| c.connector_id == WALLETCONNECT_ID) {
            self.connecting = None;
        }
        if !self.requests.any(|a| matches!(a, Asked::Accounts { reconnect: false, .. })) {
            for ns in ctx.namespaces() {
                if ctx.conn.status(&ns) == Status::Connecting {
                    let status = if ctx.conn.current(&ns).is_some() { Status::Connected } else { Status::Disconnected };
                    ctx.conn.set_status(&ns, status);
                }
            }
        }
        ctx.push(Effect::ReleaseProvider { connector_id: WALLETCONNECT_ID.into() });
        if closing {
            ctx.emit_error(&WmError::ModalClosed);
        }
    }

    /// The name shown for a connector: the announced wallet's, or WalletConnect's.
    fn connector_name(&self, connector_id: &str) -> String {
        match self.discovery.find(connector_id) {
            Some(w) => w.name,
            None if connector_id == WALLETCONNECT_ID => "WalletConnect".into(),
            None if connector_id == EMBEDDED_ID => "Embedded Wallet".into(),
            None => String::new(),
        }
    }

    fn connect_failed(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, error: WmError) {
        let status = if ctx.conn.current(namespace).is_some() { Status::Connected } else { Status::Disconnected };
        ctx.conn.set_status(namespace, status);
        ctx.emit_error(&error);
        self.connecting = Some(Connecting { connector_id: connector_id.into(), error: Some(error) });
    }

    fn reconnect_failed(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str) {
        ctx.conn.on_disconnect(namespace, connector_id);
        if ctx.conn.current(namespace).is_none() {
            ctx.conn.set_status(namespace, Status::Disconnected);
        }
        ctx.persist_connections();
    }

    fn connected_to(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str, accounts: Vec<String>, chain: String, reconnect: bool) {
        let was_unsupported = ctx.network(&chain).is_none();
        let connection = Connection { connector_id: connector_id.into(), accounts, caip_network_id: chain.clone() };
        let change = if reconnect { ctx.conn.on_reconnect(namespace, connection) } else { ctx.conn.on_connect(namespace, connection) };
        self.connecting = None;
        if connector_id == WALLETCONNECT_ID {
            self.pairing = None;
        }
        if !was_unsupported {
            ctx.active_network = Some(chain.clone());
            ctx.persist_active_network(&chain);
        }
        self.recent = storage::push_recent(&self.recent, connector_id);
        let (k, v) = storage::encode_recent_wallets(&self.recent);
        ctx.persist(&k, Some(v));
        let (k, v) = storage::encode_wallet_id(connector_id);
        ctx.persist(&k, Some(v));
        ctx.persist_connections();
        if change.connected {
            let detail = self.account_detail(ctx, namespace, reconnect);
            ctx.emit("connect", detail);
        }
        ctx.note(Note::Connected);
        if ctx.modal.open {
            if was_unsupported && ctx.opts.enable_network_switch {
                ctx.router.reset(View::UnsupportedChain);
            } else if !reconnect {
                ctx.close();
            }
        }
    }

    fn account_detail(&self, ctx: &Ctx, namespace: &str, reconnect: bool) -> Value {
        let c = ctx.conn.current(namespace);
        let address = ctx.conn.address(namespace).unwrap_or_default();
        let chain = c.map(|c| c.caip_network_id.clone()).unwrap_or_default();
        let connector_id = c.map(|c| c.connector_id.clone()).unwrap_or_default();
        let name = self.connector_name(&connector_id);
        obj(vec![
            ("namespace", namespace.into()),
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

    fn provider_event(&mut self, ctx: &mut Ctx, connector_id: &str, name: &str, data: &Value) {
        // The namespace this wallet is connected in, if it is the current connection of one.
        let Some(namespace) = ctx.conn.namespace_of(connector_id).map(str::to_string) else { return };
        let Some(a) = family::wallet(&namespace) else { return };
        match name {
            "accountsChanged" => {
                let Some(accounts) = a.parse_accounts(data).or_else(|| data.as_array().filter(|a| a.is_empty()).map(|_| Vec::new())) else { return };
                let change = ctx.conn.on_accounts_changed(&namespace, connector_id, accounts);
                if change.disconnected {
                    self.after_disconnect(ctx, &namespace, connector_id);
                } else if change.accounts_changed {
                    ctx.persist_connections();
                    let detail = self.account_detail(ctx, &namespace, false);
                    ctx.emit("accountschange", detail);
                    ctx.note(Note::AccountsChanged);
                }
            }
            "chainChanged" => {
                let Some(chain) = a.parse_chain(data) else { return };
                ctx.chain_changed(&namespace, connector_id, &chain);
            }
            "disconnect" => {
                ctx.conn.on_disconnect(&namespace, connector_id);
                self.after_disconnect(ctx, &namespace, connector_id);
            }
            _ => {}
        }
    }

    // ----- disconnecting -----

    fn disconnect(&mut self, ctx: &mut Ctx, namespace: Option<&str>) {
        let namespaces: Vec<String> = match namespace {
            Some(ns) => vec![ns.to_string()],
            None => ctx.namespaces(),
        };
        for ns in namespaces {
            let ids: Vec<String> = ctx.conn.connections(&ns).iter().map(|c| c.connector_id.clone()).collect();
            if ids.is_empty() {
                continue;
            }
            if let Some(revoke) = family::wallet(&ns).and_then(|a| a.revoke_call()) {
                for id in &ids {
                    // Best effort: wallets that support it drop the site's permission.
                    let rid = ctx.wallet_request(id, revoke.clone());
                    self.requests.insert(rid, Asked::Ignore);
                }
            }
            ctx.conn.disconnect_all(&ns);
            for id in ids {
                self.after_disconnect(ctx, &ns, &id);
            }
        }
    }

    fn after_disconnect(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str) {
        ctx.persist_connections();
        let gone = ctx.conn.current(namespace).is_none();
        if gone {
            ctx.persist(storage::KEY_WALLET_ID, None);
            for key in CLEARED_ON_DISCONNECT {
                let key = match key {
                    "emailCache" => storage::KEY_EMAIL_CACHE,
                    "lastUsedChain" => storage::KEY_LAST_USED_CHAIN,
                    _ => storage::KEY_SOCIAL_USERNAME,
                };
                ctx.persist(key, None);
            }
        }
        ctx.push(Effect::ReleaseProvider { connector_id: connector_id.into() });
        ctx.emit("disconnect", obj(vec![("namespace", namespace.into()), ("connectorId", connector_id.into())]));
        if gone {
            ctx.note(Note::Disconnected);
        }
        if ctx.modal.open && !ctx.connected() {
            ctx.router.reset(View::Connect);
            ctx.shown();
        }
    }

    // ----- snapshot -----

    /// The header title of the connecting views while the connection failed ('Connection
    /// rejected'), and the names of the connectors known, for the other slices.
    fn title(&self, ctx: &mut Ctx) {
        ctx.title = self.connecting.as_ref().and_then(|c| c.error.as_ref()).map(|e| {
            if matches!(e, WmError::ConnectionRejected) { "Connection rejected" } else { "Connection failed" } // i18n
        });
        let installed = self.discovery.installed();
        if ctx.connector_names.len() != installed.len() + 2 {
            ctx.connector_names = installed.into_iter().map(|w| (w.id, w.name)).collect();
            ctx.connector_names.push((WALLETCONNECT_ID.into(), "WalletConnect".into()));
            ctx.connector_names.push((EMBEDDED_ID.into(), "Embedded Wallet".into()));
        }
    }

    fn rows(&self, ctx: &Ctx) -> Vec<ConnectorRow> {
        connector_rows(&self.discovery, &self.recent, &self.catalogue.featured, &self.catalogue.recommended, true, |id| ctx.image_url(id))
    }

    /// ConnectingExternal / the pairing views' progress: the wallet, pending or failed.
    fn write_connecting(&self, w: &mut Writer) {
        let Some(c) = self.connecting.as_ref() else {
            w.null();
            return;
        };
        let pairing_wallet = self.pairing.as_ref().and_then(|p| p.wallet.as_ref());
        let found = self.discovery.find(&c.connector_id);
        let name = match (&found, pairing_wallet) {
            (Some(f), _) => f.name.as_str(),
            (None, Some(p)) if c.connector_id == WALLETCONNECT_ID => p.name.as_str(),
            (None, _) if c.connector_id == WALLETCONNECT_ID => "WalletConnect",
            (None, _) => c.connector_id.as_str(),
        };
        w.begin_object().key("connectorId").str(&c.connector_id).key("name").str(name);
        w.key("icon").opt_str(found.as_ref().and_then(|f| f.icon.as_deref()));
        w.key("state").str(if c.error.is_some() { "error" } else { "pending" }).key("error");
        write_error(w, c.error.as_ref());
        w.end_object();
    }

    /// A WalletConnect pairing shown: the URI (QR code, link) and the catalogue wallet chosen,
    /// with its deep links ready to open.
    fn write_wallet_connect(&self, ctx: &Ctx, w: &mut Writer) {
        let Some(p) = self.pairing.as_ref() else {
            w.null();
            return;
        };
        w.begin_object().key("uri").opt_str(p.uri.as_deref()).key("expiresAtMs");
        match p.expires_at_ms {
            Some(ms) => w.u64(ms),
            None => w.null(),
        };
        w.key("wallet");
        match p.wallet.as_ref() {
            Some(l) => {
                // The app links carrying the URI: the mobile app on phones, the desktop app
                // elsewhere, the web app everywhere; unsafe catalogue links are dropped.
                let link = |base: &Option<String>, offered: bool| {
                    p.uri.as_deref().zip(base.as_deref().filter(|_| offered)).and_then(|(uri, base)| url::wallet_deep_link(base, uri))
                };
                let image = (!l.image_id.is_empty()).then(|| ctx.image_url(&l.image_id));
                w.begin_object().key("id").str(&l.id).key("name").str(&l.name).key("imageUrl").opt_str(image.as_deref());
                w.key("mobileLink").opt_str(link(&l.mobile_link, ctx.opts.mobile).as_deref());
                w.key("desktopLink").opt_str(link(&l.desktop_link, !ctx.opts.mobile).as_deref());
                w.key("webappLink").opt_str(link(&l.webapp_link, true).as_deref());
                w.end_object();
            }
            None => {
                w.null();
            }
        }
        w.end_object();
    }

    /// AllWallets: the catalogue page(s) shown, the search, and where loading stands.
    fn write_all_wallets(&self, ctx: &Ctx, w: &mut Writer) {
        let c = &self.catalogue;
        w.begin_object().key("items").begin_array();
        // The host's featured wallets first, unless the visitor searches.
        let featured = if c.query.is_empty() { &c.featured[..] } else { &[] };
        for l in featured.iter().chain(&c.items) {
            let image = (!l.image_id.is_empty()).then(|| ctx.image_url(&l.image_id));
            w.begin_object().key("id").str(&l.id).key("name").str(&l.name).key("imageUrl").opt_str(image.as_deref());
            w.key("installed").bool(l.rdns.as_deref().is_some_and(|r| self.discovery.is_installed_rdns(r)));
            w.end_object();
        }
        w.end_array();
        w.key("count").u64(c.count).key("query").str(&c.query).key("loading").bool(c.loading).key("hasMore").bool(c.has_more() && !c.failed);
        w.key("error");
        if c.failed {
            w.begin_object().key("code").i64(5000).key("key").str("WALLETS_UNAVAILABLE").key("message").str(WALLETS_FAILED).end_object();
        } else {
            w.null();
        }
        w.end_object();
    }
}
