//! Sign-in with an EVM account: EIP-4361 messages signed with `personal_sign` (EIP-191), checked
//! by recovering the signer, or — for a contract account, whose signature is not a key's — by the
//! account itself on the chain (ERC-1271 `isValidSignature`).

use crate::auth::siwx::{Dialect, EIP4361};
use crate::chain::address::checksum_address;
use crate::chain::family::{Call, SignIn, Verdict, WalletCall};
use crate::chain::hash::{from_hex, hash_message, to_hex};
use crate::chain::signature::recover_message_address;
use crate::service::json::Value;

pub struct Evm;

/// ERC-1271's `isValidSignature(bytes32,bytes)` selector, which a valid signature's answer repeats.
const IS_VALID_SIGNATURE: &str = "1626ba7e";
/// The longest signature read (hex digits): a contract account's can be longer than a key's 65
/// bytes (a multisig's, a passkey's), not without bound.
const SIGNATURE_MAX_HEX: usize = 4096;

impl SignIn for Evm {
    fn dialect(&self) -> &'static Dialect {
        &EIP4361
    }

    fn chain_id(&self, caip_network_id: &str) -> Option<String> {
        let reference = caip_network_id.strip_prefix("eip155:")?;
        (!reference.is_empty() && reference.len() <= 16 && reference.bytes().all(|b| b.is_ascii_digit())).then(|| reference.to_string())
    }

    fn message_address(&self, address: &str) -> Option<String> {
        checksum_address(address).ok()
    }

    fn sign_call(&self, message: &str, address: &str) -> WalletCall {
        WalletCall::new("personal_sign", vec![to_hex(message.as_bytes()).into(), address.into()])
    }

    fn signature(&self, answer: &Value) -> Option<String> {
        let s = answer.as_str()?;
        let hex = s.strip_prefix("0x")?;
        (hex.len() >= 130 && hex.len() <= SIGNATURE_MAX_HEX && hex.len() % 2 == 0 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
    }

    fn verify(&self, message: &str, address: &str, signature: &str) -> Verdict {
        // A key's signature (65 bytes) that recovers to the address.
        if signature.len() == 132 && recover_message_address(message, signature).is_ok_and(|a| a.eq_ignore_ascii_case(address)) {
            return Verdict::Valid;
        }
        // Otherwise the account may be a contract: it says whether the signature is its own.
        let Ok(sig) = from_hex(signature) else { return Verdict::Invalid };
        let padded = sig.len().div_ceil(32) * 32;
        let mut data = format!("0x{IS_VALID_SIGNATURE}{}", &to_hex(&hash_message(message))[2..]);
        data.push_str(&format!("{:064x}{:064x}", 64, sig.len()));
        data.push_str(&to_hex(&sig)[2..]);
        data.push_str(&"00".repeat(padded - sig.len()));
        let call = crate::service::json::obj(vec![("to", address.into()), ("data", data.into())]);
        Verdict::AskChain(Call::Node(WalletCall::new("eth_call", vec![call, "latest".into()])))
    }

    fn chain_says(&self, answer: &Value) -> bool {
        // The answer is the selector left-aligned in a 32-byte word.
        answer.as_str().is_some_and(|r| r.len() == 66 && r[2..].starts_with(IS_VALID_SIGNATURE) && r[10..].bytes().all(|b| b == b'0'))
    }
}

#[cfg(test)]
#[path = "sign_in_tests.rs"]
mod tests;
