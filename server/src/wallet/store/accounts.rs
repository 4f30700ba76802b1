//! Accounts: one per (project, identity), never evicted (they hold the keys).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::durable::{Durable, StoreError};
use crate::client::Client;
use crate::wallet::table::NoRoom;

/// One account. The `kek` is not here: it is in the [`KeyStore`](super::KeyStore).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Account {
    pub user_id: String,
    /// The project it belongs to: a wallet is scoped per project ([`scoped`]).
    pub project_id: String,
    /// The identities that log into it, project-scoped (`demo-project/email:alice@example.com`,
    /// `demo-project/google:…`).
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
    /// Accounts made per client (they are never evicted: they hold keys).
    made_by: HashMap<Client, usize>,
}

/// The accounts, at most `max`, at most `max_per_client` made by one client. Accounts are never
/// dropped to make room (they hold the keys): when there is none, new accounts are refused while
/// existing ones keep logging in.
#[derive(Debug)]
pub struct Accounts {
    inner: Mutex<AccountsInner>,
    max: usize,
    max_per_client: usize,
    /// Where every change is written first, when the service has a durable store.
    durable: Option<Arc<dyn Durable>>,
}

/// Why storing a key failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRefused {
    AlreadyStored,
    NoAccount,
    /// The durable store could not keep it.
    Store,
}

/// Why an email change failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailRefused {
    Taken,
    NoAccount,
    /// The durable store could not keep it.
    Store,
}

/// An identity key within a project: `{project}/{key}` (project ids have no `/`, see
/// [`crate::wallet::validate::project_id`], so the two parts never mix).
pub fn scoped(project: &str, key: &str) -> String {
    format!("{project}/{key}")
}

/// The identity key of an email login in `project`.
pub fn email_identity(project: &str, email: &str) -> String {
    scoped(project, &format!("email:{email}"))
}

impl Accounts {
    pub fn new(max: usize, max_per_client: usize) -> Self {
        Accounts {
            inner: Mutex::new(AccountsInner::default()),
            max,
            max_per_client,
            durable: None,
        }
    }

    /// The accounts of a durable store (every change written there first): each read from it
    /// when a request needs it (nothing is loaded at start), kept here as a cache.
    pub fn durable(max: usize, max_per_client: usize, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(Accounts { inner: Mutex::new(AccountsInner::default()), max, max_per_client, durable: Some(durable) })
    }

    /// Keeps `a` (as the store holds it) here too: its identities map to it, those it lost no
    /// longer do.
    fn keep(&self, g: &mut AccountsInner, a: &Account) {
        // With a store this is a cache, bounded: a full one starts again (the store answers).
        if self.durable.is_some() && g.by_id.len() >= self.max && !g.by_id.contains_key(&a.user_id) {
            g.by_id.clear();
            g.by_identity.clear();
        }
        if let Some(old) = g.by_id.get(&a.user_id) {
            for gone in old.identities.iter().filter(|i| !a.identities.contains(i)) {
                if g.by_identity.get(gone) == Some(&a.user_id) {
                    g.by_identity.remove(gone);
                }
            }
        }
        for identity in &a.identities {
            g.by_identity.insert(identity.clone(), a.user_id.clone());
        }
        g.by_id.insert(a.user_id.clone(), a.clone());
    }

    /// The account of `user_id`. With a durable store it is read there (another server process
    /// may have changed it); when the store cannot be read, the copy here answers.
    pub fn get(&self, user_id: &str) -> Option<Account> {
        if let Some(Ok(held)) = self.durable.as_ref().map(|d| d.account(user_id)) {
            let mut g = crate::wallet::table::lock(&self.inner);
            return held.inspect(|a| self.keep(&mut g, a));
        }
        crate::wallet::table::lock(&self.inner).by_id.get(user_id).cloned()
    }

    /// The account `identity` logs into (read in the durable store first, as [`Accounts::get`]).
    pub fn find(&self, identity: &str) -> Option<Account> {
        if let Some(Ok(held)) = self.durable.as_ref().map(|d| d.account_of(identity)) {
            let mut g = crate::wallet::table::lock(&self.inner);
            match &held {
                Some(a) => self.keep(&mut g, a),
                None => {
                    g.by_identity.remove(identity);
                }
            }
            return held;
        }
        let g = crate::wallet::table::lock(&self.inner);
        g.by_identity
            .get(identity)
            .and_then(|id| g.by_id.get(id))
            .cloned()
    }

