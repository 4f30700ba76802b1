//! Device approval: the link mailed for a device not approved for (project, email) opens a page
//! (`GET /w/v1/device/approve?token=`) whose button posts the form (`POST`, same path); approving
//! makes the account when the address has none in the project yet (so an account exists only once
//! its mailbox said so), approves the device for it, mails the login code and wakes
//! `POST /w/v1/device/wait`. A GET never approves (mail scanners open links).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use super::email::send_login_code;
use super::frame_page::{escape, page};
use super::store::{email_identity, Link};
use super::{body, validate, ApiError, ApiResult, VerifiedIdentity};
use crate::AppState;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/w/v1/device/wait", post(wait))
        .route("/w/v1/device/approve", get(approve_page).post(approve))
}

/// Waits (at most the configured 100 s) until the device is approved.
async fn wait(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let b = body::json(&st, req).await?;
    let email = b.email()?;
    let device_id = b.device_id()?;
    let project = b.project_id(&st.config.projects)?;
    let identity = email_identity(project, &email);
    let approved = || json!({ "approved": true });
    let Some(mut rx) = w.approvals.subscribe(project, &email, device_id) else {
        return match w.accounts.find(&identity) {
            Some(a) if a.devices.contains(device_id) => Ok(Json(approved())),
            _ => Err(ApiError::bad("No device approval is pending")),
        };
    };
    let mut closing = w.closing();
    // With a store shared by several server processes the link may be opened on another one: the
    // account is asked every second too.
    let shared = w.approvals.shared();
    let approved_elsewhere = async {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            if shared && w.accounts.find(&identity).is_some_and(|a| a.devices.contains(device_id)) {
                return;
            }
        }
    };
    let woken = async {
        tokio::select! {
            r = rx.wait_for(|v| *v) => { let _ = r; }
            _ = approved_elsewhere => {}
        }
    };
    tokio::select! {
        r = tokio::time::timeout(w.config.device_wait, woken) => {
            if r.is_err() {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "The device was not approved in time",
                ));
            }
        }
        _ = closing.wait_for(|v| *v) => {
            return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "The server is stopping"));
        }
    }
    // Woken, or the approval was replaced and dropped: the account says which.
    match w.accounts.find(&identity) {
        Some(a) if a.devices.contains(device_id) => Ok(Json(approved())),
        _ => Err(ApiError::bad("No device approval is pending")),
    }
}

fn token_of(q: &HashMap<String, String>) -> Option<&str> {
    q.get("token")
        .map(String::as_str)
        .filter(|t| validate::token(t))
}

fn link_problem(link: &Link) -> Response {
    let (status, text) = match link {
        Link::Expired => (
            StatusCode::GONE,
            "This approval link has expired. Ask for a new one by logging in again on your new device.",
        ),
        _ => (
            StatusCode::NOT_FOUND,
            "This approval link is not valid (it may have been used already).",
        ),
    };
    page(status, "Device approval", &format!("<p>{text}</p>"))
}

async fn approve_page(
    State(st): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let Some(token) = token_of(&q) else {
        return link_problem(&Link::Unknown);
    };
    let target = match st.wallet.approvals.lookup(token) {
        Link::Valid(t) => t,
        other => return link_problem(&other),
    };
    let email = escape(&target.email);
    let known = st
        .wallet
        .accounts
        .find(&email_identity(&target.project_id, &target.email))
        .is_some();
    let (title, text) = if known {
        (
            "Approve this device?",
            format!(
                "<p>A new device asked to log in to the wallet of <strong>{email}</strong>.</p>"
            ),
        )
    } else {
        (
            "Confirm it's you signing in",
            format!("<p>A device asked to sign in with <strong>{email}</strong> for the first time: approving it makes your wallet.</p>"),
        )
    };
    let body = format!(
        "<h1>{title}</h1>{text}\
         <p>Approve it only if you just tried to sign in there.</p>\
         <form method=\"post\" action=\"/w/v1/device/approve\">\
         <input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <button type=\"submit\">Approve this device</button>\
         </form>",
    );
    page(StatusCode::OK, "Approve this device", &body)
}

/// `token=<64 hex>` from an `application/x-www-form-urlencoded` body.
fn form_token(body: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(body).ok()?;
    s.split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == "token")
        .map(|(_, v)| v.to_string())
        .filter(|t| validate::token(t))
}

async fn approve(State(st): State<Arc<AppState>>, req: Request) -> Response {
    let w = &st.wallet;
    let bytes = match body::bytes(&st, req).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let Some(token) = form_token(&bytes) else {
        return link_problem(&Link::Unknown);
    };
    let target = match w.approvals.lookup(&token) {
        Link::Valid(t) => t,
        other => return link_problem(&other),
    };
    // The account first (a new address gets its account now, charged to the device that asked),
    // then the code; the device is approved only once its code is on its way.
    let identity = VerifiedIdentity::email(&target.email);
    let account = match w.account_for(&identity, &target.project_id, target.requester) {
        Ok(a) => a,
        Err(e) => {
            let text = format!(
                "<p>The device could not be approved: {}.</p>",
                escape(&e.message)
            );
            return page(e.status, "Device approval", &text);
        }
    };
    let sent = send_login_code(
        w,
        &target.project_id,
        &target.email,
        &target.device_id,
        target.requester,
    )
    .await;
    if let Err(e) = sent {
        return page(
            e.status,
            "Device approval",
            "<p>The device could not be approved: the email with its login code could not be sent. Try this link again in a moment.</p>",
        );
    }
    if w.accounts.approve_device(&account.user_id, &target.device_id).is_err() {
        return page(
            StatusCode::SERVICE_UNAVAILABLE,
            "Device approval",
            "<p>The device could not be approved: the wallet service could not save it. Try this link again in a moment.</p>",
        );
    }
    w.approvals
        .complete(&target.project_id, &target.email, &target.device_id);
    page(
        StatusCode::OK,
        "Device approved",
        "<h1>Device approved</h1><p>Your new device is approved: its login code is on its way to your inbox. You can close this page.</p>",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_token_is_64_hex() {
        let t = "ab".repeat(32);
        assert_eq!(form_token(format!("token={t}").as_bytes()), Some(t.clone()));
        assert_eq!(
            form_token(format!("x=1&token={t}").as_bytes()),
            Some(t.clone())
        );
        assert_eq!(form_token(b"token=abc"), None);
        assert_eq!(form_token(b""), None);
    }
}
