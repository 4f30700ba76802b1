//! The `bip122` family (Bitcoin): its built-in networks, its addresses (Base58Check and segwit),
//! its wallets (wallet-standard `bitcoin:*` and sats-connect, carried by the shell's
//! `families/bip122.ts`), network switches, message signatures (BIP-322 simple and the legacy
//! BIP-137 form), balances and transfers through an Esplora API (a PSBT the wallet signs) and its
//! WalletConnect namespace. One capability per file.

pub mod address;
#[cfg(feature = "crypto")]
pub mod message;
pub mod psbt;
mod node;
mod transactions;
pub mod transfers;
pub mod wallet;
mod walletconnect;

use super::family::*;

/// What the engine links: the shell checks this family's wallets with [`RULES`] (lazily loaded).
static CHECKED: Checked = Checked(NAMESPACE);

pub const NAMESPACE: &str = "bip122";

/// The family's rules for its wallets' accounts and networks, applied by its lazily loaded module
/// (`element/families`) before the engine hears of them.
pub static RULES: &dyn AccountRules = &wallet::Connect;
use crate::service::entities::AccountType;

pub use wallet::{caip_chain, net_of};

pub struct Bip122;

pub const MAINNET_REF: &str = "000000000019d6689c085ae165831e93";
pub const TESTNET_REF: &str = "000000000933ea01ad0ee984209779ba";
pub const TESTNET4_REF: &str = "00000000da84f2bafbbc53dee25a72ae";
pub const SIGNET_REF: &str = "00000008819873e925422c1ff0f99f7c";
/// Bitcoin Core's regtest genesis.
pub const REGTEST_REF: &str = "0f9188f13cb7b2c71f2a335e3a4fc328";
/// The local regtest chain of `make demo` and the tests: a `litecoind -regtest` node (Bitcoin
/// Core 0.21's consensus), whose genesis, and so CAIP-2 id, is its own, not Bitcoin's.
pub const LOCAL_REF: &str = "530827f38f93b43ed12af0b3ad25a288";

const BTC: (&str, &str, u32) = ("Bitcoin", "BTC", 8);

impl Family for Bip122 {
    const NAMESPACE: &'static str = NAMESPACE;
    const ACCOUNT_TYPE: AccountType = AccountType::Payment;
    const NETWORKS: &'static [Builtin] = &[
        (MAINNET_REF, "Bitcoin", BTC, "https://mempool.space/api", ("Mempool", "https://mempool.space"), false),
        (TESTNET_REF, "Bitcoin Testnet", BTC, "https://mempool.space/testnet/api", ("Mempool", "https://mempool.space/testnet"), true),
    ];

    fn wallet() -> Option<&'static dyn Wallet> {
        Some(&CHECKED)
    }
    fn switching() -> Option<&'static dyn Switching> {
        Some(&CHECKED)
    }
    fn node() -> Option<&'static dyn Node> {
        Some(&node::Esplora)
    }
    fn transfers() -> Option<&'static dyn Transfers> {
        Some(&transfers::Esplora)
    }
    fn transactions() -> Option<&'static dyn Transactions> {
        Some(&transactions::Esplora)
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Methods)
    }
}

#[cfg(test)]
mod tests;
