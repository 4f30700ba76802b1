//! The WalletConnect `eip155` namespace: the methods a session proposes.

use crate::chain::family::WalletConnect;

/// Default EVM methods of a proposal.
pub const METHODS: &[&str] = &[
    "eth_accounts",
    "eth_requestAccounts",
    "eth_sendRawTransaction",
    "eth_sign",
    "eth_signTransaction",
    "eth_signTypedData",
    "eth_signTypedData_v3",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "personal_sign",
    "wallet_switchEthereumChain",
    "wallet_addEthereumChain",
    "wallet_getPermissions",
    "wallet_requestPermissions",
    "wallet_watchAsset",
    "wallet_getCapabilities",
    "wallet_sendCalls",
    "wallet_getCallsStatus",
    "wallet_showCallsStatus",
];

pub(super) struct Evm;

impl WalletConnect for Evm {
    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }
}