    /// The account of `identity`, made with `make` for `client` when there is none. `created`
    /// tells which. With a durable store the account is made there, once: when another server
    /// process made one for the identity first, that one is answered.
    pub fn find_or_create(
        &self,
        identity: &str,
        client: Client,
        make: impl FnOnce() -> Account,
    ) -> Result<(Account, bool), NoRoom> {
        if let Some(d) = &self.durable {
            if let Some(a) = d.account_of(identity).map_err(|_| NoRoom::Store)? {
                self.keep(&mut crate::wallet::table::lock(&self.inner), &a);
                return Ok((a, false));
            }
        }
        let mut g = crate::wallet::table::lock(&self.inner);
        if let Some(a) = g.by_identity.get(identity).and_then(|id| g.by_id.get(id)) {
            if self.durable.is_none() {
                return Ok((a.clone(), false));
            }
        }
        if g.made_by.get(&client).copied().unwrap_or(0) >= self.max_per_client {
            return Err(NoRoom::Client);
        }
        // (Without a store, the table is every account: it is bounded here. With one, the store
        // holds them and this is only a cache.)
        if self.durable.is_none() && g.by_id.len() >= self.max {
            return Err(NoRoom::Full);
        }
        let a = make();
        let held = match &self.durable {
            Some(d) => d.create_account(&a).map_err(|_| NoRoom::Store)?,
            None => a.clone(),
        };
        self.keep(&mut g, &held);
        if held.user_id != a.user_id {
            return Ok((held, false));
        }
        *g.made_by.entry(client).or_insert(0) += 1;
        Ok((a, true))
    }

    /// Changes the account with `change` (which answers whether to keep the change): in the
    /// durable store in place (no other process's change in between), then here.
    fn update<E>(&self, user_id: &str, no_account: E, store: E, mut change: impl FnMut(&mut Account) -> Result<bool, E> + Send) -> Result<(), E>
    where
        E: Send,
    {
        let mut g = crate::wallet::table::lock(&self.inner);
        let mut refused = None;
        let changed = match &self.durable {
            Some(d) => {
                let mut step = |a: &mut Account| match change(a) {
                    Ok(keep) => keep,
                    Err(e) => {
                        refused = Some(e);
                        false
                    }
                };
                d.update_account(user_id, &mut step).map_err(|_| ())
            }
            None => {
                let Some(mut a) = g.by_id.get(user_id).cloned() else { return Err(no_account) };
                match change(&mut a) {
                    Ok(_) => Ok(Some(a)),
                    Err(e) => return Err(e),
                }
            }
        };
        if let Some(e) = refused {
            return Err(e);
        }
        match changed {
            Ok(Some(a)) => {
                self.keep(&mut g, &a);
                Ok(())
            }
            Ok(None) => Err(no_account),
            Err(()) => Err(store),
        }
    }

    /// Approves a device for the account (kept only once written, when there is a durable store).
    pub fn approve_device(&self, user_id: &str, device_id: &str) -> Result<(), NoRoom> {
        self.update(user_id, Ok::<(), NoRoom>(()), Err(NoRoom::Store), |a| Ok(a.devices.insert(device_id.to_string())))
            .or_else(|e| e)
    }

    /// Stores the key ciphertext and address, once.
    pub fn store_key(
        &self,
        user_id: &str,
        ciphertext: &str,
        address: &str,
    ) -> Result<(), KeyRefused> {
        self.update(user_id, KeyRefused::NoAccount, KeyRefused::Store, |a| {
            if a.key_ciphertext.is_some() {
                return Err(KeyRefused::AlreadyStored);
            }
            a.key_ciphertext = Some(ciphertext.to_string());
            a.address = Some(address.to_string());
            Ok(true)
        })
    }

    /// Whether `email` logs into an account of `project` other than `user_id`.
    pub fn email_taken(&self, project: &str, email: &str, user_id: &str) -> bool {
        self.find(&email_identity(project, email)).is_some_and(|a| a.user_id != user_id)
    }

