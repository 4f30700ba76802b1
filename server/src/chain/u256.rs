//! A 256-bit unsigned integer: token amounts, token ids and wei, as the chain gives them.
//! Only what the indexer needs: parsing, addition, saturating subtraction, decimal output.

use std::cmp::Ordering;
use std::fmt;

/// Little-endian 64-bit limbs (`0` is the least significant).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct U256([u64; 4]);

impl U256 {
    pub const ZERO: U256 = U256([0; 4]);
    pub const MAX: U256 = U256([u64::MAX; 4]);

    pub fn from_u128(v: u128) -> U256 {
        U256([v as u64, (v >> 64) as u64, 0, 0])
    }

    /// Big-endian bytes, at most 32 (shorter slices are left-padded with zeros).
    pub fn from_be_slice(b: &[u8]) -> Option<U256> {
        if b.len() > 32 {
            return None;
        }
        let mut buf = [0u8; 32];
        buf[32 - b.len()..].copy_from_slice(b);
        let mut limbs = [0u64; 4];
        for (i, limb) in limbs.iter_mut().enumerate() {
            let start = 32 - (i + 1) * 8;
            *limb = u64::from_be_bytes(buf[start..start + 8].try_into().unwrap());
        }
        Some(U256(limbs))
    }

    pub fn to_be_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for i in 0..4 {
            let start = 32 - (i + 1) * 8;
            out[start..start + 8].copy_from_slice(&self.0[i].to_be_bytes());
        }
        out
    }

    /// A JSON-RPC quantity or word: `0x` and 1 to 64 hex digits (`0x0` is zero).
    pub fn from_hex(s: &str) -> Option<U256> {
        let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
        let h = h.trim_start_matches('0');
        if h.len() > 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut limbs = [0u64; 4];
        let bytes = h.as_bytes();
        let mut end = bytes.len();
        let mut i = 0;
        while end > 0 {
            let start = end.saturating_sub(16);
            let part = std::str::from_utf8(&bytes[start..end]).ok()?;
            limbs[i] = u64::from_str_radix(part, 16).ok()?;
            i += 1;
            end = start;
        }
        Some(U256(limbs))
    }

    pub fn is_zero(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn checked_add(self, o: U256) -> Option<U256> {
        let mut out = [0u64; 4];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *limb = s2;
            carry = c1 || c2;
        }
        (!carry).then_some(U256(out))
    }

    /// `self + o`, or [`U256::MAX`] on overflow.
    pub fn saturating_add(self, o: U256) -> U256 {
        self.checked_add(o).unwrap_or(U256::MAX)
    }

    /// `self - o`, or zero when `o > self`.
    pub fn saturating_sub(self, o: U256) -> U256 {
        if o >= self {
            return U256::ZERO;
        }
        let mut out = [0u64; 4];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *limb = d2;
            borrow = b1 || b2;
        }
        U256(out)
    }

    /// Divides in place by a small divisor, returning the remainder.
    fn div_rem_small(&mut self, d: u64) -> u64 {
        let mut rem: u128 = 0;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 64) | *limb as u128;
            *limb = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        rem as u64
    }

    /// Decimal digits, without leading zeros (`"0"` for zero).
    pub fn to_dec_string(self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut n = self;
        let mut parts = Vec::new();
        while !n.is_zero() {
            parts.push(n.div_rem_small(CHUNK));
        }
        let mut s = parts.pop().unwrap().to_string();
        for p in parts.iter().rev() {
            s.push_str(&format!("{p:019}"));
        }
        s
    }

    /// `0x`-prefixed lowercase hex without leading zeros (a JSON-RPC quantity).
    pub fn to_hex_quantity(self) -> String {
        let mut s = String::from("0x");
        let mut started = false;
        for limb in self.0.iter().rev() {
            if started {
                s.push_str(&format!("{limb:016x}"));
            } else if *limb != 0 {
                s.push_str(&format!("{limb:x}"));
                started = true;
            }
        }
        if !started {
            s.push('0');
        }
        s
    }
}

