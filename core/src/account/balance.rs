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
#[path = "balance_tests.rs"]
mod tests;
