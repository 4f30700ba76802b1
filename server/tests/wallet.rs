//! The embedded wallet's wallet service (docs/embedded-wallet.md §2) on the backend's frame listener,
//! end to end: each test starts a real maildev (npm `maildev`, from the workspace's node_modules) on
//! free ports as the SMTP sink and reads the mail back through its REST API (`GET /api/email`).
//! Floods come from another loopback address (127.0.0.2) than the visitor's (127.0.0.1).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};
use wm_server::client::Budget;
use wm_server::wallet::WalletConfig;
use wm_server::ServerConfig;

mod common;
use common::frame::{
    approval_link, approvals, ask_code, device, email_login, Frame, CHANGE, DEVICE, FIRST, LOGIN,
    PROJECT,
};
use common::mail::Maildev;
use common::{Resp, OTHER_CLIENT};

// ---------------------------------------------------------------------------------------------------------
// backend

struct Backend {
    server: wm_server::Server,
    frame: SocketAddr,
    /// The wallet service as the frame calls it, from 127.0.0.1.
    fc: Frame,
    // Dropped after the server (fields drop in order): the sink outlives the requests.
    mail: Maildev,
}

/// The server's options: `root`, two chains nothing listens on (the wallet service needs none).
fn options(root: PathBuf) -> wm_server::Options {
    wm_server::Options {
        root,
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546")
            .unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    }
}

async fn start_with(root: PathBuf, tweak: impl FnOnce(&mut WalletConfig)) -> Backend {
    start_until(root, tweak, std::future::pending()).await
}

/// [`start_with`], stopping (gracefully) when `shutdown` completes.
async fn start_until(
    root: PathBuf,
    tweak: impl FnOnce(&mut WalletConfig),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Backend {
    let mail = Maildev::start().await;
    let mut wallet = WalletConfig {
        smtp: Some(wm_server::wallet::smtp::MailServer::parse(&mail.smtp.to_string(), None).unwrap()),
        ..WalletConfig::default()
    };
    tweak(&mut wallet);
    let options = options(root);
    let config = ServerConfig {
        wallet,
        ..ServerConfig::default()
    };
    let server = wm_server::start_with_frame(options, config, 0, Some(0), shutdown)
        .await
        .expect("server starts");
    let frame = server.frame_addr.expect("a frame listener");
    assert_ne!(frame, server.addr);
    Backend {
        server,
        frame,
        fc: Frame::new(frame),
        mail,
    }
}

async fn start(tweak: impl FnOnce(&mut WalletConfig)) -> Backend {
    start_with(common::repo_root(), tweak).await
}

/// A unique address per call, so that tests never read each other's mail.
fn email(name: &str) -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{name}.{}.{n}@example.com", std::process::id())
}

impl Backend {
    fn frame_origin(&self) -> String {
        self.fc.origin()
    }

    async fn call(&self, method: &str, path: &str, session: Option<&str>, body: &[u8]) -> Resp {
        self.fc.call(method, path, session, body).await
    }

    async fn post(&self, path: &str, body: Value) -> Resp {
        self.fc.post(path, body).await
    }

    async fn post_auth(&self, path: &str, session: &str, body: Value) -> Resp {
        self.fc.post_auth(path, session, body).await
    }

    async fn get_auth(&self, path: &str, session: &str) -> Resp {
        self.fc.get_auth(path, session).await
    }

    async fn start_login(&self, email: &str, device: &str) -> Resp {
        self.fc.start_login_in(PROJECT, email, device).await
    }

    async fn verify(&self, email: &str, device: &str, otp: &str) -> Resp {
        self.fc.verify_in(PROJECT, email, device, otp).await
    }

    /// Asks for a code in the demo project (approving the device first when needed): login code
    /// mail #n of that address.
    async fn ask_code(&self, email: &str, device: &str, n: usize) -> String {
        ask_code(&self.fc, &self.mail, PROJECT, email, device, n).await
    }

    /// A whole login in the demo project: start, the device approved by its link when it is not
    /// yet, the code from login mail #n of that address, verify.
    async fn login(&self, email: &str, device: &str, n: usize) -> Value {
        email_login(&self.fc, &self.mail, PROJECT, email, device, n).await
    }
}

fn assert_error(r: &Resp, status: u16, message: &str) {
    assert_eq!(r.status, status, "{}", r.text());
    assert_eq!(r.json()["error"], message, "{}", r.text());
}

fn kek_bytes(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(v["kek"].as_str().unwrap())
        .unwrap()
}

fn ciphertext() -> String {
    base64::engine::general_purpose::STANDARD.encode((0u8..60).collect::<Vec<u8>>())
}

const ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

// ---------------------------------------------------------------------------------------------------------
// Login with an email code

#[tokio::test]
async fn a_new_address_confirms_its_device_by_the_mailed_link_before_a_code_opens_a_new_account() {
    let b = start(|_| {}).await;
    let addr = email("new");
    let r = b.start_login(&addr.to_uppercase(), &device("a")).await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"action": "VERIFY_DEVICE"}))
    );
    // The mail, as the sink got it (the address normalised to lowercase): a link, no code yet.
    let m = b.mail.nth(&addr, FIRST, 1).await;
    assert_eq!(m["from"][0]["address"], "no-reply@wallet-modal.test");
    assert_eq!(m["from"][0]["name"], "wallet-modal");
    let text = m["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "Confirm it's you signing in to wallet-modal with {addr}."
        )),
        "{text}"
    );
    assert!(text.contains("no wallet is made"), "{text}");
    assert!(
        b.mail.to(&addr, LOGIN).await.is_empty(),
        "no code before the link"
    );
    // The device waits for its approval although no account exists yet.
    let wait = json!({"email": addr, "deviceId": device("a"), "projectId": PROJECT}).to_string();
    let fc = b.fc;
    let waiting = tokio::spawn(async move {
        fc.call("POST", "/w/v1/device/wait", None, wait.as_bytes())
            .await
    });
    let link = approval_link(&b.mail, &b.fc, &addr, 1).await;
    let path = link.strip_prefix(&b.frame_origin()).unwrap();
    let page = common::get(b.frame, path).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("Confirm it's you signing in"),
        "{}",
        page.text()
    );
    assert!(page.text().contains("Approve this device</button>"));
    let done = b.fc.approve(&link).await;
    assert_eq!(done.status, 200, "{}", done.text());
    let woke = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((woke.status, woke.json()), (200, json!({"approved": true})));
    let code = b.mail.code(&addr, LOGIN, 1).await;
    let v = b.verify(&addr, &device("a"), &code).await;
    assert_eq!(v.status, 200, "{}", v.text());
    let v = v.json();
    assert_eq!(v["email"], addr);
    assert_eq!(v["keyCiphertext"], Value::Null);
    assert_eq!(kek_bytes(&v).len(), 32);
    let session = v["session"].as_str().unwrap();
    assert!(session.len() == 64 && session.bytes().all(|c| c.is_ascii_hexdigit()));
    assert!(!v["userId"].as_str().unwrap().is_empty());
    // The code is used up.
    assert_error(
        &b.verify(&addr, &device("a"), &code).await,
        400,
        "Invalid code",
    );
    // The session reads the account back, with its project.
    let s = b.get_auth("/w/v1/session", session).await;
    assert_eq!(s.status, 200, "{}", s.text());
    assert_eq!(
        s.json(),
        json!({"userId": v["userId"], "projectId": PROJECT, "email": addr, "kek": v["kek"],
               "keyCiphertext": null, "address": null, "userName": null, "socialProvider": null})
    );
}

