//! Native tests of the bridge: the JSON surface driven end to end against a fake relay and a tiny
//! wallet built on the core's public crypto, the QR SVG (parsed as XML, rasterised and decoded
//! with the independent `rqrr` decoder) and the relay auth URL.

use serde_json::{json, Value};
use wm_core::ui::qr::{logo_area, EcLevel, QrCode};
use wm_core::connect::wc::auth::verify_jwt;
use wm_core::connect::wc::crypto::{self, KeyPair};
use wm_core::connect::wc::pairing::PairingUri;
use wm_core::connect::wc::{hex_decode_array, hex_encode};

use super::*;

const T0: f64 = 1_700_000_000_000.0;
const ADDR: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";
const CONFIG: &str = r#"{"metadata":{"name":"Demo dapp","description":"wallet-modal demo","url":"https://demo.example","icons":["https://demo.example/icon.png"]}}"#;

fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// Deterministic "random" bytes: sha256 of a counter.
fn rng_bytes(counter: &mut u64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        *counter += 1;
        out.extend_from_slice(&crypto::sha256(&counter.to_le_bytes()));
    }
    out.truncate(n);
    out
}

/// What the dapp published through the relay.
#[derive(Debug, Clone)]
struct Published {
    topic: String,
    message: String,
    tag: u64,
}

/// The host: the client behind the JSON API, a fake relay that answers every request, and the
/// record of what went out.
struct Host {
    wc: WcClient,
    now: f64,
    rng: u64,
    published: Vec<Published>,
    subscribed: Vec<String>,
    events: Vec<Value>,
    push_seq: u64,
}

impl Host {
    fn new() -> Host {
        let mut h = Host {
            wc: WcClient::from_config(CONFIG).unwrap(),
            now: T0,
            rng: 0,
            published: Vec::new(),
            subscribed: Vec::new(),
            events: Vec::new(),
            push_seq: 0,
        };
        h.feed(json!("connected"));
        h
    }

    /// Tops up entropy, feeds one input as JSON, plays the relay's answers back in.
    fn feed(&mut self, input: Value) -> Value {
        let bytes = rng_bytes(&mut self.rng, self.wc.entropy_wanted());
        self.wc.add_entropy(&bytes);
        let step = parse(&self.wc.handle(&input.to_string(), self.now));
        assert!(step.get("error").is_none(), "{input} → {step}");
        let mut replies = Vec::new();
        for o in step["outputs"].as_array().unwrap() {
            match o["type"].as_str().unwrap() {
                "event" => self.events.push(o["value"].clone()),
                "send" => replies.extend(self.relay(o["value"].as_str().unwrap())),
                other => panic!("unknown output {other}"),
            }
        }
        for r in replies {
            self.feed(json!({ "frame": r }));
        }
        step
    }

