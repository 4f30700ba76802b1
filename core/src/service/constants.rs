//! Business constants and limits of spec section 9 (and the timing/size constants of sections 2, 5-8).
//! Durations are `u64` milliseconds with an `_MS` suffix.

// ----- Email login -----
/// A new email login within this time of the previous one is refused.
pub const EMAIL_LOGIN_COOLDOWN_MS: u64 = 30_000;

// ----- Cache lifetimes -----
pub const PORTFOLIO_CACHE_MS: u64 = 30_000;
/// Native balance cache lifetime (per network and address).
pub const BALANCE_CACHE_MS: u64 = 30_000;
pub const ENS_CACHE_MS: u64 = 5 * 60_000;
pub const IDENTITY_CACHE_MS: u64 = 5 * 60_000;

// ----- Wallets -----
pub const RECENT_WALLETS_KEPT: usize = 2;
pub const WALLET_SEARCH_DEBOUNCE_MS: u64 = 300;
/// First page of recommended wallets.
pub const WALLETS_FIRST_PAGE: u32 = 4;
/// Later pages of the wallet listing.
pub const WALLETS_PAGE: u32 = 40;
/// Page size when searching the wallet listing.
pub const WALLETS_SEARCH_PAGE: u32 = 100;

// ----- Balances -----
/// Token balance retry allowed only this long after the last failure.
pub const TOKEN_BALANCE_RETRY_MS: u64 = 30_000;

// ----- Pending transactions -----
pub const PENDING_TRANSACTIONS_LIMIT: u32 = 99;
/// Pending transaction polling default (polling is disabled by default).
pub const PENDING_TX_POLL_MS: u64 = 30_000;
pub const PENDING_TX_POLL_ENABLED_BY_DEFAULT: bool = false;

// ----- Swaps -----
/// Default swap slippage tolerance (percent).
pub const SWAP_SLIPPAGE_TOLERANCE: u32 = 1;

// ----- On-ramp -----
/// Default on-ramp payment (fiat) currencies.
pub const DEFAULT_PAYMENT_CURRENCIES: [&str; 2] = ["USD", "EUR"];
/// Payment method limits: (method id, min, max) as decimal strings.
pub const DEFAULT_PAYMENT_METHOD_LIMITS: [(&str, &str, &str); 2] =
    [("card", "10.00", "7500.00"), ("bank_account", "10.00", "25000.00")];
