//! A Cosmos wallet's accounts. The shell's `families/cosmos.ts` gives `window.keplr` (and wallets
//! with its API) a request interface (`enable(chainIds)`, then `getKey` of the selected chain: its
//! Bech32 address) and has these rules check what it answers. An address is a chain's own: one
//! written with another chain's prefix does not connect.

use super::{decode_address, prefix_of};
use crate::chain::family::{address_list, AccountRules};
use crate::service::json::Value;

/// At most this many accounts are read from a wallet.
pub const ACCOUNTS_MAX: usize = 8;

pub struct Keplr;

impl AccountRules for Keplr {
    /// Non-empty, at most [`ACCOUNTS_MAX`], each a Bech32 address.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        let list = address_list(v, ACCOUNTS_MAX, |s| decode_address(s).is_some())?;
        Some(list.into_iter().map(|s| s.to_ascii_lowercase()).collect())
    }

    /// `cosmos:` and a chain id (CAIP-2: 1 to 32 letters, digits, `-` and `_`).
    fn parse_chain(&self, v: &Value) -> Option<String> {
        let s = v.as_str()?;
        let r = s.strip_prefix("cosmos:")?;
        ((1..=32).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')).then(|| s.to_string())
    }

    fn on_network(&self, accounts: Vec<String>, caip_network_id: &str) -> Option<Vec<String>> {
        let Some(prefix) = prefix_of(caip_network_id) else { return Some(accounts) };
        accounts.iter().all(|a| decode_address(a).is_some_and(|(hrp, _)| hrp == prefix)).then_some(accounts)
    }
}
