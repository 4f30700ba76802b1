//! The social slice: logging in with a social account (spec §1: google, github, apple, facebook,
//! x, discord) through the secure frame. The shell opens the 600×800 popup in the visitor's click
//! and watches it; the frame gives the provider's authorization URL, which the popup is sent to;
//! the result comes back from the popup (or, for a Telegram mini-app, in the page's address) and
//! the frame connects it. Closing the popup first says 'Popup closed'.

use crate::chain::family::WalletCall;
use crate::embedded::email_slice::connect;
use crate::embedded::frame::AppEvent;
use crate::embedded::connectors::FRAME_CONNECTOR;
use crate::embedded::connectors::user_from_frame;
use crate::host::json::{string, Fields};
use crate::host::{is_http_url, Ctx, Effect, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{Value, Writer};

/// Whether the slice logs in with this social provider: the spec's socials (`DEFAULT_SOCIALS`),
/// Farcaster apart (its own slice).
pub fn is_social(provider: &str) -> bool {
    provider != "farcaster" && crate::service::constants::DEFAULT_SOCIALS.contains(&provider)
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Uri,
    Connect,
}

/// The social login under way.
#[derive(Clone, Debug, Default)]
struct Social {
    provider: String,
    error: Option<String>,
    busy: bool,
}

#[derive(Default)]
pub struct SocialSlice {
    social: Option<Social>,
    requests: Requests<Asked>,
}

impl Slice for SocialSlice {
    const NAME: &'static str = "social";
    const EVENTS: &'static [&'static str] = &["socialLogin", "popupClosed", "socialResult"];
    const PARTS: &'static [&'static str] = &["social"];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "socialLogin" => {
                let provider = string(o, "provider")?;
                if !is_social(&provider) {
                    return Err(format!("unknown social provider `{}`", provider.chars().take(32).collect::<String>()));
                }
                self.social = Some(Social { provider: provider.clone(), error: None, busy: true });
                self.send(ctx, AppEvent::GetSocialRedirectUri, json!({ "provider": provider }), Asked::Uri);
            }
            "popupClosed" => {
                if let Some(s) = self.social.as_mut().filter(|s| s.busy) {
                    s.busy = false;
                    s.error = Some(WmError::PopupClosed.message());
                    ctx.emit_error(&WmError::PopupClosed);
                    self.requests.drop_where(|a| *a == Asked::Uri);
                }
            }
            _ => {
                let uri = string(o, "uri")?;
                if uri.len() > 4096 || !is_http_url(&uri) {
                    return Err("the social result must be an http(s) URI".into());
                }
                if self.social.as_ref().is_none_or(|s| s.busy) {
                    self.social.get_or_insert_with(Social::default).busy = true;
                    ctx.push(Effect::PopupClose);
                    self.send(ctx, AppEvent::ConnectSocial, json!({ "uri": uri }), Asked::Connect);
                }
            }
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, _ctx: &mut Ctx) {
        match note {
            Note::EmbeddedUser(Some(_)) => self.social = None,
            // The frame connected the result, but the account could not be read.
            Note::EmbeddedUser(None) => {
                if let Some(s) = self.social.as_mut().filter(|s| s.busy) {
                    s.busy = false;
                    s.error = Some(WmError::FailedToConnect.message());
                }
            }
            _ => {}
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Uri => match outcome.ok().as_ref().and_then(|v| v.get("uri")?.as_str().filter(|u| u.len() <= 4096 && is_http_url(u)).map(str::to_string)) {
                Some(url) if self.social.as_ref().is_some_and(|s| s.busy) => ctx.push(Effect::Popup { url }),
                Some(_) => {}
                None => self.failed(ctx),
            },
            Asked::Connect => match outcome.ok().as_ref().and_then(user_from_frame) {
                Some(_) => connect(ctx),
                None => self.failed(ctx),
            },
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        w.key("social");
        match &self.social {
            Some(s) => {
                w.begin_object().key("provider").str(&s.provider).key("busy").bool(s.busy).key("error").opt_str(s.error.as_deref()).end_object();
            }
            None => {
                w.null();
            }
        }
    }
}

impl SocialSlice {
    fn send(&mut self, ctx: &mut Ctx, event: AppEvent, payload: Value, asked: Asked) {
        let rid = ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: payload });
        self.requests.insert(rid, asked);
    }

    fn failed(&mut self, ctx: &mut Ctx) {
        if let Some(s) = self.social.as_mut() {
            s.busy = false;
            s.error = Some(WmError::SocialConnectionFailed.message());
        }
        ctx.push(Effect::PopupClose);
        ctx.emit_error(&WmError::SocialConnectionFailed);
    }
}
