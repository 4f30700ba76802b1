//! Request bodies and the bearer session of the wallet routes.

use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use serde_json::{Map, Value};

use super::store::Session;
use super::{validate, ApiError, Wallet, MAX_BODY};
use crate::http::BodyError;
use crate::AppState;

/// The body as bytes (at most [`MAX_BODY`], within the server's body time-out).
pub async fn bytes(st: &AppState, req: Request) -> Result<axum::body::Bytes, ApiError> {
    match crate::http::read_body(req, MAX_BODY, st.config.http.body_read_timeout).await {
        Ok(b) => Ok(b),
        Err(BodyError::TooLarge) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The body exceeds {MAX_BODY} bytes"),
        )),
        Err(BodyError::TimedOut) => Err(ApiError {
            close: true,
            ..ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "The body did not arrive in time",
            )
        }),
    }
}

/// A JSON object body.
pub struct Fields(Map<String, Value>);

pub async fn json(st: &AppState, req: Request) -> Result<Fields, ApiError> {
    let b = bytes(st, req).await?;
    match serde_json::from_slice::<Value>(&b) {
        Ok(Value::Object(m)) => Ok(Fields(m)),
        _ => Err(ApiError::bad("The body must be a JSON object")),
    }
}

impl Fields {
    /// A string field, or 400 '`{key}` is required'.
    pub fn str(&self, key: &str) -> Result<&str, ApiError> {
        match self.0.get(key) {
            Some(Value::String(s)) => Ok(s),
            _ => Err(ApiError::bad(format!("{key} is required"))),
        }
    }

    /// `email`, normalised, or 400 'Invalid email'.
    pub fn email(&self) -> Result<String, ApiError> {
        validate::email(self.str("email")?).ok_or_else(|| ApiError::bad("Invalid email"))
    }

    /// `deviceId`, or 400 'Invalid deviceId'.
    pub fn device_id(&self) -> Result<&str, ApiError> {
        let d = self.str("deviceId")?;
        if validate::device_id(d) {
            Ok(d)
        } else {
            Err(ApiError::bad(
                "Invalid deviceId: 16-64 characters of A-Z a-z 0-9 _ -",
            ))
        }
    }

    /// `projectId`, checked like the other APIs do ([`check_project`]).
    pub fn project_id(&self, projects: &crate::projects::Projects) -> Result<&str, ApiError> {
        let p = self.str("projectId")?;
        check_project(projects, p)?;
        Ok(p)
    }

    /// `otp`: six digits, or 400 'Invalid code'.
    pub fn otp(&self) -> Result<&str, ApiError> {
        let o = self.str("otp")?;
        if validate::otp(o) {
            Ok(o)
        } else {
            Err(ApiError::bad("Invalid code"))
        }
    }
}

/// The project checks of the other APIs (`bad` → 403, …), a length bound, and the characters the
/// wallet service scopes identities with ([`validate::project_id`]).
pub fn check_project(projects: &crate::projects::Projects, project_id: &str) -> Result<(), ApiError> {
    if project_id.len() > validate::MAX_PROJECT_ID {
        return Err(ApiError::bad("projectId is too long"));
    }
    projects
        .check_id(project_id)
        .map_err(|(status, msg)| ApiError::new(status, msg))?;
    if !validate::project_id(project_id) {
        return Err(ApiError::bad(
            "Invalid projectId: 1-128 characters of A-Z a-z 0-9 _ . -",
        ));
    }
    Ok(())
}

/// The bearer token of `Authorization`, if it has the shape of one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && validate::token(token)).then_some(token)
}

/// The request's live session and its token, or 401 'Session Expired'.
pub fn session(w: &Wallet, headers: &HeaderMap) -> Result<(Session, String), ApiError> {
    let token = bearer(headers).ok_or_else(ApiError::session_expired)?;
    let s = w
        .sessions
        .get(token)
        .map_err(|_| ApiError::store_failed())?
        .ok_or_else(ApiError::session_expired)?;
    // The account is gone only if the store was reset: the session is then worthless too.
    if w.accounts.get(&s.user_id).is_none() {
        return Err(ApiError::session_expired());
    }
    Ok((s, token.to_string()))
}
