//! Namespaces: what the dapp proposes and what the wallet settles.
//!
//! A proposal namespace (`{chains, methods, events}`) is keyed by a CAIP-2 namespace or by a
//! chain id (`namespace:reference`). [`optional_namespaces_for`] builds them from the configured
//! chains with the default methods and events of each family. A settled namespace lists CAIP-10
//! accounts; [`validate_settled`] refuses accounts that are malformed or whose chain was not
//! proposed.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::rpc::{codes, SdkError};

/// A proposed namespace.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ProposalNamespace {
    /// CAIP-2 chain ids (may be absent when the key is itself a chain id).
    #[serde(default)]
    pub chains: Vec<String>,
    /// JSON-RPC methods.
    #[serde(default)]
    pub methods: Vec<String>,
    /// Events.
    #[serde(default)]
    pub events: Vec<String>,
}

/// A settled namespace.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SessionNamespace {
    /// Chains, optional on the wire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains: Option<Vec<String>>,
    /// CAIP-10 accounts.
    pub accounts: Vec<String>,
    /// Allowed methods.
    #[serde(default)]
    pub methods: Vec<String>,
    /// Allowed events.
    #[serde(default)]
    pub events: Vec<String>,
}

/// Proposal namespaces by key.
pub type ProposalNamespaces = BTreeMap<String, ProposalNamespace>;
/// Settled namespaces by key.
pub type SessionNamespaces = BTreeMap<String, SessionNamespace>;

/// Default methods of a chain family (its WalletConnect capability's).
pub fn default_methods(namespace: &str) -> &'static [&'static str] {
    crate::chain::family::walletconnect(namespace).map(|w| w.methods()).unwrap_or(&[])
}

/// Default events of a chain family.
pub fn default_events(namespace: &str) -> &'static [&'static str] {
    crate::chain::family::walletconnect(namespace).map(|w| w.events()).unwrap_or(&["chainChanged", "accountsChanged"])
}

fn is_namespace(s: &str) -> bool {
    (3..=8).contains(&s.len())
        && s.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
}

fn is_reference(s: &str) -> bool {
    (1..=32).contains(&s.len())
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// A CAIP-2 chain id `namespace:reference`.
pub fn is_chain_id(s: &str) -> bool {
    matches!(s.split_once(':'), Some((ns, r)) if is_namespace(ns) && is_reference(r))
}

/// Splits a CAIP-10 account `namespace:reference:address` into (chain id, address).
pub fn parse_account(s: &str) -> Option<(&str, &str)> {
    let (chain, address) = s.rsplit_once(':')?;
    if !is_chain_id(chain)
        || address.is_empty()
        || address.len() > 128
        || !address
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-.%".contains(&c))
    {
        return None;
    }
    Some((chain, address))
}

/// The namespace part of a key (the namespace itself, or a chain id's first part).
pub fn namespace_of(key: &str) -> &str {
    key.split(':').next().unwrap_or(key)
}

/// Optional namespaces for configured chains (CAIP-2 ids), with each family's default methods
/// and events. Duplicates are dropped; an invalid chain id is an error.
pub fn optional_namespaces_for<S: AsRef<str>>(chains: &[S]) -> Result<ProposalNamespaces, String> {
    let mut out = ProposalNamespaces::new();
    for chain in chains {
        let chain = chain.as_ref();
        if !is_chain_id(chain) {
            return Err(format!("invalid chain id {chain:?}"));
        }
        let ns = namespace_of(chain);
        let entry = out
            .entry(ns.to_string())
            .or_insert_with(|| ProposalNamespace {
                chains: Vec::new(),
                methods: default_methods(ns).iter().map(|m| m.to_string()).collect(),
                events: default_events(ns).iter().map(|e| e.to_string()).collect(),
            });
        if !entry.chains.iter().any(|c| c == chain) {
            entry.chains.push(chain.to_string());
        }
    }
    Ok(out)
}

/// Checks proposal namespaces before sending them: keys are namespaces or chain ids, chains are
/// valid CAIP-2 ids of the key's namespace, and a namespace key lists at least one chain.
pub fn validate_proposal(namespaces: &ProposalNamespaces) -> Result<(), &'static str> {
    for (key, ns) in namespaces {
        let keyed_by_chain = key.contains(':');
        if keyed_by_chain {
            if !is_chain_id(key) {
                return Err("namespace key is not a chain id");
            }
        } else {
            if !is_namespace(key) {
                return Err("invalid namespace key");
            }
            if ns.chains.is_empty() {
                return Err("namespace without chains");
            }
        }
        if ns
            .chains
            .iter()
            .any(|c| !is_chain_id(c) || namespace_of(c) != namespace_of(key))
        {
            return Err("invalid chain in namespace");
        }
    }
    Ok(())
}

