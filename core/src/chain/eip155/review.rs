//! ApproveTransaction: what a request that needs the visitor's approval will sign, shown exactly
//! (spec §2, §6). A message as its text (or its hex when it is not text), typed data as its domain
//! and fields, a transaction as its receiver, value, network fee and — when the called function's
//! signature is known — the function and its arguments. An ERC-20 `approve` of an unlimited amount
//! is called out. Everything here reads hostile input: lengths are bounded before decoding.

use crate::json;
use crate::service::json::Value;

use crate::chain::units::format_units;

/// Largest message, typed data or call data shown (bytes of JSON or hex characters).
pub const MAX_PAYLOAD: usize = 64 * 1024;
/// Rows of typed data shown at most (the rest is counted).
pub const MAX_FIELDS: usize = 60;
/// `2^256 - 1`, the amount wallets call unlimited.
const MAX_UINT256: &str = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";

/// Known function selectors: name and argument types (static types only).
const FUNCTIONS: [(&str, &str, &[(&str, &str)]); 7] = [
    ("a9059cbb", "transfer", &[("to", "address"), ("amount", "uint256")]),
    ("095ea7b3", "approve", &[("spender", "address"), ("amount", "uint256")]),
    ("23b872dd", "transferFrom", &[("from", "address"), ("to", "address"), ("amount", "uint256")]),
    ("a22cb465", "setApprovalForAll", &[("operator", "address"), ("approved", "bool")]),
    ("42842e0e", "safeTransferFrom", &[("from", "address"), ("to", "address"), ("tokenId", "uint256")]),
    ("d0e30db0", "deposit", &[]),
    ("2e1a7d4d", "withdraw", &[("amount", "uint256")]),
];

fn hex_body(s: &str) -> Option<&str> {
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    (h.len() % 2 == 0 && h.bytes().all(|b| b.is_ascii_hexdigit())).then_some(h)
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len() / 2).filter_map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).ok()).collect()
}

/// A `personal_sign` message: its UTF-8 text when it is printable text, else its hex.
pub fn message_view(data: &str) -> Result<Value, String> {
    if data.len() > MAX_PAYLOAD {
        return Err("The message is too long to show".into());
    }
    match hex_body(data) {
        Some(h) => {
            let bytes = hex_bytes(h);
            match std::str::from_utf8(&bytes) {
                Ok(t) if t.chars().all(|c| !c.is_control() || c == '\n' || c == '\t' || c == '\r') => Ok(json!({"kind": "message", "text": t})),
                _ => Ok(json!({"kind": "message", "hex": data.to_ascii_lowercase()})),
            }
        }
        None => Ok(json!({"kind": "message", "text": data})),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.chars().take(200).collect(),
        Value::Null => "null".into(),
        other => other.to_string().chars().take(200).collect(),
    }
}

/// Flattens a JSON value into `path = value` rows (at most [`MAX_FIELDS`]).
fn flatten(prefix: &str, v: &Value, rows: &mut Vec<Value>, total: &mut usize) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let key: String = k.chars().take(64).collect();
                flatten(&if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") }, x, rows, total);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), x, rows, total);
            }
        }
        x => {
            *total += 1;
            if rows.len() < MAX_FIELDS {
                rows.push(json!([prefix, scalar(x)]));
            }
        }
    }
}

/// `eth_signTypedData_v4`'s typed data (a JSON string or object): its primary type, domain and
/// message fields.
pub fn typed_data_view(data: &Value) -> Result<Value, String> {
    let parsed;
    let v = match data {
        Value::String(s) if s.len() <= MAX_PAYLOAD => {
            parsed = crate::service::json::parse(s).map_err(|_| "The typed data is not JSON".to_string())?;
            &parsed
        }
        Value::String(_) => return Err("The typed data is too long to show".into()),
        Value::Object(_) if data.to_string().len() <= MAX_PAYLOAD => data,
        _ => return Err("The typed data must be a JSON object".into()),
    };
    let primary = v.get("primaryType").and_then(Value::as_str).filter(|s| !s.is_empty() && s.len() <= 64).ok_or("The typed data has no primaryType")?;
    let message = v.get("message").filter(|m| m.is_object()).ok_or("The typed data has no message")?;
    if !v.get("types").is_some_and(Value::is_object) {
        return Err("The typed data has no types".into());
    }
    let (mut domain, mut fields, mut total) = (Vec::new(), Vec::new(), 0);
    flatten("", v.get("domain").unwrap_or(&Value::Null), &mut domain, &mut 0);
    flatten("", message, &mut fields, &mut total);
    Ok(json!({"kind": "typedData", "primaryType": primary, "domain": domain, "fields": fields, "more": total.saturating_sub(fields.len())}))
}

