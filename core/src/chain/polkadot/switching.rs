//! Moving to another Polkadot network: an extension has no current network, so the shell selects
//! the one asked (`wallet-modal:switchChain`), and the accounts are written with its prefix.

use crate::chain::family::{Switching, WalletCall};
use crate::service::entities::Network;
use crate::service::json::obj;

pub(super) struct Select;

impl Switching for Select {
    fn switch_call(&self, target: &Network) -> WalletCall {
        WalletCall::new("wallet-modal:switchChain", vec![obj(vec![("caipNetworkId", target.caip_network_id.clone().into())])])
    }

    fn unknown_network(&self, _code: i64) -> bool {
        false
    }

    fn add_call(&self, network: &Network) -> WalletCall {
        self.switch_call(network)
    }
}
