//! The swap slice's flows: the Swap view, over the convert API and the wallet.

use crate::account::portfolio_tests::balances;
use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";
const USDC_LC: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/// A project whose config swaps on its own chain (31337) besides the spec's networks.
pub(crate) fn trading() -> Harness {
    Harness::new(json!({"features": {"email": true, "socials": [], "swaps": ["1inch"], "swapNetworks": [CHAIN], "onramp": ["meld", "coinbase"], "activity": true}}))
}

impl Harness {
    /// The account with what it holds (9,999.5 ETH at 3,000 USD, 1,000 USDC) and the Account view.
    pub(crate) fn holding(&mut self, chain: &str) -> &mut Self {
        self.account(chain, true);
        if self.open_fetch("/balance?").is_some() {
            self.serve("/balance?", 200, balances());
        }
        self
    }

    fn swapping(&mut self) -> &mut Self {
        self.holding(CHAIN).send(json!({"type": "navigate", "view": "Swap"}));
        let tokens = json!({"tokens": [
            {"name": "Ether", "symbol": "ETH", "address": format!("{CHAIN}:{NATIVE}"), "decimals": 18},
            {"name": "USD Coin", "symbol": "USDC", "address": format!("{CHAIN}:{USDC_LC}"), "decimals": 6},
        ]});
        self.serve("/convert/tokens", 200, tokens);
        self.serve("/convert/gas-price", 200, json!({"standard": "1000000000", "fast": "2000000000", "instant": "3000000000"}))
    }
}

fn swap(h: &Harness) -> &Value {
    h.snap.part("swap")
}

#[test]
fn swap_quotes_once_typing_settles_and_drops_answers_to_superseded_amounts() {
    let mut h = trading();
    h.swapping();
    assert_eq!(h.view(), View::Swap);
    assert_eq!(h.snap.title, "Swap");
    let s = swap(&h);
    assert_eq!(s["from"]["symbol"], "ETH", "native by default");
    assert_eq!(s["to"]["symbol"], "USDC", "USDC to receive by default");
    assert_eq!(s["from"]["balance"], "9,999.500", "balances from the portfolio");
    assert_eq!(s["fee"], "≈ 0.00015 ETH", "150,000 gas at the standard price");
    h.send(json!({"type": "swapSetAmount", "amount": "1"}));
    assert!(h.open_fetch("/convert/quotes").is_none(), "not while typing");
    h.send(json!({"type": "swapSetAmount", "amount": "1.5"}));
    h.timer_fires("swap-quote");
    let (old, url, _) = h.fetch("/convert/quotes");
    assert!(url.contains("amount=1500000000000000000") && url.contains(&format!("from=eip155%3A31337%3A{NATIVE}")) && url.contains("gasPrice=1000000000"), "{url}");
    assert!(h.open_fetch("/convert/allowance").is_none(), "native needs no allowance");
    // The amount changes before the answer: the late answer is dropped.
    h.send(json!({"type": "swapSetAmount", "amount": "2"}));
    h.send(json!({"type": "fetchResult", "id": old, "status": 200, "body": json!({"quotes": [{"toAmount": "4485000000"}]}).to_string()}));
    assert_eq!(swap(&h)["receive"], Value::Null, "a quote for 1.5 never shows for 2");
    h.now += 300;
    h.fire("swap-quote");
    h.serve("/convert/quotes", 200, json!({"quotes": [{"fromAmount": "2000000000000000000", "toAmount": "5940000000"}]}));
    let s = swap(&h);
    assert_eq!(s["receive"], "5,940");
    assert_eq!(s["rate"], "1 ETH = 2,970 USDC");
    assert_eq!(s["minimumReceived"], "5,880.6 USDC", "1% slippage");
    assert_eq!(s["priceImpact"], "1.00%", "5,940 USD received for 6,000 paid at the portfolio's prices");
    assert_eq!(s["action"], "swap");
    // Stale after 15 s: asked again.
    h.timer_fires("swap-quote");
    assert!(h.open_fetch("/convert/quotes").is_some(), "a stale quote is asked again");
}

