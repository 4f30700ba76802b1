//! Analytics (spec section 7): `POST /e?projectId=…&st=…&sv=…` with a JSON body
//! `{eventId, url, domain, timestamp, props}`.
//!
//! * Tracked events: `props = {"type": "track", "event": NAME, "address": …?, "properties": {…}}`.
//! * Error reports: `props = {"type": "error", "event": "ERROR", "errorType", "errorMessage",
//!   "stackTrace"}`, limited to 5 per sliding 60 s window.
//! * Nothing is sent for MODAL_CREATED or when analytics is disabled.
//! * A 403 answer shows Invalid App Configuration once.

use serde::Serialize;
use crate::service::json::{obj, Value};
use std::collections::VecDeque;

use crate::service::constants::{ERROR_REPORTS_MAX, ERROR_REPORTS_WINDOW_MS};
use crate::service::entities::{AnalyticsConfig, AnalyticsEvent};
use crate::service::errors::WmError;

pub const MODAL_CREATED: &str = "MODAL_CREATED";
pub const MODAL_OPEN: &str = "MODAL_OPEN";
pub const MODAL_CLOSE: &str = "MODAL_CLOSE";
pub const ERROR_FETCH_TRANSACTIONS: &str = "ERROR_FETCH_TRANSACTIONS";
/// The analytics events a note may carry between hosts (a module's slice reports one; the
/// engine's service slice sends it): nothing a caller makes up.
pub const TRACKED: [&str; 3] = [MODAL_OPEN, MODAL_CLOSE, ERROR_FETCH_TRANSACTIONS];
/// `event` of error-report props.
pub const ERROR_EVENT: &str = "ERROR";
/// Path of the analytics endpoint.
pub const ANALYTICS_PATH: &str = "/e";

/// Where events come from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnalyticsContext {
    pub project_id: String,
    /// SDK type (`st`).
    pub sdk_type: String,
    /// SDK version (`sv`).
    pub sdk_version: String,
    /// Page URL.
    pub url: String,
    /// Page domain.
    pub domain: String,
}

/// An HTTP request to make.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyticsRequest {
    pub path: &'static str,
    /// `projectId`, `st`, `sv`, in that order.
    pub query: Vec<(String, String)>,
    pub body: AnalyticsEvent,
}

impl AnalyticsRequest {
    /// `{base}/e?projectId=…&st=…&sv=…` (values percent-encoded).
    pub fn url(&self, base: &str) -> String {
        let mut url = format!("{}{}", base.trim_end_matches('/'), self.path);
        for (i, (k, v)) in self.query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(k);
            url.push('=');
            url.push_str(&crate::service::url::encode_component(v));
        }
        url
    }
}


#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analytics {
    enabled: bool,
    error_times: VecDeque<u64>,
    invalid_config_shown: bool,
}

impl Default for Analytics {
    /// Analytics is on by default (section 9).
    fn default() -> Self {
        Self::new(crate::service::constants::DEFAULT_FEATURE_ANALYTICS)
    }
}

