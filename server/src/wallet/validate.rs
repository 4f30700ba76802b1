//! Input checks of the wallet routes: every length bounded, every character known.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// Longest email address (RFC 5321's path limit less the angle brackets).
pub const MAX_EMAIL: usize = 254;
pub const MAX_LOCAL_PART: usize = 64;
/// Device ids: 16–64 characters of `[A-Za-z0-9_-]`.
pub const DEVICE_ID_LEN: std::ops::RangeInclusive<usize> = 16..=64;
/// A key ciphertext is `iv (12) ‖ ciphertext ‖ tag (16)`: at least 28 bytes, at most 1 KiB.
pub const KEY_CIPHERTEXT_BYTES: std::ops::RangeInclusive<usize> = 28..=1024;
pub const MAX_PROJECT_ID: usize = 128;

/// The address in the form the service keeps (trimmed, lowercase), or `None` when it is not a
/// plausible address: ASCII only, one `@`, a dot-atom local part of at most 64 characters, a domain
/// of at least two labels (letters, digits, inner hyphens, each at most 63), a letter in the last
/// label. No quoted local parts, no address literals: nothing that could break a mail header or an
/// SMTP command.
pub fn email(input: &str) -> Option<String> {
    let s = input.trim();
    if s.is_empty() || s.len() > MAX_EMAIL || !s.is_ascii() {
        return None;
    }
    let (local, domain) = s.split_once('@')?;
    if local.is_empty() || local.len() > MAX_LOCAL_PART || domain.contains('@') {
        return None;
    }
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
    if local
        .split('.')
        .any(|part| part.is_empty() || !part.chars().all(atext))
    {
        return None;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return None;
    }
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if !labels.iter().all(label_ok) {
        return None;
    }
    if !labels.last()?.chars().any(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(s.to_ascii_lowercase())
}

/// Exactly six ASCII digits.
pub fn otp(s: &str) -> bool {
    s.len() == 6 && s.bytes().all(|b| b.is_ascii_digit())
}

pub fn device_id(s: &str) -> bool {
    DEVICE_ID_LEN.contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// `0x` and 40 hex digits (any case).
pub fn address(s: &str) -> bool {
    s.len() == 42 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Standard base64 (padded) of 28–1024 bytes.
pub fn key_ciphertext(s: &str) -> bool {
    s.len() <= 4 * KEY_CIPHERTEXT_BYTES.end().div_ceil(3)
        && STANDARD
            .decode(s)
            .is_ok_and(|b| KEY_CIPHERTEXT_BYTES.contains(&b.len()))
}

/// A project id the wallet service scopes identities with: 1–128 characters of
/// `[A-Za-z0-9_.-]` (no `/`: it separates the project from the identity in [`super::store::scoped`]).
pub fn project_id(s: &str) -> bool {
    (1..=MAX_PROJECT_ID).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// 64 lowercase hex characters (session tokens, approval tokens).
pub fn token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert_eq!(
            email(" Alice@Example.COM ").as_deref(),
            Some("alice@example.com")
        );
        assert!(email("a.b+tag@mail.example.co").is_some());
        for bad in [
            "",
            "a",
            "@x.com",
            "a@",
            "a@b",
            "a@b.1",
            "a@@b.com",
            "a@b@c.com",
            "a..b@c.com",
            ".a@c.com",
            "a.@c.com",
            "a b@c.com",
            "a@-b.com",
            "a@b-.com",
            "a@b..com",
            "a\r\nRCPT TO:<x@y.com>@c.com",
            "a@c.com\r\nBcc: x@y.com",
            "\"a\"@c.com",
            "a@[127.0.0.1]",
            "é@c.com",
        ] {
            assert_eq!(email(bad), None, "{bad:?}");
        }
        let long_local = format!("{}@c.com", "a".repeat(65));
        assert_eq!(email(&long_local), None);
        let long = format!(
            "{}@{}.com",
            "a".repeat(64),
            vec!["b".repeat(63); 3].join(".")
        );
        assert!(long.len() > MAX_EMAIL);
        assert_eq!(email(&long), None);
    }

    #[test]
    fn codes_ids_addresses() {
        assert!(otp("012345"));
        assert!(!otp("12345"));
        assert!(!otp("1234567"));
        assert!(!otp("12345a"));
        assert!(!otp("١٢٣٤٥٦"));
        assert!(device_id("abcdefABCDEF0123_-"));
        assert!(!device_id("short"));
        assert!(!device_id(&"a".repeat(65)));
        assert!(!device_id("abcdefghijklmnop/"));
        assert!(address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert!(!address("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert!(!address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226g"));
        assert!(key_ciphertext(&STANDARD.encode([7u8; 60])));
        assert!(!key_ciphertext(&STANDARD.encode([7u8; 27])));
        assert!(!key_ciphertext(&STANDARD.encode([7u8; 1025])));
        assert!(!key_ciphertext("not base64!"));
        assert!(project_id("demo-project") && project_id("a.b_C-9"));
        assert!(!project_id("") && !project_id("a/b") && !project_id("a b"));
        assert!(!project_id(&"p".repeat(129)));
        assert!(token(&"ab".repeat(32)));
        assert!(!token(&"AB".repeat(32)));
    }
}
