//! JSON-RPC plumbing shared by the relay and sign layers: message parsing with ids kept exactly
//! as received, response builders, the sign-protocol tags/TTLs and the SDK error codes.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use super::{Error, Result};

/// Relay publish options of one message: tag, ttl (seconds) and whether the wallet should be
/// woken up by a push notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishOpts {
    /// Relay tag identifying the message kind.
    pub tag: u32,
    /// Relay storage time, seconds.
    pub ttl: u64,
    /// Ask the relay to notify the peer.
    pub prompt: bool,
}

const fn o(tag: u32, ttl: u64, prompt: bool) -> PublishOpts {
    PublishOpts { tag, ttl, prompt }
}

/// Request and response options of a sign/pairing method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodOpts {
    /// Options for the request.
    pub req: PublishOpts,
    /// Options for its response (success or error).
    pub res: PublishOpts,
}

/// Options used to answer a method we do not support (tag 0, one day).
pub const UNSUPPORTED_METHOD_RES: PublishOpts = o(0, 86_400, false);

/// Tags and TTLs of the sign and pairing methods (see PROTOCOLS.md).
pub fn method_opts(method: &str) -> Option<MethodOpts> {
    let (req, res) = match method {
        "wc_sessionPropose" => (o(1100, 300, true), o(1101, 300, false)),
        "wc_sessionSettle" => (o(1102, 300, false), o(1103, 300, false)),
        "wc_sessionUpdate" => (o(1104, 86_400, false), o(1105, 86_400, false)),
        "wc_sessionExtend" => (o(1106, 86_400, false), o(1107, 86_400, false)),
        "wc_sessionRequest" => (o(1108, 300, true), o(1109, 300, false)),
        "wc_sessionEvent" => (o(1110, 300, true), o(1111, 300, false)),
        "wc_sessionDelete" => (o(1112, 86_400, false), o(1113, 86_400, false)),
        "wc_sessionPing" => (o(1114, 30, false), o(1115, 30, false)),
        "wc_sessionAuthenticate" => (o(1116, 3600, true), o(1117, 3600, false)),
        "wc_pairingDelete" => (o(1000, 86_400, false), o(1001, 86_400, false)),
        "wc_pairingPing" => (o(1002, 30, false), o(1003, 30, false)),
        _ => return None,
    };
    Some(MethodOpts { req, res })
}

/// Tag of a rejected session proposal (wallet side).
pub const PROPOSE_REJECT_TAG: u32 = 1120;

/// A protocol error code with its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SdkError {
    /// Numeric code.
    pub code: i64,
    /// Human-readable message.
    pub message: &'static str,
}

/// Sign-protocol error codes.
pub mod codes {
    use super::SdkError;
    const fn e(code: i64, message: &'static str) -> SdkError {
        SdkError { code, message }
    }
    /// 5000.
    pub const USER_REJECTED: SdkError = e(5000, "User rejected");
    /// 5001.
    pub const USER_REJECTED_CHAINS: SdkError = e(5001, "User rejected chains");
    /// 5002.
    pub const USER_REJECTED_METHODS: SdkError = e(5002, "User rejected methods");
    /// 5003.
    pub const USER_REJECTED_EVENTS: SdkError = e(5003, "User rejected events");
    /// 5100.
    pub const UNSUPPORTED_CHAINS: SdkError = e(5100, "Unsupported chains");
    /// 5101.
    pub const UNSUPPORTED_METHODS: SdkError = e(5101, "Unsupported methods");
    /// 5102.
    pub const UNSUPPORTED_EVENTS: SdkError = e(5102, "Unsupported events");
    /// 5103.
    pub const UNSUPPORTED_ACCOUNTS: SdkError = e(5103, "Unsupported accounts");
    /// 5104.
    pub const UNSUPPORTED_NAMESPACE_KEY: SdkError = e(5104, "Unsupported namespace key");
    /// 6000.
    pub const USER_DISCONNECTED: SdkError = e(6000, "User disconnected");
    /// 7000.
    pub const SESSION_SETTLEMENT_FAILED: SdkError = e(7000, "Session settlement failed");
    /// 7001.
    pub const NO_SESSION_FOR_TOPIC: SdkError = e(7001, "No matching session for topic");
    /// 8000.
    pub const SESSION_REQUEST_EXPIRED: SdkError = e(8000, "Session request expired");
    /// 1004 (invalid extend request).
    pub const INVALID_EXTEND_REQUEST: SdkError = e(1004, "Invalid extend request");
    /// 1005 (invalid settle request).
    pub const INVALID_SESSION_SETTLE_REQUEST: SdkError = e(1005, "Invalid session settle request");
    /// -32601 JSON-RPC method not found.
    pub const METHOD_NOT_FOUND: SdkError = e(-32601, "Method not found");
    /// -32602 JSON-RPC invalid params.
    pub const INVALID_PARAMS: SdkError = e(-32602, "Invalid params");
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// Error code.
    pub code: i64,
    /// Error message.
    pub message: String,
    /// Optional details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl From<SdkError> for RpcError {
    fn from(e: SdkError) -> Self {
        RpcError {
            code: e.code,
            message: e.message.into(),
            data: None,
        }
    }
}

