//! The wallet service's back-channel to the OpenID Connect provider: GET (discovery, JWKS) through
//! the chain client's [`http_get`](crate::chain::rpc::http_get), and one form POST (the token
//! endpoint) here. Loopback `http://` URLs only, one request per connection, every size and the
//! whole exchange's time bounded.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::chain::rpc::{parse_loopback_url, RpcLimits};

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
    let t = parse_loopback_url(url)?;
    let exchange = async {
        let mut s = TcpStream::connect(t.addr)
            .await
            .map_err(|e| format!("connect {}: {e}", t.addr))?;
        let auth = authorization
            .map(|a| format!("Authorization: {a}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n{auth}\
             Connection: close\r\n\r\n",
            t.path,
            t.host,
            form.len()
        );
        s.write_all(head.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        s.write_all(form.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        // `Connection: close`: the answer ends where the connection does.
        let mut raw = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            let n = s.read(&mut chunk).await.map_err(|e| format!("read: {e}"))?;
            if n == 0 {
                break;
            }
            if raw.len() + n > MAX_ANSWER + 16 * 1024 {
                return Err(format!("answer larger than {MAX_ANSWER} bytes"));
            }
            raw.extend_from_slice(&chunk[..n]);
        }
        parse_response(&raw)
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| format!("no answer from {url} within {timeout:?}"))?
}

/// Status and body of a whole HTTP/1.1 response (`Content-Length`, chunked, or until the end).
fn parse_response(raw: &[u8]) -> Result<(u16, Vec<u8>), String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no response head")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "non-UTF-8 response head")?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("bad status line")?;
    let mut length = None;
    let mut chunked = false;
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        if k.trim().eq_ignore_ascii_case("content-length") {
            length = Some(
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| "bad content-length")?,
            );
        } else if k.trim().eq_ignore_ascii_case("transfer-encoding") {
            chunked = v.to_ascii_lowercase().contains("chunked");
        }
    }
    let rest = &raw[end + 4..];
    let body = if chunked {
        decode_chunked(rest)?
    } else if let Some(n) = length {
        rest.get(..n)
            .ok_or("connection closed inside the body")?
            .to_vec()
    } else {
        rest.to_vec()
    };
    if body.len() > MAX_ANSWER {
        return Err(format!("answer larger than {MAX_ANSWER} bytes"));
    }
    Ok((status, body))
}

fn decode_chunked(mut b: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = b.windows(2).position(|w| w == b"\r\n").ok_or("bad chunk")?;
        let size = std::str::from_utf8(&b[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .ok_or("bad chunk size")?;
        b = &b[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let data = b.get(..size).ok_or("connection closed inside a chunk")?;
        out.extend_from_slice(data);
        b = b
            .get(size + 2..)
            .ok_or("connection closed inside a chunk")?;
    }
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
    fn responses_with_a_length_chunks_or_neither() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}").unwrap();
        assert_eq!(r, (200, b"{}".to_vec()));
        let r = parse_response(
            b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(r, (400, b"abcde".to_vec()));
        let r = parse_response(b"HTTP/1.0 200 OK\r\n\r\nrest").unwrap();
        assert_eq!(r, (200, b"rest".to_vec()));
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort").is_err());
        assert!(parse_response(b"garbage").is_err());
    }

    #[test]
    fn encoding_keeps_only_unreserved_characters() {
        assert_eq!(
            encode("http://127.0.0.1:5/a b?c=d&e"),
            "http%3A%2F%2F127.0.0.1%3A5%2Fa%20b%3Fc%3Dd%26e"
        );
        assert_eq!(encode("a-b.c_d~"), "a-b.c_d~");
    }
}
