//! A small HTTP/1.1 client over tokio's `TcpStream`, for JSON-RPC to the chains and the server's
//! other configured upstreams (the OpenID Connect issuer, the Farcaster relay, Bitcoin's node):
//! `http://` or `https://` (rustls; the Mozilla roots built in, plus those of `--ca-file`,
//! [`crate::tls::trust_pem`]) to any host ([`parse_upstream_url`]). URLs that come from outside (NFT metadata
//! named by a contract) are read only on loopback ([`parse_loopback_url`]).
//!
//! Bounded everywhere: the response head (16 KiB), the body ([`RpcLimits::max_response`]), the time
//! of a whole exchange ([`RpcLimits::timeout`]). Keep-alive connections are pooled (a few idle ones);
//! a request on a reused connection that fails before any response byte is retried once on a fresh
//! connection (the server may have closed it while idle).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
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

/// Where a URL points.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpTarget {
    /// `host:port` to connect to (a name is resolved at each connection).
    pub server: String,
    /// The `Host` header (`127.0.0.1:8545`).
    pub host: String,
    /// Path and query (`/` at least).
    pub path: String,
    /// `https://`: the name the server's certificate must carry.
    pub tls: Option<String>,
}

impl std::fmt::Debug for HttpTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (Never the path: an API key may be in it.)
        f.debug_struct("HttpTarget").field("server", &self.server).field("tls", &self.tls).finish_non_exhaustive()
    }
}

impl HttpTarget {
    /// The port connected to.
    pub fn port(&self) -> u16 {
        self.server.rsplit_once(':').and_then(|(_, p)| p.parse().ok()).unwrap_or(0)
    }
}

/// Parses `http://HOST[:PORT][/path]` where HOST is `localhost`, an IPv4 loopback address or
/// `[::1]`: the URLs that come from outside (NFT metadata), which this server reads on loopback only.
pub fn parse_loopback_url(url: &str) -> Result<HttpTarget, String> {
    if url.starts_with("https://") {
        return Err(format!("only http:// URLs are supported here, got {}", shown_url(url)));
    }
    let t = parse_url(url)?;
    let host = t.server.rsplit_once(':').map_or("", |(h, _)| h);
    let ip: Option<IpAddr> = if host.eq_ignore_ascii_case("localhost") {
        Some(IpAddr::V4(Ipv4Addr::LOCALHOST))
    } else {
        host.trim_start_matches('[').trim_end_matches(']').parse().ok()
    };
    if !ip.is_some_and(|ip| ip.is_loopback()) {
        return Err(format!("only loopback hosts are supported here, got {host:?}"));
    }
    Ok(t)
}

/// Parses an upstream's URL from the configuration: `http://` or `https://`, any host (a name,
/// an IPv4 address or `[IPv6]`) and port, a path; no credentials.
pub fn parse_upstream_url(url: &str) -> Result<HttpTarget, String> {
    parse_url(url)
}

fn parse_url(url: &str) -> Result<HttpTarget, String> {
    if url.len() > 2048 {
        return Err("URL longer than 2048 characters".into());
    }
    let (rest, tls, default_port) = if let Some(r) = url.strip_prefix("http://") {
        (r, false, "80")
    } else if let Some(r) = url.strip_prefix("https://") {
        (r, true, "443")
    } else {
        return Err(format!("only http:// and https:// URLs are supported, got {}", shown_url(url)));
    };
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let path = path.split('#').next().unwrap_or("/");
    let path = if path.starts_with('/') { path.to_string() } else { format!("/{path}") };
    if path.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(format!("bad path in {}", shown_url(url)));
    }
    if authority.contains('@') {
        return Err(format!("credentials in URLs are not supported: {}", shown_url(url)));
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6.split_once(']').ok_or_else(|| format!("bad host in {}", shown_url(url)))?;
        h.parse::<std::net::Ipv6Addr>().map_err(|_| format!("bad host in {}", shown_url(url)))?;
        let port = match after.strip_prefix(':') {
            Some(p) => p,
            None if after.is_empty() => default_port,
            None => return Err(format!("bad host in {}", shown_url(url))),
        };
        (format!("[{h}]"), port)
    } else {
        let (h, p) = authority.rsplit_once(':').unwrap_or((authority, default_port));
        let name_ok = !h.is_empty()
            && h.len() <= 253
            && h.split('.').all(|l| !l.is_empty() && l.len() <= 63 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
        if !name_ok {
            return Err(format!("bad host in {}", shown_url(url)));
        }
        (h.to_ascii_lowercase(), p)
    };
    let port: u16 = port.parse().ok().filter(|p| *p > 0).ok_or_else(|| format!("bad port in {}", shown_url(url)))?;
    let tls = tls.then(|| host.trim_start_matches('[').trim_end_matches(']').to_string());
    Ok(HttpTarget { server: format!("{host}:{port}"), host: authority.to_string(), path, tls })
}

