//! The embedded wallet's EVM provider (spec §6): the accounts and chain methods it answers itself,
//! `wallet_switchEthereumChain` through the frame, the RPC allow-list (`rpc.rs`), and what
//! ApproveTransaction shows of `personal_sign`, `eth_signTypedData_v4`, `eth_sendTransaction` and
//! `wallet_sendCalls` (`review.rs`), with the fee the frame's node estimates.

use super::review;
use super::rpc::{self, RpcPermission};
use crate::chain::address::{checksum_address, is_evm_address};
use crate::chain::family::{EmbeddedMethod, EmbeddedWallet};
use crate::json;
use crate::service::json::Value;

pub(super) struct Evm;

/// The decimal chain id of an `eip155:N` network.
fn chain_id(caip_network_id: &str) -> Option<u64> {
    caip_network_id.strip_prefix(super::NAMESPACE)?.strip_prefix(':')?.parse().ok()
}

impl EmbeddedWallet for Evm {
    fn user_address(&self, address: &str) -> Option<String> {
        is_evm_address(address, true).then(|| checksum_address(address).ok()).flatten()
    }

    fn method(&self, method: &str) -> EmbeddedMethod {
        match method {
            "eth_accounts" => EmbeddedMethod::Accounts { silent: true },
            "eth_requestAccounts" => EmbeddedMethod::Accounts { silent: false },
            "eth_chainId" => EmbeddedMethod::Chain,
            "wallet_switchEthereumChain" => EmbeddedMethod::Switch,
            "wallet_revokePermissions" => EmbeddedMethod::Revoke,
            _ => match rpc::rpc_permission(method) {
                RpcPermission::Safe => EmbeddedMethod::Safe,
                RpcPermission::NeedsApproval => EmbeddedMethod::NeedsApproval,
                RpcPermission::Disallowed => EmbeddedMethod::Disallowed,
            },
        }
    }

    fn frame_chain(&self, caip_network_id: &str) -> Option<Value> {
        chain_id(caip_network_id).map(Value::from)
    }

    fn switch_target(&self, params: &Value) -> Option<String> {
        let hex = params.get(0)?.get("chainId")?.as_str()?.strip_prefix("0x")?;
        let id = u64::from_str_radix(hex, 16).ok().filter(|id| *id > 0)?;
        Some(format!("{}:{id}", super::NAMESPACE))
    }

    fn chain_answer(&self, caip_network_id: &str) -> Value {
        Value::String(format!("{:#x}", chain_id(caip_network_id).unwrap_or(1)))
    }

    fn review(&self, method: &str, params: &Value, own: &str, symbol: &str, decimals: u32) -> Result<Value, String> {
        let own = own.to_ascii_lowercase();
        match method {
            "personal_sign" => match (params.get(0).and_then(Value::as_str), params.get(1).and_then(Value::as_str)) {
                (Some(data), Some(addr)) if addr.eq_ignore_ascii_case(&own) => review::message_view(data),
                (Some(_), Some(_)) => Err("The message is to be signed by another account".into()),
                _ => Err("personal_sign needs [message, address]".into()),
            },
            "eth_signTypedData_v4" => match (params.get(0).and_then(Value::as_str), params.get(1)) {
                (Some(addr), Some(data)) if addr.eq_ignore_ascii_case(&own) => review::typed_data_view(data),
                (Some(_), Some(_)) => Err("The data is to be signed by another account".into()),
                _ => Err("eth_signTypedData_v4 needs [address, typedData]".into()),
            },
            "eth_sendTransaction" => match params.get(0) {
                Some(tx) if tx.get("from").and_then(Value::as_str).is_none_or(|f| f.eq_ignore_ascii_case(&own)) => {
                    review::transaction_view(tx, symbol, decimals).map(|t| json!({"kind": "transaction", "transactions": [t]}))
                }
                Some(_) => Err("The transaction is to be sent from another account".into()),
                None => Err("eth_sendTransaction needs [transaction]".into()),
            },
            "wallet_sendCalls" => match params.get(0).and_then(|p| rpc::parse_batch_calls(p).ok().map(|_| p)) {
                Some(p) => p
                    .get("calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty() && c.len() <= 16)
                    .ok_or_else(|| "wallet_sendCalls needs 1 to 16 calls".to_string())
                    .and_then(|calls| calls.iter().map(|c| review::transaction_view(c, symbol, decimals)).collect::<Result<Vec<_>, _>>())
                    .map(|t| json!({"kind": "transaction", "transactions": t})),
                None => Err("wallet_sendCalls needs calls with 0x `to` and `data`".into()),
            },
            _ => Err(format!("{method} is not supported by this wallet")),
        }
    }

    /// A transaction's gas, estimated from its sender, and the gas price.
    fn fee_requests(&self, method: &str, params: &Value, own: &str) -> Vec<(&'static str, Value)> {
        let Some(mut tx) = (method == "eth_sendTransaction").then(|| params.get(0).cloned()).flatten() else { return Vec::new() };
        if tx.get("from").is_none() {
            tx["from"] = json!(own.to_ascii_lowercase());
        }
        vec![("eth_estimateGas", json!([tx])), ("eth_gasPrice", json!([]))]
    }

    fn fee(&self, answers: &[String]) -> Option<String> {
        let [gas, price] = answers else { return None };
        let g = u128::from_str_radix(gas.strip_prefix("0x")?, 16).ok()?;
        let p = u128::from_str_radix(price.strip_prefix("0x")?, 16).ok()?;
        Some(g.checked_mul(p)?.to_string())
    }
}
