//! The `eip155` family (EVM chains) behind [`super::adapter::Adapter`]: EIP-1193 wallet calls
//! (`eth_requestAccounts`, `wallet_switchEthereumChain`, EIP-3085 `wallet_addEthereumChain`,
//! EIP-2255 `wallet_revokePermissions`) and the node's JSON-RPC (`eth_getBalance`,
//! `eth_getTransactionReceipt`).

pub mod rpc;

use super::adapter::WalletCall;
use crate::account::balance::hex_quantity_to_decimal;
use crate::chain::address::{checksum_address, is_evm_address};
use crate::chain::format::balance_en_us;
use crate::service::entities::Network;
use crate::service::json::{obj, parse, Value};
use rpc::wallet_prompts;

pub const NAMESPACE: &str = "eip155";
/// Accounts a wallet may report at once; a longer list is not taken.
pub const ACCOUNTS_MAX: usize = 32;
/// EIP-1193/EIP-3085: the wallet does not know the chain asked for.
pub const UNRECOGNIZED_CHAIN: i64 = 4902;

fn call(method: &'static str, params: Vec<Value>) -> WalletCall {
    WalletCall { method, params: Value::Array(params) }
}

/// `eth_requestAccounts` (prompts), or `eth_accounts` (silent).
pub fn accounts_call(silent: bool) -> WalletCall {
    call(if silent { "eth_accounts" } else { "eth_requestAccounts" }, Vec::new())
}

pub fn chain_call() -> WalletCall {
    call("eth_chainId", Vec::new())
}

pub fn switch_call(target: &Network) -> WalletCall {
    call("wallet_switchEthereumChain", vec![obj(vec![("chainId", hex_chain(&target.caip_network_id).into())])])
}

/// EIP-3085 `wallet_addEthereumChain` with the network's name, currency, nodes and explorer.
pub fn add_call(n: &Network) -> WalletCall {
    let currency = &n.native_currency;
    call(
        "wallet_addEthereumChain",
        vec![obj(vec![
            ("chainId", hex_chain(&n.caip_network_id).into()),
            ("chainName", n.name.clone().into()),
            ("nativeCurrency", obj(vec![("name", currency.name.clone().into()), ("symbol", currency.symbol.clone().into()), ("decimals", currency.decimals.into())])),
            ("rpcUrls", n.rpc_urls.default.http.clone().into()),
            ("blockExplorerUrls", n.explorer_url().map(|u| vec![u.to_string()]).unwrap_or_default().into()),
        ])],
    )
}

/// EIP-2255 `wallet_revokePermissions` for `eth_accounts`.
pub fn revoke_call() -> WalletCall {
    call("wallet_revokePermissions", vec![obj(vec![("eth_accounts", obj(Vec::new()))])])
}

pub fn explorer_address(explorer: &str, address: &str) -> String {
    format!("{}/address/{address}", explorer.trim_end_matches('/'))
}

/// Whether the modal wants to hear of a host request (through `getProvider()`) with this method:
/// those that wait for the visitor in the wallet, and raw transactions, whose mining changes the
/// balance. The shell asks this first, so a host polling reads costs the engine nothing.
pub fn watches_host_request(method: &str) -> bool {
    wallet_prompts(method) || method == "eth_sendRawTransaction"
}

/// The hash of the transaction a request sent: `eth_sendTransaction` / `eth_sendRawTransaction`
/// answered with `0x` and 64 hex digits (lowercased); `None` for anything else.
pub fn sent_transaction(method: &str, result: &str) -> Option<String> {
    let sends = matches!(method, "eth_sendTransaction" | "eth_sendRawTransaction");
    let hash = result.len() == 66 && result.starts_with("0x") && result[2..].bytes().all(|b| b.is_ascii_hexdigit());
    (sends && hash).then(|| result.to_ascii_lowercase())
}

/// The hex chain id (`0x7a69`) of an `eip155:N` network id.
pub fn hex_chain(caip_network_id: &str) -> String {
    let n: u64 = caip_network_id.split(':').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    format!("{n:#x}")
}

/// A wallet's account list: non-empty, at most [`ACCOUNTS_MAX`], every entry a `0x` 20-byte hex
/// address (returned checksummed).
pub fn parse_accounts(v: &Value) -> Option<Vec<String>> {
    let list = v.as_array()?;
    if list.is_empty() || list.len() > ACCOUNTS_MAX {
        return None;
    }
    list.iter()
        .map(|a| a.as_str().filter(|s| is_evm_address(s, false) && s.starts_with("0x")).map(|s| checksum_address(s).unwrap_or_else(|_| s.to_string())))
        .collect()
}

/// A wallet's chain id (hex string, decimal string or number) as `eip155:N`.
pub fn parse_chain_id(v: &Value) -> Option<String> {
    let n = match v {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => match s.strip_prefix("0x") {
            Some(h) if !h.is_empty() && h.len() <= 16 => u64::from_str_radix(h, 16).ok()?,
            Some(_) => return None,
            None => s.parse().ok()?,
        },
        _ => return None,
    };
    (n > 0).then(|| format!("{NAMESPACE}:{n}"))
}

