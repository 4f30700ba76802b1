//! Connecting: wallet discovery, the wallet catalogue, connection state, persisted state, network switching, WalletConnect.

pub mod wallets;
pub mod catalogue;
pub mod connection;
pub mod storage;
pub mod switching;
#[cfg(feature = "walletconnect")]
pub mod wc;
pub mod slice;
pub mod switch_slice;
#[cfg(test)]
mod slice_tests;
#[cfg(test)]
mod switch_slice_tests;
