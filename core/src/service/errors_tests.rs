//! Unit tests of `errors`.

use super::*;
use WmError::*;

fn all_unit() -> Vec<WmError> {
    vec![
        RpcParseError, RpcInvalidRequest, RpcMethodNotFound, RpcInvalidParams,
        RpcInternalError, RpcServerError, UserRejected, Unauthorized, UnsupportedMethod,
        Disconnected, ChainDisconnected, UnknownChain, InvalidChainId, NetworkNotFound,
        InvalidAppConfiguration, IframeLoadFailed, IframeRequestTimeout, SessionExpired,
        ProjectIdNotConfigured, ServerError, RateLimited, UnverifiedDomain,
        SwitchNetworkNotFound, MultiWalletNotEnabled, RpcMethodNotAllowed,
        LocalConfigurationIgnored, TokenBalanceUnavailable, GasPriceNetworkNotSupported,
        SwapsNetworkNotSupported, ModalClosed, PopupClosed, ConnectionRejected,
        FailedToConnect, SocialConnectionFailed, FarcasterConnectionFailed, NoAuthConnector,
        NotConnectedToEmailOrSocial, FailedToDisconnect, ChainNotSupported, BothSiweAndSiwx,
        ConnectorNotFound, ProviderNotFound, AdapterNotFound, NamespaceNotFound,
        RequestAborted, SomethingWentWrong, EmailLoginDependencyLoadFailed, AuthInitFailed,
        ErrorSigningMessage, SignMessageFailed, ErrorResolvingName,
        ErrorFetchingNameSuggestions, ErrorFetchingNamesForAddress, SignInNetworkNotFound,
        AddressOrAuthConnectorNotFound, GasEstimationFailed, WalletCapabilitiesParseFailed,
        FailedToFetchTransactions, SendAmountAndReceiverRequired, SendTokenRequired,
        UnsupportedChain, InvalidEmail, InvalidOtp, InvalidBatchCall, InvalidAddress,
        InvalidName,
        FailedToDisconnectChains { details: "x".into() },
        AdapterMissing { namespace: "x".into() },
        FrameError { message: "x".into() },
        ErrorRegisteringName { name: "x".into() },
        EmailThrottled { seconds: 1 },
        InvalidValue { value: "x".into() },
        Provider { code: 1, message: "x".into() },
    ]
}

#[test]
fn standard_rpc_codes_match_the_catalogue() {
    assert_eq!(RpcParseError.code(), -32700);
    assert_eq!(RpcInvalidRequest.code(), -32600);
    assert_eq!(RpcMethodNotFound.code(), -32601);
    assert_eq!(RpcInvalidParams.code(), -32602);
    assert_eq!(RpcInternalError.code(), -32603);
    assert_eq!(RpcServerError.code(), -32000);
}

#[test]
fn wallet_codes_match_the_catalogue() {
    assert_eq!(UserRejected.code(), 4001);
    assert_eq!(Unauthorized.code(), 4100);
    assert_eq!(UnsupportedMethod.code(), 4200);
    assert_eq!(Disconnected.code(), 4900);
    assert_eq!(ChainDisconnected.code(), 4901);
    assert_eq!(UnknownChain.code(), 4902);
}

#[test]
fn product_codes_default_5000_and_invalid_chain_id_32603() {
    assert_eq!(InvalidChainId.code(), 32603);
    assert_eq!(InvalidChainId.message(), "Invalid chainId");
    assert_eq!(ConnectionRejected.code(), 5000);
    assert_eq!(ProjectIdNotConfigured.code(), 5000);
    assert_eq!(EmailThrottled { seconds: 3 }.code(), 5000);
}

