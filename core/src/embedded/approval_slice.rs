//! The approval slice: ApproveTransaction, where the secure frame asks the visitor. The visitor
//! approves inside the frame's own document, never in the host page: the embedded wallet's
//! provider hands this slice every request that signs (the `approval` connector, method `approve`,
//! params `{answer, method, params, address, network}`, `answer` being the shell's key of the
//! host's request, which this slice answers); the slice posts it to the frame at once, with the
//! network to show, and answers the host with the frame's answer ('User rejected' 4001 when the
//! visitor rejects there).
//!
//! The frame tells when its approval shows (`@w3m-frame/APPROVAL_VIEW`, heard as
//! [`Note::FrameApproval`]) — for this element's requests and for any other it received — and the
//! slice then shows ApproveTransaction (opening the modal) with the frame placed in it: the shell's
//! `frameView` effect, sized by the `approval` part. Leaving the view (closed, back) aborts in the
//! frame: what was not approved there ends 'User rejected'.

use crate::chain::family::{self, WalletCall};
use crate::connect::slice::EMBEDDED_ID as EMBEDDED_CONNECTOR;
use crate::embedded::connectors::{answer, namespace_of, rpc_payload, APPROVAL_CONNECTOR, FRAME_CONNECTOR};
use crate::embedded::frame::AppEvent;
use crate::host::json::{boolean, string, Fields};
use crate::host::{Ctx, Effect, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

/// Requests with the frame at most.
const HANDED_MAX: usize = 32;
/// Theme variables handed to the frame at most (characters of their JSON).
const THEME_MAX: usize = 4_096;

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    /// The frame's answer to the host request `key`.
    Sign { key: String },
    /// Nothing to do with the answer (an abort, the theme).
    Nothing,
}

#[derive(Default)]
pub struct ApprovalSlice {
    /// Host requests with the frame, by the id of the request to the frame.
    handed: Vec<(u64, String)>,
    /// The frame's approval as it shows: the method and the height it needs.
    shown: Option<(String, u32)>,
    /// Whether the shell was last told to show the frame.
    told_visible: bool,
    /// The modal's theme for the frame (`SYNC_THEME` payload), and whether the frame has it.
    theme: Option<Value>,
    theme_sent: bool,
    requests: Requests<Asked>,
}

fn frame(ctx: &mut Ctx, event: AppEvent, payload: Value) -> u64 {
    ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: payload })
}

/// The network the frame shows: its name and its currency's symbol and decimals.
fn network_shown(ctx: &Ctx, caip_network_id: &str) -> Value {
    match ctx.network(caip_network_id) {
        Some(n) => json!({"name": n.name, "symbol": n.native_currency.symbol, "decimals": n.native_currency.decimals}),
        None => Value::Null,
    }
}

impl Slice for ApprovalSlice {
    const NAME: &'static str = "approval";
    const EVENTS: &'static [&'static str] = &["frameTheme"];
    const PARTS: &'static [&'static str] = &["approval"];
    const VIEWS: &'static [View] = &[View::ApproveTransaction];
    const CONNECTORS: &'static [&'static str] = &[APPROVAL_CONNECTOR];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "frameTheme" => {
                let dark = boolean(o, "dark", None)?;
                let variables = match o.get("variables") {
                    Some(v @ Value::Object(_)) if v.to_string().len() <= THEME_MAX => v.clone(),
                    None | Some(Value::Null) => json!({}),
                    Some(_) => return Err("`variables` must be an object of at most 4096 characters".into()),
                };
                let theme = json!({"themeMode": if dark { "dark" } else { "light" }, "themeVariables": variables});
                if self.theme.as_ref() != Some(&theme) {
                    self.theme = Some(theme);
                    self.theme_sent = false;
                    // A frame already asked for something hears the change; a frame not needed yet is not loaded for it.
                    if !self.handed.is_empty() || self.shown.is_some() {
                        self.send_theme(ctx);
                    }
                }
            }
            "request" => {
                let handed = string(o, "key")?;
                let p = o.get("params").cloned().unwrap_or(Value::Null);
                let key = p.get("answer").and_then(Value::as_str).filter(|k| !k.is_empty() && k.len() <= 40).map(str::to_string);
                let Some(key) = key else { return Err("an approval needs the key it answers".into()) };
                // Taken: the provider's hand-over ends here; the host's request is answered later.
                answer(ctx, handed, Ok(Value::Null));
                self.hand(key, p, ctx);
            }
            _ => {}
        }
        self.sync_view(ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::FrameApproval(a) => {
                self.shown = a.clone();
                if a.is_some() {
                    self.send_theme(ctx);
                    if !ctx.showing(View::ApproveTransaction) {
                        navigate(ctx);
                    }
                } else {
                    self.leave_when_done(ctx);
                }
            }
            // Leaving ApproveTransaction (closed, back): the frame rejects what it shows.
            Note::Shown(v) if *v != View::ApproveTransaction => self.abort(ctx),
            Note::Closed => self.abort(ctx),
            Note::EmbeddedUser(None) => {
                for (_, key) in std::mem::take(&mut self.handed) {
                    answer(ctx, key, Err(WmError::Provider { code: 4900, message: "Disconnected".into() }));
                }
                self.shown = None;
                self.theme_sent = false;
            }
            Note::FrameSignedOut => {
                // Another tab signed the wallet out: this element's connection ends too.
                let event = json!({"type": "providerEvent", "connectorId": EMBEDDED_CONNECTOR, "name": "accountsChanged", "data": []});
                ctx.dispatch(event);
            }
            _ => {}
        }
        self.sync_view(ctx);
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        if let Some(Asked::Sign { key }) = self.requests.remove(id) {
            self.handed.retain(|(rid, _)| *rid != id);
            answer(ctx, key, outcome);
            self.leave_when_done(ctx);
        }
        self.sync_view(ctx);
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        w.key("approval");
        if self.handed.is_empty() && self.shown.is_none() {
            w.null();
            return;
        }
        let (method, height) = match &self.shown {
            Some((m, h)) => (Some(m.as_str()), *h as u64),
            None => (None, 0),
        };
        w.begin_object().key("open").bool(self.shown.is_some()).key("method").opt_str(method).key("height").u64(height);
        w.key("waiting").u64(self.handed.len() as u64).end_object();
    }
}

