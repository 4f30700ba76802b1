//! Effects a host asks the shell to carry out: the only I/O of the product. An effect that is
//! answered (a wallet request, a fetch, a timer) is answered to the host that asked.

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
    /// Hand this event to the host whose slice reads its type (a slice asking another module's
    /// slice for something: a module's screen asking the engine to navigate).
    Dispatch { event: Value },
    /// The answer to a `request` to a connector this host's slice answers (`key` is the shell's).
    Answer { key: String, outcome: Result<Value, (i64, String)> },
    /// Load the embedded wallet's secure frame (a hidden iframe on its own origin).
    FrameLoad { url: String },
    /// Post a message to the secure frame (to its origin only).
    FramePost { message: Value },
    /// Show the secure frame's approval in ApproveTransaction's place for it (`visible`), or hide
    /// the frame again.
    FrameView { visible: bool },
    /// Send the social login's popup (opened by the shell in the visitor's click) to this URL.
    Popup { url: String },
    PopupClose,
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
            Effect::Answer { key, outcome } => (
                "answer",
                match outcome {
                    Ok(result) => vec![("key", key.as_str().into()), ("result", result.clone())],
                    Err((code, message)) => {
                        vec![("key", key.as_str().into()), ("error", obj(vec![("code", (*code).into()), ("message", message.as_str().into())]))]
                    }
                },
            ),
            #[cfg(feature = "modules")]
            Effect::FrameLoad { url } => ("frameLoad", vec![("url", url.as_str().into())]),
            #[cfg(feature = "modules")]
            Effect::FramePost { message } => ("framePost", vec![("message", message.clone())]),
            #[cfg(feature = "modules")]
            Effect::FrameView { visible } => ("frameView", vec![("visible", (*visible).into())]),
            #[cfg(feature = "modules")]
            Effect::Popup { url } => ("popup", vec![("url", url.as_str().into())]),
            #[cfg(feature = "modules")]
            Effect::PopupClose => ("popupClose", vec![]),
            // The embedded wallet's own effects: the engine (built without `modules`) runs no
            // slice that raises them, and carries no writer of them.
            #[cfg(not(feature = "modules"))]
            Effect::FrameLoad { .. } | Effect::FramePost { .. } | Effect::FrameView { .. } | Effect::Popup { .. } | Effect::PopupClose => ("", vec![]),
        };
        fields.insert(0, ("type", ty.into()));
        obj(fields)
    }
}
