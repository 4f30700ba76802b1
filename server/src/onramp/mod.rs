//! The fiat on-ramp of the blockchain API (spec §7) and two local providers standing in for the
//! hosted ones: `meld` ("Meld (local)", 1 % fee) and `coinbase` ("Coinbase (local)", 2 % fee).
//!
//! - `GET /v1/onramp/options` → purchase currencies (each chain's ETH, the manifest's USDC and WMT)
//!   and payment currencies (USD, EUR) with their payment-method limits;
//! - `POST /v1/onramp/quote` → a quote (`purchaseAmount.amount`) from one provider or the best one;
//! - `POST /v1/generators/onrampurl` → `{url}` of a provider's checkout page for a new order;
//! - `GET /v1/onramp/orders/{orderId}` (the demo's own; the hosted one is not shown) → the order;
//! - `GET /onramp/{provider}/checkout/{orderId}` → the checkout page (test card form), which posts
//!   to `POST /onramp/{provider}/checkout/{orderId}/pay`: the order is paid and paid out on anvil
//!   from the provider's account ([`payout`]);
//! - `GET|POST /onramp/fail` → a test control making options and/or quote answer 500 (spec §8's
//!   fallbacks).
//!
//! Errors have the blockchain API's shape: `{"status":"FAILED","reasons":[{"field","description"}]}`.

// Handlers answer an error `Response` through `Result`s: their size does not matter here.
#![allow(clippy::result_large_err)]

pub mod catalog;
pub mod checkout;
pub mod durable;
pub mod money;
pub mod orders;
pub mod payout;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use crate::chain::abi::{addr_checksum, parse_addr};
use crate::client::{Client, Peer};
use crate::AppState;
use catalog::{Asset, Fiat, Network, Provider, PROVIDERS};
use money::{Calc, DecimalError};
use orders::{Order, Orders, Status};

use crate::wallet::store::durable::{Durable, StoreError};

pub use orders::OnrampConfig;

/// Largest JSON body of the on-ramp routes.
pub const MAX_BODY: usize = 16 * 1024;
/// Longest string field read (addresses, ids, names, networks).
pub const MAX_FIELD: usize = 128;
/// Most destination wallets, and blockchains or assets per wallet.
pub const MAX_WALLETS: usize = 10;
pub const MAX_LIST: usize = 20;

type Shared = Arc<Onramp>;

/// The on-ramp of one server: its orders, the manifest it reads, the test switches.
pub struct Onramp {
    pub app: Arc<AppState>,
    pub orders: Mutex<Orders>,
    /// Orders made per client ([`OnrampConfig::order_budget`]).
    order_budget: crate::client::Buckets,
    manifest: catalog::ManifestCache,
    fail_options: AtomicBool,
    fail_quote: AtomicBool,
    /// The server's store, when it has one ([`durable`]): every order is kept there.
    store: Option<Arc<dyn Durable>>,
    /// Orders this process is paying out now.
    running: Mutex<std::collections::HashSet<String>>,
    /// One payout at a time per (chain, payer) in this process: from drawing a nonce to the send
    /// (two drawing the same pending nonce would make one of them start over).
    payer_locks: Mutex<HashMap<(u64, crate::chain::abi::Addr), Arc<tokio::sync::Mutex<()>>>>,
}

