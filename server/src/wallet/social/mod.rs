//! Social login (google, github, apple, facebook, x, discord) through an OpenID Connect provider
//! (`--oidc`: in the demo and the tests the local provider of `demo/oidc/provider.mjs`, one client
//! per provider name), on the frame's origin:
//!
//! - `GET /w/v1/social/uri?provider=&origin=&projectId=&deviceId=` → `{uri}`: the authorization
//!   URL (code flow, PKCE S256, random `state` and `nonce`, `scope=openid email profile`,
//!   `client_id` = the provider name, `redirect_uri` = `{frame origin}/w/v1/social/callback`); the
//!   request is remembered by its `state` for 10 minutes, with the device and project that asked;
//! - `GET /w/v1/social/callback?code=&state=` (the popup lands here): the code is exchanged at the
//!   token endpoint (`client_secret_basic`), the `id_token` verified ([`oidc`]), a one-time result
//!   token made (5 minutes), and the page's script (`/w/v1/social/done.js`) posts
//!   `{type: '@w3m-social/RESULT', resultUri}` to `window.opener`, only to the remembered origin;
//!   any failure answers a page that says what went wrong and posts nothing;
//! - `POST /w/v1/social/connect {resultUri, deviceId}`: the result token, once, then
//!   [`Wallet::login`](crate::wallet::Wallet::login) with the identity `<provider>:<sub>` in the
//!   project of the request.
//!
//! Social logins skip device approval: the provider's sign-in is the proof of the identity (as the
//! mailed code is for an email), and the device that redeems the result is approved for the
//! account. The result token is bound to the device that started the sign-in: redeemed by another
//! `deviceId` it is refused (403) and burned, so a result handed to a victim's page (login CSRF)
//! logs nobody in. It reaches only the window of the origin the frame named (the popup's opener)
//! and the frame, for 5 minutes.

mod flows;
pub mod http;
pub mod oidc;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;

use self::flows::{Flows, Lookup, Pending};
use super::frame_page::{escape, page};
use super::{body, hex, random_bytes, spend, validate, ApiError, ApiResult, VerifiedIdentity};
use crate::AppState;

/// The provider names: each is a client id at the OpenID Connect provider.
pub const PROVIDERS: [&str; 6] = ["google", "github", "apple", "facebook", "x", "discord"];

/// Longest embedding origin accepted by `GET /w/v1/social/uri`.
pub const MAX_ORIGIN: usize = 200;

/// Longest user name kept from the `name` claim (characters).
const MAX_NAME: usize = 100;

/// The environment variable holding the client secret (`wallet-modal-server --oidc`, and the
/// provider script).
pub const SECRET_ENV: &str = "WM_OIDC_CLIENT_SECRET";

/// How social login reaches its OpenID Connect provider.
#[derive(Clone, PartialEq, Eq)]
pub struct SocialConfig {
    /// The provider's issuer, `http://127.0.0.1:P` (`--oidc`); `None`: social login answers 503.
    pub issuer: Option<String>,
    /// The secret of every client (the provider names), from [`SECRET_ENV`].
    pub client_secret: String,
    /// `--oidc-clients google=ID,…`: each provider's client at the issuer (a team's broker, such
    /// as Keycloak, Auth0 or Dex, that signs visitors in with that provider) and its own secret
    /// (`$WM_OIDC_CLIENT_SECRET_GOOGLE`, else [`SECRET_ENV`]'s). Empty: every provider is a client
    /// named after it with the one secret (the demo's provider); else only those listed are offered.
    pub clients: std::collections::BTreeMap<String, OidcClient>,
    /// A pending authorization request is forgotten after this (contract: 10 minutes).
    pub state_ttl: Duration,
    /// A result token is good for this long (contract: 5 minutes).
    pub result_ttl: Duration,
    /// Each exchange with the provider (discovery, token, JWKS) must finish within this.
    pub http_timeout: Duration,
    /// Most pending requests, and most unredeemed results.
    pub max_entries: usize,
    /// Most of each one client (peer IP address) holds: a tenth by default, so that a flood of
    /// sign-ins from one address only evicts its own ([`crate::wallet::table`]).
    pub max_entries_per_client: usize,
}

