//! Sign-in messages of the `./core` entry: EIP-4361 ("Sign-In with Ethereum") text for EVM accounts,
//! written and read.
//!
//! [`create_siwx_message`] produces, byte for byte, the text the reference implementation (npm
//! `siwe` 3, `prepareMessage()`) produces for the same fields, and rejects the fields it rejects
//! (the field grammar of EIP-4361: RFC 3986 authority and URIs, RFC 3339 timestamps, an EIP-55
//! address, a nonce of at least 8 letters or digits, version `1`). Layout:
//!
//! ```text
//! {domain} wants you to sign in with your Ethereum account:
//! {address}
//!
//! {statement}            <- this line and the blank after it only with a statement;
//!                           an empty statement leaves one extra blank line
//! URI: {uri}
//! Version: {version}
//! Chain ID: {chainId}
//! Nonce: {nonce}
//! Issued At: {issuedAt}
//! Expiration Time: …     <- optional (omitted when absent or empty), likewise the next two
//! Not Before: …
//! Request ID: …
//! Resources:             <- present whenever a list is given, even an empty one
//! - {resource}
//! ```
//!
//! [`parse_siwx_message`] is the inverse and returns the same fields.

use crate::chain::address::checksum_address;
use crate::chain::error::UtilError;
use serde::{Deserialize, Serialize};

/// The largest chain id accepted: JavaScript's `Number.MAX_SAFE_INTEGER` (2^53 − 1).
pub const MAX_CHAIN_ID: u64 = (1 << 53) - 1;

/// What a chain family's sign-in message (CAIP-122) writes its own way: the chain named in its
/// first line (`{domain} wants you to sign in with your {chain} account:`), its addresses and its
/// chain ids. Everything else (the lines, their order, the field grammar) is EIP-4361's.
pub struct Dialect {
    /// "Ethereum", "Solana".
    pub chain: &'static str,
    pub address_ok: fn(&str) -> bool,
    /// How a good address reads, for the error ("an EIP-55 checksummed address").
    pub address_rule: &'static str,
    /// Whether a `Chain ID:` value is one of the family's.
    pub chain_ok: fn(&str) -> bool,
    /// How a good chain id reads, for the error.
    pub chain_rule: &'static str,
}

/// EIP-4361 ("Sign-In with Ethereum").
pub const EIP4361: Dialect = Dialect {
    chain: "Ethereum",
    address_ok: is_eip55,
    address_rule: "an EIP-55 checksummed address",
    chain_ok: |c| decimal_chain(c).is_some(),
    chain_rule: "an integer up to 2^53 - 1",
};

fn decimal_chain(c: &str) -> Option<u64> {
    if c.is_empty() || !c.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    crate::chain::units::strip_leading_zeros(c).parse::<u64>().ok().filter(|&n| n <= MAX_CHAIN_ID)
}

fn header_suffix(d: &Dialect) -> String {
    format!(" wants you to sign in with your {} account:", d.chain)
}

/// The fields of a sign-in message (JavaScript names in camelCase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiwxMessageFields {
    pub domain: String,
    pub account_address: String,
    pub chain_id: u64,
    pub uri: String,
    pub version: String,
    pub nonce: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<String>>,
    pub issued_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

// ---- Character classes of RFC 3986 -------------------------------------------------------------

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether every byte of `s` is in `class` or starts a `%XX` escape.
fn all_pct(s: &str, class: impl Fn(u8) -> bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() {
                return false;
            }
            if !(b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit()) {
                return false;
            }
            i += 3;
        } else if class(b[i]) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

fn is_pchar(c: u8) -> bool {
    is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

fn is_dec_octet(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 3
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s.len() == 1 || !s.starts_with('0'))
        && s.parse::<u16>().is_ok_and(|n| n <= 255)
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4 && parts.iter().all(|p| is_dec_octet(p))
}

