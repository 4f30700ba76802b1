//! The WalletConnect `solana` namespace: the methods a session proposes.

use crate::chain::family::WalletConnect;

pub(super) struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &[
            "solana_signMessage",
            "solana_signTransaction",
            "solana_signAndSendTransaction",
            "solana_signAllTransactions",
            "solana_requestAccounts",
            "solana_getAccounts",
        ]
    }
}
