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
        Some(Value::Array(a)) => a.into_iter().map(|v| if let Value::String(s) = v { Ok(s) } else { Err(bad(key)) }).collect(),
        _ => Err(bad(key)),
    }
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
            Value::Array(a) => a.into_iter().map(T::from_json).collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;
    use serde_json::json;

    /// The hand reader and the derived deserializer agree (both accept with the same value, or both reject).
    fn same<T: FromJson + DeserializeOwned + PartialEq + std::fmt::Debug>(samples: &[serde_json::Value]) {
        for s in samples {
            let derived = serde_json::from_value::<T>(s.clone()).ok();
            let by_hand = T::from_json(Value::from(s.clone())).ok();
            assert_eq!(by_hand, derived, "{s}");
        }
    }

    #[test]
    fn hand_readers_match_the_derived_deserializers() {
        same::<RemoteFeatures>(&[
            json!({}), json!({"email": true, "socials": ["x"], "swaps": [], "onramp": ["a"], "activity": true, "reownBranding": true, "multiWallet": true, "other": 1}),
            json!({"email": null}), json!({"socials": [1]}), json!({"socials": null}), json!("x"),
        ]);
        same::<ProjectConfig>(&[json!({"features": {"email": true}}), json!({}), json!({"features": null}), json!({"features": {"email": 1}})]);
        same::<AllowedOrigins>(&[json!({"allowedOrigins": ["https://a.com"]}), json!({}), json!({"allowedOrigins": null}), json!({"allowedOrigins": [1]})]);
        same::<WalletsPage>(&[
            json!({"data": [{"id": "a", "name": "A"}], "count": 1}),
            json!({"data": [{"id": "a", "name": "A", "image_id": "i", "rdns": "r", "chains": ["eip155:1"], "mobile_link": null, "desktop_link": "d", "webapp_link": "w"}], "count": 3}),
            json!({"data": [{"id": "a", "name": "A", "image_id": null}], "count": 1}),
            json!({"data": [{"id": "a"}], "count": 1}),
            json!({"data": [], "count": -1}),
            json!({"data": [], "count": 1.5}),
            json!({"data": []}),
            json!({"count": 1}),
        ]);
        same::<Vec<String>>(&[json!(["a", "b"]), json!([]), json!(["a", 1]), json!("a"), json!(null)]);
        same::<String>(&[json!("a"), json!(1), json!(null)]);
    }
}

pub(crate) use crate::service::json::obj;