fn present<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Deserialize)]
struct Wire<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    jsonrpc: Option<String>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default, deserialize_with = "present")]
    params: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
}

/// A request or response id, kept as the exact JSON text received (`"123"` stays a string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawId {
    text: String,
    value: Option<u64>,
}

impl RawId {
    /// The id of a number we send.
    pub fn number(id: u64) -> Self {
        RawId {
            text: id.to_string(),
            value: Some(id),
        }
    }
    /// The exact JSON text of the id.
    pub fn json(&self) -> &str {
        &self.text
    }
    /// The id as an integer, when it is a non-negative integer or a string of decimal digits.
    pub fn value(&self) -> Option<u64> {
        self.value
    }
    fn from_raw(raw: &RawValue) -> Result<Self> {
        let text = raw.get().trim();
        let value = if text.starts_with('"') {
            let s: String = serde_json::from_str(text).map_err(|_| Error::InvalidFrame("id"))?;
            digits_to_u64(&s)
        } else if text
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == b'-')
        {
            digits_to_u64(text)
        } else {
            return Err(Error::InvalidFrame("id must be a number or a string"));
        };
        Ok(RawId {
            text: text.to_string(),
            value,
        })
    }
}

fn digits_to_u64(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A parsed JSON-RPC message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request (`method` present). Notifications without id are refused.
    Request {
        id: RawId,
        method: String,
        params: Value,
    },
    /// A response: `Ok(result)` or `Err(error)`.
    Response {
        id: RawId,
        outcome: core::result::Result<Value, RpcError>,
    },
}

/// Parses one JSON-RPC 2.0 message; `jsonrpc`, when present, must be `"2.0"`.
pub fn parse_message(text: &str) -> Result<Message> {
    let wire: Wire<'_> =
        serde_json::from_str(text).map_err(|_| Error::InvalidFrame("not a json-rpc object"))?;
    if let Some(v) = &wire.jsonrpc {
        if v != "2.0" {
            return Err(Error::InvalidFrame("jsonrpc must be 2.0"));
        }
    }
    let id = RawId::from_raw(wire.id.ok_or(Error::InvalidFrame("missing id"))?)?;
    match (wire.method, wire.result, wire.error) {
        (Some(method), None, None) => Ok(Message::Request {
            id,
            method,
            params: wire.params.unwrap_or(Value::Null),
        }),
        (None, Some(result), None) => Ok(Message::Response {
            id,
            outcome: Ok(result),
        }),
        (None, None, Some(error)) => Ok(Message::Response {
            id,
            outcome: Err(parse_error(error)),
        }),
        _ => Err(Error::InvalidFrame("neither request nor response")),
    }
}

fn parse_error(v: Value) -> RpcError {
    let code = v.get("code").and_then(Value::as_i64).unwrap_or(-32603);
    let message = v
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .take(1024)
        .collect();
    let data = v.get("data").cloned();
    RpcError {
        code,
        message,
        data,
    }
}

/// A request frame with a raw id (number or quoted string).
pub fn request_json(id: &str, method: &str, params: &Value) -> String {
    format!(
        r#"{{"id":{id},"jsonrpc":"2.0","method":{},"params":{}}}"#,
        json_string(method),
        params
    )
}

/// A success response echoing the id exactly.
pub fn result_json(id: &RawId, result: &Value) -> String {
    format!(
        r#"{{"id":{},"jsonrpc":"2.0","result":{}}}"#,
        id.json(),
        result
    )
}

/// An error response echoing the id exactly.
pub fn error_json(id: &RawId, error: &RpcError) -> String {
    let err =
        serde_json::to_string(error).unwrap_or_else(|_| r#"{"code":-32603,"message":""}"#.into());
    format!(r#"{{"id":{},"jsonrpc":"2.0","error":{}}}"#, id.json(), err)
}

/// Deserialises a typed value out of a [`Value`] by way of its text. Going through the string
/// reader keeps a single (string) instantiation of each type's deserializer in the binary
/// instead of a second one for `Value` (this matters for the wasm size); messages are small.
pub(crate) fn from_json_value<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
    serde_json::from_str(&v.to_string()).ok()
}

fn json_string(s: &str) -> String {
    Value::String(s.into()).to_string()
}

#[cfg(test)]
#[path = "rpc_tests.rs"]
mod tests;
