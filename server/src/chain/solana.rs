//! The blockchain API's balances on the local Solana chain (`--solana FILE`: what
//! demo/solana/rpc.mjs `--out` wrote: its RPC URL and the demo's mints). Every balance is read
//! from the chain when asked — SOL by `getBalance`, SPL tokens (Token and Token-2022) by
//! `getTokenAccountsByOwner` — at `confirmed`; the file only names the mints (symbol, name) and
//! prices them (the USDC-like one at $1). A mint it does not name is listed by its address.

use super::api::{api_error, ApiError, BalanceItem, Quantity};
use super::rpc::{RpcClient, RpcLimits};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

const PROGRAMS: [&str; 2] = ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"];
/// Token accounts read per program (an account with more is cut, and says so in the log).
const MAX_TOKEN_ACCOUNTS: usize = 100;

#[derive(Debug, Clone, Deserialize)]
pub struct Mint {
    pub mint: String,
    pub symbol: String,
    pub name: String,
    pub decimals: u8,
}

#[derive(Debug, Deserialize)]
struct SeedFile {
    #[serde(rename = "rpcUrl")]
    rpc_url: String,
    tokens: std::collections::BTreeMap<String, Mint>,
}

#[derive(Debug)]
pub struct SolanaApi {
    client: RpcClient,
    mints: Vec<Mint>,
    /// `solana:<first 32 characters of the genesis hash>`, read once.
    caip2: tokio::sync::OnceCell<String>,
}

impl SolanaApi {
    pub fn load(path: &Path) -> Result<SolanaApi, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let f: SeedFile = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let limits = RpcLimits { max_response: 4 * 1024 * 1024, ..RpcLimits::default() };
        Ok(SolanaApi { client: RpcClient::new(&f.rpc_url, limits)?, mints: f.tokens.into_values().collect(), caip2: tokio::sync::OnceCell::new() })
    }

    fn unavailable(&self, e: impl std::fmt::Display) -> ApiError {
        api_error(StatusCode::SERVICE_UNAVAILABLE, "chainId", format!("Balance temporarily unavailable: the Solana node is unreachable ({e})"))
    }

    /// The chain's CAIP-2 id.
    pub async fn caip2(&self) -> Result<&str, ApiError> {
        self.caip2
            .get_or_try_init(|| async {
                let hash: String = self.client.call("getGenesisHash", json!([])).await.map_err(|e| self.unavailable(e))?;
                Ok(format!("solana:{}", hash.chars().take(32).collect::<String>()))
            })
            .await
            .map(String::as_str)
    }

    /// The balances of `owner` (base58): SOL first, then its tokens by value, then symbol.
    pub async fn balances(&self, owner: &str, origin: &str) -> Result<Vec<BalanceItem>, ApiError> {
        let chain_id = self.caip2().await?.to_string();
        let lamports: Value = self.client.call("getBalance", json!([owner, {"commitment": "confirmed"}])).await.map_err(|e| self.unavailable(e))?;
        let lamports = lamports["value"].as_u64().ok_or_else(|| self.unavailable("getBalance answered no lamports"))?;
        let mut tokens = Vec::new();
        for program in PROGRAMS {
            let answer: Value = self
                .client
                .call("getTokenAccountsByOwner", json!([owner, {"programId": program}, {"encoding": "jsonParsed", "commitment": "confirmed"}]))
                .await
                .map_err(|e| self.unavailable(e))?;
            let list = answer["value"].as_array().cloned().unwrap_or_default();
            for account in list.iter().take(MAX_TOKEN_ACCOUNTS) {
                let info = &account["account"]["data"]["parsed"]["info"];
                let (Some(mint), Some(amount)) = (info["mint"].as_str(), info["tokenAmount"].as_object()) else { continue };
                let decimals = amount.get("decimals").and_then(Value::as_u64).filter(|d| *d <= 18);
                // (The node's amount is checked as a decimal number before it is passed on.)
                let numeric = amount.get("uiAmountString").and_then(Value::as_str).filter(|n| n.len() <= 40 && n.parse::<f64>().is_ok_and(f64::is_finite));
                let (Some(decimals), Some(numeric)) = (decimals, numeric) else { continue };
                if amount.get("amount").and_then(Value::as_str) == Some("0") {
                    continue;
                }
                let meta = self.mints.iter().find(|m| m.mint == mint);
                let symbol = meta.map(|m| m.symbol.clone()).unwrap_or_else(|| mint.chars().take(4).collect());
                let price = (symbol == "USDC").then_some(1.0);
                tokens.push(BalanceItem {
                    name: meta.map(|m| m.name.clone()).unwrap_or_else(|| mint.to_string()),
                    chain_id: chain_id.clone(),
                    address: Some(format!("{chain_id}:{mint}")),
                    value: price.and_then(|p| numeric.parse::<f64>().ok().map(|n| n * p)),
                    price: price.unwrap_or(0.0),
                    quantity: Quantity { decimals: decimals.to_string(), numeric: numeric.to_string() },
                    icon_url: format!("{origin}/public/getTokenImage/{}", symbol.to_ascii_lowercase()),
                    is_spam: false,
                    symbol,
                });
            }
        }
        tokens.sort_by(|a, b| b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0)).then_with(|| a.symbol.cmp(&b.symbol)));
        let native = BalanceItem {
            name: "Solana".into(),
            symbol: "SOL".into(),
            chain_id: chain_id.clone(),
            address: None,
            value: None,
            price: 0.0,
            quantity: Quantity { decimals: "9".into(), numeric: lamports_text(lamports) },
            icon_url: format!("{origin}/public/getTokenImage/sol"),
            is_spam: false,
        };
        let mut out = vec![native];
        out.extend(tokens);
        Ok(out)
    }
}

/// Lamports as SOL, exactly (`1500000000` → `1.5`).
pub fn lamports_text(l: u64) -> String {
    let (whole, frac) = (l / 1_000_000_000, l % 1_000_000_000);
    if frac == 0 {
        return whole.to_string();
    }
    format!("{whole}.{}", format!("{frac:09}").trim_end_matches('0'))
}

/// Whether `s` is a base58 32-byte key (an address the route can ask the node about).
pub fn is_address(s: &str) -> bool {
    (32..=44).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lamports_are_shown_as_exact_sol() {
        assert_eq!(lamports_text(1_500_000_000), "1.5");
        assert_eq!(lamports_text(20_250_000_000), "20.25");
        assert_eq!(lamports_text(5_000), "0.000005");
        assert_eq!(lamports_text(0), "0");
    }

    #[test]
    fn an_address_is_32_to_44_base58_characters() {
        assert!(is_address("FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc"));
        assert!(!is_address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert!(!is_address("short"));
    }
}
