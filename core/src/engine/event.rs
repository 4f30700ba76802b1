//! Events the shell sends to the engine: host calls, view intents, wallet and server answers, timers.

use crate::router::View;
use serde::Deserialize;
use std::collections::BTreeMap;

/// An EIP-1193 / JSON-RPC error as a wallet reported it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ProviderError {
    #[serde(default)]
    pub code: Option<i64>,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Event {
    /// The element is connected to the page: persisted values and whether window.ethereum exists.
    Start {
        #[serde(default)]
        storage: BTreeMap<String, String>,
        #[serde(default)]
        legacy_provider: bool,
    },
    /// Host `open({view, namespace})`.
    Open {
        #[serde(default)]
        view: Option<View>,
        #[serde(default)]
        namespace: Option<String>,
    },
    Close,
    Back,
    Navigate { view: View },
    /// The modal should shake (e.g. a blocked close).
    Shake,
    /// The theme in force changed (light or dark after resolving `system`).
    Theme { dark: bool },
    /// An EIP-6963 announcement (the provider object itself stays in the shell).
    Announce {
        #[serde(default)]
        uuid: String,
        #[serde(default)]
        name: String,
        #[serde(default)]
        icon: String,
        #[serde(default)]
        rdns: String,
    },
    /// A Connect/AllWallets row was chosen.
    SelectConnector { id: String },
    /// A catalogue wallet was chosen.
    SelectWallet { id: String },
    Retry,
    SearchWallets { query: String },
    LoadMoreWallets,
    /// Host `switchNetwork()` or the SwitchNetwork view.
    SwitchNetwork { caip_network_id: String },
    /// Host `disconnect(namespace?)` or the Account view.
    Disconnect {
        #[serde(default)]
        namespace: Option<String>,
    },
    CopyAddress,
    /// The answer to a `ProviderRequest` effect.
    ProviderResult {
        id: u64,
        #[serde(default)]
        result: Option<serde_json::Value>,
        #[serde(default)]
        error: Option<ProviderError>,
    },
    /// A wallet event: `accountsChanged`, `chainChanged`, `disconnect`.
    ProviderEvent {
        connector_id: String,
        name: String,
        #[serde(default)]
        data: serde_json::Value,
    },
    /// The answer to a `Fetch` effect (`status` 0 = network failure or time-out).
    FetchResult { id: u64, status: u16, #[serde(default)] body: String },
    /// A `StartTimer` effect fired.
    Timer { id: String },
}
