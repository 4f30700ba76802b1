//! Namespaces: what the dapp proposes and what the wallet settles.
//!
//! A proposal namespace (`{chains, methods, events}`) is keyed by a CAIP-2 namespace (`eip155`)
//! or by a chain id (`eip155:1`). [`optional_namespaces_for`] builds them from the configured
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

/// Default EVM methods.
pub const EIP155_METHODS: &[&str] = &[
    "eth_accounts",
    "eth_requestAccounts",
    "eth_sendRawTransaction",
    "eth_sign",
    "eth_signTransaction",
    "eth_signTypedData",
    "eth_signTypedData_v3",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "personal_sign",
    "wallet_switchEthereumChain",
    "wallet_addEthereumChain",
    "wallet_getPermissions",
    "wallet_requestPermissions",
    "wallet_watchAsset",
    "wallet_getCapabilities",
    "wallet_sendCalls",
    "wallet_getCallsStatus",
    "wallet_showCallsStatus",
];
/// Default Solana methods.
pub const SOLANA_METHODS: &[&str] = &[
    "solana_signMessage",
    "solana_signTransaction",
    "solana_signAndSendTransaction",
    "solana_signAllTransactions",
    "solana_requestAccounts",
    "solana_getAccounts",
];
/// Default Bitcoin methods.
pub const BIP122_METHODS: &[&str] = &[
    "sendTransfer",
    "signMessage",
    "signPsbt",
    "getAccountAddresses",
];
/// Default Polkadot methods.
pub const POLKADOT_METHODS: &[&str] = &["polkadot_signTransaction", "polkadot_signMessage"];
/// Default Cosmos methods.
pub const COSMOS_METHODS: &[&str] = &[
    "cosmos_getAccounts",
    "cosmos_signDirect",
    "cosmos_signAmino",
];
/// Default events of every namespace.
pub const DEFAULT_EVENTS: &[&str] = &["chainChanged", "accountsChanged"];

/// Default methods of a chain family.
pub fn default_methods(namespace: &str) -> &'static [&'static str] {
    match namespace {
        "eip155" => EIP155_METHODS,
        "solana" => SOLANA_METHODS,
        "bip122" => BIP122_METHODS,
        "polkadot" => POLKADOT_METHODS,
        "cosmos" => COSMOS_METHODS,
        _ => &[],
    }
}

