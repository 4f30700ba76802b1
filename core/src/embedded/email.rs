//! The email login's rules: the EmailLogin steps (email → device approval → code →
//! connected), the 30 s throttle with its countdown (spec §5) and the two-step email change
//! (UpdateEmailWallet, spec §4). Pure state: the email slice sends what it decides to the frame.

use crate::json;
use crate::service::json::Value;

use crate::embedded::frame::{EmailConnectAction, EmailUpdateFlow, EmailUpdateStep};
use crate::embedded::throttle::EmailThrottle;
use crate::service::constants::EMAIL_LOGIN_COOLDOWN_MS;
use crate::service::errors::WmError;
use crate::service::validation;

/// Where the visitor is in the email login.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The email field on Connect (or nothing under way).
    Idle,
    /// The code is being sent.
    Sending,
    /// A known email on a new browser: waiting for the visitor to approve the device by mail.
    Device,
    /// Enter the code.
    Otp,
    /// The code is being checked.
    Verifying,
    /// The code was right: reading the account.
    Connecting,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Idle => "idle",
            Step::Sending => "sending",
            Step::Device => "device",
            Step::Otp => "otp",
            Step::Verifying => "verifying",
            Step::Connecting => "connecting",
        }
    }
}

fn is_throttle_message(e: &str) -> bool {
    e.starts_with("Please try again after")
}

#[derive(Debug, Default)]
pub struct EmailFlow {
    pub step: Option<Step>,
    pub email: String,
    /// Under the email field: an invalid email, the throttle's countdown, a send failure.
    pub field_error: Option<String>,
    /// Under the code field: a wrong or expired code.
    pub code_error: Option<String>,
    pub throttle: EmailThrottle,
    /// The code was sent again.
    pub resent: bool,
    pub update: EmailUpdateFlow,
    pub update_error: Option<String>,
    pub update_busy: bool,
    /// The throttle's time before this send: restored when no email went out.
    sent_before: Option<u64>,
}

impl EmailFlow {
    pub fn step(&self) -> Step {
        self.step.unwrap_or(Step::Idle)
    }

    /// The visitor submits an email (or asks for the code again): the `CONNECT_EMAIL` payload, or
    /// the message to show under the field.
    pub fn submit(&mut self, email: &str, now: u64) -> Result<Value, String> {
        self.sent_before = self.throttle.last_sent_ms();
        let email = email.trim();
        if email.len() > 254 || validation::validate_email(email).is_err() {
            self.field_error = Some("Invalid email".into()); // i18n
            return Err("Invalid email".into());
        }
        if let Err(e) = self.throttle.try_send(now) {
            let m = e.message();
            self.field_error = Some(m.clone());
            return Err(m);
        }
        self.email = email.to_string();
        self.field_error = None;
        self.code_error = None;
        self.step = Some(Step::Sending);
        Ok(json!({ "email": self.email }))
    }

    /// Whether the throttle's message shows, under the email or under the code.
    pub fn throttle_shows(&self) -> bool {
        [&self.field_error, &self.code_error].iter().any(|e| e.as_deref().is_some_and(is_throttle_message))
    }

    /// The countdown's tick: the throttle's message says the seconds left, and goes when the time
    /// is up. The seconds left while it still shows.
    pub fn countdown(&mut self, now: u64) -> Option<u64> {
        let left = self.throttle.remaining_seconds(now);
        let shows = self.throttle_shows();
        for e in [&mut self.field_error, &mut self.code_error] {
            if e.as_deref().is_some_and(is_throttle_message) {
                *e = (left > 0).then(|| WmError::EmailThrottled { seconds: left }.message());
            }
        }
        (shows && left > 0).then_some(left)
    }

