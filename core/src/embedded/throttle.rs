//! Email login throttle (spec section 5): a new email login within 30 seconds of the previous one
//! is refused with 'Please try again after {n} seconds', n counting down (the ceiling of the
//! remaining seconds). Email sending is blocked whenever a new email is not yet allowed.

use crate::service::constants::EMAIL_LOGIN_COOLDOWN_MS;
use crate::service::errors::WmError;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmailThrottle {
    last_sent_ms: Option<u64>,
}

impl EmailThrottle {
    pub fn new() -> Self {
        Self::default()
    }

    /// Restore from a persisted time of the last email login.
    pub fn with_last_sent(last_sent_ms: Option<u64>) -> Self {
        EmailThrottle { last_sent_ms }
    }

    pub fn last_sent_ms(&self) -> Option<u64> {
        self.last_sent_ms
    }

    /// Milliseconds until a new email is allowed (0 when allowed). A last-sent time in the future
    /// (clock moved back) counts as just sent.
    pub fn remaining_ms(&self, now_ms: u64) -> u64 {
        match self.last_sent_ms {
            None => 0,
            Some(t) => {
                let elapsed = now_ms.saturating_sub(t);
                EMAIL_LOGIN_COOLDOWN_MS.saturating_sub(elapsed)
            }
        }
    }

    /// Seconds shown in the countdown: ceil(remaining ms / 1000).
    pub fn remaining_seconds(&self, now_ms: u64) -> u64 {
        self.remaining_ms(now_ms).div_ceil(1000)
    }

    /// Whether a new email may be sent now.
    pub fn is_allowed(&self, now_ms: u64) -> bool {
        self.remaining_ms(now_ms) == 0
    }

    /// `Ok` when allowed, else `EmailThrottled { seconds }`.
    pub fn check(&self, now_ms: u64) -> Result<(), WmError> {
        match self.remaining_seconds(now_ms) {
            0 => Ok(()),
            seconds => Err(WmError::EmailThrottled { seconds }),
        }
    }

    /// Try to start an email login: records the time when allowed, refuses otherwise.
    pub fn try_send(&mut self, now_ms: u64) -> Result<(), WmError> {
        self.check(now_ms)?;
        self.last_sent_ms = Some(now_ms);
        Ok(())
    }

    /// When the countdown text next changes (the next whole-second boundary), or `None` when
    /// allowed. Use it as the deadline for re-rendering the countdown.
    pub fn next_tick_ms(&self, now_ms: u64) -> Option<u64> {
        let rem = self.remaining_ms(now_ms);
        if rem == 0 {
            return None;
        }
        let step = match rem % 1000 {
            0 => 1000,
            r => r,
        };
        Some(now_ms + step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_login_refused_within_30_seconds_with_countdown() {
        let mut t = EmailThrottle::new();
        assert!(t.try_send(10_000).is_ok());
        let err = t.try_send(10_000).unwrap_err();
        assert_eq!(err.message(), "Please try again after 30 seconds");
        assert_eq!(t.check(10_001).unwrap_err().message(), "Please try again after 30 seconds");
        assert_eq!(t.check(11_000).unwrap_err().message(), "Please try again after 29 seconds");
        assert_eq!(t.check(11_001).unwrap_err(), WmError::EmailThrottled { seconds: 29 });
        assert_eq!(t.check(39_999).unwrap_err(), WmError::EmailThrottled { seconds: 1 });
        assert!(t.check(40_000).is_ok());
        // a refused attempt does not restart the cooldown
        assert_eq!(t.last_sent_ms(), Some(10_000));
        assert!(t.try_send(40_000).is_ok());
        assert!(t.try_send(50_000).is_err());
    }

    #[test]
    fn email_sending_blocked_while_not_allowed() {
        let t = EmailThrottle::with_last_sent(Some(0));
        assert!(!t.is_allowed(29_999));
        assert!(t.is_allowed(30_000));
        assert!(EmailThrottle::new().is_allowed(0));
    }

    #[test]
    fn clock_moved_back_counts_as_just_sent() {
        let t = EmailThrottle::with_last_sent(Some(100_000));
        assert_eq!(t.remaining_seconds(50_000), 30);
    }

    #[test]
    fn countdown_ticks_on_second_boundaries() {
        let t = EmailThrottle::with_last_sent(Some(0));
        assert_eq!(t.next_tick_ms(0), Some(1000));
        assert_eq!(t.next_tick_ms(200), Some(1000));
        assert_eq!(t.next_tick_ms(29_500), Some(30_000));
        assert_eq!(t.next_tick_ms(30_000), None);
    }

    proptest::proptest! {
        #[test]
        fn countdown_is_monotonic_and_bounded(last in 0u64..u64::MAX / 2, d in 0u64..100_000) {
            let t = EmailThrottle::with_last_sent(Some(last));
            let s = t.remaining_seconds(last + d);
            proptest::prop_assert!(s <= 30);
            proptest::prop_assert!(t.remaining_seconds(last + d + 1) <= s);
            proptest::prop_assert_eq!(s == 0, d >= 30_000);
        }
    }
}
