//! One-time codes (6 random digits, kept only as a salted hash, with an expiry and a try budget)
//! and the pending login codes per (project, email). The throttle of the code mails is
//! [`super::throttle`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::store::durable::{instant_to_wall, wall_ms, wall_to_instant, Durable, StoreError};
use super::table::{ClientTable, Lifetime, NoRoom};
use super::{hex, random_bytes, same_bytes, sha256, unhex};
use crate::client::Client;

/// Six random digits, uniform (rejection sampling over a `u32`).
pub fn new_code() -> String {
    const LIMIT: u32 = 4_294_000_000; // the largest multiple of 10^6 below 2^32
    loop {
        let n = u32::from_le_bytes(random_bytes());
        if n < LIMIT {
            return format!("{:06}", n % 1_000_000);
        }
    }
}

/// A code as the service keeps it: `sha256(pepper ‖ salt ‖ code)`, never the code itself.
#[derive(Debug, Clone)]
pub struct PendingCode {
    salt: [u8; 16],
    hash: [u8; 32],
    expires: Instant,
    wrong: u32,
    pub burned: bool,
}

/// The outcome of a try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Right,
    Wrong,
    /// The try budget is spent (this try was the last wrong one, or came after it).
    TooManyAttempts,
    Expired,
}

/// A code as a store keeps it (its salted hash, never the code).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredPending {
    salt: String,
    hash: String,
    expires_at_ms: u64,
    wrong: u32,
    burned: bool,
}

impl PendingCode {
    /// The code as a store keeps it.
    pub fn to_stored(&self) -> StoredPending {
        StoredPending { salt: hex(&self.salt), hash: hex(&self.hash), expires_at_ms: instant_to_wall(self.expires), wrong: self.wrong, burned: self.burned }
    }

    /// A code read back from a store (None when damaged).
    pub fn from_stored(s: &StoredPending) -> Option<PendingCode> {
        Some(PendingCode { salt: unhex(&s.salt)?, hash: unhex(&s.hash)?, expires: wall_to_instant(s.expires_at_ms), wrong: s.wrong, burned: s.burned })
    }

    pub fn new(pepper: &[u8; 32], code: &str, ttl: Duration) -> Self {
        let salt = random_bytes();
        PendingCode {
            hash: sha256(&[pepper, &salt, code.as_bytes()]),
            salt,
            expires: Instant::now() + ttl,
            wrong: 0,
            burned: false,
        }
    }

    pub fn expired(&self) -> bool {
        Instant::now() >= self.expires
    }

    /// Checks `code`; the `max_attempts`-th wrong try burns the code (a right one then fails too).
    pub fn check(&mut self, pepper: &[u8; 32], code: &str, max_attempts: u32) -> Check {
        if self.expired() {
            return Check::Expired;
        }
        if self.burned {
            return Check::TooManyAttempts;
        }
        if same_bytes(&sha256(&[pepper, &self.salt, code.as_bytes()]), &self.hash) {
            return Check::Right;
        }
        self.wrong += 1;
        if self.wrong >= max_attempts {
            self.burned = true;
            return Check::TooManyAttempts;
        }
        Check::Wrong
    }
}

/// A login code mailed for one (project, email), to be entered on the device that asked for it.
#[derive(Debug, Clone)]
struct LoginCode {
    device_id: String,
    code: PendingCode,
}

impl Lifetime for LoginCode {
    fn expired(&self, _now: Instant) -> bool {
        self.code.expired()
    }
}

/// The pending login codes, one per (project, email) (a new one replaces the old), each charged to
/// the client that asked for it ([`ClientTable`]). With a durable store every code and every wrong
/// try is written there before the answer: a restart neither loses a mailed code nor gives a
/// guesser a fresh try budget.
#[derive(Debug)]
pub struct Codes {
    inner: Mutex<ClientTable<(String, String), LoginCode>>,
    durable: Option<Arc<dyn Durable>>,
}

