//! Display formatting of the `./core` entry: native balances (truncated to 3 decimals), en-US
//! amounts, truncated addresses and the account avatar's gradient. All number handling is string
//! arithmetic on decimal digits, never floats, so long or huge values print exactly.

use crate::chain::units::{increment, parse_loose_decimal, strip_leading_zeros};

/// Decimals shown for a native balance.
pub const NATIVE_BALANCE_DECIMALS: usize = 3;
/// Default decimals of [`format_amount_en_us`].
pub const DEFAULT_AMOUNT_DECIMALS: u32 = 2;
/// Largest decimals [`format_amount_en_us`] prints (as `Intl.NumberFormat`).
pub const MAX_AMOUNT_DECIMALS: u32 = 100;
/// Number of tints in [`avatar_gradient`].
pub use crate::service::constants::AVATAR_TINTS;


/// A native balance truncated toward zero to exactly 3 decimals: `"0.29999999999999999999"` →
/// `"0.299"`, `"-1.23456"` → `"-1.234"`. Reads what JavaScript prints for numbers (`"1e-7"`, `".5"`,
/// surrounding whitespace); empty or non-numeric input gives `"0.000"`. A value that truncates to
/// zero prints without a sign.
pub fn format_native_balance(value: &str) -> String {
    let Some(d) = parse_loose_decimal(value.trim()) else {
        return "0.000".into();
    };
    let mut frac: String = d.frac.chars().take(NATIVE_BALANCE_DECIMALS).collect();
    while frac.len() < NATIVE_BALANCE_DECIMALS {
        frac.push('0');
    }
    let zero = d.int == "0" && frac.bytes().all(|b| b == b'0');
    let sign = if d.negative && !zero { "-" } else { "" };
    format!("{sign}{}.{frac}", d.int)
}

/// A native balance as shown in the views: [`format_native_balance`] with the integer digits
/// grouped by thousands in en-US style (spec §5, "Amounts use en-US format"):
/// `"10000.0001"` → `"10,000.000"`, `"-1234567.5"` → `"-1,234,567.500"`.
pub fn format_native_balance_en_us(value: &str) -> String {
    let plain = format_native_balance(value);
    let (sign, rest) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain.as_str()),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    format!("{sign}{}.{frac}", group_thousands(int))
}

/// A native balance straight from its base units (`wei`: decimal digits, as a node reports them
/// once read from hex) as the views show it: floored to 3 decimals, integer digits grouped by
/// thousands — the same text as [`format_native_balance_en_us`] of `format_units(wei, decimals)`,
/// without reading the decimal back. `None` for anything but digits, or more than
/// `MAX_DECIMALS` decimals.
pub fn balance_en_us(wei: &str, decimals: u32) -> Option<String> {
    if wei.is_empty() || !wei.bytes().all(|b| b.is_ascii_digit()) || decimals > crate::chain::units::MAX_DECIMALS {
        return None;
    }
    let decimals = decimals as usize;
    let digits = wei.trim_start_matches('0');
    let split = digits.len().saturating_sub(decimals);
    let int = if split == 0 { "0" } else { &digits[..split] };
    let mut frac: String = "0".repeat(decimals.saturating_sub(digits.len()));
    frac.push_str(&digits[split..]);
    frac.truncate(NATIVE_BALANCE_DECIMALS);
    while frac.len() < NATIVE_BALANCE_DECIMALS {
        frac.push('0');
    }
    Some(format!("{}.{frac}", group_thousands(int)))
}

