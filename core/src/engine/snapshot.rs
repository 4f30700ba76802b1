//! The plain state the views render (element/ts/protocol.ts mirrors it) and `getState()` returns.

use crate::connection::Status;
use crate::errors::WmError;
use crate::router::View;
use crate::wallets::ConnectorRow;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkView {
    pub caip_network_id: String,
    pub name: String,
    pub namespace: String,
    pub symbol: String,
    pub testnet: bool,
    pub active: bool,
    pub image_url: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectingView {
    pub connector_id: String,
    pub name: String,
    pub icon: Option<String>,
    pub state: &'static str,
    pub error: Option<ErrorInfo>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SwitchingView {
    pub target: NetworkView,
    pub state: &'static str,
    pub error: Option<ErrorInfo>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletListingView {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub installed: bool,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllWalletsView {
    pub items: Vec<WalletListingView>,
    pub count: u64,
    pub query: String,
    pub loading: bool,
    pub has_more: bool,
    pub error: Option<ErrorInfo>,
}

/// The catalogue wallet chosen for a WalletConnect pairing (its deep links).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairingWalletView {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub mobile_link: Option<String>,
    pub desktop_link: Option<String>,
    pub webapp_link: Option<String>,
}

/// A WalletConnect pairing in progress: the URI shown as QR code and link.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletConnectView {
    pub uri: Option<String>,
    pub expires_at_ms: Option<u64>,
    pub wallet: Option<PairingWalletView>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
    pub status: BTreeMap<String, Status>,
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
