//! From a verified identity to an account and a session: the one way every login method (email
//! codes, social login, Farcaster) ends. Accounts are per project: the same email, social account
//! or fid logging into another project gets another account (another user id, kek and key).

use std::collections::HashSet;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::store::{scoped, Account};
use super::{hex, random_bytes, spend, ApiError, Wallet};
use crate::client::Client;

/// An identity the service has just verified (a code mailed to the email, an OIDC `id_token`, a
/// Farcaster signature).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedIdentity {
    /// The identity's stable key, before its project scopes it ([`scoped`]):
    /// `email:alice@example.com`, `google:<sub>`, `farcaster:<fid>`.
    pub user_id: String,
    pub email: Option<String>,
    pub user_name: Option<String>,
    pub social_provider: Option<String>,
}

impl VerifiedIdentity {
    /// The identity of an email that proved itself with a mailed code (`email` already normalised).
    pub fn email(email: &str) -> Self {
        VerifiedIdentity {
            user_id: format!("email:{email}"),
            email: Some(email.to_string()),
            user_name: None,
            social_provider: None,
        }
    }
}

impl Wallet {
    /// The account of `identity` in `project`, made for `client` when there is none (a new user
    /// id, a new `kek` in the key store).
    pub fn account_for(
        &self,
        identity: &VerifiedIdentity,
        project: &str,
        client: Client,
    ) -> Result<Account, ApiError> {
        let key = scoped(project, &identity.user_id);
        let (account, _created) = self
            .accounts
            .find_or_create(&key, client, || Account {
                user_id: hex(&random_bytes::<16>()),
                project_id: project.to_string(),
                identities: vec![key.clone()],
                email: identity.email.clone(),
                user_name: identity.user_name.clone(),
                social_provider: identity.social_provider.clone(),
                key_ciphertext: None,
                address: None,
                devices: HashSet::new(),
            })
            .map_err(|n| match n {
                super::table::NoRoom::Client => ApiError::new(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    "Too many new accounts from your network: try again later",
                ),
                super::table::NoRoom::Full => ApiError::full(),
                super::table::NoRoom::Store => ApiError::store_failed(),
            })?;
        // Drawn with the account (kept when it already exists).
        self.keys.create(&account.user_id).map_err(|_| ApiError::store_failed())?;
        Ok(account)
    }

    /// Finds the account of `identity` in `project` or makes one, approves `device_id` for it,
    /// opens a session charged to `client`, and answers what `POST /w/v1/email/verify` does:
    /// `{session, userId, email, kek, keyCiphertext}`.
    ///
    /// The caller has checked the identity, and for an email, that the device may log in (see
    /// [`Wallet::device_approved`]).
    pub fn login(
        &self,
        identity: &VerifiedIdentity,
        device_id: &str,
        project: &str,
        client: Client,
    ) -> Result<Value, ApiError> {
        spend(&self.budgets.logins, client)?;
        let account = self.account_for(identity, project, client)?;
        let kek = self.keys.create(&account.user_id).map_err(|_| ApiError::store_failed())?;
        self.accounts.approve_device(&account.user_id, device_id).map_err(ApiError::no_room)?;
        let session = self
            .sessions
            .create(
                &account.user_id,
                device_id,
                project,
                client,
                self.config.session_ttl,
            )
            .map_err(ApiError::no_room)?;
        Ok(json!({
            "session": session,
            "userId": account.user_id,
            "email": account.email,
            "kek": STANDARD.encode(kek),
            "keyCiphertext": account.key_ciphertext,
        }))
    }

    /// Whether `device_id` is approved for the account of the (project-scoped) `identity`: an
    /// account must exist (the approval link makes it) and know the device.
    pub fn device_approved(&self, identity: &str, device_id: &str) -> bool {
        self.accounts
            .find(identity)
            .is_some_and(|a| a.devices.contains(device_id))
    }

    /// `GET /w/v1/session`'s answer for `user_id`.
    pub fn session_json(&self, user_id: &str) -> Option<Value> {
        let a = self.accounts.get(user_id)?;
        let kek = self.keys.get(user_id)?;
        Some(json!({
            "userId": a.user_id,
            "projectId": a.project_id,
            "email": a.email,
            "kek": STANDARD.encode(kek),
            "keyCiphertext": a.key_ciphertext,
            "address": a.address,
            "userName": a.user_name,
            "socialProvider": a.social_provider,
        }))
    }
}
