//! Reading a Bitcoin chain through an Esplora REST API (mempool.space's, or the demo backend's
//! stand-in over the local regtest node): an address's balance is what it holds confirmed and in
//! the mempool (`GET {esplora}/address/{address}`: funded minus spent satoshis); a transaction is
//! mined when `GET {esplora}/tx/{txid}/status` says `confirmed`. The network's own RPC URL is its
//! Esplora base (the built-in networks': mempool.space's API).

use crate::chain::family::Node;
use crate::chain::format::balance_en_us;
use crate::service::entities::Network;
use crate::service::json::{parse, Value};

pub(super) struct Esplora;

/// The network's Esplora base, without a trailing slash.
fn base(network: &Network, rpc_url: String) -> String {
    network.default_rpc_url().map(str::to_string).unwrap_or(rpc_url).trim_end_matches('/').to_string()
}

/// Funded minus spent satoshis of one of an address's stats.
fn held(stats: &Value) -> Option<i128> {
    let n = |k: &str| stats.get(k).and_then(Value::as_u64).map(i128::from);
    Some(n("funded_txo_sum")? - n("spent_txo_sum")?)
}

impl Node for Esplora {
    /// (Asked with a GET: see [`Node::balance_request`].)
    fn balance_body(&self, _id: u64, _address: &str) -> String {
        String::new()
    }

    fn balance_request(&self, network: &Network, rpc_url: String, _id: u64, address: &str) -> (String, Option<String>) {
        (format!("{}/address/{}", base(network, rpc_url), crate::service::url::segment(address)), None)
    }

    /// Confirmed and mempool satoshis, floored to 3 decimals and grouped; `None` when the answer
    /// is not an address's stats (or a negative sum).
    fn parse_balance(&self, body: &str, decimals: u32) -> Option<String> {
        balance_en_us(&self.balance_units(body)?, decimals)
    }

    /// Confirmed and mempool satoshis.
    fn balance_units(&self, body: &str) -> Option<String> {
        let v = parse(body).ok()?;
        let sats = held(v.get("chain_stats")?)? + v.get("mempool_stats").and_then(held).unwrap_or(0);
        (sats >= 0).then(|| sats.to_string())
    }

    fn receipt_body(&self, _id: u64, _txid: &str) -> String {
        String::new()
    }

    /// `{"confirmed": true, …}`.
    fn is_mined(&self, status: u16, body: &str) -> bool {
        (200..300).contains(&status) && parse(body).ok().and_then(|v| v.get("confirmed").and_then(Value::as_bool)) == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network(rpc: &str) -> Network {
        serde_json::from_value(serde_json::json!({"id": "x", "caipNetworkId": "bip122:530827f38f93b43ed12af0b3ad25a288", "name": "Bitcoin Regtest", "chainNamespace": "bip122", "nativeCurrency": {"name": "Bitcoin", "symbol": "BTC", "decimals": 8}, "rpcUrls": {"default": {"http": [rpc]}}})).unwrap()
    }

    #[test]
    fn the_balance_is_read_from_the_networks_esplora_with_a_get() {
        let (url, body) = Esplora.balance_request(&network("http://127.0.0.1:9/bitcoin/api/"), "https://proxy.invalid".into(), 1, "bcrt1qdlanrh4nqzh4vhmv6ywmvfnmkrhdclutn34t0y");
        assert_eq!(url, "http://127.0.0.1:9/bitcoin/api/address/bcrt1qdlanrh4nqzh4vhmv6ywmvfnmkrhdclutn34t0y");
        assert_eq!(body, None);
    }

    #[test]
    fn confirmed_and_mempool_satoshis_make_the_balance() {
        let body = r#"{"chain_stats":{"funded_txo_sum":505000000000,"spent_txo_sum":1000000},"mempool_stats":{"funded_txo_sum":250000,"spent_txo_sum":0}}"#;
        assert_eq!(Esplora.parse_balance(body, 8).as_deref(), Some("5,049.992"));
        assert_eq!(Esplora.balance_units(body).as_deref(), Some("504999250000"), "exactly, for the Send form");
        assert_eq!(Esplora.parse_balance(r#"{"chain_stats":{"funded_txo_sum":1,"spent_txo_sum":2}}"#, 8), None, "spent more than funded");
        assert_eq!(Esplora.parse_balance("<html>", 8), None);
        assert_eq!(Esplora.parse_balance(r#"{"chain_stats":{}}"#, 8), None);
        assert!(Esplora.is_mined(200, r#"{"confirmed":true,"block_height":5}"#));
        assert!(!Esplora.is_mined(200, r#"{"confirmed":false}"#));
    }
}
