//! The element's options (attributes and properties), as the shell hands them over.

use crate::entities::{Network, RemoteFeatures};
use crate::networks::{builtin_networks, dedupe_networks, find_network};
use serde::Deserialize;

/// Default base URL of the hosted API (config, origins, wallet catalogue, images).
pub const DEFAULT_API_URL: &str = "https://api.walletmodal.dev";
/// Default base URL of the hosted analytics sink (`POST /e`).
pub const DEFAULT_ANALYTICS_URL: &str = "https://pulse.walletmodal.dev";

fn yes() -> bool {
    true
}

/// A network given by the host: a CAIP-2 id of a built-in network, or a full network object.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum NetworkInput {
    Id(String),
    Object(Box<Network>),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    #[serde(default)]
    pub project_id: String,
    #[serde(default)]
    pub networks: Option<Vec<NetworkInput>>,
    #[serde(default)]
    pub default_network: Option<String>,
    #[serde(default)]
    pub debug: bool,
    #[serde(default = "yes")]
    pub reconnect: bool,
    #[serde(default = "yes")]
    pub enable_eip6963: bool,
    #[serde(default = "yes")]
    pub enable_network_switch: bool,
    #[serde(default)]
    pub basic: bool,
    #[serde(default)]
    pub embedded: bool,
    #[serde(default)]
    pub api_url: Option<String>,
    #[serde(default)]
    pub analytics_url: Option<String>,
    /// Base of the hosted RPC proxy, used for built-in networks.
    #[serde(default)]
    pub rpc_url: Option<String>,
    /// Local features option, used when the remote configuration cannot be fetched.
    #[serde(default)]
    pub features: Option<RemoteFeatures>,
    #[serde(default)]
    pub mobile: bool,
    /// The page origin (`location.origin`), checked against the allowed origins.
    #[serde(default)]
    pub origin: String,
    #[serde(default)]
    pub href: String,
    #[serde(default)]
    pub sdk_version: String,
}

impl Default for Options {
    fn default() -> Self {
        serde_json::from_str("{}").expect("every field has a default")
    }
}

impl Options {
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
                    let caip_ok = crate::caip::parse_caip_network_id(&n.caip_network_id)
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
