//! The buy slice: the OnRampProviders view — buying crypto with fiat through the
//! on-ramp providers (spec §7 `/v1/onramp/*`, `/v1/generators/onrampurl`). The token to buy (USDC
//! on the network by default, spec §9), the payment currency (USD or EUR) and method with their
//! limits (card 10.00–7,500.00, bank account 10.00–25,000.00), the amount, a quote from each
//! provider with its fee; the visitor picks one, its checkout opens in a new window, and the modal
//! follows the order until it is paid out, then reads the account again.
//!
//! Spec §8 fallbacks: options that fail fall back to the built-in list
//! ([`crate::buy::onramp::default_options`]); a quote that fails falls back to an estimate
//! (at the portfolio's price, the provider's highest fee), marked as such.

use crate::buy::onramp::{default_options, PROVIDERS};
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Fact, Holding, Note, Requests, Slice};
use crate::json;
use crate::service::entities::{Currency, OnrampOptions};
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// Typing settles this long before quotes are asked.
pub const QUOTE_DEBOUNCE_MS: u64 = 300;
/// An order's status is asked this often while its checkout is open…
pub const ORDER_POLL_MS: u64 = 2_000;
/// …at most this many times (20 minutes).
pub const ORDER_POLLS_MAX: u32 = 600;
const TIMER_QUOTE: &str = "buy-quote";
const TIMER_ORDER: &str = "buy-order";
const TIMER_PURCHASES: &str = "buy-purchases";
/// Times the purchases are read again for a payout the history does not list yet (indexing).
const PURCHASE_READS_MAX: u32 = 5;
/// The highest provider fee (spec: 1–2 %), in basis points, for estimates.
const ESTIMATE_FEE_BP: u64 = 200;
/// The mock quote's fixed rate of a euro in US dollars (spec §8 "the quote falls back to a mock
/// quote"; no exchange-rate service is asked): an EUR estimate is marked as one like a USD one, and
/// the provider's checkout prices the real order.
const MOCK_EUR_IN_USD: f64 = 1.08;
const CURRENCIES_MAX: usize = 50;

