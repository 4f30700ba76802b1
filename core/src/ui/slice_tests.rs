//! The ui slice's flows: opening, closing, back, shake, embedded mode.

use crate::host::harness::*;

#[test]
fn close_resets_to_connect_and_restores_focus() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
    h.send(json!({"type": "close"}));
    assert!(!h.snap.open);
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.effects.contains(&Effect::RestoreFocus));
    assert_eq!(h.emitted("close").unwrap()["connected"], false);
}

#[test]
fn back_from_the_first_view_closes() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "back"}));
    assert!(!h.snap.open);
}

#[test]
fn embedded_mode_shows_account_after_close_when_connected() {
    let mut h = Harness::new(json!({"embedded": true}));
    h.connect();
    h.send(json!({"type": "open", "view": "SwitchNetwork"})).send(json!({"type": "close"}));
    assert_eq!(h.snap.view, View::Account);
    assert!(h.snap.embedded);
}

#[test]
fn open_with_an_unknown_view_reports_it_and_opens_the_default_view() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open", "view": "Nope"}));
    assert!(h.snap.open);
    assert_eq!(h.snap.view, View::Connect);
    let e = h.emitted("error").expect("an error event");
    assert_eq!(e["key"], "UNKNOWN_VIEW");
    assert_eq!(e["message"], "Unknown view: Nope");
}

#[test]
fn open_account_while_disconnected_opens_connect() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).announce().send(json!({"type": "open", "view": "Account"}));
    assert_eq!(h.snap.view, View::Connect);
    assert!(h.emitted("error").is_none(), "asking for Account before connecting is not an error");
}

#[test]
fn open_with_a_view_not_built_yet_never_shows_it_empty() {
    for name in ["RegisterAccountName"] {
        let mut h = Harness::new(json!({}));
        h.connect().send(json!({"type": "open", "view": name}));
        assert_eq!(h.snap.view, View::Account, "{name}: connected, the default view is Account");
        assert_eq!(h.emitted("error").unwrap()["message"], format!("The {name} view is not available yet"));
    }
}

#[test]
fn open_on_sign_in_shows_the_default_view_it_follows_the_connection() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open", "view": "SIWXSignMessage"}));
    assert_eq!(h.snap.view, View::Account);
    assert!(h.emitted("error").is_none());
}

#[test]
fn a_modules_screen_opens_the_closed_modal_on_it_and_back_closes_it() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "navigate", "view": "ApproveTransaction"}));
    assert!(h.snap.open);
    assert_eq!(h.snap.view, View::ApproveTransaction);
    assert!(h.emitted("open").is_some());
    h.send(json!({"type": "back"}));
    assert!(!h.snap.open, "opened for the approval: leaving it closes the modal");
}

#[test]
fn a_module_can_show_an_error_banner() {
    let mut h = Harness::new(json!({}));
    h.connect().send(json!({"type": "open"})).send(json!({"type": "showBanner", "message": "Action not allowed"}));
    let b = h.snap.banner.clone().unwrap();
    assert_eq!((b.variant.as_str(), b.message.as_str()), ("error", "Action not allowed"));
}

#[test]
fn embedded_mode_offers_no_close_button() {
    let mut h = Harness::new(json!({"embedded": true}));
    h.start(json!({})).send(json!({"type": "open"}));
    assert!(!h.snap.can_close);
    let mut m = Harness::new(json!({}));
    m.start(json!({})).send(json!({"type": "open"}));
    assert!(m.snap.can_close);
}
