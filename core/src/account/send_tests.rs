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

    /// One ether to BOB, sent: the wallet answers the hash `0x{byte}{byte}…`.
    fn send_one_ether(&mut self, byte: &str) -> &mut Self {
        self.sending().send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB}));
        self.send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
        self.answer("eth_sendTransaction", json!(format!("0x{}", byte.repeat(32))))
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
    assert_eq!(send_part(&h)["receiverHint"], "0x…");
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
    assert_eq!(h.snap.part("banner"), &json!({"variant": "loading", "message": "Transaction sent."}), "the loading banner while it is watched");
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", Value::Null);
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "send-receipt")), "asked again");
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/balance?") && !u.contains("forceUpdate")), "mined: the tokens are read again (ether is no contract to force)");
    assert!(h.fetches().iter().any(|(_, u)| u == "http://127.0.0.1:8337"), "and the engine's native balance");
    assert_eq!(h.snap.part("sent"), &Value::Null);
    // Spec §4: a banner showing closes, and the next opens 150 ms later.
    assert_eq!(h.snap.part("banner"), &Value::Null, "the loading banner closed");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, ms: 150 } if id == "banner-reopen")), "{:?}", h.effects);
    h.timer_fires("banner-reopen");
    assert_eq!(h.snap.part("banner"), &json!({"variant": "success", "message": "Transaction confirmed"}));
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
    h.timer_fires("banner-reopen");
    assert_eq!(h.snap.part("banner")["variant"], "error", "no longer watched: the loading banner gives way to why");
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

// ----- Bitcoin: the payer's outputs and fee rates from the network's Esplora API, a PSBT the wallet signs -----

const REGTEST: &str = "bip122:530827f38f93b43ed12af0b3ad25a288";
/// The demo wallet's regtest payment address, and a receiver (script 0014 11…11).
const PAYER: &str = "bcrt1qdlanrh4nqzh4vhmv6ywmvfnmkrhdclutn34t0y";
const PAYEE: &str = "bcrt1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3lgth6c";
const ESPLORA: &str = "http://127.0.0.1:9000/bitcoin/api";

pub(crate) fn bitcoin_harness() -> Harness {
    let local = json!({"id": "530827f38f93b43ed12af0b3ad25a288", "caipNetworkId": REGTEST, "name": "Bitcoin Regtest", "chainNamespace": "bip122",
        "nativeCurrency": {"name": "Bitcoin", "symbol": "BTC", "decimals": 8}, "rpcUrls": {"default": {"http": [ESPLORA]}}, "testnet": true,
        "blockExplorers": {"default": {"name": "Explorer", "url": "https://explorer.test"}}});
    let mut h = Harness::new(json!({"networks": [local]}));
    h.start(json!({})).send(json!({"type": "announce", "uuid": "bitcoin-demo-bitcoin", "name": "Demo Bitcoin", "icon": "", "rdns": "bitcoin.demo-bitcoin", "namespace": "bip122"}));
    h.send(json!({"type": "open"})).send(json!({"type": "selectConnector", "id": "bitcoin.demo-bitcoin"}));
    h.answer("standard:connect", json!([PAYER]));
    h.answer("wallet-modal:chain", json!(REGTEST));
    // Connected, the modal closed: opened again, it shows the account.
    h.send(json!({"type": "open"}));
    h
}

/// 50 BTC (the coinbase the scure vectors spend) and what the address holds, as Esplora says.
fn serve_payer(h: &mut Harness) {
    let stats = json!({"chain_stats": {"funded_txo_sum": 5_000_000_000u64, "spent_txo_sum": 0}, "mempool_stats": {"funded_txo_sum": 0, "spent_txo_sum": 0}});
    while h.open_fetch(&format!("/address/{PAYER}")).is_some_and(|f| !f.1.ends_with("/utxo")) {
        h.serve(&format!("{ESPLORA}/address/{PAYER}"), 200, stats.clone());
    }
}

/// The Send form, its balance read, with an amount and a receiver typed.
fn bitcoin_send_form(amount: &str, receiver: &str) -> Harness {
    let mut h = bitcoin_harness();
    serve_payer(&mut h);
    h.send(json!({"type": "navigate", "view": "WalletSend"}));
    serve_payer(&mut h);
    h.send(json!({"type": "sendSetAmount", "amount": amount})).send(json!({"type": "sendSetReceiver", "receiver": receiver}));
    h
}

fn base64(hex: &str) -> String {
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    crate::chain::base64::to_base64(&bytes)
}

