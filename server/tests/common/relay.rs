//! A WalletConnect relay client over a real WebSocket (its JWT auth signed with an ed25519 dev key)
//! for the relay tests and the relay bench.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};
use wm_server::relay::auth::encode_did_key;

pub const HEADER: &str = r#"{"alg":"EdDSA","typ":"JWT"}"#;
pub const WAIT: Duration = Duration::from_secs(5);
pub const QUIET: Duration = Duration::from_millis(300);

pub fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

pub fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

pub fn did(seed: u8) -> String {
    encode_did_key(&key(seed).verifying_key().to_bytes())
}

/// A JWT signed by `signer` with the given header and payload.
pub fn sign_jwt(signer: &SigningKey, header: &str, payload: &Value) -> String {
    let h = URL_SAFE_NO_PAD.encode(header);
    let p = URL_SAFE_NO_PAD.encode(payload.to_string());
    let sig = signer.sign(format!("{h}.{p}").as_bytes());
    format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
}

/// The relay URL a client connecting to `addr` uses as `aud` (like the official clients: the
/// `relayUrl` they were given).
pub fn aud(addr: SocketAddr) -> String {
    format!("ws://{addr}/relay")
}

pub fn claims(addr: SocketAddr, seed: u8, iat: i64, exp: i64) -> Value {
    json!({
        "iss": did(seed),
        "sub": "5f2d8c0e9b1a4f6e8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a39281706",
        "aud": aud(addr),
        "iat": iat,
        "exp": exp,
    })
}

/// A valid token of client `seed` for the relay at `addr` (issued now, valid for a day, like the
/// official clients').
pub fn jwt(addr: SocketAddr, seed: u8) -> String {
    let now = now_s();
    sign_jwt(&key(seed), HEADER, &claims(addr, seed, now, now + 86400))
}

pub fn topic(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

pub fn relay_url(addr: SocketAddr, token: &str) -> String {
    format!("ws://{addr}/relay?auth={token}&projectId=demo-project&ua=wc-2%2Fjs-2.25.0%2Fnode")
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub struct Client {
    pub ws: Ws,
    pub pushes: VecDeque<Value>,
    pub responses: VecDeque<Value>,
    pub next_id: u64,
    pub closed: Option<(u16, String)>,
}

impl Client {
    pub async fn connect_url(url: &str) -> Client {
        let (ws, _) = connect_async(url).await.expect("websocket connects");
        Client {
            ws,
            pushes: VecDeque::new(),
            responses: VecDeque::new(),
            next_id: 1_687_239_522_123_456_000,
            closed: None,
        }
    }

    /// Connects as client `seed` with a valid token.
    pub async fn connect(addr: SocketAddr, seed: u8) -> Client {
        Client::connect_url(&relay_url(addr, &jwt(addr, seed))).await
    }

    /// [`Client::connect`] from the loopback address `from` (another peer to the relay).
    pub async fn connect_from(addr: SocketAddr, seed: u8, from: std::net::IpAddr) -> Client {
        let tcp = super::connect_from(from, addr).await;
        let url = relay_url(addr, &jwt(addr, seed));
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
            .await
            .expect("websocket connects");
        Client {
            ws,
            pushes: VecDeque::new(),
            responses: VecDeque::new(),
            next_id: 1_687_239_522_123_456_000,
            closed: None,
        }
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    /// Reads one frame into the buffers; false on timeout or end of stream.
    pub async fn read_one(&mut self, wait: Duration) -> bool {
        if self.closed.is_some() {
            return false;
        }
        let frame = match tokio::time::timeout(wait, self.ws.next()).await {
            Err(_) => return false,
            Ok(None) => {
                self.closed = Some((1006, "stream ended".into()));
                return false;
            }
            Ok(Some(Err(e))) => {
                self.closed = Some((1006, format!("error: {e}")));
                return false;
            }
            Ok(Some(Ok(f))) => f,
        };
        match frame {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("relay sends JSON");
                if v.get("method").is_some() {
                    self.pushes.push_back(v);
                } else {
                    self.responses.push_back(v);
                }
            }
            Message::Close(c) => {
                self.closed = Some(
                    c.map(|c| (u16::from(c.code), c.reason.as_str().to_string()))
                        .unwrap_or((1005, String::new())),
                );
            }
            _ => {}
        }
        true
    }

    /// The response with this id (pushes that arrive meanwhile are kept).
    pub async fn response(&mut self, id: &Value) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(i) = self.responses.iter().position(|r| &r["id"] == id) {
                return self.responses.remove(i).unwrap();
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() || (!self.read_one(left).await && self.closed.is_some()) {
                panic!("no response to id {id}; closed: {:?}", self.closed);
            }
        }
    }

    /// Sends a request with a fresh numeric id and returns the whole response object.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params}))
            .await;
        self.response(&id).await
    }

    /// `call` that must succeed; returns `result`.
    pub async fn ok(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params).await;
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// `call` that must fail; returns `error`.
    pub async fn err(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params).await;
        assert!(r.get("result").is_none(), "{method} should fail: {r}");
        r["error"].clone()
    }

    pub async fn subscribe(&mut self, topic: &str) -> String {
        self.ok("irn_subscribe", json!({ "topic": topic }))
            .await
            .as_str()
            .expect("subscription id")
            .to_string()
    }

    pub async fn publish(&mut self, topic: &str, message: &str, ttl: u64, tag: u64) {
        let r = self
            .ok(
                "irn_publish",
                json!({"topic": topic, "message": message, "ttl": ttl, "tag": tag, "prompt": false}),
            )
            .await;
        assert_eq!(r, json!(true));
    }

    /// The next `irn_subscription` push within `wait` (not acknowledged).
    pub async fn push_within(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(p) = self.pushes.pop_front() {
                return Some(p);
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() || !self.read_one(left).await && self.closed.is_some() {
                return None;
            }
        }
    }

    pub async fn push(&mut self) -> Value {
        self.push_within(WAIT).await.expect("a push arrives")
    }

    /// Next push, acknowledged like the official clients do.
    pub async fn push_acked(&mut self) -> Value {
        let p = self.push().await;
        self.send(json!({"id": p["id"], "jsonrpc": "2.0", "result": true}))
            .await;
        p
    }

    pub async fn no_push(&mut self) {
        if let Some(p) = self.push_within(QUIET).await {
            panic!("unexpected push: {p}");
        }
    }

    /// Reads until the server closes; returns (code, reason).
    pub async fn closed_with(&mut self) -> (u16, String) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while self.closed.is_none() {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                panic!("connection not closed");
            }
            self.read_one(left).await;
        }
        self.closed.clone().unwrap()
    }
}


/// Topic `n` (64 hex characters) of a bench with more topics than `topic`'s 256.
pub fn topic_n(n: usize) -> String {
    format!("{n:064x}")
}
