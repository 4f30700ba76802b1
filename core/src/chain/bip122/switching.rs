//! Moving a Bitcoin wallet to another network: `wallet-modal:switchChain` with the network as
//! CAIP-2 and as wallets name it (sats-connect's `wallet_changeNetwork` takes the name; a
//! wallet-standard wallet has no current network, the shell selects one of its chains). A wallet
//! that cannot move refuses; none can be taught a network.

use super::wallet::network_name;
use crate::chain::family::{Switching, WalletCall};
use crate::service::entities::Network;
use crate::service::json::{obj, Value};

pub(super) struct Change;

impl Switching for Change {
    fn switch_call(&self, target: &Network) -> WalletCall {
        let id = &target.caip_network_id;
        let name = network_name(id).map(|n| Value::from(n.to_string())).unwrap_or(Value::Null);
        WalletCall::new("wallet-modal:switchChain", vec![obj(vec![("caipNetworkId", id.clone().into()), ("name", name)])])
    }

    fn unknown_network(&self, _code: i64) -> bool {
        false
    }

    fn add_call(&self, network: &Network) -> WalletCall {
        self.switch_call(network)
    }
}