impl Onramp {
    pub fn new(app: Arc<AppState>) -> Arc<Onramp> {
        let cfg = &app.config.onramp;
        let store = app.wallet.durable.clone().map(|d| d as Arc<dyn Durable>);
        let o = Arc::new(Onramp {
            orders: Mutex::new(Orders::new(cfg)),
            order_budget: crate::client::Buckets::new(cfg.order_budget, cfg.max_orders),
            app,
            manifest: catalog::ManifestCache::default(),
            fail_options: AtomicBool::new(false),
            fail_quote: AtomicBool::new(false),
            store,
            running: Mutex::new(Default::default()),
            payer_locks: Mutex::new(HashMap::new()),
        });
        if o.store.is_some() {
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(resume(Arc::downgrade(&o)));
            }
        }
        o
    }

    /// Writes `order` to the store (when there is one).
    pub fn save(&self, order: &Order) -> Result<(), StoreError> {
        let Some(d) = &self.store else { return Ok(()) };
        let (until, body) = durable::body(order);
        d.put_entry(durable::KIND, &order.id, until, &body)
    }

    /// Order `id`: as the store holds it (made or changed by another process), else as kept here.
    pub fn order(&self, id: &str) -> Option<Order> {
        if let Some(d) = &self.store {
            if let Ok(held) = d.entry(durable::KIND, id, now_ms()) {
                let parsed = held.as_deref().and_then(durable::parse);
                if let Some(order) = &parsed {
                    self.orders.lock().unwrap().put(order.clone(), now_ms());
                }
                return parsed.or_else(|| self.orders.lock().unwrap().get(id).cloned());
            }
        }
        self.orders.lock().unwrap().get(id).cloned()
    }

    /// Changes order `id` with `f` and keeps it, in the store first. With a store the change is
    /// made only if no other process changed the order since it was read (else `Ok(None)`); `f`
    /// answering false changes nothing.
    pub fn change(&self, id: &str, f: impl FnOnce(&mut Order) -> bool) -> Result<Option<Order>, StoreError> {
        let now = now_ms();
        let Some(d) = &self.store else {
            let mut orders = self.orders.lock().unwrap();
            let Some(x) = orders.get_mut(id) else { return Ok(None) };
            let mut next = x.clone();
            if !f(&mut next) {
                return Ok(None);
            }
            next.updated_ms = now;
            *x = next.clone();
            return Ok(Some(next));
        };
        let Some(held) = d.entry(durable::KIND, id, now)? else { return Ok(None) };
        let Some(mut next) = durable::parse(&held) else { return Ok(None) };
        let was = next.status;
        if !f(&mut next) {
            return Ok(None);
        }
        next.updated_ms = now.max(next.updated_ms + 1);
        let (until, body) = durable::body(&next);
        // An order being paid out is marked first (what `resume` looks through), unmarked after.
        if next.status == Status::Processing && was != Status::Processing {
            d.put_entry(durable::PAYING, id, until, "")?;
        }
        if !d.swap_entry(durable::KIND, id, Some(&held), Some((until, &body)), now)? {
            return Ok(None);
        }
        if next.status != Status::Processing && was == Status::Processing {
            let _ = d.delete_entry(durable::PAYING, id);
        }
        self.orders.lock().unwrap().put(next.clone(), now);
        Ok(Some(next))
    }

    pub fn manifest(&self) -> Arc<catalog::ManifestInfo> {
        self.manifest.get(self.app.options.contracts.as_deref())
    }

    pub fn networks(&self) -> Vec<Network> {
        catalog::networks(&self.app)
    }

    pub fn assets(&self) -> Vec<Asset> {
        catalog::assets(&self.networks(), &self.manifest())
    }
}

/// Takes up the paid orders whose payout stopped making progress (a process that died, this one
/// before a restart) every half lease, for as long as the on-ramp lives.
async fn resume(o: std::sync::Weak<Onramp>) {
    let lease = match o.upgrade() {
        Some(o) => o.app.config.onramp.payout_lease,
        None => return,
    };
    let mut first = true;
    loop {
        if !first {
            tokio::time::sleep((lease / 2).max(std::time::Duration::from_millis(100))).await;
        }
        first = false;
        let Some(o) = o.upgrade() else { return };
        let Some(d) = o.store.clone() else { return };
        let now = now_ms();
        let lease_ms = lease.as_millis() as u64;
        let Ok(paying) = tokio::task::spawn_blocking({
            let d = d.clone();
            move || d.entries(durable::PAYING, now)
        })
        .await
        .unwrap_or_else(|_| Ok(Vec::new())) else {
            continue;
        };
        for (id, _) in paying {
            if o.running.lock().unwrap().contains(&id) {
                continue;
            }
            let Ok(Some(body)) = d.entry(durable::KIND, &id, now) else { continue };
            let Some(order) = durable::parse(&body) else { continue };
            if order.status != Status::Processing {
                let _ = d.delete_entry(durable::PAYING, &id);
                continue;
            }
            if now.saturating_sub(order.updated_ms) < lease_ms {
                continue;
            }
            // Taken up by one process only: the claim is a write from the very body read.
            let mut claimed = order.clone();
            claimed.updated_ms = now.max(order.updated_ms + 1);
            let (until, next) = durable::body(&claimed);
            if let Ok(true) = d.swap_entry(durable::KIND, &id, Some(&body), Some((until, &next)), now) {
                o.orders.lock().unwrap().put(claimed, now);
                eprintln!("[onramp] order {id}: its payout is taken up again");
                tokio::spawn(payout::run(o.clone(), id));
            }
        }
    }
}

