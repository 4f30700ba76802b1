//! What the local providers sell, for what, and who pays out: the two providers, the fiat table,
//! the purchase currencies of every configured chain (the native currency and the manifest's USDC
//! and WMT) and the providers' payout accounts (the manifest's `onramp.providers`, else anvil's dev
//! accounts 4 and 5).

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{json, Value};

use crate::chain::abi::{addr_hex, parse_addr, Addr};
use crate::chain::manifest;
use crate::AppState;

/// One local on-ramp provider.
#[derive(Debug, PartialEq, Eq)]
pub struct Provider {
    /// `meld` or `coinbase` (the spec's DEFAULT_ONRAMP_PROVIDERS).
    pub id: &'static str,
    pub name: &'static str,
    /// Fee in basis points (spec: 1–2 %).
    pub fee_bps: u32,
    /// The payout account when the manifest names none (an unlocked anvil dev account).
    pub default_payout: &'static str,
}

/// The providers, cheapest first (the order quotes without `provider` are compared in).
pub const PROVIDERS: [Provider; 2] = [
    Provider {
        id: "meld",
        name: "Meld (local)",
        fee_bps: 100,
        default_payout: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    },
    Provider {
        id: "coinbase",
        name: "Coinbase (local)",
        fee_bps: 200,
        default_payout: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    },
];

pub fn provider(id: &str) -> Option<&'static Provider> {
    PROVIDERS.iter().find(|p| p.id == id)
}

impl Provider {
    /// `"1.00"` for 100 basis points.
    pub fn fee_percent(&self) -> String {
        super::money::format_fixed(self.fee_bps as u128, 2)
    }
}

/// A fiat payment currency: id, name, value of one unit in micro-USD (a fixed table).
#[derive(Debug, PartialEq, Eq)]
pub struct Fiat {
    pub id: &'static str,
    pub name: &'static str,
    pub usd_micro: u128,
}

/// USD = 1 USD, EUR = 1.08 USD.
pub const FIATS: [Fiat; 2] = [
    Fiat {
        id: "USD",
        name: "US Dollar",
        usd_micro: 1_000_000,
    },
    Fiat {
        id: "EUR",
        name: "Euro",
        usd_micro: 1_080_000,
    },
];

pub fn fiat(id: &str) -> Option<&'static Fiat> {
    FIATS.iter().find(|f| f.id.eq_ignore_ascii_case(id))
}

/// Payment methods and their limits in cents of any payment currency (spec §9, `ONRAMP_*`).
pub const METHODS: [(&str, u128, u128); 2] =
    [("card", 1_000, 750_000), ("bank_account", 1_000, 2_500_000)];

pub fn method(id: &str) -> Option<(&'static str, u128, u128)> {
    METHODS.iter().copied().find(|(m, _, _)| *m == id)
}

/// The tokens of the manifest offered for purchase (besides each chain's native currency), in
/// the order listed: USDC first (the spec's default purchase token).
pub const OFFERED_TOKENS: [&str; 2] = ["USDC", "WMT"];
/// Purchase currency ids are the symbols; USDC also answers to the hosted default list's id.
pub const USDC_HOSTED_ID: &str = "2b92315d-eab7-5bef-84fa-089a131333f5";
/// USDC is priced from this fixed table (1 USD); everything else from the blockchain API.
pub const USDC_PRICE_USD: f64 = 1.0;

/// A configured chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    pub chain_id: u64,
    /// `eip155:31337`: the network's `name` in the options, and what requests name it by.
    pub caip2: String,
    /// `Anvil A`, `Anvil B`, … (as the demo page names them).
    pub display: String,
}

/// Something one can buy on one chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub symbol: String,
    pub name: String,
    pub decimals: u8,
    pub chain_id: u64,
    /// `None`: the chain's native currency.
    pub token: Option<Addr>,
}

impl Asset {
    /// The contract address shown in the options (`0xeeee…` for the native currency, as the
    /// blockchain API's price route names it).
    pub fn contract(&self) -> String {
        addr_hex(&self.token.unwrap_or(crate::chain::abi::NATIVE_ADDR))
    }
}

/// What this module reads from the manifest file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ManifestInfo {
    /// Offered tokens: (chain id, symbol, name, decimals, address).
    pub tokens: Vec<Asset>,
    /// Payout accounts: (chain id or `None` for every chain, provider id, address).
    pub payouts: Vec<(Option<u64>, String, Addr)>,
}

