//! A bounded in-memory table whose entries are charged to the client that made them
//! ([`crate::client`]): at most `max` entries in all, at most `max_per_client` per client.
//!
//! Making room never takes another client's live entry: expired entries go first, then the
//! requesting client's own oldest (when its kind of entry may be evicted at all, see
//! [`Lifetime::evictable`]). When that is not enough the request is refused: [`NoRoom::Client`]
//! (this client holds its share; 429) or [`NoRoom::Full`] (everyone's live entries fill the table;
//! 503). One client can thus never fill a table that others need.

use std::collections::HashMap;
use std::hash::Hash;

use tokio::time::Instant;

use crate::client::Client;

/// What a table needs to know about its entries.
/// Locks a table. The tables hold their lock while they ask the durable store, which may wait (a
/// database round trip, a slow database): a worker of the server's runtime that would wait here
/// announces it (`block_in_place`), so the runtime moves its other tasks to another thread and a
/// stalled store holds up only the requests that need it.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    if let Ok(g) = m.try_lock() {
        return g;
    }
    let wait = || m.lock().unwrap_or_else(|p| p.into_inner());
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(wait),
        _ => wait(),
    }
}

pub trait Lifetime {
    /// An expired entry is worth nothing: it is dropped whenever room is needed.
    fn expired(&self, now: Instant) -> bool;
    /// Whether its client's newer entries may push it out (a backoff record may not).
    fn evictable(&self) -> bool {
        true
    }
}

/// Why an entry could not be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRoom {
    /// The client holds its share of the table in entries that cannot be evicted.
    Client,
    /// The table is full of live entries.
    Full,
    /// The durable store could not keep the change (nothing was changed).
    Store,
}

#[derive(Debug)]
struct Slot<V> {
    value: V,
    client: Client,
    /// Insertion order: the lowest is the oldest.
    seq: u64,
}

#[derive(Debug)]
pub struct ClientTable<K, V> {
    map: HashMap<K, Slot<V>>,
    per_client: HashMap<Client, usize>,
    max: usize,
    max_per_client: usize,
    next: u64,
}

impl<K: Eq + Hash + Clone, V: Lifetime> ClientTable<K, V> {
    pub fn new(max: usize, max_per_client: usize) -> Self {
        ClientTable {
            map: HashMap::new(),
            per_client: HashMap::new(),
            max: max.max(1),
            max_per_client: max_per_client.max(1),
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Entries held by `client`.
    pub fn held_by(&self, client: Client) -> usize {
        self.per_client.get(&client).copied().unwrap_or(0)
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key).map(|s| &s.value)
    }

    /// The client `key`'s entry is charged to.
    pub fn client_of(&self, key: &K) -> Option<Client> {
        self.map.get(key).map(|s| s.client)
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.map.get_mut(key).map(|s| &mut s.value)
    }

    pub fn contains_key(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        let slot = self.map.remove(key)?;
        self.uncount(slot.client);
        Some(slot.value)
    }

    /// Keeps the entries for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        let per_client = &mut self.per_client;
        self.map.retain(|k, s| {
            let k2 = keep(k, &s.value);
            if !k2 {
                if let Some(n) = per_client.get_mut(&s.client) {
                    *n -= 1;
                    if *n == 0 {
                        per_client.remove(&s.client);
                    }
                }
            }
            k2
        });
    }