/// The on-ramp routes, with their own state (merged into [`crate::router`]).
pub fn router<S: Clone + Send + Sync + 'static>(app: Arc<AppState>) -> Router<S> {
    Router::new()
        .route("/v1/onramp/options", get(options))
        .route("/v1/onramp/quote", post(quote))
        .route("/v1/generators/onrampurl", post(onramp_url))
        .route("/v1/onramp/orders/{order_id}", get(order_status))
        .route("/onramp/fail", get(fail_get).post(fail_set))
        .route("/onramp/assets/{file}", get(checkout::asset))
        .route(
            "/onramp/{provider}/checkout/{order_id}",
            get(checkout::page),
        )
        .route(
            "/onramp/{provider}/checkout/{order_id}/pay",
            post(checkout::pay),
        )
        .with_state(Onramp::new(app))
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// An error in the blockchain API's shape.
pub fn fail(status: StatusCode, field: &str, description: impl Into<String>) -> Response {
    let mut res = (
        status,
        Json(json!({
            "status": "FAILED",
            "reasons": [{ "field": field, "description": description.into() }],
        })),
    )
        .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn bad(field: &str, description: impl Into<String>) -> Response {
    fail(StatusCode::BAD_REQUEST, field, description)
}

fn ok(v: Value) -> Response {
    let mut res = Json(v).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// The project checks of the other blockchain API routes (`projectId` query or `x-project-id`).
fn project(st: &AppState, q: &HashMap<String, String>, headers: &HeaderMap) -> Result<(), Response> {
    if q.get("projectId").is_some_and(|p| p.len() > MAX_FIELD) {
        return Err(bad("projectId", "projectId is too long"));
    }
    st.config.projects.check(q, headers)
        .map(|_| ())
        .map_err(|(status, msg)| fail(status, "projectId", msg))
}

/// Reads a request body of at most `max` bytes within the server's body time-out (the blockchain
/// API's reader).
pub(crate) async fn read_body(o: &Onramp, req: Request, max: usize) -> Result<Bytes, Response> {
    crate::chain::api::read_body(&o.app, req, max).await
}

fn json_object(bytes: &[u8], shape: &str) -> Result<Map<String, Value>, Response> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(bad("body", format!("body must be a JSON object {shape}"))),
        Err(e) => Err(bad("body", format!("body must be JSON {shape} ({e})"))),
    }
}

/// An optional string field (`null` = absent), at most [`MAX_FIELD`] characters.
fn opt_str<'a>(body: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, Response> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() > MAX_FIELD => Err(bad(
            key,
            format!("{key} is longer than {MAX_FIELD} characters"),
        )),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(bad(key, format!("{key} must be a string"))),
    }
}

/// A currency named by a string or by an object's `id` (else `symbol`), as AppKit sends them.
fn currency_ref(body: &Map<String, Value>, key: &str) -> Result<Option<String>, Response> {
    let s = match body.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(m)) => match (m.get("id"), m.get("symbol")) {
            (Some(Value::String(s)), _) | (None | Some(Value::Null), Some(Value::String(s))) => {
                s.clone()
            }
            _ => return Err(bad(key, format!("{key}.id must be a string"))),
        },
        Some(_) => {
            return Err(bad(
                key,
                format!("{key} must be a currency id or an object with an id"),
            ))
        }
    };
    if s.len() > MAX_FIELD {
        return Err(bad(
            key,
            format!("{key} is longer than {MAX_FIELD} characters"),
        ));
    }
    Ok(Some(s))
}

/// An amount given as a decimal string or a JSON number.
fn amount_ref(body: &Map<String, Value>, key: &str) -> Result<Option<String>, Response> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() > money::MAX_DECIMAL_CHARS => Err(bad(
            key,
            format!("{key} must be a decimal number, e.g. \"100.00\""),
        )),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(bad(
            key,
            format!("{key} must be a decimal number, e.g. \"100.00\""),
        )),
    }
}

