//! The error catalogue of spec section 8 as one typed enum.
//!
//! Every alert, message and code of the catalogue is a variant of [`WmError`]. Each variant has
//! * an exact user-facing text ([`WmError::message`]),
//! * a numeric code ([`WmError::code`]): the protocol code for JSON-RPC / EIP-1193 errors,
//!   32603 for an invalid chain id, and the product default 5000 for everything else,
//! * a stable SCREAMING_SNAKE key ([`WmError::key`]) used e.g. to show an alert once per key,
//! * for alerts, a meaning ([`WmError::alert_description`]) and a severity.
//!
//! It serializes as `{"code": …, "key": …, "message": …}`.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::fmt;

/// Product default error code (spec section 8, "Product: 5000 default").
pub const DEFAULT_ERROR_CODE: i64 = 5000;
/// Product code for an invalid chain id (spec section 8, "32603 invalid chain id").
pub const INVALID_CHAIN_ID_CODE: i64 = 32603;

/// How an alert is presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// Every error, alert and message the product can produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WmError {
    // ----- Standard JSON-RPC codes -----
    /// -32700
    RpcParseError,
    /// -32600
    RpcInvalidRequest,
    /// -32601
    RpcMethodNotFound,
    /// -32602
    RpcInvalidParams,
    /// -32603
    RpcInternalError,
    /// -32000
    RpcServerError,

    // ----- Wallet (EIP-1193) codes -----
    /// 4001 user rejected
    UserRejected,
    /// 4100 unauthorized
    Unauthorized,
    /// 4200 unsupported method
    UnsupportedMethod,
    /// 4900 disconnected
    Disconnected,
    /// 4901 chain disconnected
    ChainDisconnected,
    /// 4902 unknown (unrecognised) chain
    UnknownChain,
    /// Any other provider error: its code and message are kept as received.
    Provider { code: i64, message: String },

    // ----- Product codes -----
    /// 32603 'Invalid chainId' (also the name coin-type rule: chain id must be below 2^31).
    InvalidChainId,

    // ----- Alerts (shown once per key, only in debug mode) -----
    /// 'Network Not Found': the network must be in the networks array.
    NetworkNotFound,
    /// 'Invalid App Configuration': the origin is not allowed, or the project id is invalid.
    InvalidAppConfiguration,
    /// 'Network Error - Could not load embedded wallet' (also reported as iframe_load_failed).
    IframeLoadFailed,
    /// 'Embedded Wallet Request Timed Out' (also reported as iframe_request_timeout).
    IframeRequestTimeout,
    /// 'Session Expired'
    SessionExpired,
    /// 'Project Id Not Configured'
    ProjectIdNotConfigured,
    /// 'Server Error': failed to get app configuration.
    ServerError,
    /// 'Rate Limited'
    RateLimited,
    /// 'Unverified domain'
    UnverifiedDomain,
    /// 'Switch network not found'
    SwitchNetworkNotFound,
    /// 'Multi-wallet not enabled' (info alert).
    MultiWalletNotEnabled,
    /// 'RPC method not allowed' ('Requested RPC call is not allowed'; UI text 'Action not allowed').
    RpcMethodNotAllowed,
    /// Warning notice when the remote config was fetched and the local feature config ignored.
    LocalConfigurationIgnored,

    // ----- Messages: balances, swaps -----
    /// 'Token Balance Unavailable' (error banner; retries blocked for 30 s).
    TokenBalanceUnavailable,
    /// 'Network not supported for Gas Price'
    GasPriceNetworkNotSupported,
    /// 'Network not supported for Swaps'
    SwapsNetworkNotSupported,

    // ----- Messages: connection -----
    /// 'Modal closed'
    ModalClosed,
    /// 'Popup closed'
    PopupClosed,
    /// 'Connection rejected'
    ConnectionRejected,
    /// 'Failed to connect'
    FailedToConnect,
    /// 'Failed to initiate social connection'
    SocialConnectionFailed,
    /// 'Failed to connect to farcaster'
    FarcasterConnectionFailed,
    /// 'No auth connector found'
    NoAuthConnector,
    /// 'Not connected to email or social'
    NotConnectedToEmailOrSocial,
    /// 'Failed to disconnect'
    FailedToDisconnect,
    /// 'Failed to disconnect chains: {details}'
    FailedToDisconnectChains { details: String },
    /// 'Chain is not supported' (adding a chain failed).
    ChainNotSupported,
    /// 'Cannot set both siweConfig and siwx options'
    BothSiweAndSiwx,
    /// 'Connector not found'
    ConnectorNotFound,
    /// 'Provider not found'
    ProviderNotFound,
    /// 'Adapter not found'
    AdapterNotFound,
    /// 'Namespace not found'
    NamespaceNotFound,
    /// "Adapter for namespace {namespace} doesn't exist"
    AdapterMissing { namespace: String },

    // ----- Messages: embedded frame -----
    /// An error event from the frame: its payload message, or 'An error occurred'.
    FrameError { message: String },
    /// 'Request was aborted' (an aborted RPC request).
    RequestAborted,
    /// 'Something went wrong' (any other aborted request).
    SomethingWentWrong,
    /// 'Unable to load email login dependency'
    EmailLoginDependencyLoadFailed,

    // ----- Messages: sign-in and naming -----
    /// 'A problem occurred while trying initialize authentication'
    AuthInitFailed,
    /// 'Error signing message'
    ErrorSigningMessage,
    /// 'Sign message failed'
    SignMessageFailed,
    /// 'Error resolving name'
    ErrorResolvingName,
    /// 'Error fetching name suggestions'
    ErrorFetchingNameSuggestions,
    /// 'Error fetching names for address'
    ErrorFetchingNamesForAddress,
    /// 'Error registering name {name}'
    ErrorRegisteringName { name: String },
    /// 'Network not found' (sign-in / naming, distinct from the alert).
    SignInNetworkNotFound,
    /// 'Address or auth connector not found'
    AddressOrAuthConnectorNotFound,

    // ----- Messages: wallet -----
    /// 'error estimating gas'
    GasEstimationFailed,
    /// 'Error parsing wallet capabilities'
    WalletCapabilitiesParseFailed,

    // ----- Messages: validation -----
    /// 'Please try again after {seconds} seconds'
    EmailThrottled { seconds: u64 },
    /// 'Failed to fetch transactions'
    FailedToFetchTransactions,
    /// 'An amount and receiver address are required'
    SendAmountAndReceiverRequired,
    /// 'A token is required'
    SendTokenRequired,
    /// 'Unsupported chain'
    UnsupportedChain,
    /// 'Invalid value: {value}' (unit parsing).
    InvalidValue { value: String },
    /// 'Invalid email'
    InvalidEmail,
    /// 'Invalid otp'
    InvalidOtp,
    /// 'Invalid batch call: to and data must start with 0x'
    InvalidBatchCall,
    /// 'Invalid address'
    InvalidAddress,
    /// 'Invalid name'
    InvalidName,

    // ----- Messages: host API -----
    /// 'Unknown view: {name}' (`open({view})` with a name that is not a view).
    UnknownView { name: String },
    /// 'The {name} view is not available yet' (`open({view})` with a view this build does not have).
    ViewNotAvailable { name: String },
}

