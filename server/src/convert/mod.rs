//! The convert (swap) API of the blockchain API, answered from a real Uniswap V2 market on the anvil
//! chains (`demo/contracts/uniswap.mjs` deploys it; the manifest's `uniswap` names it), in the shapes
//! of the hosted service (`src/handlers/convert/*.rs` of `reown-com/blockchain-api`, which AppKit's
//! `BlockchainApiController` and `SwapController` read):
//!
//! - `GET /v1/convert/tokens?chainId=eip155:31337[&address=…]` → `{"tokens":[{name, symbol, address
//!   (CAIP-10), decimals, logoUri, eip2612}]}`: the native currency and every token with a pair;
//! - `GET /v1/convert/quotes?amount=…&from=CAIP-10&to=CAIP-10[&userAddress=…][&gasPrice=…]` →
//!   `{"quotes":[{id, fromAmount, fromAccount, toAmount, toAccount}]}`: `toAmount` is the router's
//!   `getAmountsOut` along the best route (direct, or through WETH or USDC), read by `eth_call`;
//! - `GET /v1/convert/allowance?tokenAddress=CAIP-10&userAddress=…` → `{"allowance"}` (for the router);
//! - `GET /v1/convert/gas-price?chainId=…` → `{"standard","fast","instant"}` (wei, from `eth_gasPrice`);
//! - `GET /v1/convert/build-approve?from=CAIP-10&to=CAIP-10&userAddress=…[&amount=…]` → `{"tx":{from,
//!   to, data, value, eip155:{gasPrice}}}`: `approve(router, amount)` on the `from` token;
//! - `POST /v1/convert/build-transaction` `{amount, from, to, userAddress, eip155:{slippage},
//!   disableEstimate?, projectId}` → `{"tx":{from, to, data, amount, value, eip155:{gas, gasPrice}}}`:
//!   `swapExactETHForTokens` / `swapExactTokensForETH` / `swapExactTokensForTokens` for `userAddress`.
//!
//! Amounts are decimal integers in base units. Errors are the blockchain API's
//! `{"status":"FAILED","reasons":[{field, description}]}`: 400 `Invalid conversion parameter: …` (also
//! for a chain without a market: `Chain ID eip155:1 is not supported`), 503 when the chain does not
//! answer within the request budget.

pub mod calldata;
pub mod market;
pub mod prices;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::chain::abi::{self, Addr, NATIVE_ADDR};
use crate::chain::api::{api_error, ApiError};
use crate::chain::rpc::RpcError;
use crate::chain::u256::U256;
use crate::AppState;

use market::{invalid, parse_caip10, parse_caip2, parse_user, shorten, unavailable, Market};

type Shared = Arc<AppState>;
type Params = Query<HashMap<String, String>>;

/// Longest query value read (addresses, chain ids, amounts).
pub const MAX_PARAM: usize = 128;
/// `POST /v1/convert/build-transaction` body bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// Most slippage accepted (percent), as the hosted aggregator.
pub const MAX_SLIPPAGE: f64 = 50.0;
pub const DEFAULT_SLIPPAGE: f64 = 1.0;
/// A built swap is valid this long after the chain's latest block (or now, if later).
pub const DEADLINE_SECS: u64 = 20 * 60;
/// The gas limit of a swap built with `disableEstimate`: this much, plus [`GAS_PER_HOP`] per pair.
pub const GAS_BASE: u64 = 150_000;
pub const GAS_PER_HOP: u64 = 100_000;

const NATIVE_NAME: &str = "Ether";
const NATIVE_SYMBOL: &str = "ETH";

// ---------------------------------------------------------------------------------------------------------
// Parameters

fn project(st: &AppState, q: &HashMap<String, String>, headers: &HeaderMap) -> Result<(), ApiError> {
    st.config.projects.check(q, headers)
        .map(|_| ())
        .map_err(|(status, msg)| api_error(status, "projectId", msg))
}

fn param<'a>(q: &'a HashMap<String, String>, key: &str) -> Result<Option<&'a str>, ApiError> {
    match q.get(key).map(String::as_str) {
        Some(v) if v.len() > MAX_PARAM => Err(invalid(
            key,
            format!("{key} is longer than {MAX_PARAM} characters"),
        )),
        Some("") | None => Ok(None),
        Some(v) => Ok(Some(v)),
    }
}

