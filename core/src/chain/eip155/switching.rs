//! Moving an EVM wallet to another chain: `wallet_switchEthereumChain`, and EIP-3085
//! `wallet_addEthereumChain` when the wallet does not know it (error 4902).

use super::wallet::hex_chain;
use crate::chain::family::{Switching, WalletCall};
use crate::service::entities::Network;
use crate::service::json::obj;

/// EIP-1193/EIP-3085: the wallet does not know the chain asked for.
pub const UNRECOGNIZED_CHAIN: i64 = 4902;

pub(super) struct Evm;

impl Switching for Evm {
    fn switch_call(&self, target: &Network) -> WalletCall {
        WalletCall::new("wallet_switchEthereumChain", vec![obj(vec![("chainId", hex_chain(&target.caip_network_id).into())])])
    }

    fn unknown_network(&self, code: i64) -> bool {
        code == UNRECOGNIZED_CHAIN
    }

    /// The network's name, currency, nodes and explorer.
    fn add_call(&self, n: &Network) -> WalletCall {
        let currency = &n.native_currency;
        WalletCall::new(
            "wallet_addEthereumChain",
            vec![obj(vec![
                ("chainId", hex_chain(&n.caip_network_id).into()),
                ("chainName", n.name.clone().into()),
                ("nativeCurrency", obj(vec![("name", currency.name.clone().into()), ("symbol", currency.symbol.clone().into()), ("decimals", currency.decimals.into())])),
                ("rpcUrls", n.rpc_urls.default.http.clone().into()),
                ("blockExplorerUrls", n.explorer_url().map(|u| vec![u.to_string()]).unwrap_or_default().into()),
            ])],
        )
    }
}
