//! Two-sided tests of the sign client: the dapp ([`SignClient`]) talks through a tiny in-test
//! relay to a tiny in-test wallet built on the same crypto, message by message.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{json, Value};

use super::crypto::{self, KeyPair};
use super::namespaces::{optional_namespaces_for, ProposalNamespaces};
use super::pairing::PairingUri;
use super::rpc;
use super::sign::{
    Command, Event, Input, Metadata, Output, RequestOutcome, SignClient, SignConfig, Step,
};
use super::{hex_decode_array, hex_encode, Error};

const T0: u64 = 1_700_000_000_000;
const SOL: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const ADDR: &str = "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb";
const SOL_ADDR: &str = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv";

fn metadata() -> Metadata {
    Metadata {
        name: "Demo dapp".into(),
        description: "wallet-modal demo".into(),
        url: "https://demo.example".into(),
        icons: vec!["https://demo.example/icon.png".into()],
        redirect: None,
    }
}

fn optional() -> ProposalNamespaces {
    optional_namespaces_for(&["eip155:1", "eip155:137", SOL]).unwrap()
}

/// Deterministic "random" bytes for tests: sha256 of a counter.
struct TestRng(u64);
impl TestRng {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            self.0 += 1;
            out.extend_from_slice(&crypto::sha256(&self.0.to_le_bytes()));
        }
        out.truncate(n);
        out
    }
}

/// A message the dapp published.
#[derive(Debug, Clone)]
struct Published {
    topic: String,
    message: String,
    ttl: u64,
    tag: u32,
    prompt: bool,
}

/// The dapp, the relay and the wallet's mailbox in one place.
struct World {
    dapp: SignClient,
    now: u64,
    rng: TestRng,
    /// Published by the dapp, in order.
    published: Vec<Published>,
    /// Topics the dapp is subscribed to at the relay.
    subscribed: BTreeMap<String, String>,
    /// Acks the dapp sent for pushes (raw frames).
    acks: Vec<String>,
    /// Every event, in order.
    events: Vec<Event>,
    /// Whether the fake relay answers requests (false simulates a silent relay).
    relay_answers: bool,
    push_seq: u64,
}

impl World {
    fn new() -> Self {
        let mut w = World {
            dapp: SignClient::new(SignConfig::new(metadata())),
            now: T0,
            rng: TestRng(0),
            published: Vec::new(),
            subscribed: BTreeMap::new(),
            acks: Vec::new(),
            events: Vec::new(),
            relay_answers: true,
            push_seq: 0,
        };
        w.feed(Input::Connected);
        w
    }

    /// Tops up entropy, handles the input, lets the relay answer; returns the first step.
    fn try_feed(&mut self, input: Input) -> Result<Step, Error> {
        let bytes = self.rng.bytes(self.dapp.entropy_wanted());
        self.dapp.handle(self.now, Input::Entropy(bytes)).unwrap();
        let step = self.dapp.handle(self.now, input)?;
        self.absorb(&step);
        Ok(step)
    }

    fn feed(&mut self, input: Input) -> Step {
        self.try_feed(input).unwrap()
    }

    fn command(&mut self, c: Command) -> Step {
        self.feed(Input::Command(c))
    }

    fn absorb(&mut self, step: &Step) {
        let mut replies = Vec::new();
        for o in &step.outputs {
            match o {
                Output::Event(e) => self.events.push(e.clone()),
                Output::Send(frame) => {
                    if let Some(reply) = self.relay(frame) {
                        replies.push(reply);
                    }
                }
            }
        }
        for r in replies {
            let bytes = self.rng.bytes(self.dapp.entropy_wanted());
            self.dapp.handle(self.now, Input::Entropy(bytes)).unwrap();
            let step = self.dapp.handle(self.now, Input::Frame(r)).unwrap();
            self.absorb(&step);
        }
    }

    /// The fake relay: records what the dapp does and answers its requests.
    fn relay(&mut self, frame: &str) -> Option<String> {
        let v: Value = serde_json::from_str(frame).unwrap();
        let id = v["id"].clone();
        assert!(id.is_string(), "relay ids go out as strings: {frame}");
        let Some(method) = v["method"].as_str() else {
            // A response: the ack of a push.
            assert_eq!(v["result"], Value::Bool(true), "{frame}");
            self.acks.push(frame.to_string());
            return None;
        };
        let p = &v["params"];
        let result = match method {
            "irn_subscribe" => {
                let topic = p["topic"].as_str().unwrap().to_string();
                let sub = format!("sub-{}", &topic[..8]);
                self.subscribed.insert(topic, sub.clone());
                json!(sub)
            }
            "irn_batchSubscribe" => {
                let subs: Vec<String> = p["topics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| {
                        let t = t.as_str().unwrap().to_string();
                        let sub = format!("sub-{}", &t[..8]);
                        self.subscribed.insert(t, sub.clone());
                        sub
                    })
                    .collect();
                json!(subs)
            }
            "irn_unsubscribe" => {
                let topic = p["topic"].as_str().unwrap();
                assert_eq!(
                    self.subscribed.remove(topic).as_deref(),
                    p["id"].as_str(),
                    "unsubscribe with the subscription id"
                );
                json!(true)
            }
            "irn_publish" => {
                self.published.push(Published {
                    topic: p["topic"].as_str().unwrap().into(),
                    message: p["message"].as_str().unwrap().into(),
                    ttl: p["ttl"].as_u64().unwrap(),
                    tag: p["tag"].as_u64().unwrap() as u32,
                    prompt: p["prompt"].as_bool().unwrap_or(false),
                });
                json!(true)
            }
            other => panic!("unexpected relay method {other}"),
        };
        // Alternate number and string ids in answers: both must match.
        let id = if self.published.len().is_multiple_of(2) {
            id
        } else {
            json!(id.as_str().unwrap().parse::<u64>().unwrap())
        };
        self.relay_answers
            .then(|| json!({"id": id, "jsonrpc": "2.0", "result": result}).to_string())
    }

    /// The relay pushes a message to the dapp.
    fn push(&mut self, topic: &str, message: &str, tag: u32) -> Step {
        self.push_seq += 1;
        let frame = json!({
            "id": format!("{}", 1_800_000_000_000_000_000u64 + self.push_seq),
            "jsonrpc": "2.0",
            "method": "irn_subscription",
            "params": {"id": format!("sub-{}", &topic[..8.min(topic.len())]), "data": {"topic": topic, "message": message, "publishedAt": self.now, "tag": tag}},
        });
        self.feed(Input::Frame(frame.to_string()))
    }

    fn advance(&mut self, ms: u64) -> Step {
        self.now += ms;
        self.feed(Input::Tick)
    }

    fn last_published(&self) -> &Published {
        self.published.last().unwrap()
    }

    fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}

