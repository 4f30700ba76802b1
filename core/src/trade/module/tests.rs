//! The trade modules' flows (Swap, Buy): the context from the shell in, requests and the part out.

use super::*;
use crate::engine::Effect;
use serde_json::json;

const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const CHAIN: &str = "eip155:31337";

struct H<S: TradeScreen> {
    m: TradeModule<S>,
    now: u64,
    effects: Vec<Effect>,
    part: Value,
}

impl<S: TradeScreen> H<S> {
    fn new() -> Self {
        let net = |id: u64| json!({"id": id, "caipNetworkId": format!("eip155:{id}"), "name": format!("Anvil {id}"), "chainNamespace": "eip155",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18}, "rpcUrls": {"default": {"http": ["http://127.0.0.1:8545"]}}, "testnet": true});
        let opts: Options = serde_json::from_value(json!({"projectId": "p", "apiUrl": "http://api.test", "networks": [net(31337), net(31338)]})).unwrap();
        H { m: TradeModule::new(opts), now: 1_000, effects: Vec::new(), part: Value::Null }
    }

    fn send(&mut self, v: Value) -> &mut Self {
        let (effects, part) = self.m.handle(&v, self.now);
        self.effects = effects;
        self.part = part;
        self
    }

    /// The account on `chain`, what it holds (9,999.5 ETH at 3,000 USD, 1,000 USDC), the swap networks.
    fn swap_context(&mut self, chain: &str) -> &mut Self {
        self.send(json!({"type": "context", "visible": true, "swapNetworks": ["eip155:1", CHAIN],
            "held": [{"address": null, "balance": "9999.5", "price": 3000.0}, {"address": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "balance": "1000", "price": 1.0}],
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

    /// The account module was asked to read the account again.
    fn account_changed(&self) -> bool {
        self.effects.iter().any(|e| matches!(e, Effect::Dispatch { event } if event.to_string() == r#"{"type":"accountChanged"}"#))
    }

    fn timer_fires(&mut self, id: &str) -> &mut Self {
        let ms = self.effects.iter().find_map(|e| match e {
            Effect::StartTimer { id: t, ms } if t == id => Some(*ms),
            _ => None,
        });
        self.now += ms.unwrap_or_else(|| panic!("no {id} timer in {:?}", self.effects));
        self.send(json!({"type": "timer", "id": id}))
    }
}

// ----- swap ----------------------------------------------------------------------------------------------

const USDC_LC: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const WETH_NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

impl H<SwapSlice> {
    fn swapping(&mut self) -> &mut Self {
        self.swap_context(CHAIN).send(json!({"type": "openSwap"}));
        let tokens = json!({"tokens": [
            {"name": "Ether", "symbol": "ETH", "address": format!("{CHAIN}:{WETH_NATIVE}"), "decimals": 18},
            {"name": "USD Coin", "symbol": "USDC", "address": format!("{CHAIN}:{USDC_LC}"), "decimals": 6},
        ]});
        let gas_id = self.fetch("/convert/gas-price").expect("the gas price is asked").0;
        self.answer("/convert/tokens", 200, tokens);
        self.send(json!({"type": "fetchResult", "id": gas_id, "status": 200, "body": json!({"standard": "1000000000", "fast": "2000000000", "instant": "3000000000"}).to_string()}))
    }
}

#[test]
fn swap_quotes_once_typing_settles_and_drops_answers_to_superseded_amounts() {
    let mut h = H::<SwapSlice>::new();
    h.swapping();
    assert_eq!(h.part["screen"], "swap");
    assert_eq!(h.part["title"], "Swap");
    let s = &h.part["swap"];
    assert_eq!(s["from"]["symbol"], "ETH", "native by default");
    assert_eq!(s["to"]["symbol"], "USDC", "USDC to receive by default");
    assert_eq!(s["from"]["balance"], "9,999.500", "balances from the portfolio");
    assert_eq!(s["fee"], "≈ 0.00015 ETH", "150,000 gas at the standard price");
    h.send(json!({"type": "swapSetAmount", "amount": "1"}));
    assert!(h.fetch("/convert/quotes").is_none(), "not while typing");
    h.send(json!({"type": "swapSetAmount", "amount": "1.5"}));
    h.timer_fires("trade-swap-quote");
    let (old, url) = h.fetch("/convert/quotes").expect("asked once typing settled");
    assert!(url.contains("amount=1500000000000000000") && url.contains(&format!("from=eip155%3A31337%3A{WETH_NATIVE}")) && url.contains("gasPrice=1000000000"), "{url}");
    assert!(h.fetch("/convert/allowance").is_none(), "native needs no allowance");
    // The amount changes before the answer: the late answer is dropped.
    h.send(json!({"type": "swapSetAmount", "amount": "2"}));
    h.send(json!({"type": "fetchResult", "id": old, "status": 200, "body": json!({"quotes": [{"toAmount": "4485000000"}]}).to_string()}));
    assert_eq!(h.part["swap"]["receive"], Value::Null, "a quote for 1.5 never shows for 2");
    h.now += 300;
    h.send(json!({"type": "timer", "id": "trade-swap-quote"}));
    h.answer("/convert/quotes", 200, json!({"quotes": [{"fromAmount": "2000000000000000000", "toAmount": "5940000000"}]}));
    let s = &h.part["swap"];
    assert_eq!(s["receive"], "5,940");
    assert_eq!(s["rate"], "1 ETH = 2,970 USDC");
    assert_eq!(s["minimumReceived"], "5,880.6 USDC", "1% slippage");
    assert_eq!(s["priceImpact"], "1.00%", "5,940 USD received for 6,000 paid at the portfolio's prices");
    assert_eq!(s["action"], "swap");
    // Stale after 15 s: asked again.
    h.timer_fires("trade-swap-quote");
    assert!(h.fetch("/convert/quotes").is_some(), "a stale quote is asked again");
}

#[test]
fn swapping_an_erc20_approves_first_then_swaps_and_reads_the_account_again_when_mined() {
    let mut h = H::<SwapSlice>::new();
    h.swapping();
    h.send(json!({"type": "swapFlip"})).send(json!({"type": "swapSetAmount", "amount": "100"}));
    assert_eq!(h.part["swap"]["from"]["symbol"], "USDC");
    h.timer_fires("trade-swap-quote");
    let allowance = h.fetch("/convert/allowance").expect("an ERC-20 needs an allowance").0;
    h.answer("/convert/quotes", 200, json!({"quotes": [{"toAmount": "33000000000000000"}]}));
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "0"}).to_string()}));
    assert_eq!(h.part["swap"]["action"], "approve");
    h.send(json!({"type": "swapConfirm"}));
    assert!(h.fetch("/convert/build-transaction").is_none(), "no swap before the approval");
    h.send(json!({"type": "swapApprove"}));
    let (_, url) = h.fetch("/convert/build-approve").expect("the approval is built by the service");
    assert!(url.contains("amount=100000000"), "{url}");
    h.answer("/convert/build-approve", 200, json!({"tx": {"from": ADDR, "to": USDC_LC, "data": "0x095ea7b3", "value": "0"}}));
    let (_, tx) = h.request("eth_sendTransaction").expect("sent through the wallet");
    assert_eq!(tx[0]["to"], USDC_LC);
    assert_eq!(tx[0].get("value"), None, "no value for an approval");
    assert_eq!(h.part["swap"]["action"], "wallet");
    h.wallet_answer("eth_sendTransaction", json!(format!("0x{}", "aa".repeat(32))));
    assert_eq!(h.part["swap"]["action"], "approving");
    h.send(json!({"type": "back"}));
    assert_eq!(h.part["screen"], "swap", "back is held while the approval mines");
    h.now += 1_500;
    h.send(json!({"type": "timer", "id": "trade-swap-receipt"}));
    h.wallet_answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    let allowance = h.fetch("/convert/allowance").expect("mined: the allowance is read again").0;
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "100000000"}).to_string()}));
    assert_eq!(h.part["swap"]["action"], "swap");
    h.send(json!({"type": "swapConfirm"}));
    let build = h.effects.iter().find_map(|e| match e { Effect::Fetch { url, body: Some(b), .. } if url.contains("/convert/build-transaction") => Some(b.clone()), _ => None }).expect("built by the service");
    let body: Value = serde_json::from_str(&build).unwrap();
    assert_eq!(body["eip155"]["slippage"], "1");
    assert_eq!(body["amount"], "100000000");
    assert_eq!(body["userAddress"], ADDR);
    h.answer("/convert/build-transaction", 200, json!({"tx": {"from": ADDR, "to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x18cbafe5", "value": "0", "eip155": {"gas": "200000", "gasPrice": "1000000000"}}}));
    h.wallet_answer("eth_sendTransaction", json!(format!("0x{}", "bb".repeat(32))));
    h.timer_fires("trade-swap-receipt");
    h.wallet_answer("eth_getTransactionReceipt", json!({"status": "0x1"}));
    assert!(h.account_changed(), "mined: the account module reads the tokens again");
    assert_eq!(h.part["swap"]["done"], format!("0x{}", "bb".repeat(32)));
    assert_eq!(h.part["swap"]["amount"], "");
}

