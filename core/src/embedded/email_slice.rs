//! The email slice: EmailLogin (email → device approval → code → connected, with the 30 s throttle
//! and its countdown) and UpdateEmailWallet (the two-step email change), through the secure frame.
//! The rules are [`EmailFlow`]'s; once the code is right, the engine connects the embedded wallet
//! (`connectEmbedded`), whose provider reads who logged in.

use crate::chain::family::WalletCall;
use crate::embedded::email::{EmailFlow, Step};
use crate::embedded::frame::AppEvent;
use crate::embedded::connectors::FRAME_CONNECTOR;
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

const TIMER_COUNTDOWN: &str = "email-countdown";

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Email,
    Device,
    Otp,
    Update,
    UpdateOtp { primary: bool },
}

#[derive(Default)]
pub struct EmailSlice {
    flow: EmailFlow,
    /// The logged-in visitor's email (for the email change).
    current: Option<String>,
    /// The engine was told the login sent its code (its namespace shows connecting).
    started: bool,
    requests: Requests<Asked>,
}

fn frame(ctx: &mut Ctx, event: AppEvent, payload: Value) -> u64 {
    ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: payload })
}

fn navigate(ctx: &mut Ctx, view: View) {
    ctx.dispatch(obj(vec![("type", "navigate".into()), ("view", view.name().into())]));
}

impl Slice for EmailSlice {
    const NAME: &'static str = "email";
    const EVENTS: &'static [&'static str] = &["emailSubmit", "emailOtp", "emailResend", "openUpdateEmail", "updateEmailSubmit", "updateEmailOtp"];
    const PARTS: &'static [&'static str] = &["email", "emailUpdate"];
    const VIEWS: &'static [View] = &[View::EmailLogin, View::UpdateEmailWallet];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "emailSubmit" => {
                let email = bounded(string(o, "email")?, 1024)?;
                if let Ok(payload) = self.flow.submit(&email, ctx.now) {
                    self.flow.resent = false;
                    navigate(ctx, View::EmailLogin);
                    self.send(ctx, AppEvent::ConnectEmail, payload, Asked::Email);
                }
            }
            "emailResend" => {
                let email = self.flow.email.clone();
                let step = self.flow.step();
                if matches!(step, Step::Otp | Step::Device) {
                    match self.flow.submit(&email, ctx.now) {
                        Ok(payload) => {
                            self.flow.resent = true;
                            self.send(ctx, AppEvent::ConnectEmail, payload, Asked::Email);
                        }
                        // Throttled: the code step stays, the countdown shows under it.
                        Err(m) => self.flow.code_error = Some(m),
                    }
                    if self.flow.step() == Step::Idle {
                        self.flow.step = Some(step);
                    }
                }
            }
            "emailOtp" => {
                let otp = bounded(string(o, "otp")?, 64)?;
                if let Ok(payload) = self.flow.otp(&otp) {
                    self.send(ctx, AppEvent::ConnectOtp, payload, Asked::Otp);
                }
            }
            "openUpdateEmail" => {
                if self.current.is_some() {
                    self.flow.update.cancel();
                    self.flow.update_error = None;
                    self.flow.update_busy = false;
                    navigate(ctx, View::UpdateEmailWallet);
                }
            }
            "updateEmailSubmit" => {
                let email = bounded(string(o, "email")?, 1024)?;
                if let Ok(payload) = self.flow.update_start(&email, self.current.as_deref()) {
                    self.send(ctx, AppEvent::UpdateEmail, payload, Asked::Update);
                }
            }
            _ => {
                let otp = bounded(string(o, "otp")?, 64)?;
                if let Ok((event, payload)) = self.flow.update_otp(&otp) {
                    let primary = event == AppEvent::UpdateEmailPrimaryOtp;
                    self.send(ctx, event, payload, Asked::UpdateOtp { primary });
                }
            }
        }
        self.schedule(ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            // Logged in (by email or otherwise): the login is done.
            Note::EmbeddedUser(Some(u)) => {
                self.current = u.email.clone();
                self.flow.reset();
            }
            Note::EmbeddedUser(None) => {
                self.current = None;
                // The code was right, but the account could not be read.
                if self.flow.step() == Step::Connecting {
                    self.flow.step = Some(Step::Idle);
                    self.flow.field_error = Some(WmError::FailedToConnect.message());
                }
            }
            Note::Shown(v) if *v != View::EmailLogin && self.flow.step() != Step::Connecting => self.abandon(ctx),
            Note::Closed if self.flow.step() != Step::Connecting => self.abandon(ctx),
            _ => {}
        }
        if let Note::EmbeddedUser(Some(_)) = note {
            self.started = false;
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Email => {
                self.flow.sent(outcome.as_ref(), ctx.now);
                if !self.started && matches!(self.flow.step(), Step::Otp | Step::Device | Step::Connecting) {
                    self.started = true;
                    login(ctx, true);
                }
                if self.flow.step() == Step::Device {
                    self.send(ctx, AppEvent::ConnectDevice, json!({}), Asked::Device);
                } else if self.flow.step() == Step::Connecting {
                    connect(ctx);
                }
            }
            Asked::Device => match outcome {
                Ok(_) if self.flow.step() == Step::Device => self.flow.step = Some(Step::Otp),
                Err(e) if self.flow.step() == Step::Device => {
                    self.flow.step = Some(Step::Idle);
                    self.flow.field_error = Some(e.message());
                }
                _ => {}
            },
            Asked::Otp => {
                if self.flow.verified(outcome.as_ref()) {
                    connect(ctx);
                }
            }
            Asked::Update => {
                self.flow.update_busy = false;
                match outcome {
                    Ok(v) => self.flow.update.on_update_email_success(&v),
                    Err(e) => {
                        self.flow.update.on_update_email_error();
                        self.flow.update_error = Some(e.message());
                    }
                }
            }
            Asked::UpdateOtp { primary } => {
                self.flow.update_busy = false;
                match outcome {
                    Ok(_) if primary => self.flow.update.on_primary_otp_success(),
                    Ok(v) => {
                        if let Some(new_email) = self.flow.update.on_secondary_otp_success() {
                            let new_email = v.get("email").and_then(Value::as_str).filter(|e| !e.is_empty() && e.len() <= 254).map(str::to_string).unwrap_or(new_email);
                            self.current = Some(new_email.clone());
                            // The provider's user (and the Account view) follow.
                            ctx.note(Note::EmbeddedEmail(new_email));
                        }
                    }
                    Err(e) => self.flow.update_error = Some(e.message()),
                }
            }
        }
        self.schedule(ctx);
    }

    fn on_timer(&mut self, _id: &str, ctx: &mut Ctx) {
        // The throttle's countdown: the next tick while its message still shows.
        self.flow.countdown(ctx.now);
        self.schedule(ctx);
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("email").value(&self.flow.view(ctx.now)).key("emailUpdate").value(&self.flow.update_view());
    }
}

