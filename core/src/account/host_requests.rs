//! What the host asks the wallet through `getProvider()`, as far as the modal cares: the requests
//! that wait for the visitor in the wallet ("Approve in your wallet"), and the transactions sent,
//! watched until mined so that the balance is read again then (the balance cache is there to save
//! reads, not to hide a change the modal knows of). Bounded: a runaway host cannot grow state.

use crate::chain::adapter::Adapter;

/// A sent transaction's receipt is asked for this often until it is mined...
pub const RECEIPT_POLL_MS: u64 = 1_500;
/// ...at most this many times (about 10 minutes), then the balance is simply left to its cache.
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
    /// Not yet: ask again after [`RECEIPT_POLL_MS`].
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
    /// A host request reached the wallet (the family's adapter says which ones matter).
    pub fn started(&mut self, a: Adapter, id: u64, method: String) {
        if !a.watches_host_request(&method) || self.waiting.iter().any(|(i, ..)| *i == id) {
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
    pub fn ended(&mut self, a: Adapter, id: u64, result: Option<&str>, failed: bool, network: Option<&str>) -> Option<String> {
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
mod tests {
    use super::*;
    const A: Adapter = Adapter::Eip155;

    const HASH: &str = "0xABababababababababababababababababababababababababababababababab";

    #[test]
    fn only_wallet_prompts_and_sent_transactions_are_tracked() {
        let mut h = HostRequests::default();
        h.started(A, 1, "eth_call".into());
        h.started(A, 2, "eth_sendRawTransaction".into());
        assert_eq!(h.waiting_for_wallet(), None, "neither waits for the visitor");
        h.started(A, 3, "personal_sign".into());
        assert_eq!(h.waiting_for_wallet(), Some("personal_sign"));
        assert_eq!(h.ended(A, 3, Some(HASH), false, Some("eip155:1")), None, "a signature is not watched");
        assert_eq!(h.ended(A, 2, Some(HASH), false, Some("eip155:1")).as_deref(), Some(HASH.to_ascii_lowercase().as_str()));
    }

    #[test]
    fn a_failed_or_malformed_send_is_not_watched() {
        let mut h = HostRequests::default();
        for (id, result, failed) in [(1, Some(HASH), true), (2, Some("0x12"), false), (3, None, false)] {
            h.started(A, id, "eth_sendTransaction".into());
            assert_eq!(h.ended(A, id, result, failed, Some("eip155:1")), None);
        }
        assert_eq!(h.poll(&HASH.to_ascii_lowercase()), None);
    }

    #[test]
    fn a_watch_is_polled_a_bounded_number_of_times() {
        let mut h = HostRequests::default();
        h.started(A, 1, "eth_sendTransaction".into());
        let hash = h.ended(A, 1, Some(HASH), false, Some("eip155:1")).unwrap();
        for _ in 0..RECEIPT_POLLS_MAX - 1 {
            assert_eq!(h.poll(&hash).as_deref(), Some("eip155:1"));
            assert_eq!(h.receipt(&hash, false), ReceiptOutcome::Again);
        }
        h.poll(&hash);
        assert_eq!(h.receipt(&hash, false), ReceiptOutcome::Stop);
        assert_eq!(h.poll(&hash), None);
    }

    #[test]
    fn state_is_bounded_against_a_runaway_host() {
        let mut h = HostRequests::default();
        for id in 0..1_000 {
            h.started(A, id, "eth_sendTransaction".into());
        }
        assert_eq!(h.waiting.len(), HOST_REQUESTS_MAX);
        for id in 936..1_000u64 {
            h.ended(A, id, Some(&format!("0x{id:064x}")), false, Some("eip155:1"));
        }
        assert_eq!(h.receipts.len(), RECEIPTS_WATCHED_MAX);
    }
}
