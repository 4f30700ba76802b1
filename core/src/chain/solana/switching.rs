//! Moving a Solana wallet to another network: a wallet-standard wallet has no current chain, so
//! the shell selects one of the chains its account supports (`wallet-modal:switchChain`, with the
//! network as the standard names it and as CAIP-2); a wallet that does not support the network
//! refuses, and no wallet can be taught one.

use super::wallet::standard_chain;
use crate::chain::family::{Switching, WalletCall};
use crate::service::entities::Network;
use crate::service::json::obj;

pub(super) struct Standard;

impl Switching for Standard {
    fn switch_call(&self, target: &Network) -> WalletCall {
        let id = &target.caip_network_id;
        WalletCall::new("wallet-modal:switchChain", vec![obj(vec![("chain", standard_chain(id).into()), ("caipNetworkId", id.clone().into())])])
    }

    fn unknown_network(&self, _code: i64) -> bool {
        false
    }

    /// Never asked (see [`Switching::unknown_network`]): the same switch.
    fn add_call(&self, network: &Network) -> WalletCall {
        self.switch_call(network)
    }
}
