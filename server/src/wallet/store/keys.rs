//! The key store: the accounts' key-encryption keys, kept apart from the accounts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::durable::{Durable, StoreError};
use crate::wallet::random_bytes;

/// The accounts' key-encryption keys (32 random bytes each, drawn when the account is made). Apart
/// from [`Accounts`](super::Accounts), which holds only ciphertexts; with a durable store, each is
/// written there sealed under the server's master key before it is handed out. One per account,
/// so bounded like the accounts.
#[derive(Default)]
pub struct KeyStore {
    keys: Mutex<HashMap<String, [u8; 32]>>,
    durable: Option<Arc<dyn Durable>>,
}

impl std::fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the keys.)
        write!(f, "KeyStore {{ {} keys }}", self.keys.lock().map(|k| k.len()).unwrap_or(0))
    }
}

impl KeyStore {
    /// The keys of a durable store: each read (and opened) from it when first needed.
    pub fn durable(durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(KeyStore { keys: Mutex::new(Default::default()), durable: Some(durable) })
    }

    /// The account's key, drawn (and first written to the durable store) when it has none.
    pub fn create(&self, user_id: &str) -> Result<[u8; 32], StoreError> {
        if let Some(k) = self.get(user_id) {
            return Ok(k);
        }
        let mut keys = crate::wallet::table::lock(&self.keys);
        let mut k: [u8; 32] = random_bytes();
        if let Some(d) = &self.durable {
            // The key the store holds (the one just drawn, unless an earlier write got there).
            k = d.put_kek(user_id, &k)?;
        }
        keys.insert(user_id.to_string(), k);
        Ok(k)
    }

    /// The account's key: here, or (made by another server process) read from the durable store.
    pub fn get(&self, user_id: &str) -> Option<[u8; 32]> {
        if let Some(k) = crate::wallet::table::lock(&self.keys).get(user_id).copied() {
            return Some(k);
        }
        let k = self.durable.as_ref()?.kek(user_id).ok()??;
        crate::wallet::table::lock(&self.keys).insert(user_id.to_string(), k);
        Some(k)
    }
}
