//! The blockchain API routes, in the shapes of the hosted service (Reown's blockchain API:
//! `src/handlers/{balance,history,fungible_price,identity}.rs` and `src/error.rs` of
//! `reown-com/blockchain-api`; AppKit's `Balance` and `Transaction` types read them):
//!
//! - `GET /v1/account/{address}/balance?currency=usd&chainId=eip155:31337&forceUpdate=…&projectId=…`
//!   → `{"balances":[{name, symbol, chainId, address?, value?, price, quantity:{decimals, numeric},
//!   iconUrl, isSpam?}]}`;
//! - `GET /v1/account/{address}/history?chainId=…&cursor=…&projectId=…` → `{"data":[{id, metadata:
//!   {operationType, hash, minedAt, sentFrom, sentTo, status, nonce, application, chain}, transfers:
//!   [{fungible_info, nft_info, direction, quantity:{numeric}, value, price}]}], "next": cursor|null}`;
//! - `POST /v1/fungible/price` `{currency, addresses, projectId}` → `{"fungibles":[{address, name,
//!   symbol, iconUrl, price, decimals}]}`;
//! - `GET /v1/identity/{address}?projectId=…` → `{"name", "avatar"}`.
//!
//! Errors are the hosted ones: `{"status":"FAILED","reasons":[{"field":…,"description":…}]}`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::abi::{self, Addr, NATIVE_ADDR, ZERO_ADDR};
use super::index::{ChainState, EventKind, NftMeta, TokenKind, TxRecord};
use super::manifest::{self, Manifest};
use super::u256::{format_units, U256};
use super::{Chain, ChainApi};
use crate::AppState;

type Shared = Arc<AppState>;
type Params = Query<HashMap<String, String>>;

/// Longest path address accepted (an address is 42 characters; this leaves room for a clear error).
pub const MAX_ADDRESS_PARAM: usize = 128;
/// Longest query value read (`chainId`, `currency`, `onramp`).
pub const MAX_QUERY_VALUE: usize = 128;
pub const MAX_CURSOR: usize = 512;
/// `forceUpdate`: at most this many CAIP-10 addresses, this many characters in all.
pub const MAX_FORCE_UPDATE: usize = 20;
pub const MAX_FORCE_UPDATE_CHARS: usize = 2048;
/// `POST /v1/fungible/price`: body bytes and addresses.
pub const MAX_PRICE_BODY: usize = 64 * 1024;
pub const MAX_PRICE_ADDRESSES: usize = 100;

/// The native currency of every configured (anvil) chain.
pub const NATIVE_NAME: &str = "Ether";
pub const NATIVE_SYMBOL: &str = "ETH";
pub const NATIVE_DECIMALS: u8 = 18;
pub const NATIVE_IMAGE: &str = "eth";

/// Names the identity route knows: anvil's first two dev accounts. Any other address has none.
pub const DEMO_NAMES: &[(&str, &str, &str)] = &[
    (
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "alice.demo.eth",
        "avatar-alice",
    ),
    (
        "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "bob.demo.eth",
        "avatar-bob",
    ),
];

/// An error answer, in the hosted service's shape:
/// `{"status":"FAILED","reasons":[{"field":…,"description":…}]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub field: String,
    pub description: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({
                "status": "FAILED",
                "reasons": [{ "field": self.field, "description": self.description }],
            })),
        )
            .into_response()
    }
}

pub fn api_error(status: StatusCode, field: &str, description: impl Into<String>) -> ApiError {
    ApiError {
        status,
        field: field.to_string(),
        description: description.into(),
    }
}

/// Reads a request body of at most `max` bytes within the server's body time-out: 413 when it is
/// larger (refused at once when its Content-Length says so), 408 and the connection closed when it
/// does not come in time ([`crate::http::read_body`]). Every POST route of the blockchain, convert
/// and on-ramp APIs reads it so.
pub(crate) async fn read_body(
    st: &AppState,
    req: Request,
    max: usize,
) -> Result<axum::body::Bytes, Response> {
    use crate::http::BodyError;
    match crate::http::read_body(req, max, st.config.http.body_read_timeout).await {
        Ok(b) => Ok(b),
        Err(BodyError::TooLarge) => Err(api_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body",
            format!("body exceeds {max} bytes"),
        )
        .into_response()),
        Err(BodyError::TimedOut) => {
            let mut res = api_error(
                StatusCode::REQUEST_TIMEOUT,
                "body",
                "body not received in time",
            )
            .into_response();
            res.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            Err(res)
        }
    }
}

fn invalid_address() -> ApiError {
    api_error(
        StatusCode::BAD_REQUEST,
        "address",
        "The address provided is invalid",
    )
}

pub(super) fn project_check(
    st: &AppState,
    q: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    st.config.projects.check(q, headers)
        .map(|_| ())
        .map_err(|(status, msg)| api_error(status, "projectId", msg))
}

/// A query value, bounded.
pub(super) fn param<'a>(
    q: &'a HashMap<String, String>,
    key: &str,
    max: usize,
) -> Result<Option<&'a str>, ApiError> {
    match q.get(key).map(String::as_str) {
        Some(v) if v.len() > max => Err(api_error(
            StatusCode::BAD_REQUEST,
            key,
            format!("Invalid parameter: {key} is longer than {max} characters"),
        )),
        Some("") | None => Ok(None),
        Some(v) => Ok(Some(v)),
    }
}

pub(super) fn path_address(raw: &str) -> Result<Addr, ApiError> {
    if raw.len() > MAX_ADDRESS_PARAM {
        return Err(invalid_address());
    }
    abi::parse_addr(raw).ok_or_else(invalid_address)
}

/// Which configured chains a `chainId` parameter selects.
pub(super) enum ChainFilter<'a> {
    Chains(Vec<&'a Arc<Chain>>),
    /// A well-formed CAIP-2 id this backend does not serve (another eip155 chain, or another
    /// namespace).
    Unsupported(String),
}

