//! The host: one generic router of slices, run by the engine (the wasm loaded at start-up) and by
//! every lazily loaded module alike. Which slices a host runs is its type — a tuple of slices —
//! and nothing else differs between them (see `crate::modules`, the one list of what ships where).
//!
//! Driven by JSON events with the time passed in, a host answers with [`Effect`]s for the shell to
//! carry out, the [`Note`]s its slices raised (the shell forwards them to the other hosts) and a
//! snapshot that each slice writes its keys of. It owns no rule: each capability is a [`Slice`].
//!
//! What the host itself reads (besides the slices' own event types):
//! - `{"type": "providerResult", "id", "result" | "error": {code, message}}` and
//!   `{"type": "fetchResult", "id", "status", "body"}`: answers, to the slice whose place the
//!   id carries;
//! - `{"type": "timer", "id"}`: to the slice that started it;
//! - `{"type": "notes", "notes": [...]}`: notes another host raised (facts learned first);
//! - `{"type": "request" | "release", "connector", …}`: to the slice answering that connector.

mod ctx;
mod effect;
pub(crate) mod json;
mod note;
mod options;
mod slice;
pub mod routes;

pub use ctx::Ctx;
pub(crate) use ctx::FRAME_TIMERS;
pub use effect::Effect;
pub use note::{EmbeddedUser, Fact, Holding, Note};
pub use options::{is_http_url, NetworkInput, Options, DEFAULT_ANALYTICS_URL, DEFAULT_API_URL};
pub use slice::{Outcome, Requests, Slice, SliceInfo, Slices};
pub(crate) use json::obj;

use crate::service::errors::WmError;
use crate::service::json::{parse, Value, Writer};
use json::{string, uint, Fields};

/// How long an error or success banner stays (a loading banner stays until replaced).
pub const BANNER_SHOWN_MS: u64 = 6_000;
/// The SDK type sent as `st` to every service.
pub const SDK_TYPE: &str = "wallet-modal";
/// Largest event a host reads (characters of its JSON).
pub const MAX_EVENT_CHARS: usize = 2 * 1024 * 1024;
/// Most notes one `notes` event may carry.
const MAX_NOTES: usize = 64;

pub struct Host<S: Slices> {
    ctx: Ctx,
    slices: S,
    /// Each shared fact as JSON, as this host last told it or heard it (see [`Fact`]).
    told: Vec<String>,
    /// Notes raised in this host since the last output, for the shell to forward.
    outgoing: Vec<Note>,
}

impl<S: Slices> Host<S> {
    pub fn new(opts: Options) -> Self {
        let mut host = Host { ctx: Ctx::new(), slices: S::default(), told: Vec::new(), outgoing: Vec::new() };
        host.told = host.facts_now();
        // Effects of the first options (an error for a missing project id) go out with the first event.
        host.set_options(opts);
        host
    }

    /// The host for the element's options as JSON (unreadable options: the defaults).
    pub fn from_json(options_json: &str) -> Self {
        Self::new(parse(options_json).map_err(|e| e.to_string()).and_then(Options::from_value).unwrap_or_default())
    }

    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    pub fn slices(&self) -> &S {
        &self.slices
    }

    /// New options from the element (an attribute or property changed).
    pub fn set_options(&mut self, opts: Options) {
        let (networks, unknown) = opts.resolve_networks();
        self.ctx.opts = opts;
        self.ctx.networks = networks;
        self.ctx.unknown_networks = unknown;
        self.ctx.note(Note::Options);
        self.settle();
    }

    /// Handles one event at `now_ms`. A malformed event changes nothing and comes back as an
    /// alert effect (a wallet answer that cannot be read still ends its request, as a failure).
    pub fn handle(&mut self, event: Value, now_ms: u64) {
        self.ctx.now = self.ctx.now.max(now_ms);
        self.ctx.modal.tick(self.ctx.now);
        let answer_id = provider_answer_id(&event);
        if let Err(e) = self.route(event) {
            self.ctx.push(malformed(&e));
            if let Some(id) = answer_id {
                let outcome = Err(WmError::from_provider_code(0, "The wallet's answer could not be read")); // i18n
                self.slices.provider_result((id & 15) as usize, id, outcome, &mut self.ctx);
            }
        }
        self.settle();
        #[cfg(feature = "modules")]
        self.ctx.batch_node_calls();
    }

