//! Built-in network definitions (spec section 1, each family's in its folder) and the network
//! list rules of section 5: duplicates are ignored (first wins).

use crate::chain::family;
use crate::service::constants::DEFAULT_RPC_HOST;
use crate::service::entities::{BlockExplorer, BlockExplorers, ChainNamespace, ChainRef, NativeCurrency, Network, RpcUrlList, RpcUrls};

/// Every built-in network of every family (spec §1), in the families' order.
pub fn builtin_networks() -> Vec<Network> {
    let mut out = Vec::new();
    for &(ns, list) in family::BUILTIN {
        let Some(namespace) = ChainNamespace::parse(ns) else { continue };
        let numeric = family::numeric_refs(ns);
        for &(id, name, currency, rpc, explorer, testnet) in list {
            let id = match (numeric, id.parse::<u64>()) {
                (true, Ok(n)) => ChainRef::Number(n),
                _ => ChainRef::from(id),
            };
            out.push(Network {
                caip_network_id: format!("{ns}:{id}"),
                id,
                name: name.to_string(),
                chain_namespace: namespace,
                native_currency: NativeCurrency { name: currency.0.to_string(), symbol: currency.1.to_string(), decimals: currency.2 },
                rpc_urls: RpcUrls { default: RpcUrlList { http: vec![rpc.to_string()], web_socket: vec![] }, chain_default: None },
                block_explorers: Some(BlockExplorers { default: BlockExplorer { name: explorer.0.to_string(), url: explorer.1.to_string() } }),
                testnet,
                assets: None,
            });
        }
    }
    out
}

/// The network with this CAIP-2 id.
pub fn find_network<'a>(networks: &'a [Network], caip_network_id: &str) -> Option<&'a Network> {
    networks.iter().find(|n| n.caip_network_id == caip_network_id)
}

/// Drop duplicate networks (same CAIP network id); the first occurrence wins.
pub fn dedupe_networks(networks: Vec<Network>) -> Vec<Network> {
    let mut out: Vec<Network> = Vec::with_capacity(networks.len());
    for n in networks {
        if !out.iter().any(|o| o.caip_network_id == n.caip_network_id) {
            out.push(n);
        }
    }
    out
}

/// URL of the default RPC host for a network: `{host}?chainId={caipNetworkId}&projectId={id}`.
pub fn default_rpc_host_url(caip_network_id: &str, project_id: &str) -> String {
    format!(
        "{DEFAULT_RPC_HOST}?chainId={}&projectId={}",
        crate::service::url::encode_component(caip_network_id),
        crate::service::url::encode_component(project_id)
    )
}

#[cfg(test)]
#[path = "networks_tests.rs"]
mod tests;
