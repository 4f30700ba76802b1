//! Connection state per chain namespace (spec 4, "Connection status").
//!
//! Each namespace has a status, a list of connections and a current connection. Wallet events
//! (`accountsChanged`, `chainChanged`, `disconnect`) and user actions drive it.

use serde::{Deserialize, Serialize};
use crate::service::vecmap::VecMap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Disconnected,
    Connecting,
    Reconnecting,
    Connected,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Disconnected => "disconnected",
            Status::Connecting => "connecting",
            Status::Reconnecting => "reconnecting",
            Status::Connected => "connected",
        }
    }

    fn from_name(s: &str) -> Option<Status> {
        [Status::Disconnected, Status::Connecting, Status::Reconnecting, Status::Connected].into_iter().find(|v| v.name() == s)
    }
}

/// One wallet connection in a namespace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    pub connector_id: String,
    /// Addresses, the first one active.
    pub accounts: Vec<String>,
    /// CAIP-2 id of the chain the wallet is on.
    pub caip_network_id: String,
}

/// How a connection shows when switching between several wallets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WalletState {
    Connected,
    Active,
    Disconnected,
}

/// Persisted values that disconnecting clears (spec 4).
pub const CLEARED_ON_DISCONNECT: [&str; 3] = ["emailCache", "lastUsedChain", "socialUsername"];

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
struct NamespaceState {
    status: Status,
    connections: Vec<Connection>,
    current: Option<usize>,
    connector_id: Option<String>,
}

/// What changed for the host after an event, so the engine can emit DOM events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change {
    pub connected: bool,
    pub disconnected: bool,
    pub accounts_changed: bool,
    pub chain_changed: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectionState {
    namespaces: VecMap<String, NamespaceState>,
}

impl ConnectionState {
    pub fn status(&self, namespace: &str) -> Status {
        self.namespaces.get(namespace).map(|n| n.status).unwrap_or_default()
    }

    pub fn statuses(&self) -> VecMap<String, Status> {
        self.namespaces.iter().map(|(k, v)| (k.clone(), v.status)).collect()
    }

    pub fn set_status(&mut self, namespace: &str, status: Status) {
        self.ns(namespace).status = status;
    }

    /// The current connection of a namespace, if connected.
    pub fn current(&self, namespace: &str) -> Option<&Connection> {
        let ns = self.namespaces.get(namespace)?;
        ns.current.and_then(|i| ns.connections.get(i))
    }

    pub fn connections(&self, namespace: &str) -> &[Connection] {
        self.namespaces.get(namespace).map(|n| n.connections.as_slice()).unwrap_or(&[])
    }

    /// Every connection of every namespace, with its namespace; a namespace's current one first
    /// (as it is persisted: the first stored is the active one after a reload).
    pub fn all(&self) -> Vec<(String, Connection)> {
        let mut out = Vec::new();
        for (ns, s) in self.namespaces.iter() {
            let first = s.current.unwrap_or(0);
            if let Some(c) = s.connections.get(first) {
                out.push((ns.clone(), c.clone()));
            }
            for (i, c) in s.connections.iter().enumerate() {
                if i != first {
                    out.push((ns.clone(), c.clone()));
                }
            }
        }
        out
    }

    /// The namespace whose current connection is this connector's.
    pub fn namespace_of(&self, connector_id: &str) -> Option<&str> {
        self.namespaces.iter().find(|(_, s)| s.current.and_then(|i| s.connections.get(i)).is_some_and(|c| c.connector_id == connector_id)).map(|(k, _)| k.as_str())
    }

    pub fn connector_id(&self, namespace: &str) -> Option<&str> {
        self.namespaces.get(namespace)?.connector_id.as_deref()
    }

    /// The active address of a namespace when it is connected.
    pub fn address(&self, namespace: &str) -> Option<&str> {
        if self.status(namespace) != Status::Connected {
            return None;
        }
        self.current(namespace)?.accounts.first().map(String::as_str)
    }

