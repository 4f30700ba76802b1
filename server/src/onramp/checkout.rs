//! A provider's checkout page for one order (`GET /onramp/{provider}/checkout/{orderId}`): the
//! amount, fee, what the buyer receives and where, and a test-card form. The page runs under a
//! strict CSP (no inline script or style: `onramp-pages/checkout.js` and `checkout.css`). The form
//! posts to `POST /onramp/{provider}/checkout/{orderId}/pay` (JSON from the script, or a plain form
//! post without script): only the test card 4242 4242 4242 4242 is accepted; the order is then
//! marked paid and paid out on anvil ([`super::payout`]).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::Value;

use super::orders::{Order, Status};
use super::{catalog, fail, ok, orders, payout, read_body, Onramp};

const PAGE: &str = include_str!("../../onramp-pages/checkout.html");
const SCRIPT: &str = include_str!("../../onramp-pages/checkout.js");
const STYLE: &str = include_str!("../../onramp-pages/checkout.css");

/// The page's Content-Security-Policy.
pub const CSP: &str =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/// The only card accepted.
pub const TEST_CARD: &str = "4242424242424242";
/// Largest pay body.
pub const MAX_PAY_BODY: usize = 4 * 1024;
/// How long a pay request waits for the payout to be mined before answering `PROCESSING`.
pub const PAY_WAIT: Duration = Duration::from_secs(3);