/// Every chain named by proposal namespaces (keys that are chain ids and listed chains).
pub fn proposed_chains<'a>(
    sets: impl IntoIterator<Item = &'a ProposalNamespaces>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for set in sets {
        for (key, ns) in set {
            if key.contains(':') {
                out.insert(key.clone());
            }
            out.extend(ns.chains.iter().cloned());
        }
    }
    out
}

/// Validates namespaces settled (or updated) by the wallet against the proposed chains:
/// at least one account; every key a proposed namespace (5104); every account well-formed
/// CAIP-10 belonging to its key (5103); every account chain and listed chain proposed (5100).
pub fn validate_settled(
    namespaces: &SessionNamespaces,
    proposed: &BTreeSet<String>,
) -> Result<(), SdkError> {
    let proposed_ns: BTreeSet<&str> = proposed.iter().map(|c| namespace_of(c)).collect();
    if namespaces.is_empty() || namespaces.values().all(|n| n.accounts.is_empty()) {
        return Err(codes::UNSUPPORTED_ACCOUNTS);
    }
    for (key, ns) in namespaces {
        let keyed_by_chain = key.contains(':');
        if (keyed_by_chain && !is_chain_id(key)) || (!keyed_by_chain && !is_namespace(key)) {
            return Err(codes::UNSUPPORTED_NAMESPACE_KEY);
        }
        if !proposed_ns.contains(namespace_of(key)) {
            return Err(codes::UNSUPPORTED_NAMESPACE_KEY);
        }
        for account in &ns.accounts {
            let (chain, _) = parse_account(account).ok_or(codes::UNSUPPORTED_ACCOUNTS)?;
            if namespace_of(chain) != namespace_of(key) || (keyed_by_chain && chain != key) {
                return Err(codes::UNSUPPORTED_ACCOUNTS);
            }
            if !proposed.contains(chain) {
                return Err(codes::UNSUPPORTED_CHAINS);
            }
        }
        for chain in ns.chains.iter().flatten() {
            if !is_chain_id(chain)
                || namespace_of(chain) != namespace_of(key)
                || !proposed.contains(chain)
            {
                return Err(codes::UNSUPPORTED_CHAINS);
            }
        }
        if ns
            .methods
            .iter()
            .chain(&ns.events)
            .any(|s| s.is_empty() || s.len() > 256)
        {
            return Err(codes::UNSUPPORTED_METHODS);
        }
    }
    Ok(())
}

/// Chains of settled namespaces: listed chains, chain-id keys and account chains.
pub fn session_chains(namespaces: &SessionNamespaces) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (key, ns) in namespaces {
        if key.contains(':') {
            out.insert(key.clone());
        }
        out.extend(ns.chains.iter().flatten().cloned());
        out.extend(
            ns.accounts
                .iter()
                .filter_map(|a| parse_account(a))
                .map(|(c, _)| c.to_string()),
        );
    }
    out
}

/// The settled namespaces that cover `chain` (a chain-id key equal to it or a namespace key of
/// its family that lists it among chains or accounts).
pub fn namespaces_for_chain<'a>(
    namespaces: &'a SessionNamespaces,
    chain: &'a str,
) -> impl Iterator<Item = &'a SessionNamespace> + 'a {
    namespaces.iter().filter_map(move |(key, ns)| {
        let covers = if key.contains(':') {
            key == chain
        } else {
            key == namespace_of(chain)
                && (ns.chains.iter().flatten().any(|c| c == chain)
                    || ns
                        .accounts
                        .iter()
                        .filter_map(|a| parse_account(a))
                        .any(|(c, _)| c == chain))
        };
        covers.then_some(ns)
    })
}

#[cfg(test)]
#[path = "namespaces_tests.rs"]
mod tests;
