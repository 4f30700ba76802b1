//! The frame slice: the embedded wallet's secure frame (a hidden iframe on its own origin), as the
//! `frame` connector the other slices of the embedded wallet ask like any wallet. A request to it
//! names a frame event (`CONNECT_EMAIL`, `RPC_REQUEST`, …) with its payload; the slice loads the
//! frame on the first one, queues requests until the frame is ready, posts them, and answers each
//! with the frame's answer, or with why it could not (a load failure, a time-out). The protocol
//! itself (ids, readiness, time-outs, aborts) is [`FrameClient`].
//!
//! Its events: `{"type": "init", "random"}` (the id seed, from the shell), `{"type": "loadFrame"}`
//! (the visitor is about to need it: focus in the email field), `{"type": "frameMessage", "data"}`
//! (the shell checked the window and origin) and `{"type": "frameLoadFailed"}`.

use crate::embedded::connectors::{answer, frame_chain, frame_network};
use crate::embedded::frame::{frame_url, AppEvent, FrameClient, FrameLoad, FrameOut, FrameReport};
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Effect, Note, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{Value, Writer};

/// The connector the embedded wallet's slices reach the frame through.
use crate::embedded::connectors::FRAME_CONNECTOR;
/// The frame used without a `frame-url` attribute.
pub const DEFAULT_FRAME_URL: &str = "https://secure.wallet-modal.dev/frame";
const TIMER_FRAME: &str = "frame-deadline";
/// Requests waiting for the frame at most.
const PENDING_MAX: usize = 64;
/// The frame's approval shows (payload `{open, height, method}`).
const APPROVAL_VIEW: &str = "@w3m-frame/APPROVAL_VIEW";
/// The frame's session ended elsewhere (another tab signed out).
const SIGNED_OUT: &str = "@w3m-frame/SIGNED_OUT";
/// The tallest approval the modal makes room for (CSS pixels); the frame scrolls beyond.
const MAX_APPROVAL_HEIGHT: u64 = 2_000;

#[derive(Default)]
pub struct FrameSlice {
    frame: FrameClient,
    seed: String,
    counter: u64,
    /// Frame request ids and the shell's key of the connector request each answers.
    pending: Vec<(String, String)>,
}

impl Slice for FrameSlice {
    const NAME: &'static str = "frame";
    const EVENTS: &'static [&'static str] = &["init", "loadFrame", "frameMessage", "frameLoadFailed"];
    const PARTS: &'static [&'static str] = &["frame"];
    const CONNECTORS: &'static [&'static str] = &[FRAME_CONNECTOR];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "init" => {
                let r = string(o, "random")?;
                if r.len() < 16 || r.len() > 64 || !r.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    return Err("`random` must be 16 to 64 letters or digits".into());
                }
                self.seed = r;
            }
            "loadFrame" => self.ensure_loaded(ctx),
            "frameMessage" => self.message(o.get("data").cloned().unwrap_or(Value::Null), ctx),
            "frameLoadFailed" => {
                let r = self.frame.on_load_failed();
                self.report(r, ctx);
            }
            "request" => {
                let key = string(o, "key")?;
                if key.len() > 40 {
                    return Err("`key` is too long".into());
                }
                let method = string(o, "method")?;
                let payload = o.get("params").cloned().unwrap_or(Value::Null);
                self.request(key, &method, payload, ctx);
            }
            _ => {}
        }
        self.schedule(ctx);
        Ok(())
    }

    fn on_timer(&mut self, _id: &str, ctx: &mut Ctx) {
        let r = self.frame.tick(ctx.now);
        self.report(r, ctx);
        self.schedule(ctx);
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        let state = match self.frame.load_state() {
            FrameLoad::NotStarted => "idle",
            FrameLoad::Ready { ready_at_ms } if ctx.now >= ready_at_ms => "ready",
            FrameLoad::Loading { .. } | FrameLoad::Ready { .. } => "loading",
            FrameLoad::Failed => "failed",
        };
        w.key("frame").str(state);
    }
}

impl FrameSlice {
    fn ensure_loaded(&mut self, ctx: &mut Ctx) {
        if self.frame.load_state() != FrameLoad::NotStarted {
            return;
        }
        let base = ctx.opts.frame_url.clone().filter(|u| crate::host::is_http_url(u)).unwrap_or_else(|| DEFAULT_FRAME_URL.into());
        let network = frame_network(ctx, None);
        let (chain, rpc) = network.map(|n| frame_chain(ctx, &n)).unwrap_or((Value::Null, None));
        let chain = match chain {
            Value::String(s) => s,
            Value::Null => String::new(),
            other => other.to_string(),
        };
        let url = frame_url(&base, ctx.opts.project_id(), &chain, ctx.sdk_version(), ctx.opts.debug, rpc.as_deref());
        self.frame.load_started(ctx.now);
        ctx.push(Effect::FrameLoad { url });
    }

    fn next_id(&mut self) -> String {
        self.counter += 1;
        let seed = if self.seed.is_empty() { "0000000000000000" } else { &self.seed };
        format!("{seed}{:x}", self.counter)
    }

