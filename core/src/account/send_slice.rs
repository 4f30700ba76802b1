//! The send slice: the WalletSend view's form — a token among those held, an amount (with Max), a
//! receiver (EIP-55 checked) — the WalletSendPreview view with the estimated network fee, and the
//! transfer through the connected wallet (`account::send` builds it: native value, or ERC-20
//! `transfer` call data). While the wallet prompts, the modal says "Approve in your wallet"; once
//! sent the Account view shows again and says so, and when mined the balances and lists are read
//! again.

use crate::account::send::{parse_send_value, SendAction, SendFlow, SendForm, SendToken};
use crate::chain::address::is_evm_address;
use crate::chain::adapter::WalletCall;
use crate::chain::format::format_native_balance_en_us;
use crate::chain::units::{base_units_lt, format_units, parse_units};
use crate::account::pending::PendingWatcher;
use crate::host::json::{string, uint, Fields};
use crate::host::{is_http_url, Ctx, Fact, Holding, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::entities::ChainNamespace;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

/// A sent transaction's receipt is asked for this often until it is mined (through the wallet):
/// the modal just sent it and the visitor waits for it, so not the background default of 30 s.
/// Watching follows the spec's pending-transaction rule (§4, §9, `account::pending`): it stops once
/// 99 polls were made (about 2.5 minutes); the Account view then reads the account again anyway.
pub const RECEIPT_POLL_MS: u64 = 1_500;
const TIMER_RECEIPT: &str = "send-receipt";

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
    tokens: Vec<Holding>,
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
    const NAME: &'static str = "send";
    const EVENTS: &'static [&'static str] = &["sendSetToken", "sendSetAmount", "sendSetReceiver", "sendMax", "sendPreview", "sendConfirm"];
    const PARTS: &'static [&'static str] = &["send", "sent"];
    const VIEWS: &'static [View] = &[View::WalletSend, View::WalletSendPreview];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "sendSetToken" => {
                let index = uint(o, "index", u32::MAX as u64)? as usize;
                if index < self.tokens.len() {
                    self.token = Some(index);
                }
            }
            "sendSetAmount" => self.amount = string(o, "amount")?.chars().take(80).collect(),
            "sendSetReceiver" => self.receiver = string(o, "receiver")?.trim().chars().take(80).collect(),
            "sendMax" => {
                if let Some(t) = self.token.and_then(|i| self.tokens.get(i)) {
                    self.amount = t.balance.clone();
                }
            }
            "sendPreview" => self.preview(ctx),
            _ => self.confirm(ctx),
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Disconnected | Note::AccountsChanged | Note::ChainChanged { .. } => *self = SendSlice::default(),
            // The form opens with the tokens held; back from the preview it shows again; left for
            // another view it closes (a transfer under way carries on).
            Note::Shown(View::WalletSend) if self.stage.is_none() => {
                self.tokens = ctx.holdings.clone();
                self.token = self.token.filter(|i| *i < self.tokens.len()).or((!self.tokens.is_empty()).then_some(0));
                self.stage = Some(Stage::Editing);
                self.error = None;
            }
            Note::Shown(View::WalletSend) if self.previewing() => self.stage = Some(Stage::Editing),
            Note::Shown(View::WalletSend | View::WalletSendPreview) => {}
            Note::Shown(_) | Note::Closed if self.stage != Some(Stage::Sending) => self.stage = None,
            // The tokens held changed while the form shows (they were still loading when it opened,
            // or a transfer mined): the list follows, the chosen token stays chosen.
            Note::Fact(Fact::Holdings) => self.refresh_tokens(ctx.holdings.clone()),
            _ => {}
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("send").value(&self.view(ctx)).key("sent");
        match self.sent.as_deref() {
            Some(hash) => {
                let explorer = ctx
                    .account()
                    .and_then(|(_, _, chain, _)| ctx.network(chain)?.explorer_url())
                    .map(|base| format!("{}/tx/{hash}", base.trim_end_matches('/')))
                    .filter(|u| is_http_url(u));
                w.begin_object().key("hash").str(hash).key("explorerUrl").opt_str(explorer.as_deref()).end_object();
            }
            None => {
                w.null();
            }
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
            (Asked::Send, _) => self.sent(ctx, outcome),
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
                    ctx.note(Note::BalancesChanged);
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
            ctx.timer(TIMER_RECEIPT, due.saturating_sub(ctx.now).max(1));
        }
    }

    fn from(ctx: &Ctx) -> Option<(String, String, String)> {
        ctx.account().map(|(ns, address, _, connector)| (ns.to_string(), address.to_string(), connector.to_string()))
    }

    fn wallet(&self, ctx: &mut Ctx, call: WalletCall) -> Option<u64> {
        let (_, _, connector) = Self::from(ctx)?;
        Some(ctx.wallet_request(&connector, call))
    }

    /// The transfer the form describes, or why not (the spec's messages first, then EIP-55 and
    /// the balance).
    fn transfer(&self, ctx: &Ctx) -> Result<(Holding, String, String, Option<String>), String> {
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
        ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::WalletSendPreview.name().into())]));
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
            Err(e) => return self.back_to_form(ctx, e),
        };
        let call = WalletCall { method: "eth_sendTransaction", params: crate::service::json::Value::Array(vec![tx]) };
        let Some(id) = self.wallet(ctx, call) else { return };
        self.requests.insert(id, Asked::Send);
        self.stage = Some(Stage::Sending);
        // The modal says "Approve in your wallet" meanwhile.
        ctx.note(Note::WalletPrompt(Some("eth_sendTransaction".into())));
    }

    fn sent(&mut self, ctx: &mut Ctx, outcome: Outcome) {
        ctx.note(Note::WalletPrompt(None));
        let hash = outcome.as_ref().ok().and_then(|v| v.as_str()).filter(|h| h.len() == 66 && h.starts_with("0x") && h[2..].bytes().all(|b| b.is_ascii_hexdigit())).map(str::to_string);
        match (hash, outcome) {
            (Some(hash), _) => {
                let mut watch = PendingWatcher::new(true, RECEIPT_POLL_MS);
                watch.watch(&hash, ctx.now);
                *self = SendSlice { sent: Some(hash), watch, ..SendSlice::default() };
                self.arm(ctx);
                // Sent: back on the account, which says so.
                if ctx.showing(View::WalletSendPreview) || ctx.showing(View::WalletSend) {
                    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::Account.name().into()), ("reset", true.into())]));
                }
            }
            (None, Err(e)) => self.back_to_form(ctx, e.message()),
            (None, Ok(_)) => self.back_to_form(ctx, "The wallet did not return a transaction hash".into()),
        }
    }

    /// The transfer cannot go (the wallet refused it, or the form no longer holds): the form shows
    /// again, with why.
    fn back_to_form(&mut self, ctx: &mut Ctx, error: String) {
        self.stage = Some(Stage::Editing);
        self.error = Some(error);
        if ctx.showing(View::WalletSendPreview) {
            ctx.dispatch(obj(vec![("type", "back".into())]));
        }
    }

    fn refresh_tokens(&mut self, tokens: Vec<Holding>) {
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
    fn previewing(&self) -> bool {
        matches!(self.stage, Some(Stage::Preview { .. }))
    }

    /// The Send form's part of the snapshot (`null` while closed).
    fn view(&self, ctx: &Ctx) -> Value {
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
