//! From a verified identity to an account and a session: the one way every login method (email
//! codes now; social login and Farcaster later) ends.

use std::collections::HashSet;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::store::{email_identity, Account};
use super::{hex, random_bytes, ApiError, Wallet};

/// An identity the service has just verified (a code mailed to the email, an OIDC `id_token`, a
/// Farcaster signature).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedIdentity {
    /// The identity's stable key: `email:alice@example.com`, `google:<sub>`, `farcaster:<fid>`.
    pub user_id: String,
    pub email: Option<String>,
    pub user_name: Option<String>,
    pub social_provider: Option<String>,
}

impl VerifiedIdentity {
    /// The identity of an email that proved itself with a mailed code (`email` already normalised).
    pub fn email(email: &str) -> Self {
        VerifiedIdentity {
            user_id: email_identity(email),
            email: Some(email.to_string()),
            user_name: None,
            social_provider: None,
        }
    }
}

impl Wallet {
    /// Finds the account of `identity` or makes one (a new user id, a new `kek` in the key store),
    /// approves `device_id` for it, opens a session, and answers what `POST /w/v1/email/verify` does:
    /// `{session, userId, email, kek, keyCiphertext}`.
    ///
    /// The caller has checked the identity, and for an account that already exists, that the device
    /// may log in (see [`Wallet::device_approved`]).
    pub fn login(&self, identity: &VerifiedIdentity, device_id: &str) -> Result<Value, ApiError> {
        let (account, _created) = self
            .accounts
            .find_or_create(&identity.user_id, || Account {
                user_id: hex(&random_bytes::<16>()),
                identities: vec![identity.user_id.clone()],
                email: identity.email.clone(),
                user_name: identity.user_name.clone(),
                social_provider: identity.social_provider.clone(),
                key_ciphertext: None,
                address: None,
                devices: HashSet::new(),
            })
            .ok_or_else(ApiError::full)?;
        // Drawn with the account (kept when it already exists).
        let kek = self.keys.create(&account.user_id);
        self.accounts.approve_device(&account.user_id, device_id);
        let session = self
            .sessions
            .create(&account.user_id, device_id, self.config.session_ttl)
            .ok_or_else(ApiError::full)?;
        Ok(json!({
            "session": session,
            "userId": account.user_id,
            "email": account.email,
            "kek": STANDARD.encode(kek),
            "keyCiphertext": account.key_ciphertext,
        }))
    }

    /// Whether `device_id` may log into the account of `identity`: yes when there is no account yet
    /// (it will be made for this device) or the device is approved for it.
    pub fn device_approved(&self, identity: &str, device_id: &str) -> bool {
        self.accounts
            .find(identity)
            .is_none_or(|a| a.devices.contains(device_id))
    }

    /// `GET /w/v1/session`'s answer for `user_id`.
    pub fn session_json(&self, user_id: &str) -> Option<Value> {
        let a = self.accounts.get(user_id)?;
        let kek = self.keys.get(user_id)?;
        Some(json!({
            "userId": a.user_id,
            "email": a.email,
            "kek": STANDARD.encode(kek),
            "keyCiphertext": a.key_ciphertext,
            "address": a.address,
            "userName": a.user_name,
            "socialProvider": a.social_provider,
        }))
    }
}