impl WmError {
    /// The exact user-facing text.
    pub fn message(&self) -> String {
        use WmError::*;
        let s: &str = match self {
            RpcParseError => "Parse error",
            RpcInvalidRequest => "Invalid request",
            RpcMethodNotFound => "Method not found",
            RpcInvalidParams => "Invalid params",
            RpcInternalError => "Internal error",
            RpcServerError => "Server error",
            UserRejected => "User rejected the request",
            Unauthorized => "Unauthorized",
            UnsupportedMethod => "Unsupported method",
            Disconnected => "Disconnected",
            ChainDisconnected => "Chain disconnected",
            UnknownChain => "Unrecognized chain",
            Provider { message, .. } => {
                return if message.trim().is_empty() {
                    "Unknown error".to_string()
                } else {
                    message.clone()
                }
            }
            InvalidChainId => "Invalid chainId",
            NetworkNotFound => "Network Not Found",
            InvalidAppConfiguration => "Invalid App Configuration",
            IframeLoadFailed => "Network Error - Could not load embedded wallet",
            IframeRequestTimeout => "Embedded Wallet Request Timed Out",
            SessionExpired => "Session Expired",
            ProjectIdNotConfigured => "Project Id Not Configured",
            ServerError => "Server Error",
            RateLimited => "Rate Limited",
            UnverifiedDomain => "Unverified domain",
            SwitchNetworkNotFound => "Switch network not found",
            MultiWalletNotEnabled => "Multi-wallet not enabled",
            RpcMethodNotAllowed => "RPC method not allowed",
            LocalConfigurationIgnored => "Local configuration ignored",
            TokenBalanceUnavailable => "Token Balance Unavailable",
            GasPriceNetworkNotSupported => "Network not supported for Gas Price",
            SwapsNetworkNotSupported => "Network not supported for Swaps",
            ModalClosed => "Modal closed",
            PopupClosed => "Popup closed",
            ConnectionRejected => "Connection rejected",
            FailedToConnect => "Failed to connect",
            SocialConnectionFailed => "Failed to initiate social connection",
            FarcasterConnectionFailed => "Failed to connect to farcaster",
            NoAuthConnector => "No auth connector found",
            NotConnectedToEmailOrSocial => "Not connected to email or social",
            FailedToDisconnect => "Failed to disconnect",
            FailedToDisconnectChains { details } => {
                return format!("Failed to disconnect chains: {details}")
            }
            ChainNotSupported => "Chain is not supported",
            BothSiweAndSiwx => "Cannot set both siweConfig and siwx options",
            ConnectorNotFound => "Connector not found",
            ProviderNotFound => "Provider not found",
            AdapterNotFound => "Adapter not found",
            NamespaceNotFound => "Namespace not found",
            AdapterMissing { namespace } => {
                return format!("Adapter for namespace {namespace} doesn't exist")
            }
            FrameError { message } => {
                return if message.trim().is_empty() {
                    "An error occurred".to_string()
                } else {
                    message.clone()
                }
            }
            RequestAborted => "Request was aborted",
            SomethingWentWrong => "Something went wrong",
            EmailLoginDependencyLoadFailed => "Unable to load email login dependency",
            AuthInitFailed => "A problem occurred while trying initialize authentication",
            ErrorSigningMessage => "Error signing message",
            SignMessageFailed => "Sign message failed",
            ErrorResolvingName => "Error resolving name",
            ErrorFetchingNameSuggestions => "Error fetching name suggestions",
            ErrorFetchingNamesForAddress => "Error fetching names for address",
            ErrorRegisteringName { name } => return format!("Error registering name {name}"),
            SignInNetworkNotFound => "Network not found",
            AddressOrAuthConnectorNotFound => "Address or auth connector not found",
            GasEstimationFailed => "error estimating gas",
            WalletCapabilitiesParseFailed => "Error parsing wallet capabilities",
            EmailThrottled { seconds } => {
                return format!("Please try again after {seconds} seconds")
            }
            FailedToFetchTransactions => "Failed to fetch transactions",
            SendAmountAndReceiverRequired => "An amount and receiver address are required",
            SendTokenRequired => "A token is required",
            UnsupportedChain => "Unsupported chain",
            InvalidValue { value } => return format!("Invalid value: {value}"),
            InvalidEmail => "Invalid email",
            InvalidOtp => "Invalid otp",
            InvalidBatchCall => "Invalid batch call: to and data must start with 0x",
            InvalidAddress => "Invalid address",
            InvalidName => "Invalid name",
            UnknownView { name } => return format!("Unknown view: {name}"),
            ViewNotAvailable { name } => return format!("The {name} view is not available yet"),
        };
        s.to_string()
    }

