//! The approval slice: ApproveTransaction. The embedded wallet's provider hands it every request
//! that signs (the `approval` connector, method `approve`, params `{answer, method, params, address,
//! network}`, `answer` being the shell's key of the host's request, which this slice answers); it
//! shows what will be signed as the network's chain family reviews it (a message, typed data, a
//! transaction's receiver, value, decoded call and network fee) and sends it to the frame only
//! when the visitor approves. Rejecting, or leaving the view, answers 'User
//! rejected' (4001); one request shows at a time, the others wait in order.

use std::collections::VecDeque;

use crate::chain::family::{self, WalletCall};
use crate::chain::units::format_units;
use crate::embedded::frame::AppEvent;
use crate::embedded::connectors::{answer, rpc_payload, FRAME_CONNECTOR};
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

use crate::embedded::connectors::APPROVAL_CONNECTOR;
/// Requests waiting at most.
const QUEUED_MAX: usize = 32;

/// A request that signs, waiting for the visitor.
#[derive(Clone, Debug)]
struct Approval {
    serial: u64,
    key: String,
    method: String,
    params: Value,
    /// The network it signs on (CAIP-2).
    network: String,
    view: Value,
    /// The answers of the fee requests, in order, as they come.
    fees: Vec<Option<String>>,
    sending: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Fee { index: usize, serial: u64 },
    Send { serial: u64 },
    Abort,
}

#[derive(Default)]
pub struct ApprovalSlice {
    queue: VecDeque<Approval>,
    serial: u64,
    requests: Requests<Asked>,
}

fn frame(ctx: &mut Ctx, event: AppEvent, payload: Value) -> u64 {
    ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: payload })
}

/// The network shown (name), its currency's symbol and decimals.
fn network(ctx: &Ctx, caip_network_id: &str) -> (String, String, u32) {
    let n = ctx.network(caip_network_id);
    (
        n.map(|n| n.name.clone()).unwrap_or_else(|| caip_network_id.to_string()),
        n.map(|n| n.native_currency.symbol.clone()).unwrap_or_default(),
        n.map(|n| n.native_currency.decimals).unwrap_or(18),
    )
}

/// The fee of a request in its network's currency, six significant decimals (enough to judge a fee).
fn fee_text(base_units: &str, symbol: &str, decimals: u32) -> Option<String> {
    let text = format_units(base_units, decimals).ok()?;
    let text = match text.split_once('.') {
        Some((w, f)) if f.len() > 6 => format!("{w}.{}", &f[..6]).trim_end_matches('0').trim_end_matches('.').to_string(),
        _ => text,
    };
    Some(format!("{text} {symbol}"))
}

impl Slice for ApprovalSlice {
    const NAME: &'static str = "approval";
    const EVENTS: &'static [&'static str] = &["approve", "reject"];
    const PARTS: &'static [&'static str] = &["approval"];
    const VIEWS: &'static [View] = &[View::ApproveTransaction];
    const CONNECTORS: &'static [&'static str] = &[APPROVAL_CONNECTOR];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "approve" => self.approve(ctx),
            "reject" => self.reject(ctx),
            "request" => {
                let handed = string(o, "key")?;
                let p = o.get("params").cloned().unwrap_or(Value::Null);
                let key = p.get("answer").and_then(Value::as_str).filter(|k| !k.is_empty() && k.len() <= 40).map(str::to_string);
                let Some(key) = key else { return Err("an approval needs the key it answers".into()) };
                // Taken: the provider's hand-over ends here; the host's request is answered later.
                answer(ctx, handed, Ok(Value::Null));
                self.queue_request(key, p, ctx);
            }
            _ => {}
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            // Leaving ApproveTransaction (closed, back) rejects what it showed.
            Note::Shown(v) if *v != View::ApproveTransaction => self.reject_waiting(ctx, WmError::UserRejected),
            Note::Closed => self.reject_waiting(ctx, WmError::UserRejected),
            Note::EmbeddedUser(None) => self.reject_waiting(ctx, WmError::Provider { code: 4900, message: "Disconnected".into() }),
            _ => {}
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        match self.requests.remove(id) {
            Some(Asked::Fee { index, serial }) => {
                let value = outcome.ok().and_then(|v| v.as_str().filter(|s| s.len() <= 80).map(str::to_string));
                if let Some(slot) = self.queue.iter_mut().find(|a| a.serial == serial).and_then(|a| a.fees.get_mut(index)) {
                    *slot = value;
                }
            }
            Some(Asked::Send { serial }) => {
                let Some(pos) = self.queue.iter().position(|a| a.serial == serial) else { return };
                let a = self.queue.remove(pos).unwrap_or_else(|| unreachable!());
                answer(ctx, a.key, outcome);
                self.next(ctx);
            }
            Some(Asked::Abort) | None => {}
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("approval");
        let Some(a) = self.queue.front() else {
            w.null();
            return;
        };
        let mut v = a.view.clone();
        let answers: Option<Vec<String>> = a.fees.iter().cloned().collect();
        let fee = answers.filter(|f| !f.is_empty()).and_then(|f| family::embedded(namespace_of(&a.network))?.fee(&f));
        if let Some(fee) = fee {
            let (_, symbol, decimals) = network(ctx, &a.network);
            v["fee"] = json!(fee_text(&fee, &symbol, decimals));
        }
        v["sending"] = json!(a.sending);
        v["queued"] = json!(self.queue.len() - 1);
        w.value(&v);
    }
}