#[tokio::test]
async fn a_code_alone_never_makes_an_account_and_start_does_not_tell_whether_one_exists() {
    let b = start(|c| c.email_throttle = Duration::from_millis(50)).await;
    let (known, unknown) = (email("known"), email("unknown"));
    b.login(&known, &device("owner"), 1).await;
    tokio::time::sleep(Duration::from_millis(60)).await;
    // A guesser's device: the same answer for an address with an account and one without.
    for addr in [&known, &unknown] {
        let r = b.start_login(addr, &device("guesser")).await;
        assert_eq!(
            (r.status, r.json()),
            (200, json!({"action": "VERIFY_DEVICE"})),
            "{addr}"
        );
    }
    // The mailbox is told which it is ...
    assert_eq!(
        b.mail.nth(&known, DEVICE, 1).await["to"][0]["address"],
        known
    );
    assert_eq!(
        b.mail.nth(&unknown, FIRST, 1).await["to"][0]["address"],
        unknown
    );
    // ... and no code went out: whatever the guesser enters opens nothing, makes nothing.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(b.mail.to(&unknown, LOGIN).await.is_empty());
    assert_eq!(b.mail.to(&known, LOGIN).await.len(), 1, "the owner's only");
    for otp in ["000000", "123456", "999999"] {
        let r = b.verify(&unknown, &device("guesser"), otp).await;
        assert_error(&r, 400, "Invalid code");
    }
    let r = b
        .post(
            "/w/v1/device/wait",
            json!({"email": unknown, "deviceId": device("guesser"), "projectId": "other-project"}),
        )
        .await;
    assert_error(&r, 400, "No device approval is pending");
}

