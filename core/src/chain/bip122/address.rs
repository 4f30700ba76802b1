//! Bitcoin addresses: segwit outputs in Bech32 (v0) and Bech32m (v1+, taproot), and the old
//! Base58Check P2PKH and P2SH forms, with the network each belongs to and the output script it
//! pays.

use crate::chain::bech32::{self, Variant};
use sha2::{Digest, Sha256};

/// The networks an address can name (testnet's Base58 forms serve regtest and signet too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Net {
    Main,
    Test,
    Regtest,
}

/// What an address pays to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payee {
    P2pkh([u8; 20]),
    P2sh([u8; 20]),
    Witness { version: u8, program: Vec<u8> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub net: Net,
    pub payee: Payee,
}

/// The longest address read: Bech32's 90 characters.
pub const MAX_LEN: usize = 90;

pub(super) fn sha256d(data: &[u8]) -> [u8; 32] {
    Sha256::digest(Sha256::digest(data)).into()
}

/// Reads an address; `Err(why)` when it is not one.
pub fn parse(s: &str) -> Result<Address, &'static str> {
    if s.is_empty() || s.len() > MAX_LEN {
        return Err("A Bitcoin address is 26 to 90 characters"); // i18n
    }
    let lower = s.to_ascii_lowercase();
    for (hrp, net) in [("bcrt1", Net::Regtest), ("bc1", Net::Main), ("tb1", Net::Test)] {
        if lower.starts_with(hrp) {
            return segwit(s, net);
        }
    }
    base58(s)
}

fn segwit(s: &str, net: Net) -> Result<Address, &'static str> {
    let (_, data, variant) = bech32::decode(s, MAX_LEN).ok_or("Not a valid Bech32 address (its checksum or characters are wrong)")?; // i18n
    let (&version, rest) = data.split_first().ok_or("A segwit address without a witness version")?; // i18n
    let program = bech32::convert_bits(rest, 5, 8, false).ok_or("Not a valid segwit program")?; // i18n
    let ok = match version {
        0 => variant == Variant::Bech32 && (program.len() == 20 || program.len() == 32),
        1..=16 => variant == Variant::Bech32m && (2..=40).contains(&program.len()),
        _ => false,
    };
    if !ok {
        return Err("Not a valid segwit address (its version, length or checksum kind is wrong)"); // i18n
    }
    Ok(Address { net, payee: Payee::Witness { version, program } })
}

fn base58(s: &str) -> Result<Address, &'static str> {
    if !(26..=35).contains(&s.len()) {
        return Err("A Bitcoin address is 26 to 90 characters"); // i18n
    }
    let bytes = bs58::decode(s).into_vec().map_err(|_| "Not a Bitcoin address")?; // i18n
    if bytes.len() != 25 || sha256d(&bytes[..21])[..4] != bytes[21..] {
        return Err("Not a valid Base58Check address (its checksum is wrong)"); // i18n
    }
    let mut hash = [0u8; 20];
    hash.copy_from_slice(&bytes[1..21]);
    let (net, payee) = match bytes[0] {
        0x00 => (Net::Main, Payee::P2pkh(hash)),
        0x05 => (Net::Main, Payee::P2sh(hash)),
        0x6f => (Net::Test, Payee::P2pkh(hash)),
        0xc4 => (Net::Test, Payee::P2sh(hash)),
        _ => return Err("Not a Bitcoin address (unknown version byte)"), // i18n
    };
    Ok(Address { net, payee })
}

impl Address {
    /// Whether the address is one of `net`'s (testnet's Base58 forms are regtest's too).
    pub fn on(&self, net: Net) -> bool {
        self.net == net || (net == Net::Regtest && self.net == Net::Test && !matches!(self.payee, Payee::Witness { .. }))
    }

    /// The output script it pays (scriptPubKey).
    pub fn script(&self) -> Vec<u8> {
        match &self.payee {
            Payee::P2pkh(h) => [&[0x76, 0xa9, 0x14][..], h, &[0x88, 0xac]].concat(),
            Payee::P2sh(h) => [&[0xa9, 0x14][..], h, &[0x87]].concat(),
            Payee::Witness { version, program } => {
                let op = if *version == 0 { 0 } else { 0x50 + version };
                [&[op, program.len() as u8][..], program].concat()
            }
        }
    }
}

/// The segwit address of an output script on `net` (`bc1…`, `tb1…`, `bcrt1…`); `None` for a
/// script that is not a witness program.
pub fn segwit_address(script: &[u8], net: Net) -> Option<String> {
    let (&op, rest) = script.split_first()?;
    let version = match op {
        0 => 0,
        0x51..=0x60 => op - 0x50,
        _ => return None,
    };
    let (&len, program) = rest.split_first()?;
    if program.len() != len as usize {
        return None;
    }
    let mut data = vec![version];
    data.extend(bech32::convert_bits(program, 8, 5, true)?);
    let hrp = match net {
        Net::Main => "bc",
        Net::Test => "tb",
        Net::Regtest => "bcrt",
    };
    let s = bech32::encode(hrp, &data, if version == 0 { Variant::Bech32 } else { Variant::Bech32m });
    // Only what reads back as a valid address (program lengths per version).
    parse(&s).is_ok().then_some(s)
}

/// Whether `s` is a Bitcoin address of any network.
pub fn is_address(s: &str) -> bool {
    parse(s).is_ok()
}
