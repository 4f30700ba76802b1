//! Built-in network definitions (spec section 1) and the network list rules of section 5:
//! duplicates are ignored (first wins); adding or removing a network needs an adapter for its
//! namespace, otherwise "Adapter for namespace {x} doesn't exist".

use crate::service::constants::DEFAULT_RPC_HOST;
use crate::service::entities::{
    BlockExplorer, BlockExplorers, ChainNamespace, ChainRef, NativeCurrency, Network, RpcUrlList,
    RpcUrls,
};
use crate::service::errors::WmError;

pub const SOLANA_MAINNET_REF: &str = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
pub const SOLANA_DEVNET_REF: &str = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
pub const SOLANA_TESTNET_REF: &str = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z";
pub const BITCOIN_MAINNET_REF: &str = "000000000019d6689c085ae165831e93";
pub const BITCOIN_TESTNET_REF: &str = "000000000933ea01ad0ee984209779ba";

#[allow(clippy::too_many_arguments)]
fn net(
    ns: ChainNamespace,
    id: ChainRef,
    name: &str,
    currency: (&str, &str, u32),
    rpc: &str,
    explorer: (&str, &str),
    testnet: bool,
) -> Network {
    Network {
        caip_network_id: format!("{}:{}", ns.as_str(), id),
        id,
        name: name.to_string(),
        chain_namespace: ns,
        native_currency: NativeCurrency {
            name: currency.0.to_string(),
            symbol: currency.1.to_string(),
            decimals: currency.2,
        },
        rpc_urls: RpcUrls {
            default: RpcUrlList { http: vec![rpc.to_string()], web_socket: vec![] },
            chain_default: None,
        },
        block_explorers: Some(BlockExplorers {
            default: BlockExplorer { name: explorer.0.to_string(), url: explorer.1.to_string() },
        }),
        testnet,
        assets: None,
    }
}

/// One built-in network: namespace, chain reference (EVM: decimal), name, currency (name, symbol,
/// decimals), RPC URL, explorer (name, URL), testnet. A table read by one loop: ~0.3 KB less
/// gzipped engine than one call per network.
type Builtin = (ChainNamespace, &'static str, &'static str, (&'static str, &'static str, u32), &'static str, (&'static str, &'static str), bool);

const ETH: (&str, &str, u32) = ("Ether", "ETH", 18);
const SOL: (&str, &str, u32) = ("Solana", "SOL", 9);
const BTC: (&str, &str, u32) = ("Bitcoin", "BTC", 8);
const SOLSCAN: (&str, &str) = ("Solscan", "https://solscan.io");
use ChainNamespace::{Bip122, Eip155, Solana};

const BUILTIN: [Builtin; 19] = [
    (Eip155, "1", "Ethereum", ETH, "https://eth.merkle.io", ("Etherscan", "https://etherscan.io"), false),
    (Eip155, "10", "OP Mainnet", ETH, "https://mainnet.optimism.io", ("Optimism Explorer", "https://optimistic.etherscan.io"), false),
    (Eip155, "42161", "Arbitrum One", ETH, "https://arb1.arbitrum.io/rpc", ("Arbiscan", "https://arbiscan.io"), false),
    (Eip155, "137", "Polygon", ("POL", "POL", 18), "https://polygon-rpc.com", ("PolygonScan", "https://polygonscan.com"), false),
    (Eip155, "42220", "Celo", ("CELO", "CELO", 18), "https://forno.celo.org", ("Celo Explorer", "https://celoscan.io"), false),
    (Eip155, "1313161554", "Aurora", ETH, "https://mainnet.aurora.dev", ("Aurorascan", "https://aurorascan.dev"), false),
    (Eip155, "56", "BNB Smart Chain", ("BNB", "BNB", 18), "https://bsc-dataseed.bnbchain.org", ("BscScan", "https://bscscan.com"), false),
    (Eip155, "43114", "Avalanche", ("Avalanche", "AVAX", 18), "https://api.avax.network/ext/bc/C/rpc", ("SnowTrace", "https://snowtrace.io"), false),
    (Eip155, "324", "ZKsync Era", ETH, "https://mainnet.era.zksync.io", ("ZKsync Explorer", "https://explorer.zksync.io"), false),
    (Eip155, "100", "Gnosis", ("xDAI", "XDAI", 18), "https://rpc.gnosischain.com", ("Gnosisscan", "https://gnosisscan.io"), false),
    (Eip155, "8453", "Base", ETH, "https://mainnet.base.org", ("Basescan", "https://basescan.org"), false),
    (Eip155, "250", "Fantom", ("Fantom", "FTM", 18), "https://rpc.ankr.com/fantom", ("FTMScan", "https://ftmscan.com"), false),
    (Eip155, "8217", "Kaia", ("Kaia", "KAIA", 18), "https://public-en.node.kaia.io", ("KaiaScan", "https://kaiascan.io"), false),
    (Eip155, "11155111", "Sepolia", ("Sepolia Ether", "ETH", 18), "https://sepolia.drpc.org", ("Etherscan", "https://sepolia.etherscan.io"), true),
    (Solana, SOLANA_MAINNET_REF, "Solana", SOL, "https://api.mainnet-beta.solana.com", SOLSCAN, false),
    (Solana, SOLANA_DEVNET_REF, "Solana Devnet", SOL, "https://api.devnet.solana.com", SOLSCAN, true),
    (Solana, SOLANA_TESTNET_REF, "Solana Testnet", SOL, "https://api.testnet.solana.com", SOLSCAN, true),
    (Bip122, BITCOIN_MAINNET_REF, "Bitcoin", BTC, "https://mempool.space/api", ("Mempool", "https://mempool.space"), false),
    (Bip122, BITCOIN_TESTNET_REF, "Bitcoin Testnet", BTC, "https://mempool.space/testnet/api", ("Mempool", "https://mempool.space/testnet"), true),
];

/// Every built-in network: EVM mainnets, the Sepolia testnet, Solana mainnet/devnet/testnet and
/// Bitcoin mainnet/testnet.
pub fn builtin_networks() -> Vec<Network> {
    BUILTIN
        .iter()
        .map(|&(ns, id, name, currency, rpc, explorer, testnet)| {
            let id = match (ns, id.parse::<u64>()) {
                (Eip155, Ok(n)) => ChainRef::Number(n),
                _ => ChainRef::from(id),
            };
            net(ns, id, name, currency, rpc, explorer, testnet)
        })
        .collect()
}

/// The network with this CAIP-2 id.
pub fn find_network<'a>(networks: &'a [Network], caip_network_id: &str) -> Option<&'a Network> {
    networks.iter().find(|n| n.caip_network_id == caip_network_id)
}