impl ApprovalSlice {
    fn queue_request(&mut self, key: String, p: Value, ctx: &mut Ctx) {
        if self.queue.len() >= QUEUED_MAX {
            return answer(ctx, key, Err(WmError::RpcInvalidRequest));
        }
        let method = p.get("method").and_then(Value::as_str).filter(|m| m.len() <= 64).unwrap_or_default().to_string();
        let params = p.get("params").cloned().unwrap_or(Value::Null);
        let own = p.get("address").and_then(Value::as_str).filter(|a| a.len() <= 128).unwrap_or_default().to_string();
        let caip = p.get("network").and_then(Value::as_str).filter(|n| ctx.network(n).is_some()).map(str::to_string);
        let (Some(caip), Some(wallet)) = (caip.clone(), caip.as_deref().and_then(|n| family::embedded(namespace_of(n)))) else {
            return answer(ctx, key, Err(WmError::Provider { code: -32602, message: "The request names no network of this app".into() }));
        };
        let (name, symbol, decimals) = network(ctx, &caip);
        let mut view = match wallet.review(&method, &params, &own, &symbol, decimals) {
            Ok(v) => v,
            Err(m) => return answer(ctx, key, Err(WmError::Provider { code: -32602, message: m })),
        };
        view["method"] = json!(method);
        view["network"] = json!(name);
        self.serial += 1;
        let serial = self.serial;
        // The fee shown: the frame's node estimates it.
        let fee_requests = wallet.fee_requests(&method, &params, &own);
        self.queue.push_back(Approval { serial, key, method, params, network: caip.clone(), view, fees: vec![None; fee_requests.len()], sending: false });
        for (index, (fee_method, fee_params)) in fee_requests.into_iter().enumerate() {
            let Some(payload) = rpc_payload(ctx, fee_method, fee_params, &caip) else { continue };
            let rid = frame(ctx, AppEvent::RpcRequest, payload);
            self.requests.insert(rid, Asked::Fee { index, serial });
        }
        if self.queue.len() == 1 {
            navigate(ctx);
        }
    }

    fn approve(&mut self, ctx: &mut Ctx) {
        let Some(a) = self.queue.front_mut().filter(|a| !a.sending) else { return };
        a.sending = true;
        let (method, params, caip, serial) = (a.method.clone(), a.params.clone(), a.network.clone(), a.serial);
        let Some(payload) = rpc_payload(ctx, &method, params, &caip) else { return };
        let rid = frame(ctx, AppEvent::RpcRequest, payload);
        self.requests.insert(rid, Asked::Send { serial });
    }

    fn reject(&mut self, ctx: &mut Ctx) {
        let Some(a) = self.queue.front().filter(|a| !a.sending).cloned() else { return };
        self.queue.pop_front();
        answer(ctx, a.key, Err(WmError::UserRejected));
        // Anything of it the frame has is dropped too (spec §6: safe methods are not aborted).
        let rid = frame(ctx, AppEvent::RpcAbort, Value::Null);
        self.requests.insert(rid, Asked::Abort);
        self.next(ctx);
    }

    /// Every request not yet approved ends with `error`.
    fn reject_waiting(&mut self, ctx: &mut Ctx, error: WmError) {
        while let Some(a) = self.queue.front() {
            if a.sending {
                break;
            }
            let a = self.queue.pop_front().unwrap_or_else(|| unreachable!());
            answer(ctx, a.key, Err(error.clone()));
        }
    }

    /// The next request shows, or the view is left.
    fn next(&mut self, ctx: &mut Ctx) {
        let shows = ctx.showing(View::ApproveTransaction);
        if self.queue.is_empty() {
            if shows {
                ctx.dispatch(obj(vec![("type", "back".into())]));
            }
        } else if !shows {
            navigate(ctx);
        }
    }
}

fn namespace_of(caip_network_id: &str) -> &str {
    caip_network_id.split(':').next().unwrap_or_default()
}

fn navigate(ctx: &mut Ctx) {
    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::ApproveTransaction.name().into())]));
}
