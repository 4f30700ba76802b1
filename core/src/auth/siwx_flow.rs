//! Sign-in (SIWX) flow decisions of spec sections 4 and 8. The message text format is in `siwx`;
//! this module only decides what happens next.
//!
//! * Once connected with no session, open SIWXSignMessage.
//! * Signing stores a session and closes the modal.
//! * Cancelling when sign-in is required switches back to the last signed network if it has a
//!   session, otherwise disconnects. (Not required: the modal just closes.)
//! * 'Error signing message': the modal reopens on the sign view.
//! * 'A problem occurred while trying initialize authentication': disconnect and return to Connect.
//! * Closing is blocked on SIWXSignMessage / ApproveTransaction when sign-in is required and no
//!   session exists (the router enforces it; [`SiwxFlow::close_blocked`] answers the question).

use serde::{Deserialize, Serialize};

use crate::service::errors::WmError;

/// A stored sign-in session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiwxSession {
    pub caip_network_id: String,
    pub address: String,
    pub message: String,
    pub signature: String,
    /// Unix ms after which the session is no longer valid (from the message's expirationTime).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at_ms: Option<u64>,
}

/// What the engine must do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SiwxAction {
    /// Open (or reopen) the SIWXSignMessage view.
    OpenSignView,
    /// Persist this session.
    StoreSession { session: SiwxSession },
    CloseModal,
    /// Switch back to this network (the last signed one).
    SwitchNetwork { caip_network_id: String },
    /// Disconnect the current connection.
    Disconnect,
    /// Navigate to the Connect view.
    ShowConnect,
    /// Show this error (banner).
    ShowError { error: WmError },
}

/// Where the flow stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum SiwxState {
    Idle,
    /// Waiting for the user to sign for this network and address.
    AwaitingSignature { caip_network_id: String, address: String },
    SignedIn,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiwxFlow {
    /// Sign-in is required (the app cannot be used without a session).
    pub required: bool,
    sessions: Vec<SiwxSession>,
    last_signed_network: Option<String>,
    pub state: SiwxState,
}

impl SiwxFlow {
    pub fn new(required: bool) -> Self {
        SiwxFlow { required, sessions: vec![], last_signed_network: None, state: SiwxState::Idle }
    }

    /// Restore persisted sessions (the last one's network is the last signed network).
    pub fn with_sessions(required: bool, sessions: Vec<SiwxSession>) -> Self {
        let last = sessions.last().map(|s| s.caip_network_id.clone());
        SiwxFlow { required, sessions, last_signed_network: last, state: SiwxState::Idle }
    }

    pub fn sessions(&self) -> &[SiwxSession] {
        &self.sessions
    }

    pub fn last_signed_network(&self) -> Option<&str> {
        self.last_signed_network.as_deref()
    }

    fn valid(s: &SiwxSession, now_ms: u64) -> bool {
        s.expires_at_ms.is_none_or(|e| now_ms < e)
    }

    /// A valid session exists for this network and address (addresses compared case-insensitively).
    pub fn has_session(&self, caip_network_id: &str, address: &str, now_ms: u64) -> bool {
        self.sessions.iter().any(|s| {
            s.caip_network_id == caip_network_id
                && s.address.eq_ignore_ascii_case(address)
                && Self::valid(s, now_ms)
        })
    }

    /// A valid session exists for this network (any address).
    pub fn network_has_session(&self, caip_network_id: &str, now_ms: u64) -> bool {
        self.sessions.iter().any(|s| s.caip_network_id == caip_network_id && Self::valid(s, now_ms))
    }

    /// Connected (or switched network/account): open the sign view when there is no session.
    pub fn on_connected(&mut self, caip_network_id: &str, address: &str, now_ms: u64) -> Vec<SiwxAction> {
        if self.has_session(caip_network_id, address, now_ms) {
            self.state = SiwxState::SignedIn;
            return vec![];
        }
        self.state = SiwxState::AwaitingSignature {
            caip_network_id: caip_network_id.to_string(),
            address: address.to_string(),
        };
        vec![SiwxAction::OpenSignView]
    }

