//! Unit tests of `switching`.

use super::*;

#[test]
fn same_namespace_with_an_address_switches_through_the_adapter() {
    assert_eq!(decide_switch(true, "eip155", "eip155", true, Some(ProviderKind::External)), SwitchDecision::AdapterSwitch);
    assert_eq!(decide_switch(true, "eip155", "eip155", true, Some(ProviderKind::WalletConnect)), SwitchDecision::AdapterSwitch);
}

#[test]
fn other_namespace_depends_on_the_provider_type() {
    assert_eq!(decide_switch(true, "eip155", "solana", true, Some(ProviderKind::Auth)), SwitchDecision::AuthSwitch);
    assert_eq!(decide_switch(true, "eip155", "solana", true, Some(ProviderKind::WalletConnect)), SwitchDecision::WalletConnectSwitch);
    assert_eq!(decide_switch(true, "eip155", "solana", true, Some(ProviderKind::External)), SwitchDecision::AddressSync);
    assert_eq!(decide_switch(true, "eip155", "solana", true, None), SwitchDecision::AddressSync);
}

#[test]
fn without_a_connection_only_the_active_network_changes() {
    assert_eq!(decide_switch(true, "eip155", "eip155", false, None), SwitchDecision::ActiveNetworkOnly);
}

#[test]
fn an_unconfigured_network_is_unsupported() {
    assert_eq!(decide_switch(false, "eip155", "eip155", true, Some(ProviderKind::External)), SwitchDecision::Unsupported);
}
