//! The wallet service's in-memory stores: accounts (with the key ciphertext and address), the key
//! store (the key-encryption keys, apart), sessions, device approvals and pending email changes.
//! Each has its own lock, held only for a lookup or an update, never across an await.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use super::otp::PendingCode;
use super::{hex, random_bytes, sha256};

// ---------------------------------------------------------------------------------------------------------
// Accounts

/// One account. The `kek` is not here: it is in the [`KeyStore`].
#[derive(Debug, Clone)]
pub struct Account {
    pub user_id: String,
    /// The identities that log into it (`email:alice@example.com`, later `google:…`).
    pub identities: Vec<String>,
    pub email: Option<String>,
    pub user_name: Option<String>,
    pub social_provider: Option<String>,
    /// `iv ‖ ciphertext` of the root secret, base64, once the frame uploaded it.
    pub key_ciphertext: Option<String>,
    pub address: Option<String>,
    /// Devices that proved an identity of this account (approved).
    pub devices: HashSet<String>,
}

#[derive(Debug, Default)]
struct AccountsInner {
    by_id: HashMap<String, Account>,
    by_identity: HashMap<String, String>,
}

#[derive(Debug)]
pub struct Accounts {
    inner: Mutex<AccountsInner>,
    max: usize,
}

/// Why storing a key failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRefused {
    AlreadyStored,
    NoAccount,
}

/// Why an email change failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailRefused {
    Taken,
    NoAccount,
}

/// The identity key of an email login.
pub fn email_identity(email: &str) -> String {
    format!("email:{email}")
}

impl Accounts {
    pub fn new(max: usize) -> Self {
        Accounts {
            inner: Mutex::new(AccountsInner::default()),
            max,
        }
    }

    pub fn get(&self, user_id: &str) -> Option<Account> {
        self.inner.lock().unwrap().by_id.get(user_id).cloned()
    }

    pub fn find(&self, identity: &str) -> Option<Account> {
        let g = self.inner.lock().unwrap();
        g.by_identity
            .get(identity)
            .and_then(|id| g.by_id.get(id))
            .cloned()
    }

    /// The account of `identity`, made with `make` when there is none (`None`: the store is full).
    /// `created` tells which.
    pub fn find_or_create(
        &self,
        identity: &str,
        make: impl FnOnce() -> Account,
    ) -> Option<(Account, bool)> {
        let mut g = self.inner.lock().unwrap();
        if let Some(a) = g.by_identity.get(identity).and_then(|id| g.by_id.get(id)) {
            return Some((a.clone(), false));
        }
        if g.by_id.len() >= self.max {
            return None;
        }
        let a = make();
        g.by_identity
            .insert(identity.to_string(), a.user_id.clone());
        g.by_id.insert(a.user_id.clone(), a.clone());
        Some((a, true))
    }

    pub fn approve_device(&self, user_id: &str, device_id: &str) {
        if let Some(a) = self.inner.lock().unwrap().by_id.get_mut(user_id) {
            a.devices.insert(device_id.to_string());
        }
    }

    /// Stores the key ciphertext and address, once.
    pub fn store_key(
        &self,
        user_id: &str,
        ciphertext: &str,
        address: &str,
    ) -> Result<(), KeyRefused> {
        let mut g = self.inner.lock().unwrap();
        let a = g.by_id.get_mut(user_id).ok_or(KeyRefused::NoAccount)?;
        if a.key_ciphertext.is_some() {
            return Err(KeyRefused::AlreadyStored);
        }
        a.key_ciphertext = Some(ciphertext.to_string());
        a.address = Some(address.to_string());
        Ok(())
    }

    /// Whether `email` logs into an account other than `user_id`.
    pub fn email_taken(&self, email: &str, user_id: &str) -> bool {
        let g = self.inner.lock().unwrap();
        g.by_identity
            .get(&email_identity(email))
            .is_some_and(|id| id != user_id)
    }

