//! Events the shell sends to the engine: host calls, view intents, wallet and server answers, timers.

use crate::account::slice::AccountEvent;
use crate::connect::slice::ConnectEvent;
use crate::connect::switch_slice::SwitchEvent;
use crate::ui::router::View;
use crate::service::analytics::ERROR_FETCH_TRANSACTIONS;
use crate::service::slice::ServiceEvent;
use crate::ui::slice::UiEvent;
use serde::{Deserialize, Deserializer};
use super::json::{bad, boolean, opt_string, string, string_or_default, uint, Fields};
use crate::service::json::Value;

/// An EIP-1193 / JSON-RPC error as a wallet reported it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderError {
    pub code: Option<i64>,
    pub message: Option<String>,
}

/// The events arrive as JSON objects tagged by `type` (`{"type": "open", "view": "Account"}`),
/// field names in camelCase. They are read by hand from a [`crate::service::json::Value`] rather than with a
/// derived internally tagged deserializer: that one buffers through serde's `Content` machinery,
/// which costs tens of kilobytes of WebAssembly. Missing `Option`/defaulted fields and `null`
/// options are accepted; a missing required field or a value of the wrong type is an error.
///
/// Each slice has its own event type; the answers to requests and the timers go, by id, to the
/// slice that made them.
#[derive(Clone, Debug)]
pub enum Event {
    Ui(UiEvent),
    Connect(ConnectEvent),
    Switch(SwitchEvent),
    Account(AccountEvent),
    Service(ServiceEvent),
    /// The answer to a `ProviderRequest` effect.
    ProviderResult {
        id: u64,
        result: Option<Value>,
        error: Option<ProviderError>,
    },
    /// The answer to a `Fetch` effect (`status` 0 = network failure or time-out).
    FetchResult { id: u64, status: u16, body: String },
    /// A `StartTimer` effect fired.
    Timer { id: String },
}

fn view(o: &mut Fields, key: &str) -> Result<View, String> {
    string(o, key).ok().as_deref().and_then(View::from_name).ok_or_else(|| bad(key))
}

impl View {
    /// The JSON name of the view (as serde names it).
    pub fn name(self) -> &'static str {
        use View::*;
        match self {
            Connect => "Connect",
            ConnectingExternal => "ConnectingExternal",
            ConnectingWalletConnect => "ConnectingWalletConnect",
            ConnectingWalletConnectBasic => "ConnectingWalletConnectBasic",
            ConnectingFarcaster => "ConnectingFarcaster",
            AllWallets => "AllWallets",
            EmailLogin => "EmailLogin",
            UpdateEmailWallet => "UpdateEmailWallet",
            ProfileWallets => "ProfileWallets",
            Account => "Account",
            SwitchNetwork => "SwitchNetwork",
            SwitchActiveChain => "SwitchActiveChain",
            UnsupportedChain => "UnsupportedChain",
            SiwxSignMessage => "SIWXSignMessage",
            ApproveTransaction => "ApproveTransaction",
            Swap => "Swap",
            RegisterAccountName => "RegisterAccountName",
            RegisterAccountNameSuccess => "RegisterAccountNameSuccess",
            ConfigError => "ConfigError",
        }
    }

    /// The view with this JSON name (`"AllWallets"`, `"SIWXSignMessage"`), as serde names it.
    pub fn from_name(name: &str) -> Option<View> {
        use View::*;
        Some(match name {
            "Connect" => Connect,
            "ConnectingExternal" => ConnectingExternal,
            "ConnectingWalletConnect" => ConnectingWalletConnect,
            "ConnectingWalletConnectBasic" => ConnectingWalletConnectBasic,
            "ConnectingFarcaster" => ConnectingFarcaster,
            "AllWallets" => AllWallets,
            "EmailLogin" => EmailLogin,
            "UpdateEmailWallet" => UpdateEmailWallet,
            "ProfileWallets" => ProfileWallets,
            "Account" => Account,
            "SwitchNetwork" => SwitchNetwork,
            "SwitchActiveChain" => SwitchActiveChain,
            "UnsupportedChain" => UnsupportedChain,
            "SIWXSignMessage" => SiwxSignMessage,
            "ApproveTransaction" => ApproveTransaction,
            "Swap" => Swap,
            "RegisterAccountName" => RegisterAccountName,
            "RegisterAccountNameSuccess" => RegisterAccountNameSuccess,
            "ConfigError" => ConfigError,
            _ => return None,
        })
    }
}

