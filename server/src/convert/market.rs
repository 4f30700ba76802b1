//! The demo's Uniswap V2 market on one chain: which chain a request names, `eth_call`s to it, the best
//! route of a swap (read from the router's `getAmountsOut`, never computed here), and the tokens that
//! have pools (read from the factory).

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::chain::abi::{self, Addr, NATIVE_ADDR};
use crate::chain::api::{api_error, ApiError};
use crate::chain::manifest::{Manifest, Uniswap};
use crate::chain::rpc::RpcError;
use crate::chain::u256::U256;
use crate::chain::{Chain, ChainApi};

use super::calldata::{self, Call};

/// Most pairs of the factory listed by `/v1/convert/tokens`.
pub const MAX_LISTED_PAIRS: usize = 200;
/// Longest route tried: a direct pair or one hop through WETH or USDC.
pub const MAX_PATH: usize = 3;

/// What a swap route is made of on this chain.
#[derive(Debug, Clone)]
pub struct Market {
    pub chain: Arc<Chain>,
    pub manifest: Arc<Manifest>,
    pub uniswap: Uniswap,
    /// The demo's USDC (a hop of routes, besides WETH).
    pub usdc: Option<Addr>,
}

pub fn invalid(field: &str, msg: impl std::fmt::Display) -> ApiError {
    api_error(
        StatusCode::BAD_REQUEST,
        field,
        format!("Invalid conversion parameter: {msg}"),
    )
}

pub fn unavailable(chain: &Chain, e: impl std::fmt::Display) -> ApiError {
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "chainId",
        format!(
            "Failed to reach the conversion provider: {} is unreachable ({e})",
            chain.caip2()
        ),
    )
}

/// The chains this backend swaps on (`eip155:31337, eip155:31338`).
pub fn swap_chains(api: &ChainApi) -> String {
    let m = api.manifest();
    let list: Vec<String> = api
        .chains
        .iter()
        .filter(|c| m.uniswap(c.chain_id).is_some())
        .map(|c| c.caip2())
        .collect();
    if list.is_empty() {
        "none: no Uniswap market in the deploy manifest".into()
    } else {
        list.join(", ")
    }
}

/// The market of an eip155 chain id, or the hosted service's answer for a chain it cannot swap on.
pub fn market(api: &ChainApi, field: &str, caip2: &str) -> Result<Market, ApiError> {
    let unsupported = || {
        invalid(
            field,
            format!(
                "Chain ID {caip2} is not supported (this backend swaps on {})",
                swap_chains(api)
            ),
        )
    };
    let id: u64 = caip2
        .strip_prefix("eip155:")
        .and_then(|r| r.parse().ok())
        .ok_or_else(unsupported)?;
    let chain = api.chain(id).ok_or_else(unsupported)?;
    let manifest = api.manifest();
    let uniswap = manifest.uniswap(id).cloned().ok_or_else(unsupported)?;
    let usdc = manifest.usd_token(id).map(|t| t.address);
    Ok(Market {
        chain: chain.clone(),
        manifest,
        uniswap,
        usdc,
    })
}

/// A CAIP-2 chain id (`eip155:31337`; a bare `31337` is taken as eip155).
pub fn parse_caip2(field: &str, raw: &str) -> Result<String, ApiError> {
    let (ns, reference) = raw.split_once(':').unwrap_or(("eip155", raw));
    let ok_ns = (3..=8).contains(&ns.len())
        && ns
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let ok_ref = (1..=32).contains(&reference.len())
        && reference
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok_ns || !ok_ref {
        return Err(invalid(
            field,
            format!("{field} must be a CAIP-2 chain id such as eip155:31337, got {raw:?}"),
        ));
    }
    Ok(format!("{ns}:{reference}"))
}

/// A CAIP-10 account (`eip155:31337:0x…`): its CAIP-2 chain and address.
pub fn parse_caip10(field: &str, raw: &str) -> Result<(String, Addr), ApiError> {
    let bad = || {
        invalid(
            field,
            format!("{field} must be a CAIP-10 address such as eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3, got {:?}", shorten(raw)),
        )
    };
    if raw.len() > 128 {
        return Err(bad());
    }
    let (chain, addr) = raw.rsplit_once(':').ok_or_else(bad)?;
    if chain.split(':').count() != 2 {
        return Err(bad());
    }
    let chain = parse_caip2(field, chain).map_err(|_| bad())?;
    if !chain.starts_with("eip155:") {
        return Err(invalid(
            field,
            format!("Chain ID {chain} is not supported (this backend swaps on eip155 chains only)"),
        ));
    }
    let addr = abi::parse_addr(addr).ok_or_else(bad)?;
    Ok((chain, addr))
}

