//! Connecting: wallet discovery, the wallet catalogue, connection state, persisted state, WalletConnect.

pub mod wallets;
pub mod catalogue;
pub mod connection;
pub mod storage;
#[cfg(feature = "walletconnect")]
pub mod wc;
pub mod slice;
#[cfg(test)]
mod slice_tests;
