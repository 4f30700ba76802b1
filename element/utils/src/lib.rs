//! wasm-bindgen bridge of the public `./core` utilities entry: thin wrappers over `wm_core`.
//!
//! Conventions (the TypeScript wrapper `element/ts/core.ts` builds the public API on top):
//! - rejected input throws a real `Error` carrying the core's message;
//! - big integers cross as decimal strings (the wrapper converts with `BigInt` / `toString`);
//! - structured results (CAIP ids, sign-in fields) cross as JSON text; sign-in fields come in as
//!   JSON text too (camelCase names, `chainId` a number).

use wasm_bindgen::prelude::*;
use wm_core::chain::error::UtilError;
use wm_core::account::name;
use wm_core::auth::siwx;
use wm_core::chain::{address, caip, format, hash, signature, units};

fn js_error(e: UtilError) -> js_sys::Error {
    js_sys::Error::new(&e.0)
}

/// A JavaScript number that must be a non-negative integer no larger than `max`.
fn whole_number(x: f64, max: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= max).then_some(x as u64)
}

fn decimals(x: f64) -> Result<u32, js_sys::Error> {
    whole_number(x, units::MAX_DECIMALS as f64)
        .map(|d| d as u32)
        .ok_or_else(|| {
            js_sys::Error::new(&format!(
                "Invalid decimals {x}: expected an integer from 0 to {}",
                units::MAX_DECIMALS
            ))
        })
}

#[wasm_bindgen(js_name = checksumAddress)]
pub fn checksum_address(addr: &str) -> Result<String, js_sys::Error> {
    address::checksum_address(addr).map_err(js_error)
}

#[wasm_bindgen(js_name = isEvmAddress)]
pub fn is_evm_address(addr: &str, strict: bool) -> bool {
    address::is_evm_address(addr, strict)
}

#[wasm_bindgen(js_name = isSolanaAddress)]
pub fn is_solana_address(addr: &str) -> bool {
    address::is_solana_address(addr)
}

/// Returns the integer as a decimal string.
#[wasm_bindgen(js_name = parseUnits)]
pub fn parse_units(value: &str, decimals_: f64) -> Result<String, js_sys::Error> {
    units::parse_units(value, decimals(decimals_)?).map_err(js_error)
}

/// Takes the integer as a decimal string.
#[wasm_bindgen(js_name = formatUnits)]
pub fn format_units(value: &str, decimals_: f64) -> Result<String, js_sys::Error> {
    units::format_units(value, decimals(decimals_)?).map_err(js_error)
}

#[wasm_bindgen(js_name = keccak256)]
pub fn keccak256(data: &[u8]) -> String {
    hash::keccak256_hex(data)
}

#[wasm_bindgen(js_name = hashMessage)]
pub fn hash_message(message: &str) -> String {
    hash::hash_message_hex(message)
}

#[wasm_bindgen(js_name = recoverMessageAddress)]
pub fn recover_message_address(message: &str, sig: &str) -> Result<String, js_sys::Error> {
    signature::recover_message_address(message, sig).map_err(js_error)
}

#[wasm_bindgen(js_name = verifyMessage)]
pub fn verify_message(addr: &str, message: &str, sig: &str) -> bool {
    signature::verify_message(addr, message, sig)
}

#[wasm_bindgen(js_name = verifySolanaMessage)]
pub fn verify_solana_message(public_key: &str, message: &[u8], sig: &[u8]) -> bool {
    signature::verify_solana_message(public_key, message, sig)
}

/// Whether `addr` is a Bitcoin address (of the network `caip_network_id` names, when not empty).
#[wasm_bindgen(js_name = isBitcoinAddress)]
pub fn is_bitcoin_address(addr: &str, caip_network_id: &str) -> bool {
    use wm_core::chain::bip122::{address::parse, net_of};
    parse(addr).is_ok_and(|a| caip_network_id.is_empty() || a.on(net_of(caip_network_id)))
}

#[wasm_bindgen(js_name = isPolkadotAddress)]
pub fn is_polkadot_address(addr: &str) -> bool {
    wm_core::chain::polkadot::ss58::is_address(addr)
}

/// `prefix` empty: of any chain.
#[wasm_bindgen(js_name = isCosmosAddress)]
pub fn is_cosmos_address(addr: &str, prefix: &str) -> bool {
    wm_core::chain::cosmos::is_address(addr, (!prefix.is_empty()).then_some(prefix))
}

/// `""` when `signature` (base64: BIP-322 simple or legacy) is `addr`'s over `message`, else why not.
#[wasm_bindgen(js_name = bitcoinMessageError)]
pub fn bitcoin_message_error(addr: &str, message: &[u8], sig: &str) -> String {
    wm_core::chain::bip122::message::verify(addr, message, sig).err().map(|e| e.to_string()).unwrap_or_default()
}

/// `""` when `signature` (0x hex) is `addr`'s over `message` (wrapped in `<Bytes>`), else why not.
#[wasm_bindgen(js_name = polkadotMessageError)]
pub fn polkadot_message_error(addr: &str, message: &[u8], sig: &str) -> String {
    wm_core::chain::polkadot::message::verify(addr, message, sig).err().map(|e| e.to_string()).unwrap_or_default()
}

/// `""` when the ADR-036 `signature` by `public_key` (both base64) is `signer`'s over `data`.
#[wasm_bindgen(js_name = cosmosMessageError)]
pub fn cosmos_message_error(signer: &str, data: &[u8], public_key: &str, sig: &str) -> String {
    wm_core::chain::cosmos::message::verify(signer, data, public_key, sig).err().map(|e| e.to_string()).unwrap_or_default()
}

