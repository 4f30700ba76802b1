//! The connected account: its native balance and what the host asks its wallet (the `account`
//! slice), and the Account view's lazily loaded slices — the Tokens tab (`portfolio`), NFTs,
//! Activity, Send and Receive — with the rules they follow (send, transactions, the pending
//! watcher, account names).

pub mod balance;
pub mod host_requests;
pub mod slice;
pub mod send;
pub mod transactions;
pub mod pending;
pub mod name;
pub mod portfolio;
pub mod profile_slice;
pub mod activity;
pub mod nfts;
pub mod send_slice;
pub mod receive_slice;
#[cfg(test)]
mod slice_tests;
#[cfg(test)]
pub(crate) mod portfolio_tests;
#[cfg(test)]
mod activity_tests;
#[cfg(test)]
mod nfts_tests;
#[cfg(test)]
mod receive_tests;
#[cfg(test)]
mod send_tests;
