//! Paying out a paid order on anvil: `eth_sendTransaction` from the provider's payout account
//! (anvil's dev accounts are unlocked) — a value transfer for the native currency, ERC-20
//! `transfer(to, amount)` for tokens — then `eth_getTransactionReceipt` until it is mined. Each
//! attempt sends with a nonce written to the store first, so that an order is paid out exactly once
//! across crashes and instances ([`super::durable`]).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::durable::{self, Attempt};
use super::orders::{Order, Status};
use super::Onramp;
use crate::chain::abi::{self, addr_hex, Addr};
use crate::chain::rpc::RpcClient;
use crate::chain::u256::U256;

/// How often the receipt is asked for.
pub const RECEIPT_POLL: Duration = Duration::from_millis(100);
/// The most a payout waits to be mined before the order fails.
pub const MINE_TIMEOUT: Duration = Duration::from_secs(60);

/// Call data of ERC-20 `transfer(to, amount)`.
pub fn transfer_data(to: &Addr, amount: u128) -> String {
    format!(
        "0xa9059cbb{:0>64}{}",
        &addr_hex(to)[2..],
        &abi::hex_lower(&U256::from_u128(amount).to_be_bytes())[2..]
    )
}

/// What the payer holds of the order's currency, in base units.
async fn holding(rpc: &RpcClient, o: &Order, payer: &Addr) -> Result<U256, String> {
    let ret: String = match o.token {
        None => rpc
            .call("eth_getBalance", json!([addr_hex(payer), "latest"]))
            .await
            .map_err(|e| e.to_string())?,
        Some(t) => rpc
            .call(
                "eth_call",
                json!([{"to": addr_hex(&t), "data": abi::balance_of_data(payer)}, "latest"]),
            )
            .await
            .map_err(|e| e.to_string())?,
    };
    if o.token.is_none() {
        return U256::from_hex(&ret).ok_or_else(|| format!("bad balance {ret:?}"));
    }
    abi::parse_hex(&ret)
        .as_deref()
        .and_then(abi::decode_u256)
        .ok_or_else(|| format!("bad balanceOf answer {ret:?}"))
}

/// Checks that the payer holds what the order needs.
async fn can_pay(rpc: &RpcClient, o: &Order, payer: &Addr) -> Result<(), String> {
    let have = holding(rpc, o, payer).await?;
    if have < U256::from_u128(o.purchase_units) {
        return Err(format!(
            "{} cannot pay out: its account {} holds {} {} on {}, the order needs {}",
            o.provider.name,
            abi::addr_checksum(payer),
            crate::chain::u256::format_units(have, o.decimals, false),
            o.symbol,
            o.network(),
            o.purchase_amount()
        ));
    }
    Ok(())
}

/// The order's tag: 16 bytes of its id's hash, appended to the payout's call data (ignored by the
/// recipient and by ERC-20 `transfer`), so that two orders paying the same amount to the same
/// address are never mistaken for each other when a payout is looked for on the chain.
pub fn order_tag(o: &Order) -> String {
    abi::hex_lower(&crate::wallet::sha256(&[b"wallet-modal on-ramp order ", o.id.as_bytes()])[..16])[2..].to_string()
}

/// The payout transaction of order `o` from `payer` (without its nonce): `to`, `value`, `data`.
pub fn payout_tx(o: &Order, payer: &Addr) -> Value {
    let tag = order_tag(o);
    match o.token {
        None => json!({
            "from": addr_hex(payer),
            "to": addr_hex(&o.destination),
            "value": U256::from_u128(o.purchase_units).to_hex_quantity(),
            "data": format!("0x{tag}"),
        }),
        Some(t) => json!({
            "from": addr_hex(payer),
            "to": addr_hex(&t),
            "value": "0x0",
            "data": format!("{}{tag}", transfer_data(&o.destination, o.purchase_units)),
        }),
    }
}