/// Returns `{"chainNamespace", "chainId"}` as JSON text.
#[wasm_bindgen(js_name = parseCaipNetworkId)]
pub fn parse_caip_network_id(id: &str) -> Result<String, js_sys::Error> {
    let parsed = caip::parse_caip_network_id(id).map_err(js_error)?;
    Ok(serde_json::to_string(&parsed).expect("plain strings serialize"))
}

/// Returns `{"chainNamespace", "chainId", "address"}` as JSON text.
#[wasm_bindgen(js_name = parseCaipAddress)]
pub fn parse_caip_address(s: &str) -> Result<String, js_sys::Error> {
    let parsed = caip::parse_caip_address(s).map_err(js_error)?;
    Ok(serde_json::to_string(&parsed).expect("plain strings serialize"))
}

#[wasm_bindgen(js_name = isTransactionHash)]
pub fn is_transaction_hash(s: &str) -> bool {
    hash::is_transaction_hash(s)
}

#[wasm_bindgen(js_name = isSignedMessage)]
pub fn is_signed_message(s: &str) -> bool {
    hash::is_signed_message(s)
}

/// Takes the fields as JSON text.
#[wasm_bindgen(js_name = createSiwxMessage)]
pub fn create_siwx_message(fields_json: &str) -> Result<String, js_sys::Error> {
    let fields: siwx::SiwxMessageFields = serde_json::from_str(fields_json)
        .map_err(|e| js_sys::Error::new(&format!("Invalid SIWX message fields: {e}")))?;
    siwx::create_siwx_message(&fields).map_err(js_error)
}

/// Returns the fields as JSON text.
#[wasm_bindgen(js_name = parseSiwxMessage)]
pub fn parse_siwx_message(text: &str) -> Result<String, js_sys::Error> {
    let fields = siwx::parse_siwx_message(text).map_err(js_error)?;
    Ok(serde_json::to_string(&fields).expect("plain fields serialize"))
}

/// A dapp backend's check of a sign-in (SIWX): `{domain, message, signature, caipAddress, nonce?,
/// now?}` as JSON text. Returns JSON text: `{valid: true, expiresAt}`, or `{valid: false, error}`,
/// or for an EVM contract account `{valid: null, chainCall: {method, params}}` — post it to the
/// account's chain and pass the result to `sessionChainSaysValid`.
#[wasm_bindgen(js_name = verifySiwxSession)]
pub fn verify_siwx_session(input_json: &str) -> String {
    use wm_core::auth::slice::{verify_session, SessionCheck};
    let out = (|| -> Result<serde_json::Value, String> {
        if input_json.len() > 64 * 1024 {
            return Err("the input is larger than 64 KB".into());
        }
        let v: serde_json::Value = serde_json::from_str(input_json).map_err(|e| format!("invalid JSON: {e}"))?;
        let field = |k: &str| v.get(k).and_then(|x| x.as_str()).ok_or(format!("`{k}` must be a string"));
        let now = v.get("now").and_then(|n| n.as_u64()).unwrap_or_else(|| js_sys::Date::now() as u64);
        let nonce = v.get("nonce").and_then(|n| n.as_str());
        Ok(match verify_session(field("domain")?, now, field("caipAddress")?, field("message")?, field("signature")?, nonce)? {
            SessionCheck::Valid(s) => serde_json::json!({"valid": true, "expiresAt": s.expires_at}),
            SessionCheck::AskChain(s, call) => serde_json::json!({"valid": null, "expiresAt": s.expires_at,
                "chainCall": {"method": call.method, "params": serde_json::from_str::<serde_json::Value>(&call.params.to_string()).unwrap_or_default()}}),
        })
    })();
    match out {
        Ok(v) => v.to_string(),
        Err(e) => serde_json::json!({"valid": false, "error": e}).to_string(),
    }
}

/// Whether the account's chain answered that the signature is its own (`result` as JSON text).
#[wasm_bindgen(js_name = sessionChainSaysValid)]
pub fn session_chain_says_valid(caip_address: &str, result_json: &str) -> bool {
    let v = wm_core::service::json::parse(result_json).unwrap_or(wm_core::service::json::Value::Null);
    wm_core::auth::slice::chain_says_valid(caip_address, &v)
}

#[wasm_bindgen(js_name = validateAccountName)]
pub fn validate_account_name(s: &str) -> bool {
    name::validate_account_name(s)
}

/// Throws exactly `Invalid chainId` for anything but an integer from 0 to 2^31 - 1.
#[wasm_bindgen(js_name = nameCoinType)]
pub fn name_coin_type(chain_id: f64) -> Result<u32, js_sys::Error> {
    let id = whole_number(chain_id, u64::MAX as f64)
        .ok_or_else(|| js_sys::Error::new("Invalid chainId"))?;
    name::name_coin_type(id).map_err(js_error)
}

#[wasm_bindgen(js_name = formatNativeBalance)]
pub fn format_native_balance(value: &str) -> String {
    format::format_native_balance(value)
}

#[wasm_bindgen(js_name = truncateAddress)]
pub fn truncate_address(addr: &str) -> String {
    format::truncate_address(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bridge_whole_number_accepts_only_non_negative_integers_up_to_max() {
        assert_eq!(whole_number(0.0, 10.0), Some(0));
        assert_eq!(whole_number(10.0, 10.0), Some(10));
        assert_eq!(whole_number(11.0, 10.0), None);
        assert_eq!(whole_number(-1.0, 10.0), None);
        assert_eq!(whole_number(1.5, 10.0), None);
        assert_eq!(whole_number(f64::NAN, 10.0), None);
        assert_eq!(whole_number(f64::INFINITY, f64::INFINITY), None);
    }
}
