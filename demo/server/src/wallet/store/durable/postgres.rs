//! The store for a deployment that outgrows one machine: a PostgreSQL database, chosen by a
//! `postgres://` URL, its schema migrated at start (in one transaction, under an advisory lock, so
//! processes starting together migrate once). Every statement ends within 5 s
//! (`statement_timeout`), a connection within 5 s; a dropped connection is made again at the
//! next call. TLS is not spoken: reach the database on a private network or through a local TLS
//! proxy (README, "Run the services").
//!
//! The client is the synchronous `postgres` crate, which runs its own small runtime: each call is
//! made on a thread of its own (scoped; the connection's lock held), so it is never driven from
//! inside the server's runtime.

use std::sync::Mutex;
use std::time::Duration;

use postgres::{Client, Config, NoTls};

use super::{session_from, Durable, Sealer, StoreError, StoredSession, SCHEMA};
use crate::wallet::store::Account;

/// Held by the connection of the one server process using the database (session advisory lock).
const PROCESS_LOCK: i64 = 0x776d_5f73_746f_7265; // "wm_store"
/// Held while the schema is migrated (transaction advisory lock).
const MIGRATE_LOCK: i64 = 0x776d_5f6d_6967_7261; // "wm_migra"

fn err(what: &str) -> impl Fn(postgres::Error) -> StoreError + '_ {
    // The database's own message when it sent one ("db error" alone says nothing).
    move |e| match e.as_db_error() {
        Some(db) => StoreError(format!("the wallet store could not {what}: {} ({})", db.message(), db.code().code())),
        None => StoreError(format!("the wallet store could not {what}: {e}")),
    }
}

/// The migrations, in order: the schema is their count.
const MIGRATIONS: [&str; SCHEMA as usize] = [
    "CREATE TABLE accounts (user_id TEXT PRIMARY KEY, body TEXT NOT NULL);
     CREATE TABLE keks (user_id TEXT PRIMARY KEY, nonce BYTEA NOT NULL, sealed BYTEA NOT NULL);
     CREATE TABLE meta (k TEXT PRIMARY KEY, nonce BYTEA NOT NULL, sealed BYTEA NOT NULL);",
    "CREATE TABLE sessions (key BYTEA PRIMARY KEY, expires_at BIGINT NOT NULL, body TEXT NOT NULL);
     CREATE INDEX sessions_expiry ON sessions (expires_at);",
    "CREATE TABLE entries (kind TEXT NOT NULL, key TEXT NOT NULL, expires_at BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, key));",
];

/// The wallet service's store in a PostgreSQL database.
pub struct Postgres {
    config: Config,
    client: Mutex<Option<Client>>,
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
    /// (as [`Sqlite::open`](super::sqlite::Sqlite::open)); refused while another server process
    /// holds the database.
    pub fn open(url: &str, master: &[u8; 32]) -> Result<Postgres, StoreError> {
        let mut config: Config = url.parse().map_err(|e| StoreError(format!("the wallet store's PostgreSQL URL cannot be read: {e}")))?;
        config.connect_timeout(Duration::from_secs(5)).keepalives(true).options("-c statement_timeout=5000");
        let store = Postgres { config, client: Mutex::new(None), sealer: Sealer::new(master) };
        store.with(|c| {
            let mut tx = c.transaction().map_err(err("begin its migration"))?;
            tx.query("SELECT pg_advisory_xact_lock($1)", &[&MIGRATE_LOCK]).map_err(err("lock its schema"))?;
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

    /// Runs `f` on the connection (made, with the process lock taken, when there is none or it
    /// dropped), on a thread of its own. A call that failed because the connection dropped (the
    /// database restarted) is made once more on a new one: every call here may be repeated.
    fn with<T: Send>(&self, f: impl Fn(&mut Client) -> Result<T, StoreError> + Send + Sync) -> Result<T, StoreError> {
        let mut held = self.client.lock().unwrap_or_else(|p| p.into_inner());
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
        if let Some(c) = self.client.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = std::thread::spawn(move || drop(c)).join();
        }
    }
}

/// A connection holding the process lock. A process that just stopped may still hold it for a
/// moment (its session ends when the database sees the connection closed): waited for 3 s.
fn connect(config: &Config) -> Result<Client, StoreError> {
    let mut c = config.connect(NoTls).map_err(err("connect to its database"))?;
    c.batch_execute("SET lock_timeout = '3s'").map_err(err("lock its database"))?;
    if let Err(e) = c.query("SELECT pg_advisory_lock($1)", &[&PROCESS_LOCK]) {
        return Err(match e.code() {
            Some(code) if *code == postgres::error::SqlState::LOCK_NOT_AVAILABLE => {
                StoreError("another server process uses the wallet store's database (one process per store until the tables are shared)".into())
            }
            _ => err("lock its database")(e),
        });
    }
    c.batch_execute("RESET lock_timeout").map_err(err("lock its database"))?;
    Ok(c)
}

impl Durable for Postgres {
    fn put_account(&self, a: &Account) -> Result<(), StoreError> {
        let body = serde_json::to_string(a).map_err(|e| StoreError(format!("the wallet store could not write an account: {e}")))?;
        self.with(|c| {
            c.execute("INSERT INTO accounts (user_id, body) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET body = excluded.body", &[&a.user_id, &body])
                .map_err(err("write an account"))?;
            Ok(())
        })
    }

    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let bodies: Vec<String> = self.with(|c| Ok(c.query("SELECT body FROM accounts", &[]).map_err(err("read the accounts"))?.iter().map(|r| r.get(0)).collect()))?;
        bodies.iter().map(|b| serde_json::from_str(b).map_err(|e| StoreError(format!("the wallet store holds an account it cannot read: {e}")))).collect()
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
                "INSERT INTO sessions (key, expires_at, body) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
                &[&&key[..], &at, &body],
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

    fn sessions(&self, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        let now = now_ms as i64;
        let rows: Vec<(Vec<u8>, String)> = self.with(|c| {
            c.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&now]).map_err(err("drop the expired sessions"))?;
            Ok(c.query("SELECT key, body FROM sessions", &[]).map_err(err("read the sessions"))?.iter().map(|r| (r.get(0), r.get(1))).collect())
        })?;
        rows.iter().map(|(k, b)| session_from(k, b)).collect()
    }
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
    fn a_second_process_on_the_database_is_refused_until_the_first_lets_go() {
        let pg = PgServer::start().unwrap();
        let first = Postgres::open(&pg.url("one"), &[7u8; 32]).unwrap();
        let second = Postgres::open(&pg.url("one"), &[7u8; 32]).unwrap_err();
        assert!(second.0.contains("another server process"), "{second}");
        assert!(Postgres::open(&pg.url("two"), &[7u8; 32]).is_ok(), "another database is another store");
        drop(first);
        assert!(Postgres::open(&pg.url("one"), &[7u8; 32]).is_ok());
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
        // TLS is not spoken: a URL that requires it is refused, not sent in the clear.
        let pg = PgServer::start().unwrap();
        let e = Postgres::open(&format!("{}?sslmode=require", pg.url("tls")), &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("could not connect to its database"), "{e}");
    }
}
