//! The portfolio slice (lazily loaded with the account module): the connected account's tokens from
//! the blockchain API (`GET /v1/account/{address}/balance`), as the Tokens tab shows them — one row
//! per token with its quantity and dollar value, sorted by value, the total in USD — cached 30 s
//! per account and network (spec §9), spam and 0-decimals tokens dropped (spec §5), and on failure
//! 'Token Balance Unavailable' with retries held back for 30 s (spec §5, §8).

use crate::chain::family;
use crate::chain::units::format_units;
use crate::service::decimal::f64_text;
use crate::chain::format::{format_amount_en_us, format_native_balance_en_us};
use crate::host::json::{string, Fields};
use crate::host::{obj, Ctx, Holding, Note, Requests, Slice};
use crate::json;
use crate::service::errors::{write_error, WmError};
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// The Account view's tabs.
pub const TABS: [&str; 3] = ["tokens", "nfts", "activity"];

/// The Account view's tabs: Activity only while its feature is on (service/gates.rs).
fn tabs(ctx: &Ctx) -> &'static [&'static str] {
    if crate::service::gates::activity(&ctx.features) { &TABS } else { &TABS[..2] }
}

// A fetched portfolio is fresh `PORTFOLIO_CACHE_MS` (spec §9 "Cache lifetimes"); after a failure
// the balance is not asked again before `TOKEN_BALANCE_RETRY_MS` (spec §5); an account's name from
// the identity service is kept `IDENTITY_CACHE_MS` (spec §9).
use crate::service::constants::{IDENTITY_CACHE_MS, PORTFOLIO_CACHE_MS, TOKEN_BALANCE_RETRY_MS as RETRY_AFTER_MS};
/// Rows kept from one answer; a hostile or broken service cannot grow the state further.
pub const TOKENS_MAX: usize = 500;

/// An identity answer's name (`{"name": "alice.eth", "avatar": …}`): printable, at most 100
/// characters; `None` when there is none.
pub fn parse_identity(body: &str) -> Option<String> {
    let v = crate::service::json::parse(body).ok()?;
    // A name with control characters is no name (bidi and invisible ones are dropped).
    crate::service::text::field(&v, "name", 100).filter(|_| !v["name"].as_str().unwrap_or_default().chars().any(char::is_control))
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    /// `GET /v1/supported-chains`.
    Chains,
    /// `POST /v1/fungible/price` for the tokens a balance answer gave no price (address, chain).
    Prices(String, String),
    Balance(String, String),
    Identity(String),
    /// The native balance of an account whose family has no token API (address, chain).
    Native(String, String),
}

/// One row of the Tokens tab.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenRow {
    pub name: String,
    pub symbol: String,
    /// CAIP-10 address of the contract; `None` for the native currency.
    pub address: Option<String>,
    /// Quantity floored to 3 decimals, en-US grouping.
    pub quantity: String,
    /// Dollar value of the holding (2 decimals), `None` when the token has no price.
    pub value: Option<f64>,
    /// Dollar price of one token, when it has one.
    pub price: Option<f64>,
    pub icon_url: Option<String>,
    pub decimals: u32,
    /// The quantity as the service wrote it (a decimal).
    pub numeric: String,
}

impl TokenRow {
    fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "symbol": self.symbol,
            "address": self.address,
            "quantity": self.quantity,
            "value": self.value.map(|v| format!("${}", format_amount_en_us(&f64_text(v), 2))),
            "iconUrl": self.icon_url,
        })
    }
}

use crate::service::text::field as text;

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 0.0)
}

fn is_spam(v: &Value) -> bool {
    let flag = |o: &Value| o.get("is_spam").or_else(|| o.get("isSpam")).and_then(Value::as_bool).unwrap_or(false);
    flag(v) || v.get("flags").is_some_and(flag)
}

