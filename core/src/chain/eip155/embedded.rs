//! The embedded wallet's EVM provider (spec §6): the accounts and chain methods it answers itself,
//! `wallet_switchEthereumChain` through the frame and the RPC allow-list (`rpc.rs`). What a request
//! that signs shows, and its fee, the secure frame works out and shows itself (frame/src/review/).

use super::rpc::{self, RpcPermission};
use crate::chain::address::{checksum_address, is_evm_address};
use crate::chain::family::{EmbeddedMethod, EmbeddedWallet};
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
}
