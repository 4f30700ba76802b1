//! The WalletConnect `bip122` namespace: the methods a session proposes.

use crate::chain::family::WalletConnect;

pub(super) struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &[
            "sendTransfer",
            "signMessage",
            "signPsbt",
            "getAccountAddresses",
        ]
    }
}