/// The in-test wallet.
struct Wallet {
    keys: KeyPair,
    pairing_key: [u8; 32],
    pairing_topic: String,
    session_key: Option<[u8; 32]>,
    session_topic: Option<String>,
    proposal: Value,
    iv_seq: u8,
    id_seq: u64,
}

impl Wallet {
    /// Scans the URI and reads the proposal the dapp published on the pairing topic.
    fn scan(w: &World) -> Wallet {
        let uri = w
            .events
            .iter()
            .rev()
            .find_map(|e| {
                if let Event::PairingUri { uri } = e {
                    Some(uri.clone())
                } else {
                    None
                }
            })
            .expect("a pairing uri");
        let uri = PairingUri::parse(&uri).unwrap();
        let mut wallet = Wallet {
            keys: KeyPair::from_secret([0x5a; 32]),
            pairing_key: uri.sym_key,
            pairing_topic: uri.topic.clone(),
            session_key: None,
            session_topic: None,
            proposal: Value::Null,
            iv_seq: 0,
            id_seq: 0,
        };
        let p = w
            .published
            .iter()
            .rev()
            .find(|p| p.topic == uri.topic)
            .expect("a proposal");
        wallet.proposal = wallet.open(p);
        wallet
    }

    fn open(&self, p: &Published) -> Value {
        let key = if p.topic == self.pairing_topic {
            self.pairing_key
        } else {
            self.session_key.unwrap()
        };
        let plain = crypto::decrypt_type0(&key, &p.message).unwrap();
        serde_json::from_slice(&plain).unwrap()
    }

    fn seal(&mut self, key: &[u8; 32], v: &Value) -> String {
        self.iv_seq += 1;
        crypto::encrypt_type0(key, &[self.iv_seq; 12], v.to_string().as_bytes())
    }

    fn next_id(&mut self) -> u64 {
        self.id_seq += 1;
        1_700_000_000_500_000 + self.id_seq
    }

    /// Approves: answers the proposal on the pairing topic.
    fn approve(&mut self, w: &mut World) -> Step {
        let peer = hex_decode_array::<32>(
            self.proposal["params"]["proposer"]["publicKey"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        let key = self.keys.sym_key_with(&peer).unwrap();
        self.session_key = Some(key);
        self.session_topic = Some(crypto::topic_of(&key));
        let resp = json!({"id": self.proposal["id"], "jsonrpc": "2.0", "result": {
            "relay": {"protocol": "irn"}, "responderPublicKey": hex_encode(&self.keys.public())}});
        let msg = self.seal(&self.pairing_key.clone(), &resp);
        let topic = self.pairing_topic.clone();
        w.push(&topic, &msg, 1101)
    }

    fn settle_request(&mut self, w: &World, accounts: &[&str], expiry: u64) -> (u64, Value) {
        let mut namespaces = serde_json::Map::new();
        for a in accounts {
            let ns = a.split(':').next().unwrap();
            let entry = namespaces.entry(ns.to_string()).or_insert_with(|| {
                let methods = self.proposal["params"]["optionalNamespaces"][ns]["methods"].clone();
                json!({"accounts": [], "methods": if methods.is_null() { json!([]) } else { methods }, "events": ["chainChanged", "accountsChanged"]})
            });
            entry["accounts"].as_array_mut().unwrap().push(json!(a));
        }
        let _ = w;
        let id = self.next_id();
        let req = json!({"id": id, "jsonrpc": "2.0", "method": "wc_sessionSettle", "params": {
            "relay": {"protocol": "irn"},
            "controller": {"publicKey": hex_encode(&self.keys.public()), "metadata": {"name": "Test wallet", "description": "", "url": "https://wallet.example", "icons": []}},
            "namespaces": namespaces,
            "expiry": expiry,
        }});
        (id, req)
    }

    /// Sends a request or response on the session topic.
    fn send(&mut self, w: &mut World, v: &Value, tag: u32) -> Step {
        let key = self.session_key.unwrap();
        let msg = self.seal(&key, v);
        let topic = self.session_topic.clone().unwrap();
        w.push(&topic, &msg, tag)
    }

    fn settle(&mut self, w: &mut World, accounts: &[&str]) -> (u64, Step) {
        let (id, req) = self.settle_request(w, accounts, w.now / 1000 + 7 * 86_400);
        let step = self.send(w, &req, 1102);
        (id, step)
    }

    fn request(&mut self, w: &mut World, method: &str, params: Value, tag: u32) -> (u64, Step) {
        let id = self.next_id();
        let step = self.send(
            w,
            &json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params}),
            tag,
        );
        (id, step)
    }

    /// The last message the dapp published on the session topic, decrypted.
    fn read_last(&self, w: &World) -> (Value, Published) {
        let topic = self.session_topic.as_ref().unwrap();
        let p = w
            .published
            .iter()
            .rev()
            .find(|p| &p.topic == topic)
            .expect("a message on the session topic")
            .clone();
        (self.open(&p), p)
    }
}

fn connected() -> (World, Wallet) {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    wallet.settle(
        &mut w,
        &[
            &format!("eip155:1:{ADDR}"),
            &format!("eip155:137:{ADDR}"),
            &format!("{SOL}:{SOL_ADDR}"),
        ],
    );
    assert!(w.dapp.session().is_some(), "settled: {:?}", w.events);
    w.take_events();
    (w, wallet)
}

fn session_topic(w: &World) -> String {
    w.dapp.session().unwrap().topic.clone()
}

// ----- proposal ---------------------------------------------------------------------------

