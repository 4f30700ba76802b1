//! The ui slice: the modal frame. Opening (which view first), closing, back, navigation, the shake,
//! the theme, the notification banner, and the configuration error. The router, modal state and
//! banner themselves are shared facts in the [`Ctx`]: every slice navigates and shows banners.

use crate::host::json::{boolean, opt_string, string, Fields};
use crate::host::{obj, Ctx, Note, Slice};
use crate::service::constants::IMAGE_PRELOAD_TIMEOUT_MS;
use crate::service::errors::WmError;
use crate::service::json::Writer;
use crate::ui::banner::BannerVariant;
use crate::ui::router::{closing_blocked, host_view, initial_view, Back, HostView, OpenContext, View};

#[derive(Default)]
pub struct UiSlice {
    dark: bool,
    /// Closing is refused now (a module said so: sign-in is required): the visitor's close shakes.
    locked: bool,
}

fn view(o: &mut Fields, key: &str) -> Result<View, String> {
    string(o, key).ok().as_deref().and_then(View::from_name).ok_or_else(|| crate::host::json::bad(key))
}

impl Slice for UiSlice {
    const NAME: &'static str = "ui";
    const EVENTS: &'static [&'static str] = &["open", "close", "back", "navigate", "showBanner", "theme", "dismissBanner", "dismiss", "lock", "unlock", "shake"];
    const PARTS: &'static [&'static str] =
        &["open", "embedded", "loading", "shake", "view", "title", "canGoBack", "canClose", "themeMode", "banner", "configError", "imagePreloadTimeoutMs"];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            // Host `open({view, namespace})`. A view name that is not a view opens anyway.
            "open" => {
                let name = opt_string(o, "view")?;
                let namespace = opt_string(o, "namespace")?;
                let view = name.as_deref().and_then(View::from_name);
                if let Some(name) = name.filter(|_| view.is_none()) {
                    // The name is the host's: kept short for the error message.
                    let e = WmError::UnknownView { name: name.chars().take(64).collect() };
                    ctx.alert_text("UNKNOWN_VIEW", &e.message());
                    ctx.emit_error(&e);
                }
                open(ctx, view, namespace, None)
            }
            // The visitor's close (Escape, the backdrop, the close button: `dismiss`) while closing
            // is refused (`lock`, `unlock`: a module says so) shakes the modal (spec §4); the
            // page's own `close()` closes.
            "dismiss" if self.locked => ctx.shake(),
            "close" | "dismiss" => ctx.close(),
            "lock" | "unlock" => self.locked = ty == "lock",
            // A module refused what the visitor asked.
            "shake" => ctx.shake(),
            "back" => match ctx.router.go_back(ctx.connected()) {
                Back::Close => ctx.close(),
                Back::Shown(_) => ctx.shown(),
            },
            // Go to a view (`reset`: as the first one); a lazily loaded module's screen
            // (EmailLogin, ApproveTransaction) opens the modal on it when closed.
            "navigate" => {
                let view = view(o, "view")?;
                let reset = boolean(o, "reset", Some(false))?;
                if ctx.modal.open || ctx.opts.embedded {
                    if reset {
                        ctx.router.reset(view);
                    } else {
                        ctx.router.push(view);
                    }
                    ctx.shown();
                } else {
                    open(ctx, None, None, Some(view));
                }
            }
            // An error banner from a lazily loaded module ('Action not allowed').
            // A banner from a lazily loaded module: an error ('Action not allowed'), or with
            // `variant` a success ('Address copied') or loading ('Transaction sent.').
            "showBanner" => {
                let message: String = string(o, "message")?.chars().take(120).collect();
                let variant = match opt_string(o, "variant")?.as_deref() {
                    Some("success") => BannerVariant::Success,
                    Some("loading") => BannerVariant::Loading,
                    _ => BannerVariant::Error,
                };
                ctx.show_banner(variant, &message)
            }
            // The theme in force changed (light or dark after resolving `system`).
            "theme" => self.dark = boolean(o, "dark", None)?,
            "dismissBanner" => {
                ctx.banner.hide();
            }
            _ => {}
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        if let Note::Options = note {
            let missing = ctx.opts.project_id().is_empty();
            if missing && ctx.config_error.is_none() {
                ctx.config_error = Some(WmError::ProjectIdNotConfigured);
                ctx.emit_error(&WmError::ProjectIdNotConfigured);
                ctx.alert(&WmError::ProjectIdNotConfigured);
            } else if !missing {
                ctx.config_error = None;
            }
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        let view = ctx.router.view();
        w.key("open").bool(ctx.modal.open).key("embedded").bool(ctx.opts.embedded).key("loading").bool(ctx.modal.loading);
        w.key("shake").bool(ctx.modal.is_shaking(ctx.now)).key("view").str(view.name());
        w.key("title").str(ctx.title.unwrap_or(view.title())).key("canGoBack").bool(ctx.router.can_go_back());
        // Embedded in the page, there is nothing to close.
        w.key("canClose").bool(!ctx.opts.embedded && !closing_blocked(view, false, false));
        w.key("themeMode").str(if self.dark { "dark" } else { "light" });
        w.key("banner");
        match ctx.banner.current() {
            Some(b) => {
                let variant = match b.variant {
                    BannerVariant::Loading => "loading",
                    BannerVariant::Success => "success",
                    BannerVariant::Error => "error",
                };
                w.begin_object().key("variant").str(variant).key("message").str(&b.message).end_object();
            }
            None => {
                w.null();
            }
        }
        w.key("configError");
        crate::service::errors::write_error(w, ctx.config_error.as_ref());
        w.key("imagePreloadTimeoutMs").u64(IMAGE_PRELOAD_TIMEOUT_MS);
    }
}

/// Opens the modal on the view the host asked for when it can be shown, else on the one that fits
/// (spec 4, "Router"); a project without an id shows ConfigError. A slice's own view (`on`: a
/// request to approve, a login step) opens the modal on it directly.
fn open(ctx: &mut Ctx, view: Option<View>, namespace: Option<String>, on: Option<View>) {
    if ctx.config_error.is_some() {
        ctx.router.reset(View::ConfigError);
    } else if let Some(v) = on {
        ctx.router.reset(v);
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
        // A screen whose feature the project switched off opens as if not asked for.
        let gates = crate::service::gates::gates(&ctx.features);
        let requested = requested.filter(|v| match v {
            View::Swap if !gates.swaps => false,
            View::OnRampProviders if !gates.onramp => false,
            _ => true,
        });
        if let Some(v) = view.filter(|v| requested != Some(*v) && matches!(v, View::Swap | View::OnRampProviders) && ctx.connected()) {
            ctx.alert_text(&format!("FEATURE_OFF_{}", v.name()), &format!("The {} view is off in this project's features", v.name()));
        }
        let open = OpenContext { has_adapters: !ctx.namespaces().is_empty(), connected: ctx.connected(), mobile: ctx.opts.mobile, requested };
        let mut v = initial_view(&open);
        // A wallet on a network the page does not configure: UnsupportedChain, unless the host
        // turned the network switch off (`enable-network-switch="false"`).
        let unsupported = ctx.active_unsupported() && ctx.opts.enable_network_switch;
        if v.parent() == Some(View::Account) && unsupported {
            v = View::Account;
        }
        if v == View::Account && unsupported {
            v = View::UnsupportedChain;
        }
        ctx.router.reset(v);
        // An account screen (Swap, Send, Receive, Buy, the wallets) opens over the Account view:
        // back returns to it, as when the visitor opened it from there.
        if let Some(parent) = v.parent() {
            ctx.router.reset(parent);
            ctx.router.push(v);
        }
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
