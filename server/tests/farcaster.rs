//! Sign In With Farcaster end to end on a real backend (main listener + frame listener on free
//! ports): the auth relay stand-in's routes and codes (those of farcasterxyz/auth-monorepo's
//! `apps/relay`), and the wallet service's `/w/v1/farcaster/channel` and `/connect` as the secure
//! frame calls them, with messages built and signed here (k256, `personal_sign`) the way the demo
//! Farcaster client page builds and signs them.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine;
use k256::ecdsa::SigningKey;
use serde_json::{json, Value};
use std::net::IpAddr;
use wm_core::chain::hash::{from_hex, hash_message, to_hex};

use wm_server::farcaster::{FarcasterConfig, DEMO_AUTH_KEY};
use wm_server::wallet::WalletConfig;
use wm_server::{Server, ServerConfig};

mod common;
use common::{Resp, OTHER_CLIENT};

/// Custody key of fid 1 (@alice): anvil's public dev account #5.
const ALICE_KEY: &str = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";
const ALICE_CUSTODY: &str = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
/// Anvil's public dev account #0: not alice's custody.
const OTHER_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// The embedding page's origin the frame reports.
const DAPP: &str = "http://127.0.0.1:4173";
const DAPP_DOMAIN: &str = "127.0.0.1:4173";
const DEVICE_A: &str = "device-aaaaaaaaaaaaaaaa";
const DEVICE_B: &str = "device-bbbbbbbbbbbbbbbb";

async fn start(config: FarcasterConfig) -> Server {
    start_with(config, WalletConfig::default()).await
}

async fn start_with(config: FarcasterConfig, wallet: WalletConfig) -> Server {
    let options = wm_server::Options {
        root: common::repo_root(),
        chains: wm_server::parse_chains("31337=http://127.0.0.1:18545").unwrap(),
        contracts: None,
        solana: None,
        bitcoin: None,
        test_token: None,
    };
    let config = ServerConfig {
        farcaster: config,
        wallet,
        ..Default::default()
    };
    wm_server::start_with_frame(options, config, 0, Some(0), std::future::pending())
        .await
        .expect("server starts")
}

/// Quick polls and a 3 s long-poll.
fn quick() -> FarcasterConfig {
    FarcasterConfig {
        connect_wait: Duration::from_secs(3),
        poll_interval: Duration::from_millis(50),
        ..Default::default()
    }
}

fn json_body(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap()
}

/// A POST to the frame listener, as the frame makes it (its own origin).
async fn frame_post(s: &Server, path: &str, body: &Value) -> Resp {
    frame_post_from(s, None, path, body).await
}

/// [`frame_post`] from another loopback address (`None`: 127.0.0.1).
async fn frame_post_from(s: &Server, from: Option<IpAddr>, path: &str, body: &Value) -> Resp {
    let origin = s.frame_origin().unwrap();
    let headers = [
        ("Origin", origin.as_str()),
        ("Content-Type", "application/json"),
    ];
    let (frame, body) = (s.frame_addr.unwrap(), json_body(body));
    match from {
        Some(ip) => common::request_from(ip, frame, "POST", path, &headers, &body).await,
        None => common::request(frame, "POST", path, &headers, &body).await,
    }
}

async fn relay_status(s: &Server, token: &str) -> Resp {
    let auth = format!("Bearer {token}");
    common::request(
        s.addr,
        "GET",
        "/farcaster-relay/v1/channel/status",
        &[("Authorization", auth.as_str())],
        b"",
    )
    .await
}

/// `POST /v1/channel/authenticate` as the Farcaster client makes it.
async fn relay_authenticate(s: &Server, token: &str, body: &Value) -> Resp {
    let auth = format!("Bearer {token}");
    common::request(
        s.addr,
        "POST",
        "/farcaster-relay/v1/channel/authenticate",
        &[
            ("Authorization", auth.as_str()),
            ("X-Farcaster-Auth-Relay-Key", DEMO_AUTH_KEY),
            ("Content-Type", "application/json"),
        ],
        &json_body(body),
    )
    .await
}

