//! A small HTTP/1.1 client over tokio's `TcpStream`, for JSON-RPC to local chains (anvil) and for
//! NFT metadata served on loopback. Only `http://` URLs whose host is a loopback address: the demo
//! backend never reaches out of the machine.
//!
//! Bounded everywhere: the response head (16 KiB), the body ([`RpcLimits::max_response`]), the time
//! of a whole exchange ([`RpcLimits::timeout`]). Keep-alive connections are pooled (a few idle ones);
//! a request on a reused connection that fails before any response byte is retried once on a fresh
//! connection (the server may have closed it while idle).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const MAX_HEAD: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcLimits {
    /// Connect, send and receive one exchange.
    pub timeout: Duration,
    /// Largest response body.
    pub max_response: usize,
    /// Idle keep-alive connections kept.
    pub max_idle: usize,
}

impl Default for RpcLimits {
    fn default() -> Self {
        RpcLimits {
            timeout: Duration::from_secs(10),
            max_response: 64 * 1024 * 1024,
            max_idle: 4,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum RpcError {
    /// Connecting, sending or receiving failed (or timed out).
    Transport(String),
    /// A non-2xx HTTP status.
    Http(u16, String),
    /// The JSON-RPC `error` object.
    Rpc { code: i64, message: String },
    /// The answer is not what JSON-RPC promises.
    Decode(String),
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RpcError::Transport(m) => write!(f, "{m}"),
            RpcError::Http(s, m) => write!(f, "HTTP {s}: {m}"),
            RpcError::Rpc { code, message } => write!(f, "JSON-RPC error {code}: {message}"),
            RpcError::Decode(m) => write!(f, "bad JSON-RPC answer: {m}"),
        }
    }
}

/// Where an `http://` loopback URL points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpTarget {
    pub addr: SocketAddr,
    /// The `Host` header (`127.0.0.1:8545`).
    pub host: String,
    /// Path and query (`/` at least).
    pub path: String,
}

/// Parses `http://HOST[:PORT][/path]` where HOST is `localhost`, an IPv4 loopback address or `[::1]`.
pub fn parse_loopback_url(url: &str) -> Result<HttpTarget, String> {
    if url.len() > 2048 {
        return Err("URL longer than 2048 characters".into());
    }
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("only http:// URLs are supported here, got {url:?}"))?;
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let path = path.split('#').next().unwrap_or("/");
    let path = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("/{path}")
    };
    if authority.contains('@') {
        return Err(format!("credentials in URLs are not supported: {url:?}"));
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6
            .split_once(']')
            .ok_or_else(|| format!("bad host in {url:?}"))?;
        let port = match after.strip_prefix(':') {
            Some(p) => p,
            None if after.is_empty() => "80",
            None => return Err(format!("bad host in {url:?}")),
        };
        (h, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, p),
            None => (authority, "80"),
        }
    };
    let port: u16 = port.parse().map_err(|_| format!("bad port in {url:?}"))?;
    let ip: IpAddr = if host.eq_ignore_ascii_case("localhost") {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        host.parse()
            .map_err(|_| format!("only loopback hosts are supported here, got {host:?}"))?
    };
    if !ip.is_loopback() {
        return Err(format!(
            "only loopback hosts are supported here, got {host:?}"
        ));
    }
    Ok(HttpTarget {
        addr: SocketAddr::new(ip, port),
        host: authority.to_string(),
        path,
    })
}

/// One response: status, whether the connection may be reused, body.
struct RawResponse {
    status: u16,
    keep_alive: bool,
    body: Vec<u8>,
}

fn find_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n")
}