/// A user address: CAIP-10 (as AppKit sends it) or a bare `0x…` address (then on `chain`).
pub fn parse_user(field: &str, raw: &str, chain: &str) -> Result<Addr, ApiError> {
    if let Some(a) = abi::parse_addr(raw) {
        return Ok(a);
    }
    let (c, a) = parse_caip10(field, raw).map_err(|_| {
        invalid(
            field,
            format!("{field} must be an address (0x and 40 hex digits, or CAIP-10 eip155:31337:0x…), got {:?}", shorten(raw)),
        )
    })?;
    if c != chain {
        return Err(invalid(
            field,
            format!("`from`, `to` and `{field}` chain IDs must have the same value ({c} is not {chain})"),
        ));
    }
    Ok(a)
}

pub fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// How one `eth_call` ended: the returned bytes, or the revert's message.
pub type CallResult = Result<Vec<u8>, String>;

impl Market {
    pub fn caip2(&self) -> String {
        self.chain.caip2()
    }

    /// `eip155:{chain}:{address}` (lowercase hex).
    pub fn caip10(&self, a: &Addr) -> String {
        format!("{}:{}", self.caip2(), abi::addr_hex(a))
    }

    /// The ERC-20 a side of a swap trades: WETH for the native currency.
    pub fn erc20_of(&self, token: &Addr) -> Addr {
        if *token == NATIVE_ADDR {
            self.uniswap.weth
        } else {
            *token
        }
    }

    /// Several `eth_call`s in one JSON-RPC batch. `Err` when the chain does not answer.
    pub async fn calls(
        &self,
        calls: &[(Addr, String)],
        block: &str,
    ) -> Result<Vec<CallResult>, ApiError> {
        let rpc = self
            .chain
            .client()
            .map_err(|e| unavailable(&self.chain, e))?;
        let params: Vec<Value> = calls
            .iter()
            .map(|(to, data)| json!([{ "to": abi::addr_hex(to), "data": data }, block]))
            .collect();
        let answers = rpc
            .batch::<String>("eth_call", &params)
            .await
            .map_err(|e| unavailable(&self.chain, e))?;
        Ok(answers
            .into_iter()
            .map(|a| match a {
                Ok(hex) => abi::parse_hex(&hex).ok_or_else(|| format!("bad answer {hex:?}")),
                Err(RpcError::Rpc { message, .. }) => Err(message),
                Err(e) => Err(e.to_string()),
            })
            .collect())
    }

    pub async fn call(&self, to: &Addr, data: String) -> Result<CallResult, ApiError> {
        Ok(self
            .calls(&[(*to, data)], "latest")
            .await?
            .pop()
            .unwrap_or_else(|| Err("no answer".into())))
    }

