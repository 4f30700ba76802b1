//! The `eip155` family: EVM chains. EIP-1193 wallets (EIP-6963 discovery and `window.ethereum`
//! in the shell's `families/eip155.ts`), JSON-RPC nodes, ERC-20 tokens, the convert API, the
//! embedded wallet's EVM provider and the WalletConnect `eip155` namespace, one capability per
//! file.

mod embedded;
mod host_requests;
mod networks;
mod node;
pub mod safe;
pub mod rpc;
#[cfg(feature = "crypto")]
mod sign_in;
mod swaps;
mod switching;
mod transactions;
mod transfers;
mod walletconnect;
mod wallet;

use super::family::*;
use crate::service::entities::AccountType;

pub use transfers::{decimal_to_hex, erc20_transfer_data};
pub use wallet::{hex_chain, ACCOUNTS_MAX};

/// The family (see [`Family`]).
pub struct Eip155;

pub const NAMESPACE: &str = "eip155";

impl Family for Eip155 {
    const NAMESPACE: &'static str = NAMESPACE;
    const ACCOUNT_TYPE: AccountType = AccountType::SmartAccount;
    const NETWORKS: &'static [super::family::Builtin] = &networks::BUILTIN;
    const NUMERIC_REFS: bool = true;
    const HISTORY: bool = true;
    const BALANCES: bool = true;

    fn wallet() -> Option<&'static dyn Wallet> {
        Some(&wallet::Evm)
    }
    fn switching() -> Option<&'static dyn Switching> {
        Some(&switching::Evm)
    }
    fn node() -> Option<&'static dyn Node> {
        Some(&node::Evm)
    }
    fn host_requests() -> Option<&'static dyn HostRequests> {
        Some(&host_requests::Evm)
    }
    fn transactions() -> Option<&'static dyn Transactions> {
        Some(&transactions::Evm)
    }
    fn transfers() -> Option<&'static dyn Transfers> {
        Some(&transfers::Evm)
    }
    fn swaps() -> Option<&'static dyn Swaps> {
        Some(&swaps::Evm)
    }
    fn embedded() -> Option<&'static dyn EmbeddedWallet> {
        Some(&embedded::Evm)
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Evm)
    }
    #[cfg(feature = "crypto")]
    fn sign_in() -> Option<&'static dyn SignIn> {
        Some(&sign_in::Evm)
    }
}

#[cfg(test)]
mod tests;
