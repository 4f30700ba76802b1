//! Effects the engine asks the shell to carry out: the only I/O of the product.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Effect {
    /// An EIP-1193 `request` to an injected wallet; answered by `ProviderResult`.
    ProviderRequest { id: u64, connector_id: String, method: String, params: serde_json::Value },
    /// Stop holding the provider of a connector (after disconnect).
    ReleaseProvider { connector_id: String },
    /// An HTTP request; answered by `FetchResult`.
    Fetch { id: u64, url: String, method: &'static str, body: Option<String>, timeout_ms: u64 },
    /// An analytics beacon; no answer expected.
    Beacon { url: String, body: String },
    /// Write (`Some`) or remove (`None`) a storage key.
    Persist { key: String, value: Option<String> },
    /// Dispatch a DOM event on the element (bubbling, composed).
    Emit { name: &'static str, detail: serde_json::Value },
    /// (Re)start a timer; a timer with the same id is replaced. Fires `Timer`.
    StartTimer { id: String, ms: u64 },
    /// A debug-mode alert (shown once per key).
    Alert { key: String, message: String, description: Option<String>, severity: String, delay_ms: u64 },
    /// Put text on the clipboard.
    Copy { text: String },
    /// Move focus back to what opened the modal.
    RestoreFocus,
}
