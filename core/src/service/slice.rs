//! The service slice: what the hosted services say about the project, asked on the first open —
//! the remote configuration (features), the allowed origins and whether analytics is on — the
//! analytics beacons (opening, closing, and what other slices report), and the feature gates the
//! views follow (the Connect rows, the Account view's buttons).

use crate::host::{Ctx, Note, Requests, Slice, SDK_TYPE};
use crate::service::gates::gates;
use crate::service::json::Writer;
use crate::service::analytics::{Analytics, AnalyticsContext, MODAL_CLOSE, MODAL_OPEN};
use crate::service::config::{parse_config_response, resolve};
use crate::service::errors::WmError;
use crate::service::json::Value;
use crate::service::origins::{classify_origins_response, origin_allowed};
use crate::ui::modal::ModalEvent;

enum Asked {
    Config,
    Origins,
    AnalyticsConfig,
    /// An analytics event sent (`POST /e`).
    Beacon,
}

/// Remote configuration fetch progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Remote {
    NotAsked,
    Asked,
    Done,
}

pub struct ServiceSlice {
    remote: Remote,
    analytics: Analytics,
    /// False until `/getAnalyticsConfig` answered; events wait in `queued` until then.
    analytics_known: bool,
    queued: Vec<ModalEvent>,
    requests: Requests<Asked>,
}

impl Default for ServiceSlice {
    fn default() -> Self {
        ServiceSlice { remote: Remote::NotAsked, analytics: Analytics::new(false), analytics_known: false, queued: Vec::new(), requests: Requests::default() }
    }
}

impl ServiceSlice {
    /// New options: the features are the host's (or basic mode's) until the remote config answers.
    fn options_changed(&self, ctx: &mut Ctx) {
        if ctx.opts.basic {
            ctx.features = resolve(true, None, None).features;
        } else if self.remote == Remote::NotAsked {
            ctx.features = ctx.opts.features.clone().unwrap_or_else(crate::service::entities::RemoteFeatures::default_remote);
        }
    }

    fn get(&mut self, ctx: &mut Ctx, path: &str, asked: Asked) {
        let id = ctx.request_id();
        let url = ctx.api_url_strs(path, &[]);
        self.requests.insert(id, asked);
        ctx.fetch(id, url, None);
    }

    /// Where the events come from.
    fn context(ctx: &Ctx) -> AnalyticsContext {
        AnalyticsContext {
            project_id: ctx.opts.project_id().to_string(),
            sdk_type: SDK_TYPE.into(),
            sdk_version: ctx.sdk_version().to_string(),
            url: ctx.opts.href.clone(),
            domain: crate::service::url::after_scheme(&ctx.opts.origin).to_string(),
        }
    }

    fn analytics(&mut self, ev: ModalEvent, ctx: &mut Ctx) {
        if ctx.opts.basic {
            return;
        }
        if !self.analytics_known {
            self.queued.push(ev);
            return;
        }
        let context = Self::context(ctx);
        let seq = ctx.id();
        let event_id = format!("{}-{seq}", ctx.now);
        let address = ctx.conn.address(ctx.active_namespace()).map(str::to_string);
        let req = match ev.event {
            MODAL_OPEN | MODAL_CLOSE => self.analytics.modal_event(&context, &event_id, ev.event == MODAL_OPEN, ev.connected, address.as_deref(), ctx.now),
            other => self.analytics.track(&context, &event_id, other, Value::Null, address.as_deref(), ctx.now),
        };
        if let Some(req) = req {
            let body = req.body.to_json().to_string();
            // A POST whose answer is read: a 403 says the project is not allowed (spec §8).
            let id = ctx.request_id();
            self.requests.insert(id, Asked::Beacon);
            ctx.fetch(id, req.url(ctx.opts.analytics_url()), Some(body));
        }
    }
}

