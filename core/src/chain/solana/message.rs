//! Solana transactions as the network reads them (legacy messages): the accounts an instruction
//! touches, merged and ordered (writable signers, read-only signers, writable, read-only), a
//! recent blockhash, and the instructions by account index; program-derived addresses
//! (associated token accounts). Bytes to and from the shell travel in base64.

use curve25519_dalek::edwards::CompressedEdwardsY;
use sha2::{Digest, Sha256};

/// An account an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    pub key: [u8; 32],
    pub signer: bool,
    pub writable: bool,
}

impl Meta {
    pub fn signer(key: [u8; 32]) -> Meta {
        Meta { key, signer: true, writable: true }
    }
    pub fn writable(key: [u8; 32]) -> Meta {
        Meta { key, signer: false, writable: true }
    }
    pub fn readonly(key: [u8; 32]) -> Meta {
        Meta { key, signer: false, writable: false }
    }
}

/// One instruction: a program, the accounts it is given, its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub program: [u8; 32],
    pub accounts: Vec<Meta>,
    pub data: Vec<u8>,
}

/// The legacy message of `instructions`, paid (and signed) by `payer`.
pub fn message(payer: [u8; 32], instructions: &[Instruction], blockhash: [u8; 32]) -> Vec<u8> {
    let mut keys = vec![Meta::signer(payer)];
    let mut add = |m: Meta| match keys.iter_mut().find(|k| k.key == m.key) {
        Some(k) => {
            k.signer |= m.signer;
            k.writable |= m.writable;
        }
        None => keys.push(m),
    };
    for ix in instructions {
        ix.accounts.iter().for_each(|a| add(*a));
        add(Meta::readonly(ix.program));
    }
    // Stable: the payer stays first of the writable signers.
    keys.sort_by_key(|m| match (m.signer, m.writable) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    });
    let count = |f: fn(&Meta) -> bool| keys.iter().filter(|m| f(m)).count() as u8;
    let mut out = vec![count(|m| m.signer), count(|m| m.signer && !m.writable), count(|m| !m.signer && !m.writable)];
    compact(&mut out, keys.len());
    keys.iter().for_each(|m| out.extend_from_slice(&m.key));
    out.extend_from_slice(&blockhash);
    compact(&mut out, instructions.len());
    let index = |key: &[u8; 32]| keys.iter().position(|m| &m.key == key).expect("every key was added") as u8;
    for ix in instructions {
        out.push(index(&ix.program));
        compact(&mut out, ix.accounts.len());
        ix.accounts.iter().for_each(|a| out.push(index(&a.key)));
        compact(&mut out, ix.data.len());
        out.extend_from_slice(&ix.data);
    }
    out
}

/// The transaction of a message, its signatures left empty for the wallet (the message's first
/// header byte is how many it needs).
pub fn unsigned_transaction(message: &[u8]) -> Vec<u8> {
    let signers = message.first().copied().unwrap_or(0) as usize;
    let mut out = Vec::with_capacity(1 + 64 * signers + message.len());
    compact(&mut out, signers);
    out.resize(out.len() + 64 * signers, 0);
    out.extend_from_slice(message);
    out
}

/// Solana's compact-u16 length.
fn compact(out: &mut Vec<u8>, n: usize) {
    let mut n = n as u16;
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The program-derived address of `seeds` under `program` (the highest bump whose hash is off the
/// ed25519 curve, as the runtime finds it).
pub fn find_program_address(seeds: &[&[u8]], program: &[u8; 32]) -> Option<[u8; 32]> {
    (0..=255u8).rev().find_map(|bump| {
        let mut h = Sha256::new();
        seeds.iter().for_each(|s| h.update(s));
        h.update([bump]);
        h.update(program);
        h.update(b"ProgramDerivedAddress");
        let out: [u8; 32] = h.finalize().into();
        CompressedEdwardsY(out).decompress().is_none().then_some(out)
    })
}

/// Whether a key is a point of the curve (a wallet's key can be; a program address cannot).
pub fn on_curve(key: &[u8; 32]) -> bool {
    CompressedEdwardsY(*key).decompress().is_some()
}

pub use crate::chain::base64::{from_base64, to_base64};
