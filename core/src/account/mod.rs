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

use crate::host::Ctx;

/// A tab shown before the chains the blockchain API reads are known (the portfolio asks them
/// once, spec §7) waits for them, 200 ms a check, at most 25 checks (5 s): then it reads anyway.
const API_CHAINS_WAIT_MS: u64 = 200;
const API_CHAINS_WAITS: u8 = 25;

/// Whether a tab waits before its first call on `chain` (its `timer` restarted): the supported
/// chains are not known yet and it has not waited its 25 checks.
pub(crate) fn waits_for_api_chains(ctx: &mut Ctx, chain: &str, waits: &mut u8, timer: &str) -> bool {
    if ctx.api_supports(chain).is_some() || *waits >= API_CHAINS_WAITS {
        return false;
    }
    *waits += 1;
    ctx.timer(timer, API_CHAINS_WAIT_MS);
    true
}
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
pub(crate) mod send_tests;
