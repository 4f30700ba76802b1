//! Sign-in with a Solana account (SIWS, CAIP-122): EIP-4361's lines with "Solana" in the first and
//! the CAIP-2 reference of the network as its chain id (a wallet's own `solana:signIn` text may
//! name it `mainnet`, `devnet`…: the same network), signed with `solana_signMessage` and checked
//! with ed25519.

use super::wallet::{caip_chain, is_key};
use crate::auth::siwx::Dialect;
use crate::chain::family::{SignIn, Verdict, WalletCall};
use crate::chain::signature::verify_solana_message;
use crate::service::json::{obj, Value};

pub struct Siws;

/// Sign-In With Solana.
pub const SIWS: Dialect = Dialect {
    chain: "Solana",
    address_ok: is_key,
    address_rule: "a base58 ed25519 public key",
    chain_ok: |c| network_of(c).is_some(),
    chain_rule: "a Solana network (its CAIP-2 reference, or mainnet, devnet, testnet, localnet)",
};

/// The CAIP-2 network a `Chain ID:` value names (`5eykt4…`, `mainnet`, `solana:devnet`).
fn network_of(chain: &str) -> Option<String> {
    if chain.len() > 48 {
        return None;
    }
    caip_chain(chain).or_else(|| caip_chain(&format!("solana:{chain}")))
}

/// A base58 signature of 64 bytes (at most 88 characters).
fn signature_bytes(s: &str) -> Option<Vec<u8>> {
    (s.len() <= 88).then(|| bs58::decode(s).into_vec().ok()).flatten().filter(|b| b.len() == 64)
}

impl SignIn for Siws {
    fn dialect(&self) -> &'static Dialect {
        &SIWS
    }

    fn chain_id(&self, caip_network_id: &str) -> Option<String> {
        caip_network_id.strip_prefix("solana:").filter(|r| network_of(r).is_some()).map(str::to_string)
    }

    fn same_chain(&self, chain_id: &str, caip_network_id: &str) -> bool {
        network_of(chain_id).as_deref() == Some(caip_network_id)
    }

    fn message_address(&self, address: &str) -> Option<String> {
        is_key(address).then(|| address.to_string())
    }

    fn sign_call(&self, message: &str, address: &str) -> WalletCall {
        let message = bs58::encode(message.as_bytes()).into_string();
        WalletCall::new("solana_signMessage", vec![obj(vec![("message", message.into()), ("pubkey", address.into())])])
    }

    fn signature(&self, answer: &Value) -> Option<String> {
        let s = answer.get("signature").and_then(Value::as_str)?;
        signature_bytes(s).map(|_| s.to_string())
    }

    fn signed_message(&self, answer: &Value) -> Option<String> {
        let text = answer.get("signedMessage").and_then(Value::as_str).filter(|t| t.len() <= 12_000)?;
        let bytes = bs58::decode(text).into_vec().ok()?;
        String::from_utf8(bytes).ok().filter(|m| m.len() <= crate::auth::slice::MESSAGE_MAX)
    }

    fn verify(&self, message: &str, address: &str, signature: &str) -> Verdict {
        match signature_bytes(signature) {
            Some(sig) if verify_solana_message(address, message.as_bytes(), &sig) => Verdict::Valid,
            _ => Verdict::Invalid,
        }
    }

    fn chain_says(&self, _answer: &Value) -> bool {
        false
    }
}

#[cfg(test)]
#[path = "sign_in_tests.rs"]
mod tests;
