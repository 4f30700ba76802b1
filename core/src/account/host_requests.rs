//! What the host asks the wallet through `getProvider()`, as far as the modal cares: the requests
//! that wait for the visitor in the wallet ("Approve in your wallet"), and the transactions sent,
//! watched until mined so that the balance is read again then (the balance cache is there to save
//! reads, not to hide a change the modal knows of). Bounded: a runaway host cannot grow state.

use crate::service::validation::wallet_prompts;

/// A sent transaction's receipt is asked for this often until it is mined...
pub const RECEIPT_POLL_MS: u64 = 1_500;
/// ...at most this many times (about 10 minutes), then the balance is simply left to its cache.
pub const RECEIPT_POLLS_MAX: u32 = 400;
/// Transactions watched at once; a host sending more drops the oldest watch.
pub const RECEIPTS_WATCHED_MAX: usize = 16;
/// Host requests tracked at once.
pub const HOST_REQUESTS_MAX: usize = 64;

/// Whether the modal wants to hear of a host request with this method: those that wait for the
/// visitor in the wallet, and raw transactions, whose mining changes the balance. The shell asks
/// this first, so a host polling reads costs the engine nothing.
pub fn watches_host_request(method: &str) -> bool {
    wallet_prompts(method) || method == "eth_sendRawTransaction"
}

/// A transaction hash: `0x` and 64 hex digits.
pub fn is_tx_hash(s: &str) -> bool {
    s.len() == 66 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// The JSON-RPC body asking for a receipt (`hash` checked by [`is_tx_hash`]: nothing to escape).
pub fn receipt_request_body(id: u64, hash: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"eth_getTransactionReceipt","params":["{hash}"]}}"#)
}

/// Whether a receipt answer says mined: a 2xx answer whose `result` is an object.
pub fn is_mined(status: u16, body: &str) -> bool {
    (200..300).contains(&status)
        && crate::service::json::parse(body).ok().is_some_and(|v| v.get("result").is_some_and(|r| matches!(r, crate::service::json::Value::Object(_))))
}

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
    /// (shell id, method) of requests under way.
    waiting: Vec<(u64, String)>,
    receipts: Vec<Watch>,
}

impl HostRequests {
    /// A host request reached the wallet.
    pub fn started(&mut self, id: u64, method: String) {
        if !watches_host_request(&method) || self.waiting.iter().any(|(i, _)| *i == id) {
            return;
        }
        if self.waiting.len() >= HOST_REQUESTS_MAX {
            self.waiting.remove(0);
        }
        self.waiting.push((id, method));
    }

    /// A host request ended. Returns the hash of a transaction now to be watched (sent on
    /// `network`, the connected chain), if any.
    pub fn ended(&mut self, id: u64, result: Option<&str>, failed: bool, network: Option<&str>) -> Option<String> {
        let pos = self.waiting.iter().position(|(i, _)| *i == id)?;
        let (_, method) = self.waiting.remove(pos);
        if failed || !matches!(method.as_str(), "eth_sendTransaction" | "eth_sendRawTransaction") {
            return None;
        }
        let hash = result.filter(|h| is_tx_hash(h))?.to_ascii_lowercase();
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
        self.waiting.iter().rev().map(|(_, m)| m.as_str()).find(|m| wallet_prompts(m))
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

    const HASH: &str = "0xABababababababababababababababababababababababababababababababab";

    #[test]
    fn only_wallet_prompts_and_sent_transactions_are_tracked() {
        let mut h = HostRequests::default();
        h.started(1, "eth_call".into());
        h.started(2, "eth_sendRawTransaction".into());
        assert_eq!(h.waiting_for_wallet(), None, "neither waits for the visitor");
        h.started(3, "personal_sign".into());
        assert_eq!(h.waiting_for_wallet(), Some("personal_sign"));
        assert_eq!(h.ended(3, Some(HASH), false, Some("eip155:1")), None, "a signature is not watched");
        assert_eq!(h.ended(2, Some(HASH), false, Some("eip155:1")).as_deref(), Some(HASH.to_ascii_lowercase().as_str()));
    }

    #[test]
    fn a_failed_or_malformed_send_is_not_watched() {
        let mut h = HostRequests::default();
        for (id, result, failed) in [(1, Some(HASH), true), (2, Some("0x12"), false), (3, None, false)] {
            h.started(id, "eth_sendTransaction".into());
            assert_eq!(h.ended(id, result, failed, Some("eip155:1")), None);
        }
        assert_eq!(h.poll(&HASH.to_ascii_lowercase()), None);
    }

    #[test]
    fn a_watch_is_polled_a_bounded_number_of_times() {
        let mut h = HostRequests::default();
        h.started(1, "eth_sendTransaction".into());
        let hash = h.ended(1, Some(HASH), false, Some("eip155:1")).unwrap();
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
            h.started(id, "eth_sendTransaction".into());
        }
        assert_eq!(h.waiting.len(), HOST_REQUESTS_MAX);
        for id in 936..1_000u64 {
            h.ended(id, Some(&format!("0x{id:064x}")), false, Some("eip155:1"));
        }
        assert_eq!(h.receipts.len(), RECEIPTS_WATCHED_MAX);
    }

    #[test]
    fn mined_means_a_receipt_object() {
        assert!(is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":{"status":"0x1"}}"#));
        assert!(!is_mined(200, r#"{"jsonrpc":"2.0","id":1,"result":null}"#));
        assert!(!is_mined(500, r#"{"result":{}}"#));
        assert!(!is_mined(200, "garbage"));
    }
}