/// The rows of a balance answer on `chain`: other chains, spam and tokens with 0 decimals (low
/// quality) dropped, unreadable entries skipped, sorted by value (then by name). `None` when the
/// answer is not a balance list at all.
pub fn parse_balances(body: &str, chain: &str) -> Option<Vec<TokenRow>> {
    let v = crate::service::json::parse(body).ok()?;
    let list = v.get("balances")?.as_array()?;
    let mut rows: Vec<TokenRow> = list
        .iter()
        .take(TOKENS_MAX)
        .filter(|t| t.get("chainId").and_then(Value::as_str) == Some(chain) && !is_spam(t))
        .filter_map(|t| {
            let quantity = t.get("quantity")?;
            let decimals = match quantity.get("decimals")? {
                Value::String(s) => s.parse::<u32>().ok()?,
                n => u32::try_from(n.as_u64()?).ok()?,
            };
            if decimals == 0 {
                return None;
            }
            let numeric = quantity.get("numeric")?.as_str()?;
            if numeric.len() > 100 {
                return None;
            }
            Some(TokenRow {
                name: text(t, "name", 64)?,
                symbol: text(t, "symbol", 32)?,
                address: text(t, "address", 200),
                quantity: format_native_balance_en_us(numeric),
                value: number(t, "value").filter(|_| number(t, "price").is_some()),
                price: number(t, "price"),
                icon_url: text(t, "iconUrl", 2048).filter(|u| u.starts_with("https://") || u.starts_with("http://") || u.starts_with("data:image/")),
                decimals,
                numeric: numeric.to_string(),
            })
        })
        .collect();
    rows.sort_by(|a, b| b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0)).then_with(|| a.name.cmp(&b.name)));
    Some(rows)
}

/// The portfolio's total in USD with 2 decimals (`$1,234.57`).
pub fn total_usd(rows: &[TokenRow]) -> String {
    let total: f64 = rows.iter().filter_map(|r| r.value).sum();
    format!("${}", format_amount_en_us(&f64_text(total), 2))
}

#[derive(Clone, Debug, PartialEq)]
struct Fetched {
    address: String,
    chain: String,
    at_ms: u64,
    /// Something changed the holdings since: read again whatever its age.
    stale: bool,
    rows: Vec<TokenRow>,
}

#[derive(Default)]
pub struct PortfolioSlice {
    /// The Account view's tab showing (an index into [`TABS`]).
    tab: usize,
    fetched: Option<Fetched>,
    /// On a family without a token API: the native currency held, read from the network's node
    /// (address, chain, holding), for the Send form.
    native: Option<(String, String, Holding)>,
    loading: bool,
    /// When the last read failed: retries wait [`RETRY_AFTER_MS`].
    failed_at: Option<u64>,
    /// The identity service's name for an address, and when it was asked.
    identity: Option<(String, Option<String>, u64)>,
    requests: Requests<Asked>,
    /// Tokens (CAIP-10) the next balance call asks to be read afresh (`forceUpdate`).
    force_update: Vec<String>,
}