fn key(hex: &str) -> SigningKey {
    SigningKey::from_slice(&from_hex(hex).unwrap()).unwrap()
}

/// `personal_sign` of `message` (v = 27/28).
fn sign(key: &SigningKey, message: &str) -> String {
    let (sig, recid) = key.sign_prehash_recoverable(&hash_message(message));
    let mut bytes = sig.to_bytes().to_vec();
    bytes.push(27 + recid.to_byte());
    to_hex(&bytes)
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn iso(ts: u64) -> String {
    wm_server::chain::abi::iso8601(ts)
}

/// The parts of a SIWF message a test may change.
struct Msg<'a> {
    domain: &'a str,
    uri: &'a str,
    nonce: &'a str,
    address: &'a str,
    fid: u64,
    expiration: Option<String>,
}

impl Msg<'_> {
    /// EIP-4361 text as `@farcaster/auth-client`'s `build()` (viem's `createSiweMessage`) writes it.
    fn text(&self) -> String {
        let mut m = format!(
            "{} wants you to sign in with your Ethereum account:\n{}\n\nFarcaster Auth\n\n\
             URI: {}\nVersion: 1\nChain ID: 10\nNonce: {}\nIssued At: {}",
            self.domain,
            self.address,
            self.uri,
            self.nonce,
            iso(now_s())
        );
        if let Some(t) = &self.expiration {
            m.push_str(&format!("\nExpiration Time: {t}"));
        }
        m.push_str(&format!("\nResources:\n- farcaster://fid/{}", self.fid));
        m
    }
}

/// A channel opened through the wallet service, and what the relay tells the client about it.
struct Channel {
    url: String,
    token: String,
    nonce: String,
}

impl Channel {
    /// The message the demo client would sign for this channel.
    fn msg(&self) -> Msg<'_> {
        Msg {
            domain: DAPP_DOMAIN,
            uri: DAPP,
            nonce: &self.nonce,
            address: ALICE_CUSTODY,
            fid: 1,
            expiration: None,
        }
    }
}

/// A channel opened by device A of the demo project.
async fn open(s: &Server) -> Channel {
    open_for(s, None, "demo-project", DEVICE_A).await
}

