//! The local blockchain API: the demo backend's stand-in for the hosted blockchain data service
//! (balances, transaction history, token prices, identity), answered from the anvil chains given
//! with `--chains`, never from canned data.
//!
//! - [`indexer`] follows each chain from block 0 (batched JSON-RPC) into a [`index::ChainState`];
//! - [`manifest`] names the demo's own contracts (`--contracts`, written by
//!   `demo/contracts/deploy.mjs`): their prices, images and the spam list;
//! - [`api`] answers `/v1/account/{address}/balance`, `/v1/account/{address}/history`,
//!   `/v1/fungible/price`, `/v1/identity/{address}` in the hosted service's shapes;
//! - [`nfts`] answers `/v1/account/{address}/nfts`, the demo's own route (the hosted one is not shown).

pub mod abi;
pub mod api;
pub mod index;
pub mod indexer;
pub mod manifest;
pub mod nfts;
pub mod rpc;
pub mod snapshot;
pub mod solana;
pub mod esplora;
pub mod u256;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::ChainConfig;
use abi::Addr;
use index::{ChainState, NftMeta};
use manifest::Manifest;
use rpc::{RpcClient, RpcLimits};
use u256::U256;

/// Tuning and bounds of the indexers and the API. [`Default`] holds the demo's values.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainApiConfig {
    /// How often a caught-up indexer asks for the head block.
    pub poll_interval: Duration,
    /// Most blocks fetched and applied at once (halved while answers are too large).
    pub range_step: u64,
    /// Blocks per `eth_getBlockByNumber` batch.
    pub block_batch: usize,
    /// Receipts or `eth_call`s per batch.
    pub call_batch: usize,
    /// Batches in flight at once.
    pub fetch_concurrency: usize,
    /// Wait after a failed RPC exchange, doubled up to `retry_max`.
    pub retry_min: Duration,
    pub retry_max: Duration,
    /// JSON-RPC exchanges with the chains.
    pub rpc: RpcLimits,
    /// NFT metadata fetches (`tokenURI` on loopback).
    pub metadata: RpcLimits,
    /// NFT items waiting for their metadata; beyond, items show without it.
    pub metadata_queue: usize,
    /// History rows per page.
    pub page_size: usize,
    /// The most a request waits for the chains (balance: native balances, `forceUpdate`), then 503.
    pub request_budget: Duration,
    /// How often the `--contracts` file is checked for a new version.
    pub manifest_poll: Duration,
}

impl Default for ChainApiConfig {
    fn default() -> Self {
        ChainApiConfig {
            poll_interval: Duration::from_millis(200),
            range_step: 2000,
            block_batch: 250,
            call_batch: 250,
            fetch_concurrency: 3,
            retry_min: Duration::from_millis(250),
            retry_max: Duration::from_secs(2),
            rpc: RpcLimits::default(),
            metadata: RpcLimits {
                timeout: Duration::from_secs(2),
                max_response: 64 * 1024,
                max_idle: 0,
            },
            metadata_queue: 10_000,
            page_size: 50,
            request_budget: Duration::from_secs(5),
            manifest_poll: Duration::from_secs(1),
        }
    }
}

/// What an indexer last saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChainStatus {
    pub head: Option<u64>,
    pub error: Option<String>,
    /// Times the index was dropped and rebuilt.
    pub resets: u64,
}

/// One configured chain: its RPC client, index and status.
#[derive(Debug)]
pub struct Chain {
    pub chain_id: u64,
    pub rpc_url: String,
    /// `Err` when the URL is not one this client serves (not `http://` loopback).
    pub rpc: Result<Arc<RpcClient>, String>,
    pub state: RwLock<ChainState>,
    pub status: Mutex<ChainStatus>,
}

impl Chain {
    pub fn new(c: &ChainConfig, limits: RpcLimits) -> Chain {
        Chain {
            chain_id: c.chain_id,
            rpc_url: c.rpc_url.clone(),
            rpc: RpcClient::new(&c.rpc_url, limits).map(Arc::new),
            state: RwLock::new(ChainState::default()),
            status: Mutex::new(ChainStatus::default()),
        }
    }

