//! The key store: the accounts' key-encryption keys, kept apart from the accounts.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::wallet::random_bytes;

/// The accounts' key-encryption keys (32 random bytes each, drawn when the account is made). Apart
/// from [`Accounts`](super::Accounts), which holds only ciphertexts: in production an HSM or KMS. One per account,
/// so bounded like the accounts.
#[derive(Debug, Default)]
pub struct KeyStore {
    keys: Mutex<HashMap<String, [u8; 32]>>,
}

impl KeyStore {
    /// Draws the account's key (kept if it already has one).
    pub fn create(&self, user_id: &str) -> [u8; 32] {
        *self
            .keys
            .lock()
            .unwrap()
            .entry(user_id.to_string())
            .or_insert_with(random_bytes)
    }

    pub fn get(&self, user_id: &str) -> Option<[u8; 32]> {
        self.keys.lock().unwrap().get(user_id).copied()
    }
}
