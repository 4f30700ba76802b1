//! A trade module: one screen of the Account view (Swap, or Buy) with its slice, run by its own
//! small router in its own WebAssembly module (`element/swap`, `element/buy`), loaded only when
//! the visitor presses its button — the Account view and the account module do not carry it.
//!
//! Same shape as the engine and the account module: events in (with the time), effects and its
//! part out, the same [`Ctx`] and [`Slice`]. The shell tells it what it needs through `context`
//! events: the account and its network, whether the Account view shows, what the account holds
//! (the account module's `held`) and the project's swap networks. When a transaction of its own
//! mines, it asks the account module to read the account again (an `accountChanged` event).

use serde_json::{json, Value};

use crate::connect::connection::{Connection, Status};
use crate::engine::{Ctx, Effect, Note, Options, Slice, SliceId};
use crate::trade::buy::{BuyEvent, BuySlice};
use crate::trade::swap::{Held, SwapEvent, SwapSlice};

/// What a screen of a trade module is to its router.
pub trait TradeScreen: Slice + Default {
    /// `"swap"`: the part's `screen` while it shows.
    const SCREEN: &'static str;
    /// The header's title while it shows.
    const TITLE: &'static str;
    /// The intent that opens it (`"openSwap"`).
    const OPEN: &'static str;
    /// Its timers' ids start with this (the shell routes them back by it).
    const TIMERS: &'static str;
    const SLICE: SliceId;
    fn open(&mut self, held: Vec<Held>, ctx: &mut Ctx);
    fn held(&mut self, held: Vec<Held>, ctx: &mut Ctx);
    fn close(&mut self, ctx: &mut Ctx);
    /// The wallet prompts or a transaction mines: the screen stays.
    fn busy(&self) -> bool;
    /// The screen's own events (`None`: not one of them).
    fn event(v: &Value) -> Option<Result<Self::Event, String>>;
    fn view(&self) -> Value;
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    v.get(key).and_then(Value::as_str).filter(|s| s.len() <= 256).map(str::to_string).ok_or_else(|| format!("missing or invalid field `{key}`"))
}