fn is_namespace(s: &str) -> bool {
    (3..=8).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn is_reference(s: &str) -> bool {
    (1..=32).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `eip155:31337`, or a bare `31337` (the hosted service takes both).
pub(super) fn chain_filter<'a>(
    api: &'a ChainApi,
    raw: Option<&str>,
) -> Result<ChainFilter<'a>, ApiError> {
    let Some(raw) = raw else {
        return Ok(ChainFilter::Chains(api.chains.iter().collect()));
    };
    let bad = || {
        api_error(
            StatusCode::BAD_REQUEST,
            "chainId",
            format!(
                "Invalid parameter: chainId must be a CAIP-2 id such as eip155:31337, got {raw:?}"
            ),
        )
    };
    let (ns, reference) = match raw.split_once(':') {
        Some((ns, r)) => (ns, r),
        None => ("eip155", raw),
    };
    if !is_namespace(ns) || !is_reference(reference) {
        return Err(bad());
    }
    if ns != "eip155" {
        return Ok(ChainFilter::Unsupported(format!("{ns}:{reference}")));
    }
    let id: u64 = reference.parse().map_err(|_| bad())?;
    Ok(match api.chain(id) {
        Some(c) => ChainFilter::Chains(vec![c]),
        None => ChainFilter::Unsupported(format!("eip155:{id}")),
    })
}

/// The chains a list route's `chainId` selects (all without one); `Ok(None)` for another
/// namespace, which holds nothing here; a 400 for an eip155 chain this backend does not serve.
pub(super) fn listed_chains<'a>(
    api: &'a ChainApi,
    q: &HashMap<String, String>,
) -> Result<Option<Vec<&'a Arc<Chain>>>, ApiError> {
    match chain_filter(api, param(q, "chainId", MAX_QUERY_VALUE)?)? {
        ChainFilter::Chains(c) => Ok(Some(c)),
        ChainFilter::Unsupported(id) if !id.starts_with("eip155:") => Ok(None),
        ChainFilter::Unsupported(id) => Err(api_error(
            StatusCode::BAD_REQUEST,
            "chainId",
            format!(
                "Invalid parameter: {id} is not served by this backend (it serves {})",
                supported_list(api)
            ),
        )),
    }
}

