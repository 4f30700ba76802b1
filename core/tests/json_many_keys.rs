//! Parsing a JSON object costs O(n log n) in its number of members, not O(n²): every API, RPC and
//! wallet response goes through `wm_core::service::json::parse`, and the 1 MB body cap admits an object of
//! about 100,000 keys (a 540 KB one with 50,000 keys used to freeze the page for seconds).

use std::time::{Duration, Instant};
use wm_core::service::json::{parse, Value};

const KEYS: usize = 100_000;

/// `{"00000":0,"00001":1,…,"99999":9}`: 10 bytes a member (1 MB for 100,000, the body cap), keys of
/// equal length so that comparing two is a full `memcmp`.
fn object_text(keys: usize) -> String {
    let members: Vec<String> = (0..keys).map(|i| format!("\"{i:05}\":{}", i % 10)).collect();
    format!("{{{}}}", members.join(","))
}

/// The same strings and numbers as [`object_text`] in an array: the same lexing work, no keys.
fn array_text(keys: usize) -> String {
    let items: Vec<String> = (0..keys).map(|i| format!("\"{i:05}\",{}", i % 10)).collect();
    format!("[{}]", items.join(","))
}

/// The fastest of three runs of `f` (the least disturbed by other work on the machine).
fn fastest_of_three(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

#[test]
fn parsing_a_100000_key_object_takes_under_2_seconds() {
    let text = object_text(KEYS);
    assert!(text.len() <= 1_000_001, "1 MB of JSON");
    let start = Instant::now();
    let v = parse(&text).expect("valid JSON");
    let elapsed = start.elapsed();
    eprintln!("{KEYS}-key object ({} bytes) parsed in {elapsed:?}", text.len());
    assert_eq!(v.as_object().map(|m| m.len()), Some(KEYS));
    assert!(elapsed < Duration::from_secs(2), "parsing {KEYS} keys took {elapsed:?}");
}

/// Self-calibrating: whatever the machine's speed or the build profile, a 100,000-member object
/// costs at most 20 times an array of the same strings and numbers (a quadratic parser costs
/// thousands of times more).
#[test]
fn parsing_a_100000_key_object_costs_about_as_much_as_an_array_of_the_same_values() {
    let (object, array) = (object_text(KEYS), array_text(KEYS));
    let object_time = fastest_of_three(|| assert!(parse(&object).is_ok()));
    let array_time = fastest_of_three(|| assert!(parse(&array).is_ok()));
    let ratio = object_time.as_secs_f64() / array_time.as_secs_f64().max(1e-6);
    eprintln!("{KEYS}-key object {object_time:?}, array of the same values {array_time:?}: {ratio:.1}x");
    assert!(ratio < 20.0, "object {object_time:?} vs array {array_time:?}: {ratio:.1}x");
}

#[test]
fn a_100000_member_object_with_repeated_keys_keeps_first_positions_and_last_values() {
    // Member i has key k(i mod 50,000) and value i: each key appears twice, 50,000 members apart.
    let half = KEYS / 2;
    let members: Vec<String> = (0..KEYS).map(|i| format!("\"k{:06}\":{i}", i % half)).collect();
    let v = parse(&format!("{{{}}}", members.join(","))).expect("valid JSON");
    let m = v.as_object().expect("an object");
    assert_eq!(m.len(), half);
    for (i, (k, value)) in m.iter().enumerate() {
        assert_eq!(k, format!("k{i:06}"), "first-occurrence order");
        assert_eq!(value.as_u64(), Some((i + half) as u64), "last value of {k}");
    }
    assert_eq!(v["k000123"], Value::from(half as u64 + 123));
}

#[test]
fn a_100000_key_object_parses_to_what_serde_json_reads() {
    // Keys in descending order and repeated in reverse, values distinct: content must match.
    let members: Vec<String> =
        (0..KEYS).rev().map(|i| format!("\"{}\":[{i}]", i % 70_001)).collect();
    let text = format!("{{{}}}", members.join(","));
    let ours = parse(&text).expect("valid JSON");
    let theirs: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(ours.as_object().map(|m| m.len()), Some(70_001));
    let ours_read_back: serde_json::Value = serde_json::from_str(&ours.to_string()).expect("valid JSON");
    assert_eq!(ours_read_back, theirs);
}