/// Sends the payout with `nonce`; `Ok(hash)` once the node accepted it.
async fn send(rpc: &RpcClient, o: &Order, payer: &Addr, nonce: u64) -> Result<String, String> {
    let mut tx = payout_tx(o, payer);
    tx["nonce"] = json!(format!("0x{nonce:x}"));
    let hash: String = rpc
        .call("eth_sendTransaction", json!([tx]))
        .await
        .map_err(|e| format!("eth_sendTransaction failed: {e}"))?;
    abi::parse_hash(&hash).ok_or_else(|| format!("bad transaction hash {hash:?}"))?;
    Ok(hash.to_ascii_lowercase())
}

/// Waits for the receipt: `Ok(())` for status 1.
async fn mined(rpc: &RpcClient, hash: &str) -> Result<(), String> {
    let wait = async {
        loop {
            match rpc
                .call::<Value>("eth_getTransactionReceipt", json!([hash]))
                .await
            {
                Ok(Value::Null) => {}
                Ok(r) => {
                    return match r.get("status").and_then(Value::as_str) {
                        Some("0x1") => Ok(()),
                        s => Err(format!("the payout transaction reverted (status {s:?})")),
                    };
                }
                // A node that stopped answering is retried until the time-out.
                Err(_) => {}
            }
            tokio::time::sleep(RECEIPT_POLL).await;
        }
    };
    tokio::time::timeout(MINE_TIMEOUT, wait)
        .await
        .map_err(|_| format!("the payout transaction was not mined within {MINE_TIMEOUT:?}"))?
}

/// Records a change of order `id` while it is being paid out (a failed write is retried by
/// whoever takes the order up; an order another process finished is left as it is).
fn update(o: &Onramp, id: &str, f: impl FnOnce(&mut Order)) {
    let _ = o.change(id, |x| {
        if x.status != Status::Processing {
            return false;
        }
        f(x);
        true
    });
}

async fn number(rpc: &RpcClient, method: &str, params: Value) -> Result<u64, String> {
    let n: String = rpc.call(method, params).await.map_err(|e| format!("{method} failed: {e}"))?;
    u64::from_str_radix(n.trim_start_matches("0x"), 16).map_err(|_| format!("{method} answered {n:?}"))
}

/// Blocks looked through for an attempt's transaction at most (a payout is mined within seconds).
const MAX_SCAN: u64 = 5_000;

/// What became of an attempt.
enum Fate {
    /// Its transaction was mined, with this hash.
    Mined(String),
    /// Its nonce was used by another transaction: it can never be mined.
    Lost,
    /// Not mined yet: it may be sent (again).
    Open,
}

async fn fate(rpc: &RpcClient, o: &Order, payer: &Addr, a: Attempt) -> Result<Fate, String> {
    let used = number(rpc, "eth_getTransactionCount", json!([addr_hex(payer), "latest"])).await?;
    if used <= a.nonce {
        return Ok(Fate::Open);
    }
    let last = number(rpc, "eth_blockNumber", json!([])).await?;
    if last.saturating_sub(a.from_block) > MAX_SCAN {
        return Err(format!("the payout's attempt is {} blocks old: too far to look for", last - a.from_block));
    }
    for n in a.from_block..=last {
        let block: Value = rpc.call("eth_getBlockByNumber", json!([format!("0x{n:x}"), true])).await.map_err(|e| format!("eth_getBlockByNumber failed: {e}"))?;
        for tx in block.get("transactions").and_then(Value::as_array).into_iter().flatten() {
            let from = tx.get("from").and_then(Value::as_str).map(str::to_ascii_lowercase);
            let nonce = tx.get("nonce").and_then(Value::as_str).and_then(|x| u64::from_str_radix(x.trim_start_matches("0x"), 16).ok());
            if from.as_deref() == Some(addr_hex(payer).to_ascii_lowercase().as_str()) && nonce == Some(a.nonce) {
                return Ok(match (durable::is_payout(tx, o, payer, a.nonce), tx.get("hash").and_then(Value::as_str)) {
                    (true, Some(h)) => Fate::Mined(h.to_ascii_lowercase()),
                    _ => Fate::Lost,
                });
            }
        }
    }
    Err(format!("the payer's nonce {} was used but no block since {} holds it", a.nonce, a.from_block))
}