    /// The frame answered `CONNECT_EMAIL`. When no email went out, the throttle does not count
    /// this try: it goes back to where it was, or — the service refusing because another browser
    /// just mailed this address ('Please try again after N seconds') — it waits the service's N.
    pub fn sent(&mut self, result: Result<&Value, &WmError>, now: u64) {
        if self.step() != Step::Sending {
            return;
        }
        match result.map(crate::embedded::frame::parse_email_connect_action) {
            Ok(Some(EmailConnectAction::VerifyDevice)) => self.step = Some(Step::Device),
            Ok(Some(EmailConnectAction::VerifyOtp)) => self.step = Some(Step::Otp),
            Ok(Some(EmailConnectAction::Connect)) => self.step = Some(Step::Connecting),
            Ok(None) => self.fail_send("The wallet service gave an unexpected answer".into()), // i18n
            Err(e) => {
                let m = e.message();
                let wait = m.strip_prefix("Please try again after ").and_then(|r| r.strip_suffix(" seconds")).and_then(|n| n.parse::<u64>().ok()).filter(|n| *n <= 30);
                self.throttle = match wait {
                    Some(n) => EmailThrottle::with_last_sent(Some((now + n * 1000).saturating_sub(EMAIL_LOGIN_COOLDOWN_MS))),
                    None => EmailThrottle::with_last_sent(self.sent_before),
                };
                self.fail_send(m);
            }
        }
    }

    fn fail_send(&mut self, message: String) {
        self.step = Some(Step::Idle);
        self.field_error = Some(message);
    }

    /// The code entered: the `CONNECT_OTP` payload (6 digits) or the message under the field.
    pub fn otp(&mut self, otp: &str) -> Result<Value, String> {
        if self.step() != Step::Otp {
            return Err("No code was asked for".into());
        }
        let otp: String = otp.chars().filter(|c| !c.is_whitespace()).collect();
        if otp.len() != 6 || !otp.bytes().all(|b| b.is_ascii_digit()) {
            self.code_error = Some("Enter the 6-digit code from the email".into()); // i18n
            return Err("bad code".into());
        }
        self.code_error = None;
        self.step = Some(Step::Verifying);
        Ok(json!({ "otp": otp }))
    }

    /// The frame answered `CONNECT_OTP`: on success the module reads the account.
    pub fn verified(&mut self, result: Result<&Value, &WmError>) -> bool {
        if self.step() != Step::Verifying {
            return false;
        }
        match result {
            Ok(_) => {
                self.step = Some(Step::Connecting);
                true
            }
            Err(e) => {
                self.step = Some(Step::Otp);
                self.code_error = Some(e.message());
                false
            }
        }
    }

    pub fn reset(&mut self) {
        self.step = None;
        self.code_error = None;
        self.resent = false;
    }

    // ----- UpdateEmailWallet -----

    pub fn update_start(&mut self, email: &str, current: Option<&str>) -> Result<Value, String> {
        let email = email.trim();
        if current.is_some_and(|c| c.eq_ignore_ascii_case(email)) {
            self.update_error = Some("That is already your email".into()); // i18n
            return Err("same".into());
        }
        match self.update.start(email) {
            Ok(p) => {
                self.update_error = None;
                self.update_busy = true;
                Ok(p)
            }
            Err(_) => {
                self.update_error = Some("Invalid email".into()); // i18n
                Err("Invalid email".into())
            }
        }
    }

    pub fn update_otp(&mut self, otp: &str) -> Result<(crate::embedded::frame::AppEvent, Value), String> {
        let otp: String = otp.chars().filter(|c| !c.is_whitespace()).collect();
        if otp.len() != 6 || !otp.bytes().all(|b| b.is_ascii_digit()) {
            self.update_error = Some("Enter the 6-digit code from the email".into()); // i18n
            return Err("bad code".into());
        }
        let r = self.update.otp_request(&otp).map_err(|e| e.message())?;
        self.update_error = None;
        self.update_busy = true;
        Ok(r)
    }

    pub fn update_view(&self) -> Value {
        let (step, new_email) = match &self.update.step {
            EmailUpdateStep::Idle => ("email", None),
            EmailUpdateStep::Requested { new_email } => ("email", Some(new_email)),
            EmailUpdateStep::PrimaryOtp { new_email } => ("primaryOtp", Some(new_email)),
            EmailUpdateStep::SecondaryOtp { new_email } => ("secondaryOtp", Some(new_email)),
            EmailUpdateStep::Done { new_email } => ("done", Some(new_email)),
        };
        json!({"step": step, "newEmail": new_email, "error": self.update_error, "busy": self.update_busy})
    }

