//! The WalletConnect `polkadot` namespace: the methods a session proposes.

use crate::chain::family::WalletConnect;

pub(super) struct Methods;

impl WalletConnect for Methods {
    fn methods(&self) -> &'static [&'static str] {
        &["polkadot_signTransaction", "polkadot_signMessage"]
    }
}
