//! The wallet service's client of the Farcaster auth relay, over HTTP as `@farcaster/auth-client`
//! is (`actions/app/createChannel.ts`: `POST {relay}/v1/channel`; `actions/app/status.ts`:
//! `GET {relay}/v1/channel/status` with `Authorization: Bearer <channelToken>`).
//!
//! One request per connection (`Connection: close`), loopback `http://` URLs only (the demo never
//! leaves the machine), the whole exchange within a time-out, the answer at most 64 KiB.

use std::time::Duration;

use serde_json::{Map, Value};

/// Largest relay answer read.
pub const MAX_ANSWER: usize = 64 * 1024;
/// One exchange with the relay.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A relay answer: its status and JSON object (an empty one when the body is not an object).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub json: Map<String, Value>,
}

impl Answer {
    pub fn str(&self, key: &str) -> Option<&str> {
        self.json.get(key).and_then(Value::as_str)
    }
}

/// `POST {relay}/v1/channel` with `body` (`{siweUri, domain, nonce, acceptAuthAddress}`).
pub async fn create_channel(relay: &str, body: &Value) -> Result<Answer, String> {
    let bytes = serde_json::to_vec(body).map_err(|e| e.to_string())?;
    request("POST", &format!("{relay}/v1/channel"), None, Some(&bytes)).await
}

/// `GET {relay}/v1/channel/status` with the channel token as bearer.
pub async fn status(relay: &str, channel_token: &str) -> Result<Answer, String> {
    request(
        "GET",
        &format!("{relay}/v1/channel/status"),
        Some(channel_token),
        None,
    )
    .await
}

async fn request(
    method: &str,
    url: &str,
    bearer: Option<&str>,
    body: Option<&[u8]>,
) -> Result<Answer, String> {
    let limits = crate::chain::rpc::RpcLimits {
        timeout: TIMEOUT,
        max_response: MAX_ANSWER,
        max_idle: 0,
    };
    let auth = bearer.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.as_deref().map(|a| ("Authorization", a)).into_iter().collect();
    let (status, body) =
        crate::chain::rpc::http_request(method, url, &headers, body.map(|b| ("application/json", b)), &limits)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
    Ok(Answer { status, json: json_object(&body) })
}

/// The answer's JSON object (an empty one when the body is not an object).
fn json_object(body: &[u8]) -> Map<String, Value> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relay_answer_is_its_json_object_or_an_empty_one() {
        assert_eq!(json_object(br#"{"nonce":"x"}"#).get("nonce").and_then(Value::as_str), Some("x"));
        assert!(json_object(b"not json").is_empty());
        assert!(json_object(b"[1]").is_empty());
    }
}
