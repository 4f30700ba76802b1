//! Allowed-origins check (spec sections 5, 7, 8).
//!
//! Pattern syntax: `[scheme://]host[:port]`, where
//! * the scheme, when given, must match exactly (case-insensitive); without one, any scheme matches;
//! * the host is compared case-insensitively; in the host, `*` matches one or more label characters
//!   (anything but `.`), so `https://*.example.com` matches `https://app.example.com` but neither
//!   `https://example.com` nor `https://a.b.example.com`;
//! * the port, when given, must match (`*` matches any port, including the default one); without
//!   one, the origin must use the scheme's default port (80 for http, 443 for https);
//! * a trailing path (e.g. `https://example.com/`) is ignored.
//!
//! The localhost defaults of section 6 are about Safe apps and are NOT applied here.

use crate::service::entities::AllowedOrigins;
use crate::service::errors::WmError;

struct Parts {
    scheme: Option<String>,
    host: String,
    port: Option<String>,
}

fn split(input: &str) -> Option<Parts> {
    let s = input.trim();
    if s.is_empty() {
        return None;
    }
    let (scheme, rest) = match crate::service::text::find(s, "://") {
        Some(i) => {
            let sc = &s[..i];
            if sc.is_empty() || !sc.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.') {
                return None;
            }
            (Some(sc.to_ascii_lowercase()), &s[i + 3..])
        }
        None => (None, s),
    };
    // Strip path, query, fragment.
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.is_empty() || authority.as_bytes().contains(&b'@') {
        return None;
    }
    let (host, port) = if let Some(stripped) = authority.strip_prefix('[') {
        // IPv6 literal
        let end = stripped.bytes().position(|b| b == b']')?;
        let host = format!("[{}]", &stripped[..end]);
        let after = &stripped[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p.to_string()),
            None if after.is_empty() => None,
            None => return None,
        };
        (host, port)
    } else {
        match authority.bytes().rposition(|b| b == b':') {
            Some(i) => (authority[..i].to_string(), Some(authority[i + 1..].to_string())),
            None => (authority.to_string(), None),
        }
    };
    if host.is_empty() {
        return None;
    }
    if let Some(p) = &port {
        if p.is_empty() || !(p == "*" || p.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
    }
    Some(Parts { scheme, host: host.to_ascii_lowercase(), port })
}

fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" | "ws" => Some("80"),
        "https" | "wss" => Some("443"),
        _ => None,
    }
}

fn normalize_port(port: &str) -> String {
    let t = port.trim_start_matches('0');
    if t.is_empty() { "0".to_string() } else { t.to_string() }
}

/// `*` matches one or more characters other than `.`; everything else literally.
fn host_matches(pattern: &str, host: &str) -> bool {
    let p = pattern.as_bytes();
    let h = host.as_bytes();
    // Dynamic programming: reach[i] = the pattern prefix matches host[..i].
    let mut reach = vec![false; h.len() + 1];
    reach[0] = true;
    for &pc in p {
        let mut next = vec![false; h.len() + 1];
        if pc == b'*' {
            // next[j]: some reachable i < j with h[i..j] non-empty and dot-free.
            let mut run = false;
            for j in 1..=h.len() {
                run = (reach[j - 1] || run) && h[j - 1] != b'.';
                next[j] = run;
            }
        } else {
            for i in 0..h.len() {
                if reach[i] && h[i] == pc {
                    next[i + 1] = true;
                }
            }
        }
        reach = next;
    }
    reach[h.len()]
}

/// Whether `origin` (e.g. `https://app.example.com:8443`) is allowed by any of `patterns`.
pub fn origin_allowed(origin: &str, patterns: &[String]) -> bool {
    let Some(o) = split(origin) else { return false };
    let Some(o_scheme) = o.scheme.as_deref() else { return false };
    if o.host.as_bytes().contains(&b'*') || o.port.as_deref() == Some("*") {
        return false;
    }
    let o_port = o
        .port
        .as_deref()
        .map(normalize_port)
        .or_else(|| default_port(o_scheme).map(str::to_string));
    patterns.iter().any(|pat| {
        let Some(p) = split(pat) else { return false };
        if let Some(ps) = &p.scheme {
            if ps != o_scheme {
                return false;
            }
        }
        if !host_matches(&p.host, &o.host) {
            return false;
        }
        match p.port.as_deref() {
            Some("*") => true,
            Some(pp) => o_port.as_deref() == Some(normalize_port(pp).as_str()),
            None => {
                // The pattern's default port: from its own scheme, or the origin's.
                let sc = p.scheme.as_deref().unwrap_or(o_scheme);
                match (default_port(sc), o_port.as_deref()) {
                    (Some(d), Some(op)) => d == op,
                    (None, None) => true,
                    _ => o.port.is_none(),
                }
            }
        }
    })
}

