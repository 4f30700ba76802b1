//! The connected account: native balance, and the rules of send, transactions, pending transactions, names and smart accounts.

pub mod balance;
pub mod host_requests;
#[cfg(feature = "modules")]
pub mod send;
#[cfg(feature = "modules")]
pub mod transactions;
#[cfg(feature = "modules")]
pub mod pending;
#[cfg(feature = "modules")]
pub mod name;
#[cfg(feature = "modules")]
pub mod name_flow;
#[cfg(feature = "modules")]
pub mod smart_account;
pub mod slice;
/// The lazily loaded account module and its slices.
#[cfg(feature = "modules")]
pub mod module;
#[cfg(feature = "modules")]
pub mod portfolio;
#[cfg(feature = "modules")]
pub mod activity;
#[cfg(feature = "modules")]
pub mod nfts;
#[cfg(feature = "modules")]
pub mod send_slice;
#[cfg(test)]
mod slice_tests;
