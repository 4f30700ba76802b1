//! Fiat on-ramp (spec sections 3, 4, 8, 9).
//!
//! The built-in on-ramp facts the Buy view falls back on (spec sections 3, 4, 8, 9): the two
//! providers, and the options (`GET /v1/onramp/options`) used when fetching them fails — payment
//! currencies USD and EUR (card 10.00–7500.00, bank account 10.00–25000.00) and the purchase token
//! USDC on Ethereum and Polygon.

use crate::service::constants::{DEFAULT_PAYMENT_CURRENCIES, DEFAULT_PAYMENT_METHOD_LIMITS, DEFAULT_PURCHASE_TOKEN, DEFAULT_PURCHASE_TOKEN_NETWORKS};
use crate::service::entities::{Currency, CurrencyNetwork, OnrampOptions, PaymentMethodLimit};

/// The two on-ramp providers (id, name), in the spec's order, shown when the service lists none.
pub const PROVIDERS: [(&str, &str); 2] = [("meld", "Meld.io"), ("coinbase", "Coinbase")];

fn limits() -> Vec<PaymentMethodLimit> {
    DEFAULT_PAYMENT_METHOD_LIMITS
        .iter()
        .map(|(id, min, max)| PaymentMethodLimit { id: id.to_string(), min: min.to_string(), max: max.to_string() })
        .collect()
}

/// The built-in default options (used when fetching options fails).
pub fn default_options() -> OnrampOptions {
    let payment_currencies = DEFAULT_PAYMENT_CURRENCIES
        .iter()
        .map(|c| Currency {
            id: c.to_string(),
            name: c.to_string(),
            symbol: c.to_string(),
            networks: vec![],
            payment_method_limits: limits(),
        })
        .collect();
    let purchase_currencies = vec![Currency {
        id: "2b92315d-eab7-5bef-84fa-089a131333f5".into(),
        name: "USD Coin".into(),
        symbol: DEFAULT_PURCHASE_TOKEN.into(),
        networks: DEFAULT_PURCHASE_TOKEN_NETWORKS
            .iter()
            .map(|(name, display, chain, contract)| CurrencyNetwork {
                name: name.to_string(),
                display_name: display.to_string(),
                chain_id: chain.to_string(),
                contract_address: contract.to_string(),
            })
            .collect(),
        payment_method_limits: vec![],
    }];
    OnrampOptions { payment_currencies, purchase_currencies }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_options_are_usd_and_eur_with_their_limits_and_usdc_on_two_networks() {
        let o = default_options();
        let ids: Vec<&str> = o.payment_currencies.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, vec!["USD", "EUR"]);
        let usd = &o.payment_currencies[0];
        assert!(usd.payment_method_limits.iter().any(|l| l.id == "card" && l.min == "10.00" && l.max == "7500.00"));
        assert!(usd.payment_method_limits.iter().any(|l| l.id == "bank_account" && l.min == "10.00" && l.max == "25000.00"));
        let usdc = &o.purchase_currencies[0];
        assert_eq!(usdc.symbol, "USDC");
        let chains: Vec<&str> = usdc.networks.iter().map(|n| n.chain_id.as_str()).collect();
        assert_eq!(chains, vec!["1", "137"]);
        assert_eq!(PROVIDERS.map(|p| p.0), ["meld", "coinbase"]);
    }
}
