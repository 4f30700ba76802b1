//! Network switching decisions (spec 4, "Network switching"): what happens when the visitor picks
//! a network, given where they are connected and through which kind of provider.

use serde::Serialize;

/// The kind of provider holding the connection in the target namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderKind {
    /// The embedded wallet reached through the secure frame (email / social login).
    Auth,
    WalletConnect,
    /// An injected or other external wallet.
    External,
}

/// What to do for a switch request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SwitchDecision {
    /// Same namespace with an address: the namespace's adapter asks the wallet to switch.
    AdapterSwitch,
    /// Another namespace, embedded wallet: the frame switches network (and may return an address).
    AuthSwitch,
    /// Another namespace, WalletConnect: the session's account on that chain becomes active.
    WalletConnectSwitch,
    /// Another namespace, any other provider: only the active network and address are synced.
    AddressSync,
    /// Not connected anywhere: only the active network changes.
    ActiveNetworkOnly,
    /// The network is not configured: the unsupported-chain state.
    Unsupported,
}

/// Decides how to switch to a network of `target_namespace`.
/// `active_namespace` is the namespace of the active network; `connected_in_target` tells whether an
/// address is connected in the target namespace, and `provider` which provider holds it.
pub fn decide_switch(
    configured: bool,
    active_namespace: &str,
    target_namespace: &str,
    connected_in_target: bool,
    provider: Option<ProviderKind>,
) -> SwitchDecision {
    if !configured {
        return SwitchDecision::Unsupported;
    }
    if !connected_in_target {
        return SwitchDecision::ActiveNetworkOnly;
    }
    if active_namespace == target_namespace {
        return SwitchDecision::AdapterSwitch;
    }
    match provider {
        Some(ProviderKind::Auth) => SwitchDecision::AuthSwitch,
        Some(ProviderKind::WalletConnect) => SwitchDecision::WalletConnectSwitch,
        _ => SwitchDecision::AddressSync,
    }
}

#[cfg(test)]
#[path = "switching_tests.rs"]
mod tests;