fn required<'a>(q: &'a HashMap<String, String>, key: &str) -> Result<&'a str, ApiError> {
    param(q, key)?.ok_or_else(|| invalid(key, format!("{key} is required")))
}

fn amount(field: &str, raw: &str) -> Result<U256, ApiError> {
    calldata::parse_dec_u256(raw).ok_or_else(|| {
        invalid(
            field,
            format!(
                "{field} must be a decimal integer in the token's base units (1000000 for 1 USDC, \
                 1000000000000000000 for 1 ETH), at most 2^256 - 1, got {:?}",
                shorten(raw)
            ),
        )
    })
}

/// `from` and `to` tokens of one chain.
fn pair_of(from_raw: &str, to_raw: &str) -> Result<(String, Addr, Addr), ApiError> {
    let (c1, from) = parse_caip10("from", from_raw)?;
    let (c2, to) = parse_caip10("to", to_raw)?;
    if c1 != c2 {
        return Err(invalid(
            "to",
            format!("`from` and `to` chain IDs must have the same value ({c1} is not {c2})"),
        ));
    }
    Ok((c1, from, to))
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Runs `f` within the request budget (a chain that stops answering gets a 503, not a hung request).
async fn within<F>(st: &AppState, f: F) -> Response
where
    F: std::future::Future<Output = Result<Value, ApiError>>,
{
    let budget = st.chain_api.config.request_budget;
    match tokio::time::timeout(budget, f).await {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => e.into_response(),
        Err(_) => api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "chainId",
            format!("Failed to reach the conversion provider: the chain did not answer within {budget:?}"),
        )
        .into_response(),
    }
}

fn token_icon(origin: &str, mk: &Market, token: &Addr) -> String {
    if *token == NATIVE_ADDR {
        return format!("{origin}/public/getTokenImage/eth");
    }
    match mk
        .manifest
        .token(mk.chain.chain_id, token)
        .and_then(|t| t.image.clone())
    {
        Some(img) => format!("{origin}/public/getTokenImage/{img}"),
        None => format!(
            "{origin}/public/getTokenImage/{}-{}",
            mk.chain.chain_id,
            abi::addr_hex(token)
        ),
    }
}

// ---------------------------------------------------------------------------------------------------------
// GET /v1/convert/tokens

pub async fn tokens(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    within(&st, tokens_inner(&st, &headers, &q)).await
}

async fn tokens_inner(
    st: &AppState,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    project(st, q, headers)?;
    let chain = parse_caip2("chainId", required(q, "chainId")?)?;
    let mk = market::market(&st.chain_api, "chainId", &chain)?;
    let filter = match param(q, "address")? {
        None => None,
        Some(a) => Some(parse_user("address", a, &chain)?),
    };
    let origin = crate::own_origin(st, headers);
    let mut list = vec![json!({
        "name": NATIVE_NAME,
        "symbol": NATIVE_SYMBOL,
        "address": mk.caip10(&NATIVE_ADDR),
        "decimals": 18,
        "logoUri": token_icon(&origin, &mk, &NATIVE_ADDR),
        "eip2612": false,
    })];
    let pooled: Vec<Addr> = mk
        .pooled_tokens()
        .await?
        .into_iter()
        .filter(|t| !mk.manifest.is_spam(mk.chain.chain_id, t))
        .collect();
    // EIP-2612 tokens answer DOMAIN_SEPARATOR().
    let permit_calls: Vec<(Addr, String)> = pooled
        .iter()
        .map(|t| (*t, calldata::Call::new("DOMAIN_SEPARATOR()").hex()))
        .collect();
    let permits = mk.calls(&permit_calls, "latest").await?;
    let mut erc20s = Vec::new();
    for (t, permit) in pooled.iter().zip(permits) {
        let Some((name, symbol, decimals)) = mk.token_meta(t).await else {
            continue;
        };
        erc20s.push(json!({
            "name": name,
            "symbol": symbol,
            "address": mk.caip10(t),
            "decimals": decimals,
            "logoUri": token_icon(&origin, &mk, t),
            "eip2612": permit.is_ok_and(|b| b.len() == 32),
        }));
    }
    erc20s.sort_by(|a, b| {
        a["symbol"]
            .as_str()
            .cmp(&b["symbol"].as_str())
            .then_with(|| a["address"].as_str().cmp(&b["address"].as_str()))
    });
    list.extend(erc20s);
    if let Some(f) = filter {
        let want = mk.caip10(&f);
        list.retain(|t| t["address"] == json!(want));
    }
    Ok(json!({ "tokens": list }))
}

