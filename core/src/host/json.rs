//! Small readers of [`crate::service::json::Value`] objects, used instead of derived deserializers on the
//! WebAssembly path: every derived `Deserialize` costs kilobytes of wasm per type (and an untagged
//! or internally tagged enum buffers through serde's `Content` machinery), while these few
//! functions are shared by every type read by hand. They follow serde's derive rules: a missing
//! required field or a value of the wrong type is an error, `null` and absence are `None` for
//! options, absence is the default for defaulted fields, unknown fields are ignored. One deliberate
//! difference: serde also accepts a struct written as a JSON array of its fields; these do not.

use crate::service::json::{Map, Value};

pub(crate) type Fields = Map;

pub(crate) fn bad(key: &str) -> String {
    format!("missing or invalid field `{key}`")
}

/// The object itself, or an error naming `what`.
pub(crate) fn object(v: Value, what: &str) -> Result<Fields, String> {
    match v {
        Value::Object(o) => Ok(o),
        _ => Err(format!("{what} must be an object")),
    }
}

/// A required string.
pub(crate) fn string(o: &mut Fields, key: &str) -> Result<String, String> {
    match o.get(key).cloned() {
        Some(Value::String(s)) => Ok(s),
        _ => Err(bad(key)),
    }
}

/// A string defaulting to "" when absent.
pub(crate) fn string_or_default(o: &mut Fields, key: &str) -> Result<String, String> {
    match o.get(key).cloned() {
        None => Ok(String::new()),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(bad(key)),
    }
}

/// An optional string: absent or null is `None`.
pub(crate) fn opt_string(o: &mut Fields, key: &str) -> Result<Option<String>, String> {
    match o.get(key).cloned() {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(key)),
    }
}

/// A required unsigned integer not above `max`.
pub(crate) fn uint(o: &mut Fields, key: &str, max: u64) -> Result<u64, String> {
    o.get(key).cloned().and_then(|v| v.as_u64()).filter(|n| *n <= max).ok_or_else(|| bad(key))
}

/// A boolean; `default` is used when absent (None: required).
pub(crate) fn boolean(o: &mut Fields, key: &str, default: Option<bool>) -> Result<bool, String> {
    match (o.get(key).cloned(), default) {
        (None, Some(d)) => Ok(d),
        (Some(Value::Bool(b)), _) => Ok(b),
        _ => Err(bad(key)),
    }
}

/// A list of strings; `default` (an empty list) when absent, if given.
pub(crate) fn strings(o: &mut Fields, key: &str, optional: bool) -> Result<Vec<String>, String> {
    match o.get(key).cloned() {
        None if optional => Ok(Vec::new()),
        Some(Value::Array(a)) => each(a, |v| if let Value::String(s) = v { Ok(s) } else { Err(bad(key)) }),
        _ => Err(bad(key)),
    }
}

/// `read` of each item, or the first error. (A plain loop: `collect::<Result<Vec<_>, _>>()` costs
/// the engine ~130 B per use, and it has ~20.)
pub(crate) fn each<T>(a: Vec<Value>, mut read: impl FnMut(Value) -> Result<T, String>) -> Result<Vec<T>, String> {
    let mut out = Vec::with_capacity(a.len());
    for v in a {
        out.push(read(v)?);
    }
    Ok(out)
}

/// An optional object (absent or null is `None`), read with `read`.
pub(crate) fn opt_object<T>(o: &mut Fields, key: &str, read: impl FnOnce(Fields) -> Result<T, String>) -> Result<Option<T>, String> {
    match o.get(key).cloned() {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => read(m).map(Some),
        Some(_) => Err(bad(key)),
    }
}

/// A required object, read with `read`.
pub(crate) fn req_object<T>(o: &mut Fields, key: &str, read: impl FnOnce(Fields) -> Result<T, String>) -> Result<T, String> {
    match o.get(key).cloned() {
        Some(Value::Object(m)) => read(m),
        _ => Err(bad(key)),
    }
}

/// A type read by hand from JSON (see the module docs), in place of its derived `Deserialize` on
/// the WebAssembly path. Each impl accepts what the derived deserializer accepts for JSON objects.
pub(crate) trait FromJson: Sized {
    fn from_json(v: Value) -> Result<Self, String>;
}

/// `serde_json::from_str` for [`FromJson`] types: one shared `Value` parser, no typed visitors.
pub(crate) fn from_str<T: FromJson>(s: &str) -> Result<T, String> {
    let v = crate::service::json::parse(s).map_err(|e| e.to_string())?;
    T::from_json(v)
}

