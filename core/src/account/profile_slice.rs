//! The ProfileWallets slice (multi-wallet, spec §1, §2, §6): every connection of every namespace,
//! the active one first in its namespace, with its network and its native balance read from that
//! network's node when the view shows. Choosing one makes it current and ending one leaves the
//! others (`switchConnection`, `disconnectConnection`; without the multiWallet feature only the
//! info alert 'Multi-wallet not enabled'): this slice checks the feature and the engine, which owns
//! the connections, makes the change (`useConnection`, `disconnect` of one connector). "Add
//! wallet" goes to Connect, where another wallet connects beside these.
//!
//! Part: `profileWallets` `{enabled, wallets: [{namespace, connectorId, address, caipNetworkId,
//! network, symbol, state, balance}]}` (`state`: `active` or `connected`; `balance`: null until
//! read).

use crate::chain::family;
use crate::host::json::{string, Fields};
use crate::host::{obj, Ctx, Fact, Note, Requests, Slice};
use crate::service::errors::WmError;
use crate::service::gates::multi_wallet;
use crate::service::json::Writer;
use crate::ui::router::View;

#[derive(Default)]
pub struct ProfileSlice {
    /// Balances read: (CAIP-2 network, address) → the balance shown.
    balances: Vec<((String, String), String)>,
    requests: Requests<(String, String)>,
}

impl Slice for ProfileSlice {
    const NAME: &'static str = "profile";
    const EVENTS: &'static [&'static str] = &["switchConnection", "disconnectConnection"];
    const PARTS: &'static [&'static str] = &["profileWallets"];
    const VIEWS: &'static [View] = &[View::ProfileWallets];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        let (namespace, connector_id) = (string(o, "namespace")?, string(o, "connectorId")?);
        if !multi_wallet(&ctx.features) {
            ctx.alert(&WmError::MultiWalletNotEnabled);
            ctx.dispatch(obj(vec![("type", "shake".into())]));
            return Ok(());
        }
        if ty == "switchConnection" {
            self.switch(ctx, &namespace, &connector_id);
        } else {
            self.end(ctx, &namespace, &connector_id);
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        let read = match note {
            Note::Shown(View::ProfileWallets) => true,
            Note::Fact(Fact::Connections) | Note::BalancesChanged(_) => ctx.showing(View::ProfileWallets),
            _ => false,
        };
        if read {
            self.read_balances(ctx);
        }
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let Some((network, address)) = self.requests.remove(id) else { return };
        let Some(n) = ctx.network(&network) else { return };
        let value = (200..300)
            .contains(&status)
            .then(|| family::node(n.chain_namespace.as_str()).and_then(|a| a.parse_balance(body, n.native_currency.decimals)))
            .flatten();
        // The family's node answer reads as the views show balances (floored, en-US); a failed
        // read shows 0.00, as the Account view's does.
        let shown = value.unwrap_or_else(|| super::slice::FAILED_BALANCE.into());
        self.balances.retain(|(k, _)| *k != (network.clone(), address.clone()));
        self.balances.push(((network, address), shown));
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("profileWallets").begin_object().key("enabled").bool(multi_wallet(&ctx.features)).key("wallets").begin_array();
        for (ns, c) in ctx.conn.all() {
            let Some(address) = c.accounts.first() else { continue };
            // Active: the current connection of the active family (each family has its current one).
            let active = ns == ctx.active_namespace() && ctx.conn.current(&ns).is_some_and(|cur| cur.connector_id == c.connector_id);
            let n = ctx.network(&c.caip_network_id);
            w.begin_object().key("namespace").str(&ns).key("connectorId").str(&c.connector_id).key("address").str(address);
            w.key("caipNetworkId").str(&c.caip_network_id).key("network").str(n.map(|n| n.name.as_str()).unwrap_or(&c.caip_network_id));
            w.key("symbol").opt_str(n.map(|n| n.native_currency.symbol.as_str()));
            w.key("state").str(if active { "active" } else { "connected" });
            let balance = self.balances.iter().find(|((net, a), _)| *net == c.caip_network_id && a == address).map(|(_, b)| b.as_str());
            w.key("balance").opt_str(balance).end_object();
        }
        w.end_array().end_object();
    }
}

impl ProfileSlice {
    /// Makes a connection current (the engine's: it owns the connections); the network follows
    /// it, the host hears `accountschange`.
    fn switch(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str) {
        ctx.dispatch(obj(vec![("type", "useConnection".into()), ("namespace", namespace.into()), ("connectorId", connector_id.into())]));
    }

    /// Ends one connection; the others stay (ending the last one disconnects the namespace).
    fn end(&mut self, ctx: &mut Ctx, namespace: &str, connector_id: &str) {
        ctx.dispatch(obj(vec![("type", "disconnect".into()), ("namespace", namespace.into()), ("connectorId", connector_id.into())]));
    }

    /// Reads the native balance of every connection on its own network.
    fn read_balances(&mut self, ctx: &mut Ctx) {
        for (ns, c) in ctx.conn.all() {
            let (Some(address), Some(node)) = (c.accounts.first().cloned(), family::node(&ns)) else { continue };
            let Some(network) = ctx.network(&c.caip_network_id).cloned() else { continue };
            let key = (network.caip_network_id.clone(), address.clone());
            if self.requests.any(|k| *k == key) {
                continue;
            }
            let Some(url) = ctx.rpc_url(&network) else { continue };
            let id = ctx.request_id();
            self.requests.insert(id, key);
            let (url, body) = node.balance_request(&network, url, id, &address);
            ctx.fetch(id, url, body);
        }
    }
}

#[cfg(test)]
#[path = "profile_tests.rs"]
mod tests;