#[tokio::test]
async fn the_key_is_stored_once_and_comes_back_with_the_session() {
    let b = start(|_| {}).await;
    let addr = email("key");
    let v = b.login(&addr, &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    let r = b
        .post_auth(
            "/w/v1/key",
            session,
            json!({"keyCiphertext": ciphertext(), "address": ADDRESS}),
        )
        .await;
    assert_eq!((r.status, r.json()), (200, json!({})));
    let s = b.get_auth("/w/v1/session", session).await.json();
    assert_eq!(s["keyCiphertext"], ciphertext());
    assert_eq!(s["address"], ADDRESS);
    assert_eq!(s["kek"], v["kek"]);
    let again = b
        .post_auth(
            "/w/v1/key",
            session,
            json!({"keyCiphertext": ciphertext(), "address": ADDRESS}),
        )
        .await;
    assert_error(&again, 409, "A key is already stored for this account");
    // Malformed keys and addresses, and no session at all.
    let bad = b
        .post_auth(
            "/w/v1/key",
            session,
            json!({"keyCiphertext": "AAAA", "address": ADDRESS}),
        )
        .await;
    assert_eq!(bad.status, 400);
    let bad = b
        .post_auth(
            "/w/v1/key",
            session,
            json!({"keyCiphertext": ciphertext(), "address": "0x12"}),
        )
        .await;
    assert_error(&bad, 400, "Invalid address");
    let none = b
        .post(
            "/w/v1/key",
            json!({"keyCiphertext": ciphertext(), "address": ADDRESS}),
        )
        .await;
    assert_error(&none, 401, "Session Expired");
}

#[tokio::test]
async fn a_wrong_code_is_refused_and_the_fifth_wrong_try_burns_it() {
    let b = start(|_| {}).await;
    let addr = email("wrong");
    let code = b.ask_code(&addr, &device("a"), 1).await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    for _ in 0..3 {
        assert_error(
            &b.verify(&addr, &device("a"), wrong).await,
            400,
            "Invalid code",
        );
    }
    // The right code from another device is a wrong try too.
    assert_error(
        &b.verify(&addr, &device("b"), &code).await,
        400,
        "Invalid code",
    );
    let fifth = b.verify(&addr, &device("a"), wrong).await;
    assert_error(&fifth, 400, "Too many attempts: ask for a new code");
    // Burned: the right code no longer works.
    let right = b.verify(&addr, &device("a"), &code).await;
    assert_error(&right, 400, "Too many attempts: ask for a new code");
    // Malformed codes never reach the budget.
    assert_error(
        &b.verify(&addr, &device("a"), "12345").await,
        400,
        "Invalid code",
    );
    assert_error(
        &b.verify(&addr, &device("a"), "abcdef").await,
        400,
        "Invalid code",
    );
}

#[tokio::test]
async fn an_expired_code_answers_410() {
    let b = start(|c| c.code_ttl = Duration::from_millis(300)).await;
    let addr = email("expired");
    let code = b.ask_code(&addr, &device("a"), 1).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_error(
        &b.verify(&addr, &device("a"), &code).await,
        410,
        "Code expired",
    );
    // And it is gone.
    assert_error(
        &b.verify(&addr, &device("a"), &code).await,
        400,
        "Invalid code",
    );
}

#[tokio::test]
async fn a_second_code_mail_within_30_s_gets_429_with_retry_after() {
    let b = start(|_| {}).await;
    let addr = email("throttle");
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    let r = b.start_login(&addr, &device("a")).await;
    assert_eq!(r.status, 429, "{}", r.text());
    let v = r.json();
    let n = v["retryAfter"].as_u64().unwrap();
    assert!((29..=30).contains(&n), "{v}");
    assert_eq!(v["error"], format!("Please try again after {n} seconds"));
    assert_eq!(r.header("retry-after"), Some(n.to_string().as_str()));
    // Per email: another address is not held back, nor is this one in other letter case spared.
    assert_eq!(
        b.start_login(&email("other"), &device("a")).await.status,
        200
    );
    assert_eq!(
        b.start_login(&addr.to_uppercase(), &device("b"))
            .await
            .status,
        429
    );
    // Only one mail went out (the new device's approval link).
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(approvals(&b.mail, &addr).await.len(), 1);
    assert!(b.mail.to(&addr, LOGIN).await.is_empty());
}

#[tokio::test]
async fn the_throttle_opens_again_after_its_window() {
    let b = start(|c| c.email_throttle = Duration::from_millis(400)).await;
    let addr = email("window");
    b.login(&addr, &device("a"), 1).await;
    tokio::time::sleep(Duration::from_millis(450)).await;
    let r = b.start_login(&addr, &device("a")).await;
    assert_eq!(
        r.json(),
        json!({"action": "VERIFY_OTP"}),
        "an approved device"
    );
    let r = b.start_login(&addr, &device("a")).await;
    assert_error(&r, 429, "Please try again after 1 seconds");
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    // The newer code replaced the older one.
    let first = b.mail.code(&addr, LOGIN, 2).await;
    let second = b.mail.code(&addr, LOGIN, 3).await;
    if first != second {
        assert_error(
            &b.verify(&addr, &device("a"), &first).await,
            400,
            "Invalid code",
        );
    }
    assert_eq!(b.verify(&addr, &device("a"), &second).await.status, 200);
}

/// Burns the pending code of (`addr`, `dev`): `max` wrong tries.
async fn burn(b: &Backend, addr: &str, dev: &str, right: &str, max: usize) {
    let wrong = if right == "000000" {
        "000001"
    } else {
        "000000"
    };
    for i in 1..=max {
        let r = b.verify(addr, dev, wrong).await;
        let want = if i == max {
            "Too many attempts: ask for a new code"
        } else {
            "Invalid code"
        };
        assert_error(&r, 400, want);
    }
}

#[tokio::test]
async fn each_burned_code_doubles_the_wait_for_the_next_code_up_to_the_bound() {
    let b = start(|c| {
        c.email_throttle = Duration::from_secs(1);
        c.max_backoff = Duration::from_secs(3);
    })
    .await;
    let (addr, dev) = (email("backoff"), device("a"));
    let code = b.ask_code(&addr, &dev, 1).await;
    burn(&b, &addr, &dev, &code, 5).await;
    let r = b.start_login(&addr, &dev).await;
    assert_error(
        &r,
        429,
        "Too many wrong codes for this email: please try again after 2 seconds",
    );
    assert_eq!(r.json()["retryAfter"], 2);
    assert_eq!(r.header("retry-after"), Some("2"));
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let code = b.ask_code(&addr, &dev, 2).await;
    burn(&b, &addr, &dev, &code, 5).await;
    // Twice 2 s, held to the 3 s bound.
    let r = b.start_login(&addr, &dev).await;
    assert_error(
        &r,
        429,
        "Too many wrong codes for this email: please try again after 3 seconds",
    );
    // A login forgets the burns: after it, the plain window again.
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let code = b.ask_code(&addr, &dev, 3).await;
    assert_eq!(b.verify(&addr, &dev, &code).await.status, 200);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let code = b.ask_code(&addr, &dev, 4).await;
    burn(&b, &addr, &dev, &code, 5).await;
    let r = b.start_login(&addr, &dev).await;
    assert_eq!(r.json()["retryAfter"], 2, "{}", r.text());
}

#[tokio::test]
async fn code_tries_are_limited_per_client_address() {
    let b = start(|c| {
        c.client_budget = Budget {
            burst: 8,
            every: Duration::from_secs(60),
        }
    })
    .await;
    let guesser = b.fc.from(OTHER_CLIENT);
    let target = email("target");
    for i in 0..8 {
        let otp = format!("{i:06}");
        let r = guesser
            .verify_in(PROJECT, &target, &device("g"), &otp)
            .await;
        assert_error(&r, 400, "Invalid code");
    }
    let r = guesser
        .verify_in(PROJECT, &email("other"), &device("g"), "123456")
        .await;
    assert_eq!(r.status, 429, "{}", r.text());
    let n = r.json()["retryAfter"].as_u64().unwrap();
    assert!((1..=60).contains(&n), "{}", r.text());
    assert_eq!(
        r.json()["error"],
        format!("Too many requests from your network: please try again after {n} seconds")
    );
    // The visitor's own address (127.0.0.1) has its own budget.
    b.login(&target, &device("owner"), 1).await;
}

// ---------------------------------------------------------------------------------------------------------
// A second device

#[tokio::test]
async fn a_second_device_is_approved_through_the_mailed_link_and_gets_the_same_key() {
    let b = start(|c| c.email_throttle = Duration::from_millis(100)).await;
    let addr = email("second");
    let first = b.login(&addr, &device("laptop"), 1).await;
    let s1 = first["session"].as_str().unwrap();
    let r = b
        .post_auth(
            "/w/v1/key",
            s1,
            json!({"keyCiphertext": ciphertext(), "address": ADDRESS}),
        )
        .await;
    assert_eq!(r.status, 200);
    tokio::time::sleep(Duration::from_millis(150)).await;

    // The phone: a known email on an unknown device.
    let r = b.start_login(&addr, &device("phone")).await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"action": "VERIFY_DEVICE"}))
    );
    let wait_body =
        json!({"email": addr, "deviceId": device("phone"), "projectId": PROJECT}).to_string();
    let (frame, origin) = (b.frame, b.frame_origin());
    let waiting = tokio::spawn(async move {
        common::request(
            frame,
            "POST",
            "/w/v1/device/wait",
            &[("Origin", &origin)],
            wait_body.as_bytes(),
        )
        .await
    });
    // Mail #1 confirmed the laptop's first sign-in; #2 is the phone's.
    assert_eq!(b.mail.to(&addr, DEVICE).await.len(), 1);
    let link = approval_link(&b.mail, &b.fc, &addr, 2).await;
    let path = link.strip_prefix(&b.frame_origin()).unwrap();
    let token = link.rsplit('=').next().unwrap();

    // Opening the link shows the button; it approves nothing by itself.
    let page = common::get(b.frame, path).await;
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("frame-ancestors 'none'"));
    let html = page.text();
    assert!(html.contains("Approve this device</button>"), "{html}");
    assert!(
        html.contains("<form method=\"post\" action=\"/w/v1/device/approve\">"),
        "{html}"
    );
    assert!(
        html.contains(&format!("name=\"token\" value=\"{token}\"")),
        "{html}"
    );
    assert!(html.contains(&addr), "{html}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the long-poll waits for the button");
    assert_eq!(
        b.mail.to(&addr, LOGIN).await.len(),
        1,
        "no code before the approval"
    );

    // Pressing the button posts the form (the browser sends the frame's origin).
    let form = format!("token={token}");
    let origin = b.frame_origin();
    let headers = [
        ("Origin", origin.as_str()),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ];
    let done = common::request(
        b.frame,
        "POST",
        "/w/v1/device/approve",
        &headers,
        form.as_bytes(),
    )
    .await;
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(done.text().contains("Device approved"));
    let woke = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((woke.status, woke.json()), (200, json!({"approved": true})));

    // The code mail for the phone arrives; the phone logs into the same account and key.
    let code = b.mail.code(&addr, LOGIN, 2).await;
    let second = b.verify(&addr, &device("phone"), &code).await;
    assert_eq!(second.status, 200, "{}", second.text());
    let second = second.json();
    assert_eq!(second["userId"], first["userId"]);
    assert_eq!(second["kek"], first["kek"]);
    assert_eq!(second["keyCiphertext"], ciphertext());
    assert_ne!(second["session"], first["session"]);

    // The link is used up; the phone is known now: its next login is a plain code.
    let again = common::get(b.frame, path).await;
    assert_eq!(again.status, 404);
    assert!(again.text().contains("not valid"));
    let wait = b
        .post(
            "/w/v1/device/wait",
            json!({"email": addr, "deviceId": device("phone"), "projectId": PROJECT}),
        )
        .await;
    assert_eq!((wait.status, wait.json()), (200, json!({"approved": true})));
    tokio::time::sleep(Duration::from_millis(150)).await;
    let r = b.start_login(&addr, &device("phone")).await;
    assert_eq!(r.json(), json!({"action": "VERIFY_OTP"}));
}

#[tokio::test]
async fn an_unapproved_device_waits_at_most_the_configured_time_then_gets_408() {
    let b = start(|c| {
        c.email_throttle = Duration::from_millis(50);
        c.device_wait = Duration::from_millis(300);
    })
    .await;
    let addr = email("slow");
    b.login(&addr, &device("laptop"), 1).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        b.start_login(&addr, &device("phone")).await.json()["action"],
        "VERIFY_DEVICE"
    );
    let t = std::time::Instant::now();
    let r = b
        .post(
            "/w/v1/device/wait",
            json!({"email": addr, "deviceId": device("phone"), "projectId": PROJECT}),
        )
        .await;
    assert_error(&r, 408, "The device was not approved in time");
    assert!(t.elapsed() >= Duration::from_millis(300));
    // Nothing pending for a device that never asked.
    let r = b
        .post(
            "/w/v1/device/wait",
            json!({"email": addr, "deviceId": device("tablet"), "projectId": PROJECT}),
        )
        .await;
    assert_error(&r, 400, "No device approval is pending");
    // A made-up link is refused.
    let fake = format!("/w/v1/device/approve?token={}", "ab".repeat(32));
    assert_eq!(common::get(b.frame, &fake).await.status, 404);
    let r = common::request(b.frame, "POST", "/w/v1/device/approve", &[], b"token=abc").await;
    assert_eq!(r.status, 404);
}

