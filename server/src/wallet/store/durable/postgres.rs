//! The store for a deployment that outgrows one machine: a PostgreSQL database, chosen by a
//! `postgres://` URL, its schema migrated at start (in one transaction, under an advisory lock, so
//! processes starting together migrate once). Several server processes share one database: each
//! request reads what it decides on from here, and the writes that decide (a code's tries, a mail
//! slot, an identity's account) are conditional. Every statement ends within 5 s
//! (`statement_timeout`), a connection within 5 s; a dropped connection is made again at the
//! next call. TLS is not spoken: reach the database on a private network or through a local TLS
//! proxy (README, "Run the services").
//!
//! The client is the synchronous `postgres` crate, which runs its own small runtime: each call is
//! made on a thread of its own (scoped; the connection's lock held), so it is never driven from
//! inside the server's runtime.

use std::sync::Mutex;
use std::time::Duration;

use postgres::{Client, Config};

use super::{account_body, account_from, identity_taken, session_from, Durable, Sealer, StoreError, StoredSession, SCHEMA};
use crate::wallet::store::Account;

/// Held while the schema is migrated (transaction advisory lock).
const MIGRATE_LOCK: i64 = 0x776d_5f6d_6967_7261; // "wm_migra"

fn err(what: &str) -> impl Fn(postgres::Error) -> StoreError + '_ {
    // The database's own message when it sent one ("db error" alone says nothing).
    move |e| match e.as_db_error() {
        Some(db) => StoreError(format!("the wallet store could not {what}: {} ({})", db.message(), db.code().code())),
        None => {
            // With its causes ("error performing TLS handshake: invalid peer certificate: …").
            let mut msg = format!("the wallet store could not {what}: {e}");
            let mut cause = std::error::Error::source(&e);
            while let Some(c) = cause {
                msg.push_str(&format!(": {c}"));
                cause = c.source();
            }
            StoreError(msg)
        }
    }
}

/// Connections one process keeps to the database (each store call takes a free one): requests of
/// several visitors are served at once, and the database sees a bounded number per instance.
pub const POOL: usize = 4;

/// The migrations, in order: the schema is their count.
const MIGRATIONS: [&str; SCHEMA as usize] = [
    "CREATE TABLE accounts (user_id TEXT PRIMARY KEY, body TEXT NOT NULL);
     CREATE TABLE keks (user_id TEXT PRIMARY KEY, nonce BYTEA NOT NULL, sealed BYTEA NOT NULL);
     CREATE TABLE meta (k TEXT PRIMARY KEY, nonce BYTEA NOT NULL, sealed BYTEA NOT NULL);",
    "CREATE TABLE sessions (key BYTEA PRIMARY KEY, expires_at BIGINT NOT NULL, body TEXT NOT NULL);
     CREATE INDEX sessions_expiry ON sessions (expires_at);",
    "CREATE TABLE entries (kind TEXT NOT NULL, key TEXT NOT NULL, expires_at BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, key));",
    "CREATE TABLE identities (identity TEXT PRIMARY KEY, user_id TEXT NOT NULL);
     CREATE INDEX identities_user ON identities (user_id);
     INSERT INTO identities (identity, user_id)
       SELECT jsonb_array_elements_text(body::jsonb -> 'identities'), user_id FROM accounts ON CONFLICT DO NOTHING;",
    "ALTER TABLE sessions ADD COLUMN user_id TEXT;
     UPDATE sessions SET user_id = body::jsonb ->> 'user_id';
     CREATE INDEX sessions_user ON sessions (user_id, expires_at);
     CREATE INDEX entries_expiry ON entries (expires_at);",
];

/// The wallet service's store in a PostgreSQL database.
pub struct Postgres {
    config: Config,
    /// The pool: [`POOL`] connections, each made when first needed (and again when dropped).
    clients: Vec<Mutex<Option<Client>>>,
    /// Where the next call starts looking for a free connection.
    next: std::sync::atomic::AtomicUsize,
    sealer: Sealer,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the URL's password or the master key.)
        f.write_str("Postgres")
    }
}

