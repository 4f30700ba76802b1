//! The connected account: native balance, and the rules of send, transactions, pending transactions, names and smart accounts.

pub mod balance;
pub mod host_requests;
pub mod send;
pub mod transactions;
pub mod pending;
pub mod name;
pub mod name_flow;
pub mod smart_account;
pub mod slice;
/// The lazily loaded account module and its slices.
pub mod module;
pub mod portfolio;
pub mod activity;
pub mod nfts;
pub mod send_slice;
#[cfg(test)]
mod slice_tests;