fn payouts_of(v: &Value, chain: Option<u64>, out: &mut Vec<(Option<u64>, String, Addr)>) {
    let Some(list) = v.pointer("/onramp/providers").and_then(Value::as_array) else {
        return;
    };
    for p in list.iter().take(16) {
        let id = p.get("id").and_then(Value::as_str);
        let addr = p
            .get("address")
            .and_then(Value::as_str)
            .and_then(parse_addr);
        if let (Some(id), Some(addr)) = (id, addr) {
            if provider(id).is_some() {
                out.push((chain, id.to_string(), addr));
            }
        }
    }
}

/// Reads the manifest's offered tokens and payout accounts, leniently (entries it does not
/// understand are skipped: the chain API validates the file).
pub fn parse_manifest(text: &str) -> ManifestInfo {
    let mut info = ManifestInfo::default();
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return info;
    };
    payouts_of(&v, None, &mut info.payouts);
    for c in v
        .get("chains")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(1000)
    {
        let Some(chain_id) = c.get("chainId").and_then(Value::as_u64) else {
            continue;
        };
        payouts_of(c, Some(chain_id), &mut info.payouts);
        for t in c
            .get("tokens")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .take(manifest::MAX_MANIFEST_TOKENS)
        {
            let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or_default();
            if s("kind") != "erc20" || t.get("spam").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let symbol = s("symbol");
            if !OFFERED_TOKENS.contains(&symbol) {
                continue;
            }
            let (Some(token), Some(decimals)) = (
                parse_addr(s("address")),
                t.get("decimals")
                    .and_then(Value::as_u64)
                    .filter(|d| *d <= 36),
            ) else {
                continue;
            };
            if info
                .tokens
                .iter()
                .any(|a| a.chain_id == chain_id && a.symbol == symbol)
            {
                continue;
            }
            info.tokens.push(Asset {
                symbol: symbol.to_string(),
                name: s("name").chars().take(128).collect(),
                decimals: decimals as u8,
                chain_id,
                token: Some(token),
            });
        }
    }
    info
}

/// The file's modification time and size, and what was read from it.
type Seen = (Option<SystemTime>, u64, Arc<ManifestInfo>);

/// The manifest info, re-read when the file changes (size and modification time).
#[derive(Debug, Default)]
pub struct ManifestCache {
    seen: std::sync::Mutex<Option<Seen>>,
}

impl ManifestCache {
    pub fn get(&self, path: Option<&Path>) -> Arc<ManifestInfo> {
        let Some(path) = path else {
            return Arc::new(ManifestInfo::default());
        };
        let meta = std::fs::metadata(path).ok();
        let key = (
            meta.as_ref().and_then(|m| m.modified().ok()),
            meta.as_ref().map_or(0, |m| m.len()),
        );
        let mut seen = self.seen.lock().unwrap();
        if let Some((t, l, info)) = seen.as_ref() {
            if (*t, *l) == key {
                return info.clone();
            }
        }
        let info = Arc::new(
            meta.filter(|m| m.len() <= manifest::MAX_MANIFEST_BYTES)
                .and_then(|_| std::fs::read_to_string(path).ok())
                .map(|t| parse_manifest(&t))
                .unwrap_or_default(),
        );
        *seen = Some((key.0, key.1, info.clone()));
        info
    }
}

/// The configured chains, named as on the demo page.
pub fn networks(app: &AppState) -> Vec<Network> {
    app.options
        .chains
        .iter()
        .enumerate()
        .map(|(i, c)| Network {
            chain_id: c.chain_id,
            caip2: format!("eip155:{}", c.chain_id),
            display: format!("Anvil {}", (b'A' + (i as u8 % 26)) as char),
        })
        .collect()
}

/// Everything purchasable: each chain's ETH, and the manifest's USDC and WMT on configured chains.
pub fn assets(networks: &[Network], info: &ManifestInfo) -> Vec<Asset> {
    let mut out: Vec<Asset> = networks
        .iter()
        .map(|n| Asset {
            symbol: crate::chain::api::NATIVE_SYMBOL.into(),
            name: crate::chain::api::NATIVE_NAME.into(),
            decimals: crate::chain::api::NATIVE_DECIMALS,
            chain_id: n.chain_id,
            token: None,
        })
        .collect();
    out.extend(
        info.tokens
            .iter()
            .filter(|t| networks.iter().any(|n| n.chain_id == t.chain_id))
            .cloned(),
    );
    out
}

/// Purchase currency symbols in the order of the options: USDC, ETH, then the other tokens.
fn symbol_order(assets: &[Asset]) -> Vec<String> {
    let mut syms: Vec<String> = Vec::new();
    let native = crate::chain::api::NATIVE_SYMBOL;
    for s in ["USDC", native].into_iter().chain(OFFERED_TOKENS) {
        if !syms.iter().any(|x| x == s) && assets.iter().any(|a| a.symbol == s) {
            syms.push(s.to_string());
        }
    }
    syms
}

