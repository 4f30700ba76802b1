//! Decimal text ↔ `f64` for prices and amounts, without the standard library's float parsing and
//! printing: those are exact to the last bit and cost each WebAssembly module ~25 KB (their code
//! and power-of-ten tables), while a price is shown to a few decimals. Here text is read to the
//! nearest `f64` whenever its digits and exponent allow the exact fast path (up to 15 significant
//! digits and a power of ten up to 10^22: every price and amount the services and visitors write),
//! and to within a few units in the last place otherwise; numbers are written with 15 significant
//! digits, never in exponent notation, trailing zeros dropped (`3000`, `0.1`, `0.00000123`).

/// The powers of ten an `f64` holds exactly.
const EXACT: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Significant digits written.
const DIGITS: i32 = 15;

/// `x` × 10^`e`: exact for |e| ≤ 22 (one correctly rounded operation), a few operations otherwise.
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e > 22 {
        x *= 1e22;
        e -= 22;
    }
    while e < -22 {
        x /= 1e22;
        e += 22;
    }
    if e >= 0 { x * EXACT[e as usize] } else { x / EXACT[(-e) as usize] }
}

/// Reads a decimal number: an optional sign, digits with an optional fraction, an optional
/// exponent (`-1.5`, `.5`, `2.`, `1e-3`). `None` for anything else (including `inf` and `NaN`) and
/// for numbers too large for an `f64`.
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let negative = matches!(b.first(), Some(b'-'));
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let (mut mantissa, mut exponent, mut digits, mut significant) = (0u64, 0i64, 0usize, 0usize);
    let mut fraction = false;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                digits += 1;
                if significant < 19 {
                    if mantissa > 0 || c != b'0' {
                        significant += 1;
                    }
                    mantissa = mantissa * 10 + u64::from(c - b'0');
                    if fraction {
                        exponent -= 1;
                    }
                } else if !fraction {
                    // Digits beyond what a u64 holds: the integer part still counts them.
                    exponent += 1;
                }
            }
            b'.' if !fraction => fraction = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() {
        if !matches!(b[i], b'e' | b'E') {
            return None;
        }
        i += 1;
        let minus = matches!(b.get(i), Some(b'-'));
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e = 0i64;
        while let Some(c @ b'0'..=b'9') = b.get(i) {
            e = (e * 10 + i64::from(c - b'0')).min(100_000);
            i += 1;
        }
        if i == start || i < b.len() {
            return None;
        }
        exponent += if minus { -e } else { e };
    }
    let value = if mantissa == 0 { 0.0 } else { scale(mantissa as f64, exponent.clamp(-400, 400) as i32) };
    value.is_finite().then_some(if negative { -value } else { value })
}

/// Writes a finite number as plain decimal text with 15 significant digits (`"0"` for anything
/// not finite).
pub fn f64_text(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    // Digits before the decimal point (≤ 0 when below 1: then minus the zeros after the point).
    let mut int_digits: i32 = 1;
    let mut p = 10.0;
    while a >= p && int_digits < 400 {
        p *= 10.0;
        int_digits += 1;
    }
    let mut q = 1.0;
    while a < q && int_digits > -400 {
        q /= 10.0;
        int_digits -= 1;
    }
    let decimals = DIGITS - int_digits;
    let rounded = (scale(a, decimals) + 0.5) as u64;
    let mut text = rounded.to_string();
    let mut out = String::with_capacity(text.len() + 4);
    if x < 0.0 {
        out.push('-');
    }
    if decimals <= 0 {
        out.push_str(&text);
        out.extend(std::iter::repeat_n('0', (-decimals) as usize));
        return out;
    }
    let decimals = decimals as usize;
    if text.len() <= decimals {
        text = "0".repeat(decimals + 1 - text.len()) + &text;
    }
    let (int, frac) = text.split_at(text.len() - decimals);
    let frac = frac.trim_end_matches('0');
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if out == "-0" {
        out.remove(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_decimals_read_exactly_like_the_standard_parser() {
        for s in ["0", "1", "-1", "0.1", "2.675", "3000", "1234.5678", "0.00000123", "1e-3", "1.5E+2", "+7", ".5", "2.", "123456789012345", "0.30000000000000004"] {
            assert_eq!(parse_f64(s), Some(s.parse::<f64>().unwrap()), "{s}");
        }
    }

    #[test]
    fn long_or_extreme_numbers_read_to_within_a_few_units_in_the_last_place() {
        for s in ["12345678901234567890123", "1e300", "1.7976931348623157e308", "4.9e-300", "0.000000000000000000000000001234"] {
            let (ours, std) = (parse_f64(s).unwrap(), s.parse::<f64>().unwrap());
            assert!(((ours - std) / std).abs() < 1e-14, "{s}: {ours} vs {std}");
        }
    }

    #[test]
    fn what_is_not_a_finite_number_is_refused() {
        for s in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "abc", "1x", "inf", "NaN", "--1", "1e400", "0x10", " 1"] {
            assert_eq!(parse_f64(s), None, "{s:?}");
        }
    }

    #[test]
    fn numbers_are_written_plainly_like_display_for_15_digit_values() {
        for x in [0.0, 1.0, -1.0, 0.1, 2.675, 3000.0, 1234.5678, 0.00000123, 123456789012345.0, 99.99, 1e20, 0.5, 1e-20, 42.42] {
            assert_eq!(f64_text(x), format!("{x}"), "{x}");
        }
        assert_eq!(f64_text(0.1 + 0.2), "0.3", "15 significant digits");
        assert_eq!(f64_text(f64::NAN), "0");
        assert_eq!(f64_text(-0.0), "0");
    }

    #[test]
    fn written_numbers_read_back_to_the_same_15_digits() {
        let mut x = 1.234_567_890_123_45e-12;
        while x < 1e18 {
            let back = parse_f64(&f64_text(x)).unwrap();
            assert!(((back - x) / x).abs() < 1e-14, "{x}");
            x *= 7.3;
        }
    }
}
