//! Sign In With Farcaster, the wallet service's side (on the frame listener): the service is the
//! app of the Farcaster auth protocol, the relay's client as `@farcaster/auth-client`'s app client
//! is (`createChannel`, `watchStatus`, `verifySignInMessage`).
//!
//! - `POST /w/v1/farcaster/channel` `{origin, projectId, deviceId}` → opens a channel at the relay
//!   over HTTP (`siweUri` = the embedding origin, `domain` = its host and port, a nonce of the
//!   service's own, `acceptAuthAddress: false`), remembers what it asked, for which device and
//!   project, answers `{url, channelToken}`;
//! - `POST /w/v1/farcaster/connect` `{channelToken, deviceId}` → 403 'This sign-in was started on
//!   another device' (and the channel is forgotten) unless `deviceId` is the one that opened it;
//!   then a long-poll (at most [`FarcasterConfig::connect_wait`](crate::farcaster::FarcasterConfig),
//!   408 meanwhile) reading the relay's status; once the Farcaster client approved, checks the
//!   message and its signature ([`crate::farcaster::siwf::verify`]) and logs in `farcaster:<fid>`
//!   of the channel's project with [`Wallet::login`](super::Wallet::login): the answer of
//!   `/w/v1/email/verify` plus `userName` and `socialProvider`. A failed check is 400 with its
//!   reason; an unknown channel 400; an expired one 410.
//!
//! A Farcaster login needs no device approval: the custody signature is the proof, and the device
//! that made it is approved for the account.

use std::sync::{Arc, Mutex};

use tokio::time::Instant;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::table::{ClientTable, Lifetime};
use super::{body, hex, random_bytes, spend, ApiError, ApiResult, VerifiedIdentity};
use crate::farcaster::{client, is_relay_domain, siwf};
use crate::AppState;

/// Longest embedding origin accepted.
pub const MAX_ORIGIN: usize = 2048;
/// Longest channel token accepted (the relay's are 32 characters).
pub const MAX_CHANNEL_TOKEN: usize = 128;

/// What the service asked the relay for, per channel token.
#[derive(Debug, Clone)]
struct Pending {
    domain: String,
    uri: String,
    nonce: String,
    /// The device that opened the channel: the only one that may connect with it.
    device_id: String,
    /// The project whose account the sign-in logs into.
    project_id: String,
    expires: Instant,
    /// Bumped by each connect request: an older one still waiting gives way to the newer.
    generation: u64,
}

impl Lifetime for Pending {
    fn expired(&self, now: Instant) -> bool {
        self.expires <= now
    }
}

struct Fc {
    app: Arc<AppState>,
    /// By channel token, charged to the client that opened it.
    pending: Mutex<ClientTable<String, Pending>>,
}

type Shared = Arc<Fc>;

pub fn router<S: Clone + Send + Sync + 'static>(app: Arc<AppState>) -> Router<S> {
    let cfg = &app.config.farcaster;
    let pending = ClientTable::new(cfg.max_channels, cfg.max_channels_per_client);
    Router::new()
        .route("/w/v1/farcaster/channel", post(channel))
        .route("/w/v1/farcaster/connect", post(connect))
        .with_state(Arc::new(Fc {
            pending: Mutex::new(pending),
            app,
        }))
}

/// `http(s)://host[:port]` (no path, no credentials) → `(siweUri, domain)`.
fn parse_origin(origin: &str) -> Option<(String, String)> {
    if origin.len() > MAX_ORIGIN {
        return None;
    }
    let rest = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))?;
    let domain = rest.strip_suffix('/').unwrap_or(rest);
    if !is_relay_domain(domain) || domain.len() > crate::farcaster::MAX_DOMAIN {
        return None;
    }
    if let Some((_, port)) = domain.split_once(':') {
        port.parse::<u16>().ok().filter(|p| *p > 0)?;
    }
    let host = domain.split(':').next()?;
    if host.starts_with(['.', '-']) || host.ends_with(['.', '-']) || host.contains("..") {
        return None;
    }
    let scheme = &origin[..origin.len() - rest.len()];
    let domain = domain.to_ascii_lowercase();
    Some((format!("{scheme}{domain}"), domain))
}

