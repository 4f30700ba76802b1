//! The embedded default store: an SQLite file (the library built in: no setup), in WAL mode with
//! `synchronous=FULL` (a write is on disk before the request that made it is answered). A write
//! holds the connection's lock for the fsync (milliseconds).

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

use super::{account_body, account_from, identity_taken, session_from, Durable, Sealer, StoreError, StoredSession, SCHEMA};
use crate::wallet::store::Account;

fn err(what: &str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |e| StoreError(format!("the wallet store could not {what}: {e}"))
}

/// The wallet service's store in an SQLite file.
pub struct Sqlite {
    conn: Mutex<Connection>,
    sealer: Sealer,
}

impl std::fmt::Debug for Sqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the master key.)
        f.write_str("Sqlite")
    }
}

impl Sqlite {
    /// Opens (or makes) the store at `path`, migrated to [`SCHEMA`]. Refused when the file is a
    /// newer schema's, or when `master` does not open the keys already in it (the wrong master
    /// key would otherwise look like lost wallets).
    pub fn open(path: &Path, master: &[u8; 32]) -> Result<Sqlite, StoreError> {
        let conn = Connection::open(path).map_err(err("open its file"))?;
        let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0)).map_err(err("use WAL"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError(format!("the wallet store could not use WAL (the file system gave {mode})")));
        }
        conn.pragma_update(None, "synchronous", "FULL").map_err(err("set synchronous"))?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(err("set its busy timeout"))?;
        let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(err("read its schema"))?;
        if version > SCHEMA {
            return Err(StoreError(format!("the wallet store is schema {version}; this server reads up to {SCHEMA}")));
        }
        if version < 1 {
            conn.execute_batch(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS accounts (user_id TEXT PRIMARY KEY, body TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS keks (user_id TEXT PRIMARY KEY, nonce BLOB NOT NULL, sealed BLOB NOT NULL);
                 PRAGMA user_version = 1;
                 COMMIT;",
            )
            .map_err(err("make its tables"))?;
        }
        if version < 2 {
            conn.execute_batch(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS sessions (key BLOB PRIMARY KEY, expires_at INTEGER NOT NULL, body TEXT NOT NULL);
                 PRAGMA user_version = 2;
                 COMMIT;",
            )
            .map_err(err("migrate its schema"))?;
        }
        if version < 3 {
            conn.execute_batch(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS entries (kind TEXT NOT NULL, key TEXT NOT NULL, expires_at INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, key));
                 PRAGMA user_version = 3;
                 COMMIT;",
            )
            .map_err(err("migrate its schema"))?;
        }
        if version < 4 {
            // Each identity's account (from the accounts' own lists, for a file made before).
            conn.execute_batch(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS identities (identity TEXT PRIMARY KEY, user_id TEXT NOT NULL);
                 CREATE INDEX IF NOT EXISTS identities_user ON identities (user_id);
                 INSERT OR IGNORE INTO identities (identity, user_id) SELECT j.value, a.user_id FROM accounts a, json_each(a.body, '$.identities') j;
                 PRAGMA user_version = 4;
                 COMMIT;",
            )
            .map_err(err("migrate its schema"))?;
        }
        if version < 5 {
            // Each session's account, so that its sessions are found without reading them all.
            conn.execute_batch(
                "BEGIN;
                 ALTER TABLE sessions ADD COLUMN user_id TEXT;
                 UPDATE sessions SET user_id = json_extract(body, '$.user_id');
                 CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id, expires_at);
                 CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at);
                 PRAGMA user_version = 5;
                 COMMIT;",
            )
            .map_err(err("migrate its schema"))?;
        }
        conn.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, nonce BLOB NOT NULL, sealed BLOB NOT NULL)", []).map_err(err("make its tables"))?;
        let store = Sqlite { conn: Mutex::new(conn), sealer: Sealer::new(master) };
        // The stored keys first: a file made before its check value gets one only under the
        // master key that opens them.
        store.keks()?;
        store.check_master()?;
        Ok(store)
    }

    fn check_master(&self) -> Result<(), StoreError> {
        let conn = self.conn.lock().unwrap();
        let held: Option<(Vec<u8>, Vec<u8>)> =
            conn.query_row("SELECT nonce, sealed FROM meta WHERE k = 'master'", [], |r| Ok((r.get(0)?, r.get(1)?))).optional().map_err(err("read its master key check"))?;
        if let Some((nonce, sealed)) = self.sealer.check(held)? {
            conn.execute("INSERT INTO meta (k, nonce, sealed) VALUES ('master', ?1, ?2)", params![&nonce[..], sealed]).map_err(err("write its master key check"))?;
        }
        Ok(())
    }
}

