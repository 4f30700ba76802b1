//! Pending-transaction watching (spec sections 4, 9): polling every 30 000 ms by default (disabled
//! by default); watching stops once the count limit of 99 is reached. The count is the number of
//! polls made; at most 99 transactions are watched at once as well.

use crate::service::constants::{PENDING_TRANSACTIONS_LIMIT, PENDING_TX_POLL_ENABLED_BY_DEFAULT, PENDING_TX_POLL_MS};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingWatcher {
    pub enabled: bool,
    pub interval_ms: u64,
    watched: Vec<String>,
    polls: u32,
    next_poll_ms: Option<u64>,
}

impl Default for PendingWatcher {
    fn default() -> Self {
        Self::new(PENDING_TX_POLL_ENABLED_BY_DEFAULT, PENDING_TX_POLL_MS)
    }
}

impl PendingWatcher {
    pub fn new(enabled: bool, interval_ms: u64) -> Self {
        PendingWatcher { enabled, interval_ms: interval_ms.max(1), watched: vec![], polls: 0, next_poll_ms: None }
    }

    pub fn watched(&self) -> &[String] {
        &self.watched
    }

    pub fn polls(&self) -> u32 {
        self.polls
    }

    /// Watching has stopped because the limit was reached.
    pub fn stopped(&self) -> bool {
        self.polls >= PENDING_TRANSACTIONS_LIMIT
    }

    /// Watch a transaction hash. Returns false when disabled, stopped, already watched or 99 are
    /// already watched.
    pub fn watch(&mut self, hash: &str, now_ms: u64) -> bool {
        if !self.enabled
            || self.stopped()
            || self.watched.iter().any(|h| h == hash)
            || self.watched.len() >= PENDING_TRANSACTIONS_LIMIT as usize
        {
            return false;
        }
        self.watched.push(hash.to_string());
        if self.next_poll_ms.is_none() {
            self.next_poll_ms = Some(now_ms + self.interval_ms);
        }
        true
    }

    /// When to poll next.
    pub fn deadline(&self) -> Option<u64> {
        if self.watched.is_empty() || self.stopped() || !self.enabled {
            None
        } else {
            self.next_poll_ms
        }
    }

    /// If a poll is due, the hashes to check (and the poll is counted).
    pub fn tick(&mut self, now_ms: u64) -> Option<Vec<String>> {
        let due = self.deadline()?;
        if now_ms < due {
            return None;
        }
        self.polls += 1;
        self.next_poll_ms = if self.stopped() { None } else { Some(now_ms + self.interval_ms) };
        Some(self.watched.clone())
    }

    /// These transactions are no longer pending (mined or dropped).
    pub fn resolved(&mut self, hashes: &[String]) {
        self.watched.retain(|h| !hashes.contains(h));
        if self.watched.is_empty() {
            self.next_poll_ms = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_polling_disabled_by_default_every_30_s() {
        let mut w = PendingWatcher::default();
        assert!(!w.enabled);
        assert_eq!(w.interval_ms, 30_000);
        assert!(!w.watch("0x1", 0));
        assert_eq!(w.deadline(), None);
    }

    #[test]
    fn pending_watching_stops_at_99() {
        let mut w = PendingWatcher::new(true, 1_000);
        assert!(w.watch("0x1", 0));
        let mut now = 0;
        let mut polls = 0;
        while let Some(d) = w.deadline() {
            now = d;
            assert!(w.tick(now).is_some());
            polls += 1;
            assert!(polls <= 99);
        }
        assert_eq!(polls, 99);
        assert!(w.stopped());
        assert!(w.tick(now + 10_000).is_none());
        assert!(!w.watch("0x2", now));
    }

    #[test]
    fn at_most_99_transactions_watched() {
        let mut w = PendingWatcher::new(true, 1_000);
        for i in 0..99 {
            assert!(w.watch(&format!("0x{i}"), 0));
        }
        assert!(!w.watch("0xfull", 0));
        assert!(!w.watch("0x0", 0));
    }

    #[test]
    fn poll_due_only_at_interval_and_resolved_stop_polling() {
        let mut w = PendingWatcher::new(true, 30_000);
        w.watch("0xa", 1_000);
        assert_eq!(w.deadline(), Some(31_000));
        assert!(w.tick(30_999).is_none());
        assert_eq!(w.tick(31_000), Some(vec!["0xa".to_string()]));
        assert_eq!(w.deadline(), Some(61_000));
        w.resolved(&["0xa".to_string()]);
        assert_eq!(w.deadline(), None);
    }

    proptest::proptest! {
        #[test]
        fn watcher_never_panics(h in ".*", now in 0u64..u64::MAX / 4, interval in proptest::num::u64::ANY) {
            let mut w = PendingWatcher::new(true, interval % 1_000_000);
            let _ = w.watch(&h, now);
            let _ = w.tick(now + 2_000_000);
        }
    }
}