// ---------------------------------------------------------------------------------------------------------
// GET /v1/convert/quotes

pub async fn quotes(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    within(&st, quotes_inner(&st, &headers, &q)).await
}

async fn quotes_inner(
    st: &AppState,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    project(st, q, headers)?;
    let amount_raw = required(q, "amount")?;
    let amount_in = amount("amount", amount_raw)?;
    let (from_raw, to_raw) = (required(q, "from")?, required(q, "to")?);
    let (chain, from, to) = pair_of(from_raw, to_raw)?;
    let mk = market::market(&st.chain_api, "from", &chain)?;
    if let Some(u) = param(q, "userAddress")? {
        parse_user("userAddress", u, &chain)?;
    }
    if let Some(g) = param(q, "gasPrice")? {
        amount("gasPrice", g)?;
    }
    let route = mk.best_route(&from, &to, amount_in).await?;
    Ok(json!({
        "quotes": [{
            "id": null,
            "fromAmount": amount_in.to_dec_string(),
            "fromAccount": from_raw,
            "toAmount": route.amount_out().to_dec_string(),
            "toAccount": to_raw,
        }]
    }))
}

// ---------------------------------------------------------------------------------------------------------
// GET /v1/convert/allowance

pub async fn allowance(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    within(&st, allowance_inner(&st, &headers, &q)).await
}

/// `allowance(owner, router)` of an ERC-20, or a 400 when `token` is not one.
async fn read_allowance(
    mk: &Market,
    field: &str,
    token: &Addr,
    owner: &Addr,
) -> Result<U256, ApiError> {
    let not_erc20 = |why: String| {
        invalid(
            field,
            format!("{} is not an ERC-20 token ({why})", mk.caip10(token)),
        )
    };
    match mk
        .call(token, calldata::allowance(owner, &mk.uniswap.router))
        .await?
    {
        Ok(ret) => {
            abi::decode_u256(&ret).ok_or_else(|| not_erc20("allowance() returned nothing".into()))
        }
        Err(e) => Err(not_erc20(format!("allowance() reverted: {e}"))),
    }
}

async fn allowance_inner(
    st: &AppState,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    project(st, q, headers)?;
    let (chain, token) = parse_caip10("tokenAddress", required(q, "tokenAddress")?)?;
    let user = parse_user("userAddress", required(q, "userAddress")?, &chain)?;
    let mk = market::market(&st.chain_api, "tokenAddress", &chain)?;
    // The native currency needs no approval: unlimited.
    let allowance = if token == NATIVE_ADDR {
        U256::MAX
    } else {
        read_allowance(&mk, "tokenAddress", &token, &user).await?
    };
    Ok(json!({ "allowance": allowance.to_dec_string() }))
}

// ---------------------------------------------------------------------------------------------------------
// GET /v1/convert/gas-price

pub async fn gas_price(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    within(&st, gas_price_inner(&st, &headers, &q)).await
}

async fn gas_price_inner(
    st: &AppState,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    project(st, q, headers)?;
    let chain = parse_caip2("chainId", required(q, "chainId")?)?;
    let mk = market::market(&st.chain_api, "chainId", &chain)?;
    let gp = mk.gas_price().await?;
    // The node's price, and 10 % / 25 % above it for the faster tiers.
    let tier = |pct: u64| {
        calldata::mul_small(gp, 100 + pct)
            .map(|v| calldata::div_small(v, 100))
            .unwrap_or(gp)
    };
    Ok(json!({
        "standard": gp.to_dec_string(),
        "fast": tier(10).to_dec_string(),
        "instant": tier(25).to_dec_string(),
    }))
}

