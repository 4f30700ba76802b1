//! Social login (docs/embedded-wallet.md §1–2) end to end against a real OpenID Connect provider:
//! each test starts `demo/oidc/provider.mjs` (npm `oidc-provider`, from the workspace's
//! node_modules) and a backend with a frame listener, then plays the popup's part over HTTP: the
//! authorization URL, the provider's login and consent pages (cookies kept per host and path),
//! the redirects back to the wallet service's callback, its page, and `POST /w/v1/social/connect`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};
use wm_server::wallet::social::SocialConfig;
use wm_server::wallet::WalletConfig;
use wm_server::ServerConfig;

mod common;
use common::frame::{email_login, Frame, CHANGE, PROJECT};
use common::mail::Maildev;
use common::{Resp, OTHER_CLIENT};

const SECRET: &str = "test-client-secret-0123456789abcdef0123456789";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

// ---------------------------------------------------------------------------------------------------------
// The provider

/// A provider process of this test, killed (exactly that child) when dropped, also on panic.
struct Provider {
    child: Child,
    issuer: String,
    /// Every stdout line so far (the reader thread drains it until the process ends).
    lines: mpsc::Receiver<String>,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Provider {
    /// `node demo/oidc/provider.mjs --port 0 --redirect {redirect} --alg {alg}`; waits for its one line.
    fn start(redirect: &str, alg: &str) -> Provider {
        let root = common::repo_root();
        assert!(
            root.join("node_modules/oidc-provider/package.json")
                .is_file(),
            "node_modules/oidc-provider is missing: run `npm install` at the workspace root"
        );
        let mut child = Command::new("node")
            .arg(root.join("demo/oidc/provider.mjs"))
            .args([
                "--port",
                "0",
                "--issuer-host",
                "127.0.0.1",
                "--redirect",
                redirect,
                "--alg",
                alg,
            ])
            .env("WM_OIDC_CLIENT_SECRET", SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Provider {
            child,
            issuer: String::new(),
            lines,
        };
        let first = p
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the provider prints its line");
        p.issuer = first
            .strip_prefix("oidc on ")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_string();
        p
    }

    fn addr(&self) -> SocketAddr {
        self.issuer
            .strip_prefix("http://")
            .unwrap()
            .parse()
            .unwrap()
    }
}

// ---------------------------------------------------------------------------------------------------------
// The backend

struct Setup {
    /// Kept so that the server lives as long as the test.
    _server: wm_server::Server,
    frame: SocketAddr,
    // Dropped after the server: the provider and the mail sink outlive the requests.
    provider: Provider,
    /// The SMTP sink, for the tests that log in by email too.
    mail: Option<Maildev>,
}

/// A frame listener on a free port, a provider whose clients redirect to it, and the backend.
async fn start() -> Setup {
    start_with(|_| {}, false).await
}

/// [`start`] with other social-login bounds, and a maildev as the wallet service's SMTP sink when
/// `with_mail`.
async fn start_with(tweak: impl Fn(&mut SocialConfig), with_mail: bool) -> Setup {
    start_signing(tweak, with_mail, "EdDSA").await
}

/// [`start_with`], the provider signing its id_tokens with `alg`.
async fn start_signing(tweak: impl Fn(&mut SocialConfig), with_mail: bool, alg: &str) -> Setup {
    let mail = if with_mail {
        Some(Maildev::start().await)
    } else {
        None
    };
    for _ in 0..3 {
        let frame_port = free_port();
        let provider = Provider::start(&format!(
            "http://127.0.0.1:{frame_port}/w/v1/social/callback"
        ), alg);
        let mut social = SocialConfig {
            issuer: Some(provider.issuer.clone()),
            client_secret: SECRET.into(),
            ..SocialConfig::default()
        };
        tweak(&mut social);
        let config = ServerConfig {
            social,
            wallet: WalletConfig {
                smtp: mail.as_ref().map(|m| wm_server::wallet::smtp::MailServer::parse(&m.smtp.to_string(), None).unwrap()),
                email_throttle: Duration::from_millis(50),
                ..WalletConfig::default()
            },
            ..ServerConfig::default()
        };
        let options = wm_server::Options {
            root: common::repo_root(),
            chains: wm_server::parse_chains(
                "31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546",
            )
            .unwrap(),
            contracts: None,
            solana: None,
            bitcoin: None,
            test_token: None,
        };
        // The port picked free may be taken meanwhile: then again with another.
        if let Ok(server) =
            wm_server::start_with_frame(options, config, 0, Some(frame_port), std::future::pending())
                .await
        {
            let frame = server.frame_addr.unwrap();
            return Setup {
                _server: server,
                frame,
                provider,
                mail,
            };
        }
    }
    panic!("no frame port could be bound");
}

/// The embedding page's origin (the dapp): another loopback port.
const DAPP: &str = "http://127.0.0.1:4173";

fn device(name: &str) -> String {
    format!("device-{name}-0123456789")
}

impl Setup {
    fn frame_origin(&self) -> String {
        format!("http://{}", self.frame)
    }

    /// A request to the wallet service as the frame makes it (its own `Origin`).
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

    async fn social_uri(&self, provider: &str, origin: &str) -> Resp {
        self.social_uri_for(provider, origin, PROJECT, &device("a"))
            .await
    }

    async fn social_uri_for(
        &self,
        provider: &str,
        origin: &str,
        project: &str,
        device_id: &str,
    ) -> Resp {
        let path = format!(
            "/w/v1/social/uri?provider={}&origin={}&projectId={}&deviceId={}",
            enc(provider),
            enc(origin),
            enc(project),
            enc(device_id),
        );
        self.call("GET", &path, None, b"").await
    }

    /// `GET /w/v1/social/uri` that must succeed: the authorization URL (for device "a" of the
    /// demo project).
    async fn authorization_url(&self, provider: &str) -> String {
        self.authorization_url_for(provider, PROJECT, &device("a"))
            .await
    }

    async fn authorization_url_for(
        &self,
        provider: &str,
        project: &str,
        device_id: &str,
    ) -> String {
        let r = self
            .social_uri_for(provider, DAPP, project, device_id)
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["uri"].as_str().unwrap().to_string()
    }

    async fn connect(&self, result_uri: &str, device_id: &str) -> Resp {
        let body = json!({"resultUri": result_uri, "deviceId": device_id}).to_string();
        self.call("POST", "/w/v1/social/connect", None, body.as_bytes())
            .await
    }

    async fn session(&self, session: &str) -> Value {
        let r = self.call("GET", "/w/v1/session", Some(session), b"").await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    /// The whole popup for device "a" of the demo project: see [`Setup::sign_in_on`].
    async fn sign_in(&self, provider: &str, login: &str) -> Page {
        self.sign_in_on(provider, login, PROJECT, &device("a"))
            .await
    }

    /// The whole popup: authorization URL (asked by `device_id` for `project`), login as `login`,
    /// consent: the callback's page.
    async fn sign_in_on(
        &self,
        provider: &str,
        login: &str,
        project: &str,
        device_id: &str,
    ) -> Page {
        let uri = self
            .authorization_url_for(provider, project, device_id)
            .await;
        self.popup(&uri, login).await
    }

    /// The popup from the authorization URL `uri`: login as `login`, consent: the callback's page.
    async fn popup(&self, uri: &str, login: &str) -> Page {
        let mut popup = Browser::default();
        let login_page = popup.open(uri).await;
        login_page.assert_at(&self.provider.issuer, "/interaction/", 200);
        let consent = popup
            .submit(&login_page, "/login", &format!("login={}", enc(login)))
            .await;
        consent.assert_at(&self.provider.issuer, "/interaction/", 200);
        assert!(consent.text.contains("Allow access?"), "{}", consent.text);
        let done = popup.submit(&consent, "/confirm", "").await;
        done.assert_at(&self.frame_origin(), "/w/v1/social/callback?", 200);
        done
    }

    /// [`Setup::sign_in_on`] for the demo project, then its result redeemed by `device_id`: the
    /// login's JSON.
    async fn log_in(&self, provider: &str, login: &str, device_id: &str) -> Value {
        self.log_in_to(provider, login, PROJECT, device_id).await
    }

    async fn log_in_to(
        &self,
        provider: &str,
        login: &str,
        project: &str,
        device_id: &str,
    ) -> Value {
        let page = self.sign_in_on(provider, login, project, device_id).await;
        let r = self.connect(&page.result_uri(), device_id).await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }
}

fn enc(s: &str) -> String {
    wm_server::wallet::social::http::encode(s)
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

/// The query parameters of `url`, decoded.
fn query(url: &str) -> HashMap<String, String> {
    let q = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), decode(v)))
        .collect()
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let h = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(h, 16).unwrap());
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

// ---------------------------------------------------------------------------------------------------------
// A popup window: cookies per host and path, redirects followed

#[derive(Default)]
struct Browser {
    /// (host:port, path, name) → value.
    cookies: HashMap<(String, String, String), String>,
}

/// Where a chain of requests ended.
struct Page {
    url: String,
    status: u16,
    headers: Vec<(String, String)>,
    text: String,
}

impl Page {
    fn assert_at(&self, origin: &str, path_prefix: &str, status: u16) {
        assert!(
            self.url.starts_with(&format!("{origin}{path_prefix}")),
            "expected {origin}{path_prefix}…, at {} ({}): {}",
            self.url,
            self.status,
            self.text
        );
        assert_eq!(self.status, status, "{}: {}", self.url, self.text);
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The value of `attr="…"` on the page (unescaped).
    fn attr(&self, attr: &str) -> Option<String> {
        let start = self.text.find(&format!("{attr}=\""))? + attr.len() + 2;
        let end = self.text[start..].find('"')? + start;
        Some(unescape(&self.text[start..end]))
    }

    /// The form action ending in `suffix`.
    fn form_action(&self, suffix: &str) -> String {
        self.text
            .match_indices("action=\"")
            .map(|(i, m)| {
                let rest = &self.text[i + m.len()..];
                unescape(&rest[..rest.find('"').unwrap()])
            })
            .find(|a| a.ends_with(suffix))
            .unwrap_or_else(|| panic!("no form {suffix} on {}: {}", self.url, self.text))
    }

    fn result_uri(&self) -> String {
        self.attr("data-result-uri")
            .unwrap_or_else(|| panic!("no result on the page: {}", self.text))
    }
}

fn split_url(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    match rest.find('/') {
        Some(i) => (rest[..i].to_string(), rest[i..].to_string()),
        None => (rest.to_string(), "/".to_string()),
    }
}

impl Browser {
    fn cookie_header(&self, host: &str, path: &str) -> String {
        let path = path.split('?').next().unwrap();
        self.cookies
            .iter()
            .filter(|((h, p, _), _)| {
                h == host
                    && (path == p
                        || path.starts_with(&format!("{}/", p.trim_end_matches('/')))
                        || p == "/")
            })
            .map(|((_, _, n), v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn store(&mut self, host: &str, set_cookie: &str) {
        let mut parts = set_cookie.split(';').map(str::trim);
        let Some((name, value)) = parts.next().and_then(|nv| nv.split_once('=')) else {
            return;
        };
        let mut path = "/".to_string();
        let mut gone = false;
        for attr in parts {
            let (k, v) = attr.split_once('=').unwrap_or((attr, ""));
            match k.to_ascii_lowercase().as_str() {
                "path" => path = v.to_string(),
                "max-age" => gone |= v.parse::<i64>().is_ok_and(|n| n <= 0),
                "expires" => gone |= v.contains("1970"),
                _ => {}
            }
        }
        let key = (host.to_string(), path, name.to_string());
        if gone {
            self.cookies.remove(&key);
        } else {
            self.cookies.insert(key, value.to_string());
        }
    }

    /// One request, cookies sent and kept.
    async fn request(&mut self, method: &str, url: &str, form: Option<&str>) -> Resp {
        let (host, path) = split_url(url);
        let addr: SocketAddr = host.parse().unwrap();
        let cookie = self.cookie_header(&host, &path);
        let mut headers = vec![("Host", host.as_str()), ("Accept", "text/html")];
        if !cookie.is_empty() {
            headers.push(("Cookie", cookie.as_str()));
        }
        if form.is_some() {
            headers.push(("Content-Type", "application/x-www-form-urlencoded"));
        }
        let r = common::request(addr, method, &path, &headers, form.unwrap_or("").as_bytes()).await;
        for (k, v) in &r.headers {
            if k == "set-cookie" {
                self.store(&host, v);
            }
        }
        r
    }

    /// `method url`, then every redirect (as GET) until a page.
    async fn go(&mut self, method: &str, url: &str, form: Option<&str>) -> Page {
        let mut url = url.to_string();
        let mut r = self.request(method, &url, form).await;
        for _ in 0..20 {
            if !(300..400).contains(&r.status) {
                return Page {
                    url,
                    status: r.status,
                    headers: r.headers.clone(),
                    text: r.text(),
                };
            }
            let location = r.header("location").expect("a redirect's Location");
            url = if location.starts_with("http://") {
                location.to_string()
            } else {
                let (host, _) = split_url(&url);
                format!("http://{host}{location}")
            };
            r = self.request("GET", &url, None).await;
        }
        panic!("too many redirects, at {url}");
    }

    async fn open(&mut self, url: &str) -> Page {
        self.go("GET", url, None).await
    }

    /// Submits the form of `page` whose action ends in `suffix`.
    async fn submit(&mut self, page: &Page, suffix: &str, form: &str) -> Page {
        let action = page.form_action(suffix);
        let (host, _) = split_url(&page.url);
        let url = if action.starts_with("http://") {
            action
        } else {
            format!("http://{host}{action}")
        };
        self.go("POST", &url, Some(form)).await
    }
}

// ---------------------------------------------------------------------------------------------------------
// The authorization request

#[tokio::test]
async fn the_authorization_url_is_a_code_flow_with_pkce_a_fresh_state_and_nonce_at_the_provider() {
    let s = start().await;
    let a = s.authorization_url("google").await;
    let b = s.authorization_url("google").await;
    assert!(
        a.starts_with(&format!("{}/auth?", s.provider.issuer)),
        "{a}"
    );
    let q = query(&a);
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], "google");
    assert_eq!(q["scope"], "openid email profile");
    assert_eq!(
        q["redirect_uri"],
        format!("{}/w/v1/social/callback", s.frame_origin())
    );
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["code_challenge"].len(), 43, "base64url of SHA-256");
    assert_eq!(q["state"].len(), 64);
    assert!(q["nonce"].len() >= 32);
    let q2 = query(&b);
    assert_ne!(q["state"], q2["state"]);
    assert_ne!(q["nonce"], q2["nonce"]);
    assert_ne!(q["code_challenge"], q2["code_challenge"]);
}

#[tokio::test]
async fn an_unknown_provider_or_a_bad_origin_is_refused_with_400() {
    let s = start().await;
    assert_error(
        &s.social_uri("myspace", DAPP).await,
        400,
        "Unknown provider",
    );
    assert_error(&s.social_uri("Google", DAPP).await, 400, "Unknown provider");
    let r = s
        .call(
            "GET",
            "/w/v1/social/uri?origin=http%3A%2F%2F127.0.0.1%3A1&projectId=demo-project",
            None,
            b"",
        )
        .await;
    assert_error(&r, 400, "Unknown provider");
    let long = format!("https://{}.example", "a".repeat(200));
    for origin in [
        "",
        "null",
        "ftp://127.0.0.1:1",
        "http://127.0.0.1:1/path",
        "javascript:alert(1)",
        long.as_str(),
    ] {
        let r = s.social_uri("google", origin).await;
        assert_eq!(r.status, 400, "{origin}: {}", r.text());
        assert!(r.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("Invalid origin"));
    }
    // The service checks the embedding origin against the project's allowed origins itself: a
    // caller naming an origin the project does not allow gets no sign-in to hand to it.
    for path in [
        "/w/v1/social/uri?provider=google&origin=https%3A%2F%2Fevil.example&projectId=demo-project",
        "/w/v1/social/uri?provider=google&origin=http%3A%2F%2F127.0.0.1%3A1&projectId=foreign-origin",
        "/w/v1/social/uri?provider=google&origin=http%3A%2F%2F127.0.0.1%3A1",
    ] {
        let r = s.call("GET", path, None, b"").await;
        assert_error(&r, 403, "This origin is not allowed for the project");
    }
    // The wallet service's usual origin rule: another site's page cannot call it.
    let r = common::request(
        s.frame,
        "GET",
        "/w/v1/social/uri?provider=google&origin=http%3A%2F%2F127.0.0.1%3A1&projectId=demo-project",
        &[("Origin", "http://evil.test")],
        b"",
    )
    .await;
    assert_eq!(r.status, 403);
}

#[tokio::test]
async fn without_an_oidc_provider_social_login_answers_503() {
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545,31338=http://127.0.0.1:18546")
            .unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let server = wm_server::start_with_frame(
        options,
        ServerConfig::default(),
        0,
        Some(0),
        std::future::pending(),
    )
    .await
    .unwrap();
    let frame = server.frame_addr.unwrap();
    let r = common::get(
        frame,
        "/w/v1/social/uri?provider=google&origin=http%3A%2F%2F127.0.0.1%3A1&projectId=demo-project&deviceId=device-a-0123456789",
    )
    .await;
    assert_error(
        &r,
        503,
        "Social login is not available: the server was started without --oidc",
    );
}

// ---------------------------------------------------------------------------------------------------------
// The whole sign-in

#[tokio::test]
async fn signing_in_at_the_provider_hands_a_result_uri_to_the_embedding_origin_and_connect_logs_in()
{
    let s = start().await;
    let page = s.sign_in("google", "Alice").await;
    // The page hands the result over through its own script file, to the remembered origin only.
    let result_uri = page.result_uri();
    assert!(
        result_uri.starts_with(&format!("{}/w/v1/social/result?token=", s.frame_origin())),
        "{result_uri}"
    );
    assert_eq!(page.attr("data-target-origin").as_deref(), Some(DAPP));
    assert!(page
        .text
        .contains("<script src=\"/w/v1/social/done.js\"></script>"));
    assert_eq!(page.text.matches("<script").count(), 1, "no inline script");
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    let js = common::get(s.frame, "/w/v1/social/done.js").await;
    assert_eq!(js.status, 200);
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    let js = js.text();
    assert!(
        js.contains("type: '@w3m-social/RESULT', resultUri: resultUri }, target)"),
        "{js}"
    );
    assert!(js.contains("window.opener.postMessage"));
    assert!(js.contains("window.close()"));

    let r = s.connect(&result_uri, &device("a")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(kek_bytes(&v).len(), 32);
    assert_eq!(v["keyCiphertext"], Value::Null);
    assert_eq!(v["email"], "alice@example.com");
    let session = v["session"].as_str().unwrap();
    assert_eq!(session.len(), 64);
    // The session knows the provider and the name from the id_token.
    let info = s.session(session).await;
    assert_eq!(
        info,
        json!({"userId": v["userId"], "projectId": PROJECT, "email": "alice@example.com", "kek": v["kek"],
               "keyCiphertext": null, "address": null, "userName": "Alice", "socialProvider": "google"})
    );
}

#[tokio::test]
async fn the_same_provider_and_login_again_is_the_same_account_with_the_same_kek_on_any_device() {
    let s = start().await;
    let first = s.log_in("github", "bob", &device("laptop")).await;
    // Another popup (no cookies kept), another device: no device approval is asked.
    let again = s.log_in("github", "bob", &device("phone")).await;
    assert_eq!(again["userId"], first["userId"]);
    assert_eq!(again["kek"], first["kek"]);
    assert_ne!(again["session"], first["session"]);
    let info = s.session(again["session"].as_str().unwrap()).await;
    assert_eq!(info["socialProvider"], "github");
    assert_eq!(info["userName"], "Bob");
}

#[tokio::test]
async fn the_same_login_name_at_another_provider_is_another_account() {
    let s = start().await;
    let google = s.log_in("google", "carol", &device("a")).await;
    let discord = s.log_in("discord", "carol", &device("a")).await;
    assert_ne!(google["userId"], discord["userId"]);
    assert_ne!(google["kek"], discord["kek"]);
    let info = s.session(discord["session"].as_str().unwrap()).await;
    assert_eq!(info["socialProvider"], "discord");
}

#[tokio::test]
async fn every_provider_name_signs_in_at_its_own_client_of_the_provider() {
    let s = start().await;
    let names = [
        ("google", "Google (demo)"),
        ("github", "GitHub (demo)"),
        ("apple", "Apple (demo)"),
        ("facebook", "Facebook (demo)"),
        ("x", "X (demo)"),
        ("discord", "Discord (demo)"),
    ];
    let mut users = Vec::new();
    for (provider, label) in names {
        let uri = s.authorization_url(provider).await;
        let mut popup = Browser::default();
        let login = popup.open(&uri).await;
        assert!(
            login.text.contains(&format!("<h1>Sign in to {label}</h1>")),
            "{provider}: {}",
            login.text
        );
        let consent = popup
            .submit(&login, "/login", "login=dave%40corp.test")
            .await;
        let done = popup.submit(&consent, "/confirm", "").await;
        let r = s.connect(&done.result_uri(), &device("a")).await;
        assert_eq!(r.status, 200, "{provider}: {}", r.text());
        let v = r.json();
        // A login that is an email is the email; the name is its local part.
        assert_eq!(v["email"], "dave@corp.test");
        let info = s.session(v["session"].as_str().unwrap()).await;
        assert_eq!(
            (info["socialProvider"].as_str(), info["userName"].as_str()),
            (Some(provider), Some("Dave"))
        );
        users.push(v["userId"].as_str().unwrap().to_string());
    }
    users.sort();
    users.dedup();
    assert_eq!(users.len(), 6, "six accounts");
}

#[tokio::test]
async fn a_provider_signing_rs256_like_google_and_keycloak_signs_visitors_in() {
    let s = start_signing(|_| {}, false, "RS256").await;
    let mut popup = Browser::default();
    let login = popup.open(&s.authorization_url("google").await).await;
    let consent = popup.submit(&login, "/login", "login=rsa%40corp.test").await;
    let done = popup.submit(&consent, "/confirm", "").await;
    let r = s.connect(&done.result_uri(), &device("a")).await;
    assert_eq!(r.status, 200, "the RS256 id_token is verified: {}", r.text());
    assert_eq!(r.json()["email"], "rsa@corp.test");
}

#[tokio::test]
async fn configured_clients_sign_in_with_their_own_client_id_and_only_they_are_offered() {
    // GitHub sign-ins go through the broker's client "google" (another id than the provider's name);
    // Google is not configured on this server.
    let s = start_with(
        |c| {
            c.clients = [("github".to_string(), wm_server::wallet::social::OidcClient { id: "google".into(), secret: SECRET.into() })].into();
        },
        false,
    )
    .await;
    let uri = s.authorization_url("github").await;
    assert!(uri.contains("client_id=google&"), "{uri}");
    let mut popup = Browser::default();
    let login = popup.open(&uri).await;
    assert!(login.text.contains("<h1>Sign in to Google (demo)</h1>"), "the broker's client: {}", login.text);
    let consent = popup.submit(&login, "/login", "login=erin%40corp.test").await;
    let done = popup.submit(&consent, "/confirm", "").await;
    let r = s.connect(&done.result_uri(), &device("a")).await;
    assert_eq!(r.status, 200, "the code is exchanged with that client's secret: {}", r.text());
    let info = s.session(r.json()["session"].as_str().unwrap()).await;
    assert_eq!(info["socialProvider"], "github");
    let r = s.social_uri("google", DAPP).await;
    assert_eq!(r.status, 503, "{}", r.text());
    assert!(r.text().contains("does not offer that provider"), "{}", r.text());
    // The project configuration offers the configured provider (and Farcaster, which has no client).
    let cfg = common::get(s._server.addr, "/appkit/v1/config?projectId=demo-project").await.json();
    let socials = cfg.pointer("/features/socials").or_else(|| cfg.pointer("/socials")).cloned().unwrap_or_default();
    assert_eq!(socials, json!(["farcaster", "github"]), "{cfg}");
}

// ---------------------------------------------------------------------------------------------------------
// Refusals

#[tokio::test]
async fn a_result_is_redeemed_once_and_only_as_the_frame_origin_result_uri() {
    let s = start().await;
    let page = s.sign_in("apple", "erin").await;
    let uri = page.result_uri();
    let token = uri.rsplit('=').next().unwrap().to_string();
    // Lookalikes are refused without using the token up.
    for bad in [
        format!("http://127.0.0.1:1/w/v1/social/result?token={token}"),
        format!("{}/w/v1/social/other?token={token}", s.frame_origin()),
        format!("{uri}&x=1"),
        token.clone(),
        String::new(),
    ] {
        assert_error(
            &s.connect(&bad, &device("a")).await,
            400,
            "Invalid or used sign-in result",
        );
    }
    // A bad device id is refused before the token is touched.
    let r = s.connect(&uri, "short").await;
    assert_eq!(r.status, 400);
    let ok = s.connect(&uri, &device("a")).await;
    assert_eq!(ok.status, 200, "{}", ok.text());
    let used = s.connect(&uri, &device("a")).await;
    assert_error(&used, 400, "Invalid or used sign-in result");
    let forged = format!(
        "{}/w/v1/social/result?token={}",
        s.frame_origin(),
        "ab".repeat(32)
    );
    assert_error(
        &s.connect(&forged, &device("a")).await,
        400,
        "Invalid or used sign-in result",
    );
}

#[tokio::test]
async fn cancelling_at_the_provider_shows_sign_in_was_cancelled_and_hands_nothing_back() {
    let s = start().await;
    let uri = s.authorization_url("facebook").await;
    let mut popup = Browser::default();
    let login = popup.open(&uri).await;
    let page = popup.submit(&login, "/abort", "").await;
    page.assert_at(&s.frame_origin(), "/w/v1/social/callback?", 200);
    assert!(query(&page.url)["error"] == "access_denied", "{}", page.url);
    assert!(page.text.contains("Sign-in was cancelled"), "{}", page.text);
    assert!(!page.text.contains("<script"), "{}", page.text);
    assert!(page.attr("data-result-uri").is_none());
    // Cancelling at the consent step too.
    let uri = s.authorization_url("facebook").await;
    let mut popup = Browser::default();
    let login = popup.open(&uri).await;
    let consent = popup.submit(&login, "/login", "login=frank").await;
    let page = popup.submit(&consent, "/abort", "").await;
    assert!(page.text.contains("Sign-in was cancelled"), "{}", page.text);
}

#[tokio::test]
async fn an_unknown_or_already_answered_state_is_refused() {
    let s = start().await;
    let unknown = format!("/w/v1/social/callback?code=abc&state={}", "cd".repeat(32));
    let r = common::get(s.frame, &unknown).await;
    assert_eq!(r.status, 400);
    assert!(
        r.text()
            .contains("This sign-in is unknown or was already used"),
        "{}",
        r.text()
    );
    assert!(!r.text().contains("<script"));
    let r = common::get(s.frame, "/w/v1/social/callback?code=abc").await;
    assert_eq!(r.status, 400);
    // The callback of a finished sign-in, replayed: its state was answered already.
    let page = s.sign_in("x", "grace").await;
    let (_, path) = split_url(&page.url);
    let again = common::get(s.frame, &path).await;
    assert_eq!(again.status, 400);
    assert!(again
        .text()
        .contains("This sign-in is unknown or was already used"));
}

#[tokio::test]
async fn a_code_the_provider_never_issued_is_refused_at_the_token_endpoint() {
    let s = start().await;
    let uri = s.authorization_url("google").await;
    let state = query(&uri)["state"].clone();
    let r = common::get(
        s.frame,
        &format!("/w/v1/social/callback?code=forged-code&state={state}"),
    )
    .await;
    assert_eq!(r.status, 502, "{}", r.text());
    assert!(
        r.text()
            .contains("The sign-in provider refused the sign-in (invalid_grant)"),
        "{}",
        r.text()
    );
    assert!(!r.text().contains("data-result-uri"));
}

#[tokio::test]
async fn an_answer_naming_another_issuer_is_refused() {
    let s = start().await;
    let uri = s.authorization_url("google").await;
    let state = query(&uri)["state"].clone();
    let r = common::get(
        s.frame,
        &format!("/w/v1/social/callback?code=c&state={state}&iss=http%3A%2F%2F127.0.0.1%3A1"),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(
        r.text().contains("another sign-in provider"),
        "{}",
        r.text()
    );
}

// ---------------------------------------------------------------------------------------------------------
// The provider process

#[tokio::test]
async fn the_provider_prints_one_line_serves_discovery_on_loopback_and_stops_on_sigterm() {
    let p = Provider::start("http://127.0.0.1:1/w/v1/social/callback", "EdDSA");
    assert!(p.issuer.starts_with("http://127.0.0.1:"), "{}", p.issuer);
    let d = common::get(p.addr(), "/.well-known/openid-configuration").await;
    assert_eq!(d.status, 200);
    let d = d.json();
    assert_eq!(d["issuer"], p.issuer);
    assert_eq!(d["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(d["id_token_signing_alg_values_supported"], json!(["EdDSA"]));
    let mut p = p;
    let pid = p.child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let mut status = None;
    for _ in 0..100 {
        if let Some(s) = p.child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = status.expect("the provider stops on SIGTERM");
    assert!(status.success(), "{status:?}");
    // The reader ends with the pipe: every line the process wrote is in.
    let mut rest = Vec::new();
    while let Ok(line) = p.lines.recv_timeout(Duration::from_secs(5)) {
        rest.push(line);
    }
    assert!(
        rest.is_empty(),
        "nothing but the one line on stdout: {rest:?}"
    );
}

// ---------------------------------------------------------------------------------------------------------
// Bound to the device and the project that started the sign-in

#[tokio::test]
async fn a_social_result_redeemed_by_another_device_is_refused_and_burned() {
    let s = start().await;
    // The device that asks for the sign-in must say who it is.
    let r = s
        .call(
            "GET",
            "/w/v1/social/uri?provider=google&origin=http%3A%2F%2F127.0.0.1%3A4173&projectId=demo-project",
            None,
            b"",
        )
        .await;
    assert_error(
        &r,
        400,
        "Invalid deviceId: 16-64 characters of A-Z a-z 0-9 _ -",
    );
    // A result started on device "a" and handed to another device's frame (login CSRF).
    let page = s
        .sign_in_on("google", "mallory", PROJECT, &device("a"))
        .await;
    let uri = page.result_uri();
    let r = s.connect(&uri, &device("victim")).await;
    assert_error(&r, 403, "This sign-in was started on another device");
    // Burned: not even the device that started it redeems it now.
    let r = s.connect(&uri, &device("a")).await;
    assert_error(&r, 400, "Invalid or used sign-in result");
    // The right device redeems its own.
    let v = s.log_in("google", "mallory", &device("a")).await;
    assert_eq!(v["email"], "mallory@example.com");
}

#[tokio::test]
async fn the_same_social_login_in_another_project_is_another_account() {
    let s = start().await;
    let first = s.log_in_to("google", "carol", PROJECT, &device("a")).await;
    let again = s.log_in_to("google", "carol", PROJECT, &device("b")).await;
    assert_eq!(again["userId"], first["userId"]);
    let other = s
        .log_in_to("google", "carol", "other-project", &device("a"))
        .await;
    assert_ne!(other["userId"], first["userId"]);
    assert_ne!(other["kek"], first["kek"]);
    let info = s.session(other["session"].as_str().unwrap()).await;
    assert_eq!(info["projectId"], "other-project");
    assert_eq!(info["userName"], "Carol");
    let info = s.session(first["session"].as_str().unwrap()).await;
    assert_eq!(info["projectId"], PROJECT);
}

#[tokio::test]
async fn a_flood_of_social_sign_ins_from_another_address_never_locks_out_a_visitor() {
    let s = start_with(
        |c| {
            c.max_entries = 10;
            c.max_entries_per_client = 3;
        },
        false,
    )
    .await;
    // A visitor starts a sign-in (its request pending) ...
    let uri = s
        .authorization_url_for("github", PROJECT, &device("v"))
        .await;
    // ... while 40 sign-ins from 127.0.0.2 come in: four times the table.
    let flood = Frame::new(s.frame).from(OTHER_CLIENT);
    for i in 0..40 {
        let path = format!(
            "/w/v1/social/uri?provider=google&origin={}&projectId=demo-project&deviceId={}",
            enc(DAPP),
            device(&format!("flood{i}"))
        );
        let r = flood.call("GET", &path, None, b"").await;
        assert_eq!(r.status, 200, "{i}: {}", r.text());
    }
    // The visitor's pending sign-in completes all the same.
    let page = s.popup(&uri, "visitor").await;
    let r = s.connect(&page.result_uri(), &device("v")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(
        s.session(v["session"].as_str().unwrap()).await["userName"],
        "Visitor"
    );
    // So does a new one.
    s.log_in("github", "later", &device("w")).await;
}

// ---------------------------------------------------------------------------------------------------------
// An email change of a social account

#[tokio::test]
async fn an_email_change_never_removes_a_login_another_account_owns() {
    let s = start_with(|_| {}, true).await;
    let mail = s.mail.as_ref().unwrap();
    let fc = Frame::new(s.frame);
    let addr = format!("alice.{}@example.com", std::process::id());
    let new = format!("alice-new.{}@example.com", std::process::id());
    // An email account of the address ...
    let owner = email_login(&fc, mail, PROJECT, &addr, &device("owner"), 1).await;
    // ... and a Google account whose email claim is the same address: another account.
    let google = s.log_in("google", &addr, &device("g")).await;
    assert_eq!(google["email"], addr);
    assert_ne!(google["userId"], owner["userId"]);
    // The Google account changes "its" email (the codes go to the claim's and the new mailbox).
    let session = google["session"].as_str().unwrap();
    let r = fc
        .post_auth("/w/v1/email/update", session, json!({"email": new}))
        .await;
    assert_eq!(
        r.json(),
        json!({"action": "VERIFY_PRIMARY_OTP"}),
        "{}",
        r.text()
    );
    let code = mail.code(&addr, CHANGE, 1).await;
    let r = fc
        .post_auth("/w/v1/email/update/primary", session, json!({"otp": code}))
        .await;
    assert_eq!(
        r.json(),
        json!({"action": "VERIFY_SECONDARY_OTP"}),
        "{}",
        r.text()
    );
    let code = mail.code(&new, CHANGE, 1).await;
    let r = fc
        .post_auth(
            "/w/v1/email/update/secondary",
            session,
            json!({"otp": code}),
        )
        .await;
    assert_eq!((r.status, r.json()), (200, json!({"email": new})));
    // The owner's next login by email is still the owner's account, key and all ...
    tokio::time::sleep(Duration::from_millis(60)).await;
    let r = fc.start_login_in(PROJECT, &addr, &device("owner")).await;
    assert_eq!(
        r.json(),
        json!({"action": "VERIFY_OTP"}),
        "the owner's device is known"
    );
    let code = mail.code(&addr, common::frame::LOGIN, 2).await;
    let again = fc.verify_in(PROJECT, &addr, &device("owner"), &code).await;
    assert_eq!(again.status, 200, "{}", again.text());
    let again = again.json();
    assert_eq!(again["userId"], owner["userId"]);
    assert_eq!(again["kek"], owner["kek"]);
    // ... and the new address logs into the Google account.
    let by_email = email_login(&fc, mail, PROJECT, &new, &device("g"), 1).await;
    assert_eq!(by_email["userId"], google["userId"]);
}
