//! The embedded wallet's RPC allow-list for EVM methods (spec §6), which wallets prompt for, and
//! `wallet_sendCalls` batches (EIP-5792).

use crate::service::entities::BatchCalls;
use crate::service::errors::WmError;
use crate::service::json::Value;

/// How the embedded wallet treats an RPC method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RpcPermission {
    /// Forwarded without approval; not aborted when the user rejects.
    Safe,
    /// Opens ApproveTransaction.
    NeedsApproval,
    /// Rejected ('RPC method not allowed').
    Disallowed,
}

/// Methods the embedded wallet serves without approval.
pub const SAFE_RPC_METHODS: &[&str] = &[
    "eth_accounts",
    "eth_blockNumber",
    "eth_call",
    "eth_chainId",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getAccount",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getBlockReceipts",
    "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber",
    "eth_getCode",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_getLogs",
    "eth_getProof",
    "eth_getStorageAt",
    "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber",
    "eth_maxPriorityFeePerGas",
    "eth_newBlockFilter",
    "eth_newFilter",
    "eth_newPendingTransactionFilter",
    "eth_sendRawTransaction",
    "eth_syncing",
    "eth_uninstallFilter",
    "wallet_getCapabilities",
    "wallet_getCallsStatus",
    "wallet_getAssets",
    "eth_getUserOperationReceipt",
    "eth_getUserOperationByHash",
    "eth_estimateUserOperationGas",
    "eth_supportedEntryPoints",
];

/// Methods that need the user's approval.
pub const APPROVAL_RPC_METHODS: &[&str] = &[
    "personal_sign",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "solana_signMessage",
    "solana_signTransaction",
    "solana_signAllTransactions",
    "solana_signAndSendTransaction",
    "wallet_sendCalls",
    "wallet_grantPermissions",
    "wallet_revokePermissions",
    "eth_sendUserOperation",
];

/// Whether a wallet (any wallet, not only the embedded one) asks the visitor before answering
/// `method`: the approval methods above, plus connecting, chain changes, assets and the older
/// signing methods that injected wallets still offer.
pub fn wallet_prompts(method: &str) -> bool {
    APPROVAL_RPC_METHODS.contains(&method)
        || matches!(
            method,
            "eth_requestAccounts"
                | "wallet_requestPermissions"
                | "wallet_switchEthereumChain"
                | "wallet_addEthereumChain"
                | "wallet_watchAsset"
                | "eth_sign"
                | "eth_signTypedData"
                | "eth_signTypedData_v3"
                | "eth_signTransaction"
        )
}

/// Permission of an embedded-wallet RPC method (exact, case-sensitive names).
pub fn rpc_permission(method: &str) -> RpcPermission {
    if SAFE_RPC_METHODS.contains(&method) {
        RpcPermission::Safe
    } else if APPROVAL_RPC_METHODS.contains(&method) {
        RpcPermission::NeedsApproval
    } else {
        RpcPermission::Disallowed
    }
}

/// A request not in the allowed list is rejected with `RpcMethodNotAllowed`.
pub fn check_rpc_method(method: &str) -> Result<RpcPermission, WmError> {
    match rpc_permission(method) {
        RpcPermission::Disallowed => Err(WmError::RpcMethodNotAllowed),
        p => Ok(p),
    }
}

/// Every call's `to` starts with `0x`, and its `data`, when present, too.
pub fn validate_batch_calls(batch: &BatchCalls) -> Result<(), WmError> {
    for c in &batch.calls {
        if !c.to.starts_with("0x") {
            return Err(WmError::InvalidBatchCall);
        }
        if let Some(d) = &c.data {
            if !d.starts_with("0x") {
                return Err(WmError::InvalidBatchCall);
            }
        }
    }
    Ok(())
}

