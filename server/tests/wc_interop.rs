//! Native WalletConnect interop: our dapp-side core (`wm_core::connect::wc::sign::SignClient`, sans-IO)
//! talks over a real WebSocket to the demo relay (`GET /relay` of the backend, in-process on a free
//! loopback port) with the OFFICIAL wallet-side SDK, `@walletconnect/sign-client`, running as
//! `node demo/wallet-mobile/interop-wallet.mjs`, which answers requests through real anvil chains.
//!
//! Needs `node_modules` (sign-client and the anvil binary): `make test` installs them.

mod common;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};
use wm_core::chain::signature::recover_message_address;
use wm_core::connect::wc::auth::{relay_url, user_agent, ClientKey};
use wm_core::connect::wc::hex_encode;
use wm_core::connect::wc::namespaces::optional_namespaces_for;
use wm_core::connect::wc::sign::{
    Command as WcCommand, Event, Input, Metadata, Output, RequestOutcome, Session, SignClient,
    SignConfig,
};

/// Anvil's first dev account (unlocked on anvil) and its second one.
const ACCOUNT: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const RECIPIENT: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CHAIN_A: &str = "eip155:31337";
const CHAIN_B: &str = "eip155:31338";
/// Longest wait for any single step.
const WAIT: Duration = Duration::from_secs(30);

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

fn random_bytes(n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut buf))
        .expect("read /dev/urandom");
    buf
}

/// `node_modules/<rel>` of the repository, or a failure saying how to install it.
fn node_module(rel: &str) -> PathBuf {
    let path = common::repo_root().join("node_modules").join(rel);
    assert!(
        path.exists(),
        "{} is missing: run `npm ci` at the repository root (`make test` does it)",
        path.display()
    );
    path
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind a free port")
        .port()
}

/// A child process killed (and reaped) when dropped, also when the test panics.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The anvil binary of the platform package (`@foundry-rs/anvil-<os>-<arch>/bin/anvil`), not the
/// `.bin/anvil` node wrapper: killing the wrapper would leave the real anvil running.
fn anvil_binary() -> PathBuf {
    let packages = node_module("@foundry-rs");
    std::fs::read_dir(&packages)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("anvil-"))
        .map(|e| e.path().join("bin/anvil"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "no anvil binary under {}/anvil-*/bin: run `npm ci` (`make test` does it)",
                packages.display()
            )
        })
}

// ----- anvil --------------------------------------------------------------------------------------------

struct Anvil {
    _process: KillOnDrop,
    addr: SocketAddr,
    url: String,
}