fn is_h16(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Counts the 16-bit pieces of `s` (groups separated by `:`, an IPv4 tail counting 2), or `None`.
fn ipv6_pieces(s: &str, allow_ipv4_tail: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let groups: Vec<&str> = s.split(':').collect();
    let mut n = 0;
    for (i, g) in groups.iter().enumerate() {
        if i == groups.len() - 1 && allow_ipv4_tail && g.contains('.') {
            if !is_ipv4(g) {
                return None;
            }
            n += 2;
        } else if is_h16(g) {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

fn is_ipv6(s: &str) -> bool {
    match s.split_once("::") {
        Some((head, tail)) => {
            if tail.contains("::") {
                return false;
            }
            match (ipv6_pieces(head, false), ipv6_pieces(tail, true)) {
                (Some(a), Some(b)) => a + b <= 7,
                _ => false,
            }
        }
        None => ipv6_pieces(s, true) == Some(8),
    }
}

fn is_ip_literal(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return false;
    };
    if let Some(rest) = inner.strip_prefix(['v', 'V']) {
        // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        return match rest.split_once('.') {
            Some((ver, tail)) => {
                !ver.is_empty()
                    && ver.bytes().all(|b| b.is_ascii_hexdigit())
                    && !tail.is_empty()
                    && tail
                        .bytes()
                        .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
            }
            None => false,
        };
    }
    is_ipv6(inner)
}

/// RFC 3986 `authority`: `[userinfo "@"] host [":" port]`.
fn is_authority(s: &str) -> bool {
    let (userinfo, hostport) = match s.split_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, s),
    };
    if let Some(u) = userinfo {
        if !all_pct(u, |c| is_unreserved(c) || is_sub_delim(c) || c == b':') {
            return false;
        }
    }
    let (host, port) = if hostport.starts_with('[') {
        match hostport.find(']') {
            Some(end) => {
                let (h, rest) = hostport.split_at(end + 1);
                match rest {
                    "" => (h, None),
                    _ => match rest.strip_prefix(':') {
                        Some(p) => (h, Some(p)),
                        None => return false,
                    },
                }
            }
            None => return false,
        }
    } else {
        match hostport.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if let Some(p) = port {
        if !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    if host.starts_with('[') {
        is_ip_literal(host)
    } else {
        all_pct(host, |c| is_unreserved(c) || is_sub_delim(c))
    }
}

/// An RFC 3986 absolute `URI`: `scheme ":" hier-part ["?" query] ["#" fragment]`.
pub fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let sb = scheme.as_bytes();
    if sb.is_empty()
        || !sb[0].is_ascii_alphabetic()
        || !sb
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    {
        return false;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (hier, query) = match rest.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (rest, None),
    };
    let query_ok = |q: &str| all_pct(q, |c| is_pchar(c) || c == b'/' || c == b'?');
    if !query.is_none_or(query_ok) || !fragment.is_none_or(query_ok) {
        return false;
    }
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            if !is_authority(&after[..end]) {
                return false;
            }
            &after[end..]
        }
        None => hier,
    };
    all_pct(path, |c| is_pchar(c) || c == b'/')
}

// ---- Field rules ---------------------------------------------------------------------------------

#[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` needs Rust 1.87; the workspace MSRV is 1.85.
fn is_leap(year: u32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn two(b: &[u8], i: usize) -> Option<u32> {
    let (x, y) = (*b.get(i)?, *b.get(i + 1)?);
    (x.is_ascii_digit() && y.is_ascii_digit()).then(|| ((x - b'0') * 10 + (y - b'0')) as u32)
}

/// An RFC 3339 `date-time` (`YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`, `T`/`Z` in either case) that
/// names a real calendar day, hours 00–23, minutes 00–59 and seconds 00–60.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 {
        return false;
    }
    let year = match (two(b, 0), two(b, 2)) {
        (Some(h), Some(l)) => h * 100 + l,
        _ => return false,
    };
    let (Some(month), Some(day), Some(hour), Some(min), Some(sec)) =
        (two(b, 5), two(b, 8), two(b, 11), two(b, 14), two(b, 17))
    else {
        return false;
    };
    if b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return false;
    }
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || min > 59 || sec > 60 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', _, _, b':', _, _] => {
            matches!((two(b, i + 1), two(b, i + 4)), (Some(h), Some(m)) if h <= 23 && m <= 59)
        }
        _ => false,
    }
}

fn is_statement(s: &str) -> bool {
    s.bytes().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b' ' | b'!' | b'#' | b'$' | b'=' | b'?' | b'@' | b'[' | b']' | b'_' | b'~'
            )
            || (b'&'..=b';').contains(&c)
    })
}

