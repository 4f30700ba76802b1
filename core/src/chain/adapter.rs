//! One adapter per chain family (CAIP-2 namespace): how to ask a wallet for its accounts and chain,
//! how to read the answers, how to switch or add a network, and how to read a balance or a receipt
//! from a node. The slices only speak to an [`Adapter`]; `eip155` is the one family built today
//! (`solana`, `bip122`, `polkadot` and `cosmos` each add one file, one variant and its arms).

use crate::service::entities::Network;
use crate::service::json::Value;

/// A request to a wallet: an EIP-1193-style method and its params.
#[derive(Clone, Debug, PartialEq)]
pub struct WalletCall {
    pub method: &'static str,
    pub params: Value,
}


/// The chain families this build has; each variant's rules live in its own file (`eip155.rs`).
/// An enum rather than a trait object: every call is a direct one, and a family that is not built
/// costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adapter {
    Eip155,
}

use super::eip155;

impl Adapter {
    /// The CAIP-2 namespace (`eip155`).
    pub fn namespace(self) -> &'static str {
        match self {
            Adapter::Eip155 => eip155::NAMESPACE,
        }
    }

    /// Asks the wallet for its accounts: with a prompt (connect), or silently (reconnect).
    pub fn accounts_call(self, silent: bool) -> WalletCall {
        match self {
            Adapter::Eip155 => eip155::accounts_call(silent),
        }
    }

    /// Asks the wallet for its current chain.
    pub fn chain_call(self) -> WalletCall {
        match self {
            Adapter::Eip155 => eip155::chain_call(),
        }
    }

    /// The wallet's account list, checked and normalised; `None` when it is not one.
    pub fn parse_accounts(self, v: &Value) -> Option<Vec<String>> {
        match self {
            Adapter::Eip155 => eip155::parse_accounts(v),
        }
    }

    /// The wallet's chain as a CAIP-2 network id; `None` when it is not one.
    pub fn parse_chain(self, v: &Value) -> Option<String> {
        match self {
            Adapter::Eip155 => eip155::parse_chain_id(v),
        }
    }

    /// Asks the wallet to switch to a network.
    pub fn switch_call(self, target: &Network) -> WalletCall {
        match self {
            Adapter::Eip155 => eip155::switch_call(target),
        }
    }

    /// Whether a failed switch means the wallet does not know the network (then it is added).
    pub fn unknown_network(self, code: i64) -> bool {
        match self {
            Adapter::Eip155 => code == eip155::UNRECOGNIZED_CHAIN,
        }
    }

    /// Asks the wallet to add a network it does not know.
    pub fn add_call(self, network: &Network) -> WalletCall {
        match self {
            Adapter::Eip155 => eip155::add_call(network),
        }
    }

    /// Asks the wallet to drop the site's permission (best effort, on disconnect).
    pub fn revoke_call(self) -> WalletCall {
        match self {
            Adapter::Eip155 => eip155::revoke_call(),
        }
    }

    /// The node request reading an address's native balance.
    pub fn balance_body(self, id: u64, address: &str) -> String {
        match self {
            Adapter::Eip155 => eip155::balance_request_body(id, address),
        }
    }

    /// A balance answer as displayed (floored to 3 decimals, grouped); `None` when unreadable.
    pub fn parse_balance(self, body: &str, decimals: u32) -> Option<String> {
        match self {
            Adapter::Eip155 => eip155::parse_balance_response(body, decimals),
        }
    }

    /// The node request reading a transaction's receipt.
    pub fn receipt_body(self, id: u64, hash: &str) -> String {
        match self {
            Adapter::Eip155 => eip155::receipt_request_body(id, hash),
        }
    }

    /// Whether a receipt answer says the transaction is mined.
    pub fn is_mined(self, status: u16, body: &str) -> bool {
        match self {
            Adapter::Eip155 => eip155::is_mined(status, body),
        }
    }

    /// Whether a request the host makes through `getProvider()` matters to the modal (it waits for
    /// the visitor in the wallet, or sends a transaction).
    pub fn watches_host_request(self, method: &str) -> bool {
        match self {
            Adapter::Eip155 => eip155::watches_host_request(method),
        }
    }

    /// Whether the wallet asks the visitor before answering `method`.
    pub fn prompts(self, method: &str) -> bool {
        match self {
            Adapter::Eip155 => crate::chain::eip155::rpc::wallet_prompts(method),
        }
    }

    /// The transaction a host request sent, from its result (to watch until mined).
    pub fn sent_transaction(self, method: &str, result: &str) -> Option<String> {
        match self {
            Adapter::Eip155 => eip155::sent_transaction(method, result),
        }
    }

    /// The explorer page of an address.
    /// Whether the convert (swap) API serves this family (spec §9 lists eip155 networks only).
    pub fn swaps(self) -> bool {
        match self {
            Adapter::Eip155 => true,
        }
    }

    pub fn explorer_address(self, explorer: &str, address: &str) -> String {
        match self {
            Adapter::Eip155 => eip155::explorer_address(explorer, address),
        }
    }
}

/// The adapter of a namespace, if this build has one.
pub fn adapter(namespace: &str) -> Option<Adapter> {
    match namespace {
        eip155::NAMESPACE => Some(Adapter::Eip155),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_built_family_has_its_adapter_and_others_have_none() {
        assert_eq!(adapter("eip155").map(Adapter::namespace), Some("eip155"));
        for ns in ["solana", "bip122", "polkadot", "cosmos", "", "EIP155"] {
            assert!(adapter(ns).is_none(), "{ns}");
        }
    }
}
