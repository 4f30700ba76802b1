//! wasm-bindgen bridge to the WalletConnect v2 dapp client ([`wm_core::connect::wc::sign::SignClient`])
//! and the QR encoder ([`wm_core::ui::qr`]). This module is loaded lazily, only when a visitor picks
//! WalletConnect; the host owns the WebSocket, the clock, `crypto.getRandomValues` and storage.
//!
//! # Driving the client (JavaScript)
//!
//! ```js
//! const wc = new WcClient(JSON.stringify({ metadata: { name, description, url, icons } }));
//! const feed = (input) => {
//!   wc.addEntropy(crypto.getRandomValues(new Uint8Array(wc.entropyWanted())));
//!   const step = JSON.parse(wc.handle(JSON.stringify(input), Date.now()));
//!   if (step.error) return step;                    // nothing changed
//!   for (const o of step.outputs) o.type === "send" ? socket.send(o.value) : ui(o.value);
//!   schedule(step.nextDeadlineMs);                  // then feed("tick")
//!   localStorage.setItem(KEY, wc.toJson());
//! };
//! socket.onopen = () => feed("connected");
//! socket.onmessage = (e) => feed({ frame: e.data });
//! socket.onclose = () => feed("disconnected");
//! feed({ command: { connect: { optionalNamespaces } } }); // → event {type: "pairingUri", uri}
//! qr.innerHTML = qrSvg(uri, "Scan with your wallet");
//! ```
//!
//! Every call that takes JSON answers with JSON: malformed input and refused inputs come back as
//! `{"error": "…"}` (with `"code"` and details for the cases a host retries), never as a trap,
//! and leave the state unchanged. Only the constructor and `fromJson` throw (a JS `Error`), since
//! they have no client to return.

use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::prelude::*;
use wm_core::ui::qr::{QrCode, PAIRING_EC_LEVEL};
use wm_core::connect::wc::auth::{relay_url, user_agent, ClientKey};
use wm_core::connect::wc::relay::RelayConfig;
use wm_core::connect::wc::sign::{Input, Metadata, SignClient, SignConfig, MIN_REQUEST_EXPIRY_S};
use wm_core::connect::wc::{hex_decode_array, Error};

/// The configuration the constructor takes: `{metadata, relay?, requestExpiryS?}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Config {
    metadata: Metadata,
    #[serde(default)]
    relay: Option<RelayConfig>,
    #[serde(default)]
    request_expiry_s: Option<u64>,
}

impl From<Config> for SignConfig {
    fn from(c: Config) -> SignConfig {
        let mut config = SignConfig::new(c.metadata);
        if let Some(relay) = c.relay {
            config.relay = relay;
        }
        config.request_expiry_s = c.request_expiry_s.unwrap_or(MIN_REQUEST_EXPIRY_S);
        config
    }
}

fn error_json(message: &str) -> String {
    json!({ "error": message }).to_string()
}

/// `{"error": …}` for a client error, with a machine-readable code where the host can act.
fn client_error_json(err: &Error) -> String {
    let message = err.to_string();
    let v = match err {
        Error::NeedEntropy { needed } => {
            json!({ "error": message, "code": "needEntropy", "needed": needed })
        }
        Error::TooSoon { retry_at_ms } => {
            json!({ "error": message, "code": "tooSoon", "retryAtMs": retry_at_ms })
        }
        Error::InvalidState(_) => json!({ "error": message, "code": "invalidState" }),
        Error::InvalidParams(_) => json!({ "error": message, "code": "invalidParams" }),
        Error::Unauthorized { code, .. } => {
            json!({ "error": message, "code": "unauthorized", "rpcCode": code })
        }
        _ => json!({ "error": message }),
    };
    v.to_string()
}

/// A JS timestamp (ms) as the client's clock, refusing NaN, infinities and negatives.
fn now(now_ms: f64) -> Result<u64, String> {
    if now_ms.is_finite() && now_ms >= 0.0 {
        Ok(now_ms as u64)
    } else {
        // No float formatting: it would pull a few KB of code into the module.
        Err("invalid time: not a finite, non-negative number of milliseconds".to_string())
    }
}

/// The WalletConnect sign client with JSON in and out.
#[wasm_bindgen]
pub struct WcClient {
    inner: SignClient,
}

impl core::fmt::Debug for WcClient {
    // No keys in logs.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WcClient").finish_non_exhaustive()
    }
}