/// Parse and validate `wallet_sendCalls` params from raw JSON (an object, or `[object]`).
pub fn parse_batch_calls(v: &Value) -> Result<BatchCalls, WmError> {
    let obj = match v {
        Value::Array(a) => a.first().ok_or(WmError::InvalidBatchCall)?,
        other => other,
    };
    let batch: BatchCalls = crate::host::json::FromJson::from_json(obj.clone()).map_err(|_| WmError::InvalidBatchCall)?;
    validate_batch_calls(&batch)?;
    Ok(batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::service::entities::BatchCall;

    fn batch(to: &str, data: Option<&str>) -> BatchCalls {
        BatchCalls { chain_id: "0x1".into(), from: "0x1".into(), version: "1.0".into(), capabilities: None,
            calls: vec![BatchCall { to: to.into(), data: data.map(str::to_string), value: None }] }
    }

    #[test]
    fn batch_calls_to_and_data_must_start_with_0x() {
        assert!(validate_batch_calls(&batch("0xabc", Some("0x1234"))).is_ok());
        assert!(validate_batch_calls(&batch("0xabc", None)).is_ok());
        assert_eq!(validate_batch_calls(&batch("abc", Some("0x"))), Err(WmError::InvalidBatchCall));
        assert_eq!(validate_batch_calls(&batch("0xabc", Some("1234"))), Err(WmError::InvalidBatchCall));
        assert!(parse_batch_calls(&json!([{"chainId": "0x1", "from": "0x1", "version": "1.0", "calls": [{"to": "0x2", "data": "0x"}]}])).is_ok());
        assert_eq!(parse_batch_calls(&json!({"calls": "x"})).unwrap_err(), WmError::InvalidBatchCall);
        assert_eq!(parse_batch_calls(&json!({"chainId": "0x1", "from": "0x1", "version": "1", "calls": [{"to": "2"}]})).unwrap_err(), WmError::InvalidBatchCall);
    }

    #[test]
    fn embedded_wallet_rpc_allow_list() {
        for m in ["eth_call", "eth_getBalance", "eth_getLogs", "eth_chainId", "eth_estimateGas",
            "eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getTransactionCount", "eth_newFilter",
            "eth_getFilterChanges", "eth_uninstallFilter", "eth_sendRawTransaction", "wallet_getCapabilities",
            "wallet_getCallsStatus", "wallet_getAssets", "eth_getUserOperationReceipt"] {
            assert_eq!(rpc_permission(m), RpcPermission::Safe, "{m}");
        }
        for m in ["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction", "solana_signMessage",
            "solana_signTransaction", "solana_signAllTransactions", "solana_signAndSendTransaction",
            "wallet_sendCalls", "wallet_grantPermissions", "wallet_revokePermissions", "eth_sendUserOperation"] {
            assert_eq!(rpc_permission(m), RpcPermission::NeedsApproval, "{m}");
        }
        for m in ["eth_sign", "eth_signTypedData", "wallet_addEthereumChain", "", "ETH_CALL", "eth_call "] {
            assert_eq!(rpc_permission(m), RpcPermission::Disallowed, "{m}");
        }
    }

    #[test]
    fn wallet_prompts_for_signing_sending_and_chain_changes_but_not_for_reads() {
        for m in ["personal_sign", "eth_sendTransaction", "eth_signTypedData_v4", "eth_requestAccounts", "wallet_switchEthereumChain", "eth_sign"] {
            assert!(wallet_prompts(m), "{m}");
        }
        for m in ["eth_call", "eth_chainId", "eth_accounts", "eth_getBalance", "eth_sendRawTransaction", "", "PERSONAL_SIGN"] {
            assert!(!wallet_prompts(m), "{m}");
        }
    }

    #[test]
    fn rpc_request_not_in_allowed_list_is_rejected() {
        assert_eq!(check_rpc_method("eth_sign"), Err(WmError::RpcMethodNotAllowed));
        assert_eq!(check_rpc_method("personal_sign"), Ok(RpcPermission::NeedsApproval));
    }

    proptest::proptest! {
        #[test]
        fn the_allow_list_and_batch_reader_never_panic(s in ".*") {
            let _ = rpc_permission(&s);
            if let Ok(v) = crate::service::json::parse(&s) {
                let _ = parse_batch_calls(&v);
            }
        }
    }
}
