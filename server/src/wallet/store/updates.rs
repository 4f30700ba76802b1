//! Pending email changes (one per account) and the lock after burned change codes; with a durable
//! store each account's state is written there after every change (the code as its salted hash).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::durable::{instant_to_wall, wall_ms, wall_to_instant, Durable, StoreError};
use crate::wallet::otp::{PendingCode, StoredPending};

/// The store's kind of these entries.
const KIND: &str = "email-change";

/// An account's email-change state as the store keeps it.
#[derive(Serialize, Deserialize)]
struct StoredUpdate {
    new_email: Option<String>,
    secondary: bool,
    code: Option<StoredPending>,
    burned: u32,
    locked_until_ms: Option<u64>,
}

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

/// One account's email changes: the pending one, and the codes it burned.
#[derive(Debug, Default)]
struct UpdateState {
    pending: Option<PendingUpdate>,
    burned: u32,
    locked_until: Option<Instant>,
}

/// How burned email-change codes lock an account's email changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpdateLock {
    /// Burned codes (at either step) that lock the changes.
    pub after: u32,
    /// For this long.
    pub lasts: Duration,
}

/// One pending email change per user id (a new one replaces the old), and the lock after burned
/// codes. At most one entry per account: bounded like the accounts.
#[derive(Debug)]
pub struct Updates {
    inner: Mutex<HashMap<String, UpdateState>>,
    lock: UpdateLock,
    durable: Option<Arc<dyn Durable>>,
}

impl Updates {
    pub fn new(lock: UpdateLock) -> Self {
        Updates {
            inner: Mutex::new(HashMap::new()),
            lock,
            durable: None,
        }
    }

    /// The email-change states of a durable store: each read from it when its account asks.
    pub fn durable(lock: UpdateLock, durable: Arc<dyn Durable>) -> Result<Self, StoreError> {
        Ok(Updates { inner: Mutex::new(HashMap::new()), lock, durable: Some(durable) })
    }

    /// Makes the user's state here the one the durable store holds (another server process may
    /// have changed it) and answers the body read, what a write then expects (`Err`: the store
    /// cannot be read; the state here stands).
    fn refresh(&self, m: &mut HashMap<String, UpdateState>, user_id: &str) -> Result<Option<String>, StoreError> {
        let Some(d) = &self.durable else { return Ok(None) };
        let held = d.entry(KIND, user_id, wall_ms())?;
        match held.as_deref().and_then(parse_update) {
            Some(u) => {
                m.insert(user_id.to_string(), u);
            }
            None => {
                m.remove(user_id);
            }
        }
        Ok(held)
    }

    /// Writes the user's state as `m` holds it (deleted when there is none), only if the store
    /// still holds `held` (what [`Updates::refresh`] read): false when another process changed it
    /// first (then the state here is read again).
    fn write(&self, m: &mut HashMap<String, UpdateState>, user_id: &str, held: Option<&str>) -> Result<bool, StoreError> {
        let Some(d) = &self.durable else { return Ok(true) };
        let next = match m.get(user_id) {
            Some(u) => Some(self.body(u)?),
            None => None,
        };
        let swapped = d.swap_entry(KIND, user_id, held, next.as_ref().map(|(at, b)| (*at, b.as_str())), wall_ms())?;
        if !swapped {
            let _ = self.refresh(m, user_id);
        }
        Ok(swapped)
    }

    /// A user's state as the store keeps it: `(until, body)`.
    fn body(&self, u: &UpdateState) -> Result<(u64, String), StoreError> {
        let stored = StoredUpdate {
            new_email: u.pending.as_ref().map(|p| p.new_email.clone()),
            secondary: u.pending.as_ref().is_some_and(|p| p.stage == UpdateStage::Secondary),
            code: u.pending.as_ref().map(|p| p.code.to_stored()),
            burned: u.burned,
            locked_until_ms: u.locked_until.map(instant_to_wall),
        };
        // Kept while anything in it can matter: the burned codes' count is forgotten with the lock's
        // length at the latest.
        let until = stored.locked_until_ms.unwrap_or(0).max(instant_to_wall(Instant::now() + self.lock.lasts));
        let body = serde_json::to_string(&stored).map_err(|e| StoreError(format!("the wallet store could not write an email change: {e}")))?;
        Ok((until, body))
    }

    /// How long the user's email changes stay locked, if they are.
    pub fn locked(&self, user_id: &str) -> Option<Duration> {
        let now = Instant::now();
        let mut m = crate::wallet::table::lock(&self.inner);
        let _ = self.refresh(&mut m, user_id);
        m.get(user_id)
            .and_then(|u| u.locked_until)
            .filter(|t| *t > now)
            .map(|t| t - now)
    }

