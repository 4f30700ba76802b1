//! The activity slice (lazily loaded with the account module): the connected account's history from
//! the blockchain API (`GET /v1/account/{account}/history`), page by page with the cursor, only the
//! connected chain, spam dropped, grouped by year and month newest first (`account::transactions`).
//! Each row says what happened, with the amount signed by the operation type (spec §3), the
//! counterparty and the time. A failure shows 'Failed to fetch transactions' and sends the
//! `ERROR_FETCH_TRANSACTIONS` analytics event (spec §8).

use crate::account::transactions::{activity_sign, parse_mined_at, year_month_utc, TransactionsState};
use crate::chain::family;
use crate::chain::format::{format_native_balance_en_us, truncate_address};
use crate::host::json::Fields;
use crate::host::{Ctx, Note, Requests, Slice};
use crate::json;
use crate::service::entities::{Transaction, TransactionsPage};
use crate::service::errors::{write_error, WmError};
use crate::service::json::{Value, Writer};
use crate::ui::modal::ModalEvent;
use crate::ui::router::View;

const TIMER_API_CHAINS: &str = "activity-chains";

/// Transactions kept at most (about 20 pages); older pages are not asked for beyond it.
pub const TRANSACTIONS_MAX: usize = 1_000;
const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/// The API's operation types a row names (the last: none given).
const OPERATIONS: [&str; 13] = ["send", "receive", "mint", "burn", "approve", "execute", "deposit", "withdraw", "trade", "borrow", "repay", "claim", ""];
/// What a row says happened for each of [`OPERATIONS`], in its order.
const TITLES: [&str; 13] = ["Sent", "Received", "Minted", "Burned", "Approved", "Executed", "Deposited", "Withdrew", "Swapped", "Borrowed", "Repaid", "Claimed", "Transaction"]; // i18n

/// What a row says happened, from the API's operation type.
pub fn describe(operation_type: &str) -> String {
    let operation = operation_type.to_ascii_lowercase();
    match OPERATIONS.iter().position(|o| *o == operation) {
        Some(i) => TITLES[i].into(),
        None => {
            // ASCII only: Unicode case tables would cost the module ~10 KB for a label.
            let mut c = operation.chars();
            c.next().map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect()).unwrap_or_default()
        }
    }
}

/// The sign of a transfer's amount: the operation type's (spec §3), else its direction.
fn sign(operation_type: &str, direction: &str) -> &'static str {
    match activity_sign(operation_type) {
        Some('+') => "+",
        Some(_) => "-",
        None => match direction {
            "in" => "+",
            "out" => "-",
            _ => "",
        },
    }
}

/// A transfer's quantity with its symbol (`0.500 ETH`; an NFT is counted: `1 Pass #3`).
fn quantity(t: &crate::service::entities::TransactionTransfer) -> Option<String> {
    if t.quantity.numeric.is_empty() {
        return None;
    }
    let symbol = t.fungible_info.as_ref().and_then(|f| f.symbol.clone()).or_else(|| t.nft_info.as_ref().and_then(|n| n.name.clone())).unwrap_or_default();
    let q = match t.fungible_info {
        None if t.nft_info.is_some() => t.quantity.numeric.split('.').next().unwrap_or_default().to_string(),
        _ => format_native_balance_en_us(&t.quantity.numeric),
    };
    Some(format!("{q} {symbol}").trim_end().to_string())
}