impl Default for SocialConfig {
    fn default() -> Self {
        SocialConfig {
            issuer: None,
            client_secret: String::new(),
            clients: Default::default(),
            state_ttl: Duration::from_secs(10 * 60),
            result_ttl: Duration::from_secs(5 * 60),
            http_timeout: Duration::from_secs(10),
            max_entries: 10_000,
            max_entries_per_client: 1_000,
        }
    }
}

impl std::fmt::Debug for SocialConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SocialConfig")
            .field("issuer", &self.issuer)
            .field("client_secret", &"<redacted>")
            .field("clients", &self.clients.iter().map(|(p, c)| (p, &c.id)).collect::<Vec<_>>())
            .field("state_ttl", &self.state_ttl)
            .field("result_ttl", &self.result_ttl)
            .field("http_timeout", &self.http_timeout)
            .field("max_entries", &self.max_entries)
            .field("max_entries_per_client", &self.max_entries_per_client)
            .finish()
    }
}

/// One provider's client at the issuer.
#[derive(Clone, PartialEq, Eq)]
pub struct OidcClient {
    pub id: String,
    pub secret: String,
}

impl SocialConfig {
    /// The client id and secret that sign visitors in with `provider`; `None` when this server
    /// does not offer it.
    pub fn client(&self, provider: &str) -> Option<(&str, &str)> {
        if self.clients.is_empty() {
            return PROVIDERS.iter().find(|p| **p == provider).map(|p| (*p, self.client_secret.as_str()));
        }
        self.clients.get(provider).map(|c| (c.id.as_str(), c.secret.as_str()))
    }

    /// `--oidc-clients google=CLIENT_ID,…` with each secret from `secret_of(provider)`.
    pub fn parse_clients(spec: &str, secret_of: impl Fn(&str) -> Option<String>) -> Result<std::collections::BTreeMap<String, OidcClient>, String> {
        let mut out = std::collections::BTreeMap::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (provider, id) = part.split_once('=').ok_or_else(|| format!("--oidc-clients: expected PROVIDER=CLIENT_ID, got {part:?}"))?;
            let (provider, id) = (provider.trim(), id.trim());
            if !PROVIDERS.contains(&provider) {
                return Err(format!("--oidc-clients: unknown provider {provider:?} (one of {})", PROVIDERS.join(", ")));
            }
            let id_ok = (1..=256).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic());
            if !id_ok {
                return Err(format!("--oidc-clients {provider}: the client id must be 1-256 visible characters"));
            }
            let env = format!("{SECRET_ENV}_{}", provider.to_ascii_uppercase());
            let secret = secret_of(&env)
                .or_else(|| secret_of(SECRET_ENV))
                .filter(|s| (32..=256).contains(&s.len()))
                .ok_or_else(|| format!("--oidc-clients {provider}: its client secret (32-256 characters) must be in ${env} or ${SECRET_ENV}"))?;
            if out.insert(provider.to_string(), OidcClient { id: id.to_string(), secret }).is_some() {
                return Err(format!("--oidc-clients: {provider} given twice"));
            }
        }
        if out.is_empty() {
            return Err("--oidc-clients: no client given (PROVIDER=CLIENT_ID,…)".into());
        }
        Ok(out)
    }
}