    /// Keeps the user's pending change (durable before its code is mailed).
    pub fn set(&self, user_id: &str, u: PendingUpdate) -> Result<(), StoreError> {
        let mut m = crate::wallet::table::lock(&self.inner);
        let held = self.refresh(&mut m, user_id)?;
        m.entry(user_id.to_string()).or_default().pending = Some(u);
        match self.write(&mut m, user_id, held.as_deref()) {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError("the email change was changed meanwhile: try again".into())),
            Err(e) => {
                let _ = self.refresh(&mut m, user_id);
                Err(e)
            }
        }
    }

    /// Drops the pending change; `done`: it went through (the burned codes are forgotten).
    pub fn remove(&self, user_id: &str, done: bool) {
        let mut m = crate::wallet::table::lock(&self.inner);
        for _ in 0..3 {
            let Ok(held) = self.refresh(&mut m, user_id) else { break };
            let Some(u) = m.get_mut(user_id) else { return };
            u.pending = None;
            if done {
                u.burned = 0;
            }
            if u.burned == 0 && u.locked_until.is_none() {
                m.remove(user_id);
            }
            // (A failed write is counted by the store's metric; the pending change then expires
            // there with its code.)
            if !matches!(self.write(&mut m, user_id, held.as_deref()), Ok(false)) {
                return;
            }
        }
    }

    /// A code of the user's change was burned: the change is dropped, and the `after`-th burned
    /// code locks the changes for `lasts`. True when that locked them.
    pub fn burn(&self, user_id: &str) -> bool {
        let mut m = crate::wallet::table::lock(&self.inner);
        for _ in 0..3 {
            let held = self.refresh(&mut m, user_id);
            let u = m.entry(user_id.to_string()).or_default();
            u.pending = None;
            u.burned += 1;
            let locked = u.burned >= self.lock.after;
            if locked {
                u.burned = 0;
                u.locked_until = Some(Instant::now() + self.lock.lasts);
            }
            match held {
                // Counted only if no other process changed the state meanwhile, else again.
                Ok(held) => match self.write(&mut m, user_id, held.as_deref()) {
                    Ok(false) => continue,
                    _ => return locked,
                },
                Err(_) => return locked,
            }
        }
        false
    }

    /// Runs `f` on the user's pending change, if any; `f` may drop it by answering `true`. With a
    /// store, the change (a code's try) counts only once written, from the state read: when the
    /// store cannot be read or another process changed it meanwhile, nothing is tried (`None`).
    pub fn with<R>(
        &self,
        user_id: &str,
        f: impl FnOnce(&mut PendingUpdate) -> (R, bool),
    ) -> Option<R> {
        let mut m = crate::wallet::table::lock(&self.inner);
        let held = self.refresh(&mut m, user_id);
        if self.durable.is_some() && held.is_err() {
            return None;
        }
        let u = m.get_mut(user_id)?;
        let p = u.pending.as_mut()?;
        let (r, drop) = f(p);
        if drop {
            u.pending = None;
        }
        match self.write(&mut m, user_id, held.ok().flatten().as_deref()) {
            Ok(true) => Some(r),
            _ => {
                let _ = self.refresh(&mut m, user_id);
                None
            }
        }
    }
}

/// A user's state as the store keeps it, read back (None when damaged).
fn parse_update(body: &str) -> Option<UpdateState> {
    let u = serde_json::from_str::<StoredUpdate>(body).ok()?;
    let pending = match (u.new_email, u.code.as_ref().and_then(PendingCode::from_stored)) {
        (Some(new_email), Some(code)) => Some(PendingUpdate { new_email, stage: if u.secondary { UpdateStage::Secondary } else { UpdateStage::Primary }, code }),
        _ => None,
    };
    Some(UpdateState { pending, burned: u.burned, locked_until: u.locked_until_ms.map(wall_to_instant) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_third_burned_change_code_locks_the_changes() {
        let u = Updates::new(UpdateLock {
            after: 3,
            lasts: Duration::from_secs(3600),
        });
        assert!(!u.burn("u"));
        assert!(!u.burn("u"));
        assert_eq!(u.locked("u"), None);
        assert!(u.burn("u"));
        let left = u.locked("u").unwrap();
        assert!(left > Duration::from_secs(3590), "{left:?}");
        assert_eq!(u.locked("other"), None);
    }

    #[test]
    fn with_a_durable_store_a_pending_change_its_tries_and_the_lock_outlive_the_process() {
        let (_dir, d) = crate::wallet::store::durable::contract::temp_sqlite("updates");
        let lock = UpdateLock { after: 2, lasts: Duration::from_secs(3600) };
        let pepper = [5u8; 32];
        let u = Updates::durable(lock, d.clone()).unwrap();
        let code = PendingCode::new(&pepper, "123456", Duration::from_secs(600));
        u.set("a", PendingUpdate { new_email: "new@x.co".into(), stage: UpdateStage::Secondary, code }).unwrap();
        let wrong = u.with("a", |p| (p.code.check(&pepper, "000000", 2), false));
        assert_eq!(wrong, Some(crate::wallet::otp::Check::Wrong));
        assert!(!u.burn("b"));
        assert!(u.burn("b"));
        // A restarted process.
        let u = Updates::durable(lock, d.clone()).unwrap();
        assert!(u.locked("b").unwrap() > Duration::from_secs(3590), "the lock holds");
        let checks = [u.with("a", |p| (p.code.check(&pepper, "000001", 2), false)), u.with("a", |p| (p.code.check(&pepper, "123456", 2), false))];
        assert_eq!(checks, [Some(crate::wallet::otp::Check::TooManyAttempts), Some(crate::wallet::otp::Check::TooManyAttempts)], "the wrong try before the restart counted");
        assert_eq!(u.with("a", |p| (p.new_email.clone(), false)).as_deref(), Some("new@x.co"));
        u.remove("a", true);
        assert!(Updates::durable(lock, d.clone()).unwrap().with("a", |_| ((), false)).is_none(), "a done change stays done");
    }
}