// ---------------------------------------------------------------------------------------------------------
// GET /v1/convert/build-approve

pub async fn build_approve(
    State(st): State<Shared>,
    headers: HeaderMap,
    Query(q): Params,
) -> Response {
    within(&st, build_approve_inner(&st, &headers, &q)).await
}

async fn build_approve_inner(
    st: &AppState,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    project(st, q, headers)?;
    let from_raw = required(q, "from")?;
    let (chain, token) = match param(q, "to")? {
        Some(to_raw) => {
            let (c, from, _) = pair_of(from_raw, to_raw)?;
            (c, from)
        }
        None => parse_caip10("from", from_raw)?,
    };
    let user = match param(q, "userAddress")? {
        Some(u) => Some(parse_user("userAddress", u, &chain)?),
        None => None,
    };
    let value = match param(q, "amount")? {
        Some(a) => amount("amount", a)?,
        None => U256::MAX,
    };
    if token == NATIVE_ADDR {
        return Err(invalid(
            "from",
            "the native currency needs no approval: swap it directly",
        ));
    }
    let mk = market::market(&st.chain_api, "from", &chain)?;
    // Only an ERC-20 can be approved (this also checks there is a contract).
    read_allowance(&mk, "from", &token, &user.unwrap_or([0; 20])).await?;
    let gas_price = mk.gas_price().await?;
    let token_caip10 = mk.caip10(&token);
    Ok(json!({
        "tx": {
            // As hosted: `from` is the token to approve (AppKit sends the approval to it) and so is `to`.
            "from": token_caip10,
            "to": token_caip10,
            "data": calldata::approve(&mk.uniswap.router, value),
            "value": "0",
            "eip155": { "gasPrice": gas_price.to_dec_string() },
        }
    }))
}

// ---------------------------------------------------------------------------------------------------------
// POST /v1/convert/build-transaction

/// Gas a Uniswap V2 pair spends writing its two price accumulators the first time in a second.
const ACCUMULATORS_GAS: u64 = 45_000;

pub async fn build_transaction(
    State(st): State<Shared>,
    Query(q): Params,
    req: Request,
) -> Response {
    let headers = req.headers().clone();
    let bytes = match crate::chain::api::read_body(&st, req, MAX_BODY).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    within(&st, build_transaction_inner(&st, &headers, q, &bytes)).await
}

/// A body member that is a string (or, for amounts, a JSON integer).
fn body_str(body: &Value, key: &str, numbers: bool) -> Result<Option<String>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() > MAX_PARAM => Err(invalid(
            key,
            format!("{key} is longer than {MAX_PARAM} characters"),
        )),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) if numbers && n.is_u64() => Ok(Some(n.to_string())),
        Some(_) => Err(invalid(key, format!("{key} must be a string"))),
    }
}

fn body_required(body: &Value, key: &str, numbers: bool) -> Result<String, ApiError> {
    body_str(body, key, numbers)?.ok_or_else(|| invalid(key, format!("{key} is required")))
}

/// `eip155.slippage` in percent (a number or a numeric string, 0 to 50), as basis points.
fn slippage_bps(body: &Value) -> Result<u64, ApiError> {
    let bad = |v: &Value| {
        invalid(
            "eip155.slippage",
            format!(
                "eip155.slippage must be a percentage from 0 to {MAX_SLIPPAGE} (1 = 1 %), got {}",
                shorten(&v.to_string())
            ),
        )
    };
    let eip155 = match body.get("eip155") {
        None | Some(Value::Null) => return Ok((DEFAULT_SLIPPAGE * 100.0) as u64),
        Some(v @ Value::Object(_)) => v,
        Some(_) => {
            return Err(invalid(
                "eip155",
                "eip155 must be an object {slippage, permit?}",
            ))
        }
    };
    let s = match eip155.get("slippage") {
        None | Some(Value::Null) => DEFAULT_SLIPPAGE,
        Some(v @ Value::Number(n)) => n.as_f64().ok_or_else(|| bad(v))?,
        Some(v @ Value::String(s)) if s.len() <= 16 => {
            s.trim().parse::<f64>().map_err(|_| bad(v))?
        }
        Some(v) => return Err(bad(v)),
    };
    if !(s.is_finite() && (0.0..=MAX_SLIPPAGE).contains(&s)) {
        return Err(bad(&json!(s)));
    }
    Ok((s * 100.0).round() as u64)
}

