//! Several relay instances behind one real Redis (Debian's `redis-server`, a server of the test's own
//! on a free port): what is published on one instance reaches subscribers on another, what is kept
//! for an offline peer is kept in Redis, and an instance cut off from Redis keeps serving its own
//! sockets and says so.

mod common;

use std::time::Duration;

use serde_json::{json, Value};
use wm_server::testing::RedisServer;

use common::relay::*;

fn data(push: &Value) -> &Value {
    assert_eq!(push["method"], "irn_subscription", "{push}");
    &push["params"]["data"]
}

async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !cond() {
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_message_published_on_one_instance_reaches_subscribers_on_the_other_once_and_not_its_publisher() {
    let redis = RedisServer::start().unwrap();
    let (a, b) = (common::start_instance(&redis.url()).await, common::start_instance(&redis.url()).await);
    let t = topic(1);
    let mut on_a = Client::connect(a.addr, 1).await;
    let mut also_on_a = Client::connect(a.addr, 2).await;
    let mut on_b = Client::connect(b.addr, 3).await;
    let sub_a = on_a.subscribe(&t).await;
    also_on_a.subscribe(&t).await;
    let sub_b = on_b.subscribe(&t).await;

    on_b.publish(&t, "from-b", 300, 1108).await;
    let got = on_a.push_acked().await;
    assert_eq!(got["params"]["id"], json!(sub_a));
    assert_eq!((data(&got)["topic"].as_str(), data(&got)["message"].as_str(), data(&got)["tag"].as_u64()), (Some(t.as_str()), Some("from-b"), Some(1108)));
    assert_eq!(data(&also_on_a.push_acked().await)["message"], "from-b");
    on_b.no_push().await;

    // And back: published on A, heard on B (and by A's other socket), once each.
    on_a.publish(&t, "from-a", 300, 1109).await;
    let got = on_b.push_acked().await;
    assert_eq!((got["params"]["id"].as_str(), data(&got)["message"].as_str()), (Some(sub_b.as_str()), Some("from-a")));
    assert_eq!(data(&also_on_a.push_acked().await)["message"], "from-a");
    on_a.no_push().await;
    on_b.no_push().await;
    also_on_a.no_push().await;

    // A socket subscribing again on B gets nothing twice (the kept messages are the same ones).
    on_b.subscribe(&t).await;
    on_b.no_push().await;
    assert_eq!(a.state.relay.stats().redis_errors + b.state.relay.stats().redis_errors, 0);
}

#[tokio::test]
async fn a_message_for_an_offline_peer_is_kept_in_redis_and_delivered_when_it_subscribes_on_another_instance() {
    let redis = RedisServer::start().unwrap();
    let (a, b) = (common::start_instance(&redis.url()).await, common::start_instance(&redis.url()).await);
    let (kept, live_only, expired) = (topic(2), topic(3), topic(4));
    let mut dapp = Client::connect(a.addr, 1).await;
    dapp.publish(&kept, "proposal-1", 300, 1100).await;
    dapp.publish(&kept, "proposal-2", 300, 1100).await;
    dapp.publish(&live_only, "nobody-listens", 0, 1100).await;
    dapp.publish(&expired, "gone-soon", 1, 1100).await;
    // The wallet comes online later, on the other instance.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let mut wallet = Client::connect(b.addr, 2).await;
    wallet.subscribe(&kept).await;
    let first = wallet.push_acked().await;
    let second = wallet.push_acked().await;
    assert_eq!((data(&first)["message"].as_str(), data(&second)["message"].as_str()), (Some("proposal-1"), Some("proposal-2")), "in order");
    assert_eq!(data(&first)["tag"], 1100);
    wallet.subscribe(&live_only).await;
    wallet.subscribe(&expired).await;
    wallet.no_push().await;
}

#[tokio::test]
async fn an_instance_cut_off_from_redis_keeps_relaying_its_own_sockets_says_it_is_not_ready_and_joins_again() {
    let mut redis = RedisServer::start().unwrap();
    let url = redis.url();
    let a = common::start_instance(&url).await;
    let t = topic(5);
    let mut one = Client::connect(a.addr, 1).await;
    let mut two = Client::connect(a.addr, 2).await;
    two.subscribe(&t).await;
    let ready = common::get(a.addr, "/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.text());

    redis.stop();
    eventually("the relay sees Redis gone", || a.state.relay.stats().redis_up == Some(false)).await;
    one.publish(&t, "still-here", 300, 1).await;
    assert_eq!(data(&two.push_acked().await)["message"], "still-here", "the instance's own sockets still talk");
    let ready = common::get(a.addr, "/readyz").await;
    assert_eq!(ready.status, 503, "{}", ready.text());
    assert!(ready.text().contains("cannot reach Redis"), "{}", ready.text());
    eventually("the lost message counted", || a.state.relay.stats().redis_errors > 0).await;
    let metrics = common::get(a.addr, "/metrics").await.text();
    assert!(metrics.contains("wm_relay_redis_up 0"), "{metrics}");

    // Redis back on its port: the relay joins again by itself, and another instance hears it.
    let redis = RedisServer::start_on(redis.port()).unwrap();
    eventually("the relay joined again", || a.state.relay.stats().redis_up == Some(true)).await;
    let b = common::start_instance(&redis.url()).await;
    let mut three = Client::connect(b.addr, 3).await;
    three.subscribe(&t).await;
    one.publish(&t, "after", 300, 1).await;
    assert_eq!(data(&three.push_acked().await)["message"], "after");
    assert_eq!(common::get(a.addr, "/readyz").await.status, 200);
}

#[tokio::test]
async fn what_another_instance_kept_while_the_subscriber_link_was_cut_is_delivered_once_it_links_again() {
    let redis = RedisServer::start().unwrap();
    let (a, b) = (common::start_instance(&redis.url()).await, common::start_instance(&redis.url()).await);
    let t = topic(7);
    let mut on_a = Client::connect(a.addr, 1).await;
    on_a.subscribe(&t).await;
    let mut on_b = Client::connect(b.addr, 2).await;
    // Redis drops every subscriber link (as it does to one that falls behind), and B publishes
    // before A's link is back: live, A would never hear it.
    let url = wm_server::relay::resp::RedisUrl::parse(&redis.url()).unwrap();
    let mut conn = wm_server::relay::resp::Conn::connect(&url, Duration::from_secs(3)).await.unwrap();
    conn.push(&[b"CLIENT", b"KILL", b"TYPE", b"pubsub"]);
    conn.flush().await.unwrap();
    assert!(matches!(conn.read().await.unwrap(), wm_server::relay::resp::Reply::Int(n) if n >= 2), "both instances' subscriber links cut");
    on_b.publish(&t, "while-cut", 300, 1108).await;
    let got = on_a.push_acked().await;
    assert_eq!(data(&got)["message"], "while-cut");
    on_a.no_push().await;
    eventually("the links are back", || a.state.relay.stats().redis_up == Some(true)).await;
}

#[tokio::test]
async fn a_message_redis_hands_back_out_of_bounds_is_dropped_and_counted() {
    let redis = RedisServer::start().unwrap();
    let a = common::start_instance(&redis.url()).await;
    let t = topic(6);
    let mut sub = Client::connect(a.addr, 1).await;
    sub.subscribe(&t).await;
    // Another "instance" (anything that can write to Redis) publishes what no relay would accept:
    // a message over the size bound, a bad topic, and not JSON at all.
    let big = "x".repeat(a.state.relay.config().max_message_bytes + 1);
    let url = wm_server::relay::resp::RedisUrl::parse(&redis.url()).unwrap();
    let mut conn = wm_server::relay::resp::Conn::connect(&url, Duration::from_secs(3)).await.unwrap();
    let errors = a.state.relay.stats().redis_errors;
    for body in [
        json!({"o": "x", "t": t, "m": big, "p": 1, "g": 1, "e": 0}).to_string(),
        json!({"o": "x", "t": "not-a-topic", "m": "m", "p": 1, "g": 1, "e": 0}).to_string(),
        "{not json".to_string(),
    ] {
        conn.push(&[b"PUBLISH", b"wm:relay:pub", body.as_bytes()]);
    }
    conn.flush().await.unwrap();
    for _ in 0..3 {
        conn.read().await.unwrap();
    }
    eventually("three bad messages counted", || a.state.relay.stats().redis_errors >= errors + 3).await;
    sub.no_push().await;
    // A good one still goes through.
    conn.push(&[b"PUBLISH", b"wm:relay:pub", json!({"o": "x", "t": t, "m": "ok", "p": 1, "g": 1, "e": 0}).to_string().as_bytes()]);
    conn.flush().await.unwrap();
    assert_eq!(data(&sub.push_acked().await)["message"], "ok");
}
