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

/// Unix milliseconds as RFC 3339 in UTC with milliseconds (`2026-11-27T22:15:56.000Z`, as
/// JavaScript's `toISOString()` writes it).
pub fn rfc3339_utc(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    let ms = unix_ms.rem_euclid(86_400_000);
    let (h, min, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
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
#[path = "transactions_tests.rs"]
mod tests;
