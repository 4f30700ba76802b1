//! Reading a Solana node: `getBalance` (lamports, at `confirmed`), `getSignatureStatuses`, and
//! `getHealth` to see it is up.

use crate::chain::family::Node;
use crate::chain::format::balance_en_us;
use crate::service::json::{obj, parse, Value};

pub(super) struct Sol;

/// A JSON-RPC 2.0 body.
fn body(id: u64, method: &str, params: Value) -> String {
    obj(vec![("jsonrpc", "2.0".into()), ("id", id.into()), ("method", method.into()), ("params", params)]).to_string()
}

impl Node for Sol {
    fn balance_body(&self, id: u64, address: &str) -> String {
        body(id, "getBalance", Value::Array(vec![address.into(), obj(vec![("commitment", "confirmed".into())])]))
    }

    /// `{"result": {"context": …, "value": <lamports>}}`, floored to 3 decimals and grouped.
    fn parse_balance(&self, body: &str, decimals: u32) -> Option<String> {
        let v = parse(body).ok()?;
        let lamports = v.get("result")?.get("value")?.as_u64()?;
        balance_en_us(&lamports.to_string(), decimals)
    }

    /// (`signature` checked by the caller: base58, nothing to escape.)
    fn ping_call(&self) -> Option<crate::chain::family::WalletCall> {
        Some(crate::chain::family::WalletCall::new("getHealth", Vec::new()))
    }

    fn receipt_body(&self, id: u64, signature: &str) -> String {
        let params = Value::Array(vec![Value::Array(vec![signature.into()]), obj(vec![("searchTransactionHistory", true.into())])]);
        body(id, "getSignatureStatuses", params)
    }

    /// A 2xx answer whose status is `confirmed` or `finalized` (failed or not: it landed).
    fn is_mined(&self, status: u16, body: &str) -> bool {
        if !(200..300).contains(&status) {
            return false;
        }
        let Ok(v) = parse(body) else { return false };
        let s = v.get("result").and_then(|r| r.get("value")).and_then(|l| l.get(0)).and_then(|s| s.get("confirmationStatus")).and_then(Value::as_str);
        matches!(s, Some("confirmed" | "finalized"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    const ADDR: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

    #[test]
    fn the_balance_is_read_in_lamports_at_confirmed_and_floored_to_three_decimals() {
        let b: Value = parse(&Sol.balance_body(7, ADDR)).unwrap();
        assert_eq!(b, json!({"jsonrpc": "2.0", "id": 7, "method": "getBalance", "params": [ADDR, {"commitment": "confirmed"}]}));
        let answer = json!({"jsonrpc": "2.0", "id": 7, "result": {"context": {"slot": 5}, "value": 1_234_567_899_999_u64}}).to_string();
        assert_eq!(Sol.parse_balance(&answer, 9).as_deref(), Some("1,234.567"));
        assert_eq!(Sol.parse_balance(r#"{"result": {"value": -1}}"#, 9), None);
        assert_eq!(Sol.parse_balance(r#"{"error": {"code": -32602}}"#, 9), None);
    }

    #[test]
    fn a_signature_is_landed_once_confirmed_or_finalized() {
        let sig = "5".repeat(88);
        let b: Value = parse(&Sol.receipt_body(1, &sig)).unwrap();
        assert_eq!(b["method"], "getSignatureStatuses");
        assert_eq!(b["params"], json!([[sig], {"searchTransactionHistory": true}]));
        let status = |s: &str| json!({"result": {"context": {"slot": 9}, "value": [{"slot": 9, "confirmationStatus": s, "err": null}]}}).to_string();
        assert!(Sol.is_mined(200, &status("finalized")));
        assert!(Sol.is_mined(200, &status("confirmed")));
        assert!(!Sol.is_mined(200, &status("processed")));
        assert!(!Sol.is_mined(200, r#"{"result": {"value": [null]}}"#), "not known yet");
        assert!(!Sol.is_mined(500, &status("finalized")));
    }
}