impl ApprovalSlice {
    /// Posts a request that signs to the frame, which asks the visitor.
    fn hand(&mut self, key: String, p: Value, ctx: &mut Ctx) {
        if self.handed.len() >= HANDED_MAX {
            return answer(ctx, key, Err(WmError::RpcInvalidRequest));
        }
        let method = p.get("method").and_then(Value::as_str).filter(|m| m.len() <= 64).unwrap_or_default().to_string();
        let params = p.get("params").cloned().unwrap_or(Value::Null);
        let caip = p.get("network").and_then(Value::as_str).filter(|n| ctx.network(n).is_some() && family::embedded(namespace_of(n)).is_some());
        let Some(mut payload) = caip.and_then(|caip| rpc_payload(ctx, &method, params, caip)) else {
            return answer(ctx, key, Err(WmError::Provider { code: -32602, message: "The request names no network of this app".into() }));
        };
        payload["network"] = network_shown(ctx, caip.unwrap_or_default());
        self.send_theme(ctx);
        let rid = frame(ctx, AppEvent::RpcRequest, payload);
        self.requests.insert(rid, Asked::Sign { key: key.clone() });
        self.handed.push((rid, key));
        // The modal opens on ApproveTransaction at once: the frame shows there as soon as it has
        // prepared the request (read the token, estimated the fee).
        if !ctx.showing(View::ApproveTransaction) {
            navigate(ctx);
        }
    }

    fn send_theme(&mut self, ctx: &mut Ctx) {
        if self.theme_sent {
            return;
        }
        if let Some(theme) = self.theme.clone() {
            self.theme_sent = true;
            let rid = frame(ctx, AppEvent::SyncTheme, theme);
            self.requests.insert(rid, Asked::Nothing);
        }
    }

    /// The visitor left the approval: the frame rejects what it asks (what was approved keeps
    /// its answer).
    fn abort(&mut self, ctx: &mut Ctx) {
        if self.handed.is_empty() && self.shown.is_none() {
            return;
        }
        self.shown = None;
        let rid = frame(ctx, AppEvent::RpcAbort, Value::Null);
        self.requests.insert(rid, Asked::Nothing);
    }

    /// Nothing left to approve: the view is left (back, or the modal closes when it was the only view).
    fn leave_when_done(&mut self, ctx: &mut Ctx) {
        if self.handed.is_empty() && self.shown.is_none() && ctx.showing(View::ApproveTransaction) {
            ctx.dispatch(obj(vec![("type", "back".into())]));
        }
    }

    /// Tells the shell when the frame is to show in the modal or hide again.
    fn sync_view(&mut self, ctx: &mut Ctx) {
        let visible = self.shown.is_some() && ctx.showing(View::ApproveTransaction);
        if visible != self.told_visible {
            self.told_visible = visible;
            ctx.push(Effect::FrameView { visible });
        }
    }
}

fn navigate(ctx: &mut Ctx) {
    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::ApproveTransaction.name().into())]));
}
