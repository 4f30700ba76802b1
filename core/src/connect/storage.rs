//! Persisted state (spec 3, "Persisted keys"): wallet id, active network, recent wallets and
//! connections, under a namespaced prefix. Storage is hostile input: another script on the page, an
//! older version or a user can put anything there. Every value is validated; a corrupt or foreign
//! value is ignored (and reported, so debug mode can alert), never trusted and never a panic.

use crate::chain::caip::{parse_caip_address, parse_caip_network_id};
use crate::connect::connection::Connection;
use crate::service::json::{obj, Value};
use serde::{Deserialize, Serialize};

/// Every key the element writes starts with this prefix.
pub const PREFIX: &str = "@wallet-modal/";
pub const KEY_WALLET_ID: &str = "@wallet-modal/wallet_id";
pub const KEY_ACTIVE_NETWORK: &str = "@wallet-modal/active_caip_network_id";
pub const KEY_RECENT_WALLETS: &str = "@wallet-modal/recent_wallets";
pub const KEY_CONNECTIONS: &str = "@wallet-modal/connections";
pub const KEY_SIWX_SESSIONS: &str = "@wallet-modal/siwx_sessions";
pub const KEY_EMAIL_CACHE: &str = "@wallet-modal/email_cache";
pub const KEY_LAST_USED_CHAIN: &str = "@wallet-modal/last_used_chain";
pub const KEY_SOCIAL_USERNAME: &str = "@wallet-modal/social_username";

/// Upper bounds on what is read back, so a huge foreign value cannot grow state.
const MAX_VALUE_BYTES: usize = 16 * 1024;
const MAX_ID_LEN: usize = 128;
const MAX_CONNECTIONS: usize = 16;
const MAX_ACCOUNTS: usize = 32;

/// What was read back from storage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    pub wallet_id: Option<String>,
    pub active_network: Option<String>,
    pub recent_wallets: Vec<String>,
    /// (namespace, connection)
    pub connections: Vec<(String, Connection)>,
    /// Keys whose values were ignored as corrupt or foreign.
    pub ignored: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(Debug, PartialEq))]
struct StoredConnection {
    namespace: String,
    connector_id: String,
    accounts: Vec<String>,
    caip_network_id: String,
}

impl crate::host::json::FromJson for StoredConnection {
    /// By hand (see `engine::json`), with the derive's rules: every field required, no other field.
    fn from_json(v: crate::service::json::Value) -> Result<Self, String> {
        use crate::host::json::{bad, object, string, strings};
        let o = &mut object(v, "connection")?;
        if let Some(k) = o.iter().map(|(k, _)| k).find(|k| !matches!(*k, "namespace" | "connectorId" | "accounts" | "caipNetworkId")) {
            return Err(bad(k));
        }
        Ok(StoredConnection {
            namespace: string(o, "namespace")?,
            connector_id: string(o, "connectorId")?,
            accounts: strings(o, "accounts", false)?,
            caip_network_id: string(o, "caipNetworkId")?,
        })
    }
}

/// A connector or wallet id: 1–128 printable ASCII characters, no spaces or quotes.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\'))
}

