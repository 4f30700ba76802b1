//! The engine: routes the shell's events to the slices, driven by [`Event`]s with the time passed
//! in, answering with [`Effect`]s for the shell to carry out and a [`Snapshot`] for the views.
//!
//! It owns no rule. Each capability is a slice ([`Slice`]): `ui` (the modal frame), `service` (the
//! hosted services), `connect` (wallets and connections), `switch` (networks) and `account`. They
//! share the facts in [`Ctx`] and tell each other what happened through [`Note`]s. A request
//! carries the slice that asked, so its answer goes back to that slice.

mod ctx;
mod effect;
mod event;
pub(crate) mod json;
mod options;
mod slice;
mod snapshot;

pub use ctx::Ctx;
pub(crate) use ctx::{TIMER_BANNER_HIDE, TIMER_BANNER_REOPEN, TIMER_SHAKE};
pub use effect::Effect;
pub use event::{Event, ProviderError};
pub use options::{is_http_url, NetworkInput, Options, DEFAULT_ANALYTICS_URL, DEFAULT_API_URL};
pub use slice::{Note, Outcome, Requests, Slice, SliceId};
pub use snapshot::*;

pub use crate::account::host_requests::{RECEIPT_POLLS_MAX, RECEIPT_POLL_MS};
/// The host's `getProvider()` is an EIP-1193 (eip155) provider: the shell asks this before telling
/// the engine of a request.
pub use crate::chain::eip155::watches_host_request;
pub use crate::connect::slice::RECONNECT_TIMEOUT_MS;
use crate::account::slice::AccountSlice;
use crate::connect::slice::ConnectSlice;
use crate::connect::switch_slice::SwitchSlice;
use crate::service::constants::IMAGE_PRELOAD_TIMEOUT_MS;
use crate::service::errors::WmError;
use crate::service::gates::{gates, BUILT};
use crate::service::slice::ServiceSlice;
use crate::ui::banner::BannerVariant;
use crate::ui::router::closing_blocked;
use crate::ui::slice::UiSlice;
pub(crate) use json::obj;

/// How long an error or success banner stays (a loading banner stays until replaced).
pub const BANNER_SHOWN_MS: u64 = 6_000;
/// The SDK type sent as `st` to every service.
pub const SDK_TYPE: &str = "wallet-modal";

pub struct Engine {
    ctx: Ctx,
    ui: UiSlice,
    service: ServiceSlice,
    connect: ConnectSlice,
    switch: SwitchSlice,
    account: AccountSlice,
}

/// What `handle` gives back.
#[derive(Clone, Debug)]
pub struct Output {
    pub effects: Vec<Effect>,
    pub snapshot: Snapshot,
}

impl Engine {
    pub fn new(opts: Options) -> Engine {
        let mut engine = Engine {
            ctx: Ctx::new(),
            ui: UiSlice::default(),
            service: ServiceSlice::default(),
            connect: ConnectSlice::default(),
            switch: SwitchSlice::default(),
            account: AccountSlice::default(),
        };
        // Effects of the first options (an error for a missing project id) go out with the first event.
        engine.set_options(opts);
        engine
    }

    /// New options from the host (an attribute or property changed).
    pub fn set_options(&mut self, opts: Options) {
        let ctx = &mut self.ctx;
        let (networks, unknown) = opts.resolve_networks();
        ctx.opts = opts;
        ctx.networks = networks;
        for _ in unknown {
            ctx.alert(&WmError::NetworkNotFound);
        }
        self.service.options_changed(ctx);
        let missing = ctx.opts.project_id().is_empty();
        if missing && ctx.config_error.is_none() {
            ctx.config_error = Some(WmError::ProjectIdNotConfigured);
            ctx.emit_error(&WmError::ProjectIdNotConfigured);
            ctx.alert(&WmError::ProjectIdNotConfigured);
        } else if !missing {
            ctx.config_error = None;
        }
        if let Some(default) = ctx.opts.default_network.clone() {
            if ctx.active_network.is_none() && ctx.network(&default).is_some() {
                ctx.active_network = Some(default);
            }
        }
        if ctx.active_network.as_deref().is_some_and(|a| ctx.network(a).is_none()) {
            ctx.active_network = None;
        }
        self.deliver_notes();
    }

    /// Handles one event at `now_ms`.
    pub fn handle(&mut self, event: Event, now_ms: u64) -> Output {
        self.ctx.now = self.ctx.now.max(now_ms);
        self.ctx.modal.tick(self.ctx.now);
        self.route(event);
        self.deliver_notes();
        Output { effects: std::mem::take(&mut self.ctx.out), snapshot: self.snapshot() }
    }