#[test]
fn swap_says_what_is_wrong_network_balance_route_and_rejection() {
    let mut h = H::<SwapSlice>::new();
    h.swap_context("eip155:31338").send(json!({"type": "openSwap"}));
    assert_eq!(h.part["swap"]["error"], "Network not supported for Swaps");
    assert_eq!(h.part["swap"]["supported"], false);
    assert!(h.fetch("/convert/").is_none(), "nothing asked outside the swap networks");
    let mut h = H::<SwapSlice>::new();
    h.swapping();
    h.send(json!({"type": "swapSetAmount", "amount": "20000"}));
    assert_eq!(h.part["swap"]["error"], "Insufficient ETH balance");
    h.send(json!({"type": "swapMax"}));
    assert_eq!(h.part["swap"]["amount"], "9999.5");
    assert_eq!(h.part["swap"]["error"], Value::Null);
    h.timer_fires("trade-swap-quote");
    h.answer("/convert/quotes", 400, json!({"status": "FAILED", "reasons": [{"field": "to", "description": "No pool between these tokens"}]}));
    assert_eq!(h.part["swap"]["error"], "No route for this swap: No pool between these tokens");
    h.send(json!({"type": "swapSetAmount", "amount": "1"}));
    h.timer_fires("trade-swap-quote");
    h.answer("/convert/quotes", 200, json!({"quotes": [{"toAmount": "2970000000"}]}));
    h.send(json!({"type": "swapConfirm"}));
    h.answer("/convert/build-transaction", 200, json!({"tx": {"to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x7ff36ab5", "value": "1000000000000000000"}}));
    let (id, _) = h.request("eth_sendTransaction").unwrap();
    h.send(json!({"type": "providerResult", "id": id, "error": {"code": 4001, "message": "User rejected the request."}}));
    assert_eq!(h.part["swap"]["error"], "User rejected the request");
    assert_eq!(h.part["swap"]["action"], "swap", "the form stays, ready to try again");
    assert_eq!(h.part["swap"]["amount"], "1");
}