/// The store's kind of these entries.
const KIND: &str = "login-code";

/// A login code as the store keeps it (still only its salted hash).
#[derive(Serialize, Deserialize)]
struct StoredCode {
    device_id: String,
    client: String,
    #[serde(flatten)]
    code: StoredPending,
}

/// A login code's store body read back, charged to its client (None when damaged).
fn parse_code(body: &str) -> Option<(Client, LoginCode)> {
    let c = serde_json::from_str::<StoredCode>(body).ok()?;
    let code = PendingCode::from_stored(&c.code)?;
    Some((crate::client::from_stored(&c.client), LoginCode { device_id: c.device_id, code }))
}

/// Why a login code was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    Wrong,
    /// This wrong try was the last one: the code is burned now.
    Burned,
    /// The code was burned by earlier tries.
    TooManyAttempts,
    Expired,
    /// The durable store could not record the try (nothing was changed).
    Store,
}

fn key_of(project: &str, email: &str) -> (String, String) {
    (project.to_string(), email.to_string())
}

impl Codes {
    pub fn new(max: usize, max_per_client: usize) -> Self {
        Codes {
            inner: Mutex::new(ClientTable::new(max, max_per_client)),
            durable: None,
        }
    }

    /// The pending codes of a durable store: each read from it when it is tried; every change
    /// written there first.
    pub fn durable(max: usize, max_per_client: usize, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(Codes { inner: Mutex::new(ClientTable::new(max, max_per_client)), durable: Some(durable) })
    }

    /// The body (project, email)'s code has in the store.
    fn body(entry: &LoginCode, client: Client) -> Result<(u64, String), StoreError> {
        let stored = StoredCode { device_id: entry.device_id.clone(), client: client.to_string(), code: entry.code.to_stored() };
        let body = serde_json::to_string(&stored).map_err(|e| StoreError(format!("the wallet store could not write a code: {e}")))?;
        Ok((stored.code.expires_at_ms, body))
    }

    /// Writes (project, email)'s code to the durable store, if any.
    fn write(&self, project: &str, email: &str, entry: &LoginCode, client: Client) -> Result<(), StoreError> {
        let Some(d) = &self.durable else { return Ok(()) };
        let (at, body) = Self::body(entry, client)?;
        d.put_entry(KIND, &format!("{project}/{email}"), at, &body)
    }

    /// Writes (project, email)'s code (or its end: `None`) only if the store still holds `held`
    /// (another server process may have taken a try on it meanwhile): false when it did not.
    fn swap(&self, project: &str, email: &str, held: Option<&str>, next: Option<(&LoginCode, Client)>) -> Result<bool, StoreError> {
        let Some(d) = &self.durable else { return Ok(true) };
        let next = next.map(|(entry, client)| Self::body(entry, client)).transpose()?;
        d.swap_entry(KIND, &format!("{project}/{email}"), held, next.as_ref().map(|(at, b)| (*at, b.as_str())), wall_ms())
    }

    fn forget(&self, project: &str, email: &str) -> Result<(), StoreError> {
        match &self.durable {
            Some(d) => d.delete_entry(KIND, &format!("{project}/{email}")),
            None => Ok(()),
        }
    }

    /// Keeps `code` for (`project`, `email`), to be entered from `device_id`.
    pub fn insert(
        &self,
        project: &str,
        email: &str,
        device_id: &str,
        client: Client,
        code: PendingCode,
    ) -> Result<(), NoRoom> {
        let entry = LoginCode {
            device_id: device_id.to_string(),
            code,
        };
        let mut m = crate::wallet::table::lock(&self.inner);
        self.write(project, email, &entry, client).map_err(|_| NoRoom::Store)?;
        let inserted = m.insert(key_of(project, email), client, entry);
        if inserted.is_err() {
            let _ = self.forget(project, email);
        }
        inserted
    }