    /// Makes `new_email` the account's email (and email identity); the old one no longer logs in.
    pub fn change_email(&self, user_id: &str, new_email: &str) -> Result<(), EmailRefused> {
        let mut g = self.inner.lock().unwrap();
        let new_identity = email_identity(new_email);
        if g.by_identity
            .get(&new_identity)
            .is_some_and(|id| id != user_id)
        {
            return Err(EmailRefused::Taken);
        }
        let a = g.by_id.get_mut(user_id).ok_or(EmailRefused::NoAccount)?;
        let old_identity = a.email.as_deref().map(email_identity);
        if let Some(old) = &old_identity {
            a.identities.retain(|i| i != old);
        }
        a.identities.push(new_identity.clone());
        a.email = Some(new_email.to_string());
        if let Some(old) = old_identity {
            g.by_identity.remove(&old);
        }
        g.by_identity.insert(new_identity, user_id.to_string());
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------------
// Key store

/// The accounts' key-encryption keys (32 random bytes each, drawn when the account is made). Apart
/// from [`Accounts`], which holds only ciphertexts: in production an HSM or KMS.
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

// ---------------------------------------------------------------------------------------------------------
// Sessions

#[derive(Debug, Clone)]
pub struct Session {
    pub user_id: String,
    pub device_id: String,
    pub expires: Instant,
}

/// Sessions by the hash of their token (the token itself is only in the frame).
#[derive(Debug)]
pub struct Sessions {
    by_hash: Mutex<HashMap<[u8; 32], Session>>,
    max: usize,
}

impl Sessions {
    pub fn new(max: usize) -> Self {
        Sessions {
            by_hash: Mutex::new(HashMap::new()),
            max,
        }
    }

    /// A new session: its token (32 random bytes, hex). `None` when the table is full.
    pub fn create(&self, user_id: &str, device_id: &str, ttl: Duration) -> Option<String> {
        let token = hex(&random_bytes::<32>());
        let mut m = self.by_hash.lock().unwrap();
        if m.len() >= self.max {
            let now = Instant::now();
            m.retain(|_, s| s.expires > now);
            if m.len() >= self.max {
                return None;
            }
        }
        m.insert(
            sha256(&[token.as_bytes()]),
            Session {
                user_id: user_id.to_string(),
                device_id: device_id.to_string(),
                expires: Instant::now() + ttl,
            },
        );
        Some(token)
    }

    /// The live session of `token`.
    pub fn get(&self, token: &str) -> Option<Session> {
        let key = sha256(&[token.as_bytes()]);
        let mut m = self.by_hash.lock().unwrap();
        match m.get(&key) {
            Some(s) if s.expires > Instant::now() => Some(s.clone()),
            Some(_) => {
                m.remove(&key);
                None
            }
            None => None,
        }
    }

    pub fn revoke(&self, token: &str) {
        self.by_hash
            .lock()
            .unwrap()
            .remove(&sha256(&[token.as_bytes()]));
    }
}

// ---------------------------------------------------------------------------------------------------------
// Device approvals

/// A known email asked for a code from an unknown device: the link mailed to the email approves it.
#[derive(Debug)]
struct Approval {
    user_id: String,
    token_hash: [u8; 32],
    expires: Instant,
    /// Set to true when approved: wakes `POST /w/v1/device/wait`.
    approved: watch::Sender<bool>,
}

/// What an approval link names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalTarget {
    pub email: String,
    pub device_id: String,
    pub user_id: String,
}

#[derive(Debug, Default)]
struct ApprovalsInner {
    /// By (email, device id).
    pending: HashMap<(String, String), Approval>,
    /// Token hash → (email, device id).
    tokens: HashMap<[u8; 32], (String, String)>,
}

#[derive(Debug)]
pub struct Approvals {
    inner: Mutex<ApprovalsInner>,
    max: usize,
}

/// Looking up an approval link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Valid(ApprovalTarget),
    Expired,
    Unknown,
}

impl Approvals {
    pub fn new(max: usize) -> Self {
        Approvals {
            inner: Mutex::new(ApprovalsInner::default()),
            max,
        }
    }

    /// A new link token for (email, device) (replacing an earlier one; whoever waits keeps
    /// waiting). `None` when the table is full.
    pub fn create(
        &self,
        email: &str,
        device_id: &str,
        user_id: &str,
        ttl: Duration,
    ) -> Option<String> {
        let token = hex(&random_bytes::<32>());
        let token_hash = sha256(&[token.as_bytes()]);
        let key = (email.to_string(), device_id.to_string());
        let mut g = self.inner.lock().unwrap();
        if g.pending.len() >= self.max && !g.pending.contains_key(&key) {
            let now = Instant::now();
            let g = &mut *g;
            g.pending.retain(|_, a| a.expires > now);
            let pending = &g.pending;
            g.tokens.retain(|_, k| pending.contains_key(k));
            if g.pending.len() >= self.max {
                return None;
            }
        }
        let expires = Instant::now() + ttl;
        let previous = g.pending.remove(&key);
        if let Some(p) = &previous {
            g.tokens.remove(&p.token_hash);
        }
        let approved = previous
            .map(|p| p.approved)
            .unwrap_or_else(|| watch::channel(false).0);
        g.pending.insert(
            key.clone(),
            Approval {
                user_id: user_id.to_string(),
                token_hash,
                expires,
                approved,
            },
        );
        g.tokens.insert(token_hash, key);
        Some(token)
    }

    pub fn lookup(&self, token: &str) -> Link {
        let g = self.inner.lock().unwrap();
        let Some(key) = g.tokens.get(&sha256(&[token.as_bytes()])) else {
            return Link::Unknown;
        };
        match g.pending.get(key) {
            Some(a) if a.expires > Instant::now() => Link::Valid(ApprovalTarget {
                email: key.0.clone(),
                device_id: key.1.clone(),
                user_id: a.user_id.clone(),
            }),
            Some(_) => Link::Expired,
            None => Link::Unknown,
        }
    }

