//! Unit tests of `wallets`.

use super::*;

/// The namespace of the EVM family (which connects announced wallets).
const EVM: &str = "eip155";
const ICON: &str = "data:image/svg+xml;base64,PHN2Zy8+";

fn listing(id: &str, rdns: Option<&str>) -> WalletListing {
    serde_json::from_value(serde_json::json!({
        "id": id, "name": format!("Wallet {id}"), "image_id": format!("img-{id}"), "rdns": rdns,
        "chains": ["eip155:1"], "mobile_link": null, "desktop_link": null, "webapp_link": null
    }))
    .unwrap()
}

#[test]
fn eip6963_announcement_is_recorded_with_rdns_as_id() {
    let mut d = Discovery::default();
    let w = d.announce("350670db-19fa-4704-a166-e52e178b59d2", "Demo Wallet", ICON, "dev.walletmodal.demo", EVM).unwrap();
    assert_eq!(w.id, "dev.walletmodal.demo");
    assert_eq!(w.icon.as_deref(), Some(ICON));
}

#[test]
fn eip6963_duplicates_by_uuid_or_rdns_are_refused() {
    let mut d = Discovery::default();
    d.announce("u1", "A", ICON, "com.a", EVM).unwrap();
    assert_eq!(d.announce("u1", "B", ICON, "com.b", EVM).unwrap_err(), Refused::Duplicate);
    assert_eq!(d.announce("u2", "A again", ICON, "com.a", EVM).unwrap_err(), Refused::Duplicate);
    assert_eq!(d.installed().len(), 1);
}

#[test]
fn eip6963_icons_accepted_only_as_data_image_uris() {
    assert_eq!(safe_icon(ICON).as_deref(), Some(ICON));
    assert_eq!(safe_icon("https://evil.example/x.svg"), None);
    assert_eq!(safe_icon("javascript:alert(1)"), None);
    assert_eq!(safe_icon("data:text/html,<script>"), None);
    assert_eq!(safe_icon("data:image/svg+xml,<svg onload=x>"), None, "markup characters refused");
    let mut d = Discovery::default();
    let w = d.announce("u1", "A", "https://x/y.png", "com.a", EVM).unwrap();
    assert_eq!(w.icon, None, "a wallet with a bad icon keeps a placeholder");
}

#[test]
fn eip6963_bad_announcements_are_refused() {
    let mut d = Discovery::default();
    assert_eq!(d.announce("u1", "A", ICON, "com.a", "nope").unwrap_err(), Refused::BadNamespace);
    assert_eq!(d.announce("u1", "A", ICON, "com.a", "tron").unwrap_err(), Refused::BadNamespace, "no family of this build");
    assert!(d.announce("u2", "K", ICON, "com.k", "cosmos").is_ok(), "every family of the spec connects wallets");
    assert_eq!(d.announce("", "A", ICON, "com.a", EVM).unwrap_err(), Refused::BadUuid);
    assert_eq!(d.announce("u\"", "A", ICON, "com.a", EVM).unwrap_err(), Refused::BadUuid);
    assert_eq!(d.announce("u1", " \u{0007} ", ICON, "com.a", EVM).unwrap_err(), Refused::BadName);
    assert_eq!(d.announce("u1", "A", ICON, "nodots", EVM).unwrap_err(), Refused::BadRdns);
    assert_eq!(d.announce("u1", "A", ICON, "a..b", EVM).unwrap_err(), Refused::BadRdns);
}

#[test]
fn wallet_names_are_trimmed_and_bounded() {
    assert_eq!(clean_name("  Demo\u{0000} Wallet ").as_deref(), Some("Demo Wallet"));
    assert_eq!(clean_name("Demo\u{202E}tellaW\u{202C} \u{2066}x\u{2069}\u{200F}").as_deref(), Some("DemotellaW x"), "bidi controls stripped");
    assert_eq!(clean_name("\u{202E}\u{2067}"), None, "nothing left");
    assert_eq!(clean_name(&"x".repeat(500)).unwrap().len(), MAX_NAME_CHARS);
}

#[test]
fn legacy_window_ethereum_shows_only_when_nothing_announced() {
    let mut d = Discovery::default();
    d.set_legacy(Some(EVM));
    assert_eq!(d.installed()[0].id, LEGACY_INJECTED_ID);
    d.announce("u1", "A", ICON, "com.a", EVM).unwrap();
    assert_eq!(d.installed().len(), 1);
    assert_eq!(d.installed()[0].id, "com.a");
}

