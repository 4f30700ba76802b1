//! The send slice (lazily loaded with the account module): the Send form — a token among those
//! held, an amount (with Max), a receiver (EIP-55 checked) — its preview with the estimated network
//! fee, and the transfer through the connected wallet (`account::send` builds it: native value, or
//! ERC-20 `transfer` call data). While the wallet prompts, the engine says "Approve in your wallet"
//! and watches the transaction until mined (it is handed the request like one of the host's); once
//! sent the form resets, the Account view says so, and when mined the lists are read again.

use serde_json::{json, Value};

use crate::account::send::{parse_send_value, SendAction, SendFlow, SendForm, SendToken};
use crate::chain::address::is_evm_address;
use crate::chain::adapter::WalletCall;
use crate::chain::format::format_native_balance_en_us;
use crate::account::host_requests::{in_wallet, wallet_answered};
use crate::chain::units::{base_units_lt, format_units, parse_units};
use crate::account::pending::PendingWatcher;
use crate::engine::{Ctx, Note, Outcome, Requests, Slice, SliceId};
use crate::service::entities::ChainNamespace;
use crate::service::errors::WmError;
use crate::service::json::obj;

/// A sent transaction's receipt is asked for this often until it is mined (through the wallet):
/// the modal just sent it and the visitor waits for it, so not the background default of 30 s.
/// Watching follows the spec's pending-transaction rule (§4, §9, `account::pending`): it stops once
/// 99 polls were made (about 2.5 minutes); the Account view then reads the account again anyway.
pub const RECEIPT_POLL_MS: u64 = 1_500;
const TIMER_RECEIPT: &str = "account-receipt";

/// A token the account can send, as the portfolio read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sendable {
    pub name: String,
    pub symbol: String,
    /// Contract address (`0x…`); `None` for the native currency.
    pub address: Option<String>,
    pub decimals: u32,
    /// Balance as a decimal (`"1234.5"`).
    pub balance: String,
}

#[derive(Clone, Debug)]
pub enum SendEvent {
    /// The Send screen opens with the tokens held.
    Open { tokens: Vec<Sendable> },
    SetToken { index: usize },
    SetAmount(String),
    SetReceiver(String),
    Max,
    Preview,
    /// Back from the preview to the form.
    Edit,
    Confirm,
    Close,
}

#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Editing,
    /// The preview, with the fee once estimated (`Some(Err)` when the estimate failed).
    Preview { gas: Option<String>, price: Option<String>, failed: bool },
    Sending,
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Gas,
    Price,
    Send,
    Receipt(String),
}

#[derive(Default)]
pub struct SendSlice {
    tokens: Vec<Sendable>,
    token: Option<usize>,
    amount: String,
    receiver: String,
    stage: Option<Stage>,
    error: Option<String>,
    /// The last transaction sent, until it is mined or watching stops.
    sent: Option<String>,
    /// Its receipt polls (the spec's pending-transaction watcher: at most 99).
    watch: PendingWatcher,
    requests: Requests<Asked>,
}

/// A base-units integer as a JSON-RPC quantity (`0x…`), with `account::send`'s conversion.
fn hex_quantity(decimal: &str) -> String {
    format!("0x{}", crate::account::send::decimal_to_hex(decimal).unwrap_or_else(|| "0".into()))
}

impl Slice for SendSlice {
    type Event = SendEvent;

    fn handle(&mut self, event: SendEvent, ctx: &mut Ctx) {
        match event {
            SendEvent::Open { tokens } => {
                self.tokens = tokens;
                self.token = self.token.filter(|i| *i < self.tokens.len()).or((!self.tokens.is_empty()).then_some(0));
                self.stage = Some(Stage::Editing);
                self.error = None;
            }
            SendEvent::SetToken { index } if index < self.tokens.len() => self.token = Some(index),
            SendEvent::SetToken { .. } => {}
            SendEvent::SetAmount(a) => self.amount = a.chars().take(80).collect(),
            SendEvent::SetReceiver(r) => self.receiver = r.trim().chars().take(80).collect(),
            SendEvent::Max => {
                if let Some(t) = self.token.and_then(|i| self.tokens.get(i)) {
                    self.amount = t.balance.clone();
                }
            }
            SendEvent::Preview => self.preview(ctx),
            SendEvent::Edit if self.stage != Some(Stage::Sending) => self.stage = Some(Stage::Editing),
            SendEvent::Edit => {}
            SendEvent::Confirm => self.confirm(ctx),
            SendEvent::Close if self.stage != Some(Stage::Sending) => self.stage = None,
            SendEvent::Close => {}
        }
    }

