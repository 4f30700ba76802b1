//! Pending email changes (one per account) and the lock after burned change codes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::wallet::otp::PendingCode;

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
}

impl Updates {
    pub fn new(lock: UpdateLock) -> Self {
        Updates {
            inner: Mutex::new(HashMap::new()),
            lock,
        }
    }

    /// How long the user's email changes stay locked, if they are.
    pub fn locked(&self, user_id: &str) -> Option<Duration> {
        let now = Instant::now();
        let m = self.inner.lock().unwrap();
        m.get(user_id)
            .and_then(|u| u.locked_until)
            .filter(|t| *t > now)
            .map(|t| t - now)
    }

    pub fn set(&self, user_id: &str, u: PendingUpdate) {
        self.inner
            .lock()
            .unwrap()
            .entry(user_id.to_string())
            .or_default()
            .pending = Some(u);
    }

    /// Drops the pending change; `done`: it went through (the burned codes are forgotten).
    pub fn remove(&self, user_id: &str, done: bool) {
        let mut m = self.inner.lock().unwrap();
        if let Some(u) = m.get_mut(user_id) {
            u.pending = None;
            if done {
                u.burned = 0;
            }
            if u.burned == 0 && u.locked_until.is_none() {
                m.remove(user_id);
            }
        }
    }

    /// A code of the user's change was burned: the change is dropped, and the `after`-th burned
    /// code locks the changes for `lasts`. True when that locked them.
    pub fn burn(&self, user_id: &str) -> bool {
        let mut m = self.inner.lock().unwrap();
        let u = m.entry(user_id.to_string()).or_default();
        u.pending = None;
        u.burned += 1;
        if u.burned >= self.lock.after {
            u.burned = 0;
            u.locked_until = Some(Instant::now() + self.lock.lasts);
            return true;
        }
        false
    }

    /// Runs `f` on the user's pending change, if any; `f` may drop it by answering `true`.
    pub fn with<R>(
        &self,
        user_id: &str,
        f: impl FnOnce(&mut PendingUpdate) -> (R, bool),
    ) -> Option<R> {
        let mut m = self.inner.lock().unwrap();
        let u = m.get_mut(user_id)?;
        let p = u.pending.as_mut()?;
        let (r, drop) = f(p);
        if drop {
            u.pending = None;
        }
        Some(r)
    }
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
}