impl FromJson for String {
    fn from_json(v: Value) -> Result<Self, String> {
        match v {
            Value::String(s) => Ok(s),
            _ => Err("expected a string".into()),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: Value) -> Result<Self, String> {
        match v {
            Value::Array(a) => each(a, T::from_json),
            _ => Err("expected a list".into()),
        }
    }
}

/// A field read with [`FromJson`]: required, or the default when absent (`default` given).
pub(crate) fn field<T: FromJson>(o: &Fields, key: &str, default: Option<fn() -> T>) -> Result<T, String> {
    match (o.get(key), default) {
        (None, Some(d)) => Ok(d()),
        (Some(v), _) => T::from_json(v.clone()).map_err(|_| bad(key)),
        (None, None) => Err(bad(key)),
    }
}

use crate::service::entities::{AllowedOrigins, ProjectConfig, RemoteFeatures, WalletListing, WalletsPage};

impl FromJson for RemoteFeatures {
    fn from_json(v: Value) -> Result<Self, String> {
        let o = &mut object(v, "features")?;
        Ok(RemoteFeatures {
            email: boolean(o, "email", Some(false))?,
            socials: strings(o, "socials", true)?,
            swaps: strings(o, "swaps", true)?,
            // Bounded: the list is copied into every snapshot.
            swap_networks: {
                let mut list = strings(o, "swapNetworks", true)?;
                list.truncate(64);
                list
            },
            onramp: strings(o, "onramp", true)?,
            activity: boolean(o, "activity", Some(false))?,
            reown_branding: boolean(o, "reownBranding", Some(false))?,
            multi_wallet: boolean(o, "multiWallet", Some(false))?,
        })
    }
}

impl FromJson for ProjectConfig {
    fn from_json(v: Value) -> Result<Self, String> {
        let o = object(v, "config")?;
        Ok(ProjectConfig { features: field(&o, "features", None)? })
    }
}

impl FromJson for AllowedOrigins {
    fn from_json(v: Value) -> Result<Self, String> {
        let o = &mut object(v, "origins")?;
        Ok(AllowedOrigins { allowed_origins: strings(o, "allowedOrigins", false)? })
    }
}

impl FromJson for WalletListing {
    fn from_json(v: Value) -> Result<Self, String> {
        let o = &mut object(v, "wallet")?;
        Ok(WalletListing {
            id: string(o, "id")?,
            name: string(o, "name")?,
            image_id: string_or_default(o, "image_id")?,
            rdns: opt_string(o, "rdns")?,
            chains: strings(o, "chains", true)?,
            mobile_link: opt_string(o, "mobile_link")?,
            desktop_link: opt_string(o, "desktop_link")?,
            webapp_link: opt_string(o, "webapp_link")?,
        })
    }
}

impl FromJson for WalletsPage {
    fn from_json(v: Value) -> Result<Self, String> {
        let o = &mut object(v, "wallets page")?;
        Ok(WalletsPage { data: field(o, "data", None)?, count: uint(o, "count", u64::MAX)? })
    }
}

// ----- the lazily loaded modules' answers: read by hand, as their derived readers would -----

/// An optional field read with `read` (absent or null: `None`).
fn opt<T>(o: &Fields, key: &str, read: impl FnOnce(Value) -> Result<T, String>) -> Result<Option<T>, String> {
    match o.get(key).cloned() {
        None | Some(Value::Null) => Ok(None),
        Some(v) => read(v).map(Some).map_err(|_| bad(key)),
    }
}

/// A list read with `read`; `optional`: absent is empty.
fn list<T>(o: &Fields, key: &str, optional: bool, read: impl Fn(Value) -> Result<T, String>) -> Result<Vec<T>, String> {
    match o.get(key).cloned() {
        None if optional => Ok(Vec::new()),
        Some(Value::Array(a)) => each(a, read).map_err(|_| bad(key)),
        _ => Err(bad(key)),
    }
}

/// A number as `f64`.
fn number(v: Value) -> Result<f64, String> {
    v.as_f64().ok_or_else(|| "expected a number".to_string())
}

fn text(v: Value) -> Result<String, String> {
    String::from_json(v)
}

mod answers {
    use super::*;
    use crate::service::entities::{
        BatchCall, BatchCalls, Currency, CurrencyNetwork, FungibleInfo, ImageRef, NftContent, NftFlags, NftInfo, OnrampOptions, PaymentMethodLimit, Transaction,
        TransactionMetadata, TransactionTransfer, TransactionsPage, TransferQuantity,
    };

