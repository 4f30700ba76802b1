//! 🔒 routes (`Authorization: Bearer <session>`): the key vault, the session, sign-out, the two-step
//! email change, and the demo's switch that expires a session.
//!
//! The email change mails a code to the current address, then one to the new address: each mail
//! takes the address's change slot (`change:<address>`, one mail per 30 s, apart from the login
//! mails so that a login just made does not hold the change back); each try spends the client's
//! budget of tries; every burned code drops the change, and the third locks the account's email
//! changes for an hour (429 with the wait), whichever step it was at.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use super::email::held;
use super::otp::{new_code, Check, PendingCode};
use super::store::{EmailRefused, KeyRefused, PendingUpdate, UpdateStage};
use super::{body, mail, spend, validate, ApiError, ApiResult, Wallet};
use crate::client::{seconds, Client};
use crate::AppState;

pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/w/v1/key", post(store_key))
        .route("/w/v1/session", get(session))
        .route("/w/v1/signout", post(signout))
        .route("/w/v1/test/expire-session", post(signout))
        .route("/w/v1/email/update", post(update))
        .route("/w/v1/email/update/primary", post(update_primary))
        .route("/w/v1/email/update/secondary", post(update_secondary))
}

fn taken() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "That email belongs to another account",
    )
}

/// `{keyCiphertext, address}`, once per account (then 409).
async fn store_key(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let (s, _) = body::session(w, req.headers())?;
    let b = body::json(&st, req).await?;
    let ciphertext = b.str("keyCiphertext")?;
    if !validate::key_ciphertext(ciphertext) {
        return Err(ApiError::bad(
            "Invalid keyCiphertext: base64 of 28-1024 bytes (iv, ciphertext, tag)",
        ));
    }
    let address = b.str("address")?;
    if !validate::address(address) {
        return Err(ApiError::bad("Invalid address"));
    }
    match w.accounts.store_key(&s.user_id, ciphertext, address) {
        Ok(()) => Ok(Json(json!({}))),
        Err(KeyRefused::AlreadyStored) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "A key is already stored for this account",
        )),
        Err(KeyRefused::NoAccount) => Err(ApiError::session_expired()),
        Err(KeyRefused::Store) => Err(ApiError::store_failed()),
    }
}

async fn session(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let (s, _) = body::session(w, req.headers())?;
    w.session_json(&s.user_id)
        .map(Json)
        .ok_or_else(ApiError::session_expired)
}

/// Sign-out, and the test switch (the same: the session ends now).
async fn signout(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let (_, token) = body::session(w, req.headers())?;
    body::bytes(&st, req).await?;
    w.sessions.revoke(&token).map_err(|_| ApiError::store_failed())?;
    Ok(Json(json!({})))
}

/// The slot of the email-change mails to `address`.
fn change_slot(address: &str) -> String {
    format!("change:{address}")
}

/// 429 while the user's email changes are locked.
fn check_lock(w: &Wallet, user_id: &str) -> Result<(), ApiError> {
    match w.updates.locked(user_id) {
        Some(left) => Err(locked(seconds(left))),
        None => Ok(()),
    }
}

fn locked(seconds: u64) -> ApiError {
    let minutes = seconds.div_ceil(60);
    ApiError::wait(
        seconds,
        format!(
            "Too many wrong codes: this account's email can be changed again in {minutes} minutes"
        ),
    )
}

/// Mails a change code to `to` (taking its slot for `client`) after keeping it as the pending change.
async fn mail_change_code(
    w: &Wallet,
    user_id: &str,
    client: Client,
    stage: UpdateStage,
    to: &str,
    current: &str,
    new_email: &str,
) -> Result<(), ApiError> {
    w.throttle.take(&change_slot(to), client).map_err(held)?;
    let code = new_code();
    w.updates
        .set(
            user_id,
            PendingUpdate {
                new_email: new_email.to_string(),
                stage,
                code: PendingCode::new(&w.pepper, &code, w.config.code_ttl),
            },
        )
        .map_err(|_| {
            w.throttle.release(&change_slot(to));
            ApiError::store_failed()
        })?;
    let to_new = stage == UpdateStage::Secondary;
    let m = mail::email_change(to, &code, current, new_email, to_new);
    if let Err(e) = w.send_mail(&m).await {
        w.updates.remove(user_id, false);
        w.throttle.release(&change_slot(to));
        return Err(e);
    }
    Ok(())
}