#[test]
fn swapping_an_erc20_approves_first_then_swaps_and_reads_the_account_again_when_mined() {
    let mut h = trading();
    h.swapping();
    h.send(json!({"type": "swapFlip"})).send(json!({"type": "swapSetAmount", "amount": "100"}));
    assert_eq!(swap(&h)["from"]["symbol"], "USDC");
    h.timer_fires("swap-quote");
    let allowance = h.fetch("/convert/allowance").0;
    h.serve("/convert/quotes", 200, json!({"quotes": [{"toAmount": "33000000000000000"}]}));
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "0"}).to_string()}));
    assert_eq!(swap(&h)["action"], "approve");
    h.send(json!({"type": "swapConfirm"}));
    assert!(h.open_fetch("/convert/build-transaction").is_none(), "no swap before the approval");
    h.send(json!({"type": "swapApprove"}));
    let (_, url, _) = h.fetch("/convert/build-approve");
    assert!(url.contains("amount=100000000"), "{url}");
    h.serve("/convert/build-approve", 200, json!({"tx": {"from": ADDR, "to": USDC_LC, "data": "0x095ea7b3", "value": "0"}}));
    let (_, tx) = h.request("eth_sendTransaction");
    assert_eq!(tx[0]["to"], USDC_LC);
    assert_eq!(tx[0].get("value"), None, "no value for an approval");
    assert_eq!(swap(&h)["action"], "wallet");
    assert_eq!(h.snap.wallet_request.as_deref(), Some("eth_sendTransaction"), "Approve in your wallet");
    h.answer("eth_sendTransaction", json!(format!("0x{}", "aa".repeat(32))));
    assert_eq!(swap(&h)["action"], "approving");
    // Leaving Swap while the approval mines: it carries on, and shows again as it is.
    h.send(json!({"type": "back"}));
    assert_eq!(h.view(), View::Account);
    h.send(json!({"type": "navigate", "view": "Swap"}));
    assert_eq!(swap(&h)["action"], "approving", "the swap under way is not reset");
    h.now += 1_500;
    h.fire("swap-receipt");
    h.answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    let allowance = h.fetch("/convert/allowance").0;
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "100000000"}).to_string()}));
    assert_eq!(swap(&h)["action"], "swap");
    h.send(json!({"type": "swapConfirm"}));
    let (_, _, build) = h.fetch("/convert/build-transaction");
    let body: Value = serde_json::from_str(&build.expect("a body")).unwrap();
    assert_eq!(body["eip155"]["slippage"], "1");
    assert_eq!(body["amount"], "100000000");
    assert_eq!(body["userAddress"], ADDR);
    h.serve("/convert/build-transaction", 200, json!({"tx": {"from": ADDR, "to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x18cbafe5", "value": "0", "eip155": {"gas": "200000", "gasPrice": "1000000000"}}}));
    h.answer("eth_sendTransaction", json!(format!("0x{}", "bb".repeat(32))));
    h.timer_fires("swap-receipt");
    h.answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    assert!(h.noted("account", json!({"note": "balancesChanged"})), "mined: the balances are read again");
    assert!(h.fetches().iter().any(|(_, u)| u.contains("/balance?")), "the tokens first");
    assert_eq!(swap(&h)["done"], format!("0x{}", "bb".repeat(32)));
    assert_eq!(swap(&h)["amount"], "");
}

#[test]
fn swap_says_what_is_wrong_network_balance_route_and_rejection() {
    let mut h = trading();
    h.holding("eip155:31338").send(json!({"type": "navigate", "view": "Swap"}));
    assert_eq!(swap(&h)["error"], "Network not supported for Swaps");
    assert_eq!(swap(&h)["supported"], false);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/convert/")), "nothing asked outside the swap networks");
    let mut h = trading();
    h.swapping();
    h.send(json!({"type": "swapSetAmount", "amount": "20000"}));
    assert_eq!(swap(&h)["error"], "Insufficient ETH balance");
    h.send(json!({"type": "swapMax"}));
    assert_eq!(swap(&h)["amount"], "9999.5");
    assert_eq!(swap(&h)["error"], Value::Null);
    h.timer_fires("swap-quote");
    h.serve("/convert/quotes", 400, json!({"status": "FAILED", "reasons": [{"field": "to", "description": "No pool between these tokens"}]}));
    assert_eq!(swap(&h)["error"], "No route for this swap: No pool between these tokens");
    h.send(json!({"type": "swapSetAmount", "amount": "1"}));
    h.timer_fires("swap-quote");
    h.serve("/convert/quotes", 200, json!({"quotes": [{"toAmount": "2970000000"}]}));
    h.send(json!({"type": "swapConfirm"}));
    h.serve("/convert/build-transaction", 200, json!({"tx": {"to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x7ff36ab5", "value": "1000000000000000000"}}));
    let (id, _) = h.request("eth_sendTransaction");
    h.send(json!({"type": "providerResult", "id": id, "error": {"code": 4001, "message": "User rejected the request."}}));
    assert_eq!(swap(&h)["error"], "User rejected the request");
    assert_eq!(swap(&h)["action"], "swap", "the form stays, ready to try again");
    assert_eq!(swap(&h)["amount"], "1");
}