impl Ord for U256 {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.iter().rev().cmp(o.0.iter().rev())
    }
}

impl PartialOrd for U256 {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Debug for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dec_string())
    }
}

impl fmt::Display for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dec_string())
    }
}

/// `value / 10^decimals` as a decimal string. With `keep_zeros` the fraction always has `decimals`
/// digits (`"1.500000"`, what the hosted balance API prints); without, trailing zeros and a bare
/// `.` are dropped (`"1.5"`, as its history prints). Zero decimals never print a `.`.
pub fn format_units(value: U256, decimals: u8, keep_zeros: bool) -> String {
    let digits = value.to_dec_string();
    let d = decimals as usize;
    if d == 0 {
        return digits;
    }
    let (int, frac) = if digits.len() > d {
        let (i, f) = digits.split_at(digits.len() - d);
        (i.to_string(), f.to_string())
    } else {
        (
            "0".to_string(),
            format!("{}{digits}", "0".repeat(d - digits.len())),
        )
    };
    if keep_zeros {
        return format!("{int}.{frac}");
    }
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int
    } else {
        format!("{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_decimal_round_trip() {
        let max = U256::from_hex(&format!("0x{}", "f".repeat(64))).unwrap();
        assert_eq!(max, U256::MAX);
        assert_eq!(
            max.to_dec_string(),
            "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        );
        assert_eq!(U256::from_hex("0x0").unwrap(), U256::ZERO);
        assert_eq!(U256::from_hex("0x00ff").unwrap(), U256::from_u128(255));
        assert_eq!(U256::from_u128(255).to_hex_quantity(), "0xff");
        assert_eq!(U256::ZERO.to_hex_quantity(), "0x0");
        assert_eq!(
            U256::from_u128(1 << 70).to_hex_quantity(),
            "0x400000000000000000"
        );
        assert_eq!(U256::from_hex(&format!("0x1{}", "0".repeat(64))), None);
        assert_eq!(U256::from_hex("12"), None);
        assert_eq!(U256::from_hex("0xg"), None);
        let v = U256::from_u128(12_345_678_901_234_567_890_123_456_789);
        assert_eq!(v.to_dec_string(), "12345678901234567890123456789");
        assert_eq!(U256::from_be_slice(&v.to_be_bytes()).unwrap(), v);
    }

    #[test]
    fn arithmetic_and_order() {
        let a = U256::from_u128(u64::MAX as u128);
        let b = a.checked_add(U256::from_u128(1)).unwrap();
        assert_eq!(b, U256::from_u128(1u128 << 64));
        assert!(b > a);
        assert_eq!(a.cmp(&b), Ordering::Less);
        assert_eq!(b.saturating_sub(a), U256::from_u128(1));
        assert_eq!(a.saturating_sub(b), U256::ZERO);
        assert_eq!(U256::MAX.checked_add(U256::from_u128(1)), None);
        assert_eq!(U256::MAX.saturating_add(U256::from_u128(1)), U256::MAX);
        assert!(
            U256::from_hex(&format!("0x1{}", "0".repeat(63))).unwrap() > U256::from_u128(u128::MAX)
        );
    }

    #[test]
    fn units() {
        let v = U256::from_u128(1_500_000);
        assert_eq!(format_units(v, 6, true), "1.500000");
        assert_eq!(format_units(v, 6, false), "1.5");
        assert_eq!(format_units(U256::from_u128(5), 6, false), "0.000005");
        assert_eq!(format_units(U256::from_u128(5), 6, true), "0.000005");
        assert_eq!(format_units(U256::from_u128(1200), 0, true), "1200");
        assert_eq!(format_units(U256::from_u128(2_000_000), 6, false), "2");
        assert_eq!(format_units(U256::ZERO, 18, false), "0");
        assert_eq!(format_units(U256::ZERO, 2, true), "0.00");
    }
}
