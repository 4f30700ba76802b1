//! On-ramp orders, in memory and bounded: created by `POST /v1/generators/onrampurl`, paid on the
//! provider's checkout page, paid out on anvil, read by `GET /v1/onramp/orders/{orderId}`.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

use super::catalog::{Fiat, Provider};
use super::money::{format_fixed, format_token};
use crate::chain::abi::{addr_checksum, hex_lower, Addr};

/// Orders kept; beyond, the oldest one not being paid out is forgotten.
pub const MAX_ORDERS: usize = 1000;
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
#[derive(Debug, Default)]
pub struct Orders {
    map: HashMap<String, Order>,
    ids: VecDeque<String>,
    max: usize,
}

impl Orders {
    pub fn new(max: usize) -> Orders {
        Orders {
            map: HashMap::new(),
            ids: VecDeque::new(),
            max: max.max(1),
        }
    }

    /// Adds an order, forgetting the oldest not in `PROCESSING` when full. `Err(order)` when every
    /// kept order is being paid out.
    pub fn insert(&mut self, o: Order) -> Result<(), Box<Order>> {
        if self.map.len() >= self.max {
            let pos = self.ids.iter().position(|id| {
                self.map
                    .get(id)
                    .is_none_or(|o| o.status != Status::Processing)
            });
            let Some(pos) = pos else {
                return Err(Box::new(o));
            };
            if let Some(id) = self.ids.remove(pos) {
                self.map.remove(&id);
            }
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

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onramp::catalog::{FIATS, PROVIDERS};

    fn order(id: &str) -> Order {
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
        }
    }

    #[test]
    fn bounded_keeping_orders_being_paid_out() {
        let mut o = Orders::new(3);
        for i in 0..3 {
            o.insert(order(&format!("o{i}"))).unwrap();
        }
        o.get_mut("o0").unwrap().status = Status::Processing;
        o.insert(order("o3")).unwrap();
        assert_eq!(o.len(), 3);
        assert!(o.get("o0").is_some() && o.get("o1").is_none());
        o.get_mut("o2").unwrap().status = Status::Processing;
        o.get_mut("o3").unwrap().status = Status::Processing;
        assert!(o.insert(order("o4")).is_err());
        assert_eq!(o.len(), 3);
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
