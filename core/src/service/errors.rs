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
                    "Unknown error".to_string() // i18n
                } else {
                    message.clone()
                }
            }
            InvalidChainId => "Invalid chainId",
            NetworkNotFound => "Network Not Found",
            InvalidAppConfiguration => "Invalid App Configuration",
            #[cfg(feature = "modules")]
            IframeLoadFailed => "Network Error - Could not load embedded wallet",
            #[cfg(feature = "modules")]
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
            #[cfg(feature = "modules")]
            TokenBalanceUnavailable => "Token Balance Unavailable",
            GasPriceNetworkNotSupported => "Network not supported for Gas Price",
            SwapsNetworkNotSupported => "Network not supported for Swaps",
            ModalClosed => "Modal closed",
            #[cfg(feature = "modules")]
            PopupClosed => "Popup closed",
            ConnectionRejected => "Connection rejected",
            FailedToConnect => "Failed to connect",
            #[cfg(feature = "modules")]
            SocialConnectionFailed => "Failed to initiate social connection",
            #[cfg(feature = "modules")]
            FarcasterConnectionFailed => "Failed to connect to farcaster",
            NoAuthConnector => "No auth connector found",
            #[cfg(feature = "modules")]
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
            #[cfg(feature = "modules")]
            RequestAborted => "Request was aborted",
            #[cfg(feature = "modules")]
            SomethingWentWrong => "Something went wrong",
            #[cfg(feature = "modules")]
            EmailLoginDependencyLoadFailed => "Unable to load email login dependency",
            #[cfg(feature = "modules")]
            AuthInitFailed => "A problem occurred while trying initialize authentication",
            #[cfg(feature = "modules")]
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
                return format!("Please try again after {seconds} seconds") // i18n
            }
            #[cfg(feature = "modules")]
            FailedToFetchTransactions => "Failed to fetch transactions",
            #[cfg(feature = "modules")]
            SendAmountAndReceiverRequired => "An amount and receiver address are required",
            #[cfg(feature = "modules")]
            SendTokenRequired => "A token is required",
            UnsupportedChain => "Unsupported chain",
            InvalidValue { value } => return format!("Invalid value: {value}"), // i18n
            InvalidEmail => "Invalid email",
            InvalidOtp => "Invalid otp",
            InvalidBatchCall => "Invalid batch call: to and data must start with 0x",
            InvalidAddress => "Invalid address",
            InvalidName => "Invalid name",
            UnknownView { name } => return format!("Unknown view: {name}"),
            ViewNotAvailable { name } => return format!("The {name} view is not available yet"),
            // The engine's build carries only the texts of the errors its own slices raise.
            #[cfg(not(feature = "modules"))]
            _ => "Something went wrong",
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
            #[cfg(feature = "modules")]
            IframeLoadFailed => "IFRAME_LOAD_FAILED",
            #[cfg(feature = "modules")]
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
            #[cfg(feature = "modules")]
            TokenBalanceUnavailable => "TOKEN_BALANCE_UNAVAILABLE",
            GasPriceNetworkNotSupported => "GAS_PRICE_NETWORK_NOT_SUPPORTED",
            SwapsNetworkNotSupported => "SWAPS_NETWORK_NOT_SUPPORTED",
            ModalClosed => "MODAL_CLOSED",
            #[cfg(feature = "modules")]
            PopupClosed => "POPUP_CLOSED",
            ConnectionRejected => "CONNECTION_REJECTED",
            FailedToConnect => "FAILED_TO_CONNECT",
            #[cfg(feature = "modules")]
            SocialConnectionFailed => "SOCIAL_CONNECTION_FAILED",
            #[cfg(feature = "modules")]
            FarcasterConnectionFailed => "FARCASTER_CONNECTION_FAILED",
            NoAuthConnector => "NO_AUTH_CONNECTOR",
            #[cfg(feature = "modules")]
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
            #[cfg(feature = "modules")]
            RequestAborted => "REQUEST_ABORTED",
            #[cfg(feature = "modules")]
            SomethingWentWrong => "SOMETHING_WENT_WRONG",
            #[cfg(feature = "modules")]
            EmailLoginDependencyLoadFailed => "EMAIL_LOGIN_DEPENDENCY_LOAD_FAILED",
            #[cfg(feature = "modules")]
            AuthInitFailed => "AUTH_INIT_FAILED",
            #[cfg(feature = "modules")]
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
            #[cfg(feature = "modules")]
            FailedToFetchTransactions => "FAILED_TO_FETCH_TRANSACTIONS",
            #[cfg(feature = "modules")]
            SendAmountAndReceiverRequired => "SEND_AMOUNT_AND_RECEIVER_REQUIRED",
            #[cfg(feature = "modules")]
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
            #[cfg(not(feature = "modules"))]
            _ => "UNKNOWN",
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
                if crate::service::text::find(&lower, "user rejected").is_some() || crate::service::text::find(&lower, "user denied").is_some() {
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
#[path = "errors_tests.rs"]
mod tests;
