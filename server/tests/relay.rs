//! End-to-end tests of the WalletConnect relay (`GET /relay`) over real WebSockets on loopback.
//! Most tests use the demo backend (`wm_server::start`); those needing other limits or timings run a
//! standalone relay (`wm_server::relay::serve`) with their own `RelayConfig`.

mod common;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::connect_async;
use wm_server::relay::{subscription_id, Relay, RelayConfig};

use common::relay::*;

fn data(push: &Value) -> &Value {
    assert_eq!(push["method"], "irn_subscription", "{push}");
    assert_eq!(push["jsonrpc"], "2.0");
    &push["params"]["data"]
}

async fn demo() -> (wm_server::Server, SocketAddr) {
    let s = common::start().await;
    let addr = s.addr;
    (s, addr)
}

async fn custom(cfg: RelayConfig) -> (SocketAddr, Arc<Relay>) {
    wm_server::relay::serve(cfg, 0).await.expect("relay starts")
}

async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !cond() {
        if tokio::time::Instant::now() > deadline {
            panic!("timed out waiting for: {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// ----- publish / subscribe ------------------------------------------------------------------------------

#[tokio::test]
async fn publish_reaches_other_subscribers_but_not_the_publisher() {
    let (_s, addr) = demo().await;
    let t = topic(1);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    let mut c = Client::connect(addr, 3).await;
    a.subscribe(&t).await;
    let b_sub = b.subscribe(&t).await;
    let c_sub = c.subscribe(&t).await;

    let before = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    a.publish(&t, "hello", 300, 1108).await;
    for (client, sub) in [(&mut b, &b_sub), (&mut c, &c_sub)] {
        let p = client.push_acked().await;
        assert_eq!(p["params"]["id"], json!(sub));
        let d = data(&p);
        assert_eq!(d["topic"], json!(t));
        assert_eq!(d["message"], "hello");
        assert_eq!(d["tag"], 1108);
        let at = d["publishedAt"].as_u64().unwrap();
        assert!(
            at >= before && at < before + 10_000,
            "publishedAt in ms: {at}"
        );
        // Push ids are fresh 19-digit numbers.
        assert_eq!(p["id"].as_u64().unwrap().to_string().len(), 19, "{p}");
    }
    a.no_push().await;
}

#[tokio::test]
async fn metrics_count_the_relays_open_sockets_and_its_messages_published_and_delivered() {
    let (_s, addr) = demo().await;
    let t = topic(9);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    a.publish(&t, "hello", 300, 1108).await;
    b.push_acked().await;
    let m = common::get(addr, "/metrics").await.text();
    let value = |name: &str| m.lines().find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' '))).map(str::to_string);
    assert_eq!(value("wm_relay_connections").as_deref(), Some("2"), "{m}");
    assert_eq!(value("wm_relay_subscriptions").as_deref(), Some("1"), "{m}");
    assert_eq!(value("wm_relay_messages_published_total").as_deref(), Some("1"), "{m}");
    assert_eq!(value("wm_relay_messages_delivered_total").as_deref(), Some("1"), "{m}");
    assert!(!m.contains(&t), "no topic in the metrics");
}

#[tokio::test]
async fn each_push_has_a_fresh_request_id() {
    let (_s, addr) = demo().await;
    let t = topic(2);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    a.publish(&t, "one", 300, 1).await;
    a.publish(&t, "two", 300, 1).await;
    let p1 = b.push_acked().await;
    let p2 = b.push_acked().await;
    assert_eq!(data(&p1)["message"], "one");
    assert_eq!(data(&p2)["message"], "two");
    assert_ne!(p1["id"], p2["id"]);
}

#[tokio::test]
async fn stored_message_is_flushed_to_a_late_subscriber_but_not_back_to_its_publisher() {
    let (_s, addr) = demo().await;
    let t = topic(3);
    let mut a = Client::connect(addr, 1).await;
    a.publish(&t, "proposal", 300, 1100).await;
    a.subscribe(&t).await;
    a.no_push().await;

    let mut b = Client::connect(addr, 2).await;
    let sub = b.subscribe(&t).await;
    let p = b.push_acked().await;
    assert_eq!(p["params"]["id"], json!(sub));
    assert_eq!(data(&p)["message"], "proposal");
    assert_eq!(data(&p)["tag"], 1100);
    // Subscribing again on the same socket does not flush it a second time.
    assert_eq!(b.subscribe(&t).await, sub);
    b.no_push().await;
}

#[tokio::test]
async fn message_expires_after_its_ttl_and_is_pruned() {
    let (s, addr) = demo().await;
    let t = topic(4);
    let mut a = Client::connect(addr, 1).await;
    a.publish(&t, "short-lived", 1, 1).await;
    assert_eq!(s.state.relay.stats().stored_messages, 1);
    tokio::time::sleep(Duration::from_millis(1300)).await;

    let mut b = Client::connect(addr, 2).await;
    let fetched = b.ok("irn_fetchMessages", json!({ "topic": t })).await;
    assert_eq!(fetched, json!({"messages": [], "hasMore": false}));
    b.subscribe(&t).await;
    b.no_push().await;
    // The sweep removed it (and the topic now only has b's subscription).
    let relay = s.state.relay.clone();
    eventually("expired message pruned", || {
        relay.stats().stored_messages == 0
    })
    .await;
    assert_eq!(relay.stats().stored_bytes, 0);
}

#[tokio::test]
async fn ttl_zero_is_delivered_live_but_not_stored() {
    let (s, addr) = demo().await;
    let t = topic(5);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    a.publish(&t, "live", 0, 1).await;
    assert_eq!(data(&b.push_acked().await)["message"], "live");
    assert_eq!(s.state.relay.stats().stored_messages, 0);
}

#[tokio::test]
async fn huge_ttl_is_clamped_to_seven_days_and_still_stored() {
    let (_s, addr) = demo().await;
    let t = topic(6);
    let mut a = Client::connect(addr, 1).await;
    a.publish(&t, "keep", u64::from(u32::MAX), 1).await;
    let mut b = Client::connect(addr, 2).await;
    let f = b.ok("irn_fetchMessages", json!({ "topic": t })).await;
    assert_eq!(f["messages"][0]["message"], "keep");
}

