//! Decimal amounts without floating point: fiat in cents, tokens in base units, prices and exchange
//! rates in micro-USD. Every step is checked; an overflow is an amount too large, never a panic.

use crate::chain::u256::{format_units, U256};

/// Longest decimal string read.
pub const MAX_DECIMAL_CHARS: usize = 40;
/// Fractional digits kept in a purchase amount (tokens with more decimals are rounded down to it).
pub const MAX_PURCHASE_DECIMALS: u8 = 8;
/// Fixed-point scale of prices and exchange rates (micro-USD).
pub const MICRO: u128 = 1_000_000;

/// Why a decimal string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecimalError {
    /// Not `digits[.digits]` (signs, exponents, spaces inside, empty, too long).
    Malformed,
    /// More fractional digits than allowed.
    TooPrecise(u8),
    /// Does not fit.
    TooLarge,
}

/// `123`, `123.4`, `0.05`, `.5` → the value scaled by `10^frac` (e.g. cents for `frac = 2`).
pub fn parse_decimal(s: &str, frac: u8) -> Result<u128, DecimalError> {
    let s = s.trim();
    if s.is_empty() || s.len() > MAX_DECIMAL_CHARS {
        return Err(DecimalError::Malformed);
    }
    let (int, fr) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if (int.is_empty() && fr.is_empty())
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !fr.bytes().all(|b| b.is_ascii_digit())
        || (s.contains('.') && fr.is_empty())
    {
        return Err(DecimalError::Malformed);
    }
    if fr.len() > frac as usize {
        return Err(DecimalError::TooPrecise(frac));
    }
    let int = int.trim_start_matches('0');
    if int.len() > 30 {
        return Err(DecimalError::TooLarge);
    }
    let mut v: u128 = 0;
    for b in int.bytes().chain(fr.bytes()) {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add((b - b'0') as u128))
            .ok_or(DecimalError::TooLarge)?;
    }
    let pad = frac as u32 - fr.len() as u32;
    v.checked_mul(10u128.checked_pow(pad).ok_or(DecimalError::TooLarge)?)
        .ok_or(DecimalError::TooLarge)
}

/// `v / 10^frac` with exactly `frac` fractional digits (`10000, 2` → `"100.00"`).
pub fn format_fixed(v: u128, frac: u8) -> String {
    format_units(U256::from_u128(v), frac, true)
}

/// Base units as a token amount without trailing zeros (`99000000, 6` → `"99"`).
pub fn format_token(units: u128, decimals: u8) -> String {
    format_units(U256::from_u128(units), decimals, false)
}

/// A USD price as micro-USD (at least one micro-USD; `None` for 0, negative, NaN or huge values).
pub fn price_micro(p: f64) -> Option<u128> {
    if !p.is_finite() || p <= 0.0 || p > 1e15 {
        return None;
    }
    let m = (p * MICRO as f64).round();
    (m >= 1.0).then_some(m as u128)
}

fn pow10(d: u8) -> Option<u128> {
    10u128.checked_pow(d as u32)
}

/// One computed quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calc {
    /// What the buyer pays, in cents of the payment currency.
    pub total_cents: u128,
    /// The provider's fee (rounded half up to the cent), included in the total.
    pub fee_cents: u128,
    /// `total - fee`: what is converted.
    pub subtotal_cents: u128,
    /// Base units of the purchase currency delivered.
    pub purchase_units: u128,
}

/// `total_cents` of a fiat currency worth `fiat_micro` micro-USD per unit, minus a fee of `fee_bps`
/// basis points, converted at `price_micro` micro-USD per token of `decimals` decimals; rounded down
/// to the base unit, and to [`MAX_PURCHASE_DECIMALS`] fractional digits.
pub fn compute(
    total_cents: u128,
    fee_bps: u32,
    fiat_micro: u128,
    price_micro: u128,
    decimals: u8,
) -> Option<Calc> {
    if price_micro == 0 || fee_bps >= 10_000 {
        return None;
    }
    let fee_cents = total_cents
        .checked_mul(fee_bps as u128)?
        .checked_add(5_000)?
        / 10_000;
    let subtotal_cents = total_cents.checked_sub(fee_cents)?;
    let mut units = subtotal_cents
        .checked_mul(fiat_micro)?
        .checked_mul(pow10(decimals)?)?
        / price_micro.checked_mul(100)?;
    if decimals > MAX_PURCHASE_DECIMALS {
        let step = pow10(decimals - MAX_PURCHASE_DECIMALS)?;
        units -= units % step;
    }
    Some(Calc {
        total_cents,
        fee_cents,
        subtotal_cents,
        purchase_units: units,
    })
}