/// A channel opened by `device` (from `from`) for `project`.
async fn open_for(s: &Server, from: Option<IpAddr>, project: &str, device: &str) -> Channel {
    let body = json!({ "origin": DAPP, "projectId": project, "deviceId": device });
    let r = frame_post_from(s, from, "/w/v1/farcaster/channel", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let j = r.json();
    let token = j["channelToken"].as_str().unwrap().to_string();
    let url = j["url"].as_str().unwrap().to_string();
    let st = relay_status(s, &token).await;
    assert_eq!(st.status, 202, "{}", st.text());
    Channel {
        url,
        token,
        nonce: st.json()["nonce"].as_str().unwrap().to_string(),
    }
}

/// The Farcaster client approves: `message` signed with `signer`, handed to the relay.
async fn approve(s: &Server, c: &Channel, message: &str, signer: &str, fid: u64) {
    let signature = sign(&key(signer), message);
    let r = relay_authenticate(
        s,
        &c.token,
        &json!({
            "message": message, "signature": signature, "fid": fid,
            "username": "alice", "displayName": "Alice (demo)",
            "pfpUrl": "http://127.0.0.1:4173/public/getAssetImage/farcaster-alice",
        }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
}

async fn connect(s: &Server, token: &str, device: &str) -> Resp {
    connect_from(s, None, token, device).await
}

async fn connect_from(s: &Server, from: Option<IpAddr>, token: &str, device: &str) -> Resp {
    let body = json!({ "channelToken": token, "deviceId": device });
    frame_post_from(s, from, "/w/v1/farcaster/connect", &body).await
}

/// A whole Farcaster login of alice (fid 1) by `device` from `from` into `project`.
async fn log_in(s: &Server, from: Option<IpAddr>, project: &str, device: &str) -> Resp {
    let c = open_for(s, from, project, device).await;
    approve(s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    connect_from(s, from, &c.token, device).await
}

fn error_of(r: &Resp) -> String {
    r.json()["error"].as_str().unwrap_or_default().to_string()
}

// ---------------------------------------------------------------------------------------------------------
// The relay stand-in

#[tokio::test]
async fn relay_routes_answer_the_official_codes_and_shapes() {
    let s = start(quick()).await;
    let post = |path: &'static str, body: Value| {
        let addr = s.addr;
        async move {
            common::request(
                addr,
                "POST",
                path,
                &[("Content-Type", "application/json")],
                &json_body(&body),
            )
            .await
        }
    };
    let h = common::get(s.addr, "/farcaster-relay/healthcheck").await;
    assert_eq!((h.status, h.json()), (200, json!({ "status": "OK" })));

    // POST /v1/channel → 201 {channelToken, url, connectUri, nonce}
    let r = post(
        "/farcaster-relay/v1/channel",
        json!({ "siweUri": "https://example.com", "domain": "example.com" }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let j = r.json();
    let mut keys: Vec<&String> = j.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["channelToken", "connectUri", "nonce", "url"]);
    let token = j["channelToken"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert!(token
        .bytes()
        .all(|b| b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ".contains(&b)));
    let url = j["url"].as_str().unwrap();
    assert_eq!(j["connectUri"], j["url"]);
    assert!(
        url.starts_with(&format!(
            "{}/demo/farcaster/?channelToken={token}&nonce=",
            s.origin()
        )),
        "{url}"
    );
    assert!(url.contains("&siweUri=https%3A%2F%2Fexample.com&domain=example.com"));
    let nonce = j["nonce"].as_str().unwrap();
    assert!(nonce.len() >= 16 && nonce.bytes().all(|b| b.is_ascii_alphanumeric()));

    // Validation errors: 400 {error: "Validation error", message}
    for (body, message) in [
        (
            json!({ "domain": "example.com" }),
            "body must have required property 'siweUri'",
        ),
        (
            json!({ "siweUri": "not-a-uri", "domain": "example.com" }),
            "body/siweUri must match format \"uri\"",
        ),
        (
            json!({ "siweUri": "https://example.com", "domain": "not a domain" }),
            "body/domain must match pattern \"^[a-zA-Z0-9.-]+(:[0-9]+)?$\"",
        ),
        (
            json!({ "siweUri": "https://example.com", "domain": "example.com", "notBefore": "not a datetime" }),
            "body/notBefore must match format \"date-time\"",
        ),
        (
            json!({ "siweUri": "https://example.com", "domain": "example.com", "extra": 1 }),
            "body must NOT have additional properties",
        ),
    ] {
        let r = post("/farcaster-relay/v1/channel", body).await;
        assert_eq!(r.status, 400, "{}", r.text());
        assert_eq!(
            r.json(),
            json!({ "error": "Validation error", "message": message })
        );
    }
    let r = post(
        "/farcaster-relay/v1/channel",
        json!({ "siweUri": "https://example.com", "domain": "app.farcaster.xyz" }),
    )
    .await;
    assert_eq!(
        (r.status, r.json()),
        (400, json!({ "error": "Domain not allowed" }))
    );

    // GET /v1/channel/status: 401 without a bearer token or for an unknown one, 202 pending.
    let r = common::get(s.addr, "/farcaster-relay/v1/channel/status").await;
    assert_eq!(
        (r.status, r.json()),
        (401, json!({ "error": "Unauthorized" }))
    );
    assert_eq!(relay_status(&s, "NOPE2345").await.status, 401);
    let r = relay_status(&s, token).await;
    assert_eq!(r.status, 202, "{}", r.text());
    let p = r.json();
    assert_eq!(p["state"], "pending");
    assert_eq!(p["nonce"], nonce);
    assert_eq!(p["acceptAuthAddress"], true);
    assert_eq!(
        p["signatureParams"],
        json!({ "siweUri": "https://example.com", "domain": "example.com", "nonce": nonce })
    );
    assert_eq!(p["metadata"]["ip"], "127.0.0.1");
    assert!(p.get("url").is_none() && p.get("message").is_none());

    // POST /v1/channel/authenticate: the body is checked first (400), then the bearer and key (401).
    let signature = format!("0x{}", "12".repeat(65));
    let auth_body = json!({ "message": "example.com wants you to sign in…", "signature": signature, "fid": 1, "username": "alice" });
    let authed = |token: Option<&str>, relay_key: Option<&str>, body: Value| {
        let addr = s.addr;
        let bearer = token.map(|t| format!("Bearer {t}"));
        let relay_key = relay_key.map(str::to_string);
        async move {
            let mut h = vec![("Content-Type", "application/json")];
            if let Some(b) = &bearer {
                h.push(("Authorization", b.as_str()));
            }
            if let Some(k) = &relay_key {
                h.push(("X-Farcaster-Auth-Relay-Key", k.as_str()));
            }
            common::request(
                addr,
                "POST",
                "/farcaster-relay/v1/channel/authenticate",
                &h,
                &json_body(&body),
            )
            .await
        }
    };
    let r = authed(None, Some(DEMO_AUTH_KEY), auth_body.clone()).await;
    assert_eq!(r.status, 401, "{}", r.text());
    let r = authed(
        Some(token),
        Some("invalid-shared-secret"),
        auth_body.clone(),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.text());
    let r = authed(Some(token), None, auth_body.clone()).await;
    assert_eq!(r.status, 401, "{}", r.text());
    let r = authed(Some("NOPE2345"), Some(DEMO_AUTH_KEY), auth_body.clone()).await;
    assert_eq!(r.status, 401, "{}", r.text());
    for (body, message) in [
        (json!({ "message": "m", "signature": signature }), "body must have required property 'fid'"),
        (json!({ "message": "m", "signature": "0x123", "fid": 1 }), "body/signature must match pattern \"^0x[a-fA-F0-9]{130}$\""),
        (json!({ "message": "m", "signature": signature, "fid": 1, "username": "not a username" }), "body/username must match pattern \"^[a-z0-9][a-z0-9-]{0,15}$|^[a-z0-9][a-z0-9-]{0,15}\\.eth$\""),
        (json!({ "message": "m", "signature": signature, "fid": 1, "pfpUrl": "not a URL" }), "body/pfpUrl must match format \"uri\""),
        (json!({ "message": "m", "signature": signature, "fid": 1, "authMethod": "invalid" }), "body/authMethod must be equal to one of the allowed values"),
        (json!({ "message": "m", "signature": signature, "fid": "1" }), "body/fid must be integer"),
    ] {
        let r = authed(Some(token), None, body).await;
        assert_eq!(r.status, 400, "{}", r.text());
        assert_eq!(r.json(), json!({ "error": "Validation error", "message": message }));
    }
    let r = authed(Some(token), Some(DEMO_AUTH_KEY), auth_body.clone()).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let c = r.json();
    assert_eq!(c["state"], "completed");
    assert_eq!(c["url"], url);
    assert_eq!(c["custody"], ALICE_CUSTODY);
    assert_eq!(c["authMethod"], "custody");

    // Completed: 200 with the signed message and the addresses, once; then the channel is closed.
    let r = relay_status(&s, token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let c = r.json();
    assert_eq!(c["state"], "completed");
    assert_eq!(c["nonce"], nonce);
    assert_eq!(c["message"], auth_body["message"]);
    assert_eq!(c["signature"], signature);
    assert_eq!(c["fid"], 1);
    assert_eq!(c["username"], "alice");
    assert_eq!(c["custody"], ALICE_CUSTODY);
    assert_eq!(c["verifications"], json!([]));
    assert_eq!(relay_status(&s, token).await.status, 401);
}

#[tokio::test]
async fn relay_channels_expire() {
    let s = start(FarcasterConfig {
        channel_ttl: Duration::from_millis(300),
        ..quick()
    })
    .await;
    let r = common::request(
        s.addr,
        "POST",
        "/farcaster-relay/v1/channel",
        &[("Content-Type", "application/json")],
        &json_body(&json!({ "siweUri": "https://example.com", "domain": "example.com" })),
    )
    .await;
    let token = r.json()["channelToken"].as_str().unwrap().to_string();
    assert_eq!(relay_status(&s, &token).await.status, 202);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(relay_status(&s, &token).await.status, 401);
}

// ---------------------------------------------------------------------------------------------------------
// The wallet service

#[tokio::test]
async fn a_channel_is_opened_at_the_relay_for_the_embedding_origin() {
    let s = start(quick()).await;
    let c = open(&s).await;
    assert!(c.url.starts_with(&format!(
        "{}/demo/farcaster/?channelToken={}",
        s.origin(),
        c.token
    )));
    let p = relay_status(&s, &c.token).await.json();
    assert_eq!(p["signatureParams"]["siweUri"], DAPP);
    assert_eq!(p["signatureParams"]["domain"], DAPP_DOMAIN);
    assert_eq!(p["acceptAuthAddress"], false);
    assert_eq!(c.nonce.len(), 32);

    for bad in [
        json!({}),
        json!({ "origin": "not an origin", "projectId": "demo-project", "deviceId": DEVICE_A }),
        json!({ "origin": "http://a.test/path", "projectId": "demo-project", "deviceId": DEVICE_A }),
        json!({ "origin": 7, "projectId": "demo-project", "deviceId": DEVICE_A }),
        json!({ "origin": DAPP, "projectId": "demo-project" }),
        json!({ "origin": DAPP, "projectId": "demo-project", "deviceId": "short" }),
    ] {
        let r = frame_post(&s, "/w/v1/farcaster/channel", &bad).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
    }
    // The embedding origin must be one the project allows (checked by the service itself).
    for bad in [
        json!({ "origin": "https://evil.example", "projectId": "demo-project", "deviceId": DEVICE_A }),
        json!({ "origin": DAPP, "projectId": "foreign-origin", "deviceId": DEVICE_A }),
        json!({ "origin": DAPP, "deviceId": DEVICE_A }),
    ] {
        let r = frame_post(&s, "/w/v1/farcaster/channel", &bad).await;
        assert_eq!(r.status, 403, "{bad}: {}", r.text());
    }
    // Only the frame calls the service.
    let r = common::request(
        s.frame_addr.unwrap(),
        "POST",
        "/w/v1/farcaster/channel",
        &[("Origin", DAPP), ("Content-Type", "application/json")],
        &json_body(&json!({ "origin": DAPP, "projectId": "demo-project", "deviceId": DEVICE_A })),
    )
    .await;
    assert_eq!(r.status, 403);
    // And the main listener serves none of it.
    let r = common::request(
        s.addr,
        "POST",
        "/w/v1/farcaster/channel",
        &[],
        &json_body(&json!({ "origin": DAPP, "projectId": "demo-project", "deviceId": DEVICE_A })),
    )
    .await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn a_pending_sign_in_answers_408_within_the_shortened_bound() {
    let s = start(FarcasterConfig {
        connect_wait: Duration::from_millis(400),
        ..quick()
    })
    .await;
    let c = open(&s).await;
    let t0 = Instant::now();
    let r = connect(&s, &c.token, DEVICE_A).await;
    let took = t0.elapsed();
    assert_eq!(r.status, 408, "{}", r.text());
    assert_eq!(error_of(&r), "The Farcaster sign-in was not approved yet");
    assert!(
        took >= Duration::from_millis(350) && took < Duration::from_secs(3),
        "{took:?}"
    );
    // Still pending: the frame polls again, and it completes then.
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    assert_eq!(connect(&s, &c.token, DEVICE_A).await.status, 200);
}

#[tokio::test]
async fn an_approved_channel_logs_in_with_a_session_and_a_kek() {
    let s = start(quick()).await;
    let c = open(&s).await;
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let j = r.json();
    let session = j["session"].as_str().unwrap();
    assert_eq!(session.len(), 64);
    assert!(j["userId"].as_str().is_some_and(|u| !u.is_empty()));
    assert_eq!(j["email"], Value::Null);
    assert_eq!(j["keyCiphertext"], Value::Null);
    let kek = base64::engine::general_purpose::STANDARD
        .decode(j["kek"].as_str().unwrap())
        .unwrap();
    assert_eq!(kek.len(), 32);
    assert_eq!(j["userName"], "alice");
    assert_eq!(j["socialProvider"], "farcaster");

    // The session is a real one: GET /w/v1/session knows the Farcaster name.
    let auth = format!("Bearer {session}");
    let r = common::request(
        s.frame_addr.unwrap(),
        "GET",
        "/w/v1/session",
        &[("Authorization", auth.as_str())],
        b"",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let info = r.json();
    assert_eq!(info["userId"], j["userId"]);
    assert_eq!(info["userName"], "alice");
    assert_eq!(info["socialProvider"], "farcaster");
    assert_eq!(info["email"], Value::Null);

    // One login per channel: the relay closed it, so did the service.
    let again = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(again.status, 400, "{}", again.text());
    assert!(error_of(&again).starts_with("Unknown Farcaster sign-in"));
}

#[tokio::test]
async fn connect_returns_as_soon_as_the_client_approves() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let message = c.msg().text();
    let waiting = connect(&s, &c.token, DEVICE_A);
    let approving = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        approve(&s, &c, &message, ALICE_KEY, 1).await;
    };
    let t0 = Instant::now();
    let (r, ()) = tokio::join!(waiting, approving);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
}

#[tokio::test]
async fn the_same_fid_logs_into_the_same_account_on_any_device() {
    let s = start(quick()).await;
    let c = open(&s).await;
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    let first = connect(&s, &c.token, DEVICE_A).await.json();

    // The frame stores the key ciphertext of the new account.
    let auth = format!("Bearer {}", first["session"].as_str().unwrap());
    let ciphertext = base64::engine::general_purpose::STANDARD.encode([7u8; 60]);
    let r = common::request(
        s.frame_addr.unwrap(),
        "POST",
        "/w/v1/key",
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
        ],
        &json_body(&json!({ "keyCiphertext": ciphertext, "address": ALICE_CUSTODY })),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());

    // Another device, no approval link: the custody signature is the proof.
    let c2 = open_for(&s, None, "demo-project", DEVICE_B).await;
    approve(&s, &c2, &c2.msg().text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c2.token, DEVICE_B).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let second = r.json();
    assert_eq!(second["userId"], first["userId"]);
    assert_eq!(second["kek"], first["kek"]);
    assert_eq!(second["keyCiphertext"], ciphertext);
    assert_ne!(second["session"], first["session"]);
}

#[tokio::test]
async fn a_signature_by_another_key_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    // A message naming alice's custody address, signed by someone else.
    approve(&s, &c, &c.msg().text(), OTHER_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "The Farcaster signature does not match the account's custody address"
    );
}

#[tokio::test]
async fn a_message_naming_another_address_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let other = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let msg = Msg {
        address: other,
        ..c.msg()
    };
    approve(&s, &c, &msg.text(), OTHER_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "The Farcaster signature does not match the account's custody address"
    );
}

#[tokio::test]
async fn a_wrong_nonce_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let msg = Msg {
        nonce: "abcdef0123456789abcdef0123456789",
        ..c.msg()
    };
    approve(&s, &c, &msg.text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "The Farcaster message's nonce is not this sign-in's"
    );
}

#[tokio::test]
async fn a_message_for_another_domain_or_uri_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let msg = Msg {
        domain: "evil.example",
        ..c.msg()
    };
    approve(&s, &c, &msg.text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "The Farcaster message is for another domain (evil.example, expected 127.0.0.1:4173)"
    );

    let c = open(&s).await;
    let msg = Msg {
        uri: "https://evil.example",
        ..c.msg()
    };
    approve(&s, &c, &msg.text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(error_of(&r).starts_with("The Farcaster message is for another URI"));
}

#[tokio::test]
async fn an_expired_message_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let msg = Msg {
        expiration: Some(iso(now_s() - 60)),
        ..c.msg()
    };
    approve(&s, &c, &msg.text(), ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(error_of(&r), "The Farcaster message has expired");
}

#[tokio::test]
async fn a_message_without_the_fid_resource_or_for_an_unregistered_fid_is_refused() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let text = c
        .msg()
        .text()
        .replace("\nResources:\n- farcaster://fid/1", "");
    approve(&s, &c, &text, ALICE_KEY, 1).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(
        error_of(&r).starts_with("The Farcaster message names no account"),
        "{}",
        r.text()
    );

    let c = open(&s).await;
    let msg = Msg { fid: 2, ..c.msg() };
    approve(&s, &c, &msg.text(), ALICE_KEY, 2).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(error_of(&r), "Unknown Farcaster account (fid 2)");

    // The fid the client reports must be the message's.
    let c = open(&s).await;
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 2).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
}

#[tokio::test]
async fn an_unknown_or_malformed_channel_is_refused() {
    let s = start(quick()).await;
    let r = connect(&s, "NOSUCHCHANNEL234", DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "Unknown Farcaster sign-in: ask for a new link"
    );
    // A channel opened at the relay by someone else is not one of the service's.
    let r = common::request(
        s.addr,
        "POST",
        "/farcaster-relay/v1/channel",
        &[("Content-Type", "application/json")],
        &json_body(&json!({ "siweUri": DAPP, "domain": DAPP_DOMAIN })),
    )
    .await;
    let foreign = r.json()["channelToken"].as_str().unwrap().to_string();
    assert_eq!(connect(&s, &foreign, DEVICE_A).await.status, 400);

    for body in [
        json!({ "channelToken": "bad token", "deviceId": DEVICE_A }),
        json!({ "channelToken": "A".repeat(200), "deviceId": DEVICE_A }),
        json!({ "channelToken": "ABCD2345", "deviceId": "short" }),
        json!({ "deviceId": DEVICE_A }),
    ] {
        let r = frame_post(&s, "/w/v1/farcaster/connect", &body).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
    }
}

#[tokio::test]
async fn an_expired_channel_is_refused() {
    let s = start(FarcasterConfig {
        channel_ttl: Duration::from_millis(400),
        ..quick()
    })
    .await;
    let c = open(&s).await;
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 410, "{}", r.text());
    assert_eq!(error_of(&r), "The Farcaster sign-in expired: start again");

    // Expiring while the long-poll waits.
    let c = open(&s).await;
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 410, "{}", r.text());
}

