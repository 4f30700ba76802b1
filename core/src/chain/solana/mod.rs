//! The `solana` family: its built-in networks, its WalletConnect namespace and its node (balance in
//! lamports, signature statuses). Its wallets (wallet-standard) and transfers come with the Solana
//! issue; until then a slice that asks for one of those capabilities finds none, and offers
//! nothing on Solana.

mod node;
mod walletconnect;

use super::family::{Family, Node, WalletConnect};
use super::family::Builtin;

pub struct Solana;

pub const MAINNET_REF: &str = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
pub const DEVNET_REF: &str = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
pub const TESTNET_REF: &str = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z";

const SOL: (&str, &str, u32) = ("Solana", "SOL", 9);
const SOLSCAN: (&str, &str) = ("Solscan", "https://solscan.io");

impl Family for Solana {
    const NAMESPACE: &'static str = "solana";
    const NETWORKS: &'static [Builtin] = &[
        (MAINNET_REF, "Solana", SOL, "https://api.mainnet-beta.solana.com", SOLSCAN, false),
        (DEVNET_REF, "Solana Devnet", SOL, "https://api.devnet.solana.com", SOLSCAN, true),
        (TESTNET_REF, "Solana Testnet", SOL, "https://api.testnet.solana.com", SOLSCAN, true),
    ];

    fn explorer_address(explorer: &str, address: &str) -> String {
        format!("{}/account/{address}", explorer.trim_end_matches('/'))
    }
    fn node() -> Option<&'static dyn Node> {
        Some(&node::Sol)
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Methods)
    }
}
