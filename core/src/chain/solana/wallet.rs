//! Connecting a Solana wallet. A wallet-standard wallet is reached through the shell's
//! `families/solana.ts`, which gives it a request interface: `standard:connect` (`{silent}`:
//! without a prompt, to reconnect) answers the addresses of its Solana accounts,
//! `wallet-modal:chain` the chain the shell selected for it (the standard has no current chain:
//! the first Solana chain of its account until the modal switches), `standard:disconnect` ends
//! the session. Chains come as the standard names them (`solana:mainnet`, `solana:devnet`,
//! `solana:testnet`, `solana:localnet`) or as CAIP-2 ids; both are read as CAIP-2.

use super::{DEVNET_REF, LOCALNET_REF, MAINNET_REF, NAMESPACE, TESTNET_REF};
use crate::chain::family::{Wallet, WalletCall};
use crate::service::json::{obj, Value};

/// At most this many accounts are read from a wallet.
pub const ACCOUNTS_MAX: usize = 32;

/// The standard's chain names and the CAIP-2 references they stand for. `localnet` is the local
/// SVM of `make demo` (demo/solana/rpc.mjs, whose genesis hash is fixed).
const NAMED: &[(&str, &str)] = &[("mainnet", MAINNET_REF), ("devnet", DEVNET_REF), ("testnet", TESTNET_REF), ("localnet", LOCALNET_REF)];

pub(super) struct Standard;

impl Wallet for Standard {
    fn accounts_call(&self, silent: bool) -> WalletCall {
        WalletCall::new("standard:connect", vec![obj(vec![("silent", silent.into())])])
    }

    fn chain_call(&self) -> WalletCall {
        WalletCall::new("wallet-modal:chain", Vec::new())
    }

    /// Non-empty, at most [`ACCOUNTS_MAX`], each a base58 32-byte key.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        let list = v.as_array()?;
        if list.is_empty() || list.len() > ACCOUNTS_MAX {
            return None;
        }
        // (A plain loop: a collected iterator of options costs the initial load ~0.4 KB.)
        let mut out = Vec::with_capacity(list.len());
        for a in list {
            out.push(a.as_str().filter(|s| is_key(s))?.to_string());
        }
        Some(out)
    }

    fn parse_chain(&self, v: &Value) -> Option<String> {
        caip_chain(v.as_str()?)
    }

    fn revoke_call(&self) -> Option<WalletCall> {
        Some(WalletCall::new("standard:disconnect", Vec::new()))
    }
}

/// Whether `s` is a base58 32-byte key: 32 to 44 characters of the alphabet, decoding to 32
/// bytes (a small decoder: the engine has no other use for base58).
pub fn is_key(s: &str) -> bool {
    const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    if !(32..=44).contains(&s.len()) {
        return false;
    }
    // Big-endian base-256 digits of the number, and the leading zero bytes ('1's).
    let mut bytes: Vec<u8> = Vec::with_capacity(33);
    for c in s.bytes() {
        let Some(mut carry) = ALPHABET.iter().position(|a| *a == c).map(|d| d as u32) else { return false };
        for b in bytes.iter_mut().rev() {
            carry += *b as u32 * 58;
            *b = carry as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.insert(0, carry as u8);
            carry >>= 8;
        }
    }
    let zeros = s.bytes().take_while(|c| *c == b'1').count();
    zeros + bytes.len() == 32
}

/// A chain as a wallet names it (`solana:devnet`, or a CAIP-2 id) as a CAIP-2 id.
pub fn caip_chain(chain: &str) -> Option<String> {
    let reference = chain.strip_prefix("solana:")?;
    if let Some((_, r)) = NAMED.iter().find(|(name, _)| *name == reference) {
        return Some(format!("{NAMESPACE}:{r}"));
    }
    // A CAIP-2 reference: the genesis hash's first 32 base58 characters.
    (reference.len() == 32 && reference.bytes().all(|b| b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l'))).then(|| chain.to_string())
}

/// The name a wallet-standard wallet gives a network (CAIP-2), where it has one.
pub fn standard_chain(caip_network_id: &str) -> String {
    let reference = caip_network_id.strip_prefix("solana:").unwrap_or(caip_network_id);
    match NAMED.iter().find(|(_, r)| *r == reference) {
        Some((name, _)) => format!("{NAMESPACE}:{name}"),
        None => caip_network_id.to_string(),
    }
}