/// Reads one HTTP/1.1 response from `s`. `Err((msg, got_bytes))`: whether any byte arrived.
async fn read_response(s: &mut TcpStream, max_body: usize) -> Result<RawResponse, (String, bool)> {
    let mut buf: Vec<u8> = Vec::with_capacity(8192);
    let mut chunk = vec![0u8; 64 * 1024];
    let head_end = loop {
        if let Some(i) = find_head_end(&buf) {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(("response head larger than 16 KiB".into(), true));
        }
        let n = s
            .read(&mut chunk)
            .await
            .map_err(|e| (format!("read: {e}"), !buf.is_empty()))?;
        if n == 0 {
            return Err((
                "connection closed before a response".into(),
                !buf.is_empty(),
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head =
        std::str::from_utf8(&buf[..head_end]).map_err(|_| ("non-UTF-8 head".to_string(), true))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| (format!("bad status line {status_line:?}"), true))?;
    let mut content_length: Option<usize> = None;
    let mut chunked = false;
    let mut keep_alive = version == "HTTP/1.1";
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        if k.eq_ignore_ascii_case("content-length") {
            content_length = Some(
                v.parse()
                    .map_err(|_| ("bad content-length".to_string(), true))?,
            );
        } else if k.eq_ignore_ascii_case("transfer-encoding") {
            chunked = v.to_ascii_lowercase().contains("chunked");
        } else if k.eq_ignore_ascii_case("connection") {
            let v = v.to_ascii_lowercase();
            if v.contains("close") {
                keep_alive = false;
            } else if v.contains("keep-alive") {
                keep_alive = true;
            }
        }
    }
    let mut rest = buf.split_off(head_end + 4);
    let too_large = || (format!("response larger than {max_body} bytes"), true);
    let body = if chunked {
        let mut out = Vec::new();
        loop {
            // rest holds undecoded bytes: "size\r\n data \r\n ..."
            let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") else {
                if rest.len() > 1024 {
                    return Err(("bad chunk size line".into(), true));
                }
                let n = s
                    .read(&mut chunk)
                    .await
                    .map_err(|e| (format!("read: {e}"), true))?;
                if n == 0 {
                    return Err(("connection closed inside a chunked body".into(), true));
                }
                rest.extend_from_slice(&chunk[..n]);
                continue;
            };
            let size_str = std::str::from_utf8(&rest[..line_end]).unwrap_or("x");
            let size = usize::from_str_radix(size_str.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| ("bad chunk size".to_string(), true))?;
            if out.len() + size > max_body {
                return Err(too_large());
            }
            if size == 0 {
                // The final CRLF (no trailers expected from the servers we talk to).
                break;
            }
            while rest.len() < line_end + 2 + size + 2 {
                let n = s
                    .read(&mut chunk)
                    .await
                    .map_err(|e| (format!("read: {e}"), true))?;
                if n == 0 {
                    return Err(("connection closed inside a chunk".into(), true));
                }
                rest.extend_from_slice(&chunk[..n]);
            }
            out.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            rest.drain(..line_end + 2 + size + 2);
        }
        out
    } else if let Some(len) = content_length {
        if len > max_body {
            return Err(too_large());
        }
        rest.reserve(len.saturating_sub(rest.len()));
        while rest.len() < len {
            let n = s
                .read(&mut chunk)
                .await
                .map_err(|e| (format!("read: {e}"), true))?;
            if n == 0 {
                return Err(("connection closed inside the body".into(), true));
            }
            rest.extend_from_slice(&chunk[..n]);
        }
        rest.truncate(len);
        rest
    } else {
        // Until the server closes.
        keep_alive = false;
        loop {
            let n = s
                .read(&mut chunk)
                .await
                .map_err(|e| (format!("read: {e}"), true))?;
            if n == 0 {
                break;
            }
            if rest.len() + n > max_body {
                return Err(too_large());
            }
            rest.extend_from_slice(&chunk[..n]);
        }
        rest
    };
    Ok(RawResponse {
        status,
        keep_alive,
        body,
    })
}

/// One GET to a loopback URL (NFT metadata, OpenID Connect discovery): status and body, within
/// `limits`.
pub async fn http_get(url: &str, limits: &RpcLimits) -> Result<(u16, Vec<u8>), String> {
    http_request("GET", url, &[], None, limits).await
}

/// One request to a loopback URL with these extra headers and an optional body (its content type
/// and bytes), `Connection: close`: status and body, within `limits`. The one small HTTP client of
/// the backend's own calls (the chains' JSON-RPC aside): NFT metadata, the OpenID Connect
/// provider's endpoints, the Farcaster auth relay.
pub async fn http_request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
    limits: &RpcLimits,
) -> Result<(u16, Vec<u8>), String> {
    let t = parse_loopback_url(url)?;
    let fut = async {
        let mut s = TcpStream::connect(t.addr)
            .await
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nConnection: close\r\n",
            t.path, t.host
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if let Some((ty, b)) = body {
            head.push_str(&format!("Content-Type: {ty}\r\nContent-Length: {}\r\n", b.len()));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        if let Some((_, b)) = body {
            s.write_all(b).await.map_err(|e| format!("write: {e}"))?;
        }
        let r = read_response(&mut s, limits.max_response)
            .await
            .map_err(|(m, _)| m)?;
        Ok((r.status, r.body))
    };
    tokio::time::timeout(limits.timeout, fut)
        .await
        .map_err(|_| format!("no answer from {url} within {:?}", limits.timeout))?
}

#[derive(Serialize)]
struct Request<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a Value,
}

