//! `POST /w/v1/email/start` and `POST /w/v1/email/verify`: logging in with a code mailed to the
//! email, from a device approved for (project, email).
//!
//! A device that is not approved yet (a new address included) first gets the approval link by
//! mail (`{action: "VERIFY_DEVICE"}`); the code is mailed only once the mailbox approved it. So a
//! code alone never makes an account nor binds a key to one, and the answer of `email/start` says
//! nothing about whether the address has an account. Guessing is bounded per address (each burned
//! code doubles the wait for the next one, [`super::throttle::Throttle`]) and per client (a budget
//! of tries, [`super::Budgets::tries`]).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;

use super::otp::{new_code, PendingCode, Refused};
use super::store::email_identity;
use super::throttle::Held;
use super::{body, mail, spend, ApiError, ApiResult, VerifiedIdentity, Wallet};
use crate::client::Client;
use crate::AppState;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/w/v1/email/start", post(start))
        .route("/w/v1/email/verify", post(verify))
}

/// The 429 (or 503) of an address whose mail slot is not free.
pub(super) fn held(h: Held) -> ApiError {
    match h {
        Held::Wait {
            seconds,
            backoff: true,
        } => ApiError::wait(
            seconds,
            format!(
                "Too many wrong codes for this email: please try again after {seconds} seconds"
            ),
        ),
        Held::Wait { seconds, .. } => ApiError::throttled(seconds),
        Held::NoRoom(n) => ApiError::no_room(n),
    }
}

async fn start(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let b = body::json(&st, req).await?;
    let email = b.email()?;
    let device_id = b.device_id()?;
    let project = b.project_id(&st.config.projects)?;
    spend(&w.budgets.mails, client)?;
    w.throttle.take(&email, client).map_err(held)?;
    let sent = if w.device_approved(&email_identity(project, &email), device_id) {
        send_login_code(w, project, &email, device_id, client).await
    } else {
        send_approval_link(w, project, &email, device_id, client).await
    };
    match sent {
        Ok(action) => Ok(Json(json!({ "action": action }))),
        Err(e) => {
            w.throttle.release(&email);
            Err(e)
        }
    }
}

/// A new code for (`project`, `email`), to be entered on `device_id`, mailed (the old code is
/// replaced); charged to `client`, the device's.
pub(super) async fn send_login_code(
    w: &Wallet,
    project: &str,
    email: &str,
    device_id: &str,
    client: Client,
) -> Result<&'static str, ApiError> {
    let code = new_code();
    let pending = PendingCode::new(&w.pepper, &code, w.config.code_ttl);
    w.codes
        .insert(project, email, device_id, client, pending)
        .map_err(ApiError::no_room)?;
    if let Err(e) = w.send_mail(&mail::login_code(email, &code)).await {
        w.codes.remove(project, email);
        return Err(e);
    }
    Ok("VERIFY_OTP")
}

async fn send_approval_link(
    w: &Wallet,
    project: &str,
    email: &str,
    device_id: &str,
    client: Client,
) -> Result<&'static str, ApiError> {
    let origin = w.frame_origin().ok_or_else(ApiError::mail_failed)?;
    let token = w
        .approvals
        .create(project, email, device_id, client, w.config.device_link_ttl)
        .map_err(ApiError::no_room)?;
    let link = format!("{origin}/w/v1/device/approve?token={token}");
    // Said to the mailbox only: the answer is VERIFY_DEVICE either way.
    let known = w.accounts.find(&email_identity(project, email)).is_some();
    let m = if known {
        mail::device_approval(email, &link)
    } else {
        mail::first_sign_in(email, &link)
    };
    w.send_mail(&m).await?;
    Ok("VERIFY_DEVICE")
}

async fn verify(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let b = body::json(&st, req).await?;
    let email = b.email()?;
    let device_id = b.device_id()?;
    let otp = b.otp()?;
    let project = b.project_id(&st.config.projects)?;
    spend(&w.budgets.tries, client)?;
    let taken = w.codes.take(
        &w.pepper,
        project,
        &email,
        device_id,
        otp,
        w.config.max_code_attempts,
    );
    match taken {
        Ok(()) => {}
        Err(Refused::Wrong) => return Err(ApiError::bad("Invalid code")),
        Err(Refused::Burned) => {
            // The address waits longer for its next code ([`super::throttle::Throttle::burn`]).
            w.throttle.burn(&email);
            return Err(ApiError::bad("Too many attempts: ask for a new code"));
        }
        Err(Refused::TooManyAttempts) => {
            return Err(ApiError::bad("Too many attempts: ask for a new code"))
        }
        Err(Refused::Expired) => return Err(ApiError::new(StatusCode::GONE, "Code expired")),
        Err(Refused::Store) => return Err(ApiError::store_failed()),
    }
    // A code is mailed only to an approved device; this covers an account that took the email
    // meanwhile (an email change).
    if !w.device_approved(&email_identity(project, &email), device_id) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "This device is not approved: open the link in the email",
        ));
    }
    w.throttle.clear_burns(&email);
    w.login(&VerifiedIdentity::email(&email), device_id, project, client)
        .map(Json)
}
