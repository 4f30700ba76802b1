//! The switch slice's flows: asking the wallet, adding a network, failures and their banner.

use crate::host::harness::*;

#[test]
fn switch_network_asks_the_wallet_and_follows_chain_changed() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    assert_eq!(h.snap.view, View::SwitchNetwork);
    let (_, params) = h.request("wallet_switchEthereumChain");
    assert_eq!(params, json!([{"chainId": "0x7a6a"}]));
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.emitted("networkchange").unwrap()["caipNetworkId"], "eip155:31338");
    assert_eq!(h.snap.network.as_ref().unwrap().caip_network_id, "eip155:31338");
    assert_eq!(h.snap.view, View::Account);
    assert!(h.persisted(storage::KEY_ACTIVE_NETWORK).is_some());
}

#[test]
fn switch_to_unknown_chain_adds_it_on_4902() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4902);
    let (_, params) = h.request("wallet_addEthereumChain");
    assert_eq!(params[0]["chainId"], "0x7a6a");
    assert_eq!(params[0]["rpcUrls"], json!(["http://127.0.0.1:8338"]));
    h.answer("wallet_addEthereumChain", Value::Null);
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31338");
}

#[test]
fn failed_switch_navigates_back() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "SwitchNetwork"}));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4001);
    assert_eq!(h.snap.view, View::Account);
    assert!(h.snap.switching.is_none());
    assert_eq!(h.emitted("error").unwrap()["code"], 4001);
}

#[test]
fn switching_to_another_namespace_syncs_the_active_network_without_asking_the_wallet() {
    let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
    let mut h = Harness::new(json!({"networks": [anvil(31337), anvil(31338), solana]}));
    h.connect();
    h.send(json!({"type": "switchNetwork", "caipNetworkId": solana}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })), "no wallet request across namespaces");
    assert_eq!(h.persisted(storage::KEY_ACTIVE_NETWORK), Some(Some(format!("\"{solana}\""))));
    assert_eq!(h.emitted("networkchange").unwrap()["caipNetworkId"], solana);
}

#[test]
fn switching_to_an_unconfigured_network_reports_switch_network_not_found() {
    let mut h = Harness::new(json!({"debug": true}));
    h.connect().send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:999"}));
    assert_eq!(h.emitted("error").unwrap()["message"], "Switch network not found");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "SWITCH_NETWORK_NOT_FOUND")), "{:?}", h.effects);
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
}

#[test]
fn a_switch_rejected_in_the_wallet_shows_an_error_banner_that_hides_later() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", 4001);
    assert_eq!(h.snap.view, View::Account);
    assert_eq!(h.emitted("error").unwrap()["code"], 4001, "the error event is kept");
    let banner = h.snap.banner.clone().expect("an error banner");
    assert_eq!(banner.variant, "error");
    assert_eq!(banner.message, "Switching to Anvil 31338 was rejected in the wallet");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if id == "banner-hide" && *ms == BANNER_SHOWN_MS)));
    h.send(json!({"type": "timer", "id": "banner-hide"}));
    assert!(h.snap.banner.is_none());
}

#[test]
fn a_switch_failing_otherwise_names_the_reason_and_the_banner_can_be_dismissed() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    h.reject("wallet_switchEthereumChain", -32603);
    assert_eq!(h.snap.banner.clone().unwrap().message, "Could not switch to Anvil 31338: Internal error");
    h.send(json!({"type": "dismissBanner"}));
    assert!(h.snap.banner.is_none());
}

/// The anvil chains and the local Solana chain.
fn with_solana() -> Harness {
    let solana = json!({"id": "4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ", "caipNetworkId": "solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ", "name": "Solana Local",
        "chainNamespace": "solana", "nativeCurrency": {"name": "Solana", "symbol": "SOL", "decimals": 9}, "rpcUrls": {"default": {"http": ["http://127.0.0.1:8899"]}}});
    Harness::new(json!({"networks": [anvil(31337), anvil(31338), solana]}))
}

