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
/// basic, embedded, apiUrl, analyticsUrl, rpcUrl, features, mobile, origin, href, sdkVersion}`;
/// every field is optional (`reconnect`, `enableEip6963` and `enableNetworkSwitch` default on).
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
        let project_id = string_or_default(o, "projectId")?;
        let default_network = opt_string(o, "defaultNetwork")?;
        let debug = boolean(o, "debug", Some(false))?;
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
        let networks = match o.get("networks").cloned() {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => Some(
                list.into_iter()
                    .map(|v| match v {
                        Value::String(id) => Ok(NetworkInput::Id(id)),
                        Value::Object(m) => read_network(m).map(|n| NetworkInput::Object(Box::new(n))),
                        _ => Err(bad("networks")),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Some(_) => return Err(bad("networks")),
        };
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
        })
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
        name: string(o, "name")?,
        chain_namespace: string(o, "chainNamespace").ok().as_deref().and_then(ChainNamespace::parse).ok_or_else(|| bad("chainNamespace"))?,
        native_currency: req_object(o, "nativeCurrency", |mut m| {
            Ok(NativeCurrency { name: string(&mut m, "name")?, symbol: string(&mut m, "symbol")?, decimals: uint(&mut m, "decimals", u32::MAX as u64)? as u32 })
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
mod tests {
    use super::*;

    #[test]
    fn options_default_reconnect_eip6963_and_network_switch_on() {
        let o = Options::default();
        assert!(o.reconnect && o.enable_eip6963 && o.enable_network_switch);
        assert!(!o.debug && !o.basic && !o.embedded);
        assert_eq!(o.api_url(), DEFAULT_API_URL);
    }

    #[test]
    fn project_id_is_required_and_trimmed() {
        let with = |id: &str| Options { project_id: id.into(), ..Options::default() };
        assert_eq!(with("  abc ").project_id(), "abc");
        assert_eq!(with("   ").project_id(), "", "blank counts as missing (the engine then shows 'Project Id Not Configured')");
        assert_eq!(Options::default().project_id(), "");
    }

    #[test]
    fn no_networks_option_gives_the_builtin_list() {
        let (nets, unknown) = Options::default().resolve_networks();
        assert!(nets.iter().any(|n| n.caip_network_id == "eip155:1"));
        assert!(nets.iter().any(|n| n.caip_network_id.starts_with("solana:")));
        assert!(unknown.is_empty());
    }

    #[test]
    fn network_ids_resolve_to_builtins_and_unknown_ids_are_reported() {
        let o: Options = serde_json::from_value(serde_json::json!({"networks": ["eip155:10", "eip155:999999", "eip155:10"]})).unwrap();
        let (nets, unknown) = o.resolve_networks();
        assert_eq!(nets.len(), 1, "duplicates ignored");
        assert_eq!(unknown, vec!["eip155:999999"]);
    }

    #[test]
    fn network_objects_are_validated() {
        let good = serde_json::json!({"id": 31337, "caipNetworkId": "eip155:31337", "name": "Anvil", "chainNamespace": "eip155",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18}, "rpcUrls": {"default": {"http": ["http://127.0.0.1:8545"]}}});
        let mut bad = good.clone();
        bad["caipNetworkId"] = "solana:31337".into();
        let mut bad_rpc = good.clone();
        bad_rpc["rpcUrls"]["default"]["http"] = serde_json::json!(["javascript:alert(1)"]);
        let o: Options = serde_json::from_value(serde_json::json!({"networks": [good, bad, bad_rpc]})).unwrap();
        let (nets, unknown) = o.resolve_networks();
        assert_eq!(nets.len(), 1);
        assert_eq!(unknown.len(), 2);
    }

    #[test]
    fn service_urls_must_be_http() {
        let o: Options = serde_json::from_value(serde_json::json!({"apiUrl": "javascript:x", "analyticsUrl": "http://127.0.0.1:1"})).unwrap();
        assert_eq!(o.api_url(), DEFAULT_API_URL);
        assert_eq!(o.analytics_url(), "http://127.0.0.1:1");
    }
}

#[cfg(test)]
mod hand_reading_tests {
    use super::*;

    /// The hand reader accepts exactly what the derived `Network` deserializer accepts.
    #[test]
    fn network_objects_read_like_the_derived_deserializer() {
        let mut samples: Vec<serde_json::Value> = builtin_networks().iter().map(|n| serde_json::to_value(n).unwrap()).collect();
        samples.push(serde_json::json!({"id": "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "caipNetworkId": "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
            "name": "Solana", "chainNamespace": "solana", "nativeCurrency": {"name": "Sol", "symbol": "SOL", "decimals": 9},
            "rpcUrls": {"default": {"http": ["https://a"], "webSocket": ["wss://b"]}, "chainDefault": {"http": []}},
            "blockExplorers": {"default": {"name": "x", "url": "https://x"}}, "testnet": false, "assets": {"imageId": "i", "imageUrl": null}}));
        let base = samples[0].clone();
        for (k, v) in [("id", serde_json::json!(-1)), ("id", serde_json::json!(1.5)), ("chainNamespace", serde_json::json!("EIP155")),
            ("testnet", serde_json::Value::Null), ("nativeCurrency", serde_json::json!({"name": "a", "symbol": "b"})), ("rpcUrls", serde_json::json!({"default": {"http": [1]}})),
            ("blockExplorers", serde_json::Value::Null), ("assets", serde_json::json!(3))] {
            let mut bad = base.clone();
            bad[k] = v;
            samples.push(bad);
        }
        for s in samples {
            let derived = serde_json::from_value::<Network>(s.clone()).ok();
            let by_hand = match Value::from(s.clone()) {
                Value::Object(m) => read_network(m).ok(),
                _ => None,
            };
            assert_eq!(by_hand, derived, "{s}");
        }
    }

    #[test]
    fn options_fields_and_defaults() {
        let o: Options = serde_json::from_value(serde_json::json!({"projectId": "p", "reconnect": false, "features": {"email": false, "socials": ["x"]},
            "defaultNetwork": null, "apiUrl": "http://a", "mobile": true, "networks": null})).unwrap();
        assert_eq!(o.project_id, "p");
        assert!(!o.reconnect && o.enable_eip6963 && o.mobile);
        assert_eq!(o.features.as_ref().unwrap().socials, vec!["x"]);
        assert!(!o.features.as_ref().unwrap().email);
        assert!(o.networks.is_none() && o.default_network.is_none());
        assert!(serde_json::from_value::<Options>(serde_json::json!([1, 2])).is_err());
        assert!(serde_json::from_value::<Options>(serde_json::json!({"debug": "yes"})).is_err());
        assert!(serde_json::from_value::<Options>(serde_json::json!({"networks": [1]})).is_err());
        assert!(serde_json::from_value::<Options>(serde_json::json!({"features": {"email": 1}})).is_err());
    }
}
