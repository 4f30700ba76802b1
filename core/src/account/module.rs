//! The account module: the account's lazily loaded slices (portfolio, NFTs, activity, send), run by their own
//! small router in their own WebAssembly module (`element/account`), so the initial load does not
//! carry them. It has the same shape as the engine: events in (with the time), effects and its part
//! of the snapshot out, the same [`Ctx`] and [`Slice`] interface, request ids carrying their slice.
//!
//! The shell tells it what the engine knows through `context` events (the account, its network,
//! whether the Account view is showing): those become the same notes the engine's slices get.

use serde_json::{json, Value};

use crate::account::activity::{ActivityEvent, ActivitySlice};
use crate::account::nfts::{NftsEvent, NftsSlice};
use crate::account::portfolio::{PortfolioEvent, PortfolioSlice};
use crate::account::send_slice::{SendEvent, SendSlice};
use crate::connect::connection::{Connection, Status};
use crate::engine::{Ctx, Effect, Note, Options, Slice, SliceId};

/// The Account view's tabs.
pub const TABS: [&str; 3] = ["tokens", "nfts", "activity"];

/// What the Account view shows: the portfolio, or one of the module's own screens, reached from
/// its buttons and left with the header's back button (the engine's router does not know them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Main,
    Receive,
    Send,
}

/// What the engine knows that the account slices need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub namespace: String,
    pub address: String,
    pub caip_network_id: String,
    pub connector_id: String,
    /// The Account view is showing.
    pub visible: bool,
}

#[derive(Clone, Debug)]
pub enum ModuleEvent {
    Context(Option<Context>),
    SelectTab(String),
    OpenReceive,
    /// The header's back button while a screen of this module shows.
    Back,
    OpenSend,
    /// A transaction of another module (a swap, a purchase) mined: read the account again.
    AccountChanged,
    Portfolio(PortfolioEvent),
    Activity(ActivityEvent),
    Nfts(NftsEvent),
    Send(SendEvent),
    FetchResult { id: u64, status: u16, body: String },
    ProviderResult { id: u64, outcome: crate::engine::Outcome },
    Timer(String),
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    v.get(key).and_then(Value::as_str).filter(|s| s.len() <= 256).map(str::to_string).ok_or_else(|| format!("missing or invalid field `{key}`"))
}

impl ModuleEvent {
    /// Reads an event (JSON tagged by `type`, like the engine's).
    pub fn from_json(v: &Value) -> Result<ModuleEvent, String> {
        let ty = v.get("type").and_then(Value::as_str).ok_or("an event needs a `type`")?;
        Ok(match ty {
            "context" => ModuleEvent::Context(match v.get("account") {
                None | Some(Value::Null) => None,
                Some(a) => Some(Context {
                    namespace: text(a, "namespace")?,
                    address: text(a, "address")?,
                    caip_network_id: text(a, "caipNetworkId")?,
                    connector_id: text(a, "connectorId")?,
                    visible: v.get("visible").and_then(Value::as_bool).unwrap_or(false),
                }),
            }),
            "selectAccountTab" => ModuleEvent::SelectTab(text(v, "tab")?),
            "openReceive" => ModuleEvent::OpenReceive,
            "openSend" => ModuleEvent::OpenSend,
            "accountChanged" => ModuleEvent::AccountChanged,
            "sendSetToken" => ModuleEvent::Send(SendEvent::SetToken {
                index: v.get("index").and_then(Value::as_u64).ok_or("missing or invalid field `index`")? as usize,
            }),
            "sendSetAmount" => ModuleEvent::Send(SendEvent::SetAmount(text(v, "amount")?)),
            "sendSetReceiver" => ModuleEvent::Send(SendEvent::SetReceiver(text(v, "receiver")?)),
            "sendMax" => ModuleEvent::Send(SendEvent::Max),
            "sendPreview" => ModuleEvent::Send(SendEvent::Preview),
            "sendConfirm" => ModuleEvent::Send(SendEvent::Confirm),
            "timer" => ModuleEvent::Timer(text(v, "id")?),
            "providerResult" => ModuleEvent::ProviderResult {
                id: v.get("id").and_then(Value::as_u64).ok_or("missing or invalid field `id`")?,
                outcome: match v.get("error") {
                    None | Some(Value::Null) => Ok(v.get("result").cloned().unwrap_or(Value::Null).into()),
                    Some(e) => Err(crate::service::errors::WmError::from_provider_code(
                        e.get("code").and_then(Value::as_i64).unwrap_or(0),
                        e.get("message").and_then(Value::as_str).unwrap_or(""),
                    )),
                },
            },
            "back" => ModuleEvent::Back,
            "refreshTokens" => ModuleEvent::Portfolio(PortfolioEvent::Refresh),
            "loadMoreActivity" => ModuleEvent::Activity(ActivityEvent::LoadMore),
            "loadMoreNfts" => ModuleEvent::Nfts(NftsEvent::LoadMore),
            "fetchResult" => ModuleEvent::FetchResult {
                id: v.get("id").and_then(Value::as_u64).ok_or("missing or invalid field `id`")?,
                status: v.get("status").and_then(Value::as_u64).filter(|s| *s <= u16::MAX as u64).ok_or("missing or invalid field `status`")? as u16,
                body: v.get("body").and_then(Value::as_str).unwrap_or_default().to_string(),
            },
            other => return Err(format!("unknown account event type `{other}`")),
        })
    }
}

