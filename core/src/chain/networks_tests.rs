//! The built-in networks and the network list rules.

use super::*;

#[test]
fn builtin_networks_cover_the_listed_evm_chains_and_one_testnet() {
    let nets = builtin_networks();
    for id in [1u64, 10, 42161, 137, 42220, 1313161554, 56, 43114, 324, 100, 8453, 250, 8217] {
        let n = find_network(&nets, &format!("eip155:{id}")).unwrap_or_else(|| panic!("{id}"));
        assert!(!n.testnet);
        assert_eq!(n.id, ChainRef::Number(id));
    }
    let evm_testnets: Vec<_> = nets.iter().filter(|n| n.chain_namespace.as_str() == "eip155" && n.testnet).collect();
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
fn duplicate_networks_are_ignored_first_wins() {
    let nets = builtin_networks();
    let mut dup = nets[0].clone();
    dup.name = "Other".into();
    let out = dedupe_networks(vec![nets[0].clone(), dup, nets[1].clone()]);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].name, nets[0].name);
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
        let nets = builtin_networks();
        let _ = find_network(&nets, &s);
        let _ = default_rpc_host_url(&s, &s);
    }
}
