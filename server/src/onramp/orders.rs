//! On-ramp orders, in memory and bounded: created by `POST /v1/generators/onrampurl`, paid on the
//! provider's checkout page, paid out on anvil, read by `GET /v1/onramp/orders/{orderId}`.
//!
//! Orders are unauthenticated (anyone may ask for one), so each is charged to the client (peer IP
//! address, [`crate::client`]) that made it. Making room never takes another client's live pending
//! order: a client past its share loses its own oldest; a full table drops abandoned pending
//! orders (older than [`OnrampConfig::pending_ttl`]) and finished ones first, then the client's own
//! oldest, and otherwise refuses the newcomer. Orders being paid out are never dropped.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{json, Value};

use super::catalog::{Fiat, Provider};
use super::money::{format_fixed, format_token};
use crate::chain::abi::{addr_checksum, hex_lower, Addr};
use crate::client::{Budget, Client};

/// Orders kept in all (the default of [`OnrampConfig::max_orders`]).
pub const MAX_ORDERS: usize = 1000;

/// The on-ramp's bounds. [`Default`] holds the demo's values; tests lower them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnrampConfig {
    /// Orders kept in all.
    pub max_orders: usize,
    /// Orders one client keeps (a twentieth of the table: a visitor opens a few checkouts, a
    /// flood from one address only replaces its own); past it, its own oldest not being paid out
    /// is forgotten.
    pub max_orders_per_client: usize,
    /// A pending order older than this is abandoned: it may be forgotten to make room (a
    /// checkout is paid within minutes).
    pub pending_ttl: Duration,
    /// Each client's token bucket of orders made: a visitor retrying a checkout a few times
    /// never meets it; a flood gets 30, then one every 2 s (429 with `Retry-After`).
    pub order_budget: Budget,
    /// With a store: a paid order whose payout made no progress for this long (its process died,
    /// or stopped) is taken up by another process, or by this one after a restart. Longer than a
    /// payout waits to be mined ([`super::payout::MINE_TIMEOUT`]), so a live one is left alone.
    pub payout_lease: Duration,
}

impl Default for OnrampConfig {
    fn default() -> Self {
        OnrampConfig {
            max_orders: MAX_ORDERS,
            max_orders_per_client: 50,
            pending_ttl: Duration::from_secs(3600),
            order_budget: Budget {
                burst: 30,
                every: Duration::from_secs(2),
            },
            payout_lease: Duration::from_secs(90),
        }
    }
}
/// Longest order id accepted in a path.
pub const MAX_ORDER_ID: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Created, waiting for the payment on the checkout page.
    Pending,
    /// Paid; the payout transaction is being sent or mined.
    Processing,
    /// The payout transaction was mined with status 1.
    Completed,
    /// The payout could not be sent or reverted.
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "PENDING",
            Status::Processing => "PROCESSING",
            Status::Completed => "COMPLETED",
            Status::Failed => "FAILED",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Order {
    pub id: String,
    pub provider: &'static Provider,
    pub status: Status,
    pub symbol: String,
    pub decimals: u8,
    /// `None`: the chain's native currency.
    pub token: Option<Addr>,
    pub chain_id: u64,
    pub purchase_units: u128,
    pub fiat: &'static Fiat,
    /// What the buyer pays (fee included), in cents.
    pub payment_cents: u128,
    pub fee_cents: u128,
    pub destination: Addr,
    pub partner_user_id: String,
    /// The payout account (set when paid).
    pub payer: Option<Addr>,
    pub tx_hash: Option<String>,
    pub error: Option<String>,
    pub created_ms: u64,
    pub updated_ms: u64,
    /// The client that made it (see the module's notes).
    pub client: Client,
    /// The payout's current attempt (its nonce), once one was made ([`super::durable`]).
    pub attempt: Option<super::durable::Attempt>,
}

