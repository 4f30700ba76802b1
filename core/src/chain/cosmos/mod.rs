//! The `cosmos` family: its WalletConnect namespace. Its networks, wallets (`window.keplr`) and
//! node come with the Cosmos issue.

use super::family::{Family, WalletConnect};

pub struct Cosmos;

struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &[
            "cosmos_getAccounts",
            "cosmos_signDirect",
            "cosmos_signAmino",
        ]
    }
}

impl Family for Cosmos {
    const NAMESPACE: &'static str = "cosmos";

    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&Methods)
    }
}
