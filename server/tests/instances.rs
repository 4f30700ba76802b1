//! Two server processes behind one PostgreSQL and one Redis (real servers of the test's own, like
//! a deployment's instances behind a balancer): a visitor's requests may land on either. The login
//! starts on one and finishes on the other, the device link opened on one wakes the device waiting
//! on the other, a session made on one is good (and signed out) on the other, the mail throttle
//! and a code's tries cannot be multiplied by alternating, and when one instance is killed in the
//! middle of a load the other keeps serving it.

mod common;

use std::time::Duration;

use common::frame::{approval_link, approvals, device, Frame, LOGIN, PROJECT};
use common::mail::Maildev;
use common::process::{spawn, Server};
use common::relay::{topic, Client};
use serde_json::{json, Value};
use wm_server::testing::{PgServer, RedisServer};

const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

struct Deployment {
    a: Server,
    b: Server,
    mail: Maildev,
    // Stopped after the servers.
    _redis: RedisServer,
    _pg: PgServer,
    _dir: wm_server::testing::TempDir,
}

async fn deployment(name: &str) -> Deployment {
    let pg = PgServer::start().unwrap();
    let redis = RedisServer::start().unwrap();
    let mail = Maildev::start().await;
    let dir = wm_server::testing::TempDir::new(&format!("instances-{name}"));
    let store = pg.url(name);
    let log = dir.join("servers.log");
    let a = spawn(&store, mail.smtp, 0, &log, &["--redis", &redis.url()]);
    let b = spawn(&store, mail.smtp, 0, &log, &["--redis", &redis.url()]);
    Deployment { a, b, mail, _redis: redis, _pg: pg, _dir: dir }
}

fn email(name: &str) -> String {
    format!("{name}.{}@example.com", std::process::id())
}

fn ciphertext() -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode((0u8..60).collect::<Vec<u8>>())
}