#[test]
fn picking_a_network_of_a_family_with_no_wallet_connected_offers_to_connect_one_then_connect_shows_it_active() {
    let mut h = with_solana();
    h.connect();
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "SwitchNetwork"}));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"}));
    assert_eq!(h.view(), View::SwitchActiveChain);
    assert_eq!(h.snap.part("switchActiveChain")["name"], "Solana Local");
    assert_eq!(h.snap.part("switchActiveChain")["namespace"], "solana");
    assert_eq!(h.snap.network.as_ref().map(|n| n.caip_network_id.as_str()), Some("eip155:31337"), "nothing switched yet");
    h.send(json!({"type": "switchActiveChain"}));
    assert_eq!(h.view(), View::Connect, "on to connect a Solana wallet");
    assert_eq!(h.snap.network.as_ref().map(|n| n.caip_network_id.as_str()), Some("solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"));
    assert_eq!(h.emitted("networkchange").unwrap()["caipNetworkId"], "solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ");
    assert_eq!(h.snap.status.get("eip155"), Some(&crate::connect::connection::Status::Connected), "the EVM wallet stays connected");
}

#[test]
fn going_back_from_switch_active_chain_changes_nothing() {
    let mut h = with_solana();
    h.connect();
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "SwitchNetwork"}));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"}));
    h.send(json!({"type": "back"}));
    assert_eq!(h.view(), View::SwitchNetwork);
    assert_eq!(h.snap.network.as_ref().map(|n| n.caip_network_id.as_str()), Some("eip155:31337"));
}

#[test]
fn the_hosts_switch_network_to_another_family_switches_without_asking() {
    let mut h = with_solana();
    h.connect();
    h.send(json!({"type": "open"}));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"}));
    assert_ne!(h.view(), View::SwitchActiveChain, "only a network picked in SwitchNetwork offers it");
    assert_eq!(h.snap.network.as_ref().map(|n| n.caip_network_id.as_str()), Some("solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ"));
}

#[test]
fn a_wallet_error_code_reaches_the_host_as_the_catalogues_error_event() {
    // Spec §8 codes: the wallet's JSON-RPC and EIP-1193 codes keep their code, key and message.
    for (code, key, message) in [
        (-32700, "RPC_PARSE_ERROR", "Parse error"),
        (-32600, "RPC_INVALID_REQUEST", "Invalid request"),
        (-32000, "RPC_SERVER_ERROR", "Server error"),
        (4100, "UNAUTHORIZED", "Unauthorized"),
        (4901, "CHAIN_DISCONNECTED", "Chain disconnected"),
    ] {
        let mut h = Harness::new(json!({}));
        h.connect().send(json!({"type": "open"})).send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
        h.reject("wallet_switchEthereumChain", code);
        assert_eq!(h.emitted("error"), Some(json!({"code": code, "key": key, "message": message})), "{code}");
    }
}

#[test]
fn a_failed_connection_reaches_the_host_as_the_products_5000() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.reject("eth_requestAccounts", -32603);
    let e = h.emitted("error").expect("an error event");
    assert_eq!((e["code"].as_i64(), e["message"].as_str()), (Some(5000), Some("Failed to connect")));
}

#[test]
fn a_network_image_is_its_own_url_else_the_hosted_asset_image_of_its_image_id() {
    let mut by_id = anvil(31337);
    by_id["assets"] = json!({"imageId": "eth logo/1"});
    let mut both = anvil(31338);
    both["assets"] = json!({"imageId": "ignored", "imageUrl": "https://img.test/anvil.png"});
    let mut h = Harness::new(json!({"networks": [by_id, both, anvil(1)]}));
    h.start(json!({}));
    let networks = h.snap.part("networks").as_array().unwrap().clone();
    assert_eq!(networks[0]["imageUrl"], "http://api.test/public/getAssetImage/eth%20logo%2F1?projectId=p&st=wallet-modal");
    assert_eq!(networks[1]["imageUrl"], "https://img.test/anvil.png");
    assert_eq!(networks[2]["imageUrl"], Value::Null);
    // An id too long to be one (over 128 bytes) is no image.
    let mut long = anvil(31337);
    long["assets"] = json!({"imageId": "x".repeat(129)});
    let mut h = Harness::new(json!({"networks": [long]}));
    h.start(json!({}));
    assert_eq!(h.snap.part("networks")[0]["imageUrl"], Value::Null);
}
