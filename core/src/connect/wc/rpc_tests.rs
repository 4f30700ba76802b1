//! Unit tests of `rpc`.

use super::*;

#[test]
fn ids_are_kept_exactly_as_received() {
    let m =
        parse_message(r#"{"id":"1700000000000123456","jsonrpc":"2.0","result":true}"#).unwrap();
    let Message::Response { id, outcome } = m else {
        panic!()
    };
    assert_eq!(id.json(), "\"1700000000000123456\"");
    assert_eq!(id.value(), Some(1_700_000_000_000_123_456));
    assert_eq!(outcome, Ok(Value::Bool(true)));
    assert_eq!(
        result_json(&id, &Value::Bool(true)),
        r#"{"id":"1700000000000123456","jsonrpc":"2.0","result":true}"#
    );

    let m = parse_message(r#"{"id": 18446744073709551615, "method":"x","params":{}}"#).unwrap();
    let Message::Request { id, .. } = m else {
        panic!()
    };
    assert_eq!(
        (id.json(), id.value()),
        ("18446744073709551615", Some(u64::MAX))
    );
    let m = parse_message(r#"{"id": 1.5e3, "method":"x"}"#).unwrap();
    let Message::Request { id, params, .. } = m else {
        panic!()
    };
    assert_eq!(
        (id.json(), id.value(), params),
        ("1.5e3", None, Value::Null)
    );
}

#[test]
fn null_results_and_error_objects_are_responses() {
    let m = parse_message(r#"{"id":1,"jsonrpc":"2.0","result":null}"#).unwrap();
    assert!(matches!(
        m,
        Message::Response {
            outcome: Ok(Value::Null),
            ..
        }
    ));
    let m = parse_message(
        r#"{"id":1,"jsonrpc":"2.0","error":{"code":5000,"message":"User rejected"}}"#,
    )
    .unwrap();
    let Message::Response {
        outcome: Err(e), ..
    } = m
    else {
        panic!()
    };
    assert_eq!((e.code, e.message.as_str()), (5000, "User rejected"));
}

#[test]
fn malformed_messages_are_refused() {
    for bad in [
        "",
        "[]",
        "{}",
        r#"{"jsonrpc":"2.0","method":"x"}"#,
        r#"{"id":{},"method":"x"}"#,
        r#"{"id":[1],"method":"x"}"#,
        r#"{"id":null,"method":"x"}"#,
        r#"{"id":true,"method":"x"}"#,
        r#"{"id":1,"jsonrpc":"1.0","method":"x"}"#,
        r#"{"id":1,"method":"x","result":true}"#,
        r#"{"id":1,"result":true,"error":{}}"#,
        r#"{"id":1}"#,
        r#"{"id":1,"method":7}"#,
    ] {
        assert!(parse_message(bad).is_err(), "{bad}");
    }
}

#[test]
fn method_options_follow_the_protocol_table() {
    let p = method_opts("wc_sessionPropose").unwrap();
    assert_eq!(
        (p.req.tag, p.req.ttl, p.req.prompt, p.res.tag),
        (1100, 300, true, 1101)
    );
    let r = method_opts("wc_sessionRequest").unwrap();
    assert_eq!((r.req.tag, r.res.tag, r.res.ttl), (1108, 1109, 300));
    assert_eq!(method_opts("wc_sessionDelete").unwrap().req.ttl, 86_400);
    assert_eq!(method_opts("wc_sessionPing").unwrap().res.tag, 1115);
    assert_eq!(method_opts("wc_pairingPing").unwrap().res.tag, 1003);
    assert!(method_opts("eth_sign").is_none());
}

#[test]
fn request_frames_escape_the_method() {
    assert_eq!(
        request_json("7", "a\"b", &serde_json::json!({})),
        r#"{"id":7,"jsonrpc":"2.0","method":"a\"b","params":{}}"#
    );
}