// ----- buy -----------------------------------------------------------------------------------------------

fn onramp_options() -> Value {
    let limits = json!([{"id": "card", "min": "10.00", "max": "7500.00"}, {"id": "bank_account", "min": "10.00", "max": "25000.00"}]);
    json!({
        "purchaseCurrencies": [
            {"id": "USDC", "name": "USD Coin", "symbol": "USDC", "networks": [{"name": CHAIN, "display_name": "Anvil", "chain_id": "31337", "contract_address": USDC_LC, "decimals": 6}]},
            {"id": "ETH", "name": "Ether", "symbol": "ETH", "networks": [{"name": CHAIN, "display_name": "Anvil", "chain_id": "31337", "contract_address": WETH_NATIVE}]},
            {"id": "DAI", "name": "Dai", "symbol": "DAI", "networks": [{"name": "eip155:1", "display_name": "Ethereum", "chain_id": "1", "contract_address": "0x6b17"}]}
        ],
        "paymentCurrencies": [{"id": "USD", "name": "US Dollar", "symbol": "USD", "payment_method_limits": limits}, {"id": "EUR", "name": "Euro", "symbol": "EUR", "payment_method_limits": limits}],
        "providers": [{"id": "meld", "name": "Meld (local)", "feePercent": "1.00"}, {"id": "coinbase", "name": "Coinbase (local)", "feePercent": "2.00"}]
    })
}