#[test]
fn connect_subscribes_publishes_the_proposal_and_shows_the_uri() {
    let mut w = World::new();
    let step = w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let frames: Vec<Value> = step
        .frames()
        .map(|f| serde_json::from_str(f).unwrap())
        .collect();
    assert_eq!(frames[0]["method"], "irn_subscribe");
    assert_eq!(frames[1]["method"], "irn_publish");
    let uri = match step.events().next() {
        Some(Event::PairingUri { uri }) => PairingUri::parse(uri).unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(uri.topic, crypto::topic_of(&uri.sym_key));
    assert_eq!(uri.expiry_timestamp, Some(T0 / 1000 + 240));
    assert_eq!(frames[0]["params"]["topic"], uri.topic.as_str());
    assert_eq!(w.subscribed.len(), 1);

    let p = w.last_published().clone();
    assert_eq!(
        (p.topic.as_str(), p.tag, p.ttl, p.prompt),
        (uri.topic.as_str(), 1100, 300, true)
    );
    let wallet = Wallet::scan(&w);
    let msg = &wallet.proposal;
    assert_eq!(msg["jsonrpc"], "2.0");
    assert_eq!(msg["method"], "wc_sessionPropose");
    let id = msg["id"].as_u64().expect("numeric sign id");
    assert!(
        (T0 * 1000..T0 * 1000 + 1000).contains(&id),
        "ms * 1000 + 3 digits: {id}"
    );
    let params = &msg["params"];
    assert_eq!(params["requiredNamespaces"], json!({}));
    assert_eq!(
        params["optionalNamespaces"]["eip155"]["chains"],
        json!(["eip155:1", "eip155:137"])
    );
    assert_eq!(
        params["optionalNamespaces"]["solana"]["chains"],
        json!([SOL])
    );
    assert!(params["optionalNamespaces"]["eip155"]["methods"]
        .as_array()
        .unwrap()
        .contains(&json!("personal_sign")));
    assert_eq!(
        params["optionalNamespaces"]["eip155"]["events"],
        json!(["chainChanged", "accountsChanged"])
    );
    assert_eq!(params["relays"], json!([{"protocol": "irn"}]));
    assert_eq!(params["proposer"]["metadata"]["name"], "Demo dapp");
    assert_eq!(
        params["proposer"]["metadata"]["icons"],
        json!(["https://demo.example/icon.png"])
    );
    assert_eq!(params["proposer"]["publicKey"].as_str().unwrap().len(), 64);
    assert_eq!(params["expiryTimestamp"], json!(T0 / 1000 + 240));
    assert_eq!(params["pairingTopic"], uri.topic.as_str());
    assert!(step.next_deadline_ms.is_some());
    assert_eq!(w.dapp.pairing_uri(), Some(uri.to_string()));
}

#[test]
fn connect_refuses_bad_namespaces_and_an_active_session() {
    let mut w = World::new();
    let mut bad = optional();
    bad.get_mut("eip155").unwrap().chains.push("eip155".into());
    let r = w.try_feed(Input::Command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: bad,
        session_properties: None,
    }));
    assert!(matches!(r, Err(Error::InvalidParams(_))));
    let r = w.try_feed(Input::Command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: BTreeMap::new(),
        session_properties: None,
    }));
    assert!(matches!(r, Err(Error::InvalidParams(_))));
    let (mut w, _) = connected();
    let r = w.try_feed(Input::Command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    }));
    assert!(matches!(r, Err(Error::InvalidState(_))));
}

#[test]
fn approval_derives_the_session_topic_and_subscribes_to_it() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    let step = wallet.approve(&mut w);
    let topic = wallet.session_topic.clone().unwrap();
    let sub = step
        .frames()
        .map(|f| serde_json::from_str::<Value>(f).unwrap())
        .find(|v| v["method"] == "irn_subscribe")
        .unwrap();
    assert_eq!(sub["params"]["topic"], topic.as_str());
    assert!(w.subscribed.contains_key(&topic));
    // The relay push was acknowledged, echoing its string id.
    assert!(w
        .acks
        .last()
        .unwrap()
        .starts_with(r#"{"id":"1800000000000000001","jsonrpc":"2.0","result":true}"#));
    assert!(w.dapp.session().is_none());
}

#[test]
fn settlement_is_acknowledged_and_the_session_reported() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    let pairing_topic = wallet.pairing_topic.clone();
    let (settle_id, _) = wallet.settle(
        &mut w,
        &[&format!("eip155:1:{ADDR}"), &format!("{SOL}:{SOL_ADDR}")],
    );
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(
        resp,
        json!({"id": settle_id, "jsonrpc": "2.0", "result": true})
    );
    assert_eq!((p.tag, p.ttl), (1103, 300));
    let session = match w
        .events
        .iter()
        .find(|e| matches!(e, Event::SessionSettled { .. }))
    {
        Some(Event::SessionSettled { session }) => session.clone(),
        _ => panic!("{:?}", w.events),
    };
    assert_eq!(session.topic, wallet.session_topic.clone().unwrap());
    assert_eq!(session.pairing_topic, pairing_topic);
    assert_eq!(
        session.accounts(),
        vec![format!("eip155:1:{ADDR}"), format!("{SOL}:{SOL_ADDR}")]
    );
    assert_eq!(session.controller, hex_encode(&wallet.keys.public()));
    assert_eq!(session.peer.metadata.name, "Test wallet");
    assert!(session.acknowledged);
    assert_eq!(session.expiry, T0 / 1000 + 7 * 86_400);
    assert_eq!(w.dapp.session(), Some(&session));
    // The pairing topic is released once settled.
    assert!(!w.subscribed.contains_key(&pairing_topic));
    assert_eq!(w.dapp.pairing_uri(), None);
}

fn settle_fails_with(accounts: &[&str], code: i64) {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    let (id, _) = wallet.settle(&mut w, accounts);
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(resp["id"], json!(id));
    assert_eq!(resp["error"]["code"], json!(code), "{resp}");
    assert_eq!(p.tag, 1103);
    assert!(w.dapp.session().is_none());
    assert!(
        w.events
            .iter()
            .any(|e| matches!(e, Event::ConnectFailed { code: c, .. } if *c == code)),
        "{:?}",
        w.events
    );
    assert!(
        w.subscribed.is_empty(),
        "every topic released: {:?}",
        w.subscribed
    );
}

#[test]
fn settlement_with_an_account_on_an_unproposed_chain_is_refused() {
    settle_fails_with(
        &[&format!("eip155:1:{ADDR}"), &format!("eip155:56:{ADDR}")],
        5100,
    );
}

#[test]
fn settlement_with_a_malformed_caip10_account_is_refused() {
    settle_fails_with(&["eip155:1"], 5103);
    settle_fails_with(&["eip155:1:0x ab"], 5103);
}

#[test]
fn settlement_in_an_unproposed_namespace_is_refused() {
    settle_fails_with(&["cosmos:cosmoshub-4:cosmos1qypq"], 5104);
}

#[test]
fn settlement_from_another_controller_or_expired_is_refused() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    let (_, mut req) =
        wallet.settle_request(&w, &[&format!("eip155:1:{ADDR}")], w.now / 1000 + 86_400);
    req["params"]["controller"]["publicKey"] = json!(hex_encode(&[7u8; 32]));
    wallet.send(&mut w, &req, 1102);
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(1005));
    assert!(w.dapp.session().is_none());

    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    let (_, req) = wallet.settle_request(&w, &[&format!("eip155:1:{ADDR}")], w.now / 1000 - 1);
    wallet.send(&mut w, &req, 1102);
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(1005));
    assert!(w.dapp.session().is_none());
}

