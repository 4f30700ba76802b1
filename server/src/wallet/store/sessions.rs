//! Sessions: by the hash of their token, bounded per client and per account; written through to
//! the durable store when there is one, so a restart keeps visitors logged in.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use super::durable::{wall_ms, Durable, StoreError, StoredSession};
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

/// A session as the store keeps it, here: its client, and its expiry moved from the wall clock
/// (`wall`, read at `now`) to this process's.
fn from_stored(s: StoredSession, now: Instant, wall: u64) -> (Client, Session) {
    let client = crate::client::from_stored(&s.client);
    let session = Session {
        user_id: s.user_id,
        device_id: s.device_id,
        project_id: s.project_id,
        expires: now + Duration::from_millis(s.expires_at_ms.saturating_sub(wall)),
    };
    (client, session)
}

/// Sessions by the hash of their token (the token itself is only in the frame), charged to the
/// client that logged in ([`ClientTable`]), and at most `max_per_user` live ones per account (the
/// account's oldest is ended first).
#[derive(Debug)]
pub struct Sessions {
    inner: Mutex<ClientTable<[u8; 32], Session>>,
    max_per_user: usize,
    /// Where every new and ended session is written, when the service has a durable store.
    durable: Option<Arc<dyn Durable>>,
}

impl Sessions {
    pub fn new(max: usize, max_per_client: usize, max_per_user: usize) -> Self {
        Sessions {
            inner: Mutex::new(ClientTable::new(max, max_per_client)),
            max_per_user: max_per_user.max(1),
            durable: None,
        }
    }

    /// The sessions of a durable store: each read from it when a request carries its token (its
    /// expiry moved from the wall clock to this process's); every change written there first.
    pub fn durable(max: usize, max_per_client: usize, max_per_user: usize, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(Sessions { inner: Mutex::new(ClientTable::new(max, max_per_client)), max_per_user: max_per_user.max(1), durable: Some(durable) })
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
        let key = sha256(&[token.as_bytes()]);
        let now = Instant::now();
        let mut m = crate::wallet::table::lock(&self.inner);
        let mut mine: Vec<([u8; 32], Instant)> = m
            .iter()
            .filter(|(_, s)| s.user_id == user_id)
            .map(|(k, s)| (*k, s.expires))
            .collect();
        // Every session lives `ttl`: the one that expires first is the oldest.
        mine.sort_by_key(|(_, expires)| *expires);
        let live = mine.iter().filter(|(_, e)| *e > now).count();
        let mut over = (live + 1).saturating_sub(self.max_per_user);
        let mut ended = Vec::new();
        for (k, expires) in mine {
            if expires <= now {
                ended.push(k);
            } else if over > 0 && self.durable.is_none() {
                ended.push(k);
                over -= 1;
            }
        }
        if let Some(d) = &self.durable {
            // The account's sessions are counted in the store, whichever instance made them
            // (two logins of one account at the very same moment may both fit, once).
            let held = d.sessions_of(user_id, wall_ms()).map_err(|_| NoRoom::Store)?;
            let over = (held.len() + 1).saturating_sub(self.max_per_user);
            ended.extend(held.iter().take(over).map(|(k, _)| *k));
            // The new session is durable before its token is handed out; the ones it ends are
            // ended there first too (else a restart would bring them back).
            let stored = StoredSession {
                user_id: user_id.to_string(),
                device_id: device_id.to_string(),
                project_id: project_id.to_string(),
                client: client.to_string(),
                expires_at_ms: wall_ms().saturating_add(ttl.as_millis() as u64),
            };
            d.put_session(&key, &stored).map_err(|_| NoRoom::Store)?;
            if !ended.is_empty() && d.delete_sessions(&ended).is_err() {
                let _ = d.delete_sessions(&[key]);
                return Err(NoRoom::Store);
            }
        }
        for k in &ended {
            m.remove(k);
        }
        let session = Session {
            user_id: user_id.to_string(),
            device_id: device_id.to_string(),
            project_id: project_id.to_string(),
            expires: now + ttl,
        };
        if let Err(no_room) = m.insert(key, client, session) {
            // With a store this table is a cache: the session stands (the store holds it, and
            // the sessions it ended are ended). Without one, it is refused.
            if self.durable.is_none() {
                return Err(no_room);
            }
        }
        Ok(token)
    }