#[test]
fn from_provider_code_maps_eip1193_and_json_rpc_codes() {
    for e in [
        RpcParseError, RpcInvalidRequest, RpcMethodNotFound, RpcInvalidParams,
        RpcInternalError, RpcServerError, UserRejected, Unauthorized, UnsupportedMethod,
        Disconnected, ChainDisconnected, UnknownChain, InvalidChainId,
    ] {
        assert_eq!(WmError::from_provider_code(e.code(), "whatever"), e);
    }
    assert_eq!(
        WmError::from_provider_code(-1, "User rejected the request."),
        UserRejected
    );
    assert_eq!(WmError::from_provider_code(5000, "MetaMask Tx Signature: User denied transaction signature."), UserRejected);
    assert_eq!(WmError::from_provider_code(5000, "user rejecte"), Provider { code: 5000, message: "user rejecte".into() });
    let other = WmError::from_provider_code(1234, "boom");
    assert_eq!(other, Provider { code: 1234, message: "boom".into() });
    assert_eq!(other.code(), 1234);
    assert_eq!(other.message(), "boom");
    assert_eq!(WmError::from_provider_code(7, "").message(), "Unknown error");
}

#[test]
fn alert_texts_are_exact() {
    assert_eq!(NetworkNotFound.message(), "Network Not Found");
    assert_eq!(InvalidAppConfiguration.message(), "Invalid App Configuration");
    assert_eq!(IframeLoadFailed.message(), "Network Error - Could not load embedded wallet");
    assert_eq!(IframeRequestTimeout.message(), "Embedded Wallet Request Timed Out");
    assert_eq!(SessionExpired.message(), "Session Expired");
    assert_eq!(ProjectIdNotConfigured.message(), "Project Id Not Configured");
    assert_eq!(ServerError.message(), "Server Error");
    assert_eq!(RateLimited.message(), "Rate Limited");
    assert_eq!(UnverifiedDomain.message(), "Unverified domain");
    assert_eq!(SwitchNetworkNotFound.message(), "Switch network not found");
    assert_eq!(MultiWalletNotEnabled.message(), "Multi-wallet not enabled");
    assert_eq!(RpcMethodNotAllowed.message(), "RPC method not allowed");
    assert_eq!(RpcMethodNotAllowed.alert_description(), Some("Requested RPC call is not allowed"));
    assert_eq!(RpcMethodNotAllowed.ui_text(), Some("Action not allowed"));
    assert_eq!(ServerError.alert_description(), Some("Failed to get app configuration."));
    assert_eq!(
        NetworkNotFound.alert_description(),
        Some("The network must be in the networks array.")
    );
}

#[test]
fn multi_wallet_not_enabled_is_an_info_alert() {
    assert_eq!(MultiWalletNotEnabled.alert_severity(), Some(Severity::Info));
    assert!(MultiWalletNotEnabled.is_alert());
}

#[test]
fn messages_are_not_alerts() {
    assert!(!ConnectionRejected.is_alert());
    assert!(!TokenBalanceUnavailable.is_alert());
    assert!(ConnectionRejected.alert_description().is_none());
}

