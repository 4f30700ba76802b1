//! An Esplora-shaped REST subset (what AppKit reads from mempool.space) over the local Bitcoin
//! regtest chain (`--bitcoin http://user:password@127.0.0.1:port`: a `litecoind -regtest` node,
//! Bitcoin Core 0.21's consensus, whose addresses it is driven through as raw output scripts).
//! Served at `/bitcoin/api`: `/address/{a}` (what it holds: the node's UTXO set scanned for its
//! script, so `chain_stats.funded_txo_sum` is what is unspent and `spent_txo_sum` 0),
//! `/address/{a}/utxo`, `/blocks/tip/height`, `/fee-estimates` (regtest has no fee market: the
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

pub struct Esplora {
    url: String,
    authorization: String,
    limits: RpcLimits,
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, message.into()).into_response()
}

impl Esplora {
    /// `http://user:password@127.0.0.1:port` (the node's RPC, on loopback).
    pub fn new(url: &str) -> Result<Esplora, String> {
        let rest = url.strip_prefix("http://").ok_or("--bitcoin: expected http://user:password@127.0.0.1:port")?;
        let (auth, host) = rest.split_once('@').ok_or("--bitcoin: expected the RPC user and password in the URL")?;
        use base64::Engine;
        let authorization = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(auth));
        let limits = RpcLimits { max_response: 8 * 1024 * 1024, ..RpcLimits::default() };
        Ok(Esplora { url: format!("http://{host}/"), authorization, limits })
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
        let sats = |btc: &Value| btc.as_f64().map(|b| (b * 1e8).round() as u64).unwrap_or(0);
        let unspents = r["unspents"].as_array().cloned().unwrap_or_default();
        let list = unspents
            .iter()
            .take(MAX_UTXOS)
            .map(|u| json!({"txid": u["txid"], "vout": u["vout"], "value": sats(&u["amount"]), "status": {"confirmed": true, "block_height": u["height"]}}))
            .collect();
        Ok((sats(&r["total_amount"]), list))
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
            Json(json!({"1": rate, "3": rate, "6": rate, "144": rate})).into_response()
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
        .route("/bitcoin/api/blocks/tip/height", get(tip_height))
        .route("/bitcoin/api/fee-estimates", get(fee_estimates))
        .route("/bitcoin/api/tx", post(broadcast))
        .route("/bitcoin/api/tx/{id}/status", get(tx_status))
        .with_state(esplora)
}
