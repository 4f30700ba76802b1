//! Unit tests of `host_requests`.

use super::*;
fn evm() -> &'static dyn Family {
    crate::chain::family::host_requests("eip155").unwrap()
}

const HASH: &str = "0xABababababababababababababababababababababababababababababababab";

#[test]
fn only_wallet_prompts_and_sent_transactions_are_tracked() {
    let mut h = HostRequests::default();
    h.started(evm(), 1, "eth_call".into());
    h.started(evm(), 2, "eth_sendRawTransaction".into());
    assert_eq!(h.waiting_for_wallet(), None, "neither waits for the visitor");
    h.started(evm(), 3, "personal_sign".into());
    assert_eq!(h.waiting_for_wallet(), Some("personal_sign"));
    assert_eq!(h.ended(evm(), 3, Some(HASH), false, Some("eip155:1")), None, "a signature is not watched");
    assert_eq!(h.ended(evm(), 2, Some(HASH), false, Some("eip155:1")).as_deref(), Some(HASH.to_ascii_lowercase().as_str()));
}

#[test]
fn a_failed_or_malformed_send_is_not_watched() {
    let mut h = HostRequests::default();
    for (id, result, failed) in [(1, Some(HASH), true), (2, Some("0x12"), false), (3, None, false)] {
        h.started(evm(), id, "eth_sendTransaction".into());
        assert_eq!(h.ended(evm(), id, result, failed, Some("eip155:1")), None);
    }
    assert_eq!(h.poll(&HASH.to_ascii_lowercase()), None);
}

#[test]
fn a_watch_is_polled_a_bounded_number_of_times() {
    let mut h = HostRequests::default();
    h.started(evm(), 1, "eth_sendTransaction".into());
    let hash = h.ended(evm(), 1, Some(HASH), false, Some("eip155:1")).unwrap();
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
        h.started(evm(), id, "eth_sendTransaction".into());
    }
    assert_eq!(h.waiting.len(), HOST_REQUESTS_MAX);
    for id in 936..1_000u64 {
        h.ended(evm(), id, Some(&format!("0x{id:064x}")), false, Some("eip155:1"));
    }
    assert_eq!(h.receipts.len(), RECEIPTS_WATCHED_MAX);
}