pub struct AccountModule {
    ctx: Ctx,
    context: Option<Context>,
    tab: &'static str,
    screen: Screen,
    /// The Receive screen's QR code (SVG) and the address it encodes.
    receive_qr: Option<(String, String)>,
    portfolio: PortfolioSlice,
    activity: ActivitySlice,
    nfts: NftsSlice,
    send: SendSlice,
}

impl AccountModule {
    pub fn new(opts: Options) -> AccountModule {
        let mut ctx = Ctx::new();
        let (networks, _) = opts.resolve_networks();
        ctx.opts = opts;
        ctx.networks = networks;
        AccountModule { ctx, context: None, tab: TABS[0], screen: Screen::Main, receive_qr: None, portfolio: PortfolioSlice::default(), activity: ActivitySlice::default(), nfts: NftsSlice::default(), send: SendSlice::default() }
    }

    /// Handles one event at `now_ms`: effects out, and the module's part of the snapshot.
    pub fn handle(&mut self, event: ModuleEvent, now_ms: u64) -> (Vec<Effect>, Value) {
        self.ctx.now = self.ctx.now.max(now_ms);
        let ctx = &mut self.ctx;
        match event {
            ModuleEvent::Context(c) => self.set_context(c),
            ModuleEvent::SelectTab(tab) => match TABS.iter().find(|t| **t == tab) {
                Some(t) => {
                    self.tab = t;
                    self.ctx.note(Note::Shown(crate::ui::router::View::Account));
                }
                None => ctx.alert_text("UNKNOWN_TAB", &format!("Unknown Account tab `{}`", tab.chars().take(32).collect::<String>())),
            },
            ModuleEvent::OpenReceive if self.context.is_some() => self.screen = Screen::Receive,
            ModuleEvent::OpenReceive => {}
            ModuleEvent::OpenSend if self.context.is_some() => {
                let tokens = self.portfolio.sendable(ctx);
                self.send.handle(SendEvent::Open { tokens }, ctx);
                self.screen = Screen::Send;
            }
            ModuleEvent::OpenSend => {}
            ModuleEvent::AccountChanged => ctx.note(Note::AccountsChanged),
            // Back: from the send preview to its form, else to the portfolio.
            ModuleEvent::Back => match self.screen {
                Screen::Send if self.send.previewing() => self.send.handle(SendEvent::Edit, ctx),
                Screen::Send => {
                    self.send.handle(SendEvent::Close, ctx);
                    self.screen = if self.send.open() { Screen::Send } else { Screen::Main };
                }
                _ => self.screen = Screen::Main,
            },
            ModuleEvent::Send(e) => {
                self.send.handle(e, ctx);
            }
            ModuleEvent::ProviderResult { id, outcome } => {
                if SliceId::of_request(id) == Some(SliceId::Send) {
                    self.send.on_provider_result(id, outcome, ctx);
                }
                if self.screen == Screen::Send && !self.send.open() {
                    self.screen = Screen::Main; // sent: back on the account, which says so
                }
            }
            ModuleEvent::Timer(id) => self.send.on_timer(&id, ctx),
            ModuleEvent::Portfolio(e) => self.portfolio.handle(e, ctx),
            ModuleEvent::Activity(e) => self.activity.handle(e, ctx),
            ModuleEvent::Nfts(e) => self.nfts.handle(e, ctx),
            ModuleEvent::FetchResult { id, status, body } => match SliceId::of_request(id) {
                Some(SliceId::Portfolio) => self.portfolio.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Activity) => self.activity.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Nfts) => self.nfts.on_fetch_result(id, status, &body, ctx),
                _ => {}
            },
        }
        self.deliver_notes();
        if self.screen == Screen::Send {
            let tokens = self.portfolio.sendable(&self.ctx);
            self.send.refresh_tokens(tokens);
        }
        (std::mem::take(&mut self.ctx.out), self.part())
    }

    /// The engine's facts changed: the connection is mirrored into this module's context, and the
    /// slices hear what changed as notes.
    fn set_context(&mut self, c: Option<Context>) {
        let before = self.context.take();
        if !c.as_ref().is_some_and(|c| c.visible) {
            // The Account view is gone (closed, or another view): it comes back on the portfolio.
            self.screen = Screen::Main;
        }
        let ctx = &mut self.ctx;
        match &c {
            Some(c) => {
                ctx.active_network = Some(c.caip_network_id.clone());
                let same_account = before.as_ref().is_some_and(|b| b.address == c.address && b.namespace == c.namespace);
                let same_chain = before.as_ref().is_some_and(|b| b.caip_network_id == c.caip_network_id);
                ctx.conn.on_connect(&c.namespace, Connection { connector_id: c.connector_id.clone(), accounts: vec![c.address.clone()], caip_network_id: c.caip_network_id.clone() });
                ctx.conn.set_status(&c.namespace, Status::Connected);
                if before.is_none() {
                    ctx.note(Note::Connected);
                } else if !same_account {
                    ctx.note(Note::AccountsChanged);
                } else if !same_chain {
                    ctx.note(Note::ChainChanged { chain: c.caip_network_id.clone() });
                }
                if c.visible && !before.as_ref().is_some_and(|b| b.visible) {
                    ctx.note(Note::Shown(crate::ui::router::View::Account));
                }
            }
            None => {
                if let Some(b) = &before {
                    ctx.conn.disconnect_all(&b.namespace);
                    ctx.note(Note::Disconnected);
                }
            }
        }
        self.context = c;
    }

    fn deliver_notes(&mut self) {
        while !self.ctx.notes.is_empty() {
            let notes = std::mem::take(&mut self.ctx.notes);
            for note in &notes {
                let visible = self.context.as_ref().is_some_and(|c| c.visible);
                let ctx = &mut self.ctx;
                self.send.on_note(note, ctx);
                // The lists are only read while the Account view shows (or is about to); the
                // history while its tab shows. What changed them is heard regardless.
                let reads = matches!(note, Note::Shown(_) | Note::Connected | Note::AccountsChanged | Note::ChainChanged { .. });
                if !reads || visible {
                    self.portfolio.on_note(note, ctx);
                } else if matches!(note, Note::AccountsChanged | Note::ChainChanged { .. }) {
                    self.portfolio.invalidate();
                }
                if matches!(note, Note::Disconnected) || (self.tab == "activity" && visible) {
                    self.activity.on_note(note, ctx);
                } else if matches!(note, Note::AccountsChanged) {
                    self.activity.invalidate();
                }
                if matches!(note, Note::Disconnected) || (self.tab == "nfts" && visible) {
                    self.nfts.on_note(note, ctx);
                } else if matches!(note, Note::AccountsChanged) {
                    self.nfts.invalidate();
                }
            }
        }
    }

    /// The Receive screen: the address as a QR code (made once per address) and the networks of
    /// its namespace, the ones it can receive on.
    fn receive(&mut self) -> Value {
        let Some(c) = self.context.as_ref().filter(|_| self.screen == Screen::Receive) else { return Value::Null };
        if self.receive_qr.as_ref().is_none_or(|(a, _)| *a != c.address) {
            let svg = crate::ui::qr::QrCode::encode(c.address.as_bytes(), crate::ui::qr::EcLevel::M).map(|q| q.to_svg()).unwrap_or_default();
            self.receive_qr = Some((c.address.clone(), svg));
        }
        let networks: Vec<&str> = self.ctx.networks.iter().filter(|n| n.chain_namespace.as_str() == c.namespace).map(|n| n.name.as_str()).collect();
        json!({"address": c.address, "qr": self.receive_qr.as_ref().map(|(_, s)| s), "networks": networks})
    }

    /// The explorer page of a transaction on the connected network, when it has an explorer.
    fn explorer_tx(&self, hash: &str) -> Option<String> {
        let c = self.context.as_ref()?;
        let base = self.ctx.network(&c.caip_network_id)?.explorer_url()?.trim_end_matches('/').to_string();
        crate::engine::is_http_url(&base).then(|| format!("{base}/tx/{hash}"))
    }

    /// The module's part of the snapshot (`snapshot.portfolio` in the views).
    pub fn part(&mut self) -> Value {
        let receive = self.receive();
        json!({
            "screen": match self.screen { Screen::Main => "main", Screen::Receive => "receive", Screen::Send => "send" },
            "title": match self.screen {
                Screen::Main => Value::Null,
                Screen::Receive => "Receive".into(),
                Screen::Send if self.send.previewing() => "Preview send".into(),
                Screen::Send => "Send".into(),
            },
            "receive": receive,
            "send": if self.screen == Screen::Send { self.send.view(&self.ctx) } else { Value::Null },
            "sent": self.send.pending().map(|hash| json!({"hash": hash, "explorerUrl": self.explorer_tx(hash)})),
            "name": self.portfolio.name(&self.ctx),
            // What the account holds, with prices, for the trade modules (Swap, Buy).
            "held": self.portfolio.held(&self.ctx).iter().map(|h| json!({"address": h.address, "balance": h.balance, "price": h.price})).collect::<Vec<_>>(),
            "tab": self.tab,
            "tokens": self.portfolio.view(&self.ctx),
            // Only the shown tab's list: the others are not rendered (nor copied) on every event.
            "nfts": if self.tab == "nfts" { self.nfts.view() } else { Value::Null },
            "activity": if self.tab == "activity" { self.activity.view() } else { Value::Null },
        })
    }
}

/// A malformed event, reported as the engine reports one (never a trap, state unchanged).
pub fn malformed_alert(err: &str) -> Effect {
    Effect::Alert { key: "INVALID_EVENT".into(), message: format!("wallet-modal: ignored malformed account event: {err}"), description: None, severity: "error".into(), delay_ms: 0 }
}

#[cfg(test)]
mod tests;
