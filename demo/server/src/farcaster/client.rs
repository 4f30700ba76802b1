//! The wallet service's client of the Farcaster auth relay, over HTTP as `@farcaster/auth-client`
//! is (`actions/app/createChannel.ts`: `POST {relay}/v1/channel`; `actions/app/status.ts`:
//! `GET {relay}/v1/channel/status` with `Authorization: Bearer <channelToken>`).
//!
//! One request per connection (`Connection: close`), loopback `http://` URLs only (the demo never
//! leaves the machine), the whole exchange within a time-out, the answer at most 64 KiB.

use std::time::Duration;

use serde_json::{Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::chain::rpc::parse_loopback_url;

/// Largest relay answer read.
pub const MAX_ANSWER: usize = 64 * 1024;
/// One exchange with the relay.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A relay answer: its status and JSON object (an empty one when the body is not an object).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub json: Map<String, Value>,
}

impl Answer {
    pub fn str(&self, key: &str) -> Option<&str> {
        self.json.get(key).and_then(Value::as_str)
    }
}

/// `POST {relay}/v1/channel` with `body` (`{siweUri, domain, nonce, acceptAuthAddress}`).
pub async fn create_channel(relay: &str, body: &Value) -> Result<Answer, String> {
    let bytes = serde_json::to_vec(body).map_err(|e| e.to_string())?;
    request("POST", &format!("{relay}/v1/channel"), None, Some(&bytes)).await
}

/// `GET {relay}/v1/channel/status` with the channel token as bearer.
pub async fn status(relay: &str, channel_token: &str) -> Result<Answer, String> {
    request(
        "GET",
        &format!("{relay}/v1/channel/status"),
        Some(channel_token),
        None,
    )
    .await
}

async fn request(
    method: &str,
    url: &str,
    bearer: Option<&str>,
    body: Option<&[u8]>,
) -> Result<Answer, String> {
    let t = parse_loopback_url(url)?;
    let exchange = async {
        let mut s = TcpStream::connect(t.addr)
            .await
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nConnection: close\r\n",
            t.path, t.host
        );
        if let Some(token) = bearer {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if let Some(b) = body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            ));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes())
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        if let Some(b) = body {
            s.write_all(b).await.map_err(|e| format!("{url}: {e}"))?;
        }
        // The head (≤ 16 KiB) and the body, up to the close.
        let limit = MAX_ANSWER + 16 * 1024;
        let mut raw = Vec::new();
        (&mut s)
            .take(limit as u64 + 1)
            .read_to_end(&mut raw)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        if raw.len() > limit {
            return Err(format!("{url}: answer larger than {MAX_ANSWER} bytes"));
        }
        parse(&raw).map_err(|e| format!("{url}: {e}"))
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| format!("{url}: no answer within {TIMEOUT:?}"))?
}

/// Status and JSON body of a whole HTTP/1.1 response (`Content-Length`, chunked, or up to the close).
fn parse(raw: &[u8]) -> Result<Answer, String> {
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
    let mut chunked = false;
    let mut length: Option<usize> = None;
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        if k.eq_ignore_ascii_case("transfer-encoding") {
            chunked = v.to_ascii_lowercase().contains("chunked");
        } else if k.eq_ignore_ascii_case("content-length") {
            length = Some(v.parse().map_err(|_| "bad content-length")?);
        }
    }
    let rest = &raw[end + 4..];
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(n) = length {
        rest.get(..n)
            .ok_or("body shorter than its content-length")?
            .to_vec()
    } else {
        rest.to_vec()
    };
    let json = match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    Ok(Answer { status, json })
}

fn dechunk(mut b: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line = b.windows(2).position(|w| w == b"\r\n").ok_or("bad chunk")?;
        let size = std::str::from_utf8(&b[..line])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .ok_or("bad chunk size")?;
        b = &b[line + 2..];
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(b.get(..size).ok_or("truncated chunk")?);
        b = b.get(size + 2..).ok_or("truncated chunk")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_parse_with_a_length_chunked_or_to_the_close() {
        let a =
            parse(b"HTTP/1.1 201 Created\r\ncontent-length: 13\r\n\r\n{\"nonce\":\"x\"}").unwrap();
        assert_eq!((a.status, a.str("nonce")), (201, Some("x")));
        let a = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n4\r\n\"b\"}\r\n0\r\n\r\n")
            .unwrap();
        assert_eq!(a.str("a"), Some("b"));
        let a = parse(b"HTTP/1.1 401 Unauthorized\r\n\r\nnot json").unwrap();
        assert_eq!((a.status, a.json.len()), (401, 0));
        assert!(parse(b"garbage").is_err());
        assert!(parse(b"HTTP/1.1 200 OK\r\ncontent-length: 99\r\n\r\n{}").is_err());
    }
}