/// A provider that can be chosen: id, name, fee percent (`"1.00"`), when known.
#[derive(Clone, Debug, PartialEq)]
pub struct Provider {
    pub id: String,
    pub name: String,
    pub fee_percent: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProviderQuote {
    pub provider: String,
    /// What the visitor gets (`"98.02"`).
    pub receive: String,
    /// The provider's fee in the payment currency (`"1.00"`), when the provider said it.
    pub fee: Option<String>,
    /// Not the provider's quote: an estimate made here after the quote failed.
    pub estimate: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Options(String),
    Quote { seq: u64, provider: String },
    Url { seq: u64, provider: String },
    Order(String),
    /// A provider's purchases for an account on a chain (the history call's `onramp`).
    Purchases { provider: String, address: String, chain: String },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Order {
    /// The checkout URL is being made.
    Preparing { provider: String },
    /// The checkout is open in its window; the status is followed.
    Open { id: String, provider: String, url: String, status: String, polls: u32 },
    Completed { provider: String, amount: String, symbol: String, tx: Option<String> },
    Failed { message: String },
}

#[derive(Clone, Debug)]
enum BuyEvent {
    SetPurchase(String),
    SetPayment(String),
    SetMethod(String),
    SetAmount(String),
    Choose(String),
    /// Back to the form from an order (to buy again).
    Reset,
}

/// `"12.3"` → 1230 cents; `None` unless a plain decimal with at most 2 decimals.
pub fn cents(s: &str) -> Option<u64> {
    let s = s.trim();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty() || int.len() > 12 || frac.len() > 2 || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac: u64 = format!("{frac:0<2}").parse().ok()?;
    Some(int * 100 + frac)
}

/// 1234567 cents → `"12,345.67"`.
pub fn money(cents: u64) -> String {
    crate::chain::format::format_amount_en_us(&format!("{}.{:02}", cents / 100, cents % 100), 2)
}

use crate::service::text::field as text;

/// A decimal amount the service wrote (`"98.02"`), bounded.
fn amount(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.as_str().to_string(),
        _ => return None,
    };
    let ok = !s.is_empty() && s.len() <= 40 && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') && s.bytes().filter(|b| *b == b'.').count() <= 1;
    ok.then_some(s)
}

/// The providers an options answer names (`providers: [{id, name, feePercent}]`), else the spec's two.
fn providers(v: Option<&Value>) -> Vec<Provider> {
    let listed: Vec<Provider> = v
        .and_then(|v| v.get("providers"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .take(8)
                .filter_map(|p| Some(Provider { id: text(p, "id", 32)?, name: text(p, "name", 64)?, fee_percent: amount(p.get("feePercent")) }))
                .collect()
        })
        .unwrap_or_default();
    if !listed.is_empty() {
        return listed;
    }
    PROVIDERS.iter().map(|(id, name)| Provider { id: id.to_string(), name: name.to_string(), fee_percent: None }).collect()
}

#[derive(Default)]
pub struct BuySlice {
    open: bool,
    chain: String,
    held: Vec<Holding>,
    options: Option<OnrampOptions>,
    /// The options are the built-in ones (the service's failed).
    fallback: bool,
    providers: Vec<Provider>,
    purchase: Option<String>,
    payment: Option<String>,
    method: String,
    amount: String,
    error: Option<String>,
    seq: u64,
    quotes: Vec<ProviderQuote>,
    quoting: bool,
    order: Option<Order>,
    /// Each provider's purchases for the account, as rows (`buy::purchases`).
    purchases: Vec<(String, Vec<Value>)>,
    /// Reads of the purchases since the last payout.
    purchase_reads: u32,
    requests: Requests<Asked>,
}

impl Slice for BuySlice {
    const NAME: &'static str = "buy";
    /// `buyReset`: back to the form from an order (to buy again).
    const EVENTS: &'static [&'static str] = &["buySetPurchase", "buySetPayment", "buySetMethod", "buySetAmount", "buyChoose", "buyReset"];
    const PARTS: &'static [&'static str] = &["buy"];
    const VIEWS: &'static [View] = &[View::OnRampProviders];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        let event = match ty {
            "buySetPurchase" => BuyEvent::SetPurchase(string(o, "symbol")?),
            "buySetPayment" => BuyEvent::SetPayment(string(o, "currency")?),
            "buySetMethod" => BuyEvent::SetMethod(string(o, "method")?),
            "buySetAmount" => BuyEvent::SetAmount(string(o, "amount")?),
            "buyChoose" => BuyEvent::Choose(string(o, "provider")?),
            _ => BuyEvent::Reset,
        };
        self.handle(event, ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Shown(View::OnRampProviders) if ctx.opts.restricted_region() => ctx.refuse_in_restricted_region(),
            Note::Shown(View::OnRampProviders) => self.open(ctx.holdings.clone(), ctx),
            Note::Shown(_) | Note::Closed | Note::AccountsChanged | Note::ChainChanged { .. } | Note::Disconnected if self.open => self.close(),
            Note::Fact(Fact::Holdings) => self.held = ctx.holdings.clone(),
            _ => {}
        }
    }

    fn write(&self, ctx: &Ctx, w: &mut Writer) {
        w.key("buy").value(&self.view(ctx));
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        let v: Option<Value> = (200..300).contains(&status).then(|| crate::service::json::parse(body).ok()).flatten();
        match asked {
            Asked::Options(chain) if chain == self.chain && self.open => {
                let parsed = v.as_ref().and_then(|v| crate::host::json::FromJson::from_json(v.clone()).ok()).map(|o: OnrampOptions| o);
                let parsed = parsed.filter(|o| !o.payment_currencies.is_empty() && !o.purchase_currencies.is_empty());
                self.fallback = parsed.is_none();
                let mut o = parsed.unwrap_or_else(default_options);
                o.payment_currencies.truncate(CURRENCIES_MAX);
                o.purchase_currencies.truncate(CURRENCIES_MAX);
                self.providers = providers(v.as_ref());
                self.options = Some(o);
                let tokens = self.purchasable();
                self.purchase = tokens.iter().find(|c| c.symbol == crate::service::constants::DEFAULT_PURCHASE_TOKEN).or(tokens.first()).map(|c| c.symbol.clone());
                self.payment = self.payment_currencies().first().map(|c| c.id.clone());
                self.changed(ctx);
                self.ask_purchases(ctx);
            }
            // (An answer for another account or chain than Buy shows now is dropped.)
            Asked::Purchases { provider, address, chain }
                if self.open && chain == self.chain && ctx.account().is_some_and(|(_, a, c, _)| a == address && c == chain) =>
            {
                let rows = crate::buy::purchases::purchase_rows(&self.provider_name(&provider), status, body);
                self.purchases.retain(|(p, _)| *p != provider);
                self.purchases.push((provider, rows));
                // A payout the history does not list yet (still being indexed): read again soon.
                if let Some(Order::Completed { tx: Some(tx), .. }) = &self.order {
                    let listed = self.purchases.iter().flat_map(|(_, r)| r).any(|r| r.get("hash").and_then(Value::as_str).is_some_and(|h| h.eq_ignore_ascii_case(tx)));
                    let asking = self.requests.any(|r| matches!(r, Asked::Purchases { .. }));
                    if !listed && !asking && self.purchase_reads < PURCHASE_READS_MAX {
                        ctx.timer(TIMER_PURCHASES, ORDER_POLL_MS);
                    }
                }
            }
            Asked::Quote { seq, provider } if seq == self.seq => {
                let quote = v.as_ref().and_then(|v| {
                    Some(ProviderQuote {
                        provider: provider.clone(),
                        receive: amount(v.get("purchaseAmount")?.get("amount"))?,
                        fee: v.get("fee").and_then(|f| amount(f.get("amount"))),
                        estimate: false,
                    })
                });
                let quote = quote.or_else(|| self.estimate(&provider));
                if let Some(q) = quote {
                    self.quotes.retain(|k| k.provider != provider);
                    self.quotes.push(q);
                    let order: Vec<String> = self.providers.iter().map(|p| p.id.clone()).collect();
                    self.quotes.sort_by_key(|q| order.iter().position(|p| *p == q.provider));
                }
                self.quoting = self.requests.any(|r| matches!(r, Asked::Quote { seq, .. } if *seq == self.seq));
            }
            Asked::Url { seq, provider } if seq == self.seq && matches!(self.order, Some(Order::Preparing { .. })) => {
                let url = v.as_ref().and_then(|v| text(v, "url", 2048)).filter(|u| crate::host::is_http_url(u));
                let id = v.as_ref().and_then(|v| text(v, "orderId", 128)).filter(|i| i.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
                match (url, id) {
                    (Some(url), Some(id)) => {
                        self.order = Some(Order::Open { id, provider, url, status: "PENDING".into(), polls: 0 });
                        ctx.timer(TIMER_ORDER, ORDER_POLL_MS);
                    }
                    _ => self.order = Some(Order::Failed { message: "The provider's checkout could not be opened; try again or choose another provider".into() }), // i18n
                }
            }
            Asked::Order(id) => {
                let Some(Order::Open { id: open_id, provider, polls, status: st, .. }) = self.order.as_mut() else { return };
                if *open_id != id {
                    return;
                }
                let status = v.as_ref().and_then(|v| text(v, "status", 32)).unwrap_or_default();
                match status.as_str() {
                    "COMPLETED" => {
                        let v = v.unwrap_or_default();
                        self.order = Some(Order::Completed {
                            provider: provider.clone(),
                            amount: amount(v.get("purchaseAmount")).unwrap_or_default(),
                            symbol: text(&v, "purchaseCurrency", 16).unwrap_or_default(),
                            tx: text(&v, "txHash", 80).filter(|h| h.starts_with("0x") && h.len() == 66),
                        });
                        // Paid out: the balances, the history and the purchases changed.
                        ctx.note(Note::BalancesChanged(Vec::new()));
                        self.purchase_reads = 0;
                        self.ask_purchases(ctx);
                    }
                    "FAILED" => {
                        let why = v.as_ref().and_then(|v| text(v, "error", 200));
                        let message = match why {
                            Some(reason) => format!("The order failed: {reason}"), // i18n
                            None => "The order failed at the provider".into(), // i18n
                        };
                        self.order = Some(Order::Failed { message });
                        self.ask_purchases(ctx);
                    }
                    _ => {
                        if matches!(status.as_str(), "PENDING" | "PROCESSING") {
                            *st = status;
                        }
                        if *polls < ORDER_POLLS_MAX {
                            ctx.timer(TIMER_ORDER, ORDER_POLL_MS);
                        } else {
                            self.order = Some(Order::Failed { message: "The order did not complete in 20 minutes; check with the provider".into() }); // i18n
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        match id {
            TIMER_QUOTE if self.open => self.ask_quotes(ctx),
            TIMER_PURCHASES if self.open => {
                self.purchase_reads += 1;
                self.ask_purchases(ctx);
            }
            TIMER_ORDER => {
                let Some(Order::Open { id, polls, .. }) = self.order.as_mut() else { return };
                *polls += 1;
                let id = id.clone();
                let rid = ctx.request_id();
                let url = ctx.api_url(&format!("/v1/onramp/orders/{}", crate::service::url::segment(&id)), &[]);
                self.requests.insert(rid, Asked::Order(id));
                ctx.fetch(rid, url, None);
            }
            _ => {}
        }
    }
}

impl BuySlice {
    fn handle(&mut self, event: BuyEvent, ctx: &mut Ctx) {
        match event {
            _ if !self.open => {}
            BuyEvent::Reset if !matches!(self.order, Some(Order::Preparing { .. })) => {
                self.order = None;
                self.changed(ctx);
            }
            BuyEvent::Reset => {}
            _ if self.order.is_some() => {}
            BuyEvent::SetPurchase(s) if self.purchasable().iter().any(|c| c.symbol == s) => {
                self.purchase = Some(s);
                self.changed(ctx);
            }
            BuyEvent::SetPayment(s) if self.payment_currencies().iter().any(|c| c.id == s) => {
                self.payment = Some(s);
                self.changed(ctx);
            }
            BuyEvent::SetMethod(m) if m == "card" || m == "bank_account" => {
                self.method = m;
                self.changed(ctx);
            }
            BuyEvent::SetAmount(a) => {
                self.amount = a.chars().filter(|c| !c.is_whitespace() && *c != ',').take(20).collect();
                self.changed(ctx);
            }
            BuyEvent::Choose(p) => self.choose(&p, ctx),
            _ => {}
        }
    }


    /// An order whose checkout is open keeps being followed (its payout reads the account again)
    /// and shows when Buy opens again; anything else is dropped.
    fn close(&mut self) {
        if matches!(self.order, Some(Order::Open { .. })) {
            self.open = false;
        } else {
            *self = BuySlice { requests: std::mem::take(&mut self.requests), ..BuySlice::default() };
        }
    }

    fn open(&mut self, held: Vec<Holding>, ctx: &mut Ctx) {
        if matches!(self.order, Some(Order::Open { .. })) {
            self.open = true;
            self.held = held;
            return;
        }
        let chain = ctx.account().map(|(_, _, c, _)| c.to_string()).unwrap_or_default();
        *self = BuySlice { open: true, held, method: "card".into(), requests: std::mem::take(&mut self.requests), ..BuySlice::default() };
        self.chain = chain.clone();
        let id = ctx.request_id();
        let url = ctx.api_url("/v1/onramp/options", &[]);
        self.requests.insert(id, Asked::Options(chain));
        ctx.fetch(id, url, None);
    }

    /// The account's purchases at each provider (spec §7: the history call's `onramp`), on the
    /// connected network.
    fn ask_purchases(&mut self, ctx: &mut Ctx) {
        let Some((_, address, chain, _)) = ctx.account() else { return };
        let (address, chain) = (address.to_string(), chain.to_string());
        if ctx.api_supports(&chain) == Some(false) {
            return;
        }
        let path = format!("/v1/account/{}/history", crate::service::url::segment(&address));
        for p in self.providers.clone() {
            let id = ctx.request_id();
            let url = ctx.api_url_strs(&path, &[("onramp", &p.id), ("chainId", &chain)]);
            self.requests.insert(id, Asked::Purchases { provider: p.id, address: address.clone(), chain: chain.clone() });
            ctx.fetch(id, url, None);
        }
    }

    /// The tokens offered on the connected network.
    fn purchasable(&self) -> Vec<&Currency> {
        let reference = self.chain.split(':').nth(1).unwrap_or_default();
        let on_chain: Vec<&Currency> = self
            .options
            .iter()
            .flat_map(|o| o.purchase_currencies.iter())
            .filter(|c| c.networks.iter().any(|n| n.name == self.chain || n.chain_id == reference))
            .collect();
        if on_chain.is_empty() && self.fallback {
            // The built-in list names mainnets only: offer its tokens on this network anyway.
            return self.options.iter().flat_map(|o| o.purchase_currencies.iter()).collect();
        }
        on_chain
    }

    fn payment_currencies(&self) -> &[Currency] {
        self.options.as_ref().map_or(&[], |o| &o.payment_currencies)
    }

    /// The amount in cents, or why it cannot be bought.
    fn checked(&self) -> Result<Option<u64>, String> {
        if self.amount.is_empty() {
            return Ok(None);
        }
        let c = cents(&self.amount).ok_or("Enter an amount such as 100 or 49.99")?; // i18n
        let pay = self.payment.clone().unwrap_or_default();
        let limit = self.payment_currencies().iter().find(|c| c.id == pay).and_then(|c| c.payment_method_limits.iter().find(|l| l.id == self.method));
        if let Some(l) = limit {
            // The method is `card` or `bank_account` (buySetMethod takes no other).
            let by_bank = self.method == "bank_account";
            let currency = &pay;
            let (min, max) = (cents(&l.min), cents(&l.max));
            if let Some(min) = min.filter(|m| c < *m) {
                let amount = money(min);
                return Err(if by_bank {
                    format!("The minimum by bank account is {amount} {currency}") // i18n
                } else {
                    format!("The minimum by card is {amount} {currency}") // i18n
                });
            }
            if let Some(max) = max.filter(|m| c > *m) {
                let amount = money(max);
                return Err(if by_bank {
                    format!("The maximum by bank account is {amount} {currency}") // i18n
                } else {
                    format!("The maximum by card is {amount} {currency}") // i18n
                });
            }
        }
        Ok((c > 0).then_some(c))
    }

    fn changed(&mut self, ctx: &mut Ctx) {
        self.seq += 1;
        self.quotes.clear();
        self.quoting = false;
        self.error = None;
        match self.checked() {
            Err(e) => self.error = Some(e),
            Ok(Some(_)) if self.purchase.is_some() && self.payment.is_some() => {
                self.quoting = true;
                ctx.timer(TIMER_QUOTE, QUOTE_DEBOUNCE_MS);
            }
            Ok(_) => {}
        }
    }

    fn ask_quotes(&mut self, ctx: &mut Ctx) {
        let (Ok(Some(c)), Some(purchase), Some(payment)) = (self.checked(), self.purchase.clone(), self.payment.clone()) else { return };
        for p in self.providers.clone() {
            let id = ctx.request_id();
            let url = ctx.api_url("/v1/onramp/quote", &[]);
            let body = json!({"purchaseCurrency": purchase, "paymentCurrency": payment, "amount": format!("{}.{:02}", c / 100, c % 100),
                "network": self.chain, "provider": p.id, "paymentMethod": self.method});
            self.requests.insert(id, Asked::Quote { seq: self.seq, provider: p.id.clone() });
            ctx.fetch(id, url, Some(body.to_string()));
        }
        self.quoting = !self.providers.is_empty();
    }

    /// When a provider's quote fails, the mock quote (spec §8): the amount less the highest fee, at
    /// the portfolio's price of the token in US dollars — a EUR amount turned into dollars at
    /// [`MOCK_EUR_IN_USD`]; other currencies get none rather than a wrong one.
    fn estimate(&self, provider: &str) -> Option<ProviderQuote> {
        let c = self.checked().ok().flatten()?;
        let usd_per_unit = match self.payment.as_deref() {
            Some("USD") => 1.0,
            Some("EUR") => MOCK_EUR_IN_USD,
            _ => return None,
        };
        let symbol = self.purchase.as_deref()?;
        let contract = self.purchasable().into_iter().find(|k| k.symbol == symbol).and_then(|k| {
            let reference = self.chain.split(':').nth(1).unwrap_or_default();
            k.networks.iter().find(|n| n.chain_id == reference).map(|n| n.contract_address.to_ascii_lowercase())
        });
        let price = self
            .held
            .iter()
            .find(|h| match (&h.address, &contract) {
                (Some(a), Some(c)) => a.eq_ignore_ascii_case(c),
                (None, Some(c)) => c.trim_start_matches("0x").bytes().all(|b| b == b'e'),
                _ => false,
            })
            .and_then(|h| h.price)
            .or((symbol == "USDC").then_some(1.0))?;
        let net = c * (10_000 - ESTIMATE_FEE_BP) / 10_000;
        let tokens = net as f64 / 100.0 * usd_per_unit / price;
        let micro = (tokens * 1e6).floor() as u64;
        Some(ProviderQuote {
            provider: provider.into(),
            receive: crate::chain::units::format_units(&micro.to_string(), 6).unwrap_or_default(),
            fee: None,
            estimate: true,
        })
    }

    fn choose(&mut self, provider: &str, ctx: &mut Ctx) {
        if !self.quotes.iter().any(|q| q.provider == provider) {
            return;
        }
        let (Ok(Some(c)), Some(purchase), Some(payment)) = (self.checked(), self.purchase.clone(), self.payment.clone()) else { return };
        let Some(address) = ctx.account().map(|(_, a, _, _)| a.to_string()) else { return };
        let receive = self.quotes.iter().find(|q| q.provider == provider).map(|q| q.receive.clone()).unwrap_or_default();
        let id = ctx.request_id();
        let url = ctx.api_url("/v1/generators/onrampurl", &[]);
        let body = json!({
            "destinationWallets": [{"address": address, "blockchains": [self.chain], "assets": [purchase]}],
            "defaultNetwork": self.chain,
            "partnerUserId": address,
            "defaultExperience": "buy",
            "presetFiatAmount": format!("{}.{:02}", c / 100, c % 100),
            "presetCryptoAmount": receive,
            "provider": provider,
            "paymentCurrency": payment,
        });
        self.requests.insert(id, Asked::Url { seq: self.seq, provider: provider.into() });
        ctx.fetch(id, url, Some(body.to_string()));
        self.order = Some(Order::Preparing { provider: provider.into() });
    }

    fn provider_name(&self, id: &str) -> String {
        self.providers.iter().find(|p| p.id == id).map_or(id.to_string(), |p| p.name.clone())
    }

    /// The OnRampProviders view's part of the snapshot (`null` while closed).
    fn view(&self, ctx: &Ctx) -> Value {
        if !self.open {
            return Value::Null;
        }
        let currency = |c: &Currency| json!({"id": c.id, "symbol": c.symbol, "name": c.name});
        // The payment currency's image (`/public/getCurrencyImage/{id}`, spec §7; the view keeps a
        // placeholder when it takes over 2,000 ms).
        let payment_image = self.payment.as_deref().map(|p| ctx.api_url_strs(&format!("/public/getCurrencyImage/{}", crate::service::url::segment(p)), &[]));
        let held = self.purchase.as_deref().and_then(|s| {
            let reference = self.chain.split(':').nth(1).unwrap_or_default();
            let contract = self.purchasable().into_iter().find(|k| k.symbol == s)?.networks.iter().find(|n| n.chain_id == reference)?.contract_address.to_ascii_lowercase();
            let h = self.held.iter().find(|h| h.address.as_deref().map(str::to_ascii_lowercase) == Some(contract.clone()) || (h.address.is_none() && contract.trim_start_matches("0x").bytes().all(|b| b == b'e')))?;
            Some(crate::chain::format::format_native_balance_en_us(&h.balance))
        });
        let limits = self.payment.as_ref().and_then(|p| self.payment_currencies().iter().find(|c| &c.id == p)).map(|c| {
            c.payment_method_limits.iter().map(|l| json!({"id": l.id, "min": l.min, "max": l.max})).collect::<Vec<_>>()
        });
        let order = self.order.as_ref().map(|o| match o {
            Order::Preparing { provider } => json!({"stage": "preparing", "provider": self.provider_name(provider)}),
            Order::Open { provider, url, status, .. } => json!({"stage": "open", "provider": self.provider_name(provider), "url": url, "status": status}),
            Order::Completed { provider, amount, symbol, tx } => json!({"stage": "completed", "provider": self.provider_name(provider), "amount": amount, "symbol": symbol, "tx": tx}),
            Order::Failed { message } => json!({"stage": "failed", "message": message}),
        });
        json!({
            "loading": self.options.is_none(),
            "fallback": self.fallback,
            "tokens": self.purchasable().into_iter().map(currency).collect::<Vec<_>>(),
            "purchase": self.purchase,
            "balance": held,
            "currencies": self.payment_currencies().iter().map(currency).collect::<Vec<_>>(),
            "payment": self.payment,
            "paymentImageUrl": payment_image,
            "method": self.method,
            "limits": limits,
            "amount": self.amount,
            "error": self.error,
            "quoting": self.quoting,
            "quotes": self.quotes.iter().map(|q| {
                let p = self.providers.iter().find(|p| p.id == q.provider);
                json!({"provider": q.provider, "name": self.provider_name(&q.provider), "receive": q.receive, "fee": q.fee,
                    "feePercent": p.and_then(|p| p.fee_percent.clone()), "estimate": q.estimate})
            }).collect::<Vec<_>>(),
            "order": order,
            "purchases": crate::buy::purchases::newest_first(&self.purchases),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_cents_with_at_most_two_decimals() {
        assert_eq!(cents("100"), Some(10_000));
        assert_eq!(cents("49.9"), Some(4_990));
        assert_eq!(cents("0.01"), Some(1));
        assert_eq!(cents(".5"), Some(50));
        for bad in ["", ".", "1.234", "-1", "1e3", "12,5", "9999999999999"] {
            assert_eq!(cents(bad), None, "{bad}");
        }
        assert_eq!(money(750_000), "7,500.00");
    }

    #[test]
    fn providers_come_from_the_options_else_the_spec_two() {
        let v = json!({"providers": [{"id": "meld", "name": "Meld (local)", "feePercent": "1.00"}, {"id": "x"}]});
        let p = providers(Some(&v));
        assert_eq!(p, vec![Provider { id: "meld".into(), name: "Meld (local)".into(), fee_percent: Some("1.00".into()) }]);
        let d = providers(None);
        assert_eq!(d.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["meld", "coinbase"]);
    }
}