    fn on_note(&mut self, note: &Note, _ctx: &mut Ctx) {
        if matches!(note, Note::Disconnected | Note::AccountsChanged | Note::ChainChanged { .. }) {
            *self = SendSlice::default();
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match (asked, &mut self.stage) {
            (Asked::Gas, Some(Stage::Preview { gas, failed, .. })) => match outcome.ok().and_then(|v| v.as_str().map(str::to_string)) {
                Some(g) => *gas = Some(g),
                None => *failed = true,
            },
            (Asked::Price, Some(Stage::Preview { price, failed, .. })) => match outcome.ok().and_then(|v| v.as_str().map(str::to_string)) {
                Some(p) => *price = Some(p),
                None => *failed = true,
            },
            (Asked::Send, _) => self.sent(ctx, id, outcome),
            (Asked::Receipt(hash), _) => {
                let mined = outcome.is_ok_and(|v| matches!(v, crate::service::json::Value::Object(_)));
                if self.sent.as_deref() != Some(hash.as_str()) {
                    return; // another transaction was sent since
                }
                if mined || self.watch.stopped() {
                    // Mined, or no longer watched (99 polls): the balances and the history are
                    // read again.
                    self.watch.resolved(std::slice::from_ref(&hash));
                    self.sent = None;
                    ctx.note(Note::AccountsChanged);
                } else {
                    self.arm(ctx);
                }
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        if id != TIMER_RECEIPT {
            return;
        }
        let Some(hash) = self.sent.clone() else { return };
        if self.watch.tick(ctx.now).is_none() {
            // Early by a clock tick: wait for the rest.
            self.arm(ctx);
            return;
        }
        let call = WalletCall { method: "eth_getTransactionReceipt", params: crate::service::json::Value::Array(vec![hash.as_str().into()]) };
        if let Some(rid) = self.wallet(ctx, call) {
            self.requests.insert(rid, Asked::Receipt(hash));
        }
    }
}

impl SendSlice {
    /// The receipt timer, for the watcher's next poll.
    fn arm(&self, ctx: &mut Ctx) {
        if let Some(due) = self.watch.deadline() {
            ctx.timer(SliceId::Send, TIMER_RECEIPT, due.saturating_sub(ctx.now).max(1));
        }
    }

    fn from(ctx: &Ctx) -> Option<(String, String, String)> {
        ctx.account().map(|(ns, address, _, connector)| (ns.to_string(), address.to_string(), connector.to_string()))
    }

    fn wallet(&self, ctx: &mut Ctx, call: WalletCall) -> Option<u64> {
        let (_, _, connector) = Self::from(ctx)?;
        Some(ctx.wallet_request(SliceId::Send, &connector, call))
    }

    /// The transfer the form describes, or why not (the spec's messages first, then EIP-55 and
    /// the balance).
    fn transfer(&self, ctx: &Ctx) -> Result<(Sendable, String, String, Option<String>), String> {
        let namespace = ChainNamespace::parse(ctx.active_namespace()).ok_or_else(|| WmError::UnsupportedChain.message())?;
        let token = self.token.and_then(|i| self.tokens.get(i));
        let form = SendForm {
            token: token.map(|t| SendToken { symbol: t.symbol.clone(), address: t.address.clone(), decimals: t.decimals }),
            amount: Some(self.amount.clone()),
            receiver_address: Some(self.receiver.clone()),
            receiver_profile_name: None,
        };
        let mut flow = SendFlow { form, ..SendFlow::default() };
        let mut request = None;
        for action in flow.submit(namespace) {
            match action {
                SendAction::ShowError { error } => return Err(error.message()),
                SendAction::SendTransfer { request: r } => request = Some(r),
                _ => {}
            }
        }
        let token = token.cloned().ok_or_else(|| WmError::SendTokenRequired.message())?;
        if !is_evm_address(&self.receiver, false) || !self.receiver.starts_with("0x") {
            return Err("The receiver address is not an address (0x and 40 hex digits)".into());
        }
        if !is_evm_address(&self.receiver, true) {
            return Err("The receiver address has a wrong checksum (EIP-55): check it, or paste it in lower case".into());
        }
        let value = parse_units(&parse_send_value(&self.amount), token.decimals).map_err(|e| e.to_string())?;
        let balance = parse_units(&token.balance, token.decimals).unwrap_or_default();
        if base_units_lt(&balance, &value) {
            return Err(format!("Insufficient {} balance", token.symbol));
        }
        let data = request.and_then(|r| r.data);
        Ok((token, self.receiver.clone(), value, data))
    }

    /// The eth_sendTransaction parameters of the transfer.
    fn tx(&self, ctx: &Ctx) -> Result<crate::service::json::Value, String> {
        let (_, from, _) = Self::from(ctx).ok_or("Not connected")?;
        let (token, to, value, data) = self.transfer(ctx)?;
        Ok(match (&token.address, data) {
            (Some(contract), Some(data)) => obj(vec![("from", from.into()), ("to", contract.as_str().into()), ("data", data.into())]),
            _ => obj(vec![("from", from.into()), ("to", to.into()), ("value", hex_quantity(&value).into())]),
        })
    }

    fn preview(&mut self, ctx: &mut Ctx) {
        let tx = match self.tx(ctx) {
            Ok(tx) => tx,
            Err(e) => return self.error = Some(e),
        };
        self.error = None;
        self.stage = Some(Stage::Preview { gas: None, price: None, failed: false });
        let gas = WalletCall { method: "eth_estimateGas", params: crate::service::json::Value::Array(vec![tx]) };
        let price = WalletCall { method: "eth_gasPrice", params: crate::service::json::Value::Array(Vec::new()) };
        for (call, asked) in [(gas, Asked::Gas), (price, Asked::Price)] {
            if let Some(id) = self.wallet(ctx, call) {
                self.requests.insert(id, asked);
            }
        }
    }

    fn confirm(&mut self, ctx: &mut Ctx) {
        if !matches!(self.stage, Some(Stage::Preview { .. })) {
            return;
        }
        let tx = match self.tx(ctx) {
            Ok(tx) => tx,
            Err(e) => {
                self.stage = Some(Stage::Editing);
                return self.error = Some(e);
            }
        };
        let call = WalletCall { method: "eth_sendTransaction", params: crate::service::json::Value::Array(vec![tx]) };
        let Some(id) = self.wallet(ctx, call) else { return };
        self.requests.insert(id, Asked::Send);
        self.stage = Some(Stage::Sending);
        // The engine says "Approve in your wallet" meanwhile, and watches the transaction.
        ctx.push(in_wallet(id));
    }

    fn sent(&mut self, ctx: &mut Ctx, id: u64, outcome: Outcome) {
        let (hash, told) = wallet_answered(id, &outcome);
        ctx.push(told);
        match (hash, outcome) {
            (Some(hash), _) => {
                let mut watch = PendingWatcher::new(true, RECEIPT_POLL_MS);
                watch.watch(&hash, ctx.now);
                *self = SendSlice { sent: Some(hash), watch, ..SendSlice::default() };
                self.arm(ctx);
            }
            (None, Err(e)) => {
                self.stage = Some(Stage::Editing);
                self.error = Some(e.message());
            }
            (None, Ok(_)) => {
                self.stage = Some(Stage::Editing);
                self.error = Some("The wallet did not return a transaction hash".into());
            }
        }
    }

    /// The transaction last sent and not yet mined (the Account view says it was sent).
    pub fn pending(&self) -> Option<&str> {
        self.sent.as_deref()
    }

    /// The tokens held changed while the form shows (they were still loading when it opened, or a
    /// transfer mined): the list follows, the chosen token stays chosen.
    pub fn refresh_tokens(&mut self, tokens: Vec<Sendable>) {
        if self.stage.is_none() || tokens == self.tokens {
            return;
        }
        let chosen = self.token.and_then(|i| self.tokens.get(i)).map(|t| (t.symbol.clone(), t.address.clone()));
        self.token = match chosen {
            Some((symbol, address)) => tokens.iter().position(|t| t.symbol == symbol && t.address == address),
            None => None,
        }
        .or((!tokens.is_empty()).then_some(0));
        self.tokens = tokens;
    }

    /// Whether the preview shows (back returns to the form).
    pub fn previewing(&self) -> bool {
        matches!(self.stage, Some(Stage::Preview { .. }))
    }

    /// Whether the Send screen shows (the module's router asks).
    pub fn open(&self) -> bool {
        self.stage.is_some()
    }

    /// The Send screen's part of the snapshot.
    pub fn view(&self, ctx: &Ctx) -> Value {
        let Some(stage) = &self.stage else { return Value::Null };
        let native = ctx.active_caip_network().and_then(|n| ctx.network(&n).map(|n| (n.native_currency.symbol.clone(), n.native_currency.decimals)));
        let preview = match stage {
            Stage::Preview { gas, price, failed } => {
                let fee = gas.as_deref().zip(price.as_deref()).and_then(|(g, p)| {
                    let g = crate::account::balance::hex_quantity_to_decimal(g)?;
                    let p = crate::account::balance::hex_quantity_to_decimal(p)?;
                    let wei = multiply(&g, &p);
                    let (symbol, decimals) = native.clone()?;
                    // Fees are small: the exact amount, up to 8 decimals.
                    let exact = format_units(&wei, decimals).ok()?;
                    let shown = match exact.split_once('.') {
                        Some((i, f)) => format!("{i}.{}", &f[..f.len().min(8)]).trim_end_matches('0').trim_end_matches('.').to_string(),
                        None => exact,
                    };
                    Some(format!("{shown} {symbol}"))
                });
                let token = self.token.and_then(|i| self.tokens.get(i));
                json!({
                    "to": self.receiver,
                    "amount": format!("{} {}", parse_send_value(&self.amount), token.map(|t| t.symbol.as_str()).unwrap_or_default()),
                    "fee": fee,
                    "feeError": failed.then_some("error estimating gas"),
                })
            }
            _ => Value::Null,
        };
        json!({
            "stage": match stage { Stage::Editing => "editing", Stage::Preview { .. } => "preview", Stage::Sending => "sending" },
            "tokens": self.tokens.iter().map(|t| json!({"symbol": t.symbol, "name": t.name, "balance": format_native_balance_en_us(&t.balance)})).collect::<Vec<_>>(),
            "token": self.token,
            "amount": self.amount,
            "receiver": self.receiver,
            "error": self.error,
            "preview": preview,
        })
    }
}

/// The product of two decimal integers (gas × price), as a decimal integer.
fn multiply(a: &str, b: &str) -> String {
    let a: Vec<u32> = a.bytes().rev().map(|d| (d - b'0') as u32).collect();
    let b: Vec<u32> = b.bytes().rev().map(|d| (d - b'0') as u32).collect();
    let mut out = vec![0u32; a.len() + b.len()];
    for (i, x) in a.iter().enumerate() {
        let mut carry = 0;
        for (j, y) in b.iter().enumerate() {
            let cur = out[i + j] + x * y + carry;
            out[i + j] = cur % 10;
            carry = cur / 10;
        }
        let mut k = i + b.len();
        while carry > 0 {
            let cur = out[k] + carry;
            out[k] = cur % 10;
            carry = cur / 10;
            k += 1;
        }
    }
    let s: String = out.iter().rev().map(|d| char::from(b'0' + *d as u8)).collect();
    let s = s.trim_start_matches('0');
    if s.is_empty() { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_are_hex_and_products_exact() {
        assert_eq!(hex_quantity("0"), "0x0");
        assert_eq!(hex_quantity("1000000000000000000"), "0xde0b6b3a7640000");
        assert_eq!(multiply("21000", "1000000000"), "21000000000000");
        assert_eq!(multiply("0", "5"), "0");
        assert!(base_units_lt("999", "1000") && !base_units_lt("1000", "999") && !base_units_lt("5", "5"));
        assert!(base_units_lt("0999", "1000"), "leading zeros");
    }
}
