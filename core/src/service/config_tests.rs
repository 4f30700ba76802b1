//! Unit tests of `config`.

use super::*;

#[test]
fn the_projects_swap_networks_are_read_and_bounded() {
    let list: Vec<String> = (0..100).map(|i| format!("\"eip155:{i}\"")).collect();
    let body = format!(r#"{{"features":{{"swaps":["1inch"],"swapNetworks":[{}]}}}}"#, list.join(","));
    let f = parse_config_response(200, &body).unwrap();
    assert_eq!(f.swap_networks.len(), 64, "at most 64 kept");
    assert_eq!(f.swap_networks[0], "eip155:0");
    let f = parse_config_response(200, r#"{"features":{"swaps":["1inch"]}}"#).unwrap();
    assert!(f.swap_networks.is_empty(), "optional");
    assert!(parse_config_response(200, r#"{"features":{"swapNetworks":[1]}}"#).is_none(), "strings only");
}

fn remote() -> RemoteFeatures {
    RemoteFeatures { email: false, socials: vec!["github".into()], multi_wallet: true, ..basic_features() }
}

#[test]
fn basic_mode_disables_all_remote_features() {
    let r = resolve(true, Some(&remote()), Some(remote()));
    assert_eq!(r.source, Source::Basic);
    assert_eq!(r.features, basic_features());
}

#[test]
fn remote_config_wins_and_debug_notice_says_local_was_ignored() {
    let local = RemoteFeatures { email: true, ..basic_features() };
    let r = resolve(false, Some(&local), Some(remote()));
    assert_eq!(r.source, Source::Remote);
    assert_eq!(r.features, remote());
    assert!(r.notice.unwrap().contains("ignored"));
    assert_eq!(resolve(false, None, Some(remote())).notice, None);
}

#[test]
fn failed_remote_config_falls_back_to_local_then_defaults() {
    let local = RemoteFeatures { email: true, ..basic_features() };
    let r = resolve(false, Some(&local), None);
    assert_eq!((r.source, r.features.email), (Source::Local, true));
    let r = resolve(false, None, None);
    assert_eq!(r.source, Source::Default);
    assert_eq!(r.features, RemoteFeatures::default_remote());
}

#[test]
fn config_response_needs_success_status_and_shape() {
    let body = serde_json::json!({"features": {"email": true, "socials": ["x"], "multiWallet": true}}).to_string();
    let f = parse_config_response(200, &body).unwrap();
    assert!(f.email && f.multi_wallet);
    assert_eq!(parse_config_response(500, &body), None);
    assert_eq!(parse_config_response(200, "[]"), None);
    assert_eq!(parse_config_response(200, "<html>"), None);
}