/// `--oidc URL`: the issuer, exactly as its tokens name it: `https://` (a path such as Keycloak's
/// `/realms/x` and a trailing `/` such as Auth0's kept), or an `http://` origin on loopback (the
/// client secret never crosses a network in the clear; a trailing `/` dropped).
pub fn parse_issuer(s: &str) -> Result<String, String> {
    let bad = || {
        format!("--oidc must be an https:// issuer (or http:// on loopback, like http://127.0.0.1:4180), got {s:?}")
    };
    if s.contains('?') || s.contains('#') {
        return Err(bad());
    }
    if s.starts_with("https://") {
        crate::chain::rpc::parse_upstream_url(s).map_err(|_| bad())?;
        return Ok(s.to_string());
    }
    let s = s.strip_suffix('/').unwrap_or(s);
    let t = crate::chain::rpc::parse_loopback_url(s).map_err(|_| bad())?;
    if t.path != "/" {
        return Err(bad());
    }
    Ok(s.to_string())
}

/// Social login's state: its configuration and the logins in progress.
#[derive(Debug)]
pub struct Social {
    pub config: SocialConfig,
    flows: Flows,
}

impl Social {
    pub fn new(config: SocialConfig) -> Self {
        Social {
            flows: Flows::new(
                config.state_ttl,
                config.result_ttl,
                config.max_entries,
                config.max_entries_per_client,
            ),
            config,
        }
    }
}

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/w/v1/social/uri", get(uri))
        .route("/w/v1/social/callback", get(callback))
        .route("/w/v1/social/done.js", get(done_js))
        .route("/w/v1/social/connect", post(connect))
}

/// `http(s)://host[:port]`, at most 200 characters, as browsers serialise origins (lowercase host,
/// no path); an IPv6 host in brackets.
pub fn valid_origin(s: &str) -> bool {
    if s.len() > MAX_ORIGIN {
        return false;
    }
    let Some(rest) = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
    else {
        return false;
    };
    let (host_ok, port) = if let Some(v6) = rest.strip_prefix('[') {
        let Some((h, after)) = v6.split_once(']') else {
            return false;
        };
        let ok = !h.is_empty()
            && h.bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        match after.strip_prefix(':') {
            Some(p) => (ok, Some(p)),
            None if after.is_empty() => (ok, None),
            None => return false,
        }
    } else {
        let (h, p) = match rest.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        };
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        (h.split('.').all(label_ok), p)
    };
    host_ok
        && port.is_none_or(|p| {
            (1..=5).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n > 0)
        })
}

fn not_configured() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "Social login is not available: the server was started without --oidc",
    )
}

fn unreachable_provider(e: oidc::OidcError) -> ApiError {
    eprintln!("social login: {e}");
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "The sign-in provider could not be reached",
    )
}

async fn uri(
    State(st): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> ApiResult {
    let client = crate::client::of(req.extensions());
    let provider = q
        .get("provider")
        .and_then(|p| PROVIDERS.iter().find(|x| *x == p))
        .copied()
        .ok_or_else(|| ApiError::bad("Unknown provider"))?;
    let Some((client_id, _)) = st.social.config.client(provider) else {
        return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "This server does not offer that provider"));
    };
    let origin = q.get("origin").filter(|o| valid_origin(o)).ok_or_else(|| {
        ApiError::bad("Invalid origin: an http(s) origin of at most 200 characters")
    })?;
    let project = q.get("projectId").map(String::as_str).unwrap_or_default();
    if !st.config.projects.origin_allowed(project, origin) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "This origin is not allowed for the project",
        ));
    }
    body::check_project(&st.config.projects, project)?;
    let device_id = q
        .get("deviceId")
        .filter(|d| validate::device_id(d))
        .ok_or_else(|| ApiError::bad("Invalid deviceId: 16-64 characters of A-Z a-z 0-9 _ -"))?;
    spend(&st.wallet.budgets.starts, client)?;
    let cfg = &st.social.config;
    let issuer = cfg.issuer.as_deref().ok_or_else(not_configured)?;
    let frame = st.wallet.frame_origin().ok_or_else(not_configured)?;
    let d = oidc::discover(issuer, cfg.http_timeout)
        .await
        .map_err(unreachable_provider)?;
    let code_verifier = URL_SAFE_NO_PAD.encode(random_bytes::<32>());
    let nonce = hex(&random_bytes::<16>());
    let state = st
        .social
        .flows
        .start(
            Pending {
                provider,
                origin: origin.clone(),
                code_verifier: code_verifier.clone(),
                nonce: nonce.clone(),
                device_id: device_id.clone(),
                project_id: project.to_string(),
                created: tokio::time::Instant::now(),
                ttl: cfg.state_ttl,
            },
            client,
        )
        .map_err(ApiError::no_room)?;
    let redirect_uri = format!("{frame}{CALLBACK}");
    let uri = oidc::authorization_url(
        &d.authorization_endpoint,
        &oidc::AuthRequest {
            client_id,
            redirect_uri: &redirect_uri,
            state: &state,
            nonce: &nonce,
            code_verifier: &code_verifier,
        },
    );
    Ok(Json(json!({ "uri": uri })))
}