impl Postgres {
    /// Connects to the database at `url`, migrates it to [`SCHEMA`] and checks the master key
    /// (as [`Sqlite::open`](super::sqlite::Sqlite::open)).
    pub fn open(url: &str, master: &[u8; 32]) -> Result<Postgres, StoreError> {
        let mut config: Config = url.parse().map_err(|e| StoreError(format!("the wallet store's PostgreSQL URL cannot be read: {e}")))?;
        config.connect_timeout(Duration::from_secs(5)).keepalives(true).options("-c statement_timeout=5000");
        let store = Postgres {
            config,
            clients: (0..POOL).map(|_| Mutex::new(None)).collect(),
            next: std::sync::atomic::AtomicUsize::new(0),
            sealer: Sealer::new(master),
        };
        store.with(|c| {
            let mut tx = c.transaction().map_err(err("begin its migration"))?;
            tx.query("SELECT pg_advisory_xact_lock($1)", &[&MIGRATE_LOCK]).map_err(err("lock its schema"))?;
            // A migration may fill a large table: it is not held to the calls' 5 s.
            tx.batch_execute("SET LOCAL statement_timeout = 0").map_err(err("migrate its schema"))?;
            tx.batch_execute("CREATE TABLE IF NOT EXISTS wm_schema (version INT NOT NULL)").map_err(err("make its tables"))?;
            let version: i32 = tx.query_opt("SELECT version FROM wm_schema", &[]).map_err(err("read its schema"))?.map_or(0, |r| r.get(0));
            if version > SCHEMA {
                return Err(StoreError(format!("the wallet store is schema {version}; this server reads up to {SCHEMA}")));
            }
            for m in &MIGRATIONS[version.max(0) as usize..] {
                tx.batch_execute(m).map_err(err("migrate its schema"))?;
            }
            tx.execute("DELETE FROM wm_schema", &[]).map_err(err("migrate its schema"))?;
            tx.execute("INSERT INTO wm_schema (version) VALUES ($1)", &[&SCHEMA]).map_err(err("migrate its schema"))?;
            tx.commit().map_err(err("migrate its schema"))
        })?;
        // The stored keys first (see Sqlite::open), then the check value.
        store.keks()?;
        store.with(|c| {
            let held = c.query_opt("SELECT nonce, sealed FROM meta WHERE k = 'master'", &[]).map_err(err("read its master key check"))?.map(|r| (r.get(0), r.get(1)));
            if let Some((nonce, sealed)) = store.sealer.check(held)? {
                c.execute("INSERT INTO meta (k, nonce, sealed) VALUES ('master', $1, $2) ON CONFLICT (k) DO NOTHING", &[&&nonce[..], &sealed])
                    .map_err(err("write its master key check"))?;
            }
            Ok(())
        })?;
        Ok(store)
    }

    /// Runs `f` on the connection (made when there is none or it dropped), on a thread of its own. A call that failed because the connection dropped (the
    /// database restarted) is made once more on a new one: every call here may be repeated.
    fn with<T: Send>(&self, f: impl Fn(&mut Client) -> Result<T, StoreError> + Send + Sync) -> Result<T, StoreError> {
        // On the server's (multi-threaded) runtime the call is announced as blocking: the
        // runtime moves this worker's other tasks to another thread, so a slow database holds up
        // the requests that wait for it, not the whole server (health checks, the relay).
        match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| self.with_blocking(f)),
            _ => self.with_blocking(f),
        }
    }

    fn with_blocking<T: Send>(&self, f: impl Fn(&mut Client) -> Result<T, StoreError> + Send + Sync) -> Result<T, StoreError> {
        // A free connection of the pool, else (all busy) the next one's turn.
        let start = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let n = self.clients.len();
        let free = (0..n).find_map(|i| match self.clients[(start + i) % n].try_lock() {
            Ok(g) => Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        });
        let mut held = free.unwrap_or_else(|| self.clients[start % n].lock().unwrap_or_else(|p| p.into_inner()));
        let slot: &mut Option<Client> = &mut held;
        let config = &self.config;
        std::thread::scope(|s| {
            s.spawn(move || {
                let mut tries = 0;
                loop {
                    tries += 1;
                    if slot.as_ref().is_none_or(|c| c.is_closed()) {
                        *slot = None;
                        *slot = Some(connect(config)?);
                    }
                    let client = slot.as_mut().expect("connected above");
                    match f(client) {
                        Err(_) if tries == 1 && client.is_closed() => continue,
                        done => return done,
                    }
                }
            })
            .join()
            .unwrap_or_else(|_| Err(StoreError("the wallet store's call failed".into())))
        })
    }
}

