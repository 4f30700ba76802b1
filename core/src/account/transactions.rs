//! Transactions list (spec sections 3, 4, 5, 8).
//!
//! * Fetching sets `loading`; a page without items (after filtering) leaves the list `empty`.
//! * A failure sets `empty`, clears the cursor, and yields 'Failed to fetch transactions' plus the
//!   ERROR_FETCH_TRANSACTIONS analytics event.
//! * Spam transactions (every transfer flagged spam; a transaction with no transfers is kept) are
//!   dropped; only transactions on the connected chain (`metadata.chain` equal to its CAIP-2 id)
//!   are kept.
//! * Grouping by year and month, newest first. `metadata.minedAt` is read as an RFC 3339 string
//!   (`2024-03-01T10:00:00Z`, `…+02:00`, fractional seconds allowed), or as decimal unix
//!   milliseconds; groups use the UTC calendar. Unparsable timestamps go to a last group with
//!   year 0 and month 0.
//! * Activity sign: receive, deposit, borrow, claim → `+`; withdraw, repay, burn → `-`.

use serde::Serialize;

use crate::service::entities::{Transaction, TransactionsPage};
use crate::service::errors::WmError;

/// Analytics event sent when fetching fails.
pub use crate::service::analytics::ERROR_FETCH_TRANSACTIONS;

/// A transaction is spam when it has transfers and every one is flagged spam.
pub fn is_spam(tx: &Transaction) -> bool {
    !tx.transfers.is_empty() && tx.transfers.iter().all(|t| t.is_spam())
}

/// Drop spam transactions and keep only those on the connected chain (CAIP-2 id).
pub fn filter_transactions(txs: Vec<Transaction>, connected_chain: &str) -> Vec<Transaction> {
    txs.into_iter()
        .filter(|t| !is_spam(t))
        .filter(|t| t.metadata.chain.as_deref() == Some(connected_chain))
        .collect()
}

/// Sign shown for an activity operation type.
pub fn activity_sign(operation_type: &str) -> Option<char> {
    match operation_type.to_ascii_lowercase().as_str() {
        "receive" | "deposit" | "borrow" | "claim" => Some('+'),
        "withdraw" | "repay" | "burn" => Some('-'),
        _ => None,
    }
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn num(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Unix milliseconds of a `minedAt` value (RFC 3339 or decimal unix ms).
pub fn parse_mined_at(s: &str) -> Option<i64> {
    let s = s.trim();
    if !s.is_empty() && s.len() <= 16 && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok();
    }
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b't' || b[10] == b' ')
        || b[13] != b':' || b[16] != b':'
    {
        return None;
    }
    let year = num(s.get(0..4)?)?;
    let month = num(s.get(5..7)?)? as u32;
    let day = num(s.get(8..10)?)? as u32;
    let hour = num(s.get(11..13)?)?;
    let min = num(s.get(14..16)?)?;
    let sec = num(s.get(17..19)?)?;
    if !(1..=12).contains(&month) || day == 0 || day > 31 || hour > 23 || min > 59 || sec > 60 {
        return None;
    }
    let mut rest = s.get(19..)?;
    let mut millis = 0i64;
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        let frac = &r[..n];
        let ms: String = frac.chars().chain("000".chars()).take(3).collect();
        millis = ms.parse().ok()?;
        rest = &r[n..];
    }
    let offset_min: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.len() != 6 || !(rb[0] == b'+' || rb[0] == b'-') || rb[3] != b':' {
                return None;
            }
            let oh = num(&rest[1..3])?;
            let om = num(&rest[4..6])?;
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 60 + om;
            if rb[0] == b'-' { -o } else { o }
        }
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + min * 60 + sec - offset_min * 60;
    Some(secs * 1000 + millis)
}

