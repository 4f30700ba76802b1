//! The embedded wallet's wallet service (docs/embedded-wallet.md §2) on the backend's frame listener,
//! end to end: each test starts a real maildev (npm `maildev`, from the workspace's node_modules) on
//! free ports as the SMTP sink and reads the mail back through its REST API (`GET /api/email`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};
use wm_demo::wallet::WalletConfig;
use wm_demo::ServerConfig;

mod common;
use common::Resp;

// ---------------------------------------------------------------------------------------------------------
// maildev

/// A maildev process of this test, killed (exactly that child) when dropped, also on panic.
struct Maildev {
    child: Child,
    smtp: SocketAddr,
    web: SocketAddr,
    dir: PathBuf,
}

impl Drop for Maildev {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Maildev {
    async fn start() -> Maildev {
        let script = common::repo_root().join("node_modules/maildev/dist/bin/maildev.js");
        assert!(
            script.is_file(),
            "{} is missing: run `npm install` at the workspace root",
            script.display()
        );
        // A port picked free may be taken by the time maildev binds it: try again with others.
        for _ in 0..3 {
            let (smtp, web) = (free_port(), free_port());
            let dir =
                std::env::temp_dir().join(format!("wm-maildev-{}-{smtp}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let child = Command::new("node")
                .arg(&script)
                .args(["--smtp", &smtp.to_string(), "--web", &web.to_string()])
                .args(["--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--silent"])
                // maildev writes each message's .eml under $TMPDIR/maildev: one folder per test.
                .env("TMPDIR", &dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("node starts");
            let mut md = Maildev {
                child,
                smtp: ([127, 0, 0, 1], smtp).into(),
                web: ([127, 0, 0, 1], web).into(),
                dir,
            };
            if md.ready().await {
                return md;
            }
        }
        panic!("maildev did not start");
    }

    /// Its REST API answers and its SMTP port accepts.
    async fn ready(&mut self) -> bool {
        for _ in 0..200 {
            if self.child.try_wait().unwrap().is_some() {
                return false;
            }
            if tokio::net::TcpStream::connect(self.smtp).await.is_ok()
                && tokio::net::TcpStream::connect(self.web).await.is_ok()
                && common::get(self.web, "/api/healthz").await.status == 200
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    }

    async fn all(&self) -> Vec<Value> {
        let r = common::get(self.web, "/api/email").await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().as_array().cloned().unwrap_or_default()
    }

    /// The mails to `to` whose subject starts with `subject`, oldest first.
    async fn to(&self, to: &str, subject: &str) -> Vec<Value> {
        self.all()
            .await
            .into_iter()
            .filter(|m| {
                m["to"][0]["address"] == to
                    && m["subject"].as_str().unwrap_or("").starts_with(subject)
            })
            .collect()
    }

    /// Waits (≤ 5 s) until there are `n` such mails; answers the newest.
    async fn nth(&self, to: &str, subject: &str, n: usize) -> Value {
        for _ in 0..100 {
            let mails = self.to(to, subject).await;
            if mails.len() >= n {
                return mails[n - 1].clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no mail #{n} {subject:?} to {to}: {:#?}", self.all().await);
    }

    /// The code in the subject of mail #n (`Your login code is 123456`).
    async fn code(&self, to: &str, subject: &str, n: usize) -> String {
        let m = self.nth(to, subject, n).await;
        let code = m["subject"]
            .as_str()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
        assert!(
            code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()),
            "{m}"
        );
        assert!(
            m["text"].as_str().unwrap().contains(&code),
            "the text has the code too"
        );
        code
    }
}

// ---------------------------------------------------------------------------------------------------------
// backend

struct Backend {
    server: wm_demo::Server,
    frame: SocketAddr,
    // Dropped after the server (fields drop in order): the sink outlives the requests.
    mail: Maildev,
}

const LOGIN: &str = "Your login code is";
const DEVICE: &str = "Approve your new device";
const CHANGE: &str = "Confirm your email change:";

async fn start_with(root: PathBuf, tweak: impl FnOnce(&mut WalletConfig)) -> Backend {
    let mail = Maildev::start().await;
    let mut wallet = WalletConfig {
        smtp: Some(mail.smtp.to_string()),
        ..WalletConfig::default()
    };
    tweak(&mut wallet);
    let options = wm_demo::Options {
        root,
        chains: wm_demo::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546")
            .unwrap(),
        contracts: None,
    };
    let config = ServerConfig {
        wallet,
        ..ServerConfig::default()
    };
    let server = wm_demo::start_with_frame(options, config, 0, Some(0), std::future::pending())
        .await
        .expect("server starts");
    let frame = server.frame_addr.expect("a frame listener");
    assert_ne!(frame, server.addr);
    Backend {
        server,
        frame,
        mail,
    }
}

async fn start(tweak: impl FnOnce(&mut WalletConfig)) -> Backend {
    start_with(common::repo_root(), tweak).await
}

/// A device id as the frame draws it.
fn device(name: &str) -> String {
    format!("device-{name}-0123456789")
}

/// A unique address per call, so that tests never read each other's mail.
fn email(name: &str) -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{name}.{}.{n}@example.com", std::process::id())
}

impl Backend {
    fn frame_origin(&self) -> String {
        format!("http://{}", self.frame)
    }

    async fn call(&self, method: &str, path: &str, session: Option<&str>, body: &[u8]) -> Resp {
        let origin = self.frame_origin();
        let auth = session.map(|s| format!("Bearer {s}"));
        let mut headers = vec![
            ("Origin", origin.as_str()),
            ("Content-Type", "application/json"),
        ];
        if let Some(a) = &auth {
            headers.push(("Authorization", a.as_str()));
        }
        common::request(self.frame, method, path, &headers, body).await
    }

    async fn post(&self, path: &str, body: Value) -> Resp {
        self.call("POST", path, None, body.to_string().as_bytes())
            .await
    }

    async fn post_auth(&self, path: &str, session: &str, body: Value) -> Resp {
        self.call("POST", path, Some(session), body.to_string().as_bytes())
            .await
    }

    async fn get_auth(&self, path: &str, session: &str) -> Resp {
        self.call("GET", path, Some(session), b"").await
    }

    async fn start_login(&self, email: &str, device: &str) -> Resp {
        self.post(
            "/w/v1/email/start",
            json!({"email": email, "deviceId": device, "projectId": "demo-project"}),
        )
        .await
    }

    async fn verify(&self, email: &str, device: &str, otp: &str) -> Resp {
        self.post(
            "/w/v1/email/verify",
            json!({"email": email, "deviceId": device, "otp": otp}),
        )
        .await
    }

    /// A whole first login: start, the code from the mail (#n of that address), verify.
    async fn login(&self, email: &str, device: &str, n: usize) -> Value {
        let r = self.start_login(email, device).await;
        assert_eq!((r.status, r.json()), (200, json!({"action": "VERIFY_OTP"})));
        let code = self.mail.code(email, LOGIN, n).await;
        let r = self.verify(email, device, &code).await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
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
async fn a_new_email_gets_a_mailed_code_that_opens_a_new_account_with_a_kek_and_no_key() {
    let b = start(|_| {}).await;
    let addr = email("new");
    let r = b.start_login(&addr.to_uppercase(), &device("a")).await;
    assert_eq!((r.status, r.json()), (200, json!({"action": "VERIFY_OTP"})));
    // The mail, as the sink got it (the address normalised to lowercase).
    let m = b.mail.nth(&addr, LOGIN, 1).await;
    assert_eq!(m["from"][0]["address"], "no-reply@wallet-modal.test");
    assert_eq!(m["from"][0]["name"], "wallet-modal");
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
    // The session reads the account back.
    let s = b.get_auth("/w/v1/session", session).await;
    assert_eq!(s.status, 200, "{}", s.text());
    assert_eq!(
        s.json(),
        json!({"userId": v["userId"], "email": addr, "kek": v["kek"], "keyCiphertext": null,
               "address": null, "userName": null, "socialProvider": null})
    );
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
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    let code = b.mail.code(&addr, LOGIN, 1).await;
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
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    let code = b.mail.code(&addr, LOGIN, 1).await;
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
    // Only one code mail went out.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(b.mail.to(&addr, LOGIN).await.len(), 1);
}

#[tokio::test]
async fn the_throttle_opens_again_after_its_window() {
    let b = start(|c| c.email_throttle = Duration::from_millis(400)).await;
    let addr = email("window");
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    let r = b.start_login(&addr, &device("a")).await;
    assert_error(&r, 429, "Please try again after 1 seconds");
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(b.start_login(&addr, &device("a")).await.status, 200);
    // The newer code replaced the older one.
    let first = b.mail.code(&addr, LOGIN, 1).await;
    let second = b.mail.code(&addr, LOGIN, 2).await;
    if first != second {
        assert_error(
            &b.verify(&addr, &device("a"), &first).await,
            400,
            "Invalid code",
        );
    }
    assert_eq!(b.verify(&addr, &device("a"), &second).await.status, 200);
}

// ---------------------------------------------------------------------------------------------------------
// A second device

/// The approval link in mail #n to `to`.
async fn approval_link(b: &Backend, to: &str, n: usize) -> String {
    let m = b.mail.nth(to, DEVICE, n).await;
    let text = m["text"].as_str().unwrap();
    let start = text.find("http://").expect("a link in the mail");
    let link: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let prefix = format!("{}/w/v1/device/approve?token=", b.frame_origin());
    assert!(link.starts_with(&prefix), "{link}");
    link
}

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
    let wait_body = json!({"email": addr, "deviceId": device("phone")}).to_string();
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
    let link = approval_link(&b, &addr, 1).await;
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
            json!({"email": addr, "deviceId": device("phone")}),
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
            json!({"email": addr, "deviceId": device("phone")}),
        )
        .await;
    assert_error(&r, 408, "The device was not approved in time");
    assert!(t.elapsed() >= Duration::from_millis(300));
    // Nothing pending for a device that never asked.
    let r = b
        .post(
            "/w/v1/device/wait",
            json!({"email": addr, "deviceId": device("tablet")}),
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
async fn the_frame_page_has_a_strict_csp_and_only_dist_frame_scripts_are_served() {
    let root = std::env::temp_dir().join(format!("wm-frame-root-{}", std::process::id()));
    std::fs::create_dir_all(root.join("demo")).unwrap();
    std::fs::create_dir_all(root.join("dist/frame")).unwrap();
    std::fs::write(root.join("dist/frame/frame.js"), "console.log('frame');\n").unwrap();
    std::fs::write(root.join("dist/frame/frame.js.map"), "{\"version\":3}").unwrap();
    std::fs::write(root.join("dist/frame/notes.txt"), "secret").unwrap();
    std::fs::write(root.join("dist/wallet-modal.js"), "element").unwrap();
    let b = start_with(root.clone(), |_| {}).await;

    let page = common::get(b.frame, "/frame").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.text(), wm_demo::wallet::frame_page::FRAME_HTML);
    assert!(page
        .text()
        .contains("<script type=module src=\"/frame/frame.js\"></script>"));
    assert_eq!(
        page.header("content-security-policy"),
        Some(wm_demo::wallet::frame_page::FRAME_CSP)
    );
    assert!(FRAME_CSP_PARTS
        .iter()
        .all(|p| page.header("content-security-policy").unwrap().contains(p)));
    assert_eq!(
        page.header("x-frame-options"),
        None,
        "embeddable (frame-ancestors decides)"
    );
    // With the project's query string too.
    assert_eq!(
        common::get(b.frame, "/frame?projectId=demo-project&chainId=31337")
            .await
            .status,
        200
    );

    let js = common::get(b.frame, "/frame/frame.js").await;
    assert_eq!(js.status, 200);
    assert_eq!(js.text(), "console.log('frame');\n");
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert_eq!(
        common::get(b.frame, "/frame/frame.js.map").await.status,
        200
    );
    for path in [
        "/frame/notes.txt",
        "/frame/../wallet-modal.js",
        "/frame/%2e%2e/wallet-modal.js",
        "/frame/..%2fwallet-modal.js",
        "/frame/missing.js",
        "/frame/.hidden.js",
    ] {
        assert_eq!(common::get(b.frame, path).await.status, 404, "{path}");
    }
    drop(b);
    let _ = std::fs::remove_dir_all(root);
}

const FRAME_CSP_PARTS: [&str; 4] = [
    "default-src 'none'",
    "script-src 'self'",
    "frame-ancestors http: https:",
    "base-uri 'none'",
];

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
    assert!(
        b.mail.all().await.len() == 1,
        "only the login's mail went out"
    );
}

#[tokio::test]
async fn an_unreachable_smtp_sink_answers_502_and_frees_the_throttle() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = closed.local_addr().unwrap().to_string();
    drop(closed);
    let b = start(|c| c.smtp = Some(dead)).await;
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-modal-demo"))
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
        let body = json!({"email": addr, "deviceId": device("a"), "projectId": "demo-project"});
        let r = common::request(
            frame,
            "POST",
            "/w/v1/email/start",
            &[],
            body.to_string().as_bytes(),
        )
        .await;
        assert_eq!(r.json(), json!({"action": "VERIFY_OTP"}));
        let code = mail.code(&addr, LOGIN, 1).await;
        let body = json!({"email": addr, "deviceId": device("a"), "otp": code});
        let r = common::request(
            frame,
            "POST",
            "/w/v1/email/verify",
            &[],
            body.to_string().as_bytes(),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text());
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
        let o = Command::new(env!("CARGO_BIN_EXE_wallet-modal-demo"))
            .args(["--port", "0", "--frame-port", "0", "--smtp", bad, "--root"])
            .arg(common::repo_root())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--smtp must be HOST:PORT"),
            "{bad}"
        );
        assert!(o.stdout.is_empty());
    }
}
