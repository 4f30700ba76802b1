//! Unit tests of `options`.

use super::*;

#[test]
fn options_default_debug_reconnect_eip6963_and_network_switch_on() {
    let o = Options::default();
    assert!(o.debug && o.reconnect && o.enable_eip6963 && o.enable_network_switch, "spec §1: on unless set to false");
    assert!(!o.basic && !o.embedded);
    let off: Options = serde_json::from_value(serde_json::json!({"debug": false})).unwrap();
    assert!(!off.debug);
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

// ----- read by hand like the derived deserializers -----


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

#[test]
fn a_networks_name_and_currency_lose_bidi_controls_and_a_blank_one_is_refused() {
    let net = |name: &str, symbol: &str| serde_json::json!({"id": 31337, "caipNetworkId": "eip155:31337", "name": name, "chainNamespace": "eip155",
        "nativeCurrency": {"name": "Ether", "symbol": symbol, "decimals": 18}, "rpcUrls": {"default": {"http": ["http://127.0.0.1:8545"]}}});
    let o: Options = serde_json::from_value(serde_json::json!({"networks": [net("Main\u{202E}ten", "E\u{200B}TH")]})).unwrap();
    let (nets, _) = o.resolve_networks();
    assert_eq!((nets[0].name.as_str(), nets[0].native_currency.symbol.as_str()), ("Mainten", "ETH"));
    let blank = serde_json::from_value::<Options>(serde_json::json!({"networks": [net("\u{202E}", "ETH")]}));
    assert_eq!(blank.unwrap_err().to_string(), "`name` has nothing to show", "nothing to show: refused");
}
