//! The secure frame's page (`GET /frame`) and script (`GET /frame/{*path}`: `dist/frame/*.js` and
//! `*.js.map` only), and the HTML pages of the wallet service (device approval).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::ApiError;
use crate::AppState;

pub const FRAME_HTML: &str = "<!doctype html><html><head><meta charset=utf-8><title>wallet-modal secure frame</title></head><body><script type=module src=\"/frame/frame.js\"></script></body></html>";

/// The frame page's policy: its own scripts only; `connect-src` also any http(s) URL because the
/// frame reads and sends transactions through the active network's `rpcUrl` (anvil in the demo,
/// a hosted RPC in production); embeddable by any http(s) page, since the frame itself refuses to
/// start unless the embedding origin is allowed for the project (`/w/v1/origins`).
pub const FRAME_CSP: &str = "default-src 'none'; script-src 'self'; connect-src 'self' http: https:; style-src 'self'; frame-ancestors http: https:; base-uri 'none'; form-action 'self'";

/// The service's own pages (device approval): no script, no style, never framed.
pub const PAGE_CSP: &str =
    "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/frame", get(frame))
        .route("/frame/{*path}", get(frame_file))
}

/// An HTML page of the frame's origin with its CSP, never cached.
pub(crate) fn html(status: StatusCode, body: String, csp: &'static str) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn frame() -> Response {
    html(StatusCode::OK, FRAME_HTML.to_string(), FRAME_CSP)
}

/// `dist/frame/…`: scripts and their source maps only.
async fn frame_file(State(st): State<Arc<AppState>>, Path(path): Path<String>) -> Response {
    if !(path.ends_with(".js") || path.ends_with(".js.map")) {
        return ApiError::new(StatusCode::NOT_FOUND, "Not found").into_response();
    }
    crate::files::serve(&st.options.root.join("dist").join("frame"), &path).await
}

/// A small page of the service, `body` being trusted HTML (escape what comes from outside).
pub fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let doc = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · wallet-modal</title></head><body><main>{body}</main></body></html>",
        title = escape(title),
    );
    let mut res = html(status, doc, PAGE_CSP);
    res.headers_mut()
        .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// HTML text and attribute escaping (the on-ramp pages' own).
pub use crate::onramp::checkout::esc as escape;
