//! What must survive a restart of the wallet service: the accounts (identities, devices, the key
//! ciphertext and address) and the key-encryption keys, behind one trait ([`Durable`]) with two
//! implementations: an SQLite file ([`sqlite`], the embedded default: no setup) and a PostgreSQL
//! database ([`postgres`], chosen by a `postgres://` URL, migrated at start). A write is durable
//! before the request that made it is answered.
//!
//! The keys are kept in a table of their own, each sealed under the server's master key
//! ([`Sealer`]: ChaCha20-Poly1305, a random nonce, the account's id as associated data, so a sealed
//! key moved to another account does not open); the master key comes from the configuration, never
//! from the store (README, "Run the services": put it in a KMS or a secret store). A check value
//! sealed when the store is made refuses a wrong master key at start, before any key is stored.
//!
//! The store is the truth; the in-memory tables are its cache. Every request reads what it decides
//! on from the store (an account by identity, a session by its token's hash, a code, a mail slot,
//! an approval link), and the writes that decide are conditional ([`Durable::swap_entry`],
//! [`Durable::create_account`], [`Durable::update_account`]): several server processes on one
//! PostgreSQL database serve the same visitors, and a throttle cannot be bypassed by alternating
//! between them. A change that cannot be written is refused (the request fails, nothing is
//! half-kept). An SQLite file is one machine's store: one server process uses it at a time (a lock
//! file held by the process).

pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};

use super::Account;
use crate::wallet::random_bytes;

/// The schema both stores read and write (1: accounts and keys; 2: sessions; 3: short-lived
/// entries: login codes and mail throttles; 4: each identity's account, one account per identity
/// across every process sharing the store).
pub const SCHEMA: i32 = 5;

/// A session as the store keeps it (by the hash of its token; the token itself is only in the
/// frame): its expiry on the wall clock, the client it is charged to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredSession {
    pub user_id: String,
    pub device_id: String,
    pub project_id: String,
    pub client: String,
    /// Unix time, milliseconds.
    pub expires_at_ms: u64,
}