/// The JSON-RPC body for a balance lookup.
pub fn balance_request_body(id: u64, address: &str) -> String {
    let params = Value::Array(vec![address.into(), "latest".into()]);
    obj(vec![("jsonrpc", "2.0".into()), ("id", id.into()), ("method", "eth_getBalance".into()), ("params", params)]).to_string()
}

/// Reads an `eth_getBalance` answer into the displayed balance: floored to 3 decimals, integer
/// digits grouped by thousands (en-US, spec §5): `10,000.000`.
pub fn parse_balance_response(body: &str, decimals: u32) -> Option<String> {
    let v = parse(body).ok()?;
    balance_en_us(&hex_quantity_to_decimal(v.get("result")?.as_str()?)?, decimals)
}

/// The JSON-RPC body asking for a receipt (`hash` checked by `is_tx_hash`: nothing to escape).
pub fn receipt_request_body(id: u64, hash: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"eth_getTransactionReceipt","params":["{hash}"]}}"#)
}

/// Whether a receipt answer says mined: a 2xx answer whose `result` is an object.
pub fn is_mined(status: u16, body: &str) -> bool {
    (200..300).contains(&status) && parse(body).ok().is_some_and(|v| v.get("result").is_some_and(|r| matches!(r, Value::Object(_))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(j: serde_json::Value) -> Value {
        j.into()
    }

    #[test]
    fn native_balance_is_floored_to_3_decimals_and_grouped_by_thousands() {
        // 10000 ETH (anvil's dev account) and 1.23456789 ETH.
        assert_eq!(parse_balance_response(r#"{"jsonrpc":"2.0","id":1,"result":"0x21e19e0c9bab2400000"}"#, 18).as_deref(), Some("10,000.000"));
        // 19755316.610123 with 6 decimals (a currency with other decimals).
        assert_eq!(parse_balance_response(r#"{"jsonrpc":"2.0","id":1,"result":"0x11f7a4a1044b"}"#, 6).as_deref(), Some("19,755,316.610"));
        assert_eq!(parse_balance_response(r#"{"jsonrpc":"2.0","id":1,"result":"0x0"}"#, 18).as_deref(), Some("0.000"));
        assert_eq!(parse_balance_response(r#"{"jsonrpc":"2.0","id":1,"result":"0x112210f4768db400"}"#, 18).as_deref(), Some("1.234"));
        assert_eq!(parse_balance_response(r#"{"error":{"code":-32000,"message":"x"}}"#, 18), None);
        assert_eq!(parse_balance_response("<html>", 18), None);
    }

    #[test]
    fn balance_request_is_eth_get_balance_at_latest() {
        let v: serde_json::Value = serde_json::from_str(&balance_request_body(7, "0xabc")).unwrap();
        assert_eq!(v["method"], "eth_getBalance");
        assert_eq!(v["params"], serde_json::json!(["0xabc", "latest"]));
        assert_eq!(v["id"], 7);
    }

    #[test]
    fn mined_means_a_receipt_object() {
        assert!(is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":{"status":"0x1"}}"#));
        assert!(!is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":null}"#));
        assert!(!is_mined(500, r#"{"result":{}}"#));
        assert!(!is_mined(200, "garbage"));
    }

    #[test]
    fn accounts_are_checked_and_checksummed() {
        let lower = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
        assert_eq!(parse_accounts(&v(serde_json::json!([lower]))), Some(vec!["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266".to_string()]));
        assert_eq!(parse_accounts(&v(serde_json::json!([]))), None, "an empty list is no account");
        assert_eq!(parse_accounts(&v(serde_json::json!([lower, "nope"]))), None, "one bad entry spoils the list");
        assert_eq!(parse_accounts(&v(serde_json::json!(vec![lower; ACCOUNTS_MAX + 1]))), None, "too many");
        assert_eq!(parse_accounts(&v(serde_json::json!("0x1"))), None);
    }

    #[test]
    fn chain_ids_are_read_from_hex_decimal_or_number() {
        assert_eq!(parse_chain_id(&v(serde_json::json!("0x7a69"))).as_deref(), Some("eip155:31337"));
        assert_eq!(parse_chain_id(&v(serde_json::json!("31337"))).as_deref(), Some("eip155:31337"));
        assert_eq!(parse_chain_id(&v(serde_json::json!(1))).as_deref(), Some("eip155:1"));
        for bad in [serde_json::json!("0x"), serde_json::json!("0x0"), serde_json::json!("0x11112222333344445"), serde_json::json!(null), serde_json::json!(-1)] {
            assert_eq!(parse_chain_id(&v(bad.clone())), None, "{bad}");
        }
        assert_eq!(hex_chain("eip155:31337"), "0x7a69");
    }
}