/// What the account holds, as the account module's part lists it (`[{address, balance, price}]`).
fn held_of(v: Option<&Value>) -> Vec<Held> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .take(500)
                .filter_map(|h| {
                    let balance = h.get("balance")?.as_str().filter(|b| b.len() <= 80 && b.bytes().all(|c| c.is_ascii_digit() || c == b'.'))?.to_string();
                    let address = match h.get("address") {
                        Some(Value::String(a)) if a.len() <= 64 => Some(a.clone()),
                        _ => None,
                    };
                    let price = h.get("price").and_then(Value::as_f64).filter(|p| p.is_finite() && *p >= 0.0);
                    Some(Held { address, balance, price })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The account a trade module acts for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Account {
    namespace: String,
    address: String,
    chain: String,
    connector: String,
}

pub struct TradeModule<S: TradeScreen> {
    ctx: Ctx,
    account: Option<Account>,
    held: Vec<Held>,
    shown: bool,
    screen: S,
}

impl<S: TradeScreen> TradeModule<S> {
    pub fn new(opts: Options) -> Self {
        let mut ctx = Ctx::new();
        let (networks, _) = opts.resolve_networks();
        ctx.opts = opts;
        ctx.networks = networks;
        TradeModule { ctx, account: None, held: Vec::new(), shown: false, screen: S::default() }
    }

    /// The module for the element's options (the same JSON the engine gets; unreadable: defaults).
    pub fn from_options_json(options_json: &str) -> Self {
        let options = crate::service::json::parse(options_json).map_err(|e| e.to_string()).and_then(Options::from_value).unwrap_or_default();
        Self::new(options)
    }

    /// The bridge's call: one event as JSON at `now_ms` → `{"effects": [...], "part": {...}}`.
    /// Malformed input never traps: it comes back as an alert effect and the state is unchanged.
    pub fn dispatch_json(&mut self, event_json: &str, now_ms: f64) -> String {
        let (effects, part) = match serde_json::from_str::<Value>(event_json) {
            Ok(v) => self.handle(&v, now_ms.max(0.0) as u64),
            Err(e) => (vec![crate::account::module::malformed_alert(&e.to_string())], self.part()),
        };
        let effects: Vec<String> = effects.iter().map(|e| e.to_json().to_string()).collect();
        format!(r#"{{"effects":[{}],"part":{}}}"#, effects.join(","), part)
    }

    /// Whether a request id (of a `fetch` or `providerRequest` effect) is this module's.
    pub fn is_request(id: f64) -> bool {
        id >= 0.0 && id.fract() == 0.0 && SliceId::of_request(id as u64) == Some(S::SLICE)
    }

    /// Handles one event (JSON tagged by `type`) at `now_ms`: effects out, and the module's part.
    /// A malformed event changes nothing and comes back as an alert.
    pub fn handle(&mut self, v: &Value, now_ms: u64) -> (Vec<Effect>, Value) {
        self.ctx.now = self.ctx.now.max(now_ms);
        if let Err(e) = self.step(v) {
            self.ctx.push(crate::account::module::malformed_alert(&e));
        }
        // A transaction of this screen mined: the account module reads the account again.
        if self.ctx.notes.drain(..).any(|n| matches!(n, Note::AccountsChanged)) {
            self.ctx.push(Effect::Dispatch { event: crate::service::json::obj(vec![("type", "accountChanged".into())]) });
        }
        (std::mem::take(&mut self.ctx.out), self.part())
    }

    fn step(&mut self, v: &Value) -> Result<(), String> {
        let ty = v.get("type").and_then(Value::as_str).ok_or("an event needs a `type`")?;
        let ctx = &mut self.ctx;
        match ty {
            "context" => {
                let account = match v.get("account") {
                    None | Some(Value::Null) => None,
                    Some(a) => Some(Account { namespace: text(a, "namespace")?, address: text(a, "address")?, chain: text(a, "caipNetworkId")?, connector: text(a, "connectorId")? }),
                };
                let visible = v.get("visible").and_then(Value::as_bool).unwrap_or(false);
                ctx.features.swap_networks = v.get("swapNetworks").and_then(Value::as_array).map(|a| a.iter().take(64).filter_map(|n| n.as_str().filter(|s| s.len() <= 64)).map(str::to_string).collect()).unwrap_or_default();
                self.held = held_of(v.get("held"));
                // Another account or network, or the Account view gone: the screen closes.
                if self.shown && (!visible || account != self.account) {
                    self.screen.close(ctx);
                    self.shown = false;
                }
                if let Some(a) = &account {
                    ctx.active_network = Some(a.chain.clone());
                    ctx.conn.on_connect(&a.namespace, Connection { connector_id: a.connector.clone(), accounts: vec![a.address.clone()], caip_network_id: a.chain.clone() });
                    ctx.conn.set_status(&a.namespace, Status::Connected);
                } else if let Some(b) = &self.account {
                    ctx.conn.disconnect_all(&b.namespace);
                }
                self.account = account;
                self.screen.held(self.held.clone(), ctx);
            }
            "back" if self.shown && !self.screen.busy() => {
                self.screen.close(ctx);
                self.shown = false;
            }
            "back" => {}
            "fetchResult" => {
                let id = v.get("id").and_then(Value::as_u64).ok_or("missing or invalid field `id`")?;
                let status = v.get("status").and_then(Value::as_u64).filter(|s| *s <= u16::MAX as u64).ok_or("missing or invalid field `status`")? as u16;
                let body = v.get("body").and_then(Value::as_str).unwrap_or_default();
                if SliceId::of_request(id) == Some(S::SLICE) {
                    self.screen.on_fetch_result(id, status, body, ctx);
                }
            }
            "providerResult" => {
                let id = v.get("id").and_then(Value::as_u64).ok_or("missing or invalid field `id`")?;
                let outcome = match v.get("error") {
                    None | Some(Value::Null) => Ok(v.get("result").cloned().unwrap_or(Value::Null).into()),
                    Some(e) => Err(crate::service::errors::WmError::from_provider_code(
                        e.get("code").and_then(Value::as_i64).unwrap_or(0),
                        e.get("message").and_then(Value::as_str).unwrap_or(""),
                    )),
                };
                if SliceId::of_request(id) == Some(S::SLICE) {
                    self.screen.on_provider_result(id, outcome, ctx);
                }
            }
            "timer" => {
                let id = text(v, "id")?;
                if id.starts_with(S::TIMERS) {
                    self.screen.on_timer(&id, ctx);
                }
            }
            t if t == S::OPEN => {
                if self.account.is_some() {
                    self.screen.open(self.held.clone(), ctx);
                    self.shown = true;
                }
            }
            _ => match S::event(v) {
                Some(e) => self.screen.handle(e?, ctx),
                None => return Err(format!("unknown {} event type `{}`", S::SCREEN, ty.chars().take(40).collect::<String>())),
            },
        }
        Ok(())
    }

    /// The module's part: `{screen, title, <screen>: …}` (the screen's own part while it shows).
    pub fn part(&self) -> Value {
        let mut part = json!({"screen": self.shown.then_some(S::SCREEN), "title": self.shown.then_some(S::TITLE)});
        part[S::SCREEN] = if self.shown { self.screen.view() } else { Value::Null };
        part
    }
}

fn opt_text(v: &Value, key: &str) -> Result<String, String> {
    text(v, key)
}

impl TradeScreen for SwapSlice {
    const SCREEN: &'static str = "swap";
    const TITLE: &'static str = "Swap";
    const OPEN: &'static str = "openSwap";
    const TIMERS: &'static str = "trade-swap-";
    const SLICE: SliceId = SliceId::Swap;
    fn open(&mut self, held: Vec<Held>, ctx: &mut Ctx) {
        self.handle(SwapEvent::Open { held }, ctx);
    }
    fn held(&mut self, held: Vec<Held>, ctx: &mut Ctx) {
        self.handle(SwapEvent::Held(held), ctx);
    }
    fn close(&mut self, ctx: &mut Ctx) {
        self.handle(SwapEvent::Close, ctx);
    }
    fn busy(&self) -> bool {
        SwapSlice::busy(self)
    }
    fn event(v: &Value) -> Option<Result<SwapEvent, String>> {
        let ty = v.get("type").and_then(Value::as_str)?;
        Some(Ok(match ty {
            "swapSetFrom" => return Some(opt_text(v, "address").map(SwapEvent::SetFrom)),
            "swapSetTo" => return Some(opt_text(v, "address").map(SwapEvent::SetTo)),
            "swapSetAmount" => return Some(opt_text(v, "amount").map(SwapEvent::SetAmount)),
            "swapMax" => SwapEvent::Max,
            "swapFlip" => SwapEvent::Flip,
            "swapApprove" => SwapEvent::Approve,
            "swapConfirm" => SwapEvent::Confirm,
            _ => return None,
        }))
    }
    fn view(&self) -> Value {
        SwapSlice::view(self)
    }
}

impl TradeScreen for BuySlice {
    const SCREEN: &'static str = "buy";
    const TITLE: &'static str = "Buy";
    const OPEN: &'static str = "openBuy";
    const TIMERS: &'static str = "trade-buy-";
    const SLICE: SliceId = SliceId::Buy;
    fn open(&mut self, held: Vec<Held>, ctx: &mut Ctx) {
        self.handle(BuyEvent::Open { held }, ctx);
    }
    fn held(&mut self, held: Vec<Held>, ctx: &mut Ctx) {
        self.handle(BuyEvent::Held(held), ctx);
    }
    fn close(&mut self, ctx: &mut Ctx) {
        self.handle(BuyEvent::Close, ctx);
    }
    fn busy(&self) -> bool {
        false
    }
    fn event(v: &Value) -> Option<Result<BuyEvent, String>> {
        let ty = v.get("type").and_then(Value::as_str)?;
        Some(match ty {
            "buySetPurchase" => opt_text(v, "symbol").map(BuyEvent::SetPurchase),
            "buySetPayment" => opt_text(v, "currency").map(BuyEvent::SetPayment),
            "buySetMethod" => opt_text(v, "method").map(BuyEvent::SetMethod),
            "buySetAmount" => opt_text(v, "amount").map(BuyEvent::SetAmount),
            "buyChoose" => opt_text(v, "provider").map(BuyEvent::Choose),
            "buyReset" => Ok(BuyEvent::Reset),
            _ => return None,
        })
    }
    fn view(&self) -> Value {
        BuySlice::view(self)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod bridge_tests {
    use super::*;

    #[test]
    fn the_bridge_call_answers_json_and_refuses_what_is_not() {
        let mut m = TradeModule::<SwapSlice>::from_options_json(r#"{"projectId":"p"}"#);
        let out: Value = serde_json::from_str(&m.dispatch_json("not json", 1.0)).unwrap();
        assert_eq!(out["effects"][0]["key"], "INVALID_EVENT");
        assert_eq!(out["part"]["screen"], Value::Null);
        assert!(TradeModule::<SwapSlice>::is_request(16.0 * 4.0 + 9.0));
        assert!(!TradeModule::<SwapSlice>::is_request(16.0 * 4.0 + 10.0), "the Buy module's");
        assert!(TradeModule::<BuySlice>::is_request(16.0 * 4.0 + 10.0));
        assert!(!TradeModule::<BuySlice>::is_request(-10.0) && !TradeModule::<BuySlice>::is_request(10.5));
    }
}
