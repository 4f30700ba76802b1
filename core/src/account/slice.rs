//! The account slice: the connected account as the Account view shows it — address, native
//! balance (read through the namespace's adapter, cached 30 s, read again when something changed
//! it) — and what the host asks the wallet through `getProvider()`: "Approve in your wallet", and
//! sent transactions watched until mined.

use crate::account::balance::BalanceCache;
use crate::account::host_requests::{HostRequests, ReceiptOutcome};
use crate::chain::family;
use crate::chain::format::{avatar_gradient, truncate_address};
use crate::host::json::{boolean, string, uint, Fields};
use crate::host::{is_http_url, Ctx, Effect, Note, Requests, Slice};
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// Prefix of the timers that poll a sent transaction's receipt (`receipt:{hash}`).
const TIMER_RECEIPT: &str = "receipt:";
/// What a native balance that could not be read shows (spec §8: `0.00 {symbol}`).
pub const FAILED_BALANCE: &str = "0.00";

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Balance { network: String, address: String },
    /// The receipt of a transaction sent through the host's provider.
    Receipt { hash: String, namespace: String },
}

#[derive(Default)]
pub struct AccountSlice {
    balances: BalanceCache,
    /// What the host asks the wallet through `getProvider()`, and the transactions it sent.
    host_requests: HostRequests,
    /// The method of one of the modal's own requests (a send, a swap) waiting in the wallet.
    prompt: Option<String>,
    requests: Requests<Asked>,
}

impl Slice for AccountSlice {
    const NAME: &'static str = "account";
    /// `copyAddress`; `hostRequest {id, method}`: the host asked the wallet something through
    /// `getProvider()` (`id` is the shell's); `hostRequestDone {id, result, failed}`: that request
    /// ended (a sent transaction's hash as its result).
    const EVENTS: &'static [&'static str] = &["copyAddress", "hostRequest", "hostRequestDone"];
    const PARTS: &'static [&'static str] = &["account", "walletRequest"];
    const VIEWS: &'static [View] = &[View::Account];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        match ty {
            "copyAddress" => {
                if let Some(a) = ctx.conn.address(ctx.active_namespace()) {
                    let text = a.to_string();
                    ctx.push(Effect::Copy { text });
                    ctx.banner_from_module("success", "Address copied");
                }
            }
            // The host's provider (`getProvider()`) is the active namespace's wallet.
            "hostRequest" => {
                let (id, method) = (uint(o, "id", u64::MAX)?, string(o, "method")?);
                let Some(a) = family::host_requests(ctx.active_namespace()) else { return Ok(()) };
                self.host_requests.started(a, id, method)
            }
            _ => {
                let id = uint(o, "id", u64::MAX)?;
                let result = o.get("result").cloned().filter(|v| !matches!(v, Value::Null));
                let failed = boolean(o, "failed", Some(false))?;
                let Some(a) = family::host_requests(ctx.active_namespace()) else { return Ok(()) };
                let network = ctx.conn.current(ctx.active_namespace()).map(|c| c.caip_network_id.clone());
                // The host's own transaction is watched until mined only when the host asked for
                // it (`pending-transactions`, off by default: spec §9); the modal's Send and Swap
                // watch theirs regardless (the visitor is waiting on the screen).
                if let Some(hash) = self.host_requests.ended(a, id, result.as_ref().and_then(Value::as_str), failed, network.as_deref()) {
                    if ctx.opts.pending_transactions {
                        self.fetch_receipt(ctx, &hash);
                    }
                }
            }
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Shown(View::Account) | Note::Connected => self.refresh_balance(ctx, false),
            Note::AccountsChanged | Note::ChainChanged { .. } | Note::BalancesChanged(_) => self.refresh_balance(ctx, true),
            Note::WalletPrompt(method) => self.prompt = method.clone(),
            Note::Disconnected if !ctx.connected() => {
                self.host_requests.clear();
                self.prompt = None;
            }
            _ => {}
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("account");
        self.write_account(ctx, w);
        // The method of the newest host request waiting for the visitor in the wallet.
        w.key("walletRequest").opt_str(self.prompt.as_deref().or(self.host_requests.waiting_for_wallet()).filter(|_| ctx.connected()));
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        match self.requests.remove(id) {
            Some(Asked::Balance { network, address }) => {
                let n = ctx.network(&network);
                let decimals = n.map(|n| n.native_currency.decimals).unwrap_or(18);
                let a = n.and_then(|n| family::node(n.chain_namespace.as_str()));
                let value = (200..300).contains(&status).then(|| a.and_then(|a| a.parse_balance(body, decimals))).flatten();
                match value {
                    Some(v) => self.balances.store(&network, &address, v, ctx.now),
                    // A failed lookup shows 0.00 rather than nothing, and is retried on the next view.
                    None if self.balances.last(&network, &address).is_none() => self.balances.store(&network, &address, FAILED_BALANCE.into(), 0),
                    None => {}
                }
            }
            Some(Asked::Receipt { hash, namespace }) => {
                let mined = family::node(&namespace).is_some_and(|a| a.is_mined(status, body));
                match self.host_requests.receipt(&hash, mined) {
                    ReceiptOutcome::Mined => self.refresh_balance(ctx, true),
                    ReceiptOutcome::Again => ctx.timer(&format!("{TIMER_RECEIPT}{hash}"), ctx.opts.pending_transactions_interval_ms),
                    ReceiptOutcome::Stop => {}
                }
            }
            None => {}
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        if let Some(hash) = id.strip_prefix(TIMER_RECEIPT) {
            self.fetch_receipt(ctx, hash);
        }
    }
}