/// The fiat amount (cents, rounded up) whose quote after the fee buys about `units`: the inverse of
/// [`compute`] for `presetCryptoAmount`. `None` when it does not fit.
pub fn fiat_for(
    units: u128,
    fee_bps: u32,
    fiat_micro: u128,
    price_micro: u128,
    decimals: u8,
) -> Option<u128> {
    if fiat_micro == 0 || fee_bps >= 10_000 {
        return None;
    }
    // subtotal = units × price × 100 / (fiat × 10^dec); total = subtotal × 10000 / (10000 − fee)
    let num = units
        .checked_mul(price_micro)?
        .checked_mul(100)?
        .checked_mul(10_000)?;
    let den = fiat_micro
        .checked_mul(pow10(decimals)?)?
        .checked_mul(10_000 - fee_bps as u128)?;
    Some(num.div_ceil(den))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_parse_strictly() {
        assert_eq!(parse_decimal("100", 2), Ok(10_000));
        assert_eq!(parse_decimal(" 99.5 ", 2), Ok(9_950));
        assert_eq!(parse_decimal("0.05", 2), Ok(5));
        assert_eq!(parse_decimal(".5", 2), Ok(50));
        assert_eq!(parse_decimal("007.10", 2), Ok(710));
        assert_eq!(parse_decimal("1.234", 2), Err(DecimalError::TooPrecise(2)));
        for bad in [
            "", ".", "1.", "-1", "+1", "1e3", "1,5", "1 0", "0x10", "NaN", "inf", "１",
        ] {
            assert_eq!(
                parse_decimal(bad, 2),
                Err(DecimalError::Malformed),
                "{bad:?}"
            );
        }
        assert_eq!(
            parse_decimal("340282366920938463463374607431768211456", 0),
            Err(DecimalError::TooLarge)
        );
        assert_eq!(
            parse_decimal(&"9".repeat(30), 18),
            Err(DecimalError::TooLarge)
        );
        assert_eq!(parse_decimal("1.5", 18), Ok(1_500_000_000_000_000_000));
    }

    #[test]
    fn formats() {
        assert_eq!(format_fixed(10_000, 2), "100.00");
        assert_eq!(format_fixed(5, 2), "0.05");
        assert_eq!(format_token(99_000_000, 6), "99");
        assert_eq!(format_token(32_666_660_000_000_000, 18), "0.03266666");
    }

    #[test]
    fn quote_is_amount_minus_fee_at_the_price() {
        // 100.00 USD, 1 % fee, USDC at 1 USD: 99 USDC.
        let c = compute(10_000, 100, MICRO, MICRO, 6).unwrap();
        assert_eq!(
            (c.fee_cents, c.subtotal_cents, c.purchase_units),
            (100, 9_900, 99_000_000)
        );
        // 2 %: 98 USDC.
        assert_eq!(
            compute(10_000, 200, MICRO, MICRO, 6)
                .unwrap()
                .purchase_units,
            98_000_000
        );
        // 100.00 EUR (1.08 USD) at 2 %: 98 × 1.08 = 105.84 USDC.
        assert_eq!(
            compute(10_000, 200, 1_080_000, MICRO, 6)
                .unwrap()
                .purchase_units,
            105_840_000
        );
        // ETH at 3000: 99 / 3000 = 0.033 ETH.
        assert_eq!(
            compute(10_000, 100, MICRO, 3_000 * MICRO, 18)
                .unwrap()
                .purchase_units,
            33_000_000_000_000_000
        );
        // 98 / 3000 = 0.0326666666… rounded down to 8 decimals.
        assert_eq!(
            compute(10_000, 200, MICRO, 3_000 * MICRO, 18)
                .unwrap()
                .purchase_units,
            32_666_660_000_000_000
        );
        // Fee rounded half up: 10.25 × 2 % = 0.205 → 0.21.
        assert_eq!(compute(1_025, 200, MICRO, MICRO, 6).unwrap().fee_cents, 21);
        assert!(compute(1, 100, MICRO, 0, 6).is_none());
        assert!(compute(u128::MAX / 2, 100, MICRO, MICRO, 18).is_none());
    }

    #[test]
    fn crypto_amount_to_fiat_round_trips_up_to_a_cent() {
        // 99 USDC at 1 % → 100.00 USD.
        assert_eq!(fiat_for(99_000_000, 100, MICRO, MICRO, 6), Some(10_000));
        // 0.5 ETH at 3000 and 2 %: 1500 / 0.98 = 1530.6122… → 1530.62.
        let cents = fiat_for(500_000_000_000_000_000, 200, MICRO, 3_000 * MICRO, 18).unwrap();
        assert_eq!(cents, 153_062);
        let back = compute(cents, 200, MICRO, 3_000 * MICRO, 18).unwrap();
        assert!(back.purchase_units >= 499_990_000_000_000_000, "{back:?}");
        assert!(fiat_for(u128::MAX, 100, MICRO, MICRO, 18).is_none());
    }

    #[test]
    fn prices_to_micro() {
        assert_eq!(price_micro(3000.0), Some(3_000_000_000));
        assert_eq!(price_micro(0.25), Some(250_000));
        assert_eq!(price_micro(0.0), None);
        assert_eq!(price_micro(f64::NAN), None);
        assert_eq!(price_micro(-1.0), None);
        assert_eq!(price_micro(1e-9), None);
    }
}