/// A URL as messages show it: its scheme, host and port, the rest (a path or query that may hold
/// an API key) as `/…`; credentials dropped.
pub fn shown_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if rest[end..].contains('@') {
        // Credentials with a `/` or `?` in them: nothing after the scheme is shown.
        return format!("{scheme}://…");
    }
    let authority = &rest[..end];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let authority: String = authority.chars().take(100).collect();
    let more = if end < rest.len() && &rest[end..] != "/" { "/…" } else { "" };
    if scheme.is_empty() { format!("{authority}{more}") } else { format!("{scheme}://{authority}{more}") }
}

pub(crate) type Conn = crate::tls::Stream;

/// Connects to `t` (and, for `https://`, makes the TLS session, the certificate checked for its name).
pub(crate) async fn connect(t: &HttpTarget) -> Result<Conn, String> {
    let tcp = TcpStream::connect(&t.server).await.map_err(|e| format!("cannot connect to {}: {e}", t.server))?;
    let _ = tcp.set_nodelay(true);
    crate::tls::over(tcp, t.tls.as_deref()).await.map_err(|e| format!("{}: {e}", t.server))
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
async fn read_response(s: &mut (impl AsyncRead + Unpin + ?Sized), max_body: usize) -> Result<RawResponse, (String, bool)> {
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

/// One GET to an upstream URL (OpenID Connect discovery, its keys): status and body, within
/// `limits`.
pub async fn http_get(url: &str, limits: &RpcLimits) -> Result<(u16, Vec<u8>), String> {
    http_request("GET", url, &[], None, limits).await
}

/// One GET to a URL that came from outside (NFT metadata named by a contract): loopback only.
pub async fn http_get_loopback(url: &str, limits: &RpcLimits) -> Result<(u16, Vec<u8>), String> {
    let t = parse_loopback_url(url)?;
    exchange_once("GET", url, &t, &[], None, limits).await
}

/// One request to an upstream URL with these extra headers and an optional body (its content type
/// and bytes), `Connection: close`: status and body, within `limits`. The one small HTTP client of
/// the backend's own calls (the chains' JSON-RPC aside): the OpenID Connect provider's endpoints,
/// the Farcaster auth relay, Bitcoin's node.
pub async fn http_request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
    limits: &RpcLimits,
) -> Result<(u16, Vec<u8>), String> {
    let t = parse_upstream_url(url)?;
    exchange_once(method, url, &t, headers, body, limits).await
}

async fn exchange_once(
    method: &str,
    url: &str,
    t: &HttpTarget,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
    limits: &RpcLimits,
) -> Result<(u16, Vec<u8>), String> {
    let fut = async {
        let mut s = connect(t).await?;
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
        .map_err(|_| format!("no answer from {} within {:?}", shown_url(url), limits.timeout))?
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
pub struct RpcClient {
    pub target: HttpTarget,
    /// The URL as messages show it ([`shown_url`]: no path, which may hold an API key).
    pub url: String,
    limits: RpcLimits,
    idle: Mutex<Vec<Conn>>,
    next_id: AtomicU64,
}

impl std::fmt::Debug for RpcClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RpcClient").field("target", &self.target).field("limits", &self.limits).finish()
    }
}

impl RpcClient {
    pub fn new(url: &str, limits: RpcLimits) -> Result<RpcClient, String> {
        Ok(RpcClient {
            target: parse_upstream_url(url)?,
            url: shown_url(url),
            limits,
            idle: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        })
    }

    fn take_idle(&self) -> Option<Conn> {
        self.idle.lock().unwrap().pop()
    }

    fn put_idle(&self, s: Conn) {
        let mut idle = self.idle.lock().unwrap();
        if idle.len() < self.limits.max_idle {
            idle.push(s);
        }
    }

    async fn exchange(
        &self,
        s: &mut Conn,
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
                    None => connect(&self.target)
                        .await
                        .map_err(|e| RpcError::Transport(format!("{}: {e}", self.url)))?,
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
    use std::net::SocketAddr;

    #[test]
    fn loopback_urls_only() {
        let t = parse_loopback_url("http://127.0.0.1:8545").unwrap();
        assert_eq!(t.server, "127.0.0.1:8545");
        assert_eq!(t.path, "/");
        assert_eq!(t.host, "127.0.0.1:8545");
        let t = parse_loopback_url("http://localhost:4173/demo-nft/1?x=1#f").unwrap();
        assert_eq!(t.path, "/demo-nft/1?x=1");
        assert_eq!(t.port(), 4173);
        let t = parse_loopback_url("http://[::1]:9/rpc").unwrap();
        assert_eq!(t.server, "[::1]:9");
        assert_eq!(parse_loopback_url("http://127.0.0.1").unwrap().port(), 80);
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

    #[test]
    fn upstream_urls_are_http_or_https_to_any_host_without_credentials() {
        let t = parse_upstream_url("https://Mainnet.Example.com/v3/KEY?x=1").unwrap();
        assert_eq!((t.server.as_str(), t.path.as_str(), t.tls.as_deref()), ("mainnet.example.com:443", "/v3/KEY?x=1", Some("mainnet.example.com")));
        assert_eq!(t.host, "Mainnet.Example.com");
        let t = parse_upstream_url("http://10.0.0.5:8545").unwrap();
        assert_eq!((t.server.as_str(), t.tls), ("10.0.0.5:8545", None));
        let t = parse_upstream_url("https://[2001:db8::1]:8443/rpc").unwrap();
        assert_eq!((t.server.as_str(), t.tls.as_deref()), ("[2001:db8::1]:8443", Some("2001:db8::1")));
        for bad in [
            "ftp://example.com",
            "https://user:pw@example.com",
            "https://exa mple.com",
            "https://example..com",
            "https://example.com:0",
            "https://example.com:70000",
            "https://[nope]:1",
            "https://example.com/a b",
            "https://",
        ] {
            assert!(parse_upstream_url(bad).is_err(), "{bad}");
        }
        assert!(parse_upstream_url(&format!("https://a.com/{}", "x".repeat(3000))).is_err());
    }

    #[test]
    fn shown_urls_keep_the_host_and_hide_paths_and_credentials() {
        assert_eq!(shown_url("https://mainnet.example.com/v3/SECRETKEY"), "https://mainnet.example.com/…");
        assert_eq!(shown_url("http://user:pw@127.0.0.1:8545"), "http://127.0.0.1:8545");
        assert_eq!(shown_url("http://127.0.0.1:8545/"), "http://127.0.0.1:8545");
        assert_eq!(shown_url("https://a.example?key=SECRET"), "https://a.example/…");
        assert_eq!(shown_url("https://u:p/SECRET@h.example/x"), "https://…");
        let t = parse_upstream_url("https://h.example/v3/SECRET").unwrap();
        assert!(!format!("{t:?}").contains("SECRET"));
        let e = parse_upstream_url("https://a.example/path with SECRET").unwrap_err();
        assert!(!e.contains("SECRET"), "{e}");
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
