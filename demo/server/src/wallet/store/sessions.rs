//! Sessions: by the hash of their token, bounded per client and per account.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::client::Client;
use crate::wallet::table::{ClientTable, Lifetime, NoRoom};
use crate::wallet::{hex, random_bytes, sha256};

#[derive(Debug, Clone)]
pub struct Session {
    pub user_id: String,
    pub device_id: String,
    /// The project the session logged into (its account's).
    pub project_id: String,
    pub expires: Instant,
}

impl Lifetime for Session {
    fn expired(&self, now: Instant) -> bool {
        self.expires <= now
    }
}

/// Sessions by the hash of their token (the token itself is only in the frame), charged to the
/// client that logged in ([`ClientTable`]), and at most `max_per_user` live ones per account (the
/// account's oldest is ended first).
#[derive(Debug)]
pub struct Sessions {
    inner: Mutex<ClientTable<[u8; 32], Session>>,
    max_per_user: usize,
}

impl Sessions {
    pub fn new(max: usize, max_per_client: usize, max_per_user: usize) -> Self {
        Sessions {
            inner: Mutex::new(ClientTable::new(max, max_per_client)),
            max_per_user: max_per_user.max(1),
        }
    }

    /// A new session: its token (32 random bytes, hex).
    pub fn create(
        &self,
        user_id: &str,
        device_id: &str,
        project_id: &str,
        client: Client,
        ttl: Duration,
    ) -> Result<String, NoRoom> {
        let token = hex(&random_bytes::<32>());
        let now = Instant::now();
        let mut m = self.inner.lock().unwrap();
        let mut mine: Vec<([u8; 32], Instant)> = m
            .iter()
            .filter(|(_, s)| s.user_id == user_id)
            .map(|(k, s)| (*k, s.expires))
            .collect();
        // Every session lives `ttl`: the one that expires first is the oldest.
        mine.sort_by_key(|(_, expires)| *expires);
        let live = mine.iter().filter(|(_, e)| *e > now).count();
        let mut over = (live + 1).saturating_sub(self.max_per_user);
        for (k, expires) in mine {
            if expires <= now {
                m.remove(&k);
            } else if over > 0 {
                m.remove(&k);
                over -= 1;
            }
        }
        m.insert(
            sha256(&[token.as_bytes()]),
            client,
            Session {
                user_id: user_id.to_string(),
                device_id: device_id.to_string(),
                project_id: project_id.to_string(),
                expires: now + ttl,
            },
        )?;
        Ok(token)
    }

    /// The live session of `token`.
    pub fn get(&self, token: &str) -> Option<Session> {
        let key = sha256(&[token.as_bytes()]);
        let mut m = self.inner.lock().unwrap();
        match m.get(&key) {
            Some(s) if s.expires > Instant::now() => Some(s.clone()),
            Some(_) => {
                m.remove(&key);
                None
            }
            None => None,
        }
    }

    pub fn revoke(&self, token: &str) {
        self.inner
            .lock()
            .unwrap()
            .remove(&sha256(&[token.as_bytes()]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};

    const P: &str = "demo-project";

    fn ip(n: u8) -> Client {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    #[test]
    fn sessions_expire_and_are_revoked() {
        let s = Sessions::new(10, 10, 10);
        let t = s
            .create("u", "d", P, ip(1), Duration::from_secs(60))
            .unwrap();
        assert!(crate::wallet::validate::token(&t));
        let got = s.get(&t).unwrap();
        assert_eq!((got.user_id.as_str(), got.project_id.as_str()), ("u", P));
        s.revoke(&t);
        assert!(s.get(&t).is_none());
        let t = s.create("u", "d", P, ip(1), Duration::ZERO).unwrap();
        assert!(s.get(&t).is_none());
    }

    #[test]
    fn a_user_keeps_at_most_its_newest_sessions() {
        let s = Sessions::new(100, 100, 3);
        let day = Duration::from_secs(86_400);
        let other = s.create("other", "d", P, ip(1), day).unwrap();
        let mut mine = Vec::new();
        for _ in 0..5 {
            mine.push(s.create("u", "d", P, ip(1), day).unwrap());
            std::thread::sleep(Duration::from_millis(2));
        }
        let live: Vec<bool> = mine.iter().map(|t| s.get(t).is_some()).collect();
        assert_eq!(live, [false, false, true, true, true]);
        assert!(s.get(&other).is_some());
    }
}