impl Order {
    pub fn purchase_amount(&self) -> String {
        format_token(self.purchase_units, self.decimals)
    }
    pub fn payment_amount(&self) -> String {
        format_fixed(self.payment_cents, 2)
    }
    pub fn fee(&self) -> String {
        format_fixed(self.fee_cents, 2)
    }
    pub fn network(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    /// The order as `GET /v1/onramp/orders/{orderId}` answers it.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id,
            "provider": self.provider.id,
            "providerName": self.provider.name,
            "status": self.status.as_str(),
            "purchaseCurrency": self.symbol,
            "purchaseAmount": self.purchase_amount(),
            "paymentCurrency": self.fiat.id,
            "paymentAmount": self.payment_amount(),
            "fee": self.fee(),
            "destination": addr_checksum(&self.destination),
            "network": self.network(),
            "createdAt": self.created_ms,
            "updatedAt": self.updated_ms,
        });
        if let Some(h) = &self.tx_hash {
            v["txHash"] = json!(h);
        }
        if let Some(e) = &self.error {
            v["error"] = json!(e);
        }
        v
    }
}

/// Whether `s` can be an order id (`[A-Za-z0-9_-]`, 1 to [`MAX_ORDER_ID`] characters).
pub fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_ORDER_ID
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// `{prefix}_` and 24 hex digits from the OS's random source (a counter and the clock when it
/// cannot be read).
pub fn random_id(prefix: &str) -> String {
    let mut b = [0u8; 12];
    let ok = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .is_ok();
    if !ok {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        b[..8].copy_from_slice(&crate::onramp::now_ms().to_be_bytes());
        b[8..].copy_from_slice(&(n as u32).to_be_bytes());
    }
    format!("{prefix}_{}", &hex_lower(&b)[2..])
}

/// The orders, oldest first.
#[derive(Debug)]
pub struct Orders {
    map: HashMap<String, Order>,
    ids: VecDeque<String>,
    max: usize,
    max_per_client: usize,
    pending_ttl_ms: u64,
}

/// Why an order was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// Every kept order is live (pending, or being paid out) and none is the client's own.
    Table,
    /// The client's own orders are all being paid out.
    Client,
}

impl Orders {
    pub fn new(cfg: &OnrampConfig) -> Orders {
        Orders {
            map: HashMap::new(),
            ids: VecDeque::new(),
            max: cfg.max_orders.max(1),
            max_per_client: cfg.max_orders_per_client.max(1),
            pending_ttl_ms: cfg.pending_ttl.as_millis() as u64,
        }
    }

    /// The position of the oldest order for which `pick` is true.
    fn oldest(&self, pick: impl Fn(&Order) -> bool) -> Option<usize> {
        self.ids
            .iter()
            .position(|id| self.map.get(id).is_some_and(&pick))
    }

    fn forget_at(&mut self, pos: usize) {
        if let Some(id) = self.ids.remove(pos) {
            self.map.remove(&id);
        }
    }

