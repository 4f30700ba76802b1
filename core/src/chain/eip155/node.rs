//! Reading an EVM node: `eth_getBalance` at `latest`, `eth_getTransactionReceipt`, and
//! `eth_blockNumber` to see it is up.

use crate::account::balance::hex_quantity_to_decimal;
use crate::chain::family::Node;
use crate::chain::format::balance_en_us;
use crate::service::json::{obj, parse, Value};

pub(super) struct Evm;

impl Node for Evm {
    fn balance_body(&self, id: u64, address: &str) -> String {
        balance_request_body(id, address)
    }

    fn parse_balance(&self, body: &str, decimals: u32) -> Option<String> {
        parse_balance_response(body, decimals)
    }

    /// (`hash` checked by the caller: nothing to escape.)
    fn receipt_body(&self, id: u64, hash: &str) -> String {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"eth_getTransactionReceipt","params":["{hash}"]}}"#)
    }

    fn ping_call(&self) -> Option<crate::chain::family::WalletCall> {
        Some(crate::chain::family::WalletCall::new("eth_blockNumber", Vec::new()))
    }

    /// A 2xx answer whose `result` is an object.
    fn is_mined(&self, status: u16, body: &str) -> bool {
        (200..300).contains(&status) && parse(body).ok().is_some_and(|v| v.get("result").is_some_and(|r| matches!(r, Value::Object(_))))
    }
}

/// The JSON-RPC body for a balance lookup.
pub(super) fn balance_request_body(id: u64, address: &str) -> String {
    let params = Value::Array(vec![address.into(), "latest".into()]);
    obj(vec![("jsonrpc", "2.0".into()), ("id", id.into()), ("method", "eth_getBalance".into()), ("params", params)]).to_string()
}

/// Reads an `eth_getBalance` answer into the displayed balance: floored to 3 decimals, integer
/// digits grouped by thousands (en-US, spec §5): `10,000.000`.
pub(super) fn parse_balance_response(body: &str, decimals: u32) -> Option<String> {
    let v = parse(body).ok()?;
    balance_en_us(&hex_quantity_to_decimal(v.get("result")?.as_str()?)?, decimals)
}
