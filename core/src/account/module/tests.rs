//! The account module's flows: the context from the engine in, requests and its snapshot part out.

use super::*;
use crate::account::portfolio::parse_identity;
use serde_json::json;

const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const CHAIN: &str = "eip155:31337";

struct H {
    m: AccountModule,
    now: u64,
    effects: Vec<Effect>,
    part: Value,
}

impl H {
    fn new() -> H {
        let net = |id: u64| json!({"id": id, "caipNetworkId": format!("eip155:{id}"), "name": format!("Anvil {id}"), "chainNamespace": "eip155",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18}, "rpcUrls": {"default": {"http": ["http://127.0.0.1:8545"]}},
            "blockExplorers": {"default": {"name": "Explorer", "url": "https://explorer.test/"}}, "testnet": true});
        let opts: Options = serde_json::from_value(json!({"projectId": "p", "apiUrl": "http://api.test", "networks": [net(31337), net(31338)]})).unwrap();
        H { m: AccountModule::new(opts), now: 1_000, effects: Vec::new(), part: Value::Null }
    }

    fn send(&mut self, v: Value) -> &mut Self {
        let (effects, part) = self.m.handle(ModuleEvent::from_json(&v).unwrap(), self.now);
        self.effects = effects;
        self.part = part;
        self
    }

    fn context(&mut self, chain: &str, visible: bool) -> &mut Self {
        self.send(json!({"type": "context", "visible": visible,
            "account": {"namespace": "eip155", "address": ADDR, "caipNetworkId": chain, "connectorId": "dev.walletmodal.demo"}}))
    }

    fn fetch(&self, path: &str) -> Option<(u64, String)> {
        self.effects.iter().find_map(|e| match e {
            Effect::Fetch { id, url, .. } if url.contains(path) => Some((*id, url.clone())),
            _ => None,
        })
    }

    fn answer(&mut self, path: &str, status: u16, body: Value) -> &mut Self {
        let (id, _) = self.fetch(path).unwrap_or_else(|| panic!("no {path} request in {:?}", self.effects));
        self.send(json!({"type": "fetchResult", "id": id, "status": status, "body": body.to_string()}))
    }
}

fn balances() -> Value {
    json!({"balances": [
        {"name": "Ether", "symbol": "ETH", "chainId": CHAIN, "quantity": {"decimals": "18", "numeric": "9999.5"}, "value": 29998500.0, "price": 3000.0, "iconUrl": "http://api.test/public/getTokenImage/eth"},
        {"name": "USD Coin", "symbol": "USDC", "chainId": CHAIN, "address": format!("{CHAIN}:0x5FbDB2315678afecb367f032d93F642f64180aa3"), "quantity": {"decimals": "6", "numeric": "1000"}, "value": 1000.0, "price": 1.0},
    ]})
}

#[test]
fn nothing_is_asked_until_the_account_view_shows() {
    let mut h = H::new();
    h.context(CHAIN, false);
    assert!(h.effects.is_empty(), "{:?}", h.effects);
    h.context(CHAIN, true);
    let (_, url) = h.fetch("/v1/account/").expect("the balance is asked once the view shows");
    assert!(url.starts_with(&format!("http://api.test/v1/account/{ADDR}/balance?projectId=p&st=wallet-modal")), "{url}");
    assert!(url.contains("currency=usd") && url.contains("chainId=eip155%3A31337"), "{url}");
}

#[test]
fn tokens_show_sorted_with_the_total_and_are_cached_30_seconds() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    let tokens = &h.part["tokens"];
    assert_eq!(tokens["tokens"][0]["symbol"], "ETH");
    assert_eq!(tokens["tokens"][1]["value"], "$1,000.00");
    assert_eq!(tokens["totalUsd"], "$29,999,500.00");
    assert_eq!(tokens["loading"], false);
    h.context(CHAIN, false).context(CHAIN, true);
    assert!(h.fetch("/balance").is_none(), "fresh for 30 s");
    h.now += 30_000;
    h.context(CHAIN, false).context(CHAIN, true);
    assert!(h.fetch("/balance").is_some(), "stale after 30 s");
}

#[test]
fn a_failed_read_says_token_balance_unavailable_and_waits_30_seconds() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 500, json!({"error": "x"}));
    assert_eq!(h.part["tokens"]["error"]["message"], "Token Balance Unavailable");
    h.send(json!({"type": "refreshTokens"}));
    assert!(h.fetch("/balance").is_none(), "retries held back for 30 s");
    h.now += 30_000;
    h.send(json!({"type": "refreshTokens"}));
    assert!(h.fetch("/balance").is_some());
}

