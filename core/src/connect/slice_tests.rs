//! The connect slice's flows: injected and WalletConnect connections, reconnect, wallet events, disconnect, the catalogue.

use crate::host::harness::*;

#[test]
fn connect_flow_connects_emits_persists_and_closes() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::Connect);
    let ids: Vec<&str> = h.snap.connectors.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids[..2], ["walletConnect", RDNS], "WalletConnect first, then the announced wallet");
    h.send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.view, View::ConnectingExternal);
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connecting));
    h.answer("eth_requestAccounts", json!([ADDR.to_lowercase()]));
    h.answer("eth_chainId", json!("0x7a69"));
    let detail = h.emitted("connect").unwrap();
    assert_eq!(detail["address"], ADDR, "address checksummed");
    assert_eq!(detail["caipAddress"], format!("eip155:31337:{ADDR}"));
    assert_eq!(detail["chainId"], 31337);
    assert_eq!(detail["connectorId"], RDNS);
    assert_eq!(detail["connectorName"], "Demo Wallet");
    assert!(h.emitted("close").is_some(), "the modal closes after connecting");
    assert!(h.persisted(storage::KEY_CONNECTIONS).unwrap().unwrap().contains(ADDR));
    assert_eq!(h.persisted(storage::KEY_RECENT_WALLETS).unwrap().unwrap(), format!("[\"{RDNS}\"]"));
    let c = h.snap.connection.clone().unwrap();
    assert_eq!((c.namespace.as_str(), c.address.as_str(), c.caip_network_id.as_str(), c.connector_name.as_str()), ("eip155", ADDR, "eip155:31337", "Demo Wallet"));
    assert!(!h.loaded("account"), "nothing of the Account view loads until it shows");
}

#[test]
fn rejected_connection_shows_connection_rejected_and_retry_asks_again() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.reject("eth_requestAccounts", 4001);
    let c = h.snap.connecting.clone().unwrap();
    assert_eq!(c.state, "error");
    assert_eq!(c.error.unwrap().message, "Connection rejected");
    assert_eq!(h.emitted("error").unwrap()["message"], "Connection rejected");
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    h.send(json!({"type": "retry"}));
    assert!(h.request("eth_requestAccounts").0 > 0);
    assert_eq!(h.snap.connecting.unwrap().state, "pending");
}

#[test]
fn other_connection_failures_show_failed_to_connect() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    h.reject("eth_requestAccounts", -32603);
    assert_eq!(h.snap.connecting.clone().unwrap().error.unwrap().message, "Failed to connect");
    h.send(json!({"type": "retry"}));
    h.answer("eth_requestAccounts", json!(["not an address"]));
    assert_eq!(h.snap.connecting.unwrap().error.unwrap().message, "Failed to connect", "hostile accounts refused");
}

#[test]
fn wallet_on_unconfigured_chain_shows_unsupported_chain() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x1"}));
    assert_eq!(h.emitted("networkchange").unwrap()["supported"], false);
    h.send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::UnsupportedChain);
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a69"}));
    assert_eq!(h.snap.view, View::Account);
}

#[test]
fn sending_on_an_unsupported_chain_opens_unsupported_chain_and_so_does_a_host_open_of_send() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "open"})).send(json!({"type": "navigate", "view": "WalletSend"}));
    assert_eq!(h.snap.view, View::WalletSend);
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x1"}));
    h.send(json!({"type": "navigate", "view": "WalletSend"}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(h.snap.view, View::UnsupportedChain, "spec §4");
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Fetch { body: Some(b), .. } if b.contains("eth_estimateGas"))), "nothing estimated");
    h.send(json!({"type": "close"})).send(json!({"type": "open", "view": "WalletSend"}));
    assert_eq!(h.snap.view, View::UnsupportedChain, "a host's open of Send too");
}

#[test]
fn a_host_open_of_an_account_screen_shows_it_over_the_account_view() {
    let mut h = Harness::new(json!({}));
    h.connect();
    for screen in ["Swap", "WalletSend", "WalletReceive", "OnRampProviders"] {
        h.send(json!({"type": "open", "view": screen}));
        assert_eq!(h.snap.view.name(), screen);
        assert!(h.snap.part("canGoBack") == &json!(true), "{screen}: back leads to Account");
        h.send(json!({"type": "back"}));
        assert_eq!(h.snap.view, View::Account, "{screen}");
        h.send(json!({"type": "close"}));
    }
}