fn row(tx: &Transaction, me: &str) -> Value {
    let m = &tx.metadata;
    // A swap: what went out for what came in ("0.500 ETH → 1,494.010 USDC"), the amount is what came in.
    let paid = tx.transfers.iter().find(|t| t.direction == "out").and_then(quantity);
    let got = tx.transfers.iter().find(|t| t.direction == "in");
    if m.operation_type.eq_ignore_ascii_case("trade") {
        if let (Some(paid), Some(got_q)) = (paid, got.and_then(quantity)) {
            let icon = got.and_then(|t| t.fungible_info.as_ref()?.icon.as_ref()?.url.clone()).filter(|u| u.len() <= 2048 && (u.starts_with("https://") || u.starts_with("http://")));
            return json!({
                "id": tx.id,
                "title": describe(&m.operation_type),
                "amount": format!("+{got_q}"),
                "swap": format!("{paid} → {got_q}"),
                "counterparty": Value::Null,
                "minedAt": parse_mined_at(&m.mined_at),
                "iconUrl": icon,
                "hash": m.hash,
                "status": m.status,
            });
        }
    }
    let first = tx.transfers.first();
    let symbol = first.and_then(|t| t.fungible_info.as_ref().and_then(|f| f.symbol.clone()).or_else(|| t.nft_info.as_ref().and_then(|n| n.name.clone())));
    let icon = first
        .and_then(|t| t.fungible_info.as_ref().and_then(|f| f.icon.as_ref()).or_else(|| t.nft_info.as_ref().and_then(|n| n.content.as_ref()?.preview.as_ref())))
        .and_then(|i| i.url.clone())
        .filter(|u| u.len() <= 2048 && (u.starts_with("https://") || u.starts_with("http://")));
    let amount = first.filter(|t| !t.quantity.numeric.is_empty()).map(|t| {
        // An NFT is counted, not measured: "+1 Wallet Modal Pass #3".
        let quantity = match t.fungible_info {
            None if t.nft_info.is_some() => t.quantity.numeric.split('.').next().unwrap_or_default().to_string(),
            _ => format_native_balance_en_us(&t.quantity.numeric),
        };
        format!("{}{} {}", sign(&m.operation_type, &t.direction), quantity, symbol.clone().unwrap_or_default())
    });
    let counterparty = if m.sent_from.eq_ignore_ascii_case(me) { &m.sent_to } else { &m.sent_from };
    json!({
        "id": tx.id,
        "title": describe(&m.operation_type),
        "amount": amount.map(|a| a.trim_end().to_string()),
        "swap": Value::Null,
        "counterparty": (!counterparty.is_empty()).then(|| truncate_address(counterparty)),
        "minedAt": parse_mined_at(&m.mined_at),
        "iconUrl": icon,
        "hash": m.hash,
        "status": m.status,
    })
}

#[derive(Default)]
pub struct ActivitySlice {
    /// The Activity tab is the Account view's tab.
    tab: bool,
    /// The account and chain the list is for.
    subject: Option<(String, String)>,
    list: TransactionsState,
    error: Option<WmError>,
    requests: Requests<(String, String)>,
    /// The groups as last rendered, when the list changed.
    rendered: Value,
    /// The network's name, when its accounts have no history to show.
    unavailable: Option<String>,
    /// Checks made for the supported chains before the first read.
    waits: u8,
}

impl Slice for ActivitySlice {
    const NAME: &'static str = "activity";
    /// The list was scrolled to its end: the next page, if any.
    const EVENTS: &'static [&'static str] = &["loadMoreActivity"];
    const PARTS: &'static [&'static str] = &["activity"];

    fn event(&mut self, _ty: &str, _o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if self.list.has_more() && self.list.transactions.len() < TRANSACTIONS_MAX {
            self.fetch(ctx);
        }
        Ok(())
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        if id == TIMER_API_CHAINS {
            self.load(ctx);
        }
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        // Read while its tab shows; what changed it meanwhile is read the next time it does.
        let shows = self.tab && ctx.showing(View::Account);
        match note {
            Note::TabShown(tab) => {
                self.tab = *tab == "activity";
                self.load(ctx);
            }
            // The account's history changed (another account, or a transaction of its own mined):
            // read it again when the tab shows.
            Note::AccountsChanged | Note::BalancesChanged(_) => {
                self.subject = None;
                self.load(ctx);
            }
            Note::Shown(_) | Note::Connected | Note::ChainChanged { .. } if shows => self.load(ctx),
            Note::Disconnected => {
                self.list.reset();
                self.rendered = Value::Null;
                self.subject = None;
            }
            _ => {}
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        // Only the shown tab's list: the others are not rendered (nor copied) on every event.
        w.key("activity");
        if !self.tab {
            w.null();
            return;
        }
        w.begin_object().key("groups");
        match &self.rendered {
            Value::Null => w.begin_array().end_array(),
            groups => w.value(groups),
        };
        w.key("loading").bool(self.list.loading);
        w.key("empty").bool(self.list.empty && !self.list.loading && self.error.is_none());
        w.key("hasMore").bool(self.list.has_more() && self.list.transactions.len() < TRANSACTIONS_MAX).key("error");
        write_error(w, self.error.as_ref());
        let unavailable = self.unavailable.as_ref().map(|network| {
            if network.is_empty() {
                "Activity is not available for accounts on this network".to_string() // i18n
            } else {
                format!("Activity is not available for accounts on {network}") // i18n
            }
        });
        w.key("unavailable").opt_str(unavailable.as_deref());
        w.end_object();
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        if Some(&asked) != self.subject.as_ref() {
            return; // the account or chain changed meanwhile
        }
        let page = (200..300).contains(&status).then(|| crate::host::json::from_str::<TransactionsPage>(body).ok()).flatten();
        match page {
            Some(page) => {
                self.error = None;
                self.list.on_page(page, &asked.1);
                self.rendered = self.render_groups();
            }
            None => {
                let (e, event) = self.list.on_failure();
                ctx.emit_error(&e);
                // Analytics is the engine's (it knows whether it is on): it sends the event.
                ctx.note(Note::Analytics(ModalEvent { event, connected: ctx.connected() }));
                self.error = Some(e);
            }
        }
    }
}