    /// Numeric code: protocol code, 32603 for an invalid chain id, otherwise 5000.
    pub fn code(&self) -> i64 {
        use WmError::*;
        match self {
            RpcParseError => -32700,
            RpcInvalidRequest => -32600,
            RpcMethodNotFound => -32601,
            RpcInvalidParams => -32602,
            RpcInternalError => -32603,
            RpcServerError => -32000,
            UserRejected => 4001,
            Unauthorized => 4100,
            UnsupportedMethod => 4200,
            Disconnected => 4900,
            ChainDisconnected => 4901,
            UnknownChain => 4902,
            Provider { code, .. } => *code,
            InvalidChainId => INVALID_CHAIN_ID_CODE,
            _ => DEFAULT_ERROR_CODE,
        }
    }

    /// Stable SCREAMING_SNAKE key (one per variant; parameterised variants share their key).
    pub fn key(&self) -> &'static str {
        use WmError::*;
        match self {
            RpcParseError => "RPC_PARSE_ERROR",
            RpcInvalidRequest => "RPC_INVALID_REQUEST",
            RpcMethodNotFound => "RPC_METHOD_NOT_FOUND",
            RpcInvalidParams => "RPC_INVALID_PARAMS",
            RpcInternalError => "RPC_INTERNAL_ERROR",
            RpcServerError => "RPC_SERVER_ERROR",
            UserRejected => "USER_REJECTED",
            Unauthorized => "UNAUTHORIZED",
            UnsupportedMethod => "UNSUPPORTED_METHOD",
            Disconnected => "DISCONNECTED",
            ChainDisconnected => "CHAIN_DISCONNECTED",
            UnknownChain => "UNKNOWN_CHAIN",
            Provider { .. } => "PROVIDER_ERROR",
            InvalidChainId => "INVALID_CHAIN_ID",
            NetworkNotFound => "NETWORK_NOT_FOUND",
            InvalidAppConfiguration => "INVALID_APP_CONFIGURATION",
            IframeLoadFailed => "IFRAME_LOAD_FAILED",
            IframeRequestTimeout => "IFRAME_REQUEST_TIMEOUT",
            SessionExpired => "SESSION_EXPIRED",
            ProjectIdNotConfigured => "PROJECT_ID_NOT_CONFIGURED",
            ServerError => "SERVER_ERROR",
            RateLimited => "RATE_LIMITED",
            UnverifiedDomain => "UNVERIFIED_DOMAIN",
            SwitchNetworkNotFound => "SWITCH_NETWORK_NOT_FOUND",
            MultiWalletNotEnabled => "MULTI_WALLET_NOT_ENABLED",
            RpcMethodNotAllowed => "RPC_METHOD_NOT_ALLOWED",
            LocalConfigurationIgnored => "LOCAL_CONFIGURATION_IGNORED",
            TokenBalanceUnavailable => "TOKEN_BALANCE_UNAVAILABLE",
            GasPriceNetworkNotSupported => "GAS_PRICE_NETWORK_NOT_SUPPORTED",
            SwapsNetworkNotSupported => "SWAPS_NETWORK_NOT_SUPPORTED",
            ModalClosed => "MODAL_CLOSED",
            PopupClosed => "POPUP_CLOSED",
            ConnectionRejected => "CONNECTION_REJECTED",
            FailedToConnect => "FAILED_TO_CONNECT",
            SocialConnectionFailed => "SOCIAL_CONNECTION_FAILED",
            FarcasterConnectionFailed => "FARCASTER_CONNECTION_FAILED",
            NoAuthConnector => "NO_AUTH_CONNECTOR",
            NotConnectedToEmailOrSocial => "NOT_CONNECTED_TO_EMAIL_OR_SOCIAL",
            FailedToDisconnect => "FAILED_TO_DISCONNECT",
            FailedToDisconnectChains { .. } => "FAILED_TO_DISCONNECT_CHAINS",
            ChainNotSupported => "CHAIN_NOT_SUPPORTED",
            BothSiweAndSiwx => "BOTH_SIWE_AND_SIWX",
            ConnectorNotFound => "CONNECTOR_NOT_FOUND",
            ProviderNotFound => "PROVIDER_NOT_FOUND",
            AdapterNotFound => "ADAPTER_NOT_FOUND",
            NamespaceNotFound => "NAMESPACE_NOT_FOUND",
            AdapterMissing { .. } => "ADAPTER_MISSING",
            FrameError { .. } => "FRAME_ERROR",
            RequestAborted => "REQUEST_ABORTED",
            SomethingWentWrong => "SOMETHING_WENT_WRONG",
            EmailLoginDependencyLoadFailed => "EMAIL_LOGIN_DEPENDENCY_LOAD_FAILED",
            AuthInitFailed => "AUTH_INIT_FAILED",
            ErrorSigningMessage => "ERROR_SIGNING_MESSAGE",
            SignMessageFailed => "SIGN_MESSAGE_FAILED",
            ErrorResolvingName => "ERROR_RESOLVING_NAME",
            ErrorFetchingNameSuggestions => "ERROR_FETCHING_NAME_SUGGESTIONS",
            ErrorFetchingNamesForAddress => "ERROR_FETCHING_NAMES_FOR_ADDRESS",
            ErrorRegisteringName { .. } => "ERROR_REGISTERING_NAME",
            SignInNetworkNotFound => "SIGN_IN_NETWORK_NOT_FOUND",
            AddressOrAuthConnectorNotFound => "ADDRESS_OR_AUTH_CONNECTOR_NOT_FOUND",
            GasEstimationFailed => "GAS_ESTIMATION_FAILED",
            WalletCapabilitiesParseFailed => "WALLET_CAPABILITIES_PARSE_FAILED",
            EmailThrottled { .. } => "EMAIL_THROTTLED",
            FailedToFetchTransactions => "FAILED_TO_FETCH_TRANSACTIONS",
            SendAmountAndReceiverRequired => "SEND_AMOUNT_AND_RECEIVER_REQUIRED",
            SendTokenRequired => "SEND_TOKEN_REQUIRED",
            UnsupportedChain => "UNSUPPORTED_CHAIN",
            InvalidValue { .. } => "INVALID_VALUE",
            InvalidEmail => "INVALID_EMAIL",
            InvalidOtp => "INVALID_OTP",
            InvalidBatchCall => "INVALID_BATCH_CALL",
            InvalidAddress => "INVALID_ADDRESS",
            InvalidName => "INVALID_NAME",
            UnknownView { .. } => "UNKNOWN_VIEW",
            ViewNotAvailable { .. } => "VIEW_NOT_AVAILABLE",
        }
    }

    /// True for the alerts of the catalogue (shown once per key, only in debug mode).
    pub fn is_alert(&self) -> bool {
        self.alert_severity().is_some()
    }

    /// Severity of an alert; `None` for errors that are not alerts.
    pub fn alert_severity(&self) -> Option<Severity> {
        use WmError::*;
        match self {
            NetworkNotFound | InvalidAppConfiguration | IframeLoadFailed | IframeRequestTimeout
            | SessionExpired | ProjectIdNotConfigured | ServerError | RateLimited
            | UnverifiedDomain | SwitchNetworkNotFound | RpcMethodNotAllowed => {
                Some(Severity::Error)
            }
            LocalConfigurationIgnored => Some(Severity::Warning),
            MultiWalletNotEnabled => Some(Severity::Info),
            _ => None,
        }
    }

    /// The "meaning" column of the alert table; `None` when the spec gives none or not an alert.
    pub fn alert_description(&self) -> Option<&'static str> {
        use WmError::*;
        match self {
            NetworkNotFound => Some("The network must be in the networks array."),
            InvalidAppConfiguration => {
                Some("The origin is not allowed, or the project id is invalid.")
            }
            IframeLoadFailed => Some("Try again later."),
            SessionExpired => Some("Invalid session; check time settings and reconnect."),
            ServerError => Some("Failed to get app configuration."),
            MultiWalletNotEnabled => Some("Multi-wallet is not enabled."),
            RpcMethodNotAllowed => Some("Requested RPC call is not allowed"),
            LocalConfigurationIgnored => Some(
                "The remote project configuration was fetched; the local feature configuration was ignored.",
            ),
            _ => None,
        }
    }

    /// Short UI text where the spec gives one distinct from the message.
    pub fn ui_text(&self) -> Option<&'static str> {
        match self {
            WmError::RpcMethodNotAllowed => Some("Action not allowed"),
            _ => None,
        }
    }

    /// Map an EIP-1193 / JSON-RPC error (code and message) from a wallet provider.
    /// Unknown codes keep the provider's code and message; an unknown code whose message says the
    /// user rejected/denied the request is treated as 4001.
    pub fn from_provider_code(code: i64, message: &str) -> WmError {
        use WmError::*;
        match code {
            -32700 => RpcParseError,
            -32600 => RpcInvalidRequest,
            -32601 => RpcMethodNotFound,
            -32602 => RpcInvalidParams,
            -32603 => RpcInternalError,
            -32000 => RpcServerError,
            4001 => UserRejected,
            4100 => Unauthorized,
            4200 => UnsupportedMethod,
            4900 => Disconnected,
            4901 => ChainDisconnected,
            4902 => UnknownChain,
            INVALID_CHAIN_ID_CODE => InvalidChainId,
            _ => {
                let lower = message.to_ascii_lowercase();
                if lower.contains("user rejected") || lower.contains("user denied") {
                    UserRejected
                } else {
                    Provider {
                        code,
                        message: message.to_string(),
                    }
                }
            }
        }
    }

    /// Build a frame error from an error event's optional payload message
    /// ('An error occurred' when absent or blank).
    pub fn frame_error(payload_message: Option<&str>) -> WmError {
        WmError::FrameError {
            message: payload_message
                .filter(|m| !m.trim().is_empty())
                .unwrap_or("An error occurred")
                .to_string(),
        }
    }
}

impl fmt::Display for WmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for WmError {}

impl Serialize for WmError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("WmError", 3)?;
        s.serialize_field("code", &self.code())?;
        s.serialize_field("key", self.key())?;
        s.serialize_field("message", &self.message())?;
        s.end()
    }
}

/// An error as the views show it, `{code, key, message}` (or `null`).
pub fn write_error(w: &mut crate::service::json::Writer, e: Option<&WmError>) {
    match e {
        Some(e) => {
            w.begin_object().key("code").i64(e.code()).key("key").str(e.key()).key("message").str(&e.message()).end_object();
        }
        None => {
            w.null();
        }
    }
}

#[cfg(test)]
mod tests {
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
}
