//! Effects the engine asks the shell to carry out: the only I/O of the product.

use crate::service::json::{obj, Value};

/// Written as JSON objects tagged by `type`, field names in camelCase (see [`Effect::to_json`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// An EIP-1193 `request` to an injected wallet; answered by `ProviderResult`.
    ProviderRequest { id: u64, connector_id: String, method: String, params: crate::service::json::Value },
    /// Stop holding the provider of a connector (after disconnect).
    ReleaseProvider { connector_id: String },
    /// An HTTP request; answered by `FetchResult`.
    Fetch { id: u64, url: String, method: &'static str, body: Option<String>, timeout_ms: u64 },
    /// An analytics beacon; no answer expected.
    Beacon { url: String, body: String },
    /// Write (`Some`) or remove (`None`) a storage key.
    Persist { key: String, value: Option<String> },
    /// Dispatch a DOM event on the element (bubbling, composed).
    Emit { name: &'static str, detail: crate::service::json::Value },
    /// (Re)start a timer; a timer with the same id is replaced. Fires `Timer`.
    StartTimer { id: String, ms: u64 },
    /// A debug-mode alert (shown once per key).
    Alert { key: String, message: String, description: Option<String>, severity: String, delay_ms: u64 },
    /// Put text on the clipboard.
    Copy { text: String },
    /// Move focus back to what opened the modal.
    RestoreFocus,
    /// Hand this event to the engine (a lazily loaded module telling the engine something, e.g. an
    /// analytics event to send like the modal's).
    Dispatch { event: Value },
}

impl Effect {
    /// `{"type": "providerRequest", "id": 1, "connectorId": …}` and so on.
    pub fn to_json(&self) -> Value {
        let (ty, mut fields): (&str, Vec<(&str, Value)>) = match self {
            Effect::ProviderRequest { id, connector_id, method, params } => (
                "providerRequest",
                vec![("id", (*id).into()), ("connectorId", connector_id.as_str().into()), ("method", method.as_str().into()), ("params", params.clone())],
            ),
            Effect::ReleaseProvider { connector_id } => ("releaseProvider", vec![("connectorId", connector_id.as_str().into())]),
            Effect::Fetch { id, url, method, body, timeout_ms } => (
                "fetch",
                vec![("id", (*id).into()), ("url", url.as_str().into()), ("method", (*method).into()), ("body", body.as_deref().into()), ("timeoutMs", (*timeout_ms).into())],
            ),
            Effect::Beacon { url, body } => ("beacon", vec![("url", url.as_str().into()), ("body", body.as_str().into())]),
            Effect::Persist { key, value } => ("persist", vec![("key", key.as_str().into()), ("value", value.as_deref().into())]),
            Effect::Emit { name, detail } => ("emit", vec![("name", (*name).into()), ("detail", detail.clone())]),
            Effect::StartTimer { id, ms } => ("startTimer", vec![("id", id.as_str().into()), ("ms", (*ms).into())]),
            Effect::Alert { key, message, description, severity, delay_ms } => (
                "alert",
                vec![
                    ("key", key.as_str().into()),
                    ("message", message.as_str().into()),
                    ("description", description.as_deref().into()),
                    ("severity", severity.as_str().into()),
                    ("delayMs", (*delay_ms).into()),
                ],
            ),
            Effect::Copy { text } => ("copy", vec![("text", text.as_str().into())]),
            Effect::RestoreFocus => ("restoreFocus", vec![]),
            Effect::Dispatch { event } => ("dispatch", vec![("event", event.clone())]),
        };
        fields.insert(0, ("type", ty.into()));
        obj(fields)
    }
}