fn channel_token(t: &str) -> bool {
    (1..=MAX_CHANNEL_TOKEN).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn relay_url(st: &AppState) -> String {
    st.config.farcaster.relay_url.clone().unwrap_or_else(|| {
        format!(
            "{}{}",
            st.origin.lock().unwrap(),
            crate::farcaster::RELAY_PREFIX
        )
    })
}

fn unreachable_relay() -> ApiError {
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "The Farcaster relay could not be reached",
    )
}

fn expired() -> ApiError {
    ApiError::new(
        StatusCode::GONE,
        "The Farcaster sign-in expired: start again",
    )
}

async fn channel(State(fc): State<Shared>, req: Request) -> ApiResult {
    let st = &fc.app;
    let client = crate::client::of(req.extensions());
    let b = body::json(st, req).await?;
    let origin = b.str("origin")?;
    let (siwe_uri, domain) = parse_origin(origin)
        .ok_or_else(|| ApiError::bad("Invalid origin: expected http(s)://host[:port]"))?;
    let project = b.str("projectId").unwrap_or_default();
    if !st.config.projects.origin_allowed(project, origin) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "This origin is not allowed for the project",
        ));
    }
    body::check_project(&st.config.projects, project)?;
    let device_id = b.device_id()?.to_string();
    spend(&st.wallet.budgets.starts, client)?;
    let nonce = hex(&random_bytes::<16>());
    let asked = json!({
        "siweUri": siwe_uri,
        "domain": domain,
        "nonce": nonce,
        "acceptAuthAddress": false,
    });
    let a = client::create_channel(&relay_url(st), &asked)
        .await
        .map_err(|_| unreachable_relay())?;
    if a.status != 201 {
        let why = a.str("message").or(a.str("error")).unwrap_or("refused");
        let why: String = why.chars().take(200).collect();
        return Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            format!("The Farcaster relay refused the sign-in: {why}"),
        ));
    }
    let token = a.str("channelToken").filter(|t| channel_token(t));
    let url = a
        .str("url")
        .filter(|u| u.len() <= 4096 && (u.starts_with("http://") || u.starts_with("https://")));
    let (Some(token), Some(url)) = (token, url) else {
        return Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            "The Farcaster relay sent an unexpected answer",
        ));
    };
    if a.str("nonce") != Some(nonce.as_str()) {
        return Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            "The Farcaster relay changed the nonce",
        ));
    }
    let cfg = &st.config.farcaster;
    let pending = Pending {
        domain,
        uri: siwe_uri,
        nonce,
        device_id,
        project_id: project.to_string(),
        expires: Instant::now() + cfg.channel_ttl,
        generation: 0,
    };
    fc.pending
        .lock()
        .unwrap()
        .insert(token.to_string(), client, pending)
        .map_err(ApiError::no_room)?;
    Ok(Json(json!({ "url": url, "channelToken": token })))
}

/// Where a connect request stands after one look at the channel.
enum Step {
    Wait,
    Done(Result<Value, ApiError>),
}

async fn connect(State(fc): State<Shared>, req: Request) -> ApiResult {
    let st = fc.app.clone();
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let b = body::json(&st, req).await?;
    let token = b.str("channelToken")?;
    if !channel_token(token) {
        return Err(ApiError::bad("Invalid channelToken"));
    }
    let device_id = b.device_id()?.to_string();
    let token = token.to_string();
    let generation = {
        let mut g = fc.pending.lock().unwrap();
        let Some(p) = g.get_mut(&token) else {
            return Err(ApiError::bad(
                "Unknown Farcaster sign-in: ask for a new link",
            ));
        };
        if p.expires <= Instant::now() {
            g.remove(&token);
            return Err(expired());
        }
        if p.device_id != device_id {
            // Handed to another device (login CSRF): the channel is burned.
            g.remove(&token);
            return Err(super::social::another_device());
        }
        p.generation += 1;
        p.generation
    };
    let cfg = st.config.farcaster.clone();
    let relay = relay_url(&st);
    let deadline = Instant::now() + cfg.connect_wait;
    let mut closing = w.closing();
    loop {
        match look(&fc, &relay, &token, generation, &device_id, client).await {
            Step::Done(r) => return r.map(Json),
            Step::Wait => {}
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "The Farcaster sign-in was not approved yet",
            ));
        }
        tokio::select! {
            _ = tokio::time::sleep(cfg.poll_interval.min(left)) => {}
            _ = closing.wait_for(|v| *v) => {
                return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "The server is stopping"));
            }
        }
    }
}

