//! The send slice's flows: the WalletSend form and the WalletSendPreview, through the wallet.

use crate::account::portfolio_tests::balances;
use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";
const USDC: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

impl Harness {
    /// The Account view with its tokens read, then the Send form.
    fn sending(&mut self) -> &mut Self {
        self.account(CHAIN, true).serve("/balance?", 200, balances());
        // The engine's native balance, read on connect.
        self.serve("127.0.0.1:8337", 200, json!({"jsonrpc": "2.0", "id": 1, "result": "0x1"}));
        self.send(json!({"type": "navigate", "view": "WalletSend"}))
    }

    /// The receipt timer fires when it is due.
    fn receipt_timer(&mut self) -> &mut Self {
        let ms = self.effects.iter().find_map(|e| match e {
            Effect::StartTimer { id, ms } if id == "send-receipt" => Some(*ms),
            _ => None,
        });
        self.now += ms.expect("the receipt timer runs");
        self.fire("send-receipt")
    }
}

fn send_part(h: &Harness) -> &Value {
    h.snap.part("send")
}

#[test]
fn the_send_form_refuses_what_the_spec_and_eip55_refuse() {
    let mut h = Harness::new(json!({}));
    h.sending();
    assert_eq!(h.view(), View::WalletSend);
    assert_eq!(h.snap.title, "Send");
    assert_eq!(send_part(&h)["tokens"].as_array().unwrap().len(), 2, "every token held");
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(send_part(&h)["error"], "An amount and receiver address are required");
    assert_eq!(h.view(), View::WalletSend, "no preview of a bad form");
    h.send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": "0x70997970C51812DC3A010C7d01b50e0d17dc79C8"}));
    h.send(json!({"type": "sendPreview"}));
    assert!(send_part(&h)["error"].as_str().unwrap().contains("wrong checksum (EIP-55)"), "{}", send_part(&h)["error"]);
    h.send(json!({"type": "sendSetReceiver", "receiver": BOB})).send(json!({"type": "sendSetAmount", "amount": "10000"}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(send_part(&h)["error"], "Insufficient ETH balance");
    h.send(json!({"type": "sendMax"}));
    assert_eq!(send_part(&h)["amount"], "9999.5");
}

#[test]
fn sending_ether_previews_the_fee_then_sends_through_the_wallet_and_watches_the_receipt() {
    let mut h = Harness::new(json!({}));
    h.sending().send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB.to_lowercase()}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(h.view(), View::WalletSendPreview);
    assert_eq!(h.snap.title, "Preview send");
    let (gas_id, gas) = h.request("eth_estimateGas");
    assert_eq!(gas[0]["value"], "0xde0b6b3a7640000");
    let (price_id, _) = h.request("eth_gasPrice");
    h.send(json!({"type": "providerResult", "id": gas_id, "result": "0x5208"}));
    h.send(json!({"type": "providerResult", "id": price_id, "result": "0x3b9aca00"}));
    assert_eq!(send_part(&h)["preview"]["fee"], "0.000021 ETH");
    assert_eq!(send_part(&h)["preview"]["amount"], "1 ETH");
    h.send(json!({"type": "back"}));
    assert_eq!((h.view(), send_part(&h)["stage"].as_str()), (View::WalletSend, Some("editing")), "back from the preview to the form");
    h.send(json!({"type": "sendPreview"}));
    let (gas_id, price_id) = (h.request("eth_estimateGas").0, h.request("eth_gasPrice").0);
    h.send(json!({"type": "providerResult", "id": gas_id, "result": "0x5208"}));
    h.send(json!({"type": "providerResult", "id": price_id, "result": "0x3b9aca00"}));
    h.send(json!({"type": "sendConfirm"}));
    let (_, tx) = h.request("eth_sendTransaction");
    assert_eq!(tx[0], json!({"from": ADDR, "to": BOB.to_lowercase(), "value": "0xde0b6b3a7640000"}));
    assert_eq!(h.snap.wallet_request.as_deref(), Some("eth_sendTransaction"), "the modal says Approve in your wallet");
    let hash = format!("0x{}", "ab".repeat(32));
    h.answer("eth_sendTransaction", json!(hash));
    assert_eq!(h.snap.wallet_request, None);
    assert_eq!(h.view(), View::Account, "sent: back on the account");
    assert_eq!(h.snap.part("sent")["hash"], hash.as_str());
    assert_eq!(h.snap.part("sent")["explorerUrl"], format!("https://explorer.test/tx/{hash}"));
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", Value::Null);
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "send-receipt")), "asked again");
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/balance?")), "mined: the tokens are read again");
    assert!(h.fetches().iter().any(|(_, u)| u == "http://127.0.0.1:8337"), "and the engine's native balance");
    assert_eq!(h.snap.part("sent"), &Value::Null);
}