/// UTC (year, month) of unix milliseconds.
pub fn year_month_utc(unix_ms: i64) -> (i64, u32) {
    let (y, m, _) = civil_from_days(unix_ms.div_euclid(86_400_000));
    (y, m)
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MonthGroup {
    pub month: u32,
    pub transactions: Vec<Transaction>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct YearGroup {
    pub year: i64,
    pub months: Vec<MonthGroup>,
}

/// Group by year and month, newest first (also newest first within a month).
pub fn group_transactions(txs: &[Transaction]) -> Vec<YearGroup> {
    let mut keyed: Vec<(Option<i64>, &Transaction)> =
        txs.iter().map(|t| (parse_mined_at(&t.metadata.mined_at), t)).collect();
    // Newest first; unparsable last; stable for equal times.
    keyed.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let mut out: Vec<YearGroup> = vec![];
    for (ms, tx) in keyed {
        let (year, month) = ms.map(year_month_utc).unwrap_or((0, 0));
        if out.last().map(|g| g.year) != Some(year) {
            out.push(YearGroup { year, months: vec![] });
        }
        let yg = out.last_mut().expect("group");
        if yg.months.last().map(|m| m.month) != Some(month) {
            yg.months.push(MonthGroup { month, transactions: vec![] });
        }
        yg.months.last_mut().expect("month").transactions.push(tx.clone());
    }
    out
}

/// A request for the next page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FetchRequest {
    pub cursor: Option<String>,
}

/// The transactions list state.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionsState {
    pub transactions: Vec<Transaction>,
    pub next_cursor: Option<String>,
    pub loading: bool,
    pub empty: bool,
}