impl Slice for PortfolioSlice {
    const NAME: &'static str = "portfolio";
    /// `refreshTokens`: read the balances again now (the visitor asked), unless a failure is under
    /// 30 s old; `selectAccountTab {tab}`: one of [`TABS`].
    const EVENTS: &'static [&'static str] = &["refreshTokens", "selectAccountTab"];
    const PARTS: &'static [&'static str] = &["tokens", "accountName", "tabs", "tab"];
    const VIEWS: &'static [View] = &[View::Account];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        if ty == "refreshTokens" {
            self.fetch(ctx, true);
            return Ok(());
        }
        let tab = string(o, "tab")?;
        match tabs(ctx).iter().position(|t| *t == tab) {
            Some(i) => {
                self.tab = i;
                ctx.note(Note::TabShown(TABS[i]));
            }
            None if TABS.contains(&tab.as_str()) => ctx.alert_text("TAB_OFF", "The Activity tab is off in this project's features"),
            None => ctx.alert_text("UNKNOWN_TAB", &format!("Unknown Account tab `{}`", tab.chars().take(32).collect::<String>())),
        }
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        // The tokens are read while the Account view shows (or a screen of it that needs them);
        // what changed them while it did not is read the next time it shows.
        let reads = USED_ON.iter().any(|v| ctx.showing(*v));
        match note {
            Note::Shown(v) if USED_ON.contains(v) => self.fetch(ctx, false),
            Note::Connected if reads => self.fetch(ctx, false),
            Note::BalancesChanged(moved) => {
                // What the modal's transaction moved is read afresh by the next balance call.
                for t in moved {
                    if !self.force_update.contains(t) && self.force_update.len() < 20 {
                        self.force_update.push(t.clone());
                    }
                }
                if reads {
                    self.fetch(ctx, true)
                } else {
                    self.invalidate()
                }
            }
            // Another chain or account: the 30 s hold was the last read's (another subject), and
            // what was to be read afresh was another account's.
            Note::ChainChanged { .. } | Note::AccountsChanged if reads => {
                self.failed_at = None;
                self.force_update.clear();
                self.fetch(ctx, true)
            }
            Note::ChainChanged { .. } | Note::AccountsChanged => {
                self.failed_at = None;
                self.force_update.clear();
                self.invalidate()
            }
            Note::Disconnected => {
                self.fetched = None;
                self.native = None;
                self.failed_at = None;
                self.force_update.clear();
            }
            _ => {}
        }
        ctx.holdings = self.holdings(ctx);
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("tokens");
        self.write_tokens(ctx, w);
        // A tab switched off since it was chosen shows the tokens again.
        let tabs = tabs(ctx);
        w.key("accountName").opt_str(self.name(ctx)).key("tabs").strs(tabs).key("tab").str(tabs.get(self.tab).unwrap_or(&TABS[0]));
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let (address, chain) = match self.requests.remove(id) {
            Some(Asked::Balance(a, c)) => (a, c),
            Some(Asked::Native(address, chain)) => {
                let units = (200..300).contains(&status).then(|| family::node(chain.split(':').next().unwrap_or_default())?.balance_units(body)).flatten();
                let holding = units.zip(ctx.network(&chain)).and_then(|(units, n)| {
                    let c = &n.native_currency;
                    Some(Holding { name: c.name.clone(), symbol: c.symbol.clone(), address: None, decimals: c.decimals, balance: format_units(&units, c.decimals).ok()?, price: None })
                });
                if let Some(h) = holding {
                    self.native = Some((address, chain, h));
                    ctx.holdings = self.holdings(ctx);
                }
                return;
            }
            Some(Asked::Identity(address)) => {
                let name = (200..300).contains(&status).then(|| parse_identity(body)).flatten();
                self.identity = Some((address, name, ctx.now));
                return;
            }
            Some(Asked::Prices(address, chain)) => {
                let prices = (200..300).contains(&status).then(|| crate::service::json::parse(body).ok()).flatten();
                let list = prices.as_ref().and_then(|v| v.get("fungibles")?.as_array().cloned()).unwrap_or_default();
                let Some(f) = self.fetched.as_mut().filter(|f| f.address == address && f.chain == chain) else { return };
                for p in list.iter().take(TOKENS_MAX) {
                    let (Some(at), Some(price)) = (p.get("address").and_then(Value::as_str), number(p, "price")) else { continue };
                    for row in f.rows.iter_mut().filter(|r| r.price.is_none() && r.address.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(at))) {
                        row.price = Some(price);
                        row.value = crate::service::decimal::parse_f64(&row.numeric).map(|n| n * price);
                        if row.icon_url.is_none() {
                            row.icon_url = text(p, "iconUrl", 2048).filter(|u| u.starts_with("https://") || u.starts_with("http://"));
                        }
                    }
                }
                f.rows.sort_by(|a, b| b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0)).then_with(|| a.name.cmp(&b.name)));
                ctx.holdings = self.holdings(ctx);
                return;
            }
            Some(Asked::Chains) => {
                // The chains the blockchain API reads (CAIP-2, at most 500); unreadable or failed:
                // none is skipped.
                let http = (200..300).contains(&status).then(|| crate::service::json::parse(body).ok()?.get("http")?.as_array().cloned()).flatten();
                let list = http.map(|a| a.iter().filter_map(|c| c.as_str().filter(|c| c.len() <= 128).map(str::to_string)).take(500).collect());
                ctx.api_chains = Some(list.unwrap_or_else(|| vec!["*".into()]));
                return self.fetch(ctx, true);
            }
            None => return,
        };
        let subject = Self::subject(ctx);
        let current = |a: &String, c: &String| subject.as_ref().is_some_and(|(sa, sc)| sa == a && sc == c);
        self.loading = self.requests.any(|r| matches!(r, Asked::Balance(a, c) if current(a, c)));
        if !current(&address, &chain) {
            // An answer for a network (or account) no longer shown, come after the newer one's:
            // it must not replace what the view shows.
            return;
        }
        match (200..300).contains(&status).then(|| parse_balances(body, &chain)).flatten() {
            Some(rows) => {
                self.failed_at = None;
                // Tokens the answer gave no price: asked of the price API (spec §7), at most 50.
                let unpriced: Vec<String> = rows.iter().filter(|r| r.price.is_none()).filter_map(|r| r.address.clone()).take(50).collect();
                if !unpriced.is_empty() {
                    let id = ctx.request_id();
                    let body = json!({"currency": "usd", "addresses": unpriced, "projectId": ctx.opts.project_id()});
                    self.requests.insert(id, Asked::Prices(address.clone(), chain.clone()));
                    ctx.fetch(id, ctx.api_url("/v1/fungible/price", &[]), Some(body.to_string()));
                }
                self.fetched = Some(Fetched { address, chain, at_ms: ctx.now, stale: false, rows });
                ctx.holdings = self.holdings(ctx);
            }
            None => self.unavailable(ctx),
        }
    }
}

