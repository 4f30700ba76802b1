//! Entities of spec section 3 as serde types whose JSON uses the API field names.
//!
//! Shared by the modal and the demo backend (config, origins, wallet catalogue, analytics).
//! Most types use camelCase JSON (`caipNetworkId`, `chainNamespace`, …); the wallet listing and the
//! on-ramp currency use snake_case as the APIs do (`image_id`, `mobile_link`, `display_name`, …).
//!
//! ## `GET /appkit/v1/config` JSON shape ([`ProjectConfig`])
//! ```json
//! { "features": { "email": true,
//!                 "socials": ["google", "x", "discord", "farcaster", "github", "apple", "facebook"],
//!                 "swaps": ["1inch"], "onramp": ["meld", "coinbase"],
//!                 "activity": true, "reownBranding": true, "multiWallet": false } }
//! ```
//! A list feature is off when its list is empty; a missing field is off (false / empty).
//! [`RemoteFeatures::default_remote`] gives the spec's default remote features (used when the
//! fetch fails); [`RemoteFeatures::none`] is basic mode (all remote features off).

use serde::{Deserialize, Serialize};
use crate::service::json::Value;
use std::collections::BTreeMap;
use std::fmt;

use crate::service::constants;

/// A chain reference: EVM ids are numbers, other namespaces use strings (CAIP-2 reference).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ChainRef {
    Number(u64),
    String(String),
}

impl ChainRef {
    /// The numeric value: a number, or a string of decimal digits (or `0x` hex).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            ChainRef::Number(n) => Some(*n),
            ChainRef::String(s) => {
                let s = s.trim();
                if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    if hex.is_empty() {
                        return None;
                    }
                    u64::from_str_radix(hex, 16).ok()
                } else if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                    s.parse().ok()
                } else {
                    None
                }
            }
        }
    }
}

impl fmt::Display for ChainRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainRef::Number(n) => write!(f, "{n}"),
            ChainRef::String(s) => f.write_str(s),
        }
    }
}

impl From<u64> for ChainRef {
    fn from(n: u64) -> Self {
        ChainRef::Number(n)
    }
}

impl From<&str> for ChainRef {
    fn from(s: &str) -> Self {
        ChainRef::String(s.to_string())
    }
}

/// A chain family's CAIP-2 namespace: one of the families this build knows, made only by
/// `ChainNamespace::parse` (in `chain::family`, with the family's facts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainNamespace(pub(crate) &'static str);