/// Native (and testable) side of the bridge: errors as plain strings.
impl WcClient {
    /// A fresh client from the configuration JSON.
    pub fn from_config(config_json: &str) -> Result<WcClient, String> {
        let config: Config = serde_json::from_str(config_json)
            .map_err(|e| format!("invalid WalletConnect config: {e}"))?;
        Ok(WcClient {
            inner: SignClient::new(config.into()),
        })
    }

    /// A client restored from [`WcClient::to_json`] output.
    pub fn restore(json: &str) -> Result<WcClient, String> {
        SignClient::from_json(json)
            .map(|inner| WcClient { inner })
            .map_err(|e| e.to_string())
    }

    /// The wrapped client.
    pub fn client(&self) -> &SignClient {
        &self.inner
    }
}

#[wasm_bindgen]
impl WcClient {
    /// A fresh client. `config_json`: `{"metadata": {name, description, url, icons,
    /// redirect?}, "relay"?: {timeoutMs, maxAttempts, stringIds}, "requestExpiryS"?: 300}`.
    /// Throws an `Error` on a malformed configuration.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WcClient, JsError> {
        WcClient::from_config(config_json).map_err(|e| JsError::new(&e))
    }

    /// Restores a client saved with `toJson()` (no entropy, socket closed: feed `"connected"`
    /// once it opens). Throws an `Error` on malformed or inconsistent state.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(json: &str) -> Result<WcClient, JsError> {
        WcClient::restore(json).map_err(|e| JsError::new(&e))
    }

    /// Handles one input (JSON: `"tick"`, `"connected"`, `"disconnected"`, `{"frame": "…"}`,
    /// `{"entropy": [..]}`, `{"command": …}`) at `now_ms`. Returns the step as JSON,
    /// `{"outputs": [{"type": "send", "value": frame} | {"type": "event", "value": event}],
    /// "nextDeadlineMs": n | null}`, or `{"error": "…", "code"?: …}` with the state unchanged.
    pub fn handle(&mut self, input_json: &str, now_ms: f64) -> String {
        let now_ms = match now(now_ms) {
            Ok(t) => t,
            Err(e) => return error_json(&e),
        };
        let input: Input = match serde_json::from_str(input_json) {
            Ok(i) => i,
            Err(e) => return error_json(&format!("invalid input: {e}")),
        };
        match self.inner.handle(now_ms, input) {
            Ok(step) => serde_json::to_string(&step)
                .unwrap_or_else(|e| error_json(&format!("unserialisable step: {e}"))),
            Err(e) => client_error_json(&e),
        }
    }

    /// Adds random bytes to the entropy pool (`crypto.getRandomValues`); same as feeding
    /// `{"entropy": [...]}` without the JSON.
    #[wasm_bindgen(js_name = addEntropy)]
    pub fn add_entropy(&mut self, bytes: &[u8]) {
        // Entropy never fails: the pool is capped by the client.
        let _ = self.inner.handle(0, Input::Entropy(bytes.to_vec()));
    }

    /// How many random bytes to feed before the next input.
    #[wasm_bindgen(js_name = entropyWanted)]
    pub fn entropy_wanted(&self) -> usize {
        self.inner.entropy_wanted()
    }

    /// When (ms) to feed `"tick"` next, or `undefined`.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        self.inner.next_deadline().map(|d| d as f64)
    }

    /// The whole state as JSON, for storage (without the entropy pool).
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The pairing URI of the pending proposal (to show the QR code again), or `undefined`.
    #[wasm_bindgen(js_name = pairingUri)]
    pub fn pairing_uri(&self) -> Option<String> {
        self.inner.pairing_uri()
    }

    /// The settled session as JSON, or `undefined`.
    pub fn session(&self) -> Option<String> {
        self.inner
            .session()
            .and_then(|s| serde_json::to_string(s).ok())
    }
}

/// Native side of [`qr_svg`].
pub fn qr_svg_or_error(text: &str, label: Option<&str>) -> Result<String, String> {
    let code = QrCode::encode(text.as_bytes(), PAIRING_EC_LEVEL).map_err(|e| e.to_string())?;
    Ok(code.to_svg_with_logo_area(label))
}

