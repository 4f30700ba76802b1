//! The convert API on EVM chains (spec §7, §9): the swap networks, the native currency's
//! `0xeeee…` address, `0x` token addresses, the build request's `eip155: {slippage}` and the
//! built transaction's `eip155: {gas, gasPrice}`.

use super::transfers::decimal_to_hex;
use crate::chain::family::Swaps;
use crate::service::json::{obj, Value};

/// EIP-155 chain ids where swaps are available (spec §9).
pub const SWAP_CHAIN_IDS: &[u64] = &[1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554];
/// The convert API's address of the native currency.
pub const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

pub(super) struct Evm;

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.len() <= 78 && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_address(a: &str) -> bool {
    a.len() == 42 && a.starts_with("0x") && a[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

impl Swaps for Evm {
    fn networks(&self) -> Vec<String> {
        SWAP_CHAIN_IDS.iter().map(|id| format!("{}:{id}", super::NAMESPACE)).collect()
    }

    fn native_token(&self) -> &'static str {
        NATIVE
    }

    /// `eip155:31337:0xabc…` or `0xabc…` → `0xabc…` lower case.
    fn token_address(&self, address: &str) -> Option<String> {
        let a = address.rsplit(':').next().unwrap_or(address).to_ascii_lowercase();
        is_address(&a).then_some(a)
    }

    fn build_fields(&self, slippage: u32) -> (&'static str, Value) {
        (super::NAMESPACE, obj(vec![("slippage", slippage.to_string().into())]))
    }

    /// `{from, to, data, value, eip155: {gas, gasPrice}}` → the `eth_sendTransaction` parameters.
    fn transaction(&self, tx: &Value, from: &str) -> Option<Value> {
        let text = |k: &str, max: usize| tx.get(k).and_then(Value::as_str).filter(|s| !s.is_empty() && s.len() <= max && !s.chars().any(char::is_control));
        let to = self.token_address(text("to", 120)?)?;
        let data = text("data", 100_000).filter(|d| d.starts_with("0x") && d[2..].bytes().all(|b| b.is_ascii_hexdigit()))?;
        let mut fields = vec![("from", from.into()), ("to", to.as_str().into()), ("data", data.into())];
        let value = match tx.get("value") {
            Some(Value::String(s)) if s.starts_with("0x") && s.len() <= 66 && s[2..].bytes().all(|b| b.is_ascii_hexdigit()) => Some(s.clone()),
            Some(Value::String(s)) if is_digits(s) => decimal_to_hex(s).map(|h| format!("0x{h}")),
            _ => None,
        };
        if let Some(value) = value.filter(|v| v.trim_start_matches("0x").trim_start_matches('0') != "") {
            fields.push(("value", value.into()));
        }
        if let Some(gas) = tx.get(super::NAMESPACE).and_then(|e| e.get("gas")).and_then(Value::as_str).filter(|g| is_digits(g)) {
            if let Some(gas) = decimal_to_hex(gas) {
                fields.push(("gas", format!("0x{gas}").into()));
            }
        }
        Some(obj(fields))
    }

    fn receiver<'a>(&self, tx: &'a Value) -> Option<&'a str> {
        tx.get("to").and_then(Value::as_str)
    }
}
