//! Sending a transaction the modal built (a transfer, a swap, an approval) through the connected
//! EVM wallet: `eth_sendTransaction`, then `eth_getTransactionReceipt` until mined.

use super::host_requests::tx_hash;
use crate::chain::family::{Call, Transactions, WalletCall};
use crate::service::json::Value;

pub(super) struct Evm;

impl Transactions for Evm {
    fn send_call(&self, tx: Value) -> WalletCall {
        WalletCall::new("eth_sendTransaction", vec![tx])
    }

    fn sent(&self, result: &Value) -> Option<String> {
        tx_hash(result.as_str()?)
    }

    fn receipt_call(&self, hash: &str) -> Call {
        Call::Wallet(WalletCall::new("eth_getTransactionReceipt", vec![hash.into()]))
    }

    /// A receipt object (`null` while pending).
    fn mined(&self, result: &Value) -> bool {
        matches!(result, Value::Object(_))
    }

    fn failed(&self, result: &Value) -> bool {
        result.get("status").and_then(Value::as_str) == Some("0x0")
    }
}