#[test]
fn a_network_change_while_the_view_is_hidden_reads_the_tokens_again_when_it_shows() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    h.context(CHAIN, false).context("eip155:31338", false).context(CHAIN, false);
    assert!(h.fetch("/balance").is_none(), "nothing read while hidden");
    h.context(CHAIN, true);
    assert!(h.fetch("/balance").is_some(), "the cache was dropped by the change");
    assert_eq!(h.part["tokens"]["tokens"][0]["symbol"], "ETH", "the old rows stay shown meanwhile");
}

#[test]
fn another_chain_reads_its_own_tokens() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    h.context("eip155:31338", true);
    let (_, url) = h.fetch("/balance").expect("the new chain is read");
    assert!(url.contains("chainId=eip155%3A31338"));
    assert_eq!(h.part["tokens"]["tokens"], json!([]), "the old chain's rows are not shown for the new one");
}

#[test]
fn activity_pages_with_the_cursor_groups_by_month_and_drops_spam() {
    let mut h = H::new();
    h.context(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    assert_eq!(h.part["tab"], "activity");
    let tx = |id: &str, at: &str, spam: bool| json!({"id": id, "metadata": {"operationType": "receive", "minedAt": at, "chain": CHAIN, "sentFrom": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "sentTo": ADDR},
        "transfers": [{"nft_info": {"name": "Junk", "flags": {"is_spam": spam}}, "direction": "in", "quantity": {"numeric": "1"}}]});
    let spam_token = json!({"id": "f", "metadata": {"operationType": "receive", "minedAt": "2026-11-22T10:00:00Z", "chain": CHAIN},
        "transfers": [{"fungible_info": {"name": null, "symbol": null, "icon": null, "flags": {"is_spam": true}}, "direction": "in", "quantity": {"numeric": "5"}}]});
    h.answer("/history", 200, json!({"data": [tx("a", "2026-11-20T10:00:00Z", false), tx("b", "2026-10-01T10:00:00Z", false), tx("s", "2026-11-21T10:00:00Z", true), spam_token], "next": "c2"}));
    let groups = h.part["activity"]["groups"].as_array().unwrap().clone();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["label"], "November 2026");
    assert_eq!(groups[0]["items"].as_array().unwrap().len(), 1, "spam NFTs and spam tokens dropped (null names read)");
    assert_eq!(groups[0]["items"][0]["amount"], "+1 Junk", "an NFT is counted");
    assert_eq!(h.part["activity"]["hasMore"], true);
    h.send(json!({"type": "loadMoreActivity"}));
    let (_, url) = h.fetch("/history").unwrap();
    assert!(url.contains("cursor=c2"), "{url}");
}

