//! Addresses, hex, the few ABI calls and event layouts the indexer reads, and time formatting.

use super::u256::U256;

/// A 20-byte account or contract address.
pub type Addr = [u8; 20];
pub type Hash32 = [u8; 32];

pub const ZERO_ADDR: Addr = [0; 20];
/// `0xeeee…ee`: the hosted API's stand-in contract address of a chain's native currency.
pub const NATIVE_ADDR: Addr = [0xee; 20];

/// `Transfer(address,address,uint256)`: ERC-20 (3 topics, amount in data) and ERC-721 (4 topics).
pub const TRANSFER_TOPIC: &str =
    "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/// `Approval(address,address,uint256)`: ERC-20 (3 topics) and ERC-721 (4 topics).
pub const APPROVAL_TOPIC: &str =
    "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";
/// `Withdrawal(address indexed src, uint256 wad)` of WETH9: wrapped ether turned back into ether
/// for `src` (a router unwrapping the output of a token-for-ether swap).
pub const WITHDRAWAL_TOPIC: &str =
    "0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65";

pub const SEL_NAME: &str = "0x06fdde03";
pub const SEL_SYMBOL: &str = "0x95d89b41";
pub const SEL_DECIMALS: &str = "0x313ce567";
pub const SEL_TOKEN_URI: &str = "0xc87b56dd";
pub const SEL_BALANCE_OF: &str = "0x70a08231";

/// Longest token name or symbol kept (longer ones are cut, on a character boundary).
pub const MAX_TOKEN_TEXT: usize = 128;
/// Longest `tokenURI` kept; longer ones are treated as absent.
pub const MAX_TOKEN_URI: usize = 2048;

pub fn hex_lower(bytes: &[u8]) -> String {
    const H: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    for b in bytes {
        s.push(H[(b >> 4) as usize] as char);
        s.push(H[(b & 15) as usize] as char);
    }
    s
}

/// `0x`-prefixed hex (any case, even length) to bytes.
pub fn parse_hex(s: &str) -> Option<Vec<u8>> {
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    if h.len() % 2 != 0 {
        return None;
    }
    let nib = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    h.as_bytes()
        .chunks(2)
        .map(|p| Some(nib(p[0])? << 4 | nib(p[1])?))
        .collect()
}

/// `0x` and exactly 40 hex digits (any case; the checksum is not enforced, as the hosted API does not).
pub fn parse_addr(s: &str) -> Option<Addr> {
    if s.len() != 42 {
        return None;
    }
    parse_hex(s)?.try_into().ok()
}

pub fn parse_hash(s: &str) -> Option<Hash32> {
    if s.len() != 66 {
        return None;
    }
    parse_hex(s)?.try_into().ok()
}

/// A JSON-RPC quantity that fits a u64.
pub fn parse_quantity(s: &str) -> Option<u64> {
    let h = s.strip_prefix("0x")?;
    if h.is_empty() || h.len() > 16 {
        return None;
    }
    u64::from_str_radix(h, 16).ok()
}

pub fn addr_hex(a: &Addr) -> String {
    hex_lower(a)
}

/// EIP-55 checksummed form.
pub fn addr_checksum(a: &Addr) -> String {
    wm_core::chain::address::checksum_address(&hex_lower(a)).unwrap_or_else(|_| hex_lower(a))
}

/// The address in the last 20 bytes of a 32-byte topic or word.
pub fn topic_addr(t: &[u8]) -> Option<Addr> {
    if t.len() != 32 || t[..12].iter().any(|b| *b != 0) {
        return None;
    }
    t[12..].try_into().ok()
}

/// Call data of `balanceOf(owner)`.
pub fn balance_of_data(owner: &Addr) -> String {
    format!("{SEL_BALANCE_OF}{:0>64}", &hex_lower(owner)[2..])
}

/// Call data of `tokenURI(id)`.
pub fn token_uri_data(id: U256) -> String {
    format!("{SEL_TOKEN_URI}{}", &hex_lower(&id.to_be_bytes())[2..])
}

/// A returned `uint8` (`decimals()`): one 32-byte word whose value is at most 255.
pub fn decode_u8(ret: &[u8]) -> Option<u8> {
    if ret.len() < 32 || ret[..31].iter().any(|b| *b != 0) {
        return None;
    }
    Some(ret[31])
}

/// A returned `uint256` (`balanceOf`).
pub fn decode_u256(ret: &[u8]) -> Option<U256> {
    if ret.len() < 32 {
        return None;
    }
    U256::from_be_slice(&ret[..32])
}

