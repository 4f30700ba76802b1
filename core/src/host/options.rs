//! The element's options (attributes and properties), as the shell hands them over.

use super::json::{FromJson, bad, boolean, object, opt_object, opt_string, req_object, string, string_or_default, strings, uint, Fields};
use crate::service::entities::{BlockExplorer, BlockExplorers, ChainNamespace, ChainRef, NativeCurrency, Network, NetworkAssets, RemoteFeatures, RpcUrlList, RpcUrls};
use crate::chain::networks::{builtin_networks, dedupe_networks, find_network};
use serde::{Deserialize, Deserializer};
use crate::service::json::Value;

/// Default base URL of the hosted API (config, origins, wallet catalogue, images).
pub const DEFAULT_API_URL: &str = "https://api.walletmodal.dev";
/// Default base URL of the hosted analytics sink (`POST /e`).
pub const DEFAULT_ANALYTICS_URL: &str = "https://pulse.walletmodal.dev";

/// A network given by the host: a CAIP-2 id of a built-in network, or a full network object.
#[derive(Clone, Debug)]
pub enum NetworkInput {
    Id(String),
    Object(Box<Network>),
}

/// The element's options. Read by hand from JSON (see `engine::json`) in camelCase:
/// `{projectId, networks, defaultNetwork, debug, reconnect, enableEip6963, enableNetworkSwitch,
/// basic, embedded, apiUrl, analyticsUrl, rpcUrl, features, mobile, origin, href, sdkVersion,
/// pendingTransactions, pendingTransactionsInterval}`;
/// every field is optional (`debug`, `reconnect`, `enableEip6963` and `enableNetworkSwitch` default on).
#[derive(Clone, Debug)]
pub struct Options {
    pub project_id: String,
    pub networks: Option<Vec<NetworkInput>>,
    pub default_network: Option<String>,
    pub debug: bool,
    pub reconnect: bool,
    pub enable_eip6963: bool,
    pub enable_network_switch: bool,
    pub basic: bool,
    pub embedded: bool,
    pub api_url: Option<String>,
    pub analytics_url: Option<String>,
    /// Base of the hosted RPC proxy, used for built-in networks.
    pub rpc_url: Option<String>,
    /// Local features option, used when the remote configuration cannot be fetched.
    pub features: Option<RemoteFeatures>,
    pub mobile: bool,
    /// The page origin (`location.origin`), checked against the allowed origins.
    pub origin: String,
    pub href: String,
    pub sdk_version: String,
    /// The embedded wallet's secure frame (`frame-url`).
    pub frame_url: Option<String>,
    /// Watching the host's own transactions until mined (`pending-transactions`; spec §9: off).
    pub pending_transactions: bool,
    /// How often they are watched, in ms (`pending-transactions-interval`; spec §9: 30,000).
    pub pending_transactions_interval_ms: u64,
    /// The catalogue wallets the host chose (`wallets`).
    pub wallets: WalletIds,
    /// The visitor's IANA time zone (`timeZone`: the account module's shell adds it from `Intl`).
    /// Only the modules read it (the engine neither parses nor keeps it).
    #[cfg(feature = "modules")]
    pub time_zone: String,
}

/// The host's `wallets` option (`featuredWallets`, `includeWallets`, `excludeWallets`,
/// `certifiedWallets`): catalogue ids shown first, the only ones listed or never listed, each
/// comma-separated (at most 100 valid ids; the element joins its lists), and whether only
/// certified wallets are listed (`badge_type=certified`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalletIds {
    pub featured: String,
    pub include: String,
    pub exclude: String,
    pub certified: bool,
}

/// One list of `wallets`: at most 100 valid ids, comma-separated.
#[inline(never)]
fn wallet_id_list(o: &mut Fields, key: &str) -> Result<String, String> {
    let ids = opt_string(o, key)?.unwrap_or_default();
    if !ids.is_empty() && (ids.split(',').count() > 100 || !ids.split(',').all(crate::connect::storage::is_valid_id)) {
        return Err(bad(key));
    }
    Ok(ids)
}

