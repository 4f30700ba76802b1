//! The connected account: its native balance and what the host asks its wallet (the `account`
//! slice), and the Account view's lazily loaded slices — the Tokens tab (`portfolio`), NFTs,
//! Activity, Send and Receive — with the rules they follow (send, transactions, the pending
//! watcher, account names).

pub mod balance;
pub mod host_requests;
pub mod slice;
#[cfg(feature = "modules")]
pub mod send;
#[cfg(feature = "modules")]
pub mod transactions;
#[cfg(feature = "modules")]
pub mod pending;
#[cfg(feature = "modules")]
pub mod name;
#[cfg(feature = "modules")]
pub mod portfolio;
#[cfg(feature = "modules")]
pub mod activity;
#[cfg(feature = "modules")]
pub mod nfts;
#[cfg(feature = "modules")]
pub mod send_slice;
#[cfg(feature = "modules")]
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
