//! Unit conversion of the `./core` entry: decimal strings to integer base units and back
//! (`parseUnits` / `formatUnits`), by digit arithmetic on strings so that integers of any size work
//! (no `i128`, no floats). Integers cross as decimal strings: an optional `-` then digits.

use crate::chain::error::quoted;
use crate::chain::error::UtilError;

/// The largest number of decimals accepted (a guard against huge allocations; ERC-20 uses ≤ 255).
pub const MAX_DECIMALS: u32 = 1024;

fn check_decimals(decimals: u32) -> Result<usize, UtilError> {
    if decimals > MAX_DECIMALS {
        Err(UtilError(format!(
            "Invalid decimals {decimals}: at most {MAX_DECIMALS}"
        )))
    } else {
        Ok(decimals as usize)
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `digits` without leading zeros (`"0"` when nothing is left).
pub(crate) fn strip_leading_zeros(digits: &str) -> &str {
    let t = digits.trim_start_matches('0');
    if t.is_empty() {
        "0"
    } else {
        t
    }
}

/// `digits + 1` for a non-empty string of ASCII digits.
pub(crate) fn increment(digits: &str) -> String {
    let mut out: Vec<u8> = digits.as_bytes().to_vec();
    let mut i = out.len();
    loop {
        if i == 0 {
            out.insert(0, b'1');
            break;
        }
        i -= 1;
        if out[i] == b'9' {
            out[i] = b'0';
        } else {
            out[i] += 1;
            break;
        }
    }
    // ASCII digits only, so always UTF-8 (no `expect`: it would format the error with `Debug`).
    String::from_utf8(out).unwrap_or_default()
}

/// Joins a sign and magnitude digits into a canonical integer string (no `-0`, no leading zeros).
fn signed(negative: bool, magnitude: &str) -> String {
    let m = strip_leading_zeros(magnitude);
    if negative && m != "0" {
        format!("-{m}")
    } else {
        m.to_string()
    }
}

/// Parses a canonical-or-not decimal integer string (`-`? digits) into (negative, magnitude digits).
/// Whether base-units decimal integer `a` is less than `b` (leading zeros allowed).
pub fn base_units_lt(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    (a.len(), a) < (b.len(), b)
}

pub fn parse_integer(value: &str) -> Result<(bool, &str), UtilError> {
    let (negative, digits) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    if !all_digits(digits) {
        return Err(UtilError(format!(
            "Invalid integer {}: expected an optional '-' and digits",
            quoted(value)
        )));
    }
    Ok((negative, strip_leading_zeros(digits)))
}

/// `value` (optional `-`, one or more digits, optionally `.` and one or more digits — nothing else)
/// times 10^`decimals`, as a decimal integer string. Fraction digits past `decimals` round the
/// magnitude half away from zero.
pub fn parse_units(value: &str, decimals: u32) -> Result<String, UtilError> {
    let invalid = || {
        UtilError(format!(
            "Invalid decimal number {}: expected an optional '-', digits, and optionally '.' followed by digits",
            quoted(value)
        ))
    };
    let decimals = check_decimals(decimals)?;
    let (negative, body) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if !all_digits(int) || (body.contains('.') && !all_digits(frac)) {
        return Err(invalid());
    }
    let mut digits = String::with_capacity(int.len() + decimals + 1);
    digits.push_str(int);
    if frac.len() <= decimals {
        digits.push_str(frac);
        digits.extend(std::iter::repeat_n('0', decimals - frac.len()));
    } else {
        digits.push_str(&frac[..decimals]);
        if frac.as_bytes()[decimals] >= b'5' {
            digits = increment(&digits);
        }
    }
    Ok(signed(negative, &digits))
}

/// The decimal integer `value` divided by 10^`decimals`, as viem's `formatUnits` prints it: no
/// trailing fraction zeros, no `.` for a whole number, the sign kept (`-0.5`), `0` for zero.
pub fn format_units(value: &str, decimals: u32) -> Result<String, UtilError> {
    let decimals = check_decimals(decimals)?;
    let (negative, magnitude) = parse_integer(value)?;
    let padded = if magnitude.len() < decimals {
        format!("{}{}", "0".repeat(decimals - magnitude.len()), magnitude)
    } else {
        magnitude.to_string()
    };
    let split = padded.len() - decimals;
    let int = if split == 0 { "0" } else { &padded[..split] };
    let frac = padded[split..].trim_end_matches('0');
    let sign = if negative && magnitude != "0" {
        "-"
    } else {
        ""
    };
    Ok(if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    })
}

/// A decimal number read leniently for display: sign, integer digits (no leading zeros, `"0"` for
/// none) and fraction digits (as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LooseDecimal {
    pub negative: bool,
    pub int: String,
    pub frac: String,
}

/// The largest exponent magnitude [`parse_loose_decimal`] expands.
const MAX_EXPONENT: i64 = 4096;

