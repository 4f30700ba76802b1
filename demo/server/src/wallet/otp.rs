//! One-time codes (6 random digits, kept only as a salted hash, with an expiry and a try budget),
//! the pending login codes per email, and the per-email throttle of the code mails.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use super::{random_bytes, same_bytes, sha256};

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
    burned: bool,
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

impl PendingCode {
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

/// A login code mailed for one email, to be entered on the device that asked for it.
#[derive(Debug, Clone)]
struct LoginCode {
    device_id: String,
    code: PendingCode,
}

/// The pending login codes, one per email (a new one replaces the old).
#[derive(Debug)]
pub struct Codes {
    inner: Mutex<HashMap<String, LoginCode>>,
    max: usize,
}

/// Why a login code was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    Wrong,
    TooManyAttempts,
    Expired,
}

impl Codes {
    pub fn new(max: usize) -> Self {
        Codes {
            inner: Mutex::new(HashMap::new()),
            max,
        }
    }

    /// Keeps `code` for `email`, entered from `device_id`. `false` when the table is full.
    pub fn insert(&self, email: &str, device_id: &str, code: PendingCode) -> bool {
        let mut m = self.inner.lock().unwrap();
        if m.len() >= self.max && !m.contains_key(email) {
            m.retain(|_, c| !c.code.expired());
            if m.len() >= self.max {
                return false;
            }
        }
        m.insert(
            email.to_string(),
            LoginCode {
                device_id: device_id.to_string(),
                code,
            },
        );
        true
    }

    pub fn remove(&self, email: &str) {
        self.inner.lock().unwrap().remove(email);
    }

    /// Checks a try from `device_id`; a right code is used up. A code entered on another device than
    /// the one it was mailed for is a wrong try; no code at all is a wrong one too.
    pub fn take(
        &self,
        pepper: &[u8; 32],
        email: &str,
        device_id: &str,
        code: &str,
        max_attempts: u32,
    ) -> Result<(), Refused> {
        let mut m = self.inner.lock().unwrap();
        let Some(entry) = m.get_mut(email) else {
            return Err(Refused::Wrong);
        };
        let attempt = if entry.device_id == device_id {
            code
        } else {
            // Counts against the budget without ever matching.
            "wrong device"
        };
        match entry.code.check(pepper, attempt, max_attempts) {
            Check::Right => {
                m.remove(email);
                Ok(())
            }
            Check::Wrong => Err(Refused::Wrong),
            Check::TooManyAttempts => Err(Refused::TooManyAttempts),
            Check::Expired => {
                m.remove(email);
                Err(Refused::Expired)
            }
        }
    }
}

/// At most one code mail per email in each window.
#[derive(Debug)]
pub struct Throttle {
    last: Mutex<HashMap<String, Instant>>,
    window: Duration,
    max: usize,
}

/// Seconds to wait, rounded up (at least 1).
fn seconds_left(d: Duration) -> u64 {
    d.as_millis().div_ceil(1000).max(1) as u64
}

impl Throttle {
    pub fn new(window: Duration, max: usize) -> Self {
        Throttle {
            last: Mutex::new(HashMap::new()),
            window,
            max,
        }
    }

    /// Takes `key`'s slot now, or says how many seconds are left (`Err(None)`: the table is full).
    pub fn take(&self, key: &str) -> Result<(), Option<u64>> {
        let now = Instant::now();
        let mut m = self.last.lock().unwrap();
        if let Some(&at) = m.get(key) {
            let since = now.duration_since(at);
            if since < self.window {
                return Err(Some(seconds_left(self.window - since)));
            }
        }
        if m.len() >= self.max && !m.contains_key(key) {
            let window = self.window;
            m.retain(|_, at| now.duration_since(*at) < window);
            if m.len() >= self.max {
                return Err(None);
            }
        }
        m.insert(key.to_string(), now);
        Ok(())
    }

    /// Gives the slot back (the mail could not be sent).
    pub fn release(&self, key: &str) {
        self.last.lock().unwrap().remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_code_belongs_to_its_device_and_is_used_once() {
        let pepper = [1u8; 32];
        let codes = Codes::new(10);
        let code = PendingCode::new(&pepper, "123456", Duration::from_secs(60));
        assert!(codes.insert("a@b.co", "device-aaaaaaaaaaaa", code));
        let take = |dev: &str, code: &str| codes.take(&pepper, "a@b.co", dev, code, 5);
        assert_eq!(take("device-bbbbbbbbbbbb", "123456"), Err(Refused::Wrong));
        assert_eq!(take("device-aaaaaaaaaaaa", "123456"), Ok(()));
        assert_eq!(take("device-aaaaaaaaaaaa", "123456"), Err(Refused::Wrong));
    }

    #[test]
    fn throttle_says_the_seconds_left() {
        let t = Throttle::new(Duration::from_secs(30), 2);
        assert_eq!(t.take("a"), Ok(()));
        assert_eq!(t.take("a"), Err(Some(30)));
        assert_eq!(t.take("b"), Ok(()));
        assert_eq!(t.take("c"), Err(None));
        t.release("a");
        assert_eq!(t.take("a"), Ok(()));
        assert_eq!(seconds_left(Duration::from_millis(29_001)), 30);
        assert_eq!(seconds_left(Duration::from_millis(1)), 1);
    }
}