impl Durable for Sqlite {
    fn put_account(&self, a: &Account) -> Result<(), StoreError> {
        let mut conn = self.conn.lock().unwrap();
        let tx = conn.transaction().map_err(err("write an account"))?;
        write_account(&tx, a)?;
        tx.commit().map_err(err("write an account"))
    }

    fn update_account(&self, user_id: &str, change: &mut (dyn FnMut(&mut Account) -> bool + Send)) -> Result<Option<Account>, StoreError> {
        let mut conn = self.conn.lock().unwrap();
        // IMMEDIATE: the write lock first, so no other process changes the row in between.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(err("change an account"))?;
        let body: Option<String> = tx.query_row("SELECT body FROM accounts WHERE user_id = ?1", params![user_id], |r| r.get(0)).optional().map_err(err("change an account"))?;
        let Some(mut a) = body.as_deref().map(account_from).transpose()? else { return Ok(None) };
        let mut next = a.clone();
        if change(&mut next) {
            write_account(&tx, &next)?;
            tx.commit().map_err(err("change an account"))?;
            a = next;
        }
        Ok(Some(a))
    }

    fn account(&self, user_id: &str) -> Result<Option<Account>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let body: Option<String> = conn.query_row("SELECT body FROM accounts WHERE user_id = ?1", params![user_id], |r| r.get(0)).optional().map_err(err("read an account"))?;
        body.as_deref().map(account_from).transpose()
    }

    fn account_of(&self, identity: &str) -> Result<Option<Account>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let body: Option<String> = conn
            .query_row("SELECT a.body FROM identities i JOIN accounts a ON a.user_id = i.user_id WHERE i.identity = ?1", params![identity], |r| r.get(0))
            .optional()
            .map_err(err("read an account"))?;
        body.as_deref().map(account_from).transpose()
    }

    fn create_account(&self, a: &Account) -> Result<Account, StoreError> {
        let body = account_body(a)?;
        let mut conn = self.conn.lock().unwrap();
        let tx = conn.transaction().map_err(err("make an account"))?;
        for identity in &a.identities {
            let held: Option<String> = tx
                .query_row("SELECT a.body FROM identities i JOIN accounts a ON a.user_id = i.user_id WHERE i.identity = ?1", params![identity], |r| r.get(0))
                .optional()
                .map_err(err("make an account"))?;
            if let Some(body) = held {
                return account_from(&body);
            }
        }
        tx.execute("INSERT INTO accounts (user_id, body) VALUES (?1, ?2)", params![a.user_id, body]).map_err(err("make an account"))?;
        for identity in &a.identities {
            tx.execute("INSERT INTO identities (identity, user_id) VALUES (?1, ?2)", params![identity, a.user_id]).map_err(err("make an account"))?;
        }
        tx.commit().map_err(err("make an account"))?;
        Ok(a.clone())
    }

    fn kek(&self, user_id: &str) -> Result<Option<[u8; 32]>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let held: Option<(Vec<u8>, Vec<u8>)> =
            conn.query_row("SELECT nonce, sealed FROM keks WHERE user_id = ?1", params![user_id], |r| Ok((r.get(0)?, r.get(1)?))).optional().map_err(err("read a key"))?;
        held.map(|(nonce, sealed)| self.sealer.open_kek(user_id, &nonce, &sealed)).transpose()
    }

    fn session(&self, key: &[u8; 32], now_ms: u64) -> Result<Option<StoredSession>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let body: Option<String> = conn
            .query_row("SELECT body FROM sessions WHERE key = ?1 AND expires_at > ?2", params![&key[..], now_ms as i64], |r| r.get(0))
            .optional()
            .map_err(err("read a session"))?;
        body.map(|b| session_from(key, &b).map(|(_, s)| s)).transpose()
    }

    fn entry(&self, kind: &str, key: &str, now_ms: u64) -> Result<Option<String>, StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.query_row("SELECT body FROM entries WHERE kind = ?1 AND key = ?2 AND expires_at > ?3", params![kind, key, now_ms as i64], |r| r.get(0))
            .optional()
            .map_err(err("read an entry"))
    }

    fn swap_entry(&self, kind: &str, key: &str, expected: Option<&str>, next: Option<(u64, &str)>, now_ms: u64) -> Result<bool, StoreError> {
        let mut conn = self.conn.lock().unwrap();
        let tx = conn.transaction().map_err(err("write an entry"))?;
        let held: Option<String> = tx
            .query_row("SELECT body FROM entries WHERE kind = ?1 AND key = ?2 AND expires_at > ?3", params![kind, key, now_ms as i64], |r| r.get(0))
            .optional()
            .map_err(err("write an entry"))?;
        if held.as_deref() != expected {
            return Ok(false);
        }
        match next {
            Some((at, body)) => tx.execute(
                "INSERT INTO entries (kind, key, expires_at, body) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(kind, key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
                params![kind, key, at as i64, body],
            ),
            None => tx.execute("DELETE FROM entries WHERE kind = ?1 AND key = ?2", params![kind, key]),
        }
        .map_err(err("write an entry"))?;
        tx.commit().map_err(err("write an entry"))?;
        Ok(true)
    }

    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn.prepare("SELECT body FROM accounts").map_err(err("read the accounts"))?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(err("read the accounts"))?;
        let mut out = Vec::new();
        for body in rows {
            out.push(account_from(&body.map_err(err("read an account"))?)?);
        }
        Ok(out)
    }

    fn put_kek(&self, user_id: &str, kek: &[u8; 32]) -> Result<[u8; 32], StoreError> {
        let (nonce, sealed) = self.sealer.seal(user_id.as_bytes(), kek)?;
        let conn = self.conn.lock().unwrap();
        conn.execute("INSERT INTO keks (user_id, nonce, sealed) VALUES (?1, ?2, ?3) ON CONFLICT(user_id) DO NOTHING", params![user_id, &nonce[..], sealed]).map_err(err("write a key"))?;
        let (nonce, sealed): (Vec<u8>, Vec<u8>) =
            conn.query_row("SELECT nonce, sealed FROM keks WHERE user_id = ?1", params![user_id], |r| Ok((r.get(0)?, r.get(1)?))).map_err(err("read a key"))?;
        self.sealer.open_kek(user_id, &nonce, &sealed)
    }

    fn keks(&self) -> Result<Vec<(String, [u8; 32])>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn.prepare("SELECT user_id, nonce, sealed FROM keks").map_err(err("read the keys"))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?, r.get::<_, Vec<u8>>(2)?))).map_err(err("read the keys"))?;
        let mut out = Vec::new();
        for row in rows {
            let (user_id, nonce, sealed) = row.map_err(err("read a key"))?;
            let kek = self.sealer.open_kek(&user_id, &nonce, &sealed)?;
            out.push((user_id, kek));
        }
        Ok(out)
    }

    fn ping(&self) -> Result<(), StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.query_row("SELECT count(*) FROM meta", [], |r| r.get::<_, i64>(0)).map_err(err("be read"))?;
        Ok(())
    }

    fn put_session(&self, key: &[u8; 32], s: &StoredSession) -> Result<(), StoreError> {
        let body = serde_json::to_string(s).map_err(|e| StoreError(format!("the wallet store could not write a session: {e}")))?;
        let conn = self.conn.lock().unwrap();
        conn.execute(
            "INSERT INTO sessions (key, expires_at, body, user_id) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body, user_id = excluded.user_id",
            params![&key[..], s.expires_at_ms as i64, body, s.user_id],
        )
        .map_err(err("write a session"))?;
        Ok(())
    }

    fn delete_sessions(&self, keys: &[[u8; 32]]) -> Result<(), StoreError> {
        let mut conn = self.conn.lock().unwrap();
        let tx = conn.transaction().map_err(err("end a session"))?;
        for k in keys {
            tx.execute("DELETE FROM sessions WHERE key = ?1", params![&k[..]]).map_err(err("end a session"))?;
        }
        tx.commit().map_err(err("end a session"))
    }

    fn put_entry(&self, kind: &str, key: &str, expires_at_ms: u64, body: &str) -> Result<(), StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.execute(
            "INSERT INTO entries (kind, key, expires_at, body) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(kind, key) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
            params![kind, key, expires_at_ms as i64, body],
        )
        .map_err(err("write an entry"))?;
        Ok(())
    }

    fn delete_entry(&self, kind: &str, key: &str) -> Result<(), StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.execute("DELETE FROM entries WHERE kind = ?1 AND key = ?2", params![kind, key]).map_err(err("delete an entry"))?;
        Ok(())
    }

    fn entries(&self, kind: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.execute("DELETE FROM entries WHERE kind = ?1 AND expires_at <= ?2", params![kind, now_ms as i64]).map_err(err("drop the expired entries"))?;
        let mut stmt = conn.prepare("SELECT key, body FROM entries WHERE kind = ?1").map_err(err("read the entries"))?;
        let rows = stmt.query_map(params![kind], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))).map_err(err("read the entries"))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err("read an entry"))
    }

    fn entries_under(&self, kind: &str, prefix: &str, now_ms: u64) -> Result<Vec<(String, String)>, StoreError> {
        let conn = self.conn.lock().unwrap();
        // substr, not LIKE: a prefix is matched as it is (`%` and `_` are plain characters).
        let mut stmt = conn
            .prepare("SELECT key, body FROM entries WHERE kind = ?1 AND substr(key, 1, ?2) = ?3 AND expires_at > ?4 ORDER BY key")
            .map_err(err("read the entries"))?;
        let rows = stmt
            .query_map(params![kind, prefix.chars().count() as i64, prefix, now_ms as i64], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(err("read the entries"))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err("read an entry"))
    }

    fn sessions_of(&self, user_id: &str, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn
            .prepare("SELECT key, body FROM sessions WHERE user_id = ?1 AND expires_at > ?2 ORDER BY expires_at")
            .map_err(err("read the sessions"))?;
        let rows = stmt.query_map(params![user_id, now_ms as i64], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?))).map_err(err("read the sessions"))?;
        let mut out = Vec::new();
        for row in rows {
            let (key, body) = row.map_err(err("read a session"))?;
            out.push(session_from(&key, &body)?);
        }
        Ok(out)
    }

    fn purge_expired(&self, now_ms: u64) -> Result<u64, StoreError> {
        let conn = self.conn.lock().unwrap();
        let n = conn.execute("DELETE FROM entries WHERE expires_at <= ?1", params![now_ms as i64]).map_err(err("drop the expired entries"))?;
        let m = conn.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now_ms as i64]).map_err(err("drop the expired sessions"))?;
        Ok((n + m) as u64)
    }

    fn sessions(&self, now_ms: u64) -> Result<Vec<([u8; 32], StoredSession)>, StoreError> {
        let conn = self.conn.lock().unwrap();
        conn.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now_ms as i64]).map_err(err("drop the expired sessions"))?;
        let mut stmt = conn.prepare("SELECT key, body FROM sessions").map_err(err("read the sessions"))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?))).map_err(err("read the sessions"))?;
        let mut out = Vec::new();
        for row in rows {
            let (key, body) = row.map_err(err("read a session"))?;
            out.push(session_from(&key, &body)?);
        }
        Ok(out)
    }
}

