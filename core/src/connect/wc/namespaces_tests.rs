//! Unit tests of `namespaces`.

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