/// The views that read the tokens: the Account view, and its screens that offer what is held.
const USED_ON: [View; 5] = [View::Account, View::WalletSend, View::WalletSendPreview, View::Swap, View::OnRampProviders];

impl PortfolioSlice {
    /// What was read is stale (the account's holdings or network changed while the view was not
    /// showing): it stays shown, and is read again the next time the view shows.
    pub fn invalidate(&mut self) {
        if let Some(f) = self.fetched.as_mut() {
            f.stale = true;
        }
        self.native = None;
    }

    /// The account and network the portfolio is for: the active namespace's connection.
    fn subject(ctx: &Ctx) -> Option<(String, String)> {
        ctx.account().map(|(_, address, chain, _)| (address.to_string(), chain.to_string()))
    }

    /// 'Token Balance Unavailable': the error banner (spec §8, the engine's, which the modal frame
    /// shows), and no read for 30 s.
    fn unavailable(&mut self, ctx: &mut Ctx) {
        self.failed_at = Some(ctx.now);
        self.loading = false;
        ctx.alert(&WmError::TokenBalanceUnavailable);
        ctx.dispatch(obj(vec![("type", "showBanner".into()), ("message", WmError::TokenBalanceUnavailable.message().into())]));
    }

    fn fetch(&mut self, ctx: &mut Ctx, force: bool) {
        let Some((address, chain)) = Self::subject(ctx) else { return };
        if !family::balances(chain.split(':').next().unwrap_or_default()) {
            return self.fetch_native(ctx, address, chain, force);
        }
        if self.failed_at.is_some_and(|at| ctx.now < at + RETRY_AFTER_MS) {
            return;
        }
        // The chains the blockchain API reads, asked once before its first call (spec §7): on
        // any other the calls are skipped — no tokens, 'Token Balance Unavailable'.
        match ctx.api_supports(&chain) {
            None => {
                if !self.requests.any(|r| *r == Asked::Chains) {
                    let id = ctx.request_id();
                    self.requests.insert(id, Asked::Chains);
                    ctx.fetch(id, ctx.api_url("/v1/supported-chains", &[]), None);
                }
                return;
            }
            Some(false) => return self.unavailable(ctx),
            Some(true) => {}
        }
        self.ask_identity(ctx, &address);
        let fresh = self.fetched.as_ref().is_some_and(|f| f.address == address && f.chain == chain && !f.stale && ctx.now < f.at_ms + PORTFOLIO_CACHE_MS);
        if (fresh && !force) || self.requests.any(|r| *r == Asked::Balance(address.clone(), chain.clone())) {
            return;
        }
        let id = ctx.request_id();
        let path = format!("/v1/account/{}/balance", crate::service::url::segment(&address));
        // `forceUpdate`: the tokens a transaction of the modal moved on this chain (CAIP-10), which
        // the service reads from the chain instead of its index (spec §7), once.
        let (forced, kept): (Vec<String>, Vec<String>) = std::mem::take(&mut self.force_update).into_iter().partition(|t| t.starts_with(&format!("{chain}:")));
        self.force_update = kept;
        let url = ctx.api_url(&path, &[("currency", "usd".into()), ("chainId", chain.clone()), ("forceUpdate", crate::service::text::join(&forced, ","))]);
        self.requests.insert(id, Asked::Balance(address, chain));
        self.loading = true;
        ctx.fetch(id, url, None);
    }