/// Classify the `GET /projects/v1/origins` response: 429 → `RateLimited`, 5xx → `ServerError`,
/// 2xx with a valid `{"allowedOrigins": [...]}` body → the list, anything else → an empty list.
pub fn classify_origins_response(status: u16, body: &str) -> Result<Vec<String>, WmError> {
    match status {
        429 => Err(WmError::RateLimited),
        500..=599 => Err(WmError::ServerError),
        200..=299 => Ok(crate::host::json::from_str::<AllowedOrigins>(body)
            .map(|o| o.allowed_origins)
            .unwrap_or_default()),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pats(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exact_origin_is_allowed() {
        let p = pats(&["https://example.com"]);
        assert!(origin_allowed("https://example.com", &p));
        assert!(origin_allowed("https://EXAMPLE.com", &p));
        assert!(origin_allowed("https://example.com:443", &p));
        assert!(!origin_allowed("http://example.com", &p));
        assert!(!origin_allowed("https://example.com:8443", &p));
        assert!(!origin_allowed("https://evil.com", &p));
        assert!(origin_allowed("https://example.com", &pats(&["https://example.com/"])));
    }

    #[test]
    fn allowed_origins_wildcard_subdomain_patterns() {
        let p = pats(&["https://*.example.com"]);
        assert!(origin_allowed("https://app.example.com", &p));
        assert!(origin_allowed("https://my-app.Example.com", &p));
        assert!(!origin_allowed("https://example.com", &p));
        assert!(!origin_allowed("https://a.b.example.com", &p));
        assert!(!origin_allowed("https://app.example.com.evil.io", &p));
        assert!(!origin_allowed("https://appexample.com", &p));
        assert!(!origin_allowed("http://app.example.com", &p));
    }

    #[test]
    fn allowed_origins_wildcard_without_scheme_matches_any_scheme() {
        let p = pats(&["*.vercel.app"]);
        assert!(origin_allowed("https://my-app-git-main.vercel.app", &p));
        assert!(origin_allowed("http://preview.vercel.app", &p));
        assert!(!origin_allowed("https://vercel.app", &p));
        assert!(!origin_allowed("https://my.vercel.app.evil.com", &p));
    }

    #[test]
    fn allowed_origins_wildcard_port() {
        let p = pats(&["http://localhost:*"]);
        assert!(origin_allowed("http://localhost:3000", &p));
        assert!(origin_allowed("http://localhost", &p));
        assert!(!origin_allowed("https://localhost:3000", &p));
        assert!(!origin_allowed("http://localhost.evil.com:3000", &p));
        let p = pats(&["http://localhost:3000"]);
        assert!(origin_allowed("http://localhost:3000", &p));
        assert!(!origin_allowed("http://localhost:3001", &p));
        assert!(!origin_allowed("http://localhost", &p));
    }

    #[test]
    fn wildcard_in_the_middle_of_a_label() {
        let p = pats(&["https://app-*.example.com"]);
        assert!(origin_allowed("https://app-pr12.example.com", &p));
        assert!(!origin_allowed("https://app-.example.com", &p));
        assert!(!origin_allowed("https://web-1.example.com", &p));
    }

    #[test]
    fn malformed_origins_are_refused() {
        let p = pats(&["*.example.com", "https://example.com"]);
        for o in ["", "null", "example.com", "https://", "https://user@example.com", "https://*.example.com"] {
            assert!(!origin_allowed(o, &p), "{o}");
        }
        assert!(!origin_allowed("https://example.com", &[]));
    }

    #[test]
    fn ipv6_origins() {
        let p = pats(&["http://[::1]:*"]);
        assert!(origin_allowed("http://[::1]:5173", &p));
        assert!(!origin_allowed("http://[::2]:5173", &p));
    }

    #[test]
    fn origins_fetch_429_gives_rate_limited() {
        assert_eq!(classify_origins_response(429, ""), Err(WmError::RateLimited));
    }

    #[test]
    fn origins_fetch_5xx_gives_server_error() {
        assert_eq!(classify_origins_response(500, ""), Err(WmError::ServerError));
        assert_eq!(classify_origins_response(503, "{}"), Err(WmError::ServerError));
    }

    #[test]
    fn origins_fetch_anything_else_gives_an_empty_list() {
        assert_eq!(classify_origins_response(404, r#"{"allowedOrigins":["x"]}"#), Ok(vec![]));
        assert_eq!(classify_origins_response(403, ""), Ok(vec![]));
        assert_eq!(classify_origins_response(200, "not json"), Ok(vec![]));
        assert_eq!(classify_origins_response(200, r#"{"other":1}"#), Ok(vec![]));
        assert_eq!(
            classify_origins_response(200, r#"{"allowedOrigins":["https://a.com","*.b.io"]}"#),
            Ok(vec!["https://a.com".to_string(), "*.b.io".to_string()])
        );
    }

    proptest::proptest! {
        #[test]
        fn origin_checks_never_panic(o in ".*", p in ".*", status in 0u16..1000, body in ".*") {
            let _ = origin_allowed(&o, std::slice::from_ref(&p));
            let _ = origin_allowed(&p, &[o.clone(), "*".into(), "http://*:*".into()]);
            let _ = classify_origins_response(status, &body);
        }

        #[test]
        fn exact_https_origin_always_matches_itself(label in "[a-z0-9-]{1,20}", tld in "[a-z]{2,6}") {
            let o = format!("https://{label}.{tld}");
            proptest::prop_assert!(origin_allowed(&o, std::slice::from_ref(&o)));
            let wild = format!("https://*.{tld}");
            proptest::prop_assert!(origin_allowed(&o, &[wild]));
        }
    }
}
