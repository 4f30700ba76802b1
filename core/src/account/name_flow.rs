//! Account-name registration flow (spec sections 4, 5, 7, 8): sign a message, register, set the
//! profile name, then show RegisterAccountNameSuccess; on error return to RegisterAccountName with
//! 'Error registering name {x}'. Names are EVM only. The name rules themselves are
//! `name::validate_account_name` and `name::name_coin_type`.
//!
//! The signed message is JSON: `{"name": "<label><suffix>", "attributes": {}, "timestamp": <unix s>}`;
//! the register body (`POST /v1/profile/account`) is `{coin_type, address, message, signature}`.

use serde::{Deserialize, Serialize};

use crate::service::entities::ChainNamespace;
use crate::service::errors::WmError;
use crate::account::name::{name_coin_type, validate_account_name};
use crate::service::validation::{area_supported, Area};

/// Suffix of registered names (the name-service zone).
pub const NAME_SUFFIX: &str = ".reown.id";
/// Zone passed to `GET /v1/profile/suggestions/{name}?zone=…`.
pub const NAME_ZONE: &str = "reown.id";

/// Body of `POST /v1/profile/account`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterNameRequest {
    pub coin_type: u32,
    pub address: String,
    pub message: String,
    pub signature: String,
}

/// What the engine must do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum NameAction {
    /// Ask the wallet to personal_sign this message.
    SignMessage { message: String },
    /// POST the registration.
    Register { request: RegisterNameRequest },
    /// Set the account's profile name.
    SetProfileName { name: String },
    NavigateSuccess,
    NavigateForm,
    ShowError { error: WmError },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "camelCase")]
pub enum NameStep {
    Form,
    Signing { name: String, message: String, address: String, coin_type: u32 },
    Registering { name: String },
    Success { name: String },
}

/// The label without the suffix, trimmed and lower-cased (`"Alice.reown.id"` → `"alice"`).
pub fn name_label(input: &str) -> String {
    let t = input.trim().to_ascii_lowercase();
    t.strip_suffix(NAME_SUFFIX).map(str::to_string).unwrap_or(t)
}

/// The full name for a label (`"alice"` → `"alice.reown.id"`).
pub fn full_name(label: &str) -> String {
    format!("{}{NAME_SUFFIX}", name_label(label))
}