/// Default events of a chain family.
pub fn default_events(namespace: &str) -> &'static [&'static str] {
    match namespace {
        "bip122" => &["bip122_addressesChanged"],
        _ => DEFAULT_EVENTS,
    }
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

/// The namespace part of a key (`eip155` of `eip155` or `eip155:1`).
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
mod tests {
    use super::*;

    fn settled(accounts: &[&str]) -> SessionNamespaces {
        let mut m = SessionNamespaces::new();
        for a in accounts {
            let ns = namespace_of(a).to_string();
            m.entry(ns).or_default().accounts.push(a.to_string());
        }
        m
    }

    #[test]
    fn optional_namespaces_group_configured_chains_with_default_methods() {
        let ns = optional_namespaces_for(&[
            "eip155:1",
            "eip155:137",
            "eip155:1",
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        ])
        .unwrap();
        assert_eq!(ns["eip155"].chains, vec!["eip155:1", "eip155:137"]);
        for m in [
            "eth_sendTransaction",
            "personal_sign",
            "eth_signTypedData_v4",
            "wallet_switchEthereumChain",
            "wallet_addEthereumChain",
        ] {
            assert!(ns["eip155"].methods.iter().any(|x| x == m), "{m}");
        }
        for m in [
            "solana_signMessage",
            "solana_signTransaction",
            "solana_signAndSendTransaction",
        ] {
            assert!(ns["solana"].methods.iter().any(|x| x == m), "{m}");
        }
        assert_eq!(ns["solana"].events, vec!["chainChanged", "accountsChanged"]);
        assert!(validate_proposal(&ns).is_ok());
        assert!(optional_namespaces_for(&["eip155"]).is_err());
        assert!(optional_namespaces_for(&["EIP155:1"]).is_err());
    }

    #[test]
    fn caip_identifiers_are_checked() {
        assert!(is_chain_id("eip155:1"));
        assert!(is_chain_id("bip122:000000000019d6689c085ae165831e93"));
        assert!(!is_chain_id("eip155"));
        assert!(!is_chain_id("e:1"));
        assert!(!is_chain_id("eip155:"));
        assert!(!is_chain_id("eip155:1:2"));
        assert_eq!(
            parse_account("eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"),
            Some(("eip155:1", "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"))
        );
        assert_eq!(parse_account("eip155:1"), None);
        assert_eq!(parse_account("eip155:1:"), None);
        assert_eq!(parse_account("eip155:1:0x12 34"), None);
        assert_eq!(parse_account("eip155::0x12"), None);
    }

    #[test]
    fn settled_accounts_must_be_on_proposed_chains() {
        let proposed = proposed_chains([&optional_namespaces_for(&[
            "eip155:1",
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        ])
        .unwrap()]);
        assert_eq!(
            validate_settled(
                &settled(&["eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"]),
                &proposed
            ),
            Ok(())
        );
        assert_eq!(
            validate_settled(
                &settled(&["eip155:10:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"]),
                &proposed
            ),
            Err(codes::UNSUPPORTED_CHAINS)
        );
        assert_eq!(
            validate_settled(&settled(&["eip155:1:0x zz"]), &proposed),
            Err(codes::UNSUPPORTED_ACCOUNTS)
        );
        assert_eq!(
            validate_settled(&settled(&["cosmos:cosmoshub-4:cosmos1abc"]), &proposed),
            Err(codes::UNSUPPORTED_NAMESPACE_KEY)
        );
        assert_eq!(
            validate_settled(&SessionNamespaces::new(), &proposed),
            Err(codes::UNSUPPORTED_ACCOUNTS)
        );
        // Account filed under the wrong namespace key.
        let mut wrong = SessionNamespaces::new();
        wrong.insert(
            "eip155".into(),
            SessionNamespace {
                accounts: vec!["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:abc".into()],
                ..Default::default()
            },
        );
        assert_eq!(
            validate_settled(&wrong, &proposed),
            Err(codes::UNSUPPORTED_ACCOUNTS)
        );
        // Listed chains must be proposed too.
        let mut chains = settled(&["eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"]);
        chains.get_mut("eip155").unwrap().chains =
            Some(vec!["eip155:1".into(), "eip155:56".into()]);
        assert_eq!(
            validate_settled(&chains, &proposed),
            Err(codes::UNSUPPORTED_CHAINS)
        );
        // Chain-id keys hold accounts of that chain only.
        let mut keyed = SessionNamespaces::new();
        keyed.insert(
            "eip155:1".into(),
            SessionNamespace {
                accounts: vec!["eip155:1:0xab".into()],
                ..Default::default()
            },
        );
        assert_eq!(validate_settled(&keyed, &proposed), Ok(()));
        keyed
            .get_mut("eip155:1")
            .unwrap()
            .accounts
            .push("eip155:5:0xab".into());
        assert_eq!(
            validate_settled(&keyed, &proposed),
            Err(codes::UNSUPPORTED_ACCOUNTS)
        );
    }

    #[test]
    fn chains_of_a_session_and_their_namespaces() {
        let mut ns = settled(&["eip155:1:0xab", "eip155:137:0xab"]);
        ns.get_mut("eip155").unwrap().methods = vec!["personal_sign".into()];
        assert_eq!(
            session_chains(&ns).into_iter().collect::<Vec<_>>(),
            vec!["eip155:1", "eip155:137"]
        );
        assert_eq!(namespaces_for_chain(&ns, "eip155:137").count(), 1);
        assert_eq!(namespaces_for_chain(&ns, "eip155:10").count(), 0);
    }
}
