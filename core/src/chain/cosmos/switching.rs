//! Moving a Cosmos wallet to another chain: the shell enables it in the wallet
//! (`wallet-modal:switchChain`: Keplr's `enable(chainId)`, then `getKey`) and the account is the
//! chain's own address. A chain the wallet does not know is refused; suggesting one
//! (`experimentalSuggestChain`) needs its full description, which the modal's network has not.

use crate::chain::family::{Switching, WalletCall};
use crate::service::entities::Network;
use crate::service::json::obj;

pub(super) struct Enable;

impl Switching for Enable {
    fn switch_call(&self, target: &Network) -> WalletCall {
        let id = &target.caip_network_id;
        let chain_id = id.strip_prefix("cosmos:").unwrap_or(id);
        WalletCall::new("wallet-modal:switchChain", vec![obj(vec![("caipNetworkId", id.clone().into()), ("chainId", chain_id.to_string().into())])])
    }

    fn unknown_network(&self, _code: i64) -> bool {
        false
    }

    fn add_call(&self, network: &Network) -> WalletCall {
        self.switch_call(network)
    }
}