#[test]
fn the_nfts_tab_reads_the_held_items_when_it_shows_and_pages_with_the_cursor() {
    let mut h = H::new();
    h.context(CHAIN, true);
    assert!(h.fetch("/nfts").is_none(), "not before the tab shows");
    h.send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    assert_eq!(h.part["nfts"]["loading"], true);
    let (_, url) = h.fetch("/nfts").expect("the tab reads the items");
    assert!(url.starts_with(&format!("http://api.test/v1/account/{ADDR}/nfts?")) && url.contains("chainId=eip155%3A31337"), "{url}");
    let nft = |id: &str, spam: bool| json!({"chainId": CHAIN, "contract": {"address": "0xE7f1725E7734CE288F8367e1Bb143E90bb3F0512", "name": "Wallet Modal Pass", "symbol": "WMP"},
        "tokenId": id, "name": format!("Wallet Modal Pass #{id}"), "imageUrl": format!("http://api.test/demo-nft/{id}/image.svg"), "isSpam": spam});
    h.answer("/nfts", 200, json!({"data": [nft("3", false), nft("1", false), nft("7", true)], "next": "2"}));
    let items = h.part["nfts"]["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 2, "spam dropped");
    assert_eq!(items[0]["name"], "Wallet Modal Pass #3");
    assert_eq!(items[0]["collection"], "Wallet Modal Pass");
    assert_eq!(items[0]["imageUrl"], "http://api.test/demo-nft/3/image.svg");
    assert_eq!(h.part["nfts"]["hasMore"], true);
    h.send(json!({"type": "loadMoreNfts"}));
    let (_, url) = h.fetch("/nfts").unwrap();
    assert!(url.contains("cursor=2"), "{url}");
    h.answer("/nfts", 200, json!({"data": [nft("1", false)], "next": null}));
    assert_eq!(h.part["nfts"]["items"].as_array().unwrap().len(), 2, "an item seen twice shows once");
    assert_eq!(h.part["nfts"]["hasMore"], false);
    // Another account: read again, empty says so.
    h.send(json!({"type": "context", "visible": true, "account": {"namespace": "eip155", "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "caipNetworkId": CHAIN, "connectorId": "x"}}));
    h.answer("/nfts", 200, json!({"data": [], "next": null}));
    assert_eq!(h.part["nfts"]["empty"], true);
    assert_eq!(h.part["nfts"]["items"], json!([]));
}

#[test]
fn a_failed_nfts_read_says_so_and_is_not_empty() {
    let mut h = H::new();
    h.context(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    h.answer("/nfts", 503, json!({"status": "FAILED"}));
    assert_eq!(h.part["nfts"]["error"], "Failed to fetch NFTs");
    assert_eq!(h.part["nfts"]["empty"], false);
    assert_eq!(h.part["nfts"]["loading"], false);
}

#[test]
fn a_failed_history_read_says_failed_to_fetch_transactions() {
    let mut h = H::new();
    h.context(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    h.answer("/history", 0, json!(null));
    assert_eq!(h.part["activity"]["error"]["message"], "Failed to fetch transactions");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Emit { name: "error", .. })));
    let track = h.effects.iter().find_map(|e| match e { Effect::Dispatch { event } => Some(event.to_string()), _ => None }).expect("the analytics event goes to the engine");
    assert_eq!(track, r#"{"type":"track","event":"ERROR_FETCH_TRANSACTIONS"}"#);
}

#[test]
fn bad_events_are_refused_with_a_reason() {
    for (v, why) in [
        (json!({"type": "nope"}), "unknown account event type"),
        (json!({"type": "context", "account": {"namespace": "eip155"}}), "address"),
        (json!({"type": "fetchResult", "id": 1, "status": 70000}), "status"),
        (json!({"tab": "x"}), "type"),
    ] {
        let err = ModuleEvent::from_json(&v).unwrap_err();
        assert!(err.contains(why), "{err}");
    }
}

#[test]
fn receive_shows_the_address_as_a_qr_code_and_back_returns_to_the_portfolio() {
    let mut h = H::new();
    h.context(CHAIN, true).send(json!({"type": "openReceive"}));
    assert_eq!(h.part["screen"], "receive");
    assert_eq!(h.part["title"], "Receive");
    assert_eq!(h.part["receive"]["address"], ADDR);
    let svg = h.part["receive"]["qr"].as_str().unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(" d=\""), "{svg}");
    h.send(json!({"type": "back"}));
    assert_eq!(h.part["screen"], "main");
    assert_eq!(h.part["receive"], Value::Null);
    h.send(json!({"type": "openReceive"})).context(CHAIN, false).context(CHAIN, true);
    assert_eq!(h.part["screen"], "main", "leaving the Account view leaves Receive");
}

// ----- send -----

const USDC: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

impl H {
    fn request(&self, method: &str) -> Option<(u64, Value)> {
        self.effects.iter().find_map(|e| match e {
            Effect::ProviderRequest { id, method: m, params, .. } if m == method => Some((*id, serde_json::from_str(&params.to_string()).unwrap())),
            _ => None,
        })
    }

    fn wallet_answer(&mut self, method: &str, result: Value) -> &mut Self {
        let (id, _) = self.request(method).unwrap_or_else(|| panic!("no {method} in {:?}", self.effects));
        self.send(json!({"type": "providerResult", "id": id, "result": result}))
    }

    fn dispatched(&self) -> Vec<Value> {
        self.effects.iter().filter_map(|e| match e { Effect::Dispatch { event } => Some(serde_json::from_str(&event.to_string()).unwrap()), _ => None }).collect()
    }

    /// The receipt timer fires when it is due.
    fn receipt_timer(&mut self) -> &mut Self {
        let ms = self.effects.iter().find_map(|e| match e {
            Effect::StartTimer { id, ms } if id == "account-receipt" => Some(*ms),
            _ => None,
        });
        self.now += ms.expect("the receipt timer runs");
        self.send(json!({"type": "timer", "id": "account-receipt"}))
    }

    fn sending(&mut self) -> &mut Self {
        self.context(CHAIN, true).answer("/balance", 200, balances()).send(json!({"type": "openSend"}))
    }
}

#[test]
fn the_send_form_refuses_what_the_spec_and_eip55_refuse() {
    let mut h = H::new();
    h.sending();
    assert_eq!(h.part["screen"], "send");
    assert_eq!(h.part["title"], "Send");
    assert_eq!(h.part["send"]["tokens"].as_array().unwrap().len(), 2, "every token held");
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(h.part["send"]["error"], "An amount and receiver address are required");
    h.send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": "0x70997970C51812DC3A010C7d01b50e0d17dc79C8"}));
    h.send(json!({"type": "sendPreview"}));
    assert!(h.part["send"]["error"].as_str().unwrap().contains("wrong checksum (EIP-55)"), "{}", h.part["send"]["error"]);
    h.send(json!({"type": "sendSetReceiver", "receiver": BOB})).send(json!({"type": "sendSetAmount", "amount": "10000"}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(h.part["send"]["error"], "Insufficient ETH balance");
    h.send(json!({"type": "sendMax"}));
    assert_eq!(h.part["send"]["amount"], "9999.5");
}

#[test]
fn sending_ether_previews_the_fee_then_sends_through_the_wallet_and_watches_the_receipt() {
    let mut h = H::new();
    h.sending().send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB.to_lowercase()}));
    h.send(json!({"type": "sendPreview"}));
    assert_eq!(h.part["title"], "Preview send");
    let (gas_id, gas) = h.request("eth_estimateGas").expect("the fee is estimated");
    assert_eq!(gas[0]["value"], "0xde0b6b3a7640000");
    let (price_id, _) = h.request("eth_gasPrice").expect("at the gas price");
    h.send(json!({"type": "providerResult", "id": gas_id, "result": "0x5208"}));
    h.send(json!({"type": "providerResult", "id": price_id, "result": "0x3b9aca00"}));
    assert_eq!(h.part["send"]["preview"]["fee"], "0.000021 ETH");
    assert_eq!(h.part["send"]["preview"]["amount"], "1 ETH");
    h.send(json!({"type": "sendConfirm"}));
    let (_, tx) = h.request("eth_sendTransaction").unwrap();
    assert_eq!(tx[0], json!({"from": ADDR, "to": BOB.to_lowercase(), "value": "0xde0b6b3a7640000"}));
    assert_eq!(h.dispatched()[0]["type"], "hostRequest", "the engine says Approve in your wallet");
    let hash = format!("0x{}", "ab".repeat(32));
    h.wallet_answer("eth_sendTransaction", json!(hash));
    assert_eq!(h.dispatched()[0]["result"], hash.as_str(), "the engine watches it too");
    assert_eq!(h.part["screen"], "main");
    assert_eq!(h.part["sent"]["hash"], hash.as_str());
    assert_eq!(h.part["sent"]["explorerUrl"], format!("https://explorer.test/tx/{hash}"));
    h.receipt_timer();
    h.wallet_answer("eth_getTransactionReceipt", Value::Null);
    assert!(h.effects.iter().any(|e| matches!(e, Effect::StartTimer { id, .. } if id == "account-receipt")), "asked again");
    h.receipt_timer();
    h.wallet_answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    assert!(h.fetch("/balance").is_some(), "mined: the tokens are read again");
    assert_eq!(h.part["sent"], Value::Null);
}

#[test]
fn a_sent_transaction_is_watched_for_at_most_99_polls_then_the_account_is_read_again() {
    let mut h = H::new();
    h.sending();
    h.send(json!({"type": "sendSetAmount", "amount": "1"})).send(json!({"type": "sendSetReceiver", "receiver": BOB}));
    h.send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    h.wallet_answer("eth_sendTransaction", json!(format!("0x{}", "cd".repeat(32))));
    let mut polls = 0;
    while h.part["sent"] != Value::Null {
        // A timer fired a little early waits for the rest, without asking.
        h.now -= 1;
        h.receipt_timer();
        assert!(h.request("eth_getTransactionReceipt").is_none(), "not before it is due");
        h.receipt_timer();
        h.wallet_answer("eth_getTransactionReceipt", Value::Null);
        polls += 1;
        assert!(polls <= 99, "still watched after 99 polls");
    }
    assert_eq!(polls, 99);
    assert!(h.fetch("/balance").is_some(), "no longer watched: the tokens are read again");
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::StartTimer { .. })), "no more polls");
}