    /// On a family without a token API but with transfers (Bitcoin): the native balance, exactly,
    /// from the network's node, so that the Send form has what the account holds — read when the
    /// form shows (the Account view's own balance is the account slice's read); what changed it
    /// meanwhile makes it read again then.
    fn fetch_native(&mut self, ctx: &mut Ctx, address: String, chain: String, force: bool) {
        let ns = chain.split(':').next().unwrap_or_default();
        let Some(node) = family::node(ns).filter(|_| family::transfers(ns).is_some()) else { return };
        if !(ctx.showing(View::WalletSend) || ctx.showing(View::WalletSendPreview)) {
            if force {
                self.native = None;
            }
            return;
        }
        let held = self.native.as_ref().is_some_and(|(a, c, _)| *a == address && *c == chain);
        if (held && !force) || self.requests.any(|r| *r == Asked::Native(address.clone(), chain.clone())) {
            return;
        }
        let Some(network) = ctx.network(&chain).cloned() else { return };
        let Some(url) = ctx.rpc_url(&network) else { return };
        let id = ctx.request_id();
        let (url, body) = node.balance_request(&network, url, id, &address);
        self.requests.insert(id, Asked::Native(address, chain));
        ctx.fetch(id, url, body);
    }

    /// What the account holds on its network, with prices, for the other slices (the Send form,
    /// the Swap and Buy screens): the contract address without its CAIP-10 prefix; `None` for the
    /// native currency.
    fn holdings(&self, ctx: &Ctx) -> Vec<Holding> {
        let subject = Self::subject(ctx);
        let Some(f) = self.fetched.as_ref().filter(|f| subject.as_ref().is_some_and(|(a, c)| *a == f.address && *c == f.chain)) else {
            return match (&self.native, subject) {
                (Some((a, c, h)), Some((sa, sc))) if *a == sa && *c == sc => vec![h.clone()],
                _ => Vec::new(),
            };
        };
        f.rows
            .iter()
            .map(|r| Holding {
                name: r.name.clone(),
                symbol: r.symbol.clone(),
                address: r.address.as_deref().map(|a| a.rsplit(':').next().unwrap_or(a).to_string()),
                decimals: r.decimals,
                balance: r.numeric.clone(),
                price: r.price,
            })
            .collect()
    }

    /// Asks the identity service for the account's name, at most once per 5 minutes.
    fn ask_identity(&mut self, ctx: &mut Ctx, address: &str) {
        let known = self.identity.as_ref().is_some_and(|(a, _, at)| a == address && ctx.now < at + IDENTITY_CACHE_MS);
        if known || self.requests.any(|r| matches!(r, Asked::Identity(a) if a == address)) {
            return;
        }
        let id = ctx.request_id();
        let path = format!("/v1/identity/{}", crate::service::url::segment(address));
        let url = ctx.api_url(&path, &[("sender", address.to_string())]);
        self.requests.insert(id, Asked::Identity(address.to_string()));
        ctx.fetch(id, url, None);
    }

    /// The account's name, when the identity service has one.
    fn name(&self, ctx: &Ctx) -> Option<&str> {
        let (address, name, _) = self.identity.as_ref()?;
        (Self::subject(ctx)?.0 == *address).then_some(name.as_deref()).flatten()
    }

    /// The Tokens tab: the rows, the total in USD, loading, and 'Token Balance Unavailable'.
    fn write_tokens(&self, ctx: &Ctx, w: &mut Writer) {
        let subject = Self::subject(ctx);
        let fetched = self.fetched.as_ref().filter(|f| subject.as_ref().is_some_and(|(a, c)| *a == f.address && *c == f.chain));
        let rows: &[TokenRow] = fetched.map(|f| f.rows.as_slice()).unwrap_or(&[]);
        w.begin_object().key("tokens").begin_array();
        for r in rows {
            w.value(&r.to_json());
        }
        w.end_array().key("totalUsd").opt_str(fetched.map(|f| total_usd(&f.rows)).as_deref());
        w.key("loading").bool(self.loading && fetched.is_none()).key("error");
        write_error(w, self.failed_at.map(|_| &WmError::TokenBalanceUnavailable));
        // A family the blockchain API has no balances of (spec: EVM and Solana): said plainly.
        let unavailable = subject.filter(|(_, c)| !family::balances(c.split(':').next().unwrap_or_default())).map(|(_, c)| {
            let network = ctx.network(&c).map(|n| n.name.clone()).unwrap_or_default();
            if network.is_empty() {
                "Tokens are not available for accounts on this network".to_string() // i18n
            } else {
                format!("Tokens are not available for accounts on {network}") // i18n
            }
        });
        w.key("unavailable").opt_str(unavailable.as_deref());
        w.end_object();
    }
}

#[cfg(test)]
#[path = "portfolio_unit_tests.rs"]
mod tests;
