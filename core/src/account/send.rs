//! Send flow (spec sections 4, 5, 8): push the transaction stack, send the transfer, reset the send
//! form, return to Account. Sending on an unsupported chain opens UnsupportedChain.
//!
//! Rules: sending is supported only where the chain family can build a transfer (spec §1: EVM and
//! Solana; otherwise 'Unsupported chain'); it requires an amount and a receiver address ('An
//! amount and receiver address are required') and a token ('A token is required'); a non-numeric
//! send value counts as 0 (so it is "no amount").

use serde::{Deserialize, Serialize};

use crate::service::errors::WmError;

/// The token being sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendToken {
    pub symbol: String,
    /// Contract (EVM) or mint (Solana) address; `None` for the native currency.
    #[serde(default)]
    pub address: Option<String>,
    pub decimals: u32,
}

/// The send form.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendForm {
    pub token: Option<SendToken>,
    /// As typed by the user.
    pub amount: Option<String>,
    pub receiver_address: Option<String>,
    pub receiver_profile_name: Option<String>,
}

/// A validated transfer, for the chain family to build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransferRequest {
    pub to: String,
    /// `None` for a native transfer.
    pub token_address: Option<String>,
    /// Amount in base units (decimal integer string).
    pub value: String,
    pub decimals: u32,
}

/// What the engine must do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SendAction {
    PushTransactionStack,
    SendTransfer { request: TransferRequest },
    ResetForm,
    NavigateAccount,
    NavigateUnsupportedChain,
    ShowError { error: WmError },
}

/// A send value as a canonical decimal: non-numeric (or negative) input counts as `"0"`.
pub fn parse_send_value(value: &str) -> String {
    let v = value.trim();
    let (i, f) = v.split_once('.').unwrap_or((v, ""));
    let ok = !(i.is_empty() && f.is_empty())
        && i.bytes().all(|b| b.is_ascii_digit())
        && f.bytes().all(|b| b.is_ascii_digit())
        && v.len() <= 256;
    if !ok {
        return "0".into();
    }
    let i = i.trim_start_matches('0');
    let f = f.trim_end_matches('0');
    let i = if i.is_empty() { "0" } else { i };
    if f.is_empty() { i.to_string() } else { format!("{i}.{f}") }
}

fn is_zero(decimal: &str) -> bool {
    decimal.bytes().all(|b| b == b'0' || b == b'.')
}

/// Validate a send (`supported`: the active namespace's family can build transfers): unsupported
/// chain first, then amount and receiver, then token.
pub fn validate_send(form: &SendForm, supported: bool) -> Result<(), WmError> {
    if !supported {
        return Err(WmError::UnsupportedChain);
    }
    let amount = form.amount.as_deref().map(parse_send_value).unwrap_or_else(|| "0".into());
    let receiver = form.receiver_address.as_deref().map(str::trim).unwrap_or("");
    if is_zero(&amount) || receiver.is_empty() {
        return Err(WmError::SendAmountAndReceiverRequired);
    }
    if form.token.is_none() {
        return Err(WmError::SendTokenRequired);
    }
    Ok(())
}

/// Where the flow stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SendState {
    Editing,
    Sending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendFlow {
    pub form: SendForm,
    pub state: SendState,
}

impl Default for SendFlow {
    fn default() -> Self {
        SendFlow { form: SendForm::default(), state: SendState::Editing }
    }
}

impl SendFlow {
    pub fn new() -> Self {
        Self::default()
    }

    /// Submit the form on the active namespace.
    /// * unsupported chain → show 'Unsupported chain' and open UnsupportedChain;
    /// * invalid form → show the validation error;
    /// * otherwise push the transaction stack and send the transfer.
    pub fn submit(&mut self, supported: bool) -> Vec<SendAction> {
        if self.state == SendState::Sending {
            return vec![];
        }
        if let Err(error) = validate_send(&self.form, supported) {
            let unsupported = error == WmError::UnsupportedChain;
            let mut out = vec![SendAction::ShowError { error }];
            if unsupported {
                out.push(SendAction::NavigateUnsupportedChain);
            }
            return out;
        }
        let token = self.form.token.clone().expect("validated");
        let to = self.form.receiver_address.clone().unwrap_or_default().trim().to_string();
        let amount = parse_send_value(self.form.amount.as_deref().unwrap_or(""));
        let value = match crate::chain::units::parse_units(&amount, token.decimals) {
            Ok(v) => v,
            Err(_) => return vec![SendAction::ShowError { error: WmError::InvalidValue { value: amount } }],
        };
        self.state = SendState::Sending;
        vec![
            SendAction::PushTransactionStack,
            SendAction::SendTransfer {
                request: TransferRequest { to, token_address: token.address.clone(), value, decimals: token.decimals },
            },
        ]
    }

    /// The transfer was sent: reset the form and return to Account.
    pub fn on_sent(&mut self) -> Vec<SendAction> {
        self.form = SendForm::default();
        self.state = SendState::Editing;
        vec![SendAction::ResetForm, SendAction::NavigateAccount]
    }