/// `checkout.js` and `checkout.css`.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (body, ty) = match file.as_str() {
        "checkout.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "checkout.css" => (STYLE, "text/css; charset=utf-8"),
        _ => return fail(StatusCode::NOT_FOUND, "file", "not found"),
    };
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// HTML text and attribute escaping.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Replaces each `{{NAME}}` of `tpl` by its value, in one pass (values are not scanned again).
pub fn render(tpl: &str, vars: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(tpl.len() + 512);
    let mut rest = tpl;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find("}}") {
            Some(j) => {
                let name = &after[..j];
                match vars.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => {
                        out.push_str("{{");
                        out.push_str(name);
                        out.push_str("}}");
                    }
                }
                rest = &after[j + 2..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn network_label(o: &Onramp, order: &Order) -> String {
    let caip2 = order.network();
    match o
        .networks()
        .into_iter()
        .find(|n| n.chain_id == order.chain_id)
    {
        Some(n) => format!("{} ({caip2})", n.display),
        None => caip2,
    }
}

/// What the page says about the order's state.
pub fn status_text(order: &Order) -> String {
    let what = format!("{} {}", order.purchase_amount(), order.symbol);
    let to = super::show_addr(&order.destination);
    match order.status {
        Status::Pending => String::new(),
        Status::Processing => format!("Payment received. Sending {what} to {to}…"),
        Status::Completed => {
            format!("Done: {what} sent to {to}. You can close this window.")
        }
        Status::Failed => format!(
            "The payout failed: {}",
            order.error.as_deref().unwrap_or("unknown error")
        ),
    }
}

fn page_html(o: &Onramp, order: &Order, error: Option<(&str, &str)>) -> String {
    let p = order.provider;
    let base = format!("/onramp/{}/checkout/{}", p.id, order.id);
    let money = |s: String| format!("{s} {}", order.fiat.id);
    let subtotal = order.payment_cents - order.fee_cents;
    let (err_field, err_text) = error.unwrap_or(("", ""));
    let vars = [
        ("PROVIDER_ID", esc(p.id)),
        ("PROVIDER_NAME", esc(p.name)),
        ("ORDER_ID", esc(&order.id)),
        ("STATUS", order.status.as_str().to_string()),
        ("PAY", esc(&money(order.payment_amount()))),
        (
            "FEE",
            esc(&format!("{} ({} %)", money(order.fee()), p.fee_percent())),
        ),
        (
            "SUBTOTAL",
            esc(&money(super::money::format_fixed(subtotal, 2))),
        ),
        (
            "RECEIVE",
            esc(&format!("{} {}", order.purchase_amount(), order.symbol)),
        ),
        ("NETWORK", esc(&network_label(o, order))),
        ("DESTINATION", esc(&super::show_addr(&order.destination))),
        ("PAY_URL", esc(&format!("{base}/pay"))),
        (
            "STATUS_URL",
            esc(&format!("/v1/onramp/orders/{}", order.id)),
        ),
        ("STATUS_TEXT", esc(&status_text(order))),
        ("TX", esc(order.tx_hash.as_deref().unwrap_or(""))),
        (
            "FORM_HIDDEN",
            if order.status == Status::Pending {
                ""
            } else {
                "hidden"
            }
            .into(),
        ),
        ("ERROR_FIELD", esc(err_field)),
        ("ERROR", esc(err_text)),
        (
            "ERROR_HIDDEN",
            if err_text.is_empty() { "hidden" } else { "" }.into(),
        ),
    ];
    render(PAGE, &vars)
}

fn html(status: StatusCode, body: String) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// The order of a checkout path: known provider, valid id, and the order's own provider.
fn lookup(o: &Onramp, provider: &str, id: &str) -> Result<Order, Response> {
    if catalog::provider(provider).is_none() {
        return Err(fail(
            StatusCode::NOT_FOUND,
            "provider",
            format!(
                "Unknown provider {:?}",
                provider.chars().take(64).collect::<String>()
            ),
        ));
    }
    if !orders::valid_id(id) {
        return Err(fail(
            StatusCode::BAD_REQUEST,
            "orderId",
            "orderId must be 1 to 64 of A-Z, a-z, 0-9, _ and -",
        ));
    }
    match o.order(id) {
        Some(order) if order.provider.id == provider => Ok(order),
        _ => Err(fail(
            StatusCode::NOT_FOUND,
            "orderId",
            format!("Unknown order {id} at {provider}"),
        )),
    }
}

pub async fn page(
    State(o): State<Arc<Onramp>>,
    Path((provider, id)): Path<(String, String)>,
) -> Response {
    match lookup(&o, &provider, &id) {
        Ok(order) => html(StatusCode::OK, page_html(&o, &order, None)),
        Err(r) => r,
    }
}

/// A card the demo refuses: status, field, message.
type CardError = (StatusCode, &'static str, String);

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = (b - b'0') as u32;
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 {
                    x - 9
                } else {
                    x
                }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// `(year, month)` of now (UTC).
fn this_month() -> (u32, u32) {
    let iso = crate::chain::abi::iso8601(super::now_ms() / 1000);
    let y = iso.get(0..4).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let m = iso.get(5..7).and_then(|s| s.parse().ok()).unwrap_or(1);
    (y, m)
}

/// `MM/YY`, `MM / YY`, `MM/YYYY` or `MMYY` → (year, month).
fn parse_expiry(s: &str) -> Option<(u32, u32)> {
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let (m, y) = match compact.split_once('/') {
        Some((m, y)) => (m.to_string(), y.to_string()),
        None if compact.len() == 4 => (compact[..2].to_string(), compact[2..].to_string()),
        None => return None,
    };
    if !(1..=2).contains(&m.len())
        || !(y.len() == 2 || y.len() == 4)
        || !m.bytes().chain(y.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let month: u32 = m.parse().ok()?;
    let mut year: u32 = y.parse().ok()?;
    if y.len() == 2 {
        year += 2000;
    }
    (1..=12).contains(&month).then_some((year, month))
}

/// Checks the test-card form. `now` is `(year, month)`.
pub fn check_card(
    number: &str,
    expiry: &str,
    cvc: &str,
    provider: &str,
    now: (u32, u32),
) -> Result<(), CardError> {
    let bad = |field, msg: &str| Err((StatusCode::BAD_REQUEST, field, msg.to_string()));
    let digits: String = number.chars().filter(|c| *c != ' ' && *c != '-').collect();
    if digits.is_empty() {
        return bad("cardNumber", "Enter the card number");
    }
    if !(12..=19).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return bad("cardNumber", "The card number must have 12 to 19 digits");
    }
    if !luhn(&digits) {
        return bad(
            "cardNumber",
            "The card number is not valid (check the digits)",
        );
    }
    let Some((year, month)) = parse_expiry(expiry) else {
        return bad("expiry", "Enter the expiry date as MM/YY");
    };
    if (year, month) < now {
        return bad("expiry", "The card has expired");
    }
    if year > now.0 + 20 {
        return bad("expiry", "The expiry date is too far in the future");
    }
    let c = cvc.trim();
    if !(3..=4).contains(&c.len()) || !c.bytes().all(|b| b.is_ascii_digit()) {
        return bad("cvc", "The security code (CVC) must have 3 or 4 digits");
    }
    if digits != TEST_CARD {
        return Err((
            StatusCode::PAYMENT_REQUIRED,
            "cardNumber",
            format!(
                "Card declined: {provider} accepts only the test card 4242 4242 4242 4242 \
                 (any future expiry, any CVC)"
            ),
        ));
    }
    Ok(())
}

/// `application/x-www-form-urlencoded` pairs.
pub fn parse_form(body: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let b = s.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < b.len() => {
                    let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                    match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                        Some(v) => {
                            out.push(v);
                            i += 2;
                        }
                        None => out.push(b'%'),
                    }
                }
                c => out.push(c),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    body.split('&')
        .filter(|p| !p.is_empty())
        .take(32)
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(p), String::new()),
        })
        .collect()
}

