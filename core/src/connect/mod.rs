//! Connecting: wallet discovery, the wallet catalogue, connection state, persisted state, network switching, WalletConnect.

pub mod wallets;
pub mod catalogue;
pub mod connection;
pub mod storage;
pub mod switching;
#[cfg(feature = "walletconnect")]
pub mod wc;