#[test]
fn connector_order_is_walletconnect_recent_injected_then_recommended() {
    let mut d = Discovery::default();
    d.announce("u1", "A", ICON, "com.a", EVM).unwrap();
    d.announce("u2", "B", ICON, "com.b", EVM).unwrap();
    let rec = vec![listing("r1", None), listing("r2", Some("com.a"))];
    let rows = connector_rows(&d, &["com.b".into()], &[], &rec, true, |id| format!("img/{id}"));
    let ids: Vec<_> = rows.iter().map(|r| (r.id.as_str(), r.kind)).collect();
    assert_eq!(
        ids,
        vec![
            ("walletConnect", ConnectorKind::WalletConnect),
            ("com.b", ConnectorKind::Recent),
            ("com.a", ConnectorKind::Injected),
            ("r1", ConnectorKind::Recommended),
        ]
    );
    assert_eq!(rows[3].icon.as_deref(), Some("img/img-r1"));
}

#[test]
fn recent_wallet_not_installed_is_not_shown_as_recent() {
    let d = Discovery::default();
    let rows = connector_rows(&d, &["com.gone".into()], &[], &[], false, |id| id.to_string());
    assert!(rows.is_empty());
}

#[test]
fn connector_kinds_sort_in_spec_order() {
    let mut kinds = vec![
        ConnectorKind::Recommended,
        ConnectorKind::External,
        ConnectorKind::Custom,
        ConnectorKind::Featured,
        ConnectorKind::Injected,
        ConnectorKind::Recent,
        ConnectorKind::WalletConnect,
        ConnectorKind::Safe,
    ];
    kinds.sort();
    let names: Vec<String> = kinds.iter().map(|k| serde_json::to_string(k).unwrap().replace('"', "")).collect();
    // A Safe app's own Safe before the spec's order (§6).
    let spec = std::iter::once("safe").chain(crate::service::constants::CONNECTOR_ORDER.iter().copied());
    assert_eq!(names, spec.map(str::to_string).collect::<Vec<_>>());
    assert!(kinds.iter().all(|k| serde_json::to_string(k).unwrap().replace('"', "") == k.name()));
}

#[test]
fn a_safe_apps_own_safe_comes_before_walletconnect_and_a_recent_wallet_even_when_it_was_recent() {
    let mut d = Discovery::default();
    d.announce("u1", "A", ICON, "com.a", EVM).unwrap();
    d.announce("safe-app", "Safe", ICON, SAFE_ID, EVM).unwrap();
    let rows = connector_rows(&d, &["com.a".into(), SAFE_ID.into()], &[], &[], true, |id| id.to_string());
    let ids: Vec<_> = rows.iter().map(|r| (r.id.as_str(), r.kind)).collect();
    assert_eq!(ids, vec![(SAFE_ID, ConnectorKind::Safe), ("walletConnect", ConnectorKind::WalletConnect), ("com.a", ConnectorKind::Recent)]);
    let mut json = crate::service::json::Writer::new();
    rows[0].write_json(&mut json);
    assert!(json.finish().contains(r#""kind":"safe","installed":true"#));
}

#[test]
fn a_wallet_of_two_families_is_one_row_and_connects_in_the_active_namespace() {
    let mut d = Discovery::default();
    d.announce("u1", "Demo Wallet", ICON, "dev.walletmodal.demo", EVM).unwrap();
    d.announce("standard-1", "demo wallet", ICON, "standard.demo-wallet", "solana").unwrap();
    d.announce("standard-2", "Other", ICON, "standard.other", "solana").unwrap();
    let rows = connector_rows(&d, &["standard.demo-wallet".into()], &[], &[], false, |id| id.to_string());
    let ids: Vec<_> = rows.iter().map(|r| (r.id.as_str(), r.kind)).collect();
    assert_eq!(ids, vec![("dev.walletmodal.demo", ConnectorKind::Recent), ("standard.other", ConnectorKind::Injected)]);
    assert_eq!(d.for_namespace("dev.walletmodal.demo", "solana").unwrap().id, "standard.demo-wallet");
    assert_eq!(d.for_namespace("dev.walletmodal.demo", EVM).unwrap().id, "dev.walletmodal.demo");
    assert_eq!(d.for_namespace("standard.other", EVM).unwrap().id, "standard.other", "no EVM side: its own");
    assert!(d.for_namespace("com.gone", EVM).is_none());
}
