//! CAIP identifiers of the `./core` entry: CAIP-2 network ids (`namespace:reference`) and CAIP-10
//! account addresses (`namespace:reference:address`), restricted to the namespaces the product knows.

use crate::chain::error::quoted;
use crate::chain::error::UtilError;
use serde::{Deserialize, Serialize};

/// The chain namespaces the product supports: its chain families'.
pub use crate::chain::family::NAMESPACES as KNOWN_NAMESPACES;

/// Whether `ns` is one of [`KNOWN_NAMESPACES`].
pub fn is_known_namespace(ns: &str) -> bool {
    KNOWN_NAMESPACES.contains(&ns)
}

/// A parsed CAIP-2 network id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaipNetworkId {
    pub chain_namespace: String,
    pub chain_id: String,
}

/// A parsed CAIP-10 account address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaipAddress {
    pub chain_namespace: String,
    pub chain_id: String,
    pub address: String,
}

/// Splits `s` on `:` into exactly `n` non-empty parts whose first is a known namespace.
fn split_parts<'a>(s: &'a str, n: usize, what: &str) -> Result<Vec<&'a str>, UtilError> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() != n || parts.iter().any(|p| p.is_empty()) {
        return Err(UtilError(format!(
            "Invalid {what} {}: expected {n} non-empty ':'-separated parts",
            quoted(s)
        )));
    }
    if !is_known_namespace(parts[0]) {
        return Err(UtilError(format!(
            "Invalid {what} {}: unknown chain namespace {}",
            quoted(s),
            quoted(parts[0])
        )));
    }
    Ok(parts)
}

/// Parses a CAIP-2 network id (`namespace:reference`): exactly 2 non-empty parts, known namespace.
pub fn parse_caip_network_id(id: &str) -> Result<CaipNetworkId, UtilError> {
    let parts = split_parts(id, 2, "CAIP network id")?;
    Ok(CaipNetworkId {
        chain_namespace: parts[0].into(),
        chain_id: parts[1].into(),
    })
}

/// Parses a CAIP-10 address (`namespace:reference:address`): exactly 3 non-empty parts, known
/// namespace.
/// The address comes back exactly as given (no checksum or case change).
pub fn parse_caip_address(s: &str) -> Result<CaipAddress, UtilError> {
    let parts = split_parts(s, 3, "CAIP address")?;
    Ok(CaipAddress {
        chain_namespace: parts[0].into(),
        chain_id: parts[1].into(),
        address: parts[2].into(),
    })
}

#[cfg(test)]
#[path = "caip_tests.rs"]
mod tests;