#[test]
fn a_sent_transaction_is_watched_for_at_most_99_polls_then_the_account_is_read_again() {
    let mut h = Harness::new(json!({}));
    h.sending();
    h.send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB}));
    h.send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    h.answer("eth_sendTransaction", json!(format!("0x{}", "cd".repeat(32))));
    let mut polls = 0;
    while h.snap.part("sent") != &Value::Null {
        // A timer fired a little early waits for the rest, without asking.
        h.now -= 1;
        h.receipt_timer();
        assert!(h.try_request("eth_getTransactionReceipt").is_none(), "not before it is due");
        h.receipt_timer();
        h.answer("eth_getTransactionReceipt", Value::Null);
        polls += 1;
        assert!(polls <= 99, "still watched after 99 polls");
    }
    assert_eq!(polls, 99);
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/balance?")), "no longer watched: the tokens are read again");
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "send-receipt")), "no more polls");
}

#[test]
fn sending_usdc_calls_transfer_on_the_contract_and_a_rejection_keeps_the_form() {
    let mut h = Harness::new(json!({}));
    h.sending().send(json!({"type": "sendSetToken", "index": 1})).send(json!({"type": "sendSetAmount", "amount": "12.5"}));
    h.send(json!({"type": "sendSetReceiver", "receiver": BOB})).send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    let (_, tx) = h.request("eth_sendTransaction");
    assert_eq!(tx[0]["to"], USDC);
    assert_eq!(tx[0]["data"], format!("0xa9059cbb{:0>64}{:0>64}", BOB[2..].to_lowercase(), "bebc20"), "transfer(BOB, 12.5e6)");
    h.reject("eth_sendTransaction", 4001);
    assert_eq!(h.view(), View::WalletSend, "back on the form");
    assert_eq!(send_part(&h)["error"], "User rejected the request");
    assert_eq!(send_part(&h)["amount"], "12.5", "the form is kept");
    assert_eq!(h.snap.wallet_request, None, "no longer waiting in the wallet");
}

#[test]
fn send_opened_while_the_tokens_load_offers_them_once_they_arrive() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    let (id, ..) = h.fetch("/balance?");
    h.send(json!({"type": "navigate", "view": "WalletSend"}));
    assert_eq!(send_part(&h)["tokens"], json!([]));
    assert_eq!(send_part(&h)["token"], Value::Null);
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": balances().to_string()}));
    assert_eq!(send_part(&h)["tokens"].as_array().unwrap().len(), 2, "the list follows the portfolio");
    assert_eq!(send_part(&h)["token"], 0);
}

#[test]
fn a_transfer_approved_in_a_view_on_top_of_the_preview_leaves_the_preview_for_the_account() {
    let mut h = Harness::new(json!({}));
    h.sending().send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB}));
    h.send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    let (id, _) = h.request("eth_sendTransaction");
    // The embedded wallet's approval shows on top of the preview meanwhile.
    h.send(json!({"type": "navigate", "view": "Account"}));
    h.send(json!({"type": "providerResult", "id": id, "result": format!("0x{}", "ef".repeat(32))}));
    h.send(json!({"type": "navigate", "view": "WalletSendPreview"}));
    assert_eq!(h.view(), View::Account, "never an empty preview");
    assert_eq!(h.snap.part("sent")["hash"], format!("0x{}", "ef".repeat(32)).as_str());
}