fn fiat_of(s: Option<String>, key: &str) -> Result<&'static Fiat, Response> {
    match s {
        None => Ok(&catalog::FIATS[0]),
        Some(s) => catalog::fiat(&s)
            .ok_or_else(|| bad(key, format!("Unknown payment currency {s:?} (USD or EUR)"))),
    }
}

fn provider_of(s: Option<&str>) -> Result<Option<&'static Provider>, Response> {
    match s {
        None => Ok(None),
        Some(s) => catalog::provider(s).map(Some).ok_or_else(|| {
            bad(
                "provider",
                format!("Unknown provider {s:?} (meld or coinbase)"),
            )
        }),
    }
}

/// The cheapest provider: with one price for all, its quote is always the best.
fn best_provider() -> &'static Provider {
    PROVIDERS
        .iter()
        .min_by_key(|p| p.fee_bps)
        .unwrap_or(&PROVIDERS[0])
}

fn serves(networks: &[Network]) -> String {
    networks
        .iter()
        .map(|n| n.caip2.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fiat amount in cents within the limits of `method`.
fn fiat_cents(s: &str, key: &str, fiat: &Fiat, method: &str) -> Result<u128, Response> {
    let cents = money::parse_decimal(s, 2).map_err(|e| match e {
        DecimalError::TooPrecise(_) => bad(key, format!("{key} {s:?} has more than 2 decimals")),
        DecimalError::Malformed => bad(
            key,
            format!("{key} must be a decimal number, e.g. \"100.00\" (got {s:?})"),
        ),
        DecimalError::TooLarge => bad(key, format!("{key} {s:?} is too large")),
    })?;
    check_limits(cents, key, fiat, method)?;
    Ok(cents)
}

fn check_limits(cents: u128, key: &str, fiat: &Fiat, method: &str) -> Result<(), Response> {
    let (_, min, max) = catalog::method(method).unwrap_or(catalog::METHODS[0]);
    let f = |c| money::format_fixed(c, 2);
    let label = method.replace('_', " ");
    if cents < min {
        return Err(bad(
            key,
            format!(
                "{} {} is below the {label} minimum of {} {}",
                f(cents),
                fiat.id,
                f(min),
                fiat.id
            ),
        ));
    }
    if cents > max {
        return Err(bad(
            key,
            format!(
                "{} {} is above the {label} maximum of {} {}",
                f(cents),
                fiat.id,
                f(max),
                fiat.id
            ),
        ));
    }
    Ok(())
}

/// The most a quote waits for the pools' reserves (then the prices last read, or the table).
pub const PRICE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The USD price of one unit of `a`: USDC from the fixed table (1 USD); ETH and the other tokens
/// at the blockchain API's price (what `/v1/fungible/price` answers: the demo market's pools at the
/// latest block, else the price table).
pub async fn price_usd(app: &AppState, a: &Asset) -> Option<f64> {
    if a.symbol == "USDC" {
        return Some(catalog::USDC_PRICE_USD);
    }
    let api = &app.chain_api;
    let m = api.manifest();
    let chain = api.chain(a.chain_id)?;
    let _ = tokio::time::timeout(
        PRICE_WAIT,
        crate::convert::prices::refresh(chain, &m, "latest"),
    )
    .await;
    match a.token {
        None => m.native_price(a.chain_id),
        Some(t) => {
            let onchain = chain
                .state
                .read()
                .unwrap()
                .tokens
                .get(&t)
                .and_then(|x| x.symbol.clone());
            m.token_price(
                a.chain_id,
                &t,
                Some(onchain.as_deref().unwrap_or(&a.symbol)),
            )
        }
    }
}

async fn price_micro_of(o: &Onramp, a: &Asset) -> Result<u128, Response> {
    price_usd(&o.app, a)
        .await
        .and_then(money::price_micro)
        .ok_or_else(|| {
            fail(
                StatusCode::SERVICE_UNAVAILABLE,
                "purchaseCurrency",
                format!(
                    "No price for {} on eip155:{} right now",
                    a.symbol, a.chain_id
                ),
            )
        })
}

fn calc(
    cents: u128,
    p: &Provider,
    fiat: &Fiat,
    price: u128,
    a: &Asset,
    key: &str,
) -> Result<Calc, Response> {
    let c = money::compute(cents, p.fee_bps, fiat.usd_micro, price, a.decimals)
        .ok_or_else(|| bad(key, "amount is too large"))?;
    if c.purchase_units == 0 {
        return Err(bad(key, format!("{key} buys nothing after the fee")));
    }
    Ok(c)
}

// ---------------------------------------------------------------------------------------------------------
// Options

async fn options(
    State(o): State<Shared>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) = project(&o.app, &q, &headers) {
        return r;
    }
    if o.fail_options.load(Ordering::Relaxed) {
        return forced_failure();
    }
    let networks = o.networks();
    let assets = catalog::assets(&networks, &o.manifest());
    let providers: Vec<Value> = PROVIDERS
        .iter()
        .map(|p| json!({ "id": p.id, "name": p.name, "feePercent": p.fee_percent() }))
        .collect();
    ok(json!({
        "purchaseCurrencies": catalog::purchase_currencies(&networks, &assets),
        "paymentCurrencies": catalog::payment_currencies(),
        "providers": providers,
    }))
}

fn forced_failure() -> Response {
    fail(
        StatusCode::INTERNAL_SERVER_ERROR,
        "demo",
        "Internal server error (forced by POST /onramp/fail)",
    )
}

// ---------------------------------------------------------------------------------------------------------
// Quote

const QUOTE_SHAPE: &str =
    "{purchaseCurrency, paymentCurrency, amount, network, provider?, paymentMethod?}";

/// The purchase currency and network of a request (`network` may also be the currency's symbol,
/// as AppKit sends it, or absent: then the currency's first network).
fn resolve_purchase<'a>(
    assets: &'a [Asset],
    networks: &[Network],
    symbol: &str,
    network: Option<&str>,
) -> Result<&'a Asset, Response> {
    let sym = catalog::resolve_symbol(assets, symbol).ok_or_else(|| {
        let mut known: Vec<&str> = assets.iter().map(|a| a.symbol.as_str()).collect();
        known.dedup();
        known.sort_unstable();
        known.dedup();
        bad(
            "purchaseCurrency",
            format!(
                "Unknown purchase currency {symbol:?} (offered: {})",
                known.join(", ")
            ),
        )
    })?;
    let chain_id = match network.map(str::trim) {
        None | Some("") => None,
        Some(n) if catalog::resolve_symbol(assets, n).as_deref() == Some(sym.as_str()) => None,
        Some(n) => Some(catalog::resolve_network(networks, n).ok_or_else(|| {
            bad(
                "network",
                format!(
                    "Unknown network {n:?} (this backend serves {})",
                    serves(networks)
                ),
            )
        })?),
    };
    let found = match chain_id {
        Some(id) => catalog::find_asset(assets, &sym, id),
        None => networks
            .iter()
            .find_map(|n| catalog::find_asset(assets, &sym, n.chain_id)),
    };
    found.ok_or_else(|| {
        bad(
            "network",
            format!(
                "{sym} is not offered on eip155:{} (only on {})",
                chain_id.unwrap_or_default(),
                catalog::offered_on(assets, &sym)
            ),
        )
    })
}

