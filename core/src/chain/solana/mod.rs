//! The `solana` family: wallet-standard wallets (discovered by the shell's `families/solana.ts`),
//! its node (balance in lamports, signature statuses), SOL and SPL transfers built here as wire
//! transactions, network switches among the chains a wallet supports, and its WalletConnect
//! namespace. One capability per file.

mod embedded;
mod message;
mod node;
#[cfg(feature = "crypto")]
mod sign_in;
mod switching;
mod transactions;
mod transfers;
mod wallet;
mod walletconnect;

use super::family::*;

pub use message::{find_program_address, from_base64, message, on_curve, to_base64, unsigned_transaction, Instruction, Meta};
pub use transfers::{associated_token_account, LAMPORTS_PER_SIGNATURE, TOKEN_2022_PROGRAM, TOKEN_PROGRAM};
pub use wallet::{caip_chain, standard_chain};

pub struct Solana;

pub const NAMESPACE: &str = "solana";
pub const MAINNET_REF: &str = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
pub const DEVNET_REF: &str = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
pub const TESTNET_REF: &str = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z";
/// The local SVM of `make demo` and the tests (demo/solana/rpc.mjs: its genesis hash is fixed),
/// which a wallet-standard wallet calls `solana:localnet`.
pub const LOCALNET_REF: &str = "4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ";

const SOL: (&str, &str, u32) = ("Solana", "SOL", 9);
const SOLSCAN: (&str, &str) = ("Solscan", "https://solscan.io");

impl Family for Solana {
    const NAMESPACE: &'static str = NAMESPACE;
    const BALANCES: bool = true;
    const NETWORKS: &'static [Builtin] = &[
        (MAINNET_REF, "Solana", SOL, "https://api.mainnet-beta.solana.com", SOLSCAN, false),
        (DEVNET_REF, "Solana Devnet", SOL, "https://api.devnet.solana.com", SOLSCAN, true),
        (TESTNET_REF, "Solana Testnet", SOL, "https://api.testnet.solana.com", SOLSCAN, true),
    ];

    fn explorer_address(explorer: &str, address: &str) -> String {
        format!("{}/account/{address}", explorer.trim_end_matches('/'))
    }
    fn wallet() -> Option<&'static dyn Wallet> {
        Some(&wallet::Standard)
    }
    fn switching() -> Option<&'static dyn Switching> {
        Some(&switching::Standard)
    }
    fn node() -> Option<&'static dyn Node> {
        Some(&node::Sol)
    }
    fn transactions() -> Option<&'static dyn Transactions> {
        Some(&transactions::Standard)
    }
    fn transfers() -> Option<&'static dyn Transfers> {
        Some(&transfers::Standard)
    }
    fn embedded() -> Option<&'static dyn EmbeddedWallet> {
        Some(&embedded::Frame)
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Methods)
    }
    #[cfg(feature = "crypto")]
    fn sign_in() -> Option<&'static dyn SignIn> {
        Some(&sign_in::Siws)
    }
}

#[cfg(test)]
mod tests;