#[test]
fn sending_bitcoin_plans_from_the_apis_outputs_has_the_wallet_sign_the_psbt_and_broadcasts_it() {
    use crate::chain::bip122::psbt::tests::{SCURE, SCURE_RAW, SCURE_SIGNED};
    let mut h = bitcoin_harness();
    assert_eq!(h.snap.connection.as_ref().map(|c| c.caip_network_id.as_str()), Some(REGTEST));
    let reads = h.fetches().into_iter().filter(|(_, u)| *u == format!("{ESPLORA}/address/{PAYER}")).count();
    assert_eq!(reads, 1, "the Account view reads the balance once (the Send form's exact one waits for the form)");
    serve_payer(&mut h);
    assert_eq!(h.snap.part("account")["canSend"], true, "Bitcoin has Send");
    h.send(json!({"type": "navigate", "view": "WalletSend"}));
    serve_payer(&mut h);
    assert_eq!(send_part(&h)["tokens"], json!([{"symbol": "BTC", "name": "Bitcoin", "balance": "50.000"}]), "the native balance, read exactly from the API");
    assert_eq!(send_part(&h)["receiverHint"], "Bitcoin address", "not an EVM address's 0x…");
    h.send(json!({"type": "sendSetAmount", "amount": "0.01"})).send(json!({"type": "sendSetReceiver", "receiver": PAYEE}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(send_part(&h)["error"], Value::Null);
    h.serve(&format!("{ESPLORA}/address/{PAYER}/utxo"), 200, json!([{"txid": "dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302", "vout": 0, "value": 5_000_000_000u64}]));
    // 141 vB at 14.184 sat/vB: the 2,000 satoshis the vectors pay.
    h.serve(&format!("{ESPLORA}/fee-estimates"), 200, json!({"1": 30.0, "2": 14.184}));
    assert_eq!(send_part(&h)["preview"]["fee"], "0.00002 BTC");
    assert_eq!(send_part(&h)["preview"]["amount"], "0.01 BTC");
    h.send(json!({"type": "sendConfirm"}));
    let (id, params) = h.request("signPsbt");
    assert_eq!(params, json!({"account": PAYER, "psbt": base64(SCURE), "signInputs": [{"address": PAYER, "index": 0}], "broadcast": false}), "the PSBT scure writes");
    assert_eq!(h.snap.wallet_request.as_deref(), Some("signPsbt"), "Approve in your wallet");
    h.send(json!({"type": "providerResult", "id": id, "result": {"psbt": base64(SCURE_SIGNED)}}));
    let (_, url, body) = h.fetch("/tx");
    assert_eq!((url.as_str(), body.as_deref()), (format!("{ESPLORA}/tx").as_str(), Some(SCURE_RAW)), "the signed transaction, broadcast by the API");
    let txid = "9a2e28b110eeaf7e45570c4412b37f48fe71d70656e179e70d64f0f8888f3802";
    h.serve(&format!("{ESPLORA}/tx"), 200, Value::String(txid.into()));
    assert_eq!(h.view(), View::Account, "sent: back on the account");
    assert_eq!(h.snap.part("sent")["hash"], txid);
    assert_eq!(h.snap.part("sent")["explorerUrl"], format!("https://explorer.test/tx/{txid}"));
    h.receipt_timer();
    h.serve(&format!("{ESPLORA}/tx/{txid}/status"), 200, json!({"confirmed": false}));
    assert_ne!(h.snap.part("sent"), &Value::Null, "in the mempool: still waited for");
    h.receipt_timer();
    h.serve(&format!("{ESPLORA}/tx/{txid}/status"), 200, json!({"confirmed": true, "block_height": 102}));
    assert_eq!(h.snap.part("sent"), &Value::Null, "mined");
    assert!(h.fetches().iter().any(|(_, u)| *u == format!("{ESPLORA}/address/{PAYER}")), "the balance is read again");
}

#[test]
fn a_bitcoin_transfer_the_outputs_cannot_pay_or_the_api_refuses_says_why() {
    let mut h = bitcoin_send_form("0.01", "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l");
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(send_part(&h)["error"], "The receiver's address is for another Bitcoin network than yours");
    h.send(json!({"type": "sendSetReceiver", "receiver": PAYEE})).send(json!({"type": "sendPreview"}));
    h.serve(&format!("{ESPLORA}/address/{PAYER}/utxo"), 200, json!([{"txid": "dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302", "vout": 0, "value": 1_000_100u64}]));
    h.serve(&format!("{ESPLORA}/fee-estimates"), 200, json!({"2": 1.0}));
    assert_eq!(send_part(&h)["preview"]["fee"], Value::Null);
    assert_eq!(send_part(&h)["preview"]["feeError"], "Insufficient balance to pay the amount and the network fee", "not an endless skeleton");
    // The API refuses the broadcast: its words, on the form.
    h.send(json!({"type": "back"})).send(json!({"type": "sendPreview"}));
    h.serve(&format!("{ESPLORA}/address/{PAYER}/utxo"), 200, json!([{"txid": "dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302", "vout": 0, "value": 5_000_000_000u64}]));
    h.serve(&format!("{ESPLORA}/fee-estimates"), 200, json!({"2": 14.184}));
    h.send(json!({"type": "sendConfirm"}));
    h.answer("signPsbt", json!({"psbt": base64(crate::chain::bip122::psbt::tests::SCURE_SIGNED)}));
    h.serve(&format!("{ESPLORA}/tx"), 400, Value::String("sendrawtransaction RPC error: min relay fee not met".into()));
    assert_eq!(h.view(), View::WalletSend);
    assert_eq!(send_part(&h)["error"], "The network's API refused the request: sendrawtransaction RPC error: min relay fee not met");
}

#[test]
fn an_esplora_answer_of_ten_megabytes_is_read_within_bounds_and_a_cut_one_is_a_failed_estimate() {
    let mut h = bitcoin_send_form("0.01", PAYEE);
    h.send(json!({"type": "sendPreview"}));
    // ~10 MB: 120,000 outputs of 0.001 BTC; the first 1,000 are read, the largest 200 spent.
    let one = r#"{"txid":"dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302","vout":0,"value":100000,"status":{"confirmed":true}}"#;
    let huge = format!("[{}]", vec![one; 120_000].join(","));
    assert!(huge.len() > 10_000_000);
    let started = std::time::Instant::now();
    h.serve(&format!("{ESPLORA}/address/{PAYER}/utxo"), 200, Value::String(huge.clone()));
    h.serve(&format!("{ESPLORA}/fee-estimates"), 200, json!({"2": 1.0}));
    assert!(send_part(&h)["preview"]["fee"].as_str().is_some_and(|f| f.ends_with(" BTC")), "{}", send_part(&h)["preview"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "no hang: {:?}", started.elapsed());
    // The shell cuts an answer at 1,000,000 characters: what is left is not JSON.
    h.send(json!({"type": "back"})).send(json!({"type": "sendPreview"}));
    h.serve(&format!("{ESPLORA}/address/{PAYER}/utxo"), 200, Value::String(huge[..1_000_000].to_string()));
    h.serve(&format!("{ESPLORA}/fee-estimates"), 200, json!({"2": 1.0}));
    assert_eq!(send_part(&h)["preview"]["feeError"], "Could not estimate the network fee: try again", "not the EVM's gas");
    h.send(json!({"type": "sendConfirm"}));
    assert!(h.try_request("signPsbt").is_none(), "nothing to sign without the outputs");
}

#[test]
fn a_failed_gas_estimate_says_the_specs_words_on_evm() {
    let mut h = Harness::new(json!({}));
    h.sending().send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB}));
    h.send(json!({"type": "sendPreview"}));
    h.reject("eth_estimateGas", -32000);
    assert_eq!(send_part(&h)["preview"]["feeError"], "error estimating gas");
}

