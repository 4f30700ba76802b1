//! A Polkadot extension's accounts. The shell's `families/polkadot.ts` finds `window.injectedWeb3`
//! extensions (`enable(origin)`, then its accounts' addresses; an extension has no network, the
//! shell selects one) and has these rules check what they answer. An extension writes addresses
//! with any prefix (often the generic 42); the modal shows each with the network's own (SS58).

use super::{prefix_of, ss58};
use crate::chain::family::{address_list, AccountRules};
use crate::service::json::Value;

/// At most this many accounts are read from an extension.
pub const ACCOUNTS_MAX: usize = 32;

pub struct Injected;

impl AccountRules for Injected {
    /// Non-empty, at most [`ACCOUNTS_MAX`], each an SS58 account address.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        address_list(v, ACCOUNTS_MAX, ss58::is_address)
    }

    fn parse_chain(&self, v: &Value) -> Option<String> {
        let s = v.as_str()?;
        let r = s.strip_prefix("polkadot:")?;
        (r.len() == 32 && r.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))).then(|| s.to_string())
    }

    /// Each account written with the network's prefix (once each).
    fn on_network(&self, accounts: Vec<String>, caip_network_id: &str) -> Option<Vec<String>> {
        let prefix = prefix_of(caip_network_id);
        let mut out: Vec<String> = Vec::with_capacity(accounts.len());
        for a in &accounts {
            let s = ss58::encode(prefix, &ss58::decode(a).ok()?.1);
            if !out.contains(&s) {
                out.push(s);
            }
        }
        Some(out)
    }
}