fn is_nonce(s: &str) -> bool {
    s.len() >= 8 && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn is_eip55(s: &str) -> bool {
    s.starts_with("0x") && checksum_address(s).is_ok_and(|c| c == s)
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

fn check_date(s: &str, field: &str) -> Result<(), String> {
    check(
        is_rfc3339_date_time(s),
        &format!("invalid {field} {s:?}: expected an RFC 3339 date-time"),
    )
}

fn check_request_id(s: &str) -> Result<(), String> {
    check(
        all_pct(s, is_pchar),
        &format!("invalid request id {s:?}: expected URI path characters"),
    )
}

fn check_resource(s: &str) -> Result<(), String> {
    check(
        is_uri(s),
        &format!("invalid resource {s:?}: expected an absolute URI"),
    )
}

fn non_empty(v: &Option<String>) -> Option<&str> {
    v.as_deref().filter(|s| !s.is_empty())
}

fn validate_fields(d: &Dialect, f: &SiwxMessageFields) -> Result<(), String> {
    check(
        is_authority(&f.domain) && !f.domain.is_empty(),
        &format!(
            "invalid domain {:?}: expected an RFC 3986 authority",
            f.domain
        ),
    )?;
    check(
        (d.address_ok)(&f.account_address),
        &format!("invalid address {:?}: expected {}", f.account_address, d.address_rule),
    )?;
    if let Some(st) = &f.statement {
        check(is_statement(st), &format!("invalid statement {st:?}: one line of printable ASCII without \" % < > \\ ^ ` {{ | }}"))?;
    }
    check(
        is_uri(&f.uri),
        &format!("invalid URI {:?}: expected an absolute URI", f.uri),
    )?;
    check(
        f.version == "1",
        &format!("invalid version {:?}: expected 1", f.version),
    )?;
    check(
        is_nonce(&f.nonce),
        &format!(
            "invalid nonce {:?}: expected at least 8 letters or digits",
            f.nonce
        ),
    )?;
    check_date(&f.issued_at, "issued-at")?;
    if let Some(t) = non_empty(&f.expiration_time) {
        check_date(t, "expiration time")?;
    }
    if let Some(t) = non_empty(&f.not_before) {
        check_date(t, "not-before")?;
    }
    if let Some(r) = non_empty(&f.request_id) {
        check_request_id(r)?;
    }
    for r in f.resources.iter().flatten() {
        check_resource(r)?;
    }
    Ok(())
}

/// The EIP-4361 text of `fields`, exactly as `siwe`'s `prepareMessage()` writes it. Rejects fields
/// that do not form a well-formed message (see the module documentation).
pub fn create_siwx_message(fields: &SiwxMessageFields) -> Result<String, UtilError> {
    if fields.chain_id > MAX_CHAIN_ID {
        return Err(UtilError(format!("Invalid SIWX message fields: invalid chain id {}: at most 2^53 - 1", fields.chain_id)));
    }
    write_message(&EIP4361, fields, &fields.chain_id.to_string())
}

/// The sign-in text of `fields` in a family's dialect, with `chain` as its `Chain ID:` value
/// (`fields.chain_id` is not read). Rejects fields that do not form a well-formed message.
pub fn write_message(d: &Dialect, fields: &SiwxMessageFields, chain: &str) -> Result<String, UtilError> {
    let valid = validate_fields(d, fields).and_then(|()| check((d.chain_ok)(chain), &format!("invalid chain id {chain:?}: expected {}", d.chain_rule)));
    valid.map_err(|e| UtilError(format!("Invalid SIWX message fields: {e}")))?;
    let f = fields;
    let mut out = format!("{}{}\n{}\n\n", f.domain, header_suffix(d), f.account_address);
    if let Some(st) = &f.statement {
        out.push_str(st);
        out.push_str("\n\n");
    } else {
        out.push('\n');
    }
    out.push_str(&format!(
        "URI: {}\nVersion: {}\nChain ID: {}\nNonce: {}\nIssued At: {}",
        f.uri, f.version, chain, f.nonce, f.issued_at
    ));
    if let Some(t) = non_empty(&f.expiration_time) {
        out.push_str(&format!("\nExpiration Time: {t}"));
    }
    if let Some(t) = non_empty(&f.not_before) {
        out.push_str(&format!("\nNot Before: {t}"));
    }
    if let Some(r) = non_empty(&f.request_id) {
        out.push_str(&format!("\nRequest ID: {r}"));
    }
    if let Some(resources) = &f.resources {
        out.push_str("\nResources:");
        for r in resources {
            out.push_str(&format!("\n- {r}"));
        }
    }
    Ok(out)
}

/// Reads an EIP-4361 message back into its fields. Rejects text that is not a well-formed message
/// with an error naming the line and the problem.
pub fn parse_siwx_message(text: &str) -> Result<SiwxMessageFields, UtilError> {
    read_message(&EIP4361, text).map(|(f, _)| f)
}

/// Reads a sign-in message of a family's dialect: its fields and its `Chain ID:` value
/// (`chain_id` holds that value when it is a number, else 0).
pub fn read_message(d: &Dialect, text: &str) -> Result<(SiwxMessageFields, String), UtilError> {
    let suffix = header_suffix(d);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut at = 0usize;
    let err = |line: usize, msg: String| {
        UtilError(format!("Invalid SIWX message: line {}: {msg}", line + 1))
    };
    let wrap = |line: usize| move |msg: String| err(line, msg);

    // Header and address.
    let header = lines[0];
    let domain = header
        .strip_suffix(suffix.as_str())
        .ok_or_else(|| err(0, format!("expected \"{{domain}}{suffix}\"")))?;
    check(
        !domain.is_empty() && is_authority(domain),
        &format!("invalid domain {domain:?}: expected an RFC 3986 authority"),
    )
    .map_err(wrap(0))?;
    at += 1;
    let line = |i: usize| {
        lines
            .get(i)
            .copied()
            .ok_or_else(|| err(i, "unexpected end of message".into()))
    };
    let address = line(at)?;
    check(
        (d.address_ok)(address),
        &format!("invalid address {address:?}: expected {}", d.address_rule),
    )
    .map_err(wrap(at))?;
    at += 1;
    check(
        line(at)?.is_empty(),
        "expected an empty line after the address",
    )
    .map_err(wrap(at))?;
    at += 1;

    // Statement: absent (one blank line), empty (two blank lines) or one line between blanks.
    let statement = match line(at)? {
        "" => {
            at += 1;
            if line(at)?.is_empty() {
                at += 1;
                Some(String::new())
            } else {
                None
            }
        }
        st => {
            check(is_statement(st), &format!("invalid statement {st:?}")).map_err(wrap(at))?;
            at += 1;
            check(
                line(at)?.is_empty(),
                "expected an empty line after the statement",
            )
            .map_err(wrap(at))?;
            at += 1;
            Some(st.to_string())
        }
    };

    let field = |at: &mut usize, tag: &str| -> Result<String, UtilError> {
        let l = line(*at)?;
        let v = l
            .strip_prefix(tag)
            .ok_or_else(|| err(*at, format!("expected \"{tag}…\"")))?;
        *at += 1;
        Ok(v.to_string())
    };
    let uri = field(&mut at, "URI: ")?;
    check(
        is_uri(&uri),
        &format!("invalid URI {uri:?}: expected an absolute URI"),
    )
    .map_err(wrap(at - 1))?;
    let version = field(&mut at, "Version: ")?;
    check(
        version == "1",
        &format!("invalid version {version:?}: expected 1"),
    )
    .map_err(wrap(at - 1))?;
    let chain = field(&mut at, "Chain ID: ")?;
    check((d.chain_ok)(&chain), &format!("invalid chain id {chain:?}: expected {}", d.chain_rule)).map_err(wrap(at - 1))?;
    let chain_id = decimal_chain(&chain).unwrap_or(0);
    let nonce = field(&mut at, "Nonce: ")?;
    check(
        is_nonce(&nonce),
        &format!("invalid nonce {nonce:?}: expected at least 8 letters or digits"),
    )
    .map_err(wrap(at - 1))?;
    let issued_at = field(&mut at, "Issued At: ")?;
    check_date(&issued_at, "issued-at").map_err(wrap(at - 1))?;

    let optional = |at: &mut usize, tag: &str| -> Option<String> {
        let v = lines.get(*at)?.strip_prefix(tag)?;
        *at += 1;
        Some(v.to_string())
    };
    let expiration_time = optional(&mut at, "Expiration Time: ");
    if let Some(t) = &expiration_time {
        check_date(t, "expiration time").map_err(wrap(at - 1))?;
    }
    let not_before = optional(&mut at, "Not Before: ");
    if let Some(t) = &not_before {
        check_date(t, "not-before").map_err(wrap(at - 1))?;
    }
    let request_id = optional(&mut at, "Request ID: ");
    if let Some(r) = &request_id {
        check_request_id(r).map_err(wrap(at - 1))?;
    }
    let resources = if lines.get(at) == Some(&"Resources:") {
        at += 1;
        let mut list = Vec::new();
        while let Some(l) = lines.get(at) {
            let r = l
                .strip_prefix("- ")
                .ok_or_else(|| err(at, "expected \"- {resource URI}\"".into()))?;
            check_resource(r).map_err(wrap(at))?;
            list.push(r.to_string());
            at += 1;
        }
        Some(list)
    } else {
        None
    };
    if at < lines.len() {
        return Err(err(at, format!("unexpected line {:?}", lines[at])));
    }
    Ok((SiwxMessageFields {
        domain: domain.to_string(),
        account_address: address.to_string(),
        chain_id,
        uri,
        version,
        nonce,
        statement,
        resources,
        issued_at,
        expiration_time,
        not_before,
        request_id,
    }, chain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn base() -> SiwxMessageFields {
        SiwxMessageFields {
            domain: "example.com".into(),
            account_address: "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb".into(),
            chain_id: 1,
            uri: "https://example.com/login".into(),
            version: "1".into(),
            nonce: "abcdefgh12".into(),
            statement: None,
            resources: None,
            issued_at: "2024-01-01T00:00:00.000Z".into(),
            expiration_time: None,
            not_before: None,
            request_id: None,
        }
    }

    const TAIL: &str = "URI: https://example.com/login\nVersion: 1\nChain ID: 1\nNonce: abcdefgh12\nIssued At: 2024-01-01T00:00:00.000Z";
    const HEAD: &str = "example.com wants you to sign in with your Ethereum account:\n0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb\n";

    // Expected strings below were produced by npm siwe@3.0.0 `new SiweMessage(fields).prepareMessage()`.
    #[test]
    fn siwe_text_without_statement_has_two_blank_lines() {
        assert_eq!(
            create_siwx_message(&base()).unwrap(),
            format!("{HEAD}\n\n{TAIL}")
        );
    }

    #[test]
    fn siwe_text_with_empty_statement_has_three_blank_lines() {
        let f = SiwxMessageFields {
            statement: Some(String::new()),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&f).unwrap(),
            format!("{HEAD}\n\n\n{TAIL}")
        );
    }

    #[test]
    fn siwe_text_with_statement_surrounds_it_with_blank_lines() {
        let f = SiwxMessageFields {
            statement: Some("Hello world".into()),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&f).unwrap(),
            format!("{HEAD}\nHello world\n\n{TAIL}")
        );
    }

    #[test]
    fn siwe_text_empty_resources_list_gives_bare_resources_line() {
        let f = SiwxMessageFields {
            resources: Some(vec![]),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&f).unwrap(),
            format!("{HEAD}\n\n{TAIL}\nResources:")
        );
        let f = SiwxMessageFields {
            resources: Some(vec!["https://a.com/x".into(), "ipfs://Qm".into()]),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&f).unwrap(),
            format!("{HEAD}\n\n{TAIL}\nResources:\n- https://a.com/x\n- ipfs://Qm")
        );
    }

    #[test]
    fn siwe_text_optional_fields_in_order_and_empty_ones_omitted() {
        let f = SiwxMessageFields {
            expiration_time: Some("2024-01-02T00:00:00Z".into()),
            not_before: Some("2023-12-31T00:00:00Z".into()),
            request_id: Some("req-1".into()),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&f).unwrap(),
            format!("{HEAD}\n\n{TAIL}\nExpiration Time: 2024-01-02T00:00:00Z\nNot Before: 2023-12-31T00:00:00Z\nRequest ID: req-1")
        );
        let empty = SiwxMessageFields {
            expiration_time: Some(String::new()),
            not_before: Some(String::new()),
            request_id: Some(String::new()),
            ..base()
        };
        assert_eq!(
            create_siwx_message(&empty).unwrap(),
            format!("{HEAD}\n\n{TAIL}")
        );
    }

    #[test]
    fn siwe_chain_id_up_to_2_pow_53_minus_1() {
        let f = SiwxMessageFields {
            chain_id: MAX_CHAIN_ID,
            ..base()
        };
        let text = create_siwx_message(&f).unwrap();
        assert!(text.contains("\nChain ID: 9007199254740991\n"));
        assert_eq!(parse_siwx_message(&text).unwrap().chain_id, MAX_CHAIN_ID);
        assert!(create_siwx_message(&SiwxMessageFields {
            chain_id: MAX_CHAIN_ID + 1,
            ..base()
        })
        .is_err());
    }

    #[test]
    fn siwe_rejects_fields_the_reference_rejects() {
        let cases: Vec<SiwxMessageFields> = vec![
            SiwxMessageFields {
                account_address: "0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb".into(),
                ..base()
            },
            SiwxMessageFields {
                nonce: "abc".into(),
                ..base()
            },
            SiwxMessageFields {
                nonce: "abcdefg_".into(),
                ..base()
            },
            SiwxMessageFields {
                statement: Some("a\nb".into()),
                ..base()
            },
            SiwxMessageFields {
                statement: Some("café".into()),
                ..base()
            },
            SiwxMessageFields {
                statement: Some("quote\"".into()),
                ..base()
            },
            SiwxMessageFields {
                version: "2".into(),
                ..base()
            },
            SiwxMessageFields {
                domain: "a b".into(),
                ..base()
            },
            SiwxMessageFields {
                domain: "".into(),
                ..base()
            },
            SiwxMessageFields {
                domain: "example.com:abc".into(),
                ..base()
            },
            SiwxMessageFields {
                domain: "[zz]".into(),
                ..base()
            },
            SiwxMessageFields {
                uri: "not a uri".into(),
                ..base()
            },
            SiwxMessageFields {
                uri: "https://a/b?c=[d]".into(),
                ..base()
            },
            SiwxMessageFields {
                issued_at: "2024-02-30T00:00:00Z".into(),
                ..base()
            },
            SiwxMessageFields {
                issued_at: "".into(),
                ..base()
            },
            SiwxMessageFields {
                request_id: Some("abc 123".into()),
                ..base()
            },
            SiwxMessageFields {
                resources: Some(vec!["x".into()]),
                ..base()
            },
        ];
        for f in cases {
            let e = create_siwx_message(&f).unwrap_err();
            assert!(e.0.starts_with("Invalid SIWX message fields: "), "{e}");
        }
    }

    #[test]
    fn siwe_accepts_fields_the_reference_accepts() {
        for d in [
            "user@example.com",
            "user:pw@example.com:8080",
            "[::1]:3000",
            "127.0.0.1",
            "example.com:",
            "ex%20ample.com",
            "[v1.x]",
            "[::ffff:1.2.3.4]",
            "localhost:3000",
        ] {
            assert!(
                create_siwx_message(&SiwxMessageFields {
                    domain: d.into(),
                    ..base()
                })
                .is_ok(),
                "{d}"
            );
        }
        for u in [
            "urn:x",
            "a:",
            "http://[::1]/x?q#f",
            "x+y.z-1:foo",
            "mailto:a@b.c",
            "https://u@[::1]:80/p",
            "a:b?c",
        ] {
            assert!(
                create_siwx_message(&SiwxMessageFields {
                    uri: u.into(),
                    ..base()
                })
                .is_ok(),
                "{u}"
            );
        }
        for t in [
            "2024-01-01t00:00:00z",
            "2024-01-01T00:00:00.123456789Z",
            "2024-01-01T00:00:00+23:59",
            "2024-01-01T00:00:60Z",
            "2000-02-29T00:00:00Z",
            "0000-02-29T00:00:00Z",
        ] {
            assert!(
                create_siwx_message(&SiwxMessageFields {
                    issued_at: t.into(),
                    ..base()
                })
                .is_ok(),
                "{t}"
            );
        }
        for t in [
            "2024-01-01T24:00:00Z",
            "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00+24:00",
        ] {
            assert!(
                create_siwx_message(&SiwxMessageFields {
                    issued_at: t.into(),
                    ..base()
                })
                .is_err(),
                "{t}"
            );
        }
    }

    #[test]
    fn siwe_parse_is_the_inverse_of_create() {
        let f = SiwxMessageFields {
            statement: Some("I accept the Terms: https://example.com/tos".into()),
            resources: Some(vec!["ipfs://bafy".into(), "https://example.com/r".into()]),
            expiration_time: Some("2024-01-02T00:00:00Z".into()),
            not_before: Some("2023-12-31T00:00:00Z".into()),
            request_id: Some("42".into()),
            chain_id: 137,
            ..base()
        };
        for g in [
            f.clone(),
            base(),
            SiwxMessageFields {
                statement: Some(String::new()),
                resources: Some(vec![]),
                ..base()
            },
        ] {
            assert_eq!(
                parse_siwx_message(&create_siwx_message(&g).unwrap()).unwrap(),
                g
            );
        }
    }

    #[test]
    fn siwe_parse_rejects_malformed_text_with_line_number() {
        let good = create_siwx_message(&base()).unwrap();
        let cases = [
            String::new(),
            "hello".to_string(),
            format!("{good}\n"),
            good.replace("Version: 1", "Version: 2"),
            good.replace("Chain ID: 1", "Chain ID: x"),
            good.replace("Chain ID: 1", "Chain ID: 9007199254740992"),
            good.replace("Nonce: abcdefgh12", "Nonce: short"),
            good.replace("URI: ", "URL: "),
            good.replace("\n\n\n", "\n\n"),
            good.replace("0xab16a96D", "0xab16a96d"),
            good.replace(
                "Issued At: 2024-01-01T00:00:00.000Z",
                "Issued At: yesterday",
            ),
            format!("{good}\nResources:\n- not-a-uri"),
            format!("{good}\nResources:\nhttps://x.com"),
            format!("{good}\nSomething: else"),
            format!(
                "{good}\nNot Before: 2024-01-01T00:00:00Z\nExpiration Time: 2024-01-01T00:00:00Z"
            ),
        ];
        for bad in cases {
            let e = parse_siwx_message(&bad).unwrap_err();
            assert!(
                e.0.starts_with("Invalid SIWX message: line "),
                "{bad:?} -> {e}"
            );
        }
        let e = parse_siwx_message(&good.replace("Nonce: abcdefgh12", "Nonce: short")).unwrap_err();
        assert!(e.0.contains("line 8: invalid nonce"), "{e}");
    }

    #[test]
    fn siwx_fields_serialize_with_camel_case_names() {
        let json = serde_json::to_value(base()).unwrap();
        assert_eq!(
            json["accountAddress"],
            "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"
        );
        assert_eq!(json["chainId"], 1);
        assert_eq!(json["issuedAt"], "2024-01-01T00:00:00.000Z");
        assert!(json.get("statement").is_none());
    }

    proptest! {
        #[test]
        fn siwx_parser_never_panics(s in ".*") {
            let _ = parse_siwx_message(&s);
            let _ = is_uri(&s);
            let _ = is_authority(&s);
            let _ = is_rfc3339_date_time(&s);
        }

        #[test]
        fn siwx_parser_never_panics_on_mutated_messages(idx in 0usize..400, c in any::<char>(), cut in 0usize..400) {
            let good = create_siwx_message(&SiwxMessageFields { statement: Some("Hi".into()), resources: Some(vec!["https://a.b".into()]), ..base() }).unwrap();
            let mut chars: Vec<char> = good.chars().collect();
            let i = idx % chars.len();
            chars[i] = c;
            chars.truncate(cut.max(1));
            let text: String = chars.into_iter().collect();
            let _ = parse_siwx_message(&text);
        }

        #[test]
        fn siwx_create_then_parse_roundtrips(
            statement in proptest::option::of("[a-zA-Z0-9 .,:;!?@#$&'()*+=/_~-]{0,40}"),
            nonce in "[a-zA-Z0-9]{8,32}",
            chain_id in 0u64..=MAX_CHAIN_ID,
            resources in proptest::option::of(proptest::collection::vec("https://[a-z]{1,10}\\.com/[a-z0-9]{0,8}", 0..4)),
            request_id in proptest::option::of("[a-zA-Z0-9:@-]{1,12}"),
        ) {
            let f = SiwxMessageFields { statement, nonce, chain_id, resources, request_id, ..base() };
            let text = create_siwx_message(&f).unwrap();
            prop_assert_eq!(parse_siwx_message(&text).unwrap(), f);
        }
    }
}
