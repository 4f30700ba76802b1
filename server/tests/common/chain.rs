//! Real anvil chains for the blockchain API tests (and the bench): start one on a free port, talk
//! JSON-RPC to it, deploy the demo contracts with `demo/contracts/deploy.mjs` or a single token from
//! the compiled artifacts. Every anvil started here is killed (by its own pid) when dropped.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{get, repo_root, request};

/// anvil's dev accounts 0..=9 (unlocked on anvil: `eth_sendTransaction` signs for them).
pub const ACCOUNTS: [&str; 10] = [
    "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
    "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
    "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
    "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
    "0x976ea74026e726554db657fa54763abd0c3a0aa9",
    "0x14dc79964da2c08b23698b3d3cc7ca32193d9955",
    "0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f",
    "0xa0ee7a142d267c1f36714e4a8f75612f20a79720",
];

pub const WAIT: Duration = Duration::from_secs(30);

/// `node_modules/<rel>`, or a failure saying how to install it.
pub fn node_module(rel: &str) -> PathBuf {
    let path = repo_root().join("node_modules").join(rel);
    assert!(
        path.exists(),
        "{} is missing: run `npm install` at the repository root (`make test` does it)",
        path.display()
    );
    path
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind a free port")
        .port()
}

/// Whether something on `addr` answers a JSON-RPC call with an HTTP response.
async fn answers_json_rpc(addr: SocketAddr) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
        return false;
    };
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}"#;
    let req = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return false;
    }
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(2), s.read_to_end(&mut raw)).await;
    raw.starts_with(b"HTTP/1.1 200")
}

/// A child process killed (and reaped) when dropped, also when the test panics.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The platform package's anvil binary (not the `.bin/anvil` node wrapper, whose death would leave
/// the real anvil running).
pub fn anvil_binary() -> PathBuf {
    let bin = node_module("@foundry-rs/anvil-linux-amd64/bin/anvil");
    assert!(bin.is_file(), "{} is not a file", bin.display());
    bin
}

pub struct Anvil {
    process: KillOnDrop,
    pub addr: SocketAddr,
    pub url: String,
    pub chain_id: u64,
}

impl Anvil {
    pub async fn start(chain_id: u64) -> Anvil {
        Anvil::start_with(chain_id, &[]).await
    }

    pub async fn start_with(chain_id: u64, extra: &[&str]) -> Anvil {
        let bin = anvil_binary();
        let port = free_port();
        let process = Command::new(&bin)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--chain-id", &chain_id.to_string(), "--silent"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let anvil = Anvil {
            process: KillOnDrop(process),
            addr,
            url: format!("http://{addr}"),
            chain_id,
        };
        // Ready when it answers JSON-RPC: on a busy machine it accepts connections a moment before it
        // serves them (an early request gets a closed connection, no answer).
        let started = Instant::now();
        while !answers_json_rpc(addr).await {
            assert!(
                started.elapsed() < WAIT,
                "anvil not answering on {addr} after {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(
            anvil.rpc("eth_chainId", json!([])).await,
            json!(format!("{chain_id:#x}"))
        );
        anvil
    }

    /// Sends a signal (`STOP`, `CONT`) to this anvil's own pid.
    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{sig}"), &self.process.0.id().to_string()])
            .status()
            .expect("run kill");
        assert!(ok.success(), "kill -{sig} failed");
        // A signal is delivered asynchronously: on a busy machine the process can answer one more
        // request after `kill` returns. Wait until the kernel shows it stopped (or running again).
        let pid = self.process.0.id();
        let want_stopped = sig == "STOP";
        for _ in 0..200 {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // `pid (comm) S …`: the state follows the last `)`.
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|r| r.trim_start().chars().next());
            if matches!(state, Some('T') | Some('t')) == want_stopped {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!(
            "anvil {pid} did not {} after kill -{sig}",
            if want_stopped { "stop" } else { "continue" }
        );
    }

