//! The ui slice: the modal frame. Opening (which view first), closing, back, navigation, the shake,
//! the theme and the notification banner. The router, modal state and banner themselves are shared
//! facts in the [`Ctx`]: every slice navigates and shows banners.

use crate::engine::{obj, Ctx, Note, Slice, TIMER_BANNER_HIDE, TIMER_BANNER_REOPEN, TIMER_SHAKE};
use crate::service::errors::WmError;
use crate::ui::router::{host_view, initial_view, Back, HostView, OpenContext, View};

#[derive(Clone, Debug)]
pub enum UiEvent {
    /// Host `open({view, namespace})`. A view name that is not a view comes as `unknown_view`.
    Open { view: Option<View>, unknown_view: Option<String>, namespace: Option<String> },
    Close,
    Back,
    /// Go to a view; a lazily loaded module's screen (EmailLogin, ApproveTransaction) opens the
    /// modal on it when closed.
    Navigate { view: View },
    /// An error banner from a lazily loaded module ('Action not allowed').
    Banner { message: String },
    /// The modal should shake (e.g. a blocked close).
    Shake,
    /// The theme in force changed (light or dark after resolving `system`).
    Theme { dark: bool },
    /// The visitor closed the notification banner.
    DismissBanner,
}

#[derive(Default)]
pub struct UiSlice {
    pub dark: bool,
}

impl Slice for UiSlice {
    type Event = UiEvent;

    fn handle(&mut self, event: UiEvent, ctx: &mut Ctx) {
        match event {
            UiEvent::Open { view, unknown_view, namespace } => {
                if let Some(name) = unknown_view {
                    let e = WmError::UnknownView { name };
                    ctx.alert_text("UNKNOWN_VIEW", &e.message());
                    ctx.emit_error(&e);
                }
                open(ctx, view, namespace)
            }
            UiEvent::Close => ctx.close(),
            UiEvent::Back => match ctx.router.go_back(ctx.connected()) {
                Back::Close => ctx.close(),
                Back::Shown(_) => ctx.shown(),
            },
            UiEvent::Navigate { view } => {
                if ctx.modal.open || ctx.opts.embedded {
                    ctx.router.push(view);
                    ctx.shown();
                } else {
                    open(ctx, None, None);
                    ctx.router.reset(view);
                    ctx.shown();
                }
            }
            UiEvent::Banner { message } => ctx.show_banner(crate::ui::banner::BannerVariant::Error, &message),
            UiEvent::Shake => ctx.shake(),
            UiEvent::Theme { dark } => self.dark = dark,
            UiEvent::DismissBanner => {
                ctx.banner.hide();
            }
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        match id {
            TIMER_BANNER_REOPEN => {
                ctx.banner.tick(ctx.now);
                ctx.banner_timers();
            }
            TIMER_BANNER_HIDE if ctx.banner.deadline().is_none() => {
                ctx.banner.hide();
            }
            TIMER_SHAKE => ctx.modal.tick(ctx.now),
            _ => {}
        }
    }
}

/// Opens the modal on the view the host asked for when it can be shown, else on the one that fits
/// (spec 4, "Router"); a project without an id shows ConfigError.
fn open(ctx: &mut Ctx, view: Option<View>, namespace: Option<String>) {
    if ctx.config_error.is_some() {
        ctx.router.reset(View::ConfigError);
    } else {
        let requested = match view.map(|v| (v, host_view(v, ctx.connected(), ctx.active_unsupported()))) {
            Some((_, HostView::Show(v))) => Some(v),
            Some((v, HostView::NotAvailable)) => {
                let e = WmError::ViewNotAvailable { name: v.name().into() };
                ctx.alert_text("VIEW_NOT_AVAILABLE", &e.message());
                ctx.emit_error(&e);
                None
            }
            Some((_, HostView::Default)) | None => None,
        };
        let open = OpenContext { has_adapters: !ctx.namespaces().is_empty(), connected: ctx.connected(), mobile: ctx.opts.mobile, requested };
        let mut v = initial_view(&open);
        if v == View::Account && ctx.active_unsupported() {
            v = View::UnsupportedChain;
        }
        ctx.router.reset(v);
    }
    let connected = ctx.connected();
    if let Some(ev) = ctx.modal.open(namespace, connected) {
        let name = ctx.router.view().name();
        ctx.emit("open", obj(vec![("view", name.into())]));
        ctx.note(Note::Analytics(ev));
    }
    if ctx.config_error.is_none() {
        ctx.note(Note::Opened);
        ctx.shown();
    }
}