impl ChainNamespace {
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl Serialize for ChainNamespace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl fmt::Display for ChainNamespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// ---------------------------------------------------------------------------------------------
// Network
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NativeCurrency {
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RpcUrlList {
    pub http: Vec<String>,
    #[serde(rename = "webSocket", default, skip_serializing_if = "Vec::is_empty")]
    pub web_socket: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RpcUrls {
    pub default: RpcUrlList,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_default: Option<RpcUrlList>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockExplorer {
    pub name: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockExplorers {
    pub default: BlockExplorer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct NetworkAssets {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

/// A CAIP network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Network {
    pub id: ChainRef,
    pub caip_network_id: String,
    pub name: String,
    pub chain_namespace: ChainNamespace,
    pub native_currency: NativeCurrency,
    pub rpc_urls: RpcUrls,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_explorers: Option<BlockExplorers>,
    #[serde(default)]
    pub testnet: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<NetworkAssets>,
}

impl Network {
    /// First default HTTP RPC URL.
    pub fn default_rpc_url(&self) -> Option<&str> {
        self.rpc_urls.default.http.first().map(|s| s.as_str())
    }
    /// Default block explorer base URL.
    pub fn explorer_url(&self) -> Option<&str> {
        self.block_explorers.as_ref().map(|b| b.default.url.as_str())
    }
}

// ---------------------------------------------------------------------------------------------
// Wallet catalogue
// ---------------------------------------------------------------------------------------------

/// One entry of `GET /getWallets` (snake_case JSON as the API).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalletListing {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub image_id: String,
    #[serde(default)]
    pub rdns: Option<String>,
    #[serde(default)]
    pub chains: Vec<String>,
    #[serde(default)]
    pub mobile_link: Option<String>,
    #[serde(default)]
    pub desktop_link: Option<String>,
    #[serde(default)]
    pub webapp_link: Option<String>,
}

/// `GET /getWallets` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct WalletsPage {
    pub data: Vec<WalletListing>,
    pub count: u64,
}

// ---------------------------------------------------------------------------------------------
// Project configuration, origins, analytics
// ---------------------------------------------------------------------------------------------

/// Feature gates from the remote project configuration (see the module docs for the JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteFeatures {
    #[serde(default)]
    pub email: bool,
    #[serde(default)]
    pub socials: Vec<String>,
    #[serde(default)]
    pub swaps: Vec<String>,
    /// CAIP-2 networks where swaps are offered besides the built-in list (spec §9), e.g. a
    /// project's own chains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swap_networks: Vec<String>,
    #[serde(default)]
    pub onramp: Vec<String>,
    #[serde(default)]
    pub activity: bool,
    #[serde(default)]
    pub reown_branding: bool,
    #[serde(default)]
    pub multi_wallet: bool,
}

impl RemoteFeatures {
    /// The features as JSON (camelCase, as the remote configuration writes them).
    pub fn write_json(&self, w: &mut crate::service::json::Writer) {
        w.begin_object().key("email").bool(self.email).key("socials").strs(&self.socials).key("swaps").strs(&self.swaps);
        w.key("swapNetworks").strs(&self.swap_networks).key("onramp").strs(&self.onramp).key("activity").bool(self.activity);
        w.key("reownBranding").bool(self.reown_branding).key("multiWallet").bool(self.multi_wallet);
        w.end_object();
    }

    /// The spec's default remote features: swaps through one aggregator, onramp through two
    /// providers, email on, socials google, x, discord, farcaster, github, apple, facebook;
    /// activity and branding on, multi-wallet off.
    pub fn default_remote() -> Self {
        RemoteFeatures {
            email: true,
            socials: constants::DEFAULT_SOCIALS.iter().map(|s| s.to_string()).collect(),
            swaps: constants::DEFAULT_SWAP_PROVIDERS.iter().map(|s| s.to_string()).collect(),
            onramp: constants::DEFAULT_ONRAMP_PROVIDERS.iter().map(|s| s.to_string()).collect(),
            activity: true,
            reown_branding: true,
            multi_wallet: false,
            swap_networks: vec![],
        }
    }

    /// Basic mode: every remote feature off.
    pub fn none() -> Self {
        RemoteFeatures {
            email: false,
            socials: vec![],
            swaps: vec![],
            onramp: vec![],
            activity: false,
            reown_branding: false,
            multi_wallet: false,
            swap_networks: vec![],
        }
    }

    pub fn swaps_enabled(&self) -> bool {
        !self.swaps.is_empty()
    }
    pub fn onramp_enabled(&self) -> bool {
        !self.onramp.is_empty()
    }
    pub fn socials_enabled(&self) -> bool {
        !self.socials.is_empty()
    }
}

/// `GET /appkit/v1/config` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectConfig {
    pub features: RemoteFeatures,
}

/// `GET /projects/v1/origins` response (`{"allowedOrigins": [...]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct AllowedOrigins {
    pub allowed_origins: Vec<String>,
}

/// `POST /e` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsEvent {
    pub event_id: String,
    pub url: String,
    pub domain: String,
    /// Unix milliseconds.
    pub timestamp: u64,
    /// Event properties: `{"type": "track", "event": NAME, "address": …, "properties": …}`, or for
    /// error reports `{type, event, errorType, errorMessage, stackTrace}`.
    pub props: crate::service::json::Value,
}

impl AnalyticsEvent {
    /// The `POST /e` body, written without serde (the engine's WebAssembly path).
    pub fn to_json(&self) -> crate::service::json::Value {
        crate::service::json::obj(vec![
            ("eventId", self.event_id.as_str().into()),
            ("url", self.url.as_str().into()),
            ("domain", self.domain.as_str().into()),
            ("timestamp", self.timestamp.into()),
            ("props", self.props.clone()),
        ])
    }
}

/// `GET /getAnalyticsConfig` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsConfig {
    pub is_analytics_enabled: bool,
}

// ---------------------------------------------------------------------------------------------
// Balances, tokens, swaps
// ---------------------------------------------------------------------------------------------

/// Native balance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balance {
    pub balance: String,
    pub symbol: String,
}

/// Native balance cached with a timestamp (unix ms), per network and address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CachedBalance {
    pub balance: String,
    pub symbol: String,
    pub timestamp: u64,
}

/// Amount with decimals as strings (`quantity` of token balances and swap tokens).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TokenQuantity {
    pub decimals: String,
    pub numeric: String,
}

/// Token balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenBalance {
    pub name: String,
    pub symbol: String,
    /// CAIP-2 chain id (`namespace:reference`).
    pub chain_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Fiat value of the holding.
    #[serde(default)]
    pub value: f64,
    /// Fiat price of one token.
    #[serde(default)]
    pub price: f64,
    pub quantity: TokenQuantity,
    #[serde(default)]
    pub icon_url: String,
}

