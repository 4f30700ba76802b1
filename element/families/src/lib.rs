//! The rules of the chain families whose shell files load lazily (`element/ts/families/bip122.ts`,
//! `polkadot.ts`, `cosmos.ts`), loaded with them: what a wallet answers is checked here, by the
//! family's [`AccountRules`] in `core/src/chain/<namespace>/`, before the engine hears of it (the
//! engine links only their shape check, `family::Checked`, and stays small).

use wasm_bindgen::prelude::*;
use wm_core::chain::family::AccountRules;
use wm_core::chain::{bip122, cosmos, polkadot};
use wm_core::service::json::{parse, Value};

fn rules(namespace: &str) -> Result<&'static dyn AccountRules, JsError> {
    match namespace {
        bip122::NAMESPACE => Ok(bip122::RULES),
        polkadot::NAMESPACE => Ok(polkadot::RULES),
        cosmos::NAMESPACE => Ok(cosmos::RULES),
        _ => Err(JsError::new("No rules for this namespace")),
    }
}

/// The accounts a wallet answered (JSON, at most 64 KB), as the family has them on `chain`
/// (CAIP-2): checked, written for the network; throws why not.
#[wasm_bindgen(js_name = accountsOn)]
pub fn accounts_on(namespace: &str, answer: &str, chain: &str) -> Result<Vec<String>, JsError> {
    let w = rules(namespace)?;
    if answer.len() > 64 * 1024 {
        return Err(JsError::new("The wallet's answer is too long"));
    }
    let v = parse(answer).map_err(|_| JsError::new("The wallet's answer is not JSON"))?;
    let accounts = w.parse_accounts(&v).ok_or_else(|| JsError::new("The wallet answered no valid address of this chain family"))?;
    w.on_network(accounts, chain).ok_or_else(|| JsError::new("The wallet answered an address of another network"))
}

/// The network a wallet names (`Testnet`, `bitcoin:mainnet`, a CAIP-2 id) as CAIP-2; throws
/// when it is none of the family's.
#[wasm_bindgen(js_name = chainOf)]
pub fn chain_of(namespace: &str, name: &str) -> Result<String, JsError> {
    rules(namespace)?.parse_chain(&Value::String(name.chars().take(80).collect())).ok_or_else(|| JsError::new("The wallet is on a network this page does not know"))
}

/// The name sats-connect's `wallet_changeNetwork` takes for a network (CAIP-2): `Mainnet`,
/// `Testnet`, …; empty without one.
#[wasm_bindgen(js_name = bitcoinNetworkName)]
pub fn bitcoin_network_name(caip_network_id: &str) -> String {
    bip122::wallet::sats_network_name(caip_network_id).unwrap_or_default()
}

/// Whether a parent origin may be a Safe whose app this page is (`eip155::safe`, spec §6).
#[wasm_bindgen(js_name = safeAncestorAllowed)]
pub fn safe_ancestor_allowed(origin: &str) -> bool {
    wm_core::chain::eip155::safe::ancestor_allowed(origin)
}

/// The Safe a `getSafeInfo` answer (JSON, at most 64 KB) names: `[address, hexChainId]`;
/// throws why not.
#[wasm_bindgen(js_name = safeAccount)]
pub fn safe_account(answer: &str) -> Result<Vec<String>, JsError> {
    if answer.len() > 64 * 1024 {
        return Err(JsError::new("The Safe's answer is too long"));
    }
    let v = parse(answer).map_err(|_| JsError::new("The Safe's answer is not JSON"))?;
    let (address, chain) = wm_core::chain::eip155::safe::safe_account(&v).map_err(JsError::new)?;
    Ok(vec![address, chain])
}