#[test]
fn a_host_open_of_a_screen_the_project_switched_off_opens_the_account_view() {
    let mut h = Harness::new(json!({"debug": true}));
    h.send(json!({"type": "open"}));
    h.serve("appkit/v1/config", 200, json!({"features": {"swaps": [], "onramp": []}}));
    h.send(json!({"type": "close"}));
    h.connect();
    for screen in ["Swap", "OnRampProviders"] {
        h.send(json!({"type": "open", "view": screen}));
        assert_eq!(h.snap.view, View::Account, "{screen}");
        assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if *key == format!("FEATURE_OFF_{screen}"))), "{:?}", h.effects);
        h.send(json!({"type": "close"}));
    }
}

#[test]
fn accounts_changed_updates_account_and_empty_list_disconnects() {
    let mut h = Harness::new(json!({}));
    h.connect();
    let other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "accountsChanged", "data": [other]}));
    assert_eq!(h.emitted("accountschange").unwrap()["address"], other);
    assert_eq!(h.snap.connection.as_ref().unwrap().address, other);
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "accountsChanged", "data": []}));
    assert!(h.emitted("disconnect").is_some());
    assert!(h.snap.connection.is_none());
}

#[test]
fn events_from_a_wallet_that_is_not_connected_are_ignored() {
    let mut h = Harness::new(json!({}));
    h.connect();
    h.send(json!({"type": "providerEvent", "connectorId": "com.other", "name": "accountsChanged", "data": []}));
    assert!(h.snap.connection.is_some());
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": {"evil": true}}));
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31337");
}

#[test]
fn disconnect_clears_connection_storage_and_returns_to_connect() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"}));
    assert_eq!(h.snap.view, View::Account);
    h.send(json!({"type": "disconnect"}));
    assert_eq!(h.emitted("disconnect").unwrap()["connectorId"], RDNS);
    assert_eq!(h.persisted(storage::KEY_WALLET_ID), Some(None));
    assert_eq!(h.persisted(storage::KEY_EMAIL_CACHE), Some(None));
    assert_eq!(h.persisted(storage::KEY_LAST_USED_CHAIN), Some(None));
    assert_eq!(h.persisted(storage::KEY_SOCIAL_USERNAME), Some(None));
    assert_eq!(h.persisted(storage::KEY_CONNECTIONS), Some(Some("[]".into())));
    assert_eq!(h.snap.view, View::Connect);
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    h.request("wallet_revokePermissions");
}

#[test]
fn reload_reconnects_silently_when_the_wallet_announces() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection());
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Reconnecting));
    assert_eq!(h.snap.network.as_ref().unwrap().caip_network_id, "eip155:31338", "stored configured chain restored");
    h.announce();
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
    assert!(!h.snap.open, "no modal on a silent reconnect");
}

#[test]
fn reload_with_revoked_permission_ends_disconnected() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection()).announce();
    h.answer("eth_accounts", json!([]));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn reload_without_the_wallet_times_out_to_disconnected() {
    let mut h = Harness::new(json!({}));
    h.start(stored_connection());
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms } if id == "reconnect" && *ms == RECONNECT_TIMEOUT_MS)));
    h.send(json!({"type": "timer", "id": "reconnect"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
}

#[test]
fn reconnect_off_sets_every_namespace_disconnected() {
    let mut h = Harness::new(json!({"reconnect": false}));
    h.start(stored_connection()).announce();
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
}

#[test]
fn stored_chain_not_configured_is_not_restored() {
    let mut h = Harness::new(json!({}));
    h.start(json!({storage::KEY_ACTIVE_NETWORK: "\"eip155:1\""}));
    assert_eq!(h.snap.network.unwrap().caip_network_id, "eip155:31337");
}

#[test]
fn corrupt_storage_is_ignored_with_a_debug_alert() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({storage::KEY_CONNECTIONS: "{oops", storage::KEY_RECENT_WALLETS: "7"}));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Disconnected));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "CORRUPT_STORAGE")));
    let mut quiet = Harness::new(json!({"debug": false}));
    quiet.start(json!({storage::KEY_CONNECTIONS: "{oops"}));
    assert!(!quiet.effects.iter().any(|e| matches!(e, Effect::Alert { .. })), "alerts only in debug mode");
    let mut default = Harness::new(json!({}));
    default.start(json!({storage::KEY_CONNECTIONS: "{oops"}));
    assert!(default.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "CORRUPT_STORAGE")), "debug is on by default (spec §1)");
}

