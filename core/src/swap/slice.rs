//! The swap slice: the Swap view — "You pay" and "You receive" with token
//! pickers and amounts, a quote from the convert API (spec §7 `/v1/convert/*`) asked at most once
//! per 300 ms of typing and again when it goes stale, answers to superseded amounts dropped; the
//! rate, price impact, network fee and slippage; "Approve {symbol}" first when the allowance is
//! short, then "Swap", each through the connected wallet ("Approve in your wallet" meanwhile) and
//! watched until mined. Outside the swap networks: 'Network not supported for Swaps' (spec §9).

use crate::service::decimal::{f64_text, parse_f64};
use crate::account::pending::PendingWatcher;
use crate::chain::family::{self, Swaps, Transactions};
use crate::chain::format::{format_amount_en_us, format_native_balance_en_us};
use crate::chain::units::{base_units_lt, format_units, parse_units};
use crate::host::json::{string, Fields};
use crate::host::{Ctx, Fact, Holding, Note, Outcome, Requests, Slice};
use crate::json;
use crate::service::constants::SWAP_SLIPPAGE_TOLERANCE;
use crate::service::json::{Value, Writer};
use crate::ui::router::View;

/// Typing settles this long before a quote is asked.
pub const QUOTE_DEBOUNCE_MS: u64 = 300;
/// A quote is asked again after this long (the pools move).
pub const QUOTE_STALE_MS: u64 = 15_000;
/// Gas units shown for the fee estimate of a swap before the transaction is built.
pub const SWAP_GAS_ESTIMATE: u64 = 150_000;
/// Receipt polls (spec §9 pending watcher: at most 99).
pub const RECEIPT_POLL_MS: u64 = 1_500;
pub const TOKENS_MAX: usize = 200;
pub const NOT_SUPPORTED: &str = "Network not supported for Swaps"; // i18n
pub const GAS_NOT_SUPPORTED: &str = "Network not supported for Gas Price"; // i18n
const TIMER_QUOTE: &str = "swap-quote";
const TIMER_RECEIPT: &str = "swap-receipt";

/// A token the swap can pay with or receive.
#[derive(Clone, Debug, PartialEq)]
pub struct SwapToken {
    pub symbol: String,
    pub name: String,
    /// The family's token address, or its [`Swaps::native_token`].
    pub address: String,
    pub decimals: u32,
    pub logo: Option<String>,
}

use crate::service::text::field as text;

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.len() <= 78 && s.bytes().all(|b| b.is_ascii_digit())
}

/// The tokens of a `/v1/convert/tokens` answer on `chain` (CAIP-2), addresses as the family
/// writes them.
pub fn parse_tokens(swaps: &dyn Swaps, body: &str, chain: &str) -> Option<Vec<SwapToken>> {
    let v: Value = crate::service::json::parse(body).ok()?;
    let list = v.get("tokens")?.as_array()?;
    Some(
        list.iter()
            .take(TOKENS_MAX)
            .filter_map(|t| {
                let address = text(t, "address", 120)?;
                if address.matches(':').count() == 2 && !address.starts_with(&format!("{chain}:")) {
                    return None;
                }
                let address = swaps.token_address(&address)?;
                let decimals = t.get("decimals").and_then(Value::as_u64).filter(|d| *d <= 36)? as u32;
                Some(SwapToken {
                    symbol: text(t, "symbol", 16)?,
                    name: text(t, "name", 64).unwrap_or_default(),
                    address,
                    decimals,
                    logo: text(t, "logoUri", 2048).filter(|u| u.starts_with("https://") || u.starts_with("http://")),
                })
            })
            .collect(),
    )
}

/// The output amount (base units) of a `/v1/convert/quotes` answer.
pub fn parse_quote(body: &str) -> Option<String> {
    let v: Value = crate::service::json::parse(body).ok()?;
    let q = v.get("quotes")?.as_array()?.first()?;
    q.get("toAmount").and_then(Value::as_str).filter(|a| is_digits(a)).map(str::to_string)
}

/// The transaction of a `/v1/convert/build-*` answer (`{tx: {…}}`), as the family reads it, sent
/// from the connected account (never the answer's own sender).
pub fn parse_tx(swaps: &dyn Swaps, body: &str, from: &str) -> Option<Value> {
    let v: Value = crate::service::json::parse(body).ok()?;
    swaps.transaction(v.get("tx")?, from)
}