// ---------------------------------------------------------------------------------------------------------
// Sessions

#[tokio::test]
async fn signout_ends_the_session_with_401_session_expired() {
    let b = start(|_| {}).await;
    let v = b.login(&email("signout"), &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    assert_eq!(b.get_auth("/w/v1/session", session).await.status, 200);
    let r = b.post_auth("/w/v1/signout", session, json!({})).await;
    assert_eq!((r.status, r.json()), (200, json!({})));
    assert_error(
        &b.get_auth("/w/v1/session", session).await,
        401,
        "Session Expired",
    );
    assert_error(
        &b.post_auth("/w/v1/signout", session, json!({})).await,
        401,
        "Session Expired",
    );
    // Missing, malformed and unknown tokens alike.
    assert_error(
        &b.call("GET", "/w/v1/session", None, b"").await,
        401,
        "Session Expired",
    );
    assert_error(
        &b.get_auth("/w/v1/session", "nope").await,
        401,
        "Session Expired",
    );
    assert_error(
        &b.get_auth("/w/v1/session", &"0".repeat(64)).await,
        401,
        "Session Expired",
    );
}

#[tokio::test]
async fn a_malformed_bearer_token_gets_401_session_expired_on_every_locked_route() {
    let b = start(|_| {}).await;
    let routes = [
        ("GET", "/w/v1/session"),
        ("POST", "/w/v1/key"),
        ("POST", "/w/v1/signout"),
        ("POST", "/w/v1/test/expire-session"),
        ("POST", "/w/v1/email/update"),
        ("POST", "/w/v1/email/update/primary"),
        ("POST", "/w/v1/email/update/secondary"),
    ];
    let long = "a".repeat(5000);
    let garbage: [&[u8]; 9] = [
        b"Bearer abc",
        b"Bearer ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB",
        b"Bearer zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        b"Bearer \xe9\xe9",
        b"Bearer",
        b"Bearer null",
        b"Basic dXNlcjpwYXNz",
        long.as_bytes(),
        b"Bearer a b",
    ];
    for (method, path) in routes {
        for auth in garbage {
            let mut raw = format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\nAuthorization: ",
                b.frame
            )
            .into_bytes();
            raw.extend_from_slice(auth);
            raw.extend_from_slice(b"\r\n\r\n{}");
            let r = raw_request(b.frame, &raw).await;
            assert_error(&r, 401, "Session Expired");
        }
    }
}

/// Sends `raw` bytes as they are (headers a client library would refuse) and reads the answer.
async fn raw_request(addr: SocketAddr, raw: &[u8]) -> Resp {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(raw).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    common::parse(&out)
}

#[tokio::test]
async fn the_expire_session_switch_makes_the_next_call_401() {
    let b = start(|_| {}).await;
    let v = b.login(&email("expire"), &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    let r = b
        .post_auth("/w/v1/test/expire-session", session, json!({}))
        .await;
    assert_eq!((r.status, r.json()), (200, json!({})));
    assert_error(
        &b.get_auth("/w/v1/session", session).await,
        401,
        "Session Expired",
    );
}

#[tokio::test]
async fn a_session_past_its_lifetime_is_expired() {
    let b = start(|c| c.session_ttl = Duration::from_millis(300)).await;
    let v = b.login(&email("lifetime"), &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    assert_eq!(b.get_auth("/w/v1/session", session).await.status, 200);
    tokio::time::sleep(Duration::from_millis(350)).await;
    assert_error(
        &b.get_auth("/w/v1/session", session).await,
        401,
        "Session Expired",
    );
}

// ---------------------------------------------------------------------------------------------------------
// Email change

#[tokio::test]
async fn an_email_change_takes_two_codes_and_the_old_email_then_opens_a_new_account() {
    let b = start(|c| c.email_throttle = Duration::from_millis(50)).await;
    let (old, new) = (email("old"), email("new"));
    let v = b.login(&old, &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    b.post_auth(
        "/w/v1/key",
        session,
        json!({"keyCiphertext": ciphertext(), "address": ADDRESS}),
    )
    .await;

    let r = b
        .post_auth("/w/v1/email/update", session, json!({"email": new}))
        .await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"action": "VERIFY_PRIMARY_OTP"}))
    );
    let primary = b.mail.code(&old, CHANGE, 1).await;
    let wrong = if primary == "000000" {
        "000001"
    } else {
        "000000"
    };
    let r = b
        .post_auth("/w/v1/email/update/primary", session, json!({"otp": wrong}))
        .await;
    assert_error(&r, 400, "Invalid code");
    // The second step before the first is refused.
    let r = b
        .post_auth(
            "/w/v1/email/update/secondary",
            session,
            json!({"otp": primary}),
        )
        .await;
    assert_error(&r, 400, "No email change is waiting for this code");
    let r = b
        .post_auth(
            "/w/v1/email/update/primary",
            session,
            json!({"otp": primary}),
        )
        .await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"action": "VERIFY_SECONDARY_OTP"}))
    );
    let secondary = b.mail.code(&new, CHANGE, 1).await;
    let r = b
        .post_auth(
            "/w/v1/email/update/secondary",
            session,
            json!({"otp": secondary}),
        )
        .await;
    assert_eq!((r.status, r.json()), (200, json!({"email": new})));
    assert_eq!(
        b.get_auth("/w/v1/session", session).await.json()["email"],
        new
    );

    // The new email logs into the account (same user, key and kek) ...
    let again = b.login(&new, &device("a"), 1).await;
    assert_eq!(again["userId"], v["userId"]);
    assert_eq!(again["kek"], v["kek"]);
    assert_eq!(again["keyCiphertext"], ciphertext());
    // ... and the old one, even from the same device, starts a fresh account.
    tokio::time::sleep(Duration::from_millis(60)).await;
    let fresh = b.login(&old, &device("a"), 2).await;
    assert_ne!(fresh["userId"], v["userId"]);
    assert_ne!(fresh["kek"], v["kek"]);
    assert_eq!(fresh["keyCiphertext"], Value::Null);
}

#[tokio::test]
async fn an_email_change_to_another_accounts_email_gets_409() {
    let b = start(|_| {}).await;
    let (mine, theirs) = (email("mine"), email("theirs"));
    let v = b.login(&mine, &device("a"), 1).await;
    b.login(&theirs, &device("b"), 1).await;
    let session = v["session"].as_str().unwrap();
    let r = b
        .post_auth("/w/v1/email/update", session, json!({"email": theirs}))
        .await;
    assert_error(&r, 409, "That email belongs to another account");
    let r = b
        .post_auth("/w/v1/email/update", session, json!({"email": mine}))
        .await;
    assert_error(&r, 400, "That is already your email");
    let r = b
        .post_auth(
            "/w/v1/email/update",
            session,
            json!({"email": "not an email"}),
        )
        .await;
    assert_error(&r, 400, "Invalid email");
    assert!(b.mail.to(&mine, CHANGE).await.is_empty());
}