#[test]
fn all_wallets_search_is_debounced_and_pages_by_40() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    let (_, url) = h.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
    assert!(url.contains("page=1") && url.contains("entries=40"));
    h.send(json!({"type": "searchWallets", "query": "demo"}));
    assert!(h.fetches().is_empty(), "nothing before the debounce timer");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 300 } if id == "wallet-search")));
    h.send(json!({"type": "timer", "id": "wallet-search"}));
    let (_, url) = h.fetches()[0].clone();
    assert!(url.contains("entries=100") && url.contains("search=demo"));
}

#[test]
fn choosing_walletconnect_asks_the_walletconnect_connector_for_accounts_once() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnect);
    let connector = h.effects.iter().find_map(|e| match e { Effect::ProviderRequest { connector_id, method, .. } if method == "eth_requestAccounts" => Some(connector_id.clone()), _ => None });
    assert_eq!(connector.as_deref(), Some("walletConnect"));
    assert_eq!(h.snap.status["eip155"], Status::Connecting);
    let wc = h.snap.wallet_connect.clone().expect("a pairing is shown");
    assert!(wc.uri.is_none() && wc.wallet.is_none());
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })), "the request under way keeps its pairing");
}

#[test]
fn the_pairing_uri_from_the_shell_is_shown_and_copied_and_junk_is_refused() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 9000}));
    assert!(h.snap.wallet_connect.is_none(), "no URI is taken while no pairing is shown");
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let wc = h.snap.wallet_connect.clone().unwrap();
    assert_eq!(wc.uri.as_deref(), Some(WC_URI));
    assert_eq!(wc.expires_at_ms, Some(241_000));
    h.send(json!({"type": "copyUri"}));
    assert!(h.effects.contains(&Effect::Copy { text: WC_URI.into() }));
    for junk in ["javascript:alert(1)", "wc:a b", ""] {
        h.send(json!({"type": "walletConnectUri", "uri": junk, "expiresAtMs": 1}));
        let wc = h.snap.wallet_connect.clone().unwrap();
        assert!(wc.uri.is_none() && wc.expires_at_ms.is_none(), "{junk:?} is not shown");
    }
}

#[test]
fn a_catalogue_wallet_that_is_not_installed_pairs_with_its_deep_links() {
    let mut h = Harness::new(json!({}));
    h.open_with_catalogue_wallet();
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnect);
    h.request("eth_requestAccounts");
    let w = h.snap.wallet_connect.clone().unwrap().wallet.expect("the chosen wallet");
    assert_eq!(w.name, "Phone Wallet");
    assert_eq!((w.mobile_link.as_deref(), w.webapp_link.as_deref()), (None, None), "no links before there is a URI");
    assert_eq!(h.snap.connecting.as_ref().unwrap().name, "Phone Wallet");
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let w = h.snap.wallet_connect.clone().unwrap().wallet.unwrap();
    let enc = crate::service::url::encode_component(WC_URI);
    assert_eq!(w.mobile_link, None, "the mobile app is not offered on desktop");
    assert_eq!(w.webapp_link, Some(format!("https://phone.example/app/wc?uri={enc}")));
}

#[test]
fn on_mobile_the_mobile_app_link_is_offered_and_unsafe_catalogue_links_are_dropped() {
    let mut h = Harness::new(json!({"mobile": true}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    let (id, _) = h.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
    let body = json!({"count": 1, "data": [{"id": "mobile1", "name": "Phone Wallet", "image_id": "",
        "mobile_link": "phonewallet://", "desktop_link": "phonewallet-desktop://", "webapp_link": "javascript:alert(1)"}]});
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": body.to_string()}));
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    h.send(json!({"type": "walletConnectUri", "uri": WC_URI, "expiresAtMs": 241_000}));
    let w = h.snap.wallet_connect.clone().unwrap().wallet.unwrap();
    assert_eq!(w.mobile_link, Some(format!("phonewallet://wc?uri={}", crate::service::url::encode_component(WC_URI))));
    assert_eq!(w.desktop_link, None, "the desktop app is not offered on mobile");
    assert_eq!(w.webapp_link, None, "a javascript: link is never offered");
}

#[test]
fn walletconnect_approval_connects_like_an_injected_wallet() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a6a"));
    let detail = h.emitted("connect").expect("connect event");
    assert_eq!(detail["connectorId"], "walletConnect");
    assert_eq!(detail["connectorName"], "WalletConnect");
    assert_eq!(detail["caipNetworkId"], "eip155:31338");
    assert!(!h.snap.open, "the modal closes after connecting");
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
    assert_eq!(h.snap.connection.as_ref().unwrap().connector_name, "WalletConnect");
}

#[test]
fn a_wallet_rejecting_the_pairing_shows_connection_rejected_and_retry_pairs_again() {
    let mut h = Harness::new(json!({}));
    h.open_with_catalogue_wallet();
    h.send(json!({"type": "selectWallet", "id": "mobile1"}));
    h.reject("eth_requestAccounts", 4001);
    let c = h.snap.connecting.clone().unwrap();
    assert_eq!(c.error.unwrap().message, "Connection rejected");
    assert_eq!(h.emitted("error").unwrap()["message"], "Connection rejected");
    h.send(json!({"type": "retry"}));
    h.request("eth_requestAccounts");
    assert_eq!(h.snap.wallet_connect.clone().unwrap().wallet.unwrap().id, "mobile1", "retry keeps the chosen wallet");
}

#[test]
fn closing_while_pairing_releases_the_connector_and_reports_modal_closed() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "close"}));
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert_eq!(h.emitted("error").unwrap()["message"], "Modal closed");
    assert_eq!(h.snap.status["eip155"], Status::Disconnected);
    assert!(h.snap.wallet_connect.is_none());
    h.send(json!({"type": "providerResult", "id": id, "result": [ADDR]}));
    assert!(h.snap.connection.is_none(), "a late approval after close is ignored");
}