impl H<BuySlice> {
    fn buying(&mut self) -> &mut Self {
        self.swap_context(CHAIN).send(json!({"type": "openBuy"}));
        self.answer("/onramp/options", 200, onramp_options())
    }

    fn quote_bodies(&self) -> Vec<Value> {
        self.effects.iter().filter_map(|e| match e { Effect::Fetch { url, body: Some(b), .. } if url.contains("/v1/onramp/quote") => serde_json::from_str(b).ok(), _ => None }).collect()
    }

    fn answer_quote(&mut self, provider: &str, status: u16, body: Value) -> &mut Self {
        let id = self.effects.iter().find_map(|e| match e {
            Effect::Fetch { id, url, body: Some(b), .. } if url.contains("/v1/onramp/quote") && b.contains(&format!("\"provider\":\"{provider}\"")) => Some(*id),
            _ => None,
        });
        let id = id.unwrap_or_else(|| panic!("no quote for {provider}"));
        let (effects, part) = self.m.handle(&json!({"type": "fetchResult", "id": id, "status": status, "body": body.to_string()}), self.now);
        self.effects.extend(effects);
        self.part = part;
        self
    }
}

#[test]
fn buy_offers_the_networks_tokens_usdc_first_and_quotes_each_provider_once_typing_settles() {
    let mut h = H::<BuySlice>::new();
    h.buying();
    assert_eq!(h.part["screen"], "buy");
    assert_eq!(h.part["title"], "Buy");
    let b = &h.part["buy"];
    assert_eq!(b["tokens"].as_array().unwrap().iter().map(|t| t["symbol"].as_str().unwrap()).collect::<Vec<_>>(), ["USDC", "ETH"], "only this network's");
    assert_eq!(b["purchase"], "USDC", "USDC by default (spec §9)");
    assert_eq!(b["payment"], "USD");
    assert_eq!(b["method"], "card");
    assert_eq!(b["balance"], "1,000.000", "what the account holds of it");
    h.send(json!({"type": "buySetAmount", "amount": "5"}));
    assert_eq!(h.part["buy"]["error"], "The minimum by card is 10.00 USD");
    h.send(json!({"type": "buySetAmount", "amount": "8000"}));
    assert_eq!(h.part["buy"]["error"], "The maximum by card is 7,500.00 USD");
    h.send(json!({"type": "buySetMethod", "method": "bank_account"}));
    assert_eq!(h.part["buy"]["error"], Value::Null, "a bank account takes up to 25,000.00");
    h.send(json!({"type": "buySetMethod", "method": "card"})).send(json!({"type": "buySetAmount", "amount": "100"}));
    assert_eq!(h.part["buy"]["quoting"], true);
    assert!(h.quote_bodies().is_empty(), "not while typing");
    h.timer_fires("trade-buy-quote");
    let bodies = h.quote_bodies();
    assert_eq!(bodies.len(), 2, "one quote per provider");
    assert_eq!(bodies[0], json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00", "network": CHAIN, "provider": "meld", "paymentMethod": "card"}));
    h.answer_quote("coinbase", 200, json!({"purchaseAmount": {"amount": "98", "currency": "USDC"}, "fee": {"amount": "2.00", "currency": "USD"}}));
    assert_eq!(h.part["buy"]["quoting"], true, "meld is still asked");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99", "currency": "USDC"}, "fee": {"amount": "1.00", "currency": "USD"}}));
    let quotes = h.part["buy"]["quotes"].as_array().unwrap().clone();
    assert_eq!(h.part["buy"]["quoting"], false);
    assert_eq!(quotes.iter().map(|q| q["provider"].as_str().unwrap()).collect::<Vec<_>>(), ["meld", "coinbase"], "in the service's order");
    assert_eq!(quotes[0], json!({"provider": "meld", "name": "Meld (local)", "receive": "99", "fee": "1.00", "feePercent": "1.00", "estimate": false}));
}

#[test]
fn buying_opens_the_providers_checkout_and_follows_the_order_until_paid_out() {
    let mut h = H::<BuySlice>::new();
    h.buying().send(json!({"type": "buySetAmount", "amount": "100"}));
    h.timer_fires("trade-buy-quote");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99"}}));
    h.send(json!({"type": "buyChoose", "provider": "meld"}));
    let body = h.effects.iter().find_map(|e| match e { Effect::Fetch { url, body: Some(b), .. } if url.contains("/v1/generators/onrampurl") => Some(b.clone()), _ => None }).expect("the checkout URL is asked");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["destinationWallets"], json!([{"address": ADDR, "blockchains": [CHAIN], "assets": ["USDC"]}]));
    assert_eq!(body["defaultExperience"], "buy");
    assert_eq!(body["presetFiatAmount"], "100.00");
    assert_eq!(h.part["buy"]["order"]["stage"], "preparing");
    h.answer("/v1/generators/onrampurl", 200, json!({"url": "http://api.test/onramp/meld/checkout/ord_1", "orderId": "ord_1"}));
    assert_eq!(h.part["buy"]["order"], json!({"stage": "open", "provider": "Meld (local)", "url": "http://api.test/onramp/meld/checkout/ord_1", "status": "PENDING"}));
    h.timer_fires("trade-buy-order");
    h.answer("/v1/onramp/orders/ord_1", 200, json!({"id": "ord_1", "status": "PROCESSING"}));
    assert_eq!(h.part["buy"]["order"]["status"], "PROCESSING");
    // Leaving Buy keeps following the order; it shows again when Buy opens.
    h.send(json!({"type": "back"}));
    assert_eq!(h.part["screen"], Value::Null, "Buy left");
    h.now += 2_000;
    h.send(json!({"type": "timer", "id": "trade-buy-order"}));
    assert!(h.fetch("/v1/onramp/orders/ord_1").is_some(), "still followed");
    let (pending, _) = h.fetch("/v1/onramp/orders/ord_1").unwrap();
    h.send(json!({"type": "openBuy"}));
    assert!(h.fetch("/onramp/options").is_none(), "the open order shows, nothing asked again");
    assert_eq!(h.part["buy"]["order"]["stage"], "open");
    h.effects.push(Effect::Fetch { id: pending, url: "/v1/onramp/orders/ord_1".into(), method: "GET", body: None, timeout_ms: 0 });
    h.answer("/v1/onramp/orders/ord_1", 200, json!({"id": "ord_1", "status": "COMPLETED", "purchaseCurrency": "USDC", "purchaseAmount": "99", "txHash": format!("0x{}", "12".repeat(32))}));
    assert_eq!(h.part["buy"]["order"]["stage"], "completed");
    assert_eq!(h.part["buy"]["order"]["amount"], "99");
    assert!(h.account_changed(), "paid out: the account module reads the tokens again");
}

