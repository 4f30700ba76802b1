//! ABI call data of the few Uniswap V2 and ERC-20 functions the convert API uses, their decoding,
//! and the arithmetic on amounts it needs (decimal parsing, `× n / d` for the slippage bound).

use crate::chain::abi::{hex_lower, Addr};
use crate::chain::u256::U256;

/// The 4-byte selector of a function signature (`approve(address,uint256)`).
pub fn selector(signature: &str) -> [u8; 4] {
    let h = wm_core::chain::hash::keccak256(signature.as_bytes());
    [h[0], h[1], h[2], h[3]]
}

pub const GET_AMOUNTS_OUT: &str = "getAmountsOut(uint256,address[])";
pub const SWAP_EXACT_ETH_FOR_TOKENS: &str =
    "swapExactETHForTokens(uint256,address[],address,uint256)";
pub const SWAP_EXACT_TOKENS_FOR_ETH: &str =
    "swapExactTokensForETH(uint256,uint256,address[],address,uint256)";
pub const SWAP_EXACT_TOKENS_FOR_TOKENS: &str =
    "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)";
pub const APPROVE: &str = "approve(address,uint256)";
pub const ALLOWANCE: &str = "allowance(address,address)";
pub const GET_RESERVES: &str = "getReserves()";

/// A call being encoded: the selector, then 32-byte words.
pub struct Call(Vec<u8>);

impl Call {
    pub fn new(signature: &str) -> Call {
        Call(selector(signature).to_vec())
    }
    pub fn uint(mut self, v: U256) -> Call {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn small(self, v: u64) -> Call {
        self.uint(U256::from_u128(v as u128))
    }
    pub fn addr(mut self, a: &Addr) -> Call {
        self.0.extend_from_slice(&[0u8; 12]);
        self.0.extend_from_slice(a);
        self
    }
    /// The tail of an `address[]`: its length, then the addresses.
    pub fn addr_array(mut self, list: &[Addr]) -> Call {
        self = self.small(list.len() as u64);
        for a in list {
            self = self.addr(a);
        }
        self
    }
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
    pub fn hex(&self) -> String {
        hex_lower(&self.0)
    }
}

/// `getAmountsOut(amountIn, path)`.
pub fn get_amounts_out(amount_in: U256, path: &[Addr]) -> String {
    Call::new(GET_AMOUNTS_OUT)
        .uint(amount_in)
        .small(0x40)
        .addr_array(path)
        .hex()
}

/// The router call of a swap of exactly `amount_in` along `path` (`native_in`: the first hop is
/// the native currency, sent as the value; `native_out`: the last one is paid out unwrapped).
pub fn swap(
    amount_in: U256,
    amount_out_min: U256,
    path: &[Addr],
    to: &Addr,
    deadline: u64,
    native_in: bool,
    native_out: bool,
) -> String {
    if native_in {
        return Call::new(SWAP_EXACT_ETH_FOR_TOKENS)
            .uint(amount_out_min)
            .small(0x80)
            .addr(to)
            .small(deadline)
            .addr_array(path)
            .hex();
    }
    let sig = if native_out {
        SWAP_EXACT_TOKENS_FOR_ETH
    } else {
        SWAP_EXACT_TOKENS_FOR_TOKENS
    };
    Call::new(sig)
        .uint(amount_in)
        .uint(amount_out_min)
        .small(0xa0)
        .addr(to)
        .small(deadline)
        .addr_array(path)
        .hex()
}

pub fn approve(spender: &Addr, amount: U256) -> String {
    Call::new(APPROVE).addr(spender).uint(amount).hex()
}

pub fn allowance(owner: &Addr, spender: &Addr) -> String {
    Call::new(ALLOWANCE).addr(owner).addr(spender).hex()
}

pub fn get_reserves() -> String {
    Call::new(GET_RESERVES).hex()
}

fn word(ret: &[u8], i: usize) -> Option<U256> {
    U256::from_be_slice(ret.get(i * 32..i * 32 + 32)?)
}

fn small_word(ret: &[u8], i: usize) -> Option<usize> {
    let w = word(ret, i)?;
    (w <= U256::from_u128(u32::MAX as u128))
        .then(|| w.to_dec_string().parse().ok())
        .flatten()
}

/// A returned `uint256[]` (what `getAmountsOut` answers), at most `max` long.
pub fn decode_uint_array(ret: &[u8], max: usize) -> Option<Vec<U256>> {
    let off = small_word(ret, 0)?;
    if off % 32 != 0 {
        return None;
    }
    let len = small_word(ret, off / 32)?;
    if len > max {
        return None;
    }
    (0..len).map(|i| word(ret, off / 32 + 1 + i)).collect()
}

/// `getReserves()`: `(reserve0, reserve1)`.
pub fn decode_reserves(ret: &[u8]) -> Option<(U256, U256)> {
    if ret.len() < 96 {
        return None;
    }
    Some((word(ret, 0)?, word(ret, 1)?))
}

/// Little-endian 64-bit limbs of `v`.
fn limbs(v: U256) -> [u64; 4] {
    let b = v.to_be_bytes();
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        let start = 32 - (i + 1) * 8;
        *limb = u64::from_be_bytes(b[start..start + 8].try_into().unwrap());
    }
    l
}

