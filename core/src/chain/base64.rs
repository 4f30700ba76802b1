//! Standard base64 with padding: Solana's wire transactions, Bitcoin's PSBTs.

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (a few lines: the base64 crate costs the account module ~2 KB gzip).
pub fn to_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            out.push(if i <= chunk.len() { BASE64[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// Bytes from standard base64 (padded), at most `max` of them (the length is checked before
/// decoding); `None` when it is not that.
pub fn from_base64(s: &str, max: usize) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if s.len() % 4 != 0 || s.len() > max.div_ceil(3) * 4 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for (k, quad) in s.chunks(4).enumerate() {
        let last = k == s.len() / 4 - 1;
        let pad = quad.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || pad > 0 && !last {
            return None;
        }
        let mut n = 0u32;
        for c in &quad[..4 - pad] {
            n = n << 6 | BASE64.iter().position(|b| b == c)? as u32;
        }
        n <<= 6 * pad as u32;
        // Canonical only: the bits the padding drops are zero.
        if n & ((1u32 << (8 * pad)) - 1) != 0 {
            return None;
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    (out.len() <= max).then_some(out)
}