/// The message to sign for registering `full_name` at `timestamp_s` (unix seconds).
pub fn registration_message(full_name: &str, timestamp_s: u64) -> String {
    serde_json::json!({ "name": full_name, "attributes": {}, "timestamp": timestamp_s }).to_string()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameFlow {
    pub step: NameStep,
}

impl Default for NameFlow {
    fn default() -> Self {
        NameFlow { step: NameStep::Form }
    }
}

impl NameFlow {
    pub fn new() -> Self {
        Self::default()
    }

    /// Submit the form: EVM only ('Unsupported chain'), a valid name ('Invalid name'), a chain id
    /// below 2^31 ('Invalid chainId'). Then sign the registration message.
    pub fn submit(
        &mut self,
        input: &str,
        address: &str,
        namespace: ChainNamespace,
        chain_id: u64,
        now_ms: u64,
    ) -> Result<NameAction, WmError> {
        if !area_supported(Area::Names, namespace) {
            return Err(WmError::UnsupportedChain);
        }
        if address.trim().is_empty() {
            return Err(WmError::AddressOrAuthConnectorNotFound);
        }
        let label = name_label(input);
        if !validate_account_name(&label) {
            return Err(WmError::InvalidName);
        }
        let coin_type = name_coin_type(chain_id).map_err(|_| WmError::InvalidChainId)?;
        let name = full_name(&label);
        let message = registration_message(&name, now_ms / 1000);
        self.step = NameStep::Signing {
            name,
            message: message.clone(),
            address: address.to_string(),
            coin_type,
        };
        Ok(NameAction::SignMessage { message })
    }

    /// The message was signed: register.
    pub fn on_signed(&mut self, signature: &str) -> Vec<NameAction> {
        let NameStep::Signing { name, message, address, coin_type } = &self.step else {
            return vec![];
        };
        let request = RegisterNameRequest {
            coin_type: *coin_type,
            address: address.clone(),
            message: message.clone(),
            signature: signature.to_string(),
        };
        self.step = NameStep::Registering { name: name.clone() };
        vec![NameAction::Register { request }]
    }

    /// Registered: set the profile name and show RegisterAccountNameSuccess.
    pub fn on_registered(&mut self) -> Vec<NameAction> {
        let NameStep::Registering { name } = &self.step else { return vec![] };
        let name = name.clone();
        self.step = NameStep::Success { name: name.clone() };
        vec![NameAction::SetProfileName { name }, NameAction::NavigateSuccess]
    }

    /// Signing or registering failed: 'Error registering name {x}', back to RegisterAccountName.
    pub fn on_error(&mut self) -> Vec<NameAction> {
        let name = match &self.step {
            NameStep::Signing { name, .. } | NameStep::Registering { name } => name.clone(),
            _ => return vec![],
        };
        self.step = NameStep::Form;
        vec![
            NameAction::ShowError { error: WmError::ErrorRegisteringName { name } },
            NameAction::NavigateForm,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADDR: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";

    #[test]
    fn registration_signs_registers_sets_profile_name_then_success() {
        let mut f = NameFlow::new();
        let a = f.submit("Alice", ADDR, ChainNamespace::Eip155, 1, 1_700_000_000_123).unwrap();
        let NameAction::SignMessage { message } = a else { panic!() };
        let v: serde_json::Value = serde_json::from_str(&message).unwrap();
        assert_eq!(v["name"], "alice.reown.id");
        assert_eq!(v["timestamp"], 1_700_000_000u64);
        let a = f.on_signed("0xsig");
        let NameAction::Register { request } = &a[0] else { panic!() };
        assert_eq!(request.coin_type, 0x8000_0001);
        assert_eq!(request.signature, "0xsig");
        assert_eq!(request.address, ADDR);
        assert_eq!(f.on_registered(), vec![NameAction::SetProfileName { name: "alice.reown.id".into() }, NameAction::NavigateSuccess]);
        assert_eq!(f.step, NameStep::Success { name: "alice.reown.id".into() });
    }

    #[test]
    fn registration_error_returns_to_form_with_message() {
        let mut f = NameFlow::new();
        f.submit("bobby", ADDR, ChainNamespace::Eip155, 137, 0).unwrap();
        f.on_signed("0xsig");
        let a = f.on_error();
        assert_eq!(a[0], NameAction::ShowError { error: WmError::ErrorRegisteringName { name: "bobby.reown.id".into() } });
        assert_eq!(a[1], NameAction::NavigateForm);
        assert_eq!(f.step, NameStep::Form);
        if let NameAction::ShowError { error } = &a[0] {
            assert_eq!(error.message(), "Error registering name bobby.reown.id");
        }
    }

    #[test]
    fn name_rules_reused_min_4_letters_digits_hyphen() {
        let mut f = NameFlow::new();
        assert_eq!(f.submit("abc", ADDR, ChainNamespace::Eip155, 1, 0), Err(WmError::InvalidName));
        assert_eq!(f.submit("ab_cd", ADDR, ChainNamespace::Eip155, 1, 0), Err(WmError::InvalidName));
        assert!(f.submit("ab-c1.reown.id", ADDR, ChainNamespace::Eip155, 1, 0).is_ok());
    }

    #[test]
    fn name_coin_type_chain_id_must_be_below_2_pow_31() {
        let mut f = NameFlow::new();
        let e = f.submit("alice", ADDR, ChainNamespace::Eip155, 1 << 31, 0).unwrap_err();
        assert_eq!(e.message(), "Invalid chainId");
        assert_eq!(f.step, NameStep::Form);
    }

    #[test]
    fn names_are_evm_only() {
        let mut f = NameFlow::new();
        assert_eq!(f.submit("alice", ADDR, ChainNamespace::Solana, 1, 0), Err(WmError::UnsupportedChain));
        assert_eq!(f.submit("alice", "", ChainNamespace::Eip155, 1, 0), Err(WmError::AddressOrAuthConnectorNotFound));
    }

    #[test]
    fn out_of_order_events_are_ignored() {
        let mut f = NameFlow::new();
        assert!(f.on_signed("x").is_empty());
        assert!(f.on_registered().is_empty());
        assert!(f.on_error().is_empty());
        assert_eq!(full_name("Carol.reown.id"), "carol.reown.id");
    }

    proptest::proptest! {
        #[test]
        fn name_flow_never_panics(s in ".*", addr in ".*", id in proptest::num::u64::ANY) {
            let mut f = NameFlow::new();
            let _ = f.submit(&s, &addr, ChainNamespace::Eip155, id, 0);
            let _ = f.on_signed(&s);
            let _ = f.on_error();
        }
    }
}
