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

/// Joins a base URL (trailing slashes dropped), a path and query pairs; empty values are left out.
pub fn build(base: &str, path: &str, query: &[(&str, &str)]) -> String {
    let mut url = format!("{}{}", base.trim_end_matches('/'), path);
    let mut first = !url.contains('?');
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_encoded_like_encode_uri_component() {
        assert_eq!(encode_component("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(encode_component("eip155:1,solana:x"), "eip155%3A1%2Csolana%3Ax");
        assert_eq!(encode_component("A-z_0.9~!*'()"), "A-z_0.9~!*'()");
    }

    #[test]
    fn build_joins_base_path_and_non_empty_query_pairs() {
        assert_eq!(build("http://h:1/", "/getWallets", &[("page", "1"), ("search", ""), ("q", "a b")]), "http://h:1/getWallets?page=1&q=a%20b");
        assert_eq!(build("http://h/v1/?chainId=1", "", &[("projectId", "p")]), "http://h/v1/?chainId=1&projectId=p");
    }

    #[test]
    fn segments_cannot_escape_the_path() {
        assert_eq!(segment("../admin?x=1#"), "..%2Fadmin%3Fx%3D1%23");
    }
}