impl Analytics {
    pub fn new(enabled: bool) -> Self {
        Analytics { enabled, error_times: VecDeque::new(), invalid_config_shown: false }
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    /// Apply `GET /getAnalyticsConfig`.
    pub fn apply_config(&mut self, config: &AnalyticsConfig) {
        self.enabled = config.is_analytics_enabled;
    }

    fn request(ctx: &AnalyticsContext, event_id: &str, props: Value, now_ms: u64) -> AnalyticsRequest {
        AnalyticsRequest {
            path: ANALYTICS_PATH,
            query: vec![
                ("projectId".into(), ctx.project_id.clone()),
                ("st".into(), ctx.sdk_type.clone()),
                ("sv".into(), ctx.sdk_version.clone()),
            ],
            body: AnalyticsEvent {
                event_id: event_id.to_string(),
                url: ctx.url.clone(),
                domain: ctx.domain.clone(),
                timestamp: now_ms,
                props,
            },
        }
    }

    /// Track an event (`event_id` is random, passed in). `None` for MODAL_CREATED or when disabled.
    pub fn track(
        &mut self,
        ctx: &AnalyticsContext,
        event_id: &str,
        event: &str,
        properties: Value,
        address: Option<&str>,
        now_ms: u64,
    ) -> Option<AnalyticsRequest> {
        if !self.enabled || event == MODAL_CREATED {
            return None;
        }
        let mut props = vec![("type", "track".into()), ("event", event.into())];
        if let Some(a) = address {
            props.push(("address", a.into()));
        }
        if !properties.is_null() {
            props.push(("properties", properties));
        }
        let props = obj(props);
        Some(Self::request(ctx, event_id, props, now_ms))
    }

    /// MODAL_OPEN / MODAL_CLOSE with the connected flag.
    pub fn modal_event(
        &mut self,
        ctx: &AnalyticsContext,
        event_id: &str,
        open: bool,
        connected: bool,
        address: Option<&str>,
        now_ms: u64,
    ) -> Option<AnalyticsRequest> {
        let name = if open { MODAL_OPEN } else { MODAL_CLOSE };
        self.track(ctx, event_id, name, obj(vec![("connected", connected.into())]), address, now_ms)
    }

    /// Report an error: at most 5 reports per sliding 60 s window; `None` when disabled or limited.
    pub fn report_error(
        &mut self,
        ctx: &AnalyticsContext,
        event_id: &str,
        error_type: &str,
        error_message: &str,
        stack_trace: Option<&str>,
        now_ms: u64,
    ) -> Option<AnalyticsRequest> {
        if !self.enabled {
            return None;
        }
        while let Some(&t) = self.error_times.front() {
            if now_ms.saturating_sub(t) >= ERROR_REPORTS_WINDOW_MS || t > now_ms {
                self.error_times.pop_front();
            } else {
                break;
            }
        }
        if self.error_times.len() >= ERROR_REPORTS_MAX {
            return None;
        }
        self.error_times.push_back(now_ms);
        let props = obj(vec![
            ("type", "error".into()),
            ("event", ERROR_EVENT.into()),
            ("errorType", error_type.into()),
            ("errorMessage", error_message.into()),
            ("stackTrace", stack_trace.into()),
        ]);
        Some(Self::request(ctx, event_id, props, now_ms))
    }

    /// The endpoint answered `status`: 403 shows Invalid App Configuration (once).
    pub fn on_response(&mut self, status: u16) -> Option<WmError> {
        if status == 403 && !self.invalid_config_shown {
            self.invalid_config_shown = true;
            return Some(WmError::InvalidAppConfiguration);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx() -> AnalyticsContext {
        AnalyticsContext { project_id: "pid".into(), sdk_type: "wallet-modal".into(), sdk_version: "html-core-0.1.0".into(), url: "https://app.example/x".into(), domain: "app.example".into() }
    }

    #[test]
    fn analytics_post_body_and_query_shape() {
        let mut a = Analytics::new(true);
        let r = a.modal_event(&ctx(), "ev-1", true, true, Some("0xab"), 1_700_000_000_000).unwrap();
        assert_eq!(r.path, "/e");
        assert_eq!(r.url("https://pulse.example/"), "https://pulse.example/e?projectId=pid&st=wallet-modal&sv=html-core-0.1.0");
        let body = serde_json::to_value(&r.body).unwrap();
        assert_eq!(body, json!({
            "eventId": "ev-1", "url": "https://app.example/x", "domain": "app.example", "timestamp": 1_700_000_000_000u64,
            "props": {"type": "track", "event": "MODAL_OPEN", "address": "0xab", "properties": {"connected": true}}
        }));
        let r = a.modal_event(&ctx(), "ev-2", false, false, None, 0).unwrap();
        assert_eq!(r.body.props["event"], "MODAL_CLOSE");
        assert_eq!(r.body.props["properties"]["connected"], false);
    }

    #[test]
    fn no_analytics_event_for_modal_created() {
        let mut a = Analytics::new(true);
        assert!(a.track(&ctx(), "e", MODAL_CREATED, Value::Null, None, 0).is_none());
        assert!(a.track(&ctx(), "e", ERROR_FETCH_TRANSACTIONS, Value::Null, None, 0).is_some());
    }

    #[test]
    fn no_analytics_when_disabled() {
        let mut a = Analytics::new(true);
        a.apply_config(&AnalyticsConfig { is_analytics_enabled: false });
        assert!(a.track(&ctx(), "e", MODAL_OPEN, Value::Null, None, 0).is_none());
        assert!(a.report_error(&ctx(), "e", "T", "m", None, 0).is_none());
        assert!(Analytics::default().enabled());
    }

    #[test]
    fn error_reports_limited_to_5_per_60_seconds() {
        let mut a = Analytics::new(true);
        for i in 0..5 {
            assert!(a.report_error(&ctx(), "e", "T", "m", Some("stack"), i * 1_000).is_some());
        }
        assert!(a.report_error(&ctx(), "e", "T", "m", None, 10_000).is_none());
        assert!(a.report_error(&ctx(), "e", "T", "m", None, 59_999).is_none());
        // the first report leaves the window at 60 000
        assert!(a.report_error(&ctx(), "e", "T", "m", None, 60_000).is_some());
        assert!(a.report_error(&ctx(), "e", "T", "m", None, 60_500).is_none());
        let r = a.report_error(&ctx(), "e", "FetchError", "boom", Some("at x"), 200_000).unwrap();
        assert_eq!(serde_json::to_value(&r.body.props).unwrap(), json!({"type": "error", "event": "ERROR", "errorType": "FetchError", "errorMessage": "boom", "stackTrace": "at x"}));
    }

    #[test]
    fn analytics_403_shows_invalid_app_configuration_once() {
        let mut a = Analytics::new(true);
        assert_eq!(a.on_response(200), None);
        assert_eq!(a.on_response(403), Some(WmError::InvalidAppConfiguration));
        assert_eq!(a.on_response(403), None);
    }

    proptest::proptest! {
        #[test]
        fn analytics_never_panics(s in ".*", now in proptest::num::u64::ANY, status in proptest::num::u16::ANY) {
            let mut a = Analytics::new(true);
            let c = AnalyticsContext { project_id: s.clone(), sdk_type: s.clone(), sdk_version: s.clone(), url: s.clone(), domain: s.clone() };
            let _ = a.track(&c, &s, &s, Value::from(s.as_str()), Some(&s), now).map(|r| r.url(&s));
            let _ = a.report_error(&c, &s, &s, &s, Some(&s), now);
            let _ = a.on_response(status);
        }
    }
}