/// One read of the relay's status for `token`; on completion, the verification and the login.
async fn look(
    fc: &Fc,
    relay: &str,
    token: &str,
    generation: u64,
    device_id: &str,
    client: crate::client::Client,
) -> Step {
    let pending = {
        let mut g = fc.pending.lock().unwrap();
        let key = token.to_string();
        match g.get(&key) {
            Some(p) if p.generation != generation => {
                return Step::Done(Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "A newer request waits for this Farcaster sign-in",
                )))
            }
            Some(p) if p.expires <= Instant::now() => {
                g.remove(&key);
                return Step::Done(Err(expired()));
            }
            Some(p) => p.clone(),
            None => {
                return Step::Done(Err(ApiError::bad(
                    "Unknown Farcaster sign-in: ask for a new link",
                )))
            }
        }
    };
    let a = match client::status(relay, token).await {
        Ok(a) => a,
        Err(_) => return Step::Done(Err(unreachable_relay())),
    };
    match a.status {
        202 => return Step::Wait,
        200 => {}
        401 => {
            fc.pending.lock().unwrap().remove(&token.to_string());
            return Step::Done(Err(expired()));
        }
        _ => return Step::Done(Err(unreachable_relay())),
    }
    // Completed: the relay has closed the channel; so does the service (one login per channel).
    fc.pending.lock().unwrap().remove(&token.to_string());
    let (Some(message), Some(signature)) = (a.str("message"), a.str("signature")) else {
        return Step::Done(Err(ApiError::bad(
            "The Farcaster client sent no signed message",
        )));
    };
    let expected = siwf::Expected {
        domain: &pending.domain,
        uri: &pending.uri,
        nonce: &pending.nonce,
    };
    let relay_fid = a.json.get("fid").and_then(Value::as_u64);
    let user = match siwf::verify(message, signature, relay_fid, &expected, crate::now_ms()) {
        Ok(u) => u,
        Err(why) => return Step::Done(Err(ApiError::bad(why))),
    };
    let w = &fc.app.wallet;
    let identity = VerifiedIdentity {
        user_id: format!("farcaster:{}", user.fid),
        email: None,
        user_name: Some(user.username.to_string()),
        social_provider: Some("farcaster".to_string()),
    };
    let login = w
        .login(&identity, device_id, &pending.project_id, client)
        .map(|mut v| {
            let account = v["userId"].as_str().and_then(|id| w.accounts.get(id));
            v["userName"] = json!(account.as_ref().and_then(|a| a.user_name.clone()));
            v["socialProvider"] = json!(account.and_then(|a| a.social_provider));
            v
        });
    Step::Done(login)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_become_a_siwe_uri_and_a_domain() {
        assert_eq!(
            parse_origin("http://127.0.0.1:4173"),
            Some(("http://127.0.0.1:4173".into(), "127.0.0.1:4173".into()))
        );
        assert_eq!(
            parse_origin("https://App.Example.com"),
            Some(("https://app.example.com".into(), "app.example.com".into()))
        );
        assert_eq!(
            parse_origin("http://localhost:5173/"),
            Some(("http://localhost:5173".into(), "localhost:5173".into()))
        );
        for bad in [
            "",
            "127.0.0.1:4173",
            "ftp://example.com",
            "http://example.com/path",
            "http://user@example.com",
            "http://[::1]:4173",
            "http://example.com:99999",
            "http://example.com:0",
            "http://.example.com",
            "http://a..b",
            "javascript:alert(1)",
        ] {
            assert_eq!(parse_origin(bad), None, "{bad}");
        }
        assert_eq!(parse_origin(&format!("http://{}", "a".repeat(3000))), None);
    }

    #[test]
    fn channel_tokens_are_short_and_alphanumeric() {
        assert!(channel_token("ABCD2345"));
        assert!(!channel_token(""));
        assert!(!channel_token("a b"));
        assert!(!channel_token(&"A".repeat(129)));
    }
}