/// Writes account `a` and its identities within `tx` (refused when another account holds one).
fn write_account(tx: &rusqlite::Transaction<'_>, a: &Account) -> Result<(), StoreError> {
    let body = account_body(a)?;
    tx.execute("INSERT INTO accounts (user_id, body) VALUES (?1, ?2) ON CONFLICT(user_id) DO UPDATE SET body = excluded.body", params![a.user_id, body])
        .map_err(err("write an account"))?;
    let held: Vec<String> = {
        let mut stmt = tx.prepare("SELECT identity FROM identities WHERE user_id = ?1").map_err(err("write an account"))?;
        let rows = stmt.query_map(params![a.user_id], |r| r.get(0)).map_err(err("write an account"))?;
        rows.collect::<Result<_, _>>().map_err(err("write an account"))?
    };
    for gone in held.iter().filter(|i| !a.identities.contains(i)) {
        tx.execute("DELETE FROM identities WHERE identity = ?1", params![gone]).map_err(err("write an account"))?;
    }
    for identity in &a.identities {
        tx.execute("INSERT INTO identities (identity, user_id) VALUES (?1, ?2) ON CONFLICT(identity) DO NOTHING", params![identity, a.user_id])
            .map_err(err("write an account"))?;
        let owner: String = tx.query_row("SELECT user_id FROM identities WHERE identity = ?1", params![identity], |r| r.get(0)).map_err(err("write an account"))?;
        if owner != a.user_id {
            return Err(identity_taken());
        }
    }
    Ok(())
}