#[tokio::test]
async fn email_change_mails_are_throttled_per_address_with_retry_after() {
    let b = start(|_| {}).await;
    let (old, new) = (email("old"), email("new"));
    let v = b.login(&old, &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    let update = |to: String| {
        let s = session.to_string();
        let b = &b;
        async move {
            b.post_auth("/w/v1/email/update", &s, json!({"email": to}))
                .await
        }
    };
    let r = update(new.clone()).await;
    assert_eq!(r.json(), json!({"action": "VERIFY_PRIMARY_OTP"}));
    // Asking again at once (even for another new address) mails the current address again: no.
    for to in [new.clone(), email("newer")] {
        let r = update(to).await;
        assert_eq!(r.status, 429, "{}", r.text());
        let n = r.json()["retryAfter"].as_u64().unwrap();
        assert!((29..=30).contains(&n), "{}", r.text());
        assert_eq!(
            r.json()["error"],
            format!("Please try again after {n} seconds")
        );
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(b.mail.to(&old, CHANGE).await.len(), 1, "one change mail");
}

#[tokio::test]
async fn three_burned_email_change_codes_lock_email_changes_for_an_hour() {
    let b = start(|c| c.email_throttle = Duration::from_millis(50)).await;
    let (old, new) = (email("old"), email("new"));
    let v = b.login(&old, &device("a"), 1).await;
    let session = v["session"].as_str().unwrap();
    let step = |path: &'static str, body: Value| {
        let s = session.to_string();
        let b = &b;
        async move { b.post_auth(path, &s, body).await }
    };
    let burn = |path: &'static str, right: String| async move {
        let wrong = if right == "000000" {
            "000001"
        } else {
            "000000"
        };
        let mut last = None;
        for _ in 0..5 {
            last = Some(step(path, json!({"otp": wrong})).await);
        }
        last.unwrap()
    };
    // Two codes burned at the first step ...
    for n in 1..=2 {
        let r = step("/w/v1/email/update", json!({"email": new})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let code = b.mail.code(&old, CHANGE, n).await;
        let r = burn("/w/v1/email/update/primary", code).await;
        assert_error(&r, 400, "Too many attempts: ask for a new code");
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    // ... and a third at the second step lock the changes.
    step("/w/v1/email/update", json!({"email": new})).await;
    let primary = b.mail.code(&old, CHANGE, 3).await;
    let r = step("/w/v1/email/update/primary", json!({"otp": primary})).await;
    assert_eq!(r.json(), json!({"action": "VERIFY_SECONDARY_OTP"}));
    let secondary = b.mail.code(&new, CHANGE, 1).await;
    let r = burn("/w/v1/email/update/secondary", secondary.clone()).await;
    let locked = "Too many wrong codes: this account's email can be changed again in 60 minutes";
    assert_error(&r, 429, locked);
    assert_eq!(r.json()["retryAfter"], 3600);
    // Locked, every step, even with the right code.
    tokio::time::sleep(Duration::from_millis(60)).await;
    for (path, body) in [
        ("/w/v1/email/update", json!({"email": new})),
        ("/w/v1/email/update/primary", json!({"otp": primary})),
        ("/w/v1/email/update/secondary", json!({"otp": secondary})),
    ] {
        let r = step(path, body).await;
        assert_eq!(r.status, 429, "{path}: {}", r.text());
        let left = r.json()["retryAfter"].as_u64().unwrap();
        assert!((3590..=3600).contains(&left), "{path}: {}", r.text());
    }
    assert_eq!(
        b.mail.to(&old, CHANGE).await.len(),
        3,
        "no mail while locked"
    );
    assert_eq!(
        b.get_auth("/w/v1/session", session).await.json()["email"],
        old
    );
}

// ---------------------------------------------------------------------------------------------------------
// Projects

#[tokio::test]
async fn the_same_email_in_another_project_is_another_account_with_another_kek() {
    let b = start(|c| c.email_throttle = Duration::from_millis(50)).await;
    let addr = email("two-projects");
    let first = b.login(&addr, &device("a"), 1).await;
    tokio::time::sleep(Duration::from_millis(60)).await;
    // The same device is not approved in the other project: its own link, then its own account.
    let r =
        b.fc.start_login_in("other-project", &addr, &device("a"))
            .await;
    assert_eq!(r.json(), json!({"action": "VERIFY_DEVICE"}));
    let link = approval_link(&b.mail, &b.fc, &addr, 2).await;
    assert_eq!(
        b.mail.to(&addr, FIRST).await.len(),
        2,
        "a first sign-in there"
    );
    assert_eq!(b.fc.approve(&link).await.status, 200);
    let code = b.mail.code(&addr, LOGIN, 2).await;
    // A code of one project opens nothing in the other.
    let r = b.verify(&addr, &device("a"), &code).await;
    assert_error(&r, 400, "Invalid code");
    let r =
        b.fc.verify_in("other-project", &addr, &device("a"), &code)
            .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let second = r.json();
    assert_ne!(second["userId"], first["userId"]);
    assert_ne!(second["kek"], first["kek"]);
    let s1 = b
        .get_auth("/w/v1/session", first["session"].as_str().unwrap())
        .await
        .json();
    let s2 = b
        .get_auth("/w/v1/session", second["session"].as_str().unwrap())
        .await
        .json();
    assert_eq!(
        (s1["projectId"].as_str(), s2["projectId"].as_str()),
        (Some(PROJECT), Some("other-project"))
    );
    // Project ids are checked like elsewhere, and may not carry the scope separator.
    for (project, status, message) in [
        ("bad", 403, "Invalid projectId"),
        (
            "a/b",
            400,
            "Invalid projectId: 1-128 characters of A-Z a-z 0-9 _ . -",
        ),
    ] {
        let r = b.fc.verify_in(project, &addr, &device("a"), "123456").await;
        assert_error(&r, status, message);
    }
    let r = b
        .post(
            "/w/v1/email/verify",
            json!({"email": addr, "deviceId": device("a"), "otp": "123456"}),
        )
        .await;
    assert_error(&r, 400, "projectId is required");
}

// ---------------------------------------------------------------------------------------------------------
// Floods from another client

#[tokio::test]
async fn a_flood_of_code_requests_from_another_address_never_locks_out_an_existing_account() {
    let b = start(|c| {
        c.max_entries = 20;
        c.max_entries_per_client = 5;
        c.email_throttle = Duration::from_millis(50);
        c.client_budget = Budget {
            burst: 1000,
            every: Duration::from_millis(1),
        };
    })
    .await;
    let (addr, dev) = (email("existing"), device("owner"));
    b.login(&addr, &dev, 1).await;
    tokio::time::sleep(Duration::from_millis(60)).await;
    // The existing account asks for its code, a newcomer for its approval link: both pending ...
    let r = b.start_login(&addr, &dev).await;
    assert_eq!(r.json(), json!({"action": "VERIFY_OTP"}), "{}", r.text());
    let newcomer = email("newcomer");
    let r = b.start_login(&newcomer, &device("newcomer")).await;
    assert_eq!(r.json(), json!({"action": "VERIFY_DEVICE"}), "{}", r.text());
    // ... while 60 new addresses from 127.0.0.2, each a mail, an approval and a throttle slot,
    // come in: three times the tables. The flood only ever replaces its own entries.
    let flood = b.fc.from(OTHER_CLIENT);
    for i in 0..60 {
        let r = flood
            .start_login_in(PROJECT, &format!("flood{i}@example.com"), &device("flood"))
            .await;
        assert_eq!(r.status, 200, "{i}: {}", r.text());
    }
    // The existing account's pending code still logs in and gets a session.
    let code = b.mail.code(&addr, LOGIN, 2).await;
    let v = b.verify(&addr, &dev, &code).await;
    assert_eq!(v.status, 200, "{}", v.text());
    let session = v.json()["session"].as_str().unwrap().to_string();
    assert_eq!(b.get_auth("/w/v1/session", &session).await.status, 200);
    // The newcomer's pending link still approves its device, and its code opens its new account.
    let link = approval_link(&b.mail, &b.fc, &newcomer, 1).await;
    let done = b.fc.approve(&link).await;
    assert_eq!(done.status, 200, "{}", done.text());
    let code = b.mail.code(&newcomer, LOGIN, 1).await;
    let v = b.verify(&newcomer, &device("newcomer"), &code).await;
    assert_eq!(v.status, 200, "{}", v.text());
    // And yet another visitor still signs up.
    b.login(&email("later"), &device("later"), 1).await;
}

#[tokio::test]
async fn a_user_keeps_at_most_its_newest_sessions_and_the_oldest_ends() {
    let b = start(|c| {
        c.max_sessions_per_user = 2;
        c.email_throttle = Duration::from_millis(50);
    })
    .await;
    let other = b.login(&email("bystander"), &device("b"), 1).await;
    let addr = email("many-sessions");
    let mut sessions = Vec::new();
    for n in 1..=4 {
        let v = b.login(&addr, &device("a"), n).await;
        sessions.push(v["session"].as_str().unwrap().to_string());
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    let mut live = Vec::new();
    for s in &sessions {
        live.push(b.get_auth("/w/v1/session", s).await.status);
    }
    // The two oldest were ended by the newer logins; the newest two go on.
    assert_eq!(live, [401, 401, 200, 200]);
    assert_error(
        &b.get_auth("/w/v1/session", &sessions[0]).await,
        401,
        "Session Expired",
    );
    // Another account's session is not touched.
    let s = other["session"].as_str().unwrap();
    assert_eq!(b.get_auth("/w/v1/session", s).await.status, 200);
}

#[tokio::test]
async fn a_client_past_its_budget_gets_429_with_retry_after_while_others_go_on() {
    let b = start(|c| {
        c.client_budget = Budget {
            burst: 3,
            every: Duration::from_secs(60),
        }
    })
    .await;
    let flood = b.fc.from(OTHER_CLIENT);
    for i in 0..3 {
        let r = flood
            .start_login_in(PROJECT, &email(&format!("f{i}")), &device("flood"))
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let r = flood
        .start_login_in(PROJECT, &email("f4"), &device("flood"))
        .await;
    assert_eq!(r.status, 429, "{}", r.text());
    let n = r.json()["retryAfter"].as_u64().unwrap();
    assert!((59..=60).contains(&n), "{}", r.text());
    assert_eq!(r.header("retry-after"), Some(n.to_string().as_str()));
    assert_eq!(
        r.json()["error"],
        format!("Too many requests from your network: please try again after {n} seconds")
    );
    // 127.0.0.1 has its own budget.
    let r = b.start_login(&email("visitor"), &device("v")).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

// ---------------------------------------------------------------------------------------------------------
// The frame listener

#[tokio::test]
async fn the_frame_origin_refuses_a_foreign_origin_and_the_main_port_has_no_wallet_routes() {
    let b = start(|_| {}).await;
    let body =
        json!({"email": email("origin"), "deviceId": device("a"), "projectId": "demo-project"})
            .to_string();
    for foreign in [
        "http://evil.example",
        b.server.origin().as_str(),
        "null",
        &format!("http://localhost:{}", b.frame.port()),
    ] {
        let r = common::request(
            b.frame,
            "POST",
            "/w/v1/email/start",
            &[("Origin", foreign)],
            body.as_bytes(),
        )
        .await;
        assert_error(&r, 403, "Origin not allowed");
        let r = common::request(b.frame, "GET", "/w/v1/session", &[("Origin", foreign)], b"").await;
        assert_eq!(r.status, 403, "{foreign}");
    }
    assert!(b.mail.all().await.is_empty(), "nothing was mailed");
    // The frame's own origin (and no Origin at all) passes; no CORS headers either way.
    let r = b.start_login(&email("origin-ok"), &device("a")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let r = common::request(
        b.frame,
        "OPTIONS",
        "/w/v1/email/start",
        &[("Origin", "http://evil.example")],
        b"",
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(r.header("access-control-allow-origin"), None);

    // The main listener knows nothing of /w/v1 nor /frame.
    for path in [
        "/w/v1/email/start",
        "/w/v1/session",
        "/w/v1/origins?projectId=demo-project",
        "/frame",
    ] {
        let method = if path.contains("start") {
            "POST"
        } else {
            "GET"
        };
        let r = common::request(b.server.addr, method, path, &[], body.as_bytes()).await;
        assert_eq!(r.status, 404, "{path}");
    }
    // ... but tells the page where the frame is (null without a frame listener).
    let cfg = common::get(b.server.addr, "/demo-config.json").await.json();
    assert_eq!(cfg["frameUrl"], format!("{}/frame", b.frame_origin()));
    let plain = common::start().await;
    let cfg = common::get(plain.addr, "/demo-config.json").await.json();
    assert_eq!(cfg["frameUrl"], Value::Null);
    // Wrong methods get an answer in the service's shape.
    let r = common::request(b.frame, "GET", "/w/v1/email/start", &[], b"").await;
    assert_error(&r, 405, "Method not allowed");

    // The frame listener serves nothing of the main one.
    assert_eq!(common::get(b.frame, "/demo-config.json").await.status, 404);
    assert_eq!(
        common::get(b.frame, "/dist/wallet-modal.js").await.status,
        404
    );

    // The origins of the project, as the main listener's /projects/v1/origins says.
    let main = common::get(b.server.addr, "/projects/v1/origins?projectId=demo-project").await;
    let frame = common::get(b.frame, "/w/v1/origins?projectId=demo-project").await;
    assert_eq!(frame.status, 200);
    assert_eq!(frame.json(), main.json());
    let foreign = common::get(b.frame, "/w/v1/origins?projectId=foreign-origin")
        .await
        .json();
    assert_eq!(
        foreign["allowedOrigins"],
        json!(["https://only.example.com"])
    );
}

#[tokio::test]
async fn the_frame_listener_serves_the_page_its_scripts_and_stylesheet_but_no_source_maps() {
    let root = wm_server::testing::TempDir::new("frame-root");
    std::fs::create_dir_all(root.join("demo")).unwrap();
    std::fs::create_dir_all(root.join("dist/frame")).unwrap();
    std::fs::write(root.join("dist/frame/frame.js"), "console.log('frame');\n").unwrap();
    std::fs::write(root.join("dist/frame/frame.js.map"), "{\"version\":3}").unwrap();
    std::fs::write(root.join("dist/frame/frame.css"), "body{margin:0}\n").unwrap();
    std::fs::write(root.join("dist/frame/notes.txt"), "secret").unwrap();
    std::fs::write(root.join("dist/wallet-modal.js"), "element").unwrap();
    let b = start_with(root.path().to_path_buf(), |_| {}).await;

    let page = common::get(b.frame, "/frame?projectId=demo-project").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.text(), wm_server::wallet::frame_page::FRAME_HTML);
    let html = page.text();
    for part in [
        "<html lang=\"en\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<link rel=\"stylesheet\" href=\"/frame/frame.css\">",
        "<script type=module src=\"/frame/frame.js\"></script>",
    ] {
        assert!(html.contains(part), "{part}: {html}");
    }
    let csp = page.header("content-security-policy").unwrap();
    for part in [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "base-uri 'none'",
    ] {
        assert!(csp.contains(part), "{part}: {csp}");
    }
    assert!(!csp.contains("unsafe-inline"), "{csp}");

    let js = common::get(b.frame, "/frame/frame.js").await;
    assert_eq!(js.status, 200);
    assert_eq!(js.text(), "console.log('frame');\n");
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    let css = common::get(b.frame, "/frame/frame.css").await;
    assert_eq!(css.status, 200);
    assert_eq!(css.text(), "body{margin:0}\n");
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
    for path in [
        "/frame/frame.js.map",
        "/frame/notes.txt",
        "/frame/../wallet-modal.js",
        "/frame/%2e%2e/wallet-modal.js",
        "/frame/..%2fwallet-modal.js",
        "/frame/missing.js",
        "/frame/missing.css",
        "/frame/.hidden.js",
    ] {
        assert_eq!(common::get(b.frame, path).await.status, 404, "{path}");
    }
    drop(b);
}

#[tokio::test]
async fn only_the_frame_page_may_be_framed_and_only_by_the_projects_allowed_origins() {
    let b = start(|_| {}).await;
    // The frame page: frame-ancestors = the project's allowed origins (those of /w/v1/origins).
    for (query, ancestors) in [
        (
            "?projectId=demo-project",
            "frame-ancestors http://127.0.0.1:* http://localhost:*",
        ),
        (
            "?projectId=foreign-origin&chainId=31337",
            "frame-ancestors https://only.example.com",
        ),
        ("", "frame-ancestors 'none'"),
        ("?projectId=bad", "frame-ancestors 'none'"),
        ("?projectId=a%3B%20script-src%20*", "frame-ancestors 'none'"),
    ] {
        let page = common::get(b.frame, &format!("/frame{query}")).await;
        assert_eq!(page.status, 200, "{query}");
        let csp = page.header("content-security-policy").unwrap();
        assert!(csp.ends_with(ancestors), "{query}: {csp}");
        assert_eq!(csp.matches("frame-ancestors").count(), 1, "{csp}");
        assert_eq!(page.header("x-frame-options"), None, "{query}");
    }
    let origins = common::get(b.frame, "/w/v1/origins?projectId=demo-project")
        .await
        .json();
    assert_eq!(
        origins["allowedOrigins"],
        json!(["http://127.0.0.1:*", "http://localhost:*"])
    );

    // Every other answer: never framed (CSP), and DENY on HTML.
    let never = |r: &Resp, what: &str| {
        let csp = r
            .header("content-security-policy")
            .unwrap_or_else(|| panic!("{what}: no CSP"));
        assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    };
    let json_routes = [
        common::get(b.frame, "/w/v1/origins?projectId=demo-project").await,
        b.post("/w/v1/email/start", json!({})).await,
        common::get(b.frame, "/w/v1/session").await,
        common::get(b.frame, "/w/v1/nope").await,
        common::request(
            b.frame,
            "GET",
            "/w/v1/session",
            &[("Origin", "http://evil.test")],
            b"",
        )
        .await,
        common::get(b.frame, "/frame/missing.js").await,
    ];
    for (i, r) in json_routes.iter().enumerate() {
        assert!(r
            .header("content-type")
            .unwrap()
            .starts_with("application/json"));
        never(r, &format!("JSON #{i}"));
    }
    let script = common::get(b.frame, "/w/v1/social/done.js").await;
    assert_eq!(script.status, 200);
    never(&script, "done.js");
    let pages = [
        common::get(
            b.frame,
            &format!("/w/v1/device/approve?token={}", "ab".repeat(32)),
        )
        .await,
        common::get(b.frame, "/w/v1/social/callback?code=abc").await,
    ];
    for (i, r) in pages.iter().enumerate() {
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        never(r, &format!("page #{i}"));
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "page #{i}");
    }
}

#[tokio::test]
async fn oversized_and_malformed_bodies_get_clear_errors() {
    let b = start(|_| {}).await;
    let big = vec![b' '; 16 * 1024 + 1];
    let r = b.call("POST", "/w/v1/email/start", None, &big).await;
    assert_error(&r, 413, "The body exceeds 16384 bytes");
    let r = b.call("POST", "/w/v1/email/start", None, b"not json").await;
    assert_error(&r, 400, "The body must be a JSON object");
    let r = b.call("POST", "/w/v1/email/start", None, b"[1]").await;
    assert_error(&r, 400, "The body must be a JSON object");
    let d = device("a");
    let start = |email: Value, device: Value, project: Value| json!({"email": email, "deviceId": device, "projectId": project});
    let cases = [
        (
            start(json!("nope"), json!(d), json!("demo-project")),
            400,
            "Invalid email",
        ),
        (
            start(
                json!(format!("{}@example.com", "a".repeat(250))),
                json!(d),
                json!("demo-project"),
            ),
            400,
            "Invalid email",
        ),
        (
            start(
                json!("a@b.co\r\nRCPT TO:<x@y.co>"),
                json!(d),
                json!("demo-project"),
            ),
            400,
            "Invalid email",
        ),
        (
            start(json!(1), json!(d), json!("demo-project")),
            400,
            "email is required",
        ),
        (
            start(json!("a@b.co"), json!("short"), json!("demo-project")),
            400,
            "Invalid deviceId: 16-64 characters of A-Z a-z 0-9 _ -",
        ),
        (
            start(
                json!("a@b.co"),
                json!("x".repeat(65)),
                json!("demo-project"),
            ),
            400,
            "Invalid deviceId: 16-64 characters of A-Z a-z 0-9 _ -",
        ),
        (
            start(json!("a@b.co"), json!(d), Value::Null),
            400,
            "projectId is required",
        ),
        (
            start(json!("a@b.co"), json!(d), json!("")),
            400,
            "projectId is required",
        ),
        (
            start(json!("a@b.co"), json!(d), json!("bad")),
            403,
            "Invalid projectId",
        ),
        (
            start(json!("a@b.co"), json!(d), json!("p".repeat(129))),
            400,
            "projectId is too long",
        ),
    ];
    for (body, status, message) in cases {
        let r = b.post("/w/v1/email/start", body.clone()).await;
        assert_eq!(
            (r.status, r.json()["error"].as_str()),
            (status, Some(message)),
            "{body}"
        );
    }
    let r = b
        .post(
            "/w/v1/email/verify",
            json!({"email": "a@b.co", "deviceId": d, "otp": 123456}),
        )
        .await;
    assert_error(&r, 400, "otp is required");
    let r = b
        .post(
            "/w/v1/email/verify",
            json!({"email": "a@b.co", "deviceId": d, "otp": "1234567"}),
        )
        .await;
    assert_error(&r, 400, "Invalid code");
    // A big body on a locked route: the session is checked first, the body bounded all the same.
    let v = b.login(&email("big"), &d, 1).await;
    let session = v["session"].as_str().unwrap();
    let r = b.call("POST", "/w/v1/key", Some(session), &big).await;
    assert_error(&r, 413, "The body exceeds 16384 bytes");
    assert_eq!(
        b.mail.all().await.len(),
        2,
        "only the login's mails went out (the link and the code)"
    );
}

#[tokio::test]
async fn an_unreachable_smtp_sink_answers_502_and_frees_the_throttle() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = closed.local_addr().unwrap().to_string();
    drop(closed);
    let b = start(|c| c.smtp = Some(wm_server::wallet::smtp::MailServer::parse(&dead, None).unwrap())).await;
    let addr = email("down");
    let r = b.start_login(&addr, &device("a")).await;
    assert_error(&r, 502, "Could not send the email");
    // Not counted against the 30 s, and no code left behind.
    let r = b.start_login(&addr, &device("a")).await;
    assert_error(&r, 502, "Could not send the email");
    assert_error(
        &b.verify(&addr, &device("a"), "123456").await,
        400,
        "Invalid code",
    );
}

// ---------------------------------------------------------------------------------------------------------
// The binary

#[test]
fn the_binary_prints_the_frame_line_after_the_listening_line_and_logs_in_through_maildev() {
    use std::io::{BufRead, BufReader};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mail = rt.block_on(Maildev::start());
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
        .args([
            "--port",
            "0",
            "--frame-port",
            "0",
            "--smtp",
            &mail.smtp.to_string(),
            "--root",
        ])
        .arg(common::repo_root())
        .env_remove("WM_SMTP_PASSWORD")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    /// Stops the binary on panic too.
    struct Kill(Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut child = Kill(child);
    let (mut first, mut second) = (String::new(), String::new());
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let port = |line: &str, prefix: &str| -> u16 {
        line.trim_end()
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{line:?}"))
            .parse()
            .unwrap()
    };
    let main = port(&first, "listening on http://127.0.0.1:");
    let frame = port(&second, "frame on http://127.0.0.1:");
    assert_ne!(main, frame);
    rt.block_on(async {
        let frame: SocketAddr = ([127, 0, 0, 1], frame).into();
        let addr = email("cli");
        let v = email_login(&Frame::new(frame), &mail, PROJECT, &addr, &device("a"), 1).await;
        assert_eq!(v["email"], addr);
        let cfg = common::get(([127, 0, 0, 1], main).into(), "/demo-config.json")
            .await
            .json();
        assert_eq!(
            cfg["frameUrl"],
            format!("http://127.0.0.1:{}/frame", frame.port())
        );
    });
    // SIGTERM stops it, with nothing more on stdout.
    let ok = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert!(child.0.wait().unwrap().success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(rest, "");
}

#[test]
fn the_binary_refuses_a_malformed_smtp_address() {
    for bad in ["nohost", ":25", "host:", "host:0", "host:99999", "a b:25"] {
        let o = Command::new(env!("CARGO_BIN_EXE_wallet-modal-server"))
            .args(["--port", "0", "--frame-port", "0", "--smtp", bad, "--root"])
            .arg(common::repo_root())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&format!("--smtp {bad:?}: expected HOST:PORT")),
            "{bad}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stdout.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------------------
// The durable store (`--store sqlite:PATH`)

#[tokio::test]
async fn a_restart_with_the_store_keeps_every_wallet_the_same_email_logs_in_to_the_same_key_and_address() {
    // An audit restarted the backend with a funded embedded wallet: the same email then got a new,
    // empty address. With the store, the restarted service reads the account and its key back.
    let dir = wm_server::testing::TempDir::new("wallet-store");
    restart_keeps_every_wallet(wm_server::wallet::store::durable::StoreUrl::Sqlite(dir.join("wallet.sqlite"))).await;
}

#[tokio::test]
async fn a_restart_with_a_postgresql_store_keeps_every_wallet_the_same_email_logs_in_to_the_same_key_and_address() {
    let pg = wm_server::testing::PgServer::start().unwrap();
    restart_keeps_every_wallet(wm_server::wallet::store::durable::StoreUrl::Postgres(pg.url("wallet"))).await;
}

/// A server on the store `url`, stopped by the sender.
async fn start_on_store(store: &wm_server::wallet::StoreConfig) -> (Backend, tokio::sync::oneshot::Sender<()>) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let store = store.clone();
    let b = start_until(
        common::repo_root(),
        move |w| {
            w.store = Some(store);
            // Two logins of one address within the test.
            w.email_throttle = Duration::from_millis(10);
        },
        async move {
            let _ = stopped.await;
        },
    )
    .await;
    (b, stop)
}

/// Stops the server of [`start_on_store`] and lets go of its state (and so of its store).
async fn stop_server(b: Backend, stop: tokio::sync::oneshot::Sender<()>) {
    stop.send(()).unwrap();
    let Backend { server, .. } = b;
    let wm_server::Server { handle, state, .. } = server;
    drop(state);
    let _ = handle.await;
}

async fn restart_keeps_every_wallet(url: wm_server::wallet::store::durable::StoreUrl) {
    let store = wm_server::wallet::StoreConfig { url, master_key: [0x42; 32] };
    let addr = email("restart");
    let dev = device("a");
    let (user, kek, old_session, ended) = {
        let (b, stop) = start_on_store(&store).await;
        let v = b.login(&addr, &dev, 1).await;
        let session = v["session"].as_str().unwrap();
        let r = b.post_auth("/w/v1/key", session, json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        // A second session, signed out.
        let other = b.login(&addr, &device("b"), 2).await;
        let ended = other["session"].as_str().unwrap().to_string();
        assert_eq!(b.post_auth("/w/v1/signout", &ended, json!({})).await.status, 200);
        // The server stops; its memory goes with it.
        stop_server(b, stop).await;
        (v["userId"].clone(), kek_bytes(&v), session.to_string(), ended)
    };
    // A new server on the same store: the visitor is still logged in (the session was kept), the
    // signed-out session stays out.
    let (b, stop) = start_on_store(&store).await;
    let kept = b.get_auth("/w/v1/session", &old_session).await;
    assert_eq!(kept.status, 200, "{}", kept.text());
    assert_eq!((&kept.json()["userId"], &kept.json()["address"]), (&user, &json!(ADDRESS)));
    assert_eq!(b.get_auth("/w/v1/session", &ended).await.status, 401);
    let v = b.login(&addr, &dev, 1).await;
    assert_eq!(v["userId"], user, "the same account");
    assert_eq!(kek_bytes(&v), kek, "the same key-encryption key");
    assert_eq!(v["keyCiphertext"], ciphertext(), "the same key ciphertext");
    let s = b.get_auth("/w/v1/session", v["session"].as_str().unwrap()).await.json();
    assert_eq!(s["address"], ADDRESS, "the same address");
    // The key cannot be replaced after the restart either.
    let again = b.post_auth("/w/v1/key", v["session"].as_str().unwrap(), json!({"keyCiphertext": ciphertext(), "address": ADDRESS})).await;
    assert_error(&again, 409, "A key is already stored for this account");
    stop_server(b, stop).await;
    // Without the store (in memory), the same restart would have made a new account: the control.
    let c = start(|_| {}).await;
    let fresh = c.login(&addr, &dev, 1).await;
    assert_ne!(fresh["userId"], user);
    // The wrong master key: the server refuses to start rather than hand out new wallets.
    let wrong = wm_server::ServerConfig {
        wallet: WalletConfig { store: Some(wm_server::wallet::StoreConfig { master_key: [0x43; 32], ..store.clone() }), ..WalletConfig::default() },
        ..wm_server::ServerConfig::default()
    };
    let refused = wm_server::start_with_frame(options(common::repo_root()), wrong, 0, Some(0), std::future::pending()).await;
    let e = refused.err().expect("refused to start");
    assert!(e.to_string().contains("master key does not open"), "{e}");
}