    /// Each event to its slice; each answer to the slice that asked; each timer to its owner.
    fn route(&mut self, event: Event) {
        let ctx = &mut self.ctx;
        match event {
            Event::Ui(e) => self.ui.handle(e, ctx),
            Event::Connect(e) => self.connect.handle(e, ctx),
            Event::Switch(e) => self.switch.handle(e, ctx),
            Event::Account(e) => self.account.handle(e, ctx),
            Event::Service(e) => self.service.handle(e, ctx),
            Event::ProviderResult { id, result, error } => {
                let outcome = match error {
                    Some(e) => Err(WmError::from_provider_code(e.code.unwrap_or(0), e.message.as_deref().unwrap_or(""))),
                    None => Ok(result.unwrap_or(crate::service::json::Value::Null)),
                };
                match SliceId::of_request(id) {
                    Some(SliceId::Connect) => self.connect.on_provider_result(id, outcome, ctx),
                    Some(SliceId::Switch) => self.switch.on_provider_result(id, outcome, ctx),
                    Some(SliceId::Account) => self.account.on_provider_result(id, outcome, ctx),
                    Some(SliceId::Service) => self.service.on_provider_result(id, outcome, ctx),
                    Some(SliceId::Ui) => self.ui.on_provider_result(id, outcome, ctx),
                    _ => {}
                }
            }
            Event::FetchResult { id, status, body } => match SliceId::of_request(id) {
                Some(SliceId::Connect) => self.connect.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Switch) => self.switch.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Account) => self.account.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Service) => self.service.on_fetch_result(id, status, &body, ctx),
                Some(SliceId::Ui) => self.ui.on_fetch_result(id, status, &body, ctx),
                _ => {}
            },
            Event::Timer { id } => match ctx.timer_owner(&id) {
                Some(SliceId::Connect) => self.connect.on_timer(&id, ctx),
                Some(SliceId::Switch) => self.switch.on_timer(&id, ctx),
                Some(SliceId::Account) => self.account.on_timer(&id, ctx),
                Some(SliceId::Service) => self.service.on_timer(&id, ctx),
                Some(SliceId::Ui) => self.ui.on_timer(&id, ctx),
                _ => {}
            },
        }
    }

    /// Every note raised goes to every slice, in the order raised (notes may raise notes).
    fn deliver_notes(&mut self) {
        while !self.ctx.notes.is_empty() {
            let notes = std::mem::take(&mut self.ctx.notes);
            for note in &notes {
                let ctx = &mut self.ctx;
                self.ui.on_note(note, ctx);
                self.service.on_note(note, ctx);
                self.connect.on_note(note, ctx);
                self.switch.on_note(note, ctx);
                self.account.on_note(note, ctx);
            }
        }
    }

    /// The state the views render: the frame's part here, each slice's part from the slice.
    pub fn snapshot(&self) -> Snapshot {
        let ctx = &self.ctx;
        let active = ctx.active_caip_network();
        let active = active.as_deref();
        let view = ctx.router.view();
        let gates = gates(&ctx.features, BUILT);
        Snapshot {
            open: ctx.modal.open,
            embedded: ctx.opts.embedded,
            loading: ctx.modal.loading,
            shake: ctx.modal.is_shaking(ctx.now),
            view,
            title: self.connect.title(view).unwrap_or(view.title()).into(),
            can_go_back: ctx.router.can_go_back(),
            // Embedded in the page, there is nothing to close.
            can_close: !ctx.opts.embedded && !closing_blocked(view, false, false),
            banner: ctx.banner.current().map(|b| BannerView {
                variant: match b.variant {
                    BannerVariant::Loading => "loading",
                    BannerVariant::Success => "success",
                    BannerVariant::Error => "error",
                },
                message: b.message.clone(),
            }),
            wallet_request: self.account.wallet_request(ctx),
            theme_mode: if self.ui.dark { "dark" } else { "light" },
            connect_methods: gates.connect_methods,
            socials: gates.socials,
            connectors: self.connect.rows(ctx),
            status: ctx.conn.statuses(),
            account: self.account.view(ctx, |id| self.connect.connector_name_of(id)),
            network: active.and_then(|a| ctx.network(a)).map(|n| ctx.network_view(n, active)),
            networks: ctx.networks.iter().map(|n| ctx.network_view(n, active)).collect(),
            connecting: self.connect.connecting_view(),
            wallet_connect: self.connect.wallet_connect_view(ctx),
            switching: self.switch.view(ctx, active),
            all_wallets: self.connect.all_wallets_view(ctx),
            config_error: ctx.config_error.as_ref().map(ErrorInfo::from),
            image_preload_timeout_ms: IMAGE_PRELOAD_TIMEOUT_MS,
            // walletFeaturesOrder (spec): onramp, swaps, receive, send. Whether the connected
            // family and network can swap is the Swap screen's to say (trade::swap, Adapter::swaps).
            onramp: gates.onramp,
            swaps: gates.swaps,
            // The project's own swap networks; the account module adds the spec's list (§9).
            swap_networks: ctx.features.swap_networks.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod harness;