#[test]
fn the_basic_pairing_view_starts_a_pairing_when_shown_and_lists_wallets() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "ConnectingWalletConnectBasic"}));
    assert_eq!(h.snap.view, View::ConnectingWalletConnectBasic);
    h.request("eth_requestAccounts");
    assert!(h.snap.wallet_connect.is_some());
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/getWallets") && u.contains("entries=40")), "the wallet list beside the QR code");
}

#[test]
fn a_stored_walletconnect_connection_is_restored_without_an_announcement() {
    let conns = json!([{"namespace": "eip155", "connectorId": "walletConnect", "accounts": [ADDR], "caipNetworkId": "eip155:31337"}]).to_string();
    let mut h = Harness::new(json!({}));
    h.start(json!({"@wallet-modal/connections": conns}));
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status["eip155"], Status::Connected);
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
}

#[test]
fn walletconnect_switches_and_disconnects_through_the_session() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:31338"}));
    let (_, params) = h.request("wallet_switchEthereumChain");
    assert_eq!(params[0]["chainId"], "0x7a6a");
    h.answer("wallet_switchEthereumChain", Value::Null);
    assert_eq!(h.snap.connection.as_ref().unwrap().caip_network_id, "eip155:31338");
    h.send(json!({"type": "disconnect"}));
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert!(h.emitted("disconnect").is_some());
}

#[test]
fn going_back_from_the_pairing_view_drops_the_pairing_quietly() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "back"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.effects.contains(&Effect::ReleaseProvider { connector_id: "walletConnect".into() }));
    assert!(h.emitted("error").is_none(), "going back is not an error");
    assert_eq!(h.snap.status["eip155"], Status::Disconnected);
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
    h.send(json!({"type": "providerResult", "id": id, "result": [ADDR]}));
    assert!(h.snap.connection.is_none(), "a late approval of the dropped pairing is ignored");
}

#[test]
fn choosing_an_injected_wallet_while_pairing_drops_the_pairing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "walletConnect"}));
    let (wc_id, _) = h.request("eth_requestAccounts");
    h.send(json!({"type": "back"}));
    h.send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.view, View::ConnectingExternal);
    assert_eq!(h.snap.status["eip155"], Status::Connecting);
    h.answer("eth_requestAccounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    h.send(json!({"type": "providerResult", "id": wc_id, "result": ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]}));
    assert_eq!(h.snap.connection.as_ref().unwrap().connector_id, RDNS, "the injected connection stays");
}

#[test]
fn an_unknown_connector_id_starts_nothing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.send(json!({"type": "selectConnector", "id": "no.such.wallet"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { .. })));
    assert!(h.snap.wallet_connect.is_none() && h.snap.connecting.is_none());
}

// ----- audit fixes: host API edges, banner, wallet requests from the host, storage -----