#[derive(Deserialize)]
struct ErrorObject {
    code: i64,
    #[serde(default)]
    message: String,
}

#[derive(Deserialize)]
#[serde(bound = "T: DeserializeOwned")]
struct Response<T> {
    id: Option<u64>,
    /// `Some` whenever the member is present, also for `null` (then `T` must accept null, as
    /// `serde_json::Value` does; a `String` result that is `null` fails to decode).
    #[serde(default, deserialize_with = "present")]
    result: Option<T>,
    error: Option<ErrorObject>,
}

fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

fn into_result<T>(r: Response<T>, method: &str) -> Result<T, RpcError> {
    match (r.result, r.error) {
        (_, Some(e)) => Err(RpcError::Rpc {
            code: e.code,
            message: e.message,
        }),
        (Some(v), None) => Ok(v),
        (None, None) => Err(RpcError::Decode(format!(
            "{method}: neither result nor error"
        ))),
    }
}

/// A JSON-RPC client for one endpoint.
#[derive(Debug)]
pub struct RpcClient {
    pub target: HttpTarget,
    pub url: String,
    limits: RpcLimits,
    idle: Mutex<Vec<TcpStream>>,
    next_id: AtomicU64,
}

impl RpcClient {
    pub fn new(url: &str, limits: RpcLimits) -> Result<RpcClient, String> {
        Ok(RpcClient {
            target: parse_loopback_url(url)?,
            url: url.to_string(),
            limits,
            idle: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        })
    }

    fn take_idle(&self) -> Option<TcpStream> {
        self.idle.lock().unwrap().pop()
    }

    fn put_idle(&self, s: TcpStream) {
        let mut idle = self.idle.lock().unwrap();
        if idle.len() < self.limits.max_idle {
            idle.push(s);
        }
    }

