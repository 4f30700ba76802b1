//! Follows one chain from block 0, then each new block (polling the head), and applies what it finds
//! to the chain's [`ChainState`]:
//!
//! - blocks with full transactions, `eth_getBlockByNumber` in JSON-RPC batches;
//! - `eth_getLogs` over the same block range for the Transfer and Approval topics (and WETH's
//!   Withdrawal, which tells the ether a router unwrapped for a swap): every contract
//!   emitting them is a token (4 topics: ERC-721, 3 topics with a 32-byte amount: ERC-20), whoever
//!   deployed it; its `name()`, `symbol()`, `decimals()` are read with `eth_call`, and `tokenURI(id)`
//!   for each new ERC-721 item;
//! - receipts (`eth_getTransactionReceipt`, batched) only for transactions without token logs, for
//!   their status (a transaction with logs succeeded).
//!
//! A range is applied only if its first block's parent is the last block applied; otherwise (anvil
//! restarted, `evm_revert`, a reorganisation) the state is dropped and rebuilt from block 0.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::wallet::store::durable::Durable;
use super::snapshot;
use super::abi::{self, Addr, Hash32};
use super::index::{
    BlockHeader, EventKind, NftMeta, RangeData, Token, TokenEvent, TokenKind, TxRecord,
};
use super::rpc::{RpcClient, RpcError};
use super::u256::U256;
use super::{Chain, ChainApiConfig};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RpcHeader {
    pub number: String,
    pub hash: String,
    pub parent_hash: String,
    pub timestamp: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RpcTx {
    hash: String,
    from: String,
    to: Option<String>,
    value: String,
    nonce: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RpcBlock {
    number: String,
    hash: String,
    parent_hash: String,
    timestamp: String,
    transactions: Vec<RpcTx>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RpcLog {
    address: String,
    topics: Vec<String>,
    data: String,
    block_number: Option<String>,
    block_hash: Option<String>,
    transaction_index: Option<String>,
    log_index: Option<String>,
    #[serde(default)]
    removed: bool,
}

#[derive(Deserialize)]
struct RpcReceipt {
    status: Option<String>,
}

fn bad(what: &str, v: &str) -> String {
    format!("bad {what} {v:?} from the node")
}

fn header_of(number: &str, hash: &str, parent: &str, ts: &str) -> Result<BlockHeader, String> {
    Ok(BlockHeader {
        number: abi::parse_quantity(number).ok_or_else(|| bad("block number", number))?,
        hash: abi::parse_hash(hash).ok_or_else(|| bad("block hash", hash))?,
        parent: abi::parse_hash(parent).ok_or_else(|| bad("parent hash", parent))?,
        timestamp: abi::parse_quantity(ts).ok_or_else(|| bad("timestamp", ts))?,
    })
}

pub(crate) fn parse_header(h: &RpcHeader) -> Result<BlockHeader, String> {
    header_of(&h.number, &h.hash, &h.parent_hash, &h.timestamp)
}

fn q(n: u64) -> String {
    format!("{n:#x}")
}

/// Runs `calls` batches of `params` (chunks of `batch`), at most `concurrency` HTTP requests at once.
async fn batched<T>(
    rpc: &Arc<RpcClient>,
    method: &'static str,
    params: Vec<Value>,
    batch: usize,
    concurrency: usize,
) -> Result<Vec<Result<T, RpcError>>, RpcError>
where
    T: serde::de::DeserializeOwned + Send + 'static,
{
    let chunks: Vec<Vec<Value>> = params.chunks(batch.max(1)).map(|c| c.to_vec()).collect();
    let mut out = Vec::with_capacity(params.len());
    for group in chunks.chunks(concurrency.max(1)) {
        let mut set = tokio::task::JoinSet::new();
        for (i, chunk) in group.iter().enumerate() {
            let rpc = rpc.clone();
            let chunk = chunk.clone();
            set.spawn(async move { (i, rpc.batch::<T>(method, &chunk).await) });
        }
        let mut results: Vec<Option<Vec<Result<T, RpcError>>>> =
            (0..group.len()).map(|_| None).collect();
        while let Some(r) = set.join_next().await {
            let (i, r) = r.map_err(|e| RpcError::Transport(format!("task: {e}")))?;
            results[i] = Some(r?);
        }
        for r in results {
            out.extend(r.unwrap_or_default());
        }
    }
    Ok(out)
}

/// A Transfer, Approval or WETH Withdrawal log, decoded: the token, whether it is ERC-721-shaped,
/// the event.
fn decode_log(log: &RpcLog) -> Option<(Addr, TokenKind, EventKind)> {
    let token = abi::parse_addr(&log.address)?;
    let topics: Vec<Vec<u8>> = log
        .topics
        .iter()
        .map(|t| abi::parse_hex(t))
        .collect::<Option<_>>()?;
    let t0 = abi::hex_lower(topics.first()?);
    let data = abi::parse_hex(&log.data)?;
    if topics.len() == 2 && data.len() == 32 && t0 == abi::WITHDRAWAL_TOPIC {
        let ev = EventKind::Unwrap {
            src: abi::topic_addr(&topics[1])?,
            amount: U256::from_be_slice(&data)?,
        };
        return Some((token, TokenKind::Erc20, ev));
    }
    let (kind, a, b, amount) = match topics.len() {
        3 if data.len() == 32 => (
            TokenKind::Erc20,
            abi::topic_addr(&topics[1])?,
            abi::topic_addr(&topics[2])?,
            U256::from_be_slice(&data)?,
        ),
        4 if data.is_empty() => (
            TokenKind::Erc721,
            abi::topic_addr(&topics[1])?,
            abi::topic_addr(&topics[2])?,
            U256::from_be_slice(&topics[3])?,
        ),
        _ => return None,
    };
    let ev = if t0 == abi::TRANSFER_TOPIC {
        EventKind::Transfer {
            from: a,
            to: b,
            amount,
        }
    } else if t0 == abi::APPROVAL_TOPIC {
        EventKind::Approval {
            owner: a,
            spender: b,
            amount,
        }
    } else {
        return None;
    };
    Some((token, kind, ev))
}

fn call_params(to: &Addr, data: String) -> Value {
    json!([{ "to": abi::addr_hex(to), "data": data }, "latest"])
}

/// Fetches blocks `from..=to` with their token logs, new tokens' metadata and the receipts needed.
pub(crate) async fn fetch_range(
    chain: &Chain,
    rpc: &Arc<RpcClient>,
    from: u64,
    to: u64,
    cfg: &ChainApiConfig,
) -> Result<RangeData, String> {
    let block_params: Vec<Value> = (from..=to).map(|n| json!([q(n), true])).collect();
    let logs_params = json!([{
        "fromBlock": q(from),
        "toBlock": q(to),
        "topics": [[abi::TRANSFER_TOPIC, abi::APPROVAL_TOPIC, abi::WITHDRAWAL_TOPIC]],
    }]);
    let (blocks, logs) = tokio::join!(
        batched::<RpcBlock>(
            rpc,
            "eth_getBlockByNumber",
            block_params,
            cfg.block_batch,
            cfg.fetch_concurrency
        ),
        rpc.call::<Vec<RpcLog>>("eth_getLogs", logs_params),
    );
    let blocks = blocks.map_err(|e| format!("eth_getBlockByNumber: {e}"))?;
    let logs = logs.map_err(|e| format!("eth_getLogs {from}..{to}: {e}"))?;

    // Headers, in order and linked.
    let mut headers = Vec::with_capacity(blocks.len());
    let mut block_txs = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.into_iter().enumerate() {
        let b = b.map_err(|e| format!("block {}: {e}", from + i as u64))?;
        let h = header_of(&b.number, &b.hash, &b.parent_hash, &b.timestamp)?;
        if h.number != from + i as u64 {
            return Err(format!("asked block {}, got {}", from + i as u64, h.number));
        }
        if let Some(prev) = headers.last() {
            let prev: &BlockHeader = prev;
            if h.parent != prev.hash {
                return Err(format!(
                    "block {} does not follow block {} (the chain changed while indexing)",
                    h.number, prev.number
                ));
            }
        }
        headers.push(h);
        block_txs.push(b.transactions);
    }
    let hash_of: HashMap<u64, Hash32> = headers.iter().map(|h| (h.number, h.hash)).collect();

    // Logs, grouped by transaction.
    let (known_kinds, known_nfts): (HashMap<Addr, TokenKind>, HashSet<(Addr, U256)>) = {
        let st = chain.state.read().unwrap();
        let mut kinds = HashMap::new();
        let mut nfts = HashSet::new();
        for log in &logs {
            if let Some(a) = abi::parse_addr(&log.address) {
                if let Some(t) = st.tokens.get(&a) {
                    kinds.insert(a, t.kind);
                }
            }
        }
        for log in &logs {
            if let Some((token, TokenKind::Erc721, EventKind::Transfer { amount, .. })) =
                decode_log(log)
            {
                if st.nfts.contains_key(&(token, amount)) {
                    nfts.insert((token, amount));
                }
            }
        }
        (kinds, nfts)
    };
    let mut kinds = known_kinds.clone();
    let mut new_tokens: Vec<(Addr, TokenKind, u64)> = Vec::new();
    let mut new_nfts: Vec<(Addr, U256)> = Vec::new();
    let mut seen_nfts: HashSet<(Addr, U256)> = known_nfts;
    let mut with_logs: HashSet<(u64, u32)> = HashSet::new();
    let mut events: HashMap<(u64, u32), Vec<(u64, TokenEvent)>> = HashMap::new();
    for log in logs.iter().filter(|l| !l.removed) {
        let block = log
            .block_number
            .as_deref()
            .and_then(abi::parse_quantity)
            .ok_or("log without block number")?;
        let tx_index = log
            .transaction_index
            .as_deref()
            .and_then(abi::parse_quantity)
            .ok_or("log without transaction index")? as u32;
        let log_index = log
            .log_index
            .as_deref()
            .and_then(abi::parse_quantity)
            .unwrap_or(0);
        let block_hash = log.block_hash.as_deref().and_then(abi::parse_hash);
        if block_hash.is_some() && block_hash != hash_of.get(&block).copied() {
            return Err(format!(
                "log of block {block} from another fork (the chain changed while indexing)"
            ));
        }
        with_logs.insert((block, tx_index));
        let Some((token, kind, ev)) = decode_log(log) else {
            continue;
        };
        match kinds.get(&token) {
            Some(k) if *k != kind => continue, // a layout that contradicts the token's kind
            Some(_) => {}
            None => {
                kinds.insert(token, kind);
                new_tokens.push((token, kind, block));
            }
        }
        if let (TokenKind::Erc721, EventKind::Transfer { amount, .. }) = (kind, &ev) {
            if seen_nfts.insert((token, *amount)) {
                new_nfts.push((token, *amount));
            }
        }
        events
            .entry((block, tx_index))
            .or_default()
            .push((log_index, TokenEvent { token, kind: ev }));
    }

    // Receipts of the transactions without token logs, for their status.
    let mut need_receipt: Vec<(u64, u32, String)> = Vec::new();
    for (h, txs) in headers.iter().zip(&block_txs) {
        for (i, tx) in txs.iter().enumerate() {
            if !with_logs.contains(&(h.number, i as u32)) {
                need_receipt.push((h.number, i as u32, tx.hash.clone()));
            }
        }
    }
    let receipt_params: Vec<Value> = need_receipt
        .iter()
        .map(|(_, _, hash)| json!([hash]))
        .collect();
    let receipts = batched::<RpcReceipt>(
        rpc,
        "eth_getTransactionReceipt",
        receipt_params,
        cfg.call_batch,
        cfg.fetch_concurrency,
    )
    .await
    .map_err(|e| format!("eth_getTransactionReceipt: {e}"))?;
    let mut status: HashMap<(u64, u32), bool> = HashMap::new();
    for ((block, idx, hash), r) in need_receipt.iter().zip(receipts) {
        let r = r.map_err(|e| format!("receipt of {hash}: {e}"))?;
        status.insert((*block, *idx), r.status.as_deref() != Some("0x0"));
    }

    // Metadata of new tokens and new ERC-721 items.
    let mut calls: Vec<Value> = Vec::new();
    for (t, kind, _) in &new_tokens {
        calls.push(call_params(t, abi::SEL_NAME.into()));
        calls.push(call_params(t, abi::SEL_SYMBOL.into()));
        if *kind == TokenKind::Erc20 {
            calls.push(call_params(t, abi::SEL_DECIMALS.into()));
        }
    }
    for (t, id) in &new_nfts {
        calls.push(call_params(t, abi::token_uri_data(*id)));
    }
    let answers = batched::<String>(
        rpc,
        "eth_call",
        calls,
        cfg.call_batch,
        cfg.fetch_concurrency,
    )
    .await
    .map_err(|e| format!("eth_call: {e}"))?;
    let mut answers = answers
        .into_iter()
        .map(|r| r.ok().and_then(|h| abi::parse_hex(&h)));
    let mut next = || answers.next().flatten();
    let mut tokens_out = Vec::with_capacity(new_tokens.len());
    for (t, kind, first_block) in new_tokens {
        let name = next().and_then(|r| abi::decode_string(&r, abi::MAX_TOKEN_TEXT));
        let symbol = next().and_then(|r| abi::decode_string(&r, abi::MAX_TOKEN_TEXT));
        let decimals = match kind {
            TokenKind::Erc20 => next().and_then(|r| abi::decode_u8(&r)),
            TokenKind::Erc721 => Some(0),
        };
        tokens_out.push((
            t,
            Token {
                kind,
                name,
                symbol,
                decimals,
                first_block,
            },
        ));
    }
    let mut nfts_out = Vec::with_capacity(new_nfts.len());
    for key in new_nfts {
        let uri = next().and_then(|r| abi::decode_string(&r, abi::MAX_TOKEN_URI));
        nfts_out.push((key, uri));
    }

    // Transactions.
    let mut txs_out = Vec::new();
    for (h, txs) in headers.iter().zip(block_txs) {
        for (i, tx) in txs.into_iter().enumerate() {
            let idx = i as u32;
            let from_addr = abi::parse_addr(&tx.from).ok_or_else(|| bad("sender", &tx.from))?;
            let to_addr = match &tx.to {
                Some(t) => Some(abi::parse_addr(t).ok_or_else(|| bad("recipient", t))?),
                None => None,
            };
            let nonce = abi::parse_quantity(&tx.nonce).ok_or_else(|| bad("nonce", &tx.nonce))?;
            let ok = with_logs.contains(&(h.number, idx))
                || status.get(&(h.number, idx)).copied().unwrap_or(true);
            let mut evs = events.remove(&(h.number, idx)).unwrap_or_default();
            evs.sort_by_key(|(li, _)| *li);
            txs_out.push(TxRecord {
                hash: abi::parse_hash(&tx.hash).ok_or_else(|| bad("transaction hash", &tx.hash))?,
                block: h.number,
                index: idx,
                timestamp: h.timestamp,
                from: from_addr,
                to: to_addr,
                created: (to_addr.is_none() && ok).then(|| abi::create_address(&from_addr, nonce)),
                value: U256::from_hex(&tx.value).ok_or_else(|| bad("value", &tx.value))?,
                nonce,
                ok,
                events: evs.into_iter().map(|(_, e)| e).collect(),
            });
        }
    }
    Ok(RangeData {
        headers,
        txs: txs_out,
        new_tokens: tokens_out,
        new_nfts: nfts_out,
    })
}

/// An ERC-721 item whose metadata is to be fetched.
#[derive(Debug)]
pub(crate) struct NftJob {
    pub chain: Arc<Chain>,
    pub generation: u64,
    pub key: (Addr, U256),
    pub uri: String,
}

/// How long RPC failures last before they are logged (the status route shows them at once).
const LOG_AFTER: Duration = Duration::from_secs(3);

fn log_line(chain_id: u64, msg: &str) {
    eprintln!("[indexer eip155:{chain_id}] {msg}");
}

/// Queues the metadata fetch of NFT items (an item shows without it when the queue is full).
fn queue_nft_jobs(chain: &Arc<Chain>, nft_jobs: &mpsc::Sender<NftJob>, generation: u64, jobs: Vec<((Addr, U256), String)>) {
    for (key, uri) in jobs {
        let job = NftJob { chain: chain.clone(), generation, key, uri };
        if let Err(mpsc::error::TrySendError::Full(job) | mpsc::error::TrySendError::Closed(job)) = nft_jobs.try_send(job) {
            chain.set_nft_meta(generation, job.key, NftMeta::Unavailable);
        }
    }
}

/// Reads the chain's index back from the store (a restart goes on from there).
async fn restore(chain: &Arc<Chain>, store: &Arc<dyn Durable>, nft_jobs: &mpsc::Sender<NftJob>) {
    let (d, key) = (store.clone(), chain.caip2());
    let held = tokio::task::spawn_blocking(move || d.entry(snapshot::KIND, &key, crate::wallet::store::durable::wall_ms())).await;
    let Ok(Ok(Some(body))) = held else { return };
    let Some((mut st, pending)) = tokio::task::spawn_blocking(move || snapshot::decode(&body)).await.ok().flatten() else {
        log_line(chain.chain_id, "the stored index cannot be read: indexing from block 0");
        return;
    };
    let generation = {
        let mut now = chain.state.write().unwrap();
        st.generation = now.generation;
        *now = st;
        now.generation
    };
    if let Some(n) = chain.state.read().unwrap().indexed {
        log_line(chain.chain_id, &format!("going on from block {n} (the stored index)"));
    }
    queue_nft_jobs(chain, nft_jobs, generation, pending);
}

/// Writes the chain's index to the store.
async fn save(chain: &Arc<Chain>, store: &Arc<dyn Durable>) {
    let body = snapshot::encode(&chain.state.read().unwrap());
    let Some(body) = body else { return };
    let (d, key) = (store.clone(), chain.caip2());
    let until = crate::wallet::store::durable::wall_ms().saturating_add(snapshot::KEEP_MS);
    let _ = tokio::task::spawn_blocking(move || d.put_entry(snapshot::KIND, &key, until, &body)).await;
}

/// Follows the chain until the task is aborted; with a store, from where the last run left it.
pub(crate) async fn run(chain: Arc<Chain>, cfg: ChainApiConfig, nft_jobs: mpsc::Sender<NftJob>, store: Option<Arc<dyn Durable>>) {
    let rpc = match &chain.rpc {
        Ok(r) => r.clone(),
        Err(e) => {
            chain.set_error(Some(format!("not indexed: {e}")));
            log_line(chain.chain_id, &format!("not indexed: {e}"));
            return;
        }
    };
    if let Some(d) = &store {
        restore(&chain, d, &nft_jobs).await;
    }
    // Applied since the last save, and when that was.
    let mut unsaved = false;
    let mut saved_at = std::time::Instant::now();
    let mut backoff = cfg.retry_min;
    let mut step = cfg.range_step.max(1);
    // The last error logged: the same error is logged once, not at every retry, and only once the
    // failures have lasted `LOG_AFTER` (a chain starting a moment after the backend is not news).
    let mut last_logged: Option<String> = None;
    let mut failing_since: Option<std::time::Instant> = None;
    let fail = |chain: &Chain,
                e: String,
                backoff: &mut Duration,
                last_logged: &mut Option<String>,
                since: &mut Option<std::time::Instant>| {
        let since = *since.get_or_insert_with(std::time::Instant::now);
        if last_logged.as_deref() != Some(e.as_str()) && since.elapsed() >= LOG_AFTER {
            log_line(chain.chain_id, &format!("{e} (retrying)"));
            *last_logged = Some(e.clone());
        }
        chain.set_error(Some(e));
        let wait = *backoff;
        *backoff = (*backoff * 2).min(cfg.retry_max);
        wait
    };
    loop {
        let head = match rpc
            .call::<RpcHeader>("eth_getBlockByNumber", json!(["latest", false]))
            .await
        {
            Ok(h) => parse_header(&h),
            Err(e) => Err(e.to_string()),
        };
        let head = match head {
            Ok(h) => h,
            Err(e) => {
                let wait = fail(
                    &chain,
                    e,
                    &mut backoff,
                    &mut last_logged,
                    &mut failing_since,
                );
                tokio::time::sleep(wait).await;
                continue;
            }
        };
        chain.status.lock().unwrap().head = Some(head.number);
        let (next, indexed, last_hash) = {
            let st = chain.state.read().unwrap();
            (st.next_block(), st.indexed, st.last_hash)
        };
        if let Some(ix) = indexed {
            if head.number < ix || (head.number == ix && Some(head.hash) != last_hash) {
                let what = if head.number < ix {
                    format!(
                        "the chain went back to block {} after block {ix} was indexed",
                        head.number
                    )
                } else {
                    format!("block {ix} was replaced")
                };
                log_line(chain.chain_id, &format!("{what}: re-indexing from block 0"));
                chain.reset();
                continue;
            }
        }
        if next > head.number {
            if let (Some(d), true) = (&store, unsaved) {
                save(&chain, d).await;
                (unsaved, saved_at) = (false, std::time::Instant::now());
            }
            if last_logged.take().is_some() {
                log_line(chain.chain_id, "indexing again");
            }
            chain.set_error(None);
            failing_since = None;
            backoff = cfg.retry_min;
            tokio::time::sleep(cfg.poll_interval).await;
            continue;
        }
        let to = head.number.min(next + step - 1);
        match fetch_range(&chain, &rpc, next, to, &cfg).await {
            Ok(range) => {
                let (jobs, generation) = {
                    let mut st = chain.state.write().unwrap();
                    if !st.continues(&range) {
                        drop(st);
                        log_line(chain.chain_id, &format!("block {next} does not follow the indexed chain: re-indexing from block 0"));
                        chain.reset();
                        continue;
                    }
                    let jobs: Vec<((Addr, U256), String)> = range
                        .new_nfts
                        .iter()
                        .filter_map(|(k, uri)| uri.clone().map(|u| (*k, u)))
                        .collect();
                    st.apply(range);
                    (jobs, st.generation)
                };
                queue_nft_jobs(&chain, &nft_jobs, generation, jobs);
                unsaved = true;
                if let (Some(d), true) = (&store, saved_at.elapsed() >= snapshot::SAVE_EVERY) {
                    save(&chain, d).await;
                    (unsaved, saved_at) = (false, std::time::Instant::now());
                }
                chain.set_error(None);
                failing_since = None;
                backoff = cfg.retry_min;
                step = (step * 2).min(cfg.range_step.max(1));
            }
            Err(e) => {
                if e.contains("larger than") && step > 1 {
                    step = (step / 2).max(1);
                }
                let wait = fail(
                    &chain,
                    e,
                    &mut backoff,
                    &mut last_logged,
                    &mut failing_since,
                );
                tokio::time::sleep(wait).await;
            }
        }
    }
}

/// Fetches ERC-721 metadata (`tokenURI` on loopback `http://`, or a `data:application/json` URI):
/// `name` and `image` (http(s) or data URLs only).
pub(crate) async fn resolve_nft_meta(uri: &str, cfg: &ChainApiConfig) -> NftMeta {
    let json: Option<Value> = if let Some(rest) = uri.strip_prefix("data:application/json") {
        if let Some(b64) = rest.strip_prefix(";base64,") {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
        } else {
            rest.split_once(',')
                .and_then(|(_, j)| serde_json::from_str(j).ok())
        }
    } else if uri.starts_with("http://") {
        match super::rpc::http_get_loopback(uri, &cfg.metadata).await {
            Ok((200, body)) => serde_json::from_slice(&body).ok(),
            _ => None,
        }
    } else {
        None
    };
    let Some(json) = json else {
        return NftMeta::Unavailable;
    };
    let text = |k: &str, max: usize| {
        json.get(k)
            .and_then(Value::as_str)
            .filter(|s| s.len() <= max && !s.chars().any(char::is_control))
            .map(str::to_string)
    };
    let image = text("image", abi::MAX_TOKEN_URI).filter(|u| {
        u.starts_with("http://") || u.starts_with("https://") || u.starts_with("data:image/")
    });
    NftMeta::Resolved {
        name: text("name", abi::MAX_TOKEN_TEXT),
        image,
    }
}

/// Works through the metadata queue until the task is aborted.
pub(crate) async fn run_nft_resolver(mut jobs: mpsc::Receiver<NftJob>, cfg: ChainApiConfig) {
    while let Some(job) = jobs.recv().await {
        let meta = resolve_nft_meta(&job.uri, &cfg).await;
        job.chain.set_nft_meta(job.generation, job.key, meta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(topics: &[&str], data: &str) -> RpcLog {
        RpcLog {
            address: "0x5fbdb2315678afecb367f032d93f642f64180aa3".into(),
            topics: topics.iter().map(|s| s.to_string()).collect(),
            data: data.into(),
            block_number: Some("0x1".into()),
            block_hash: None,
            transaction_index: Some("0x0".into()),
            log_index: Some("0x0".into()),
            removed: false,
        }
    }

    const A: &str = "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const B: &str = "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8";

    #[test]
    fn logs_tell_erc20_from_erc721_by_their_topics() {
        let amount = format!("0x{:064x}", 1_000_000u64);
        let (_, kind, ev) = decode_log(&log(&[abi::TRANSFER_TOPIC, A, B], &amount)).unwrap();
        assert_eq!(kind, TokenKind::Erc20);
        assert!(
            matches!(ev, EventKind::Transfer { amount, .. } if amount == U256::from_u128(1_000_000))
        );
        let id = format!("0x{:064x}", 7);
        let (_, kind, ev) = decode_log(&log(&[abi::TRANSFER_TOPIC, A, B, &id], "0x")).unwrap();
        assert_eq!(kind, TokenKind::Erc721);
        assert!(matches!(ev, EventKind::Transfer { amount, .. } if amount == U256::from_u128(7)));
        let (_, _, ev) = decode_log(&log(&[abi::APPROVAL_TOPIC, A, B], &amount)).unwrap();
        assert!(matches!(ev, EventKind::Approval { .. }));
        // other shapes are not token events
        assert!(decode_log(&log(&[abi::TRANSFER_TOPIC, A], &amount)).is_none());
        assert!(decode_log(&log(&[abi::TRANSFER_TOPIC, A, B], "0x")).is_none());
        assert!(decode_log(&log(&[abi::TRANSFER_TOPIC, A, B, &id], &amount)).is_none());
        assert!(decode_log(&log(
            &[
                "0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0",
                A,
                B
            ],
            &amount
        ))
        .is_none());
    }

    #[tokio::test]
    async fn data_uri_metadata_is_read_and_other_schemes_are_not_fetched() {
        let cfg = ChainApiConfig::default();
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD
            .encode(br#"{"name":"Pass #1","image":"http://127.0.0.1:1/i.svg"}"#);
        assert_eq!(
            resolve_nft_meta(&format!("data:application/json;base64,{b64}"), &cfg).await,
            NftMeta::Resolved {
                name: Some("Pass #1".into()),
                image: Some("http://127.0.0.1:1/i.svg".into())
            }
        );
        assert_eq!(
            resolve_nft_meta(
                r#"data:application/json,{"name":"X","image":"javascript:alert(1)"}"#,
                &cfg
            )
            .await,
            NftMeta::Resolved {
                name: Some("X".into()),
                image: None
            }
        );
        assert_eq!(
            resolve_nft_meta("ipfs://Qm/1", &cfg).await,
            NftMeta::Unavailable
        );
        assert_eq!(
            resolve_nft_meta("http://example.com/1", &cfg).await,
            NftMeta::Unavailable
        );
    }
}