/// `purchaseCurrencies` of the options (AppKit's `PurchaseCurrency`).
pub fn purchase_currencies(networks: &[Network], assets: &[Asset]) -> Vec<Value> {
    symbol_order(assets)
        .into_iter()
        .map(|sym| {
            let of: Vec<&Asset> = networks
                .iter()
                .filter_map(|n| {
                    assets
                        .iter()
                        .find(|a| a.symbol == sym && a.chain_id == n.chain_id)
                })
                .collect();
            let name = of.first().map(|a| a.name.clone()).unwrap_or_default();
            let nets: Vec<Value> = of
                .iter()
                .filter_map(|a| {
                    let n = networks.iter().find(|n| n.chain_id == a.chain_id)?;
                    Some(json!({
                        "name": n.caip2,
                        "display_name": n.display,
                        "chain_id": n.chain_id.to_string(),
                        "contract_address": a.contract(),
                        "decimals": a.decimals,
                    }))
                })
                .collect();
            json!({ "id": sym, "name": name, "symbol": sym, "networks": nets })
        })
        .collect()
}

/// `paymentCurrencies` of the options (AppKit's `PaymentCurrency`, plus name and symbol).
pub fn payment_currencies() -> Vec<Value> {
    FIATS
        .iter()
        .map(|f| {
            let limits: Vec<Value> = METHODS
                .iter()
                .map(|(id, min, max)| {
                    json!({
                        "id": id,
                        "min": super::money::format_fixed(*min, 2),
                        "max": super::money::format_fixed(*max, 2),
                    })
                })
                .collect();
            json!({ "id": f.id, "name": f.name, "symbol": f.id, "payment_method_limits": limits })
        })
        .collect()
}

/// A purchase currency named by id or symbol (any case; USDC also by the hosted id).
pub fn resolve_symbol(assets: &[Asset], s: &str) -> Option<String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case(USDC_HOSTED_ID) {
        return assets
            .iter()
            .any(|a| a.symbol == "USDC")
            .then(|| "USDC".to_string());
    }
    assets
        .iter()
        .find(|a| a.symbol.eq_ignore_ascii_case(s))
        .map(|a| a.symbol.clone())
}

/// A network named `eip155:31337`, `31337` or `Anvil A` (any case).
pub fn resolve_network(networks: &[Network], s: &str) -> Option<u64> {
    let s = s.trim();
    networks
        .iter()
        .find(|n| {
            n.caip2.eq_ignore_ascii_case(s)
                || n.chain_id.to_string() == s
                || n.display.eq_ignore_ascii_case(s)
        })
        .map(|n| n.chain_id)
}

pub fn find_asset<'a>(assets: &'a [Asset], symbol: &str, chain_id: u64) -> Option<&'a Asset> {
    assets
        .iter()
        .find(|a| a.symbol == symbol && a.chain_id == chain_id)
}