    /// The transfer failed: show the error, keep the form for another try.
    pub fn on_failed(&mut self, error: WmError) -> Vec<SendAction> {
        self.state = SendState::Editing;
        vec![SendAction::ShowError { error }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usdc() -> SendToken {
        SendToken { symbol: "USDC".into(), address: Some("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into()), decimals: 6 }
    }
    const RECEIVER: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";

    fn form(token: Option<SendToken>, amount: Option<&str>, to: Option<&str>) -> SendForm {
        SendForm { token, amount: amount.map(str::to_string), receiver_address: to.map(str::to_string), receiver_profile_name: None }
    }

    #[test]
    fn send_requires_amount_and_receiver() {
        let e = validate_send(&form(Some(usdc()), None, Some(RECEIVER)), true).unwrap_err();
        assert_eq!(e.message(), "An amount and receiver address are required");
        assert_eq!(validate_send(&form(Some(usdc()), Some("1"), None), true), Err(WmError::SendAmountAndReceiverRequired));
        assert_eq!(validate_send(&form(Some(usdc()), Some("1"), Some("  ")), true), Err(WmError::SendAmountAndReceiverRequired));
        assert_eq!(validate_send(&form(Some(usdc()), Some("0.000"), Some(RECEIVER)), true), Err(WmError::SendAmountAndReceiverRequired));
    }

    #[test]
    fn send_requires_a_token() {
        let e = validate_send(&form(None, Some("1"), Some(RECEIVER)), true).unwrap_err();
        assert_eq!(e.message(), "A token is required");
    }

    #[test]
    fn send_is_unsupported_where_the_family_builds_no_transfer_before_anything_else() {
        assert!(validate_send(&form(Some(usdc()), Some("1"), Some(RECEIVER)), true).is_ok());
        assert_eq!(validate_send(&form(None, None, None), false).unwrap_err().message(), "Unsupported chain");
    }

    #[test]
    fn non_numeric_send_value_counts_as_0() {
        assert_eq!(parse_send_value("abc"), "0");
        assert_eq!(parse_send_value(""), "0");
        assert_eq!(parse_send_value("1e5"), "0");
        assert_eq!(parse_send_value("-1"), "0");
        assert_eq!(parse_send_value("1.2.3"), "0");
        assert_eq!(parse_send_value(" 001.500 "), "1.5");
        assert_eq!(parse_send_value(".5"), "0.5");
        assert_eq!(parse_send_value("2."), "2");
        assert_eq!(validate_send(&form(Some(usdc()), Some("abc"), Some(RECEIVER)), true), Err(WmError::SendAmountAndReceiverRequired));
    }

    #[test]
    fn send_pushes_stack_sends_then_resets_form_and_returns_to_account() {
        let mut f = SendFlow::new();
        f.form = form(Some(usdc()), Some("1.5"), Some(RECEIVER));
        let a = f.submit(true);
        assert_eq!(a[0], SendAction::PushTransactionStack);
        let SendAction::SendTransfer { request } = &a[1] else { panic!() };
        assert_eq!((request.value.as_str(), request.to.as_str(), request.token_address.as_deref()), ("1500000", RECEIVER, usdc().address.as_deref()));
        assert_eq!(f.state, SendState::Sending);
        assert!(f.submit(true).is_empty());
        assert_eq!(f.on_sent(), vec![SendAction::ResetForm, SendAction::NavigateAccount]);
        assert_eq!(f.form, SendForm::default());
        assert_eq!(f.state, SendState::Editing);
    }

    #[test]
    fn a_native_send_names_no_token() {
        let mut f = SendFlow::new();
        f.form = form(Some(SendToken { symbol: "ETH".into(), address: None, decimals: 18 }), Some("0.01"), Some(RECEIVER));
        let a = f.submit(true);
        let SendAction::SendTransfer { request } = &a[1] else { panic!() };
        assert_eq!((request.value.as_str(), request.token_address.as_deref()), ("10000000000000000", None));
    }

    #[test]
    fn sending_on_unsupported_chain_opens_unsupported_chain() {
        let mut f = SendFlow::new();
        f.form = form(Some(usdc()), Some("1"), Some(RECEIVER));
        assert_eq!(f.submit(false), vec![SendAction::ShowError { error: WmError::UnsupportedChain }, SendAction::NavigateUnsupportedChain]);
        assert_eq!(f.state, SendState::Editing);
    }

    #[test]
    fn failed_send_keeps_the_form() {
        let mut f = SendFlow::new();
        f.form = form(Some(usdc()), Some("1"), Some(RECEIVER));
        f.submit(true);
        assert_eq!(f.on_failed(WmError::UserRejected), vec![SendAction::ShowError { error: WmError::UserRejected }]);
        assert_eq!(f.form.amount.as_deref(), Some("1"));
    }

    proptest::proptest! {
        #[test]
        fn send_parsers_never_panic(s in ".*", t in ".*") {
            let _ = parse_send_value(&s);
            let mut f = SendFlow::new();
            f.form = form(Some(usdc()), Some(&s), Some(&t));
            let _ = f.submit(true);
        }
    }
}