/// Why the store cannot be used (never holds a key or the master key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The wallet service's durable store.
pub trait Durable: Send + Sync + std::fmt::Debug {
    /// Writes an account (made or changed).
    fn put_account(&self, a: &Account) -> Result<(), StoreError>;
    /// Every account.
    fn accounts(&self) -> Result<Vec<Account>, StoreError>;
    /// Writes an account's key-encryption key, sealed under the master key, when it has none;
    /// answers the key it holds (a key is never replaced: when two writers race, or a write is
    /// repeated, every one gets the first key).
    fn put_kek(&self, user_id: &str, kek: &[u8; 32]) -> Result<[u8; 32], StoreError>;
    /// Every key-encryption key, opened with the master key.
    fn keks(&self) -> Result<Vec<(String, [u8; 32])>, StoreError>;
    /// Answers when the store can be used now (`/readyz`).
    fn ping(&self) -> Result<(), StoreError>;
    /// Writes a session (by its token's hash).
    fn put_session(&self, key: &[u8; 32], s: &StoredSession) -> Result<(), StoreError>;
    /// Ends sessions (revoked, or the account's oldest ended for a new one).
    fn delete_sessions(&self, keys: &[[u8; 32]]) -> Result<(), StoreError>;
    /// One account's sessions still live at `now_ms`, those expiring first first (the
    /// per-account cap counts them across every instance).
    fn sessions_of(&self, user_id: &str, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError>;
    /// The sessions still live at `now_ms` (those expired are deleted).
    fn sessions(&self, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError>;
    /// Writes a short-lived entry of `kind` (a login code, an address's mail throttle): `body`
    /// (JSON) until `expires_at_ms`.
    fn put_entry(&self, kind: &str, key: &str, expires_at_ms: u64, body: &str) -> Result<(), StoreError>;
    fn delete_entry(&self, kind: &str, key: &str) -> Result<(), StoreError>;
    /// The entries of `kind` still live at `now_ms`, `(key, body)` (those expired are deleted).
    fn entries(&self, kind: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError>;
    /// The entries of `kind` whose key starts with `prefix`, still live at `now_ms` (an address's
    /// sign-in sessions: keys `{address}|{id}`), `(key, body)` in key order.
    fn entries_under(&self, kind: &str, prefix: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError>;
    /// Deletes every entry and session that expired by `now_ms` (dead already: no read answers
    /// them); how many.
    fn purge_expired(&self, now_ms: u64) -> Result<u64, StoreError>;

    // Point reads and conditional writes: what lets several server processes share one store
    // (each request reads what it decides on from here, not from its process's memory).

    /// One account.
    fn account(&self, user_id: &str) -> Result<Option<Account>, StoreError>;
    /// The account `identity` logs into.
    fn account_of(&self, identity: &str) -> Result<Option<Account>, StoreError>;
    /// Makes account `a` unless one of its identities already has an account: then answers that
    /// one and writes nothing (two processes making the first login's account at once end with
    /// one account).
    fn create_account(&self, a: &Account) -> Result<Account, StoreError>;
    /// Changes one account in place: `change` gets the account as the store holds it now (no
    /// other process changes it meanwhile) and answers whether to write it. The account as it is
    /// after, or None when there is none. A change that gives the account an identity another
    /// account holds is refused ([`identity_taken`]).
    fn update_account(&self, user_id: &str, change: &mut (dyn FnMut(&mut Account) -> bool + Send)) -> Result<Option<Account>, StoreError>;
    /// One account's key-encryption key, opened.
    fn kek(&self, user_id: &str) -> Result<Option<[u8; 32]>, StoreError>;
    /// One session, if still live at `now_ms`.
    fn session(&self, key: &[u8; 32], now_ms: u64) -> Result<Option<StoredSession>, StoreError>;
    /// One entry's body, if still live at `now_ms`.
    fn entry(&self, kind: &str, key: &str, now_ms: u64) -> Result<Option<String>, StoreError>;
    /// Replaces entry (`kind`, `key`) with `next` (`(expires_at_ms, body)`, or `None` to delete
    /// it) only if it holds `expected` now (`None`: no live entry; an expired one counts as
    /// none). False, with nothing written, when another process changed it first.
    fn swap_entry(&self, kind: &str, key: &str, expected: Option<&str>, next: Option<(u64, &str)>, now_ms: u64) -> Result<bool, StoreError>;
}

/// Unix time now, in milliseconds.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A process instant as wall-clock milliseconds (what a store keeps), and back.
pub fn instant_to_wall(at: tokio::time::Instant) -> u64 {
    let now = tokio::time::Instant::now();
    let wall = wall_ms();
    if at >= now {
        wall.saturating_add((at - now).as_millis() as u64)
    } else {
        wall.saturating_sub((now - at).as_millis() as u64)
    }
}

pub fn wall_to_instant(ms: u64) -> tokio::time::Instant {
    let now = tokio::time::Instant::now();
    let wall = wall_ms();
    if ms >= wall {
        now + std::time::Duration::from_millis(ms - wall)
    } else {
        now.checked_sub(std::time::Duration::from_millis(wall - ms)).unwrap_or(now)
    }
}

/// A session's body as stored (JSON), read back.
pub(crate) fn session_from(key: &[u8], body: &str) -> Result<([u8; 32], StoredSession), StoreError> {
    let key: [u8; 32] = key.try_into().map_err(|_| StoreError("the wallet store holds a session key it cannot read".into()))?;
    let s = serde_json::from_str(body).map_err(|e| StoreError(format!("the wallet store holds a session it cannot read: {e}")))?;
    Ok((key, s))
}

/// Where the store is: `sqlite:PATH` or `postgres://…` (`--store`).
#[derive(Clone, PartialEq, Eq)]
pub enum StoreUrl {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl StoreUrl {
    /// `sqlite:PATH` or a `postgres://` / `postgresql://` URL.
    pub fn parse(text: &str) -> Result<StoreUrl, String> {
        if let Some(path) = text.strip_prefix("sqlite:").filter(|p| !p.is_empty()) {
            return Ok(StoreUrl::Sqlite(path.into()));
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(StoreUrl::Postgres(text.to_string()));
        }
        Err("--store must be sqlite:PATH or a postgres:// URL".into())
    }
}

impl std::fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreUrl::Sqlite(p) => write!(f, "sqlite:{}", p.display()),
            // (Never the URL: it may carry the database's password.)
            StoreUrl::Postgres(_) => f.write_str("postgres://<redacted>"),
        }
    }
}

/// Opens the store at `url`, migrated, its keys checked against `master`.
pub fn open(url: &StoreUrl, master: &[u8; 32]) -> Result<Arc<Counted>, StoreError> {
    Ok(Arc::new(match url {
        StoreUrl::Sqlite(path) => Counted::new(Arc::new(sqlite::Sqlite::open(path, master)?), "sqlite"),
        StoreUrl::Postgres(url) => Counted::new(Arc::new(postgres::Postgres::open(url, master)?), "postgres"),
    }))
}

/// A store that counts its failed calls (`wm_store_errors_total` in `/metrics`).
#[derive(Debug)]
pub struct Counted {
    inner: Arc<dyn Durable>,
    /// `sqlite` or `postgres`.
    pub kind: &'static str,
    errors: std::sync::atomic::AtomicU64,
}

impl Counted {
    pub fn new(inner: Arc<dyn Durable>, kind: &'static str) -> Counted {
        Counted { inner, kind, errors: Default::default() }
    }

    /// Calls that failed since start.
    pub fn errors(&self) -> u64 {
        self.errors.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn count<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        if r.is_err() {
            self.errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        r
    }
}

impl Durable for Counted {
    fn put_account(&self, a: &Account) -> Result<(), StoreError> {
        self.count(self.inner.put_account(a))
    }
    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        self.count(self.inner.accounts())
    }
    fn put_kek(&self, user_id: &str, kek: &[u8; 32]) -> Result<[u8; 32], StoreError> {
        self.count(self.inner.put_kek(user_id, kek))
    }
    fn keks(&self) -> Result<Vec<(String, [u8; 32])>, StoreError> {
        self.count(self.inner.keks())
    }
    fn ping(&self) -> Result<(), StoreError> {
        self.count(self.inner.ping())
    }
    fn put_session(&self, key: &[u8; 32], s: &StoredSession) -> Result<(), StoreError> {
        self.count(self.inner.put_session(key, s))
    }
    fn delete_sessions(&self, keys: &[[u8; 32]]) -> Result<(), StoreError> {
        self.count(self.inner.delete_sessions(keys))
    }
    fn sessions(&self, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        self.count(self.inner.sessions(now_ms))
    }
    fn put_entry(&self, kind: &str, key: &str, expires_at_ms: u64, body: &str) -> Result<(), StoreError> {
        self.count(self.inner.put_entry(kind, key, expires_at_ms, body))
    }
    fn delete_entry(&self, kind: &str, key: &str) -> Result<(), StoreError> {
        self.count(self.inner.delete_entry(kind, key))
    }
    fn entries(&self, kind: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        self.count(self.inner.entries(kind, now_ms))
    }
    fn entries_under(&self, kind: &str, prefix: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        self.count(self.inner.entries_under(kind, prefix, now_ms))
    }
    fn purge_expired(&self, now_ms: u64) -> Result<u64, StoreError> {
        self.count(self.inner.purge_expired(now_ms))
    }
    fn sessions_of(&self, user_id: &str, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        self.count(self.inner.sessions_of(user_id, now_ms))
    }
    fn account(&self, user_id: &str) -> Result<Option<Account>, StoreError> {
        self.count(self.inner.account(user_id))
    }
    fn account_of(&self, identity: &str) -> Result<Option<Account>, StoreError> {
        self.count(self.inner.account_of(identity))
    }
    fn create_account(&self, a: &Account) -> Result<Account, StoreError> {
        self.count(self.inner.create_account(a))
    }
    fn update_account(&self, user_id: &str, change: &mut (dyn FnMut(&mut Account) -> bool + Send)) -> Result<Option<Account>, StoreError> {
        self.count(self.inner.update_account(user_id, change))
    }
    fn kek(&self, user_id: &str) -> Result<Option<[u8; 32]>, StoreError> {
        self.count(self.inner.kek(user_id))
    }
    fn session(&self, key: &[u8; 32], now_ms: u64) -> Result<Option<StoredSession>, StoreError> {
        self.count(self.inner.session(key, now_ms))
    }
    fn entry(&self, kind: &str, key: &str, now_ms: u64) -> Result<Option<String>, StoreError> {
        self.count(self.inner.entry(kind, key, now_ms))
    }
    fn swap_entry(&self, kind: &str, key: &str, expected: Option<&str>, next: Option<(u64, &str)>, now_ms: u64) -> Result<bool, StoreError> {
        self.count(self.inner.swap_entry(kind, key, expected, next, now_ms))
    }
}

/// An account's body as stored (JSON), and back.
pub(crate) fn account_body(a: &Account) -> Result<String, StoreError> {
    serde_json::to_string(a).map_err(|e| StoreError(format!("the wallet store could not write an account: {e}")))
}

pub(crate) fn account_from(body: &str) -> Result<Account, StoreError> {
    serde_json::from_str(body).map_err(|e| StoreError(format!("the wallet store holds an account it cannot read: {e}")))
}

/// The error of an account write whose identity another account holds.
pub(crate) fn identity_taken() -> StoreError {
    StoreError("the wallet store holds another account for one of this account's identities".into())
}

/// Seals and opens values under the master key.
pub struct Sealer(ChaCha20Poly1305);

/// What is sealed when a store is made, to know the master key again.
const CHECK: &[u8] = b"wallet-modal master key check";
/// Its associated data (no account id has a `:`-free prefix like this one).
const CHECK_AAD: &[u8] = b"meta:master";

fn wrong_master() -> StoreError {
    StoreError("the master key does not open the wallet store's keys (the wrong key, or a damaged store)".into())
}

impl Sealer {
    pub fn new(master: &[u8; 32]) -> Sealer {
        Sealer(ChaCha20Poly1305::new(&Key::from(*master)))
    }

    /// `(nonce, sealed)` of `msg`, bound to `aad`.
    pub fn seal(&self, aad: &[u8], msg: &[u8]) -> Result<([u8; 12], Vec<u8>), StoreError> {
        let nonce: [u8; 12] = random_bytes();
        let sealed = self.0.encrypt(&Nonce::from(nonce), Payload { msg, aad }).map_err(|_| StoreError("the wallet store could not seal a key".into()))?;
        Ok((nonce, sealed))
    }

    /// The value sealed with `nonce` under `aad`; the wrong master key (or a value moved, or
    /// damaged) is refused.
    pub fn open(&self, aad: &[u8], nonce: &[u8], sealed: &[u8]) -> Result<Vec<u8>, StoreError> {
        let nonce: [u8; 12] = nonce.try_into().map_err(|_| wrong_master())?;
        self.0.decrypt(&Nonce::from(nonce), Payload { msg: sealed, aad }).map_err(|_| wrong_master())
    }

    /// A key-encryption key stored for `user_id`, opened.
    pub fn open_kek(&self, user_id: &str, nonce: &[u8], sealed: &[u8]) -> Result<[u8; 32], StoreError> {
        self.open(user_id.as_bytes(), nonce, sealed)?.try_into().map_err(|_| wrong_master())
    }

    /// Checks the store's check value (`held`) against the master key; when the store has none
    /// yet, the one to write (the caller checks the stored keys first, so a store made before its
    /// check value gets one only under the master key that opens them).
    pub fn check(&self, held: Option<(Vec<u8>, Vec<u8>)>) -> Result<Option<([u8; 12], Vec<u8>)>, StoreError> {
        match held {
            Some((nonce, sealed)) => match self.open(CHECK_AAD, &nonce, &sealed)? {
                plain if plain == CHECK => Ok(None),
                _ => Err(wrong_master()),
            },
            None => Ok(Some(self.seal(CHECK_AAD, CHECK)?)),
        }
    }
}

/// The contract both stores keep, run on each by its own tests.
#[cfg(test)]
pub(crate) mod contract {
    use super::*;
    use std::collections::HashSet;

    /// A new SQLite store in a temporary folder of its own (`name`, this process).
    /// The folder is removed when its handle drops: keep it while the store is used.
    pub fn temp_sqlite(name: &str) -> (crate::testing::TempDir, Arc<dyn Durable>) {
        let dir = crate::testing::TempDir::new(&format!("store-{name}"));
        let store = Arc::new(sqlite::Sqlite::open(&dir.join("w.sqlite"), &[1u8; 32]).unwrap());
        (dir, store)
    }

    pub fn account(id: &str) -> Account {
        Account {
            user_id: id.into(),
            project_id: "p".into(),
            identities: vec![format!("p/email:{id}@example.com")],
            email: Some(format!("{id}@example.com")),
            user_name: None,
            social_provider: None,
            key_ciphertext: Some("AAAA".into()),
            address: Some("0x52908400098527886E0F7030069857D2E4169EE7".into()),
            devices: HashSet::from(["dev-1".to_string()]),
        }
    }

    /// Accounts and keys written are read back after the store is opened again (`open` opens the
    /// same store each time, with the master key given).
    pub fn written_is_read_back(open: &dyn Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError>) {
        let master = [7u8; 32];
        {
            let d = open(&master).unwrap();
            d.put_account(&account("a")).unwrap();
            let mut changed = account("a");
            changed.email = Some("new@example.com".into());
            d.put_account(&changed).unwrap();
            assert_eq!(d.put_kek("a", &[9u8; 32]).unwrap(), [9u8; 32]);
            assert_eq!(d.put_kek("a", &[1u8; 32]).unwrap(), [9u8; 32], "a key is never replaced");
            d.ping().unwrap();
        }
        let d = open(&master).unwrap();
        let accounts = d.accounts().unwrap();
        assert_eq!(accounts.len(), 1);
        assert_eq!(accounts[0].email.as_deref(), Some("new@example.com"));
        assert_eq!(accounts[0].devices, HashSet::from(["dev-1".to_string()]));
        assert_eq!(d.keks().unwrap(), vec![("a".to_string(), [9u8; 32])]);
    }

    /// A wrong master key is refused: when keys are stored, and before any is.
    pub fn wrong_master_key_is_refused(open: &dyn Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError>) {
        drop(open(&[7u8; 32]).unwrap());
        let refused = open(&[8u8; 32]).unwrap_err();
        assert!(refused.0.contains("master key does not open"), "{refused}");
        let d = open(&[7u8; 32]).unwrap();
        d.put_kek("a", &[0x5a; 32]).unwrap();
        drop(d);
        let refused = open(&[8u8; 32]).unwrap_err();
        assert!(refused.0.contains("master key does not open"), "{refused}");
        assert!(!format!("{refused:?}").contains("5a5a"), "no key in the error");
    }

    /// Sessions written are read back until they expire; deleted ones are gone.
    pub fn sessions_are_kept_until_they_expire_or_end(open: &dyn Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError>) {
        let session = |user: &str, at: u64| StoredSession { user_id: user.into(), device_id: "d".into(), project_id: "p".into(), client: "127.0.0.1".into(), expires_at_ms: at };
        {
            let d = open(&[7u8; 32]).unwrap();
            d.put_session(&[1; 32], &session("a", 5_000)).unwrap();
            d.put_session(&[2; 32], &session("b", 9_000)).unwrap();
            d.put_session(&[3; 32], &session("c", 9_000)).unwrap();
            d.put_session(&[2; 32], &session("b", 10_000)).unwrap();
            d.delete_sessions(&[[3; 32], [4; 32]]).unwrap();
        }
        let d = open(&[7u8; 32]).unwrap();
        let mut live = d.sessions(1_000).unwrap();
        live.sort_by_key(|(k, _)| *k);
        assert_eq!(live, vec![([1; 32], session("a", 5_000)), ([2; 32], session("b", 10_000))]);
        assert_eq!(d.sessions(6_000).unwrap(), vec![([2; 32], session("b", 10_000))], "an expired session is not read back");
        assert_eq!(d.sessions(1_000).unwrap().len(), 1, "and it was deleted");
        // One account's, soonest expiring first.
        d.put_session(&[5; 32], &session("b", 8_000)).unwrap();
        d.put_session(&[6; 32], &session("z", 8_000)).unwrap();
        let of_b: Vec<_> = d.sessions_of("b", 6_000).unwrap().into_iter().map(|(k, s)| (k[0], s.expires_at_ms)).collect();
        assert_eq!(of_b, vec![(5, 8_000), (2, 10_000)]);
        assert_eq!(d.sessions_of("b", 9_000).unwrap().len(), 1, "a live one only");
    }

    /// Entries are kept by kind and key until they expire.
    pub fn entries_are_kept_by_kind_and_key_until_they_expire(open: &dyn Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError>) {
        {
            let d = open(&[7u8; 32]).unwrap();
            d.put_entry("code", "p/a@example.com", 5_000, "{\"n\":1}").unwrap();
            d.put_entry("code", "p/a@example.com", 6_000, "{\"n\":2}").unwrap();
            d.put_entry("gate", "p/a@example.com", 9_000, "{}").unwrap();
            d.put_entry("code", "p/b@example.com", 9_000, "{}").unwrap();
            d.delete_entry("code", "p/b@example.com").unwrap();
        }
        let d = open(&[7u8; 32]).unwrap();
        assert_eq!(d.entries("code", 1_000).unwrap(), vec![("p/a@example.com".to_string(), "{\"n\":2}".to_string())]);
        assert_eq!(d.entries("gate", 1_000).unwrap().len(), 1);
        assert!(d.entries("code", 6_000).unwrap().is_empty(), "expired");
        assert_eq!(d.entries("gate", 6_000).unwrap().len(), 1, "another kind's entry is its own");
        // Keys under a prefix: only those, only live ones, in key order; `%` and `_` are plain.
        d.put_entry("s", "0xab|2", 9_000, "two").unwrap();
        d.put_entry("s", "0xab|1", 9_000, "one").unwrap();
        d.put_entry("s", "0xab|old", 2_000, "old").unwrap();
        d.put_entry("s", "0xabc|1", 9_000, "other").unwrap();
        d.put_entry("s", "0x%b|1", 9_000, "like").unwrap();
        d.put_entry("t", "0xab|1", 9_000, "kind").unwrap();
        let under = |p: &str, now| d.entries_under("s", p, now).unwrap().into_iter().map(|(_, b)| b).collect::<Vec<_>>();
        assert_eq!(under("0xab|", 1_000), ["one", "two", "old"], "key order");
        assert_eq!(under("0xab|", 3_000), ["one", "two"]);
        assert_eq!(under("0x%", 3_000), ["like"], "a LIKE wildcard in the prefix matches itself only");
        let expiring = StoredSession { user_id: "x".into(), device_id: "d".into(), project_id: "p".into(), client: "127.0.0.1".into(), expires_at_ms: 2_500 };
        d.put_session(&[9; 32], &expiring).unwrap();
        // Expired by 3,000: the entry "0xab|old" and that session.
        assert_eq!(d.purge_expired(3_000).unwrap(), 2, "the expired entry and session are purged");
        assert_eq!(d.purge_expired(3_000).unwrap(), 0);
        assert_eq!(d.entries_under("t", "0xab|", 3_000).unwrap().len(), 1, "live ones stay");
        assert!(d.session(&[9; 32], 0).unwrap().is_none(), "the expired session is gone");
    }

    /// Point reads answer what was written; an account per identity, whoever makes it first.
    pub fn point_reads_and_one_account_per_identity(open: &dyn Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError>) {
        let d = open(&[7u8; 32]).unwrap();
        let other = open(&[7u8; 32]);
        assert_eq!(d.account("a").unwrap().map(|a| a.user_id), None);
        let made = d.create_account(&account("a")).unwrap();
        assert_eq!(made.user_id, "a");
        let mut rival = account("b");
        rival.identities = account("a").identities;
        assert_eq!(d.create_account(&rival).unwrap().user_id, "a", "the identity's first account is answered");
        assert_eq!(d.account("b").unwrap().map(|a| a.user_id), None, "and the second was not made");
        assert_eq!(d.account_of("p/email:a@example.com").unwrap().map(|a| a.user_id).as_deref(), Some("a"));
        // An identity moved (an email change) logs into the account from then on; the old one
        // logs into nothing; another account cannot take an identity held.
        let mut changed = account("a");
        changed.identities = vec!["p/email:new@example.com".into()];
        d.put_account(&changed).unwrap();
        assert_eq!(d.account_of("p/email:a@example.com").unwrap().map(|a| a.user_id), None);
        assert_eq!(d.account_of("p/email:new@example.com").unwrap().map(|a| a.user_id).as_deref(), Some("a"));
        let mut thief = account("c");
        thief.identities = vec!["p/email:new@example.com".into()];
        assert!(d.put_account(&thief).unwrap_err().0.contains("another account"));
        // A change made in place.
        let after = d.update_account("a", &mut |a| { a.devices.insert("dev-2".into()); true }).unwrap().unwrap();
        assert!(after.devices.contains("dev-2") && d.account("a").unwrap().unwrap().devices.contains("dev-2"));
        let unchanged = d.update_account("a", &mut |a| { a.email = Some("x@example.com".into()); false }).unwrap().unwrap();
        assert_eq!(unchanged.email, changed.email, "a change declined is not written");
        assert_eq!(d.account("a").unwrap().unwrap().email, changed.email);
        assert!(d.update_account("nobody", &mut |_| true).unwrap().is_none());
        let refused = d.update_account("a", &mut |a| { a.identities.push("p/email:b-held@example.com".into()); true });
        assert!(refused.is_ok(), "a free identity is taken");
        let mut b = account("b");
        b.identities = vec!["p/email:b@example.com".into()];
        d.create_account(&b).unwrap();
        let refused = d.update_account("a", &mut |a| { a.identities.push("p/email:b@example.com".into()); true }).unwrap_err();
        assert!(refused.0.contains("another account"), "{refused}");
        assert_eq!(d.account_of("p/email:b@example.com").unwrap().unwrap().user_id, "b");
        assert_eq!(d.kek("a").unwrap(), None);
        d.put_kek("a", &[4u8; 32]).unwrap();
        assert_eq!(d.kek("a").unwrap(), Some([4u8; 32]));
        // Sessions and entries by key, live ones only.
        let s = StoredSession { user_id: "a".into(), device_id: "d".into(), project_id: "p".into(), client: "127.0.0.1".into(), expires_at_ms: 5_000 };
        d.put_session(&[1; 32], &s).unwrap();
        assert_eq!(d.session(&[1; 32], 1_000).unwrap(), Some(s.clone()));
        assert_eq!(d.session(&[1; 32], 5_000).unwrap(), None, "expired");
        assert_eq!(d.session(&[2; 32], 1_000).unwrap(), None);
        // Entries change only from what the writer read.
        assert!(d.swap_entry("k", "x", None, Some((5_000, "1")), 1_000).unwrap());
        assert!(!d.swap_entry("k", "x", None, Some((5_000, "2")), 1_000).unwrap(), "one is there already");
        assert!(!d.swap_entry("k", "x", Some("0"), Some((5_000, "2")), 1_000).unwrap(), "not what it holds");
        assert_eq!(d.entry("k", "x", 1_000).unwrap().as_deref(), Some("1"));
        assert!(d.swap_entry("k", "x", Some("1"), Some((5_000, "2")), 1_000).unwrap());
        assert_eq!(d.entry("k", "x", 1_000).unwrap().as_deref(), Some("2"));
        assert_eq!(d.entry("k", "x", 5_000).unwrap(), None, "expired");
        assert!(d.swap_entry("k", "x", None, Some((9_000, "3")), 5_000).unwrap(), "an expired entry counts as none");
        assert!(d.swap_entry("k", "x", Some("3"), None, 5_000).unwrap());
        assert_eq!(d.entry("k", "x", 5_000).unwrap(), None, "deleted");
        // Another process on the same store reads it all (PostgreSQL: several servers share it).
        if let Ok(other) = other {
            assert_eq!(other.account_of("p/email:new@example.com").unwrap().map(|a| a.user_id).as_deref(), Some("a"));
            assert_eq!(other.kek("a").unwrap(), Some([4u8; 32]));
        }
    }

    #[test]
    fn instants_go_to_the_wall_clock_and_back() {
        let at = tokio::time::Instant::now() + std::time::Duration::from_secs(90);
        let back = wall_to_instant(instant_to_wall(at));
        let diff = if back > at { back - at } else { at - back };
        assert!(diff < std::time::Duration::from_millis(50), "{diff:?}");
        let past = wall_to_instant(0);
        assert!(past <= tokio::time::Instant::now());
    }

    #[test]
    fn a_store_url_is_sqlite_path_or_postgres_and_its_debug_has_no_password() {
        assert_eq!(StoreUrl::parse("sqlite:/tmp/w.sqlite"), Ok(StoreUrl::Sqlite("/tmp/w.sqlite".into())));
        let pg = StoreUrl::parse("postgres://wm:s3cret@db:5432/wm").unwrap();
        assert!(!format!("{pg:?}").contains("s3cret"));
        assert!(StoreUrl::parse("postgresql://db/wm").is_ok());
        for bad in ["sqlite:", "mysql://db", "/tmp/w.sqlite", ""] {
            assert!(StoreUrl::parse(bad).unwrap_err().contains("sqlite:PATH or a postgres:// URL"), "{bad}");
        }
    }
}