    fn request(&mut self, key: String, method: &str, payload: Value, ctx: &mut Ctx) {
        let Some(event) = AppEvent::from_name(method) else {
            return answer(ctx, key, Err(WmError::Provider { code: -32601, message: format!("The frame has no `{}`", method.chars().take(40).collect::<String>()) }));
        };
        if event == AppEvent::RpcAbort {
            // The visitor rejected an approval: what of it the frame has is dropped too (safe
            // methods are not aborted).
            let id = self.next_id();
            let r = self.frame.abort_rpc(&id);
            self.report(r, ctx);
            return answer(ctx, key, Ok(Value::Null));
        }
        if self.pending.len() >= PENDING_MAX {
            return answer(ctx, key, Err(WmError::RpcInvalidRequest));
        }
        self.ensure_loaded(ctx);
        let id = self.next_id();
        match self.frame.request(event, &id, payload, ctx.now) {
            Ok(msg) => {
                self.pending.push((id, key));
                if let Some(m) = msg {
                    post(ctx, m);
                }
            }
            Err(e) => answer(ctx, key, Err(e)),
        }
    }

    /// A message from the frame (the shell checked its window and origin). The core validates the
    /// rest: a bounded type and id, then the payload of the request it answers.
    fn message(&mut self, data: Value, ctx: &mut Ctx) {
        let Some(ty) = data.get("type").and_then(Value::as_str).filter(|t| t.len() <= 80 && t.starts_with("@w3m-frame/")) else { return };
        let id = data.get("id").and_then(Value::as_str).filter(|i| i.len() <= 80);
        let payload = data.get("payload").cloned().unwrap_or(Value::Null);
        if ty == "@w3m-frame/INIT_ERROR" {
            if self.frame.load_state() != FrameLoad::Failed {
                // The secure frame refusing this page's origin (not among the project's verified
                // domains): 'Unverified domain', also as the `error` event; any other refusal
                // (a bad project id, the configuration out of reach): 'Invalid App Configuration'.
                let why = payload.get("message").and_then(Value::as_str).filter(|m| m.len() <= 500).unwrap_or_default();
                if crate::service::text::find(why, "origin is not allowed").is_some() {
                    ctx.alert(&WmError::UnverifiedDomain);
                    ctx.emit_error(&WmError::UnverifiedDomain);
                }
                ctx.alert(&WmError::InvalidAppConfiguration);
                let r = self.frame.on_load_failed();
                self.report(r, ctx);
            }
            return;
        }
        match ty {
            // Unsolicited: the frame shows its approval (for this element's request or any other
            // it received), or no longer; the approval slice shows it.
            APPROVAL_VIEW => {
                let open = payload.get("open") == Some(&Value::Bool(true));
                let method = payload.get("method").and_then(Value::as_str).filter(|m| m.len() <= 64).unwrap_or_default();
                let height = payload.get("height").and_then(Value::as_u64).unwrap_or(0).min(MAX_APPROVAL_HEIGHT) as u32;
                return ctx.note(Note::FrameApproval(open.then(|| (method.to_string(), height))));
            }
            SIGNED_OUT => return ctx.note(Note::FrameSignedOut),
            _ => {}
        }
        let r = self.frame.on_message(ty, id, &payload, ctx.now);
        self.report(r, ctx);
    }

    fn report(&mut self, r: FrameReport, ctx: &mut Ctx) {
        for m in r.outgoing {
            post(ctx, m);
        }
        if r.reloaded {
            // Whatever approval the old document showed is gone with it.
            ctx.note(Note::FrameApproval(None));
        }
        if let Some(a) = &r.alert {
            ctx.alert(a);
        }
        // Requests a load failure aborted say so (spec §8), not 'Something went wrong'.
        let load_failed = self.frame.load_state() == FrameLoad::Failed;
        for res in r.results {
            let Some(pos) = self.pending.iter().position(|(id, _)| *id == res.id) else { continue };
            let (_, key) = self.pending.remove(pos);
            let result = if load_failed { res.result.map_err(|_| WmError::EmailLoginDependencyLoadFailed) } else { res.result };
            answer(ctx, key, result);
        }
    }

    /// One timer for the frame's next deadline.
    /// The frame client's next deadline, and the instant a ready frame becomes usable (so that the
    /// `frame` part says `ready` then, with or without a request waiting).
    fn schedule(&self, ctx: &mut Ctx) {
        let usable = match self.frame.load_state() {
            FrameLoad::Ready { ready_at_ms } if ready_at_ms > ctx.now => Some(ready_at_ms),
            _ => None,
        };
        if let Some(d) = [self.frame.deadline(), usable].into_iter().flatten().min() {
            ctx.timer(TIMER_FRAME, d.saturating_sub(ctx.now));
        }
    }
}

fn post(ctx: &mut Ctx, m: FrameOut) {
    ctx.push(Effect::FramePost { message: json!({"type": m.msg_type, "id": m.id, "payload": m.payload}) });
}

