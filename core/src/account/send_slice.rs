//! The send slice: the WalletSend view's form — a token among those held, an amount (with Max), a
//! receiver (checked by the chain family) — the WalletSendPreview view with the estimated network
//! fee, and the transfer through the connected wallet (`account::send` validates it, the family's
//! `Transfers` builds it: a native value, or a token contract's transfer call). While the wallet prompts, the modal says "Approve in your wallet"; once
//! sent the Account view shows again and says so, and when mined the balances and lists are read
//! again.

use crate::account::send::{parse_send_value, SendAction, SendFlow, SendForm, SendToken};
use crate::chain::family::{self, node_outcome, rest_outcome, Call, Transactions, Transfers};
use crate::chain::format::format_native_balance_en_us;
use crate::chain::units::{base_units_lt, format_units, parse_units};
use crate::account::pending::PendingWatcher;
use crate::host::json::{string, uint, Fields};
use crate::host::{is_http_url, Ctx, Fact, Holding, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

/// A sent transaction's receipt is asked for this often until it is mined (the family's block
/// time, this by default): the modal just sent it and the visitor waits for it, so not the
/// background default of 30 s.
/// Watching follows the spec's pending-transaction rule (§4, §9, `account::pending`): it stops once
/// 99 polls were made (about 2.5 minutes); the Account view then reads the account again anyway.
pub const RECEIPT_POLL_MS: u64 = 1_500;
const TIMER_RECEIPT: &str = "send-receipt";

#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Editing,
    /// The preview, with the answers of the family's fee requests as they come (`failed` when one
    /// failed).
    Preview { fees: Vec<Option<Value>>, failed: bool },
    /// The transaction went to the wallet (what it signs must be this one).
    Sending(Value),
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Fee(usize),
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
    /// The token it moved (CAIP-10), read afresh once it is mined.
    moved: Vec<String>,
    /// Its receipt polls (the spec's pending-transaction watcher: at most 99).
    watch: PendingWatcher,
    requests: Requests<Asked>,
    /// The requests asked of a REST API (their answers are read as such).
    rest: Vec<u64>,
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
                    self.amount = Self::max(ctx, t);
                }
            }
            // Spec §4: sending on an unsupported chain opens UnsupportedChain.
            "sendPreview" | "sendConfirm" if ctx.active_unsupported() => {
                ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::UnsupportedChain.name().into())]));
            }
            "sendPreview" => self.preview(ctx),
            _ => self.confirm(ctx),
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Disconnected | Note::AccountsChanged | Note::ChainChanged { .. } => {
                // No longer watched: its loading banner goes too.
                if self.sent.is_some() {
                    ctx.dispatch(obj(vec![("type", "dismissBanner".into())]));
                }
                *self = SendSlice::default()
            }
            // The form opens with the tokens held; back from the preview it shows again; left for
            // another view it closes (a transfer under way carries on).
            Note::Shown(View::WalletSend) if self.stage.is_none() => {
                self.tokens = ctx.holdings.clone();
                self.token = self.token.filter(|i| *i < self.tokens.len()).or((!self.tokens.is_empty()).then_some(0));
                self.stage = Some(Stage::Editing);
                self.error = None;
            }
            Note::Shown(View::WalletSend) if self.previewing() => self.stage = Some(Stage::Editing),
            // Back on the preview of a transfer that went meanwhile (its approval showed on top, as
            // the embedded wallet's does): the account shows, and says it was sent.
            Note::Shown(View::WalletSendPreview) if self.stage.is_none() => {
                ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::Account.name().into()), ("reset", true.into())]));
            }
            Note::Shown(View::WalletSend | View::WalletSendPreview) => {}
            Note::Shown(_) | Note::Closed if !matches!(self.stage, Some(Stage::Sending(_))) => self.stage = None,
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
                    .and_then(|base| Some(Self::transactions(ctx)?.explorer_tx(base, hash)))
                    .filter(|u| is_http_url(u));
                w.begin_object().key("hash").str(hash).key("explorerUrl").opt_str(explorer.as_deref()).end_object();
            }
            None => {
                w.null();
            }
        }
    }

    /// A node's (or REST API's) answer to a family's request (see [`Call`]): as a wallet's.
    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let outcome = match self.rest.iter().position(|r| *r == id) {
            Some(i) => {
                self.rest.swap_remove(i);
                rest_outcome(status, body)
            }
            None => node_outcome(status, body),
        };
        self.on_provider_result(id, outcome, ctx);
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match (asked, &mut self.stage) {
            (Asked::Fee(i), Some(Stage::Preview { fees, failed })) => match outcome {
                Ok(answer) if i < fees.len() => fees[i] = Some(answer),
                _ => *failed = true,
            },
            (Asked::Send, _) => self.sent(ctx, outcome),
            (Asked::Receipt(hash), _) => {
                let failed = outcome.as_ref().is_ok_and(|v| Self::transactions(ctx).is_some_and(|t| t.mined(v) && t.failed(v)));
                let mined = outcome.is_ok_and(|v| Self::transactions(ctx).is_some_and(|t| t.mined(&v)));
                if self.sent.as_deref() != Some(hash.as_str()) {
                    return; // another transaction was sent since
                }
                if mined || self.watch.stopped() {
                    // Mined, or no longer watched (99 polls): the balances and the history are
                    // read again.
                    self.watch.resolved(std::slice::from_ref(&hash));
                    self.sent = None;
                    ctx.note(Note::BalancesChanged(std::mem::take(&mut self.moved)));
                    if failed {
                        let text = "The transaction failed on chain"; // i18n
                        ctx.banner_from_module("error", text);
                    } else if mined {
                        let text = "Transaction confirmed"; // i18n
                        ctx.banner_from_module("success", text);
                    } else {
                        ctx.banner_from_module("error", "The transaction was not mined yet; check your wallet");
                    }
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
        let Some(call) = Self::transactions(ctx).map(|t| t.receipt_call(&hash)) else { return };
        if let Some(rid) = self.call(ctx, call) {
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

    fn transfers(ctx: &Ctx) -> Option<&'static dyn Transfers> {
        family::transfers(ctx.active_namespace())
    }

    fn transactions(ctx: &Ctx) -> Option<&'static dyn Transactions> {
        family::transactions(ctx.active_namespace())
    }

    fn call(&mut self, ctx: &mut Ctx, call: Call) -> Option<u64> {
        let (_, _, connector) = Self::from(ctx)?;
        let rest = matches!(call, Call::Rest(_));
        let id = ctx.call(&connector, call)?;
        if rest {
            self.rest.push(id);
        }
        Some(id)
    }

    /// What Max puts in the amount: the balance, less what the family keeps for the fee when the
    /// token is the native currency.
    fn max(ctx: &Ctx, t: &Holding) -> String {
        let reserve = Self::transfers(ctx).map(|t| t.max_reserve()).unwrap_or(0);
        if t.address.is_some() || reserve == 0 {
            return t.balance.clone();
        }
        let Ok(units) = parse_units(&t.balance, t.decimals) else { return t.balance.clone() };
        let left = units.parse::<u128>().unwrap_or(0).saturating_sub(reserve as u128);
        format_units(&left.to_string(), t.decimals).unwrap_or_else(|_| t.balance.clone())
    }

    /// The transaction the form describes, built by the chain family, or why not (the spec's
    /// messages first, then the family's check of the receiver, then the balance).
    fn tx(&self, ctx: &Ctx) -> Result<Value, String> {
        let (_, from, _) = Self::from(ctx).ok_or("Not connected")?; // i18n
        let transfers = Self::transfers(ctx).filter(|_| Self::transactions(ctx).is_some());
        let token = self.token.and_then(|i| self.tokens.get(i));
        let form = SendForm {
            token: token.map(|t| SendToken { symbol: t.symbol.clone(), address: t.address.clone(), decimals: t.decimals }),
            amount: Some(self.amount.clone()),
            receiver_address: Some(self.receiver.clone()),
            receiver_profile_name: None,
        };
        let mut flow = SendFlow { form, ..SendFlow::default() };
        let mut request = None;
        for action in flow.submit(transfers.is_some()) {
            match action {
                SendAction::ShowError { error } => return Err(error.message()),
                SendAction::SendTransfer { request: r } => request = Some(r),
                _ => {}
            }
        }
        let (Some(transfers), Some(request), Some(token)) = (transfers, request, token) else { return Err(WmError::SendTokenRequired.message()) };
        transfers.check_receiver(&request.to)?;
        let balance = parse_units(&token.balance, token.decimals).unwrap_or_default();
        if base_units_lt(&balance, &request.value) {
            let symbol = &token.symbol;
            return Err(format!("Insufficient {symbol} balance")); // i18n
        }
        transfers.transfer(&from, &request.to, request.token_address.as_deref(), &request.value).map_err(|e| e.message())
    }

    fn preview(&mut self, ctx: &mut Ctx) {
        let tx = match self.tx(ctx) {
            Ok(tx) => tx,
            Err(e) => return self.error = Some(e),
        };
        let calls = Self::transfers(ctx).map(|t| t.fee_calls(&tx)).unwrap_or_default();
        self.error = None;
        self.stage = Some(Stage::Preview { fees: vec![None; calls.len()], failed: false });
        ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::WalletSendPreview.name().into())]));
        for (i, call) in calls.into_iter().enumerate() {
            match self.call(ctx, call) {
                Some(id) => self.requests.insert(id, Asked::Fee(i)),
                None => {
                    if let Some(Stage::Preview { failed, .. }) = &mut self.stage {
                        *failed = true;
                    }
                }
            }
        }
    }

    fn confirm(&mut self, ctx: &mut Ctx) {
        let Some(Stage::Preview { fees, .. }) = &self.stage else { return };
        // What the fee requests read (a recent block, the receiver's token account) goes into
        // the transaction where the family needs it; an answer still missing is a null.
        let answers: Vec<Value> = fees.iter().map(|a| a.clone().unwrap_or(Value::Null)).collect();
        let tx = self.tx(ctx).and_then(|tx| Self::transfers(ctx).ok_or_else(|| WmError::UnsupportedChain.message())?.finish(tx, &answers));
        let call = tx.clone().and_then(|tx| Self::transactions(ctx).map(|t| t.send_call(tx)).ok_or_else(|| WmError::UnsupportedChain.message()));
        let (tx, call) = match (tx, call) {
            (Ok(tx), Ok(call)) => (tx, call),
            (Err(e), _) | (_, Err(e)) => return self.back_to_form(ctx, e),
        };
        let method = call.method;
        let Some(id) = self.call(ctx, Call::Wallet(call)) else { return };
        self.requests.insert(id, Asked::Send);
        self.stage = Some(Stage::Sending(tx));
        // The modal says "Approve in your wallet" meanwhile.
        ctx.note(Note::WalletPrompt(Some(method.into())));
    }

    /// The chosen token as CAIP-10 (`{chain}:{contract}`), when it is a token contract.
    fn moved_token(&self, ctx: &Ctx) -> Vec<String> {
        let chain = ctx.conn.current(ctx.active_namespace()).map(|c| c.caip_network_id.clone()).unwrap_or_default();
        self.token.and_then(|i| self.tokens.get(i)?.address.clone()).map(|a| format!("{chain}:{a}")).into_iter().collect()
    }

    fn sent(&mut self, ctx: &mut Ctx, outcome: Outcome) {
        ctx.note(Note::WalletPrompt(None));
        // A wallet that only signed: the family sends the signed transaction through the node
        // (once it checked the wallet signed the transaction the visitor approved).
        let approved = match &self.stage {
            Some(Stage::Sending(tx)) => tx.clone(),
            _ => Value::Null,
        };
        let relay = match (outcome.as_ref(), Self::transactions(ctx)) {
            (Ok(v), Some(t)) => t.relay(&approved, v),
            _ => Ok(None),
        };
        match relay {
            Ok(Some(relay)) => match self.call(ctx, relay) {
                Some(id) => return self.requests.insert(id, Asked::Send),
                None => return self.back_to_form(ctx, WmError::UnsupportedChain.message()),
            },
            Err(why) => return self.back_to_form(ctx, why),
            Ok(None) => {}
        }
        let hash = outcome.as_ref().ok().and_then(|v| Self::transactions(ctx)?.sent(v));
        match (hash, outcome) {
            (Some(hash), _) => {
                let poll = Self::transactions(ctx).map(|t| t.poll_ms()).unwrap_or(RECEIPT_POLL_MS);
                let mut watch = PendingWatcher::new(true, poll);
                watch.watch(&hash, ctx.now);
                let moved = self.moved_token(ctx);
                *self = SendSlice { sent: Some(hash), watch, moved, ..SendSlice::default() };
                self.arm(ctx);
                // The banner says so while it is watched (loading), then that it is confirmed.
                ctx.banner_from_module("loading", "Transaction sent.");
                // Sent: back on the account, which says so.
                if ctx.showing(View::WalletSendPreview) || ctx.showing(View::WalletSend) {
                    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::Account.name().into()), ("reset", true.into())]));
                }
            }
            (None, Err(e)) => self.back_to_form(ctx, e.message()),
            (None, Ok(_)) => self.back_to_form(ctx, "The wallet did not return a transaction hash".into()), // i18n
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
            Stage::Preview { fees, failed } => {
                let answers: Option<Vec<Value>> = fees.iter().cloned().collect();
                let tx = self.tx(ctx).unwrap_or(Value::Null);
                let fee = answers.as_ref().and_then(|a| Self::transfers(ctx)?.fee(&tx, a)).and_then(|wei| {
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
                // "includes 0.00203928 SOL for the receiver's new token account".
                let detail = answers.as_ref().and_then(|a| Self::transfers(ctx)?.fee_detail(&tx, a)).and_then(|(what, units)| {
                    let (symbol, decimals) = native.clone()?;
                    let amount = format_units(&units, decimals).ok()?;
                    Some(format!("includes {amount} {symbol} for {what}")) // i18n
                });
                json!({
                    "feeDetail": detail,
                    "to": self.receiver,
                    "amount": format!("{} {}", parse_send_value(&self.amount), token.map(|t| t.symbol.as_str()).unwrap_or_default()),
                    "feeError": match (&fee, &answers) {
                        _ if *failed => Some(Self::transfers(ctx).map_or("error estimating gas", |t| t.fee_failed()).to_string()),
                        // Every answer came and no fee: why the transfer cannot be made (the
                        // family's words: the balance does not pay the fee, a token's mint is
                        // missing, …).
                        (None, Some(a)) => Some(Self::transfers(ctx).and_then(|t| t.finish(tx.clone(), a).err()).unwrap_or_else(|| Self::transfers(ctx).map_or("error estimating gas", |t| t.fee_failed()).into())),
                        _ => None,
                    },
                    "fee": fee,
                })
            }
            _ => Value::Null,
        };
        json!({
            "stage": match stage { Stage::Editing => "editing", Stage::Preview { .. } => "preview", Stage::Sending(_) => "sending" },
            "tokens": self.tokens.iter().map(|t| json!({"symbol": t.symbol, "name": t.name, "balance": format_native_balance_en_us(&t.balance)})).collect::<Vec<_>>(),
            "token": self.token,
            "amount": self.amount,
            "receiver": self.receiver,
            "receiverHint": Self::transfers(ctx).map_or("Address", |t| t.receiver_hint()),
            "error": self.error,
            "preview": preview,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_balance_is_compared_in_base_units() {
        assert!(base_units_lt("999", "1000") && !base_units_lt("1000", "999") && !base_units_lt("5", "5"));
        assert!(base_units_lt("0999", "1000"), "leading zeros");
    }
}
