//! Validation rules of spec section 5 that are not in the `./core` utilities (address, caip,
//! units, format, name, siwx), in a chain family (`chain::*`) nor in a state machine of their own:
//! the email and one-time-code payloads of the embedded wallet's frame (a valid email address for
//! connect and update-email; a code is a string).

use crate::service::errors::WmError;
use crate::service::json::Value;

// ---------------------------------------------------------------------------------------------
// Email and otp
// ---------------------------------------------------------------------------------------------

/// A valid email address: one `@`; a non-empty local part (≤ 64 chars) of letters, digits and
/// ``!#$%&'*+/=?^_`{|}~.-`` without leading, trailing or doubled dots; a domain (≤ 253 chars) of at
/// least two dot-separated labels of letters, digits and hyphens (not at either end of a label),
/// the last label at least 2 letters. Surrounding whitespace is not accepted.
pub fn is_valid_email(email: &str) -> bool {
    if email.len() > 254 {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else { return false };
    if domain.contains('@') || local.is_empty() || local.len() > 64 {
        return false;
    }
    const SPECIAL: &str = "!#$%&'*+/=?^_`{|}~.-";
    if !local.chars().all(|c| c.is_ascii_alphanumeric() || SPECIAL.contains(c)) {
        return false;
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return false;
    }
    if domain.is_empty() || domain.len() > 253 {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    for l in &labels {
        if l.is_empty()
            || l.len() > 63
            || l.starts_with('-')
            || l.ends_with('-')
            || !l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return false;
        }
    }
    let tld = labels[labels.len() - 1];
    tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())
}

/// Validate an email for connect and update-email.
pub fn validate_email(email: &str) -> Result<(), WmError> {
    if is_valid_email(email) {
        Ok(())
    } else {
        Err(WmError::InvalidEmail)
    }
}

/// `{"email": "<valid email>"}` (connect email / update email frame payloads) → the email.
pub fn parse_email_payload(payload: &Value) -> Result<String, WmError> {
    match payload.get("email").and_then(Value::as_str) {
        Some(e) if is_valid_email(e) => Ok(e.to_string()),
        _ => Err(WmError::InvalidEmail),
    }
}

/// `{"otp": "<string>"}` (connect otp / update-email otp payloads) → the otp. The otp must be a
/// string (non-empty); numbers and other types are refused.
pub fn parse_otp_payload(payload: &Value) -> Result<String, WmError> {
    match payload.get("otp").and_then(Value::as_str) {
        Some(o) if !o.trim().is_empty() => Ok(o.to_string()),
        _ => Err(WmError::InvalidOtp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn email_must_be_a_valid_address_for_connect_and_update() {
        for ok in ["a@b.co", "first.last+tag@sub.example.org", "x_y-z@my-domain.io", "A@B.CO"] {
            assert!(is_valid_email(ok), "{ok}");
            assert!(validate_email(ok).is_ok());
        }
        for bad in ["", "a", "a@", "@b.co", "a@b", "a@b.c", "a b@c.co", " a@b.co", "a@b.co ", "a@@b.co", "a@b..co", ".a@b.co", "a.@b.co", "a..b@c.co", "a@-b.co", "a@b-.co", "a@b.c0", "a@b_c.co"] {
            assert!(!is_valid_email(bad), "{bad}");
            assert_eq!(validate_email(bad), Err(WmError::InvalidEmail));
        }
    }

    #[test]
    fn email_payload_requires_a_valid_email_string() {
        assert_eq!(parse_email_payload(&json!({"email": "a@b.co"})), Ok("a@b.co".into()));
        assert_eq!(parse_email_payload(&json!({"email": 5})), Err(WmError::InvalidEmail));
        assert_eq!(parse_email_payload(&json!({"email": "nope"})), Err(WmError::InvalidEmail));
        assert_eq!(parse_email_payload(&json!({})), Err(WmError::InvalidEmail));
    }

    #[test]
    fn otp_must_be_a_string() {
        assert_eq!(parse_otp_payload(&json!({"otp": "123456"})), Ok("123456".into()));
        assert_eq!(parse_otp_payload(&json!({"otp": 123456})), Err(WmError::InvalidOtp));
        assert_eq!(parse_otp_payload(&json!({"otp": null})), Err(WmError::InvalidOtp));
        assert_eq!(parse_otp_payload(&json!({"otp": ""})), Err(WmError::InvalidOtp));
    }

    proptest::proptest! {
        #[test]
        fn validators_never_panic(s in ".*") {
            let _ = is_valid_email(&s);
            let _ = parse_email_payload(&json!({"email": s}));
            let _ = parse_otp_payload(&json!({"otp": s}));
        }
    }
}