impl TransactionsState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Start fetching (first page, or the next page when a cursor is known).
    pub fn begin_fetch(&mut self) -> FetchRequest {
        self.loading = true;
        FetchRequest { cursor: self.next_cursor.clone() }
    }

    /// Whether another page can be fetched.
    pub fn has_more(&self) -> bool {
        self.next_cursor.is_some() && !self.loading
    }

    /// A page arrived: filter (spam, connected chain), append, keep the cursor.
    pub fn on_page(&mut self, page: TransactionsPage, connected_chain: &str) {
        let mut kept = filter_transactions(page.data, connected_chain);
        self.transactions.append(&mut kept);
        self.next_cursor = page.next.filter(|c| !c.is_empty());
        self.loading = false;
        self.empty = self.transactions.is_empty();
    }

    /// Fetching failed: empty, cursor cleared. Returns the error to show and the analytics event.
    pub fn on_failure(&mut self) -> (WmError, &'static str) {
        self.loading = false;
        self.empty = true;
        self.next_cursor = None;
        (WmError::FailedToFetchTransactions, ERROR_FETCH_TRANSACTIONS)
    }

    /// Forget everything (account or network changed).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    pub fn grouped(&self) -> Vec<YearGroup> {
        group_transactions(&self.transactions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::entities::{NftFlags, NftInfo, TransactionMetadata, TransactionTransfer};

    fn tx(id: &str, chain: &str, mined_at: &str, spam: &[bool]) -> Transaction {
        Transaction {
            id: id.into(),
            metadata: TransactionMetadata { operation_type: "send".into(), mined_at: mined_at.into(), chain: Some(chain.into()), ..Default::default() },
            transfers: spam.iter().map(|&s| TransactionTransfer { nft_info: Some(NftInfo { name: Some("n".into()), flags: NftFlags { is_spam: s }, ..Default::default() }), ..Default::default() }).collect(),
        }
    }

    #[test]
    fn spam_transaction_dropped_when_every_transfer_is_spam() {
        let txs = vec![
            tx("all-spam", "eip155:1", "2024-01-01T00:00:00Z", &[true, true]),
            tx("some-spam", "eip155:1", "2024-01-01T00:00:00Z", &[true, false]),
            tx("no-transfers", "eip155:1", "2024-01-01T00:00:00Z", &[]),
        ];
        let ids: Vec<String> = filter_transactions(txs, "eip155:1").into_iter().map(|t| t.id).collect();
        assert_eq!(ids, vec!["some-spam", "no-transfers"]);
    }

    #[test]
    fn only_connected_chain_transactions_kept() {
        let mut other = tx("b", "eip155:137", "2024-01-01T00:00:00Z", &[]);
        let txs = vec![tx("a", "eip155:1", "2024-01-01T00:00:00Z", &[]), other.clone()];
        let ids: Vec<String> = filter_transactions(txs, "eip155:1").into_iter().map(|t| t.id).collect();
        assert_eq!(ids, vec!["a"]);
        other.metadata.chain = None;
        assert!(filter_transactions(vec![other], "eip155:1").is_empty());
    }

    #[test]
    fn transactions_list_starts_loading_and_becomes_empty_without_items() {
        let mut s = TransactionsState::new();
        let req = s.begin_fetch();
        assert!(s.loading);
        assert_eq!(req.cursor, None);
        s.on_page(TransactionsPage { data: vec![], next: None }, "eip155:1");
        assert!(!s.loading);
        assert!(s.empty);
    }

    #[test]
    fn pages_append_and_follow_the_cursor() {
        let mut s = TransactionsState::new();
        s.begin_fetch();
        s.on_page(TransactionsPage { data: vec![tx("a", "eip155:1", "2024-01-01T00:00:00Z", &[])], next: Some("c1".into()) }, "eip155:1");
        assert!(!s.empty);
        assert!(s.has_more());
        assert_eq!(s.begin_fetch().cursor.as_deref(), Some("c1"));
        s.on_page(TransactionsPage { data: vec![tx("b", "eip155:1", "2023-01-01T00:00:00Z", &[])], next: None }, "eip155:1");
        assert_eq!(s.transactions.len(), 2);
        assert!(!s.has_more());
        s.reset();
        assert!(s.transactions.is_empty());
    }

    #[test]
    fn transaction_fetch_failure_sets_empty_and_clears_cursor() {
        let mut s = TransactionsState::new();
        s.begin_fetch();
        s.on_page(TransactionsPage { data: vec![tx("a", "eip155:1", "2024-01-01T00:00:00Z", &[])], next: Some("c1".into()) }, "eip155:1");
        s.begin_fetch();
        let (err, event) = s.on_failure();
        assert_eq!(err.message(), "Failed to fetch transactions");
        assert_eq!(event, "ERROR_FETCH_TRANSACTIONS");
        assert!(s.empty && !s.loading);
        assert_eq!(s.next_cursor, None);
    }

    #[test]
    fn grouped_by_year_and_month_newest_first() {
        let txs = vec![
            tx("jan23", "eip155:1", "2023-01-15T00:00:00Z", &[]),
            tx("mar24a", "eip155:1", "2024-03-01T10:00:00Z", &[]),
            tx("dec23", "eip155:1", "2023-12-31T23:30:00-02:00", &[]), // = 2024-01-01T01:30Z
            tx("mar24b", "eip155:1", "2024-03-20T10:00:00.5Z", &[]),
            tx("ms", "eip155:1", "1672531200000", &[]), // 2023-01-01T00:00Z
            tx("bad", "eip155:1", "yesterday", &[]),
        ];
        let g = group_transactions(&txs);
        type Shape = Vec<(i64, Vec<(u32, Vec<String>)>)>;
        let shape: Shape = g.iter().map(|y| (y.year, y.months.iter().map(|m| (m.month, m.transactions.iter().map(|t| t.id.clone()).collect())).collect())).collect();
        assert_eq!(shape, vec![
            (2024, vec![(3, vec!["mar24b".to_string(), "mar24a".to_string()]), (1, vec!["dec23".to_string()])]),
            (2023, vec![(1, vec!["jan23".to_string(), "ms".to_string()])]),
            (0, vec![(0, vec!["bad".to_string()])]),
        ]);
    }

    #[test]
    fn mined_at_parsing() {
        assert_eq!(parse_mined_at("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_mined_at("2000-02-29T12:00:00.123Z"), Some(951_825_600_123));
        assert_eq!(parse_mined_at("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_mined_at("1234"), Some(1234));
        for bad in ["", "2024-13-01T00:00:00Z", "2024-01-01", "2024-01-01T00:00:00", "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00.Z"] {
            assert_eq!(parse_mined_at(bad), None, "{bad}");
        }
        assert_eq!(year_month_utc(0), (1970, 1));
        assert_eq!(year_month_utc(-1), (1969, 12));
    }

    #[test]
    fn activity_sign_by_operation_type() {
        for t in ["receive", "deposit", "borrow", "claim"] {
            assert_eq!(activity_sign(t), Some('+'));
        }
        for t in ["withdraw", "repay", "burn"] {
            assert_eq!(activity_sign(t), Some('-'));
        }
        assert_eq!(activity_sign("send"), None);
        assert_eq!(activity_sign("trade"), None);
    }

    proptest::proptest! {
        #[test]
        fn mined_at_parser_never_panics(s in ".*") {
            let _ = parse_mined_at(&s);
            let _ = activity_sign(&s);
            let _ = group_transactions(&[tx("x", "eip155:1", &s, &[])]);
        }

        #[test]
        fn civil_round_trip(days in -1_000_000i64..1_000_000) {
            let (y, m, d) = civil_from_days(days);
            proptest::prop_assert_eq!(days_from_civil(y, m, d), days);
        }

        #[test]
        fn rfc3339_like_strings_never_panic(s in "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,12})?(Z|[+-][0-9]{2}:[0-9]{2})") {
            let _ = parse_mined_at(&s);
        }
    }
}
