//! Connecting an EIP-1193 wallet: `eth_requestAccounts` (or silently `eth_accounts`),
//! `eth_chainId`, and EIP-2255 `wallet_revokePermissions` on disconnect.

use super::NAMESPACE;
use crate::chain::address::{checksum_address, is_evm_address};
use crate::chain::family::{Wallet, WalletCall};
use crate::service::json::{obj, Value};

/// Accounts a wallet may report at once; a longer list is not taken.
pub const ACCOUNTS_MAX: usize = 32;

pub(super) struct Evm;

impl Wallet for Evm {
    fn accounts_call(&self, silent: bool) -> WalletCall {
        WalletCall::new(if silent { "eth_accounts" } else { "eth_requestAccounts" }, Vec::new())
    }

    fn chain_call(&self) -> WalletCall {
        WalletCall::new("eth_chainId", Vec::new())
    }

    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        parse_accounts(v)
    }

    fn parse_chain(&self, v: &Value) -> Option<String> {
        parse_chain_id(v)
    }

    fn revoke_call(&self) -> Option<WalletCall> {
        Some(WalletCall::new("wallet_revokePermissions", vec![obj(vec![("eth_accounts", obj(Vec::new()))])]))
    }
}

/// The hex chain id (`0x7a69`) of an `eip155:N` network id.
pub fn hex_chain(caip_network_id: &str) -> String {
    let n: u64 = caip_network_id.split(':').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    format!("{n:#x}")
}

/// A wallet's account list: non-empty, at most [`ACCOUNTS_MAX`], every entry a `0x` 20-byte hex
/// address (returned checksummed).
pub(super) fn parse_accounts(v: &Value) -> Option<Vec<String>> {
    let list = v.as_array()?;
    if list.is_empty() || list.len() > ACCOUNTS_MAX {
        return None;
    }
    let mut out = Vec::with_capacity(list.len());
    for a in list {
        let s = a.as_str().filter(|s| is_evm_address(s, false) && s.starts_with("0x"))?;
        out.push(checksum_address(s).unwrap_or_else(|_| s.to_string()));
    }
    Some(out)
}

/// A wallet's chain id (hex string, decimal string or number) as `eip155:N`.
pub(super) fn parse_chain_id(v: &Value) -> Option<String> {
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