const CALLBACK: &str = "/w/v1/social/callback";
const RESULT: &str = "/w/v1/social/result";

/// A failure page: `heading`, then `text` (plain text, escaped here). It posts nothing.
fn failure(status: StatusCode, heading: &str, text: &str) -> Response {
    page(
        status,
        heading,
        &format!(
            "<h1>{}</h1><p id=\"social-error\">{}</p><p>You can close this window.</p>",
            escape(heading),
            escape(text)
        ),
    )
}

/// `name` without control characters, trimmed, at most [`MAX_NAME`] characters; `None` if empty.
fn clean_name(name: &str) -> Option<String> {
    let s: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME)
        .collect();
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

async fn callback(
    State(st): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> Response {
    let client = crate::client::of(req.extensions());
    let social = &st.social;
    // A state is answered once, whatever the answer.
    let lookup = q
        .get("state")
        .filter(|s| validate::token(s))
        .map(|s| social.flows.take(s));
    if let Some(error) = q.get("error") {
        if error == "access_denied" {
            return failure(
                StatusCode::OK,
                "Sign-in was cancelled",
                "The sign-in was cancelled: nothing was shared. Start again from the app if you like.",
            );
        }
        let mut why: String = error.chars().take(100).collect();
        if let Some(d) = q.get("error_description") {
            why = format!("{why}: {}", d.chars().take(200).collect::<String>());
        }
        return failure(
            StatusCode::BAD_GATEWAY,
            "Sign-in failed",
            &format!("The sign-in provider refused the sign-in ({why})."),
        );
    }
    let p = match lookup {
        Some(Lookup::Valid(p)) => p,
        Some(Lookup::Expired) => {
            return failure(
                StatusCode::GONE,
                "Sign-in expired",
                "This sign-in took too long and has expired: start again from the app.",
            )
        }
        _ => {
            return failure(
                StatusCode::BAD_REQUEST,
                "Sign-in failed",
                "This sign-in is unknown or was already used: start again from the app.",
            )
        }
    };
    let (Some(issuer), Some(frame)) = (social.config.issuer.as_deref(), st.wallet.frame_origin())
    else {
        return failure(
            StatusCode::SERVICE_UNAVAILABLE,
            "Sign-in failed",
            "Social login is not available on this server.",
        );
    };
    // RFC 9207: the answer names its issuer (when the provider says so).
    if q.get("iss").is_some_and(|iss| iss != issuer) {
        return failure(
            StatusCode::BAD_REQUEST,
            "Sign-in failed",
            "The answer came from another sign-in provider.",
        );
    }
    let Some(code) = q.get("code").filter(|c| !c.is_empty() && c.len() <= 2048) else {
        return failure(
            StatusCode::BAD_REQUEST,
            "Sign-in failed",
            "The sign-in provider sent no code.",
        );
    };
    let Some((client_id, client_secret)) = social.config.client(p.provider) else {
        return failure(StatusCode::SERVICE_UNAVAILABLE, "Sign-in failed", "This server does not offer that sign-in provider.");
    };
    let redirect_uri = format!("{frame}{CALLBACK}");
    let timeout = social.config.http_timeout;
    let exchanged = match oidc::discover(issuer, timeout).await {
        Ok(d) => {
            let x = oidc::Exchange {
                issuer,
                client_id,
                client_secret,
                redirect_uri: &redirect_uri,
                code,
                code_verifier: &p.code_verifier,
                nonce: &p.nonce,
            };
            oidc::exchange(&d, &x, timeout).await
        }
        Err(e) => Err(e),
    };
    let claims = match exchanged {
        Ok(c) => c,
        Err(e) => {
            eprintln!("social login ({}): {e}", p.provider);
            let mut text = e.to_string();
            if let Some(first) = text.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            return failure(
                StatusCode::BAD_GATEWAY,
                "Sign-in failed",
                &format!("{text}."),
            );
        }
    };
    let email = claims.email.as_deref().and_then(validate::email);
    let identity = VerifiedIdentity {
        user_id: format!("{}:{}", p.provider, claims.sub),
        user_name: claims
            .name
            .as_deref()
            .and_then(clean_name)
            .or_else(|| email.clone()),
        email,
        social_provider: Some(p.provider.to_string()),
    };
    let token = match social.flows.finish(identity, &p, client) {
        Ok(t) => t,
        Err(n) => {
            let e = ApiError::no_room(n);
            return failure(e.status, "Sign-in failed", &format!("{}.", e.message));
        }
    };
    let result_uri = format!("{frame}{RESULT}?token={token}");
    done_page(&result_uri, &p.origin)
}

/// The policy of the popup's last page: its one script, from this origin; nothing else.
pub const DONE_CSP: &str = "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page that hands `result_uri` to the opener (only to `target_origin`), through `done.js`.
fn done_page(result_uri: &str, target_origin: &str) -> Response {
    let doc = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Signed in · wallet-modal</title></head><body><main>\
         <h1>Signed in</h1><p id=\"social-status\">Returning to the app: this window closes by itself.</p>\
         <div id=\"social-result\" hidden data-result-uri=\"{}\" data-target-origin=\"{}\"></div>\
         </main><script src=\"/w/v1/social/done.js\"></script></body></html>",
        escape(result_uri),
        escape(target_origin),
    );
    let mut res = super::frame_page::html(StatusCode::OK, doc, DONE_CSP);
    res.headers_mut()
        .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// The popup's script: posts the result to the opener, to the named origin only, then closes.
pub const DONE_JS: &str = r#"// wallet-modal: the social login popup's last page hands its result back to the app's window.
(function () {
  var el = document.getElementById('social-result');
  var status = document.getElementById('social-status');
  var resultUri = el && el.getAttribute('data-result-uri');
  var target = el && el.getAttribute('data-target-origin');
  if (!resultUri || !target) return;
  if (!window.opener) {
    if (status) status.textContent = 'Signed in, but the app window that opened this one is gone: close this window and start again from the app.';
    return;
  }
  window.opener.postMessage({ type: '@w3m-social/RESULT', resultUri: resultUri }, target);
  window.close();
})();
"#;

async fn done_js() -> Response {
    let mut res = DONE_JS.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// The token of `{frame}/w/v1/social/result?token=<64 hex>`, nothing more or less.
fn result_token<'a>(uri: &'a str, frame: &str) -> Option<&'a str> {
    let token = uri
        .strip_prefix(frame)?
        .strip_prefix(RESULT)?
        .strip_prefix("?token=")?;
    validate::token(token).then_some(token)
}