#[test]
fn sending_usdc_calls_transfer_on_the_contract_and_a_rejection_keeps_the_form() {
    let mut h = H::new();
    h.sending().send(json!({"type": "sendSetToken", "index": 1})).send(json!({"type": "sendSetAmount", "amount": "12.5"}));
    h.send(json!({"type": "sendSetReceiver", "receiver": BOB})).send(json!({"type": "sendPreview"})).send(json!({"type": "sendConfirm"}));
    let (id, tx) = h.request("eth_sendTransaction").unwrap();
    assert_eq!(tx[0]["to"], USDC);
    assert_eq!(tx[0]["data"], format!("0xa9059cbb{:0>64}{:0>64}", BOB[2..].to_lowercase(), "bebc20"), "transfer(BOB, 12.5e6)");
    h.send(json!({"type": "providerResult", "id": id, "error": {"code": 4001, "message": "User rejected"}}));
    assert_eq!(h.part["screen"], "send");
    assert_eq!(h.part["send"]["error"], "User rejected the request");
    assert_eq!(h.part["send"]["amount"], "12.5", "the form is kept");
    assert_eq!(h.dispatched()[0]["failed"], true);
}

#[test]
fn switching_away_and_back_reads_the_tokens_again() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    h.context(CHAIN, false).context("eip155:31338", true);
    assert!(h.fetch("/balance").is_some(), "the other chain is read");
    h.answer("/balance", 200, json!({"balances": []}));
    h.context("eip155:31338", false).context(CHAIN, true);
    assert!(h.fetch("/balance").is_some(), "back on the first chain: read again");
}