/// `text` (a pairing URI or deep link) as an SVG QR code at level Q ([`PAIRING_EC_LEVEL`]): one
/// `currentColor` path in a 4-module quiet zone, `viewBox` in modules (size it with CSS), with a
/// light square in the centre for a logo, given as `data-logo="x y side"` in `viewBox` units. With
/// `label` it is an `role="img"` named `label`; without, it is hidden from assistive technology.
/// Throws an `Error` when the text is too long for any QR code (more than 1663 bytes).
#[wasm_bindgen(js_name = qrSvg)]
pub fn qr_svg(text: &str, label: Option<String>) -> Result<String, JsError> {
    qr_svg_or_error(text, label.as_deref()).map_err(|e| JsError::new(&e))
}

/// Native side of [`proposal_namespaces`].
pub fn proposal_namespaces_json(chains_json: &str) -> String {
    let chains: Vec<String> = match serde_json::from_str(chains_json) {
        Ok(c) => c,
        Err(_) => return error_json("chains must be a JSON list of CAIP-2 ids"),
    };
    match wm_core::connect::wc::namespaces::optional_namespaces_for(&chains) {
        Ok(ns) if ns.is_empty() => error_json("no network is configured to propose"),
        Ok(ns) => serde_json::to_string(&ns).unwrap_or_else(|e| error_json(&e.to_string())),
        Err(e) => error_json(&e),
    }
}

/// The optional namespaces a session proposal asks for, built from the configured networks
/// (`chains_json`: a JSON list of CAIP-2 ids): one entry per chain family (eip155, solana, bip122,
/// polkadot, cosmos) with its chains and that family's default methods and events. Returns the
/// namespaces as JSON, or `{"error"}` for an invalid chain id or an empty list.
#[wasm_bindgen(js_name = proposalNamespaces)]
pub fn proposal_namespaces(chains_json: &str) -> String {
    proposal_namespaces_json(chains_json)
}

/// Parameters of [`relay_auth_url`].
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RelayAuth {
    /// 64 hex digits: the persisted client key seed (32 random bytes drawn once).
    seed: String,
    /// Random hex naming this app session (JWT `sub`).
    sub: String,
    /// The relay WebSocket URL (JWT `aud`), e.g. `wss://relay.walletconnect.org`.
    relay_url: String,
    project_id: String,
    #[serde(default)]
    ua: Option<String>,
    now_ms: f64,
    #[serde(default)]
    ttl_s: Option<u64>,
}

/// Native side of [`relay_auth_url`].
pub fn relay_auth_url_json(params_json: &str) -> String {
    let p: RelayAuth = match serde_json::from_str(params_json) {
        Ok(p) => p,
        Err(e) => return error_json(&format!("invalid relay auth params: {e}")),
    };
    let now_s = match now(p.now_ms) {
        Ok(ms) => ms / 1000,
        Err(e) => return error_json(&e),
    };
    let key = match hex_decode_array::<32>(p.seed.trim()) {
        Ok(seed) => ClientKey::from_seed(seed),
        Err(e) => return error_json(&format!("invalid seed: {e}")),
    };
    if p.sub.is_empty() || !p.sub.bytes().all(|c| c.is_ascii_hexdigit()) {
        return error_json("invalid sub: not hex");
    }
    let ttl = p.ttl_s.unwrap_or(wm_core::connect::wc::auth::DEFAULT_JWT_TTL_S);
    let jwt = key.sign_jwt(&p.sub, &p.relay_url, now_s, ttl);
    let ua =
        p.ua.unwrap_or_else(|| user_agent(env!("CARGO_PKG_VERSION"), "browser", "wallet-modal"));
    json!({
        "url": relay_url(&p.relay_url, &jwt, &p.project_id, &ua),
        "clientId": key.did_key(),
        "expiresAtMs": (now_s.saturating_add(ttl)).saturating_mul(1000),
    })
    .to_string()
}

/// The relay WebSocket URL carrying a fresh auth token. `params_json`: `{"seed": hex64,
/// "sub": hex, "relayUrl": "wss://…", "projectId": "…", "ua"?: "…", "nowMs": n, "ttlS"?: n}`.
/// Returns `{"url", "clientId", "expiresAtMs"}` or `{"error"}`.
#[wasm_bindgen(js_name = relayAuthUrl)]
pub fn relay_auth_url(params_json: &str) -> String {
    relay_auth_url_json(params_json)
}

#[cfg(test)]
mod tests;
