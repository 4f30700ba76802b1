//! Bitcoin message signatures, checked offline: BIP-322 "simple" (a witness signing a virtual
//! transaction: P2WPKH, P2SH-P2WPKH and taproot key-path), and the legacy form (BIP-137: a 65-byte
//! recoverable signature over "Bitcoin Signed Message:\n", which wallets still send for P2PKH and,
//! Electrum-style, for segwit addresses). Both arrive as base64.

use super::address::{parse, Payee};
use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
use sha2::{Digest, Sha256};

/// The longest signature read (base64 characters): a witness of a few items.
pub const MAX_SIGNATURE_LEN: usize = 1024;
/// The longest message checked (bytes).
pub const MAX_MESSAGE_LEN: usize = 64 * 1024;

/// Why a signature does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BitcoinSignatureError {
    Address(&'static str),
    Malformed(&'static str),
    Unsupported(&'static str),
    TooLong,
    Mismatch,
}

impl core::fmt::Display for BitcoinSignatureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Address(why) => write!(f, "{why}"),
            Self::Malformed(why) => write!(f, "Not a Bitcoin message signature: {why}"),
            Self::Unsupported(why) => write!(f, "This signature cannot be checked offline: {why}"),
            Self::TooLong => write!(f, "The message or signature is too long (at most {MAX_MESSAGE_LEN} bytes and {MAX_SIGNATURE_LEN} characters)"),
            Self::Mismatch => write!(f, "The signature is not this address's over this message"),
        }
    }
}

use BitcoinSignatureError as E;

fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

fn sha256d(data: &[u8]) -> [u8; 32] {
    sha256(&sha256(data))
}

fn hash160(data: &[u8]) -> [u8; 20] {
    use ripemd::Ripemd160;
    Ripemd160::digest(sha256(data)).into()
}

