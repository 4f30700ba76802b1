//! What must survive a restart of the wallet service: the accounts (identities, devices, the key
//! ciphertext and address) and the key-encryption keys, in an SQLite file (WAL, `synchronous=FULL`:
//! a write is on disk before the request that made it is answered). The keys are kept in a table
//! of their own, each sealed under the server's master key (ChaCha20-Poly1305, a random nonce,
//! the account's id as associated data: a sealed key moved to another account does not open); the
//! master key comes from the configuration, never from the file (see the README, "Run the
//! services": put it in a KMS or a secret store).
//!
//! The in-memory tables stay the readers' (one lock per lookup, never across an await); every
//! change is written here first, and a change that cannot be written is refused (the request
//! fails, nothing is half-kept). A write holds its table's lock for the fsync (milliseconds);
//! moving writes off the request's thread is left to the load work of issue 25.

use std::path::Path;
use std::sync::Mutex;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use rusqlite::{params, Connection, OptionalExtension};

use super::Account;
use crate::wallet::random_bytes;

/// The schema this code reads and writes (`PRAGMA user_version`).
const SCHEMA: i32 = 1;

/// Why the store cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(what: &str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |e| StoreError(format!("the wallet store could not {what}: {e}"))
}

/// The wallet service's durable store (an SQLite file).
pub struct Durable {
    conn: Mutex<Connection>,
    master: ChaCha20Poly1305,
}

impl std::fmt::Debug for Durable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the master key.)
        f.write_str("Durable(sqlite)")
    }
}

impl Durable {
    /// Opens (or makes) the store at `path`, migrated to [`SCHEMA`]. Refused when the file is a
    /// newer schema's, or when `master` does not open the keys already in it (the wrong master
    /// key would otherwise look like lost wallets).
    pub fn open(path: &Path, master: &[u8; 32]) -> Result<Durable, StoreError> {
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
        conn.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, nonce BLOB NOT NULL, sealed BLOB NOT NULL)", []).map_err(err("make its tables"))?;
        let durable = Durable { conn: Mutex::new(conn), master: ChaCha20Poly1305::new(&Key::from(*master)) };
        // The stored keys first: a file made before its check value gets one only under the
        // master key that opens them.
        durable.keks()?;
        durable.check_master()?;
        Ok(durable)
    }

    /// The master key is the file's: a value sealed under it when the file was made must open
    /// (checked even when no key is stored yet, so a wrong master key never seals new keys).
    fn check_master(&self) -> Result<(), StoreError> {
        const CHECK: &[u8] = b"wallet-modal master key check";
        let conn = self.conn.lock().unwrap();
        let held: Option<(Vec<u8>, Vec<u8>)> =
            conn.query_row("SELECT nonce, sealed FROM meta WHERE k = 'master'", [], |r| Ok((r.get(0)?, r.get(1)?))).optional().map_err(err("read its master key check"))?;
        let wrong = || StoreError("the master key does not open the wallet store's keys (the wrong key, or a damaged file)".into());
        match held {
            Some((nonce, sealed)) => {
                let nonce: [u8; 12] = nonce.try_into().map_err(|_| wrong())?;
                let plain = self.master.decrypt(&Nonce::from(nonce), Payload { msg: &sealed, aad: b"meta:master" }).map_err(|_| wrong())?;
                if plain != CHECK {
                    return Err(wrong());
                }
            }
            None => {
                let nonce: [u8; 12] = random_bytes();
                let sealed = self.master.encrypt(&Nonce::from(nonce), Payload { msg: CHECK, aad: b"meta:master" }).map_err(|_| StoreError("the wallet store could not seal its check".into()))?;
                conn.execute("INSERT INTO meta (k, nonce, sealed) VALUES ('master', ?1, ?2)", params![&nonce[..], sealed]).map_err(err("write its master key check"))?;
            }
        }
        Ok(())
    }

    /// Writes an account (made or changed).
    pub fn put_account(&self, a: &Account) -> Result<(), StoreError> {
        let body = serde_json::to_string(a).map_err(|e| StoreError(format!("the wallet store could not write an account: {e}")))?;
        let conn = self.conn.lock().unwrap();
        conn.execute("INSERT INTO accounts (user_id, body) VALUES (?1, ?2) ON CONFLICT(user_id) DO UPDATE SET body = excluded.body", params![a.user_id, body])
            .map_err(err("write an account"))?;
        Ok(())
    }

    /// Every account.
    pub fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn.prepare("SELECT body FROM accounts").map_err(err("read the accounts"))?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(err("read the accounts"))?;
        let mut out = Vec::new();
        for body in rows {
            let body = body.map_err(err("read an account"))?;
            out.push(serde_json::from_str(&body).map_err(|e| StoreError(format!("the wallet store holds an account it cannot read: {e}")))?);
        }
        Ok(out)
    }

    /// Writes an account's key-encryption key, sealed under the master key; one per account,
    /// never replaced.
    pub fn put_kek(&self, user_id: &str, kek: &[u8; 32]) -> Result<(), StoreError> {
        let nonce: [u8; 12] = random_bytes();
        let sealed = self
            .master
            .encrypt(&Nonce::from(nonce), Payload { msg: kek, aad: user_id.as_bytes() })
            .map_err(|_| StoreError("the wallet store could not seal a key".into()))?;
        let conn = self.conn.lock().unwrap();
        let held: Option<i64> = conn.query_row("SELECT 1 FROM keks WHERE user_id = ?1", params![user_id], |r| r.get(0)).optional().map_err(err("read a key"))?;
        if held.is_some() {
            return Err(StoreError("the wallet store already holds this account's key".into()));
        }
        conn.execute("INSERT INTO keks (user_id, nonce, sealed) VALUES (?1, ?2, ?3)", params![user_id, &nonce[..], sealed]).map_err(err("write a key"))?;
        Ok(())
    }

    /// Every key-encryption key, opened with the master key.
    pub fn keks(&self) -> Result<Vec<(String, [u8; 32])>, StoreError> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn.prepare("SELECT user_id, nonce, sealed FROM keks").map_err(err("read the keys"))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?, r.get::<_, Vec<u8>>(2)?))).map_err(err("read the keys"))?;
        let mut out = Vec::new();
        for row in rows {
            let (user_id, nonce, sealed) = row.map_err(err("read a key"))?;
            let wrong = || StoreError("the master key does not open the wallet store's keys (the wrong key, or a damaged file)".into());
            let nonce: [u8; 12] = nonce.try_into().map_err(|_| wrong())?;
            let kek = self.master.decrypt(&Nonce::from(nonce), Payload { msg: &sealed, aad: user_id.as_bytes() }).map_err(|_| wrong())?;
            out.push((user_id, kek.try_into().map_err(|_| wrong())?));
        }
        Ok(out)
    }
}