    /// `eip155:{id}`.
    pub fn caip2(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    fn set_error(&self, e: Option<String>) {
        self.status.lock().unwrap().error = e;
    }

    fn reset(&self) {
        self.state.write().unwrap().reset();
        self.status.lock().unwrap().resets += 1;
    }

    fn set_nft_meta(&self, generation: u64, key: (Addr, U256), meta: NftMeta) {
        let mut st = self.state.write().unwrap();
        if st.generation != generation {
            return;
        }
        if let Some(item) = st.nfts.get_mut(&key) {
            item.meta = meta;
        }
    }

    /// The RPC client, or why there is none.
    pub fn client(&self) -> Result<&Arc<RpcClient>, String> {
        self.rpc.as_ref().map_err(Clone::clone)
    }
}

/// The blockchain API: every configured chain, the manifest, the background tasks.
#[derive(Debug)]
pub struct ChainApi {
    pub chains: Vec<Arc<Chain>>,
    pub config: ChainApiConfig,
    manifest_path: Option<PathBuf>,
    manifest: RwLock<Arc<Manifest>>,
    manifest_mtime: Mutex<Option<SystemTime>>,
    tasks: Mutex<Vec<AbortHandle>>,
    /// Where the indexers keep their index between runs ([`snapshot`]), when the server has a
    /// store; set before [`ChainApi::start`].
    store: std::sync::OnceLock<Arc<dyn crate::wallet::store::durable::Durable>>,
}

fn mtime(p: &PathBuf) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

impl ChainApi {
    /// Reads the manifest at `manifest_path` when there is one (an unreadable one is reported on
    /// stderr and treated as empty; `main` checks it before starting).
    pub fn new(
        chains: &[ChainConfig],
        manifest_path: Option<PathBuf>,
        config: ChainApiConfig,
    ) -> Arc<ChainApi> {
        let api = ChainApi {
            chains: chains
                .iter()
                .map(|c| Arc::new(Chain::new(c, config.rpc.clone())))
                .collect(),
            config,
            manifest_path,
            manifest: RwLock::new(Arc::new(Manifest::default())),
            manifest_mtime: Mutex::new(None),
            tasks: Mutex::new(Vec::new()),
            store: std::sync::OnceLock::new(),
        };
        api.reload_manifest();
        Arc::new(api)
    }

    /// Re-reads the manifest file when its modification time changed.
    pub fn reload_manifest(&self) {
        let Some(path) = &self.manifest_path else {
            return;
        };
        let now = mtime(path);
        {
            // Unchanged, or still missing (reported once, when it went away).
            let mut seen = self.manifest_mtime.lock().unwrap();
            if *seen == now {
                return;
            }
            *seen = now;
        }
        match Manifest::load(path) {
            Ok(m) => {
                *self.manifest.write().unwrap() = Arc::new(m);
            }
            Err(e) => eprintln!("[contracts] {e} (keeping the previous manifest)"),
        }
    }

    /// Replaces the manifest (tests; the file, if any, is still watched).
    pub fn set_manifest(&self, m: Manifest) {
        *self.manifest.write().unwrap() = Arc::new(m);
    }

    pub fn manifest(&self) -> Arc<Manifest> {
        self.manifest.read().unwrap().clone()
    }

    pub fn chain(&self, chain_id: u64) -> Option<&Arc<Chain>> {
        self.chains.iter().find(|c| c.chain_id == chain_id)
    }

    /// Keeps the indexes in `store` between runs (before [`ChainApi::start`]).
    pub fn set_store(&self, store: Arc<dyn crate::wallet::store::durable::Durable>) {
        let _ = self.store.set(store);
    }

    /// Starts an indexer per chain, the NFT metadata resolver and the manifest watcher.
    /// Needs a tokio runtime; a second call does nothing.
    pub fn start(self: &Arc<Self>) {
        let mut tasks = self.tasks.lock().unwrap();
        if !tasks.is_empty() {
            return;
        }
        let (tx, rx) = mpsc::channel(self.config.metadata_queue.max(1));
        tasks.push(tokio::spawn(indexer::run_nft_resolver(rx, self.config.clone())).abort_handle());
        for c in &self.chains {
            tasks.push(
                tokio::spawn(indexer::run(c.clone(), self.config.clone(), tx.clone(), self.store.get().cloned()))
                    .abort_handle(),
            );
        }
        if self.manifest_path.is_some() {
            let api = Arc::downgrade(self);
            let every = self.config.manifest_poll;
            tasks.push(
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(every).await;
                        match api.upgrade() {
                            Some(a) => a.reload_manifest(),
                            None => return,
                        }
                    }
                })
                .abort_handle(),
            );
        }
    }

    /// Stops the background tasks (the index stays readable).
    pub fn stop(&self) {
        for t in self.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }
}

impl Drop for ChainApi {
    fn drop(&mut self) {
        self.stop();
    }
}
