//! Fiat on-ramp (spec sections 3, 4, 8, 9).
//!
//! * Two providers, each with a fee range of 1-2%.
//! * Options (`GET /v1/onramp/options`) fall back to a built-in default list on failure: payment
//!   currencies USD and EUR (card 10.00–7500.00, bank account 10.00–25000.00) and the purchase
//!   token USDC on Ethereum and Polygon.
//! * `quotesLoading` is true while a quote is requested; a failed quote falls back to a mock quote
//!   (every amount = the requested amount, in the payment currency, id `mocked-quote-id`).
//! * The quote's purchase amount is read from `purchaseAmount.amount`.

use serde::Serialize;

use crate::service::decimal::{f64_text, parse_f64};
use crate::service::constants::{
    DEFAULT_PAYMENT_CURRENCIES, DEFAULT_PAYMENT_METHOD_LIMITS, DEFAULT_PURCHASE_TOKEN,
    DEFAULT_PURCHASE_TOKEN_NETWORKS, ONRAMP_PROVIDER_FEE_RANGE,
};
use crate::service::entities::{
    Currency, CurrencyAmount, CurrencyNetwork, OnrampOptions, OnrampProvider, OnrampQuote,
    OnrampState, PaymentMethodLimit,
};

/// Id of the mock quote.
pub const MOCK_QUOTE_ID: &str = "mocked-quote-id";

/// The two on-ramp providers.
pub fn default_providers() -> Vec<OnrampProvider> {
    vec![
        OnrampProvider {
            name: "coinbase".into(),
            label: "Coinbase".into(),
            fee_range: ONRAMP_PROVIDER_FEE_RANGE.into(),
            url: "https://pay.coinbase.com".into(),
            supported_chains: vec!["eip155".into()],
        },
        OnrampProvider {
            name: "meld".into(),
            label: "Meld.io".into(),
            fee_range: ONRAMP_PROVIDER_FEE_RANGE.into(),
            url: "https://meldcrypto.com".into(),
            supported_chains: vec!["eip155".into(), "solana".into()],
        },
    ]
}

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

/// The mock quote for a failed quote request.
pub fn mock_quote(payment_currency_id: &str, amount: &str) -> OnrampQuote {
    let a = || CurrencyAmount { amount: amount.to_string(), currency: payment_currency_id.to_string() };
    OnrampQuote {
        coinbase_fee: a(),
        network_fee: a(),
        payment_subtotal: a(),
        payment_total: a(),
        purchase_amount: a(),
        quote_id: MOCK_QUOTE_ID.into(),
    }
}

/// Body of `POST /v1/onramp/quote`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteRequest {
    pub purchase_currency: Currency,
    pub payment_currency: Currency,
    pub amount: String,
    pub network: String,
}

/// The on-ramp controller around [`OnrampState`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Onramp {
    pub state: OnrampState,
}

impl Onramp {
    pub fn new() -> Self {
        Onramp { state: OnrampState { providers: default_providers(), ..Default::default() } }
    }

    pub fn select_provider(&mut self, name: &str) -> bool {
        match self.state.providers.iter().find(|p| p.name == name) {
            Some(p) => {
                self.state.selected_provider = Some(p.clone());
                true
            }
            None => false,
        }
    }

    /// Options fetched (`Some`) or failed (`None` → built-in defaults). Selects the first purchase
    /// and payment currencies when none is selected.
    pub fn on_options(&mut self, options: Option<OnrampOptions>) {
        let o = options
            .filter(|o| !o.payment_currencies.is_empty() && !o.purchase_currencies.is_empty())
            .unwrap_or_else(default_options);
        self.state.payment_currencies = o.payment_currencies;
        self.state.purchase_currencies = o.purchase_currencies;
        if self.state.payment_currency.is_none() {
            self.state.payment_currency = self.state.payment_currencies.first().cloned();
        }
        if self.state.purchase_currency.is_none() {
            self.state.purchase_currency = self.state.purchase_currencies.first().cloned();
        }
    }

    /// Request a quote for `amount` (fiat) on `network`: sets `quotesLoading`. `None` when the
    /// currencies are not chosen or the amount is not a positive number.
    pub fn request_quote(&mut self, amount: &str, network: &str) -> Option<QuoteRequest> {
        let a = parse_f64(amount.trim()).filter(|v| *v > 0.0)?;
        let purchase_currency = self.state.purchase_currency.clone()?;
        let payment_currency = self.state.payment_currency.clone()?;
        self.state.payment_amount = Some(a);
        self.state.quotes_loading = true;
        self.state.error = None;
        Some(QuoteRequest { purchase_currency, payment_currency, amount: amount.trim().to_string(), network: network.to_string() })
    }

