//! Unit tests of `caip`.

use super::*;
use proptest::prelude::*;

#[test]
fn caip_network_id_has_exactly_two_nonempty_parts_and_known_namespace() {
    let id = parse_caip_network_id("eip155:1").unwrap();
    assert_eq!(
        id,
        CaipNetworkId {
            chain_namespace: "eip155".into(),
            chain_id: "1".into()
        }
    );
    let sol = parse_caip_network_id("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").unwrap();
    assert_eq!(sol.chain_id, "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    for ns in KNOWN_NAMESPACES {
        assert!(parse_caip_network_id(&format!("{ns}:x")).is_ok());
    }
    for bad in [
        "",
        "eip155",
        "eip155:",
        ":1",
        "eip155:1:0xab",
        "foo:1",
        "EIP155:1",
        "eip155::1",
    ] {
        assert!(parse_caip_network_id(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn caip_address_has_exactly_three_nonempty_parts_and_keeps_address_verbatim() {
    let a = parse_caip_address("eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb").unwrap();
    assert_eq!(a.chain_namespace, "eip155");
    assert_eq!(a.chain_id, "1");
    assert_eq!(a.address, "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb");
    let lower =
        parse_caip_address("eip155:1:0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb").unwrap();
    assert_eq!(lower.address, "0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb");
    for bad in [
        "",
        "eip155:1",
        "eip155:1:",
        "eip155::0xab",
        ":1:0xab",
        "eip155:1:0xab:x",
        "unknown:1:0xab",
    ] {
        assert!(parse_caip_address(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn caip_serializes_with_camel_case_field_names() {
    let a = parse_caip_address("solana:abc:Addr").unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(
        json,
        r#"{"chainNamespace":"solana","chainId":"abc","address":"Addr"}"#
    );
}

proptest! {
    #[test]
    fn caip_parsers_never_panic(s in ".*") {
        let _ = parse_caip_network_id(&s);
        let _ = parse_caip_address(&s);
    }

    #[test]
    fn caip_address_roundtrips(ns in 0usize..5, chain in "[a-zA-Z0-9-]{1,32}", addr in "[a-zA-Z0-9]{1,64}") {
        let s = format!("{}:{chain}:{addr}", KNOWN_NAMESPACES[ns]);
        let a = parse_caip_address(&s).unwrap();
        prop_assert_eq!(format!("{}:{}:{}", a.chain_namespace, a.chain_id, a.address), s);
    }
}