#[cfg(test)]
impl Durable {
    /// Makes every later write fail (the tables gone), as a full disk would.
    pub(crate) fn break_writes(&self) {
        self.conn.lock().unwrap().execute_batch("DROP TABLE accounts; DROP TABLE keks;").unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn account(id: &str) -> Account {
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

    fn file(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("wm-durable-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("wallet.sqlite")
    }

    #[test]
    fn accounts_and_keys_written_are_read_back_after_the_file_is_opened_again() {
        let path = file("reopen");
        let master = [7u8; 32];
        {
            let d = Durable::open(&path, &master).unwrap();
            d.put_account(&account("a")).unwrap();
            let mut changed = account("a");
            changed.email = Some("new@example.com".into());
            d.put_account(&changed).unwrap();
            d.put_kek("a", &[9u8; 32]).unwrap();
            assert!(d.put_kek("a", &[1u8; 32]).is_err(), "a key is never replaced");
        }
        let d = Durable::open(&path, &master).unwrap();
        let accounts = d.accounts().unwrap();
        assert_eq!(accounts.len(), 1);
        assert_eq!(accounts[0].email.as_deref(), Some("new@example.com"));
        assert_eq!(accounts[0].devices, HashSet::from(["dev-1".to_string()]));
        assert_eq!(d.keks().unwrap(), vec![("a".to_string(), [9u8; 32])]);
    }

    #[test]
    fn keys_are_sealed_in_the_file_and_the_wrong_master_key_is_refused() {
        let path = file("sealed");
        let d = Durable::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[0x5a; 32]).unwrap();
        drop(d);
        let raw = std::fs::read(&path).unwrap_or_default();
        let wal = std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default();
        let plain = [0x5a_u8; 32];
        assert!(!raw.windows(32).any(|w| w == plain) && !wal.windows(32).any(|w| w == plain), "the key is not in the file in the clear");
        let refused = Durable::open(&path, &[8u8; 32]).unwrap_err();
        assert!(refused.0.contains("master key does not open"), "{refused}");
    }

    #[test]
    fn a_file_with_keys_but_no_check_value_gets_one_only_under_the_key_that_opens_them() {
        let path = file("nocheck");
        let d = Durable::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[1u8; 32]).unwrap();
        d.conn.lock().unwrap().execute("DELETE FROM meta", []).unwrap();
        drop(d);
        assert!(Durable::open(&path, &[8u8; 32]).is_err(), "the wrong key is refused by the keys");
        assert!(Durable::open(&path, &[7u8; 32]).is_ok(), "and it did not leave a check value of its own");
    }

    #[test]
    fn the_wrong_master_key_is_refused_even_before_any_key_is_stored() {
        let path = file("check");
        drop(Durable::open(&path, &[7u8; 32]).unwrap());
        let refused = Durable::open(&path, &[8u8; 32]).unwrap_err();
        assert!(refused.0.contains("master key does not open"), "{refused}");
        assert!(Durable::open(&path, &[7u8; 32]).is_ok());
    }

    #[test]
    fn a_key_moved_to_another_account_does_not_open() {
        let path = file("moved");
        let d = Durable::open(&path, &[7u8; 32]).unwrap();
        d.put_kek("a", &[3u8; 32]).unwrap();
        d.conn.lock().unwrap().execute("UPDATE keks SET user_id = 'b'", []).unwrap();
        assert!(d.keks().is_err());
    }

    #[test]
    fn a_store_of_a_newer_schema_is_refused() {
        let path = file("newer");
        drop(Durable::open(&path, &[7u8; 32]).unwrap());
        Connection::open(&path).unwrap().pragma_update(None, "user_version", 9).unwrap();
        let e = Durable::open(&path, &[7u8; 32]).unwrap_err();
        assert!(e.0.contains("schema 9"), "{e}");
    }
}