impl Slice for ServiceSlice {
    const NAME: &'static str = "service";
    const PARTS: &'static [&'static str] = &["connectMethods", "socials", "walletFeatures", "branding"];

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            // Config, allowed origins and the analytics switch are fetched on the first open.
            // The modal is `loading` until the project's configuration answers (spec §4).
            Note::Opened if self.remote != Remote::Done && !ctx.opts.basic => {
                ctx.modal.set_loading(true);
                if self.remote == Remote::Asked {
                    return;
                }
                self.remote = Remote::Asked;
                self.get(ctx, "/appkit/v1/config", Asked::Config);
                self.get(ctx, "/projects/v1/origins", Asked::Origins);
                self.get(ctx, "/getAnalyticsConfig", Asked::AnalyticsConfig);
            }
            Note::Analytics(ev) => self.analytics(ev.clone(), ctx),
            // Spec §7: error reports, at most 5 per 60 s; like every event, only once the
            // analytics switch is known (after the first open), never in basic mode.
            Note::ErrorReport { key, message } if self.analytics_known && !ctx.opts.basic => {
                let context = Self::context(ctx);
                let seq = ctx.id();
                let event_id = format!("{}-{seq}", ctx.now);
                if let Some(req) = self.analytics.report_error(&context, &event_id, key, message, None, ctx.now) {
                    let id = ctx.request_id();
                    self.requests.insert(id, Asked::Beacon);
                    ctx.fetch(id, req.url(ctx.opts.analytics_url()), Some(req.body.to_json().to_string()));
                }
            }
            Note::Options => self.options_changed(ctx),
            _ => {}
        }
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Config => {
                self.remote = Remote::Done;
                ctx.modal.set_loading(false);
                let resolved = resolve(ctx.opts.basic, ctx.opts.features.as_ref(), parse_config_response(status, body));
                ctx.features = resolved.features;
                if let Some(notice) = resolved.notice {
                    ctx.alert_text("REMOTE_CONFIG", &notice);
                }
            }
            Asked::Origins => match classify_origins_response(status, body) {
                Ok(list) if !list.is_empty() && !origin_allowed(&ctx.opts.origin, &list) => {
                    ctx.alert(&WmError::InvalidAppConfiguration);
                    ctx.emit_error(&WmError::InvalidAppConfiguration);
                }
                Ok(_) => {}
                Err(e) => ctx.alert(&e),
            },
            // Spec §8: analytics answering 403 shows Invalid App Configuration, once.
            Asked::Beacon => {
                if let Some(e) = self.analytics.on_response(status) {
                    ctx.alert(&e);
                    ctx.emit_error(&e);
                }
            }
            Asked::AnalyticsConfig => {
                // On by default (spec §9): off only when the answer says so (an unreadable or
                // failed answer keeps the default). Basic mode sends nothing (`analytics`).
                let said = (200..300).contains(&status).then(|| crate::service::json::parse(body).ok()?.get("isAnalyticsEnabled")?.as_bool()).flatten();
                let enabled = said.unwrap_or(crate::service::constants::DEFAULT_FEATURE_ANALYTICS);
                self.analytics.set_enabled(enabled);
                self.analytics_known = true;
                for ev in std::mem::take(&mut self.queued) {
                    self.analytics(ev, ctx);
                }
            }
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        let g = gates(&ctx.features);
        w.key("connectMethods").strs(&g.connect_methods).key("socials").strs(&g.socials).key("branding").bool(g.branding);
        // walletFeaturesOrder (spec): onramp, swaps, receive, send. Whether the connected family
        // and network can swap is the Swap screen's to say.
        let features: &[&str] = match (g.onramp, g.swaps) {
            (true, true) => &["onramp", "swaps", "receive", "send"],
            (true, false) => &["onramp", "receive", "send"],
            (false, true) => &["swaps", "receive", "send"],
            (false, false) => &["receive", "send"],
        };
        w.key("walletFeatures").strs(features);
    }
}