/// The approval link of mail #n, as the other instance would be sent it (the token is what counts).
async fn link(mail: &Maildev, frame: &Frame, to: &str, n: usize) -> String {
    approval_link(mail, frame, to, n).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_started_on_one_instance_finishes_on_the_other_and_its_session_and_key_are_good_on_both() {
    let d = deployment("login").await;
    let (a, b) = (&d.a.frame, &d.b.frame);
    let addr = email("login");
    let dev = device("first");

    // Start on A: a new address confirms its device by the mailed link, which is opened on B; the
    // device waiting on A is woken.
    let r = a.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!((r.status, r.json()["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{}", r.text());
    let waiting = {
        let a = a.clone();
        let (addr, dev) = (addr.clone(), dev.clone());
        tokio::spawn(async move { a.post("/w/v1/device/wait", json!({"email": addr, "deviceId": dev, "projectId": PROJECT})).await })
    };
    let l = link(&d.mail, a, &addr, 1).await;
    let approved = b.approve(&l).await;
    assert_eq!(approved.status, 200, "{}", approved.text());
    let woke = tokio::time::timeout(Duration::from_secs(10), waiting).await.expect("the wait on A ends").unwrap();
    assert_eq!((woke.status, &woke.json()["approved"]), (200, &json!(true)), "{}", woke.text());

    // The code (mailed when B approved) is entered on A.
    let code = d.mail.code(&addr, LOGIN, 1).await;
    let v = a.verify_in(PROJECT, &addr, &dev, &code).await;
    assert_eq!(v.status, 200, "{}", v.text());
    let v = v.json();
    let session = v["session"].as_str().unwrap();

    // The key is stored through B and comes back through A; the session is good on both.
    let stored = b.post_auth("/w/v1/key", session, json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await;
    assert_eq!(stored.status, 200, "{}", stored.text());
    for f in [a, b] {
        let s = f.get_auth("/w/v1/session", session).await;
        assert_eq!((s.status, &s.json()["userId"], &s.json()["address"]), (200, &v["userId"], &json!(ADDRESS)), "{}", s.text());
    }
    let twice = a.post_auth("/w/v1/key", session, json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await;
    assert_eq!(twice.status, 409, "the key is stored once, whichever instance is asked");

    // The next login of the same address lands on B: the same account and key.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let r = b.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(r.json()["action"], "VERIFY_OTP", "{}", r.text());
    let code = d.mail.code(&addr, LOGIN, 2).await;
    let again = b.verify_in(PROJECT, &addr, &dev, &code).await.json();
    assert_eq!((&again["userId"], &again["kek"], &again["keyCiphertext"]), (&v["userId"], &v["kek"], &json!(ciphertext())));

    // Signed out on B: out on A too.
    assert_eq!(b.post_auth("/w/v1/signout", session, json!({})).await.status, 200);
    assert_eq!(a.get_auth("/w/v1/session", session).await.status, 401);
    assert_eq!(approvals(&d.mail, &addr).await.len(), 1, "one approval mail in all");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn alternating_instances_gets_neither_a_second_code_mail_nor_more_tries_at_a_code() {
    let d = deployment("throttle").await;
    let (a, b) = (&d.a.frame, &d.b.frame);
    let addr = email("alternate");
    let dev = device("one");
    // The account and its device first.
    let r = a.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(r.json()["action"], "VERIFY_DEVICE");
    assert_eq!(a.approve(&link(&d.mail, a, &addr, 1).await).await.status, 200);
    let first = d.mail.code(&addr, LOGIN, 1).await;
    assert_eq!(a.verify_in(PROJECT, &addr, &dev, &first).await.status, 200);

    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let r = a.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(r.json()["action"], "VERIFY_OTP", "{}", r.text());
    // The address's mail slot is shared: B does not mail another code at once.
    let held = b.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(held.status, 429, "{}", held.text());
    let code = d.mail.code(&addr, LOGIN, 2).await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    // Five tries in all, whichever instance takes them: the fifth burns the code.
    let mut answers = Vec::new();
    for (i, f) in [a, b, a, b, a].into_iter().enumerate() {
        let r = f.verify_in(PROJECT, &addr, &dev, wrong).await;
        answers.push((i, r.status, r.json()["error"].as_str().unwrap_or("").to_string()));
    }
    let burned = "Too many attempts: ask for a new code";
    assert!(answers[..4].iter().all(|(_, s, e)| *s == 400 && e == "Invalid code"), "{answers:?}");
    assert_eq!((answers[4].1, answers[4].2.as_str()), (400, burned), "{answers:?}");
    for f in [b, a] {
        let right = f.verify_in(PROJECT, &addr, &dev, &code).await;
        assert_eq!((right.status, right.json()["error"].as_str()), (400, Some(burned)), "burned on every instance");
    }

    // At once: a burst of wrong tries on both instances together still gets at most the four
    // answers "Invalid code" a code allows (a try that met another's write is answered 503).
    // (The burned code doubled the address's wait for its next one.)
    let started = std::time::Instant::now();
    loop {
        let r = b.start_login_in(PROJECT, &addr, &dev).await;
        if r.status == 200 {
            assert_eq!(r.json()["action"], "VERIFY_OTP");
            break;
        }
        assert!(r.status == 429 && started.elapsed() < Duration::from_secs(15), "{}", r.text());
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let code = d.mail.code(&addr, LOGIN, 3).await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    let mut tries = Vec::new();
    for i in 0..12 {
        let f = if i % 2 == 0 { *a } else { *b };
        let (addr, dev) = (addr.clone(), dev.clone());
        tries.push(tokio::spawn(async move { f.verify_in(PROJECT, &addr, &dev, wrong).await }));
    }
    let mut invalid = 0;
    for t in tries {
        let r = t.await.unwrap();
        match (r.status, r.json()["error"].as_str().unwrap_or("")) {
            (400, "Invalid code") => invalid += 1,
            (400, e) if e == burned => {}
            (503, _) => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(invalid <= 4, "{invalid} wrong tries were answered as tries, of 4 allowed");
    let right = a.verify_in(PROJECT, &addr, &dev, &code).await;
    assert_eq!((right.status, right.json()["error"].as_str()), (400, Some(burned)), "the burst burned the code");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_one_instance_is_killed_in_the_middle_of_a_load_the_other_keeps_serving_sessions_logins_and_the_relay() {
    let mut d = deployment("kill").await;
    let addr = email("load");
    let dev = device("load");
    let a = d.a.frame.clone();
    let r = a.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(r.json()["action"], "VERIFY_DEVICE");
    assert_eq!(a.approve(&link(&d.mail, &a, &addr, 1).await).await.status, 200);
    let code = d.mail.code(&addr, LOGIN, 1).await;
    let v: Value = a.verify_in(PROJECT, &addr, &dev, &code).await.json();
    let session = v["session"].as_str().unwrap().to_string();
    // A relay pair on B.
    let t = topic(9);
    let mut sub = Client::connect(d.b.addr, 1).await;
    let mut publ = Client::connect(d.b.addr, 2).await;
    sub.subscribe(&t).await;

    // A load on both: session reads alternating between the instances; A is killed in the middle.
    let b = d.b.frame.clone();
    let load = {
        let (a, b, session) = (a.clone(), b.clone(), session.clone());
        tokio::spawn(async move {
            let (mut on_a, mut on_b) = (Vec::new(), Vec::new());
            for i in 0..200 {
                let f = if i % 2 == 0 { a.clone() } else { b.clone() };
                let s = session.clone();
                // (The test client gives up on a killed server by panicking: its own task.)
                let call = tokio::spawn(async move { f.get_auth("/w/v1/session", &s).await.status });
                let status = tokio::time::timeout(Duration::from_secs(5), call).await.ok().and_then(Result::ok).unwrap_or(0);
                if i % 2 == 1 { on_b.push(status) } else { on_a.push(status) }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            (on_a, on_b)
        })
    };
    tokio::time::sleep(Duration::from_millis(400)).await;
    let _ = d.a.child.kill();
    let _ = d.a.child.wait();
    let (on_a, on_b) = load.await.unwrap();
    assert!(on_a.first() == Some(&200) && on_a.last() != Some(&200), "A served, then was killed in the middle: {on_a:?}");
    assert_eq!(on_b.len(), 100);
    assert!(on_b.iter().all(|s| *s == 200), "every request to B was served: {on_b:?}");
    // B still logs the visitor in and relays.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let r = b.start_login_in(PROJECT, &addr, &dev).await;
    assert_eq!(r.json()["action"], "VERIFY_OTP", "{}", r.text());
    let code = d.mail.code(&addr, LOGIN, 2).await;
    let again = b.verify_in(PROJECT, &addr, &dev, &code).await;
    assert_eq!((again.status, &again.json()["userId"]), (200, &v["userId"]), "{}", again.text());
    publ.publish(&t, "after-the-kill", 300, 1).await;
    assert_eq!(sub.push_acked().await["params"]["data"]["message"], "after-the-kill");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_database_holds_up_only_the_requests_waiting_for_it() {
    let pg = PgServer::start().unwrap();
    let mail = Maildev::start().await;
    let dir = wm_server::testing::TempDir::new("instances-stall");
    let url = pg.url("stall");
    let s = spawn(&url, mail.smtp, 0, &dir.join("server.log"), &[]);
    // Another client of the database holds the entries table for 4 s.
    let holder = {
        let url = url.clone();
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute("BEGIN; LOCK TABLE entries IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT;").unwrap();
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    // More login starts than the server has worker threads, each waiting on the table.
    let mut waiting = Vec::new();
    for i in 0..6 {
        let f = s.frame;
        waiting.push(tokio::spawn(async move { f.start_login_in(PROJECT, &format!("stall{i}@example.com"), &device("stall")).await.status }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let health = common::get(s.addr, "/healthz").await;
    let took = started.elapsed();
    assert_eq!(health.status, 200);
    assert!(took < Duration::from_millis(1_000), "/healthz waited {took:?} behind the stalled database");
    for w in waiting {
        let status = w.await.unwrap();
        assert!(status == 200 || status == 503, "{status}");
    }
    holder.join().unwrap();
}
