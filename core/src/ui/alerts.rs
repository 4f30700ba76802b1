//! Alerts: shown once per alert error key, and only in debug mode (spec sections 4 and 8).
//! The unsupported RPC method alert appears after 300 ms (`AlertOut::delay_ms`).

use serde::Serialize;


use crate::service::constants::UNSUPPORTED_RPC_ALERT_DELAY_MS;
pub use crate::service::errors::Severity;
use crate::service::errors::WmError;

/// An alert to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AlertOut {
    pub key: &'static str,
    pub message: String,
    pub description: Option<&'static str>,
    pub severity: Severity,
    /// Show after this delay (300 ms for RPC_METHOD_NOT_ALLOWED, else 0).
    #[serde(rename = "delayMs")]
    pub delay_ms: u64,
}

/// Remembers which alert keys were already shown.
#[derive(Debug, Clone, Default)]
pub struct Alerts {
    shown: Vec<&'static str>,
}

impl Alerts {
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the alert to show: only for alert errors, only when `debug` is true, and only the
    /// first time per key. Non-debug calls do not consume the key.
    pub fn raise(&mut self, err: &WmError, debug: bool) -> Option<AlertOut> {
        let severity = err.alert_severity()?;
        if !debug {
            return None;
        }
        let key = err.key();
        if self.shown.contains(&key) {
            return None;
        }
        self.shown.push(key);
        Some(AlertOut {
            key,
            message: err.message(),
            description: err.alert_description(),
            severity,
            delay_ms: if matches!(err, WmError::RpcMethodNotAllowed) {
                UNSUPPORTED_RPC_ALERT_DELAY_MS
            } else {
                0
            },
        })
    }

    /// Whether this key was already shown.
    pub fn was_shown(&self, key: &str) -> bool {
        self.shown.contains(&key)
    }

    /// Forget every shown key.
    pub fn reset(&mut self) {
        self.shown.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alert_shown_once_per_key_in_debug_mode() {
        let mut a = Alerts::new();
        let out = a.raise(&WmError::ProjectIdNotConfigured, true).unwrap();
        assert_eq!(out.key, "PROJECT_ID_NOT_CONFIGURED");
        assert_eq!(out.message, "Project Id Not Configured");
        assert_eq!(out.severity, Severity::Error);
        assert!(a.raise(&WmError::ProjectIdNotConfigured, true).is_none());
        assert!(a.raise(&WmError::RateLimited, true).is_some());
        assert!(a.was_shown("RATE_LIMITED"));
    }

    #[test]
    fn alerts_not_shown_outside_debug_mode() {
        let mut a = Alerts::new();
        assert!(a.raise(&WmError::ServerError, false).is_none());
        // not consumed: a later debug raise shows it
        assert!(a.raise(&WmError::ServerError, true).is_some());
    }

    #[test]
    fn non_alert_errors_never_raise_an_alert() {
        let mut a = Alerts::new();
        assert!(a.raise(&WmError::ConnectionRejected, true).is_none());
    }

    #[test]
    fn multi_wallet_not_enabled_alert_is_info() {
        let mut a = Alerts::new();
        assert_eq!(a.raise(&WmError::MultiWalletNotEnabled, true).unwrap().severity, Severity::Info);
    }

    #[test]
    fn unsupported_rpc_method_alert_appears_after_300_ms() {
        let mut a = Alerts::new();
        let out = a.raise(&WmError::RpcMethodNotAllowed, true).unwrap();
        assert_eq!(out.delay_ms, 300);
        assert_eq!(out.description, Some("Requested RPC call is not allowed"));
        let out = a.raise(&WmError::InvalidAppConfiguration, true).unwrap();
        assert_eq!(out.delay_ms, 0);
        let v = serde_json::to_value(&out).unwrap();
        assert_eq!(v["severity"], "error");
        assert_eq!(v["key"], "INVALID_APP_CONFIGURATION");
        a.reset();
        assert!(a.raise(&WmError::InvalidAppConfiguration, true).is_some());
    }
}