    /// The live session of `token`. With a durable store it is read there: a session made by
    /// another server process is good here, one it ended is not (a store that cannot be read is
    /// an error, not a signed-out visitor).
    pub fn get(&self, token: &str) -> Result<Option<Session>, StoreError> {
        let key = sha256(&[token.as_bytes()]);
        if let Some(d) = &self.durable {
            let (now, wall) = (Instant::now(), wall_ms());
            let held = d.session(&key, wall)?;
            let mut m = crate::wallet::table::lock(&self.inner);
            let Some(s) = held else {
                m.remove(&key);
                return Ok(None);
            };
            let (client, session) = from_stored(s, now, wall);
            if m.get(&key).is_none() {
                // (A table full here still lets the session in: the store holds it.)
                let _ = m.insert(key, client, session.clone());
            }
            return Ok(Some(session));
        }
        let mut m = crate::wallet::table::lock(&self.inner);
        Ok(match m.get(&key) {
            Some(s) if s.expires > Instant::now() => Some(s.clone()),
            Some(_) => {
                m.remove(&key);
                None
            }
            None => None,
        })
    }

    /// Ends the session of `token` (refused, and kept, when the durable store cannot end it: a
    /// logout that a restart would undo is no logout).
    pub fn revoke(&self, token: &str) -> Result<(), StoreError> {
        let key = sha256(&[token.as_bytes()]);
        let mut m = crate::wallet::table::lock(&self.inner);
        if let Some(d) = &self.durable {
            d.delete_sessions(&[key])?;
        }
        m.remove(&key);
        Ok(())
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
        let got = s.get(&t).unwrap().unwrap();
        assert_eq!((got.user_id.as_str(), got.project_id.as_str()), ("u", P));
        s.revoke(&t).unwrap();
        assert!(s.get(&t).unwrap().is_none());
        let t = s.create("u", "d", P, ip(1), Duration::ZERO).unwrap();
        assert!(s.get(&t).unwrap().is_none());
    }

    #[test]
    fn with_a_durable_store_sessions_outlive_the_table_and_ended_ones_stay_ended() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("sessions");
        let day = Duration::from_secs(86_400);
        let s = Sessions::durable(10, 10, 2, d.clone()).unwrap();
        let kept = s.create("u", "d", P, ip(1), day).unwrap();
        let revoked = s.create("u", "d", P, ip(1), day).unwrap();
        s.revoke(&revoked).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let second = s.create("u", "d", P, ip(1), day).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let third = s.create("u", "d", P, ip(1), day).unwrap();
        let short = s.create("v", "d", P, ip(2), Duration::from_millis(1)).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        // A new table on the same store (a restarted process).
        let again = Sessions::durable(10, 10, 2, d.clone()).unwrap();
        assert!(again.get(&kept).unwrap().is_none(), "the oldest was ended for the third, also in the store");
        assert!(again.get(&revoked).unwrap().is_none(), "a revoked session stays revoked");
        assert!(again.get(&short).unwrap().is_none(), "an expired one is not read back");
        let live = again.get(&third).unwrap().unwrap();
        assert_eq!((live.user_id.as_str(), live.device_id.as_str(), live.project_id.as_str()), ("u", "d", P));
        assert!(live.expires > Instant::now() + Duration::from_secs(86_000), "its expiry kept");
        assert!(again.get(&second).unwrap().is_some());
    }

    #[test]
    fn the_per_account_cap_counts_the_sessions_every_instance_made() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("sessions-cap");
        let day = Duration::from_secs(86_400);
        // Two processes' tables on one store, the account's cap 2.
        let (a, b) = (Sessions::durable(10, 10, 2, d.clone()).unwrap(), Sessions::durable(10, 10, 2, d.clone()).unwrap());
        let first = a.create("u", "d1", P, ip(1), day).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let second = b.create("u", "d2", P, ip(1), day).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let third = a.create("u", "d3", P, ip(1), day).unwrap();
        assert!(a.get(&first).unwrap().is_none() && b.get(&first).unwrap().is_none(), "the oldest made room, for both");
        assert!(a.get(&second).unwrap().is_some(), "B's session counts on A and is kept");
        assert!(b.get(&third).unwrap().is_some());
        assert_eq!(d.sessions_of("u", 0).unwrap().len(), 2);
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
        let live: Vec<bool> = mine.iter().map(|t| s.get(t).unwrap().is_some()).collect();
        assert_eq!(live, [false, false, true, true, true]);
        assert!(s.get(&other).unwrap().is_some());
    }
}