fn tagged(tag: &str, parts: &[&[u8]]) -> [u8; 32] {
    let t = sha256(tag.as_bytes());
    let mut h = Sha256::new();
    h.update(t);
    h.update(t);
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn push_varint(out: &mut Vec<u8>, n: usize) {
    match n {
        0..=0xfc => out.push(n as u8),
        0xfd..=0xffff => {
            out.push(0xfd);
            out.extend_from_slice(&(n as u16).to_le_bytes());
        }
        _ => {
            out.push(0xfe);
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
    }
}

fn push_bytes(out: &mut Vec<u8>, b: &[u8]) {
    push_varint(out, b.len());
    out.extend_from_slice(b);
}

/// Whether `signature` (base64) is `address`'s over `message`: `Ok(())`, or why not.
pub fn verify(address: &str, message: &[u8], signature: &str) -> Result<(), BitcoinSignatureError> {
    let address = parse(address).map_err(E::Address)?;
    if signature.len() > MAX_SIGNATURE_LEN || message.len() > MAX_MESSAGE_LEN {
        return Err(E::TooLong);
    }
    use base64::Engine;
    let sig = base64::engine::general_purpose::STANDARD.decode(signature.trim()).map_err(|_| E::Malformed("not base64"))?;
    if sig.len() == 65 && (27..=42).contains(&sig[0]) {
        return legacy(&address.payee, message, &sig);
    }
    let witness = read_witness(&sig)?;
    bip322(&address.payee, &address.script(), message, &witness)
}

/// BIP-137: the recovered key's HASH160 must be the address's (P2PKH; compressed keys also for
/// P2WPKH and P2SH-P2WPKH, whatever the header says, as Electrum and most wallets sign).
fn legacy(payee: &Payee, message: &[u8], sig: &[u8]) -> Result<(), BitcoinSignatureError> {
    let mut data = Vec::with_capacity(message.len() + 32);
    push_bytes(&mut data, b"Bitcoin Signed Message:\n");
    push_bytes(&mut data, message);
    let hash = sha256d(&data);
    let header = sig[0] - 27;
    let compressed = header >= 4;
    let recid = RecoveryId::from_byte(header & 3).ok_or(E::Malformed("bad recovery id"))?;
    let signature = Signature::from_slice(&sig[1..]).map_err(|_| E::Malformed("bad r or s"))?;
    let key = VerifyingKey::recover_from_prehash(&hash, &signature, recid).map_err(|_| E::Mismatch)?;
    let point = key.to_sec1_point(compressed);
    let h = hash160(point.as_bytes());
    let ok = match payee {
        Payee::P2pkh(x) => *x == h,
        Payee::Witness { version: 0, program } if compressed => program.as_slice() == h,
        Payee::P2sh(x) if compressed => *x == hash160(&[&[0x00, 0x14][..], &h].concat()),
        Payee::Witness { .. } => return Err(E::Unsupported("a legacy signature for a taproot address")),
        _ => false,
    };
    ok.then_some(()).ok_or(E::Mismatch)
}

/// A serialized witness stack: its items (at most 8, each at most 520 bytes).
fn read_witness(b: &[u8]) -> Result<Vec<&[u8]>, BitcoinSignatureError> {
    let mut at = 0;
    let read_len = |at: &mut usize| -> Result<usize, BitcoinSignatureError> {
        let n = *b.get(*at).ok_or(E::Malformed("truncated witness"))? as usize;
        *at += 1;
        match n {
            0..=0xfc => Ok(n),
            0xfd => {
                let v = b.get(*at..*at + 2).ok_or(E::Malformed("truncated witness"))?;
                *at += 2;
                Ok(u16::from_le_bytes([v[0], v[1]]) as usize)
            }
            _ => Err(E::Malformed("a witness item too long")),
        }
    };
    let count = read_len(&mut at)?;
    if count == 0 || count > 8 {
        return Err(E::Malformed("a witness of 1 to 8 items"));
    }
    let mut items = Vec::with_capacity(count);
    for _ in 0..count {
        let len = read_len(&mut at)?;
        if len > 520 {
            return Err(E::Malformed("a witness item too long"));
        }
        items.push(b.get(at..at + len).ok_or(E::Malformed("truncated witness"))?);
        at += len;
    }
    if at != b.len() {
        return Err(E::Malformed("bytes after the witness"));
    }
    Ok(items)
}

/// The BIP-322 message hash.
pub fn message_hash(message: &[u8]) -> [u8; 32] {
    tagged("BIP0322-signed-message", &[message])
}

/// The id of BIP-322's `to_spend` transaction for `script` and `message`.
fn to_spend_txid(script: &[u8], message: &[u8]) -> [u8; 32] {
    let mut tx = Vec::with_capacity(128);
    tx.extend_from_slice(&0u32.to_le_bytes()); // version
    tx.push(1);
    tx.extend_from_slice(&[0; 32]);
    tx.extend_from_slice(&0xffff_ffffu32.to_le_bytes());
    push_bytes(&mut tx, &[&[0x00, 0x20][..], &message_hash(message)].concat());
    tx.extend_from_slice(&0u32.to_le_bytes()); // sequence
    tx.push(1);
    tx.extend_from_slice(&0u64.to_le_bytes());
    push_bytes(&mut tx, script);
    tx.extend_from_slice(&0u32.to_le_bytes()); // lock time
    sha256d(&tx)
}

/// `to_sign`'s one output: nothing, to OP_RETURN.
const OUTPUT: [u8; 10] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 0x6a];

fn bip322(payee: &Payee, script: &[u8], message: &[u8], witness: &[&[u8]]) -> Result<(), BitcoinSignatureError> {
    let prevout = [&to_spend_txid(script, message)[..], &[0, 0, 0, 0]].concat();
    match payee {
        Payee::Witness { version: 0, program } if program.len() == 20 => p2wpkh(&prevout, witness, |h| program.as_slice() == h),
        Payee::P2sh(x) => p2wpkh(&prevout, witness, |h| *x == hash160(&[&[0x00, 0x14][..], h].concat())),
        Payee::Witness { version: 1, program } if program.len() == 32 => taproot(&prevout, script, program, witness),
        Payee::P2pkh(_) => Err(E::Unsupported("BIP-322 for a P2PKH address (sign it the legacy way)")),
        _ => Err(E::Unsupported("BIP-322 for a script address (only single-key addresses are checked)")),
    }
}

/// A P2WPKH spend (also nested in P2SH): BIP-143's signature hash, ECDSA.
fn p2wpkh(prevout: &[u8], witness: &[&[u8]], key_pays: impl Fn(&[u8; 20]) -> bool) -> Result<(), BitcoinSignatureError> {
    let [sig, key] = witness else { return Err(E::Malformed("a P2WPKH witness is a signature and a key")) };
    let (&hash_type, der) = sig.split_last().ok_or(E::Malformed("an empty signature"))?;
    if hash_type != 0x01 {
        return Err(E::Unsupported("a signature hash type other than ALL"));
    }
    if key.len() != 33 || !key_pays(&hash160(key)) {
        return Err(E::Mismatch);
    }
    let mut pre = Vec::with_capacity(200);
    pre.extend_from_slice(&0u32.to_le_bytes());
    pre.extend_from_slice(&sha256d(prevout));
    pre.extend_from_slice(&sha256d(&0u32.to_le_bytes()));
    pre.extend_from_slice(prevout);
    pre.extend_from_slice(&[0x19, 0x76, 0xa9, 0x14]);
    pre.extend_from_slice(&hash160(key));
    pre.extend_from_slice(&[0x88, 0xac]);
    pre.extend_from_slice(&0u64.to_le_bytes());
    pre.extend_from_slice(&0u32.to_le_bytes());
    pre.extend_from_slice(&sha256d(&OUTPUT));
    pre.extend_from_slice(&0u32.to_le_bytes());
    pre.extend_from_slice(&1u32.to_le_bytes());
    let hash = sha256d(&pre);
    let signature = Signature::from_der(der).map_err(|_| E::Malformed("not a DER signature"))?;
    let signature = signature.normalize_s();
    let key = VerifyingKey::from_sec1_bytes(key).map_err(|_| E::Malformed("not a public key"))?;
    use k256::ecdsa::signature::hazmat::PrehashVerifier;
    key.verify_prehash(&hash, &signature).map_err(|_| E::Mismatch)
}

/// A taproot key-path spend: BIP-341's signature hash, BIP-340 Schnorr against the output key.
fn taproot(prevout: &[u8], script: &[u8], output_key: &[u8], witness: &[&[u8]]) -> Result<(), BitcoinSignatureError> {
    let [sig] = witness else { return Err(E::Unsupported("a taproot script-path spend")) };
    let hash_type = match sig.len() {
        64 => 0x00,
        65 if sig[64] == 0x01 => 0x01,
        65 => return Err(E::Unsupported("a signature hash type other than ALL")),
        _ => return Err(E::Malformed("a taproot signature is 64 or 65 bytes")),
    };
    let mut msg = Vec::with_capacity(200);
    msg.push(0x00); // epoch
    msg.push(hash_type);
    msg.extend_from_slice(&0u32.to_le_bytes());
    msg.extend_from_slice(&0u32.to_le_bytes());
    msg.extend_from_slice(&sha256(prevout));
    msg.extend_from_slice(&sha256(&0u64.to_le_bytes()));
    let mut scripts = Vec::with_capacity(40);
    push_bytes(&mut scripts, script);
    msg.extend_from_slice(&sha256(&scripts));
    msg.extend_from_slice(&sha256(&0u32.to_le_bytes()));
    msg.extend_from_slice(&sha256(&OUTPUT));
    msg.push(0x00); // spend type: key path, no annex
    msg.extend_from_slice(&0u32.to_le_bytes());
    let hash = tagged("TapSighash", &[&msg]);
    let key = k256::schnorr::VerifyingKey::from_bytes(output_key.try_into().map_err(|_| E::Mismatch)?).map_err(|_| E::Mismatch)?;
    let signature = k256::schnorr::Signature::try_from(&sig[..64]).map_err(|_| E::Malformed("bad Schnorr signature"))?;
    key.verify_raw(&hash, &signature).map_err(|_| E::Mismatch)
}