#[tokio::test]
async fn unsubscribe_stops_delivery() {
    let (_s, addr) = demo().await;
    let t = topic(7);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    let sub = b.subscribe(&t).await;
    a.publish(&t, "before", 300, 1).await;
    assert_eq!(data(&b.push_acked().await)["message"], "before");
    assert_eq!(
        b.ok("irn_unsubscribe", json!({"topic": t, "id": sub}))
            .await,
        json!(true)
    );
    a.publish(&t, "after", 300, 1).await;
    b.no_push().await;
}

#[tokio::test]
async fn batch_unsubscribe_stops_delivery() {
    let (_s, addr) = demo().await;
    let (t1, t2) = (topic(8), topic(9));
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    let ids = b
        .ok("irn_batchSubscribe", json!({"topics": [t1, t2]}))
        .await;
    let subs: Vec<Value> = vec![
        json!({"topic": t1, "id": ids[0]}),
        json!({"topic": t2, "id": ids[1]}),
    ];
    assert_eq!(
        b.ok("irn_batchUnsubscribe", json!({ "subscriptions": subs }))
            .await,
        json!(true)
    );
    a.publish(&t1, "x", 300, 1).await;
    a.publish(&t2, "y", 300, 1).await;
    b.no_push().await;
}

#[tokio::test]
async fn batch_subscribe_returns_ids_and_batch_fetch_returns_stored_messages() {
    let (_s, addr) = demo().await;
    let (t1, t2, t3) = (topic(10), topic(11), topic(12));
    let mut a = Client::connect(addr, 1).await;
    a.publish(&t1, "m1", 300, 1).await;
    a.publish(&t2, "m2", 300, 2).await;

    let mut b = Client::connect(addr, 2).await;
    let fetched = b
        .ok("irn_batchFetchMessages", json!({"topics": [t1, t2, t3]}))
        .await;
    assert_eq!(fetched["hasMore"], false);
    let msgs = fetched["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 2);
    assert_eq!(msgs[0]["topic"], json!(t1));
    assert_eq!(msgs[0]["message"], "m1");
    assert_eq!(msgs[1]["tag"], 2);
    assert!(msgs[1]["publishedAt"].as_u64().unwrap() > 1_600_000_000_000);

    let mut c = Client::connect(addr, 3).await;
    let ids = c
        .ok("irn_batchSubscribe", json!({"topics": [t1, t2, t3]}))
        .await;
    let ids = ids.as_array().unwrap();
    assert_eq!(ids.len(), 3);
    for (id, t) in ids.iter().zip([&t1, &t2, &t3]) {
        assert_eq!(id.as_str().unwrap(), subscription_id(t, &did(3)));
    }
    // Both stored messages are flushed to the new subscriber.
    let mut got = vec![
        data(&c.push_acked().await)["message"].clone(),
        data(&c.push_acked().await)["message"].clone(),
    ];
    got.sort_by_key(|v| v.to_string());
    assert_eq!(got, vec![json!("m1"), json!("m2")]);
    // The single-topic fetch has the same shape.
    let single = c.ok("irn_fetchMessages", json!({ "topic": t3 })).await;
    assert_eq!(single, json!({"messages": [], "hasMore": false}));
}

#[tokio::test]
async fn fetch_pages_with_has_more() {
    let (addr, _relay) = custom(RelayConfig {
        fetch_limit: 2,
        ..RelayConfig::default()
    })
    .await;
    let t = topic(13);
    let mut a = Client::connect(addr, 1).await;
    for i in 0..5 {
        a.publish(&t, &format!("m{i}"), 300, 1).await;
    }
    let mut b = Client::connect(addr, 2).await;
    let mut all = Vec::new();
    loop {
        let f = b.ok("irn_fetchMessages", json!({ "topic": t })).await;
        for m in f["messages"].as_array().unwrap() {
            all.push(m["message"].as_str().unwrap().to_string());
        }
        if f["hasMore"] == false {
            break;
        }
        assert!(all.len() <= 5, "fetch keeps returning the same messages");
    }
    assert_eq!(all, ["m0", "m1", "m2", "m3", "m4"]);
}

#[tokio::test]
async fn batch_publish_delivers_each_message() {
    let (_s, addr) = demo().await;
    let (t1, t2) = (topic(14), topic(15));
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.ok("irn_batchSubscribe", json!({"topics": [t1, t2]}))
        .await;
    let r = a
        .ok(
            "irn_batchPublish",
            json!({"messages": [
                {"topic": t1, "message": "p1", "ttl": 300, "tag": 1},
                {"topic": t2, "message": "p2", "ttl": 300, "tag": 2},
            ]}),
        )
        .await;
    assert_eq!(r, json!(true));
    assert_eq!(data(&b.push_acked().await)["message"], "p1");
    assert_eq!(data(&b.push_acked().await)["message"], "p2");
}

#[tokio::test]
async fn subscription_id_is_sha256_of_topic_and_client_id() {
    let (_s, addr) = demo().await;
    let t = topic(16);
    let mut b = Client::connect(addr, 2).await;
    let id = b.subscribe(&t).await;
    assert_eq!(id.len(), 64);
    assert!(id
        .bytes()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(id, subscription_id(&t, &did(2)));
}

// ----- acknowledgements ---------------------------------------------------------------------------------

fn fast_acks() -> RelayConfig {
    RelayConfig {
        ack_timeout: Duration::from_millis(200),
        max_redeliveries: 2,
        ..RelayConfig::default()
    }
}

#[tokio::test]
async fn unacknowledged_push_is_resent_a_few_times_then_dropped() {
    let (addr, _relay) = custom(fast_acks()).await;
    let t = topic(20);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    a.publish(&t, "ack me", 300, 1).await;
    let first = b.push().await;
    // Two re-sends with the same id and content, then nothing more.
    for _ in 0..2 {
        let again = b
            .push_within(Duration::from_secs(2))
            .await
            .expect("re-sent");
        assert_eq!(again, first);
    }
    assert!(b.push_within(Duration::from_millis(800)).await.is_none());
}

#[tokio::test]
async fn acknowledged_push_is_not_resent() {
    let (addr, _relay) = custom(fast_acks()).await;
    let t = topic(21);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    a.publish(&t, "numeric ack", 300, 1).await;
    b.push_acked().await;
    b.no_push().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.no_push().await;

    // @walletconnect/safe-json writes big-integer ids as strings ending in "n"; plain digit strings
    // are accepted too.
    for (i, style) in ["bigint", "string"].iter().enumerate() {
        a.publish(&t, &format!("ack {i}"), 300, 1).await;
        let p = b.push().await;
        let id = p["id"].as_u64().unwrap();
        let ack_id = if *style == "bigint" {
            format!("{id}n")
        } else {
            id.to_string()
        };
        b.send(json!({"id": ack_id, "jsonrpc": "2.0", "result": true}))
            .await;
        b.no_push().await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        b.no_push().await;
    }
}

// ----- JSON-RPC framing ---------------------------------------------------------------------------------

#[tokio::test]
async fn request_ids_are_echoed_exactly_as_string_or_number() {
    let (_s, addr) = demo().await;
    let t = topic(22);
    let mut a = Client::connect(addr, 1).await;
    for id in [
        json!("1687239522123456789"),
        json!(1687239522123456789u64),
        json!("1687239522123456790n"),
        json!(42),
        json!("abc"),
    ] {
        a.send(
            json!({"id": id, "jsonrpc": "2.0", "method": "irn_subscribe", "params": {"topic": t}}),
        )
        .await;
        let r = a.response(&id).await;
        assert_eq!(r["id"], id, "{r}");
        assert_eq!(r["jsonrpc"], "2.0");
        assert!(r["result"].is_string());
    }
    // The raw text keeps a 19-digit number a number and a string a string.
    a.send_text(r#"{"id":1687239522123456791,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"1616161616161616161616161616161616161616161616161616161616161616","message":"m","ttl":60,"tag":1}}"#.into()).await;
    let raw = match a.ws.next().await.unwrap().unwrap() {
        Message::Text(t) => t.as_str().to_string(),
        other => panic!("{other:?}"),
    };
    assert!(raw.contains(r#""id":1687239522123456791"#), "{raw}");
    a.send_text(r#"{"id":"1687239522123456792","jsonrpc":"2.0","method":"irn_publish","params":{"topic":"1616161616161616161616161616161616161616161616161616161616161616","message":"m","ttl":60,"tag":1}}"#.into()).await;
    let raw = match a.ws.next().await.unwrap().unwrap() {
        Message::Text(t) => t.as_str().to_string(),
        other => panic!("{other:?}"),
    };
    assert!(raw.contains(r#""id":"1687239522123456792""#), "{raw}");
}

#[tokio::test]
async fn malformed_json_gets_parse_error() {
    let (_s, addr) = demo().await;
    let mut a = Client::connect(addr, 1).await;
    a.send_text("{not json".into()).await;
    let r = a.response(&Value::Null).await;
    assert_eq!(r["error"]["code"], -32700, "{r}");
    // The connection stays usable.
    a.subscribe(&topic(23)).await;
}

#[tokio::test]
async fn non_object_and_method_less_requests_are_invalid() {
    let (_s, addr) = demo().await;
    let mut a = Client::connect(addr, 1).await;
    a.send_text("[1,2]".into()).await;
    assert_eq!(a.response(&Value::Null).await["error"]["code"], -32600);
    a.send(json!({"id": 5, "jsonrpc": "2.0", "params": {}}))
        .await;
    assert_eq!(a.response(&json!(5)).await["error"]["code"], -32600);
}

#[tokio::test]
async fn unknown_method_gets_method_not_found() {
    let (_s, addr) = demo().await;
    let mut a = Client::connect(addr, 1).await;
    let e = a.err("irn_teleport", json!({})).await;
    assert_eq!(e["code"], -32601);
    assert!(e["message"].as_str().unwrap().contains("irn_teleport"));
}

#[tokio::test]
async fn bad_params_get_invalid_params() {
    let (_s, addr) = demo().await;
    let t = topic(24);
    let mut a = Client::connect(addr, 1).await;
    let cases = [
        ("irn_subscribe", json!({})),
        ("irn_subscribe", json!([])),
        ("irn_subscribe", json!({"topic": "AB".repeat(32)})),
        ("irn_subscribe", json!({"topic": "ab".repeat(31)})),
        ("irn_subscribe", json!({"topic": 7})),
        ("irn_publish", json!({"topic": t, "ttl": 60, "tag": 1})),
        (
            "irn_publish",
            json!({"topic": t, "message": 5, "ttl": 60, "tag": 1}),
        ),
        (
            "irn_publish",
            json!({"topic": t, "message": "m", "ttl": "60", "tag": 1}),
        ),
        (
            "irn_publish",
            json!({"topic": t, "message": "m", "ttl": -1, "tag": 1}),
        ),
        ("irn_publish", json!({"topic": t, "message": "m", "tag": 1})),
        (
            "irn_publish",
            json!({"topic": "zz", "message": "m", "ttl": 60, "tag": 1}),
        ),
        ("irn_batchSubscribe", json!({"topics": "nope"})),
        ("irn_batchSubscribe", json!({"topics": [t, "bad"]})),
        ("irn_unsubscribe", json!({"topic": t})),
        (
            "irn_batchUnsubscribe",
            json!({"subscriptions": [{"topic": t}]}),
        ),
        ("irn_fetchMessages", json!({"topic": "x"})),
        ("irn_batchFetchMessages", json!({})),
    ];
    for (method, params) in cases {
        let e = a.err(method, params.clone()).await;
        assert_eq!(e["code"], -32602, "{method} {params}: {e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
}

// ----- authentication -----------------------------------------------------------------------------------

async fn refused(url: String) -> (u16, String) {
    let mut c = Client::connect_url(&url).await;
    c.closed_with().await
}

#[tokio::test]
async fn missing_auth_is_closed_with_policy_violation() {
    let (_s, addr) = demo().await;
    let (code, reason) = refused(format!("ws://{addr}/relay?projectId=demo-project")).await;
    assert_eq!((code, reason.as_str()), (1008, "missing auth"));
}

#[tokio::test]
async fn bad_signature_is_closed_with_reason() {
    let (_s, addr) = demo().await;
    // Signed by key 9 but claiming to be client 1.
    let forged = sign_jwt(&key(9), HEADER, &claims(addr, 1, now_s(), now_s() + 3600));
    let (code, reason) = refused(relay_url(addr, &forged)).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "invalid auth: bad signature")
    );
}

#[tokio::test]
async fn expired_jwt_is_closed_with_reason() {
    let (_s, addr) = demo().await;
    let old = sign_jwt(
        &key(1),
        HEADER,
        &claims(addr, 1, now_s() - 7200, now_s() - 3600),
    );
    let (code, reason) = refused(relay_url(addr, &old)).await;
    assert_eq!((code, reason.as_str()), (1008, "invalid auth: expired"));
}

#[tokio::test]
async fn jwt_issued_far_in_the_future_is_closed_with_reason() {
    let (_s, addr) = demo().await;
    let future = sign_jwt(
        &key(1),
        HEADER,
        &claims(addr, 1, now_s() + 3600, now_s() + 7200),
    );
    let (code, reason) = refused(relay_url(addr, &future)).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "invalid auth: issued in the future")
    );
}

#[tokio::test]
async fn malformed_or_foreign_jwts_are_closed_with_reason() {
    let (_s, addr) = demo().await;
    let (code, reason) = refused(relay_url(addr, "not-a-jwt")).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "invalid auth: malformed token")
    );
    let hs = sign_jwt(
        &key(1),
        r#"{"alg":"HS256","typ":"JWT"}"#,
        &claims(addr, 1, now_s(), now_s() + 60),
    );
    let (code, reason) = refused(relay_url(addr, &hs)).await;
    assert_eq!(code, 1008);
    assert!(
        reason.starts_with("invalid auth: unsupported header"),
        "{reason}"
    );
    let mut c = claims(addr, 1, now_s(), now_s() + 60);
    c["iss"] = json!("did:web:example.com");
    let (code, reason) = refused(relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
    assert_eq!(code, 1008);
    assert!(reason.starts_with("invalid auth: bad issuer"), "{reason}");
}

#[tokio::test]
async fn authorization_bearer_header_is_accepted() {
    let (_s, addr) = demo().await;
    let mut req = format!("ws://{addr}/relay").into_client_request().unwrap();
    req.headers_mut().insert(
        "authorization",
        format!("Bearer {}", jwt(addr, 4)).parse().unwrap(),
    );
    let (ws, _) = connect_async(req).await.unwrap();
    let mut c = Client {
        ws,
        pushes: VecDeque::new(),
        responses: VecDeque::new(),
        next_id: 1,
        closed: None,
    };
    assert_eq!(
        c.subscribe(&topic(25)).await,
        subscription_id(&topic(25), &did(4))
    );
}

#[tokio::test]
async fn project_id_bad_is_refused() {
    let (_s, addr) = demo().await;
    let url = format!("ws://{addr}/relay?auth={}&projectId=bad", jwt(addr, 1));
    let (code, reason) = refused(url).await;
    assert_eq!((code, reason.as_str()), (1008, "invalid projectId"));
}

#[tokio::test]
async fn plain_get_without_upgrade_is_426() {
    let (_s, addr) = demo().await;
    let r = common::get(addr, "/relay").await;
    assert_eq!(r.status, 426);
    assert_eq!(r.json()["status"], 426);
}

// ----- limits -------------------------------------------------------------------------------------------

#[tokio::test]
async fn oversized_message_is_refused_and_connection_stays_open() {
    let (s, addr) = demo().await;
    let t = topic(30);
    let mut a = Client::connect(addr, 1).await;
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    let big = "x".repeat(64 * 1024 + 1);
    let e = a
        .err(
            "irn_publish",
            json!({"topic": t, "message": big, "ttl": 300, "tag": 1}),
        )
        .await;
    assert_eq!(e["code"], -32602);
    assert!(e["message"].as_str().unwrap().contains("too large"), "{e}");
    b.no_push().await;
    assert_eq!(s.state.relay.stats().stored_messages, 0);
    // Exactly the limit is fine.
    a.publish(&t, &"y".repeat(64 * 1024), 300, 1).await;
    assert_eq!(
        data(&b.push_acked().await)["message"]
            .as_str()
            .unwrap()
            .len(),
        64 * 1024
    );
}

#[tokio::test]
async fn oversized_frame_closes_with_1009() {
    let (addr, _relay) = custom(RelayConfig {
        max_frame_bytes: 4096,
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    a.send_text(format!(
        r#"{{"id":1,"method":"irn_publish","params":{{"message":"{}"}}}}"#,
        "x".repeat(8192)
    ))
    .await;
    let (code, _) = a.closed_with().await;
    assert_eq!(code, 1009);
}

#[tokio::test]
async fn publish_flood_is_refused_then_connection_closed() {
    let (addr, relay) = custom(RelayConfig {
        publish_rate: 5,
        flood_close_after: 5,
        ..RelayConfig::default()
    })
    .await;
    let t = topic(31);
    let mut a = Client::connect(addr, 1).await;
    for i in 0..40u64 {
        a.send(json!({"id": i, "jsonrpc": "2.0", "method": "irn_publish",
            "params": {"topic": t, "message": format!("m{i}"), "ttl": 300, "tag": 1}}))
            .await;
    }
    let (code, reason) = a.closed_with().await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "rate limited: too many publishes")
    );
    let ok = a.responses.iter().filter(|r| r["result"] == true).count();
    let limited: Vec<&Value> = a
        .responses
        .iter()
        .filter(|r| r["error"]["code"] == -32000)
        .collect();
    assert!((1..=5).contains(&ok), "accepted {ok}");
    assert!(limited.len() >= 5, "{:?}", a.responses);
    assert_eq!(limited[0]["error"]["message"], "rate limited");
    // Refused messages were not stored; the flood did not pile up.
    assert!(relay.stats().stored_messages <= 5);
    eventually("flooder disconnected", || relay.stats().connections == 0).await;
}

#[tokio::test]
async fn publish_rate_recovers_after_a_second() {
    let (addr, _relay) = custom(RelayConfig {
        publish_rate: 3,
        ..RelayConfig::default()
    })
    .await;
    let t = topic(32);
    let mut a = Client::connect(addr, 1).await;
    for _ in 0..3 {
        a.publish(&t, "m", 60, 1).await;
    }
    let e = a
        .err(
            "irn_publish",
            json!({"topic": t, "message": "m", "ttl": 60, "tag": 1}),
        )
        .await;
    assert_eq!(
        (e["code"].clone(), e["message"].clone()),
        (json!(-32000), json!("rate limited"))
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    a.publish(&t, "m", 60, 1).await;
}

#[tokio::test]
async fn subscription_limit_per_connection() {
    let (addr, _relay) = custom(RelayConfig {
        max_subscriptions: 3,
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    a.ok(
        "irn_batchSubscribe",
        json!({"topics": [topic(40), topic(41)]}),
    )
    .await;
    a.subscribe(&topic(42)).await;
    // Re-subscribing an existing topic is not a new subscription.
    a.subscribe(&topic(40)).await;
    let e = a.err("irn_subscribe", json!({"topic": topic(43)})).await;
    assert_eq!(e["code"], -32000);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("subscription limit"),
        "{e}"
    );
    let e = a
        .err(
            "irn_batchSubscribe",
            json!({"topics": [topic(44), topic(45)]}),
        )
        .await;
    assert_eq!(e["code"], -32000);
}

#[tokio::test]
async fn mailbox_keeps_only_the_newest_messages() {
    let (addr, relay) = custom(RelayConfig {
        mailbox_limit: 3,
        ..RelayConfig::default()
    })
    .await;
    let t = topic(50);
    let mut a = Client::connect(addr, 1).await;
    for i in 0..6 {
        a.publish(&t, &format!("m{i}"), 300, 1).await;
    }
    assert_eq!(relay.stats().stored_messages, 3);
    let mut b = Client::connect(addr, 2).await;
    let f = b.ok("irn_fetchMessages", json!({ "topic": t })).await;
    let got: Vec<&str> = f["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["message"].as_str().unwrap())
        .collect();
    assert_eq!(got, ["m3", "m4", "m5"]);
}

#[tokio::test]
async fn topic_cap_refuses_new_topics() {
    let (addr, _relay) = custom(RelayConfig {
        max_topics: 2,
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    a.publish(&topic(60), "a", 300, 1).await;
    a.subscribe(&topic(61)).await;
    let e = a
        .err(
            "irn_publish",
            json!({"topic": topic(62), "message": "c", "ttl": 300, "tag": 1}),
        )
        .await;
    assert_eq!(e["code"], -32000);
    let e = a.err("irn_subscribe", json!({"topic": topic(63)})).await;
    assert_eq!(e["code"], -32000);
    // Existing topics keep working.
    a.publish(&topic(61), "b", 300, 1).await;
}

#[tokio::test]
async fn connection_limit_refuses_extra_sockets() {
    let (addr, relay) = custom(RelayConfig {
        max_connections: 1,
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    a.subscribe(&topic(64)).await;
    let (code, reason) = refused(relay_url(addr, &jwt(addr, 2))).await;
    assert_eq!((code, reason.as_str()), (1013, "too many connections"));
    drop(a);
    eventually("first socket gone", || relay.stats().connections == 0).await;
    let mut c = Client::connect(addr, 3).await;
    c.subscribe(&topic(64)).await;
}

#[tokio::test]
async fn client_that_does_not_read_is_disconnected() {
    let (addr, relay) = custom(RelayConfig {
        outbox_capacity: 4,
        write_timeout: Duration::from_millis(300),
        publish_rate: 100_000,
        request_rate: 100_000,
        ..RelayConfig::default()
    })
    .await;
    let t = topic(70);
    let mut reader_less = Client::connect(addr, 2).await;
    reader_less.subscribe(&t).await;
    let mut a = Client::connect(addr, 1).await;
    let chunk = "z".repeat(60 * 1024);
    // ~24 MiB towards a socket that never reads: more than loopback buffers hold.
    for _ in 0..400 {
        a.publish(&t, &chunk, 0, 1).await;
    }
    eventually("slow reader dropped", || relay.stats().connections == 1).await;
    // The publisher is unaffected.
    a.publish(&t, "still here", 0, 1).await;
}

#[tokio::test]
async fn subscriptions_of_a_closed_socket_are_released() {
    let (s, addr) = demo().await;
    let t = topic(71);
    let mut b = Client::connect(addr, 2).await;
    b.subscribe(&t).await;
    assert_eq!(s.state.relay.stats().subscriptions, 1);
    b.ws.close(None).await.unwrap();
    drop(b);
    let relay = s.state.relay.clone();
    eventually("subscription released", || {
        let st = relay.stats();
        st.subscriptions == 0 && st.topics == 0 && st.connections == 0
    })
    .await;
}

// ----- heartbeat ----------------------------------------------------------------------------------------

#[tokio::test]
async fn server_answers_pings_and_sends_its_own() {
    let (addr, _relay) = custom(RelayConfig {
        ping_interval: Duration::from_millis(100),
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    a.ws.send(Message::Ping(b"hi"[..].into())).await.unwrap();
    let (mut pong, mut ping) = (false, false);
    let deadline = tokio::time::Instant::now() + WAIT;
    while !(pong && ping) && tokio::time::Instant::now() < deadline {
        match tokio::time::timeout(WAIT, a.ws.next()).await {
            Ok(Some(Ok(Message::Pong(p)))) => pong |= &p[..] == b"hi",
            Ok(Some(Ok(Message::Ping(_)))) => ping = true,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(pong && ping, "pong {pong} ping {ping}");
}

#[tokio::test]
async fn idle_connection_is_closed() {
    let (addr, relay) = custom(RelayConfig {
        ping_interval: Duration::from_millis(50),
        idle_timeout: Duration::from_millis(300),
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    // Do not read (so no pongs go back) for a while.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (code, reason) = a.closed_with().await;
    assert_eq!((code, reason.as_str()), (1001, "idle timeout"));
    eventually("idle socket released", || relay.stats().connections == 0).await;
}

#[tokio::test]
async fn a_client_answering_pings_is_not_idle() {
    let (addr, _relay) = custom(RelayConfig {
        ping_interval: Duration::from_millis(50),
        idle_timeout: Duration::from_millis(300),
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    // Reading keeps answering the server's pings.
    a.no_push().await;
    a.no_push().await;
    a.no_push().await;
    assert!(a.closed.is_none(), "{:?}", a.closed);
    a.subscribe(&topic(72)).await;
}

// ----- sign-client session setup ------------------------------------------------------------------------

#[tokio::test]
async fn wc_propose_and_approve_session_route_through_the_relay() {
    let (_s, addr) = demo().await;
    let pairing = topic(80);
    let session = topic(81);
    let mut dapp = Client::connect(addr, 1).await;
    let mut wallet = Client::connect(addr, 2).await;
    // No irn_subscribe for the pairing topic: sign-client creates the pairing with skipSubscribe and
    // relies on wc_proposeSession subscribing it.
    // sign-client 2.2x: the proposal goes to the relay as wc_proposeSession, id as a string.
    dapp.send(
        json!({"id": "1687239522123456789", "jsonrpc": "2.0", "method": "wc_proposeSession",
        "params": {"pairingTopic": pairing, "sessionProposal": "ENC-PROPOSAL", "ttl": 300,
                   "attestation": "x", "correlationId": 1}}),
    )
    .await;
    let r = dapp.response(&json!("1687239522123456789")).await;
    assert_eq!(r["result"], true, "{r}");

    wallet.subscribe(&pairing).await;
    let p = wallet.push_acked().await;
    assert_eq!(data(&p)["message"], "ENC-PROPOSAL");
    assert_eq!(data(&p)["tag"], 1100);

    let r = wallet
        .ok(
            "wc_approveSession",
            json!({"sessionTopic": session, "pairingTopic": pairing,
                   "sessionProposalResponse": "ENC-RESPONSE", "sessionSettlementRequest": "ENC-SETTLE",
                   "ttl": 300}),
        )
        .await;
    assert_eq!(r, json!(true));

    // The dapp gets the response on the pairing topic, then the settle request when it subscribes
    // to the session topic.
    let p = dapp.push_acked().await;
    assert_eq!(
        (data(&p)["message"].clone(), data(&p)["tag"].clone()),
        (json!("ENC-RESPONSE"), json!(1101))
    );
    dapp.subscribe(&session).await;
    let p = dapp.push_acked().await;
    assert_eq!(
        (data(&p)["message"].clone(), data(&p)["tag"].clone()),
        (json!("ENC-SETTLE"), json!(1102))
    );
    wallet.no_push().await;

    // The wallet was subscribed to the session topic by wc_approveSession itself.
    dapp.publish(&session, "ENC-SETTLE-ACK", 300, 1103).await;
    let p = wallet.push_acked().await;
    assert_eq!(p["params"]["id"], json!(subscription_id(&session, &did(2))));
    assert_eq!(data(&p)["message"], "ENC-SETTLE-ACK");
}

#[tokio::test]
async fn frame_flood_closes_the_connection() {
    let (addr, relay) = custom(RelayConfig {
        request_rate: 10,
        flood_close_after: 10,
        ..RelayConfig::default()
    })
    .await;
    let mut a = Client::connect(addr, 1).await;
    for _ in 0..100 {
        a.send_text("garbage".into()).await;
    }
    let (code, reason) = a.closed_with().await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "rate limited: too many requests")
    );
    eventually("flooder disconnected", || relay.stats().connections == 0).await;
}

// ----- bounded auth, token claims, per-client storage quotas ---------------------------------------------

/// Opens a socket whose token travels in an `Authorization: Bearer` header (no URL length limit).
async fn connect_bearer(addr: SocketAddr, token: &str) -> Client {
    let mut req = format!("ws://{addr}/relay?projectId=demo-project")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = connect_async(req).await.expect("websocket connects");
    Client {
        ws,
        pushes: VecDeque::new(),
        responses: VecDeque::new(),
        next_id: 1,
        closed: None,
    }
}

/// A signed token whose `iss` is `did:key:z` followed by `len` base58 characters.
fn token_with_issuer_of(addr: SocketAddr, len: usize) -> String {
    let mut c = claims(addr, 1, now_s(), now_s() + 600);
    c["iss"] = json!(format!("did:key:z{}", "z".repeat(len)));
    sign_jwt(&key(1), HEADER, &c)
}

#[tokio::test]
async fn a_128k_character_issuer_is_refused_at_once_without_decoding_it() {
    let (_s, addr) = demo().await;
    let token = token_with_issuer_of(addr, 128_000);
    let started = std::time::Instant::now();
    let mut c = connect_bearer(addr, &token).await;
    let (code, reason) = c.closed_with().await;
    let took = started.elapsed();
    assert_eq!(code, 1008, "{reason}");
    assert!(
        reason.starts_with("invalid auth: token too long"),
        "{reason}"
    );
    // Measured: ~5.6 s of base58 decoding before the length bound; now a few ms.
    assert!(took < Duration::from_secs(1), "refusal took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_tokens_do_not_delay_plain_http() {
    let (_s, addr) = demo().await;
    let token = token_with_issuer_of(addr, 128_000);
    let attackers: Vec<_> = (0..2)
        .map(|_| {
            let token = token.clone();
            tokio::spawn(async move {
                for _ in 0..3 {
                    let mut c = connect_bearer(addr, &token).await;
                    let (code, _) = c.closed_with().await;
                    assert_eq!(code, 1008);
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let started = std::time::Instant::now();
    let r = common::get(addr, "/demo-config.json").await;
    let took = started.elapsed();
    assert_eq!(r.status, 200);
    for a in attackers {
        a.await.expect("attacker task");
    }
    assert!(took < Duration::from_secs(1), "plain GET took {took:?}");
}

#[tokio::test]
async fn jwt_exp_must_be_an_integer_at_most_a_day_after_iat() {
    let (_s, addr) = demo().await;
    let now = now_s();
    let cases = [
        (json!(1e300), "invalid auth: claim exp must be an integer"),
        (
            json!(now as f64 + 3600.5),
            "invalid auth: claim exp must be an integer",
        ),
        (
            json!((now + 3600).to_string()),
            "invalid auth: claim exp must be an integer",
        ),
        (
            json!(i64::MAX),
            "invalid auth: lifetime too long (exp more than 86400 s after iat)",
        ),
        (
            json!(now + 86400 + 1),
            "invalid auth: lifetime too long (exp more than 86400 s after iat)",
        ),
    ];
    for (exp, want) in cases {
        let mut c = claims(addr, 1, now, 0);
        c["exp"] = exp.clone();
        let (code, reason) = refused(relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
        assert_eq!((code, reason.as_str()), (1008, want), "exp {exp}");
    }
    // A fractional iat is refused too.
    let mut c = claims(addr, 1, now, now + 600);
    c["iat"] = json!(now as f64 + 0.5);
    let (code, reason) = refused(relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "invalid auth: claim iat must be an integer")
    );
    // Exactly one day, as the official clients issue it, is accepted.
    let ok = sign_jwt(&key(1), HEADER, &claims(addr, 1, now, now + 86400));
    let mut a = Client::connect_url(&relay_url(addr, &ok)).await;
    a.subscribe(&topic(90)).await;
}

#[tokio::test]
async fn jwt_audience_must_be_the_relay_url_the_client_connected_to() {
    let (_s, addr) = demo().await;
    let port = addr.port();
    let wrong = [
        json!("wss://relay.walletconnect.org"),
        json!("ws://127.0.0.1/relay"),
        json!(format!("ws://127.0.0.1:{}/relay", port.wrapping_add(1))),
        json!(format!("ws://localhost:{port}/relay")),
        json!(format!("ws://{addr}/other")),
        json!(format!("ws://{addr}/relay/x")),
        json!(format!("http://{addr}/relay")),
        json!(format!("ws://user@{addr}/relay")),
        json!(5),
    ];
    for aud in wrong {
        let mut c = claims(addr, 1, now_s(), now_s() + 600);
        c["aud"] = aud.clone();
        let (code, reason) = refused(relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
        assert_eq!(code, 1008, "aud {aud}");
        assert_eq!(
            reason,
            format!("invalid auth: wrong audience (expected ws://{addr}/relay)"),
            "aud {aud}"
        );
    }
    let mut c = claims(addr, 1, now_s(), now_s() + 600);
    c.as_object_mut().unwrap().remove("aud");
    let (code, reason) = refused(relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
    assert_eq!(
        (code, reason.as_str()),
        (1008, "invalid auth: missing claim aud")
    );
    // The relay URL as the clients write it: ws or wss (TLS may end in front of the relay), any
    // case in scheme and host, and the query string the client may have put into its relayUrl.
    for aud in [
        format!("ws://{addr}/relay"),
        format!("wss://{addr}/relay"),
        format!("WS://{addr}/relay"),
        format!("ws://{addr}/relay?projectId=demo-project"),
    ] {
        let mut c = claims(addr, 1, now_s(), now_s() + 600);
        c["aud"] = json!(aud);
        let mut a = Client::connect_url(&relay_url(addr, &sign_jwt(&key(1), HEADER, &c))).await;
        a.subscribe(&topic(93)).await;
    }
}

fn quota_topic(i: u32) -> String {
    // 50 messages per topic, below the 100-message mailbox limit.
    format!("{:064x}", 0xa0_0000 + i / 50)
}

#[tokio::test]
async fn a_client_over_its_storage_quota_is_refused_while_other_clients_still_publish() {
    // The client id's quota below the connection's and the address's: the id's is met first.
    let (addr, relay) = custom(RelayConfig {
        max_client_stored_bytes: 2 * 1024 * 1024,
        max_conn_stored_bytes: 64 * 1024 * 1024,
        max_ip_stored_bytes: 64 * 1024 * 1024,
        ..RelayConfig::default()
    })
    .await;
    let mut hog = Client::connect(addr, 1).await;
    let big = "q".repeat(64 * 1024);
    let mut refusal = None;
    // Bounded: 1200 × 64 KiB is more than the whole store (64 MiB).
    for i in 0..1200u32 {
        let r = hog
            .call(
                "irn_publish",
                json!({"topic": quota_topic(i), "message": big, "ttl": 300, "tag": 1}),
            )
            .await;
        if let Some(e) = r.get("error") {
            if e["message"] == "rate limited" {
                tokio::time::sleep(Duration::from_millis(1100)).await;
                continue;
            }
            refusal = Some(e.clone());
            break;
        }
    }
    let e = refusal.expect("the hog is refused at some point");
    assert_eq!(e["code"], -32000, "{e}");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.starts_with("client storage quota exceeded"), "{msg}");
    assert!(msg.contains("per client id"), "{msg}");
    let (held_msgs, held_bytes) = relay.client_stored(&did(1));
    assert!(held_bytes <= relay.config().max_client_stored_bytes);
    assert!(held_msgs <= relay.config().max_client_stored_messages);
    assert!(relay.stats().stored_bytes < relay.config().max_stored_bytes / 2);

    // A dapp's pairing proposal and a wallet's answer still go through.
    let pairing = topic(94);
    let mut dapp = Client::connect(addr, 2).await;
    let r = dapp
        .call(
            "wc_proposeSession",
            json!({"pairingTopic": pairing, "sessionProposal": "ENC-PROPOSAL", "ttl": 300}),
        )
        .await;
    assert_eq!(r["result"], true, "{r}");
    let mut wallet = Client::connect(addr, 3).await;
    wallet.subscribe(&pairing).await;
    assert_eq!(data(&wallet.push_acked().await)["message"], "ENC-PROPOSAL");
    wallet.publish(&pairing, "ENC-RESPONSE", 300, 1101).await;

    // The quota belongs to the client id: a second socket of the hog is refused too ...
    let mut hog2 = Client::connect(addr, 1).await;
    let e = hog2
        .err(
            "irn_publish",
            json!({"topic": topic(95), "message": big, "ttl": 300, "tag": 1}),
        )
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("client storage quota exceeded"),
        "{e}"
    );
    // ... but live messages (ttl 0, never stored) still flow.
    hog.publish(&topic(95), "live", 0, 1).await;
}

/// Limits small enough to fill in a moment: a 1 MiB store with 256 KiB only small messages
/// (≤ 8 KiB) may use; per address 256 KiB (64 KiB of it for small ones); per connection and per
/// client id 128 KiB.
fn small_store() -> RelayConfig {
    RelayConfig {
        max_stored_bytes: 1024 * 1024,
        small_reserve_bytes: 256 * 1024,
        max_ip_stored_bytes: 256 * 1024,
        ip_small_reserve_bytes: 64 * 1024,
        max_conn_stored_bytes: 128 * 1024,
        max_client_stored_bytes: 128 * 1024,
        ..RelayConfig::default()
    }
}

/// Publishes messages of each of `sizes` bytes in turn (ttl 300, fresh topics) until refused, so
/// that the store is filled to the last few bytes; answers the last refusal.
async fn fill(c: &mut Client, sizes: &[usize], first_topic: u32) -> Value {
    let mut last = None;
    let mut n = first_topic;
    for size in sizes {
        let message = "m".repeat(*size);
        loop {
            n += 50;
            let r = c
                .call(
                    "irn_publish",
                    json!({"topic": quota_topic(n), "message": message, "ttl": 300, "tag": 1}),
                )
                .await;
            if let Some(e) = r.get("error") {
                last = Some(e.clone());
                break;
            }
        }
    }
    last.expect("refused")
}

/// A dapp's pairing proposal and the wallet's approval (three small messages of ~4 KB, ttl 300,
/// from 127.0.0.1) go through the relay.
async fn pairing_goes_through(addr: SocketAddr, n: u8) {
    let (pairing, session) = (topic(n), topic(n + 1));
    let enc = |what: &str| format!("{what}-").repeat(3900 / (what.len() + 1));
    let mut dapp = Client::connect(addr, 200).await;
    let r = dapp
        .call(
            "wc_proposeSession",
            json!({"pairingTopic": pairing, "sessionProposal": enc("PROPOSAL"), "ttl": 300}),
        )
        .await;
    assert_eq!(r["result"], true, "the proposal: {r}");
    let mut wallet = Client::connect(addr, 201).await;
    wallet.subscribe(&pairing).await;
    assert_eq!(data(&wallet.push_acked().await)["message"], enc("PROPOSAL"));
    let r = wallet
        .call(
            "wc_approveSession",
            json!({"sessionTopic": session, "pairingTopic": pairing,
                   "sessionProposalResponse": enc("RESPONSE"),
                   "sessionSettlementRequest": enc("SETTLE"), "ttl": 300}),
        )
        .await;
    assert_eq!(r["result"], true, "the approval: {r}");
    assert_eq!(data(&dapp.push_acked().await)["message"], enc("RESPONSE"));
}

#[tokio::test]
async fn one_address_with_many_client_ids_cannot_keep_out_another_clients_pairing_proposal() {
    let (addr, relay) = custom(small_store()).await;
    // Small messages (they may use every reserve) from 127.0.0.2, a new client id and socket each
    // time the last one is refused, up to 40 ids (5 MiB of quotas per id and per connection).
    let mut refusals = Vec::new();
    for seed in 10..50u8 {
        let mut c = Client::connect_from(addr, seed, common::OTHER_CLIENT).await;
        let e = fill(&mut c, &[2048], u32::from(seed) * 10_000).await;
        let msg = e["message"].as_str().unwrap().to_string();
        let address_full = msg.contains("per IP address");
        refusals.push(msg);
        if address_full {
            break;
        }
    }
    // Another client's pairing proposal goes through ...
    pairing_goes_through(addr, 150).await;
    // ... because the flood met its address's quota, a quarter of the store.
    let last = refusals.last().unwrap();
    assert!(
        last.starts_with(
            "client storage quota exceeded: at most 262144 bytes stored per IP address"
        ),
        "{refusals:#?}"
    );
    let (_, held) = relay.address_stored(common::OTHER_CLIENT);
    assert!(held <= 256 * 1024, "{held}");
}

#[tokio::test]
async fn big_messages_from_many_addresses_leave_room_for_small_ones() {
    let (addr, relay) = custom(small_store()).await;
    let big = "b".repeat(60 * 1024);
    // 127.0.0.2 to 127.0.0.9: 8 × 192 KiB of big messages are more than the store's 768 KiB; each
    // filled to the last bytes (big messages down to 9 KiB).
    let mut full = false;
    for host in 2..10u8 {
        let from = std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, host));
        for seed in 0..2u8 {
            let mut c = Client::connect_from(addr, host * 10 + seed, from).await;
            let first = u32::from(host) * 100_000 + u32::from(seed) * 10_000;
            let e = fill(&mut c, &[60 * 1024, 30 * 1024, 16 * 1024, 9 * 1024], first).await;
            full |= e["message"] == "relay storage is full, try again later";
        }
    }
    assert!(full, "the store is full for big messages");
    // A small pairing proposal still goes in; a big message does not.
    pairing_goes_through(addr, 151).await;
    let stored = relay.stats().stored_bytes;
    assert!(stored <= 768 * 1024 + 3 * 4500, "{stored}");
    let mut late = Client::connect(addr, 202).await;
    let e = late
        .err(
            "irn_publish",
            json!({"topic": topic(152), "message": big, "ttl": 300, "tag": 1}),
        )
        .await;
    assert_eq!(
        e["message"], "relay storage is full, try again later",
        "{e}"
    );
}