#[cfg(test)]
impl Sqlite {
    /// Makes every later write fail (the tables gone), as a full disk would.
    pub(crate) fn break_writes(&self) {
        self.conn.lock().unwrap().execute_batch("DROP TABLE accounts; DROP TABLE keks;").unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::super::contract;
    use super::*;
    use std::sync::Arc;

    /// A folder of the test's own (removed when the handle drops) and the store's file in it.
    fn file(name: &str) -> (crate::testing::TempDir, std::path::PathBuf) {
        let dir = crate::testing::TempDir::new(&format!("durable-{name}"));
        let path = dir.join("wallet.sqlite");
        (dir, path)
    }

    fn opener((dir, path): (crate::testing::TempDir, std::path::PathBuf)) -> impl Fn(&[u8; 32]) -> Result<Arc<dyn Durable>, StoreError> {
        move |master| {
            let _kept = &dir;
            Ok(Arc::new(Sqlite::open(&path, master)?) as Arc<dyn Durable>)
        }
    }

    #[test]
    fn accounts_and_keys_written_are_read_back_after_the_file_is_opened_again() {
        contract::written_is_read_back(&opener(file("reopen")));
    }

    #[test]
    fn the_wrong_master_key_is_refused_before_and_after_keys_are_stored() {
        contract::wrong_master_key_is_refused(&opener(file("check")));
    }

    #[test]
    fn sessions_are_kept_until_they_expire_or_end() {
        contract::sessions_are_kept_until_they_expire_or_end(&opener(file("sessions")));
    }

    #[test]
    fn entries_are_kept_by_kind_and_key_until_they_expire() {
        contract::entries_are_kept_by_kind_and_key_until_they_expire(&opener(file("entries")));
    }

    #[test]
    fn point_reads_answer_what_was_written_and_an_identity_has_one_account() {
        contract::point_reads_and_one_account_per_identity(&opener(file("points")));
    }

    #[test]
    fn a_schema_1_file_is_migrated_and_keeps_its_accounts() {
        let (_dir, path) = file("migrate");
        {
            let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
            d.put_account(&contract::account("a")).unwrap();
            let c = d.conn.lock().unwrap();
            c.execute_batch("DROP TABLE sessions; DROP TABLE entries; DROP TABLE identities; PRAGMA user_version = 1;").unwrap();
        }
        let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
        assert_eq!(d.accounts().unwrap().len(), 1);
        assert_eq!(d.account_of("p/email:a@example.com").unwrap().map(|a| a.user_id).as_deref(), Some("a"), "its identities were indexed");
        assert!(d.sessions(0).unwrap().is_empty() && d.entries("code", 0).unwrap().is_empty());
        let v: i32 = d.conn.lock().unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(v, SCHEMA);
    }

    #[test]
    fn a_schema_4_files_sessions_are_found_by_their_account_after_migrating() {
        let (_dir, path) = file("migrate4");
        {
            let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
            let c = d.conn.lock().unwrap();
            // A schema-4 sessions table, as an older server left it.
            c.execute_batch(
                "DROP TABLE sessions; DROP INDEX IF EXISTS sessions_user;
                 CREATE TABLE sessions (key BLOB PRIMARY KEY, expires_at INTEGER NOT NULL, body TEXT NOT NULL);
                 INSERT INTO sessions VALUES (x'0101010101010101010101010101010101010101010101010101010101010101', 9000,
                   '{\"user_id\":\"u\",\"device_id\":\"d\",\"project_id\":\"p\",\"client\":\"127.0.0.1\",\"expires_at_ms\":9000}');
                 PRAGMA user_version = 4;",
            )
            .unwrap();
        }
        let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
        let of_u = d.sessions_of("u", 1_000).unwrap();
        assert_eq!(of_u.len(), 1, "the stored session's account was filled in");
        assert_eq!((of_u[0].0, of_u[0].1.expires_at_ms), ([1u8; 32], 9_000));
    }

    #[test]
    fn keys_are_sealed_in_the_file() {
        let (_dir, path) = file("sealed");
        let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[0x5a; 32]).unwrap();
        drop(d);
        let raw = std::fs::read(&path).unwrap_or_default();
        let wal = std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default();
        let plain = [0x5a_u8; 32];
        assert!(!raw.windows(32).any(|w| w == plain) && !wal.windows(32).any(|w| w == plain), "the key is not in the file in the clear");
    }

    #[test]
    fn a_file_with_keys_but_no_check_value_gets_one_only_under_the_key_that_opens_them() {
        let (_dir, path) = file("nocheck");
        let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[1u8; 32]).unwrap();
        d.conn.lock().unwrap().execute("DELETE FROM meta", []).unwrap();
        drop(d);
        assert!(Sqlite::open(&path, &[8u8; 32]).is_err(), "the wrong key is refused by the keys");
        assert!(Sqlite::open(&path, &[7u8; 32]).is_ok(), "and it did not leave a check value of its own");
    }

    #[test]
    fn a_key_moved_to_another_account_does_not_open() {
        let (_dir, path) = file("moved");
        let d = Sqlite::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[3u8; 32]).unwrap();
        d.conn.lock().unwrap().execute("UPDATE keks SET user_id = 'b'", []).unwrap();
        assert!(d.keks().is_err());
    }

    #[test]
    fn a_store_of_a_newer_schema_is_refused() {
        let (_dir, path) = file("newer");
        drop(Sqlite::open(&path, &[7u8; 32]).unwrap());
        Connection::open(&path).unwrap().pragma_update(None, "user_version", 9).unwrap();
        let e = Sqlite::open(&path, &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("schema 9"), "{e}");
    }
}
