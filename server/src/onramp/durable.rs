//! On-ramp orders kept in the server's store (`--store`, the wallet service's: SQLite or
//! PostgreSQL), so that a restart or another instance knows every order, and a paid order is paid
//! out exactly once whatever crashes in between.
//!
//! Exactly once: each payout attempt names its transaction's nonce, drawn from the payer's account
//! and written here (with the block it was drawn at) before the transaction is sent. One nonce of
//! an account can be mined once, so an attempt can pay at most once however often it is sent. Who
//! picks an order up again (after a crash, or when the instance paying it stopped making progress:
//! [`OnrampConfig::payout_lease`]) looks for the attempt's nonce in the blocks since it was
//! drawn: mined as this order's transfer, the order waits for that receipt; mined as something else
//! (the dev accounts that pay out are shared with anything else on the chain), the order gets a
//! new attempt; not mined, the same attempt is sent again. Taking an order up is a conditional
//! write: two instances never both take it.

use serde::{Deserialize, Serialize};

use super::catalog;
use super::orders::{Order, Status};
use crate::chain::abi::{addr_hex, parse_addr};

/// The store's kind of these entries.
pub const KIND: &str = "onramp-order";
/// The store's kind of the marks of orders being paid out (what is looked through for stalled
/// payouts: not every order of the last 30 days).
pub const PAYING: &str = "onramp-paying";
/// How long an order is kept after its last change.
pub const KEEP_MS: u64 = 30 * 24 * 3600 * 1000;

/// One payout attempt: the payer's nonce it sends with, and the block before it was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    pub nonce: u64,
    pub from_block: u64,
}

/// An order as the store keeps it.
#[derive(Serialize, Deserialize)]
struct Stored {
    id: String,
    provider: String,
    status: String,
    symbol: String,
    decimals: u8,
    token: Option<String>,
    chain_id: u64,
    purchase_units: String,
    fiat: String,
    payment_cents: String,
    fee_cents: String,
    destination: String,
    partner_user_id: String,
    payer: Option<String>,
    tx_hash: Option<String>,
    error: Option<String>,
    created_ms: u64,
    updated_ms: u64,
    client: String,
    attempt: Option<Attempt>,
}

fn status_of(s: &str) -> Option<Status> {
    [Status::Pending, Status::Processing, Status::Completed, Status::Failed].into_iter().find(|x| x.as_str() == s)
}

/// `(expires_at_ms, body)` of an order.
pub fn body(o: &Order) -> (u64, String) {
    let s = Stored {
        id: o.id.clone(),
        provider: o.provider.id.to_string(),
        status: o.status.as_str().to_string(),
        symbol: o.symbol.clone(),
        decimals: o.decimals,
        token: o.token.as_ref().map(addr_hex),
        chain_id: o.chain_id,
        purchase_units: o.purchase_units.to_string(),
        fiat: o.fiat.id.to_string(),
        payment_cents: o.payment_cents.to_string(),
        fee_cents: o.fee_cents.to_string(),
        destination: addr_hex(&o.destination),
        partner_user_id: o.partner_user_id.clone(),
        payer: o.payer.as_ref().map(addr_hex),
        tx_hash: o.tx_hash.clone(),
        error: o.error.clone(),
        created_ms: o.created_ms,
        updated_ms: o.updated_ms,
        client: o.client.to_string(),
        attempt: o.attempt,
    };
    (o.updated_ms.saturating_add(KEEP_MS), serde_json::to_string(&s).unwrap_or_default())
}

/// An order read back (None when the store holds one this server cannot read).
pub fn parse(body: &str) -> Option<Order> {
    let s: Stored = serde_json::from_str(body).ok()?;
    let addr = |a: &str| parse_addr(a);
    Some(Order {
        id: s.id,
        provider: catalog::provider(&s.provider)?,
        status: status_of(&s.status)?,
        symbol: s.symbol,
        decimals: s.decimals,
        token: match s.token {
            Some(t) => Some(addr(&t)?),
            None => None,
        },
        chain_id: s.chain_id,
        purchase_units: s.purchase_units.parse().ok()?,
        fiat: catalog::fiat(&s.fiat)?,
        payment_cents: s.payment_cents.parse().ok()?,
        fee_cents: s.fee_cents.parse().ok()?,
        destination: addr(&s.destination)?,
        partner_user_id: s.partner_user_id,
        payer: match s.payer {
            Some(p) => Some(addr(&p)?),
            None => None,
        },
        tx_hash: s.tx_hash.filter(|h| h.len() == 66 && h.starts_with("0x")),
        error: s.error,
        created_ms: s.created_ms,
        updated_ms: s.updated_ms,
        client: crate::client::from_stored(&s.client),
        attempt: s.attempt,
    })
}

