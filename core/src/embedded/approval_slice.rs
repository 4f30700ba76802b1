//! The approval slice: ApproveTransaction. The embedded wallet's provider hands it every request
//! that signs (the `approval` connector, method `approve`, params `{answer, method, params, address,
//! chainId}`, `answer` being the shell's key of the host's request, which this slice answers); it
//! shows what will be signed — the message, the typed data's domain and fields, a
//! transaction's receiver, value, decoded call and network fee (`embedded::approve`) — and sends
//! it to the frame only when the visitor approves. Rejecting, or leaving the view, answers 'User
//! rejected' (4001); one request shows at a time, the others wait in order.

use std::collections::VecDeque;

use crate::chain::adapter::WalletCall;
use crate::embedded::approve;
use crate::embedded::frame::AppEvent;
use crate::embedded::frame_slice::{answer, FRAME_CONNECTOR};
use crate::embedded::provider_slice::frame_chain;
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::chain::eip155::rpc;
use crate::ui::router::View;

/// The connector the provider hands signing requests to.
pub const APPROVAL_CONNECTOR: &str = "approval";
/// Requests waiting at most.
const QUEUED_MAX: usize = 32;

/// A request that signs, waiting for the visitor.
#[derive(Clone, Debug)]
struct Approval {
    serial: u64,
    key: String,
    method: String,
    params: Value,
    chain_id: u64,
    view: Value,
    gas: Option<String>,
    price: Option<String>,
    sending: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Fee { gas: bool, serial: u64 },
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
fn network(ctx: &Ctx, chain_id: u64) -> (String, String, u32) {
    let n = ctx.network(&format!("eip155:{chain_id}"));
    (
        n.map(|n| n.name.clone()).unwrap_or_else(|| format!("Chain {chain_id}")),
        n.map(|n| n.native_currency.symbol.clone()).unwrap_or_else(|| "ETH".into()),
        n.map(|n| n.native_currency.decimals).unwrap_or(18),
    )
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
            Some(Asked::Fee { gas, serial }) => {
                let value = outcome.ok().and_then(|v| v.as_str().filter(|s| s.len() <= 66 && s.starts_with("0x")).map(str::to_string));
                if let Some(a) = self.queue.iter_mut().find(|a| a.serial == serial) {
                    if gas {
                        a.gas = value;
                    } else {
                        a.price = value;
                    }
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
        if let (Some(g), Some(p)) = (&a.gas, &a.price) {
            let (_, symbol, decimals) = network(ctx, a.chain_id);
            v["fee"] = json!(approve::fee_text(g, p, &symbol, decimals));
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
        let own = p.get("address").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        let chain_id = p.get("chainId").and_then(Value::as_u64).unwrap_or(1);
        let (name, symbol, decimals) = network(ctx, chain_id);
        let view = match method.as_str() {
            "personal_sign" => match (params.get(0).and_then(Value::as_str), params.get(1).and_then(Value::as_str)) {
                (Some(data), Some(addr)) if addr.eq_ignore_ascii_case(&own) => approve::message_view(data),
                (Some(_), Some(_)) => Err("The message is to be signed by another account".into()),
                _ => Err("personal_sign needs [message, address]".into()),
            },
            "eth_signTypedData_v4" => match (params.get(0).and_then(Value::as_str), params.get(1)) {
                (Some(addr), Some(data)) if addr.eq_ignore_ascii_case(&own) => approve::typed_data_view(data),
                (Some(_), Some(_)) => Err("The data is to be signed by another account".into()),
                _ => Err("eth_signTypedData_v4 needs [address, typedData]".into()),
            },
            "eth_sendTransaction" => match params.get(0) {
                Some(tx) if tx.get("from").and_then(Value::as_str).is_none_or(|f| f.eq_ignore_ascii_case(&own)) => {
                    approve::transaction_view(tx, &symbol, decimals).map(|t| json!({"kind": "transaction", "transactions": [t]}))
                }
                Some(_) => Err("The transaction is to be sent from another account".into()),
                None => Err("eth_sendTransaction needs [transaction]".into()),
            },
            "wallet_sendCalls" => match params.get(0).and_then(|p| rpc::parse_batch_calls(p).ok().map(|_| p)) {
                Some(p) => p
                    .get("calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty() && c.len() <= 16)
                    .ok_or_else(|| "wallet_sendCalls needs 1 to 16 calls".to_string())
                    .and_then(|calls| calls.iter().map(|c| approve::transaction_view(c, &symbol, decimals)).collect::<Result<Vec<_>, _>>())
                    .map(|t| json!({"kind": "transaction", "transactions": t})),
                None => Err("wallet_sendCalls needs calls with 0x `to` and `data`".into()),
            },
            _ => Err(format!("{method} is not supported by this wallet")),
        };
        let mut view = match view {
            Ok(v) => v,
            Err(m) => return answer(ctx, key, Err(WmError::Provider { code: -32602, message: m })),
        };
        view["method"] = json!(method);
        view["network"] = json!(name);
        self.serial += 1;
        let serial = self.serial;
        let tx = (method == "eth_sendTransaction").then(|| params.get(0).cloned()).flatten();
        self.queue.push_back(Approval { serial, key, method, params, chain_id, view, gas: None, price: None, sending: false });
        if let Some(mut tx) = tx {
            // The fee shown: the frame's node estimates the gas and gives the price.
            if tx.get("from").is_none() {
                tx["from"] = json!(own);
            }
            let (_, rpc) = frame_chain(ctx, Some(chain_id));
            for (gas, method, params) in [(true, "eth_estimateGas", json!([tx])), (false, "eth_gasPrice", json!([]))] {
                let payload = json!({"method": method, "params": params, "chainId": chain_id, "chainNamespace": "eip155", "rpcUrl": rpc});
                let rid = frame(ctx, AppEvent::RpcRequest, payload);
                self.requests.insert(rid, Asked::Fee { gas, serial });
            }
        }
        if self.queue.len() == 1 {
            navigate(ctx);
        }
    }

    fn approve(&mut self, ctx: &mut Ctx) {
        let Some(a) = self.queue.front_mut().filter(|a| !a.sending) else { return };
        a.sending = true;
        let (_, rpc) = frame_chain(ctx, Some(a.chain_id));
        let payload = json!({"method": a.method, "params": a.params, "chainId": a.chain_id, "chainNamespace": "eip155", "rpcUrl": rpc});
        let serial = a.serial;
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

fn navigate(ctx: &mut Ctx) {
    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::ApproveTransaction.name().into())]));
}
