//! The visitor's purchases at the on-ramp providers (spec §7: the history call's `onramp`
//! parameter): `GET /v1/account/{address}/history?onramp={provider}&chainId=…` per provider, each
//! purchase a row of the Buy view — what was bought, through whom, when, and where it stands.

use crate::account::transactions::parse_mined_at;
use crate::chain::format::format_native_balance_en_us;
use crate::json;
use crate::service::entities::TransactionsPage;
use crate::service::json::Value;

/// Purchases shown at most (the newest, all providers together).
pub const PURCHASES_MAX: usize = 10;

/// A provider's history answer as the Buy view's rows (`{id, provider, amount, status, minedAt,
/// hash}`, status `completed` | `pending` | `failed`); none when it cannot be read.
pub fn purchase_rows(provider_name: &str, status: u16, body: &str) -> Vec<Value> {
    let page = (200..300).contains(&status).then(|| crate::host::json::from_str::<TransactionsPage>(body).ok()).flatten();
    let Some(page) = page else { return Vec::new() };
    page.data
        .iter()
        .take(PURCHASES_MAX)
        .map(|tx| {
            let m = &tx.metadata;
            let t = tx.transfers.iter().find(|t| t.direction == "in").or(tx.transfers.first());
            let symbol = t.and_then(|t| t.fungible_info.as_ref()?.symbol.clone()).unwrap_or_default();
            let amount = t.filter(|t| !t.quantity.numeric.is_empty()).map(|t| format!("{} {symbol}", format_native_balance_en_us(&t.quantity.numeric)).trim_end().to_string());
            let status = if m.status.ends_with("SUCCESS") {
                "completed"
            } else if m.status.ends_with("FAILED") {
                "failed"
            } else {
                "pending"
            };
            json!({"id": tx.id, "provider": provider_name, "amount": amount, "status": status, "minedAt": parse_mined_at(&m.mined_at), "hash": m.hash})
        })
        .collect()
}

/// Every provider's rows together, newest first (undated last), at most [`PURCHASES_MAX`].
pub fn newest_first(lists: &[(String, Vec<Value>)]) -> Vec<Value> {
    let mut rest: Vec<&Value> = lists.iter().flat_map(|(_, rows)| rows).collect();
    let time = |r: &Value| r.get("minedAt").and_then(Value::as_i64).unwrap_or(i64::MIN);
    let mut out = Vec::new();
    // The newest left each time (the first of equals): a few rows, no sort linked in.
    while out.len() < PURCHASES_MAX && !rest.is_empty() {
        let i = (0..rest.len()).max_by_key(|&i| (time(rest[i]), std::cmp::Reverse(i))).unwrap_or(0);
        out.push(rest.remove(i).clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(id: &str, status: &str, mined: &str, numeric: &str) -> Value {
        json!({"id": id, "metadata": {"operationType": "buy", "hash": format!("0x{id}"), "minedAt": mined, "sentFrom": "0x11", "sentTo": "0x22", "status": status},
            "transfers": [{"fungible_info": {"name": "USD Coin", "symbol": "USDC"}, "direction": "in", "quantity": {"numeric": numeric}}]})
    }

    #[test]
    fn each_purchase_says_what_was_bought_through_whom_and_where_it_stands() {
        let body = json!({"data": [
            tx("a", "ONRAMP_TRANSACTION_STATUS_SUCCESS", "1800000000000", "25"),
            tx("b", "ONRAMP_TRANSACTION_STATUS_IN_PROGRESS", "1800000100000", "1500.5"),
            tx("c", "ONRAMP_TRANSACTION_STATUS_FAILED", "", "10"),
        ], "next": null});
        let rows = purchase_rows("Coinbase", 200, &body.to_string());
        let got: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r.get("amount").unwrap().as_str().unwrap(), r.get("status").unwrap().as_str().unwrap(), r.get("provider").unwrap().as_str().unwrap())).collect();
        assert_eq!(got, [("25.000 USDC", "completed", "Coinbase"), ("1,500.500 USDC", "pending", "Coinbase"), ("10.000 USDC", "failed", "Coinbase")]);
        assert_eq!(rows[0].get("minedAt").and_then(Value::as_i64), Some(1_800_000_000_000));
        assert_eq!(rows[2].get("minedAt"), Some(&Value::Null));
        assert!(purchase_rows("Coinbase", 500, &body.to_string()).is_empty(), "a failed call: no rows");
        assert!(purchase_rows("Coinbase", 200, "{\"data\": 3}").is_empty(), "an answer that cannot be read: no rows");
    }

    #[test]
    fn the_providers_purchases_merge_newest_first_and_at_most_ten() {
        let rows = |name: &str, times: &[i64]| -> (String, Vec<Value>) {
            (name.into(), times.iter().map(|t| json!({"id": format!("{name}{t}"), "minedAt": t})).collect())
        };
        let merged = newest_first(&[rows("m", &[5, 1, 9]), rows("c", &[7, 3, 2, 8, 6, 4, 11, 10])]);
        let ids: Vec<&str> = merged.iter().map(|r| r.get("id").unwrap().as_str().unwrap()).collect();
        assert_eq!(ids, ["c11", "c10", "m9", "c8", "c7", "c6", "m5", "c4", "c3", "c2"]);
    }
}