/// Whether a transaction (an `eth_getBlockByNumber` entry) is `o`'s payout: from the payer, with
/// the attempt's nonce, and the payout's `to`, `value` and data (which carries the order's tag).
pub fn is_payout(tx: &serde_json::Value, o: &Order, payer: &crate::chain::abi::Addr, nonce: u64) -> bool {
    let field = |v: &serde_json::Value, k: &str| v.get(k).and_then(|v| v.as_str()).map(str::to_ascii_lowercase);
    let quantity = |q: Option<String>| q.map(|v| v.trim_start_matches("0x").trim_start_matches('0').to_string());
    let want = super::payout::payout_tx(o, payer);
    let nonce_ok = field(tx, "nonce").and_then(|n| u64::from_str_radix(n.trim_start_matches("0x"), 16).ok()) == Some(nonce);
    let input = field(tx, "input").or_else(|| field(tx, "data"));
    nonce_ok
        && field(tx, "from") == field(&want, "from")
        && field(tx, "to") == field(&want, "to")
        && quantity(field(tx, "value")) == quantity(field(&want, "value"))
        && input == field(&want, "data")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_and_its_attempt_are_read_back_as_written_and_a_damaged_one_is_refused() {
        let o = Order {
            id: "ord_1".into(),
            provider: catalog::provider("meld").unwrap(),
            status: Status::Processing,
            symbol: "USDC".into(),
            decimals: 6,
            token: parse_addr("0x5FbDB2315678afecb367f032d93F642f64180aa3"),
            chain_id: 31337,
            purchase_units: 99_000_000,
            fiat: catalog::fiat("USD").unwrap(),
            payment_cents: 10_000,
            fee_cents: 100,
            destination: parse_addr("0x000000000000000000000000000000000000b0b0").unwrap(),
            partner_user_id: "u".into(),
            payer: parse_addr("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65"),
            tx_hash: None,
            error: None,
            created_ms: 1,
            updated_ms: 2,
            client: std::net::Ipv4Addr::LOCALHOST.into(),
            attempt: Some(Attempt { nonce: 7, from_block: 12 }),
        };
        let (at, b) = body(&o);
        assert_eq!(at, 2 + KEEP_MS);
        let back = parse(&b).unwrap();
        assert_eq!(body(&back).1, b);
        assert_eq!((back.status, back.attempt, back.purchase_units), (Status::Processing, Some(Attempt { nonce: 7, from_block: 12 }), 99_000_000));
        assert!(parse(&b.replace("\"meld\"", "\"nobody\"")).is_none(), "an unknown provider");
        assert!(parse(&b.replace("PROCESSING", "PAID")).is_none(), "an unknown status");
        assert!(parse("{").is_none());
        // The payout transaction is recognised by every field; another transfer is not it.
        let payer = o.payer.unwrap();
        let tag = super::super::payout::order_tag(&o);
        let data = format!("{}{tag}", super::super::payout::transfer_data(&o.destination, o.purchase_units));
        let tx = serde_json::json!({"from": addr_hex(&payer), "nonce": "0x7", "to": addr_hex(&o.token.unwrap()), "value": "0x0", "input": data});
        assert!(is_payout(&tx, &o, &payer, 7));
        assert!(!is_payout(&tx, &o, &payer, 8), "another nonce");
        let mut other = tx.clone();
        other["input"] = serde_json::json!(format!("{}{tag}", super::super::payout::transfer_data(&o.destination, 1)));
        assert!(!is_payout(&other, &o, &payer, 7), "another amount");
        // Another order of the same amount to the same address is another payout.
        let twin = Order { id: "ord_2".into(), ..o.clone() };
        assert!(!is_payout(&tx, &twin, &payer, 7), "another order's tag");
    }
}