    /// Wakes whoever waits for (email, device) and forgets the approval.
    pub fn complete(&self, email: &str, device_id: &str) {
        let mut g = self.inner.lock().unwrap();
        if let Some(a) = g
            .pending
            .remove(&(email.to_string(), device_id.to_string()))
        {
            g.tokens.remove(&a.token_hash);
            a.approved.send_replace(true);
        }
    }

    /// A receiver that turns true when (email, device) is approved, if an approval is pending.
    pub fn subscribe(&self, email: &str, device_id: &str) -> Option<watch::Receiver<bool>> {
        let g = self.inner.lock().unwrap();
        g.pending
            .get(&(email.to_string(), device_id.to_string()))
            .filter(|a| a.expires > Instant::now())
            .map(|a| a.approved.subscribe())
    }
}

// ---------------------------------------------------------------------------------------------------------
// Email changes

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateStage {
    /// The code was mailed to the current email.
    Primary,
    /// The code was mailed to the new email.
    Secondary,
}

#[derive(Debug, Clone)]
pub struct PendingUpdate {
    pub new_email: String,
    pub stage: UpdateStage,
    pub code: PendingCode,
}

/// One pending email change per user id (a new one replaces the old).
#[derive(Debug, Default)]
pub struct Updates {
    inner: Mutex<HashMap<String, PendingUpdate>>,
}

impl Updates {
    pub fn set(&self, user_id: &str, u: PendingUpdate) {
        self.inner.lock().unwrap().insert(user_id.to_string(), u);
    }

    pub fn remove(&self, user_id: &str) {
        self.inner.lock().unwrap().remove(user_id);
    }

    /// Runs `f` on the user's pending change, if any; `f` may drop it by answering `true`.
    pub fn with<R>(
        &self,
        user_id: &str,
        f: impl FnOnce(&mut PendingUpdate) -> (R, bool),
    ) -> Option<R> {
        let mut m = self.inner.lock().unwrap();
        let u = m.get_mut(user_id)?;
        let (r, drop) = f(u);
        if drop {
            m.remove(user_id);
        }
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: &str, email: &str) -> Account {
        Account {
            user_id: id.into(),
            identities: vec![email_identity(email)],
            email: Some(email.into()),
            user_name: None,
            social_provider: None,
            key_ciphertext: None,
            address: None,
            devices: HashSet::new(),
        }
    }

    #[test]
    fn an_email_change_moves_the_identity() {
        let a = Accounts::new(10);
        a.find_or_create(&email_identity("a@x.co"), || account("1", "a@x.co"));
        a.find_or_create(&email_identity("b@x.co"), || account("2", "b@x.co"));
        assert_eq!(a.change_email("1", "b@x.co"), Err(EmailRefused::Taken));
        assert!(a.email_taken("b@x.co", "1"));
        assert_eq!(a.change_email("1", "c@x.co"), Ok(()));
        assert!(a.find(&email_identity("a@x.co")).is_none());
        assert_eq!(a.find(&email_identity("c@x.co")).unwrap().user_id, "1");
        assert_eq!(a.get("1").unwrap().identities, vec!["email:c@x.co"]);
    }

    #[test]
    fn a_key_is_stored_once() {
        let a = Accounts::new(10);
        a.find_or_create("email:a@x.co", || account("1", "a@x.co"));
        assert_eq!(a.store_key("1", "AAAA", "0x00"), Ok(()));
        assert_eq!(
            a.store_key("1", "BBBB", "0x01"),
            Err(KeyRefused::AlreadyStored)
        );
        assert_eq!(a.store_key("2", "BBBB", "0x01"), Err(KeyRefused::NoAccount));
        assert_eq!(a.get("1").unwrap().key_ciphertext.as_deref(), Some("AAAA"));
    }

    #[test]
    fn sessions_expire_and_are_revoked() {
        let s = Sessions::new(10);
        let t = s.create("u", "d", Duration::from_secs(60)).unwrap();
        assert!(super::super::validate::token(&t));
        assert_eq!(s.get(&t).unwrap().user_id, "u");
        s.revoke(&t);
        assert!(s.get(&t).is_none());
        let t = s.create("u", "d", Duration::ZERO).unwrap();
        assert!(s.get(&t).is_none());
    }

    #[test]
    fn an_approval_link_is_replaced_and_completed() {
        let a = Approvals::new(10);
        let t1 = a
            .create("a@x.co", "dev", "1", Duration::from_secs(60))
            .unwrap();
        let rx = a.subscribe("a@x.co", "dev").unwrap();
        let t2 = a
            .create("a@x.co", "dev", "1", Duration::from_secs(60))
            .unwrap();
        assert_eq!(a.lookup(&t1), Link::Unknown);
        assert!(matches!(a.lookup(&t2), Link::Valid(t) if t.device_id == "dev"));
        a.complete("a@x.co", "dev");
        assert!(*rx.borrow());
        assert_eq!(a.lookup(&t2), Link::Unknown);
        let t3 = a.create("a@x.co", "dev2", "1", Duration::ZERO).unwrap();
        assert_eq!(a.lookup(&t3), Link::Expired);
    }
}