/// Reads every known key from a snapshot of storage (`(key, raw value)` pairs; a key given twice:
/// the last one counts).
pub fn load(entries: &[(String, String)]) -> Stored {
    let mut out = Stored::default();
    let mut read = |key: &str| -> Option<&String> {
        let (_, v) = entries.iter().rev().find(|(k, _)| k == key)?;
        if v.len() > MAX_VALUE_BYTES {
            out.ignored.push(key.to_string());
            return None;
        }
        Some(v)
    };
    let wallet_id = read(KEY_WALLET_ID).cloned();
    let active = read(KEY_ACTIVE_NETWORK).cloned();
    let recent = read(KEY_RECENT_WALLETS).cloned();
    let conns = read(KEY_CONNECTIONS).cloned();

    if let Some(v) = wallet_id {
        match decode_string(&v).filter(|s| is_valid_id(s)) {
            Some(s) => out.wallet_id = Some(s),
            None => out.ignored.push(KEY_WALLET_ID.into()),
        }
    }
    if let Some(v) = active {
        match decode_string(&v).filter(|s| parse_caip_network_id(s).is_ok()) {
            Some(s) => out.active_network = Some(s),
            None => out.ignored.push(KEY_ACTIVE_NETWORK.into()),
        }
    }
    if let Some(v) = recent {
        match crate::host::json::from_str::<Vec<String>>(&v) {
            Ok(list) if list.iter().all(|s| is_valid_id(s)) => {
                out.recent_wallets = dedupe(list).into_iter().take(crate::service::constants::RECENT_WALLETS_KEPT).collect()
            }
            _ => out.ignored.push(KEY_RECENT_WALLETS.into()),
        }
    }
    if let Some(v) = conns {
        match crate::host::json::from_str::<Vec<StoredConnection>>(&v) {
            Ok(list) if list.len() <= MAX_CONNECTIONS && list.iter().all(valid_connection) => {
                out.connections = list
                    .into_iter()
                    .map(|c| {
                        (c.namespace, Connection { connector_id: c.connector_id, accounts: c.accounts, caip_network_id: c.caip_network_id })
                    })
                    .collect()
            }
            _ => out.ignored.push(KEY_CONNECTIONS.into()),
        }
    }
    out
}

fn valid_connection(c: &StoredConnection) -> bool {
    let Ok(net) = parse_caip_network_id(&c.caip_network_id) else { return false };
    net.chain_namespace == c.namespace
        && is_valid_id(&c.connector_id)
        && !c.accounts.is_empty()
        && c.accounts.len() <= MAX_ACCOUNTS
        && c.accounts.iter().all(|a| parse_caip_address(&format!("{}:{a}", c.caip_network_id)).is_ok() && a.len() <= 128)
}

/// Values are stored as JSON strings; a bare string (older or foreign writer) is accepted if valid.
fn decode_string(v: &str) -> Option<String> {
    crate::host::json::from_str::<String>(v).ok()
}

fn dedupe(list: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in list {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// `(key, value)` to write for the wallet id.
pub fn encode_wallet_id(id: &str) -> (String, String) {
    (KEY_WALLET_ID.into(), Value::from(id).to_string())
}

pub fn encode_active_network(caip_network_id: &str) -> (String, String) {
    (KEY_ACTIVE_NETWORK.into(), Value::from(caip_network_id).to_string())
}

/// Puts `id` first in the recent list and keeps the spec's number of recent wallets.
pub fn push_recent(recent: &[String], id: &str) -> Vec<String> {
    let mut out = vec![id.to_string()];
    out.extend(recent.iter().filter(|r| *r != id).cloned());
    out.truncate(crate::service::constants::RECENT_WALLETS_KEPT);
    out
}

pub fn encode_recent_wallets(recent: &[String]) -> (String, String) {
    (KEY_RECENT_WALLETS.into(), Value::from(recent.to_vec()).to_string())
}

pub fn encode_connections(connections: &[(String, Connection)]) -> (String, String) {
    let mut list = Vec::with_capacity(connections.len());
    for (ns, c) in connections {
        list.push(obj(vec![
            ("namespace", ns.as_str().into()),
            ("connectorId", c.connector_id.as_str().into()),
            ("accounts", c.accounts.clone().into()),
            ("caipNetworkId", c.caip_network_id.as_str().into()),
        ]));
    }
    (KEY_CONNECTIONS.into(), Value::Array(list).to_string())
}

/// The stored chain is restored only if it is among the configured networks.
pub fn restorable_network<'a>(stored: Option<&'a str>, configured: &[String]) -> Option<&'a str> {
    stored.filter(|id| configured.iter().any(|c| c == id))
}

#[cfg(test)]
#[path = "storage_tests.rs"]
mod tests;