pub(super) fn supported_list(api: &ChainApi) -> String {
    api.chains
        .iter()
        .map(|c| c.caip2())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `{origin}/public/getTokenImage/{id}` of a token: the demo's own image, else one generated for it.
fn token_icon(origin: &str, m: &Manifest, chain_id: u64, token: &Addr) -> String {
    match m.token(chain_id, token).and_then(|t| t.image.clone()) {
        Some(img) => format!("{origin}/public/getTokenImage/{img}"),
        None => format!(
            "{origin}/public/getTokenImage/{chain_id}-{}",
            abi::addr_hex(token)
        ),
    }
}

fn native_icon(origin: &str) -> String {
    format!("{origin}/public/getTokenImage/{NATIVE_IMAGE}")
}

fn value_of(numeric: &str, price: Option<f64>) -> Option<f64> {
    price.and_then(|p| numeric.parse::<f64>().ok().map(|n| n * p))
}

fn check_currency(q: &HashMap<String, String>, required: bool) -> Result<(), ApiError> {
    match param(q, "currency", MAX_QUERY_VALUE)? {
        None if required => Err(api_error(
            StatusCode::BAD_REQUEST,
            "currency",
            "Invalid parameter: currency is required (usd)",
        )),
        None => Ok(()),
        Some(c) if c.eq_ignore_ascii_case("usd") => Ok(()),
        Some(c) => Err(api_error(
            StatusCode::BAD_REQUEST,
            "currency",
            format!(
                "Specified currency is not supported: {c} (the demo backend prices in usd only)"
            ),
        )),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Balance

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Quantity {
    pub decimals: String,
    pub numeric: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BalanceItem {
    pub name: String,
    pub symbol: String,
    pub chain_id: String,
    /// CAIP-10 of the token contract; absent for the native currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// `quantity × price`; absent without a price (as the hosted API does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// 0 without a price (as the hosted API does).
    pub price: f64,
    pub quantity: Quantity,
    pub icon_url: String,
    /// Only on tokens of the spam list (the hosted API leaves them out; the demo flags them so the
    /// product's own filtering can be seen at work).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_spam: bool,
}

fn native_item(chain: &Chain, m: &Manifest, wei: U256, origin: &str) -> BalanceItem {
    let numeric = format_units(wei, NATIVE_DECIMALS, true);
    // From the demo market's pools (WETH), else the price table.
    let price = m.native_price(chain.chain_id);
    BalanceItem {
        name: NATIVE_NAME.into(),
        symbol: NATIVE_SYMBOL.into(),
        chain_id: chain.caip2(),
        address: None,
        value: value_of(&numeric, price),
        price: price.unwrap_or(0.0),
        quantity: Quantity {
            decimals: NATIVE_DECIMALS.to_string(),
            numeric,
        },
        icon_url: native_icon(origin),
        is_spam: false,
    }
}

/// The ERC-20 item of `token` for `amount`, when the token has readable metadata.
fn token_item(
    chain: &Chain,
    st: &ChainState,
    m: &Manifest,
    token: &Addr,
    amount: U256,
    origin: &str,
) -> Option<BalanceItem> {
    let t = st.tokens.get(token)?;
    if t.kind != TokenKind::Erc20 {
        return None;
    }
    let decimals = t.decimals?;
    let symbol = t.symbol.clone()?;
    let numeric = format_units(amount, decimals, true);
    let price = m.token_price(chain.chain_id, token, Some(&symbol));
    Some(BalanceItem {
        name: t.name.clone().unwrap_or_else(|| symbol.clone()),
        symbol,
        chain_id: chain.caip2(),
        address: Some(format!("{}:{}", chain.caip2(), abi::addr_hex(token))),
        value: value_of(&numeric, price),
        price: price.unwrap_or(0.0),
        quantity: Quantity {
            decimals: decimals.to_string(),
            numeric,
        },
        icon_url: token_icon(origin, m, chain.chain_id, token),
        is_spam: m.is_spam(chain.chain_id, token),
    })
}

/// `eip155:31337:0x…` entries of `forceUpdate`.
fn parse_force_update(raw: Option<&str>) -> Result<Vec<(u64, Addr)>, ApiError> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    if raw.len() > MAX_FORCE_UPDATE_CHARS {
        return Err(api_error(
            StatusCode::BAD_REQUEST,
            "forceUpdate",
            format!(
                "Invalid parameter: forceUpdate is longer than {MAX_FORCE_UPDATE_CHARS} characters"
            ),
        ));
    }
    let parts: Vec<&str> = raw
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() > MAX_FORCE_UPDATE {
        return Err(api_error(
            StatusCode::BAD_REQUEST,
            "forceUpdate",
            format!("Invalid parameter: forceUpdate lists more than {MAX_FORCE_UPDATE} addresses"),
        ));
    }
    parts
        .into_iter()
        .map(|p| parse_caip10(p).ok_or_else(invalid_address))
        .collect()
}

/// `eip155:{chain}:0x{40 hex}`.
fn parse_caip10(s: &str) -> Option<(u64, Addr)> {
    let mut it = s.splitn(3, ':');
    let (ns, chain, addr) = (it.next()?, it.next()?, it.next()?);
    if ns != "eip155"
        || chain.is_empty()
        || chain.len() > 20
        || !chain.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((chain.parse().ok()?, abi::parse_addr(addr)?))
}

fn unavailable(chain: &Chain, e: impl std::fmt::Display) -> ApiError {
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "chainId",
        format!(
            "Balance temporarily unavailable: {} is unreachable ({e})",
            chain.caip2()
        ),
    )
}

async fn eth_balance(chain: &Chain, who: &Addr, block: &str) -> Result<U256, ApiError> {
    let rpc = chain.client().map_err(|e| unavailable(chain, e))?;
    let hex: String = rpc
        .call("eth_getBalance", json!([abi::addr_hex(who), block]))
        .await
        .map_err(|e| unavailable(chain, e))?;
    U256::from_hex(&hex).ok_or_else(|| unavailable(chain, format!("bad balance {hex:?}")))
}

async fn erc20_balance(chain: &Chain, token: &Addr, who: &Addr) -> Result<U256, ApiError> {
    let rpc = chain.client().map_err(|e| unavailable(chain, e))?;
    let hex: String = rpc
        .call(
            "eth_call",
            json!([{ "to": abi::addr_hex(token), "data": abi::balance_of_data(who) }, "latest"]),
        )
        .await
        .map_err(|e| unavailable(chain, e))?;
    abi::parse_hex(&hex)
        .and_then(|b| abi::decode_u256(&b))
        .ok_or_else(|| unavailable(chain, format!("balanceOf answered {hex:?}")))
}

async fn solana_balance(st: &Shared, headers: &HeaderMap, address: &str, chain_id: &str) -> Response {
    let Some(api) = st.solana.as_ref() else { return Json(json!({ "balances": [] })).into_response() };
    match api.caip2().await {
        Ok(ours) if ours == chain_id => {}
        Ok(_) => return Json(json!({ "balances": [] })).into_response(),
        Err(e) => return e.into_response(),
    }
    if !super::solana::is_address(address) {
        return api_error(StatusCode::BAD_REQUEST, "address", "Invalid address: not a Solana address (32 to 44 base58 characters)").into_response();
    }
    let origin = crate::own_origin(st, headers);
    match api.balances(address, &origin).await {
        Ok(balances) => Json(json!({ "balances": balances })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Balances, within [`super::ChainApiConfig::request_budget`] (the chains are asked for native
/// balances and `forceUpdate` reads; a chain that stops answering must not hold the request).
pub async fn balance(
    st: State<Shared>,
    headers: HeaderMap,
    address: Path<String>,
    q: Params,
) -> Response {
    let budget = st.0.chain_api.config.request_budget;
    match tokio::time::timeout(budget, balance_within(st, headers, address, q)).await {
        Ok(r) => r,
        Err(_) => api_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "chainId",
            format!("Balance temporarily unavailable: the chains did not answer within {budget:?}"),
        )
        .into_response(),
    }
}

async fn balance_within(
    State(st): State<Shared>,
    headers: HeaderMap,
    Path(address): Path<String>,
    Query(q): Params,
) -> Response {
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    // A Solana network: answered from the Solana node when it is the one configured.
    if let Some(chain_id) = q.get("chainId").filter(|c| c.starts_with("solana:")) {
        return solana_balance(&st, &headers, &address, chain_id).await;
    }
    let who = match path_address(&address) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = check_currency(&q, true) {
        return e.into_response();
    }
    let api = &st.chain_api;
    let chains = match param(&q, "chainId", MAX_QUERY_VALUE).and_then(|raw| chain_filter(api, raw))
    {
        Ok(ChainFilter::Chains(c)) => c,
        // Not served here: nothing to list (the hosted provider answers an empty list too).
        Ok(ChainFilter::Unsupported(_)) => return Json(json!({ "balances": [] })).into_response(),
        Err(e) => return e.into_response(),
    };
    let force = match param(&q, "forceUpdate", MAX_FORCE_UPDATE_CHARS).and_then(parse_force_update)
    {
        Ok(f) => f,
        Err(e) => return e.into_response(),
    };
    let origin = crate::own_origin(&st, &headers);
    let m = api.manifest();
    let mut out: Vec<BalanceItem> = Vec::new();
    for chain in chains {
        // Prices from the demo market's pools, at the block the index has reached.
        let at = chain.state.read().unwrap().indexed;
        if let Some(at) = at {
            crate::convert::prices::refresh(chain, &m, &format!("{at:#x}")).await;
        }
        // Tokens from the index, and the block they are true at.
        let (indexed, mut tokens): (Option<u64>, Vec<BalanceItem>) = {
            let s = chain.state.read().unwrap();
            let items = s
                .accounts
                .get(&who)
                .map(|a| {
                    a.balances
                        .iter()
                        .filter(|(_, v)| !v.is_zero())
                        .filter_map(|(t, v)| token_item(chain, &s, &m, t, *v, &origin))
                        .collect()
                })
                .unwrap_or_default();
            (s.indexed, items)
        };
        let Some(indexed) = indexed else {
            let why = chain
                .status
                .lock()
                .unwrap()
                .error
                .clone()
                .unwrap_or_else(|| "not indexed yet".into());
            return unavailable(chain, why).into_response();
        };
        // The native balance at the same block as the tokens.
        let wei = match eth_balance(chain, &who, &format!("{indexed:#x}")).await {
            Ok(w) => w,
            Err(e) => return e.into_response(),
        };
        let mut native = native_item(chain, &m, wei, &origin);
        // forceUpdate: read these from the chain's latest state.
        for (_, token) in force.iter().filter(|(cid, _)| *cid == chain.chain_id) {
            if *token == NATIVE_ADDR {
                match eth_balance(chain, &who, "latest").await {
                    Ok(w) => native = native_item(chain, &m, w, &origin),
                    Err(e) => return e.into_response(),
                }
                continue;
            }
            let amount = match erc20_balance(chain, token, &who).await {
                Ok(a) => a,
                Err(e) => return e.into_response(),
            };
            let caip10 = format!("{}:{}", chain.caip2(), abi::addr_hex(token));
            let fresh = {
                let s = chain.state.read().unwrap();
                token_item(chain, &s, &m, token, amount, &origin)
            };
            tokens.retain(|t| t.address.as_deref() != Some(caip10.as_str()));
            if let Some(item) = fresh.filter(|_| !amount.is_zero()) {
                tokens.push(item);
            }
        }
        tokens.sort_by(|a, b| {
            b.value
                .unwrap_or(0.0)
                .total_cmp(&a.value.unwrap_or(0.0))
                .then_with(|| a.symbol.cmp(&b.symbol))
                .then_with(|| a.address.cmp(&b.address))
        });
        out.push(native);
        out.extend(tokens);
    }
    Json(json!({ "balances": out })).into_response()
}

// ---------------------------------------------------------------------------------------------------------
// History

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UrlItem {
    pub url: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UrlAndType {
    pub url: String,
    pub content_type: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Flags {
    pub is_spam: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FungibleInfo {
    pub name: Option<String>,
    pub symbol: Option<String>,
    pub icon: Option<UrlItem>,
    /// Not in the hosted shape (it leaves spam out): `is_spam` for tokens of the spam list.
    pub flags: Flags,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NftContent {
    pub preview: Option<UrlAndType>,
    pub detail: Option<UrlAndType>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NftInfo {
    pub name: Option<String>,
    pub content: Option<NftContent>,
    pub flags: Flags,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TransferQuantity {
    pub numeric: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Transfer {
    pub fungible_info: Option<FungibleInfo>,
    pub nft_info: Option<NftInfo>,
    /// `in`, `out` or `self`.
    pub direction: &'static str,
    pub quantity: TransferQuantity,
    pub value: Option<f64>,
    pub price: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    pub operation_type: &'static str,
    pub hash: String,
    pub mined_at: String,
    pub sent_from: String,
    pub sent_to: String,
    /// `confirmed` or `failed` (an on-ramp purchase: `ONRAMP_TRANSACTION_STATUS_SUCCESS` or `…_FAILED`).
    pub status: &'static str,
    pub nonce: u64,
    pub application: Option<Value>,
    pub chain: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HistoryTx {
    pub id: String,
    pub metadata: Metadata,
    pub transfers: Vec<Transfer>,
}

fn direction(from: &Addr, to: &Addr, who: &Addr) -> &'static str {
    match (from == who, to == who) {
        (true, true) => "self",
        (true, false) => "out",
        _ => "in",
    }
}

pub(super) fn nft_info(
    chain: &Chain,
    st: &ChainState,
    m: &Manifest,
    token: &Addr,
    id: U256,
) -> NftInfo {
    let collection = st.tokens.get(token).and_then(|t| t.name.clone());
    let (name, image) = match st.nfts.get(&(*token, id)).map(|i| &i.meta) {
        Some(NftMeta::Resolved { name, image }) => (name.clone(), image.clone()),
        _ => (None, None),
    };
    let name = name.or_else(|| collection.map(|c| format!("{c} #{id}")));
    NftInfo {
        name,
        content: image.map(|url| NftContent {
            preview: Some(UrlAndType {
                url: url.clone(),
                content_type: None,
            }),
            detail: Some(UrlAndType {
                url,
                content_type: None,
            }),
        }),
        flags: Flags {
            is_spam: m.is_spam(chain.chain_id, token),
        },
    }
}

/// One history row of `tx` as `who` sees it.
fn history_item(
    chain: &Chain,
    st: &ChainState,
    m: &Manifest,
    tx: &TxRecord,
    who: &Addr,
    origin: &str,
) -> HistoryTx {
    let mut transfers = Vec::new();
    let native_price = m.native_price(chain.chain_id);
    let to_or_created = tx.to.or(tx.created).unwrap_or(ZERO_ADDR);
    // Ether moved, as a transfer row.
    let ether = |wei: U256, direction: &'static str| {
        let numeric = format_units(wei, NATIVE_DECIMALS, false);
        Transfer {
            fungible_info: Some(FungibleInfo {
                name: Some(NATIVE_NAME.into()),
                symbol: Some(NATIVE_SYMBOL.into()),
                icon: Some(UrlItem {
                    url: native_icon(origin),
                }),
                flags: Flags { is_spam: false },
            }),
            nft_info: None,
            direction,
            value: value_of(&numeric, native_price),
            price: native_price,
            quantity: TransferQuantity { numeric },
        }
    };
    if tx.ok && !tx.value.is_zero() && (tx.from == *who || tx.to == Some(*who)) {
        transfers.push(ether(tx.value, direction(&tx.from, &to_or_created, who)));
    }
    let (mut minted, mut burned, mut approved) = (false, false, false);
    for ev in &tx.events {
        match ev.kind {
            EventKind::Transfer { from, to, amount } if from == *who || to == *who => {
                minted |= from == ZERO_ADDR && tx.from == *who;
                burned |= to == ZERO_ADDR && from == *who;
                let dir = direction(&from, &to, who);
                let Some(t) = st.tokens.get(&ev.token) else {
                    continue;
                };
                match t.kind {
                    TokenKind::Erc20 => {
                        let numeric = format_units(amount, t.decimals.unwrap_or(0), false);
                        let price = m.token_price(chain.chain_id, &ev.token, t.symbol.as_deref());
                        transfers.push(Transfer {
                            fungible_info: Some(FungibleInfo {
                                name: t.name.clone(),
                                symbol: t.symbol.clone(),
                                icon: Some(UrlItem {
                                    url: token_icon(origin, m, chain.chain_id, &ev.token),
                                }),
                                flags: Flags {
                                    is_spam: m.is_spam(chain.chain_id, &ev.token),
                                },
                            }),
                            nft_info: None,
                            direction: dir,
                            value: value_of(&numeric, price),
                            price,
                            quantity: TransferQuantity { numeric },
                        });
                    }
                    TokenKind::Erc721 => transfers.push(Transfer {
                        fungible_info: None,
                        nft_info: Some(nft_info(chain, st, m, &ev.token, amount)),
                        direction: dir,
                        value: None,
                        price: None,
                        quantity: TransferQuantity {
                            numeric: "1".into(),
                        },
                    }),
                }
            }
            EventKind::Approval { owner, .. } if owner == *who => approved = true,
            // A token-for-ether swap: the router the account called unwrapped WETH and paid the
            // ether on (an internal transfer, in no log): the account received it.
            EventKind::Unwrap { src, amount }
                if tx.ok && tx.from == *who && tx.to == Some(src) && !amount.is_zero() =>
            {
                transfers.push(ether(amount, "in"));
            }
            _ => {}
        }
    }
    let has = |d: &str| transfers.iter().any(|t| t.direction == d);
    let operation_type = if tx.to.is_none() && tx.from == *who {
        "deploy"
    } else if minted {
        "mint"
    } else if burned {
        "burn"
    } else if transfers.is_empty() {
        if approved {
            "approve"
        } else if !tx.ok && !tx.value.is_zero() {
            if tx.from == *who {
                "send"
            } else {
                "receive"
            }
        } else {
            "execute"
        }
    } else if has("in") && has("out") {
        "trade"
    } else if has("in") {
        "receive"
    } else {
        "send"
    };
    HistoryTx {
        id: format!("{}:{}", chain.caip2(), abi::hex_lower(&tx.hash)),
        metadata: Metadata {
            operation_type,
            hash: abi::hex_lower(&tx.hash),
            mined_at: abi::iso8601(tx.timestamp),
            sent_from: abi::addr_hex(&tx.from),
            sent_to: abi::addr_hex(&to_or_created),
            status: if tx.ok { "confirmed" } else { "failed" },
            nonce: tx.nonce,
            application: None,
            chain: chain.caip2(),
        },
        transfers,
    }
}

/// Where a chain's next page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorPos {
    /// The newest transaction.
    Top,
    /// Transactions strictly before (block, index).
    Before(u64, u32),
    /// Nothing left.
    Done,
}

/// An opaque cursor: base64url of `v1;{chainId}:{block}.{index}|-;…`, one position per chain of
/// the request.
pub fn encode_cursor(pos: &[(u64, CursorPos)]) -> String {
    let mut s = String::from("v1");
    for (chain, p) in pos {
        match p {
            CursorPos::Top => s.push_str(&format!(";{chain}:top")),
            CursorPos::Before(b, i) => s.push_str(&format!(";{chain}:{b}.{i}")),
            CursorPos::Done => s.push_str(&format!(";{chain}:-")),
        }
    }
    URL_SAFE_NO_PAD.encode(s)
}

pub fn decode_cursor(c: &str, chains: &[u64]) -> Option<Vec<(u64, CursorPos)>> {
    if c.len() > MAX_CURSOR {
        return None;
    }
    let text = String::from_utf8(URL_SAFE_NO_PAD.decode(c).ok()?).ok()?;
    let mut parts = text.split(';');
    if parts.next()? != "v1" {
        return None;
    }
    let mut out = Vec::new();
    for p in parts {
        let (chain, pos) = p.split_once(':')?;
        let chain: u64 = chain.parse().ok()?;
        let pos = match pos {
            "top" => CursorPos::Top,
            "-" => CursorPos::Done,
            bi => {
                let (b, i) = bi.split_once('.')?;
                CursorPos::Before(b.parse().ok()?, i.parse().ok()?)
            }
        };
        out.push((chain, pos));
    }
    let ids: Vec<u64> = out.iter().map(|(c, _)| *c).collect();
    (ids == chains).then_some(out)
}

pub async fn history(
    State(st): State<Shared>,
    headers: HeaderMap,
    Path(address): Path<String>,
    Query(q): Params,
) -> Response {
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    let who = match path_address(&address) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = check_currency(&q, false) {
        return e.into_response();
    }
    match param(&q, "onramp", MAX_QUERY_VALUE) {
        Err(e) => return e.into_response(),
        // A provider's purchases: its payouts to this address, read from the chains.
        Ok(Some(id)) if crate::onramp::catalog::provider(id).is_some() => {
            let Some(p) = crate::onramp::catalog::provider(id) else { unreachable!() };
            return match listed_chains(&st.chain_api, &q) {
                Ok(Some(chains)) => {
                    let origin = crate::own_origin(&st, &headers);
                    Json(json!({ "data": onramp_history(&st.chain_api, &chains, p, &who, &origin), "next": null })).into_response()
                }
                Ok(None) => Json(json!({ "data": [], "next": null })).into_response(),
                Err(e) => e.into_response(),
            };
        }
        Ok(Some(other)) => {
            return api_error(
                StatusCode::BAD_REQUEST,
                "onramp",
                format!("Unsupported provider: {other}"),
            )
            .into_response();
        }
        Ok(None) => {}
    }
    let api = &st.chain_api;
    let chains = match listed_chains(api, &q) {
        Ok(Some(c)) => c,
        // Another namespace: no transactions here.
        Ok(None) => return Json(json!({ "data": [], "next": null })).into_response(),
        Err(e) => return e.into_response(),
    };
    let ids: Vec<u64> = chains.iter().map(|c| c.chain_id).collect();
    let positions = match param(&q, "cursor", MAX_CURSOR) {
        Err(e) => return e.into_response(),
        Ok(None) => ids.iter().map(|c| (*c, CursorPos::Top)).collect(),
        Ok(Some(c)) => match decode_cursor(c, &ids) {
            Some(p) => p,
            None => {
                return api_error(
                    StatusCode::BAD_REQUEST,
                    "cursor",
                    "Invalid parameter: cursor is not one this endpoint returned for these chains",
                )
                .into_response();
            }
        },
    };
    let page = api.config.page_size.max(1);
    let origin = crate::own_origin(&st, &headers);
    let m = api.manifest();
    // Up to page + 1 candidates per chain, newest first, merged by time.
    struct Cand {
        ts: u64,
        chain: usize,
        pos: (u64, u32),
        item: HistoryTx,
    }
    let mut cands: Vec<Cand> = Vec::new();
    let mut counts = vec![0usize; chains.len()];
    for (ci, chain) in chains.iter().enumerate() {
        let before = match positions[ci].1 {
            CursorPos::Done => continue,
            CursorPos::Top => None,
            CursorPos::Before(b, i) => Some((b, i)),
        };
        let s = chain.state.read().unwrap();
        for tx in s.history_before(&who, before).take(page + 1) {
            counts[ci] += 1;
            cands.push(Cand {
                ts: tx.timestamp,
                chain: ci,
                pos: tx.pos(),
                item: history_item(chain, &s, &m, tx, &who, &origin),
            });
        }
    }
    cands.sort_by(|a, b| {
        b.ts.cmp(&a.ts)
            .then(a.chain.cmp(&b.chain))
            .then(b.pos.cmp(&a.pos))
    });
    let more = cands.len() > page;
    cands.truncate(page);
    let mut taken = vec![0usize; chains.len()];
    let mut last: Vec<Option<(u64, u32)>> = vec![None; chains.len()];
    for c in &cands {
        taken[c.chain] += 1;
        last[c.chain] = Some(c.pos);
    }
    let next = more.then(|| {
        let pos: Vec<(u64, CursorPos)> = positions
            .iter()
            .enumerate()
            .map(|(ci, (id, p))| {
                let p = if *p == CursorPos::Done || (counts[ci] <= page && taken[ci] == counts[ci])
                {
                    CursorPos::Done
                } else if let Some((b, i)) = last[ci] {
                    CursorPos::Before(b, i)
                } else {
                    *p
                };
                (*id, p)
            })
            .collect();
        encode_cursor(&pos)
    });
    let data: Vec<HistoryTx> = cands.into_iter().map(|c| c.item).collect();
    Json(json!({ "data": data, "next": next })).into_response()
}

/// Transactions of an address looked through for a provider's payouts, per chain.
const ONRAMP_SCAN: usize = 500;
/// Purchases answered at most.
const ONRAMP_MAX: usize = 50;

/// `history?onramp={provider}`: the provider's payouts to `who` (transactions sent from its payout
/// account on each chain: the manifest's, else its default dev account), newest first, each a
/// `buy` whose status is the on-ramp's (`ONRAMP_TRANSACTION_STATUS_SUCCESS` when mined with
/// status 1, `…_FAILED` otherwise). Orders not paid out yet are on no chain: not listed.
fn onramp_history(
    api: &ChainApi,
    chains: &[&Arc<Chain>],
    p: &crate::onramp::catalog::Provider,
    who: &Addr,
    origin: &str,
) -> Vec<HistoryTx> {
    let m = api.manifest();
    let mut out: Vec<(u64, HistoryTx)> = Vec::new();
    for chain in chains {
        let payer = m
            .onramp_providers(chain.chain_id)
            .iter()
            .find(|x| x.id == p.id)
            .map(|x| x.address)
            .or_else(|| abi::parse_addr(p.default_payout));
        let Some(payer) = payer else { continue };
        let s = chain.state.read().unwrap();
        for tx in s.history_before(who, None).take(ONRAMP_SCAN) {
            if tx.from != payer {
                continue;
            }
            let mut item = history_item(chain, &s, &m, tx, who, origin);
            item.metadata.operation_type = "buy";
            item.metadata.status = if tx.ok {
                "ONRAMP_TRANSACTION_STATUS_SUCCESS"
            } else {
                "ONRAMP_TRANSACTION_STATUS_FAILED"
            };
            out.push((tx.timestamp, item));
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0));
    out.into_iter().take(ONRAMP_MAX).map(|(_, i)| i).collect()
}

// ---------------------------------------------------------------------------------------------------------
// Fungible price

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PriceBody {
    project_id: Option<String>,
    currency: Option<String>,
    addresses: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FungiblePrice {
    pub address: String,
    pub name: String,
    pub symbol: String,
    pub icon_url: String,
    pub price: f64,
    pub decimals: u8,
}

pub async fn fungible_price(
    State(st): State<Shared>,
    Query(mut q): Params,
    req: Request,
) -> Response {
    let headers = req.headers().clone();
    let bytes = match read_body(&st, req, MAX_PRICE_BODY).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let body: PriceBody = match serde_json::from_slice(&bytes) {
        Ok(b) => b,
        Err(e) => {
            return api_error(
                StatusCode::BAD_REQUEST,
                "body",
                format!(
                    "Invalid parameter: body must be JSON {{currency, addresses, projectId}} ({e})"
                ),
            )
            .into_response();
        }
    };
    if let Some(p) = body.project_id.filter(|p| !p.is_empty()) {
        q.entry("projectId".into()).or_insert(p);
    }
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    let mut cq = HashMap::new();
    if let Some(c) = body.currency {
        cq.insert("currency".to_string(), c);
    }
    if let Err(e) = check_currency(&cq, true) {
        return e.into_response();
    }
    let addresses = body.addresses.unwrap_or_default();
    if addresses.is_empty() || addresses.len() > MAX_PRICE_ADDRESSES {
        return api_error(
            StatusCode::BAD_REQUEST,
            "addresses",
            format!("Invalid parameter: addresses must list 1 to {MAX_PRICE_ADDRESSES} CAIP-10 addresses"),
        ).into_response();
    }
    let mut parsed = Vec::with_capacity(addresses.len());
    for a in &addresses {
        match (a.len() <= MAX_ADDRESS_PARAM)
            .then(|| parse_caip10(a))
            .flatten()
        {
            Some(p) => parsed.push(p),
            None => return invalid_address().into_response(),
        }
    }
    let origin = crate::own_origin(&st, &headers);
    let api = &st.chain_api;
    let m = api.manifest();
    let mut out = Vec::new();
    let mut refreshed: Vec<u64> = Vec::new();
    for (chain_id, token) in parsed {
        let Some(chain) = api.chain(chain_id) else {
            continue;
        };
        let address = format!("{}:{}", chain.caip2(), abi::addr_hex(&token));
        // Prices from the demo market's pools (latest block), else the price table.
        if !refreshed.contains(&chain_id) {
            refreshed.push(chain_id);
            crate::convert::prices::refresh(chain, &m, "latest").await;
        }
        if token == NATIVE_ADDR {
            if let Some(price) = m.native_price(chain_id) {
                out.push(FungiblePrice {
                    address,
                    name: NATIVE_NAME.into(),
                    symbol: NATIVE_SYMBOL.into(),
                    icon_url: native_icon(&origin),
                    price,
                    decimals: NATIVE_DECIMALS,
                });
            }
            continue;
        }
        let s = chain.state.read().unwrap();
        let Some(t) = s.tokens.get(&token).filter(|t| t.kind == TokenKind::Erc20) else {
            continue;
        };
        let Some(price) = m.token_price(chain_id, &token, t.symbol.as_deref()) else {
            continue;
        };
        out.push(FungiblePrice {
            address,
            name: t.name.clone().unwrap_or_default(),
            symbol: t.symbol.clone().unwrap_or_default(),
            icon_url: token_icon(&origin, &m, chain_id, &token),
            price,
            decimals: t.decimals.unwrap_or(0),
        });
    }
    Json(json!({ "fungibles": out })).into_response()
}

// ---------------------------------------------------------------------------------------------------------
// Identity

/// `GET /v1/supported-chains?projectId=…` → `{"http": [CAIP-2…], "ws": []}`: the chains whose
/// balances, history and NFTs this API reads — the EVM chains and the Solana VM's (the modal skips
/// those calls for any other).
pub async fn supported_chains(State(st): State<Shared>, headers: HeaderMap, Query(q): Params) -> Response {
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    let mut http: Vec<String> = st.chain_api.chains.iter().map(|c| c.caip2()).collect();
    // The Solana VM's chain, when the backend reads one (its balances come from here too).
    if let Some(solana) = st.solana.as_ref() {
        if let Ok(id) = solana.caip2().await {
            http.push(id.to_string());
        }
    }
    Json(json!({ "http": http, "ws": [] })).into_response()
}

pub async fn identity(
    State(st): State<Shared>,
    headers: HeaderMap,
    Path(address): Path<String>,
    Query(q): Params,
) -> Response {
    if let Err(e) = project_check(&st, &q, &headers) {
        return e.into_response();
    }
    if address.len() > MAX_ADDRESS_PARAM {
        return invalid_address().into_response();
    }
    // A Solana address: no names there (as the hosted service answers).
    if wm_core::chain::address::is_solana_address(&address) {
        return Json(json!({ "name": null, "avatar": null })).into_response();
    }
    let who = match abi::parse_addr(&address) {
        Some(a) => a,
        None => return invalid_address().into_response(),
    };
    let origin = crate::own_origin(&st, &headers);
    let hex = abi::addr_hex(&who);
    let (name, avatar) = match DEMO_NAMES.iter().find(|(a, _, _)| *a == hex) {
        Some((_, name, img)) => (
            json!(name),
            json!(format!("{origin}/public/getAssetImage/{img}")),
        ),
        None => (Value::Null, Value::Null),
    };
    Json(json!({ "name": name, "avatar": avatar })).into_response()
}

// ---------------------------------------------------------------------------------------------------------
// Images, NFT metadata, status

fn svg(body: Vec<u8>) -> Response {
    let mut res = (StatusCode::OK, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    res
}

async fn repo_image(st: &AppState, name: &str) -> Option<Vec<u8>> {
    if !manifest::valid_image_id(name) {
        return None;
    }
    let path = st
        .options
        .root
        .join("demo/contracts/images")
        .join(format!("{name}.svg"));
    tokio::fs::read(path).await.ok()
}

/// `/public/getTokenImage/{id}`: the demo's token images (`demo/contracts/images/{id}.svg`), a
/// generated image labelled with the token's symbol for `{chainId}-{address}` of an indexed token,
/// else what `/public/getAssetImage` answers.
pub async fn token_image(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    if let Some(bytes) = repo_image(&st, &id).await {
        return svg(bytes);
    }
    if let Some((chain, addr)) = id.split_once('-') {
        let token = chain
            .parse::<u64>()
            .ok()
            .and_then(|c| st.chain_api.chain(c))
            .zip(abi::parse_addr(addr));
        if let Some((chain, token)) = token {
            let symbol = chain
                .state
                .read()
                .unwrap()
                .tokens
                .get(&token)
                .and_then(|t| t.symbol.clone());
            if let Some(symbol) = symbol {
                return svg(crate::images::svg(&id, &symbol).into_bytes());
            }
        }
    }
    crate::public_image(Path(id)).await
}

/// A token id of the demo collection: 1 to 78 decimal digits.
fn nft_id(raw: &str) -> Option<&str> {
    ((1..=78).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit())).then_some(raw)
}

/// `GET /demo-nft/{id}`: the demo collection's ERC-721 metadata (`tokenURI` points here).
pub async fn nft_metadata(
    State(st): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let Some(id) = nft_id(&id) else {
        return crate::error(StatusCode::NOT_FOUND, "unknown token id");
    };
    let id = id.trim_start_matches('0');
    let id = if id.is_empty() { "0" } else { id };
    let origin = crate::own_origin(&st, &headers);
    Json(json!({
        "name": format!("Wallet Modal Pass #{id}"),
        "description": "A pass of the wallet-modal demo collection, minted on a local anvil chain.",
        "image": format!("{origin}/demo-nft/{id}/image.svg"),
        "attributes": [{ "trait_type": "Series", "value": nft_image_of(id) }],
    }))
    .into_response()
}

/// `nft-1`, `nft-2`, `nft-3` in turn by id (the id's digit sum mod 3 is the id mod 3).
fn nft_image_of(id: &str) -> &'static str {
    match id.bytes().map(|b| (b - b'0') as u32).sum::<u32>() % 3 {
        1 => "nft-1",
        2 => "nft-2",
        _ => "nft-3",
    }
}

/// `GET /demo-nft/{id}/image.svg`.
pub async fn nft_image(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    let Some(id) = nft_id(&id) else {
        return crate::error(StatusCode::NOT_FOUND, "unknown token id");
    };
    match repo_image(&st, nft_image_of(id)).await {
        Some(b) => svg(b),
        None => crate::error(
            StatusCode::NOT_FOUND,
            "image missing from demo/contracts/images",
        ),
    }
}

/// `GET /indexer/status`: per chain, the indexed block, the head, counts and the last error.
pub async fn status(State(st): State<Shared>) -> Response {
    let chains: Vec<Value> = st
        .chain_api
        .chains
        .iter()
        .map(|c| {
            let s = c.state.read().unwrap();
            let status = c.status.lock().unwrap().clone();
            json!({
                "chainId": c.caip2(),
                "rpcUrl": super::rpc::shown_url(&c.rpc_url),
                "indexedBlock": s.indexed,
                "indexedHash": s.last_hash.map(|h| abi::hex_lower(&h)),
                "headBlock": status.head,
                "transactions": s.txs.len(),
                "accounts": s.accounts.len(),
                "tokens": s.tokens.len(),
                "nfts": s.nfts.len(),
                "pendingMetadata": s.nfts.values().filter(|n| n.meta == NftMeta::Pending).count(),
                "resets": status.resets,
                "error": status.error,
            })
        })
        .collect();
    let mut res = Json(json!({
        "chains": chains,
        "manifestTokens": st.chain_api.manifest().len(),
    }))
    .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_other_chains() {
        let pos = vec![(31337, CursorPos::Before(12, 3)), (31338, CursorPos::Done)];
        let c = encode_cursor(&pos);
        assert_eq!(decode_cursor(&c, &[31337, 31338]), Some(pos));
        assert_eq!(decode_cursor(&c, &[31337]), None);
        assert_eq!(decode_cursor("not base64!", &[31337]), None);
        assert_eq!(
            decode_cursor(&URL_SAFE_NO_PAD.encode("v2;31337:top"), &[31337]),
            None
        );
        assert_eq!(
            decode_cursor(&URL_SAFE_NO_PAD.encode("v1;31337:1.x"), &[31337]),
            None
        );
        assert_eq!(decode_cursor(&"A".repeat(600), &[31337]), None);
    }

    #[test]
    fn caip10_addresses() {
        assert_eq!(
            parse_caip10("eip155:31337:0x5fbdb2315678afecb367f032d93f642f64180aa3").map(|(c, _)| c),
            Some(31337)
        );
        assert!(parse_caip10("solana:1:0x5fbdb2315678afecb367f032d93f642f64180aa3").is_none());
        assert!(parse_caip10("eip155::0x5fbdb2315678afecb367f032d93f642f64180aa3").is_none());
        assert!(parse_caip10("eip155:1:0x5fbdb").is_none());
        assert!(parse_caip10("eip155:1").is_none());
    }

    #[test]
    fn nft_images_take_turns() {
        assert_eq!(
            ["1", "2", "3", "4", "12"].map(nft_image_of),
            ["nft-1", "nft-2", "nft-3", "nft-1", "nft-3"]
        );
        assert!(
            nft_id("0012").is_some() && nft_id("1a").is_none() && nft_id(&"9".repeat(79)).is_none()
        );
    }
}