impl AccountSlice {
    fn fetch_receipt(&mut self, ctx: &mut Ctx, hash: &str) {
        let Some(network) = self.host_requests.poll(hash) else { return };
        let Some(n) = ctx.network(&network).cloned() else { return };
        let (Some(a), Some(url)) = (family::node(n.chain_namespace.as_str()), ctx.rpc_url(&n)) else { return };
        let id = ctx.request_id();
        self.requests.insert(id, Asked::Receipt { hash: hash.to_string(), namespace: n.chain_namespace.as_str().into() });
        ctx.fetch(id, url, Some(a.receipt_body(id, hash)));
    }

    /// Reads the balance of the active namespace's account, unless a fresh one is cached (`force`
    /// reads anyway) or the same read is under way.
    fn refresh_balance(&mut self, ctx: &mut Ctx, force: bool) {
        let namespace = ctx.active_namespace();
        let Some(a) = family::node(namespace) else { return };
        let Some(c) = ctx.conn.current(namespace).cloned() else { return };
        let Some(address) = ctx.conn.address(namespace).map(str::to_string) else { return };
        let Some(network) = ctx.network(&c.caip_network_id).cloned() else { return };
        if !force && self.balances.fresh(&network.caip_network_id, &address, ctx.now).is_some() {
            return;
        }
        if self.requests.any(|r| matches!(r, Asked::Balance { network: n, address: a } if *n == network.caip_network_id && *a == address)) {
            return;
        }
        let Some(url) = ctx.rpc_url(&network) else { return };
        let id = ctx.request_id();
        self.requests.insert(id, Asked::Balance { network: network.caip_network_id.clone(), address: address.clone() });
        let (url, body) = a.balance_request(&network, url, id, &address);
        ctx.fetch(id, url, body);
    }

    /// The Account view's account: the active namespace's connection, with its balance.
    fn write_account(&self, ctx: &Ctx, w: &mut Writer) {
        let namespace = ctx.active_namespace();
        let (Some(c), Some(address)) = (ctx.conn.current(namespace), ctx.conn.address(namespace)) else {
            w.null();
            return;
        };
        let net = ctx.network(&c.caip_network_id);
        let balance = match net {
            None => Some(FAILED_BALANCE),
            Some(n) => self.balances.last(&n.caip_network_id, address),
        };
        let explorer = net.and_then(|n| n.explorer_url()).filter(|u| is_http_url(u)).and_then(|u| family::explorer_address(namespace, u, address));
        w.begin_object();
        w.key("namespace").str(namespace).key("address").str(address);
        w.key("caipAddress").str(&format!("{}:{address}", c.caip_network_id)).key("shortAddress").str(&truncate_address(address));
        w.key("avatar").strs(&avatar_gradient(address)).key("balance").opt_str(balance);
        w.key("balanceSymbol").str(net.map(|n| n.native_currency.symbol.as_str()).unwrap_or("ETH"));
        // A family without a node the modal reads (Polkadot, Cosmos): said plainly, not loading.
        let note = (!family::has_node(namespace)).then(|| match net.map(|n| n.name.as_str()) {
            Some(network) => format!("Balance is not available for accounts on {network}"), // i18n
            None => "Balance is not available for accounts on this network".to_string(), // i18n
        });
        w.key("balanceNote").opt_str(note.as_deref());
        // Send where the family has transfers (not Polkadot or Cosmos: no node to send through).
        w.key("canSend").bool(family::transfers(namespace).is_some() && family::transactions(namespace).is_some());
        w.key("connectorId").str(&c.connector_id);
        w.key("explorerUrl").opt_str(explorer.as_deref());
        // Spec §5: in a restricted time zone the view offers neither Swap nor Buy, and says so.
        w.key("restricted").bool(ctx.opts.restricted_region());
        w.end_object();
    }
}
