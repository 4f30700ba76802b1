//! Bech32 and Bech32m (BIP-173, BIP-350): the address text of Bitcoin's segwit outputs and of the
//! Cosmos chains. A small codec (no dependency): the families that use it check and write
//! addresses with it.

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR: [u32; 5] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3];

/// Which checksum constant a string uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Bech32,
    Bech32m,
}

impl Variant {
    fn constant(self) -> u32 {
        match self {
            Variant::Bech32 => 1,
            Variant::Bech32m => 0x2bc8_30a3,
        }
    }
}

fn polymod(values: &[u8]) -> u32 {
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ *v as u32;
        for (i, g) in GENERATOR.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

fn expanded(hrp: &[u8], data: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(hrp.len() * 2 + 1 + data.len() + 6);
    v.extend(hrp.iter().map(|c| c >> 5));
    v.push(0);
    v.extend(hrp.iter().map(|c| c & 31));
    v.extend_from_slice(data);
    v
}

/// A decoded string: its human-readable part (lower case), its 5-bit data (checksum removed)
/// and its checksum's variant. `None` for anything that is not one: mixed case, longer than
/// `max_len`, a character outside the charset, a wrong checksum.
pub fn decode(s: &str, max_len: usize) -> Option<(String, Vec<u8>, Variant)> {
    if s.len() > max_len || s.len() < 8 {
        return None;
    }
    let lower = s.to_ascii_lowercase();
    if lower != s && s.to_ascii_uppercase() != s {
        return None;
    }
    let sep = lower.rfind('1')?;
    let (hrp, rest) = (&lower.as_bytes()[..sep], &lower.as_bytes()[sep + 1..]);
    if hrp.is_empty() || rest.len() < 6 || !hrp.iter().all(|c| (33..=126).contains(c)) {
        return None;
    }
    let mut data = Vec::with_capacity(rest.len());
    for c in rest {
        data.push(CHARSET.iter().position(|x| x == c)? as u8);
    }
    let variant = match polymod(&expanded(hrp, &data)) {
        1 => Variant::Bech32,
        0x2bc8_30a3 => Variant::Bech32m,
        _ => return None,
    };
    data.truncate(data.len() - 6);
    Some((String::from_utf8(hrp.to_vec()).ok()?, data, variant))
}

/// `hrp` (lower case) and 5-bit `data` as a string with its checksum.
pub fn encode(hrp: &str, data: &[u8], variant: Variant) -> String {
    let mut values = expanded(hrp.as_bytes(), data);
    values.extend_from_slice(&[0; 6]);
    let m = polymod(&values) ^ variant.constant();
    let mut out = String::with_capacity(hrp.len() + 1 + data.len() + 6);
    out.push_str(hrp);
    out.push('1');
    for d in data {
        out.push(CHARSET[*d as usize] as char);
    }
    for i in 0..6 {
        out.push(CHARSET[((m >> (5 * (5 - i))) & 31) as usize] as char);
    }
    out
}

/// Regroups bits (8 → 5 to write, 5 → 8 to read). Reading (`pad` false) refuses leftover bits
/// that are not zero padding.
pub fn convert_bits(data: &[u8], from: u32, to: u32, pad: bool) -> Option<Vec<u8>> {
    let (mut acc, mut bits) = (0u32, 0u32);
    let max = (1u32 << to) - 1;
    let mut out = Vec::with_capacity(data.len() * from as usize / to as usize + 1);
    for v in data {
        if (*v as u32) >> from != 0 {
            return None;
        }
        acc = (acc << from) | *v as u32;
        bits += from;
        while bits >= to {
            bits -= to;
            out.push(((acc >> bits) & max) as u8);
        }
    }
    if pad {
        if bits > 0 {
            out.push(((acc << (to - bits)) & max) as u8);
        }
    } else if bits >= from || ((acc << (to - bits)) & max) != 0 {
        return None;
    }
    Some(out)
}

/// Bytes as a Bech32 string (the Cosmos address form).
pub fn encode_bytes(hrp: &str, bytes: &[u8]) -> String {
    encode(hrp, &convert_bits(bytes, 8, 5, true).unwrap_or_default(), Variant::Bech32)
}

/// A Bech32 (not Bech32m) string's part and bytes.
pub fn decode_bytes(s: &str, max_len: usize) -> Option<(String, Vec<u8>)> {
    match decode(s, max_len)? {
        (hrp, data, Variant::Bech32) => Some((hrp, convert_bits(&data, 5, 8, false)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // BIP-173 and BIP-350's valid and invalid checksums.
    #[test]
    fn accepts_the_bips_valid_strings_of_either_variant() {
        for s in ["A12UEL5L", "a12uel5l", "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w"] {
            assert_eq!(decode(s, 90).map(|d| d.2), Some(Variant::Bech32), "{s}");
        }
        for s in ["a1lqfn3a", "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx", "split1checkupstagehandshakeupstreamerranterredcaperredlc445v"] {
            assert_eq!(decode(s, 90).map(|d| d.2), Some(Variant::Bech32m), "{s}");
        }
    }

    #[test]
    fn refuses_mixed_case_bad_checksums_bad_characters_and_long_strings() {
        for s in ["A12uEL5L", "a12uel5m", "x1b4n0q5v", "li1dgmt3", "1pzry9x0s0muk", "pzry9x0s0muk", "abc1rzg", ""] {
            assert_eq!(decode(s, 90), None, "{s}");
        }
        let long = "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs";
        assert!(decode(long, 90).is_some());
        assert_eq!(decode(long, 89), None);
    }

    #[test]
    fn writes_what_it_reads() {
        let bytes: Vec<u8> = (0..20).collect();
        let s = encode_bytes("cosmos", &bytes);
        assert_eq!(decode_bytes(&s, 90), Some(("cosmos".to_string(), bytes)));
    }

    #[test]
    fn regrouping_refuses_non_zero_padding() {
        assert_eq!(convert_bits(&[0b11111], 5, 8, false), None);
        assert_eq!(convert_bits(&[0xff], 8, 5, true), Some(vec![31, 28]));
    }
}
