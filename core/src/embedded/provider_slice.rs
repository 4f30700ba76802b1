//! The embedded wallet's provider slice: the `embedded` connector, which the engine connects like
//! any wallet once a login succeeded, and which the host's `getProvider()` and the account's own
//! slices ask. It knows who is logged in (the frame's Login user, asked when first needed: a login
//! just done, or a stored session restored), answers the account and chain methods itself, sends
//! a network switch and the safe methods of the allow-list (spec §6) to the frame, hands the
//! methods that sign to the approval slice (the `approval` connector), refuses every other method,
//! and signs out when the engine releases the connector.

use crate::chain::family::{self, EmbeddedMethod, WalletCall};
use crate::embedded::connectors::{answer, frame_chain, frame_network, namespace_of, rpc_payload, user_from_frame, APPROVAL_CONNECTOR, FRAME_CONNECTOR};
use crate::embedded::frame::AppEvent;
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Fact, EmbeddedUser, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::errors::WmError;
use crate::service::json::{obj, Value, Writer};
use crate::ui::router::View;

pub use crate::connect::slice::EMBEDDED_ID;
/// The wait for the frame's sign-out (spec §9).
pub use crate::service::constants::SIGN_OUT_WAIT_MS;
const TIMER_SIGN_OUT: &str = "embedded-signout";
/// Account requests waiting for the frame at most.
const WAITING_MAX: usize = 32;

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    /// Whether the frame has a session (then who is logged in).
    Session,
    User,
    SignOut,
    Switch { key: String, network: String },
    /// A safe method sent to the frame: its answer is the host's.
    Forward { key: String },
    /// A signing method handed to the approval slice, which answers the host itself.
    Handed,
}

#[derive(Default)]
pub struct ProviderSlice {
    user: Option<EmbeddedUser>,
    /// The network the frame acts on, once switched (CAIP-2; else the active network's).
    network: Option<String>,
    /// Account requests (key, method) waiting for the frame to say who is logged in.
    waiting: Vec<(String, String)>,
    /// 'Action not allowed' while the Account view shows.
    notice: Option<String>,
    signing_out: bool,
    requests: Requests<Asked>,
}

fn frame(ctx: &mut Ctx, event: AppEvent, payload: Value) -> u64 {
    ctx.wallet_request(FRAME_CONNECTOR, WalletCall { method: event.name(), params: payload })
}

fn refused(code: i64, message: String) -> Result<Value, WmError> {
    Err(WmError::Provider { code, message })
}

impl Slice for ProviderSlice {
    const NAME: &'static str = "embeddedWallet";
    const PARTS: &'static [&'static str] = &["embeddedUser", "embeddedNotice"];
    const CONNECTORS: &'static [&'static str] = &[EMBEDDED_ID];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if ty == "release" {
            self.sign_out(ctx);
            return Ok(());
        }
        let key = string(o, "key")?;
        let method = string(o, "method")?;
        if key.len() > 40 {
            return Err("`key` is too long".into());
        }
        if method.is_empty() || method.len() > 64 {
            answer(ctx, key, refused(-32602, "The method name must be 1 to 64 characters".into()));
            return Ok(());
        }
        let params = o.get("params").cloned().unwrap_or(Value::Array(Vec::new()));
        self.request(key, method, params, ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Shown(v) if *v != View::Account => self.notice = None,
            Note::EmbeddedEmail(e) => {
                if let Some(u) = self.user.as_mut() {
                    u.email = Some(e.clone());
                }
            }
            Note::Fact(Fact::Network) if self.network.is_none() => self.network = frame_network(ctx, ctx.active_network.as_deref()),
            _ => {}
        }
        let _ = ctx;
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::Session => match outcome {
                Ok(v) if v.get("isConnected").and_then(Value::as_bool) == Some(true) => {
                    let chain = self.network(ctx).map(|n| frame_chain(ctx, &n).0).unwrap_or(Value::Null);
                    let rid = frame(ctx, AppEvent::GetUser, json!({ "chainId": chain }));
                    self.requests.insert(rid, Asked::User);
                }
                Ok(v) => {
                    if v.get("sessionExpired").and_then(Value::as_bool) == Some(true) {
                        ctx.alert(&WmError::SessionExpired);
                        ctx.emit_error(&WmError::SessionExpired);
                    }
                    self.logged_out(ctx);
                }
                Err(_) => self.logged_out(ctx),
            },
            Asked::User => match outcome.ok().as_ref().and_then(user_from_frame) {
                Some(user) => {
                    self.user = Some(user.clone());
                    ctx.note(Note::EmbeddedUser(Some(user)));
                    self.answer_waiting(ctx);
                }
                None => self.logged_out(ctx),
            },
            Asked::SignOut => self.signing_out = false,
            Asked::Switch { key, network } => match outcome {
                Ok(_) => {
                    self.network = Some(network);
                    answer(ctx, key, Ok(Value::Null));
                }
                Err(e) => answer(ctx, key, Err(e)),
            },
            Asked::Forward { key } => answer(ctx, key, outcome),
            Asked::Handed => {}
        }
    }

    fn on_timer(&mut self, _id: &str, _ctx: &mut Ctx) {
        // The frame did not answer the sign-out within 3 s: signed out here all the same.
        if self.signing_out {
            self.signing_out = false;
            self.requests.drop_where(|a| *a == Asked::SignOut);
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        w.key("embeddedUser");
        EmbeddedUser::write(self.user.as_ref(), w);
        w.key("embeddedNotice").opt_str(self.notice.as_deref());
    }
}