    /// The bridge's call: one event as JSON at `now_ms` → `{"effects", "notes", "snapshot"}`.
    pub fn dispatch_json(&mut self, event_json: &str, now_ms: f64) -> String {
        let now = if now_ms.is_finite() && now_ms > 0.0 { now_ms as u64 } else { 0 };
        match (event_json.len() <= MAX_EVENT_CHARS).then(|| parse(event_json)) {
            Some(Ok(v)) => self.handle(v, now),
            Some(Err(e)) => self.ctx.push(malformed(&e.to_string())),
            None => self.ctx.push(malformed("the event is too large")),
        }
        self.output()
    }

    /// The bridge's call for new options (JSON) at `now_ms`.
    pub fn set_options_json(&mut self, options_json: &str, now_ms: f64) -> String {
        match parse(options_json).map_err(|e| e.to_string()).and_then(Options::from_value) {
            Ok(o) => {
                self.ctx.now = self.ctx.now.max(now_ms.max(0.0) as u64);
                self.set_options(o);
            }
            Err(e) => self.ctx.push(malformed(&format!("options: {e}"))),
        }
        self.output()
    }

    fn route(&mut self, event: Value) -> Result<(), String> {
        let Value::Object(mut o) = event else { return Err("an event must be an object".into()) };
        let o = &mut o;
        let ty = string(o, "type")?;
        let ctx = &mut self.ctx;
        match ty.as_str() {
            "providerResult" => {
                let id = uint(o, "id", u64::MAX)?;
                let outcome = match o.get("error").cloned() {
                    None | Some(Value::Null) => Ok(o.get("result").cloned().unwrap_or(Value::Null)),
                    Some(Value::Object(mut e)) => {
                        let code = match e.get("code") {
                            None | Some(Value::Null) => 0,
                            Some(c) => c.as_i64().ok_or_else(|| json::bad("error.code"))?,
                        };
                        let message = json::opt_string(&mut e, "message")?.unwrap_or_default();
                        Err(WmError::from_provider_code(code, &message))
                    }
                    Some(_) => return Err(json::bad("error")),
                };
                self.slices.provider_result((id & 15) as usize, id, outcome, ctx);
            }
            "fetchResult" => {
                let id = uint(o, "id", u64::MAX)?;
                let status = uint(o, "status", u16::MAX as u64)? as u16;
                let body = json::string_or_default(o, "body")?;
                #[cfg(feature = "modules")]
                if let Some(answers) = ctx.unbatch(id, status, &body) {
                    for (call, status, body) in answers {
                        if !ctx.rpc_retried(call, status) {
                            self.slices.fetch_result((call & 15) as usize, call, status, &body, ctx);
                        }
                    }
                    return Ok(());
                }
                #[cfg(feature = "modules")]
                if ctx.rpc_retried(id, status) {
                    return Ok(());
                }
                self.slices.fetch_result((id & 15) as usize, id, status, &body, ctx);
            }
            "timer" => {
                let id = string(o, "id")?;
                match ctx.timer_owner(&id) {
                    Some(FRAME_TIMERS) => ctx.frame_timer(&id),
                    Some(slice) => self.slices.timer(slice, &id, ctx),
                    None => {}
                }
            }
            "notes" => self.hear(o)?,
            "request" | "release" => {
                let connector = string(o, "connector")?;
                // A request that cannot be read still ends: its asker hears why, not silence.
                let key = o.get("key").and_then(Value::as_str).filter(|k| !k.is_empty() && k.len() <= 40).map(str::to_string);
                match self.slices.connector(&connector, &ty, o, ctx) {
                    Some(Err(e)) if ty == "request" && key.is_some() => {
                        let key = key.unwrap_or_default();
                        ctx.push(Effect::Answer { key, outcome: Err((-32602, format!("Invalid request: {}", e.chars().take(200).collect::<String>()))) });
                    }
                    Some(r) => r?,
                    None => {
                        if let Ok(key) = string(o, "key") {
                            ctx.push(Effect::Answer { key, outcome: Err((4200, "The connector is not answered here".into())) });
                        }
                    }
                }
            }
            _ => match self.slices.event(&ty, o, ctx) {
                Some(r) => r?,
                None => return Err(format!("unknown event type `{}`", ty.chars().take(40).collect::<String>())),
            },
        }
        Ok(())
    }