/// A returned `string`, or a `bytes32` (older tokens such as MKR return their name that way).
/// Control characters are dropped; at most `max` bytes are kept.
pub fn decode_string(ret: &[u8], max: usize) -> Option<String> {
    let raw: Vec<u8> = if ret.len() == 32 {
        ret.iter().copied().take_while(|b| *b != 0).collect()
    } else {
        if ret.len() < 64 {
            return None;
        }
        let off = U256::from_be_slice(&ret[..32])?;
        if off != U256::from_u128(32) && off > U256::from_u128(ret.len() as u128) {
            return None;
        }
        let off = off.to_dec_string().parse::<usize>().ok()?;
        let len = U256::from_be_slice(ret.get(off..off + 32)?)?;
        if len > U256::from_u128(ret.len() as u128) {
            return None;
        }
        let len = len.to_dec_string().parse::<usize>().ok()?;
        ret.get(off + 32..off + 32 + len)?.to_vec()
    };
    let s = String::from_utf8_lossy(&raw);
    let mut out = String::new();
    for c in s.chars().filter(|c| !c.is_control()) {
        if out.len() + c.len_utf8() > max {
            break;
        }
        out.push(c);
    }
    let out = out.trim().to_string();
    (!out.is_empty()).then_some(out)
}

/// The address a contract created by `sender` with transaction nonce `nonce` gets (CREATE):
/// `keccak256(rlp([sender, nonce]))[12..]`.
pub fn create_address(sender: &Addr, nonce: u64) -> Addr {
    let mut rlp_nonce = Vec::with_capacity(9);
    if nonce == 0 {
        rlp_nonce.push(0x80);
    } else if nonce < 0x80 {
        rlp_nonce.push(nonce as u8);
    } else {
        let be = nonce.to_be_bytes();
        let first = be.iter().position(|b| *b != 0).unwrap_or(7);
        rlp_nonce.push(0x80 + (8 - first) as u8);
        rlp_nonce.extend_from_slice(&be[first..]);
    }
    let payload_len = 21 + rlp_nonce.len();
    let mut buf = Vec::with_capacity(1 + payload_len);
    buf.push(0xc0 + payload_len as u8);
    buf.push(0x94);
    buf.extend_from_slice(sender);
    buf.extend_from_slice(&rlp_nonce);
    let h = wm_core::chain::hash::keccak256(&buf);
    h[12..].try_into().unwrap()
}

/// RFC 3339 / ISO 8601 UTC time of a unix timestamp, to the second: `2026-11-24T05:46:39Z`.
pub fn iso8601(ts: u64) -> String {
    let days = (ts / 86_400) as i64;
    let secs = ts % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_addresses_match_anvils_first_deployments() {
        let deployer = parse_addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap();
        assert_eq!(
            addr_checksum(&create_address(&deployer, 0)),
            "0x5FbDB2315678afecb367f032d93F642f64180aa3"
        );
        assert_eq!(
            addr_checksum(&create_address(&deployer, 1)),
            "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
        );
        // nonces of two bytes take the long RLP form
        let a = create_address(&deployer, 0x80);
        let b = create_address(&deployer, 0x7f);
        assert_ne!(a, b);
    }

    #[test]
    fn strings_and_words_decode() {
        // abi.encode("USD Coin")
        let mut ret = vec![0u8; 96];
        ret[31] = 32;
        ret[63] = 8;
        ret[64..72].copy_from_slice(b"USD Coin");
        assert_eq!(decode_string(&ret, 128).as_deref(), Some("USD Coin"));
        assert_eq!(decode_string(&ret, 3).as_deref(), Some("USD"));
        // bytes32 "MKR"
        let mut b32 = vec![0u8; 32];
        b32[..3].copy_from_slice(b"MKR");
        assert_eq!(decode_string(&b32, 128).as_deref(), Some("MKR"));
        // a length beyond the data
        ret[63] = 200;
        assert_eq!(decode_string(&ret, 128), None);
        assert_eq!(decode_string(&[], 128), None);
        let mut w = vec![0u8; 32];
        w[31] = 6;
        assert_eq!(decode_u8(&w), Some(6));
        w[30] = 1;
        assert_eq!(decode_u8(&w), None);
    }

    #[test]
    fn hex_helpers() {
        assert_eq!(parse_quantity("0x1a"), Some(26));
        assert_eq!(parse_quantity("0x"), None);
        assert_eq!(parse_quantity("1a"), None);
        assert!(parse_addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").is_some());
        assert!(parse_addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226").is_none());
        assert!(parse_addr("f39Fd6e51aad88F6F4ce6aB8827279cffFb922666").is_none());
        assert!(parse_addr("0xg39Fd6e51aad88F6F4ce6aB8827279cffFb92266").is_none());
        assert_eq!(
            balance_of_data(&[0x11; 20]),
            format!("0x70a08231{}{}", "0".repeat(24), "11".repeat(20))
        );
    }

    #[test]
    fn iso_times() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_798_000_000), "2026-12-23T04:26:40Z");
    }
}
