//! The plain state the views render (element/ts/protocol.ts mirrors it) and `getState()` returns.

use crate::connect::connection::Status;
use crate::service::errors::WmError;
use crate::ui::router::View;
use crate::connect::wallets::ConnectorRow;
use crate::service::json::Writer;
use crate::service::vecmap::VecMap;

#[derive(Clone, Debug)]
pub struct ErrorInfo {
    pub code: i64,
    pub key: &'static str,
    pub message: String,
}

impl From<&WmError> for ErrorInfo {
    fn from(e: &WmError) -> Self {
        ErrorInfo { code: e.code(), key: e.key(), message: e.message() }
    }
}

#[derive(Clone, Debug)]
pub struct NetworkView {
    pub caip_network_id: String,
    pub name: String,
    pub namespace: String,
    pub symbol: String,
    pub testnet: bool,
    pub active: bool,
    pub image_url: Option<String>,
}

#[derive(Clone, Debug)]
pub struct AccountView {
    pub namespace: String,
    pub address: String,
    pub caip_address: String,
    pub short_address: String,
    pub avatar: Vec<String>,
    pub balance: Option<String>,
    pub balance_symbol: String,
    pub connector_id: String,
    pub connector_name: String,
    pub explorer_url: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ConnectingView {
    pub connector_id: String,
    pub name: String,
    pub icon: Option<String>,
    pub state: &'static str,
    pub error: Option<ErrorInfo>,
}

#[derive(Clone, Debug)]
pub struct SwitchingView {
    pub target: NetworkView,
    pub state: &'static str,
    pub error: Option<ErrorInfo>,
}

#[derive(Clone, Debug)]
pub struct WalletListingView {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub installed: bool,
}

#[derive(Clone, Debug)]
pub struct AllWalletsView {
    pub items: Vec<WalletListingView>,
    pub count: u64,
    pub query: String,
    pub loading: bool,
    pub has_more: bool,
    pub error: Option<ErrorInfo>,
}

/// The catalogue wallet chosen for a WalletConnect pairing, with its deep links ready to open:
/// each carries the pairing URI (`scheme://wc?uri=…` or `https://…/wc?uri=…`) and is `None` until
/// there is a URI, when the catalogue has no safe link of that kind, or when it is not offered here
/// (the mobile app only on mobile, the desktop app only elsewhere).
#[derive(Clone, Debug)]
pub struct PairingWalletView {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub mobile_link: Option<String>,
    pub desktop_link: Option<String>,
    pub webapp_link: Option<String>,
}

/// A WalletConnect pairing in progress: the URI shown as QR code and link.
#[derive(Clone, Debug)]
pub struct WalletConnectView {
    pub uri: Option<String>,
    pub expires_at_ms: Option<u64>,
    pub wallet: Option<PairingWalletView>,
}

#[derive(Clone, Debug)]
pub struct Snapshot {
    pub open: bool,
    pub embedded: bool,
    pub loading: bool,
    pub shake: bool,
    pub view: View,
    pub title: String,
    pub can_go_back: bool,
    pub can_close: bool,
    pub theme_mode: &'static str,
    pub connect_methods: Vec<&'static str>,
    pub socials: Vec<String>,
    pub connectors: Vec<ConnectorRow>,
    pub status: VecMap<String, Status>,
    pub account: Option<AccountView>,
    pub network: Option<NetworkView>,
    pub networks: Vec<NetworkView>,
    pub connecting: Option<ConnectingView>,
    pub wallet_connect: Option<WalletConnectView>,
    pub switching: Option<SwitchingView>,
    pub all_wallets: AllWalletsView,
    pub config_error: Option<ErrorInfo>,
    pub image_preload_timeout_ms: u64,
    /// The Account view's buttons in the spec's walletFeaturesOrder ("onramp", "swaps", "receive",
    /// "send"), each only when its feature is on and the connected family supports it.
    /// (written as `walletFeatures`: the on ones of "onramp", "swaps", "receive", "send")
    pub onramp: bool,
    pub swaps: bool,
    /// The project's own swap networks (CAIP-2) besides the spec's list (its config's
    /// `swapNetworks`), for the Swap screen.
    pub swap_networks: Vec<String>,
    /// The notification banner showing, if any.
    pub banner: Option<BannerView>,
    /// The method of the newest host request (through `getProvider()`) waiting for the visitor's
    /// approval in the wallet ("Approve in your wallet").
    pub wallet_request: Option<String>,
}

/// The notification banner: variant `loading`, `success` or `error`, and its text.
#[derive(Clone, Debug)]
pub struct BannerView {
    pub variant: &'static str,
    pub message: String,
}

// ----- JSON (field names in camelCase; protocol.ts mirrors them) -----

impl ErrorInfo {
    pub fn write_json(&self, w: &mut Writer) {
        w.begin_object().key("code").i64(self.code).key("key").str(self.key).key("message").str(&self.message).end_object();
    }
}

fn error(w: &mut Writer, e: &Option<ErrorInfo>) {
    match e {
        Some(e) => e.write_json(w),
        None => {
            w.null();
        }
    }
}

impl NetworkView {
    pub fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("caipNetworkId").str(&self.caip_network_id).key("name").str(&self.name).key("namespace").str(&self.namespace);
        w.key("symbol").str(&self.symbol).key("testnet").bool(self.testnet).key("active").bool(self.active);
        w.key("imageUrl").opt_str(self.image_url.as_deref());
        w.end_object();
    }
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Disconnected => "disconnected",
            Status::Connecting => "connecting",
            Status::Reconnecting => "reconnecting",
            Status::Connected => "connected",
        }
    }
}