impl ProviderSlice {
    /// The network the frame acts on now.
    fn network(&self, ctx: &Ctx) -> Option<String> {
        frame_network(ctx, self.network.as_deref())
    }

    fn request(&mut self, key: String, method: String, params: Value, ctx: &mut Ctx) {
        let network = self.network(ctx);
        let Some((caip, wallet)) = network.as_deref().and_then(|n| Some((n.to_string(), family::embedded(namespace_of(n))?))) else {
            return answer(ctx, key, refused(4901, "The embedded wallet serves none of this app's networks".into()));
        };
        match wallet.method(&method) {
            EmbeddedMethod::Accounts { .. } if self.user.is_none() => {
                if self.waiting.len() >= WAITING_MAX {
                    return answer(ctx, key, Err(WmError::RpcInvalidRequest));
                }
                self.waiting.push((key, method));
                // A login just done, or a stored session restored: the frame says who is logged in.
                if !self.requests.any(|a| matches!(a, Asked::Session | Asked::User)) {
                    let rid = frame(ctx, AppEvent::IsConnected, json!({}));
                    self.requests.insert(rid, Asked::Session);
                }
            }
            EmbeddedMethod::Accounts { .. } | EmbeddedMethod::Chain => self.account_request(ctx, key, &method),
            EmbeddedMethod::Switch => {
                let Some(target) = wallet.switch_target(&params) else { return answer(ctx, key, refused(-32602, "Invalid chainId".into())) };
                match ctx.network(&target).is_some().then(|| frame_chain(ctx, &target)) {
                    Some((chain, rpc)) => {
                        let rid = frame(ctx, AppEvent::SwitchNetwork, json!({"chainId": chain, "rpcUrl": rpc}));
                        self.requests.insert(rid, Asked::Switch { key, network: target });
                    }
                    None => answer(ctx, key, refused(4902, "Unrecognized chain".into())),
                }
            }
            // The engine's disconnect asks this of every wallet: the embedded wallet's session ends
            // when the engine then releases the connector (SIGN_OUT), so there is nothing to revoke.
            EmbeddedMethod::Revoke => answer(ctx, key, Ok(Value::Null)),
            EmbeddedMethod::Disallowed => {
                ctx.alert(&WmError::RpcMethodNotAllowed);
                self.notice = Some(WmError::RpcMethodNotAllowed.ui_text().unwrap_or("Action not allowed").into()); // i18n
                ctx.dispatch(obj(vec![("type", "showBanner".into()), ("message", "Action not allowed".into())]));
                answer(ctx, key, refused(4200, "Requested RPC call is not allowed".into()))
            }
            _ if self.user.is_none() => answer(ctx, key, refused(4100, WmError::NotConnectedToEmailOrSocial.message())),
            EmbeddedMethod::Safe => {
                let Some(payload) = rpc_payload(ctx, &method, params, &caip) else { return answer(ctx, key, refused(4901, "No chain".into())) };
                let rid = frame(ctx, AppEvent::RpcRequest, payload);
                self.requests.insert(rid, Asked::Forward { key });
            }
            // The approval slice answers the host's request itself (`answer`: the shell's key),
            // once the visitor approved and the frame signed, or when it is refused.
            EmbeddedMethod::NeedsApproval => {
                let address = self.user.as_ref().map(|u| u.address_in(namespace_of(&caip)).to_string()).unwrap_or_default();
                let params = json!({"answer": key, "method": method, "params": params, "address": address, "network": caip});
                let rid = ctx.wallet_request(APPROVAL_CONNECTOR, WalletCall { method: "approve", params });
                self.requests.insert(rid, Asked::Handed);
            }
        }
    }

    fn account_request(&mut self, ctx: &mut Ctx, key: String, method: &str) {
        let Some((caip, wallet)) = self.network(ctx).and_then(|n| Some((n.clone(), family::embedded(namespace_of(&n))?))) else {
            return answer(ctx, key, refused(4901, "The embedded wallet serves none of this app's networks".into()));
        };
        let result = match (wallet.method(method), &self.user) {
            (EmbeddedMethod::Chain, _) => Ok(wallet.chain_answer(&caip)),
            (_, Some(u)) => Ok(json!([u.address_in(namespace_of(&caip))])),
            (EmbeddedMethod::Accounts { silent: true }, None) => Ok(json!([])),
            (_, None) => refused(4100, WmError::NotConnectedToEmailOrSocial.message()),
        };
        answer(ctx, key, result);
    }

    /// Account requests that waited for the frame to say who is logged in.
    fn answer_waiting(&mut self, ctx: &mut Ctx) {
        for (key, method) in std::mem::take(&mut self.waiting) {
            self.account_request(ctx, key, &method);
        }
    }

    /// Nobody is logged in (or the frame could not say): waiting requests are answered, and the
    /// login slices hear it (a login whose account could not be read failed).
    fn logged_out(&mut self, ctx: &mut Ctx) {
        self.user = None;
        ctx.note(Note::EmbeddedUser(None));
        self.answer_waiting(ctx);
    }

    fn sign_out(&mut self, ctx: &mut Ctx) {
        let was = self.user.take().is_some();
        for (key, _) in std::mem::take(&mut self.waiting) {
            answer(ctx, key, refused(4900, "Disconnected".into()));
        }
        if was {
            ctx.note(Note::EmbeddedUser(None));
            self.signing_out = true;
            let rid = frame(ctx, AppEvent::SignOut, json!({}));
            self.requests.insert(rid, Asked::SignOut);
            ctx.timer(TIMER_SIGN_OUT, SIGN_OUT_WAIT_MS);
        }
    }
}