    /// The quote arrived (`Some`) or failed (`None` → mock quote). Clears `quotesLoading` and sets
    /// the purchase amount from `purchaseAmount.amount`. Returns the quote used.
    pub fn on_quote(&mut self, quote: Option<OnrampQuote>) -> OnrampQuote {
        let q = quote.unwrap_or_else(|| {
            let pay = self.state.payment_currency.as_ref().map(|c| c.id.clone()).unwrap_or_default();
            let amount = self.state.payment_amount.map(f64_text).unwrap_or_else(|| "0".into());
            mock_quote(&pay, &amount)
        });
        self.state.quotes_loading = false;
        self.state.purchase_amount = parse_f64(q.purchase_amount.amount.trim());
        q
    }

    /// Whether `amount` is within the payment currency's limits for `method` (e.g. `card`).
    pub fn within_limits(&self, method: &str, amount: f64) -> bool {
        let Some(c) = &self.state.payment_currency else { return false };
        c.payment_method_limits.iter().filter(|l| l.id == method).any(|l| {
            match (parse_f64(&l.min), parse_f64(&l.max)) {
                (Some(min), Some(max)) => amount >= min && amount <= max,
                _ => false,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_providers_with_1_to_2_percent_fees() {
        let p = default_providers();
        assert_eq!(p.len(), 2);
        assert!(p.iter().all(|x| x.fee_range == "1-2%"));
        let mut o = Onramp::new();
        assert!(o.select_provider("meld"));
        assert!(!o.select_provider("nope"));
    }

    #[test]
    fn onramp_options_fall_back_to_default_list_on_failure() {
        let mut o = Onramp::new();
        o.on_options(None);
        let ids: Vec<&str> = o.state.payment_currencies.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, vec!["USD", "EUR"]);
        let usd = &o.state.payment_currencies[0];
        assert!(usd.payment_method_limits.iter().any(|l| l.id == "card" && l.min == "10.00" && l.max == "7500.00"));
        assert!(usd.payment_method_limits.iter().any(|l| l.id == "bank_account" && l.min == "10.00" && l.max == "25000.00"));
        let usdc = &o.state.purchase_currencies[0];
        assert_eq!(usdc.symbol, "USDC");
        let chains: Vec<&str> = usdc.networks.iter().map(|n| n.chain_id.as_str()).collect();
        assert_eq!(chains, vec!["1", "137"]);
        assert_eq!(o.state.payment_currency.as_ref().unwrap().id, "USD");
        assert_eq!(o.state.purchase_currency.as_ref().unwrap().symbol, "USDC");
    }

    #[test]
    fn quote_loading_true_while_requested() {
        let mut o = Onramp::new();
        o.on_options(None);
        assert!(!o.state.quotes_loading);
        let req = o.request_quote("100", "ethereum-mainnet").unwrap();
        assert!(o.state.quotes_loading);
        assert_eq!(req.amount, "100");
        let mut q = mock_quote("USD", "100");
        q.purchase_amount.amount = "99.5".into();
        q.quote_id = "real".into();
        let used = o.on_quote(Some(q));
        assert!(!o.state.quotes_loading);
        assert_eq!(used.quote_id, "real");
        assert_eq!(o.state.purchase_amount, Some(99.5));
    }

    #[test]
    fn failed_quote_falls_back_to_mock_quote() {
        let mut o = Onramp::new();
        o.on_options(None);
        o.request_quote("50", "polygon-mainnet").unwrap();
        let q = o.on_quote(None);
        assert_eq!(q.quote_id, "mocked-quote-id");
        assert_eq!(q.purchase_amount.amount, "50");
        assert_eq!(q.purchase_amount.currency, "USD");
        assert!(!o.state.quotes_loading);
        assert_eq!(o.state.purchase_amount, Some(50.0));
    }

    #[test]
    fn quote_needs_a_positive_amount_and_currencies() {
        let mut o = Onramp::new();
        assert!(o.request_quote("10", "x").is_none());
        o.on_options(None);
        assert!(o.request_quote("abc", "x").is_none());
        assert!(o.request_quote("0", "x").is_none());
        assert!(!o.state.quotes_loading);
    }

    #[test]
    fn payment_limits() {
        let mut o = Onramp::new();
        o.on_options(None);
        assert!(o.within_limits("card", 10.0));
        assert!(o.within_limits("card", 7500.0));
        assert!(!o.within_limits("card", 7500.01));
        assert!(o.within_limits("bank_account", 25000.0));
        assert!(!o.within_limits("bank_account", 9.99));
    }

    proptest::proptest! {
        #[test]
        fn onramp_inputs_never_panic(a in ".*", n in ".*") {
            let mut o = Onramp::new();
            o.on_options(None);
            let _ = o.request_quote(&a, &n);
            let mut q = mock_quote("USD", &a);
            q.purchase_amount.amount = n.clone();
            let _ = o.on_quote(Some(q));
            let _ = o.select_provider(&a);
        }
    }
}