#[test]
fn a_mined_usdc_transfer_has_the_next_balance_call_read_usdc_afresh_with_force_update() {
    let mut h = Harness::new(json!({}));
    h.sending().send(json!({"type": "sendSetToken", "index": 1})).send(json!({"type": "sendSetAmount", "amount": "1"}));
    h.send(json!({"type": "sendSetReceiver", "receiver": BOB})).send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    h.answer("eth_sendTransaction", json!(format!("0x{}", "ef".repeat(32))));
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    let url = h.fetches().into_iter().map(|(_, u)| u).find(|u| u.contains("/balance?")).expect("the tokens are read again");
    let forced = format!("forceUpdate={}", crate::service::url::encode_component(&format!("{CHAIN}:{USDC}")));
    assert!(url.contains(&forced), "{url}");
    // Once: the read after it asks the index again.
    h.send(json!({"type": "refreshTokens"}));
    h.serve("/balance?", 200, balances());
    h.send(json!({"type": "refreshTokens"}));
    let again = h.fetches().into_iter().map(|(_, u)| u).find(|u| u.contains("/balance?")).expect("read again");
    assert!(!again.contains("forceUpdate"), "forceUpdate is sent once: {again}");
}

#[test]
fn a_transfer_mined_but_failed_on_chain_says_so_instead_of_confirmed() {
    let mut h = Harness::new(json!({}));
    h.send_one_ether("12");
    h.receipt_timer();
    h.answer("eth_getTransactionReceipt", json!({"status": "0x0"}));
    h.timer_fires("banner-reopen");
    assert_eq!(h.snap.part("banner"), &json!({"variant": "error", "message": "The transaction failed on chain"}));
}

#[test]
fn a_sent_transaction_left_for_another_account_takes_its_loading_banner_with_it() {
    let mut h = Harness::new(json!({}));
    h.send_one_ether("34");
    assert_eq!(h.snap.part("banner")["variant"], "loading");
    h.switch_account(BOB);
    assert_eq!(h.snap.part("banner"), &Value::Null, "no banner waiting for a receipt nobody watches");
}