#[test]
fn proposal_rejection_is_reported_and_the_pairing_released() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    let resp = json!({"id": wallet.proposal["id"], "jsonrpc": "2.0", "error": {"code": 5000, "message": "User rejected."}});
    let key = wallet.pairing_key;
    let msg = wallet.seal(&key, &resp);
    let topic = wallet.pairing_topic.clone();
    w.push(&topic, &msg, 1120);
    assert!(w.events.contains(&Event::SessionProposalRejected {
        code: 5000,
        message: "User rejected.".into()
    }));
    assert!(w.subscribed.is_empty());
    assert_eq!(w.dapp.pairing_uri(), None);
}

#[test]
fn approval_with_a_low_order_key_fails_the_connection() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    let resp = json!({"id": wallet.proposal["id"], "jsonrpc": "2.0", "result": {"relay": {"protocol": "irn"}, "responderPublicKey": hex_encode(&[0u8; 32])}});
    let key = wallet.pairing_key;
    let msg = wallet.seal(&key, &resp);
    let topic = wallet.pairing_topic.clone();
    w.push(&topic, &msg, 1101);
    assert!(w
        .events
        .iter()
        .any(|e| matches!(e, Event::ConnectFailed { .. })));
    assert!(w.subscribed.is_empty());
}

#[test]
fn pairing_ping_and_delete_on_the_pairing_topic_are_answered() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let mut wallet = Wallet::scan(&w);
    let key = wallet.pairing_key;
    let topic = wallet.pairing_topic.clone();
    let msg = wallet.seal(
        &key,
        &json!({"id": 41, "jsonrpc": "2.0", "method": "wc_pairingPing", "params": {}}),
    );
    w.push(&topic, &msg, 1002);
    let p = w.last_published().clone();
    assert_eq!((p.tag, p.ttl), (1003, 30));
    assert_eq!(
        wallet.open(&p),
        json!({"id": 41, "jsonrpc": "2.0", "result": true})
    );
    let msg = wallet.seal(&key, &json!({"id": 42, "jsonrpc": "2.0", "method": "wc_pairingDelete", "params": {"code": 6000, "message": "User disconnected."}}));
    w.push(&topic, &msg, 1000);
    assert_eq!(w.last_published().tag, 1001);
    assert!(w.events.contains(&Event::SessionProposalRejected {
        code: 6000,
        message: "User disconnected.".into()
    }));
}

// ----- pairing timing -----------------------------------------------------------------------

#[test]
fn a_new_uri_is_allowed_one_second_later_and_replaces_the_old_one() {
    let mut w = World::new();
    let connect = || Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    };
    w.command(connect());
    let first = w.dapp.pairing_uri().unwrap();
    w.now += 999;
    assert_eq!(
        w.try_feed(Input::Command(connect())),
        Err(Error::TooSoon {
            retry_at_ms: T0 + 1000
        })
    );
    assert_eq!(w.dapp.pairing_uri().unwrap(), first);
    w.now += 1;
    w.command(connect());
    let second = w.dapp.pairing_uri().unwrap();
    assert_ne!(first, second);
    // Only the new pairing topic stays subscribed.
    assert_eq!(w.subscribed.len(), 1);
    assert!(w
        .subscribed
        .contains_key(&PairingUri::parse(&second).unwrap().topic));
}

#[test]
fn the_pairing_expires_with_ten_seconds_left() {
    let mut w = World::new();
    let step = w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    // Relay request deadlines come first; the pairing deadline is 4 min - 10 s.
    assert!(step.next_deadline_ms.unwrap() <= T0 + 230_001);
    w.take_events();
    w.advance(230_000);
    assert!(w.events.is_empty(), "{:?}", w.events);
    assert_eq!(w.dapp.next_deadline(), Some(T0 + 230_001));
    w.advance(1);
    assert_eq!(w.take_events(), vec![Event::PairingExpired]);
    assert!(w.subscribed.is_empty());
    assert_eq!(w.dapp.pairing_uri(), None);
    assert_eq!(w.dapp.next_deadline(), None);
}

// ----- session requests ---------------------------------------------------------------------

#[test]
fn a_session_request_goes_out_and_its_result_comes_back() {
    let (mut w, mut wallet) = connected();
    let topic = session_topic(&w);
    w.command(Command::Request {
        topic: topic.clone(),
        chain_id: "eip155:1".into(),
        method: "personal_sign".into(),
        params: json!(["0x48656c6c6f", ADDR]),
        expiry_s: None,
        id: None,
    });
    let id = match w.take_events().as_slice() {
        [Event::RequestSent {
            id,
            method,
            chain_id,
        }] => {
            assert_eq!(
                (method.as_str(), chain_id.as_deref()),
                ("personal_sign", Some("eip155:1"))
            );
            *id
        }
        other => panic!("{other:?}"),
    };
    let (req, p) = wallet.read_last(&w);
    assert_eq!((p.tag, p.ttl, p.prompt), (1108, 300, true));
    assert_eq!(req["id"], json!(id));
    assert_eq!(req["method"], "wc_sessionRequest");
    assert_eq!(req["params"]["chainId"], "eip155:1");
    assert_eq!(req["params"]["request"]["method"], "personal_sign");
    assert_eq!(
        req["params"]["request"]["params"],
        json!(["0x48656c6c6f", ADDR])
    );
    assert_eq!(
        req["params"]["request"]["expiryTimestamp"],
        json!(w.now / 1000 + 300)
    );

    wallet.send(
        &mut w,
        &json!({"id": id, "jsonrpc": "2.0", "result": "0xdeadbeef"}),
        1109,
    );
    assert_eq!(
        w.take_events(),
        vec![Event::SessionRequestResult {
            id,
            outcome: RequestOutcome::Result(json!("0xdeadbeef"))
        }]
    );
    // A late duplicate of the response is dropped.
    wallet.send(
        &mut w,
        &json!({"id": id, "jsonrpc": "2.0", "result": "0xdeadbeef"}),
        1109,
    );
    assert!(matches!(
        w.take_events().as_slice(),
        [Event::MessageDropped { .. }]
    ));
}

