//! The social and farcaster slices' flows, with the secure frame played by the test.

use crate::host::harness::*;

#[test]
fn social_login_opens_the_providers_page_in_the_popup_and_popup_closed_is_reported() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "socialLogin", "provider": "google"}));
    assert_eq!(h.snap.part("social")["busy"], true);
    h.frame_ready();
    assert_eq!(h.frame_post("GET_SOCIAL_REDIRECT_URI").1, json!({"provider": "google"}));
    h.frame_answer("GET_SOCIAL_REDIRECT_URI", json!({"uri": "http://127.0.0.1:9/auth"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Popup { url } if url == "http://127.0.0.1:9/auth")));
    h.send(json!({"type": "popupClosed"}));
    assert_eq!(h.snap.part("social")["error"], "Popup closed");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Emit { name: "error", detail } if detail["message"] == "Popup closed")));
}

#[test]
fn the_social_result_logs_in() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "socialLogin", "provider": "github"}));
    h.frame_ready().send(json!({"type": "socialResult", "uri": "http://127.0.0.1:9/w/v1/social/result?r=abc"}));
    assert!(h.effects.iter().any(|e| matches!(e, Effect::PopupClose)));
    assert_eq!(h.frame_post("CONNECT_SOCIAL").1["uri"], "http://127.0.0.1:9/w/v1/social/result?r=abc");
    h.frame_answer("CONNECT_SOCIAL", json!({"address": ADDR, "userName": "octocat", "socialProvider": "github"}));
    assert!(h.dispatched().iter().any(|d| d["type"] == "connectEmbedded"));
    h.frame_answer("IS_CONNECTED", json!({"isConnected": true}));
    h.frame_answer("GET_USER", json!({"address": ADDR, "userName": "octocat", "socialProvider": "github"}));
    assert_eq!(h.snap.part("embeddedUser")["userName"], "octocat");
    assert_eq!(h.snap.part("social"), &Value::Null, "done");
    assert_eq!(h.snap.connection.as_ref().unwrap().connector_id, "embedded");
}

#[test]
fn farcaster_shows_a_qr_code_of_the_link_and_connects_once_approved() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open"})).send(json!({"type": "farcasterLogin"}));
    assert_eq!(h.view(), View::ConnectingFarcaster);
    h.frame_ready().frame_answer("GET_FARCASTER_URI", json!({"url": "http://127.0.0.1:9/farcaster?channelToken=x"}));
    assert!(h.snap.part("farcaster")["qr"].as_str().unwrap().starts_with("<svg"));
    h.frame_answer("CONNECT_FARCASTER", json!({"address": ADDR, "userName": "alice"}));
    assert!(h.dispatched().iter().any(|d| d["type"] == "connectEmbedded"));
    h.frame_answer("IS_CONNECTED", json!({"isConnected": true})).frame_answer("GET_USER", json!({"address": ADDR, "userName": "alice"}));
    assert!(h.emitted("connect").is_some());
}
