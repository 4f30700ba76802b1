//! The embedded wallet's Solana provider (spec §6): the same key's Solana account (an ed25519 key
//! the secure frame derives from the root secret), the requests the core's Solana capabilities
//! make of any wallet answered as a wallet-standard wallet's would be (accounts, chain, switch),
//! and WalletConnect's Solana signing methods each shown in the frame's approval first. Reading the
//! chain is never the wallet's on Solana (the family asks the node), so nothing else is allowed.

use super::wallet::is_key;
use crate::chain::family::{EmbeddedMethod, EmbeddedWallet};
use crate::service::json::Value;

pub(super) struct Frame;

impl EmbeddedWallet for Frame {
    fn user_address(&self, address: &str) -> Option<String> {
        is_key(address).then(|| address.to_string())
    }

    fn method(&self, method: &str) -> EmbeddedMethod {
        match method {
            "standard:connect" | "solana_requestAccounts" => EmbeddedMethod::Accounts { silent: false },
            "solana_getAccounts" => EmbeddedMethod::Accounts { silent: true },
            "wallet-modal:chain" => EmbeddedMethod::Chain,
            "wallet-modal:switchChain" => EmbeddedMethod::Switch,
            "standard:disconnect" => EmbeddedMethod::Revoke,
            "solana_signMessage" | "solana_signTransaction" | "solana_signAllTransactions" | "solana_signAndSendTransaction" => EmbeddedMethod::NeedsApproval,
            _ => EmbeddedMethod::Disallowed,
        }
    }

    /// The frame's chain of a Solana network: its CAIP-2 reference (the genesis hash's start).
    fn frame_chain(&self, caip_network_id: &str) -> Option<Value> {
        caip_network_id.strip_prefix("solana:").filter(|r| r.len() == 32).map(|r| Value::String(r.to_string()))
    }

    fn switch_target(&self, params: &Value) -> Option<String> {
        params.get(0)?.get("caipNetworkId")?.as_str().filter(|id| id.starts_with("solana:") && id.len() <= 64).map(str::to_string)
    }

    fn chain_answer(&self, caip_network_id: &str) -> Value {
        Value::String(caip_network_id.to_string())
    }
}