#[tokio::test]
async fn a_newer_connect_request_replaces_an_older_one() {
    let s = start(quick()).await;
    let c = open(&s).await;
    let older = connect(&s, &c.token, DEVICE_A);
    let newer = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let n = connect(&s, &c.token, DEVICE_A);
        let a = async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
        };
        tokio::join!(n, a).0
    };
    let (old, new) = tokio::join!(older, newer);
    assert_eq!(old.status, 409, "{}", old.text());
    assert_eq!(new.status, 200, "{}", new.text());
}

#[tokio::test]
async fn a_farcaster_sign_in_connected_from_another_device_is_refused_and_burned() {
    let s = start(quick()).await;
    // Opened by device A (the attacker), approved with its own Farcaster account ...
    let c = open(&s).await;
    approve(&s, &c, &c.msg().text(), ALICE_KEY, 1).await;
    // ... then handed to the victim's frame (device B): refused, and the channel forgotten.
    let r = connect(&s, &c.token, DEVICE_B).await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(error_of(&r), "This sign-in was started on another device");
    let r = connect(&s, &c.token, DEVICE_A).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "Unknown Farcaster sign-in: ask for a new link"
    );
}

#[tokio::test]
async fn the_same_fid_in_another_project_is_another_account() {
    let s = start(quick()).await;
    let first = log_in(&s, None, "demo-project", DEVICE_A).await.json();
    let again = log_in(&s, None, "demo-project", DEVICE_B).await.json();
    assert_eq!(again["userId"], first["userId"]);
    let other = log_in(&s, None, "other-project", DEVICE_A).await;
    assert_eq!(other.status, 200, "{}", other.text());
    let other = other.json();
    assert_ne!(other["userId"], first["userId"]);
    assert_ne!(other["kek"], first["kek"]);
    let auth = format!("Bearer {}", other["session"].as_str().unwrap());
    let info = common::request(
        s.frame_addr.unwrap(),
        "GET",
        "/w/v1/session",
        &[("Authorization", auth.as_str())],
        b"",
    )
    .await
    .json();
    assert_eq!(info["projectId"], "other-project");
    assert_eq!(info["userName"], "alice");
}

