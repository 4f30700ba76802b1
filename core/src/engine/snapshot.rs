//! The plain state the views render (element/ts/protocol.ts mirrors it) and `getState()` returns.

use crate::connection::Status;
use crate::errors::WmError;
use crate::router::View;
use crate::wallets::ConnectorRow;
use crate::json::{obj, Value};
use crate::vecmap::VecMap;

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

/// The catalogue wallet chosen for a WalletConnect pairing (its deep links).
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
    pub title: &'static str,
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
}

// ----- JSON (field names in camelCase; protocol.ts mirrors them) -----

impl ErrorInfo {
    pub fn to_json(&self) -> Value {
        obj(vec![("code", self.code.into()), ("key", self.key.into()), ("message", self.message.as_str().into())])
    }
}

fn error_json(e: &Option<ErrorInfo>) -> Value {
    e.as_ref().map_or(Value::Null, ErrorInfo::to_json)
}

fn opt(s: &Option<String>) -> Value {
    s.as_deref().into()
}

impl NetworkView {
    pub fn to_json(&self) -> Value {
        obj(vec![
            ("caipNetworkId", self.caip_network_id.as_str().into()),
            ("name", self.name.as_str().into()),
            ("namespace", self.namespace.as_str().into()),
            ("symbol", self.symbol.as_str().into()),
            ("testnet", self.testnet.into()),
            ("active", self.active.into()),
            ("imageUrl", opt(&self.image_url)),
        ])
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
    pub fn to_json(&self) -> Value {
        obj(vec![
            ("id", self.id.as_str().into()),
            ("name", self.name.as_str().into()),
            ("icon", opt(&self.icon)),
            ("kind", self.kind.name().into()),
            ("installed", self.installed.into()),
        ])
    }
}

impl Snapshot {
    /// The snapshot as the shell receives it (and `getState()` returns it).
    pub fn to_json(&self) -> Value {
        let account = self.account.as_ref().map_or(Value::Null, |a| {
            obj(vec![
                ("namespace", a.namespace.as_str().into()),
                ("address", a.address.as_str().into()),
                ("caipAddress", a.caip_address.as_str().into()),
                ("shortAddress", a.short_address.as_str().into()),
                ("avatar", a.avatar.clone().into()),
                ("balance", opt(&a.balance)),
                ("balanceSymbol", a.balance_symbol.as_str().into()),
                ("connectorId", a.connector_id.as_str().into()),
                ("connectorName", a.connector_name.as_str().into()),
                ("explorerUrl", opt(&a.explorer_url)),
            ])
        });
        let connecting = self.connecting.as_ref().map_or(Value::Null, |c| {
            obj(vec![
                ("connectorId", c.connector_id.as_str().into()),
                ("name", c.name.as_str().into()),
                ("icon", opt(&c.icon)),
                ("state", c.state.into()),
                ("error", error_json(&c.error)),
            ])
        });
        let wallet_connect = self.wallet_connect.as_ref().map_or(Value::Null, |w| {
            let wallet = w.wallet.as_ref().map_or(Value::Null, |p| {
                obj(vec![
                    ("id", p.id.as_str().into()),
                    ("name", p.name.as_str().into()),
                    ("imageUrl", opt(&p.image_url)),
                    ("mobileLink", opt(&p.mobile_link)),
                    ("desktopLink", opt(&p.desktop_link)),
                    ("webappLink", opt(&p.webapp_link)),
                ])
            });
            obj(vec![("uri", opt(&w.uri)), ("expiresAtMs", w.expires_at_ms.into()), ("wallet", wallet)])
        });
        let switching = self.switching.as_ref().map_or(Value::Null, |s| {
            obj(vec![("target", s.target.to_json()), ("state", s.state.into()), ("error", error_json(&s.error))])
        });
        let w = &self.all_wallets;
        let items = w
            .items
            .iter()
            .map(|i| {
                obj(vec![
                    ("id", i.id.as_str().into()),
                    ("name", i.name.as_str().into()),
                    ("imageUrl", opt(&i.image_url)),
                    ("installed", i.installed.into()),
                ])
            })
            .collect();
        let all_wallets = obj(vec![
            ("items", Value::Array(items)),
            ("count", w.count.into()),
            ("query", w.query.as_str().into()),
            ("loading", w.loading.into()),
            ("hasMore", w.has_more.into()),
            ("error", error_json(&w.error)),
        ]);
        let status = Value::Object(self.status.iter().map(|(k, v)| (k.clone(), v.name().into())).collect());
        obj(vec![
            ("open", self.open.into()),
            ("embedded", self.embedded.into()),
            ("loading", self.loading.into()),
            ("shake", self.shake.into()),
            ("view", self.view.name().into()),
            ("title", self.title.into()),
            ("canGoBack", self.can_go_back.into()),
            ("canClose", self.can_close.into()),
            ("themeMode", self.theme_mode.into()),
            ("connectMethods", self.connect_methods.clone().into()),
            ("socials", self.socials.clone().into()),
            ("connectors", Value::Array(self.connectors.iter().map(ConnectorRow::to_json).collect())),
            ("status", status),
            ("account", account),
            ("network", self.network.as_ref().map_or(Value::Null, NetworkView::to_json)),
            ("networks", Value::Array(self.networks.iter().map(NetworkView::to_json).collect())),
            ("connecting", connecting),
            ("walletConnect", wallet_connect),
            ("switching", switching),
            ("allWallets", all_wallets),
            ("configError", error_json(&self.config_error)),
            ("imagePreloadTimeoutMs", self.image_preload_timeout_ms.into()),
        ])
    }
}
