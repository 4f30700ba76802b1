//! The secure frame's page (`GET /frame?projectId=…`) and its files (`GET /frame/{*path}`:
//! `dist/frame/*.js` and `*.css` only, never source maps), and the HTML pages of the wallet
//! service (device approval).
//!
//! The frame page is the one response of the frame listener that may be framed, and only by the
//! project's allowed origins: its `frame-ancestors` lists them ([`frame_ancestors`]). Every other
//! response says `frame-ancestors 'none'` ([`super::NEVER_FRAMED`], added by the listener's
//! middleware), and HTML ones `X-Frame-Options: DENY` too.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::{validate, ApiError, Embeddable};
use crate::projects::Projects;
use crate::AppState;

pub const FRAME_HTML: &str = "<!doctype html><html lang=\"en\"><head><meta charset=utf-8><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>wallet-modal secure frame</title><link rel=\"stylesheet\" href=\"/frame/frame.css\"></head><body><script type=module src=\"/frame/frame.js\"></script></body></html>";

/// The frame page's policy but `frame-ancestors`: its own scripts and stylesheets only;
/// `connect-src` also any http(s) URL because the frame reads and sends transactions through the
/// active network's `rpcUrl` (anvil in the demo, a hosted RPC in production).
pub const FRAME_CSP_BASE: &str = "default-src 'none'; script-src 'self'; connect-src 'self' http: https:; style-src 'self'; base-uri 'none'; form-action 'self'";

/// The service's own pages (device approval): no script, no style, never framed.
pub const PAGE_CSP: &str =
    "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The files of `dist/frame/` the frame listener serves: the frame's scripts and its stylesheet.
/// Source maps are not among them (they would publish the frame's sources and internals).
pub const FRAME_FILE_TYPES: [&str; 2] = [".js", ".css"];

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/frame", get(frame))
        .route("/frame/{*path}", get(frame_file))
}

/// An HTML page of the frame's origin with its CSP, never cached.
pub(crate) fn html(status: StatusCode, body: String, csp: &str) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// An allowed-origin pattern (`[scheme://]host[:port][/…]`, see `wm_core::service::origins`) as a
/// CSP host-source, when one expresses it: an `http`/`https` scheme or none; a host of
/// `[a-z0-9-]` labels, optionally after a leading `*.` (CSP's `*.` also admits deeper
/// subdomains; the frame's own origin check still holds them to the pattern); a port of digits or
/// `*`. Anything else (IPv6 literals, a `*` inside a label, other schemes, any other character) is
/// left out, so no pattern can add CSP syntax (`;`, quotes, spaces, commas).
pub fn csp_source(pattern: &str) -> Option<String> {
    let p = pattern.trim().to_ascii_lowercase();
    let (scheme, rest) = match p.split_once("://") {
        Some((s, rest)) if s == "http" || s == "https" => (Some(s), rest),
        Some(_) => return None,
        None => (None, p.as_str()),
    };
    // The pattern's path is ignored by the origin check: only its authority counts.
    let authority = rest.split(['/', '?', '#']).next()?;
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, port)) => (h, Some(port)),
        None => (authority, None),
    };
    let label = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    let bare = host.strip_prefix("*.").unwrap_or(host);
    if host.len() > 253 || !bare.split('.').all(label) {
        return None;
    }
    let port_ok =
        |p: &str| p == "*" || ((1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    if port.is_some_and(|p| !port_ok(p)) {
        return None;
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push_str("://");
    }
    out.push_str(host);
    if let Some(p) = port {
        out.push(':');
        out.push_str(p);
    }
    Some(out)
}

/// The `frame-ancestors` directive of the frame page for `project`: the project's allowed origins
/// (those `/w/v1/origins` gives) that CSP can express; `'none'` for no project, an invalid or
/// refused one, or when none can be expressed.
pub fn frame_ancestors(projects: &Projects, project: Option<&str>) -> String {
    let Some(project) = project.filter(|p| validate::project_id(p)) else {
        return "frame-ancestors 'none'".to_string();
    };
    if projects.check_id(project).is_err() {
        return "frame-ancestors 'none'".to_string();
    }
    let sources: Vec<String> = projects.origins(project)
        .iter()
        .filter_map(|o| csp_source(o))
        .collect();
    if sources.is_empty() {
        "frame-ancestors 'none'".to_string()
    } else {
        format!("frame-ancestors {}", sources.join(" "))
    }
}

/// The frame page's whole policy for `project`.
pub fn frame_csp(projects: &Projects, project: Option<&str>) -> String {
    format!("{FRAME_CSP_BASE}; {}", frame_ancestors(projects, project))
}

async fn frame(State(st): State<Arc<AppState>>, Query(q): Query<HashMap<String, String>>) -> Response {
    let csp = frame_csp(&st.config.projects, q.get("projectId").map(String::as_str));
    let mut res = html(StatusCode::OK, FRAME_HTML.to_string(), &csp);
    res.extensions_mut().insert(Embeddable);
    res
}

/// `dist/frame/…`: scripts and stylesheets only.
async fn frame_file(State(st): State<Arc<AppState>>, Path(path): Path<String>) -> Response {
    if !FRAME_FILE_TYPES.iter().any(|t| path.ends_with(t)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_origin_patterns_become_csp_host_sources() {
        for (pattern, source) in [
            ("http://127.0.0.1:*", "http://127.0.0.1:*"),
            ("https://only.example.com", "https://only.example.com"),
            ("https://*.example.com", "https://*.example.com"),
            (
                "HTTPS://App.Example.com:8443/",
                "https://app.example.com:8443",
            ),
            ("example.com", "example.com"),
            ("localhost:3000", "localhost:3000"),
        ] {
            assert_eq!(csp_source(pattern).as_deref(), Some(source), "{pattern}");
        }
    }

    #[test]
    fn patterns_csp_cannot_express_or_that_carry_csp_syntax_are_left_out() {
        for pattern in [
            "https://a.com; script-src *",
            "https://a.com 'unsafe-inline'",
            "https://a.com,https://b.com",
            "https://a.com'",
            "https://a\"b.com",
            "https://app-*.example.com",
            "https://a.*.example.com",
            "*",
            "http://[::1]:8080",
            "ftp://example.com",
            "javascript://a.com",
            "https://a.com:80x",
            "https://a.com:",
            "https://",
            "",
            "https://a..com",
            "https://user@a.com",
        ] {
            assert_eq!(csp_source(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn the_frame_page_policy_names_the_projects_origins_or_none() {
        assert_eq!(
            frame_ancestors(&Projects::Demo, Some("demo-project")),
            "frame-ancestors http://127.0.0.1:* http://localhost:*"
        );
        assert_eq!(
            frame_ancestors(&Projects::Demo, Some("foreign-origin")),
            "frame-ancestors https://only.example.com"
        );
        for none in [None, Some(""), Some("bad"), Some("a b"), Some("a;b")] {
            assert_eq!(frame_ancestors(&Projects::Demo, none), "frame-ancestors 'none'", "{none:?}");
        }
        let csp = frame_csp(&Projects::Demo, Some("demo-project"));
        assert!(csp.starts_with(FRAME_CSP_BASE) && csp.contains("style-src 'self'"));
    }
}