    /// A connect event makes the connection connected and current.
    pub fn on_connect(&mut self, namespace: &str, connection: Connection) -> Change {
        let ns = self.ns(namespace);
        ns.connector_id = Some(connection.connector_id.clone());
        let index = match ns.connections.iter().position(|c| c.connector_id == connection.connector_id) {
            Some(i) => {
                ns.connections[i] = connection;
                i
            }
            None => {
                ns.connections.push(connection);
                ns.connections.len() - 1
            }
        };
        ns.current = Some(index);
        ns.status = Status::Connected;
        Change { connected: true, ..Change::default() }
    }

    /// A stored connection its wallet confirmed after a reload: it joins its namespace, and the
    /// one that was current when stored (remembered by [`ConnectionState::startup`]) is current
    /// again once it is back, whichever wallet answers first.
    pub fn on_reconnect(&mut self, namespace: &str, connection: Connection) -> Change {
        let preferred = self.ns(namespace).connector_id.clone();
        let change = self.on_connect(namespace, connection);
        if let Some(p) = preferred {
            if !self.make_current(namespace, &p) {
                self.ns(namespace).connector_id = Some(p);
            }
        }
        change
    }

    /// Disconnecting the last connection gives disconnected; otherwise the first remaining one
    /// becomes current.
    pub fn on_disconnect(&mut self, namespace: &str, connector_id: &str) -> Change {
        let ns = self.ns(namespace);
        let before = ns.connections.len();
        ns.connections.retain(|c| c.connector_id != connector_id);
        if ns.connections.len() == before {
            return Change::default();
        }
        if ns.connections.is_empty() {
            ns.current = None;
            ns.connector_id = None;
            ns.status = Status::Disconnected;
        } else {
            ns.current = Some(0);
            ns.connector_id = Some(ns.connections[0].connector_id.clone());
            ns.status = Status::Connected;
        }
        Change { disconnected: true, ..Change::default() }
    }

    /// Disconnects every connection of a namespace.
    pub fn disconnect_all(&mut self, namespace: &str) -> Change {
        let had = !self.connections(namespace).is_empty();
        let ns = self.ns(namespace);
        ns.connections.clear();
        ns.current = None;
        ns.connector_id = None;
        ns.status = Status::Disconnected;
        Change { disconnected: had, ..Change::default() }
    }

    /// `accountsChanged`: an empty list means the wallet disconnected us.
    pub fn on_accounts_changed(&mut self, namespace: &str, connector_id: &str, accounts: Vec<String>) -> Change {
        if accounts.is_empty() {
            return self.on_disconnect(namespace, connector_id);
        }
        let ns = self.ns(namespace);
        match ns.connections.iter_mut().find(|c| c.connector_id == connector_id) {
            Some(c) if c.accounts != accounts => {
                c.accounts = accounts;
                Change { accounts_changed: true, ..Change::default() }
            }
            _ => Change::default(),
        }
    }

    /// `chainChanged` for a connector.
    pub fn on_chain_changed(&mut self, namespace: &str, connector_id: &str, caip_network_id: &str) -> Change {
        let ns = self.ns(namespace);
        match ns.connections.iter_mut().find(|c| c.connector_id == connector_id) {
            Some(c) if c.caip_network_id != caip_network_id => {
                c.caip_network_id = caip_network_id.to_string();
                Change { chain_changed: true, ..Change::default() }
            }
            _ => Change::default(),
        }
    }

    /// Email login sets connecting.
    pub fn on_email_login(&mut self, namespace: &str) {
        self.ns(namespace).status = Status::Connecting;
    }

    /// Resetting the account sets disconnected and clears the connector id.
    pub fn reset_account(&mut self, namespace: &str) {
        let ns = self.ns(namespace);
        ns.status = Status::Disconnected;
        ns.connector_id = None;
    }

