//! Validation rules of spec section 5 (and the RPC permission lists of section 6) that are not
//! in the `./core` utilities (address, caip, units, format, name, siwx) nor in a state machine of
//! their own.
//!
//! * email payloads: a valid email address for connect and update-email; otp is a string;
//! * batch calls: `to` and `data` start with `0x`;
//! * sign-in options: not both siweConfig and siwx; project id required;
//! * stored chain id restored only if configured;
//! * display: token balance total with 2 decimals; big-number division with 20 decimal places;
//! * token-balance retry only 30 s after the last failure;
//! * wallet assets (`wallet_getAssets`) validity, dropping decimals-0 tokens;
//! * the embedded-wallet RPC allow-list;
//! * supported areas per namespace.
//!
//! Transaction filtering is in `transactions`, send rules in `send`, the smart-account switching
//! rule in `smart_account`, the email throttle in `throttle`.

use serde_json::Value;

use crate::service::constants::TOKEN_BALANCE_RETRY_MS;
use crate::service::entities::{
    BatchCalls, ChainNamespace, TokenBalance, WalletAsset, WalletAssetMetadata,
    WalletAssetType,
};
use crate::service::errors::WmError;

// ---------------------------------------------------------------------------------------------
// Email and otp
// ---------------------------------------------------------------------------------------------

/// A valid email address: one `@`; a non-empty local part (≤ 64 chars) of letters, digits and
/// ``!#$%&'*+/=?^_`{|}~.-`` without leading, trailing or doubled dots; a domain (≤ 253 chars) of at
/// least two dot-separated labels of letters, digits and hyphens (not at either end of a label),
/// the last label at least 2 letters. Surrounding whitespace is not accepted.
pub fn is_valid_email(email: &str) -> bool {
    if email.len() > 254 {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else { return false };
    if domain.contains('@') || local.is_empty() || local.len() > 64 {
        return false;
    }
    const SPECIAL: &str = "!#$%&'*+/=?^_`{|}~.-";
    if !local.chars().all(|c| c.is_ascii_alphanumeric() || SPECIAL.contains(c)) {
        return false;
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return false;
    }
    if domain.is_empty() || domain.len() > 253 {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    for l in &labels {
        if l.is_empty()
            || l.len() > 63
            || l.starts_with('-')
            || l.ends_with('-')
            || !l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return false;
        }
    }
    let tld = labels[labels.len() - 1];
    tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())
}

/// Validate an email for connect and update-email.
pub fn validate_email(email: &str) -> Result<(), WmError> {
    if is_valid_email(email) {
        Ok(())
    } else {
        Err(WmError::InvalidEmail)
    }
}

/// `{"email": "<valid email>"}` (connect email / update email frame payloads) → the email.
pub fn parse_email_payload(payload: &Value) -> Result<String, WmError> {
    match payload.get("email").and_then(Value::as_str) {
        Some(e) if is_valid_email(e) => Ok(e.to_string()),
        _ => Err(WmError::InvalidEmail),
    }
}

/// `{"otp": "<string>"}` (connect otp / update-email otp payloads) → the otp. The otp must be a
/// string (non-empty); numbers and other types are refused.
pub fn parse_otp_payload(payload: &Value) -> Result<String, WmError> {
    match payload.get("otp").and_then(Value::as_str) {
        Some(o) if !o.trim().is_empty() => Ok(o.to_string()),
        _ => Err(WmError::InvalidOtp),
    }
}

// ---------------------------------------------------------------------------------------------
// Batch calls, sign-in options, project id, stored chain id
// ---------------------------------------------------------------------------------------------

/// Every call's `to` starts with `0x`, and its `data`, when present, too.
pub fn validate_batch_calls(batch: &BatchCalls) -> Result<(), WmError> {
    for c in &batch.calls {
        if !c.to.starts_with("0x") {
            return Err(WmError::InvalidBatchCall);
        }
        if let Some(d) = &c.data {
            if !d.starts_with("0x") {
                return Err(WmError::InvalidBatchCall);
            }
        }
    }
    Ok(())
}

