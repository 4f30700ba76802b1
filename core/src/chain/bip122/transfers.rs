//! The Send form on Bitcoin: BTC from the connected payment address (native segwit or taproot) to
//! any address of the same network. What the transfer spends is read with the fee: the payer's
//! unspent outputs (`GET /address/{a}/utxo`) and the network's fee rates (`GET /fee-estimates`,
//! the two-block target); the plan (`psbt::plan`: largest outputs first, change back to the payer
//! unless dust) gives the fee the preview shows, and its unsigned PSBT is what the wallet signs.

use super::address::{parse, Payee};
use super::psbt::{check_psbt, plan, unsigned_psbt, Plan, Utxo};
use crate::chain::base64::to_base64;
use crate::chain::family::{Call, RestCall, Transfers};
use crate::service::errors::WmError;
use crate::service::json::{obj, Value};

pub(super) struct Esplora;

/// At most this many of the payer's outputs are read (Esplora lists 500 at most anyway).
const MAX_UTXOS: usize = 1_000;
/// The fee-estimate targets (blocks) taken, the first the API has.
const TARGETS: [&str; 5] = ["2", "3", "1", "6", "144"];

fn get(path: String) -> Call {
    Call::Rest(RestCall { path, body: None })
}

fn invalid(message: &str) -> WmError {
    WmError::Provider { code: -32602, message: message.into() }
}

/// The payer's script: a native segwit (P2WPKH) or taproot address, whose inputs the plan sizes.
fn payer_script(from: &str) -> Result<Vec<u8>, WmError> {
    let a = parse(from).map_err(invalid)?;
    match &a.payee {
        Payee::Witness { version: 0, program } if program.len() == 20 => Ok(a.script()),
        Payee::Witness { version: 1, program } if program.len() == 32 => Ok(a.script()),
        _ => Err(invalid("Sending is supported from a native segwit (bc1q…) or taproot (bc1p…) payment address only")), // i18n
    }
}

/// The payer's unspent outputs, checked (`None` when the answer is not a list of them).
pub fn utxos(answer: &Value) -> Option<Vec<Utxo>> {
    let list = answer.as_array()?;
    list.iter()
        .take(MAX_UTXOS)
        .map(|u| {
            let txid = u.get("txid")?.as_str().filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))?;
            let vout = u32::try_from(u.get("vout")?.as_u64()?).ok()?;
            Some(Utxo { txid: txid.to_ascii_lowercase(), vout, value: u.get("value")?.as_u64()? })
        })
        .collect()
}

/// The fee rate (sat/vB) of a fee-estimates answer: the first of [`TARGETS`] it has, at least 1.
pub fn fee_rate(answer: &Value) -> Option<f64> {
    let rate = TARGETS.iter().find_map(|t| answer.get(*t)?.as_f64())?;
    (rate.is_finite() && rate >= 0.0).then_some(rate.max(1.0))
}

/// What `tx` spends and pays, from the fee calls' answers.
fn planned(tx: &Value, answers: &[Value]) -> Result<(Plan, Vec<u8>, Vec<u8>, u64), String> {
    let field = |k: &str| tx.get(k).and_then(Value::as_str).unwrap_or_default();
    let from = payer_script(field("from")).map_err(|e| e.message())?;
    let to = parse(field("to")).map_err(str::to_string)?.script();
    let amount = field("amount").parse::<u64>();
    let amount = amount.map_err(|_| "The amount is not a whole number of satoshis")?; // i18n
    let utxos = answers.first().and_then(utxos).ok_or("The network did not list the outputs your address holds: try again")?; // i18n
    let rate = answers.get(1).and_then(fee_rate).ok_or("The network did not give a fee rate: try again")?; // i18n
    let p = plan(&utxos, &from, &to, amount, rate)?;
    Ok((p, from, to, amount))
}

impl Transfers for Esplora {
    fn receiver_hint(&self) -> &'static str {
        "Bitcoin address" // i18n
    }

    fn check_receiver(&self, to: &str) -> Result<(), String> {
        parse(to).map(|_| ()).map_err(|why| format!("The receiver address is not a Bitcoin address: {why}")) // i18n
    }

    /// `{from, to, amount}` (satoshis): BTC only, between addresses of one network.
    fn transfer(&self, from: &str, to: &str, token: Option<&str>, value: &str) -> Result<Value, WmError> {
        if token.is_some() {
            return Err(invalid("Bitcoin transfers move BTC only")); // i18n
        }
        payer_script(from)?;
        let (payer, receiver) = (parse(from).map_err(invalid)?, parse(to).map_err(invalid)?);
        if !receiver.on(payer.net) {
            return Err(invalid("The receiver's address is for another Bitcoin network than yours")); // i18n
        }
        let amount: u64 = value.parse().map_err(|_| WmError::InvalidValue { value: value.to_string() })?;
        Ok(obj(vec![("from", from.into()), ("to", to.into()), ("amount", amount.to_string().into())]))
    }

    fn fee_calls(&self, tx: &Value) -> Vec<Call> {
        let from = tx.get("from").and_then(Value::as_str).unwrap_or_default();
        vec![get(format!("/address/{}/utxo", crate::service::url::segment(from))), get("/fee-estimates".into())]
    }

    /// The plan's fee: the transaction's virtual size at the rate (and change too small to
    /// keep).
    fn fee(&self, tx: &Value, answers: &[Value]) -> Option<String> {
        planned(tx, answers).ok().map(|(p, ..)| p.fee.to_string())
    }

    /// `{account, psbt, signInputs, broadcast}`: the unsigned PSBT (base64) and the inputs the
    /// payer signs — WalletConnect's `signPsbt` request, which the shell carries to a
    /// sats-connect wallet's `signPsbt` and a wallet-standard one's `bitcoin:signTransaction`.
    fn finish(&self, tx: Value, answers: &[Value]) -> Result<Value, String> {
        let (p, from, to, amount) = planned(&tx, answers)?;
        let psbt = unsigned_psbt(&p, &from)?;
        check_psbt(&psbt, &from, &to, amount)?;
        let account = tx["from"].as_str().unwrap_or_default();
        let inputs = (0..p.inputs.len()).map(|i| obj(vec![("address", account.into()), ("index", (i as u64).into())])).collect();
        Ok(obj(vec![("account", account.into()), ("psbt", to_base64(&psbt).into()), ("signInputs", Value::Array(inputs)), ("broadcast", false.into())]))
    }
}