/// Reads a number as JavaScript prints or users type it: optional `+`/`-`, digits with an optional
/// `.` (at least one digit in all, so `.5` and `1.` are read), optional exponent `e±digits`.
/// Returns `None` for anything else (including an exponent larger than 4096).
pub(crate) fn parse_loose_decimal(s: &str) -> Option<LooseDecimal> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => {
            let e = &body[i + 1..];
            let (eneg, edigits) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            if !all_digits(edigits) {
                return None;
            }
            let edigits = strip_leading_zeros(edigits);
            if edigits.len() > 5 {
                return None;
            }
            let n: i64 = edigits.parse().ok()?;
            if n > MAX_EXPONENT {
                return None;
            }
            (&body[..i], if eneg { -n } else { n })
        }
        None => (body, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    let ok = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if !ok(int) || !ok(frac) || int.len() + frac.len() == 0 {
        return None;
    }
    // Shift the point by the exponent over the digit string.
    let digits = format!("{int}{frac}");
    let point = int.len() as i64 + exponent;
    let (int, frac) = if point <= 0 {
        (
            String::new(),
            format!("{}{}", "0".repeat((-point) as usize), digits),
        )
    } else if point as usize >= digits.len() {
        (
            format!("{}{}", digits, "0".repeat(point as usize - digits.len())),
            String::new(),
        )
    } else {
        (
            digits[..point as usize].to_string(),
            digits[point as usize..].to_string(),
        )
    };
    Some(LooseDecimal {
        negative,
        int: strip_leading_zeros(&int).to_string(),
        frac,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parse_units_scales_by_decimals() {
        assert_eq!(parse_units("1", 18).unwrap(), "1000000000000000000");
        assert_eq!(parse_units("1.5", 6).unwrap(), "1500000");
        assert_eq!(parse_units("0.000001", 6).unwrap(), "1");
        assert_eq!(parse_units("-2.25", 2).unwrap(), "-225");
        assert_eq!(parse_units("007", 0).unwrap(), "7");
        assert_eq!(parse_units("-0", 18).unwrap(), "0");
        assert_eq!(parse_units("-0.000", 2).unwrap(), "0");
    }

    #[test]
    fn parse_units_handles_integers_past_2_pow_256() {
        let big = "1".repeat(100);
        assert_eq!(
            parse_units(&big, 18).unwrap(),
            format!("{big}{}", "0".repeat(18))
        );
        assert_eq!(
            parse_units(&format!("-{big}.5"), 1).unwrap(),
            format!("-{big}5")
        );
    }

    #[test]
    fn parse_units_rounds_half_away_from_zero_past_decimals() {
        assert_eq!(parse_units("1.15", 1).unwrap(), "12");
        assert_eq!(parse_units("1.149", 1).unwrap(), "11");
        assert_eq!(parse_units("-1.15", 1).unwrap(), "-12");
        assert_eq!(parse_units("-1.149", 1).unwrap(), "-11");
        assert_eq!(parse_units("0.5", 0).unwrap(), "1");
        assert_eq!(parse_units("-0.5", 0).unwrap(), "-1");
        assert_eq!(parse_units("-0.4", 0).unwrap(), "0");
        assert_eq!(parse_units("9.99", 1).unwrap(), "100");
        assert_eq!(parse_units("99.96", 1).unwrap(), "1000");
        assert_eq!(parse_units("0.123456789", 6).unwrap(), "123457");
    }

    #[test]
    fn parse_units_grammar_rejects_everything_else_with_invalid() {
        for bad in [
            "", ".5", "1.", "1e5", "+1", " 1", "1 ", "0x10", "-", "-.5", "1.2.3", "1,5", "--1", "١",
        ] {
            let err = parse_units(bad, 18).unwrap_err();
            assert!(err.0.contains("Invalid"), "{bad:?}: {err}");
        }
        assert!(parse_units("1", MAX_DECIMALS + 1).is_err());
    }

    #[test]
    fn format_units_prints_like_viem() {
        assert_eq!(format_units("1000000000000000000", 18).unwrap(), "1");
        assert_eq!(format_units("1500000", 6).unwrap(), "1.5");
        assert_eq!(format_units("1", 18).unwrap(), "0.000000000000000001");
        assert_eq!(format_units("-1", 2).unwrap(), "-0.01");
        assert_eq!(format_units("-100", 2).unwrap(), "-1");
        assert_eq!(format_units("0", 18).unwrap(), "0");
        assert_eq!(format_units("123", 0).unwrap(), "123");
        assert_eq!(format_units("-0", 3).unwrap(), "0");
        let big = "9".repeat(120);
        assert_eq!(
            format_units(&big, 2).unwrap(),
            format!("{}.99", "9".repeat(118))
        );
    }

    #[test]
    fn format_units_rejects_non_integers() {
        for bad in ["", "-", "1.5", "+1", "0x1", " 1"] {
            assert!(format_units(bad, 2).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn loose_decimal_reads_js_number_strings() {
        let d = parse_loose_decimal("1e-7").unwrap();
        assert_eq!(
            (d.negative, d.int.as_str(), d.frac.as_str()),
            (false, "0", "0000001")
        );
        let d = parse_loose_decimal("-1.5E+3").unwrap();
        assert_eq!(
            (d.negative, d.int.as_str(), d.frac.as_str()),
            (true, "1500", "")
        );
        let d = parse_loose_decimal(".25").unwrap();
        assert_eq!((d.int.as_str(), d.frac.as_str()), ("0", "25"));
        for bad in [
            "", ".", "-", "e5", "1e", "1e+", "abc", "1e99999", "NaN", "Infinity", "1 ",
        ] {
            assert!(parse_loose_decimal(bad).is_none(), "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn unit_parsers_never_panic(s in ".*", d in 0u32..40) {
            let _ = parse_units(&s, d);
            let _ = format_units(&s, d);
            let _ = parse_loose_decimal(&s);
        }

        #[test]
        fn format_then_parse_units_roundtrips(neg in any::<bool>(), digits in "[0-9]{1,90}", d in 0u32..40) {
            let value = signed(neg, &digits);
            let shown = format_units(&value, d).unwrap();
            prop_assert_eq!(parse_units(&shown, d).unwrap(), value);
        }
    }
}