#[tokio::test]
async fn a_flood_of_logins_from_another_address_never_locks_out_an_existing_account() {
    let s = start_with(
        quick(),
        WalletConfig {
            max_entries: 12,
            max_entries_per_client: 4,
            ..WalletConfig::default()
        },
    )
    .await;
    let first = log_in(&s, None, "demo-project", DEVICE_A).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let flood = Some(OTHER_CLIENT);
    // Sessions: 30 logins into one account from 127.0.0.2 (three times the table) ...
    for i in 0..30 {
        let r = log_in(&s, flood, "flood-project", DEVICE_B).await;
        assert_eq!(r.status, 200, "{i}: {}", r.text());
    }
    // ... accounts: one per project until the address holds its share, then refused.
    let mut refused = None;
    for i in 0..12 {
        let r = log_in(&s, flood, &format!("flood-{i}"), DEVICE_B).await;
        if r.status != 200 {
            refused = Some((i, r));
            break;
        }
    }
    let (i, r) = refused.expect("the flood is refused new accounts at some point");
    assert_eq!(
        i, 3,
        "its share is 4 accounts (flood-project made the first)"
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(
        error_of(&r),
        "Too many new accounts from your network: try again later"
    );
    // The existing account logs in and gets a session.
    let again = log_in(&s, None, "demo-project", DEVICE_A).await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.json()["userId"], first.json()["userId"]);
    // And so does a newcomer from elsewhere.
    let newcomer = log_in(
        &s,
        Some("127.0.0.3".parse().unwrap()),
        "new-project",
        DEVICE_A,
    )
    .await;
    assert_eq!(newcomer.status, 200, "{}", newcomer.text());
}