    pub fn remove(&self, project: &str, email: &str) {
        let mut m = crate::wallet::table::lock(&self.inner);
        // (A code the store still holds expires there with its time-to-live.)
        let _ = self.forget(project, email);
        m.remove(&key_of(project, email));
    }

    /// Checks a try from `device_id`; a right code is used up. A code entered on another device than
    /// the one it was mailed for is a wrong try; no code at all is a wrong one too.
    pub fn take(
        &self,
        pepper: &[u8; 32],
        project: &str,
        email: &str,
        device_id: &str,
        code: &str,
        max_attempts: u32,
    ) -> Result<(), Refused> {
        let k = key_of(project, email);
        let mut m = crate::wallet::table::lock(&self.inner);
        // With a durable store its entry is the truth (the code may have been mailed, or tried, by
        // another server process): read now, and changed below only if unchanged since.
        let held = match &self.durable {
            Some(d) => {
                let held = d.entry(KIND, &format!("{project}/{email}"), wall_ms()).map_err(|_| Refused::Store)?;
                m.refresh(k.clone(), held.as_deref(), parse_code);
                held
            }
            None => None,
        };
        let client = m.client_of(&k);
        let Some(entry) = m.get_mut(&k) else {
            return Err(Refused::Wrong);
        };
        let attempt = if entry.device_id == device_id {
            code
        } else {
            // Counts against the budget without ever matching.
            "wrong device"
        };
        let was_burned = entry.code.burned;
        let before = entry.code.clone();
        let checked = entry.code.check(pepper, attempt, max_attempts);
        // The try is durable before it is answered: a right code is used up there first (else a
        // restart would take it again), a wrong try is counted there first.
        let client = client.unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into());
        let written = match checked {
            Check::Right | Check::Expired => self.swap(project, email, held.as_deref(), None),
            Check::Wrong | Check::TooManyAttempts if entry.code.wrong != before.wrong || entry.code.burned != before.burned => {
                self.swap(project, email, held.as_deref(), Some((entry, client)))
            }
            _ => Ok(true),
        };
        if written != Ok(true) {
            // Not written (or another process's try came first): nothing is answered but 503,
            // and the next try reads the store again.
            entry.code = before;
            if self.durable.is_some() {
                m.remove(&k);
            }
            return Err(Refused::Store);
        }
        match checked {
            Check::Right => {
                m.remove(&k);
                Ok(())
            }
            Check::Wrong => Err(Refused::Wrong),
            Check::TooManyAttempts if was_burned => Err(Refused::TooManyAttempts),
            Check::TooManyAttempts => Err(Refused::Burned),
            Check::Expired => {
                m.remove(&k);
                Err(Refused::Expired)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_a_durable_store_a_mailed_code_and_its_wrong_tries_outlive_the_process() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("codes");
        let pepper = [3u8; 32];
        let ip: Client = std::net::Ipv4Addr::LOCALHOST.into();
        let codes = Codes::durable(10, 10, d.clone()).unwrap();
        codes.insert("p", "a@example.com", "dev", ip, PendingCode::new(&pepper, "111111", Duration::from_secs(600))).unwrap();
        codes.insert("p", "b@example.com", "dev", ip, PendingCode::new(&pepper, "222222", Duration::from_secs(600))).unwrap();
        assert_eq!(codes.take(&pepper, "p", "a@example.com", "dev", "000000", 3), Err(Refused::Wrong));
        assert_eq!(codes.take(&pepper, "p", "a@example.com", "dev", "000001", 3), Err(Refused::Wrong));
        // A restarted process: the third wrong try burns the code (no fresh budget).
        let codes = Codes::durable(10, 10, d.clone()).unwrap();
        assert_eq!(codes.take(&pepper, "p", "a@example.com", "dev", "000002", 3), Err(Refused::Burned));
        let codes = Codes::durable(10, 10, d.clone()).unwrap();
        assert_eq!(codes.take(&pepper, "p", "a@example.com", "dev", "111111", 3), Err(Refused::TooManyAttempts), "still burned");
        // The other code mailed before the restart is good once, and used up for the next process.
        assert_eq!(codes.take(&pepper, "p", "b@example.com", "dev", "222222", 3), Ok(()));
        let codes = Codes::durable(10, 10, d.clone()).unwrap();
        assert_eq!(codes.take(&pepper, "p", "b@example.com", "dev", "222222", 3), Err(Refused::Wrong));
        // The store keeps the hash only.
        let bodies = d.entries(KIND, 0).unwrap();
        assert!(bodies.iter().all(|(_, b)| !b.contains("111111") && !b.contains("222222")), "{bodies:?}");
    }

    #[test]
    fn codes_are_six_digits_and_vary() {
        let codes: Vec<String> = (0..50).map(|_| new_code()).collect();
        assert!(codes.iter().all(|c| super::super::validate::otp(c)));
        let distinct: std::collections::HashSet<_> = codes.iter().collect();
        assert!(distinct.len() > 40, "{codes:?}");
    }

    #[test]
    fn a_code_is_kept_hashed_and_burns_after_the_budget() {
        let pepper = [1u8; 32];
        let mut c = PendingCode::new(&pepper, "123456", Duration::from_secs(60));
        assert!(!format!("{c:?}").contains("123456"));
        assert_eq!(c.check(&pepper, "000000", 3), Check::Wrong);
        assert_eq!(c.check(&pepper, "000001", 3), Check::Wrong);
        assert_eq!(c.check(&pepper, "000002", 3), Check::TooManyAttempts);
        assert_eq!(c.check(&pepper, "123456", 3), Check::TooManyAttempts);
        let mut d = PendingCode::new(&pepper, "123456", Duration::from_secs(60));
        assert_eq!(d.check(&[2u8; 32], "123456", 3), Check::Wrong);
        assert_eq!(d.check(&pepper, "123456", 3), Check::Right);
        let mut e = PendingCode::new(&pepper, "123456", Duration::ZERO);
        assert_eq!(e.check(&pepper, "123456", 3), Check::Expired);
    }

    fn ip(n: u8) -> Client {
        std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n))
    }

    #[test]
    fn a_code_belongs_to_its_device_and_project_and_is_used_once() {
        let pepper = [1u8; 32];
        let codes = Codes::new(10, 10);
        let code = PendingCode::new(&pepper, "123456", Duration::from_secs(60));
        let dev = "device-aaaaaaaaaaaa";
        codes.insert("p1", "a@b.co", dev, ip(1), code).unwrap();
        let take = |project: &str, dev: &str, code: &str| {
            codes.take(&pepper, project, "a@b.co", dev, code, 5)
        };
        assert_eq!(take("p2", dev, "123456"), Err(Refused::Wrong));
        assert_eq!(
            take("p1", "device-bbbbbbbbbbbb", "123456"),
            Err(Refused::Wrong)
        );
        assert_eq!(take("p1", dev, "123456"), Ok(()));
        assert_eq!(take("p1", dev, "123456"), Err(Refused::Wrong));
    }

    #[test]
    fn the_try_that_burns_a_code_says_so_once() {
        let pepper = [1u8; 32];
        let codes = Codes::new(10, 10);
        let code = PendingCode::new(&pepper, "123456", Duration::from_secs(60));
        let dev = "device-aaaaaaaaaaaa";
        codes.insert("p", "a@b.co", dev, ip(1), code).unwrap();
        let take = |code: &str| codes.take(&pepper, "p", "a@b.co", dev, code, 2);
        assert_eq!(take("000000"), Err(Refused::Wrong));
        assert_eq!(take("000001"), Err(Refused::Burned));
        assert_eq!(take("123456"), Err(Refused::TooManyAttempts));
    }
}