    /// Any other JSON-RPC method of the chain.
    pub async fn rpc<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        params: Value,
    ) -> Result<T, RpcError> {
        let rpc = self
            .chain
            .client()
            .map_err(|e| RpcError::Transport(e.clone()))?;
        rpc.call(method, params).await
    }

    /// `eth_gasPrice` in wei.
    pub async fn gas_price(&self) -> Result<U256, ApiError> {
        let hex: String = self
            .rpc("eth_gasPrice", json!([]))
            .await
            .map_err(|e| unavailable(&self.chain, e))?;
        U256::from_hex(&hex)
            .ok_or_else(|| unavailable(&self.chain, format!("eth_gasPrice answered {hex:?}")))
    }

    /// The timestamp of the latest block.
    pub async fn latest_timestamp(&self) -> Result<u64, ApiError> {
        let block: Value = self
            .rpc("eth_getBlockByNumber", json!(["latest", false]))
            .await
            .map_err(|e| unavailable(&self.chain, e))?;
        block["timestamp"]
            .as_str()
            .and_then(abi::parse_quantity)
            .ok_or_else(|| unavailable(&self.chain, "latest block without a timestamp"))
    }

    /// The routes tried from `a` to `b` (ERC-20s): direct, then through WETH and through USDC.
    pub fn candidate_paths(&self, a: Addr, b: Addr) -> Vec<Vec<Addr>> {
        let mut out = vec![vec![a, b]];
        for mid in [Some(self.uniswap.weth), self.usdc].into_iter().flatten() {
            if mid != a && mid != b && !out.iter().any(|p| p.len() == 3 && p[1] == mid) {
                out.push(vec![a, mid, b]);
            }
        }
        out
    }

    /// The route giving the most of `to` for `amount` of `from` (native currency = `0xeeee…`), with the
    /// amounts the router's `getAmountsOut` gives along it at the latest block.
    pub async fn best_route(
        &self,
        from: &Addr,
        to: &Addr,
        amount: U256,
    ) -> Result<Route, ApiError> {
        let (a, b) = (self.erc20_of(from), self.erc20_of(to));
        if a == b {
            return Err(invalid(
                "to",
                if *from == *to {
                    "`from` and `to` are the same token".to_string()
                } else {
                    "ETH and WETH convert 1:1 through WETH's deposit/withdraw, not through a swap"
                        .to_string()
                },
            ));
        }
        if amount.is_zero() {
            return Err(invalid("amount", "amount must be greater than 0"));
        }
        let paths = self.candidate_paths(a, b);
        let calls: Vec<(Addr, String)> = paths
            .iter()
            .map(|p| (self.uniswap.router, calldata::get_amounts_out(amount, p)))
            .collect();
        let answers = self.calls(&calls, "latest").await?;
        let mut best: Option<Route> = None;
        let mut first_error: Option<String> = None;
        for (path, answer) in paths.into_iter().zip(answers) {
            let amounts = match answer {
                Ok(ret) => calldata::decode_uint_array(&ret, MAX_PATH),
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let Some(amounts) = amounts.filter(|v| v.len() == path.len()) else {
                first_error.get_or_insert_with(|| "the router answered no amounts".into());
                continue;
            };
            let out = *amounts.last().unwrap();
            if out.is_zero() {
                continue;
            }
            if best.as_ref().is_none_or(|b| out > b.amount_out()) {
                best = Some(Route { path, amounts });
            }
        }
        best.ok_or_else(|| {
            let why = first_error.unwrap_or_else(|| "the output rounds to 0".into());
            invalid(
                "to",
                format!(
                    "no Uniswap V2 route from {} to {} on {} for this amount ({why})",
                    self.caip10(from),
                    self.caip10(to),
                    self.caip2()
                ),
            )
        })
    }

    /// The ERC-20s that have a pair on the factory (at most [`MAX_LISTED_PAIRS`] pairs read).
    pub async fn pooled_tokens(&self) -> Result<BTreeSet<Addr>, ApiError> {
        let factory = self.uniswap.factory;
        let len = match self
            .call(&factory, Call::new("allPairsLength()").hex())
            .await?
        {
            Ok(ret) => abi::decode_u256(&ret)
                .filter(|n| *n <= U256::from_u128(MAX_LISTED_PAIRS as u128))
                .map(|n| n.to_dec_string().parse::<usize>().unwrap_or(0))
                .unwrap_or(MAX_LISTED_PAIRS),
            Err(e) => return Err(unavailable(&self.chain, format!("allPairsLength: {e}"))),
        };
        let calls: Vec<(Addr, String)> = (0..len)
            .map(|i| {
                (
                    factory,
                    Call::new("allPairs(uint256)").small(i as u64).hex(),
                )
            })
            .collect();
        let pairs: Vec<Addr> = self
            .calls(&calls, "latest")
            .await?
            .into_iter()
            .filter_map(|r| r.ok().and_then(|b| abi::topic_addr(b.get(..32)?)))
            .collect();
        let mut calls = Vec::with_capacity(pairs.len() * 2);
        for p in &pairs {
            calls.push((*p, Call::new("token0()").hex()));
            calls.push((*p, Call::new("token1()").hex()));
        }
        Ok(self
            .calls(&calls, "latest")
            .await?
            .into_iter()
            .filter_map(|r| r.ok().and_then(|b| abi::topic_addr(b.get(..32)?)))
            .collect())
    }

    /// Name, symbol and decimals of an ERC-20: from the index, else read from the chain.
    pub async fn token_meta(&self, token: &Addr) -> Option<(String, String, u8)> {
        {
            let st = self.chain.state.read().unwrap();
            if let Some(t) = st.tokens.get(token) {
                if let (Some(sym), Some(dec)) = (t.symbol.clone(), t.decimals) {
                    return Some((t.name.clone().unwrap_or_else(|| sym.clone()), sym, dec));
                }
            }
        }
        let calls = [
            (*token, abi::SEL_NAME.to_string()),
            (*token, abi::SEL_SYMBOL.to_string()),
            (*token, abi::SEL_DECIMALS.to_string()),
        ];
        let r = self.calls(&calls, "latest").await.ok()?;
        let text = |i: usize| {
            r[i].as_ref()
                .ok()
                .and_then(|b| abi::decode_string(b, abi::MAX_TOKEN_TEXT))
        };
        let symbol = text(1)?;
        let decimals = r[2].as_ref().ok().and_then(|b| abi::decode_u8(b))?;
        Some((text(0).unwrap_or_else(|| symbol.clone()), symbol, decimals))
    }
}

/// A swap route and the amounts along it (`amounts[0]` in, the last out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub path: Vec<Addr>,
    pub amounts: Vec<U256>,
}

impl Route {
    pub fn amount_out(&self) -> U256 {
        *self.amounts.last().unwrap()
    }
}