    /// `(result, error)` of one call.
    pub async fn rpc_raw(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        request(
            self.addr,
            "POST",
            "/",
            &[("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await
        .json()
    }

    /// One call; an RPC error fails the test.
    pub async fn rpc(&self, method: &str, params: Value) -> Value {
        let res = self.rpc_raw(method, params).await;
        assert!(res.get("error").is_none(), "anvil {method}: {res}");
        res["result"].clone()
    }

    /// A JSON-RPC batch (one HTTP request); answers by id order.
    pub async fn batch(&self, calls: &[(&str, Value)]) -> Vec<Value> {
        let body: Vec<Value> = calls
            .iter()
            .enumerate()
            .map(|(i, (m, p))| json!({"jsonrpc": "2.0", "id": i, "method": m, "params": p}))
            .collect();
        let res = request(
            self.addr,
            "POST",
            "/",
            &[("content-type", "application/json")],
            Value::Array(body).to_string().as_bytes(),
        )
        .await
        .json();
        let mut answers = res
            .as_array()
            .unwrap_or_else(|| panic!("batch answer: {res}"))
            .clone();
        answers.sort_by_key(|a| a["id"].as_u64());
        answers
    }

    pub async fn block_number(&self) -> u64 {
        let n = self.rpc("eth_blockNumber", json!([])).await;
        u64::from_str_radix(n.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
    }

    /// Sends a transaction from an unlocked account and returns its mined receipt.
    pub async fn send(&self, from: &str, to: Option<&str>, data: &str, value_wei: u128) -> Value {
        let mut tx = json!({"from": from, "data": data, "value": format!("{value_wei:#x}")});
        if let Some(to) = to {
            tx["to"] = json!(to);
        }
        let hash = self.rpc("eth_sendTransaction", json!([tx])).await;
        self.receipt(&hash).await
    }

    pub async fn receipt(&self, hash: &Value) -> Value {
        let started = Instant::now();
        loop {
            let r = self.rpc("eth_getTransactionReceipt", json!([hash])).await;
            if !r.is_null() {
                return r;
            }
            assert!(started.elapsed() < WAIT, "no receipt of {hash}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// `balanceOf(owner)` of an ERC-20, as a decimal string.
    pub async fn balance_of(&self, token: &str, owner: &str) -> String {
        let data = format!("0x70a08231{:0>64}", owner.trim_start_matches("0x"));
        let r = self
            .rpc("eth_call", json!([{"to": token, "data": data}, "latest"]))
            .await;
        hex_to_dec(r.as_str().unwrap())
    }

    pub async fn eth_balance(&self, who: &str) -> String {
        let r = self.rpc("eth_getBalance", json!([who, "latest"])).await;
        hex_to_dec(r.as_str().unwrap())
    }
}

/// A hex quantity or word (up to 256 bits) as decimal digits.
pub fn hex_to_dec(h: &str) -> String {
    let h = h.trim_start_matches("0x");
    // base-10^9 limbs, little-endian
    let mut limbs: Vec<u64> = vec![0];
    for c in h.chars() {
        let mut carry = c.to_digit(16).expect("hex digit") as u64;
        for l in limbs.iter_mut() {
            let v = *l * 16 + carry;
            *l = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut s = limbs.last().unwrap().to_string();
    for l in limbs.iter().rev().skip(1) {
        s.push_str(&format!("{l:09}"));
    }
    s
}

/// A decimal `quantity.numeric` ("12.500000") as base units ("12500000").
pub fn numeric_to_units(numeric: &str, decimals: u32) -> String {
    let (int, frac) = numeric.split_once('.').unwrap_or((numeric, ""));
    assert!(
        frac.len() <= decimals as usize,
        "{numeric} has more than {decimals} decimals"
    );
    let s = format!("{int}{frac}{}", "0".repeat(decimals as usize - frac.len()));
    let t = s.trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.into()
    }
}

// ----- ABI, just enough to deploy and call the demo token ---------------------------------------------

fn word_u(n: u128) -> String {
    format!("{n:064x}")
}

fn word_addr(a: &str) -> String {
    format!("{:0>64}", a.trim_start_matches("0x").to_lowercase())
}

fn string_tail(s: &str) -> String {
    let hex: String = s.bytes().map(|b| format!("{b:02x}")).collect();
    let padded = s.len().div_ceil(32) * 64;
    format!("{}{hex:0<padded$}", word_u(s.len() as u128))
}

/// Constructor arguments `(string, string, uint8)` of `DemoToken`.
pub fn token_ctor_args(name: &str, symbol: &str, decimals: u8) -> String {
    let name_tail = string_tail(name);
    let off_symbol = 96 + name_tail.len() / 2;
    format!(
        "{}{}{}{name_tail}{}",
        word_u(96),
        word_u(off_symbol as u128),
        word_u(decimals as u128),
        string_tail(symbol)
    )
}

pub fn mint_data(to: &str, amount: u128) -> String {
    format!("0x40c10f19{}{}", word_addr(to), word_u(amount))
}

pub fn transfer_data(to: &str, amount: u128) -> String {
    format!("0xa9059cbb{}{}", word_addr(to), word_u(amount))
}

pub fn approve_data(spender: &str, amount: u128) -> String {
    format!("0x095ea7b3{}{}", word_addr(spender), word_u(amount))
}

// ----- the demo contracts ------------------------------------------------------------------------------

fn deploy_script() -> PathBuf {
    repo_root().join("demo/contracts/deploy.mjs")
}

/// The compiled artifacts (`deploy.mjs --compile-only --artifacts`), compiled once per process.
pub fn artifacts() -> &'static Value {
    static ARTIFACTS: OnceLock<Value> = OnceLock::new();
    ARTIFACTS.get_or_init(|| {
        node_module("solc");
        let dir = wm_server::testing::TempDir::new("artifacts");
        let out = dir.join("artifacts.json");
        let status = Command::new("node")
            .arg(deploy_script())
            .args(["--compile-only", "--artifacts"])
            .arg(&out)
            .env("DEPLOY_QUIET", "1")
            .status()
            .expect("run node");
        assert!(status.success(), "deploy.mjs --compile-only failed");
        serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap()
    })
}

/// Deploys a `DemoToken` from `from` (any unlocked account) and returns its address.
pub async fn deploy_token(
    anvil: &Anvil,
    from: &str,
    name: &str,
    symbol: &str,
    decimals: u8,
) -> String {
    let bytecode = artifacts()["contracts"]["DemoToken"]["bytecode"]
        .as_str()
        .unwrap()
        .to_string();
    let data = format!("{bytecode}{}", token_ctor_args(name, symbol, decimals));
    let r = anvil.send(from, None, &data, 0).await;
    assert_eq!(r["status"], json!("0x1"), "deploy {symbol}: {r}");
    r["contractAddress"].as_str().unwrap().to_lowercase()
}

/// `node demo/contracts/deploy.mjs` against these chains; returns the manifest.
/// The manifest's file is in a folder removed when the returned handle drops: keep it while the
/// file is read.
pub fn deploy_demo(anvils: &[&Anvil], api_url: &str) -> (wm_server::testing::TempDir, PathBuf, Value) {
    let dir = wm_server::testing::TempDir::new("manifest");
    let out = dir.join("manifest.json");
    let mut cmd = Command::new("node");
    cmd.arg(deploy_script())
        .args(["--out"])
        .arg(&out)
        .args(["--api-url", api_url])
        .env("DEPLOY_QUIET", "1");
    for a in anvils {
        cmd.args(["--rpc", &a.url]);
    }
    let status = cmd.status().expect("run node");
    assert!(status.success(), "deploy.mjs failed");
    let manifest: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    (dir, out, manifest)
}

/// The manifest's token `symbol` on `chain_id`.
pub fn manifest_token(manifest: &Value, chain_id: u64, symbol: &str) -> String {
    manifest["chains"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["chainId"] == json!(chain_id))
        .and_then(|c| {
            c["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["symbol"] == json!(symbol))
        })
        .unwrap_or_else(|| panic!("{symbol} not in the manifest"))["address"]
        .as_str()
        .unwrap()
        .to_lowercase()
}

/// Waits until the server's indexer of every chain reached the anvil's head block and resolved its
/// NFT metadata.
pub async fn wait_indexed(server: SocketAddr, anvils: &[&Anvil]) {
    let started = Instant::now();
    loop {
        let mut heads = Vec::new();
        for a in anvils {
            let head = a
                .rpc("eth_getBlockByNumber", json!(["latest", false]))
                .await;
            let number = u64::from_str_radix(
                head["number"].as_str().unwrap().trim_start_matches("0x"),
                16,
            )
            .unwrap();
            heads.push((
                format!("eip155:{}", a.chain_id),
                number,
                head["hash"].clone(),
            ));
        }
        let st = get(server, "/indexer/status").await.json();
        let done = heads.iter().all(|(id, number, hash)| {
            st["chains"].as_array().unwrap().iter().any(|c| {
                c["chainId"] == json!(id)
                    && c["indexedBlock"] == json!(number)
                    && c["indexedHash"] == *hash
                    && c["pendingMetadata"] == json!(0)
            })
        });
        if done {
            return;
        }
        assert!(started.elapsed() < WAIT, "not indexed after {WAIT:?}: {st}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// ----- a backend over anvil chains -----------------------------------------------------------------------

/// A backend over these chains (and the demo contracts' manifest, if given), polling their heads
/// every 50 ms (tests wait less).
pub async fn chain_server(
    anvils: &[&Anvil],
    contracts: Option<std::path::PathBuf>,
) -> wm_server::Server {
    let mut config = wm_server::ServerConfig::default();
    config.chain.poll_interval = Duration::from_millis(50);
    chain_server_with(anvils, contracts, config).await
}

pub async fn chain_server_with(
    anvils: &[&Anvil],
    contracts: Option<std::path::PathBuf>,
    config: wm_server::ServerConfig,
) -> wm_server::Server {
    let chains = anvils
        .iter()
        .map(|a| format!("{}={}", a.chain_id, a.url))
        .collect::<Vec<_>>()
        .join(",");
    let options = wm_server::Options {
        root: super::repo_root(),
        chains: wm_server::parse_chains(&chains).unwrap(),
        contracts,
        solana: None,
        bitcoin: None,
        test_token: Some(super::TEST_TOKEN.to_string()),
    };
    wm_server::start_with(options, config, 0, std::future::pending())
        .await
        .expect("server starts")
}
