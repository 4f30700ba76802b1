//! What the host asks the wallet through `getProvider()`, as far as the modal cares: the requests
//! that wait for the visitor in the wallet ("Approve in your wallet"), and the transactions sent,
//! watched until mined so that the balance is read again then (the balance cache is there to save
//! reads, not to hide a change the modal knows of). Bounded: a runaway host cannot grow state.

use crate::chain::family::HostRequests as Family;

/// A sent transaction's receipt is asked for at the host's `pending-transactions-interval` until it
/// is mined, at most this many times, then the balance is simply left to its cache.
pub const RECEIPT_POLLS_MAX: u32 = 400;
/// Transactions watched at once; a host sending more drops the oldest watch.
pub const RECEIPTS_WATCHED_MAX: usize = 16;
/// Host requests tracked at once.
pub const HOST_REQUESTS_MAX: usize = 64;

/// What to do after a receipt answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiptOutcome {
    /// Mined: read the balance again.
    Mined,
    /// Not yet: ask again after the host's interval.
    Again,
    /// Asked [`RECEIPT_POLLS_MAX`] times, or not watched: stop.
    Stop,
}

#[derive(Clone, Debug)]
struct Watch {
    hash: String,
    network: String,
    polls: u32,
}

#[derive(Clone, Debug, Default)]
pub struct HostRequests {
    /// (shell id, method, whether it waits for the visitor) of requests under way.
    waiting: Vec<(u64, String, bool)>,
    receipts: Vec<Watch>,
}

impl HostRequests {
    /// A host request reached the wallet (the chain family says which ones matter).
    pub fn started(&mut self, a: &dyn Family, id: u64, method: String) {
        if !a.watches(&method) || self.waiting.iter().any(|(i, ..)| *i == id) {
            return;
        }
        if self.waiting.len() >= HOST_REQUESTS_MAX {
            self.waiting.remove(0);
        }
        let prompts = a.prompts(&method);
        self.waiting.push((id, method, prompts));
    }

    /// A host request ended. Returns the hash of a transaction now to be watched (sent on
    /// `network`, the connected chain), if any.
    pub fn ended(&mut self, a: &dyn Family, id: u64, result: Option<&str>, failed: bool, network: Option<&str>) -> Option<String> {
        let pos = self.waiting.iter().position(|(i, ..)| *i == id)?;
        let (_, method, _) = self.waiting.remove(pos);
        if failed {
            return None;
        }
        let hash = a.sent_transaction(&method, result?)?;
        let network = network?.to_string();
        if self.receipts.iter().any(|w| w.hash == hash) {
            return None;
        }
        if self.receipts.len() >= RECEIPTS_WATCHED_MAX {
            self.receipts.remove(0);
        }
        self.receipts.push(Watch { hash: hash.clone(), network, polls: 0 });
        Some(hash)
    }

    /// The network to ask for `hash`'s receipt now (counting the poll), if it is watched.
    pub fn poll(&mut self, hash: &str) -> Option<String> {
        let w = self.receipts.iter_mut().find(|w| w.hash == hash)?;
        w.polls += 1;
        Some(w.network.clone())
    }

    /// A receipt answer for `hash`.
    pub fn receipt(&mut self, hash: &str, mined: bool) -> ReceiptOutcome {
        let Some(pos) = self.receipts.iter().position(|w| w.hash == hash) else { return ReceiptOutcome::Stop };
        if mined {
            self.receipts.remove(pos);
            ReceiptOutcome::Mined
        } else if self.receipts[pos].polls >= RECEIPT_POLLS_MAX {
            self.receipts.remove(pos);
            ReceiptOutcome::Stop
        } else {
            ReceiptOutcome::Again
        }
    }

    /// The method of the newest request waiting for the visitor in the wallet.
    pub fn waiting_for_wallet(&self) -> Option<&str> {
        self.waiting.iter().rev().find(|(.., prompts)| *prompts).map(|(_, m, _)| m.as_str())
    }

    /// Nothing connected any more: forget it all.
    pub fn clear(&mut self) {
        self.waiting.clear();
        self.receipts.clear();
    }
}

#[cfg(test)]
#[path = "host_requests_tests.rs"]
mod tests;