impl Anvil {
    async fn start(chain_id: u64) -> Anvil {
        let bin = anvil_binary();
        let port = free_port();
        let process = Command::new(&bin)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--chain-id", &chain_id.to_string(), "--silent"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let anvil = Anvil {
            _process: KillOnDrop(process),
            addr,
            url: format!("http://{addr}"),
        };
        let started = Instant::now();
        while TcpStream::connect(addr).await.is_err() {
            assert!(
                started.elapsed() < WAIT,
                "anvil (chain {chain_id}) not listening on {addr} after {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let id = anvil.rpc("eth_chainId", json!([])).await;
        assert_eq!(id, json!(format!("{chain_id:#x}")), "anvil's chain id");
        anvil
    }

    /// A JSON-RPC call over HTTP; an RPC error fails the test.
    async fn rpc(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let res = common::request(
            self.addr,
            "POST",
            "/",
            &[("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await
        .json();
        assert!(res.get("error").is_none(), "anvil {method}: {res}");
        res["result"].clone()
    }

    /// The receipt of `hash` (anvil mines right after `eth_sendTransaction` answers, so poll).
    async fn receipt(&self, hash: &Value) -> Value {
        let started = Instant::now();
        loop {
            let receipt = self.rpc("eth_getTransactionReceipt", json!([hash])).await;
            if !receipt.is_null() {
                return receipt;
            }
            assert!(
                started.elapsed() < WAIT,
                "no receipt of {hash} on {} after {WAIT:?}",
                self.url
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

// ----- the official wallet (node child process) -----------------------------------------------------------

struct Wallet {
    process: KillOnDrop,
    stdin: ChildStdin,
    lines: mpsc::UnboundedReceiver<Value>,
    stderr: Arc<Mutex<String>>,
    seen: Vec<Value>,
}

impl Wallet {
    /// Starts `interop-wallet.mjs` against `relay` with an anvil RPC per chain, and waits for it.
    async fn start(relay: &str, rpcs: &[(&str, &Anvil)]) -> Wallet {
        node_module("@walletconnect/sign-client/package.json");
        let script = common::repo_root().join("demo/wallet-mobile/interop-wallet.mjs");
        let mut cmd = Command::new("node");
        cmd.arg(&script).args(["--relay", relay]);
        for (chain, anvil) in rpcs {
            cmd.args(["--rpc", &format!("{chain}={}", anvil.url)]);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start `node {}`: {e}", script.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v = serde_json::from_str(&line)
                    .unwrap_or_else(|_| json!({"event": "stdout", "line": line}));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                let mut s = sink.lock().unwrap();
                s.push_str(&line);
                s.push('\n');
            }
        });
        let mut wallet = Wallet {
            process: KillOnDrop(child),
            stdin,
            lines,
            stderr,
            seen: Vec::new(),
        };
        wallet.expect("ready").await;
        wallet
    }

    fn send(&mut self, command: Value) {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .unwrap_or_else(|e| panic!("wallet stdin closed ({e}){}", self.diagnostics()));
    }

    /// Waits for the next line with `"event": event`; an `error` line or a time-out fails.
    async fn expect(&mut self, event: &str) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let line = match tokio::time::timeout_at(deadline, self.lines.recv()).await {
                Ok(Some(line)) => line,
                Ok(None) => {
                    let status = self.process.0.wait().ok();
                    panic!(
                        "the wallet process exited ({status:?}) while waiting for {event}{}",
                        self.diagnostics()
                    )
                }
                Err(_) => panic!(
                    "the wallet did not report {event} within {WAIT:?}{}",
                    self.diagnostics()
                ),
            };
            self.seen.push(line.clone());
            match line["event"].as_str() {
                Some(e) if e == event => return line,
                Some("error") => panic!(
                    "the wallet failed while we waited for {event}: {}{}",
                    line["message"],
                    self.diagnostics()
                ),
                _ => {}
            }
        }
    }

    fn diagnostics(&self) -> String {
        let seen: Vec<String> = self.seen.iter().map(Value::to_string).collect();
        format!(
            "\n  wallet stdout so far: {}\n  wallet stderr: {}",
            seen.join("\n    "),
            self.stderr.lock().unwrap()
        )
    }
}

// ----- our dapp: SignClient + a real WebSocket ---------------------------------------------------------------

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct Dapp {
    client: SignClient,
    ws: Ws,
    events: VecDeque<Event>,
    deadline_ms: Option<u64>,
    seen: Vec<String>,
}

impl Dapp {
    /// Opens the relay socket with a fresh client key and tells the client it is connected.
    async fn connect(relay: &str) -> Dapp {
        let key = ClientKey::from_seed(random_bytes(32).try_into().unwrap());
        let jwt = key.sign_jwt(
            &hex_encode(&random_bytes(32)),
            relay,
            now_ms() / 1000,
            86_400,
        );
        let ua = user_agent("0.1.0", "linux", "interop-test");
        let url = relay_url(relay, &jwt, "demo-project", &ua);
        let (ws, _) = connect_async(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot open the relay socket {relay}: {e}"));
        let metadata = Metadata {
            name: "wallet-modal interop dapp".into(),
            description: "wm_core::connect::wc over a real relay".into(),
            url: "http://127.0.0.1".into(),
            icons: vec![],
            redirect: None,
        };
        let mut dapp = Dapp {
            client: SignClient::new(SignConfig::new(metadata)),
            ws,
            events: VecDeque::new(),
            deadline_ms: None,
            seen: Vec::new(),
        };
        dapp.feed(Input::Connected).await;
        dapp
    }

    /// Tops up the entropy pool, handles `input`, writes the frames, queues the events and returns
    /// the events of this step.
    async fn feed(&mut self, input: Input) -> Vec<Event> {
        let now = now_ms();
        let entropy = random_bytes(self.client.entropy_wanted());
        self.client.handle(now, Input::Entropy(entropy)).unwrap();
        let what = format!("{input:?}");
        let step = self
            .client
            .handle(now, input)
            .unwrap_or_else(|e| panic!("our client refused {what}: {e}"));
        self.deadline_ms = step.next_deadline_ms;
        let mut events = Vec::new();
        for output in step.outputs {
            match output {
                Output::Send(frame) => self
                    .ws
                    .send(Message::text(frame))
                    .await
                    .expect("write to the relay socket"),
                Output::Event(e) => {
                    self.seen.push(format!("{e:?}").chars().take(400).collect());
                    events.push(e.clone());
                    self.events.push_back(e);
                }
            }
        }
        events
    }

    async fn command(&mut self, command: WcCommand) -> Vec<Event> {
        self.feed(Input::Command(command)).await
    }

    /// Runs the client (frames in, ticks at its deadlines) until `pick` accepts a queued event.
    async fn wait_for<T>(&mut self, what: &str, mut pick: impl FnMut(&Event) -> Option<T>) -> T {
        let give_up = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(i) = self.events.iter().position(|e| pick(e).is_some()) {
                let e = self.events.remove(i).unwrap();
                return pick(&e).unwrap();
            }
            let tick_in = self
                .deadline_ms
                .map(|d| Duration::from_millis(d.saturating_sub(now_ms())))
                .unwrap_or(WAIT);
            let wake = give_up.min(tokio::time::Instant::now() + tick_in);
            tokio::select! {
                frame = self.ws.next() => match frame {
                    Some(Ok(Message::Text(text))) => {
                        self.feed(Input::Frame(text.as_str().to_string())).await;
                    }
                    Some(Ok(_)) => {} // pings are answered by tungstenite
                    other => panic!("the relay socket closed ({other:?}) while waiting for {what}{}", self.diagnostics()),
                },
                _ = tokio::time::sleep_until(wake) => {
                    if tokio::time::Instant::now() >= give_up {
                        panic!("timed out after {WAIT:?} waiting for {what}{}", self.diagnostics());
                    }
                    self.feed(Input::Tick).await;
                }
            }
        }
    }

    /// Sends a session request and waits for the wallet's answer.
    async fn request(&mut self, topic: &str, chain: &str, method: &str, params: Value) -> Value {
        let events = self
            .command(WcCommand::Request {
                topic: topic.into(),
                chain_id: chain.into(),
                method: method.into(),
                params,
                expiry_s: None,
                id: None,
            })
            .await;
        let sent = events.iter().find_map(|e| match e {
            Event::RequestSent { id, .. } => Some(*id),
            _ => None,
        });
        let id = sent.unwrap_or_else(|| panic!("{method} was not sent: {events:?}"));
        let outcome = self
            .wait_for(&format!("the answer to {method}"), |e| match e {
                Event::SessionRequestResult { id: i, outcome } if *i == id => Some(outcome.clone()),
                _ => None,
            })
            .await;
        match outcome {
            RequestOutcome::Result(v) => v,
            RequestOutcome::Error(e) => panic!("the wallet answered {method} with an error: {e:?}"),
        }
    }

    /// Proposes a session on both chains and returns the pairing URI.
    async fn propose(&mut self) -> String {
        let optional_namespaces = optional_namespaces_for(&[CHAIN_A, CHAIN_B]).unwrap();
        self.command(WcCommand::Connect {
            required_namespaces: Default::default(),
            optional_namespaces,
            session_properties: None,
        })
        .await;
        self.wait_for("a pairing URI", |e| match e {
            Event::PairingUri { uri } => Some(uri.clone()),
            _ => None,
        })
        .await
    }

    async fn settled(&mut self) -> Session {
        self.wait_for("the session settlement", |e| match e {
            Event::SessionSettled { session } => Some(session.clone()),
            Event::ConnectFailed { .. } | Event::SessionProposalRejected { .. } => {
                panic!("connecting failed: {e:?}")
            }
            _ => None,
        })
        .await
    }

    fn diagnostics(&self) -> String {
        format!("\n  our events so far:\n    {}", self.seen.join("\n    "))
    }
}

/// The demo backend (its `/relay`) on a free loopback port; returns it and the relay URL.
async fn relay() -> (wm_server::Server, String) {
    let server = common::start().await;
    let url = format!("ws://{}/relay", server.addr);
    (server, url)
}

/// Our proposal reaches the official wallet through the URI; it approves with the anvil account.
async fn pair(dapp: &mut Dapp, wallet: &mut Wallet) -> Session {
    let uri = dapp.propose().await;
    assert!(uri.starts_with("wc:"), "pairing URI {uri}");
    wallet.send(json!({ "pair": uri }));
    let proposal = wallet.expect("session_proposal").await;
    assert_eq!(proposal["proposer"]["name"], "wallet-modal interop dapp");
    assert_eq!(proposal["chains"], json!([CHAIN_A, CHAIN_B]));
    assert!(
        proposal["methods"]
            .as_array()
            .unwrap()
            .contains(&json!("personal_sign")),
        "{proposal}"
    );
    let session = dapp.settled().await;
    wallet.expect("approved").await;
    session
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn official_wallet_settles_signs_sends_switches_chain_and_deletes_the_session() {
    let (anvil_a, anvil_b) = tokio::join!(Anvil::start(31337), Anvil::start(31338));
    let (_server, relay) = relay().await;
    let mut wallet = Wallet::start(&relay, &[(CHAIN_A, &anvil_a), (CHAIN_B, &anvil_b)]).await;
    let mut dapp = Dapp::connect(&relay).await;

    // Settles with the anvil account on both chains.
    let session = pair(&mut dapp, &mut wallet).await;
    assert_eq!(
        session.accounts(),
        vec![
            format!("{CHAIN_A}:{ACCOUNT}"),
            format!("{CHAIN_B}:{ACCOUNT}")
        ]
    );
    assert_eq!(session.peer.metadata.name, "Interop Wallet");
    let topic = session.topic.clone();

    // personal_sign: anvil signs, our core recovers the signer.
    let message = "wallet-modal interop: sign me";
    let params = json!([format!("0x{}", hex_encode(message.as_bytes())), ACCOUNT]);
    let signature = dapp.request(&topic, CHAIN_A, "personal_sign", params).await;
    let signature = signature.as_str().expect("a signature string");
    let signer = recover_message_address(message, signature).expect("a well-formed signature");
    assert_eq!(signer, ACCOUNT, "personal_sign signer");

    // eth_sendTransaction on chain A: the receipt exists on anvil A.
    let tx = json!([{"from": ACCOUNT, "to": RECIPIENT, "value": "0x1"}]);
    let hash = dapp
        .request(&topic, CHAIN_A, "eth_sendTransaction", tx.clone())
        .await;
    let receipt = anvil_a.receipt(&hash).await;
    assert_eq!(
        receipt["status"], "0x1",
        "receipt of {hash} on anvil A: {receipt}"
    );

    // The wallet switches to chain B: we see chainChanged, and a transaction lands on anvil B.
    wallet.send(json!({"emit": {"topic": topic, "chainId": CHAIN_B, "name": "chainChanged", "data": 31338}}));
    let (name, data, chain) = dapp
        .wait_for("chainChanged", |e| match e {
            Event::SessionEvent {
                name,
                data,
                chain_id,
            } => Some((name.clone(), data.clone(), chain_id.clone())),
            _ => None,
        })
        .await;
    assert_eq!(
        (name.as_str(), data, chain.as_str()),
        ("chainChanged", json!(31338), CHAIN_B)
    );
    let hash = dapp
        .request(&topic, CHAIN_B, "eth_sendTransaction", tx)
        .await;
    let receipt = anvil_b.receipt(&hash).await;
    assert_eq!(
        receipt["status"], "0x1",
        "receipt of {hash} on anvil B: {receipt}"
    );
    let on_a = anvil_a
        .rpc("eth_getTransactionReceipt", json!([hash]))
        .await;
    assert_eq!(
        on_a,
        Value::Null,
        "the chain B transaction is not on anvil A"
    );

    // The wallet deletes the session.
    wallet.send(json!({ "disconnect": topic }));
    let code = dapp
        .wait_for("the session deletion", |e| match e {
            Event::SessionDeleted { code, .. } => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(code, 6000);
    assert!(
        dapp.client.session().is_none(),
        "no session left on our side"
    );
    wallet.expect("disconnected").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_disconnect_reaches_the_official_wallet_as_session_delete() {
    let anvil = Anvil::start(31337).await;
    let (_server, relay) = relay().await;
    let mut wallet = Wallet::start(&relay, &[(CHAIN_A, &anvil)]).await;
    let mut dapp = Dapp::connect(&relay).await;

    // Only chain A has an RPC in this wallet, so it settles on chain A alone.
    let session = pair(&mut dapp, &mut wallet).await;
    assert_eq!(session.accounts(), vec![format!("{CHAIN_A}:{ACCOUNT}")]);

    let events = dapp.command(WcCommand::Disconnect).await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::SessionDeleted { code: 6000, .. })),
        "we end the session at once: {events:?}"
    );
    let deleted = wallet.expect("session_delete").await;
    assert_eq!(deleted["topic"], json!(session.topic));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_wallet_on_one_relay_instance_pairs_and_signs_with_our_dapp_on_another_through_redis() {
    let anvil = Anvil::start(31337).await;
    let redis = wm_server::testing::RedisServer::start().unwrap();
    let a = common::start_instance(&redis.url()).await;
    let b = common::start_instance(&redis.url()).await;
    // The dapp reaches instance A, the wallet instance B (a balancer sent them apart).
    let mut wallet = Wallet::start(&format!("ws://{}/relay", b.addr), &[(CHAIN_A, &anvil)]).await;
    let mut dapp = Dapp::connect(&format!("ws://{}/relay", a.addr)).await;

    let session = pair(&mut dapp, &mut wallet).await;
    assert_eq!((a.state.relay.stats().connections, b.state.relay.stats().connections), (1, 1), "one socket on each instance");
    assert_eq!(session.accounts(), vec![format!("{CHAIN_A}:{ACCOUNT}")]);
    let message = "wallet-modal: signed across two relay instances";
    let params = json!([format!("0x{}", hex_encode(message.as_bytes())), ACCOUNT]);
    let signature = dapp.request(&session.topic, CHAIN_A, "personal_sign", params).await;
    let signer = recover_message_address(message, signature.as_str().expect("a signature string")).expect("a well-formed signature");
    assert_eq!(signer, ACCOUNT);
    // Every message crossed through Redis: each instance delivered what the other accepted.
    let (sa, sb) = (a.state.relay.stats(), b.state.relay.stats());
    assert!(sa.published > 0 && sb.published > 0 && sa.delivered > 0 && sb.delivered > 0, "{sa:?} {sb:?}");
    assert_eq!(sa.redis_errors + sb.redis_errors, 0);
}
