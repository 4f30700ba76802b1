//! The service slice's flows: nothing before open, remote config, origins, analytics.

use crate::host::harness::*;


/// An analytics event the engine sent (`POST {analytics-url}/e`): its URL and body.
fn beacon(e: &Effect) -> Option<(&str, &str)> {
    match e {
        Effect::Fetch { url, body: Some(body), .. } if url.contains("/e?projectId=") => Some((url, body)),
        _ => None,
    }
}

#[test]
fn analytics_answering_403_shows_invalid_app_configuration_once() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":true}"}));
    let sent = h.fetches().into_iter().find(|(_, u)| u.contains("/e?projectId=")).expect("MODAL_OPEN sent").0;
    h.send(json!({"type": "fetchResult", "id": sent, "status": 403, "body": ""}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_APP_CONFIGURATION")), "{:?}", h.effects);
    assert_eq!(h.emitted("error").unwrap()["message"], "Invalid App Configuration");
    h.send(json!({"type": "close"}));
    let sent = h.fetches().into_iter().find(|(_, u)| u.contains("/e?projectId=")).expect("MODAL_CLOSE sent").0;
    h.send(json!({"type": "fetchResult", "id": sent, "status": 403, "body": ""}));
    assert!(h.emitted("error").is_none(), "once");
}
#[test]
fn nothing_is_fetched_before_open() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce();
    assert!(h.fetches().is_empty());
    h.send(json!({"type": "open"}));
    let urls: Vec<String> = h.fetches().into_iter().map(|(_, u)| u).collect();
    assert!(urls.iter().any(|u| u.starts_with("http://api.test/appkit/v1/config?projectId=p")));
    assert!(urls.iter().any(|u| u.starts_with("http://api.test/projects/v1/origins")));
    assert!(urls.iter().any(|u| u.contains("/getWallets?") && u.contains("entries=4")), "recommended wallets for Connect");
    h.send(json!({"type": "close"})).send(json!({"type": "open"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/appkit/v1/config")), "config is fetched once");
}

#[test]
fn basic_mode_fetches_no_remote_config() {
    let mut h = Harness::new(json!({"basic": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/appkit/v1/config") || u.contains("/getAnalyticsConfig")));
}

#[test]
fn origin_not_allowed_raises_invalid_app_configuration_once_in_debug() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/origins")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"allowedOrigins\":[\"https://*.example.com\"]}"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_APP_CONFIGURATION")));
    assert_eq!(h.emitted("error").unwrap()["message"], "Invalid App Configuration");
}

#[test]
fn allowed_origin_with_wildcard_raises_nothing() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/origins")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"allowedOrigins\":[\"http://127.0.0.1:*\"]}"}));
    assert!(h.effects.is_empty());
}

#[test]
fn remote_config_failure_falls_back_to_defaults_with_debug_notice() {
    let mut h = Harness::new(json!({"debug": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/appkit/v1/config")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 500, "body": ""}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "REMOTE_CONFIG")));
}

#[test]
fn analytics_events_wait_for_the_analytics_switch_and_are_sent_when_enabled() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.effects.iter().any(|e| beacon(e).is_some()));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":true}"}));
    let sent = h.effects.iter().find_map(|e| beacon(e).map(|(u, b)| (u.to_string(), b.to_string()))).unwrap();
    assert!(sent.0.starts_with("http://pulse.test/e?projectId=p&st="));
    assert!(sent.1.contains("MODAL_OPEN"));
    h.send(json!({"type": "close"}));
    assert!(h.effects.iter().any(|e| beacon(e).is_some_and(|(_, b)| b.contains("MODAL_CLOSE"))));
}

#[test]
fn analytics_is_on_by_default_when_its_switch_cannot_be_read_and_never_before_open() {
    for (status, body) in [(500, ""), (200, "not json"), (200, "{}"), (0, "")] {
        let mut h = Harness::new(json!({}));
        h.start(json!({}));
        assert!(!h.fetches().iter().any(|(_, u)| u.contains("/getAnalyticsConfig")), "nothing before open()");
        h.send(json!({"type": "open"}));
        let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
        h.send(json!({"type": "fetchResult", "id": id, "status": status, "body": body}));
        assert!(h.effects.iter().any(|e| beacon(e).is_some_and(|(_, b)| b.contains("MODAL_OPEN"))), "{status} {body:?}: on by default");
    }
    let mut basic = Harness::new(json!({"basic": true}));
    basic.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "close"}));
    assert!(!basic.effects.iter().any(|e| beacon(e).is_some()), "never in basic mode");
}