/// En-US grouping with at most `decimals` decimals, trailing zeros dropped (`5,940`, `0.00015`).
fn shown(value: &str, decimals: u32) -> String {
    let s = format_amount_en_us(value, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn to_f64(base: &str, decimals: u32) -> f64 {
    format_units(base, decimals).ok().and_then(|s| parse_f64(&s)).unwrap_or(0.0)
}

#[derive(Clone, Debug)]
enum SwapEvent {
    SetFrom(String),
    SetTo(String),
    SetAmount(String),
    Max,
    Flip,
    Approve,
    Confirm,
}

#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Tokens(String),
    GasPrice(String),
    Quote(u64),
    Allowance(u64),
    BuildApprove,
    BuildSwap,
    SendApprove,
    SendSwap,
    Receipt(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Editing,
    /// Building or in the wallet.
    Approving,
    ApproveMining(String),
    Swapping,
    SwapMining(String),
}

#[derive(Default)]
pub struct SwapSlice {
    open: bool,
    chain: String,
    supported: bool,
    tokens: Vec<SwapToken>,
    tokens_failed: bool,
    held: Vec<Holding>,
    from: Option<String>,
    to: Option<String>,
    amount: String,
    /// Bumped by every change of what is quoted; answers for an older one are dropped.
    seq: u64,
    quote: Option<(u64, String)>,
    quoting: bool,
    allowance: Option<(u64, String)>,
    gas_price: Option<String>,
    gas_error: bool,
    stage: Option<Stage>,
    error: Option<String>,
    /// The last swap mined (its hash) until the form changes.
    done: Option<String>,
    watch: PendingWatcher,
    requests: Requests<Asked>,
}

impl Slice for SwapSlice {
    const NAME: &'static str = "swap";
    const EVENTS: &'static [&'static str] = &["swapSetFrom", "swapSetTo", "swapSetAmount", "swapMax", "swapFlip", "swapApprove", "swapConfirm"];
    const PARTS: &'static [&'static str] = &["swap"];
    const VIEWS: &'static [View] = &[View::Swap];

    fn event(&mut self, ty: &str, o: &mut Fields, ctx: &mut Ctx) -> Result<(), String> {
        let event = match ty {
            "swapSetFrom" => SwapEvent::SetFrom(string(o, "address")?),
            "swapSetTo" => SwapEvent::SetTo(string(o, "address")?),
            "swapSetAmount" => SwapEvent::SetAmount(string(o, "amount")?),
            "swapMax" => SwapEvent::Max,
            "swapFlip" => SwapEvent::Flip,
            "swapApprove" => SwapEvent::Approve,
            _ => SwapEvent::Confirm,
        };
        self.handle(event, ctx);
        Ok(())
    }

    fn on_note(&mut self, note: &Note, ctx: &mut Ctx) {
        match note {
            Note::Shown(View::Swap) if ctx.opts.restricted_region() => ctx.refuse_in_restricted_region(),
            Note::Shown(View::Swap) if !self.busy() => self.open(ctx.holdings.clone(), ctx),
            // Left for another view: it closes, unless the wallet prompts or a transaction mines
            // (that carries on, and its balances are read again when it mines).
            Note::Shown(_) | Note::Closed if self.open && !self.busy() => self.close(),
            // Another account or network: what was quoted is not for it.
            Note::AccountsChanged | Note::ChainChanged { .. } | Note::Disconnected => self.close(),
            // The tokens held changed (they loaded, or a swap mined).
            Note::Fact(Fact::Holdings) => self.held = ctx.holdings.clone(),
            _ => {}
        }
    }

    fn write(&self, _ctx: &Ctx, w: &mut Writer) {
        w.key("swap").value(&self.view());
    }

    fn on_fetch_result(&mut self, id: u64, status: u16, body: &str, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        if let Asked::Receipt(_) = asked {
            // A family that reads receipts from its node (see `Call`): as a wallet's answer.
            self.requests.insert(id, asked);
            return self.on_provider_result(id, crate::chain::family::node_outcome(status, body), ctx);
        }
        let ok = (200..300).contains(&status);
        match asked {
            Asked::Tokens(chain) if chain == self.chain => match self.family().and_then(|(s, _)| parse_tokens(s, body, &chain)).filter(|_| ok) {
                Some(tokens) => {
                    self.tokens = tokens;
                    self.tokens_failed = false;
                    if self.from.is_none() {
                        self.from = self.tokens.iter().find(|t| self.is_native(&t.address)).or(self.tokens.first()).map(|t| t.address.clone());
                    }
                    if self.to.is_none() {
                        self.to = self.tokens.iter().find(|t| t.symbol == "USDC" && Some(&t.address) != self.from.as_ref()).or_else(|| self.tokens.iter().find(|t| Some(&t.address) != self.from.as_ref())).map(|t| t.address.clone());
                    }
                    self.changed(ctx);
                }
                None => self.tokens_failed = true,
            },
            Asked::GasPrice(chain) if chain == self.chain => {
                let v: Option<Value> = crate::service::json::parse(body).ok();
                let price = v.as_ref().and_then(|v| v.get("standard").or_else(|| v.get("fast"))).and_then(|p| p.as_str().map(str::to_string).or_else(|| p.as_u64().map(|n| n.to_string()))).filter(|p| is_digits(p));
                match price.filter(|_| ok) {
                    Some(p) => self.gas_price = Some(p),
                    None => self.gas_error = true,
                }
            }
            Asked::Quote(seq) if seq == self.seq => {
                self.quoting = false;
                match parse_quote(body).filter(|_| ok) {
                    Some(out) if out.trim_start_matches('0').is_empty() => self.error = Some("No route for this swap: the pool gives nothing for this amount".into()), // i18n
                    Some(out) => {
                        self.quote = Some((seq, out));
                        ctx.timer(TIMER_QUOTE, QUOTE_STALE_MS);
                    }
                    None => self.error = Some(no_route(body)),
                }
            }
            Asked::Allowance(seq) if seq == self.seq => {
                let v: Option<Value> = crate::service::json::parse(body).ok();
                if let Some(a) = v.as_ref().and_then(|v| v.get("allowance")).and_then(Value::as_str).filter(|a| is_digits(a) && ok) {
                    self.allowance = Some((seq, a.to_string()));
                }
            }
            Asked::BuildApprove | Asked::BuildSwap if self.open => {
                let approve = asked == Asked::BuildApprove;
                let Some((_, from, _, connector)) = ctx.account().map(|(n, a, c, k)| (n.to_string(), a.to_string(), c.to_string(), k.to_string())) else { return };
                // An approval goes to the token paid with, nowhere else (a service answering
                // otherwise would have the wallet approve some other contract).
                let pay = self.from.clone().unwrap_or_default();
                let Some((swaps, txs)) = self.family() else { return };
                let tx = parse_tx(swaps, body, &from).filter(|_| ok).filter(|tx| !approve || swaps.receiver(tx) == Some(pay.as_str()));
                match tx {
                    Some(tx) => {
                        let call = txs.send_call(tx);
                        let method = call.method;
                        let rid = ctx.wallet_request(&connector, call);
                        self.requests.insert(rid, if approve { Asked::SendApprove } else { Asked::SendSwap });
                        // The modal says "Approve in your wallet" meanwhile.
                        ctx.note(Note::WalletPrompt(Some(method.into())));
                    }
                    None => {
                        self.stage = Some(Stage::Editing);
                        self.error = Some(if approve { "The approval could not be built; try again".into() } else { no_route(body) }); // i18n
                    }
                }
            }
            _ => {}
        }
    }

    fn on_provider_result(&mut self, id: u64, outcome: Outcome, ctx: &mut Ctx) {
        let Some(asked) = self.requests.remove(id) else { return };
        match asked {
            Asked::SendApprove | Asked::SendSwap => {
                ctx.note(Note::WalletPrompt(None));
                let hash = outcome.as_ref().ok().and_then(|v| self.family()?.1.sent(v));
                match hash {
                    Some(h) => {
                        self.stage = Some(if asked == Asked::SendApprove { Stage::ApproveMining(h.clone()) } else { Stage::SwapMining(h.clone()) });
                        self.watch = PendingWatcher::new(true, RECEIPT_POLL_MS);
                        self.watch.watch(&h, ctx.now);
                        self.arm(ctx);
                    }
                    None => {
                        self.stage = Some(Stage::Editing);
                        self.error = Some(match outcome {
                            Err(e) => e.message(),
                            Ok(_) => "The wallet did not return a transaction hash".into(), // i18n
                        });
                    }
                }
            }
            Asked::Receipt(hash) => {
                let receipt = outcome.ok().filter(|v| self.family().is_some_and(|(_, t)| t.mined(v)));
                let current = match &self.stage {
                    Some(Stage::ApproveMining(h)) | Some(Stage::SwapMining(h)) => h == &hash,
                    _ => false,
                };
                if !current {
                    return;
                }
                let Some(receipt) = receipt else {
                    if self.watch.stopped() {
                        self.stage = Some(Stage::Editing);
                        self.error = Some("The transaction was not mined yet; check your wallet".into()); // i18n
                    } else {
                        self.arm(ctx);
                    }
                    return;
                };
                let ok = receipt.get("status").and_then(|s| s.as_str()) != Some("0x0");
                let approving = matches!(self.stage, Some(Stage::ApproveMining(_)));
                self.stage = Some(Stage::Editing);
                if !ok {
                    self.error = Some(if approving { "The approval failed on chain".into() } else { "The swap failed on chain (the price moved beyond the slippage?)".into() }); // i18n
                } else if approving {
                    self.ask_allowance(ctx);
                } else {
                    self.done = Some(hash);
                    self.amount.clear();
                    self.quote = None;
                    self.seq += 1;
                    // Both tokens moved (the native currency is no contract: always read).
                    let moved = [&self.from, &self.to].into_iter().flatten().filter(|a| !self.is_native(a)).map(|a| format!("{}:{a}", self.chain)).collect();
                    ctx.note(Note::BalancesChanged(moved));
                }
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, id: &str, ctx: &mut Ctx) {
        match id {
            TIMER_QUOTE if self.open => self.ask_quote(ctx),
            TIMER_RECEIPT => {
                let hash = match &self.stage {
                    Some(Stage::ApproveMining(h)) | Some(Stage::SwapMining(h)) => h.clone(),
                    _ => return,
                };
                if self.watch.tick(ctx.now).is_none() {
                    return self.arm(ctx);
                }
                let Some(connector) = ctx.account().map(|(_, _, _, k)| k.to_string()) else { return };
                let Some((_, txs)) = self.family() else { return };
                if let Some(rid) = ctx.call(&connector, txs.receipt_call(&hash)) {
                    self.requests.insert(rid, Asked::Receipt(hash));
                }
            }
            _ => {}
        }
    }
}

/// The message of a failed quote or build: the service's own when it gives one, else no route.
fn no_route(body: &str) -> String {
    let v: Option<Value> = crate::service::json::parse(body).ok();
    let reason = v.as_ref().and_then(|v| v.get("reasons")?.get(0)?.get("description")?.as_str().map(str::to_string)).or_else(|| v.as_ref().and_then(|v| v.get("message")?.as_str().map(str::to_string)));
    match reason.filter(|r| r.len() <= 200 && !r.chars().any(char::is_control)) {
        Some(reason) => format!("No route for this swap: {reason}"), // i18n
        None => "No route for this swap".into(), // i18n
    }
}

impl SwapSlice {
    fn handle(&mut self, event: SwapEvent, ctx: &mut Ctx) {
        match event {
            _ if !self.open || !self.supported => {}
            _ if matches!(self.stage, Some(Stage::Approving | Stage::Swapping | Stage::ApproveMining(_) | Stage::SwapMining(_))) => {}
            SwapEvent::SetFrom(a) => self.pick(ctx, Some(a), None),
            SwapEvent::SetTo(a) => self.pick(ctx, None, Some(a)),
            SwapEvent::Flip => {
                let (from, to) = (self.to.clone(), self.from.clone());
                self.from = from;
                self.to = to;
                self.changed(ctx);
            }
            SwapEvent::SetAmount(a) => {
                self.amount = a.chars().filter(|c| !c.is_whitespace()).take(40).collect();
                self.changed(ctx);
            }
            SwapEvent::Max => {
                if let Some(b) = self.from_held().map(|h| h.balance.clone()) {
                    self.amount = b;
                    self.changed(ctx);
                }
            }
            SwapEvent::Approve => self.build(ctx, true),
            SwapEvent::Confirm => self.build(ctx, false),
        }
    }

    fn close(&mut self) {
        self.open = false;
        self.requests = Requests::default();
    }

    /// Whether the wallet is prompting or a transaction is being mined.
    fn busy(&self) -> bool {
        matches!(self.stage, Some(Stage::Approving | Stage::Swapping | Stage::ApproveMining(_) | Stage::SwapMining(_)))
    }

    fn open(&mut self, held: Vec<Holding>, ctx: &mut Ctx) {
        let (namespace, chain) = ctx.account().map(|(n, _, c, _)| (n.to_string(), c.to_string())).unwrap_or_default();
        // The convert API swaps where the chain family can (and can send what it builds), on the
        // family's swap networks and the project's.
        let swaps = family::swaps(&namespace).filter(|_| family::has_transactions(&namespace));
        let supported = swaps.is_some_and(|s| crate::service::gates::swap_networks(s.networks(), &ctx.features).iter().any(|n| *n == chain));
        let keep = self.chain == chain && !self.tokens.is_empty();
        *self = SwapSlice { open: true, supported, held, ..SwapSlice::default() };
        self.chain = chain.clone();
        if !supported {
            self.error = Some(NOT_SUPPORTED.into());
            return;
        }
        let _ = keep;
        let id = ctx.request_id();
        let url = ctx.api_url("/v1/convert/tokens", &[("chainId", chain.clone())]);
        self.requests.insert(id, Asked::Tokens(chain.clone()));
        ctx.fetch(id, url, None);
        let id = ctx.request_id();
        let url = ctx.api_url("/v1/convert/gas-price", &[("chainId", chain.clone())]);
        self.requests.insert(id, Asked::GasPrice(chain));
        ctx.fetch(id, url, None);
    }

    /// The chain family's convert API rules and its transactions, on the network swapped on.
    fn family(&self) -> Option<(&'static dyn Swaps, &'static dyn Transactions)> {
        let ns = self.chain.split(':').next().unwrap_or_default();
        Some((family::swaps(ns)?, family::transactions(ns)?))
    }

    /// A token address as the family writes it (`None`: not one).
    fn plain(&self, address: &str) -> Option<String> {
        self.family()?.0.token_address(address)
    }

    fn is_native(&self, address: &str) -> bool {
        self.family().is_some_and(|(s, _)| s.native_token() == address)
    }

    fn pick(&mut self, ctx: &mut Ctx, from: Option<String>, to: Option<String>) {
        let known = |a: &String| self.tokens.iter().any(|t| t.address == *a);
        if let Some(a) = from.and_then(|a| self.plain(&a)).filter(known) {
            if self.to.as_deref() == Some(a.as_str()) {
                self.to = self.from.take();
            }
            self.from = Some(a);
        }
        if let Some(a) = to.and_then(|a| self.plain(&a)).filter(known) {
            if self.from.as_deref() == Some(a.as_str()) {
                self.from = self.to.take();
            }
            self.to = Some(a);
        }
        self.changed(ctx);
    }

    fn token(&self, address: Option<&String>) -> Option<&SwapToken> {
        address.and_then(|a| self.tokens.iter().find(|t| &t.address == a))
    }

    fn held_of(&self, address: &str) -> Option<&Holding> {
        self.held.iter().find(|h| match &h.address {
            None => self.is_native(address),
            Some(a) => self.plain(a).as_deref() == Some(address),
        })
    }

    fn from_held(&self) -> Option<&Holding> {
        self.from.as_deref().and_then(|a| self.held_of(a))
    }

    /// The amount in the pay token's base units, or why not.
    fn base_amount(&self) -> Result<Option<String>, String> {
        let Some(from) = self.token(self.from.as_ref()) else { return Ok(None) };
        if self.amount.is_empty() {
            return Ok(None);
        }
        let (symbol, decimals) = (&from.symbol, from.decimals);
        let base = parse_units(&self.amount, decimals).map_err(|_| format!("Enter an amount of {symbol} with at most {decimals} decimals"))?; // i18n
        if base.trim_start_matches('0').is_empty() {
            return Ok(None);
        }
        let balance = self.from_held().and_then(|h| parse_units(&h.balance, from.decimals).ok()).unwrap_or_default();
        if base_units_lt(&balance, &base) {
            return Err(format!("Insufficient {symbol} balance")); // i18n
        }
        Ok(Some(base))
    }

    /// What is quoted changed: the old quote is dropped and a new one asked once typing settles.
    fn changed(&mut self, ctx: &mut Ctx) {
        self.seq += 1;
        self.quote = None;
        self.allowance = None;
        self.done = None;
        self.error = None;
        self.quoting = false;
        match self.base_amount() {
            Err(e) => self.error = Some(e),
            Ok(Some(_)) if self.from != self.to && self.to.is_some() => {
                self.quoting = true;
                ctx.timer(TIMER_QUOTE, QUOTE_DEBOUNCE_MS);
            }
            Ok(_) => {}
        }
    }

    fn ask_quote(&mut self, ctx: &mut Ctx) {
        let (Ok(Some(amount)), Some(from), Some(to)) = (self.base_amount(), self.from.clone(), self.to.clone()) else { return };
        let Some(user) = ctx.account().map(|(_, a, _, _)| a.to_string()) else { return };
        self.quoting = true;
        let id = ctx.request_id();
        let mut q = vec![("amount", amount), ("userAddress", user.clone()), ("from", format!("{}:{from}", self.chain)), ("to", format!("{}:{to}", self.chain))];
        if let Some(g) = &self.gas_price {
            q.push(("gasPrice", g.clone()));
        }
        let url = ctx.api_url("/v1/convert/quotes", &q);
        self.requests.insert(id, Asked::Quote(self.seq));
        ctx.fetch(id, url, None);
        if !self.is_native(&from) {
            self.ask_allowance(ctx);
        }
    }

    fn ask_allowance(&mut self, ctx: &mut Ctx) {
        let (Some(from), Some(user)) = (self.from.clone(), ctx.account().map(|(_, a, _, _)| a.to_string())) else { return };
        let id = ctx.request_id();
        let url = ctx.api_url("/v1/convert/allowance", &[("tokenAddress", format!("{}:{from}", self.chain)), ("userAddress", user)]);
        self.requests.insert(id, Asked::Allowance(self.seq));
        ctx.fetch(id, url, None);
    }

    /// Whether the pay token needs an approval first (known once the allowance is read).
    fn needs_approval(&self) -> Option<bool> {
        if self.from.as_deref().is_some_and(|f| self.is_native(f)) {
            return Some(false);
        }
        let amount = self.base_amount().ok().flatten()?;
        let (seq, allowance) = self.allowance.as_ref()?;
        (*seq == self.seq).then(|| base_units_lt(allowance, &amount))
    }

    fn build(&mut self, ctx: &mut Ctx, approve: bool) {
        let Some((_, out)) = self.quote.clone().filter(|(s, _)| *s == self.seq) else { return };
        let (Ok(Some(amount)), Some(from), Some(to)) = (self.base_amount(), self.from.clone(), self.to.clone()) else { return };
        if self.needs_approval() != Some(approve) {
            return;
        }
        let Some(user) = ctx.account().map(|(_, a, _, _)| a.to_string()) else { return };
        let _ = out;
        let (from, to) = (format!("{}:{from}", self.chain), format!("{}:{to}", self.chain));
        let id = ctx.request_id();
        if approve {
            let url = ctx.api_url("/v1/convert/build-approve", &[("userAddress", user), ("from", from), ("to", to), ("amount", amount)]);
            self.requests.insert(id, Asked::BuildApprove);
            ctx.fetch(id, url, None);
            self.stage = Some(Stage::Approving);
        } else {
            let url = ctx.api_url("/v1/convert/build-transaction", &[]);
            let mut body = json!({"projectId": ctx.opts.project_id, "amount": amount, "from": from, "to": to, "userAddress": user, "disableEstimate": false});
            if let Some((swaps, _)) = self.family() {
                let (key, fields) = swaps.build_fields(SWAP_SLIPPAGE_TOLERANCE);
                body[key] = fields;
            }
            self.requests.insert(id, Asked::BuildSwap);
            ctx.fetch(id, url, Some(body.to_string()));
            self.stage = Some(Stage::Swapping);
        }
        self.error = None;
    }

    fn arm(&self, ctx: &mut Ctx) {
        if let Some(due) = self.watch.deadline() {
            ctx.timer(TIMER_RECEIPT, due.saturating_sub(ctx.now).max(1));
        }
    }

    fn token_json(&self, t: &SwapToken) -> Value {
        let balance = self.held_of(&t.address).map(|h| format_native_balance_en_us(&h.balance));
        json!({"address": t.address, "symbol": t.symbol, "name": t.name, "logoUri": t.logo, "balance": balance})
    }

    /// The Swap view's part of the snapshot (`null` while closed).
    fn view(&self) -> Value {
        if !self.open {
            return Value::Null;
        }
        let from = self.token(self.from.as_ref());
        let to = self.token(self.to.as_ref());
        let quote = self.quote.as_ref().filter(|(s, _)| *s == self.seq).map(|(_, q)| q.clone());
        let amount_in = self.base_amount().ok().flatten();
        let receive = match (&quote, to) {
            (Some(q), Some(t)) => format_units(q, t.decimals).ok().map(|s| shown(&s, 6)),
            _ => None,
        };
        let rate = match (&quote, &amount_in, from, to) {
            (Some(q), Some(a), Some(f), Some(t)) => {
                let (x, y) = (to_f64(a, f.decimals), to_f64(q, t.decimals));
                (x > 0.0).then(|| format!("1 {} = {} {}", f.symbol, shown(&f64_text(y / x), 6), t.symbol))
            }
            _ => None,
        };
        // Price impact: the value received against the value paid, at the portfolio's USD prices.
        let impact = match (&quote, &amount_in, from, to) {
            (Some(q), Some(a), Some(f), Some(t)) => {
                let pf = self.held_of(&f.address).and_then(|h| h.price);
                let pt = self.held_of(&t.address).and_then(|h| h.price);
                match (pf, pt) {
                    (Some(pf), Some(pt)) if pf > 0.0 => {
                        let paid = to_f64(a, f.decimals) * pf;
                        let got = to_f64(q, t.decimals) * pt;
                        (paid > 0.0).then(|| format!("{}%", format_amount_en_us(&f64_text(((1.0 - got / paid) * 100.0).max(0.0)), 2)))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let fee = self.gas_price.as_ref().and_then(|g| g.parse::<u128>().ok()).map(|g| {
            let wei = (g * SWAP_GAS_ESTIMATE as u128).to_string();
            format!("≈ {} ETH", shown(&format_units(&wei, 18).unwrap_or_default(), 6))
        });
        let min = match (&quote, to) {
            (Some(q), Some(t)) => q.parse::<u128>().ok().map(|q| q * (100 - SWAP_SLIPPAGE_TOLERANCE as u128) / 100).and_then(|m| format_units(&m.to_string(), t.decimals).ok()).map(|m| format!("{} {}", shown(&m, 6), t.symbol)),
            _ => None,
        };
        let action = match &self.stage {
            Some(Stage::Approving) | Some(Stage::Swapping) => "wallet",
            Some(Stage::ApproveMining(_)) => "approving",
            Some(Stage::SwapMining(_)) => "swapping",
            _ if quote.is_none() => "none",
            _ => match self.needs_approval() {
                Some(true) => "approve",
                Some(false) => "swap",
                None => "none",
            },
        };
        json!({
            "supported": self.supported,
            "tokens": self.tokens.iter().map(|t| self.token_json(t)).collect::<Vec<_>>(),
            "tokensFailed": self.tokens_failed,
            "from": from.map(|t| self.token_json(t)),
            "to": to.map(|t| self.token_json(t)),
            "amount": self.amount,
            "receive": receive,
            "quoting": self.quoting && quote.is_none(),
            "rate": rate,
            "priceImpact": impact,
            "fee": fee,
            "feeError": self.gas_error.then_some(GAS_NOT_SUPPORTED),
            "slippage": format!("{SWAP_SLIPPAGE_TOLERANCE}%"),
            "minimumReceived": min,
            "action": action,
            "error": self.error,
            "done": self.done,
        })
    }
}

#[cfg(test)]
#[path = "slice_unit_tests.rs"]
mod tests;