/// A 32-byte ABI word as an unsigned decimal.
fn word_decimal(word: &str) -> String {
    // Base-10 conversion of a 256-bit number held as hex, by repeated division on u32 limbs.
    let mut limbs: Vec<u32> = (0..8).map(|i| u32::from_str_radix(&word[i * 8..i * 8 + 8], 16).unwrap_or(0)).collect();
    if limbs.iter().all(|l| *l == 0) {
        return "0".into();
    }
    let mut digits = Vec::new();
    while limbs.iter().any(|l| *l != 0) {
        let mut rem: u64 = 0;
        for l in limbs.iter_mut() {
            let cur = (rem << 32) | *l as u64;
            *l = (cur / 10) as u32;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// The called function, when its selector is known and its arguments decode.
pub fn decode_call(data: &str) -> Option<Value> {
    let h = hex_body(data)?;
    if h.len() < 8 {
        return None;
    }
    let sel = h[..8].to_ascii_lowercase();
    let (_, name, args) = FUNCTIONS.iter().find(|(s, _, _)| *s == sel)?;
    let body = &h[8..];
    if body.len() < args.len() * 64 {
        return None;
    }
    let mut out = Vec::new();
    let mut unlimited = false;
    for (i, (arg, ty)) in args.iter().enumerate() {
        let word = body[i * 64..i * 64 + 64].to_ascii_lowercase();
        let value = match *ty {
            "address" => {
                if !word[..24].bytes().all(|b| b == b'0') {
                    return None;
                }
                crate::chain::address::checksum_address(&format!("0x{}", &word[24..])).ok()?
            }
            "bool" => match word_decimal(&word).as_str() {
                "0" => "false".into(),
                "1" => "true".into(),
                _ => return None,
            },
            _ => {
                if *name == "approve" && word == MAX_UINT256 {
                    unlimited = true;
                    "Unlimited".into()
                } else {
                    word_decimal(&word)
                }
            }
        };
        out.push(json!([arg, value]));
    }
    Some(json!({"name": name, "args": out, "unlimited": unlimited}))
}

fn quantity(v: Option<&Value>) -> Result<Option<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() <= 66 => {
            let h = s.strip_prefix("0x").ok_or("Quantities must be 0x-prefixed hex")?;
            if h.is_empty() || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err("Quantities must be 0x-prefixed hex".into());
            }
            Ok(Some(word_decimal(&format!("{h:0>64}"))))
        }
        _ => Err("Quantities must be 0x-prefixed hex".into()),
    }
}

/// One transaction (`eth_sendTransaction`'s object or a `wallet_sendCalls` call): receiver,
/// value in the network's currency, call data decoded when known.
pub fn transaction_view(tx: &Value, symbol: &str, decimals: u32) -> Result<Value, String> {
    let o = tx.as_object().ok_or("The transaction must be an object")?;
    let to = match o.get("to") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if crate::chain::address::is_evm_address(s, false) && s.starts_with("0x") => Some(crate::chain::address::checksum_address(s).map_err(|e| e.message().to_string())?),
        _ => return Err("The transaction's `to` is not an address".into()),
    };
    let value = quantity(o.get("value"))?.unwrap_or_else(|| "0".into());
    let data = match o.get("data").or_else(|| o.get("input")) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.len() <= MAX_PAYLOAD && hex_body(s).is_some() => Some(s.clone()),
        _ => return Err("The transaction's data is not hex".into()),
    };
    let function = data.as_deref().and_then(decode_call);
    let value_text = format!("{} {symbol}", format_units(&value, decimals).unwrap_or(value.clone()));
    Ok(json!({
        "to": to,
        "value": value_text,
        "data": data.as_deref().map(|d| if d.len() > 138 { format!("{}…", &d[..138]) } else { d.to_string() }),
        "dataBytes": data.as_deref().and_then(hex_body).map(|h| h.len() / 2).unwrap_or(0),
        "function": function,
    }))
}