fn quote_json(c: &Calc, p: &Provider, a: &Asset, fiat: &Fiat, method: &str) -> Value {
    let f = |cents: u128| json!({ "amount": money::format_fixed(cents, 2), "currency": fiat.id });
    json!({
        "paymentTotal": f(c.total_cents),
        "paymentSubtotal": f(c.subtotal_cents),
        "purchaseAmount": {
            "amount": money::format_token(c.purchase_units, a.decimals),
            "currency": a.symbol,
        },
        "coinbaseFee": f(c.fee_cents),
        "networkFee": f(0),
        "quoteId": orders::random_id("quote"),
        "provider": p.id,
        "providerName": p.name,
        "fee": f(c.fee_cents),
        "feePercent": p.fee_percent(),
        "network": format!("eip155:{}", a.chain_id),
        "paymentMethod": method,
    })
}

async fn quote(
    State(o): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> Response {
    if let Err(r) = project(&o.app, &q, req.headers()) {
        return r;
    }
    if o.fail_quote.load(Ordering::Relaxed) {
        return forced_failure();
    }
    let bytes = match read_body(&o, req, MAX_BODY).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    match quote_inner(&o, &bytes).await {
        Ok(v) => ok(v),
        Err(r) => r,
    }
}

async fn quote_inner(o: &Onramp, bytes: &[u8]) -> Result<Value, Response> {
    let body = json_object(bytes, QUOTE_SHAPE)?;
    let symbol = currency_ref(&body, "purchaseCurrency")?
        .ok_or_else(|| bad("purchaseCurrency", "purchaseCurrency is required"))?;
    let fiat = fiat_of(
        Some(
            currency_ref(&body, "paymentCurrency")?
                .ok_or_else(|| bad("paymentCurrency", "paymentCurrency is required"))?,
        ),
        "paymentCurrency",
    )?;
    let amount = amount_ref(&body, "amount")?.ok_or_else(|| bad("amount", "amount is required"))?;
    let network = opt_str(&body, "network")?;
    let provider = provider_of(opt_str(&body, "provider")?)?;
    let method = opt_str(&body, "paymentMethod")?.unwrap_or("card");
    if catalog::method(method).is_none() {
        return Err(bad(
            "paymentMethod",
            format!("Unknown payment method {method:?} (card or bank_account)"),
        ));
    }
    let networks = o.networks();
    let assets = catalog::assets(&networks, &o.manifest());
    let asset = resolve_purchase(&assets, &networks, &symbol, network)?;
    let cents = fiat_cents(&amount, "amount", fiat, method)?;
    let price = price_micro_of(o, asset).await?;
    let p = provider.unwrap_or_else(best_provider);
    let c = calc(cents, p, fiat, price, asset, "amount")?;
    Ok(quote_json(&c, p, asset, fiat, method))
}

// ---------------------------------------------------------------------------------------------------------
// Generator: onramp URL (creates an order)

const URL_SHAPE: &str = "{destinationWallets: [{address, blockchains, assets?}], partnerUserId, \
defaultNetwork?, defaultExperience?: \"buy\", presetFiatAmount?, presetCryptoAmount?, \
paymentCurrency?, provider?}";

struct Wallet {
    address: crate::chain::abi::Addr,
    chains: Vec<u64>,
    assets: Vec<String>,
}

fn wallets(
    body: &Map<String, Value>,
    networks: &[Network],
    assets: &[Asset],
) -> Result<Vec<Wallet>, Response> {
    const K: &str = "destinationWallets";
    let list = match body.get(K) {
        Some(Value::Array(l)) if !l.is_empty() && l.len() <= MAX_WALLETS => l,
        None | Some(Value::Null) => return Err(bad(K, format!("{K} is required"))),
        _ => {
            return Err(bad(
                K,
                format!(
                    "{K} must list 1 to {MAX_WALLETS} wallets {{address, blockchains, assets?}}"
                ),
            ))
        }
    };
    let mut out = Vec::new();
    for (i, w) in list.iter().enumerate() {
        let Value::Object(w) = w else {
            return Err(bad(
                K,
                format!("{K}[{i}] must be an object {{address, blockchains, assets?}}"),
            ));
        };
        let field = |k: &str| format!("{K}[{i}].{k}");
        let address = match w.get("address") {
            Some(Value::String(s)) if s.len() <= MAX_FIELD => parse_addr(s.trim()),
            _ => None,
        }
        .ok_or_else(|| {
            bad(
                &field("address"),
                format!(
                    "{} must be an address (0x and 40 hex digits)",
                    field("address")
                ),
            )
        })?;
        let strings = |k: &str, required: bool| -> Result<Vec<String>, Response> {
            match w.get(k) {
                None | Some(Value::Null) if !required => Ok(Vec::new()),
                Some(Value::Array(l)) if l.len() <= MAX_LIST && (!required || !l.is_empty()) => l
                    .iter()
                    .map(|v| match v {
                        Value::String(s) if s.len() <= MAX_FIELD => Ok(s.clone()),
                        _ => Err(bad(&field(k), format!("{} must hold strings", field(k)))),
                    })
                    .collect(),
                _ => Err(bad(
                    &field(k),
                    format!(
                        "{} must list {} to {MAX_LIST} names",
                        field(k),
                        if required { 1 } else { 0 }
                    ),
                )),
            }
        };
        let chains = strings("blockchains", true)?
            .iter()
            .map(|n| {
                catalog::resolve_network(networks, n).ok_or_else(|| {
                    bad(
                        &field("blockchains"),
                        format!(
                            "Unknown network {n:?} in {} (this backend serves {})",
                            field("blockchains"),
                            serves(networks)
                        ),
                    )
                })
            })
            .collect::<Result<Vec<u64>, Response>>()?;
        let syms = strings("assets", false)?
            .iter()
            .map(|s| {
                catalog::resolve_symbol(assets, s).ok_or_else(|| {
                    bad(
                        &field("assets"),
                        format!("Unknown asset {s:?} in {}", field("assets")),
                    )
                })
            })
            .collect::<Result<Vec<String>, Response>>()?;
        out.push(Wallet {
            address,
            chains,
            assets: syms,
        });
    }
    Ok(out)
}

async fn onramp_url(
    State(o): State<Shared>,
    Peer(client): Peer,
    Query(q): Query<HashMap<String, String>>,
    req: Request,
) -> Response {
    if let Err(r) = project(&o.app, &q, req.headers()) {
        return r;
    }
    if let Err(seconds) = o.order_budget.take(client) {
        let mut r = fail(
            StatusCode::TOO_MANY_REQUESTS,
            "order",
            format!("Too many orders from your network: please try again after {seconds} seconds"),
        );
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        return r;
    }
    let origin = crate::own_origin(&o.app, req.headers());
    let bytes = match read_body(&o, req, MAX_BODY).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let order = match new_order(&o, &bytes, client).await {
        Ok(order) => order,
        Err(r) => return r,
    };
    let (id, provider) = (order.id.clone(), order.provider.id);
    let kept = o.orders.lock().unwrap().insert(order.clone(), now_ms());
    // Kept in the store once accepted here (a refused order is kept nowhere).
    if kept.is_ok() && o.save(&order).is_err() {
        o.orders.lock().unwrap().remove(&id);
        return fail(StatusCode::SERVICE_UNAVAILABLE, "order", "The order could not be kept: try again in a moment");
    }
    match kept {
        Ok(()) => {}
        Err(orders::Full::Client) => {
            return fail(
                StatusCode::TOO_MANY_REQUESTS,
                "order",
                "All your orders are being paid out: try again when one is done",
            )
        }
        Err(orders::Full::Table) => {
            return fail(
                StatusCode::SERVICE_UNAVAILABLE,
                "order",
                "The on-ramp is full of open orders: try again in a few minutes",
            )
        }
    }
    ok(json!({
        "url": format!("{origin}/onramp/{provider}/checkout/{id}"),
        "orderId": id,
        "provider": provider,
    }))
}

async fn new_order(o: &Onramp, bytes: &[u8], client: Client) -> Result<Order, Response> {
    let body = json_object(bytes, URL_SHAPE)?;
    let networks = o.networks();
    let assets = catalog::assets(&networks, &o.manifest());
    let wallets = wallets(&body, &networks, &assets)?;
    let chain_id = match opt_str(&body, "defaultNetwork")? {
        Some(n) => catalog::resolve_network(&networks, n).ok_or_else(|| {
            bad(
                "defaultNetwork",
                format!(
                    "Unknown network {n:?} (this backend serves {})",
                    serves(&networks)
                ),
            )
        })?,
        None => wallets[0].chains[0],
    };
    let wallet = wallets
        .iter()
        .find(|w| w.chains.contains(&chain_id))
        .ok_or_else(|| {
            bad(
                "defaultNetwork",
                format!("No destination wallet lists eip155:{chain_id} in its blockchains"),
            )
        })?;
    let asset = if wallet.assets.is_empty() {
        catalog::find_asset(&assets, "USDC", chain_id)
            .or_else(|| catalog::find_asset(&assets, crate::chain::api::NATIVE_SYMBOL, chain_id))
    } else {
        wallet
            .assets
            .iter()
            .find_map(|s| catalog::find_asset(&assets, s, chain_id))
    }
    .ok_or_else(|| {
        bad(
            "destinationWallets",
            format!(
                "None of {} is offered on eip155:{chain_id}",
                wallet.assets.join(", ")
            ),
        )
    })?;
    let partner = opt_str(&body, "partnerUserId")?
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| bad("partnerUserId", "partnerUserId is required"))?;
    if let Some(x) = opt_str(&body, "defaultExperience")? {
        if x != "buy" {
            return Err(bad(
                "defaultExperience",
                format!("defaultExperience must be \"buy\" (got {x:?})"),
            ));
        }
    }
    let fiat = fiat_of(currency_ref(&body, "paymentCurrency")?, "paymentCurrency")?;
    let p = provider_of(opt_str(&body, "provider")?)?.unwrap_or_else(best_provider);
    let price = price_micro_of(o, asset).await?;
    let cents = match (
        amount_ref(&body, "presetFiatAmount")?,
        amount_ref(&body, "presetCryptoAmount")?,
    ) {
        (Some(f), _) => fiat_cents(&f, "presetFiatAmount", fiat, "card")?,
        (None, Some(c)) => {
            let units = money::parse_decimal(&c, asset.decimals)
                .ok()
                .filter(|u| *u > 0)
                .ok_or_else(|| {
                    bad(
                        "presetCryptoAmount",
                        format!(
                            "presetCryptoAmount must be a positive decimal number with at most {} decimals (got {c:?})",
                            asset.decimals
                        ),
                    )
                })?;
            let cents = money::fiat_for(units, p.fee_bps, fiat.usd_micro, price, asset.decimals)
                .ok_or_else(|| bad("presetCryptoAmount", "presetCryptoAmount is too large"))?;
            check_limits(cents, "presetCryptoAmount", fiat, "card")?;
            cents
        }
        (None, None) => {
            return Err(bad(
                "presetFiatAmount",
                "presetFiatAmount (or presetCryptoAmount) is required",
            ))
        }
    };
    let key = "presetFiatAmount";
    let c = calc(cents, p, fiat, price, asset, key)?;
    let now = now_ms();
    Ok(Order {
        id: orders::random_id("ord"),
        provider: p,
        status: Status::Pending,
        symbol: asset.symbol.clone(),
        decimals: asset.decimals,
        token: asset.token,
        chain_id: asset.chain_id,
        purchase_units: c.purchase_units,
        fiat,
        payment_cents: c.total_cents,
        fee_cents: c.fee_cents,
        destination: wallet.address,
        partner_user_id: partner.to_string(),
        payer: None,
        tx_hash: None,
        error: None,
        created_ms: now,
        updated_ms: now,
        client,
        attempt: None,
    })
}