    /// The message was signed: store the session and close the modal.
    pub fn on_signed(&mut self, session: SiwxSession) -> Vec<SiwxAction> {
        self.sessions.retain(|s| {
            !(s.caip_network_id == session.caip_network_id && s.address.eq_ignore_ascii_case(&session.address))
        });
        self.sessions.push(session.clone());
        self.last_signed_network = Some(session.caip_network_id.clone());
        self.state = SiwxState::SignedIn;
        vec![SiwxAction::StoreSession { session }, SiwxAction::CloseModal]
    }

    /// Signing failed: show 'Error signing message' and reopen the sign view.
    pub fn on_sign_error(&mut self) -> Vec<SiwxAction> {
        vec![SiwxAction::ShowError { error: WmError::ErrorSigningMessage }, SiwxAction::OpenSignView]
    }

    /// The user cancelled signing. Required: switch back to the last signed network if it has a
    /// session, otherwise disconnect. Not required: close the modal.
    pub fn on_cancel(&mut self, now_ms: u64) -> Vec<SiwxAction> {
        let awaiting = match &self.state {
            SiwxState::AwaitingSignature { caip_network_id, .. } => Some(caip_network_id.clone()),
            _ => None,
        };
        if !self.required {
            self.state = SiwxState::Idle;
            return vec![SiwxAction::CloseModal];
        }
        if let Some(last) = self.last_signed_network.clone() {
            if awaiting.as_deref() != Some(last.as_str()) && self.network_has_session(&last, now_ms) {
                self.state = SiwxState::SignedIn;
                return vec![SiwxAction::SwitchNetwork { caip_network_id: last }];
            }
        }
        self.state = SiwxState::Idle;
        vec![SiwxAction::Disconnect]
    }

    /// Authentication could not be initialised: show the error, disconnect, return to Connect.
    pub fn on_init_failed(&mut self) -> Vec<SiwxAction> {
        self.state = SiwxState::Idle;
        vec![
            SiwxAction::ShowError { error: WmError::AuthInitFailed },
            SiwxAction::Disconnect,
            SiwxAction::ShowConnect,
        ]
    }

    /// Whether closing the modal is blocked while on the sign or approve view.
    pub fn close_blocked(&self, on_sign_or_approve_view: bool, caip_network_id: &str, address: &str, now_ms: u64) -> bool {
        on_sign_or_approve_view && self.required && !self.has_session(caip_network_id, address, now_ms)
    }

