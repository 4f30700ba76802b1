//! The Send form on EVM chains: the receiver is a `0x` address whose EIP-55 checksum holds; the
//! native currency moves as the transaction's `value`, an ERC-20 token as a `transfer(address,
//! uint256)` call to its contract; the fee is `eth_estimateGas` × `eth_gasPrice`.

use crate::chain::address::is_evm_address;
use crate::chain::family::{Call, Transfers, WalletCall};
use crate::service::errors::WmError;
use crate::service::json::{obj, Value};

pub(super) struct Evm;

impl Transfers for Evm {
    fn check_receiver(&self, to: &str) -> Result<(), String> {
        if !is_evm_address(to, false) || !to.starts_with("0x") {
            return Err("The receiver address is not an address (0x and 40 hex digits)".into()); // i18n
        }
        if !is_evm_address(to, true) {
            return Err("The receiver address has a wrong checksum (EIP-55): check it, or paste it in lower case".into()); // i18n
        }
        Ok(())
    }

    fn transfer(&self, from: &str, to: &str, token: Option<&str>, value: &str) -> Result<Value, WmError> {
        Ok(match token {
            Some(contract) => obj(vec![("from", from.into()), ("to", contract.into()), ("data", erc20_transfer_data(to, value)?.into())]),
            None => {
                let hex = decimal_to_hex(value).ok_or_else(|| WmError::InvalidValue { value: value.to_string() })?;
                obj(vec![("from", from.into()), ("to", to.into()), ("value", format!("0x{hex}").into())])
            }
        })
    }

    fn receiver_hint(&self) -> &'static str {
        "0x…"
    }

    /// The spec's words (§ error texts).
    fn fee_failed(&self) -> &'static str {
        "error estimating gas"
    }

    fn fee_calls(&self, tx: &Value) -> Vec<Call> {
        vec![Call::Wallet(WalletCall::new("eth_estimateGas", vec![tx.clone()])), Call::Wallet(WalletCall::new("eth_gasPrice", Vec::new()))]
    }

    /// Gas × price (both hex quantities), in wei.
    fn fee(&self, _tx: &Value, answers: &[Value]) -> Option<String> {
        let [gas, price] = answers else { return None };
        let g = crate::account::balance::hex_quantity_to_decimal(gas.as_str().filter(|s| s.len() <= 80)?)?;
        let p = crate::account::balance::hex_quantity_to_decimal(price.as_str().filter(|s| s.len() <= 80)?)?;
        Some(multiply(&g, &p))
    }
}

/// Decimal integer string → lowercase hex without prefix (`"255"` → `"ff"`).
pub fn decimal_to_hex(dec: &str) -> Option<String> {
    if dec.is_empty() || !dec.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits: Vec<u32> = dec.bytes().map(|b| (b - b'0') as u32).collect();
    let mut out = Vec::new();
    while !(digits.is_empty() || digits.iter().all(|&d| d == 0)) {
        let mut rem = 0u32;
        let mut next = Vec::with_capacity(digits.len());
        for d in &digits {
            let cur = rem * 10 + d;
            let q = cur / 16;
            rem = cur % 16;
            if !(next.is_empty() && q == 0) {
                next.push(q);
            }
        }
        out.push(std::char::from_digit(rem, 16)?);
        digits = next;
    }
    if out.is_empty() {
        out.push('0');
    }
    Some(out.iter().rev().collect())
}

/// ERC-20 `transfer(address,uint256)` call data (`0xa9059cbb` ‖ address ‖ amount, 32 bytes each).
pub fn erc20_transfer_data(to: &str, value: &str) -> Result<String, WmError> {
    let addr = to.strip_prefix("0x").or_else(|| to.strip_prefix("0X")).unwrap_or(to);
    if addr.len() != 40 || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(WmError::InvalidAddress);
    }
    let hex = decimal_to_hex(value).ok_or_else(|| WmError::InvalidValue { value: value.to_string() })?;
    if hex.len() > 64 {
        return Err(WmError::InvalidValue { value: value.to_string() });
    }
    Ok(format!("0xa9059cbb{:0>64}{:0>64}", addr.to_ascii_lowercase(), hex))
}

/// The product of two decimal integers (gas × price), as a decimal integer.
pub(super) fn multiply(a: &str, b: &str) -> String {
    let a: Vec<u32> = a.bytes().rev().map(|d| (d - b'0') as u32).collect();
    let b: Vec<u32> = b.bytes().rev().map(|d| (d - b'0') as u32).collect();
    let mut out = vec![0u32; a.len() + b.len()];
    for (i, x) in a.iter().enumerate() {
        let mut carry = 0;
        for (j, y) in b.iter().enumerate() {
            let cur = out[i + j] + x * y + carry;
            out[i + j] = cur % 10;
            carry = cur / 10;
        }
        let mut k = i + b.len();
        while carry > 0 {
            let cur = out[k] + carry;
            out[k] = cur % 10;
            carry = cur / 10;
            k += 1;
        }
    }
    let s: String = out.iter().rev().map(|d| char::from(b'0' + *d as u8)).collect();
    let s = s.trim_start_matches('0');
    if s.is_empty() { "0".into() } else { s.into() }
}