impl Drop for Postgres {
    /// The connection is closed on a thread of its own too (closing it blocks on its runtime).
    fn drop(&mut self) {
        let held: Vec<Client> = self.clients.iter_mut().filter_map(|m| m.get_mut().unwrap_or_else(|p| p.into_inner()).take()).collect();
        if !held.is_empty() {
            let _ = std::thread::spawn(move || drop(held)).join();
        }
    }
}

/// Connects: with `sslmode=require` over TLS only, the certificate checked against the roots and
/// `--ca-file` ([`crate::tls`]) for the URL's host; otherwise in the clear, as before (a database
/// with a certificate nobody can check, such as Debian's self-signed default, keeps working).
fn connect(config: &Config) -> Result<Client, StoreError> {
    if config.get_ssl_mode() == postgres::config::SslMode::Require {
        let tls = tokio_postgres_rustls::MakeRustlsConnect::new((*crate::tls::client_config()).clone());
        return config.connect(tls).map_err(err("connect to its database"));
    }
    config.connect(postgres::NoTls).map_err(err("connect to its database"))
}

impl Durable for Postgres {
    fn put_account(&self, a: &Account) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(err("write an account"))?;
            write_account(&mut tx, a)?;
            tx.commit().map_err(err("write an account"))
        })
    }

    fn update_account(&self, user_id: &str, change: &mut (dyn FnMut(&mut Account) -> bool + Send)) -> Result<Option<Account>, StoreError> {
        let change = Mutex::new(change);
        self.with(|c| {
            let mut tx = c.transaction().map_err(err("change an account"))?;
            // The row locked (FOR UPDATE): another process's change waits for this one.
            let body: Option<String> =
                tx.query_opt("SELECT body FROM accounts WHERE user_id = $1 FOR UPDATE", &[&user_id]).map_err(err("change an account"))?.map(|r| r.get(0));
            let Some(mut a) = body.as_deref().map(account_from).transpose()? else { return Ok(None) };
            let mut next = a.clone();
            if (change.lock().unwrap_or_else(|p| p.into_inner()))(&mut next) {
                write_account(&mut tx, &next)?;
                tx.commit().map_err(err("change an account"))?;
                a = next;
            }
            Ok(Some(a))
        })
    }

    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let bodies: Vec<String> = self.with(|c| Ok(c.query("SELECT body FROM accounts", &[]).map_err(err("read the accounts"))?.iter().map(|r| r.get(0)).collect()))?;
        bodies.iter().map(|b| account_from(b)).collect()
    }

    fn account(&self, user_id: &str) -> Result<Option<Account>, StoreError> {
        let body: Option<String> = self.with(|c| Ok(c.query_opt("SELECT body FROM accounts WHERE user_id = $1", &[&user_id]).map_err(err("read an account"))?.map(|r| r.get(0))))?;
        body.as_deref().map(account_from).transpose()
    }

    fn account_of(&self, identity: &str) -> Result<Option<Account>, StoreError> {
        let body: Option<String> = self.with(|c| {
            Ok(c.query_opt("SELECT a.body FROM identities i JOIN accounts a ON a.user_id = i.user_id WHERE i.identity = $1", &[&identity])
                .map_err(err("read an account"))?
                .map(|r| r.get(0)))
        })?;
        body.as_deref().map(account_from).transpose()
    }

    fn create_account(&self, a: &Account) -> Result<Account, StoreError> {
        let body = account_body(a)?;
        let held: Option<String> = self.with(|c| {
            let mut tx = c.transaction().map_err(err("make an account"))?;
            tx.execute("INSERT INTO accounts (user_id, body) VALUES ($1, $2)", &[&a.user_id, &body]).map_err(err("make an account"))?;
            for identity in &a.identities {
                // A rival's uncommitted row for the identity is waited for: then it is theirs.
                let n = tx
                    .execute("INSERT INTO identities (identity, user_id) VALUES ($1, $2) ON CONFLICT (identity) DO NOTHING", &[identity, &a.user_id])
                    .map_err(err("make an account"))?;
                if n == 0 {
                    tx.rollback().map_err(err("make an account"))?;
                    let row = c
                        .query_one("SELECT a.body FROM identities i JOIN accounts a ON a.user_id = i.user_id WHERE i.identity = $1", &[identity])
                        .map_err(err("read an account"))?;
                    return Ok(Some(row.get(0)));
                }
            }
            tx.commit().map_err(err("make an account"))?;
            Ok(None)
        })?;
        match held {
            Some(body) => account_from(&body),
            None => Ok(a.clone()),
        }
    }

    fn kek(&self, user_id: &str) -> Result<Option<[u8; 32]>, StoreError> {
        let held: Option<(Vec<u8>, Vec<u8>)> =
            self.with(|c| Ok(c.query_opt("SELECT nonce, sealed FROM keks WHERE user_id = $1", &[&user_id]).map_err(err("read a key"))?.map(|r| (r.get(0), r.get(1)))))?;
        held.map(|(nonce, sealed)| self.sealer.open_kek(user_id, &nonce, &sealed)).transpose()
    }

    fn session(&self, key: &[u8; 32], now_ms: u64) -> Result<Option<StoredSession>, StoreError> {
        let now = now_ms as i64;
        let body: Option<String> = self.with(|c| {
            Ok(c.query_opt("SELECT body FROM sessions WHERE key = $1 AND expires_at > $2", &[&&key[..], &now]).map_err(err("read a session"))?.map(|r| r.get(0)))
        })?;
        body.map(|b| session_from(key, &b).map(|(_, s)| s)).transpose()
    }

    fn entry(&self, kind: &str, key: &str, now_ms: u64) -> Result<Option<String>, StoreError> {
        let now = now_ms as i64;
        self.with(|c| {
            Ok(c.query_opt("SELECT body FROM entries WHERE kind = $1 AND key = $2 AND expires_at > $3", &[&kind, &key, &now])
                .map_err(err("read an entry"))?
                .map(|r| r.get(0)))
        })
    }

    fn swap_entry(&self, kind: &str, key: &str, expected: Option<&str>, next: Option<(u64, &str)>, now_ms: u64) -> Result<bool, StoreError> {
        let now = now_ms as i64;
        self.with(|c| {
            let mut tx = c.transaction().map_err(err("write an entry"))?;
            // The row is locked while it is compared (FOR UPDATE); a missing one cannot be, so
            // the insert below is the check: a rival's row makes it fail (and the swap false).
            let held: Option<(String, i64)> = tx
                .query_opt("SELECT body, expires_at FROM entries WHERE kind = $1 AND key = $2 FOR UPDATE", &[&kind, &key])
                .map_err(err("write an entry"))?
                .map(|r| (r.get(0), r.get(1)));
            let live = held.as_ref().filter(|(_, at)| *at > now).map(|(b, _)| b.as_str());
            if live != expected {
                return Ok(false);
            }
            let n = match (next, held.is_some()) {
                (Some((at, body)), true) => tx.execute("UPDATE entries SET expires_at = $3, body = $4 WHERE kind = $1 AND key = $2", &[&kind, &key, &(at as i64), &body]),
                (Some((at, body)), false) => tx.execute(
                    "INSERT INTO entries (kind, key, expires_at, body) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, key) DO NOTHING",
                    &[&kind, &key, &(at as i64), &body],
                ),
                (None, true) => tx.execute("DELETE FROM entries WHERE kind = $1 AND key = $2", &[&kind, &key]),
                (None, false) => Ok(1),
            }
            .map_err(err("write an entry"))?;
            if n == 0 {
                return Ok(false);
            }
            tx.commit().map_err(err("write an entry"))?;
            Ok(true)
        })
    }

    fn put_kek(&self, user_id: &str, kek: &[u8; 32]) -> Result<[u8; 32], StoreError> {
        let (nonce, sealed) = self.sealer.seal(user_id.as_bytes(), kek)?;
        let (nonce, sealed): (Vec<u8>, Vec<u8>) = self.with(|c| {
            c.execute("INSERT INTO keks (user_id, nonce, sealed) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING", &[&user_id, &&nonce[..], &sealed])
                .map_err(err("write a key"))?;
            let row = c.query_one("SELECT nonce, sealed FROM keks WHERE user_id = $1", &[&user_id]).map_err(err("read a key"))?;
            Ok((row.get(0), row.get(1)))
        })?;
        self.sealer.open_kek(user_id, &nonce, &sealed)
    }

    fn keks(&self) -> Result<Vec<(String, [u8; 32])>, StoreError> {
        let rows: Vec<(String, Vec<u8>, Vec<u8>)> =
            self.with(|c| Ok(c.query("SELECT user_id, nonce, sealed FROM keks", &[]).map_err(err("read the keys"))?.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect()))?;
        rows.into_iter().map(|(user_id, nonce, sealed)| Ok((user_id.clone(), self.sealer.open_kek(&user_id, &nonce, &sealed)?))).collect()
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.with(|c| c.query_one("SELECT 1", &[]).map(|_| ()).map_err(err("be reached")))
    }

    fn put_session(&self, key: &[u8; 32], s: &StoredSession) -> Result<(), StoreError> {
        let body = serde_json::to_string(s).map_err(|e| StoreError(format!("the wallet store could not write a session: {e}")))?;
        let at = s.expires_at_ms as i64;
        self.with(|c| {
            c.execute(
                "INSERT INTO sessions (key, expires_at, body, user_id) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body, user_id = excluded.user_id",
                &[&&key[..], &at, &body, &s.user_id],
            )
            .map(|_| ())
            .map_err(err("write a session"))
        })
    }

    fn delete_sessions(&self, keys: &[[u8; 32]]) -> Result<(), StoreError> {
        let keys: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
        self.with(|c| c.execute("DELETE FROM sessions WHERE key = ANY($1)", &[&keys]).map(|_| ()).map_err(err("end a session")))
    }

    fn put_entry(&self, kind: &str, key: &str, expires_at_ms: u64, body: &str) -> Result<(), StoreError> {
        let at = expires_at_ms as i64;
        self.with(|c| {
            c.execute(
                "INSERT INTO entries (kind, key, expires_at, body) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
                &[&kind, &key, &at, &body],
            )
            .map(|_| ())
            .map_err(err("write an entry"))
        })
    }

    fn delete_entry(&self, kind: &str, key: &str) -> Result<(), StoreError> {
        self.with(|c| c.execute("DELETE FROM entries WHERE kind = $1 AND key = $2", &[&kind, &key]).map(|_| ()).map_err(err("delete an entry")))
    }

    fn entries(&self, kind: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        let now = now_ms as i64;
        self.with(|c| {
            c.execute("DELETE FROM entries WHERE kind = $1 AND expires_at <= $2", &[&kind, &now]).map_err(err("drop the expired entries"))?;
            Ok(c.query("SELECT key, body FROM entries WHERE kind = $1", &[&kind]).map_err(err("read the entries"))?.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }

    fn entries_under(&self, kind: &str, prefix: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        let (now, n) = (now_ms as i64, prefix.chars().count() as i32);
        // left(), not LIKE: a prefix is matched as it is (`%` and `_` are plain characters).
        self.with(|c| {
            Ok(c.query("SELECT key, body FROM entries WHERE kind = $1 AND left(key, $2) = $3 AND expires_at > $4 ORDER BY key COLLATE \"C\"", &[&kind, &n, &prefix, &now])
                .map_err(err("read the entries"))?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect())
        })
    }

    fn sessions_of(&self, user_id: &str, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        let now = now_ms as i64;
        let rows: Vec<(Vec<u8>, String)> = self.with(|c| {
            Ok(c.query("SELECT key, body FROM sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY expires_at", &[&user_id, &now])
                .map_err(err("read the sessions"))?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect())
        })?;
        rows.iter().map(|(k, b)| session_from(k, b)).collect()
    }

    fn purge_expired(&self, now_ms: u64) -> Result<u64, StoreError> {
        let now = now_ms as i64;
        self.with(|c| {
            let n = c.execute("DELETE FROM entries WHERE expires_at <= $1", &[&now]).map_err(err("drop the expired entries"))?;
            Ok(n + c.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&now]).map_err(err("drop the expired sessions"))?)
        })
    }

    fn sessions(&self, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        let now = now_ms as i64;
        let rows: Vec<(Vec<u8>, String)> = self.with(|c| {
            c.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&now]).map_err(err("drop the expired sessions"))?;
            Ok(c.query("SELECT key, body FROM sessions", &[]).map_err(err("read the sessions"))?.iter().map(|r| (r.get(0), r.get(1))).collect())
        })?;
        rows.iter().map(|(k, b)| session_from(k, b)).collect()
    }
}

