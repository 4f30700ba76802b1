//! SS58, the address text of Substrate chains: Base58 of a network prefix, the 32-byte account id
//! and a BLAKE2b checksum ("SS58PRE"). The same account is written differently on each network.

use crate::chain::blake2b::blake2b;

/// The longest SS58 address read (a two-byte prefix, a 32-byte account).
pub const MAX_LEN: usize = 50;

fn checksum(body: &[u8]) -> [u8; 2] {
    let h = blake2b(64, &[b"SS58PRE".as_slice(), body].concat());
    [h[0], h[1]]
}

/// An address's network prefix and account id; `Err(why)` when it is not one.
pub fn decode(s: &str) -> Result<(u16, [u8; 32]), &'static str> {
    if s.len() < 46 || s.len() > MAX_LEN {
        return Err("A Polkadot address is 46 to 50 characters");
    }
    let b = bs58::decode(s).into_vec().map_err(|_| "Not a Polkadot address (not Base58)")?;
    let (prefix, at) = match b.first() {
        Some(&f) if f < 64 => (f as u16, 1),
        Some(&f) if f < 128 && b.len() > 1 => {
            let lower = ((f << 2) | (b[1] >> 6)) as u16;
            let upper = (b[1] & 0x3f) as u16;
            (lower | (upper << 8), 2)
        }
        _ => return Err("Not a Polkadot address (reserved prefix)"),
    };
    if b.len() != at + 34 {
        return Err("Not a Polkadot account address (its length is wrong)");
    }
    if checksum(&b[..at + 32]) != b[at + 32..] {
        return Err("Not a valid Polkadot address (its checksum is wrong)");
    }
    let mut id = [0u8; 32];
    id.copy_from_slice(&b[at..at + 32]);
    Ok((prefix, id))
}

/// The account `id` written for the network of `prefix` (at most 16383).
pub fn encode(prefix: u16, id: &[u8; 32]) -> String {
    let mut body = if prefix < 64 {
        vec![prefix as u8]
    } else {
        vec![(((prefix & 0xfc) >> 2) | 0x40) as u8, ((prefix >> 8) | ((prefix & 0x03) << 6)) as u8]
    };
    body.extend_from_slice(id);
    let c = checksum(&body);
    body.extend_from_slice(&c);
    bs58::encode(body).into_string()
}

/// Whether `s` is an SS58 account address of any network.
pub fn is_address(s: &str) -> bool {
    decode(s).is_ok()
}
