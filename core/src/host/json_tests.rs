//! Unit tests of `json`.

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
    {
        use crate::service::entities::{BatchCalls, OnrampOptions, TransactionsPage};
        let tx = json!({"id": "t", "metadata": {"operationType": "send", "hash": "0x1", "minedAt": "2026-11-02T10:00:00Z", "sentFrom": "a", "sentTo": "b",
            "status": "confirmed", "nonce": 3, "chain": "eip155:1"},
            "transfers": [{"fungible_info": {"name": "USD Coin", "symbol": null, "icon": {"url": "http://x"}, "flags": {"is_spam": true}}, "direction": "out",
                "quantity": {"numeric": "12.5"}, "value": 12.5, "price": 1}, {"nft_info": {"name": null, "content": {"preview": {"url": null}}}}]});
        same::<TransactionsPage>(&[
            json!({"data": [tx.clone()], "next": "c2"}),
            json!({"data": [], "next": null}),
            json!({"data": [{"id": "t", "metadata": {}}]}),
            json!({"data": [{"id": "t"}]}),
            json!({"data": [{"id": "t", "metadata": {"nonce": -1}}]}),
            json!({"data": [{"id": "t", "metadata": {"hash": null}}]}),
            json!({"data": [{"id": "t", "metadata": {}, "transfers": [{"value": "1"}]}]}),
            json!({"next": "x"}),
            json!([tx]),
        ]);
        let currency = json!({"id": "USDC", "name": "USD Coin", "symbol": "USDC", "networks": [{"name": "eip155:1", "display_name": "Ethereum", "chain_id": "1", "contract_address": "0x1"}],
            "payment_method_limits": [{"id": "card", "min": "10", "max": "100"}]});
        same::<OnrampOptions>(&[
            json!({"paymentCurrencies": [currency.clone()], "purchaseCurrencies": [currency.clone()]}),
            json!({"paymentCurrencies": [{"id": "USD", "name": "US Dollar", "symbol": "USD"}], "purchaseCurrencies": []}),
            json!({"paymentCurrencies": [{"id": "USD", "name": "US Dollar"}], "purchaseCurrencies": []}),
            json!({"paymentCurrencies": []}),
            json!({"paymentCurrencies": [], "purchaseCurrencies": [{"id": "A", "name": "a", "symbol": "A", "networks": [{"name": "x"}]}]}),
        ]);
        same::<BatchCalls>(&[
            json!({"chainId": "0x1", "from": "0x1", "version": "1.0", "calls": [{"to": "0x2", "data": "0x"}]}),
            json!({"chainId": "0x1", "from": "0x1", "version": "1.0", "capabilities": {"x": 1}, "calls": [{"to": "0x2", "value": "0x1"}]}),
            json!({"chainId": "0x1", "from": "0x1", "version": "1.0", "calls": [{"data": "0x"}]}),
            json!({"chainId": "0x1", "from": "0x1", "calls": []}),
            json!({"calls": "x"}),
        ]);
    }
    same::<String>(&[json!("a"), json!(1), json!(null)]);
}