/// The network with this namespace and chain reference (e.g. eip155 + 137, solana + "5eyk…").
pub fn find_network_by_ref<'a>(
    networks: &'a [Network],
    namespace: ChainNamespace,
    chain: &ChainRef,
) -> Option<&'a Network> {
    let wanted = chain.to_string();
    networks.iter().find(|n| {
        n.chain_namespace == namespace
            && (n.id == *chain
                || n.id.to_string() == wanted
                || (namespace == ChainNamespace::Eip155
                    && n.id.as_u64().is_some()
                    && n.id.as_u64() == chain.as_u64()))
    })
}

/// Networks of one namespace, in order.
pub fn networks_of(networks: &[Network], namespace: ChainNamespace) -> Vec<&Network> {
    networks.iter().filter(|n| n.chain_namespace == namespace).collect()
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

fn namespace_of_caip(caip_network_id: &str) -> &str {
    caip_network_id.split(':').next().unwrap_or("")
}

fn require_adapter(namespace: &str, adapter_namespaces: &[ChainNamespace]) -> Result<(), WmError> {
    if adapter_namespaces.iter().any(|a| a.as_str() == namespace) {
        Ok(())
    } else {
        Err(WmError::AdapterMissing { namespace: namespace.to_string() })
    }
}

/// Add a network. Fails with `AdapterMissing` when no adapter handles its namespace.
/// Returns `Ok(false)` (and changes nothing) for a duplicate.
pub fn add_network(
    networks: &mut Vec<Network>,
    network: Network,
    adapter_namespaces: &[ChainNamespace],
) -> Result<bool, WmError> {
    require_adapter(network.chain_namespace.as_str(), adapter_namespaces)?;
    if networks.iter().any(|n| n.caip_network_id == network.caip_network_id) {
        return Ok(false);
    }
    networks.push(network);
    Ok(true)
}

/// Remove a network by CAIP-2 id. Fails with `AdapterMissing` when no adapter handles its
/// namespace. Returns whether a network was removed.
pub fn remove_network(
    networks: &mut Vec<Network>,
    caip_network_id: &str,
    adapter_namespaces: &[ChainNamespace],
) -> Result<bool, WmError> {
    require_adapter(namespace_of_caip(caip_network_id), adapter_namespaces)?;
    let before = networks.len();
    networks.retain(|n| n.caip_network_id != caip_network_id);
    Ok(networks.len() != before)
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
mod tests {
    use super::*;

    #[test]
    fn builtin_networks_cover_the_listed_evm_chains_and_one_testnet() {
        let nets = builtin_networks();
        for id in [1u64, 10, 42161, 137, 42220, 1313161554, 56, 43114, 324, 100, 8453, 250, 8217] {
            let n = find_network(&nets, &format!("eip155:{id}")).unwrap_or_else(|| panic!("{id}"));
            assert!(!n.testnet);
            assert_eq!(n.id, ChainRef::Number(id));
        }
        let evm_testnets: Vec<_> = nets.iter().filter(|n| n.chain_namespace == ChainNamespace::Eip155 && n.testnet).collect();
        assert_eq!(evm_testnets.len(), 1);
        assert_eq!(evm_testnets[0].caip_network_id, "eip155:11155111");
    }

    #[test]
    fn builtin_networks_include_solana_and_bitcoin() {
        let nets = builtin_networks();
        let sol = find_network(&nets, "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").unwrap();
        assert_eq!(sol.native_currency.symbol, "SOL");
        assert_eq!(sol.native_currency.decimals, 9);
        assert!(!sol.testnet);
        assert!(find_network(&nets, "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1").unwrap().testnet);
        assert!(find_network(&nets, "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z").unwrap().testnet);
        let btc = find_network(&nets, "bip122:000000000019d6689c085ae165831e93").unwrap();
        assert_eq!(btc.native_currency.decimals, 8);
        assert!(find_network(&nets, "bip122:000000000933ea01ad0ee984209779ba").unwrap().testnet);
        for n in &nets {
            assert!(n.default_rpc_url().unwrap().starts_with("https://"));
            assert!(n.explorer_url().unwrap().starts_with("https://"));
            assert_eq!(n.caip_network_id, format!("{}:{}", n.chain_namespace, n.id));
        }
        assert_eq!(dedupe_networks(nets.clone()).len(), nets.len());
    }

    #[test]
    fn find_network_by_ref_matches_numbers_and_strings() {
        let nets = builtin_networks();
        assert_eq!(find_network_by_ref(&nets, ChainNamespace::Eip155, &ChainRef::Number(137)).unwrap().name, "Polygon");
        assert_eq!(find_network_by_ref(&nets, ChainNamespace::Eip155, &ChainRef::from("0x89")).unwrap().name, "Polygon");
        assert!(find_network_by_ref(&nets, ChainNamespace::Solana, &ChainRef::from(SOLANA_DEVNET_REF)).is_some());
        assert!(find_network_by_ref(&nets, ChainNamespace::Eip155, &ChainRef::Number(999_999)).is_none());
        assert_eq!(networks_of(&nets, ChainNamespace::Bip122).len(), 2);
    }

    #[test]
    fn duplicate_networks_are_ignored_first_wins() {
        let nets = builtin_networks();
        let mut dup = nets[0].clone();
        dup.name = "Other".into();
        let out = dedupe_networks(vec![nets[0].clone(), dup.clone(), nets[1].clone()]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].name, nets[0].name);
        let mut list = vec![nets[0].clone()];
        assert_eq!(add_network(&mut list, dup, &[ChainNamespace::Eip155]), Ok(false));
        assert_eq!(list.len(), 1);
    }

    #[test]
    fn adding_a_network_without_adapter_fails_with_adapter_missing() {
        let nets = builtin_networks();
        let sol = find_network(&nets, "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").unwrap().clone();
        let mut list = vec![];
        let err = add_network(&mut list, sol.clone(), &[ChainNamespace::Eip155]).unwrap_err();
        assert_eq!(err.message(), "Adapter for namespace solana doesn't exist");
        assert!(list.is_empty());
        assert_eq!(add_network(&mut list, sol, &[ChainNamespace::Solana]), Ok(true));
        assert_eq!(list.len(), 1);
    }

    #[test]
    fn removing_a_network_without_adapter_fails_with_adapter_missing() {
        let mut list = builtin_networks();
        let n = list.len();
        let err = remove_network(&mut list, "bip122:000000000019d6689c085ae165831e93", &[ChainNamespace::Eip155]).unwrap_err();
        assert_eq!(err, WmError::AdapterMissing { namespace: "bip122".into() });
        assert_eq!(list.len(), n);
        assert_eq!(remove_network(&mut list, "eip155:1", &[ChainNamespace::Eip155]), Ok(true));
        assert_eq!(list.len(), n - 1);
        assert_eq!(remove_network(&mut list, "eip155:1", &[ChainNamespace::Eip155]), Ok(false));
    }

    #[test]
    fn default_rpc_host_takes_chain_id_and_project_id() {
        assert_eq!(
            default_rpc_host_url("eip155:1", "abc"),
            "https://rpc.walletmodal.dev/v1/?chainId=eip155%3A1&projectId=abc"
        );
        assert!(default_rpc_host_url("eip155:1", "a&b").ends_with("projectId=a%26b"));
    }

    proptest::proptest! {
        #[test]
        fn network_lookups_never_panic(s in ".*") {
            let mut nets = builtin_networks();
            let _ = find_network(&nets, &s);
            let _ = find_network_by_ref(&nets, ChainNamespace::Eip155, &ChainRef::String(s.clone()));
            let _ = remove_network(&mut nets, &s, &ChainNamespace::ALL);
            let _ = default_rpc_host_url(&s, &s);
        }
    }
}