pub async fn pay(
    State(o): State<Arc<Onramp>>,
    Path((provider, id)): Path<(String, String)>,
    req: Request,
) -> Response {
    let order = match lookup(&o, &provider, &id) {
        Ok(order) => order,
        Err(r) => return r,
    };
    let ctype = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let form = ctype.starts_with("application/x-www-form-urlencoded");
    if !form && !ctype.starts_with("application/json") {
        return fail(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "body",
            "send the card as application/json {cardNumber, expiry, cvc} or as a form",
        );
    }
    let bytes = match read_body(&o, req, MAX_PAY_BODY).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let fields: Vec<(String, String)> = if form {
        parse_form(&String::from_utf8_lossy(&bytes))
    } else {
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(m)) => m
                .into_iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_string())))
                .collect(),
            _ => {
                return fail(
                    StatusCode::BAD_REQUEST,
                    "body",
                    "body must be a JSON object {cardNumber, expiry, cvc}",
                )
            }
        }
    };
    let field = |k: &str| {
        fields
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.chars().take(64).collect::<String>())
            .unwrap_or_default()
    };
    let refuse = |status: StatusCode, f: &str, msg: String| {
        if form {
            html(status, page_html(&o, &order, Some((f, &msg))))
        } else {
            fail(status, f, msg)
        }
    };
    if let Err((status, f, msg)) = check_card(
        &field("cardNumber"),
        &field("expiry"),
        &field("cvc"),
        order.provider.name,
        this_month(),
    ) {
        return refuse(status, f, msg);
    }
    // Paid: PENDING → PROCESSING exactly once.
    let payer = o
        .app
        .chain_api
        .manifest()
        .onramp_providers(order.chain_id)
        .iter()
        .find(|p| p.id == order.provider.id)
        .map(|p| p.address)
        .unwrap_or_else(|| catalog::payout_address(&o.manifest(), order.provider, order.chain_id));
    // Paid exactly once, whichever instance is asked, however often: the change is conditional
    // (PENDING, and unchanged since read).
    let mut was = None;
    let paid = o.change(&id, |x| {
        was = Some(x.status);
        if x.status != Status::Pending {
            return false;
        }
        x.status = Status::Processing;
        x.payer = Some(payer);
        true
    });
    match (paid, was) {
        (Ok(Some(_)), _) => {}
        (Ok(None), Some(status)) if status != Status::Pending => {
            let msg = format!("This order is already paid (status {})", status.as_str());
            return refuse(StatusCode::CONFLICT, "orderId", msg);
        }
        (Ok(None), Some(_)) => {
            return refuse(StatusCode::CONFLICT, "orderId", "This order is being paid from another window: reload the page".into());
        }
        (Ok(None), None) => {
            return fail(
                StatusCode::NOT_FOUND,
                "orderId",
                format!("Unknown order {id}"),
            );
        }
        (Err(_), _) => {
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "orderId", "The payment could not be recorded: nothing was charged, try again in a moment".into());
        }
    }
    let mut task = tokio::spawn(payout::run(o.clone(), id.clone()));
    let _ = tokio::time::timeout(PAY_WAIT, &mut task).await;
    if form {
        return Redirect::to(&format!("/onramp/{}/checkout/{id}", order.provider.id))
            .into_response();
    }
    let now = o.order(&id).map(|x| x.to_json());
    match now {
        Some(v) => ok(v),
        None => fail(
            StatusCode::NOT_FOUND,
            "orderId",
            format!("Unknown order {id}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards() {
        let now = (2026, 11);
        let p = "Meld (local)";
        assert!(check_card("4242 4242 4242 4242", "12/30", "123", p, now).is_ok());
        assert!(check_card("4242-4242-4242-4242", "11 / 2026", "1234", p, now).is_ok());
        let e = check_card("4000 0000 0000 0002", "12/30", "123", p, now).unwrap_err();
        assert_eq!(e.0, StatusCode::PAYMENT_REQUIRED);
        assert!(e.2.contains("4242 4242 4242 4242"), "{}", e.2);
        assert_eq!(
            check_card("4242 4242 4242 4241", "12/30", "123", p, now)
                .unwrap_err()
                .1,
            "cardNumber"
        );
        assert_eq!(
            check_card("", "12/30", "123", p, now).unwrap_err().2,
            "Enter the card number"
        );
        assert_eq!(
            check_card("4242abcd", "12/30", "123", p, now)
                .unwrap_err()
                .1,
            "cardNumber"
        );
        assert_eq!(
            check_card("4242424242424242", "10/26", "123", p, now)
                .unwrap_err()
                .2,
            "The card has expired"
        );
        assert_eq!(
            check_card("4242424242424242", "13/30", "123", p, now)
                .unwrap_err()
                .1,
            "expiry"
        );
        assert_eq!(
            check_card("4242424242424242", "1230", "12", p, now)
                .unwrap_err()
                .1,
            "cvc"
        );
        assert_eq!(
            check_card("4242424242424242", "12/99", "123", p, now)
                .unwrap_err()
                .1,
            "expiry"
        );
    }

    #[test]
    fn templates_and_escaping() {
        assert_eq!(
            render(
                "a{{X}}b{{Y}}{{Z}}c{{",
                &[("X", "{{Y}}".into()), ("Y", "2".into())]
            ),
            "a{{Y}}b2{{Z}}c{{"
        );
        assert_eq!(
            esc("<a href=\"x\">'&"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;"
        );
        // The page has no inline script or style.
        assert!(!PAGE.contains("<script>") && !PAGE.contains("style="));
        for h in ["onclick", "onsubmit", "onload", "oninput", "javascript:"] {
            assert!(!PAGE.contains(h), "{h}");
        }
    }

    #[test]
    fn forms() {
        assert_eq!(
            parse_form("cardNumber=4242+4242%204242&expiry=12%2F30&cvc=123&x&bad=%zz%"),
            vec![
                ("cardNumber".into(), "4242 4242 4242".into()),
                ("expiry".into(), "12/30".into()),
                ("cvc".into(), "123".into()),
                ("x".into(), "".into()),
                ("bad".into(), "%zz%".into()),
            ]
        );
    }
}