// ---------------------------------------------------------------------------------------------------------
// The demo Farcaster client page

#[tokio::test]
async fn the_demo_client_page_is_served_with_a_strict_csp_and_not_its_sources() {
    let s = start(quick()).await;
    let r = common::get(s.addr, "/demo/farcaster/?channelToken=ABCD2345").await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    let html = r.text();
    for needle in [
        "id=\"fc-approve\"",
        "id=\"fc-reject\"",
        "id=\"fc-status\"",
        "/demo/farcaster/dist/farcaster-client.js",
    ] {
        assert!(html.contains(needle), "{needle}");
    }
    assert!(!html.contains("<script>"), "no inline script");
    assert_eq!(
        common::get(s.addr, "/demo/farcaster/farcaster.css")
            .await
            .status,
        200
    );
    for hidden in [
        "/demo/farcaster/src/client.js",
        "/demo/farcaster/build.mjs",
        "/demo/farcaster/../server/Cargo.toml",
        "/demo/farcaster/dist/../build.mjs",
    ] {
        assert_eq!(common::get(s.addr, hidden).await.status, 404, "{hidden}");
    }
    // The bundle, when `node demo/farcaster/build.mjs` has run.
    if common::repo_root()
        .join("demo/farcaster/dist/farcaster-client.js")
        .is_file()
    {
        let r = common::get(s.addr, "/demo/farcaster/dist/farcaster-client.js").await;
        assert_eq!(r.status, 200);
        assert!(r
            .header("content-type")
            .unwrap()
            .starts_with("text/javascript"));
    }
}
