//! Sending a Bitcoin transfer the modal built: the wallet signs its PSBT (`signPsbt`, see
//! `transfers.rs`) without broadcasting; what it signed must be the transaction the visitor
//! approved, input for input and output for output; its witnesses are put in and the Esplora API
//! broadcasts it (`POST /tx`, the raw transaction in hex, answered with its id). It is mined when
//! `GET /tx/{id}/status` says `confirmed`.

use super::psbt::signed_transaction;
use crate::chain::base64::from_base64;
use crate::chain::family::{Call, RestCall, Transactions, WalletCall};
use crate::service::json::Value;

pub(super) struct Esplora;

/// The largest PSBT read back from a wallet (200 inputs signed are well under it).
const MAX_PSBT: usize = 200_000;

fn txid(s: &str) -> Option<String> {
    (s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
}

fn psbt(v: &Value) -> Option<Vec<u8>> {
    from_base64(v.get("psbt")?.as_str()?, MAX_PSBT)
}

impl Transactions for Esplora {
    fn send_call(&self, tx: Value) -> WalletCall {
        WalletCall { method: "signPsbt", params: tx }
    }

    /// `{txid}` (a wallet that broadcast it), or the API's answer to the broadcast: the id.
    fn sent(&self, result: &Value) -> Option<String> {
        txid(result.get("txid").and_then(Value::as_str).or(result.as_str())?)
    }

    /// `{psbt}` signed: checked against the one approved, then broadcast.
    fn relay(&self, sent: &Value, result: &Value) -> Result<Option<Call>, String> {
        if result.get("txid").is_some_and(|t| !t.is_null()) {
            return Ok(None);
        }
        let Some(signed) = psbt(result) else { return Ok(None) };
        let approved = psbt(sent).ok_or("The transaction approved is not known")?; // i18n
        let (raw, _) = signed_transaction(&signed, &approved)?;
        Ok(Some(Call::Rest(RestCall { path: "/tx".into(), body: Some(raw) })))
    }

    fn receipt_call(&self, txid: &str) -> Call {
        Call::Rest(RestCall { path: format!("/tx/{txid}/status"), body: None })
    }

    fn mined(&self, result: &Value) -> bool {
        result.get("confirmed").and_then(Value::as_bool) == Some(true)
    }

    /// Blocks come every ten minutes or so (a regtest one when it is mined).
    fn poll_ms(&self) -> u64 {
        5_000
    }
}
