//! The WalletConnect `cosmos` namespace: the methods a session proposes.

use crate::chain::family::WalletConnect;

pub(super) struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &["cosmos_getAccounts", "cosmos_signDirect", "cosmos_signAmino"]
    }
}
