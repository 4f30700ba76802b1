//! The `polkadot` family: its WalletConnect namespace. Its networks, wallets (`injectedWeb3`) and
//! node come with the Polkadot issue.

use super::family::{Family, WalletConnect};

pub struct Polkadot;

struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &["polkadot_signTransaction", "polkadot_signMessage"]
    }
}

impl Family for Polkadot {
    const NAMESPACE: &'static str = "polkadot";

    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&Methods)
    }
}