    /// Adds an order (see the module's notes for what makes room), or says why not.
    pub fn insert(&mut self, o: Order, now_ms: u64) -> Result<(), Full> {
        let client = o.client;
        let own = |x: &Order| x.client == client && x.status != Status::Processing;
        let held = self.map.values().filter(|x| x.client == client).count();
        if held >= self.max_per_client {
            let pos = self.oldest(own).ok_or(Full::Client)?;
            self.forget_at(pos);
        }
        if self.map.len() >= self.max {
            let ttl = self.pending_ttl_ms;
            let abandoned = |x: &Order| {
                x.status == Status::Pending && now_ms.saturating_sub(x.created_ms) >= ttl
            };
            let finished = |x: &Order| matches!(x.status, Status::Completed | Status::Failed);
            let pos = self
                .oldest(abandoned)
                .or_else(|| self.oldest(finished))
                .or_else(|| self.oldest(own))
                .ok_or(Full::Table)?;
            self.forget_at(pos);
        }
        self.ids.push_back(o.id.clone());
        self.map.insert(o.id.clone(), o);
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<&Order> {
        self.map.get(id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Order> {
        self.map.get_mut(id)
    }

    /// Keeps `o` as the store holds it: replaced when known here, else added (when there is room;
    /// the store holds it either way).
    pub fn put(&mut self, o: Order, now_ms: u64) {
        match self.map.get_mut(&o.id) {
            Some(x) => *x = o,
            None => {
                let _ = self.insert(o, now_ms);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Forgets order `id`.
    pub fn remove(&mut self, id: &str) {
        if let Some(pos) = self.ids.iter().position(|x| x == id) {
            self.forget_at(pos);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onramp::catalog::{FIATS, PROVIDERS};

    fn ip(n: u8) -> Client {
        std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n))
    }

    fn order(id: &str) -> Order {
        order_of(id, 1)
    }

    fn order_of(id: &str, client: u8) -> Order {
        Order {
            id: id.into(),
            provider: &PROVIDERS[0],
            status: Status::Pending,
            symbol: "USDC".into(),
            decimals: 6,
            token: Some([1; 20]),
            chain_id: 31337,
            purchase_units: 99_000_000,
            fiat: &FIATS[0],
            payment_cents: 10_000,
            fee_cents: 100,
            destination: [2; 20],
            partner_user_id: "u".into(),
            payer: None,
            tx_hash: None,
            error: None,
            created_ms: 1,
            updated_ms: 1,
            client: ip(client),
            attempt: None,
        }
    }

    fn cfg(max_orders: usize, max_orders_per_client: usize) -> OnrampConfig {
        OnrampConfig {
            max_orders,
            max_orders_per_client,
            ..OnrampConfig::default()
        }
    }

    #[test]
    fn bounded_keeping_orders_being_paid_out() {
        let mut o = Orders::new(&cfg(3, 3));
        for i in 0..3 {
            o.insert(order(&format!("o{i}")), 2).unwrap();
        }
        o.get_mut("o0").unwrap().status = Status::Processing;
        o.insert(order("o3"), 2).unwrap();
        assert_eq!(o.len(), 3);
        assert!(o.get("o0").is_some() && o.get("o1").is_none());
        o.get_mut("o2").unwrap().status = Status::Processing;
        o.get_mut("o3").unwrap().status = Status::Processing;
        assert_eq!(o.insert(order("o4"), 2), Err(Full::Client));
        assert_eq!(o.len(), 3);
    }

    #[test]
    fn a_flood_never_evicts_another_clients_pending_order() {
        let mut o = Orders::new(&cfg(4, 2));
        o.insert(order_of("visitor", 1), 2).unwrap();
        for i in 0..100 {
            o.insert(order_of(&format!("flood{i}"), 2), 2).unwrap();
        }
        assert!(o.get("visitor").is_some());
        assert!(o.get("flood99").is_some() && o.get("flood97").is_none());
        // A full table of live orders refuses a newcomer rather than evicting.
        o.insert(order_of("c3", 3), 2).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o.insert(order_of("c4", 4), 2), Err(Full::Table));
        assert!(o.get("visitor").is_some());
        // ... but an abandoned pending order, or a finished one, makes room.
        o.get_mut("c3").unwrap().status = Status::Completed;
        o.insert(order_of("c4", 4), 2).unwrap();
        assert!(o.get("c3").is_none());
        let hour = 3_600_000;
        o.insert(order_of("c5", 5), hour + 2).unwrap();
        assert!(o.get("visitor").is_none(), "abandoned for an hour");
    }

    #[test]
    fn json_and_ids() {
        let j = order("ord_1").to_json();
        assert_eq!(j["status"], "PENDING");
        assert_eq!(j["purchaseAmount"], "99");
        assert_eq!(j["paymentAmount"], "100.00");
        assert_eq!(j["fee"], "1.00");
        assert_eq!(j["network"], "eip155:31337");
        assert!(j.get("txHash").is_none());
        let a = random_id("ord");
        assert!(
            valid_id(&a) && a.len() == 28 && a != random_id("ord"),
            "{a}"
        );
        assert!(!valid_id("") && !valid_id("a/b") && !valid_id(&"a".repeat(65)));
    }
}