impl ConnectorRow {
    pub fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("id").str(&self.id).key("name").str(&self.name).key("icon").opt_str(self.icon.as_deref());
        w.key("kind").str(self.kind.name()).key("installed").bool(self.installed);
        w.end_object();
    }
}

impl AccountView {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("namespace").str(&self.namespace).key("address").str(&self.address).key("caipAddress").str(&self.caip_address);
        w.key("shortAddress").str(&self.short_address).key("avatar").strs(&self.avatar);
        w.key("balance").opt_str(self.balance.as_deref()).key("balanceSymbol").str(&self.balance_symbol);
        w.key("connectorId").str(&self.connector_id).key("connectorName").str(&self.connector_name);
        w.key("explorerUrl").opt_str(self.explorer_url.as_deref());
        w.end_object();
    }
}

impl ConnectingView {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("connectorId").str(&self.connector_id).key("name").str(&self.name).key("icon").opt_str(self.icon.as_deref());
        w.key("state").str(self.state).key("error");
        error(w, &self.error);
        w.end_object();
    }
}

impl WalletConnectView {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("uri").opt_str(self.uri.as_deref()).key("expiresAtMs");
        match self.expires_at_ms {
            Some(ms) => w.u64(ms),
            None => w.null(),
        };
        w.key("wallet");
        match &self.wallet {
            Some(p) => {
                w.begin_object();
                w.key("id").str(&p.id).key("name").str(&p.name).key("imageUrl").opt_str(p.image_url.as_deref());
                w.key("mobileLink").opt_str(p.mobile_link.as_deref()).key("desktopLink").opt_str(p.desktop_link.as_deref());
                w.key("webappLink").opt_str(p.webapp_link.as_deref());
                w.end_object();
            }
            None => {
                w.null();
            }
        }
        w.end_object();
    }
}

impl SwitchingView {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object().key("target");
        self.target.write_json(w);
        w.key("state").str(self.state).key("error");
        error(w, &self.error);
        w.end_object();
    }
}

impl AllWalletsView {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object().key("items").begin_array();
        for i in &self.items {
            w.begin_object();
            w.key("id").str(&i.id).key("name").str(&i.name).key("imageUrl").opt_str(i.image_url.as_deref());
            w.key("installed").bool(i.installed);
            w.end_object();
        }
        w.end_array();
        w.key("count").u64(self.count).key("query").str(&self.query).key("loading").bool(self.loading).key("hasMore").bool(self.has_more);
        w.key("error");
        error(w, &self.error);
        w.end_object();
    }
}

/// `Some` written with `write`, `None` as `null`.
fn optional<T>(w: &mut Writer, v: &Option<T>, write: impl FnOnce(&T, &mut Writer)) {
    match v {
        Some(v) => write(v, w),
        None => {
            w.null();
        }
    }
}

impl Snapshot {
    /// The snapshot as the shell receives it (and `getState()` returns it).
    pub fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        w.key("open").bool(self.open).key("embedded").bool(self.embedded).key("loading").bool(self.loading).key("shake").bool(self.shake);
        w.key("view").str(self.view.name()).key("title").str(&self.title).key("canGoBack").bool(self.can_go_back);
        w.key("canClose").bool(self.can_close).key("themeMode").str(self.theme_mode);
        w.key("connectMethods").strs(&self.connect_methods).key("socials").strs(&self.socials);
        w.key("connectors").begin_array();
        for c in &self.connectors {
            c.write_json(w);
        }
        w.end_array();
        w.key("status").begin_object();
        for (ns, status) in self.status.iter() {
            w.key(ns).str(status.name());
        }
        w.end_object();
        w.key("account");
        optional(w, &self.account, AccountView::write_json);
        w.key("network");
        optional(w, &self.network, NetworkView::write_json);
        w.key("networks").begin_array();
        for n in &self.networks {
            n.write_json(w);
        }
        w.end_array();
        w.key("connecting");
        optional(w, &self.connecting, ConnectingView::write_json);
        w.key("walletConnect");
        optional(w, &self.wallet_connect, WalletConnectView::write_json);
        w.key("switching");
        optional(w, &self.switching, SwitchingView::write_json);
        w.key("allWallets");
        self.all_wallets.write_json(w);
        w.key("configError");
        error(w, &self.config_error);
        w.key("imagePreloadTimeoutMs").u64(self.image_preload_timeout_ms);
        let features: &[&str] = match (self.onramp, self.swaps) {
            (true, true) => &["onramp", "swaps", "receive", "send"],
            (true, false) => &["onramp", "receive", "send"],
            (false, true) => &["swaps", "receive", "send"],
            (false, false) => &["receive", "send"],
        };
        w.key("walletFeatures").strs(features);
        w.key("swapNetworks").strs(&self.swap_networks);
        w.key("banner");
        optional(w, &self.banner, |b, w| {
            w.begin_object().key("variant").str(b.variant).key("message").str(&b.message).end_object();
        });
        w.key("walletRequest").opt_str(self.wallet_request.as_deref());
        w.end_object();
    }

    /// [`Snapshot::write_json`] into a new string.
    pub fn to_json_string(&self) -> String {
        let mut w = Writer::new();
        self.write_json(&mut w);
        w.finish()
    }
}
