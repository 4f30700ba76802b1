//! An Esplora-shaped REST subset (what AppKit reads from mempool.space) over the local Bitcoin
//! regtest chain (`--bitcoin http://user:password@127.0.0.1:port`: a `litecoind -regtest` node,
//! Bitcoin Core 0.21's consensus, whose addresses it is driven through as raw output scripts).
//! Served at `/bitcoin/api`: `/address/{a}` (what it holds: the node's UTXO set scanned for its
//! script, so `chain_stats.funded_txo_sum` is what is unspent and `spent_txo_sum` 0),
//! `/address/{a}/utxo`, `/address/{a}/txs` (the mempool's, then the confirmed ones in the last
//! 1,000 blocks, newest first: the node has no address index), `/blocks/tip/height`, `/fee-estimates` (regtest has no fee market: the
//! node's minimum relay fee for every target), `POST /tx` (the raw transaction's hex) and
//! `/tx/{id}/status`. Every answer of the node is bounded; an address is read with the core's
//! rules (`wm_core::chain::bip122::address`) and must be a regtest one.

use super::rpc::{http_request, RpcLimits};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::sync::Arc;
use wm_core::chain::bip122::address::{parse, Net};

/// At most this many outputs are listed for an address (its total counts them all).
pub const MAX_UTXOS: usize = 500;
/// An address's transactions (`/address/{a}/txs`): at most this many from the mempool and this
/// many confirmed (Esplora's page sizes), found in at most this many blocks back from the tip and
/// this many mempool transactions (the node has no address index).
pub const MAX_MEMPOOL_TXS: usize = 50;
pub const MAX_CONFIRMED_TXS: usize = 25;
pub const MAX_BLOCKS_SEARCHED: u64 = 1_000;
pub const MAX_MEMPOOL_SEARCHED: usize = 1_000;

pub struct Esplora {
    url: String,
    authorization: String,
    limits: RpcLimits,
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, message.into()).into_response()
}

