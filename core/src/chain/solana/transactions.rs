//! Sending a transaction the modal built through the connected Solana wallet
//! (`solana_signAndSendTransaction {transaction}`, the wire transaction in base64: the method of
//! WalletConnect's Solana RPC, which the embedded wallet speaks too, and which the shell carries to
//! a wallet-standard wallet's `solana:signAndSendTransaction`), and following its signature on the
//! node (`getSignatureStatuses`: a wallet-standard wallet reads nothing from the chain).

use super::message::from_base64;
use crate::chain::address::encode_base58;
use crate::chain::family::{Call, Transactions, WalletCall};
use crate::service::json::{obj, Value};

pub(super) struct Standard;

impl Transactions for Standard {
    /// `tx` is `{transaction: <base64>}` (see `Transfers::finish`).
    fn send_call(&self, tx: Value) -> WalletCall {
        WalletCall::new("solana_signAndSendTransaction", vec![tx])
    }

    /// `{signature}`: 64 bytes in base64 (as the shell reads the standard's answer; it always
    /// ends in `==`) or in base58 (as WalletConnect wallets answer); or the node's answer to a
    /// relayed transaction (the signature in base58).
    fn sent(&self, result: &Value) -> Option<String> {
        let s = result.get("signature").and_then(Value::as_str).or(result.as_str())?;
        let bytes = match s.ends_with("==") {
            true => from_base64(s, 64)?,
            false if s.len() <= 88 => crate::chain::address::decode_base58(s).ok()?,
            false => return None,
        };
        (bytes.len() == 64 && bytes.iter().any(|x| *x != 0)).then(|| encode_base58(&bytes))
    }

    /// `{transaction}` without a signature: a wallet that only signs (`solana:signTransaction`)
    /// answered the signed transaction; the node sends it (preflight at `confirmed`).
    fn relay(&self, _sent: &Value, result: &Value) -> Result<Option<Call>, String> {
        if result.get("signature").is_some() {
            return Ok(None);
        }
        let Some(tx) = result.get("transaction").and_then(Value::as_str).filter(|t| from_base64(t, 1232).is_some()) else { return Ok(None) };
        Ok(Some(Call::Node(WalletCall::new(
            "sendTransaction",
            vec![tx.into(), obj(vec![("encoding", "base64".into()), ("preflightCommitment", "confirmed".into())])],
        ))))
    }

    fn receipt_call(&self, signature: &str) -> Call {
        Call::Node(WalletCall::new(
            "getSignatureStatuses",
            vec![Value::Array(vec![signature.into()]), obj(vec![("searchTransactionHistory", true.into())])],
        ))
    }

    /// Confirmed or finalized (failed or not: it landed).
    fn mined(&self, result: &Value) -> bool {
        let s = result.get("value").and_then(|l| l.get(0)).and_then(|s| s.get("confirmationStatus")).and_then(Value::as_str);
        matches!(s, Some("confirmed" | "finalized"))
    }

    fn failed(&self, result: &Value) -> bool {
        result.get("value").and_then(|l| l.get(0)).and_then(|s| s.get("err")).is_some_and(|e| !e.is_null())
    }

    /// Slots are 400 ms; a transaction is confirmed in about one.
    fn poll_ms(&self) -> u64 {
        400
    }

    fn explorer_tx(&self, explorer: &str, hash: &str) -> String {
        format!("{}/tx/{hash}", explorer.trim_end_matches('/'))
    }
}