    /// Drop every session (e.g. sign-out).
    pub fn clear_sessions(&mut self) {
        self.sessions.clear();
        self.last_signed_network = None;
        self.state = SiwxState::Idle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(net: &str, addr: &str) -> SiwxSession {
        SiwxSession { caip_network_id: net.into(), address: addr.into(), message: "m".into(), signature: "0xsig".into(), expires_at_ms: None }
    }

    #[test]
    fn connected_without_session_opens_sign_view() {
        let mut f = SiwxFlow::new(false);
        assert_eq!(f.on_connected("eip155:1", "0xAb", 0), vec![SiwxAction::OpenSignView]);
        assert!(matches!(f.state, SiwxState::AwaitingSignature { .. }));
    }

    #[test]
    fn connected_with_session_does_nothing() {
        let mut f = SiwxFlow::with_sessions(true, vec![session("eip155:1", "0xab")]);
        assert!(f.on_connected("eip155:1", "0xAB", 0).is_empty());
        assert_eq!(f.state, SiwxState::SignedIn);
    }

    #[test]
    fn expired_session_counts_as_none() {
        let mut s = session("eip155:1", "0xab");
        s.expires_at_ms = Some(1_000);
        let mut f = SiwxFlow::with_sessions(true, vec![s]);
        assert!(f.has_session("eip155:1", "0xab", 999));
        assert_eq!(f.on_connected("eip155:1", "0xab", 1_000), vec![SiwxAction::OpenSignView]);
    }

    #[test]
    fn signing_stores_a_session_and_closes_the_modal() {
        let mut f = SiwxFlow::new(true);
        f.on_connected("eip155:1", "0xab", 0);
        let s = session("eip155:1", "0xab");
        assert_eq!(f.on_signed(s.clone()), vec![SiwxAction::StoreSession { session: s }, SiwxAction::CloseModal]);
        assert!(f.has_session("eip155:1", "0xab", 5));
        assert_eq!(f.last_signed_network(), Some("eip155:1"));
        f.on_signed(session("eip155:1", "0xAB"));
        assert_eq!(f.sessions().len(), 1);
    }

    #[test]
    fn cancel_when_required_switches_back_to_last_signed_network_with_session() {
        let mut f = SiwxFlow::with_sessions(true, vec![session("eip155:1", "0xab")]);
        f.on_connected("eip155:137", "0xab", 0);
        assert_eq!(f.on_cancel(0), vec![SiwxAction::SwitchNetwork { caip_network_id: "eip155:1".into() }]);
    }

    #[test]
    fn cancel_when_required_without_session_disconnects() {
        let mut f = SiwxFlow::new(true);
        f.on_connected("eip155:1", "0xab", 0);
        assert_eq!(f.on_cancel(0), vec![SiwxAction::Disconnect]);
        // last signed network's session expired: disconnect too
        let mut s = session("eip155:1", "0xab");
        s.expires_at_ms = Some(10);
        let mut f = SiwxFlow::with_sessions(true, vec![s]);
        f.on_connected("eip155:10", "0xab", 20);
        assert_eq!(f.on_cancel(20), vec![SiwxAction::Disconnect]);
    }

    #[test]
    fn cancel_when_not_required_closes_the_modal() {
        let mut f = SiwxFlow::new(false);
        f.on_connected("eip155:1", "0xab", 0);
        assert_eq!(f.on_cancel(0), vec![SiwxAction::CloseModal]);
    }

    #[test]
    fn error_signing_message_reopens_the_sign_view() {
        let mut f = SiwxFlow::new(true);
        let a = f.on_sign_error();
        assert_eq!(a[0], SiwxAction::ShowError { error: WmError::ErrorSigningMessage });
        assert_eq!(a[1], SiwxAction::OpenSignView);
    }

    #[test]
    fn auth_init_failure_disconnects_and_returns_to_connect() {
        let mut f = SiwxFlow::new(true);
        let a = f.on_init_failed();
        assert_eq!(a, vec![SiwxAction::ShowError { error: WmError::AuthInitFailed }, SiwxAction::Disconnect, SiwxAction::ShowConnect]);
        assert_eq!(WmError::AuthInitFailed.message(), "A problem occurred while trying initialize authentication");
    }

    #[test]
    fn closing_blocked_on_sign_view_when_required_and_no_session() {
        let f = SiwxFlow::new(true);
        assert!(f.close_blocked(true, "eip155:1", "0xab", 0));
        assert!(!f.close_blocked(false, "eip155:1", "0xab", 0));
        assert!(!SiwxFlow::new(false).close_blocked(true, "eip155:1", "0xab", 0));
        let f = SiwxFlow::with_sessions(true, vec![session("eip155:1", "0xab")]);
        assert!(!f.close_blocked(true, "eip155:1", "0xab", 0));
        let v = serde_json::to_value(SiwxAction::SwitchNetwork { caip_network_id: "eip155:1".into() }).unwrap();
        assert_eq!(v["type"], "switchNetwork");
    }

    proptest::proptest! {
        #[test]
        fn siwx_flow_never_panics(net in ".*", addr in ".*", now in proptest::num::u64::ANY) {
            let mut f = SiwxFlow::new(true);
            let _ = f.on_connected(&net, &addr, now);
            let _ = f.on_cancel(now);
            let _ = f.close_blocked(true, &net, &addr, now);
        }
    }
}
