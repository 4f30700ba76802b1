//! Token prices from the demo market's pools: USDC is 1 USD; a token paired with USDC is worth its
//! pool's USDC reserve per token reserve; a token paired only with WETH is worth WETH's price times its
//! WETH reserve per token reserve; the native currency is worth WETH. Spot prices of the reserves (no
//! fee, no price impact), read with one batched `eth_call` of `getReserves()` over the manifest's pairs.
//!
//! The blockchain API (`chain/api.rs`) refreshes them on each balance and price request and reads them
//! through [`Manifest::token_price`] / [`Manifest::native_price`], which fall back to the price table
//! for tokens without a pool.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::chain::abi::{self, Addr};
use crate::chain::manifest::{Manifest, PoolPrices};
use crate::chain::u256::{format_units, U256};
use crate::chain::Chain;

use super::calldata;

/// Decimals of WETH9.
pub const WETH_DECIMALS: u8 = 18;

/// `value / 10^decimals` as an f64 (through the decimal string: exact for the demo's round reserves).
fn units_f64(value: U256, decimals: u8) -> Option<f64> {
    format_units(value, decimals, false).parse::<f64>().ok()
}

/// A pair's `((token0, decimals0), (token1, decimals1), reserve0, reserve1)`.
pub type PairReserves = ((Addr, u8), (Addr, u8), U256, U256);

/// Prices from the reserves of pairs.
pub fn compute(usdc: Option<Addr>, weth: Addr, reserves: &[PairReserves]) -> PoolPrices {
    let mut tokens: HashMap<Addr, f64> = HashMap::new();
    // The price of `t` in units of `a`, from a pool holding both.
    let rate = |t: Addr, a: Addr| -> Option<f64> {
        let (rt, ra) = reserves.iter().find_map(|((t0, d0), (t1, d1), r0, r1)| {
            if (*t0, *t1) == (t, a) {
                Some((units_f64(*r0, *d0)?, units_f64(*r1, *d1)?))
            } else if (*t0, *t1) == (a, t) {
                Some((units_f64(*r1, *d1)?, units_f64(*r0, *d0)?))
            } else {
                None
            }
        })?;
        (rt > 0.0 && ra > 0.0).then(|| ra / rt)
    };
    let mut all: Vec<(Addr, u8)> = Vec::new();
    for (a, b, _, _) in reserves {
        for t in [a, b] {
            if !all.contains(t) {
                all.push(*t);
            }
        }
    }
    if let Some(u) = usdc {
        tokens.insert(u, 1.0);
        for t in &all {
            if t.0 != u {
                if let Some(p) = rate(t.0, u) {
                    tokens.insert(t.0, p);
                }
            }
        }
    }
    if let Some(weth_price) = tokens.get(&weth).copied() {
        for t in &all {
            if let std::collections::hash_map::Entry::Vacant(e) = tokens.entry(t.0) {
                if let Some(p) = rate(t.0, weth) {
                    e.insert(p * weth_price);
                }
            }
        }
    }
    let native = tokens.get(&weth).copied();
    PoolPrices { tokens, native }
}

/// Decimals of a pair's token: the manifest's, WETH's, else the index's.
fn decimals_of(chain: &Chain, m: &Manifest, weth: &Addr, t: &Addr) -> Option<u8> {
    if t == weth {
        return Some(WETH_DECIMALS);
    }
    if let Some(d) = m.token(chain.chain_id, t).filter(|d| !d.erc721) {
        return Some(d.decimals);
    }
    chain
        .state
        .read()
        .unwrap()
        .tokens
        .get(t)
        .and_then(|t| t.decimals)
}

/// Reads the reserves of the manifest's pairs on `chain` at `block` (`latest` or a hex number),
/// stores the prices in the manifest's cache and returns them. Without a market: `None`. When the
/// chain does not answer, the last prices read stay (and are returned).
pub async fn refresh(chain: &Chain, m: &Manifest, block: &str) -> Option<Arc<PoolPrices>> {
    let uni = m.uniswap(chain.chain_id)?;
    let rpc = chain.client().ok()?;
    let params: Vec<Value> = uni
        .pairs
        .iter()
        .map(|p| json!([{ "to": abi::addr_hex(&p.address), "data": calldata::get_reserves() }, block]))
        .collect();
    let answers = match rpc.batch::<String>("eth_call", &params).await {
        Ok(a) => a,
        Err(_) => return m.pool_prices.get(chain.chain_id),
    };
    let mut reserves = Vec::new();
    for (p, a) in uni.pairs.iter().zip(answers) {
        let Some((r0, r1)) = a
            .ok()
            .and_then(|h| abi::parse_hex(&h))
            .and_then(|b| calldata::decode_reserves(&b))
        else {
            continue;
        };
        let (Some(d0), Some(d1)) = (
            decimals_of(chain, m, &uni.weth, &p.token0),
            decimals_of(chain, m, &uni.weth, &p.token1),
        ) else {
            continue;
        };
        reserves.push(((p.token0, d0), (p.token1, d1), r0, r1));
    }
    let usdc = m.usd_token(chain.chain_id).map(|t| t.address);
    Some(
        m.pool_prices
            .set(chain.chain_id, compute(usdc, uni.weth, &reserves)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(v: u128) -> U256 {
        U256::from_u128(v)
    }

    #[test]
    fn prices_from_reserves_directly_and_through_weth() {
        let (usdc, weth, wmt, lone) = ([1u8; 20], [2u8; 20], [3u8; 20], [4u8; 20]);
        let e18 = 1_000_000_000_000_000_000u128;
        let reserves = [
            // 1,000 WETH / 3,000,000 USDC (token0 = USDC)
            ((usdc, 6), (weth, 18), u(3_000_000_000_000), u(1000 * e18)),
            // 250,000 USDC / 1,000,000 WMT
            ((usdc, 6), (wmt, 18), u(250_000_000_000), u(1_000_000 * e18)),
            // 100 WETH / 600,000 LONE: only through WETH, 3000 / 6000
            ((weth, 18), (lone, 18), u(100 * e18), u(600_000 * e18)),
        ];
        let p = compute(Some(usdc), weth, &reserves);
        assert_eq!(p.tokens[&usdc], 1.0);
        assert_eq!(p.tokens[&weth], 3000.0);
        assert_eq!(p.native, Some(3000.0));
        assert_eq!(p.tokens[&wmt], 0.25);
        assert_eq!(p.tokens[&lone], 0.5);
        // Without the anchor nothing is priced; an empty pool prices nothing.
        assert!(compute(None, weth, &reserves).tokens.is_empty());
        let empty = [((usdc, 6), (wmt, 18), U256::ZERO, U256::ZERO)];
        let p = compute(Some(usdc), weth, &empty);
        assert_eq!(p.tokens.len(), 1);
        assert_eq!(p.native, None);
    }
}
