//! The wallet service's back-channel to the OpenID Connect provider: GET (discovery, JWKS) and one
//! form POST (the token endpoint), through the backend's one small HTTP client
//! ([`http_request`](crate::chain::rpc::http_request)). Loopback `http://` URLs only, one request per connection, every size and the
//! whole exchange's time bounded.

use std::time::Duration;

use crate::chain::rpc::RpcLimits;

/// Largest answer read from the provider (discovery, JWKS, token response).
pub const MAX_ANSWER: usize = 64 * 1024;

/// `GET url`: status and body.
pub async fn get(url: &str, timeout: Duration) -> Result<(u16, Vec<u8>), String> {
    let limits = RpcLimits {
        timeout,
        max_response: MAX_ANSWER,
        max_idle: 0,
    };
    crate::chain::rpc::http_get(url, &limits).await
}

/// `POST url` with an `application/x-www-form-urlencoded` body and an optional `Authorization`
/// header: status and body.
pub async fn post_form(
    url: &str,
    authorization: Option<&str>,
    form: &str,
    timeout: Duration,
) -> Result<(u16, Vec<u8>), String> {
    let limits = RpcLimits {
        timeout,
        max_response: MAX_ANSWER,
        max_idle: 0,
    };
    let headers: Vec<(&str, &str)> = authorization.map(|a| ("Authorization", a)).into_iter().collect();
    crate::chain::rpc::http_request(
        "POST",
        url,
        &headers,
        Some(("application/x-www-form-urlencoded", form.as_bytes())),
        &limits,
    )
    .await
}

/// `application/x-www-form-urlencoded` / query component encoding (RFC 3986 unreserved kept).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_keeps_only_unreserved_characters() {
        assert_eq!(
            encode("http://127.0.0.1:5/a b?c=d&e"),
            "http%3A%2F%2F127.0.0.1%3A5%2Fa%20b%3Fc%3Dd%26e"
        );
        assert_eq!(encode("a-b.c_d~"), "a-b.c_d~");
    }
}