/// Step 1: `{email}` (the new one): a code to the current email.
async fn update(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let (s, _) = body::session(w, req.headers())?;
    let new_email = body::json(&st, req).await?.email()?;
    check_lock(w, &s.user_id)?;
    let account = w
        .accounts
        .get(&s.user_id)
        .ok_or_else(ApiError::session_expired)?;
    let Some(current) = account.email else {
        return Err(ApiError::bad("This account has no email to change"));
    };
    if current == new_email {
        return Err(ApiError::bad("That is already your email"));
    }
    if w.accounts
        .email_taken(&account.project_id, &new_email, &s.user_id)
    {
        return Err(taken());
    }
    spend(&w.budgets.mails, client)?;
    let stage = UpdateStage::Primary;
    mail_change_code(w, &s.user_id, client, stage, &current, &current, &new_email).await?;
    Ok(Json(json!({ "action": "VERIFY_PRIMARY_OTP" })))
}

/// Checks `otp` against the user's pending change at `stage`; answers the new email. A burned
/// code drops the change and counts towards the lock.
fn check_update(
    w: &Wallet,
    user_id: &str,
    client: Client,
    stage: UpdateStage,
    otp: &str,
) -> Result<String, ApiError> {
    check_lock(w, user_id)?;
    spend(&w.budgets.tries, client)?;
    let max = w.config.max_code_attempts;
    let outcome = w.updates.with(user_id, |u| {
        if u.stage != stage {
            return (None, false);
        }
        let c = u.code.check(&w.pepper, otp, max);
        (Some((c, u.new_email.clone())), c == Check::Expired)
    });
    match outcome.flatten() {
        None => Err(ApiError::bad("No email change is waiting for this code")),
        Some((Check::Right, new_email)) => Ok(new_email),
        Some((Check::Wrong, _)) => Err(ApiError::bad("Invalid code")),
        Some((Check::TooManyAttempts, _)) => {
            if w.updates.burn(user_id) {
                return Err(locked(w.config.update_lock.as_secs()));
            }
            Err(ApiError::bad("Too many attempts: ask for a new code"))
        }
        Some((Check::Expired, _)) => Err(ApiError::new(StatusCode::GONE, "Code expired")),
    }
}

/// Step 2: `{otp}` from the current email: a code to the new one.
async fn update_primary(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let (s, _) = body::session(w, req.headers())?;
    let b = body::json(&st, req).await?;
    let new_email = check_update(w, &s.user_id, client, UpdateStage::Primary, b.otp()?)?;
    let account = w
        .accounts
        .get(&s.user_id)
        .ok_or_else(ApiError::session_expired)?;
    if w.accounts
        .email_taken(&account.project_id, &new_email, &s.user_id)
    {
        w.updates.remove(&s.user_id, false);
        return Err(taken());
    }
    let current = account.email.ok_or_else(ApiError::session_expired)?;
    let stage = UpdateStage::Secondary;
    mail_change_code(
        w, &s.user_id, client, stage, &new_email, &current, &new_email,
    )
    .await?;
    Ok(Json(json!({ "action": "VERIFY_SECONDARY_OTP" })))
}

/// Step 3: `{otp}` from the new email: the account's email is now the new one.
async fn update_secondary(State(st): State<Arc<AppState>>, req: Request) -> ApiResult {
    let w = &st.wallet;
    let client = crate::client::of(req.extensions());
    let (s, _) = body::session(w, req.headers())?;
    let b = body::json(&st, req).await?;
    let new_email = check_update(w, &s.user_id, client, UpdateStage::Secondary, b.otp()?)?;
    match w.accounts.change_email(&s.user_id, &new_email) {
        Ok(()) => {}
        Err(EmailRefused::Taken) => {
            w.updates.remove(&s.user_id, true);
            return Err(taken());
        }
        Err(EmailRefused::NoAccount) => {
            w.updates.remove(&s.user_id, true);
            return Err(ApiError::session_expired());
        }
        // Not saved: the pending change stays, the visitor can try the code again.
        Err(EmailRefused::Store) => return Err(ApiError::store_failed()),
    }
    w.updates.remove(&s.user_id, true);
    // A login code mailed to the new email before the change would now open this account.
    w.codes.remove(&s.project_id, &new_email);
    Ok(Json(json!({ "email": new_email })))
}
