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
/// EIP-155 chain ids where swaps are available.
pub const SWAP_NETWORKS: &[u64] = &[1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554];

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
pub const MODAL_SHAKE_MS: u64 = 500;
pub const IMAGE_PRELOAD_TIMEOUT_MS: u64 = 2_000;
pub const ANIM_HEADER_TEXT_MS: u64 = 120;
pub const ANIM_MODAL_HEIGHT_MS: u64 = 150;
pub const ANIM_VIEW_CHANGE_MS: u64 = 150;
/// A showing banner closes, then reopens with the new message after this delay.
pub const BANNER_REOPEN_MS: u64 = 150;
pub const AVATAR_TINTS: usize = 5;
/// The unsupported RPC method alert appears after this delay.
pub const UNSUPPORTED_RPC_ALERT_DELAY_MS: u64 = 300;

// ----- Pairing (WalletConnect) -----
pub const PAIRING_EXPIRY_MS: u64 = 240_000;
/// A pairing is expired if fewer than this remain.
pub const PAIRING_EXPIRED_BELOW_MS: u64 = 10_000;
pub const PAIRING_RETRY_AFTER_MS: u64 = 1_000;

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
/// Supported chain namespaces.
pub const NAMESPACES: [&str; 5] = ["eip155", "solana", "bip122", "polkadot", "cosmos"];
/// Lazy parts loaded per enabled feature.
pub const LAZY_FEATURES: [&str; 8] =
    ["email", "socials", "swaps", "send", "receive", "onramp", "activity", "pay"];

/// Restricted time zones (mainland China, Hong Kong, Macau).
pub const RESTRICTED_TIMEZONES: [&str; 8] = [
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

    #[test]
    fn section_9_timings_have_spec_values() {
        assert_eq!(EMAIL_LOGIN_COOLDOWN_MS, 30_000);
        assert_eq!(PORTFOLIO_CACHE_MS, 30_000);
        assert_eq!(BALANCE_CACHE_MS, 30_000);
        assert_eq!(ENS_CACHE_MS, 300_000);
        assert_eq!(IDENTITY_CACHE_MS, 300_000);
        assert_eq!(TOKEN_BALANCE_RETRY_MS, 30_000);
        assert_eq!(WALLET_SEARCH_DEBOUNCE_MS, 300);
        assert_eq!(PENDING_TX_POLL_MS, 30_000);
        assert_eq!(IFRAME_LOAD_TIMEOUT_MS, 20_000);
        assert_eq!(FRAME_REQUEST_TIMEOUT_MS, 120_000);
        assert_eq!(SIGN_OUT_WAIT_MS, 3_000);
        assert_eq!(IFRAME_READY_DELAY_MS, 500);
        assert_eq!(SEND_TX_TIMEOUT_MS, 25_000);
        assert_eq!(RPC_TIMEOUT_MS, 10_000);
        assert_eq!(RPC_BATCH_SIZE, 1000);
        assert_eq!(RPC_FALLBACK_POLLING_MS, 4000);
        assert_eq!(MODAL_SHAKE_MS, 500);
        assert_eq!(IMAGE_PRELOAD_TIMEOUT_MS, 2000);
        assert_eq!(PAIRING_EXPIRY_MS, 4 * 60_000);
        assert_eq!(PAIRING_EXPIRED_BELOW_MS, 10_000);
        assert_eq!(PAIRING_RETRY_AFTER_MS, 1000);
        assert_eq!((SOCIAL_POPUP_WIDTH, SOCIAL_POPUP_HEIGHT, SOCIAL_POPUP_POLL_MS), (600, 800, 1000));
        assert_eq!(LOG_BUFFER_BYTES, 1_024_000);
        assert_eq!(HEARTBEAT_MS, 5000);
        assert_eq!(AVATAR_TINTS, 5);
        assert_eq!((ANIM_HEADER_TEXT_MS, ANIM_MODAL_HEIGHT_MS, ANIM_VIEW_CHANGE_MS), (120, 150, 150));
        assert_eq!(BANNER_REOPEN_MS, 150);
        assert_eq!(UNSUPPORTED_RPC_ALERT_DELAY_MS, 300);
    }

    #[test]
    fn limits_have_spec_values() {
        assert_eq!(RECENT_WALLETS_KEPT, 2);
        assert_eq!(PENDING_TRANSACTIONS_LIMIT, 99);
        assert_eq!((WALLETS_FIRST_PAGE, WALLETS_PAGE, WALLETS_SEARCH_PAGE), (4, 40, 100));
        assert_eq!((ERROR_REPORTS_MAX, ERROR_REPORTS_WINDOW_MS), (5, 60_000));
        assert_eq!(RPC_RANKING_SAMPLES, 10);
        assert!((RPC_RANKING_STABILITY_WEIGHT + RPC_RANKING_LATENCY_WEIGHT - 1.0).abs() < 1e-9);
        const { assert!(!PENDING_TX_POLL_ENABLED_BY_DEFAULT) };
    }

    #[test]
    fn swap_networks_are_the_twelve_listed_chains() {
        assert_eq!(SWAP_NETWORKS.len(), 12);
        for id in [1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554] {
            assert!(SWAP_NETWORKS.contains(&id));
        }
    }

    #[test]
    fn orders_match_the_spec() {
        assert_eq!(CONNECTOR_ORDER, ["walletConnect", "recent", "injected", "featured", "custom", "external", "recommended"]);
        assert_eq!(CONNECT_METHOD_ORDER, ["email", "social", "wallet"]);
        assert_eq!(WALLET_FEATURES_ORDER, ["onramp", "swaps", "receive", "send"]);
        assert_eq!(NAMESPACES, ["eip155", "solana", "bip122", "polkadot", "cosmos"]);
    }

    #[test]
    fn default_onramp_currencies_and_limits() {
        assert_eq!(DEFAULT_PAYMENT_CURRENCIES, ["USD", "EUR"]);
        assert_eq!(DEFAULT_PAYMENT_METHOD_LIMITS[0], ("card", "10.00", "7500.00"));
        assert_eq!(DEFAULT_PAYMENT_METHOD_LIMITS[1], ("bank_account", "10.00", "25000.00"));
        assert_eq!(DEFAULT_PURCHASE_TOKEN, "USDC");
        assert_eq!(DEFAULT_PURCHASE_TOKEN_NETWORKS[0].2, "1");
        assert_eq!(DEFAULT_PURCHASE_TOKEN_NETWORKS[1].2, "137");
    }

    #[test]
    fn restricted_time_zones_cover_mainland_china_hong_kong_macau() {
        assert!(is_restricted_timezone("Asia/Shanghai"));
        assert!(is_restricted_timezone("Asia/Hong_Kong"));
        assert!(is_restricted_timezone("Asia/Macau"));
        assert!(!is_restricted_timezone("Europe/Paris"));
        assert!(!is_restricted_timezone("Asia/Taipei"));
    }
}