/// The network fee of `gas` at `gas_price` (both hex quantities), in the network's currency.
pub fn fee_text(gas: &str, gas_price: &str, symbol: &str, decimals: u32) -> Option<String> {
    let g = u128::from_str_radix(gas.strip_prefix("0x")?, 16).ok()?;
    let p = u128::from_str_radix(gas_price.strip_prefix("0x")?, 16).ok()?;
    let wei = g.checked_mul(p)?;
    let text = format_units(&wei.to_string(), decimals).ok()?;
    // Six significant decimals are enough to judge a fee.
    let text = match text.split_once('.') {
        Some((w, f)) if f.len() > 6 => format!("{w}.{}", &f[..6]).trim_end_matches('0').trim_end_matches('.').to_string(),
        _ => text,
    };
    Some(format!("{text} {symbol}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_message_shows_as_text_and_binary_as_hex() {
        assert_eq!(message_view("0x68656c6c6f20776f726c64").unwrap()["text"], "hello world");
        assert_eq!(message_view("plain words").unwrap()["text"], "plain words");
        let bin = message_view("0x00ff10").unwrap();
        assert_eq!(bin["hex"], "0x00ff10");
        assert!(bin.get("text").is_none());
        assert!(message_view(&"a".repeat(MAX_PAYLOAD + 1)).is_err());
    }

    #[test]
    fn typed_data_shows_its_domain_and_fields() {
        let td = json!({"types": {"EIP712Domain": [], "Mail": []}, "primaryType": "Mail", "domain": {"name": "Ether Mail", "chainId": 1}, "message": {"from": {"name": "Cow"}, "contents": "Hello, Bob!"}});
        let v = typed_data_view(&Value::String(td.to_string())).unwrap();
        assert_eq!(v["primaryType"], "Mail");
        assert!(v["domain"].as_array().unwrap().contains(&json!(["name", "Ether Mail"])));
        assert!(v["fields"].as_array().unwrap().contains(&json!(["from.name", "Cow"])));
        assert!(v["fields"].as_array().unwrap().contains(&json!(["contents", "Hello, Bob!"])));
        assert_eq!(typed_data_view(&json!("{nope")).unwrap_err(), "The typed data is not JSON");
        assert_eq!(typed_data_view(&json!({"types": {}, "message": {}})).unwrap_err(), "The typed data has no primaryType");
    }

    #[test]
    fn many_typed_data_fields_are_cut_and_counted() {
        let message: crate::service::json::Map = (0..100).map(|i| (format!("f{i}"), json!(i))).collect();
        let v = typed_data_view(&json!({"types": {}, "primaryType": "T", "message": message})).unwrap();
        assert_eq!(v["fields"].as_array().unwrap().len(), MAX_FIELDS);
        assert_eq!(v["more"], 100 - MAX_FIELDS);
    }

    #[test]
    fn an_unlimited_erc20_approve_is_called_out() {
        let spender = "70997970c51812dc3a010c7d01b50e0d17dc79c8";
        let data = format!("0x095ea7b3{spender:0>64}{MAX_UINT256}");
        let f = decode_call(&data).unwrap();
        assert_eq!(f["name"], "approve");
        assert_eq!(f["unlimited"], true);
        assert_eq!(f["args"][0], json!(["spender", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]));
        assert_eq!(f["args"][1], json!(["amount", "Unlimited"]));
        let limited = format!("0x095ea7b3{spender:0>64}{:0>64}", "3e8");
        let f = decode_call(&limited).unwrap();
        assert_eq!(f["unlimited"], false);
        assert_eq!(f["args"][1], json!(["amount", "1000"]));
    }

    #[test]
    fn unknown_or_malformed_calls_are_not_decoded() {
        assert!(decode_call("0xdeadbeef").is_none());
        assert!(decode_call("0xa9059cbb00").is_none(), "arguments cut short");
        let dirty_address = format!("0xa9059cbb{}{:0>64}", "f".repeat(64), "1");
        assert!(decode_call(&dirty_address).is_none(), "an address word with high bytes set");
    }

    #[test]
    fn a_transaction_shows_its_receiver_value_and_function() {
        let to = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
        let data = format!("0xa9059cbb{:0>64}{:0>64}", "70997970c51812dc3a010c7d01b50e0d17dc79c8", "f4240");
        let v = transaction_view(&json!({"to": to, "value": "0xde0b6b3a7640000", "data": data}), "ETH", 18).unwrap();
        assert_eq!(v["to"], "0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assert_eq!(v["value"], "1 ETH");
        assert_eq!(v["function"]["name"], "transfer");
        assert_eq!(v["function"]["args"][1], json!(["amount", "1000000"]));
        assert!(transaction_view(&json!({"to": "nope"}), "ETH", 18).is_err());
        assert!(transaction_view(&json!({"to": to, "value": "12"}), "ETH", 18).is_err());
        assert!(transaction_view(&json!([1]), "ETH", 18).is_err());
    }

    #[test]
    fn the_fee_is_gas_times_price_in_the_native_currency() {
        assert_eq!(fee_text("0x5208", "0x3b9aca00", "ETH", 18).unwrap(), "0.000021 ETH");
        assert!(fee_text("5208", "0x1", "ETH", 18).is_none());
    }

    #[test]
    fn word_decimal_reads_256_bit_numbers() {
        assert_eq!(word_decimal(MAX_UINT256), "115792089237316195423570985008687907853269984665640564039457584007913129639935");
        assert_eq!(word_decimal(&format!("{:0>64}", "0")), "0");
    }
}