#[test]
fn message_texts_are_exact() {
    assert_eq!(TokenBalanceUnavailable.message(), "Token Balance Unavailable");
    assert_eq!(GasPriceNetworkNotSupported.message(), "Network not supported for Gas Price");
    assert_eq!(SwapsNetworkNotSupported.message(), "Network not supported for Swaps");
    assert_eq!(ModalClosed.message(), "Modal closed");
    assert_eq!(PopupClosed.message(), "Popup closed");
    assert_eq!(ConnectionRejected.message(), "Connection rejected");
    assert_eq!(FailedToConnect.message(), "Failed to connect");
    assert_eq!(SocialConnectionFailed.message(), "Failed to initiate social connection");
    assert_eq!(FarcasterConnectionFailed.message(), "Failed to connect to farcaster");
    assert_eq!(NoAuthConnector.message(), "No auth connector found");
    assert_eq!(NotConnectedToEmailOrSocial.message(), "Not connected to email or social");
    assert_eq!(FailedToDisconnect.message(), "Failed to disconnect");
    assert_eq!(
        FailedToDisconnectChains { details: "eip155, solana".into() }.message(),
        "Failed to disconnect chains: eip155, solana"
    );
    assert_eq!(ChainNotSupported.message(), "Chain is not supported");
    assert_eq!(BothSiweAndSiwx.message(), "Cannot set both siweConfig and siwx options");
    assert_eq!(
        AdapterMissing { namespace: "cosmos".into() }.message(),
        "Adapter for namespace cosmos doesn't exist"
    );
    assert_eq!(RequestAborted.message(), "Request was aborted");
    assert_eq!(SomethingWentWrong.message(), "Something went wrong");
    assert_eq!(EmailLoginDependencyLoadFailed.message(), "Unable to load email login dependency");
    assert_eq!(
        AuthInitFailed.message(),
        "A problem occurred while trying initialize authentication"
    );
    assert_eq!(ErrorSigningMessage.message(), "Error signing message");
    assert_eq!(SignMessageFailed.message(), "Sign message failed");
    assert_eq!(ErrorResolvingName.message(), "Error resolving name");
    assert_eq!(ErrorFetchingNameSuggestions.message(), "Error fetching name suggestions");
    assert_eq!(ErrorFetchingNamesForAddress.message(), "Error fetching names for address");
    assert_eq!(
        ErrorRegisteringName { name: "alice.reown.id".into() }.message(),
        "Error registering name alice.reown.id"
    );
    assert_eq!(SignInNetworkNotFound.message(), "Network not found");
    assert_eq!(AddressOrAuthConnectorNotFound.message(), "Address or auth connector not found");
    assert_eq!(GasEstimationFailed.message(), "error estimating gas");
    assert_eq!(WalletCapabilitiesParseFailed.message(), "Error parsing wallet capabilities");
    assert_eq!(FailedToFetchTransactions.message(), "Failed to fetch transactions");
    assert_eq!(
        SendAmountAndReceiverRequired.message(),
        "An amount and receiver address are required"
    );
    assert_eq!(SendTokenRequired.message(), "A token is required");
    assert_eq!(UnsupportedChain.message(), "Unsupported chain");
    assert_eq!(UnknownView { name: "Nope".into() }.message(), "Unknown view: Nope");
    assert_eq!(ViewNotAvailable { name: "Swap".into() }.message(), "The Swap view is not available yet");
}

#[test]
fn email_throttle_message_names_the_seconds() {
    assert_eq!(
        EmailThrottled { seconds: 27 }.message(),
        "Please try again after 27 seconds"
    );
}

#[test]
fn frame_error_uses_payload_message_or_an_error_occurred() {
    assert_eq!(WmError::frame_error(Some("bad otp")).message(), "bad otp");
    assert_eq!(WmError::frame_error(None).message(), "An error occurred");
    assert_eq!(WmError::frame_error(Some("  ")).message(), "An error occurred");
}

#[test]
fn keys_are_unique_screaming_snake() {
    let all = all_unit();
    let mut keys: Vec<&str> = all.iter().map(|e| e.key()).collect();
    for k in &keys {
        assert!(k.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit()), "{k}");
    }
    keys.sort();
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n);
    for e in &all {
        assert!(!e.message().is_empty());
        assert_eq!(e.to_string(), e.message());
    }
}

#[test]
fn serializes_as_code_key_message() {
    let v = serde_json::to_value(ProjectIdNotConfigured).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"code": 5000, "key": "PROJECT_ID_NOT_CONFIGURED", "message": "Project Id Not Configured"})
    );
    let v = serde_json::to_value(UserRejected).unwrap();
    assert_eq!(v["code"], 4001);
}

proptest::proptest! {
    #[test]
    fn from_provider_code_never_panics(code in proptest::num::i64::ANY, msg in ".*") {
        let e = WmError::from_provider_code(code, &msg);
        let _ = e.message();
        let _ = serde_json::to_string(&e).unwrap();
    }
}