/// A sign-in redeemed by another device than the one that started it (403).
pub fn another_device() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "This sign-in was started on another device",
    )
}

async fn connect(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let client = crate::client::of(req.extensions());
    let b = body::json(&st, req).await?;
    let result_uri = b.str("resultUri")?;
    let device_id = b.device_id()?;
    let invalid = || ApiError::bad("Invalid or used sign-in result");
    let frame = st.wallet.frame_origin().ok_or_else(invalid)?;
    let token = result_token(result_uri, &frame).ok_or_else(invalid)?;
    let outcome = st.social.flows.redeem(token).ok_or_else(invalid)?;
    if !super::same_bytes(outcome.device_id.as_bytes(), device_id.as_bytes()) {
        return Err(another_device());
    }
    // No device approval: the provider's sign-in proved the identity (see the module's notes).
    st.wallet
        .login(&outcome.identity, device_id, &outcome.project_id, client)
        .map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_http_or_https_hosts_with_an_optional_port() {
        for good in [
            "http://127.0.0.1:4173",
            "https://app.example.com",
            "http://localhost:1",
            "http://[::1]:8080",
            "https://xn--bcher-kva.example",
        ] {
            assert!(valid_origin(good), "{good}");
        }
        for bad in [
            "",
            "null",
            "127.0.0.1:4173",
            "ftp://example.com",
            "http://",
            "http://example.com/",
            "http://example.com/path",
            "http://Example.com",
            "http://ex ample.com",
            "http://example.com:0",
            "http://example.com:65536",
            "http://example.com:",
            "http://user@example.com",
            "http://[::1]x",
            "javascript:alert(1)",
            "http://a\"><script>",
        ] {
            assert!(!valid_origin(bad), "{bad}");
        }
        let long = format!("https://{}.com", "a".repeat(190));
        assert!(long.len() > MAX_ORIGIN);
        assert!(!valid_origin(&long));
    }

    #[test]
    fn a_result_uri_is_on_the_frame_origin_with_one_token() {
        let t = "ab".repeat(32);
        let f = "http://127.0.0.1:5000";
        assert_eq!(
            result_token(&format!("{f}/w/v1/social/result?token={t}"), f),
            Some(t.as_str())
        );
        for bad in [
            format!("http://127.0.0.1:5001/w/v1/social/result?token={t}"),
            format!("http://localhost:5000/w/v1/social/result?token={t}"),
            format!("{f}/w/v1/social/results?token={t}"),
            format!("{f}/w/v1/social/result?token={t}&x=1"),
            format!("{f}/w/v1/social/result?x=1&token={t}"),
            format!("{f}/w/v1/social/result?token=abc"),
            format!("{f}.evil.test/w/v1/social/result?token={t}"),
        ] {
            assert_eq!(result_token(&bad, f), None, "{bad}");
        }
    }

    #[test]
    fn names_are_trimmed_bounded_and_printable() {
        assert_eq!(clean_name(" Alice \n").as_deref(), Some("Alice"));
        assert_eq!(clean_name("\u{7}\t "), None);
        assert_eq!(
            clean_name(&"é".repeat(300)).unwrap().chars().count(),
            MAX_NAME
        );
    }

    #[test]
    fn the_issuer_flag_is_an_https_origin_or_http_on_loopback() {
        assert_eq!(
            parse_issuer("http://127.0.0.1:4180/").as_deref(),
            Ok("http://127.0.0.1:4180")
        );
        assert!(parse_issuer("http://localhost:4180").is_ok());
        assert_eq!(parse_issuer("https://accounts.google.com").as_deref(), Ok("https://accounts.google.com"));
        assert!(parse_issuer("https://id.example.com:8443").is_ok());
        assert_eq!(parse_issuer("https://kc.example.com/realms/shop").as_deref(), Ok("https://kc.example.com/realms/shop"));
        assert_eq!(parse_issuer("https://tenant.auth0.com/").as_deref(), Ok("https://tenant.auth0.com/"), "as its tokens name it");
        for bad in [
            "http://accounts.google.com",
            "https://accounts.google.com?x=1",
            "http://127.0.0.1:4180/x",
            "http://10.0.0.1:1",
            "127.0.0.1:1",
        ] {
            assert!(parse_issuer(bad).is_err(), "{bad}");
        }
    }
}