#[test]
fn an_unreadable_stored_key_is_ignored_alone_and_the_stored_connection_reconnects() {
    let mut h = Harness::new(json!({"debug": true}));
    h.send(json!({"type": "start", "storage": stored_connection(), "unreadable": ["@wallet-modal/x"]}));
    let alert = h.effects.iter().find_map(|e| match e { Effect::Alert { key, message, .. } if key == "CORRUPT_STORAGE" => Some(message.clone()), _ => None });
    assert!(alert.expect("a debug alert").contains("@wallet-modal/x"));
    h.announce();
    h.answer("eth_accounts", json!([ADDR]));
    h.answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.status.get("eip155"), Some(&Status::Connected));
}

#[test]
fn a_rejected_connection_titles_the_view_connection_rejected() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": RDNS}));
    assert_eq!(h.snap.title, "Connecting");
    h.reject("eth_requestAccounts", 4001);
    assert_eq!(h.snap.title, "Connection rejected");
    h.send(json!({"type": "retry"}));
    h.reject("eth_requestAccounts", -32603);
    assert_eq!(h.snap.title, "Connection failed");
}

#[test]
fn a_bad_announcement_is_ignored_with_a_debug_alert_and_names_lose_bidi_controls() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "announce", "uuid": "", "name": "", "icon": "", "rdns": ""}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "BAD_ANNOUNCEMENT")));
    let mut u = Harness::new(json!({"debug": true}));
    u.start(json!({})).send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "X", "icon": "", "rdns": RDNS, "namespace": "eip155", "usable": false}));
    assert!(u.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "BAD_ANNOUNCEMENT")));
    u.send(json!({"type": "open"}));
    assert!(!u.snap.connectors.iter().any(|c| c.id == RDNS), "an unusable announcement is not listed");
    h.send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "Evil\u{202E}tellaW", "icon": "", "rdns": RDNS, "namespace": "eip155"}));
    h.send(json!({"type": "open"}));
    let row = h.snap.connectors.iter().find(|c| c.id == RDNS).expect("the good announcement is listed");
    assert_eq!(row.name, "EviltellaW");
}

// ----- the embedded wallet -----

#[test]
fn the_embedded_module_logging_in_connects_the_embedded_connector() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert_eq!(h.snap.connect_methods, ["email", "social", "wallet"], "the email and social rows show");
    h.send(json!({"type": "navigate", "view": "EmailLogin"}));
    assert_eq!(h.snap.view, View::EmailLogin);
    h.send(json!({"type": "connectEmbedded"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { connector_id, method, .. } if connector_id == "embedded" && method == "eth_requestAccounts")));
    assert!(h.loaded("embedded"), "the connector's module answers it");
    // The embedded wallet's provider asks the frame who is logged in.
    h.frame_ready().frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h.frame_answer("GET_USER", json!({"address": ADDR, "email": "a@b.co"}));
    let detail = h.emitted("connect").unwrap();
    assert_eq!((detail["connectorId"].as_str(), detail["connectorName"].as_str()), (Some("embedded"), Some("Embedded Wallet")));
    assert!(h.persisted(storage::KEY_CONNECTIONS).unwrap().unwrap().contains("\"connectorId\":\"embedded\""));
}

#[test]
fn a_stored_embedded_connection_is_restored_through_its_connector_at_start() {
    let mut h = Harness::new(json!({}));
    let stored = json!({storage::KEY_CONNECTIONS: format!("[{{\"namespace\":\"eip155\",\"connectorId\":\"embedded\",\"accounts\":[\"{ADDR}\"],\"caipNetworkId\":\"eip155:31337\"}}]")});
    h.start(stored);
    assert!(h.effects.iter().any(|e| matches!(e, Effect::ProviderRequest { connector_id, method, .. } if connector_id == "embedded" && method == "eth_accounts")), "no announcement needed");
    assert!(h.loaded("embedded"), "a stored embedded session loads its module");
    h.frame_ready().frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h.frame_answer("GET_USER", json!({"address": ADDR, "email": "a@b.co"}));
    assert_eq!(h.emitted("connect").unwrap()["reconnected"], true);
}

#[test]
fn a_familys_legacy_provider_shows_as_browser_wallet_and_connects_in_its_namespace() {
    let mut h = Harness::new(json!({}));
    h.send(json!({"type": "start", "storage": {}, "legacyNamespace": "eip155"})).send(json!({"type": "open"}));
    assert!(h.snap.connectors.iter().any(|c| c.id == "injected" && c.name == "Browser Wallet"));
    h.send(json!({"type": "selectConnector", "id": "injected"}));
    h.answer("eth_requestAccounts", json!([ADDR])).answer("eth_chainId", json!("0x7a69"));
    assert_eq!(h.snap.connection.as_ref().map(|c| (c.namespace.as_str(), c.connector_id.as_str())), Some(("eip155", "injected")));
    // A namespace of no family this build knows shows nothing.
    let mut u = Harness::new(json!({}));
    u.send(json!({"type": "start", "storage": {}, "legacyNamespace": "tron"})).send(json!({"type": "open"}));
    assert!(!u.snap.connectors.iter().any(|c| c.id == "injected"));
}