fn from_limbs(l: [u64; 4]) -> U256 {
    let mut b = [0u8; 32];
    for (i, limb) in l.iter().enumerate() {
        let start = 32 - (i + 1) * 8;
        b[start..start + 8].copy_from_slice(&limb.to_be_bytes());
    }
    U256::from_be_slice(&b).unwrap()
}

/// `v × m`, or `None` on overflow.
pub fn mul_small(v: U256, m: u64) -> Option<U256> {
    let mut out = [0u64; 4];
    let mut carry: u128 = 0;
    for (i, limb) in limbs(v).iter().enumerate() {
        let cur = (*limb as u128) * (m as u128) + carry;
        out[i] = cur as u64;
        carry = cur >> 64;
    }
    (carry == 0).then(|| from_limbs(out))
}

/// `v / d` (rounded down); `d` must not be 0.
pub fn div_small(v: U256, d: u64) -> U256 {
    let mut out = [0u64; 4];
    let mut rem: u128 = 0;
    let l = limbs(v);
    for i in (0..4).rev() {
        let cur = (rem << 64) | l[i] as u128;
        out[i] = (cur / d as u128) as u64;
        rem = cur % d as u128;
    }
    from_limbs(out)
}

/// `v × (10000 − bps) / 10000` without overflow (the lower bound of a swap's output for a slippage
/// of `bps` basis points, `bps ≤ 10000`).
pub fn minus_bps(v: U256, bps: u64) -> U256 {
    let keep = 10_000 - bps.min(10_000);
    match mul_small(v, keep) {
        Some(p) => div_small(p, 10_000),
        // Too large to multiply first: divide first (loses < 1 unit per 10000).
        None => mul_small(div_small(v, 10_000), keep).unwrap_or(U256::MAX),
    }
}

/// An amount in base units: 1 to 78 decimal digits, at most 2^256 − 1.
pub fn parse_dec_u256(s: &str) -> Option<U256> {
    if s.is_empty() || s.len() > 78 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v = U256::ZERO;
    for b in s.bytes() {
        v = mul_small(v, 10)?.checked_add(U256::from_u128((b - b'0') as u128))?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_the_known_ones() {
        assert_eq!(hex_lower(&selector(GET_AMOUNTS_OUT)), "0xd06ca61f");
        assert_eq!(
            hex_lower(&selector(SWAP_EXACT_ETH_FOR_TOKENS)),
            "0x7ff36ab5"
        );
        assert_eq!(
            hex_lower(&selector(SWAP_EXACT_TOKENS_FOR_ETH)),
            "0x18cbafe5"
        );
        assert_eq!(
            hex_lower(&selector(SWAP_EXACT_TOKENS_FOR_TOKENS)),
            "0x38ed1739"
        );
        assert_eq!(hex_lower(&selector(APPROVE)), "0x095ea7b3");
        assert_eq!(hex_lower(&selector(ALLOWANCE)), "0xdd62ed3e");
        assert_eq!(hex_lower(&selector(GET_RESERVES)), "0x0902f1ac");
    }

    #[test]
    fn amounts_parse_and_scale() {
        assert_eq!(parse_dec_u256("0"), Some(U256::ZERO));
        assert_eq!(
            parse_dec_u256("1000000000000000000")
                .unwrap()
                .to_dec_string(),
            "1000000000000000000"
        );
        let max = U256::MAX.to_dec_string();
        assert_eq!(parse_dec_u256(&max), Some(U256::MAX));
        assert_eq!(parse_dec_u256(&format!("{max}0")), None);
        assert_eq!(
            parse_dec_u256(
                "115792089237316195423570985008687907853269984665640564039457584007913129639936"
            ),
            None
        );
        for bad in ["", "1.5", "-1", "0x10", "1e18", " 1", "１"] {
            assert_eq!(parse_dec_u256(bad), None, "{bad:?}");
        }
        let v = U256::from_u128(2_988_020_943);
        assert_eq!(minus_bps(v, 100), U256::from_u128(2_958_140_733));
        assert_eq!(minus_bps(v, 0), v);
        assert_eq!(minus_bps(U256::MAX, 100), {
            let d = div_small(U256::MAX, 10_000);
            mul_small(d, 9_900).unwrap()
        });
        assert_eq!(
            div_small(U256::from_u128(1 << 100), 1 << 36),
            U256::from_u128(1 << 64)
        );
    }

    #[test]
    fn arrays_round_trip() {
        // abi.encode(uint256[]{1, 2}) as getAmountsOut answers it.
        let mut ret = vec![0u8; 128];
        ret[31] = 0x20;
        ret[63] = 2;
        ret[95] = 1;
        ret[127] = 2;
        assert_eq!(
            decode_uint_array(&ret, 4),
            Some(vec![U256::from_u128(1), U256::from_u128(2)])
        );
        assert_eq!(decode_uint_array(&ret, 1), None);
        assert_eq!(decode_uint_array(&ret[..100], 4), None);
        let data = get_amounts_out(U256::from_u128(5), &[[1; 20], [2; 20]]);
        assert_eq!(data.len(), 2 + 8 + 64 * 5);
        assert!(data.starts_with("0xd06ca61f"));
    }
}