    async fn exchange(
        &self,
        s: &mut TcpStream,
        body: &[u8],
    ) -> Result<RawResponse, (String, bool)> {
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\n\r\n",
            self.target.path,
            self.target.host,
            body.len()
        );
        s.write_all(head.as_bytes())
            .await
            .map_err(|e| (format!("write: {e}"), false))?;
        s.write_all(body)
            .await
            .map_err(|e| (format!("write: {e}"), false))?;
        read_response(s, self.limits.max_response).await
    }

    /// POSTs `body` and returns the response body of a 2xx answer.
    async fn post(&self, body: &[u8]) -> Result<Vec<u8>, RpcError> {
        let fut = async {
            let mut attempt_reused = self.take_idle();
            loop {
                let reused = attempt_reused.is_some();
                let mut s = match attempt_reused.take() {
                    Some(s) => s,
                    None => {
                        let s = TcpStream::connect(self.target.addr).await.map_err(|e| {
                            RpcError::Transport(format!("cannot connect to {}: {e}", self.url))
                        })?;
                        let _ = s.set_nodelay(true);
                        s
                    }
                };
                match self.exchange(&mut s, body).await {
                    Ok(r) => {
                        if r.keep_alive {
                            self.put_idle(s);
                        }
                        if !(200..300).contains(&r.status) {
                            let text = String::from_utf8_lossy(&r.body[..r.body.len().min(200)])
                                .into_owned();
                            return Err(RpcError::Http(r.status, text));
                        }
                        return Ok(r.body);
                    }
                    // A stale keep-alive connection: try once more on a new one.
                    Err((_, false)) if reused => continue,
                    Err((m, _)) => return Err(RpcError::Transport(format!("{}: {m}", self.url))),
                }
            }
        };
        tokio::time::timeout(self.limits.timeout, fut)
            .await
            .map_err(|_| {
                RpcError::Transport(format!(
                    "{}: no answer within {:?}",
                    self.url, self.limits.timeout
                ))
            })?
    }

    /// One call; the result deserialized as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        params: Value,
    ) -> Result<T, RpcError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = serde_json::to_vec(&Request {
            jsonrpc: "2.0",
            id,
            method,
            params: &params,
        })
        .map_err(|e| RpcError::Decode(e.to_string()))?;
        let bytes = self.post(&body).await?;
        let r: Response<T> = serde_json::from_slice(&bytes)
            .map_err(|e| RpcError::Decode(format!("{method}: {e}")))?;
        into_result(r, method)
    }

    /// Many calls of one method in one HTTP request (a JSON-RPC batch), answers in the order asked.
    /// The outer `Err` is a failure of the whole exchange; each inner one of that call.
    pub async fn batch<T: DeserializeOwned>(
        &self,
        method: &str,
        params: &[Value],
    ) -> Result<Vec<Result<T, RpcError>>, RpcError> {
        if params.is_empty() {
            return Ok(Vec::new());
        }
        let first = self
            .next_id
            .fetch_add(params.len() as u64, Ordering::Relaxed);
        let reqs: Vec<Request> = params
            .iter()
            .enumerate()
            .map(|(i, p)| Request {
                jsonrpc: "2.0",
                id: first + i as u64,
                method,
                params: p,
            })
            .collect();
        let body = serde_json::to_vec(&reqs).map_err(|e| RpcError::Decode(e.to_string()))?;
        let bytes = self.post(&body).await?;
        let answers: Vec<Response<T>> = match serde_json::from_slice(&bytes) {
            Ok(a) => a,
            Err(e) => {
                // A single error object instead of an array (some nodes answer a bad batch so).
                if let Ok(r) = serde_json::from_slice::<Response<Value>>(&bytes) {
                    if let Some(err) = r.error {
                        return Err(RpcError::Rpc {
                            code: err.code,
                            message: err.message,
                        });
                    }
                }
                return Err(RpcError::Decode(format!("{method} batch: {e}")));
            }
        };
        let mut out: Vec<Option<Result<T, RpcError>>> = (0..params.len()).map(|_| None).collect();
        for a in answers {
            let Some(i) =
                a.id.and_then(|id| id.checked_sub(first))
                    .map(|i| i as usize)
            else {
                continue;
            };
            if i < out.len() && out[i].is_none() {
                out[i] = Some(into_result(a, method));
            }
        }
        Ok(out
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|| {
                    Err(RpcError::Decode(format!(
                        "{method}: no answer in the batch"
                    )))
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_urls_only() {
        let t = parse_loopback_url("http://127.0.0.1:8545").unwrap();
        assert_eq!(t.addr, "127.0.0.1:8545".parse().unwrap());
        assert_eq!(t.path, "/");
        assert_eq!(t.host, "127.0.0.1:8545");
        let t = parse_loopback_url("http://localhost:4173/demo-nft/1?x=1#f").unwrap();
        assert_eq!(t.path, "/demo-nft/1?x=1");
        assert_eq!(t.addr.port(), 4173);
        let t = parse_loopback_url("http://[::1]:9/rpc").unwrap();
        assert_eq!(t.addr, "[::1]:9".parse().unwrap());
        assert_eq!(
            parse_loopback_url("http://127.0.0.1").unwrap().addr.port(),
            80
        );
        for bad in [
            "https://127.0.0.1:8545",
            "http://example.com:8545",
            "http://10.0.0.1:8545",
            "http://user@127.0.0.1:1",
            "http://127.0.0.1:99999",
            "ftp://127.0.0.1",
        ] {
            assert!(parse_loopback_url(bad).is_err(), "{bad}");
        }
    }

    async fn serve_once(answer: &'static [u8]) -> SocketAddr {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut s, _) = l.accept().await.unwrap();
            let mut buf = vec![0u8; 4096];
            let _ = s.read(&mut buf).await;
            s.write_all(answer).await.unwrap();
        });
        addr
    }

    #[tokio::test]
    async fn chunked_answers_and_size_bounds() {
        let addr = serve_once(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
              11\r\n{\"jsonrpc\":\"2.0\",\r\n12\r\n\"id\":1,\"result\":7}\r\n0\r\n\r\n",
        )
        .await;
        let c = RpcClient::new(&format!("http://{addr}"), RpcLimits::default()).unwrap();
        let v: u64 = c.call("x", Value::Null).await.unwrap();
        assert_eq!(v, 7);

        // `result: null` is an answer for a `Value`, a decoding error for a number.
        let null = b"HTTP/1.1 200 OK\r\nContent-Length: 38\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}";
        let addr = serve_once(null).await;
        let c = RpcClient::new(&format!("http://{addr}"), RpcLimits::default()).unwrap();
        assert_eq!(c.call::<Value>("x", Value::Null).await, Ok(Value::Null));
        let addr = serve_once(null).await;
        let c = RpcClient::new(&format!("http://{addr}"), RpcLimits::default()).unwrap();
        assert!(matches!(
            c.call::<u64>("x", Value::Null).await,
            Err(RpcError::Decode(_))
        ));

        let addr = serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n").await;
        let limits = RpcLimits {
            max_response: 1000,
            ..RpcLimits::default()
        };
        let c = RpcClient::new(&format!("http://{addr}"), limits).unwrap();
        let e = c.call::<Value>("x", Value::Null).await.unwrap_err();
        assert!(e.to_string().contains("larger than 1000 bytes"), "{e}");

        let addr = serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"nope\"}}").await;
        let c = RpcClient::new(&format!("http://{addr}"), RpcLimits::default()).unwrap();
        // Content-Length shorter than the JSON: the body is cut, so it does not parse.
        assert!(matches!(
            c.call::<Value>("x", Value::Null).await,
            Err(RpcError::Decode(_))
        ));
    }

    #[tokio::test]
    async fn silence_times_out() {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        let _keep = tokio::spawn(async move {
            let (_s, _) = l.accept().await.unwrap();
            tokio::time::sleep(Duration::from_secs(5)).await;
        });
        let limits = RpcLimits {
            timeout: Duration::from_millis(200),
            ..RpcLimits::default()
        };
        let c = RpcClient::new(&format!("http://{addr}"), limits).unwrap();
        let t = std::time::Instant::now();
        let e = c.call::<Value>("x", Value::Null).await.unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(e.to_string().contains("no answer within"), "{e}");
    }

    /// Serves one raw answer to one request on a loopback port; the URL to ask.
    async fn answering(raw: &'static [u8]) -> String {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/x", l.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut s, _) = l.accept().await.unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf).await;
            let _ = s.write_all(raw).await;
        });
        url
    }

    #[tokio::test]
    async fn http_requests_read_answers_with_a_length_chunks_or_up_to_the_close() {
        let limits = RpcLimits { timeout: std::time::Duration::from_secs(5), max_response: 64 * 1024, max_idle: 0 };
        let limits = &limits;
        let ask = |url: String| async move { http_request("POST", &url, &[("Authorization", "Bearer t")], Some(("application/json", b"{}")), limits).await };
        let r = ask(answering(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}").await).await.unwrap();
        assert_eq!(r, (200, b"{}".to_vec()));
        let r = ask(answering(b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").await).await.unwrap();
        assert_eq!(r, (400, b"abcde".to_vec()));
        let r = ask(answering(b"HTTP/1.1 201 Created\r\ncontent-length: 13\r\n\r\n{\"nonce\":\"x\"}").await).await.unwrap();
        assert_eq!(r, (201, br#"{"nonce":"x"}"#.to_vec()));
        let r = ask(answering(b"HTTP/1.0 200 OK\r\n\r\nrest").await).await.unwrap();
        assert_eq!(r, (200, b"rest".to_vec()));
        let r = ask(answering(b"HTTP/1.1 401 Unauthorized\r\n\r\nnot json").await).await.unwrap();
        assert_eq!(r, (401, b"not json".to_vec()));
        assert!(ask(answering(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort").await).await.is_err());
        assert!(ask(answering(b"garbage").await).await.is_err());
    }

}