#[test]
fn a_rejected_session_request_reports_the_wallet_error() {
    let (mut w, mut wallet) = connected();
    let topic = session_topic(&w);
    w.command(Command::Request {
        topic,
        chain_id: SOL.into(),
        method: "solana_signMessage".into(),
        params: json!({"message": "aGk=", "pubkey": SOL_ADDR}),
        expiry_s: Some(600),
        id: Some(77),
    });
    let (req, p) = wallet.read_last(&w);
    assert_eq!((req["id"].clone(), p.ttl), (json!(77), 600));
    w.take_events();
    wallet.send(
        &mut w,
        &json!({"id": 77, "jsonrpc": "2.0", "error": {"code": 5000, "message": "User rejected"}}),
        1109,
    );
    assert_eq!(
        w.take_events(),
        vec![Event::SessionRequestResult {
            id: 77,
            outcome: RequestOutcome::Error(rpc::RpcError {
                code: 5000,
                message: "User rejected".into(),
                data: None
            })
        }]
    );
    // Ids may not be reused.
    let topic = session_topic(&w);
    let r = w.try_feed(Input::Command(Command::Request {
        topic,
        chain_id: SOL.into(),
        method: "solana_signMessage".into(),
        params: json!({}),
        expiry_s: None,
        id: Some(77),
    }));
    assert_eq!(r, Err(Error::DuplicateId(77)));
}

#[test]
fn requests_outside_the_session_are_refused_locally() {
    let (mut w, _) = connected();
    let topic = session_topic(&w);
    let before = w.published.len();
    let req = |chain: &str, method: &str, topic: &str| {
        Input::Command(Command::Request {
            topic: topic.into(),
            chain_id: chain.into(),
            method: method.into(),
            params: json!([]),
            expiry_s: None,
            id: None,
        })
    };
    assert_eq!(
        w.try_feed(req("eip155:10", "personal_sign", &topic)),
        Err(Error::Unauthorized {
            code: 5100,
            message: "Unsupported chains"
        })
    );
    assert_eq!(
        w.try_feed(req("eip155:1", "eth_mine", &topic)),
        Err(Error::Unauthorized {
            code: 5101,
            message: "Unsupported methods"
        })
    );
    assert_eq!(
        w.try_feed(req(SOL, "personal_sign", &topic)),
        Err(Error::Unauthorized {
            code: 5101,
            message: "Unsupported methods"
        })
    );
    assert!(matches!(
        w.try_feed(req("eip155:1", "personal_sign", &"0".repeat(64))),
        Err(Error::InvalidState(_))
    ));
    assert_eq!(w.published.len(), before);
    let mut fresh = World::new();
    assert!(matches!(
        fresh.try_feed(req("eip155:1", "personal_sign", &topic)),
        Err(Error::InvalidState(_))
    ));
}

#[test]
fn an_unanswered_session_request_expires_with_code_8000() {
    let (mut w, _) = connected();
    let topic = session_topic(&w);
    w.command(Command::Request {
        topic,
        chain_id: "eip155:137".into(),
        method: "eth_sendTransaction".into(),
        params: json!([{}]),
        expiry_s: Some(10),
        id: Some(5),
    });
    // Clamped to the 300 s minimum (the relay has acknowledged the publish).
    assert_eq!(w.dapp.next_deadline(), Some((T0 / 1000 + 300) * 1000));
    w.take_events();
    w.advance(299_999);
    assert!(w.take_events().is_empty());
    w.advance(1);
    assert_eq!(
        w.take_events(),
        vec![Event::SessionRequestResult {
            id: 5,
            outcome: RequestOutcome::Error(rpc::RpcError {
                code: 8000,
                message: "Session request expired".into(),
                data: None
            })
        }]
    );
}

// ----- wallet-initiated messages ----------------------------------------------------------

#[test]
fn wallet_events_are_acknowledged_and_forwarded() {
    let (mut w, mut wallet) = connected();
    let (id, _) = wallet.request(
        &mut w,
        "wc_sessionEvent",
        json!({"event": {"name": "accountsChanged", "data": [ADDR]}, "chainId": "eip155:1"}),
        1110,
    );
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(
        (resp, p.tag, p.ttl),
        (
            json!({"id": id, "jsonrpc": "2.0", "result": true}),
            1111,
            300
        )
    );
    assert_eq!(
        w.take_events(),
        vec![Event::SessionEvent {
            name: "accountsChanged".into(),
            data: json!([ADDR]),
            chain_id: "eip155:1".into()
        }]
    );
    wallet.request(
        &mut w,
        "wc_sessionEvent",
        json!({"event": {"name": "chainChanged", "data": 137}, "chainId": "eip155:137"}),
        1110,
    );
    assert_eq!(
        w.take_events(),
        vec![Event::SessionEvent {
            name: "chainChanged".into(),
            data: json!(137),
            chain_id: "eip155:137".into()
        }]
    );
}

#[test]
fn wallet_events_outside_the_session_are_answered_with_errors() {
    let (mut w, mut wallet) = connected();
    wallet.request(
        &mut w,
        "wc_sessionEvent",
        json!({"event": {"name": "chainChanged", "data": 10}, "chainId": "eip155:10"}),
        1110,
    );
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(5100));
    wallet.request(
        &mut w,
        "wc_sessionEvent",
        json!({"event": {"name": "somethingElse", "data": 1}, "chainId": "eip155:1"}),
        1110,
    );
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(5102));
    wallet.request(
        &mut w,
        "wc_sessionEvent",
        json!({"chainId": "eip155:1"}),
        1110,
    );
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(-32602));
    assert!(w.take_events().is_empty());
}

#[test]
fn a_session_update_replaces_the_namespaces() {
    let (mut w, mut wallet) = connected();
    let ns = json!({"eip155": {"accounts": [format!("eip155:137:{ADDR}")], "methods": ["personal_sign"], "events": ["chainChanged"]}});
    let (id, _) = wallet.request(&mut w, "wc_sessionUpdate", json!({"namespaces": ns}), 1104);
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(
        (resp["id"].clone(), resp["result"].clone(), p.tag, p.ttl),
        (json!(id), json!(true), 1105, 86_400)
    );
    match w.take_events().as_slice() {
        [Event::SessionUpdated { session }] => {
            assert_eq!(session.accounts(), vec![format!("eip155:137:{ADDR}")])
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.dapp.session().unwrap().chains(), vec!["eip155:137"]);
    // Accounts on chains never proposed are refused and change nothing.
    let bad =
        json!({"eip155": {"accounts": [format!("eip155:56:{ADDR}")], "methods": [], "events": []}});
    wallet.request(&mut w, "wc_sessionUpdate", json!({"namespaces": bad}), 1104);
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(5100));
    assert_eq!(w.dapp.session().unwrap().chains(), vec!["eip155:137"]);
    assert!(w.take_events().is_empty());
}