    pub fn view(&self, now: u64) -> Value {
        json!({
            "step": self.step().name(),
            "email": self.email,
            "fieldError": self.field_error,
            "codeError": self.code_error,
            "resent": self.resent,
            "resendIn": self.throttle.remaining_seconds(now),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_email_is_refused_under_the_field() {
        let mut s = EmailFlow::default();
        assert_eq!(s.submit("not-an-email", 0).unwrap_err(), "Invalid email");
        assert_eq!(s.step(), Step::Idle);
        assert_eq!(s.field_error.as_deref(), Some("Invalid email"));
    }

    #[test]
    fn a_second_email_within_30_s_is_throttled_with_a_countdown() {
        let mut s = EmailFlow::default();
        assert_eq!(s.submit("a@example.com", 1_000).unwrap(), json!({"email": "a@example.com"}));
        s.sent(Ok(&json!({"action": "VERIFY_OTP"})), 0);
        assert_eq!(s.step(), Step::Otp);
        assert_eq!(s.submit("a@example.com", 11_000).unwrap_err(), "Please try again after 20 seconds");
        assert_eq!(s.countdown(12_500), Some(19));
        assert_eq!(s.field_error.as_deref(), Some("Please try again after 19 seconds"));
        assert_eq!(s.countdown(31_000), None);
        assert_eq!(s.field_error, None, "the message goes when the time is up");
        assert!(s.submit("a@example.com", 31_000).is_ok());
    }

    #[test]
    fn the_answer_to_connect_email_picks_the_next_step() {
        for (action, step) in [("VERIFY_DEVICE", Step::Device), ("VERIFY_OTP", Step::Otp), ("CONNECT", Step::Connecting)] {
            let mut s = EmailFlow::default();
            s.submit("a@example.com", 0).unwrap();
            s.sent(Ok(&json!({ "action": action })), 0);
            assert_eq!(s.step(), step, "{action}");
        }
        let mut s = EmailFlow::default();
        s.submit("a@example.com", 0).unwrap();
        s.sent(Err(&WmError::frame_error(Some("Could not send the email"))), 0);
        assert_eq!(s.step(), Step::Idle);
        assert_eq!(s.field_error.as_deref(), Some("Could not send the email"));
    }

    #[test]
    fn a_send_the_service_refused_does_not_count_against_the_throttle() {
        let t = 1_000_000;
        let mut s = EmailFlow::default();
        s.submit("a@example.com", t).unwrap();
        s.sent(Err(&WmError::frame_error(Some("Could not send the email"))), t + 100);
        assert!(s.submit("a@example.com", t + 1_000).is_ok(), "no email went out: the visitor may try again at once");
        // Another browser mailed this address 12 s ago: the service says 18 s, and so does the modal.
        s.sent(Err(&WmError::frame_error(Some("Please try again after 18 seconds"))), t + 1_100);
        assert_eq!(s.throttle.remaining_seconds(t + 1_100), 18);
        assert_eq!(s.field_error.as_deref(), Some("Please try again after 18 seconds"));
        assert!(s.submit("a@example.com", t + 19_100).is_ok(), "after the service's 18 s, not 30 s from this try");
    }

    #[test]
    fn a_wrong_code_keeps_the_code_step_with_the_frames_message() {
        let mut s = EmailFlow::default();
        s.submit("a@example.com", 0).unwrap();
        s.sent(Ok(&json!({"action": "VERIFY_OTP"})), 0);
        assert!(s.otp("12ab56").is_err());
        assert_eq!(s.code_error.as_deref(), Some("Enter the 6-digit code from the email"));
        assert_eq!(s.otp(" 123 456 ").unwrap(), json!({"otp": "123456"}));
        assert!(!s.verified(Err(&WmError::frame_error(Some("Invalid code")))));
        assert_eq!(s.step(), Step::Otp);
        assert_eq!(s.code_error.as_deref(), Some("Invalid code"));
        s.otp("123457").unwrap();
        assert!(s.verified(Ok(&json!({}))));
        assert_eq!(s.step(), Step::Connecting);
    }

    #[test]
    fn the_email_change_refuses_the_same_or_an_invalid_email() {
        let mut s = EmailFlow::default();
        assert!(s.update_start("A@example.com", Some("a@example.com")).is_err());
        assert_eq!(s.update_error.as_deref(), Some("That is already your email"));
        assert!(s.update_start("nope", Some("a@example.com")).is_err());
        assert_eq!(s.update_start("b@example.com", Some("a@example.com")).unwrap(), json!({"email": "b@example.com"}));
        assert!(s.update_busy);
    }
}
