//! Notification banner (spec section 2): variants loading, success and error. If one is already
//! showing, it closes and then reopens with the new message after 150 ms.
//!
//! Events in (`show`, `hide`, `tick` with `now_ms`), state and a deadline out: the host calls
//! `tick` at `deadline()`.

use serde::Serialize;

use crate::service::constants::BANNER_REOPEN_MS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BannerVariant {
    Loading,
    Success,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BannerMessage {
    pub variant: BannerVariant,
    pub message: String,
}

/// What changed, for the view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum BannerEffect {
    Opened(BannerMessage),
    Closed,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Banner {
    showing: Option<BannerMessage>,
    pending: Option<(BannerMessage, u64)>,
}

impl Banner {
    pub fn new() -> Self {
        Self::default()
    }

    /// The message currently showing.
    pub fn current(&self) -> Option<&BannerMessage> {
        self.showing.as_ref()
    }

    pub fn is_open(&self) -> bool {
        self.showing.is_some()
    }

    /// When `tick` must be called (a pending reopen), if any.
    pub fn deadline(&self) -> Option<u64> {
        self.pending.as_ref().map(|(_, d)| *d)
    }

    /// Show a message. With nothing showing it opens at once; if one is showing, it closes and the
    /// new message opens 150 ms later; during that wait a newer message replaces the pending one.
    pub fn show(&mut self, variant: BannerVariant, message: &str, now_ms: u64) -> Vec<BannerEffect> {
        let msg = BannerMessage { variant, message: message.to_string() };
        if let Some((_, deadline)) = self.pending.take() {
            self.pending = Some((msg, deadline));
            return vec![];
        }
        if self.showing.take().is_some() {
            self.pending = Some((msg, now_ms + BANNER_REOPEN_MS));
            return vec![BannerEffect::Closed];
        }
        self.showing = Some(msg.clone());
        vec![BannerEffect::Opened(msg)]
    }

    /// Close the banner and drop any pending message.
    pub fn hide(&mut self) -> Vec<BannerEffect> {
        self.pending = None;
        if self.showing.take().is_some() {
            vec![BannerEffect::Closed]
        } else {
            vec![]
        }
    }

    /// Advance time: opens the pending message once its 150 ms have passed.
    pub fn tick(&mut self, now_ms: u64) -> Vec<BannerEffect> {
        match &self.pending {
            Some((_, d)) if now_ms >= *d => {
                let (msg, _) = self.pending.take().expect("pending");
                self.showing = Some(msg.clone());
                vec![BannerEffect::Opened(msg)]
            }
            _ => vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banner_opens_at_once_when_nothing_showing() {
        let mut b = Banner::new();
        let fx = b.show(BannerVariant::Loading, "Sending", 0);
        assert_eq!(fx, vec![BannerEffect::Opened(BannerMessage { variant: BannerVariant::Loading, message: "Sending".into() })]);
        assert_eq!(b.current().unwrap().message, "Sending");
        assert_eq!(b.deadline(), None);
    }

    #[test]
    fn banner_showing_closes_then_reopens_new_message_after_150_ms() {
        let mut b = Banner::new();
        b.show(BannerVariant::Loading, "Sending", 0);
        let fx = b.show(BannerVariant::Success, "Sent", 1_000);
        assert_eq!(fx, vec![BannerEffect::Closed]);
        assert!(!b.is_open());
        assert_eq!(b.deadline(), Some(1_150));
        assert!(b.tick(1_149).is_empty());
        let fx = b.tick(1_150);
        assert_eq!(fx, vec![BannerEffect::Opened(BannerMessage { variant: BannerVariant::Success, message: "Sent".into() })]);
        assert_eq!(b.current().unwrap().variant, BannerVariant::Success);
        assert_eq!(b.deadline(), None);
    }

    #[test]
    fn newer_message_during_reopen_wait_replaces_pending() {
        let mut b = Banner::new();
        b.show(BannerVariant::Loading, "a", 0);
        b.show(BannerVariant::Success, "b", 10);
        assert!(b.show(BannerVariant::Error, "c", 100).is_empty());
        assert_eq!(b.deadline(), Some(160));
        let fx = b.tick(200);
        assert_eq!(fx, vec![BannerEffect::Opened(BannerMessage { variant: BannerVariant::Error, message: "c".into() })]);
    }

    #[test]
    fn hide_cancels_pending_reopen() {
        let mut b = Banner::new();
        b.show(BannerVariant::Loading, "a", 0);
        assert_eq!(b.hide(), vec![BannerEffect::Closed]);
        assert!(b.hide().is_empty());
        b.show(BannerVariant::Loading, "a", 0);
        b.show(BannerVariant::Error, "b", 0);
        b.hide();
        assert!(b.tick(1_000).is_empty());
        assert!(!b.is_open());
        let v = serde_json::to_value(BannerEffect::Opened(BannerMessage { variant: BannerVariant::Error, message: "x".into() })).unwrap();
        assert_eq!(v["type"], "opened");
        assert_eq!(v["variant"], "error");
    }
}