#[test]
fn analytics_disabled_sends_nothing() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":false}"}));
    h.send(json!({"type": "close"}));
    assert!(!h.effects.iter().any(|e| beacon(e).is_some()));
}

#[test]
fn a_lazy_slices_analytics_event_is_sent_like_the_modals_and_made_up_names_are_refused() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    // A module's slice reports it: the engine hears its note.
    h.send(json!({"type": "notes", "notes": [{"note": "analytics", "event": "ERROR_FETCH_TRANSACTIONS", "connected": false}]}));
    assert!(!h.effects.iter().any(|e| beacon(e).is_some()), "waits for the analytics switch");
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":true}"}));
    let bodies: Vec<String> = h.effects.iter().filter_map(|e| beacon(e).map(|(_, b)| b.to_string())).collect();
    assert!(bodies.iter().any(|b| b.contains("\"event\":\"ERROR_FETCH_TRANSACTIONS\"")), "{bodies:?}");
    h.send(json!({"type": "notes", "notes": [{"note": "analytics", "event": "ANYTHING", "connected": false}]}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_EVENT")), "an event nobody reports is refused");
}

#[test]
fn errors_the_host_hears_are_reported_to_analytics_at_most_5_a_minute() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    let id = h.fetches().into_iter().find(|(_, u)| u.contains("/getAnalyticsConfig")).unwrap().0;
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": "{\"isAnalyticsEnabled\":true}"}));
    h.send(json!({"type": "close"}));
    h.connect();
    let mut reports = Vec::new();
    for _ in 0..7 {
        h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:999"}));
        assert!(h.emitted("error").is_some());
        reports.extend(h.effects.iter().filter_map(|e| beacon(e).map(|(_, b)| b.to_string())).filter(|b| b.contains("\"type\":\"error\"")));
        h.now += 1_000;
    }
    assert_eq!(reports.len(), 5, "spec §7: 5 per 60 s");
    assert!(reports[0].contains("\"errorType\":\"SWITCH_NETWORK_NOT_FOUND\"") && reports[0].contains("\"errorMessage\":\"Switch network not found\""), "{}", reports[0]);
    h.now += 60_000;
    h.send(json!({"type": "switchNetwork", "caipNetworkId": "eip155:999"}));
    assert!(h.effects.iter().any(|e| beacon(e).is_some_and(|(_, b)| b.contains("\"type\":\"error\""))), "a new minute");
}

#[test]
fn the_footer_follows_reown_branding() {
    let mut h = Harness::new(json!({}));
    h.start(json!({}));
    assert_eq!(h.snap.part("branding"), &json!(true), "the spec's defaults: on");
    h.send(json!({"type": "open"}));
    h.serve("appkit/v1/config", 200, json!({"features": {"reownBranding": false}}));
    assert_eq!(h.snap.part("branding"), &json!(false));
}

#[test]
fn the_modal_is_loading_until_the_project_configuration_answers_and_only_on_the_first_open() {
    let mut h = Harness::new(json!({}));
    h.start(json!({}));
    assert!(!h.snap.loading);
    h.send(json!({"type": "open"}));
    assert!(h.snap.loading, "loading while /appkit/v1/config is asked");
    // Closed and opened again before it answers: still loading, and asked only once.
    h.send(json!({"type": "close"})).send(json!({"type": "open"}));
    assert!(h.snap.loading);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/appkit/v1/config")));
    h.serve("/appkit/v1/config", 500, json!({}));
    assert!(!h.snap.loading, "a failed answer ends the loading too");
    h.send(json!({"type": "close"})).send(json!({"type": "open"}));
    assert!(!h.snap.loading, "no second loading");
}

#[test]
fn basic_mode_never_shows_loading() {
    let mut h = Harness::new(json!({"basic": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.snap.loading);
}

#[test]
fn the_allowed_origins_answering_429_or_5xx_says_rate_limited_or_server_error() {
    for (status, key, title) in [(429, "RATE_LIMITED", "Rate Limited"), (503, "SERVER_ERROR", "Server Error")] {
        let mut h = Harness::new(json!({}));
        h.start(json!({})).send(json!({"type": "open"}));
        h.serve("/projects/v1/origins", status, json!({}));
        let alert = h.effects.iter().find_map(|e| match e {
            Effect::Alert { key: k, message, .. } if k == key => Some(message.clone()),
            _ => None,
        });
        assert_eq!(alert.as_deref(), Some(title), "{status}: {:?}", h.effects);
    }
    // Anything else is an empty list: no alert.
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"}));
    h.serve("/projects/v1/origins", 404, json!({}));
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Alert { .. })));
}
