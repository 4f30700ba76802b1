//! `POST /w/v1/email/start` and `POST /w/v1/email/verify`: logging in with a code mailed to the
//! email, or first approving the device when the email already has an account.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;

use super::otp::{new_code, PendingCode, Refused};
use super::store::email_identity;
use super::{body, mail, validate, ApiError, ApiResult, VerifiedIdentity, Wallet};
use crate::AppState;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/w/v1/email/start", post(start))
        .route("/w/v1/email/verify", post(verify))
}

/// The project checks of the other APIs (`bad` → 403, …), and a length bound.
fn check_project(project_id: &str) -> Result<(), ApiError> {
    if project_id.len() > validate::MAX_PROJECT_ID {
        return Err(ApiError::bad("projectId is too long"));
    }
    let q = HashMap::from([("projectId".to_string(), project_id.to_string())]);
    crate::check_project(&q, &Default::default())
        .map(|_| ())
        .map_err(|(status, msg)| ApiError::new(status, msg))
}

async fn start(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let b = body::json(&st, req).await?;
    let email = b.email()?;
    let device_id = b.device_id()?;
    check_project(b.str("projectId")?)?;
    match w.throttle.take(&email) {
        Ok(()) => {}
        Err(Some(seconds)) => return Err(ApiError::throttled(seconds)),
        Err(None) => return Err(ApiError::full()),
    }
    let sent = match w.accounts.find(&email_identity(&email)) {
        Some(account) if !account.devices.contains(device_id) => {
            send_approval_link(w, &email, device_id, &account.user_id).await
        }
        _ => send_login_code(w, &email, device_id).await,
    };
    match sent {
        Ok(action) => Ok(Json(json!({ "action": action }))),
        Err(e) => {
            w.throttle.release(&email);
            Err(e)
        }
    }
}

/// A new code for `email`, to be entered on `device_id`, mailed (the old code is replaced).
pub(super) async fn send_login_code(
    w: &Wallet,
    email: &str,
    device_id: &str,
) -> Result<&'static str, ApiError> {
    let code = new_code();
    let pending = PendingCode::new(&w.pepper, &code, w.config.code_ttl);
    if !w.codes.insert(email, device_id, pending) {
        return Err(ApiError::full());
    }
    if let Err(e) = w.send_mail(&mail::login_code(email, &code)).await {
        w.codes.remove(email);
        return Err(e);
    }
    Ok("VERIFY_OTP")
}

async fn send_approval_link(
    w: &Wallet,
    email: &str,
    device_id: &str,
    user_id: &str,
) -> Result<&'static str, ApiError> {
    let origin = w.frame_origin().ok_or_else(ApiError::mail_failed)?;
    let token = w
        .approvals
        .create(email, device_id, user_id, w.config.device_link_ttl)
        .ok_or_else(ApiError::full)?;
    let link = format!("{origin}/w/v1/device/approve?token={token}");
    w.send_mail(&mail::device_approval(email, &link)).await?;
    Ok("VERIFY_DEVICE")
}

async fn verify(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let b = body::json(&st, req).await?;
    let email = b.email()?;
    let device_id = b.device_id()?;
    let otp = b.otp()?;
    let taken = w.codes.take(
        &w.pepper,
        &email,
        device_id,
        otp,
        w.config.max_code_attempts,
    );
    match taken {
        Ok(()) => {}
        Err(Refused::Wrong) => return Err(ApiError::bad("Invalid code")),
        Err(Refused::TooManyAttempts) => {
            return Err(ApiError::bad("Too many attempts: ask for a new code"))
        }
        Err(Refused::Expired) => return Err(ApiError::new(StatusCode::GONE, "Code expired")),
    }
    let identity = VerifiedIdentity::email(&email);
    // A code is mailed to an unapproved device only after its approval; this covers an account
    // that took the email meanwhile (an email change).
    if !w.device_approved(&identity.user_id, device_id) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "This device is not approved: open the link in the email",
        ));
    }
    w.login(&identity, device_id).map(Json)
}