fn subject(ctx: &Ctx) -> Option<(String, String)> {
    ctx.account().map(|(_, address, chain, _)| (address.to_string(), chain.to_string()))
}

impl ActivitySlice {
    /// While its tab shows: reads the history of the account and chain now connected, unless it
    /// has it.
    fn load(&mut self, ctx: &mut Ctx) {
        if !(self.tab && ctx.showing(View::Account)) {
            return;
        }
        let subject = subject(ctx);
        if let Some((ns, _, chain, _)) = ctx.account() {
            // (Only where the portfolio asks for them: a family with the API's history and balances.)
            let (asked, chain) = (family::history(ns) && family::balances(ns), chain.to_string());
            if asked && crate::account::waits_for_api_chains(ctx, &chain, &mut self.waits, TIMER_API_CHAINS) {
                return;
            }
        }
        // A family whose history the API does not have (spec §8: activity is EVM only), or a chain
        // it does not read (`/v1/supported-chains`, spec §7): the tab says so, and nothing is asked.
        self.unavailable = match ctx.account() {
            Some((ns, _, chain, _)) if !family::history(ns) || ctx.api_supports(chain) == Some(false) => Some(ctx.network(chain).map(|n| n.name.clone()).unwrap_or_default()),
            _ => None,
        };
        if self.unavailable.is_some() {
            self.list.reset();
            self.rendered = Value::Null;
            self.error = None;
            self.subject = subject;
            return;
        }
        if subject != self.subject {
            self.list.reset();
            self.rendered = Value::Null;
            self.error = None;
            self.subject = subject;
            self.fetch(ctx);
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        let Some((address, chain)) = self.subject.clone() else { return };
        let req = self.list.begin_fetch();
        let id = ctx.request_id();
        let path = format!("/v1/account/{}/history", crate::service::url::segment(&address));
        let mut query = vec![("chainId", chain.clone())];
        if let Some(cursor) = req.cursor {
            query.push(("cursor", cursor));
        }
        let url = ctx.api_url(&path, &query);
        self.requests.insert(id, (address, chain));
        ctx.fetch(id, url, None);
    }

    /// The Activity tab's groups, labelled "November 2026", rows newest first (rendered once per
    /// change of the list, not on every event: 1,000 rows take milliseconds).
    fn render_groups(&self) -> Value {
        let me = self.subject.as_ref().map(|(a, _)| a.as_str()).unwrap_or_default();
        let groups: Vec<Value> = self
            .list
            .grouped()
            .iter()
            .flat_map(|y| {
                y.months.iter().map(move |m| {
                    let label = match y.year {
                        0 => "Earlier".to_string(), // i18n
                        year => format!("{} {year}", MONTHS[(m.month as usize).clamp(1, 12) - 1]),
                    };
                    json!({"label": label, "items": m.transactions.iter().map(|t| row(t, me)).collect::<Vec<_>>()})
                })
            })
            .collect();
        Value::Array(groups)
    }
}

/// The month label of unix milliseconds (UTC), as the groups show it.
pub fn month_label(unix_ms: i64) -> String {
    let (y, m) = year_month_utc(unix_ms);
    format!("{} {y}", MONTHS[(m as usize).clamp(1, 12) - 1])
}

#[cfg(test)]
#[path = "activity_unit_tests.rs"]
mod tests;