impl Default for Options {
    fn default() -> Self {
        // `unwrap_or_else` rather than `expect`: no `Debug` formatting of the error in the WebAssembly.
        Options::from_value(Value::Object(Fields::new())).unwrap_or_else(|_| unreachable!("every field has a default"))
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Options::from_value(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl Options {
    /// Reads the options from their JSON object.
    #[inline(never)]
    pub fn from_value(v: Value) -> Result<Options, String> {
        let mut o = object(v, "the options")?;
        let o = &mut o;
        // Plain fields first, the networks and features last: an early error then only drops
        // strings (less drop glue in the WebAssembly than unwinding a half-read network list).
        // First: an error here drops nothing else.
        let wallets = WalletIds {
            featured: wallet_id_list(o, "featuredWallets")?,
            include: wallet_id_list(o, "includeWallets")?,
            exclude: wallet_id_list(o, "excludeWallets")?,
            certified: boolean(o, "certifiedWallets", Some(false))?,
        };
        let project_id = string_or_default(o, "projectId")?;
        let default_network = opt_string(o, "defaultNetwork")?;
        // Spec §1: host options are on unless set to false, `debug` included.
        let debug = boolean(o, "debug", Some(true))?;
        let reconnect = boolean(o, "reconnect", Some(true))?;
        let enable_eip6963 = boolean(o, "enableEip6963", Some(true))?;
        let enable_network_switch = boolean(o, "enableNetworkSwitch", Some(true))?;
        let basic = boolean(o, "basic", Some(false))?;
        let embedded = boolean(o, "embedded", Some(false))?;
        let api_url = opt_string(o, "apiUrl")?;
        let analytics_url = opt_string(o, "analyticsUrl")?;
        let rpc_url = opt_string(o, "rpcUrl")?;
        let mobile = boolean(o, "mobile", Some(false))?;
        let origin = string_or_default(o, "origin")?;
        let href = string_or_default(o, "href")?;
        let sdk_version = string_or_default(o, "sdkVersion")?;
        let frame_url = opt_string(o, "frameUrl")?;
        let pending_transactions = boolean(o, "pendingTransactions", Some(crate::service::constants::PENDING_TX_POLL_ENABLED_BY_DEFAULT))?;
        let pending_transactions_interval_ms = match o.get("pendingTransactionsInterval") {
            None | Some(Value::Null) => crate::service::constants::PENDING_TX_POLL_MS,
            Some(_) => uint(o, "pendingTransactionsInterval", u64::MAX)?.clamp(1_000, 3_600_000),
        };
        let networks = match o.get("networks").cloned() {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => Some(super::json::each(list, |v| match v {
                Value::String(id) => Ok(NetworkInput::Id(id)),
                Value::Object(m) => read_network(m).map(|n| NetworkInput::Object(Box::new(n))),
                _ => Err(bad("networks")),
            })?),
            Some(_) => return Err(bad("networks")),
        };
        #[cfg(feature = "modules")]
        let time_zone = string_or_default(o, "timeZone")?.chars().take(64).collect();
        let features = match o.get("features").cloned() {
            None | Some(Value::Null) => None,
            Some(v) => Some(RemoteFeatures::from_json(v).map_err(|_| bad("features"))?),
        };
        Ok(Options {
            project_id,
            networks,
            default_network,
            debug,
            reconnect,
            enable_eip6963,
            enable_network_switch,
            basic,
            embedded,
            api_url,
            analytics_url,
            rpc_url,
            features,
            mobile,
            origin,
            href,
            sdk_version,
            frame_url,
            pending_transactions,
            pending_transactions_interval_ms,
            wallets,
            #[cfg(feature = "modules")]
            time_zone,
        })
    }
    /// Whether the visitor is in a time zone the spec lists as restricted (§5: mainland China, Hong
    /// Kong, Macau): Swap and Buy are not offered there (the README says why).
    pub fn restricted_region(&self) -> bool {
        #[cfg(feature = "modules")]
        return crate::service::constants::is_restricted_timezone(&self.time_zone);
        #[cfg(not(feature = "modules"))]
        false
    }

    pub fn api_url(&self) -> &str {
        self.api_url.as_deref().filter(|u| is_http_url(u)).unwrap_or(DEFAULT_API_URL)
    }

    pub fn analytics_url(&self) -> &str {
        self.analytics_url.as_deref().filter(|u| is_http_url(u)).unwrap_or(DEFAULT_ANALYTICS_URL)
    }

    pub fn project_id(&self) -> &str {
        self.project_id.trim()
    }

    /// The configured networks: ids resolved against the built-in list (unknown ids returned
    /// apart), objects validated, duplicates ignored. No `networks` option: the built-in list.
    pub fn resolve_networks(&self) -> (Vec<Network>, Vec<String>) {
        let Some(inputs) = &self.networks else { return (builtin_networks(), Vec::new()) };
        let builtin = builtin_networks();
        let mut unknown = Vec::new();
        let mut out = Vec::new();
        for input in inputs {
            match input {
                NetworkInput::Id(id) => match find_network(&builtin, id) {
                    Some(n) => out.push(n.clone()),
                    None => unknown.push(id.clone()),
                },
                NetworkInput::Object(n) => {
                    let caip_ok = crate::chain::caip::parse_caip_network_id(&n.caip_network_id)
                        .is_ok_and(|c| c.chain_namespace == n.chain_namespace.as_str());
                    let rpc_ok = n.rpc_urls.default.http.iter().all(|u| is_http_url(u));
                    if caip_ok && rpc_ok && !n.name.trim().is_empty() {
                        out.push((**n).clone());
                    } else {
                        unknown.push(n.caip_network_id.clone());
                    }
                }
            }
        }
        (dedupe_networks(out), unknown)
    }
}

/// A network object, with the JSON shape of [`Network`] (camelCase; `id` a number or a string).
#[inline(never)]
fn read_network(mut m: Fields) -> Result<Network, String> {
    let o = &mut m;
    let id = match o.get("id").cloned() {
        Some(Value::String(s)) => ChainRef::String(s),
        Some(v) => ChainRef::Number(v.as_u64().ok_or_else(|| bad("id"))?),
        None => return Err(bad("id")),
    };
    let rpc_list = |mut m: Fields| -> Result<RpcUrlList, String> {
        Ok(RpcUrlList { http: strings(&mut m, "http", false)?, web_socket: strings(&mut m, "webSocket", true)? })
    };
    Ok(Network {
        id,
        caip_network_id: string(o, "caipNetworkId")?,
        name: shown(string(o, "name")?, "name")?,
        chain_namespace: string(o, "chainNamespace").ok().as_deref().and_then(ChainNamespace::parse).ok_or_else(|| bad("chainNamespace"))?,
        native_currency: req_object(o, "nativeCurrency", |mut m| {
            Ok(NativeCurrency { name: shown(string(&mut m, "name")?, "nativeCurrency.name")?, symbol: shown(string(&mut m, "symbol")?, "nativeCurrency.symbol")?, decimals: uint(&mut m, "decimals", u32::MAX as u64)? as u32 })
        })?,
        rpc_urls: req_object(o, "rpcUrls", |mut m| {
            Ok(RpcUrls { default: req_object(&mut m, "default", rpc_list)?, chain_default: opt_object(&mut m, "chainDefault", rpc_list)? })
        })?,
        block_explorers: opt_object(o, "blockExplorers", |mut m| {
            Ok(BlockExplorers {
                default: req_object(&mut m, "default", |mut m| Ok(BlockExplorer { name: string(&mut m, "name")?, url: string(&mut m, "url")? }))?,
            })
        })?,
        testnet: boolean(o, "testnet", Some(false))?,
        assets: opt_object(o, "assets", |mut m| Ok(NetworkAssets { image_id: opt_string(&mut m, "imageId")?, image_url: opt_string(&mut m, "imageUrl")? }))?,
    })
}

/// An absolute http(s) URL without characters that could break out of a request line.
pub fn is_http_url(u: &str) -> bool {
    (u.starts_with("https://") || u.starts_with("http://")) && u.len() < 2048 && !u.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;

/// A network's name or currency as the visitor sees it: without control, bidi-control or
/// invisible characters (crate::service::text), at most 64 characters.
fn shown(s: String, what: &str) -> Result<String, String> {
    crate::service::text::shown(&s, 64).ok_or_else(|| format!("`{what}` has nothing to show"))
}
