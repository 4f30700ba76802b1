//! The `bip122` family (Bitcoin): its built-in networks and its WalletConnect namespace. Its
//! wallets (sats-connect), node and transfers come with the Bitcoin issue.

mod walletconnect;

use super::family::{Family, WalletConnect};
use super::family::Builtin;
use crate::service::entities::AccountType;

pub struct Bip122;

pub const MAINNET_REF: &str = "000000000019d6689c085ae165831e93";
pub const TESTNET_REF: &str = "000000000933ea01ad0ee984209779ba";

const BTC: (&str, &str, u32) = ("Bitcoin", "BTC", 8);

impl Family for Bip122 {
    const NAMESPACE: &'static str = "bip122";
    const ACCOUNT_TYPE: AccountType = AccountType::Payment;
    const NETWORKS: &'static [Builtin] = &[
        (MAINNET_REF, "Bitcoin", BTC, "https://mempool.space/api", ("Mempool", "https://mempool.space"), false),
        (TESTNET_REF, "Bitcoin Testnet", BTC, "https://mempool.space/testnet/api", ("Mempool", "https://mempool.space/testnet"), true),
    ];

    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Methods)
    }
}