#[test]
fn the_swap_closes_when_the_network_changes_and_reopens_for_the_new_one() {
    let mut h = trading();
    h.swapping();
    assert_eq!(swap(&h)["supported"], true);
    // Another network: its tokens and quote were for the old one.
    h.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": "0x7a6a"}));
    assert_eq!(swap(&h), &Value::Null, "closed");
    h.send(json!({"type": "navigate", "view": "Swap"}));
    assert_eq!(swap(&h)["error"], "Network not supported for Swaps");
    h.send(json!({"type": "close"}));
    assert_eq!(swap(&h), &Value::Null, "closing the modal closes it");
}

#[test]
fn the_host_can_open_swap_as_a_view_with_back_to_account() {
    let mut h = trading();
    h.holding(CHAIN).send(json!({"type": "close"})).send(json!({"type": "open", "view": "Swap"}));
    assert_eq!(h.view(), View::Swap);
    assert!(h.open_fetch("/convert/tokens").is_some(), "the Swap view asks its tokens");
    assert_eq!(swap(&h)["from"], Value::Null, "until they come");
}

#[test]
fn an_approval_built_for_another_contract_than_the_token_paid_with_is_refused() {
    let mut h = trading();
    h.swapping();
    h.send(json!({"type": "swapFlip"})).send(json!({"type": "swapSetAmount", "amount": "100"}));
    h.timer_fires("swap-quote");
    let allowance = h.fetch("/convert/allowance").0;
    h.serve("/convert/quotes", 200, json!({"quotes": [{"toAmount": "33000000000000000"}]}));
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "0"}).to_string()}));
    h.send(json!({"type": "swapApprove"}));
    h.serve("/convert/build-approve", 200, json!({"tx": {"to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x095ea7b3", "value": "0"}}));
    assert!(h.try_request("eth_sendTransaction").is_none(), "nothing goes to the wallet");
    assert_eq!(swap(&h)["error"], "The approval could not be built; try again");
    assert_eq!(swap(&h)["action"], "approve", "the form stays");
}

#[test]
fn malformed_events_and_answers_nobody_asked_for_change_nothing() {
    let mut h = trading();
    h.swapping();
    let before = h.snap.raw.clone();
    for bad in [json!({"type": "nope"}), json!({"no": "type"}), json!({"type": "swapSetAmount"}), json!({"type": "swapSetFrom", "address": 5})] {
        h.send(bad.clone());
        assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "INVALID_EVENT")), "{bad}: {:?}", h.effects);
        assert_eq!(h.snap.raw, before, "{bad} changed nothing");
    }
    h.send_to("account", json!({"type": "fetchResult", "id": 16 * 99 + 5, "status": 200, "body": "{}"}));
    h.send_to("account", json!({"type": "timer", "id": "account-receipt"}));
    assert_eq!(h.snap.raw, before, "an answer or a timer nobody asked for changes nothing");
    assert!(h.effects.is_empty());
}

#[test]
fn in_a_restricted_time_zone_swap_and_buy_are_refused_and_the_account_says_so() {
    for zone in ["Asia/Shanghai", "Asia/Hong_Kong", "Asia/Macau"] {
        let mut h = Harness::new(json!({"timeZone": zone}));
        h.account(CHAIN, true);
        assert_eq!(h.snap.part("account")["restricted"], true, "{zone}");
        for view in ["Swap", "OnRampProviders"] {
            h.send(json!({"type": "navigate", "view": view}));
            assert_eq!(h.view(), View::Account, "{zone}: {view} refused");
            assert!(h.snap.shake, "{zone}: {view} shakes");
        }
        assert!(!h.fetches().iter().any(|(_, u)| u.contains("/v1/convert/") || u.contains("/v1/onramp/")), "{zone}: nothing asked");
    }
    let mut h = Harness::new(json!({"timeZone": "Asia/Taipei"}));
    h.account(CHAIN, true);
    assert_eq!(h.snap.part("account")["restricted"], false);
    h.send(json!({"type": "navigate", "view": "Swap"}));
    assert_eq!(h.view(), View::Swap, "elsewhere Swap opens");
}
