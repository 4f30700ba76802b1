//! Social logins in progress: the pending authorization requests (by `state`, 10 minutes) and the
//! one-time results the popup hands back (by token, 5 minutes). Both kept by the SHA-256 of their
//! key, bounded in all and per client ([`ClientTable`]), each under its own lock held for one
//! lookup or update. Both remember the device and project that started the sign-in: only that
//! device redeems the result, into that project's account.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::client::Client;
use crate::wallet::table::{ClientTable, Lifetime, NoRoom};
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
    /// The device that asked (`deviceId` of `GET /w/v1/social/uri`): the only one that may redeem
    /// the result.
    pub device_id: String,
    /// The project whose account the sign-in logs into.
    pub project_id: String,
    pub created: Instant,
    /// Its lifetime (the flows' `state_ttl`).
    pub ttl: Duration,
}

impl Lifetime for Pending {
    fn expired(&self, now: Instant) -> bool {
        now.duration_since(self.created) >= self.ttl
    }
}

/// Looking up a `state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Valid(Pending),
    Expired,
    Unknown,
}

/// A finished sign-in: who signed in, for which device and project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub identity: VerifiedIdentity,
    pub device_id: String,
    pub project_id: String,
    pub expires: Instant,
}

impl Lifetime for Outcome {
    fn expired(&self, now: Instant) -> bool {
        self.expires <= now
    }
}

#[derive(Debug)]
pub struct Flows {
    pending: Mutex<ClientTable<[u8; 32], Pending>>,
    results: Mutex<ClientTable<[u8; 32], Outcome>>,
    state_ttl: Duration,
    result_ttl: Duration,
}

impl Flows {
    pub fn new(
        state_ttl: Duration,
        result_ttl: Duration,
        max: usize,
        max_per_client: usize,
    ) -> Self {
        Flows {
            pending: Mutex::new(ClientTable::new(max, max_per_client)),
            results: Mutex::new(ClientTable::new(max, max_per_client)),
            state_ttl,
            result_ttl,
        }
    }

    /// Remembers `p` for `client` under a new random `state` (answered).
    pub fn start(&self, mut p: Pending, client: Client) -> Result<String, NoRoom> {
        let state = hex(&random_bytes::<32>());
        p.ttl = self.state_ttl;
        self.pending
            .lock()
            .unwrap()
            .insert(sha256(&[state.as_bytes()]), client, p)?;
        Ok(state)
    }

    /// Takes (forgets) the request of `state`: each `state` is answered once.
    pub fn take(&self, state: &str) -> Lookup {
        match self
            .pending
            .lock()
            .unwrap()
            .remove(&sha256(&[state.as_bytes()]))
        {
            Some(p) if !p.expired(Instant::now()) => Lookup::Valid(p),
            Some(_) => Lookup::Expired,
            None => Lookup::Unknown,
        }
    }

    /// A new one-time result token for `identity`, signed in by the request `p`, charged to
    /// `client` (the popup's).
    pub fn finish(
        &self,
        identity: VerifiedIdentity,
        p: &Pending,
        client: Client,
    ) -> Result<String, NoRoom> {
        let token = hex(&random_bytes::<32>());
        let outcome = Outcome {
            identity,
            device_id: p.device_id.clone(),
            project_id: p.project_id.clone(),
            expires: Instant::now() + self.result_ttl,
        };
        self.results
            .lock()
            .unwrap()
            .insert(sha256(&[token.as_bytes()]), client, outcome)?;
        Ok(token)
    }

    /// The outcome of a live result token, once (whoever redeems it: a result shown to another
    /// device is burned all the same).
    pub fn redeem(&self, token: &str) -> Option<Outcome> {
        let r = self
            .results
            .lock()
            .unwrap()
            .remove(&sha256(&[token.as_bytes()]))?;
        (r.expires > Instant::now()).then_some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};

    fn ip(n: u8) -> Client {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    fn pending() -> Pending {
        Pending {
            provider: "google",
            origin: "http://127.0.0.1:1".into(),
            code_verifier: "v".into(),
            nonce: "n".into(),
            device_id: "device-aaaaaaaaaaaaaaaa".into(),
            project_id: "demo-project".into(),
            created: Instant::now(),
            ttl: Duration::ZERO,
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
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 10, 10);
        let s = f.start(pending(), ip(1)).unwrap();
        assert!(crate::wallet::validate::token(&s));
        let Lookup::Valid(p) = f.take(&s) else {
            panic!("valid")
        };
        assert_eq!(p.device_id, "device-aaaaaaaaaaaaaaaa");
        assert_eq!(f.take(&s), Lookup::Unknown);
        let f = Flows::new(Duration::ZERO, Duration::from_secs(60), 10, 10);
        let s = f.start(pending(), ip(1)).unwrap();
        assert_eq!(f.take(&s), Lookup::Expired);
    }

    #[test]
    fn a_result_is_redeemed_once_with_its_device_and_project_and_expires() {
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 10, 10);
        let t = f.finish(identity(), &pending(), ip(1)).unwrap();
        let o = f.redeem(&t).unwrap();
        assert_eq!(o.identity, identity());
        assert_eq!(
            (o.device_id.as_str(), o.project_id.as_str()),
            ("device-aaaaaaaaaaaaaaaa", "demo-project")
        );
        assert_eq!(f.redeem(&t), None);
        let f = Flows::new(Duration::from_secs(60), Duration::ZERO, 10, 10);
        let t = f.finish(identity(), &pending(), ip(1)).unwrap();
        assert_eq!(f.redeem(&t), None);
    }

    #[test]
    fn full_tables_drop_expired_entries_first_and_a_flood_evicts_its_own() {
        let f = Flows::new(Duration::ZERO, Duration::ZERO, 1, 1);
        assert!(f.start(pending(), ip(1)).is_ok());
        assert!(
            f.start(pending(), ip(2)).is_ok(),
            "the expired one made room"
        );
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 3, 1);
        let victim = f.start(pending(), ip(1)).unwrap();
        for _ in 0..10 {
            f.start(pending(), ip(2)).unwrap();
        }
        assert!(matches!(f.take(&victim), Lookup::Valid(_)));
        let f = Flows::new(Duration::from_secs(60), Duration::from_secs(60), 1, 1);
        assert!(f.finish(identity(), &pending(), ip(1)).is_ok());
        assert_eq!(f.finish(identity(), &pending(), ip(2)), Err(NoRoom::Full));
    }
}