/// The chains `symbol` is offered on, as CAIP-2 ids, for error messages.
pub fn offered_on(assets: &[Asset], symbol: &str) -> String {
    assets
        .iter()
        .filter(|a| a.symbol == symbol)
        .map(|a| format!("eip155:{}", a.chain_id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The provider's payout account on a chain: the manifest's (per chain, then global), else the
/// provider's default dev account.
pub fn payout_address(info: &ManifestInfo, p: &Provider, chain_id: u64) -> Addr {
    let find = |c: Option<u64>| {
        info.payouts
            .iter()
            .find(|(pc, id, _)| *pc == c && id == p.id)
            .map(|(_, _, a)| *a)
    };
    find(Some(chain_id))
        .or_else(|| find(None))
        .or_else(|| parse_addr(p.default_payout))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = r#"{"version":1,
      "onramp":{"providers":[{"id":"meld","address":"0x1111111111111111111111111111111111111111"},
                             {"id":"nope","address":"0x2222222222222222222222222222222222222222"}]},
      "chains":[{"chainId":31337,"tokens":[
        {"kind":"erc20","address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","name":"USD Coin","symbol":"USDC","decimals":6},
        {"kind":"erc20","address":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","name":"Wallet Modal Token","symbol":"WMT","decimals":18},
        {"kind":"erc20","address":"0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0","name":"Demo Points","symbol":"PTS","decimals":0},
        {"kind":"erc20","address":"0x663F3ad617193148711d28f5334eE4Ed07016602","name":"x","symbol":"USDC","decimals":6,"spam":true}]},
       {"chainId":31338,"onramp":{"providers":[{"id":"coinbase","address":"0x3333333333333333333333333333333333333333"}]},
        "tokens":[{"kind":"erc20","address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","name":"USD Coin","symbol":"USDC","decimals":6}]},
       {"chainId":1,"tokens":[{"kind":"erc20","address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","name":"USD Coin","symbol":"USDC","decimals":6}]}]}"#;

    fn nets() -> Vec<Network> {
        [31337u64, 31338]
            .iter()
            .enumerate()
            .map(|(i, id)| Network {
                chain_id: *id,
                caip2: format!("eip155:{id}"),
                display: format!("Anvil {}", (b'A' + i as u8) as char),
            })
            .collect()
    }

    #[test]
    fn manifest_tokens_and_payouts() {
        let info = parse_manifest(M);
        let syms: Vec<(u64, &str)> = info
            .tokens
            .iter()
            .map(|t| (t.chain_id, t.symbol.as_str()))
            .collect();
        assert_eq!(
            syms,
            vec![
                (31337, "USDC"),
                (31337, "WMT"),
                (31338, "USDC"),
                (1, "USDC")
            ]
        );
        let meld = provider("meld").unwrap();
        let cb = provider("coinbase").unwrap();
        assert_eq!(
            addr_hex(&payout_address(&info, meld, 31338)),
            "0x1111111111111111111111111111111111111111"
        );
        assert_eq!(
            addr_hex(&payout_address(&info, cb, 31338)),
            "0x3333333333333333333333333333333333333333"
        );
        assert_eq!(
            addr_hex(&payout_address(&info, cb, 31337)),
            "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"
        );
        assert_eq!(parse_manifest("not json"), ManifestInfo::default());
    }

    #[test]
    fn options_list_usdc_first_on_configured_chains_only() {
        let n = nets();
        let a = assets(&n, &parse_manifest(M));
        let pc = purchase_currencies(&n, &a);
        let ids: Vec<&str> = pc.iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert_eq!(ids, vec!["USDC", "ETH", "WMT"]);
        let usdc_chains: Vec<&str> = pc[0]["networks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["chain_id"].as_str().unwrap())
            .collect();
        assert_eq!(usdc_chains, vec!["31337", "31338"]);
        assert_eq!(
            pc[1]["networks"][1]["contract_address"],
            "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
        );
        assert_eq!(pc[2]["networks"].as_array().unwrap().len(), 1);
        assert_eq!(resolve_symbol(&a, "usdc").as_deref(), Some("USDC"));
        assert_eq!(resolve_symbol(&a, USDC_HOSTED_ID).as_deref(), Some("USDC"));
        assert_eq!(resolve_symbol(&a, "PTS"), None);
        assert_eq!(resolve_network(&n, "eip155:31338"), Some(31338));
        assert_eq!(resolve_network(&n, "31337"), Some(31337));
        assert_eq!(resolve_network(&n, "anvil b"), Some(31338));
        assert_eq!(resolve_network(&n, "eip155:1"), None);
        assert!(find_asset(&a, "WMT", 31338).is_none());
        assert_eq!(offered_on(&a, "WMT"), "eip155:31337");
    }

    #[test]
    fn tables_match_the_core_constants() {
        use wm_core::service::constants as k;
        let ids: Vec<&str> = PROVIDERS.iter().map(|p| p.id).collect();
        assert_eq!(ids, k::DEFAULT_ONRAMP_PROVIDERS.to_vec());
        let fiats: Vec<&str> = FIATS.iter().map(|f| f.id).collect();
        assert_eq!(fiats, k::DEFAULT_PAYMENT_CURRENCIES.to_vec());
        for ((id, min, max), (kid, kmin, kmax)) in
            METHODS.iter().zip(k::DEFAULT_PAYMENT_METHOD_LIMITS)
        {
            assert_eq!(
                (
                    *id,
                    super::super::money::format_fixed(*min, 2),
                    super::super::money::format_fixed(*max, 2)
                ),
                (kid, kmin.to_string(), kmax.to_string())
            );
        }
        assert!(
            PROVIDERS.iter().all(|p| (100..=200).contains(&p.fee_bps)),
            "{}",
            k::ONRAMP_PROVIDER_FEE_RANGE
        );
    }

    #[test]
    fn payment_currencies_have_both_methods_with_limits() {
        let pc = payment_currencies();
        assert_eq!(pc[0]["id"], "USD");
        assert_eq!(pc[1]["id"], "EUR");
        assert_eq!(
            pc[0]["payment_method_limits"],
            json!([{"id":"card","min":"10.00","max":"7500.00"},{"id":"bank_account","min":"10.00","max":"25000.00"}])
        );
    }
}