/// Writes account `a` and its identities within `tx` (refused when another account holds one).
fn write_account(tx: &mut postgres::Transaction<'_>, a: &Account) -> Result<(), StoreError> {
    let body = account_body(a)?;
    tx.execute("INSERT INTO accounts (user_id, body) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET body = excluded.body", &[&a.user_id, &body])
        .map_err(err("write an account"))?;
    tx.execute("DELETE FROM identities WHERE user_id = $1 AND NOT (identity = ANY($2))", &[&a.user_id, &a.identities]).map_err(err("write an account"))?;
    for identity in &a.identities {
        tx.execute("INSERT INTO identities (identity, user_id) VALUES ($1, $2) ON CONFLICT (identity) DO NOTHING", &[identity, &a.user_id])
            .map_err(err("write an account"))?;
        let owner: String = tx.query_one("SELECT user_id FROM identities WHERE identity = $1", &[identity]).map_err(err("write an account"))?.get(0);
        if owner != a.user_id {
            return Err(identity_taken());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::contract;
    use super::*;
    use crate::testing::PgServer;
    use std::sync::Arc;

    fn opener(url: String) -> impl Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError> {
        move |master| Ok(Arc::new(Postgres::open(&url, master)?) as Arc<dyn Durable>)
    }

    #[test]
    fn accounts_and_keys_written_are_read_back_after_the_database_is_opened_again() {
        let pg = PgServer::start().unwrap();
        contract::written_is_read_back(&opener(pg.url("reopen")));
    }

    #[test]
    fn the_wrong_master_key_is_refused_before_and_after_keys_are_stored() {
        let pg = PgServer::start().unwrap();
        contract::wrong_master_key_is_refused(&opener(pg.url("check")));
    }

    #[test]
    fn sessions_are_kept_until_they_expire_or_end() {
        let pg = PgServer::start().unwrap();
        contract::sessions_are_kept_until_they_expire_or_end(&opener(pg.url("sessions")));
    }

    #[test]
    fn entries_are_kept_by_kind_and_key_until_they_expire() {
        let pg = PgServer::start().unwrap();
        contract::entries_are_kept_by_kind_and_key_until_they_expire(&opener(pg.url("entries")));
    }

    #[test]
    fn point_reads_answer_what_was_written_and_an_identity_has_one_account_across_processes() {
        let pg = PgServer::start().unwrap();
        contract::point_reads_and_one_account_per_identity(&opener(pg.url("points")));
    }

    #[test]
    fn processes_making_one_identitys_account_at_once_end_with_one_account() {
        let pg = PgServer::start().unwrap();
        let url = pg.url("race");
        let stores: Vec<Postgres> = (0..4).map(|_| Postgres::open(&url, &[7u8; 32]).unwrap()).collect();
        for round in 0..10 {
            let winners: Vec<String> = std::thread::scope(|s| {
                let handles: Vec<_> = stores
                    .iter()
                    .enumerate()
                    .map(|(i, store)| {
                        s.spawn(move || {
                            let mut a = contract::account(&format!("r{round}-{i}"));
                            a.identities = vec![format!("p/email:race{round}@example.com")];
                            store.create_account(&a).unwrap().user_id
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert!(winners.iter().all(|w| *w == winners[0]), "round {round}: {winners:?}");
            let n: i64 = stores[0]
                .with(|c| Ok(c.query_one("SELECT count(*) FROM accounts WHERE user_id LIKE $1", &[&format!("r{round}-%")]).map_err(err("x"))?.get(0)))
                .unwrap();
            assert_eq!(n, 1, "round {round}: one account made");
        }
    }

    #[test]
    fn processes_swapping_one_entry_at_once_each_see_the_others_write() {
        let pg = PgServer::start().unwrap();
        let url = pg.url("swap");
        let stores: Vec<Postgres> = (0..4).map(|_| Postgres::open(&url, &[7u8; 32]).unwrap()).collect();
        // Each adds one to a counter 25 times, re-reading when it lost a race: no add is lost.
        std::thread::scope(|s| {
            for store in &stores {
                s.spawn(move || {
                    let mut done = 0;
                    while done < 25 {
                        let held = store.entry("n", "k", 1).unwrap();
                        let n: u32 = held.as_deref().map_or(0, |b| b.parse().unwrap());
                        if store.swap_entry("n", "k", held.as_deref(), Some((u64::MAX >> 2, &(n + 1).to_string())), 1).unwrap() {
                            done += 1;
                        }
                    }
                });
            }
        });
        assert_eq!(stores[0].entry("n", "k", 1).unwrap().as_deref(), Some("100"));
    }

    #[test]
    fn a_newer_schema_is_refused_and_a_restarted_database_is_reconnected() {
        let mut pg = PgServer::start().unwrap();
        let url = pg.url("s");
        let store = Postgres::open(&url, &[7u8; 32]).unwrap();
        store.put_account(&contract::account("a")).unwrap();
        pg.restart().unwrap();
        assert_eq!(store.accounts().unwrap().len(), 1, "the dropped connection was made again");
        store.with(|c| c.execute("UPDATE wm_schema SET version = 9", &[]).map_err(err("x"))).unwrap();
        drop(store);
        let e = Postgres::open(&url, &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("schema 9"), "{e}");
    }

    #[test]
    fn an_unreachable_database_or_a_url_requiring_tls_is_a_clear_error_within_seconds() {
        let started = std::time::Instant::now();
        let e = Postgres::open("postgres://wm@127.0.0.1:9/wm", &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("could not connect to its database"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(10));
        let e = Postgres::open("postgres://wm@127.0.0.1:bad/wm", &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("cannot be read"), "{e}");
        // A URL that requires TLS, to a database that does not speak it: refused, not sent in the
        // clear (tests/upstream_tls.rs has one that does).
        let pg = PgServer::start().unwrap();
        let e = Postgres::open(&format!("{}?sslmode=require", pg.url("tls")), &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("could not connect to its database") && e.0.contains("TLS"), "{e}");
    }

    #[test]
    fn calls_at_once_run_on_the_pools_connections_side_by_side_and_no_more_are_made() {
        let pg = PgServer::start().unwrap();
        let store = Arc::new(Postgres::open(&pg.url("pool"), &[7u8; 32]).unwrap());
        let started = std::time::Instant::now();
        let threads: Vec<_> = (0..2 * POOL)
            .map(|_| {
                let store = store.clone();
                std::thread::spawn(move || store.with(|c| c.batch_execute("SELECT pg_sleep(0.3)").map_err(err("sleep"))))
            })
            .collect();
        for t in threads {
            t.join().unwrap().unwrap();
        }
        let took = started.elapsed();
        // Two rounds of POOL calls side by side: ~0.6 s; one connection would take 2 × POOL × 0.3 s.
        assert!(took < Duration::from_millis(300 * POOL as u64), "{took:?}");
        let held = pg.psql("postgres", "SELECT count(*) FROM pg_stat_activity WHERE datname = 'pool'");
        assert_eq!(held, POOL.to_string(), "the pool's connections, no more");
    }
}
