//! The farcaster slice: ConnectingFarcaster — the frame gives a Sign In With Farcaster link, shown
//! as a QR code and an "Open in Farcaster" link, then waits for the visitor to sign in their
//! Farcaster app and connects.

use crate::chain::family::WalletCall;
use crate::embedded::email_slice::connect;
use crate::embedded::frame::AppEvent;
use crate::embedded::connectors::FRAME_CONNECTOR;
use crate::embedded::connectors::user_from_frame;
use crate::host::json::Fields;
use crate::host::{is_http_url, Ctx, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Writer};
use crate::ui::qr::{EcLevel, QrCode};
use crate::ui::router::View;

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Uri,
    Connect,
}

#[derive(Clone, Debug, Default)]
struct Farcaster {
    url: Option<String>,
    qr: Option<String>,
    error: Option<String>,
}

#[derive(Default)]
pub struct FarcasterSlice {
    farcaster: Option<Farcaster>,
    requests: Requests<Asked>,
}

impl Slice for FarcasterSlice {
    const NAME: &'static str = "farcaster";
    const EVENTS: &'static [&'static str] = &["farcasterLogin"];
    const PARTS: &'static [&'static str] = &["farcaster"];
    const VIEWS: &'static [View] = &[View::ConnectingFarcaster];

    fn event(&mut self, _ty: &str, _o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        self.farcaster = Some(Farcaster::default());
        ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", View::ConnectingFarcaster.name().into())]));
        self.send(ctx, AppEvent::GetFarcasterUri, Asked::Uri);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, _ctx: &mut Ctx) {
        match note {
            Note::Shown(v) if *v != View::ConnectingFarcaster => self.farcaster = None,
            Note::Closed | Note::EmbeddedUser(Some(_)) => self.farcaster = None,
            _ => {}
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        let Some(f) = self.farcaster.as_mut() else { return };
        match asked {
            Asked::Uri => match outcome.ok().as_ref().and_then(|v| v.get("url")?.as_str().filter(|u| u.len() <= 2048 && is_http_url(u)).map(str::to_string)) {
                Some(url) => {
                    f.qr = QrCode::encode(url.as_bytes(), EcLevel::M).ok().map(|q| q.to_svg());
                    f.url = Some(url);
                    self.send(ctx, AppEvent::ConnectFarcaster, Asked::Connect);
                }
                None => self.failed(ctx),
            },
            Asked::Connect => match outcome.ok().as_ref().and_then(user_from_frame) {
                Some(_) => connect(ctx),
                None => self.failed(ctx),
            },
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        w.key("farcaster");
        match &self.farcaster {
            Some(f) => {
                w.begin_object().key("url").opt_str(f.url.as_deref()).key("qr").opt_str(f.qr.as_deref()).key("error").opt_str(f.error.as_deref());
                w.end_object();
            }
            None => {
                w.null();
            }
        }
    }
}

impl FarcasterSlice {
    fn send(&mut self, ctx: &mut Ctx, event: AppEvent, asked: Asked) {
        let rid = ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: json!({}) });
        self.requests.insert(rid, asked);
    }

    fn failed(&mut self, ctx: &mut Ctx) {
        if let Some(f) = self.farcaster.as_mut() {
            f.error = Some(WmError::FarcasterConnectionFailed.message());
        }
        ctx.emit_error(&WmError::FarcasterConnectionFailed);
    }
}