    /// At start-up: with reconnect on, the stored connections are synced (status reconnecting until
    /// the wallet confirms); with reconnect off every namespace is disconnected and the stored
    /// connections are dropped. Returns the connections to re-check with their wallets.
    pub fn startup(&mut self, reconnect: bool, namespaces: &[String], stored: Vec<(String, Connection)>) -> Vec<(String, Connection)> {
        for ns in namespaces {
            self.ns(ns).status = Status::Disconnected;
        }
        if !reconnect {
            self.namespaces.values_mut().for_each(|n| *n = NamespaceState::default());
            return Vec::new();
        }
        let mut out = Vec::new();
        for (ns, c) in stored {
            if namespaces.contains(&ns) {
                let n = self.ns(&ns);
                n.status = Status::Reconnecting;
                // Stored current first: the namespace's current connection once it is back.
                n.connector_id.get_or_insert_with(|| c.connector_id.clone());
                out.push((ns, c));
            }
        }
        out
    }

    /// When switching between several wallets: the state a connection shows.
    pub fn wallet_state(&self, namespace: &str, connector_id: &str) -> WalletState {
        match self.current(namespace) {
            Some(c) if c.connector_id == connector_id && self.status(namespace) == Status::Connected => WalletState::Active,
            _ if self.connections(namespace).iter().any(|c| c.connector_id == connector_id) => WalletState::Connected,
            _ => WalletState::Disconnected,
        }
    }

    /// Makes another existing connection current (multi-wallet switching).
    pub fn make_current(&mut self, namespace: &str, connector_id: &str) -> bool {
        let ns = self.ns(namespace);
        match ns.connections.iter().position(|c| c.connector_id == connector_id) {
            Some(i) => {
                ns.current = Some(i);
                ns.connector_id = Some(connector_id.to_string());
                ns.status = Status::Connected;
                true
            }
            None => false,
        }
    }

    /// The whole state as JSON (a fact note: `[{namespace, status, current, connectorId,
    /// connections: [{connectorId, accounts, caipNetworkId}]}]`).
    pub fn write_json(&self, w: &mut crate::service::json::Writer) {
        w.begin_array();
        for (ns, s) in self.namespaces.iter() {
            w.begin_object().key("namespace").str(ns).key("status").str(s.status.name());
            w.key("current");
            match s.current {
                Some(i) => w.u64(i as u64),
                None => w.null(),
            };
            w.key("connectorId").opt_str(s.connector_id.as_deref()).key("connections").begin_array();
            for c in &s.connections {
                w.begin_object().key("connectorId").str(&c.connector_id).key("accounts").strs(&c.accounts);
                w.key("caipNetworkId").str(&c.caip_network_id).end_object();
            }
            w.end_array().end_object();
        }
        w.end_array();
    }

    /// Reads [`ConnectionState::write_json`]'s JSON, bounded (another host's note).
    pub fn read_json(v: crate::service::json::Value) -> Result<ConnectionState, String> {
        use crate::host::json::{object, opt_string, string, strings};
        use crate::service::json::Value;
        let bad = || "invalid connections".to_string();
        let Value::Array(list) = v else { return Err(bad()) };
        let mut out = ConnectionState::default();
        for n in list.into_iter().take(8) {
            let o = &mut object(n, "a namespace")?;
            let namespace = string(o, "namespace")?;
            let Some(Value::Array(conns)) = o.get("connections").cloned() else { return Err(bad()) };
            let mut connections = Vec::new();
            for c in conns.into_iter().take(16) {
                let c = &mut object(c, "a connection")?;
                let accounts = strings(c, "accounts", false)?;
                if accounts.len() > 64 || accounts.iter().any(|a| a.len() > 128) {
                    return Err(bad());
                }
                connections.push(Connection { connector_id: string(c, "connectorId")?, accounts, caip_network_id: string(c, "caipNetworkId")? });
            }
            let current = o.get("current").and_then(Value::as_u64).map(|i| i as usize).filter(|i| *i < connections.len());
            let status = string(o, "status").ok().as_deref().and_then(Status::from_name).ok_or_else(bad)?;
            let connector_id = opt_string(o, "connectorId")?;
            out.namespaces.insert(namespace, NamespaceState { status, connections, current, connector_id });
        }
        Ok(out)
    }

    fn ns(&mut self, namespace: &str) -> &mut NamespaceState {
        self.namespaces.get_or_insert_with(namespace.to_string(), NamespaceState::default)
    }
}

#[cfg(test)]
#[path = "connection_tests.rs"]
mod tests;
