//! Smart accounts (spec sections 3, 4, 5, 6): deployment is tracked as a boolean; switching to a
//! smart account is allowed only when smart accounts are enabled on the network and the current
//! account type is EOA. The enabled networks come from the embedded frame
//! (GET_SMART_ACCOUNT_ENABLED_NETWORKS → `{"smartAccountEnabledNetworks": [1, 137, …]}`).

use serde_json::Value;

use crate::service::entities::{AccountType, ChainNamespace, Network};

/// Switching is allowed only when smart accounts are enabled on the network and the current type
/// is EOA.
pub fn can_switch_to_smart_account(enabled_on_network: bool, current: AccountType) -> bool {
    enabled_on_network && current == AccountType::Eoa
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SmartAccountState {
    /// Whether the smart account contract is deployed.
    pub deployed: bool,
    /// EIP-155 chain ids where smart accounts are enabled.
    pub enabled_networks: Vec<u64>,
}

impl SmartAccountState {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn set_deployed(&mut self, deployed: bool) {
        self.deployed = deployed;
    }

    /// Read the frame's enabled-networks payload (`smartAccountEnabledNetworks` numbers, or numeric
    /// strings); ignores anything else.
    pub fn set_enabled_networks_from_payload(&mut self, payload: &Value) {
        let list = payload.get("smartAccountEnabledNetworks").and_then(Value::as_array);
        self.enabled_networks = list
            .map(|a| {
                a.iter()
                    .filter_map(|v| match v {
                        Value::Number(n) => n.as_u64(),
                        Value::String(s) => crate::service::entities::ChainRef::String(s.clone()).as_u64(),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
    }

    /// Smart accounts are enabled on this network (EVM only).
    pub fn is_enabled_on(&self, network: &Network) -> bool {
        network.chain_namespace == ChainNamespace::Eip155
            && network.id.as_u64().is_some_and(|id| self.enabled_networks.contains(&id))
    }

    /// Whether the "switch to smart account" action is allowed.
    pub fn can_switch(&self, network: &Network, current: AccountType) -> bool {
        can_switch_to_smart_account(self.is_enabled_on(network), current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn net(id: &str) -> Network {
        crate::chain::networks::find_network(&crate::chain::networks::builtin_networks(), id).unwrap().clone()
    }

    #[test]
    fn smart_account_switching_only_when_enabled_and_current_is_eoa() {
        assert!(can_switch_to_smart_account(true, AccountType::Eoa));
        assert!(!can_switch_to_smart_account(false, AccountType::Eoa));
        assert!(!can_switch_to_smart_account(true, AccountType::SmartAccount));
        assert!(!can_switch_to_smart_account(true, AccountType::Payment));
    }

    #[test]
    fn enabled_networks_from_frame_payload() {
        let mut s = SmartAccountState::new();
        s.set_enabled_networks_from_payload(&json!({"smartAccountEnabledNetworks": [1, "137", "0xa", null]}));
        assert_eq!(s.enabled_networks, vec![1, 137, 10]);
        assert!(s.can_switch(&net("eip155:137"), AccountType::Eoa));
        assert!(!s.can_switch(&net("eip155:8453"), AccountType::Eoa));
        assert!(!s.is_enabled_on(&net("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")));
        s.set_enabled_networks_from_payload(&json!("garbage"));
        assert!(s.enabled_networks.is_empty());
    }

    #[test]
    fn smart_account_deployment_tracked_as_boolean() {
        let mut s = SmartAccountState::new();
        assert!(!s.deployed);
        s.set_deployed(true);
        assert!(s.deployed);
    }

    proptest::proptest! {
        #[test]
        fn payload_parsing_never_panics(body in ".*") {
            let mut s = SmartAccountState::new();
            if let Ok(v) = serde_json::from_str::<Value>(&body) {
                s.set_enabled_networks_from_payload(&v);
            }
            s.set_enabled_networks_from_payload(&json!({"smartAccountEnabledNetworks": [body]}));
        }
    }
}
