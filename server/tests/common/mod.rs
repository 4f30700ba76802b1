//! A tiny HTTP/1.1 client over tokio's TcpStream (one request per connection) and a server fixture.
#![allow(dead_code)]

pub mod chain;
pub mod frame;
pub mod mail;
pub mod process;
pub mod relay;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The `--test-token` of the servers these helpers start: the test hooks (`/e/recorded`) answer
/// `Authorization: Bearer` it.
pub const TEST_TOKEN: &str = "test-token-0123456789abcdef0123456789abcdef";

/// Another client than the tests' usual 127.0.0.1: Linux routes all of 127/8 to the loopback
/// interface, so a socket bound to 127.0.0.2 reaches the servers from another peer address.
pub const OTHER_CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn decode_chunked(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = b
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size line");
        let size_str = std::str::from_utf8(&b[..line_end]).unwrap();
        let size = usize::from_str_radix(size_str.split(';').next().unwrap().trim(), 16).unwrap();
        b = &b[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// Sends one request and reads the whole response (the connection is closed by `Connection: close`).
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let s = TcpStream::connect(addr).await.expect("connect");
    exchange(s, addr, method, path, headers, body).await
}

/// A TCP connection to `addr` from the loopback address `from` (another client, to the server).
pub async fn connect_from(from: IpAddr, addr: SocketAddr) -> TcpStream {
    let sock = TcpSocket::new_v4().expect("socket");
    sock.bind(SocketAddr::new(from, 0))
        .expect("bind the client address");
    let stream = sock.connect(addr).await.expect("connect");
    // As browsers do for a WebSocket: small frames go at once.
    let _ = stream.set_nodelay(true);
    stream
}

/// [`request`] from the loopback address `from`.
pub async fn request_from(
    from: IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let s = connect_from(from, addr).await;
    exchange(s, addr, method, path, headers, body).await
}

async fn exchange(
    mut s: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (e.g. 413) and close before reading a large body; ignore write errors.
    let _ = s.write_all(body).await;
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    parse(&raw)
}

pub fn parse(raw: &[u8]) -> Resp {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("header end");
    let head = std::str::from_utf8(&raw[..split]).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        decode_chunked(rest)
    } else {
        rest.to_vec()
    };
    Resp {
        status,
        headers,
        body,
    }
}

pub async fn get(addr: SocketAddr, path: &str) -> Resp {
    request(addr, "GET", path, &[], b"").await
}

/// `METHOD /e/recorded…` with the test token.
pub async fn test_hook(addr: SocketAddr, method: &str, path: &str) -> Resp {
    let auth = format!("Bearer {TEST_TOKEN}");
    request(addr, method, path, &[("Authorization", auth.as_str())], b"").await
}

/// The recorded analytics events (`GET /e/recorded{query}` with the test token).
pub async fn recorded(addr: SocketAddr, query: &str) -> Resp {
    test_hook(addr, "GET", &format!("/e/recorded{query}")).await
}

/// Repository root (server/..).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

pub async fn start_with_root(root: PathBuf) -> wm_server::Server {
    let options = wm_server::Options {
        root,
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546")
            .unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: Some(TEST_TOKEN.to_string()),
    };
    wm_server::start(options, 0, std::future::pending())
        .await
        .expect("server starts")
}

pub async fn start() -> wm_server::Server {
    start_with_root(repo_root()).await
}

/// The demo backend as one of several instances: its relay joined to the others through the Redis
/// at `redis` (`--redis`).
pub async fn start_instance(redis: &str) -> wm_server::Server {
    let options = wm_server::Options {
        root: repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546").unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: Some(TEST_TOKEN.to_string()),
    };
    let config = wm_server::ServerConfig { redis: Some(wm_server::relay::resp::RedisUrl::parse(redis).unwrap()), ..Default::default() };
    let server = wm_server::start_with(options, config, 0, std::future::pending()).await.expect("server starts");
    // Joined once both links to Redis are up.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while server.state.relay.stats().redis_up != Some(true) {
        assert!(std::time::Instant::now() < deadline, "the relay did not reach Redis at {redis}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    server
}