#[test]
fn a_session_extension_from_the_wallet_moves_the_expiry() {
    let (mut w, mut wallet) = connected();
    w.now += 3_600_000;
    let new_expiry = w.now / 1000 + 7 * 86_400;
    wallet.request(
        &mut w,
        "wc_sessionExtend",
        json!({"expiry": new_expiry}),
        1106,
    );
    let (resp, p) = wallet.read_last(&w);
    assert_eq!((resp["result"].clone(), p.tag), (json!(true), 1107));
    assert_eq!(
        w.take_events(),
        vec![Event::SessionExtended { expiry: new_expiry }]
    );
    assert_eq!(w.dapp.session().unwrap().expiry, new_expiry);
    // Shortening or going beyond a week is refused.
    wallet.request(
        &mut w,
        "wc_sessionExtend",
        json!({"expiry": new_expiry - 10}),
        1106,
    );
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(1004));
    wallet.request(
        &mut w,
        "wc_sessionExtend",
        json!({"expiry": new_expiry + 86_400}),
        1106,
    );
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(1004));
    assert_eq!(w.dapp.session().unwrap().expiry, new_expiry);
    // The official JS clients send `{}` and mean "a week from now".
    w.now += 60_000;
    let expected = w.now / 1000 + 7 * 86_400;
    wallet.request(&mut w, "wc_sessionExtend", json!({}), 1106);
    assert_eq!(wallet.read_last(&w).0["result"], json!(true));
    assert_eq!(
        w.take_events(),
        vec![Event::SessionExtended { expiry: expected }]
    );
}

#[test]
fn an_extension_asked_by_the_dapp_applies_when_acknowledged() {
    let (mut w, mut wallet) = connected();
    w.now += 86_400_000;
    w.command(Command::Extend);
    let (req, p) = wallet.read_last(&w);
    assert_eq!(
        (req["method"].clone(), p.tag, p.ttl),
        (json!("wc_sessionExtend"), 1106, 86_400)
    );
    let expiry = req["params"]["expiry"].as_u64().unwrap();
    assert_eq!(expiry, w.now / 1000 + 7 * 86_400);
    w.take_events();
    wallet.send(
        &mut w,
        &json!({"id": req["id"], "jsonrpc": "2.0", "result": true}),
        1107,
    );
    assert_eq!(w.take_events(), vec![Event::SessionExtended { expiry }]);
    assert_eq!(w.dapp.session().unwrap().expiry, expiry);
    w.command(Command::Extend);
    let (req, _) = wallet.read_last(&w);
    w.take_events();
    wallet.send(&mut w, &json!({"id": req["id"], "jsonrpc": "2.0", "error": {"code": 3004, "message": "Unauthorized extend request"}}), 1107);
    assert_eq!(
        w.take_events(),
        vec![Event::ExtendFailed {
            code: 3004,
            message: "Unauthorized extend request".into()
        }]
    );
}

#[test]
fn pings_are_answered_and_ours_report_the_outcome() {
    let (mut w, mut wallet) = connected();
    let (id, _) = wallet.request(&mut w, "wc_sessionPing", json!({}), 1114);
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(
        (resp, p.tag, p.ttl),
        (
            json!({"id": id, "jsonrpc": "2.0", "result": true}),
            1115,
            30
        )
    );

    w.command(Command::Ping);
    let (req, p) = wallet.read_last(&w);
    assert_eq!(
        (req["method"].clone(), req["params"].clone(), p.tag, p.ttl),
        (json!("wc_sessionPing"), json!({}), 1114, 30)
    );
    let ping_id = req["id"].as_u64().unwrap();
    w.take_events();
    wallet.send(
        &mut w,
        &json!({"id": ping_id, "jsonrpc": "2.0", "result": true}),
        1115,
    );
    assert_eq!(
        w.take_events(),
        vec![Event::PingResult {
            id: ping_id,
            ok: true
        }]
    );

    w.command(Command::Ping);
    let ping_id = wallet.read_last(&w).0["id"].as_u64().unwrap();
    w.take_events();
    w.advance(30_000);
    assert_eq!(
        w.take_events(),
        vec![Event::PingResult {
            id: ping_id,
            ok: false
        }]
    );
}

#[test]
fn a_delete_from_the_wallet_ends_the_session() {
    let (mut w, mut wallet) = connected();
    let topic = session_topic(&w);
    w.command(Command::Request {
        topic: topic.clone(),
        chain_id: "eip155:1".into(),
        method: "personal_sign".into(),
        params: json!([]),
        expiry_s: None,
        id: Some(9),
    });
    w.take_events();
    let (id, _) = wallet.request(
        &mut w,
        "wc_sessionDelete",
        json!({"code": 6000, "message": "User disconnected."}),
        1112,
    );
    let (resp, p) = (
        wallet.open(w.published.iter().rev().find(|p| p.tag == 1113).unwrap()),
        w.published
            .iter()
            .rev()
            .find(|p| p.tag == 1113)
            .unwrap()
            .clone(),
    );
    assert_eq!(
        (resp, p.ttl),
        (json!({"id": id, "jsonrpc": "2.0", "result": true}), 86_400)
    );
    assert_eq!(
        w.take_events(),
        vec![
            Event::SessionRequestResult {
                id: 9,
                outcome: RequestOutcome::Error(rpc::RpcError {
                    code: 6000,
                    message: "User disconnected.".into(),
                    data: None
                })
            },
            Event::SessionDeleted {
                code: 6000,
                message: "User disconnected.".into()
            },
        ]
    );
    assert!(w.dapp.session().is_none());
    assert!(!w.subscribed.contains_key(&topic));
    assert_eq!(w.dapp.next_deadline(), None);
}

#[test]
fn disconnect_sends_a_user_disconnected_delete() {
    let (mut w, wallet) = connected();
    let topic = session_topic(&w);
    w.command(Command::Disconnect);
    let p = w
        .published
        .iter()
        .rev()
        .find(|p| p.topic == topic)
        .unwrap()
        .clone();
    let req = wallet.open(&p);
    assert_eq!(
        (req["method"].clone(), req["params"].clone()),
        (
            json!("wc_sessionDelete"),
            json!({"code": 6000, "message": "User disconnected"})
        )
    );
    assert_eq!((p.tag, p.ttl), (1112, 86_400));
    assert_eq!(
        w.take_events(),
        vec![Event::SessionDeleted {
            code: 6000,
            message: "User disconnected".into()
        }]
    );
    assert!(w.dapp.session().is_none());
    assert!(w.subscribed.is_empty());
    // Disconnecting again is a no-op; so is pinging without a session an error.
    assert!(w.command(Command::Disconnect).outputs.is_empty());
    assert!(matches!(
        w.try_feed(Input::Command(Command::Ping)),
        Err(Error::InvalidState(_))
    ));
}

#[test]
fn disconnect_while_proposing_cancels_the_pairing() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    w.take_events();
    w.command(Command::Disconnect);
    assert!(w.subscribed.is_empty());
    assert_eq!(w.dapp.pairing_uri(), None);
    assert!(w.take_events().is_empty());
}

