//! URL building for the remote services: query strings with percent-encoding and safe path segments.

/// Percent-encodes a query component as `encodeURIComponent` does.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Reverses [`encode_component`] (any `%XX`, a `+` kept as it is): `None` for a broken escape or a
/// result that is not UTF-8.
pub fn decode_component(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = core::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|c| c.is_ascii_hexdigit()))?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Schemes a wallet link from the catalogue (remote data) may never use.
const BLOCKED_LINK_SCHEMES: &[&str] = &["javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "http"];

/// A wallet's deep link carrying a WalletConnect pairing URI: `{scheme}://wc?uri=…` for a native
/// scheme (`metamask://`, `rainbow:`), `{link}/wc?uri=…` for an https universal link. `None` for a
/// link that is empty, has no scheme, contains whitespace or control characters, or uses a scheme
/// that could run code or leave the page unencrypted (`javascript:`, `data:`, plain `http:`, …).
pub fn wallet_deep_link(base: &str, uri: &str) -> Option<String> {
    if base.is_empty() || base.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let (scheme, _) = base.split_once(':')?;
    let valid = scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let scheme = scheme.to_ascii_lowercase();
    if !valid || BLOCKED_LINK_SCHEMES.contains(&scheme.as_str()) {
        return None;
    }
    let encoded = encode_component(uri);
    if scheme == "https" {
        return base.starts_with("https://").then(|| format!("{}/wc?uri={encoded}", base.trim_end_matches('/')));
    }
    Some(format!("{}://wc?uri={encoded}", &base[..scheme.len()]))
}

/// Joins a base URL (trailing slashes dropped), a path and query pairs; empty values are left out.
pub fn build(base: &str, path: &str, query: &[(&str, &str)]) -> String {
    let mut url = format!("{}{}", base.trim_end_matches('/'), path);
    let mut first = !url.as_bytes().contains(&b'?');
    for (k, v) in query.iter().filter(|(_, v)| !v.is_empty()) {
        url.push(if first { '?' } else { '&' });
        first = false;
        url.push_str(&encode_component(k));
        url.push('=');
        url.push_str(&encode_component(v));
    }
    url
}

/// A path segment taken from a server or a wallet: encoded, so it can never add path or query parts.
pub fn segment(s: &str) -> String {
    encode_component(s)
}

/// What `origin.split("://").nth(1)` gives (the host and port of `location.origin`), or "" when
/// there is no `://` (without the standard library's substring search: see [`crate::service::text::find`]).
pub fn after_scheme(origin: &str) -> &str {
    use crate::service::text::find;
    let Some(i) = find(origin, "://") else { return "" };
    let rest = &origin[i + 3..];
    &rest[..find(rest, "://").unwrap_or(rest.len())]
}

#[cfg(test)]
#[path = "url_tests.rs"]
mod tests;