    impl FromJson for NftFlags {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "flags")?;
            Ok(NftFlags { is_spam: boolean(o, "is_spam", Some(false))? })
        }
    }

    impl FromJson for ImageRef {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "an image")?;
            Ok(ImageRef { url: opt(&o, "url", text)? })
        }
    }

    impl FromJson for NftContent {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "content")?;
            Ok(NftContent { preview: opt(&o, "preview", ImageRef::from_json)? })
        }
    }

    impl FromJson for NftInfo {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "nft_info")?;
            Ok(NftInfo { name: opt(&o, "name", text)?, content: opt(&o, "content", NftContent::from_json)?, flags: field(&o, "flags", Some(NftFlags::default))? })
        }
    }

    impl FromJson for FungibleInfo {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "fungible_info")?;
            Ok(FungibleInfo {
                name: opt(&o, "name", text)?,
                symbol: opt(&o, "symbol", text)?,
                icon: opt(&o, "icon", ImageRef::from_json)?,
                flags: field(&o, "flags", Some(NftFlags::default))?,
            })
        }
    }

    impl FromJson for TransferQuantity {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "quantity")?;
            Ok(TransferQuantity { numeric: string_or_default(o, "numeric")? })
        }
    }

    impl FromJson for TransactionTransfer {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a transfer")?;
            Ok(TransactionTransfer {
                fungible_info: opt(o, "fungible_info", FungibleInfo::from_json)?,
                nft_info: opt(o, "nft_info", NftInfo::from_json)?,
                direction: string_or_default(o, "direction")?,
                quantity: field(o, "quantity", Some(TransferQuantity::default))?,
                value: opt(o, "value", number)?,
                price: opt(o, "price", number)?,
            })
        }
    }

    impl FromJson for TransactionMetadata {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "metadata")?;
            Ok(TransactionMetadata {
                operation_type: string_or_default(o, "operationType")?,
                hash: string_or_default(o, "hash")?,
                mined_at: string_or_default(o, "minedAt")?,
                sent_from: string_or_default(o, "sentFrom")?,
                sent_to: string_or_default(o, "sentTo")?,
                status: string_or_default(o, "status")?,
                nonce: match o.get("nonce") {
                    None => 0,
                    Some(_) => uint(o, "nonce", u64::MAX)?,
                },
                chain: opt(o, "chain", text)?,
            })
        }
    }

    impl FromJson for Transaction {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a transaction")?;
            Ok(Transaction { id: string(o, "id")?, metadata: field(o, "metadata", None)?, transfers: list(o, "transfers", true, TransactionTransfer::from_json)? })
        }
    }

    impl FromJson for TransactionsPage {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "a page")?;
            Ok(TransactionsPage { data: list(&o, "data", false, Transaction::from_json)?, next: opt(&o, "next", text)? })
        }
    }

    impl FromJson for CurrencyNetwork {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a network")?;
            Ok(CurrencyNetwork { name: string(o, "name")?, display_name: string(o, "display_name")?, chain_id: string(o, "chain_id")?, contract_address: string(o, "contract_address")? })
        }
    }

    impl FromJson for PaymentMethodLimit {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a limit")?;
            Ok(PaymentMethodLimit { id: string(o, "id")?, min: string(o, "min")?, max: string(o, "max")? })
        }
    }

    impl FromJson for Currency {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a currency")?;
            Ok(Currency {
                id: string(o, "id")?,
                name: string(o, "name")?,
                symbol: string(o, "symbol")?,
                networks: list(o, "networks", true, CurrencyNetwork::from_json)?,
                payment_method_limits: list(o, "payment_method_limits", true, PaymentMethodLimit::from_json)?,
            })
        }
    }

    impl FromJson for OnrampOptions {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = object(v, "the options")?;
            Ok(OnrampOptions {
                payment_currencies: list(&o, "paymentCurrencies", false, Currency::from_json)?,
                purchase_currencies: list(&o, "purchaseCurrencies", false, Currency::from_json)?,
            })
        }
    }

    impl FromJson for BatchCall {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "a call")?;
            Ok(BatchCall { to: string(o, "to")?, data: opt(o, "data", text)?, value: opt(o, "value", text)? })
        }
    }

    impl FromJson for BatchCalls {
        fn from_json(v: Value) -> Result<Self, String> {
            let o = &mut object(v, "the calls")?;
            Ok(BatchCalls {
                chain_id: string(o, "chainId")?,
                from: string(o, "from")?,
                version: string(o, "version")?,
                capabilities: o.get("capabilities").cloned().filter(|c| !c.is_null()),
                calls: list(o, "calls", false, BatchCall::from_json)?,
            })
        }
    }
}

pub(crate) use crate::service::json::obj;

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
