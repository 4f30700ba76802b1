//! The receive slice's flows: the WalletReceive view.

use crate::host::harness::*;

#[test]
fn receive_shows_the_address_as_a_qr_code_and_back_returns_to_the_account() {
    let mut h = Harness::new(json!({}));
    h.account("eip155:31337", true).send(json!({"type": "navigate", "view": "WalletReceive"}));
    assert_eq!(h.view(), View::WalletReceive);
    assert_eq!(h.snap.title, "Receive");
    assert_eq!(h.snap.part("receive")["address"], ADDR);
    assert_eq!(h.snap.part("receive")["networks"], json!(["Anvil 31337", "Anvil 31338"]), "the networks of its namespace");
    let svg = h.snap.part("receive")["qr"].as_str().unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(" d=\""), "{svg}");
    h.send(json!({"type": "back"}));
    assert_eq!(h.view(), View::Account);
    assert_eq!(h.snap.part("receive"), &Value::Null);
    h.send(json!({"type": "navigate", "view": "WalletReceive"})).send(json!({"type": "close"})).send(json!({"type": "open"}));
    assert_eq!(h.view(), View::Account, "closing leaves Receive");
}

#[test]
fn the_host_can_open_receive_only_while_connected() {
    let mut h = Harness::new(json!({}));
    h.start(json!({})).send(json!({"type": "open", "view": "WalletReceive"}));
    assert_eq!(h.view(), View::Connect);
    h.connect().send(json!({"type": "open", "view": "WalletReceive"}));
    assert_eq!(h.view(), View::WalletReceive);
    assert!(modules_of_view(View::WalletReceive).iter().all(|m| h.loaded(m)), "the module running it loads with the view");
    assert_eq!(h.snap.part("receive")["address"], ADDR);
}
