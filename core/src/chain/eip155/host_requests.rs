//! What the host asks an EVM wallet through `getProvider()`, as the modal follows it: the methods
//! that prompt (the embedded wallet's approval list and the older signing methods), and sent
//! transactions (`eth_sendTransaction`, `eth_sendRawTransaction`), watched until mined.

use super::rpc::wallet_prompts;
use crate::chain::family::HostRequests;

pub(super) struct Evm;

impl HostRequests for Evm {
    /// Those that wait for the visitor in the wallet, and raw transactions, whose mining changes
    /// the balance. The shell asks this first, so a host polling reads costs the engine nothing.
    fn watches(&self, method: &str) -> bool {
        wallet_prompts(method) || method == "eth_sendRawTransaction"
    }

    fn prompts(&self, method: &str) -> bool {
        wallet_prompts(method)
    }

    /// `eth_sendTransaction` / `eth_sendRawTransaction` answered with `0x` and 64 hex digits
    /// (lowercased); `None` for anything else.
    fn sent_transaction(&self, method: &str, result: &str) -> Option<String> {
        let sends = matches!(method, "eth_sendTransaction" | "eth_sendRawTransaction");
        (sends).then(|| tx_hash(result)).flatten()
    }
}

/// A transaction hash: `0x` and 64 hex digits, lowercased.
pub(super) fn tx_hash(s: &str) -> Option<String> {
    (s.len() == 66 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
}