async fn build_transaction_inner(
    st: &AppState,
    headers: &HeaderMap,
    mut q: HashMap<String, String>,
    bytes: &[u8],
) -> Result<Value, ApiError> {
    let body: Value = serde_json::from_slice(bytes).map_err(|e| {
        invalid(
            "body",
            format!("body must be JSON {{amount, from, to, userAddress, eip155: {{slippage}}, projectId}} ({e})"),
        )
    })?;
    if !body.is_object() {
        return Err(invalid("body", "body must be a JSON object"));
    }
    if let Some(p) = body_str(&body, "projectId", false)? {
        q.entry("projectId".into()).or_insert(p);
    }
    project(st, &q, headers)?;
    let amount_in = amount("amount", &body_required(&body, "amount", true)?)?;
    let (chain, from, to) = pair_of(
        &body_required(&body, "from", false)?,
        &body_required(&body, "to", false)?,
    )?;
    let mk = market::market(&st.chain_api, "from", &chain)?;
    let user = parse_user(
        "userAddress",
        &body_required(&body, "userAddress", false)?,
        &chain,
    )?;
    let bps = slippage_bps(&body)?;
    let disable_estimate = match body.get("disableEstimate") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(invalid(
                "disableEstimate",
                "disableEstimate must be true or false",
            ))
        }
    };
    let route = mk.best_route(&from, &to, amount_in).await?;
    let out = route.amount_out();
    let min_out = calldata::minus_bps(out, bps);
    let deadline = mk.latest_timestamp().await?.max(now_secs()) + DEADLINE_SECS;
    let (native_in, native_out) = (from == NATIVE_ADDR, to == NATIVE_ADDR);
    let data = calldata::swap(
        amount_in,
        min_out,
        &route.path,
        &user,
        deadline,
        native_in,
        native_out,
    );
    let value = if native_in { amount_in } else { U256::ZERO };
    let gas_price = mk.gas_price().await?;
    let hops = route.path.len() as u64 - 1;
    let gas = if disable_estimate {
        GAS_BASE + GAS_PER_HOP * hops
    } else {
        let tx = json!({
            "from": abi::addr_hex(&user),
            "to": abi::addr_hex(&mk.uniswap.router),
            "data": data,
            "value": value.to_hex_quantity(),
        });
        match mk.rpc::<String>("eth_estimateGas", json!([tx])).await {
            Ok(hex) => {
                let g = abi::parse_quantity(&hex).ok_or_else(|| {
                    unavailable(&mk.chain, format!("eth_estimateGas answered {hex:?}"))
                })?;
                // 10 % above the estimate, as the hosted service adds, and room for each pair's
                // price accumulators: a pair writes them (two fresh storage slots, ~44,000 gas)
                // only once time passed since its last update, so an estimate made in the same
                // second as that update leaves them out (a full test run on a busy machine saw
                // the swap run out of gas).
                g + g.div_ceil(10) + ACCUMULATORS_GAS * hops
            }
            Err(RpcError::Rpc { message, .. }) => {
                let hint = if native_in {
                    "does it hold the amount and the gas?"
                } else {
                    "does it hold the amount, and has it approved the router (GET /v1/convert/allowance, /v1/convert/build-approve)?"
                };
                return Err(invalid(
                    "userAddress",
                    format!(
                        "the swap would fail for {}: {message} ({hint})",
                        abi::addr_checksum(&user)
                    ),
                ));
            }
            Err(e) => return Err(unavailable(&mk.chain, e)),
        }
    };
    Ok(json!({
        "tx": {
            "from": mk.caip10(&user),
            "to": mk.caip10(&mk.uniswap.router),
            "data": data,
            // As hosted: the expected output (base units of `to`).
            "amount": out.to_dec_string(),
            // The native value to send with the transaction (base units; "0" unless `from` is ETH).
            "value": value.to_dec_string(),
            "eip155": {
                "gas": gas.to_string(),
                "gasPrice": gas_price.to_dec_string(),
            },
        }
    }))
}