#[test]
fn an_announcement_of_a_family_that_cannot_connect_is_ignored_with_a_debug_alert() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "X", "icon": "", "rdns": RDNS, "namespace": "tron"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { message, .. } if message.contains("chain family"))));
    h.send(json!({"type": "open"}));
    assert!(!h.snap.connectors.iter().any(|c| c.id == RDNS));
}

fn listing(id: &str) -> Value {
    json!({"id": id, "name": format!("Wallet {id}"), "image_id": format!("img-{id}")})
}

#[test]
fn the_hosts_featured_wallets_come_first_in_its_order_and_its_include_exclude_and_badge_reach_get_wallets() {
    let wallets = json!({"featuredWallets": "fz,fa", "includeWallets": "fa,fz,r1,r2", "excludeWallets": "bad", "certifiedWallets": true});
    let mut h = Harness::new(wallets);
    h.start(json!({})).send(json!({"type": "open"}));
    let urls: Vec<String> = h.fetches().into_iter().map(|(_, u)| u).filter(|u| u.contains("/getWallets")).collect();
    let featured = urls.iter().find(|u| u.contains("include=fz%2Cfa")).expect("the featured wallets asked by id");
    assert!(featured.contains("entries=100"), "{featured}");
    assert!(featured.contains("include=fz%2Cfa") && !featured.contains("exclude=") && !featured.contains("badge_type"), "{featured}");
    let recommended = urls.iter().find(|u| u.contains("entries=4")).expect("recommended");
    assert!(recommended.contains("include=fa%2Cfz%2Cr1%2Cr2") && recommended.contains("exclude=bad%2Cfz%2Cfa") && recommended.contains("badge_type=certified"), "{recommended}");
    // The service answers in its own order; the host's order wins.
    h.serve("include=fz", 200, json!({"count": 2, "data": [listing("fa"), listing("fz")]}));
    h.serve("entries=4", 200, json!({"count": 2, "data": [listing("r1"), listing("r2")]}));
    let kinds: Vec<(String, String)> = h.snap.connectors.iter().map(|c| (c.id.clone(), c.kind.clone())).collect();
    let listed: Vec<(String, String)> = kinds.into_iter().filter(|(_, k)| k == "featured" || k == "recommended").collect();
    let expected = [("fz", "featured"), ("fa", "featured"), ("r1", "recommended"), ("r2", "recommended")];
    assert_eq!(listed, expected.map(|(a, b)| (a.to_string(), b.to_string())).to_vec());
    // AllWallets: the featured first, then the list (which left them out); a search shows only its results.
    h.send(json!({"type": "navigate", "view": "AllWallets"}));
    let list = h.fetches().into_iter().map(|(_, u)| u).find(|u| u.contains("entries=40")).unwrap();
    assert!(list.contains("exclude=bad%2Cfz%2Cfa") && list.contains("badge_type=certified"), "{list}");
    h.serve("entries=40", 200, json!({"count": 2, "data": [listing("r1"), listing("r2")]}));
    let ids: Vec<&str> = h.snap.all_wallets.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["fz", "fa", "r1", "r2"]);
    h.send(json!({"type": "searchWallets", "query": "wallet"})).send(json!({"type": "timer", "id": "wallet-search"}));
    let search = h.fetches()[0].1.clone();
    assert!(search.contains("exclude=bad&"), "a search may find the featured ones: {search}");
    h.serve("entries=100", 200, json!({"count": 1, "data": [listing("r2")]}));
    let ids: Vec<&str> = h.snap.all_wallets.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["r2"]);
}

#[test]
fn a_wallets_option_with_a_bad_id_or_too_many_ids_is_refused_with_its_name() {
    let many: Vec<String> = (0..101).map(|i| format!("w{i}")).collect();
    for (key, bad) in [("featuredWallets", json!("a b")), ("excludeWallets", json!(many.join(","))), ("includeWallets", json!(["x"])), ("featuredWallets", json!("a,,b"))] {
        let err = serde_json::from_value::<crate::host::Options>(json!({key: bad})).unwrap_err().to_string();
        assert!(err.contains(key), "{key}: {err}");
    }
}
