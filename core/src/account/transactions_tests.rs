//! Unit tests of `transactions`.

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