#[test]
fn the_session_expires_at_its_expiry() {
    let (mut w, _) = connected();
    let expiry_ms = w.dapp.session().unwrap().expiry * 1000;
    assert_eq!(w.dapp.next_deadline(), Some(expiry_ms));
    w.advance(expiry_ms - w.now - 1);
    assert!(w.take_events().is_empty());
    w.advance(1);
    assert_eq!(w.take_events(), vec![Event::SessionExpired]);
    assert!(w.dapp.session().is_none());
    assert!(w.subscribed.is_empty());
}

#[test]
fn unknown_wallet_methods_get_method_not_found() {
    let (mut w, mut wallet) = connected();
    wallet.request(&mut w, "wc_sessionFrobnicate", json!({}), 1199);
    let (resp, p) = wallet.read_last(&w);
    assert_eq!(
        (resp["error"]["code"].clone(), p.tag, p.ttl),
        (json!(-32601), 0, 86_400)
    );
    // A settle replayed under another id is refused; the same one is acknowledged again.
    wallet.request(&mut w, "wc_sessionSettle", json!({}), 1102);
    assert_eq!(wallet.read_last(&w).0["error"]["code"], json!(1005));
}

// ----- robustness ---------------------------------------------------------------------------

#[test]
fn duplicates_own_echoes_and_garbage_are_acknowledged_and_dropped() {
    let (mut w, mut wallet) = connected();
    let topic = session_topic(&w);
    // Replay of a wallet event: handled once.
    let key = wallet.session_key.unwrap();
    let msg = wallet.seal(&key, &json!({"id": 555, "jsonrpc": "2.0", "method": "wc_sessionEvent", "params": {"event": {"name": "chainChanged", "data": 1}, "chainId": "eip155:1"}}));
    w.push(&topic, &msg, 1110);
    assert_eq!(w.take_events().len(), 1);
    let published = w.published.len();
    w.push(&topic, &msg, 1110);
    assert!(
        matches!(w.take_events().as_slice(), [Event::MessageDropped { reason, .. }] if reason == "duplicate or own message")
    );
    assert_eq!(w.published.len(), published);
    // Our own request echoed back by the relay after a reconnect.
    w.command(Command::Request {
        topic: topic.clone(),
        chain_id: "eip155:1".into(),
        method: "personal_sign".into(),
        params: json!([]),
        expiry_s: None,
        id: Some(1234),
    });
    w.take_events();
    let own = w.last_published().message.clone();
    w.push(&topic, &own, 1108);
    assert!(matches!(
        w.take_events().as_slice(),
        [Event::MessageDropped { .. }]
    ));
    // Undecryptable, unknown topic, not JSON-RPC.
    let acks = w.acks.len();
    w.push(&topic, "AAAA", 1108);
    w.push(&"ab".repeat(32), &msg, 1108);
    let junk = crypto::encrypt_type0(&key, &[9; 12], b"not json");
    w.push(&topic, &junk, 1108);
    let reasons: Vec<String> = w
        .take_events()
        .into_iter()
        .map(|e| match e {
            Event::MessageDropped { reason, .. } => reason,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        reasons,
        vec!["undecryptable", "unknown topic", "not json-rpc"]
    );
    assert_eq!(w.acks.len(), acks + 3, "every push is acknowledged");
    assert_eq!(w.published.len(), published + 1);
    assert!(w.dapp.session().is_some());
}

#[test]
fn malformed_frames_are_errors_and_change_nothing() {
    let (mut w, _) = connected();
    let before = w.dapp.clone();
    for f in [
        "",
        "{",
        "[1,2]",
        r#"{"id":1}"#,
        r#"{"jsonrpc":"2.0","method":"irn_subscription"}"#,
    ] {
        assert!(
            matches!(
                w.try_feed(Input::Frame(f.into())),
                Err(Error::InvalidFrame(_))
            ),
            "{f}"
        );
    }
    let mut after = w.dapp.clone();
    // Entropy is not part of the comparison.
    after.handle(w.now, Input::Entropy(vec![])).unwrap();
    assert_eq!(after.to_json(), before.to_json());
}

#[test]
fn inputs_without_enough_entropy_fail_and_change_nothing() {
    let mut c = SignClient::new(SignConfig::new(metadata()));
    let json = c.to_json();
    let r = c.handle(
        T0,
        Input::Command(Command::Connect {
            required_namespaces: BTreeMap::new(),
            optional_namespaces: optional(),
            session_properties: None,
        }),
    );
    assert_eq!(r, Err(Error::NeedEntropy { needed: 128 }));
    assert_eq!(c.to_json(), json);
    assert_eq!(c.entropy_wanted(), 1024);
    c.handle(T0, Input::Entropy(vec![1; 100])).unwrap();
    assert_eq!(c.entropy_wanted(), 924);
    assert_eq!(
        c.handle(T0, Input::Tick),
        Err(Error::NeedEntropy { needed: 28 })
    );
}

#[test]
fn relay_timeouts_resend_and_then_report_a_failure() {
    let mut w = World::new();
    w.relay_answers = false;
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let sent = w.published.len();
    w.take_events();
    w.advance(10_000);
    assert_eq!(
        w.published.len(),
        sent + 1,
        "publish resent with the same content"
    );
    assert_eq!(w.published[sent].message, w.published[sent - 1].message);
    w.advance(10_000);
    w.advance(10_000);
    let failures: Vec<_> = w
        .take_events()
        .into_iter()
        .filter(|e| matches!(e, Event::RelayFailure { code: None, .. }))
        .collect();
    assert_eq!(failures.len(), 2, "subscribe and publish gave up");
}

#[test]
fn relay_errors_surface_as_relay_failures() {
    let mut w = World::new();
    w.relay_answers = false;
    let step = w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let sub: Value = serde_json::from_str(step.frames().next().unwrap()).unwrap();
    w.take_events();
    w.feed(Input::Frame(json!({"id": sub["id"], "jsonrpc": "2.0", "error": {"code": 3000, "message": "Unauthorized: invalid JWT"}}).to_string()));
    assert_eq!(
        w.take_events(),
        vec![Event::RelayFailure {
            method: "irn_subscribe".into(),
            code: Some(3000),
            message: "Unauthorized: invalid JWT".into()
        }]
    );
}

// ----- persistence --------------------------------------------------------------------------

#[test]
fn a_settled_session_survives_a_reload() {
    let (mut w, mut wallet) = connected();
    let json = w.dapp.to_json();
    let restored = SignClient::from_json(&json).unwrap();
    assert_eq!(restored.session(), w.dapp.session());
    assert_eq!(restored.to_json(), json);
    w.dapp = restored;
    w.subscribed.clear();
    // New socket: topics are re-subscribed in one batch.
    let step = w.feed(Input::Connected);
    let batch: Value = serde_json::from_str(step.frames().next().unwrap()).unwrap();
    assert_eq!(batch["method"], "irn_batchSubscribe");
    assert_eq!(batch["params"]["topics"], json!([session_topic(&w)]));
    // And the session works.
    let topic = session_topic(&w);
    w.command(Command::Request {
        topic,
        chain_id: "eip155:1".into(),
        method: "personal_sign".into(),
        params: json!([]),
        expiry_s: None,
        id: Some(3),
    });
    wallet.send(
        &mut w,
        &json!({"id": 3, "jsonrpc": "2.0", "result": "0x01"}),
        1109,
    );
    assert!(w.events.contains(&Event::SessionRequestResult {
        id: 3,
        outcome: RequestOutcome::Result(json!("0x01"))
    }));
}

#[test]
fn a_pending_proposal_survives_a_reload_and_still_settles() {
    let mut w = World::new();
    w.command(Command::Connect {
        required_namespaces: BTreeMap::new(),
        optional_namespaces: optional(),
        session_properties: None,
    });
    let uri = w.dapp.pairing_uri().unwrap();
    w.dapp = SignClient::from_json(&w.dapp.to_json()).unwrap();
    assert_eq!(w.dapp.pairing_uri(), Some(uri));
    w.feed(Input::Connected);
    let mut wallet = Wallet::scan(&w);
    wallet.approve(&mut w);
    wallet.settle(&mut w, &[&format!("eip155:1:{ADDR}")]);
    assert!(w.dapp.session().is_some());
}

#[test]
fn hostile_stored_state_is_refused() {
    let (w, _) = connected();
    let good: Value = serde_json::from_str(&w.dapp.to_json()).unwrap();
    assert!(SignClient::from_json("").is_err());
    assert!(SignClient::from_json("null").is_err());
    assert!(SignClient::from_json("{}").is_err());
    assert!(SignClient::from_json(&"[".repeat(10_000)).is_err());
    let mut tampered = good.clone();
    tampered["session"]["session"]["topic"] = json!("00".repeat(32));
    assert!(matches!(
        SignClient::from_json(&tampered.to_string()),
        Err(Error::Storage(_))
    ));
    let mut tampered = good.clone();
    tampered["session"]["symKey"] = json!("zz");
    assert!(SignClient::from_json(&tampered.to_string()).is_err());
    let mut tampered = good.clone();
    tampered["relay"]["subscriptions"] = json!({"not-a-topic": "x"});
    assert!(SignClient::from_json(&tampered.to_string()).is_err());
    let mut tampered = good;
    tampered["pending"] = json!({"x": 1});
    assert!(SignClient::from_json(&tampered.to_string()).is_err());
}

#[test]
fn inputs_and_steps_serialise_for_a_javascript_host() {
    let input: Input = serde_json::from_value(json!({"command": {"request": {"topic": "t", "chainId": "eip155:1", "method": "personal_sign", "params": []}}})).unwrap();
    assert!(
        matches!(input, Input::Command(Command::Request { ref chain_id, expiry_s: None, id: None, .. }) if chain_id == "eip155:1")
    );
    let input: Input = serde_json::from_value(json!({"frame": "{}"})).unwrap();
    assert_eq!(input, Input::Frame("{}".into()));
    assert_eq!(
        serde_json::from_value::<Input>(json!("tick")).unwrap(),
        Input::Tick
    );
    assert_eq!(
        serde_json::from_value::<Input>(json!({"command": "ping"})).unwrap(),
        Input::Command(Command::Ping)
    );
    let connect: Input = serde_json::from_value(json!({"command": {"connect": {"optionalNamespaces": {"eip155": {"chains": ["eip155:1"], "methods": [], "events": []}}}}})).unwrap();
    assert!(
        matches!(connect, Input::Command(Command::Connect { ref optional_namespaces, .. }) if optional_namespaces["eip155"].chains == ["eip155:1"])
    );
    let step = Step {
        outputs: vec![Output::Event(Event::SessionRequestResult {
            id: 1,
            outcome: RequestOutcome::Result(json!("0x")),
        })],
        next_deadline_ms: Some(5),
    };
    assert_eq!(
        serde_json::to_value(&step).unwrap(),
        json!({"outputs": [{"type": "event", "value": {"type": "sessionRequestResult", "id": 1, "outcome": {"result": "0x"}}}], "nextDeadlineMs": 5})
    );
}

// ----- property tests -------------------------------------------------------------------------

fn settled_world() -> (World, Wallet) {
    connected()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_frames_never_panic_the_sign_client(frame in ".{0,400}") {
        let (mut w, _) = settled_world();
        let _ = w.try_feed(Input::Frame(frame));
    }

    #[test]
    fn arbitrary_pushed_messages_never_panic(message in "[A-Za-z0-9+/=]{0,200}", on_session in any::<bool>()) {
        let (mut w, _) = settled_world();
        let topic = if on_session { session_topic(&w) } else { "cd".repeat(32) };
        let _ = w.push(&topic, &message, 1108);
        prop_assert!(w.dapp.session().is_some());
    }

    #[test]
    fn arbitrary_encrypted_payloads_never_panic(method in prop_oneof![
            Just("wc_sessionEvent"), Just("wc_sessionUpdate"), Just("wc_sessionExtend"), Just("wc_sessionSettle"),
            Just("wc_sessionDelete"), Just("wc_sessionPing"), Just("wc_sessionRequest"), Just("x")],
        params in prop_oneof![
            Just(json!(null)), Just(json!({})), Just(json!([])), Just(json!({"expiry": u64::MAX})), Just(json!({"expiry": -1})),
            Just(json!({"namespaces": {"eip155": {"accounts": ["eip155:1:0x1"]}}})),
            Just(json!({"namespaces": {"": {"accounts": [":::"]}}})),
            Just(json!({"event": {"name": 5}, "chainId": []})),
            Just(json!({"code": "x", "message": 5})),
            ".{0,40}".prop_map(|s| json!(s))],
        id in prop_oneof![Just(json!(1)), Just(json!("1")), Just(json!(-1)), Just(json!(1.5)), Just(json!(u64::MAX)), Just(json!(null))],
        response in any::<bool>())
    {
        let (mut w, mut wallet) = settled_world();
        let v = if response {
            json!({"id": id, "jsonrpc": "2.0", "result": params})
        } else {
            json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params})
        };
        let _ = wallet.send(&mut w, &v, 1108);
        let _ = w.advance(8 * 86_400_000);
    }

    #[test]
    fn arbitrary_stored_json_never_panics(s in ".{0,300}") {
        let _ = SignClient::from_json(&s);
    }
}