/// Sends order `id`'s payout at most once: the transaction's hash once a node accepted (or had
/// mined) it.
async fn send_once(o: &Onramp, rpc: &RpcClient, id: &str, payer: &Addr) -> Result<String, String> {
    for round in 0..8 {
        if round > 0 {
            // Another sender took the nonce: a moment before the next one (other processes).
            tokio::time::sleep(Duration::from_millis(50 * round)).await;
        }
        let order = o.order(id).ok_or("the order is gone")?;
        let lock = o.payer_locks.lock().unwrap().entry((order.chain_id, *payer)).or_default().clone();
        let _turn = lock.lock().await;
        if let Some(a) = order.attempt {
            match fate(rpc, &order, payer, a).await? {
                Fate::Mined(hash) => return Ok(hash),
                Fate::Open => match send(rpc, &order, payer, a.nonce).await {
                    Ok(hash) => return Ok(hash),
                    // Sent meanwhile (by another process, or before a lost answer), or the nonce
                    // went to another transaction: the attempt's fate again.
                    Err(_) if !matches!(fate(rpc, &order, payer, a).await?, Fate::Open) => continue,
                    Err(e) => return Err(e),
                },
                Fate::Lost => {}
            }
        }
        // A new attempt, written before it is sent.
        can_pay(rpc, &order, payer).await?;
        let from_block = number(rpc, "eth_blockNumber", json!([])).await?;
        let nonce = number(rpc, "eth_getTransactionCount", json!([addr_hex(payer), "pending"])).await?;
        let attempt = Attempt { nonce, from_block };
        let kept = o.change(id, |x| {
            if x.attempt != order.attempt || x.tx_hash.is_some() {
                return false;
            }
            x.attempt = Some(attempt);
            true
        });
        match kept {
            Ok(Some(_)) => {}
            // Another process made an attempt meanwhile: look at it.
            Ok(None) => continue,
            Err(e) => return Err(format!("the payout could not be recorded: {e}")),
        }
        crate::failpoint("payout-attempt-written");
        match send(rpc, &order, payer, nonce).await {
            Ok(hash) => {
                crate::failpoint("payout-sent");
                return Ok(hash);
            }
            Err(_) if !matches!(fate(rpc, &order, payer, attempt).await?, Fate::Open) => continue,
            Err(e) => return Err(e),
        }
    }
    Err("the payer's nonces kept being taken by other transactions".into())
}

/// Forgets that this process pays order `id` out, however [`run`] ends.
struct Running<'a>(&'a Onramp, String);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.running.lock().unwrap().remove(&self.1);
    }
}

/// Pays out order `id` (already `PROCESSING`, with its payer set) and records the outcome: once,
/// however often it is called, by this process or another.
pub async fn run(o: Arc<Onramp>, id: String) {
    if !o.running.lock().unwrap().insert(id.clone()) {
        return;
    }
    let _running = Running(&o, id.clone());
    let Some(order) = o.order(&id) else { return };
    if order.status != Status::Processing {
        return;
    }
    let Some(payer) = order.payer else { return };
    let rpc = match o
        .app
        .chain_api
        .chain(order.chain_id)
        .ok_or_else(|| format!("{} is not configured", order.network()))
        .and_then(|c| c.client().cloned())
    {
        Ok(r) => r,
        Err(e) => {
            update(&o, &id, |x| {
                x.status = Status::Failed;
                x.error = Some(e);
            });
            return;
        }
    };
    let hash = match order.tx_hash.clone() {
        Some(h) => h,
        None => match send_once(&o, &rpc, &id, &payer).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!("[onramp] order {id}: {e}");
                update(&o, &id, |x| {
                    x.status = Status::Failed;
                    x.error = Some(e);
                });
                return;
            }
        },
    };
    update(&o, &id, |x| x.tx_hash = Some(hash.clone()));
    let outcome = mined(&rpc, &hash).await;
    update(&o, &id, |x| match outcome {
        Ok(()) => x.status = Status::Completed,
        Err(e) => {
            x.status = Status::Failed;
            x.error = Some(e);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_call_data() {
        let to = abi::parse_addr("0x70997970C51812dc3A010C7d01b50e0d17dc79C8").unwrap();
        assert_eq!(
            transfer_data(&to, 99_000_000),
            "0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8\
             0000000000000000000000000000000000000000000000000000000005e69ec0"
        );
    }
}