pub const ONRAMP_CARD_MIN: &str = "10.00";
pub const ONRAMP_CARD_MAX: &str = "7500.00";
pub const ONRAMP_BANK_MIN: &str = "10.00";
pub const ONRAMP_BANK_MAX: &str = "25000.00";
/// Default purchase token symbol.
pub const DEFAULT_PURCHASE_TOKEN: &str = "USDC";
/// Networks the default purchase token is offered on: (name, display name, chain id, contract).
pub const DEFAULT_PURCHASE_TOKEN_NETWORKS: [(&str, &str, &str, &str); 2] = [
    ("ethereum-mainnet", "Ethereum", "1", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"),
    ("polygon-mainnet", "Polygon", "137", "0x2791bca1f2de4661ed88a30c99a7a9449aa84174"),
];
/// Fee range of each on-ramp provider.
pub const ONRAMP_PROVIDER_FEE_RANGE: &str = "1-2%";

// ----- Embedded frame -----
pub const IFRAME_LOAD_TIMEOUT_MS: u64 = 20_000;
/// Time-out of email, device, otp, social and social-redirect requests.
pub const FRAME_REQUEST_TIMEOUT_MS: u64 = 120_000;
/// Sign-out waits at most this long.
pub const SIGN_OUT_WAIT_MS: u64 = 3_000;
pub const IFRAME_READY_DELAY_MS: u64 = 500;

// ----- Wallet provider / RPC -----
pub const SEND_TX_TIMEOUT_MS: u64 = 25_000;
pub const RPC_TIMEOUT_MS: u64 = 10_000;
pub const RPC_BATCH_SIZE: usize = 1000;
pub const RPC_BATCH_WAIT_MS: u64 = 0;
pub const RPC_FALLBACK_POLLING_MS: u64 = 4_000;
pub const RPC_RANKING_SAMPLES: usize = 10;
pub const RPC_RANKING_STABILITY_WEIGHT: f64 = 0.7;
pub const RPC_RANKING_LATENCY_WEIGHT: f64 = 0.3;
/// Default RPC host (takes `chainId` and `projectId` query parameters).
pub const DEFAULT_RPC_HOST: &str = "https://rpc.walletmodal.dev/v1/";

// ----- Modal / UI -----
// The shake lasts `ui::modal::SHAKE_MS`.
pub const IMAGE_PRELOAD_TIMEOUT_MS: u64 = 2_000;
pub const ANIM_HEADER_TEXT_MS: u64 = 120;
pub const ANIM_MODAL_HEIGHT_MS: u64 = 150;
pub const ANIM_VIEW_CHANGE_MS: u64 = 150;
/// A showing banner closes, then reopens with the new message after this delay.
pub const BANNER_REOPEN_MS: u64 = 150;
pub const AVATAR_TINTS: usize = 5;
/// The unsupported RPC method alert appears after this delay.
pub const UNSUPPORTED_RPC_ALERT_DELAY_MS: u64 = 300;

// WalletConnect pairing times live with the pairing rules (`connect::wc::pairing`).

// ----- Social login popup -----
pub const SOCIAL_POPUP_WIDTH: u32 = 600;
pub const SOCIAL_POPUP_HEIGHT: u32 = 800;
pub const SOCIAL_POPUP_POLL_MS: u64 = 1_000;

// ----- Logging / heartbeat -----
pub const LOG_BUFFER_BYTES: usize = 1_024_000;
pub const HEARTBEAT_MS: u64 = 5_000;

// ----- Analytics -----
pub const ERROR_REPORTS_MAX: usize = 5;
pub const ERROR_REPORTS_WINDOW_MS: u64 = 60_000;

// ----- Names -----
pub const NAME_MIN_LENGTH: usize = 4;

// ----- Default features -----
pub const DEFAULT_FEATURE_SEND: bool = true;
pub const DEFAULT_FEATURE_RECEIVE: bool = true;
pub const DEFAULT_FEATURE_ALL_WALLETS: bool = true;
pub const DEFAULT_FEATURE_ANALYTICS: bool = true;

/// Default order of wallet features on the account view.
pub const WALLET_FEATURES_ORDER: [&str; 4] = ["onramp", "swaps", "receive", "send"];
/// Order of connector groups in the wallet list.
pub const CONNECTOR_ORDER: [&str; 7] =
    ["walletConnect", "recent", "injected", "featured", "custom", "external", "recommended"];
/// Default order of connection methods.
pub const CONNECT_METHOD_ORDER: [&str; 3] = ["email", "social", "wallet"];
/// Social login providers (plus farcaster, which has its own flow).
pub const SOCIAL_PROVIDERS: [&str; 6] = ["google", "github", "apple", "facebook", "x", "discord"];
/// Default remote socials, in display order.
pub const DEFAULT_SOCIALS: [&str; 7] =
    ["google", "x", "discord", "farcaster", "github", "apple", "facebook"];
/// Default remote swap providers (one swap aggregator).
pub const DEFAULT_SWAP_PROVIDERS: [&str; 1] = ["1inch"];
/// Default remote on-ramp providers (two providers).
pub const DEFAULT_ONRAMP_PROVIDERS: [&str; 2] = ["meld", "coinbase"];
/// Lazy parts loaded per enabled feature.
pub const LAZY_FEATURES: [&str; 8] =
    ["email", "socials", "swaps", "send", "receive", "onramp", "activity", "pay"];

/// Restricted time zones (mainland China, Hong Kong, Macau).
pub const RESTRICTED_TIMEZONES: [&str; 10] = [
    "PRC",
    "Hongkong",
    "Asia/Shanghai",
    "Asia/Urumqi",
    "Asia/Chongqing",
    "Asia/Harbin",
    "Asia/Kashgar",
    "Asia/Macau",
    "Asia/Hong_Kong",
    "Asia/Macao",
];

/// True if the IANA time zone is one of the restricted zones.
pub fn is_restricted_timezone(tz: &str) -> bool {
    RESTRICTED_TIMEZONES.iter().any(|z| z.eq_ignore_ascii_case(tz.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Constants are not tested against their own literals (such a test cannot fail for a reason);
    // the rules that use them are tested where they live.

    #[test]
    fn restricted_time_zones_cover_mainland_china_hong_kong_macau() {
        assert!(is_restricted_timezone("Asia/Shanghai"));
        assert!(is_restricted_timezone("Asia/Hong_Kong"));
        assert!(is_restricted_timezone("Asia/Macau"));
        assert!(!is_restricted_timezone("Europe/Paris"));
        assert!(!is_restricted_timezone("Asia/Taipei"));
    }
}