    /// Makes `new_email` the account's email and an identity of it. The account's own email login
    /// (an `email:` identity that maps to it) moves to the new address; an email the account only
    /// carries (the claim of a social login) is left alone: its mapping, if any, belongs to another
    /// account, and the new address is simply added.
    pub fn change_email(&self, user_id: &str, new_email: &str) -> Result<(), EmailRefused> {
        let project = self.get(user_id).ok_or(EmailRefused::NoAccount)?.project_id;
        let new_identity = email_identity(&project, new_email);
        if self.find(&new_identity).is_some_and(|a| a.user_id != user_id) {
            return Err(EmailRefused::Taken);
        }
        // An identity listed by the account is its own (the store maps each identity to one
        // account); in memory the mapping is checked as well.
        let mapped: Option<String> = {
            let g = crate::wallet::table::lock(&self.inner);
            g.by_id.get(user_id).and_then(|a| a.email.as_deref()).map(|e| email_identity(&project, e)).filter(|old| g.by_identity.get(old).map(String::as_str) == Some(user_id))
        };
        let durable = self.durable.is_some();
        let done = self.update(user_id, EmailRefused::NoAccount, EmailRefused::Store, |a| {
            let old_identity = a.email.as_deref().map(|e| email_identity(&project, e));
            let owned = old_identity.filter(|old| a.identities.contains(old) && (durable || mapped.as_ref() == Some(old)));
            if let Some(old) = &owned {
                a.identities.retain(|i| i != old);
            }
            if !a.identities.contains(&new_identity) {
                a.identities.push(new_identity.clone());
            }
            a.email = Some(new_email.to_string());
            Ok(true)
        });
        if done == Err(EmailRefused::Store) && self.find(&new_identity).is_some_and(|a| a.user_id != user_id) {
            // Another process's account took the address in between.
            return Err(EmailRefused::Taken);
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::super::durable::sqlite::Sqlite;
    use super::*;

    #[test]
    fn a_change_the_durable_store_cannot_write_is_refused_and_not_kept() {
        let dir = crate::testing::TempDir::new("accounts-store");
        let d = Arc::new(Sqlite::open(&dir.join("w.sqlite"), &[1u8; 32]).unwrap());
        let accounts = Accounts::durable(10, 10, d.clone() as Arc<dyn Durable>).unwrap();
        let make = |id: &str| Account {
            user_id: id.into(),
            project_id: P.into(),
            identities: vec![email_identity(P, &format!("{id}@example.com"))],
            email: Some(format!("{id}@example.com")),
            user_name: None,
            social_provider: None,
            key_ciphertext: None,
            address: None,
            devices: HashSet::new(),
        };
        accounts.find_or_create(&email_identity(P, "a@example.com"), ip(1), || make("a")).unwrap();
        // Read back by a fresh reader of the same store.
        assert!(Accounts::durable(10, 10, d.clone() as Arc<dyn Durable>).unwrap().find(&email_identity(P, "a@example.com")).is_some());
        d.break_writes();
        let refused = accounts.find_or_create(&email_identity(P, "b@example.com"), ip(1), || make("b"));
        assert_eq!(refused.err(), Some(NoRoom::Store));
        assert!(accounts.find(&email_identity(P, "b@example.com")).is_none(), "not kept in memory either");
        assert_eq!(accounts.store_key("a", "AAAA", "0x52908400098527886E0F7030069857D2E4169EE7"), Err(KeyRefused::Store));
        assert_eq!(accounts.get("a").unwrap().key_ciphertext, None, "the key is not half kept");
        assert_eq!(accounts.approve_device("a", "dev-9"), Err(NoRoom::Store));
        assert!(!accounts.get("a").unwrap().devices.contains("dev-9"));
        assert_eq!(accounts.change_email("a", "new@example.com"), Err(EmailRefused::Store));
        assert_eq!(accounts.get("a").unwrap().email.as_deref(), Some("a@example.com"));
    }
    #[test]
    fn a_durable_stores_accounts_are_read_when_asked_for_not_loaded_at_start() {
        let (_dir, d) = super::super::durable::contract::temp_sqlite("lazy-accounts");
        for i in 0..300 {
            d.create_account(&super::super::durable::contract::account(&format!("u{i}"))).unwrap();
        }
        let accounts = Accounts::durable(10, 10, d.clone()).unwrap();
        assert!(accounts.inner.lock().unwrap().by_id.is_empty(), "nothing read at start");
        let found = accounts.find("p/email:u299@example.com").expect("read from the store when asked");
        assert_eq!(found.user_id, "u299");
        assert_eq!(accounts.get("u7").map(|a| a.user_id), Some("u7".to_string()));
        assert!(accounts.find("p/email:nobody@example.com").is_none());
        // The cache stays bounded however many are read, and new accounts are not refused
        // because the store holds more than the cache's bound.
        for i in 0..300 {
            assert!(accounts.get(&format!("u{i}")).is_some());
        }
        assert!(accounts.inner.lock().unwrap().by_id.len() <= 10);
        let made = accounts.find_or_create("p/email:new@example.com", IpAddr::V4(Ipv4Addr::LOCALHOST), || super::super::durable::contract::account("new"));
        assert!(made.is_ok(), "{:?}", made.err());
    }

    use std::net::{IpAddr, Ipv4Addr};

    const P: &str = "demo-project";

    fn ip(n: u8) -> Client {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    fn account(id: &str, email: &str) -> Account {
        Account {
            user_id: id.into(),
            project_id: P.into(),
            identities: vec![email_identity(P, email)],
            email: Some(email.into()),
            user_name: None,
            social_provider: None,
            key_ciphertext: None,
            address: None,
            devices: HashSet::new(),
        }
    }

    /// A social login's account: its email is the provider's claim, not an identity of its own.
    fn social(id: &str, email: &str) -> Account {
        Account {
            identities: vec![scoped(P, &format!("google:{id}"))],
            ..account(id, email)
        }
    }

    #[test]
    fn an_email_change_moves_the_identity() {
        let a = Accounts::new(10, 10);
        a.find_or_create(&email_identity(P, "a@x.co"), ip(1), || {
            account("1", "a@x.co")
        })
        .unwrap();
        a.find_or_create(&email_identity(P, "b@x.co"), ip(1), || {
            account("2", "b@x.co")
        })
        .unwrap();
        assert_eq!(a.change_email("1", "b@x.co"), Err(EmailRefused::Taken));
        assert!(a.email_taken(P, "b@x.co", "1"));
        assert!(!a.email_taken("other-project", "b@x.co", "1"));
        assert_eq!(a.change_email("1", "c@x.co"), Ok(()));
        assert!(a.find(&email_identity(P, "a@x.co")).is_none());
        assert_eq!(a.find(&email_identity(P, "c@x.co")).unwrap().user_id, "1");
        assert_eq!(
            a.get("1").unwrap().identities,
            vec!["demo-project/email:c@x.co"]
        );
    }

    #[test]
    fn an_email_change_of_a_claim_only_email_keeps_the_other_accounts_login() {
        let a = Accounts::new(10, 10);
        let alice = email_identity(P, "alice@x.co");
        a.find_or_create(&alice, ip(1), || account("email-1", "alice@x.co"))
            .unwrap();
        let g = scoped(P, "google:g-1");
        a.find_or_create(&g, ip(1), || social("g-1", "alice@x.co"))
            .unwrap();
        assert_eq!(a.change_email("g-1", "new@x.co"), Ok(()));
        // The email account still owns its login; the social account gained one of its own.
        assert_eq!(a.find(&alice).unwrap().user_id, "email-1");
        assert_eq!(
            a.find(&email_identity(P, "new@x.co")).unwrap().user_id,
            "g-1"
        );
        let g1 = a.get("g-1").unwrap();
        assert_eq!(g1.email.as_deref(), Some("new@x.co"));
        assert_eq!(
            g1.identities,
            vec![g, "demo-project/email:new@x.co".to_string()]
        );
        // A second change moves the login it now owns.
        assert_eq!(a.change_email("g-1", "newer@x.co"), Ok(()));
        assert!(a.find(&email_identity(P, "new@x.co")).is_none());
        assert_eq!(a.find(&alice).unwrap().user_id, "email-1");
    }

    #[test]
    fn accounts_are_never_evicted_and_one_client_makes_at_most_its_share() {
        let a = Accounts::new(3, 2);
        for i in 0..2 {
            let e = format!("{i}@x.co");
            a.find_or_create(&email_identity(P, &e), ip(2), || {
                account(&i.to_string(), &e)
            })
            .unwrap();
        }
        let refused = a.find_or_create(&email_identity(P, "z@x.co"), ip(2), || {
            account("z", "z@x.co")
        });
        assert_eq!(refused.err(), Some(NoRoom::Client));
        a.find_or_create(&email_identity(P, "v@x.co"), ip(1), || {
            account("v", "v@x.co")
        })
        .unwrap();
        let full = a.find_or_create(&email_identity(P, "w@x.co"), ip(3), || {
            account("w", "w@x.co")
        });
        assert_eq!(full.err(), Some(NoRoom::Full));
        // Existing accounts still log in.
        let (v, created) = a
            .find_or_create(&email_identity(P, "v@x.co"), ip(3), || unreachable!())
            .unwrap();
        assert_eq!((v.user_id.as_str(), created), ("v", false));
    }

    #[test]
    fn a_key_is_stored_once() {
        let a = Accounts::new(10, 10);
        a.find_or_create("p/email:a@x.co", ip(1), || account("1", "a@x.co"))
            .unwrap();
        assert_eq!(a.store_key("1", "AAAA", "0x00"), Ok(()));
        assert_eq!(
            a.store_key("1", "BBBB", "0x01"),
            Err(KeyRefused::AlreadyStored)
        );
        assert_eq!(a.store_key("2", "BBBB", "0x01"), Err(KeyRefused::NoAccount));
        assert_eq!(a.get("1").unwrap().key_ciphertext.as_deref(), Some("AAAA"));
    }
}