impl Event {
    /// Reads an event from its JSON object (see [`Event`]).
    #[inline(never)]
    pub fn from_value(v: Value) -> Result<Event, String> {
        let Value::Object(mut o) = v else { return Err("an event must be an object".into()) };
        let o = &mut o;
        let ty = string(o, "type")?;
        Ok(match ty.as_str() {
            "start" => {
                let storage = match o.get("storage").cloned() {
                    None => Vec::new(),
                    Some(Value::Object(m)) => {
                        let mut out = Vec::new();
                        for (k, v) in m {
                            let Value::String(v) = v else { return Err(bad("storage")) };
                            out.push((k, v));
                        }
                        out
                    }
                    Some(_) => return Err(bad("storage")),
                };
                let unreadable = match o.get("unreadable").cloned() {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(keys)) => keys.into_iter().filter_map(|k| k.as_str().map(|k| k.chars().take(200).collect())).take(64).collect(),
                    Some(_) => return Err(bad("unreadable")),
                };
                Event::Connect(ConnectEvent::Start { storage, legacy_provider: boolean(o, "legacyProvider", Some(false))?, unreadable })
            }
            "open" => {
                let name = opt_string(o, "view")?;
                let view = name.as_deref().and_then(View::from_name);
                // The name is the host's: kept short for the error message.
                let unknown_view = name.filter(|_| view.is_none()).map(|n| n.chars().take(64).collect());
                Event::Ui(UiEvent::Open { view, unknown_view, namespace: opt_string(o, "namespace")? })
            }
            "close" => Event::Ui(UiEvent::Close),
            "back" => Event::Ui(UiEvent::Back),
            "navigate" => Event::Ui(UiEvent::Navigate { view: view(o, "view")? }),
            "showBanner" => Event::Ui(UiEvent::Banner { message: string(o, "message")?.chars().take(120).collect() }),
            "connectEmbedded" => Event::Connect(ConnectEvent::ConnectEmbedded),
            "shake" => Event::Ui(UiEvent::Shake),
            "theme" => Event::Ui(UiEvent::Theme { dark: boolean(o, "dark", None)? }),
            "announce" => Event::Connect(ConnectEvent::Announce {
                uuid: string_or_default(o, "uuid")?,
                name: string_or_default(o, "name")?,
                icon: string_or_default(o, "icon")?,
                rdns: string_or_default(o, "rdns")?,
                usable: boolean(o, "usable", Some(true))?,
            }),
            "selectConnector" => Event::Connect(ConnectEvent::SelectConnector { id: string(o, "id")? }),
            "selectWallet" => Event::Connect(ConnectEvent::SelectWallet { id: string(o, "id")? }),
            "retry" => Event::Connect(ConnectEvent::Retry),
            "searchWallets" => Event::Connect(ConnectEvent::SearchWallets { query: string(o, "query")? }),
            "loadMoreWallets" => Event::Connect(ConnectEvent::LoadMoreWallets),
            "switchNetwork" => Event::Switch(SwitchEvent::SwitchNetwork { caip_network_id: string(o, "caipNetworkId")? }),
            "disconnect" => Event::Connect(ConnectEvent::Disconnect { namespace: opt_string(o, "namespace")? }),
            "copyAddress" => Event::Account(AccountEvent::CopyAddress),
            "copyUri" => Event::Connect(ConnectEvent::CopyUri),
            "walletConnectUri" => Event::Connect(ConnectEvent::WalletConnectUri {
                uri: opt_string(o, "uri")?,
                expires_at_ms: match o.get("expiresAtMs") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(uint(o, "expiresAtMs", u64::MAX)?),
                },
            }),
            "providerResult" => {
                let id = uint(o, "id", u64::MAX)?;
                let result = match o.get("result").cloned() {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(v),
                };
                let error = match o.get("error").cloned() {
                    None | Some(Value::Null) => None,
                    Some(Value::Object(mut e)) => {
                        let code = match e.get("code").cloned() {
                            None | Some(Value::Null) => None,
                            Some(c) => Some(c.as_i64().ok_or_else(|| bad("error.code"))?),
                        };
                        Some(ProviderError { code, message: opt_string(&mut e, "message")? })
                    }
                    Some(_) => return Err(bad("error")),
                };
                Event::ProviderResult { id, result, error }
            }
            "providerEvent" => Event::Connect(ConnectEvent::ProviderEvent {
                connector_id: string(o, "connectorId")?,
                name: string(o, "name")?,
                data: o.get("data").cloned().unwrap_or(Value::Null),
            }),
            "fetchResult" => Event::FetchResult {
                id: uint(o, "id", u64::MAX)?,
                status: uint(o, "status", u16::MAX as u64)? as u16,
                body: string_or_default(o, "body")?,
            },
            "timer" => Event::Timer { id: string(o, "id")? },
            "hostRequest" => Event::Account(AccountEvent::HostRequest { id: uint(o, "id", u64::MAX)?, method: string(o, "method")? }),
            "hostRequestDone" => Event::Account(AccountEvent::HostRequestDone {
                id: uint(o, "id", u64::MAX)?,
                result: o.get("result").cloned().filter(|v| !matches!(v, Value::Null)),
                failed: boolean(o, "failed", Some(false))?,
            }),
            "dismissBanner" => Event::Ui(UiEvent::DismissBanner),
            // Only the events the lazily loaded slices report (not any name a caller makes up).
            "track" => match string(o, "event")?.as_str() {
                ERROR_FETCH_TRANSACTIONS => Event::Service(ServiceEvent::Track(ERROR_FETCH_TRANSACTIONS)),
                _ => return Err(bad("event")),
            },
            _ => return Err(format!("unknown event type `{ty}`")),
        })
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Event::from_value(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(v: serde_json::Value) -> Result<Event, String> {
        Event::from_value(v.into())
    }

    #[test]
    fn view_names_match_serde() {
        for v in [
            View::Connect, View::ConnectingExternal, View::ConnectingWalletConnect, View::ConnectingWalletConnectBasic,
            View::ConnectingFarcaster, View::AllWallets, View::EmailLogin, View::UpdateEmailWallet, View::ProfileWallets,
            View::Account, View::SwitchNetwork, View::SwitchActiveChain, View::UnsupportedChain, View::SiwxSignMessage,
            View::ApproveTransaction, View::Swap, View::RegisterAccountName, View::RegisterAccountNameSuccess, View::ConfigError,
        ] {
            let name = serde_json::to_value(v).unwrap();
            assert_eq!(View::from_name(name.as_str().unwrap()), Some(v));
            assert_eq!(v.name(), name.as_str().unwrap());
        }
        assert_eq!(View::from_name("Nope"), None);
    }

    #[test]
    fn events_are_read_like_the_derived_tagged_form() {
        let e = ev(json!({"type": "open", "view": "Account", "namespace": null})).unwrap();
        assert!(matches!(e, Event::Ui(UiEvent::Open { view: Some(View::Account), unknown_view: None, namespace: None })));
        assert!(matches!(ev(json!({"type": "open"})).unwrap(), Event::Ui(UiEvent::Open { view: None, unknown_view: None, namespace: None })));
        let e = ev(json!({"type": "open", "view": "Nope"})).unwrap();
        assert!(matches!(e, Event::Ui(UiEvent::Open { view: None, unknown_view: Some(ref n), .. }) if n == "Nope"), "an unknown view still opens");
        let e = ev(json!({"type": "providerResult", "id": 3, "error": {"code": 4001, "message": "no"}})).unwrap();
        assert!(matches!(e, Event::ProviderResult { id: 3, result: None, error: Some(ProviderError { code: Some(4001), .. }) }));
        let e = ev(json!({"type": "start", "storage": {"k": "v"}})).unwrap();
        assert!(matches!(e, Event::Connect(ConnectEvent::Start { ref storage, legacy_provider: false, ref unreadable }) if storage == &[("k".to_string(), "v".to_string())] && unreadable.is_empty()));
        let e = ev(json!({"type": "fetchResult", "id": 1, "status": 200})).unwrap();
        assert!(matches!(e, Event::FetchResult { id: 1, status: 200, ref body } if body.is_empty()));
        for bad in [
            json!({"type": "nope"}),
            json!({"view": "Account"}),
            json!({"type": "navigate", "view": "Nope"}),
            json!({"type": "navigate"}),
            json!({"type": "fetchResult", "id": 1, "status": 70000}),
            json!({"type": "fetchResult", "id": 1.5, "status": 200}),
            json!({"type": "theme", "dark": "yes"}),
            json!({"type": "start", "storage": {"k": 1}}),
            json!({"type": "timer"}),
            json!([1]),
        ] {
            assert!(ev(bad.clone()).is_err(), "{bad}");
        }
    }
}
