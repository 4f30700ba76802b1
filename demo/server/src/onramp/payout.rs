//! Paying out a paid order on anvil: `eth_sendTransaction` from the provider's payout account
//! (anvil's dev accounts are unlocked) — a value transfer for the native currency, ERC-20
//! `transfer(to, amount)` for tokens — then `eth_getTransactionReceipt` until it is mined.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

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

/// Sends the payout; `Ok(hash)` once the node accepted it.
async fn send(rpc: &RpcClient, o: &Order, payer: &Addr) -> Result<String, String> {
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
    let tx = match o.token {
        None => json!({
            "from": addr_hex(payer),
            "to": addr_hex(&o.destination),
            "value": U256::from_u128(o.purchase_units).to_hex_quantity(),
        }),
        Some(t) => json!({
            "from": addr_hex(payer),
            "to": addr_hex(&t),
            "value": "0x0",
            "data": transfer_data(&o.destination, o.purchase_units),
        }),
    };
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

fn update(o: &Onramp, id: &str, f: impl FnOnce(&mut Order)) {
    if let Some(order) = o.orders.lock().unwrap().get_mut(id) {
        f(order);
        order.updated_ms = super::now_ms();
    }
}

/// Pays out order `id` (already `PROCESSING`, with its payer set) and records the outcome.
pub async fn run(o: Arc<Onramp>, id: String) {
    let Some(order) = o.orders.lock().unwrap().get(&id).cloned() else {
        return;
    };
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
    let hash = match send(&rpc, &order, &payer).await {
        Ok(h) => h,
        Err(e) => {
            eprintln!("[onramp] order {id}: {e}");
            update(&o, &id, |x| {
                x.status = Status::Failed;
                x.error = Some(e);
            });
            return;
        }
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