impl Esplora {
    /// `http://user:password@127.0.0.1:port` (the node's RPC on loopback), or `https://…` to a
    /// node anywhere: its password never crosses a network in the clear.
    pub fn new(url: &str) -> Result<Esplora, String> {
        let (scheme, rest) = match (url.strip_prefix("http://"), url.strip_prefix("https://")) {
            (Some(r), _) => ("http", r),
            (_, Some(r)) => ("https", r),
            _ => return Err("--bitcoin: expected http://user:password@127.0.0.1:port (or https://user:password@host:port)".into()),
        };
        let (auth, host) = rest.rsplit_once('@').ok_or("--bitcoin: expected the RPC user and password in the URL")?;
        let node = format!("{scheme}://{host}/");
        if scheme == "http" {
            crate::chain::rpc::parse_loopback_url(&node).map_err(|_| "--bitcoin: an http:// node must be on loopback (use https:// to reach one elsewhere)".to_string())?;
        } else {
            crate::chain::rpc::parse_upstream_url(&node).map_err(|e| format!("--bitcoin: {e}"))?;
        }
        use base64::Engine;
        let authorization = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(auth));
        let limits = RpcLimits { max_response: 8 * 1024 * 1024, ..RpcLimits::default() };
        Ok(Esplora { url: node, authorization, limits })
    }

    /// One JSON-RPC call to the node: its result, or why not.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        let body = json!({"jsonrpc": "1.0", "id": 1, "method": method, "params": params}).to_string();
        let headers = [("Authorization", self.authorization.as_str())];
        let (_, bytes) = http_request("POST", &self.url, &headers, Some(("application/json", body.as_bytes())), &self.limits).await?;
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{method}: not JSON ({e})"))?;
        match v.get("error") {
            Some(e) if !e.is_null() => Err(format!("{method}: {}", e.get("message").and_then(Value::as_str).unwrap_or("refused"))),
            _ => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// The output script of a regtest address, hex.
    fn script(address: &str) -> Result<String, Response> {
        let a = parse(address).map_err(|why| error(StatusCode::BAD_REQUEST, why))?;
        if !a.on(Net::Regtest) {
            return Err(error(StatusCode::BAD_REQUEST, "Not an address of this regtest chain"));
        }
        Ok(a.script().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The node's unspent outputs paying `address`: (total in satoshis, outputs listed).
    async fn scan(&self, address: &str) -> Result<(u64, Vec<Value>), Response> {
        let script = Self::script(address)?;
        let r = self.call("scantxoutset", json!(["start", [format!("raw({script})")]])).await.map_err(|e| error(StatusCode::SERVICE_UNAVAILABLE, e))?;
        let unspents = r["unspents"].as_array().cloned().unwrap_or_default();
        let list = unspents
            .iter()
            .take(MAX_UTXOS)
            .map(|u| json!({"txid": u["txid"], "vout": u["vout"], "value": sats(&u["amount"]), "status": {"confirmed": true, "block_height": u["height"]}}))
            .collect();
        Ok((sats(&r["total_amount"]), list))
    }
}

/// Satoshis of a node's BTC amount.
fn sats(btc: &Value) -> u64 {
    btc.as_f64().map(|b| (b * 1e8).round() as u64).unwrap_or(0)
}

/// An output as Esplora writes it (`scriptpubkey`, its regtest address when it has one, `value`).
fn output(o: &Value) -> Value {
    let hex = o["scriptPubKey"]["hex"].as_str().unwrap_or_default();
    let bytes: Vec<u8> = (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()).collect();
    let address = wm_core::chain::bip122::address::segwit_address(&bytes, Net::Regtest);
    json!({"scriptpubkey": hex, "scriptpubkey_address": address, "value": sats(&o["value"])})
}

impl Esplora {
    /// A transaction (the node's verbose form) as Esplora writes it, with each input's prevout
    /// (read from the node), its fee, and its block (`None`: in the mempool); `None` when it
    /// neither pays `script` nor spends an output paying it.
    async fn tx_touching(&self, tx: &Value, script: &str, block: Option<&Value>) -> Option<Value> {
        let outs: Vec<Value> = tx["vout"].as_array()?.iter().map(output).collect();
        let mut ins = Vec::new();
        let mut touches = outs.iter().any(|o| o["scriptpubkey"] == script);
        for i in tx["vin"].as_array()?.iter().take(MAX_UTXOS) {
            if i.get("coinbase").is_some() {
                ins.push(json!({"is_coinbase": true, "prevout": null, "sequence": i["sequence"]}));
                continue;
            }
            let prev = self.call("getrawtransaction", json!([i["txid"], true])).await.ok();
            let prevout = prev.as_ref().and_then(|p| p["vout"].get(i["vout"].as_u64()? as usize)).map(output);
            touches |= prevout.as_ref().is_some_and(|p| p["scriptpubkey"] == script);
            ins.push(json!({"txid": i["txid"], "vout": i["vout"], "prevout": prevout, "witness": i["txinwitness"], "is_coinbase": false, "sequence": i["sequence"]}));
        }
        if !touches {
            return None;
        }
        let paid: u64 = outs.iter().filter_map(|o| o["value"].as_u64()).sum();
        let spent: Option<u64> = ins.iter().map(|i| i["prevout"]["value"].as_u64()).sum();
        let fee = spent.filter(|_| !ins.iter().any(|i| i["is_coinbase"] == true)).map(|s| s.saturating_sub(paid)).unwrap_or(0);
        let status = match block {
            Some(b) => json!({"confirmed": true, "block_height": b["height"], "block_hash": b["hash"], "block_time": b["time"]}),
            None => json!({"confirmed": false}),
        };
        Some(json!({"txid": tx["txid"], "version": tx["version"], "locktime": tx["locktime"], "vin": ins, "vout": outs,
            "size": tx["size"], "weight": tx["weight"], "fee": fee, "status": status}))
    }

    /// An address's transactions, the mempool's first, then the confirmed ones newest first.
    async fn txs(&self, address: &str) -> Result<Vec<Value>, Response> {
        let script = Self::script(address)?;
        let unavailable = |e: String| error(StatusCode::SERVICE_UNAVAILABLE, e);
        let mut found = Vec::new();
        let mempool = self.call("getrawmempool", json!([])).await.map_err(unavailable)?;
        for id in mempool.as_array().into_iter().flatten().take(MAX_MEMPOOL_SEARCHED) {
            let Ok(tx) = self.call("getrawtransaction", json!([id, true])).await else { continue };
            if let Some(t) = self.tx_touching(&tx, &script, None).await {
                found.push(t);
                if found.len() == MAX_MEMPOOL_TXS {
                    break;
                }
            }
        }
        let tip = self.call("getblockcount", json!([])).await.map_err(unavailable)?.as_u64().unwrap_or(0);
        let mut confirmed = 0;
        for height in (tip.saturating_sub(MAX_BLOCKS_SEARCHED - 1)..=tip).rev() {
            let hash = self.call("getblockhash", json!([height])).await.map_err(unavailable)?;
            let block = self.call("getblock", json!([hash, 2])).await.map_err(unavailable)?;
            for tx in block["tx"].as_array().into_iter().flatten() {
                if let Some(t) = self.tx_touching(tx, &script, Some(&block)).await {
                    found.push(t);
                    confirmed += 1;
                    if confirmed == MAX_CONFIRMED_TXS {
                        return Ok(found);
                    }
                }
            }
        }
        Ok(found)
    }
}

type Shared = Arc<Esplora>;

async fn address(State(e): State<Shared>, Path(a): Path<String>) -> Response {
    match e.scan(&a).await {
        Ok((total, list)) => Json(json!({
            "address": a,
            "chain_stats": {"funded_txo_count": list.len(), "funded_txo_sum": total, "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": list.len()},
            "mempool_stats": {"funded_txo_count": 0, "funded_txo_sum": 0, "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": 0},
        }))
        .into_response(),
        Err(r) => r,
    }
}

async fn utxo(State(e): State<Shared>, Path(a): Path<String>) -> Response {
    match e.scan(&a).await {
        Ok((_, list)) => Json(Value::Array(list)).into_response(),
        Err(r) => r,
    }
}

async fn txs(State(e): State<Shared>, Path(a): Path<String>) -> Response {
    match e.txs(&a).await {
        Ok(list) => Json(Value::Array(list)).into_response(),
        Err(r) => r,
    }
}

async fn tip_height(State(e): State<Shared>) -> Response {
    match e.call("getblockcount", json!([])).await {
        Ok(h) => h.to_string().into_response(),
        Err(why) => error(StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

async fn fee_estimates(State(e): State<Shared>) -> Response {
    match e.call("getmempoolinfo", json!([])).await {
        Ok(info) => {
            // BTC per kvB → sat per vB.
            let rate = info["mempoolminfee"].as_f64().unwrap_or(0.00001) * 1e8 / 1000.0;
            let rate = (rate.max(1.0) * 1000.0).round() / 1000.0;
            // Esplora's targets: 1 to 25 blocks, 144, 504 and 1008.
            let targets = (1..=25).chain([144, 504, 1008]).map(|t| (t.to_string(), json!(rate)));
            Json(Value::Object(targets.collect())).into_response()
        }
        Err(why) => error(StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

async fn broadcast(State(e): State<Shared>, body: String) -> Response {
    let hex = body.trim();
    if hex.len() > 400_000 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return error(StatusCode::BAD_REQUEST, "Expected a raw transaction as hex (at most 200 KB)");
    }
    match e.call("sendrawtransaction", json!([hex])).await {
        Ok(txid) => txid.as_str().unwrap_or_default().to_string().into_response(),
        Err(why) => error(StatusCode::BAD_REQUEST, why),
    }
}

async fn tx_status(State(e): State<Shared>, Path(id): Path<String>) -> Response {
    if id.len() != 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return error(StatusCode::BAD_REQUEST, "Expected a transaction id (64 hex digits)");
    }
    match e.call("getrawtransaction", json!([id, true])).await {
        Ok(tx) => {
            let confirmed = tx["confirmations"].as_u64().unwrap_or(0) > 0;
            let height = match tx["blockhash"].as_str() {
                Some(hash) if confirmed => e.call("getblockheader", json!([hash])).await.ok().and_then(|h| h["height"].as_u64()),
                _ => None,
            };
            Json(json!({"confirmed": confirmed, "block_height": height, "block_hash": if confirmed { tx["blockhash"].clone() } else { Value::Null }})).into_response()
        }
        Err(why) => error(StatusCode::NOT_FOUND, why),
    }
}

/// The routes, under `/bitcoin/api`.
pub fn router<S: Clone + Send + Sync + 'static>(esplora: Shared) -> Router<S> {
    Router::new()
        .route("/bitcoin/api/address/{address}", get(address))
        .route("/bitcoin/api/address/{address}/utxo", get(utxo))
        .route("/bitcoin/api/address/{address}/txs", get(txs))
        .route("/bitcoin/api/blocks/tip/height", get(tip_height))
        .route("/bitcoin/api/fee-estimates", get(fee_estimates))
        .route("/bitcoin/api/tx", post(broadcast))
        .route("/bitcoin/api/tx/{id}/status", get(tx_status))
        .with_state(esplora)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nodes_password_never_crosses_a_network_in_the_clear() {
        assert!(Esplora::new("http://user:pw@127.0.0.1:19443").is_ok());
        assert_eq!(Esplora::new("https://user:p@ss@btc.example.com:8332").unwrap().url, "https://btc.example.com:8332/");
        let e = Esplora::new("http://user:pw@10.0.0.5:8332").err().unwrap();
        assert!(e.contains("must be on loopback"), "{e}");
        assert!(Esplora::new("https://btc.example.com").err().unwrap().contains("user and password"));
        assert!(Esplora::new("ftp://u:p@127.0.0.1:1").is_err());
    }
}
