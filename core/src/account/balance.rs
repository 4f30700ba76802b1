//! Native balance: hex quantities in decimal, and the 30 s cache per network and address (the
//! request and its answer are the chain adapter's, `chain::adapter`) (spec 3 "Balance", spec 9 "Cache lifetimes").

use crate::service::constants::BALANCE_CACHE_MS;
use crate::service::vecmap::VecMap;

/// Converts a `0x` hex quantity of any size to a decimal string. None for anything else.
pub fn hex_quantity_to_decimal(hex: &str) -> Option<String> {
    let digits = hex.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 128 {
        return None;
    }
    // Little-endian base-10^9 limbs.
    let mut limbs: Vec<u64> = vec![0];
    for c in digits.chars() {
        let d = c.to_digit(16)? as u64;
        let mut carry = d;
        for limb in limbs.iter_mut() {
            let v = *limb * 16 + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut out = limbs.last().expect("one limb").to_string();
    for limb in limbs.iter().rev().skip(1) {
        out.push_str(&format!("{limb:09}"));
    }
    Some(out)
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    value: String,
    at_ms: u64,
}

/// Balances cached with a timestamp per (network, address); fresh for 30 s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BalanceCache {
    entries: VecMap<(String, String), Entry>,
}

impl BalanceCache {
    /// The cached balance if it is younger than 30 s.
    pub fn fresh(&self, caip_network_id: &str, address: &str, now_ms: u64) -> Option<&str> {
        let e = self.entries.get(&(caip_network_id.to_string(), address.to_ascii_lowercase()))?;
        (now_ms.saturating_sub(e.at_ms) < BALANCE_CACHE_MS).then_some(e.value.as_str())
    }

    /// The last known balance, however old (shown while a refresh is on its way).
    pub fn last(&self, caip_network_id: &str, address: &str) -> Option<&str> {
        self.entries.get(&(caip_network_id.to_string(), address.to_ascii_lowercase())).map(|e| e.value.as_str())
    }

    pub fn store(&mut self, caip_network_id: &str, address: &str, value: String, now_ms: u64) {
        self.entries.insert((caip_network_id.to_string(), address.to_ascii_lowercase()), Entry { value, at_ms: now_ms });
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_quantities_of_any_size_convert_to_decimal() {
        assert_eq!(hex_quantity_to_decimal("0x0").as_deref(), Some("0"));
        assert_eq!(hex_quantity_to_decimal("0xde0b6b3a7640000").as_deref(), Some("1000000000000000000"));
        assert_eq!(
            hex_quantity_to_decimal("0x10000000000000000000000000000000000000000000000000000000000000000").as_deref(),
            Some("115792089237316195423570985008687907853269984665640564039457584007913129639936"),
            "2^256 converts exactly"
        );
        assert_eq!(hex_quantity_to_decimal("12"), None);
        assert_eq!(hex_quantity_to_decimal("0x"), None);
        assert_eq!(hex_quantity_to_decimal("0xzz"), None);
    }

    #[test]
    fn balance_cache_is_per_network_and_address_for_30_seconds() {
        let mut c = BalanceCache::default();
        c.store("eip155:1", "0xAbC", "1.000".into(), 1_000);
        assert_eq!(c.fresh("eip155:1", "0xabc", 30_999), Some("1.000"), "address compared case-insensitively");
        assert_eq!(c.fresh("eip155:1", "0xabc", 31_000), None, "stale after 30 s");
        assert_eq!(c.last("eip155:1", "0xabc"), Some("1.000"));
        assert_eq!(c.fresh("eip155:10", "0xabc", 1_000), None, "other network");
        c.clear();
        assert_eq!(c.last("eip155:1", "0xabc"), None);
    }
}