/// Swap token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SwapToken {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub symbol: String,
    pub address: String,
    pub decimals: u32,
    #[serde(default)]
    pub logo_uri: String,
    #[serde(default)]
    pub quantity: TokenQuantity,
    #[serde(default)]
    pub price: f64,
    #[serde(default)]
    pub value: f64,
}

// ---------------------------------------------------------------------------------------------
// On-ramp
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyNetwork {
    pub name: String,
    pub display_name: String,
    pub chain_id: String,
    pub contract_address: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentMethodLimit {
    pub id: String,
    pub min: String,
    pub max: String,
}

/// On-ramp currency (purchase token or fiat payment currency; snake_case as the API).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Currency {
    pub id: String,
    pub name: String,
    pub symbol: String,
    #[serde(default)]
    pub networks: Vec<CurrencyNetwork>,
    #[serde(default)]
    pub payment_method_limits: Vec<PaymentMethodLimit>,
}

/// On-ramp options (`GET /v1/onramp/options`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampOptions {
    pub payment_currencies: Vec<Currency>,
    pub purchase_currencies: Vec<Currency>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampProvider {
    pub name: String,
    pub label: String,
    pub fee_range: String,
    pub url: String,
    #[serde(default)]
    pub supported_chains: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyAmount {
    pub amount: String,
    pub currency: String,
}

/// On-ramp quote (`POST /v1/onramp/quote`; the product reads `purchaseAmount.amount`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampQuote {
    pub coinbase_fee: CurrencyAmount,
    pub network_fee: CurrencyAmount,
    pub payment_subtotal: CurrencyAmount,
    pub payment_total: CurrencyAmount,
    pub purchase_amount: CurrencyAmount,
    pub quote_id: String,
}

/// On-ramp state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OnrampState {
    pub providers: Vec<OnrampProvider>,
    pub selected_provider: Option<OnrampProvider>,
    pub purchase_currency: Option<Currency>,
    pub payment_currency: Option<Currency>,
    pub purchase_currencies: Vec<Currency>,
    pub payment_currencies: Vec<Currency>,
    pub payment_amount: Option<f64>,
    pub purchase_amount: Option<f64>,
    pub quotes_loading: bool,
    pub error: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TransactionMetadata {
    /// Operation type: send, receive, deposit, borrow, claim, withdraw, repay, burn, trade, …
    #[serde(default)]
    pub operation_type: String,
    #[serde(default)]
    pub hash: String,
    /// When mined: an RFC 3339 string (as the API gives) or decimal unix milliseconds.
    #[serde(default)]
    pub mined_at: String,
    #[serde(default)]
    pub sent_from: String,
    #[serde(default)]
    pub sent_to: String,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub nonce: u64,
    /// CAIP-2 chain id (`namespace:reference`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NftFlags {
    #[serde(default)]
    pub is_spam: bool,
}

/// An image of a transfer's token or NFT (`{"url": …}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ImageRef {
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NftContent {
    #[serde(default)]
    pub preview: Option<ImageRef>,
}

/// An NFT moved by a transfer. Names may be `null` (the service could not read them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NftInfo {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub content: Option<NftContent>,
    #[serde(default)]
    pub flags: NftFlags,
}

/// A fungible token moved by a transfer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct FungibleInfo {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub symbol: Option<String>,
    #[serde(default)]
    pub icon: Option<ImageRef>,
    /// Spam tokens are flagged like NFTs (the demo's service does; the hosted one leaves them out).
    #[serde(default)]
    pub flags: NftFlags,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TransferQuantity {
    #[serde(default)]
    pub numeric: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TransactionTransfer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fungible_info: Option<FungibleInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nft_info: Option<NftInfo>,
    /// in | out | self
    #[serde(default)]
    pub direction: String,
    #[serde(default)]
    pub quantity: TransferQuantity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
}