/// Parse and validate `wallet_sendCalls` params from raw JSON (an object, or `[object]`).
pub fn parse_batch_calls(v: &Value) -> Result<BatchCalls, WmError> {
    let obj = match v {
        Value::Array(a) => a.first().ok_or(WmError::InvalidBatchCall)?,
        other => other,
    };
    let batch: BatchCalls =
        serde_json::from_value(obj.clone()).map_err(|_| WmError::InvalidBatchCall)?;
    validate_batch_calls(&batch)?;
    Ok(batch)
}

/// An EVM adapter cannot have both siweConfig and siwx set.
pub fn check_sign_in_options(has_siwe_config: bool, has_siwx: bool) -> Result<(), WmError> {
    if has_siwe_config && has_siwx {
        Err(WmError::BothSiweAndSiwx)
    } else {
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------

/// Decimal places used by big-number division (Big.js default `DP`).
pub const BIG_NUMBER_PRECISION: usize = 20;
/// Decimals shown for the token balance total.
pub const TOKEN_TOTAL_DECIMALS: u32 = 2;

/// Sum of the token balances' fiat values (non-finite values count as 0).
pub fn token_balance_total(tokens: &[TokenBalance]) -> f64 {
    tokens.iter().map(|t| if t.value.is_finite() { t.value } else { 0.0 }).sum()
}

/// The token balance total in en-US format with 2 decimals, e.g. `"1,234.57"`.
pub fn format_token_total(tokens: &[TokenBalance]) -> String {
    let total = token_balance_total(tokens);
    crate::chain::format::format_amount_en_us(&format!("{total}"), TOKEN_TOTAL_DECIMALS)
}

/// Parse `-?digits(.digits)?` (also `.5` / `5.`) into (negative, integer digits without leading
/// zeros, fraction digits).
fn parse_decimal(s: &str) -> Option<(bool, String, String)> {
    let s = s.trim();
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (i, f) = rest.split_once('.').unwrap_or((rest, ""));
    if i.is_empty() && f.is_empty() {
        return None;
    }
    if !i.bytes().all(|b| b.is_ascii_digit()) || !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if i.len() + f.len() > 4096 {
        return None;
    }
    let i = i.trim_start_matches('0');
    Some((neg, if i.is_empty() { "0".into() } else { i.into() }, f.into()))
}

fn cmp_digits(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let a = strip(a);
    let b = strip(b);
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn strip(a: &[u8]) -> &[u8] {
    let n = a.iter().take_while(|&&d| d == 0).count();
    if n == a.len() { &a[a.len().saturating_sub(1)..] } else { &a[n..] }
}

fn sub_digits(a: &mut [u8], b: &[u8]) {
    // a -= b, a >= b, both big-endian digit vectors (values 0..=9)
    let mut borrow = 0i16;
    let mut j = b.len();
    for i in (0..a.len()).rev() {
        let bd = if j > 0 { j -= 1; b[j] as i16 } else { 0 };
        let mut d = a[i] as i16 - bd - borrow;
        if d < 0 {
            d += 10;
            borrow = 1;
        } else {
            borrow = 0;
        }
        a[i] = d as u8;
    }
}

/// `numerator / denominator` on decimal strings, exact to [`BIG_NUMBER_PRECISION`] (20) decimal
/// places, rounded half up, trailing zeros removed (`"1"/"3"` → `"0.33333333333333333333"`).
/// `None` for non-numeric input or a zero denominator.
pub fn big_divide(numerator: &str, denominator: &str) -> Option<String> {
    let (na, ia, fa) = parse_decimal(numerator)?;
    let (nb, ib, fb) = parse_decimal(denominator)?;
    // Scale both to integers with the same number of fraction digits.
    let scale = fa.len().max(fb.len());
    let to_digits = |i: &str, f: &str| -> Vec<u8> {
        let mut s: Vec<u8> = i.bytes().chain(f.bytes()).map(|b| b - b'0').collect();
        s.extend(std::iter::repeat_n(0, scale - f.len()));
        s
    };
    let a = to_digits(&ia, &fa);
    let b = to_digits(&ib, &fb);
    let b = strip(&b).to_vec();
    if b == [0] {
        return None;
    }
    // Long division of a * 10^(precision + 1) by b.
    let mut dividend = a;
    dividend.extend(std::iter::repeat_n(0, BIG_NUMBER_PRECISION + 1));
    let mut quotient: Vec<u8> = Vec::with_capacity(dividend.len());
    let mut rem: Vec<u8> = vec![0];
    for d in dividend {
        rem.push(d);
        let mut q = 0u8;
        while cmp_digits(&rem, &b) != std::cmp::Ordering::Less {
            sub_digits(&mut rem, &b);
            q += 1;
        }
        quotient.push(q);
        let r = strip(&rem).to_vec();
        rem = r;
    }
    // Round half up on the extra digit.
    let last = quotient.pop().unwrap_or(0);
    if last >= 5 {
        let mut i = quotient.len();
        loop {
            if i == 0 {
                quotient.insert(0, 1);
                break;
            }
            i -= 1;
            if quotient[i] == 9 {
                quotient[i] = 0;
            } else {
                quotient[i] += 1;
                break;
            }
        }
    }
    while quotient.len() < BIG_NUMBER_PRECISION + 1 {
        quotient.insert(0, 0);
    }
    let split = quotient.len() - BIG_NUMBER_PRECISION;
    let int: String = strip(&quotient[..split]).iter().map(|d| (d + b'0') as char).collect();
    let frac: String = quotient[split..].iter().map(|d| (d + b'0') as char).collect();
    let frac = frac.trim_end_matches('0');
    let zero = int == "0" && frac.is_empty();
    let sign = if na != nb && !zero { "-" } else { "" };
    Some(if frac.is_empty() { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") })
}

// ---------------------------------------------------------------------------------------------
// Token balance retry
// ---------------------------------------------------------------------------------------------

/// Token balance retry: after a failure ('Token Balance Unavailable'), retries are allowed only
/// 30 s after the last failure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenBalanceRetry {
    last_failure_ms: Option<u64>,
}

impl TokenBalanceRetry {
    pub fn new() -> Self {
        Self::default()
    }
    /// Record a failed balance load (or an unsupported network); returns the error to show.
    pub fn record_failure(&mut self, now_ms: u64) -> WmError {
        self.last_failure_ms = Some(now_ms);
        WmError::TokenBalanceUnavailable
    }
    /// A successful load clears the failure.
    pub fn record_success(&mut self) {
        self.last_failure_ms = None;
    }
    /// Whether a balance fetch may be attempted now.
    pub fn can_fetch(&self, now_ms: u64) -> bool {
        match self.last_failure_ms {
            None => true,
            Some(t) => now_ms.saturating_sub(t) >= TOKEN_BALANCE_RETRY_MS,
        }
    }
    /// When the next retry becomes allowed, if currently blocked.
    pub fn retry_at(&self, now_ms: u64) -> Option<u64> {
        let t = self.last_failure_ms? + TOKEN_BALANCE_RETRY_MS;
        (t > now_ms).then_some(t)
    }
}

// ---------------------------------------------------------------------------------------------
// Wallet assets
// ---------------------------------------------------------------------------------------------

/// A wallet asset is valid only if `address` and `balance` are strings, `type` is `ERC20` or
/// `NATIVE`, and `metadata` has `name`, `symbol` (strings), `decimals` (a number), `price`
/// (a number) and `iconUrl` (a string).
pub fn parse_wallet_asset(v: &Value) -> Option<WalletAsset> {
    let address = v.get("address")?.as_str()?;
    let balance = v.get("balance")?.as_str()?;
    let asset_type = match v.get("type")?.as_str()? {
        "ERC20" => WalletAssetType::Erc20,
        "NATIVE" => WalletAssetType::Native,
        _ => return None,
    };
    let m = v.get("metadata")?.as_object()?;
    let name = m.get("name")?.as_str()?;
    let symbol = m.get("symbol")?.as_str()?;
    let decimals_v = m.get("decimals")?;
    if !decimals_v.is_number() {
        return None;
    }
    let decimals = decimals_v.as_f64()?;
    if !(decimals >= 0.0 && decimals.fract() == 0.0 && decimals <= u32::MAX as f64) {
        return None;
    }
    let price_v = m.get("price")?;
    if !price_v.is_number() {
        return None;
    }
    let price = price_v.as_f64()?;
    let icon_url = m.get("iconUrl")?.as_str()?;
    Some(WalletAsset {
        address: address.to_string(),
        balance: balance.to_string(),
        asset_type,
        metadata: WalletAssetMetadata {
            name: name.to_string(),
            symbol: symbol.to_string(),
            decimals: decimals as u32,
            price,
            icon_url: icon_url.to_string(),
        },
    })
}

/// Valid assets of a list, dropping tokens with decimals 0 (low quality).
pub fn filter_wallet_assets(list: &Value) -> Vec<WalletAsset> {
    list.as_array()
        .map(|a| {
            a.iter()
                .filter_map(parse_wallet_asset)
                .filter(|x| x.metadata.decimals != 0)
                .collect()
        })
        .unwrap_or_default()
}

/// `wallet_getAssets` result (`{"0x1": [assets…], …}`) for one chain (hex or decimal id, e.g.
/// `"0x1"` or `1`): its valid assets, decimals-0 tokens dropped.
pub fn wallet_assets_for_chain(result: &Value, chain_id: u64) -> Vec<WalletAsset> {
    let Some(obj) = result.as_object() else { return vec![] };
    for (k, v) in obj {
        let id = crate::service::entities::ChainRef::String(k.clone()).as_u64();
        if id == Some(chain_id) {
            return filter_wallet_assets(v);
        }
    }
    vec![]
}

// ---------------------------------------------------------------------------------------------
// Embedded wallet RPC allow-list
// ---------------------------------------------------------------------------------------------

/// How the embedded wallet treats an RPC method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RpcPermission {
    /// Forwarded without approval; not aborted when the user rejects.
    Safe,
    /// Opens ApproveTransaction.
    NeedsApproval,
    /// Rejected ('RPC method not allowed').
    Disallowed,
}

/// Methods the embedded wallet serves without approval.
pub const SAFE_RPC_METHODS: &[&str] = &[
    "eth_accounts",
    "eth_blockNumber",
    "eth_call",
    "eth_chainId",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getAccount",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getBlockReceipts",
    "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber",
    "eth_getCode",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_getLogs",
    "eth_getProof",
    "eth_getStorageAt",
    "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber",
    "eth_maxPriorityFeePerGas",
    "eth_newBlockFilter",
    "eth_newFilter",
    "eth_newPendingTransactionFilter",
    "eth_sendRawTransaction",
    "eth_syncing",
    "eth_uninstallFilter",
    "wallet_getCapabilities",
    "wallet_getCallsStatus",
    "wallet_getAssets",
    "eth_getUserOperationReceipt",
    "eth_getUserOperationByHash",
    "eth_estimateUserOperationGas",
    "eth_supportedEntryPoints",
];

/// Methods that need the user's approval.
pub const APPROVAL_RPC_METHODS: &[&str] = &[
    "personal_sign",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "solana_signMessage",
    "solana_signTransaction",
    "solana_signAllTransactions",
    "solana_signAndSendTransaction",
    "wallet_sendCalls",
    "wallet_grantPermissions",
    "wallet_revokePermissions",
    "eth_sendUserOperation",
];

/// Whether a wallet (any wallet, not only the embedded one) asks the visitor before answering
/// `method`: the approval methods above, plus connecting, chain changes, assets and the older
/// signing methods that injected wallets still offer.
pub fn wallet_prompts(method: &str) -> bool {
    APPROVAL_RPC_METHODS.contains(&method)
        || matches!(
            method,
            "eth_requestAccounts"
                | "wallet_requestPermissions"
                | "wallet_switchEthereumChain"
                | "wallet_addEthereumChain"
                | "wallet_watchAsset"
                | "eth_sign"
                | "eth_signTypedData"
                | "eth_signTypedData_v3"
                | "eth_signTransaction"
        )
}

/// Permission of an embedded-wallet RPC method (exact, case-sensitive names).
pub fn rpc_permission(method: &str) -> RpcPermission {
    if SAFE_RPC_METHODS.contains(&method) {
        RpcPermission::Safe
    } else if APPROVAL_RPC_METHODS.contains(&method) {
        RpcPermission::NeedsApproval
    } else {
        RpcPermission::Disallowed
    }
}

/// A request not in the allowed list is rejected with `RpcMethodNotAllowed`.
pub fn check_rpc_method(method: &str) -> Result<RpcPermission, WmError> {
    match rpc_permission(method) {
        RpcPermission::Disallowed => Err(WmError::RpcMethodNotAllowed),
        p => Ok(p),
    }
}

// ---------------------------------------------------------------------------------------------
// Supported areas per namespace
// ---------------------------------------------------------------------------------------------

/// Product areas with namespace restrictions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// Balance lookups: eip155 and solana.
    Balance,
    /// Account names: eip155 only.
    Names,
    /// Activity: eip155 only.
    Activity,
    /// Embedded wallet (email/social): eip155 and solana.
    EmbeddedWallet,
    /// Sending: eip155 and solana.
    Send,
}

/// Whether an area is available on a namespace.
pub fn area_supported(area: Area, namespace: ChainNamespace) -> bool {
    use ChainNamespace::*;
    match area {
        Area::Balance | Area::EmbeddedWallet | Area::Send => matches!(namespace, Eip155 | Solana),
        Area::Names | Area::Activity => namespace == Eip155,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::entities::{BatchCall, TokenQuantity};
    use serde_json::json;

    #[test]
    fn email_must_be_a_valid_address_for_connect_and_update() {
        for ok in ["a@b.co", "first.last+tag@sub.example.org", "x_y-z@my-domain.io", "A@B.CO"] {
            assert!(is_valid_email(ok), "{ok}");
            assert!(validate_email(ok).is_ok());
        }
        for bad in ["", "a", "a@", "@b.co", "a@b", "a@b.c", "a b@c.co", " a@b.co", "a@b.co ", "a@@b.co", "a@b..co", ".a@b.co", "a.@b.co", "a..b@c.co", "a@-b.co", "a@b-.co", "a@b.c0", "a@b_c.co"] {
            assert!(!is_valid_email(bad), "{bad}");
            assert_eq!(validate_email(bad), Err(WmError::InvalidEmail));
        }
    }

    #[test]
    fn email_payload_requires_a_valid_email_string() {
        assert_eq!(parse_email_payload(&json!({"email": "a@b.co"})), Ok("a@b.co".into()));
        assert_eq!(parse_email_payload(&json!({"email": 5})), Err(WmError::InvalidEmail));
        assert_eq!(parse_email_payload(&json!({"email": "nope"})), Err(WmError::InvalidEmail));
        assert_eq!(parse_email_payload(&json!({})), Err(WmError::InvalidEmail));
    }

    #[test]
    fn otp_must_be_a_string() {
        assert_eq!(parse_otp_payload(&json!({"otp": "123456"})), Ok("123456".into()));
        assert_eq!(parse_otp_payload(&json!({"otp": 123456})), Err(WmError::InvalidOtp));
        assert_eq!(parse_otp_payload(&json!({"otp": null})), Err(WmError::InvalidOtp));
        assert_eq!(parse_otp_payload(&json!({"otp": ""})), Err(WmError::InvalidOtp));
    }

    fn batch(to: &str, data: Option<&str>) -> BatchCalls {
        BatchCalls { chain_id: "0x1".into(), from: "0x1".into(), version: "1.0".into(), capabilities: None,
            calls: vec![BatchCall { to: to.into(), data: data.map(str::to_string), value: None }] }
    }

    #[test]
    fn batch_calls_to_and_data_must_start_with_0x() {
        assert!(validate_batch_calls(&batch("0xabc", Some("0x1234"))).is_ok());
        assert!(validate_batch_calls(&batch("0xabc", None)).is_ok());
        assert_eq!(validate_batch_calls(&batch("abc", Some("0x"))), Err(WmError::InvalidBatchCall));
        assert_eq!(validate_batch_calls(&batch("0xabc", Some("1234"))), Err(WmError::InvalidBatchCall));
        assert!(parse_batch_calls(&json!([{"chainId": "0x1", "from": "0x1", "version": "1.0", "calls": [{"to": "0x2", "data": "0x"}]}])).is_ok());
        assert_eq!(parse_batch_calls(&json!({"calls": "x"})).unwrap_err(), WmError::InvalidBatchCall);
        assert_eq!(parse_batch_calls(&json!({"chainId": "0x1", "from": "0x1", "version": "1", "calls": [{"to": "2"}]})).unwrap_err(), WmError::InvalidBatchCall);
    }

    #[test]
    fn siwe_config_and_siwx_together_are_refused() {
        assert_eq!(check_sign_in_options(true, true), Err(WmError::BothSiweAndSiwx));
        assert!(check_sign_in_options(true, false).is_ok());
        assert!(check_sign_in_options(false, true).is_ok());
        assert!(check_sign_in_options(false, false).is_ok());
    }

    fn token(value: f64) -> TokenBalance {
        TokenBalance { name: "T".into(), symbol: "T".into(), chain_id: "eip155:1".into(), address: None, value, price: 1.0, quantity: TokenQuantity::default(), icon_url: String::new() }
    }

    #[test]
    fn token_balance_total_shows_2_decimals() {
        assert_eq!(format_token_total(&[token(1000.0), token(234.567)]), "1,234.57");
        assert_eq!(format_token_total(&[]), "0.00");
        assert_eq!(format_token_total(&[token(0.1), token(0.2)]), "0.30");
        assert_eq!(format_token_total(&[token(f64::NAN), token(2.0)]), "2.00");
    }

    #[test]
    fn big_number_division_has_20_decimal_places() {
        assert_eq!(big_divide("1", "3").as_deref(), Some("0.33333333333333333333"));
        assert_eq!(big_divide("2", "3").as_deref(), Some("0.66666666666666666667"));
        assert_eq!(big_divide("10", "4").as_deref(), Some("2.5"));
        assert_eq!(big_divide("-1", "8").as_deref(), Some("-0.125"));
        assert_eq!(big_divide("1.5", "0.5").as_deref(), Some("3"));
        assert_eq!(big_divide("123456789012345678901234567890", "1").as_deref(), Some("123456789012345678901234567890"));
        assert_eq!(big_divide("1", "0"), None);
        assert_eq!(big_divide("x", "1"), None);
        assert_eq!(big_divide("1", "100000000000000000000000").as_deref(), Some("0"));
        assert_eq!(big_divide("0", "-5").as_deref(), Some("0"));
    }

    #[test]
    fn token_balance_retry_only_30_seconds_after_failure() {
        let mut r = TokenBalanceRetry::new();
        assert!(r.can_fetch(0));
        assert_eq!(r.record_failure(1_000), WmError::TokenBalanceUnavailable);
        assert!(!r.can_fetch(1_000));
        assert!(!r.can_fetch(30_999));
        assert_eq!(r.retry_at(5_000), Some(31_000));
        assert!(r.can_fetch(31_000));
        assert_eq!(r.retry_at(31_000), None);
        r.record_failure(40_000);
        r.record_success();
        assert!(r.can_fetch(40_001));
    }

    fn asset() -> Value {
        json!({"address": "0xa0b8", "balance": "0x10", "type": "ERC20",
            "metadata": {"name": "USD Coin", "symbol": "USDC", "decimals": 6, "price": 1.0, "iconUrl": "https://i"}})
    }

    #[test]
    fn wallet_asset_valid_only_with_required_typed_fields() {
        assert!(parse_wallet_asset(&asset()).is_some());
        let mut native = asset();
        native["type"] = json!("NATIVE");
        assert_eq!(parse_wallet_asset(&native).unwrap().asset_type, WalletAssetType::Native);
        let breakers: Vec<(&str, Value)> = vec![
            ("/address", json!(1)), ("/balance", json!(16)), ("/type", json!("ERC721")),
            ("/metadata/name", json!(null)), ("/metadata/symbol", json!(1)),
            ("/metadata/decimals", json!("6")), ("/metadata/price", json!("1.0")),
            ("/metadata/iconUrl", json!(false)), ("/metadata", json!("x")),
        ];
        for (ptr, val) in breakers {
            let mut a = asset();
            *a.pointer_mut(ptr).unwrap() = val;
            assert!(parse_wallet_asset(&a).is_none(), "{ptr}");
        }
        let mut missing = asset();
        missing["metadata"].as_object_mut().unwrap().remove("iconUrl");
        assert!(parse_wallet_asset(&missing).is_none());
    }

    #[test]
    fn wallet_assets_with_decimals_0_are_dropped_as_low_quality() {
        let mut zero = asset();
        zero["metadata"]["decimals"] = json!(0);
        let list = json!([asset(), zero, {"bad": true}]);
        assert_eq!(filter_wallet_assets(&list).len(), 1);
        let result = json!({"0x1": [asset()], "0x89": [asset(), asset()]});
        assert_eq!(wallet_assets_for_chain(&result, 137).len(), 2);
        assert_eq!(wallet_assets_for_chain(&result, 1).len(), 1);
        assert!(wallet_assets_for_chain(&result, 10).is_empty());
    }

    #[test]
    fn embedded_wallet_rpc_allow_list() {
        for m in ["eth_call", "eth_getBalance", "eth_getLogs", "eth_chainId", "eth_estimateGas",
            "eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getTransactionCount", "eth_newFilter",
            "eth_getFilterChanges", "eth_uninstallFilter", "eth_sendRawTransaction", "wallet_getCapabilities",
            "wallet_getCallsStatus", "wallet_getAssets", "eth_getUserOperationReceipt"] {
            assert_eq!(rpc_permission(m), RpcPermission::Safe, "{m}");
        }
        for m in ["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction", "solana_signMessage",
            "solana_signTransaction", "solana_signAllTransactions", "solana_signAndSendTransaction",
            "wallet_sendCalls", "wallet_grantPermissions", "wallet_revokePermissions", "eth_sendUserOperation"] {
            assert_eq!(rpc_permission(m), RpcPermission::NeedsApproval, "{m}");
        }
        for m in ["eth_sign", "eth_signTypedData", "wallet_addEthereumChain", "", "ETH_CALL", "eth_call "] {
            assert_eq!(rpc_permission(m), RpcPermission::Disallowed, "{m}");
        }
    }

    #[test]
    fn wallet_prompts_for_signing_sending_and_chain_changes_but_not_for_reads() {
        for m in ["personal_sign", "eth_sendTransaction", "eth_signTypedData_v4", "eth_requestAccounts", "wallet_switchEthereumChain", "eth_sign"] {
            assert!(wallet_prompts(m), "{m}");
        }
        for m in ["eth_call", "eth_chainId", "eth_accounts", "eth_getBalance", "eth_sendRawTransaction", "", "PERSONAL_SIGN"] {
            assert!(!wallet_prompts(m), "{m}");
        }
    }

    #[test]
    fn rpc_request_not_in_allowed_list_is_rejected() {
        assert_eq!(check_rpc_method("eth_sign"), Err(WmError::RpcMethodNotAllowed));
        assert_eq!(check_rpc_method("personal_sign"), Ok(RpcPermission::NeedsApproval));
    }

    #[test]
    fn supported_areas_per_namespace() {
        use ChainNamespace::*;
        for ns in ChainNamespace::ALL {
            assert_eq!(area_supported(Area::Balance, ns), matches!(ns, Eip155 | Solana));
            assert_eq!(area_supported(Area::Send, ns), matches!(ns, Eip155 | Solana));
            assert_eq!(area_supported(Area::EmbeddedWallet, ns), matches!(ns, Eip155 | Solana));
            assert_eq!(area_supported(Area::Names, ns), ns == Eip155);
            assert_eq!(area_supported(Area::Activity, ns), ns == Eip155);
        }
    }

    proptest::proptest! {
        #[test]
        fn validators_never_panic(s in ".*", t in ".*") {
            let _ = is_valid_email(&s);
            let _ = parse_email_payload(&json!({"email": s}));
            let _ = parse_otp_payload(&json!({"otp": s}));
            let _ = rpc_permission(&s);
            let _ = big_divide(&s, &t);
            if let Ok(v) = serde_json::from_str::<Value>(&s) {
                let _ = parse_wallet_asset(&v);
                let _ = filter_wallet_assets(&v);
                let _ = parse_batch_calls(&v);
                let _ = wallet_assets_for_chain(&v, 1);
            }
        }

        #[test]
        fn big_divide_matches_integer_division(a in 0u64..1_000_000_000, b in 1u64..1_000_000) {
            let q = big_divide(&a.to_string(), &b.to_string()).unwrap();
            let int_part: u64 = q.split('.').next().unwrap().parse().unwrap();
            // rounding can carry only when the fraction is all 9s; the integer part is floor or floor+1
            proptest::prop_assert!(int_part == a / b || int_part == a / b + 1);
        }

        #[test]
        fn big_divide_digit_strings_never_panic(a in "-?[0-9]{0,40}(\\.[0-9]{0,30})?", b in "-?[0-9]{0,40}(\\.[0-9]{0,30})?") {
            let _ = big_divide(&a, &b);
        }
    }
}
