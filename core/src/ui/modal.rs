//! The modal's own state (spec 4, "Modal"): open, loading, shake, namespace.

use serde::Serialize;

pub use crate::service::analytics::{MODAL_CLOSE, MODAL_OPEN};
/// How long the modal shakes (spec 9).
pub const SHAKE_MS: u64 = 500;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModalState {
    pub open: bool,
    pub loading: bool,
    pub namespace: Option<String>,
    /// The shake lasts until this instant (ms).
    shake_until: Option<u64>,
}

/// An analytics event for opening or closing, with the connected flag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModalEvent {
    pub event: &'static str,
    pub connected: bool,
}

impl ModalState {
    /// Opens the modal. Returns the MODAL_OPEN event, or None when it was already open.
    pub fn open(&mut self, namespace: Option<String>, connected: bool) -> Option<ModalEvent> {
        if namespace.is_some() {
            self.namespace = namespace;
        }
        if self.open {
            return None;
        }
        self.open = true;
        Some(ModalEvent { event: MODAL_OPEN, connected })
    }

    /// Closes the modal. Returns the MODAL_CLOSE event, or None when it was already closed.
    pub fn close(&mut self, connected: bool) -> Option<ModalEvent> {
        if !self.open {
            return None;
        }
        self.open = false;
        self.loading = false;
        self.shake_until = None;
        Some(ModalEvent { event: MODAL_CLOSE, connected })
    }

    pub fn set_loading(&mut self, loading: bool) {
        self.loading = loading;
    }

    /// Starts a 500 ms shake; returns the instant it ends (the caller sets a timer for it).
    pub fn shake(&mut self, now_ms: u64) -> u64 {
        let until = now_ms.saturating_add(SHAKE_MS);
        self.shake_until = Some(until);
        until
    }

    pub fn is_shaking(&self, now_ms: u64) -> bool {
        self.shake_until.is_some_and(|until| now_ms < until)
    }

    /// Ends the shake once its time has passed.
    pub fn tick(&mut self, now_ms: u64) {
        if !self.is_shaking(now_ms) {
            self.shake_until = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_sets_open_and_sends_modal_open_with_connected_flag() {
        let mut m = ModalState::default();
        assert_eq!(m.open(None, true), Some(ModalEvent { event: MODAL_OPEN, connected: true }));
        assert!(m.open);
        assert_eq!(m.open(None, true), None, "a second open sends nothing");
    }

    #[test]
    fn close_clears_open_and_sends_modal_close_with_connected_flag() {
        let mut m = ModalState::default();
        assert_eq!(m.close(false), None, "closing a closed modal sends nothing");
        m.open(None, false);
        m.set_loading(true);
        assert_eq!(m.close(false), Some(ModalEvent { event: MODAL_CLOSE, connected: false }));
        assert!(!m.open);
        assert!(!m.loading, "closing clears loading");
    }

    #[test]
    fn open_remembers_the_requested_namespace() {
        let mut m = ModalState::default();
        m.open(Some("solana".into()), false);
        assert_eq!(m.namespace.as_deref(), Some("solana"));
    }

    #[test]
    fn shake_lasts_500_ms() {
        let mut m = ModalState::default();
        assert_eq!(m.shake(1_000), 1_500);
        assert!(m.is_shaking(1_000));
        assert!(m.is_shaking(1_499));
        assert!(!m.is_shaking(1_500));
        m.tick(1_500);
        assert!(!m.is_shaking(1_200), "tick after the end clears the shake");
    }

    #[test]
    fn loading_is_set_and_cleared() {
        let mut m = ModalState::default();
        m.set_loading(true);
        assert!(m.loading);
        m.set_loading(false);
        assert!(!m.loading);
    }
}
