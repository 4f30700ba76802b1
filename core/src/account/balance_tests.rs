//! Unit tests of `balance`.

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