    fn relay(&mut self, frame: &str) -> Option<String> {
        let v = parse(frame);
        let method = v["method"].as_str()?; // an acknowledgement of a push
        let p = &v["params"];
        let result = match method {
            "irn_subscribe" => {
                let topic = p["topic"].as_str().unwrap().to_string();
                let sub = hex_encode(&crypto::sha256(topic.as_bytes()));
                self.subscribed.push(topic);
                json!(sub)
            }
            "irn_batchSubscribe" => {
                let topics: Vec<String> = p["topics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect();
                let subs: Vec<String> = topics
                    .iter()
                    .map(|t| hex_encode(&crypto::sha256(t.as_bytes())))
                    .collect();
                self.subscribed.extend(topics);
                json!(subs)
            }
            "irn_publish" => {
                self.published.push(Published {
                    topic: p["topic"].as_str().unwrap().into(),
                    message: p["message"].as_str().unwrap().into(),
                    tag: p["tag"].as_u64().unwrap(),
                });
                json!(true)
            }
            "irn_unsubscribe" => json!(true),
            other => panic!("unexpected relay method {other}"),
        };
        Some(json!({ "id": v["id"], "jsonrpc": "2.0", "result": result }).to_string())
    }

    /// The relay pushes a message published by the wallet.
    fn push(&mut self, topic: &str, message: &str, tag: u64) -> Value {
        self.push_seq += 1;
        let sub = hex_encode(&crypto::sha256(topic.as_bytes()));
        let frame = json!({
            "id": (1_800_000_000_000_000_000u64 + self.push_seq).to_string(),
            "jsonrpc": "2.0",
            "method": "irn_subscription",
            "params": { "id": sub, "data": { "topic": topic, "message": message, "publishedAt": self.now as u64, "tag": tag } },
        });
        self.feed(json!({ "frame": frame.to_string() }))
    }

    fn event(&self, kind: &str) -> Option<&Value> {
        self.events.iter().rev().find(|e| e["type"] == kind)
    }

    fn connect(&mut self) -> String {
        let step = self.feed(json!({ "command": { "connect": {
            "optionalNamespaces": { "eip155": {
                "chains": ["eip155:1", "eip155:137"],
                "methods": ["personal_sign", "eth_sendTransaction"],
                "events": ["chainChanged", "accountsChanged"],
            } },
        } } }));
        let uri = step["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["type"] == "event" && o["value"]["type"] == "pairingUri")
            .unwrap_or_else(|| panic!("a pairing uri event in {step}"))["value"]["uri"]
            .as_str()
            .unwrap()
            .to_string();
        uri
    }
}

/// A wallet made of the core's public crypto.
struct Wallet {
    keys: KeyPair,
    pairing_key: [u8; 32],
    pairing_topic: String,
    session_key: [u8; 32],
    proposal: Value,
    seq: u8,
}

impl Wallet {
    fn scan(host: &Host, uri: &str) -> Wallet {
        let uri = PairingUri::parse(uri).unwrap();
        let p = host
            .published
            .iter()
            .find(|p| p.topic == uri.topic)
            .expect("the proposal on the pairing topic");
        assert_eq!(p.tag, 1100);
        let proposal = parse(
            std::str::from_utf8(&crypto::decrypt_type0(&uri.sym_key, &p.message).unwrap()).unwrap(),
        );
        assert_eq!(proposal["method"], "wc_sessionPropose");
        Wallet {
            keys: KeyPair::from_secret([0x5a; 32]),
            pairing_key: uri.sym_key,
            pairing_topic: uri.topic,
            session_key: [0; 32],
            proposal,
            seq: 0,
        }
    }

    fn seal(&mut self, key: &[u8; 32], v: &Value) -> String {
        self.seq += 1;
        crypto::encrypt_type0(key, &[self.seq; 12], v.to_string().as_bytes())
    }

    fn session_topic(&self) -> String {
        crypto::topic_of(&self.session_key)
    }

    fn approve(&mut self, host: &mut Host) {
        let proposer = self.proposal["params"]["proposer"]["publicKey"]
            .as_str()
            .unwrap();
        self.session_key = self
            .keys
            .sym_key_with(&hex_decode_array::<32>(proposer).unwrap())
            .unwrap();
        let answer = json!({ "id": self.proposal["id"], "jsonrpc": "2.0", "result": {
            "relay": { "protocol": "irn" }, "responderPublicKey": hex_encode(&self.keys.public()) } });
        let msg = self.seal(&self.pairing_key.clone(), &answer);
        let topic = self.pairing_topic.clone();
        host.push(&topic, &msg, 1101);
    }

    fn send(&mut self, host: &mut Host, v: &Value, tag: u64) {
        let msg = self.seal(&self.session_key.clone(), v);
        host.push(&self.session_topic(), &msg, tag);
    }

    fn settle(&mut self, host: &mut Host) {
        let settle = json!({ "id": 1_700_000_000_500_001u64, "jsonrpc": "2.0", "method": "wc_sessionSettle", "params": {
            "relay": { "protocol": "irn" },
            "controller": { "publicKey": hex_encode(&self.keys.public()), "metadata": { "name": "Test wallet", "description": "", "url": "https://wallet.example", "icons": [] } },
            "namespaces": { "eip155": {
                "accounts": [format!("eip155:1:{ADDR}"), format!("eip155:137:{ADDR}")],
                "methods": ["personal_sign", "eth_sendTransaction"],
                "events": ["chainChanged", "accountsChanged"],
            } },
            "expiry": (host.now / 1000.0) as u64 + 7 * 86_400,
        } });
        self.send(host, &settle, 1102);
    }

    /// The last message the dapp published on the session topic, decrypted.
    fn read_last(&self, host: &Host) -> (Value, u64) {
        let topic = self.session_topic();
        let p = host
            .published
            .iter()
            .rev()
            .find(|p| p.topic == topic)
            .expect("a message on the session topic");
        let plain = crypto::decrypt_type0(&self.session_key, &p.message).unwrap();
        (parse(std::str::from_utf8(&plain).unwrap()), p.tag)
    }
}

fn settled() -> (Host, Wallet) {
    let mut host = Host::new();
    let uri = host.connect();
    let mut wallet = Wallet::scan(&host, &uri);
    wallet.approve(&mut host);
    wallet.settle(&mut host);
    assert!(host.event("sessionSettled").is_some(), "{:?}", host.events);
    (host, wallet)
}

// ----- the client through JSON -------------------------------------------------------------

#[test]
fn connect_emits_a_pairing_uri_for_the_subscribed_topic_and_publishes_the_proposal() {
    let mut host = Host::new();
    let uri = host.connect();
    assert!(uri.starts_with("wc:"), "{uri}");
    let parsed = PairingUri::parse(&uri).unwrap();
    assert_eq!(parsed.topic, crypto::topic_of(&parsed.sym_key));
    assert!(uri.contains("relay-protocol=irn"));
    assert_eq!(parsed.expiry_timestamp, Some((T0 / 1000.0) as u64 + 240));
    assert_eq!(host.subscribed, vec![parsed.topic.clone()]);
    assert_eq!(host.wc.pairing_uri().as_deref(), Some(uri.as_str()));
    let wallet = Wallet::scan(&host, &uri);
    assert_eq!(
        wallet.proposal["params"]["proposer"]["metadata"]["name"],
        "Demo dapp"
    );
    assert_eq!(
        wallet.proposal["params"]["optionalNamespaces"]["eip155"]["chains"],
        json!(["eip155:1", "eip155:137"])
    );
    // The pairing expires: a deadline is set, and ticking past it reports the expiry.
    let deadline = host.wc.next_deadline().unwrap();
    assert!(deadline > T0 && deadline <= T0 + 240_000.0);
    host.now = deadline;
    host.feed(json!("tick"));
    assert!(host.event("pairingExpired").is_some(), "{:?}", host.events);
}

#[test]
fn a_wallet_approves_settles_and_answers_a_request_through_the_json_api() {
    let (mut host, mut wallet) = settled();
    // The dapp acknowledged the settlement with `true` (tag 1103).
    let (ack, tag) = wallet.read_last(&host);
    assert_eq!((ack["result"].clone(), tag), (json!(true), 1103));
    let session = parse(&host.wc.session().unwrap());
    assert_eq!(session["topic"], wallet.session_topic());
    assert_eq!(
        session["namespaces"]["eip155"]["accounts"][0],
        format!("eip155:1:{ADDR}")
    );
    assert_eq!(host.wc.pairing_uri(), None);

    let step = host.feed(json!({ "command": { "request": {
        "topic": wallet.session_topic(), "chainId": "eip155:1",
        "method": "personal_sign", "params": ["0x68656c6c6f", ADDR],
    } } }));
    assert!(step["nextDeadlineMs"].is_u64());
    let (request, tag) = wallet.read_last(&host);
    assert_eq!(
        (request["method"].as_str(), tag),
        (Some("wc_sessionRequest"), 1108)
    );
    assert_eq!(request["params"]["request"]["method"], "personal_sign");
    let answer = json!({ "id": request["id"], "jsonrpc": "2.0", "result": "0xsig" });
    wallet.send(&mut host, &answer, 1109);
    let result = host.event("sessionRequestResult").unwrap();
    assert_eq!(result["id"], request["id"]);
    assert_eq!(result["outcome"], json!({ "result": "0xsig" }));

    host.feed(json!({ "command": "disconnect" }));
    assert_eq!(host.event("sessionDeleted").unwrap()["code"], 6000);
    assert_eq!(host.wc.session(), None);
}

#[test]
fn malformed_inputs_come_back_as_error_objects_and_change_nothing() {
    let mut host = Host::new();
    host.connect();
    let before = host.wc.to_json();
    let entropy = rng_bytes(&mut host.rng, 1024);
    host.wc.add_entropy(&entropy);
    for (input, now) in [
        ("not json", T0),
        ("{\"nope\":1}", T0),
        ("{\"command\":{\"request\":{}}}", T0),
        ("{\"frame\":\"{\\\"id\\\":\"}", T0),
        ("{\"frame\":\"[1,2,3]\"}", T0),
        ("\"tick\"", f64::NAN),
        ("\"tick\"", -1.0),
        ("\"tick\"", f64::INFINITY),
        ("", T0),
    ] {
        let out = parse(&host.wc.handle(input, now));
        assert!(
            out["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{input} → {out}"
        );
        assert_eq!(host.wc.to_json(), before, "{input} changed the state");
    }
    // A request without a session is refused with a code.
    let out = parse(&host.wc.handle(
        r#"{"command":{"request":{"topic":"00","chainId":"eip155:1","method":"personal_sign","params":[]}}}"#,
        T0,
    ));
    assert_eq!(out["code"], "invalidState", "{out}");
}

#[test]
fn inputs_without_entropy_are_refused_with_the_bytes_needed() {
    let mut wc = WcClient::from_config(CONFIG).unwrap();
    assert_eq!(wc.entropy_wanted(), 1024);
    let out = parse(&wc.handle("\"connected\"", T0));
    assert_eq!(out["code"], "needEntropy");
    assert_eq!(out["needed"], 128);
    assert!(out["error"].as_str().unwrap().contains("random bytes"));
    wc.add_entropy(&[7; 200]);
    assert_eq!(wc.entropy_wanted(), 824);
    assert!(parse(&wc.handle("\"connected\"", T0))
        .get("error")
        .is_none());
    // Entropy also goes in as JSON.
    let out = parse(&wc.handle(r#"{"entropy":[1,2,3]}"#, T0));
    assert!(out.get("error").is_none(), "{out}");
}

#[test]
fn a_second_connect_within_a_second_is_too_soon_with_the_retry_time() {
    let mut host = Host::new();
    host.connect();
    host.wc.add_entropy(&rng_bytes(&mut host.rng, 1024));
    let out = parse(&host.wc.handle(
        r#"{"command":{"connect":{"optionalNamespaces":{"eip155":{"chains":["eip155:1"],"methods":["personal_sign"],"events":[]}}}}}"#,
        T0 + 10.0,
    ));
    assert_eq!(out["code"], "tooSoon", "{out}");
    assert_eq!(out["retryAtMs"].as_f64(), Some(T0 + 1000.0));
}

#[test]
fn state_survives_to_json_and_from_json_during_pairing_and_in_a_session() {
    // Mid-proposal: the same URI comes back after a reload, and the wallet can still approve.
    let mut host = Host::new();
    let uri = host.connect();
    let saved = host.wc.to_json();
    host.wc = WcClient::restore(&saved).unwrap();
    assert_eq!(host.wc.to_json(), saved);
    assert_eq!(host.wc.pairing_uri().as_deref(), Some(uri.as_str()));
    assert_eq!(
        host.wc.entropy_wanted(),
        1024,
        "the entropy pool is not persisted"
    );
    host.feed(json!("connected"));
    let mut wallet = Wallet::scan(&host, &uri);
    wallet.approve(&mut host);
    wallet.settle(&mut host);
    assert!(host.event("sessionSettled").is_some(), "{:?}", host.events);

    // In a session: the restored client keeps the session and still talks to the wallet.
    let session = host.wc.session().unwrap();
    host.wc = WcClient::restore(&host.wc.to_json()).unwrap();
    assert_eq!(host.wc.session(), Some(session));
    host.feed(json!("connected"));
    host.feed(json!({ "command": "ping" }));
    let (ping, tag) = wallet.read_last(&host);
    assert_eq!(
        (ping["method"].as_str(), tag),
        (Some("wc_sessionPing"), 1114)
    );
    wallet.send(
        &mut host,
        &json!({ "id": ping["id"], "jsonrpc": "2.0", "result": true }),
        1115,
    );
    assert_eq!(host.event("pingResult").unwrap()["ok"], true);
}

#[test]
fn bad_configs_and_bad_saved_states_are_errors() {
    assert!(WcClient::from_config("{}")
        .unwrap_err()
        .contains("invalid WalletConnect config"));
    assert!(WcClient::from_config("nope").is_err());
    let wc = WcClient::from_config(
        r#"{"metadata":{"name":"x"},"relay":{"timeoutMs":5000,"maxAttempts":2,"stringIds":true},"requestExpiryS":600}"#,
    )
    .unwrap();
    assert_eq!(parse(&wc.to_json())["config"]["requestExpiryS"], 600);
    assert_eq!(parse(&wc.to_json())["config"]["relay"]["timeoutMs"], 5000);
    assert!(WcClient::restore("garbage")
        .unwrap_err()
        .contains("invalid stored state"));
    // A state whose proposal key does not match its public key is refused.
    let mut host = Host::new();
    host.connect();
    let mut saved = parse(&host.wc.to_json());
    saved["proposal"]["publicKey"] = json!("00".repeat(32));
    assert!(WcClient::restore(&saved.to_string()).is_err());
}

// ----- QR ------------------------------------------------------------------------------------

/// Paints the SVG path's runs (`M x y h w v1 H x z`) into a bitmap, `scale` pixels a module,
/// viewBox included; returns (side in pixels, pixels).
fn rasterise(svg: &str, scale: usize) -> (usize, Vec<bool>) {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    let view: Vec<usize> = root
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(view[..2], [0, 0]);
    assert_eq!(view[2], view[3]);
    let side = view[2] * scale;
    let mut px = vec![false; side * side];
    let path = root.children().find(|n| n.has_tag_name("path")).unwrap();
    for run in path.attribute("d").unwrap().split('M').skip(1) {
        let nums: Vec<usize> = run
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let [x, y, w, one, back] = nums[..] else {
            panic!("run {run}")
        };
        assert_eq!((one, back), (1, x));
        for yy in y * scale..(y + 1) * scale {
            for xx in x * scale..(x + w) * scale {
                px[yy * side + xx] = true;
            }
        }
    }
    (side, px)
}

fn decode_image(side: usize, px: &[bool]) -> Vec<u8> {
    let mut img = rqrr::PreparedImage::prepare_from_bitmap(side, side, |x, y| px[y * side + x]);
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code found");
    let mut out = Vec::new();
    grids[0].decode_to(&mut out).expect("decodes");
    out
}

#[test]
fn qr_svg_of_a_pairing_uri_is_well_formed_and_decodes_back_to_the_uri() {
    let mut host = Host::new();
    let uri = host.connect();
    let svg = qr_svg_or_error(&uri, None).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(root.attribute("shape-rendering"), Some("crispEdges"));
    assert_eq!(root.attribute("aria-hidden"), Some("true"));
    let code = QrCode::encode(uri.as_bytes(), EcLevel::Q).unwrap();
    let side = (code.size() + 8).to_string();
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {side} {side}").as_str())
    );
    // The light centre square for the logo, in viewBox units.
    let (start, len) = logo_area(code.size());
    assert_eq!(
        root.attribute("data-logo"),
        Some(format!("{0} {0} {len}", start + 4).as_str())
    );
    let elements: Vec<_> = root.descendants().filter(|n| n.is_element()).collect();
    assert_eq!(elements.len(), 2, "only the svg and one path");
    assert_eq!(elements[1].attribute("fill"), Some("currentColor"));

    let (px_side, px) = rasterise(&svg, 4);
    assert_eq!(decode_image(px_side, &px), uri.as_bytes());
}

#[test]
fn qr_svg_label_is_escaped_and_reads_back_as_given() {
    let label = "Scan <this> & \"that\" with 'your' wallet\n→ 📱";
    let svg = qr_svg_or_error("wc:abc@2", Some(label)).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().attribute("aria-label"), Some(label));
    assert_eq!(doc.root_element().attribute("role"), Some("img"));
    assert_eq!(doc.root_element().attribute("aria-hidden"), None);
}

#[test]
fn qr_codes_of_every_level_and_many_lengths_decode_with_an_independent_decoder() {
    for ec in EcLevel::ALL {
        for len in [0usize, 1, 17, 50, 120, 187, 300, 600] {
            let data: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let code = QrCode::encode(&data, ec).unwrap();
            let grid = rqrr::SimpleGrid::from_func(code.size(), |x, y| code.is_dark(x, y));
            let mut out = Vec::new();
            let meta = rqrr::Grid::new(grid)
                .decode_to(&mut out)
                .unwrap_or_else(|e| panic!("{ec:?} {len}: {e:?}"));
            assert_eq!(out, data, "{ec:?} {len}");
            assert_eq!(meta.version.0, usize::from(code.version()));
            assert_eq!(meta.mask, u16::from(code.mask()));
        }
    }
    // One large symbol through the image path too.
    let text = "x".repeat(1000);
    let (side, px) = rasterise(&qr_svg_or_error(&text, None).unwrap(), 3);
    assert_eq!(decode_image(side, &px), text.as_bytes());
}

/// The logo area of an SVG (`data-logo="x y side"`, viewBox units) in pixels at `scale`.
fn logo_px(svg: &str, scale: usize) -> (usize, usize) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let v: Vec<usize> = doc
        .root_element()
        .attribute("data-logo")
        .expect("a logo area")
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(v[0], v[1], "square, centred");
    (v[0] * scale, v[2] * scale)
}

#[test]
fn pairing_codes_decode_with_the_logo_area_blank_or_covered() {
    // Pairing URIs of every length a session proposal gives (and more), each drawn with its
    // centre left light, then with the same square painted over dark, as a logo may read: both
    // decode with the independent decoder.
    let mut host = Host::new();
    let real = host.connect();
    let mut uris = vec![real.clone()];
    for len in [40usize, 90, 150, 178, 204, 240, 300, 420, 600] {
        if len < real.len() {
            uris.push(real[..len].to_string());
            continue;
        }
        let mut u = format!("{real}&x=");
        while u.len() < len {
            u.push(char::from(b'a' + (u.len() % 26) as u8));
        }
        uris.push(u);
    }
    for uri in &uris {
        let svg = qr_svg_or_error(uri, None).unwrap();
        let scale = 3;
        let (side, mut px) = rasterise(&svg, scale);
        let (at, len) = logo_px(&svg, scale);
        assert!(len > 0);
        for y in at..at + len {
            for x in at..at + len {
                assert!(!px[y * side + x], "{uri}: the logo area is left light");
            }
        }
        assert_eq!(decode_image(side, &px), uri.as_bytes(), "blank centre: {uri}");
        for y in at..at + len {
            for x in at..at + len {
                px[y * side + x] = true;
            }
        }
        assert_eq!(decode_image(side, &px), uri.as_bytes(), "covered centre: {uri}");
    }
}

#[test]
fn qr_svg_of_text_too_long_for_version_40_is_an_error() {
    let err = qr_svg_or_error(&"a".repeat(1664), None).unwrap_err();
    assert_eq!(
        err,
        "data too long for a QR code: 1664 bytes, at most 1663 at level Q"
    );
    assert!(qr_svg_or_error(&"a".repeat(1663), None).is_ok());
}

// ----- relay auth ----------------------------------------------------------------------------

#[test]
fn relay_auth_url_carries_a_token_the_relay_verifies() {
    let seed = "70".repeat(32);
    let out = parse(&relay_auth_url_json(
        &json!({
            "seed": seed, "sub": "ab".repeat(32), "relayUrl": "wss://relay.example",
            "projectId": "p 1", "nowMs": T0,
        })
        .to_string(),
    ));
    let url = out["url"].as_str().unwrap();
    assert!(url.starts_with("wss://relay.example?auth="), "{url}");
    assert!(
        url.contains("&projectId=p%201&ua=wc-2%2Frust-wallet-modal-"),
        "{url}"
    );
    let token = url
        .split("auth=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let claims = verify_jwt(token, (T0 / 1000.0) as u64, Some("wss://relay.example")).unwrap();
    assert_eq!(claims.iss, out["clientId"].as_str().unwrap());
    assert_eq!(out["expiresAtMs"].as_f64(), Some(T0 + 86_400_000.0));

    for bad in [
        json!({}),
        json!({ "seed": "zz", "sub": "ab", "relayUrl": "wss://r", "projectId": "p", "nowMs": T0 }),
        json!({ "seed": seed, "sub": "not hex", "relayUrl": "wss://r", "projectId": "p", "nowMs": T0 }),
        json!({ "seed": seed, "sub": "ab", "relayUrl": "wss://r", "projectId": "p", "nowMs": -5 }),
    ] {
        assert!(
            parse(&relay_auth_url_json(&bad.to_string()))["error"].is_string(),
            "{bad}"
        );
    }
}

#[test]
fn proposal_namespaces_group_configured_chains_by_family_with_default_methods() {
    let out: serde_json::Value =
        serde_json::from_str(&proposal_namespaces_json(r#"["eip155:1","eip155:31337","solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp","eip155:1"]"#)).unwrap();
    assert_eq!(out["eip155"]["chains"], serde_json::json!(["eip155:1", "eip155:31337"]));
    let methods: Vec<&str> = out["eip155"]["methods"].as_array().unwrap().iter().filter_map(|m| m.as_str()).collect();
    assert!(methods.contains(&"personal_sign") && methods.contains(&"eth_sendTransaction") && methods.contains(&"wallet_switchEthereumChain"));
    assert_eq!(out["eip155"]["events"], serde_json::json!(["chainChanged", "accountsChanged"]));
    assert_eq!(out["solana"]["chains"], serde_json::json!(["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"]));
    for bad in [r#"["eip155"]"#, r#"[]"#, r#"{"a":1}"#, "nope"] {
        let e: serde_json::Value = serde_json::from_str(&proposal_namespaces_json(bad)).unwrap();
        assert!(e["error"].is_string(), "{bad} -> {e}");
    }
}

#[test]
fn every_built_in_network_can_be_proposed() {
    let ids: Vec<String> = wm_core::chain::networks::builtin_networks().iter().map(|n| n.caip_network_id.clone()).collect();
    let out: serde_json::Value = serde_json::from_str(&proposal_namespaces_json(&serde_json::to_string(&ids).unwrap())).unwrap();
    assert!(out.get("error").is_none(), "{out}");
    let proposed: usize = out.as_object().unwrap().values().map(|ns| ns["chains"].as_array().unwrap().len()).sum();
    assert_eq!(proposed, ids.len());
}