// ---------------------------------------------------------------------------------------------------------
// Order status

async fn order_status(State(o): State<Shared>, Path(id): Path<String>) -> Response {
    if !orders::valid_id(&id) {
        return bad(
            "orderId",
            format!(
                "orderId must be 1 to {} of A-Z, a-z, 0-9, _ and -",
                orders::MAX_ORDER_ID
            ),
        );
    }
    match o.order(&id) {
        Some(order) => ok(order.to_json()),
        None => fail(
            StatusCode::NOT_FOUND,
            "orderId",
            format!("Unknown order {id}"),
        ),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Test control: make options / quote fail

fn fail_state(o: &Onramp) -> Value {
    json!({
        "options": o.fail_options.load(Ordering::Relaxed),
        "quote": o.fail_quote.load(Ordering::Relaxed),
    })
}

async fn fail_get(State(o): State<Shared>) -> Response {
    ok(fail_state(&o))
}

async fn fail_set(State(o): State<Shared>, req: Request) -> Response {
    let bytes = match read_body(&o, req, 1024).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let body = match json_object(&bytes, "{options?: boolean, quote?: boolean}") {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut set: Vec<(&AtomicBool, bool)> = Vec::new();
    for (k, v) in &body {
        let flag = match k.as_str() {
            "options" => &o.fail_options,
            "quote" => &o.fail_quote,
            _ => return bad("body", format!("Unknown switch {k:?} (options, quote)")),
        };
        match v {
            Value::Bool(b) => set.push((flag, *b)),
            _ => return bad(k, format!("{k} must be true or false")),
        }
    }
    for (flag, b) in set {
        flag.store(b, Ordering::Relaxed);
    }
    ok(fail_state(&o))
}

/// The destination as shown to people (checksummed).
pub fn show_addr(a: &crate::chain::abi::Addr) -> String {
    addr_checksum(a)
}