#[test]
fn the_accounts_name_comes_from_the_identity_service_and_is_kept_5_minutes() {
    let mut h = H::new();
    h.context(CHAIN, true);
    let (_, url) = h.fetch("/v1/identity/").expect("the name is asked");
    assert!(url.contains(&format!("/v1/identity/{ADDR}?")) && url.contains(&format!("sender={ADDR}")), "{url}");
    h.answer("/v1/identity/", 200, json!({"name": "alice.demo.eth", "avatar": null}));
    assert_eq!(h.part["name"], "alice.demo.eth");
    h.context(CHAIN, false).context(CHAIN, true);
    assert!(h.fetch("/v1/identity/").is_none(), "kept");
    assert_eq!(parse_identity(r#"{"name": null}"#), None);
    assert_eq!(parse_identity(r#"{"name": "a\u0000b"}"#), None, "no control characters");
}

#[test]
fn send_opened_while_the_tokens_load_offers_them_once_they_arrive() {
    let mut h = H::new();
    h.context(CHAIN, true);
    let (id, _) = h.fetch("/balance").unwrap();
    h.send(json!({"type": "openSend"}));
    assert_eq!(h.part["send"]["tokens"], json!([]));
    assert_eq!(h.part["send"]["token"], Value::Null);
    h.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": balances().to_string()}));
    assert_eq!(h.part["send"]["tokens"].as_array().unwrap().len(), 2, "the list follows the portfolio");
    assert_eq!(h.part["send"]["token"], 0);
}


#[test]
fn the_part_lists_what_is_held_for_the_trade_modules_and_their_mined_transactions_read_the_account_again() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    assert_eq!(h.part["held"][0], json!({"address": null, "balance": "9999.5", "price": 3000.0}));
    assert_eq!(h.part["held"][1]["address"], "0x5FbDB2315678afecb367f032d93F642f64180aa3");
    h.send(json!({"type": "accountChanged"}));
    assert!(h.fetch("/balance").is_some(), "read again without waiting for the cache");
}

#[test]
fn a_late_answer_for_the_network_left_does_not_replace_the_tokens_of_the_network_shown() {
    let mut h = H::new();
    h.context(CHAIN, true).answer("/balance", 200, balances());
    h.context("eip155:31338", true);
    let (old, _) = h.fetch("chainId=eip155%3A31338").expect("31338 asked");
    h.context(CHAIN, true);
    let (new, _) = h.fetch("chainId=eip155%3A31337").expect("31337 asked again");
    h.send(json!({"type": "fetchResult", "id": new, "status": 200, "body": balances().to_string()}));
    assert_eq!(h.part["tokens"]["tokens"].as_array().unwrap().len(), 2);
    h.send(json!({"type": "fetchResult", "id": old, "status": 200, "body": json!({"balances": []}).to_string()}));
    assert_eq!(h.part["tokens"]["tokens"].as_array().unwrap().len(), 2, "the 31337 tokens stay");
    assert_eq!(h.part["tokens"]["loading"], false);
}