#[test]
fn buy_falls_back_to_the_built_in_options_and_to_marked_estimates() {
    let mut h = H::<BuySlice>::new();
    h.swap_context(CHAIN).send(json!({"type": "openBuy"}));
    h.answer("/onramp/options", 500, json!({"error": "x"}));
    let b = &h.part["buy"];
    assert_eq!(b["fallback"], true);
    assert_eq!(b["purchase"], "USDC");
    assert_eq!(b["currencies"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect::<Vec<_>>(), ["USD", "EUR"]);
    h.send(json!({"type": "buySetAmount", "amount": "100"}));
    h.timer_fires("trade-buy-quote");
    h.answer_quote("meld", 500, json!({"error": "x"}));
    let q = &h.part["buy"]["quotes"][0];
    assert_eq!(q["estimate"], true, "marked as an estimate");
    assert_eq!(q["receive"], "98", "100 USD less the highest fee (2%) at 1 USD");
    // EUR has no price here: no estimate rather than a wrong one.
    h.send(json!({"type": "buySetPayment", "currency": "EUR"}));
    h.timer_fires("trade-buy-quote");
    h.answer_quote("meld", 500, json!({}));
    assert_eq!(h.part["buy"]["quotes"], json!([]));
    // A checkout that cannot be made says so.
    h.send(json!({"type": "buySetPayment", "currency": "USD"}));
    h.timer_fires("trade-buy-quote");
    h.answer_quote("meld", 200, json!({"purchaseAmount": {"amount": "99"}}));
    h.send(json!({"type": "buyChoose", "provider": "meld"}));
    h.answer("/v1/generators/onrampurl", 200, json!({"url": "javascript:alert(1)", "orderId": "o"}));
    assert_eq!(h.part["buy"]["order"]["stage"], "failed");
}

// ----- the module --------------------------------------------------------------------------------------

#[test]
fn a_trade_module_refuses_malformed_events_and_closes_when_the_account_or_view_changes() {
    let mut h = H::<SwapSlice>::new();
    h.send(json!({"type": "openSwap"}));
    assert_eq!(h.part["screen"], Value::Null, "nothing opens without an account");
    h.swap_context(CHAIN).send(json!({"type": "openSwap"}));
    assert_eq!(h.part["screen"], "swap");
    for bad in [json!({"type": "nope"}), json!({"no": "type"}), json!({"type": "swapSetAmount"}), json!({"type": "buySetAmount", "amount": "1"})] {
        let before = h.part.clone();
        h.send(bad.clone());
        assert!(matches!(&h.effects[..], [Effect::Alert { key, .. }] if key == "INVALID_EVENT"), "{bad}: {:?}", h.effects);
        assert_eq!(h.part, before, "{bad} changed nothing");
    }
    // Another network: the screen closes (its tokens and quote were for the old one).
    h.swap_context("eip155:31338");
    assert_eq!(h.part["screen"], Value::Null);
    assert_eq!(h.part["swap"], Value::Null);
    h.send(json!({"type": "openSwap"}));
    assert_eq!(h.part["swap"]["error"], "Network not supported for Swaps");
    // The Account view gone: closed too.
    h.send(json!({"type": "context", "visible": false, "account": {"namespace": "eip155", "address": ADDR, "caipNetworkId": "eip155:31338", "connectorId": "x"}}));
    assert_eq!(h.part["screen"], Value::Null);
}

#[test]
fn answers_and_timers_of_other_modules_are_not_this_ones() {
    let mut h = H::<BuySlice>::new();
    h.buying();
    let before = h.part.clone();
    h.send(json!({"type": "fetchResult", "id": 16 * 7 + 9, "status": 200, "body": "{}"}));
    h.send(json!({"type": "timer", "id": "trade-swap-quote"}));
    h.send(json!({"type": "timer", "id": "account-receipt"}));
    assert_eq!(h.part, before);
    assert!(h.effects.is_empty());
}

#[test]
fn an_approval_built_for_another_contract_than_the_token_paid_with_is_refused() {
    let mut h = H::<SwapSlice>::new();
    h.swapping();
    h.send(json!({"type": "swapFlip"})).send(json!({"type": "swapSetAmount", "amount": "100"}));
    h.timer_fires("trade-swap-quote");
    let allowance = h.fetch("/convert/allowance").unwrap().0;
    h.answer("/convert/quotes", 200, json!({"quotes": [{"toAmount": "33000000000000000"}]}));
    h.send(json!({"type": "fetchResult", "id": allowance, "status": 200, "body": json!({"allowance": "0"}).to_string()}));
    h.send(json!({"type": "swapApprove"}));
    h.answer("/convert/build-approve", 200, json!({"tx": {"to": "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", "data": "0x095ea7b3", "value": "0"}}));
    assert!(h.request("eth_sendTransaction").is_none(), "nothing goes to the wallet");
    assert_eq!(h.part["swap"]["error"], "The approval could not be built; try again");
    assert_eq!(h.part["swap"]["action"], "approve", "the form stays");
}