/// Groups integer digits by thousands with commas (en-US).
#[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` needs Rust 1.87; the workspace MSRV is 1.85.
fn group_thousands(int: &str) -> String {
    let mut out = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `value` in en-US format with exactly `decimals` fraction digits (capped at 100), rounded half
/// away from zero like `Intl.NumberFormat`: `("1234567.891", 2)` → `"1,234,567.89"`. Reads the same
/// inputs as [`format_native_balance`]; anything non-numeric prints as zero. A value that rounds to
/// zero prints without a sign.
pub fn format_amount_en_us(value: &str, decimals: u32) -> String {
    let decimals = decimals.min(MAX_AMOUNT_DECIMALS) as usize;
    let (negative, int, frac) = match parse_loose_decimal(value.trim()) {
        Some(d) => (d.negative, d.int, d.frac),
        None => (false, "0".to_string(), String::new()),
    };
    // Round the magnitude to `decimals` digits, half away from zero.
    let mut digits = int.clone();
    let mut kept: String = frac.chars().take(decimals).collect();
    while kept.len() < decimals {
        kept.push('0');
    }
    digits.push_str(&kept);
    if frac.len() > decimals && frac.as_bytes()[decimals] >= b'5' {
        digits = increment(&digits);
    }
    let split = digits.len() - decimals;
    let int = strip_leading_zeros(&digits[..split]).to_string();
    let frac = &digits[split..];
    let zero = int == "0" && frac.bytes().all(|b| b == b'0');
    let sign = if negative && !zero { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{}", group_thousands(&int))
    } else {
        format!("{sign}{}.{frac}", group_thousands(&int))
    }
}

/// `addr` shortened to its first 4 characters, `...` and its last 6 when it is longer than 10
/// characters; unchanged otherwise.
pub fn truncate_address(addr: &str) -> String {
    let chars: Vec<char> = addr.chars().collect();
    if chars.len() <= 10 {
        return addr.to_string();
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 6..].iter().collect();
    format!("{head}...{tail}")
}

/// Five CSS colours (`#rrggbb`) for the account avatar's gradient, derived from the address: the
/// base colour is its first 6 hex digits (after `0x`, case-insensitive; non-hex characters are
/// skipped and missing digits are `0`), and tint `i` mixes it `15 × i` percent toward white.
pub fn avatar_gradient(address: &str) -> [String; AVATAR_TINTS] {
    let lower = address.to_ascii_lowercase();
    let body = lower.strip_prefix("0x").unwrap_or(&lower);
    let mut hex: Vec<u8> = body
        .bytes()
        .filter(|b| b.is_ascii_hexdigit())
        .take(6)
        .map(|b| {
            if b.is_ascii_digit() {
                b - b'0'
            } else {
                b - b'a' + 10
            }
        })
        .collect();
    hex.resize(6, 0);
    let base = [
        hex[0] * 16 + hex[1],
        hex[2] * 16 + hex[3],
        hex[4] * 16 + hex[5],
    ];
    std::array::from_fn(|i| {
        let tint = 15 * i as u32; // percent toward white
        let [r, g, b] = base.map(|c| {
            let c = c as u32;
            ((c * 100 + (255 - c) * tint + 50) / 100) as u8
        });
        format!("#{r:02x}{g:02x}{b:02x}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::error::quoted;
    use proptest::prelude::*;

    #[test]
    fn quoted_matches_debug_for_ascii_and_shows_anything_else_as_code_points() {
        for s in ["0xabc", "a\"b\\c", "line\nnext\tx\r", " ~!"] {
            assert_eq!(quoted(s), format!("{s:?}"));
        }
        assert_eq!(quoted("0x\u{200b}ab\u{7f}é"), r#""0x\u{200b}ab\u{7f}\u{e9}""#);
    }

    #[test]
    fn native_balance_truncates_toward_zero_to_3_decimals_by_string_arithmetic() {
        assert_eq!(format_native_balance("0.29999999999999999999"), "0.299");
        assert_eq!(format_native_balance("-1.23456"), "-1.234");
        assert_eq!(format_native_balance("1.9999"), "1.999");
        assert_eq!(format_native_balance("12"), "12.000");
        assert_eq!(format_native_balance("1.5"), "1.500");
        assert_eq!(
            format_native_balance("123456789012345678901234567890.12345"),
            "123456789012345678901234567890.123"
        );
        assert_eq!(format_native_balance("-0.0004"), "0.000");
        assert_eq!(format_native_balance("1e-7"), "0.000");
        assert_eq!(format_native_balance("1.5e3"), "1500.000");
        assert_eq!(format_native_balance(".5"), "0.500");
        assert_eq!(format_native_balance("007.25"), "7.250");
    }

    #[test]
    fn native_balance_defaults_to_0_000_for_empty_or_non_numeric() {
        for bad in [
            "", " ", "abc", "1.2.3", "NaN", "Infinity", "0x10", "1,000", "-", ".",
        ] {
            assert_eq!(format_native_balance(bad), "0.000", "{bad:?}");
        }
    }

    #[test]
    fn displayed_native_balance_groups_thousands_en_us_and_keeps_3_truncated_decimals() {
        assert_eq!(format_native_balance_en_us("10000"), "10,000.000");
        assert_eq!(format_native_balance_en_us("9999.99999"), "9,999.999");
        assert_eq!(format_native_balance_en_us("999.9999"), "999.999");
        assert_eq!(format_native_balance_en_us("1000"), "1,000.000");
        assert_eq!(format_native_balance_en_us("-1234567.5"), "-1,234,567.500");
        assert_eq!(format_native_balance_en_us("0.0004"), "0.000");
        assert_eq!(format_native_balance_en_us("-0.0004"), "0.000");
        assert_eq!(format_native_balance_en_us("1.5e6"), "1,500,000.000");
        assert_eq!(
            format_native_balance_en_us("123456789012345678901234567890.12345"),
            "123,456,789,012,345,678,901,234,567,890.123"
        );
        assert_eq!(format_native_balance_en_us("oops"), "0.000");
    }

    #[test]
    fn amount_en_us_groups_thousands_and_rounds_half_away_from_zero() {
        assert_eq!(format_amount_en_us("1234567.891", 2), "1,234,567.89");
        assert_eq!(
            format_amount_en_us("1234.5", DEFAULT_AMOUNT_DECIMALS),
            "1,234.50"
        );
        assert_eq!(format_amount_en_us("999.995", 2), "1,000.00");
        assert_eq!(format_amount_en_us("-999.995", 2), "-1,000.00");
        assert_eq!(format_amount_en_us("0.004", 2), "0.00");
        assert_eq!(format_amount_en_us("-0.004", 2), "0.00");
        assert_eq!(format_amount_en_us("123", 0), "123");
        assert_eq!(format_amount_en_us("1234567", 0), "1,234,567");
        assert_eq!(format_amount_en_us("100", 2), "100.00");
        assert_eq!(format_amount_en_us("1000", 2), "1,000.00");
        assert_eq!(format_amount_en_us("1.23456", 4), "1.2346");
        assert_eq!(
            format_amount_en_us("12345678901234567890123", 2),
            "12,345,678,901,234,567,890,123.00"
        );
        assert_eq!(format_amount_en_us("oops", 2), "0.00");
    }

    #[test]
    fn truncated_address_keeps_first_4_and_last_6_chars_when_longer_than_10() {
        assert_eq!(
            truncate_address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
            "0xf3...b92266"
        );
        assert_eq!(truncate_address("0123456789"), "0123456789");
        assert_eq!(truncate_address("0123456789a"), "0123...56789a");
        assert_eq!(truncate_address(""), "");
        assert_eq!(truncate_address("ééééééééééé"), "éééé...éééééé");
    }

    #[test]
    fn avatar_gradient_has_5_tints_from_the_address_hex() {
        let g = avatar_gradient("0xff8000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        assert_eq!(g[0], "#ff8000");
        assert_eq!(g.len(), AVATAR_TINTS);
        // Mixed toward white by 15 % steps.
        assert_eq!(g[1], "#ff9326"); // 128 + 127*0.15 = 147.05 -> 147; 0 + 38.25 -> 38
        assert_eq!(g[4], "#ffcc99"); // 128 + 127*0.6 = 204.2 -> 204; 153
        assert_eq!(avatar_gradient("0xFF8000AAAA"), avatar_gradient("ff8000"));
        assert_ne!(avatar_gradient("0x123456"), avatar_gradient("0x654321"));
        assert_eq!(avatar_gradient("")[0], "#000000");
    }

    proptest! {
        #[test]
        fn formatters_never_panic(s in ".*", d in 0u32..200) {
            let _ = format_native_balance(&s);
            let _ = format_amount_en_us(&s, d);
            let _ = format_native_balance_en_us(&s);
            let _ = truncate_address(&s);
            let g = avatar_gradient(&s);
            for c in g {
                prop_assert!(c.len() == 7 && c.starts_with('#'));
            }
        }

        #[test]
        fn native_balance_always_has_exactly_3_decimals(int in "[0-9]{1,30}", frac in "[0-9]{0,30}", neg in any::<bool>()) {
            let s = format!("{}{int}.{frac}", if neg { "-" } else { "" });
            let f = format!("{}0", frac);
            let out = format_native_balance(if frac.is_empty() { &int } else { &s });
            let (_, after) = out.split_once('.').unwrap();
            prop_assert_eq!(after.len(), 3);
            // Truncation, not rounding: the shown digits are a prefix of the fraction.
            prop_assert!(f.starts_with(after.trim_end_matches('0')));
            // The displayed form is the same number with commas every three integer digits.
            let shown = format_native_balance_en_us(if frac.is_empty() { &int } else { &s });
            prop_assert_eq!(shown.replace(',', ""), out.clone());
            let int_part = shown.trim_start_matches('-').split('.').next().unwrap().to_string();
            prop_assert!(int_part.split(',').skip(1).all(|g| g.len() == 3));
            prop_assert!(int_part.split(',').next().is_some_and(|g| (1..=3).contains(&g.len())));
        }
    }

    #[test]
    fn a_balance_from_base_units_reads_as_the_formatted_decimal_would() {
        use crate::chain::units::format_units;
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 30) as usize + 1;
            let wei: String = format!("{x}{x}{x}").chars().take(digits).collect();
            for decimals in [0u32, 1, 2, 3, 6, 8, 9, 18, 24, 40] {
                let old = format_units(&wei, decimals).ok().map(|d| format_native_balance_en_us(&d));
                assert_eq!(balance_en_us(&wei, decimals), old, "{wei} at {decimals}");
            }
        }
        assert_eq!(balance_en_us("10000000000000000000000", 18).as_deref(), Some("10,000.000"));
        assert_eq!(balance_en_us("0", 18).as_deref(), Some("0.000"));
        assert_eq!(balance_en_us("0001234", 3).as_deref(), Some("1.234"));
        assert_eq!(balance_en_us("", 18), None);
        assert_eq!(balance_en_us("-1", 18), None);
        assert_eq!(balance_en_us("1", 10_000), None);
    }
}