    /// Every entry (in no order).
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.map.iter().map(|(k, s)| (k, &s.value))
    }

    fn uncount(&mut self, client: Client) {
        if let Some(n) = self.per_client.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.per_client.remove(&client);
            }
        }
    }

    /// Makes `key`'s entry what a durable store holds (`held`, read from it now: the store is the
    /// truth when several server processes share it): replaced, or removed when the store has
    /// none (or one `parse` cannot read). A table without room keeps the store's entry out; the
    /// caller then sees none, as the store does not.
    pub fn refresh(&mut self, key: K, held: Option<&str>, parse: impl FnOnce(&str) -> Option<(Client, V)>) {
        match held.and_then(parse) {
            Some((client, value)) => {
                if self.insert(key.clone(), client, value).is_err() {
                    self.remove(&key);
                }
            }
            None => {
                self.remove(&key);
            }
        }
    }

    /// Adds (or replaces) `key`'s entry for `client`, making room as the module says. When there
    /// is none, an entry `key` had is kept as it was.
    pub fn insert(&mut self, key: K, client: Client, value: V) -> Result<(), NoRoom> {
        let previous = self.map.remove(&key);
        if let Some(p) = &previous {
            self.uncount(p.client);
        }
        match self.make_room(client) {
            Ok(()) => {
                self.put(key, client, value);
                Ok(())
            }
            Err(e) => {
                if let Some(p) = previous {
                    self.put(key, p.client, p.value);
                }
                Err(e)
            }
        }
    }

    fn put(&mut self, key: K, client: Client, value: V) {
        self.next += 1;
        *self.per_client.entry(client).or_insert(0) += 1;
        self.map.insert(
            key,
            Slot {
                value,
                client,
                seq: self.next,
            },
        );
    }

    /// Room for one more entry of `client`.
    fn make_room(&mut self, client: Client) -> Result<(), NoRoom> {
        let now = Instant::now();
        if self.held_by(client) >= self.max_per_client {
            self.retain(|_, v| !v.expired(now));
            if self.held_by(client) >= self.max_per_client {
                let oldest = self
                    .map
                    .iter()
                    .filter(|(_, s)| s.client == client && s.value.evictable())
                    .min_by_key(|(_, s)| s.seq)
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => {
                        self.remove(&k);
                    }
                    None => return Err(NoRoom::Client),
                }
            }
        }
        if self.map.len() >= self.max {
            self.retain(|_, v| !v.expired(now));
            if self.map.len() >= self.max {
                return Err(NoRoom::Full);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};
    use std::time::Duration;

    #[derive(Debug)]
    struct E {
        until: Instant,
        pinned: bool,
    }
    impl Lifetime for E {
        fn expired(&self, now: Instant) -> bool {
            now >= self.until
        }
        fn evictable(&self) -> bool {
            !self.pinned
        }
    }
    fn live() -> E {
        E {
            until: Instant::now() + Duration::from_secs(60),
            pinned: false,
        }
    }
    fn ip(n: u8) -> Client {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    #[test]
    fn a_client_over_its_share_evicts_its_own_oldest_never_anothers() {
        let mut t = ClientTable::new(10, 3);
        t.insert("victim", ip(1), live()).unwrap();
        for i in 0..100 {
            t.insert(format!("flood{i}").leak() as &str, ip(2), live())
                .unwrap();
        }
        assert_eq!(t.held_by(ip(2)), 3);
        assert!(t.get(&"victim").is_some());
        assert!(t.get(&"flood99").is_some() && t.get(&"flood96").is_none());
    }

    #[test]
    fn expired_entries_go_first_and_a_full_table_refuses() {
        let mut t = ClientTable::new(2, 2);
        t.insert(
            1,
            ip(1),
            E {
                until: Instant::now(),
                pinned: false,
            },
        )
        .unwrap();
        t.insert(2, ip(2), live()).unwrap();
        t.insert(3, ip(3), live()).unwrap();
        assert!(t.get(&1).is_none(), "the expired one made room");
        assert_eq!(t.insert(4, ip(4), live()), Err(NoRoom::Full));
        assert!(t.get(&2).is_some() && t.get(&3).is_some());
    }

    #[test]
    fn pinned_entries_are_not_evicted_the_client_is_refused() {
        let mut t = ClientTable::new(10, 2);
        let pinned = || E {
            until: Instant::now() + Duration::from_secs(60),
            pinned: true,
        };
        t.insert(1, ip(1), pinned()).unwrap();
        t.insert(2, ip(1), pinned()).unwrap();
        assert_eq!(t.insert(3, ip(1), live()), Err(NoRoom::Client));
        // Replacing an entry of its own needs no room.
        t.insert(2, ip(1), pinned()).unwrap();
        assert_eq!(t.len(), 2);
        // A refused replacement keeps the entry it would have replaced.
        t.insert(9, ip(2), pinned()).unwrap();
        t.insert(8, ip(2), pinned()).unwrap();
        assert_eq!(t.insert(1, ip(2), live()), Err(NoRoom::Client));
        assert!(t.get(&1).is_some_and(|e| e.pinned));
        assert_eq!(t.held_by(ip(1)), 2);
        t.remove(&9);
        t.remove(&8);
        t.remove(&1);
        assert_eq!(t.held_by(ip(1)), 1);
    }
}