    /// Notes another host raised: every fact is learned first, then the slices hear them all, in
    /// order. They are not forwarded again.
    fn hear(&mut self, o: &mut Fields) -> Result<(), String> {
        let Some(Value::Array(list)) = o.get("notes").cloned() else { return Err(json::bad("notes")) };
        if list.len() > MAX_NOTES {
            return Err("too many notes".into());
        }
        let mut notes = Vec::new();
        for v in list {
            if let Some(n) = Note::read(v, &mut self.ctx)? {
                notes.push(n);
            }
        }
        self.told = self.facts_now();
        for n in &notes {
            self.slices.note(n, &mut self.ctx);
        }
        Ok(())
    }

    /// Delivers the notes raised (notes may raise notes), then tells what facts changed, until
    /// nothing more is raised.
    fn settle(&mut self) {
        loop {
            while !self.ctx.notes.is_empty() {
                let notes = std::mem::take(&mut self.ctx.notes);
                for note in notes {
                    self.slices.note(&note, &mut self.ctx);
                    if note.forwarded() {
                        self.outgoing.push(note);
                    }
                }
            }
            let now = self.facts_now();
            if now == self.told {
                return;
            }
            for (i, f) in Fact::ALL.into_iter().enumerate() {
                if now[i] != self.told[i] {
                    self.ctx.note(Note::Fact(f));
                }
            }
            self.told = now;
        }
    }

    fn facts_now(&self) -> Vec<String> {
        Fact::ALL.into_iter().map(|f| f.json(&self.ctx)).collect()
    }

    /// The shared facts as notes, for a module that loads late: the facts, then what a slice
    /// loading now needs to hear to catch up (the connection, the view showing).
    pub fn facts(&self) -> Vec<Note> {
        let c = &self.ctx;
        let mut notes: Vec<Note> = Fact::ALL.into_iter().map(Note::Fact).collect();
        if c.connected() {
            notes.push(Note::Connected);
        }
        if c.modal.open || c.opts.embedded {
            notes.push(Note::Shown(c.router.view()));
        }
        notes
    }

    /// [`Host::facts`] as the JSON array the shell hands to a module (`{"type": "notes", "notes": …}`).
    pub fn facts_json(&self) -> String {
        let mut w = Writer::new();
        w.begin_array();
        for n in self.facts() {
            n.write(&self.ctx, &mut w);
        }
        w.end_array();
        w.finish()
    }

    /// The effects and notes since the last output, and the snapshot: what the bridge returns.
    pub fn output(&mut self) -> String {
        let mut w = Writer::new();
        w.begin_object().key("effects").begin_array();
        for e in std::mem::take(&mut self.ctx.out) {
            w.value(&e.to_json());
        }
        w.end_array().key("notes").begin_array();
        for n in std::mem::take(&mut self.outgoing) {
            n.write(&self.ctx, &mut w);
        }
        w.end_array().key("snapshot");
        self.write_snapshot(&mut w);
        w.end_object();
        w.finish()
    }

    /// What the views render of this host: each slice writes its keys.
    pub fn write_snapshot(&self, w: &mut Writer) {
        w.begin_object();
        self.slices.write(&self.ctx, w);
        w.end_object();
    }

    /// [`Host::write_snapshot`] into a new string (`getState()`).
    pub fn snapshot_json(&self) -> String {
        let mut w = Writer::new();
        self.write_snapshot(&mut w);
        w.finish()
    }

    /// What its slices are: their names, events, snapshot keys, views and connectors.
    pub fn describe() -> Vec<SliceInfo> {
        let mut out = Vec::new();
        S::describe(&mut out);
        out
    }

    /// Takes the effects collected so far (tests).
    #[cfg(test)]
    pub(crate) fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.ctx.out)
    }

    /// Takes the notes raised for the other hosts so far, as the JSON the shell forwards (tests).
    #[cfg(test)]
    pub(crate) fn take_notes_json(&mut self) -> String {
        let mut w = Writer::new();
        w.begin_array();
        for n in std::mem::take(&mut self.outgoing) {
            n.write(&self.ctx, &mut w);
        }
        w.end_array();
        w.finish()
    }
}

/// The id of a `providerResult` event, read on its own (when the rest of the event is malformed).
fn provider_answer_id(v: &Value) -> Option<u64> {
    (v.get("type")?.as_str()? == "providerResult").then(|| v.get("id")?.as_u64()).flatten()
}

/// A malformed event, reported as an alert (never a trap, state unchanged).
pub fn malformed(err: &str) -> Effect {
    Effect::Alert { key: "INVALID_EVENT".into(), message: format!("wallet-modal: ignored malformed event: {err}"), description: None, severity: "error".into(), delay_ms: 0 }
}

#[cfg(test)]
pub(crate) mod harness;
#[cfg(test)]
mod tests;