impl TransactionTransfer {
    /// Flagged spam: the NFT's flag, or the fungible token's.
    pub fn is_spam(&self) -> bool {
        self.nft_info.as_ref().is_some_and(|n| n.flags.is_spam) || self.fungible_info.as_ref().is_some_and(|f| f.flags.is_spam)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    pub id: String,
    pub metadata: TransactionMetadata,
    #[serde(default)]
    pub transfers: Vec<TransactionTransfer>,
}

/// One page of the transaction history (`data` and `next` cursor).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TransactionsPage {
    pub data: Vec<Transaction>,
    #[serde(default)]
    pub next: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Accounts, connectors, connections
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AccountType {
    Eoa,
    SmartAccount,
    Payment,
    Ordinal,
    Stx,
}

impl AccountType {
    pub fn as_str(&self) -> &'static str {
        match self {
            AccountType::Eoa => "eoa",
            AccountType::SmartAccount => "smartAccount",
            AccountType::Payment => "payment",
            AccountType::Ordinal => "ordinal",
            AccountType::Stx => "stx",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConnectionStatus {
    Disconnected,
    Connecting,
    Reconnecting,
    Connected,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AccountUser {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Account state per chain namespace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub namespace: ChainNamespace,
    pub address: String,
    #[serde(rename = "type")]
    pub account_type: AccountType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caip_address: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance_symbol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_explorer_url: Option<String>,
    #[serde(default)]
    pub token_balance: Vec<TokenBalance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connected_wallet_info: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_account_type: Option<AccountType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub social_provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<AccountUser>,
    #[serde(default)]
    pub smart_account_deployed: bool,
    #[serde(default = "default_status")]
    pub status: ConnectionStatus,
    /// Account tab index: 0 Tokens, 1 NFTs, 2 Activity.
    #[serde(default)]
    pub current_tab: u8,
}

fn default_status() -> ConnectionStatus {
    ConnectionStatus::Disconnected
}

impl Account {
    /// A fresh account with only namespace and address, with the namespace's default type.
    pub fn new(namespace: ChainNamespace, address: &str) -> Self {
        Account {
            namespace,
            address: address.to_string(),
            account_type: namespace.default_account_type(),
            public_key: None,
            path: None,
            caip_address: None,
            balance: None,
            balance_symbol: None,
            profile_name: None,
            profile_image: None,
            address_explorer_url: None,
            token_balance: vec![],
            connected_wallet_info: None,
            preferred_account_type: None,
            social_provider: None,
            user: None,
            smart_account_deployed: false,
            status: ConnectionStatus::Disconnected,
            current_tab: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ConnectorType {
    External,
    WalletConnect,
    Injected,
    Announced,
    Auth,
    MultiChain,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ConnectorInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rdns: Option<String>,
}

/// A connector (the JS provider object itself stays on the JS side; `provider` is an opaque handle).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connector {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub connector_type: ConnectorType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explorer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<ConnectorInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    pub chain: ChainNamespace,
    /// CAIP network ids this connector supports.
    #[serde(default)]
    pub chains: Vec<String>,
    /// Per-namespace connectors of a multi-chain connector.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<Connector>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionAccount {
    pub address: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub account_type: Option<AccountType>,
}

/// A wallet connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    pub connector_id: String,
    pub accounts: Vec<ConnectionAccount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_id: Option<ChainRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connector: Option<Connector>,
}

// ---------------------------------------------------------------------------------------------
// Embedded frame payloads
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginAccount {
    pub address: String,
    #[serde(rename = "type")]
    pub account_type: AccountType,
}

/// The user returned by the embedded frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoginUser {
    #[serde(default)]
    pub email: Option<String>,
    pub address: String,
    /// A string or a number.
    pub chain_id: ChainRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accounts: Option<Vec<LoginAccount>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_account_type: Option<AccountType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The sign-in message fields (format owned by `siwx`), kept as raw JSON here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub siwx_message: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smart_account_deployed: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeMode {
    Light,
    Dark,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThemeSyncPayload {
    pub theme_mode: ThemeMode,
    #[serde(default)]
    pub theme_variables: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct DappMetadata {
    pub name: String,
    pub description: String,
    pub url: String,
    #[serde(default)]
    pub icons: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DappDataPayload {
    pub metadata: DappMetadata,
    pub project_id: String,
    pub sdk_version: String,
    pub sdk_type: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcRequestPayload {
    pub method: String,
    #[serde(default)]
    pub params: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_id: Option<ChainRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_namespace: Option<ChainNamespace>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpc_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchCall {
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// `wallet_sendCalls` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchCalls {
    pub chain_id: String,
    pub from: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Value>,
    pub calls: Vec<BatchCall>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalletAssetType {
    #[serde(rename = "ERC20")]
    Erc20,
    #[serde(rename = "NATIVE")]
    Native,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletAssetMetadata {
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
    pub price: f64,
    pub icon_url: String,
}

/// An asset from `wallet_getAssets` (validity rules in `validation::parse_wallet_asset`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WalletAsset {
    pub address: String,
    /// Hex balance string, e.g. `0x1bc16d674ec80000`.
    pub balance: String,
    #[serde(rename = "type")]
    pub asset_type: WalletAssetType,
    pub metadata: WalletAssetMetadata,
}

/// A name suggestion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnsSuggestion {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
}

#[cfg(test)]
#[path = "entities_tests.rs"]
mod tests;
