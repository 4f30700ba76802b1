//! Social logins in progress: the pending authorization requests (by `state`, 10 minutes) and the
//! one-time results the popup hands back (by token, 5 minutes). Both kept by the SHA-256 of their
//! key, bounded, each under its own lock held for one lookup or update.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::wallet::{hex, random_bytes, sha256, VerifiedIdentity};

/// An authorization request sent to the provider, waiting for its callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// One of [`super::PROVIDERS`] (the client id).
    pub provider: &'static str,
    /// The embedding page's origin: the popup's result is posted to it only.
    pub origin: String,
    pub code_verifier: String,
    pub nonce: String,
    pub created: Instant,
}

/// Looking up a `state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Valid(Pending),
    Expired,
    Unknown,
}

#[derive(Debug)]
struct Outcome {
    identity: VerifiedIdentity,
    expires: Instant,
}

#[derive(Debug)]
pub struct Flows {
    pending: Mutex<HashMap<[u8; 32], Pending>>,
    results: Mutex<HashMap<[u8; 32], Outcome>>,
    state_ttl: Duration,
    result_ttl: Duration,
    max: usize,
}

impl Flows {
    pub fn new(state_ttl: Duration, result_ttl: Duration, max: usize) -> Self {
        Flows {
            pending: Mutex::new(HashMap::new()),
            results: Mutex::new(HashMap::new()),
            state_ttl,
            result_ttl,
            max,
        }
    }

    /// Remembers `p` under a new random `state` (answered). `None` when the table is full of live
    /// requests.
    pub fn start(&self, p: Pending) -> Option<String> {
        let state = hex(&random_bytes::<32>());
        let mut m = self.pending.lock().unwrap();
        if m.len() >= self.max {
            let ttl = self.state_ttl;
            m.retain(|_, p| p.created.elapsed() < ttl);
            if m.len() >= self.max {
                return None;
            }
        }
        m.insert(sha256(&[state.as_bytes()]), p);
        Some(state)
    }

    /// Takes (forgets) the request of `state`: each `state` is answered once.
    pub fn take(&self, state: &str) -> Lookup {
        match self
            .pending
            .lock()
            .unwrap()
            .remove(&sha256(&[state.as_bytes()]))
        {
            Some(p) if p.created.elapsed() < self.state_ttl => Lookup::Valid(p),
            Some(_) => Lookup::Expired,
            None => Lookup::Unknown,
        }
    }

    /// A new one-time result token for `identity`. `None` when the table is full.
    pub fn finish(&self, identity: VerifiedIdentity) -> Option<String> {
        let token = hex(&random_bytes::<32>());
        let mut m = self.results.lock().unwrap();
        if m.len() >= self.max {
            let now = Instant::now();
            m.retain(|_, r| r.expires > now);
            if m.len() >= self.max {
                return None;
            }
        }
        m.insert(
            sha256(&[token.as_bytes()]),
            Outcome {
                identity,
                expires: Instant::now() + self.result_ttl,
            },
        );
        Some(token)
    }

    /// The identity of a live result token, once.
    pub fn redeem(&self, token: &str) -> Option<VerifiedIdentity> {
        let r = self
            .results
            .lock()
            .unwrap()
            .remove(&sha256(&[token.as_bytes()]))?;
        (r.expires > Instant::now()).then_some(r.identity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending() -> Pending {
        Pending {
            provider: "google",
            origin: "http://127.0.0.1:1".into(),
            code_verifier: "v".into(),
            nonce: "n".into(),
            created: Instant::now(),
        }
    }

    fn identity() -> VerifiedIdentity {
        VerifiedIdentity {
            user_id: "google:alice".into(),
            email: None,
            user_name: None,
            social_provider: Some("google".into()),
        }
    }

    #[test]
    fn a_state_is_answered_once_and_expires() {
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 10);
        let p = pending();
        let s = f.start(p.clone()).unwrap();
        assert!(crate::wallet::validate::token(&s));
        assert_eq!(f.take(&s), Lookup::Valid(p));
        assert_eq!(f.take(&s), Lookup::Unknown);
        let f = Flows::new(Duration::ZERO, Duration::from_secs(60), 10);
        let s = f.start(pending()).unwrap();
        assert_eq!(f.take(&s), Lookup::Expired);
    }

    #[test]
    fn a_result_is_redeemed_once_and_expires() {
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 10);
        let t = f.finish(identity()).unwrap();
        assert_eq!(f.redeem(&t), Some(identity()));
        assert_eq!(f.redeem(&t), None);
        let f = Flows::new(Duration::from_secs(60), Duration::ZERO, 10);
        let t = f.finish(identity()).unwrap();
        assert_eq!(f.redeem(&t), None);
    }

    #[test]
    fn full_tables_drop_expired_entries_first() {
        let f = Flows::new(Duration::ZERO, Duration::ZERO, 1);
        assert!(f.start(pending()).is_some());
        assert!(f.start(pending()).is_some(), "the expired one made room");
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 1);
        assert!(f.start(pending()).is_some());
        assert!(f.start(pending()).is_none());
        assert!(f.finish(identity()).is_some());
        assert!(f.finish(identity()).is_none());
    }
}