impl EmailSlice {
    /// The login was left before it connected: it starts over, and the engine resets its namespace.
    fn abandon(&mut self, ctx: &mut Ctx) {
        self.flow.reset();
        if std::mem::take(&mut self.started) {
            login(ctx, false);
        }
    }

    fn send(&mut self, ctx: &mut Ctx, event: AppEvent, payload: Value, asked: Asked) {
        let rid = frame(ctx, event, payload);
        self.requests.insert(rid, asked);
    }

    /// The countdown's next tick while the throttle's message shows.
    fn schedule(&self, ctx: &mut Ctx) {
        if self.flow.throttle_shows() {
            let ms = 1_000 - self.flow.throttle.remaining_ms(ctx.now) % 1_000;
            ctx.timer(TIMER_COUNTDOWN, if ms == 0 { 1_000 } else { ms });
        }
    }
}

/// Tells the engine the login sent its code (`started`) or was left.
fn login(ctx: &mut Ctx, started: bool) {
    ctx.dispatch(obj(vec![("type", "embeddedLogin".into()), ("started", started.into())]));
}

/// The login succeeded: the engine connects the embedded wallet.
pub fn connect(ctx: &mut Ctx) {
    ctx.dispatch(obj(vec![("type", "connectEmbedded".into())]));
}

fn bounded(s: String, max: usize) -> Result<String, String> {
    if s.len() <= max {
        Ok(s)
    } else {
        Err("the text is too long".into())
    }
}
