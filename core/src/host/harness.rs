//! The test harness of the slices' flow tests: a small shell in Rust that runs the engine and the
//! lazily loaded modules (`crate::modules`) exactly as the element's shell does — each event to the
//! module whose slice reads it (loading the module first, which then hears the engine's facts),
//! each answer to the module that asked, each module's notes to every other module, `dispatch`
//! effects routed like events, and the connectors a slice answers (`frame`, `approval`,
//! `embedded`) asked through it. The wallet, the servers and the secure frame are played by the
//! test. Each slice's flows live beside it (`*/slice_tests.rs`).

use std::collections::{BTreeMap, VecDeque};

pub(crate) use crate::connect::connection::Status;
pub(crate) use crate::connect::slice::RECONNECT_TIMEOUT_MS;
pub(crate) use crate::connect::storage;
pub(crate) use crate::host::*;
pub(crate) use crate::service::errors::WmError;
pub(crate) use crate::ui::router::View;
pub(crate) use serde_json::{json, Value};

use crate::host::routes::ModuleRoutes;
use serde::Deserialize;

pub(crate) const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
pub(crate) const RDNS: &str = "dev.walletmodal.demo";

pub(crate) fn anvil(id: u64) -> Value {
    json!({"id": id, "caipNetworkId": format!("eip155:{id}"), "name": format!("Anvil {id}"), "chainNamespace": "eip155",
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "rpcUrls": {"default": {"http": [format!("http://127.0.0.1:{}", 8000 + id % 1000)]}}, "testnet": true,
        "blockExplorers": {"default": {"name": "Explorer", "url": "https://explorer.test"}}})
}

pub(crate) fn options_json(extra: Value) -> Value {
    let mut o = json!({"projectId": "p", "apiUrl": "http://api.test", "analyticsUrl": "http://pulse.test", "origin": "http://127.0.0.1:5000",
        "networks": [anvil(31337), anvil(31338)], "frameUrl": "http://frame.test/frame"});
    if let (Some(o), Some(e)) = (o.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    o
}

#[allow(dead_code)]
pub(crate) fn options(extra: Value) -> Options {
    serde_json::from_value(options_json(extra)).unwrap()
}

// ----- the snapshot, typed for the tests (the views' own types are in protocol.ts; not every field is read) -----

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ErrorSnap {
    pub code: i64,
    pub key: String,
    pub message: String,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConnectionSnap {
    pub namespace: String,
    pub address: String,
    pub caip_network_id: String,
    pub connector_id: String,
    pub connector_name: String,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AccountSnap {
    pub namespace: String,
    pub address: String,
    pub caip_address: String,
    pub short_address: String,
    pub avatar: Vec<String>,
    pub balance: Option<String>,
    pub balance_symbol: String,
    pub connector_id: String,
    pub explorer_url: Option<String>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NetworkSnap {
    pub caip_network_id: String,
    pub name: String,
    pub namespace: String,
    pub active: bool,
    pub image_url: Option<String>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConnectingSnap {
    pub connector_id: String,
    pub name: String,
    pub state: String,
    pub error: Option<ErrorSnap>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PairingWalletSnap {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub mobile_link: Option<String>,
    pub desktop_link: Option<String>,
    pub webapp_link: Option<String>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WalletConnectSnap {
    pub uri: Option<String>,
    pub expires_at_ms: Option<u64>,
    pub wallet: Option<PairingWalletSnap>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SwitchingSnap {
    pub target: NetworkSnap,
    pub state: String,
    pub error: Option<ErrorSnap>,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConnectorSnap {
    pub id: String,
    pub name: String,
    pub icon: Option<String>,
    pub kind: String,
    pub installed: bool,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BannerSnap {
    pub variant: String,
    pub message: String,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListingSnap {
    pub id: String,
    pub name: String,
    pub image_url: Option<String>,
    pub installed: bool,
}

#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AllWalletsSnap {
    pub items: Vec<ListingSnap>,
    pub count: u64,
    pub query: String,
    pub loading: bool,
    pub has_more: bool,
    pub error: Option<ErrorSnap>,
}

/// The merged snapshot of every module loaded, the engine's keys typed (`raw` has them all).
#[allow(dead_code)]
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Snap {
    pub open: bool,
    pub embedded: bool,
    pub loading: bool,
    pub shake: bool,
    #[serde(deserialize_with = "view")]
    pub view: View,
    pub title: String,
    pub can_go_back: bool,
    pub can_close: bool,
    pub connect_methods: Vec<String>,
    pub socials: Vec<String>,
    pub connectors: Vec<ConnectorSnap>,
    pub status: BTreeMap<String, Status>,
    pub connection: Option<ConnectionSnap>,
    /// The account module's (once loaded).
    pub account: Option<AccountSnap>,
    pub network: Option<NetworkSnap>,
    pub networks: Vec<NetworkSnap>,
    pub connecting: Option<ConnectingSnap>,
    pub wallet_connect: Option<WalletConnectSnap>,
    pub switching: Option<SwitchingSnap>,
    pub all_wallets: AllWalletsSnap,
    pub config_error: Option<ErrorSnap>,
    pub banner: Option<BannerSnap>,
    pub wallet_request: Option<String>,
    pub wallet_features: Vec<String>,
    #[serde(skip)]
    pub raw: Value,
}

fn view<'de, D: serde::Deserializer<'de>>(d: D) -> Result<View, D::Error> {
    let name = String::deserialize(d)?;
    View::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown view {name}")))
}

impl Snap {
    fn of(raw: Value) -> Snap {
        let mut s: Snap = serde_json::from_value(raw.clone()).unwrap_or_else(|e| panic!("snapshot {e}: {raw}"));
        s.raw = raw;
        s
    }

    /// A module's part (`null` while its module is not loaded or it shows nothing).
    pub fn part(&self, key: &str) -> &Value {
        &self.raw[key]
    }
}

// ----- the shell -----

/// Which module runs a slice event, a view, a connector: from `crate::modules::routes()`.
fn routes() -> Vec<ModuleRoutes> {
    crate::modules::routes()
}

fn module_of_event(ty: &str) -> Option<&'static str> {
    routes().into_iter().find(|m| m.slices.iter().any(|s| s.events.contains(&ty))).map(|m| m.name)
}

fn module_of_connector(c: &str) -> Option<&'static str> {
    routes().into_iter().find(|m| m.slices.iter().any(|s| s.connectors.contains(&c))).map(|m| m.name)
}

pub(crate) fn modules_of_view(v: View) -> Vec<&'static str> {
    routes().into_iter().filter(|m| m.slices.iter().any(|s| s.views.contains(&v))).map(|m| m.name).collect()
}

enum AnyHost {
    Engine(crate::modules::Engine),
    Account(crate::modules::Account),
    Embedded(crate::modules::Embedded),
    Siwx(crate::modules::SignIn),
}

impl AnyHost {
    fn load(name: &str, opts: Options) -> AnyHost {
        match name {
            "engine" => AnyHost::Engine(crate::modules::Engine::new(opts)),
            "account" => AnyHost::Account(crate::modules::Account::new(opts)),
            "siwx" => AnyHost::Siwx(crate::modules::SignIn::new(opts)),
            _ => AnyHost::Embedded(crate::modules::Embedded::new(opts)),
        }
    }

    fn handle(&mut self, v: crate::service::json::Value, now: u64) -> (Vec<Effect>, Vec<Value>, Value) {
        macro_rules! run {
            ($h:expr) => {{
                $h.handle(v, now);
                (($h).take_effects(), serde_json::from_str::<Vec<Value>>(&($h).take_notes_json()).unwrap(), serde_json::from_str(&($h).snapshot_json()).unwrap())
            }};
        }
        match self {
            AnyHost::Engine(h) => run!(h),
            AnyHost::Account(h) => run!(h),
            AnyHost::Embedded(h) => run!(h),
            AnyHost::Siwx(h) => run!(h),
        }
    }
}

/// Effects carried out so far, with the module each came from.
pub(crate) struct Harness {
    hosts: Vec<(&'static str, AnyHost, Value)>,
    options: Value,
    pub(crate) now: u64,
    /// Every effect of the last `send` (of every module, in order).
    pub(crate) effects: Vec<Effect>,
    /// The modules each effect of `effects` came from.
    from: Vec<&'static str>,
    pub(crate) snap: Snap,
    /// Notes each module raised during the last `send`.
    pub(crate) notes: Vec<(&'static str, Value)>,
    /// Requests to connectors a slice answers: the shell's key → (asking module, request id).
    connector_requests: Vec<(String, &'static str, u64)>,
    /// Which module made each request id (wallet requests and fetches) and started each timer.
    owners: Vec<(u64, &'static str)>,
    timers: Vec<(String, &'static str)>,
    keys: u64,
    /// Every message posted to the secure frame so far: (type, id, payload).
    pub(crate) frame_posts: Vec<(String, String, Value)>,
    /// Fetches not answered yet: (id, module, url, body).
    open_fetches: Vec<(u64, &'static str, String, Option<String>)>,
    /// How `GET /v1/supported-chains` is answered at once: `None` leaves it to the test; by
    /// default every network of the options (`Some(Null)`), or this `http` list.
    pub(crate) api_chains: Option<Value>,
}

impl Harness {
    pub(crate) fn new(extra: Value) -> Harness {
        let options = options_json(extra);
        let engine = AnyHost::load("engine", serde_json::from_value(options.clone()).unwrap());
        let mut h = Harness {
            hosts: vec![("engine", engine, Value::Null)],
            options,
            now: 1_000,
            effects: Vec::new(),
            from: Vec::new(),
            snap: Snap::default_placeholder(),
            notes: Vec::new(),
            connector_requests: Vec::new(),
            owners: Vec::new(),
            timers: Vec::new(),
            keys: 0,
            frame_posts: Vec::new(),
            open_fetches: Vec::new(),
            api_chains: Some(Value::Null),
        };
        // (The engine's first options' effects go out with its first event.)
        let snap = match &h.hosts[0].1 {
            AnyHost::Engine(e) => serde_json::from_str(&e.snapshot_json()).unwrap(),
            _ => unreachable!(),
        };
        h.hosts[0].2 = snap;
        h.snap = h.merged();
        h
    }

    fn opts(&self) -> Options {
        serde_json::from_value(self.options.clone()).unwrap()
    }

    /// The engine's own snapshot (without the modules' parts).
    pub(crate) fn hosts_engine_snapshot(&self) -> Value {
        self.hosts[0].2.clone()
    }

    /// Whether a module is loaded.
    pub(crate) fn loaded(&self, name: &str) -> bool {
        self.hosts.iter().any(|(n, ..)| *n == name)
    }

    fn load(&mut self, name: &'static str) {
        if self.loaded(name) {
            return;
        }
        let host = AnyHost::load(name, self.opts());
        self.hosts.push((name, host, Value::Null));
        // A module that loads late hears the engine's facts once, then notes.
        let facts = match &self.hosts[0].1 {
            AnyHost::Engine(e) => e.facts_json(),
            _ => unreachable!("the engine is loaded first"),
        };
        let facts: Value = serde_json::from_str(&facts).unwrap();
        self.run(name, json!({"type": "notes", "notes": facts}));
    }

    fn merged(&self) -> Snap {
        let mut all = serde_json::Map::new();
        for (_, _, s) in &self.hosts {
            if let Some(o) = s.as_object() {
                for (k, v) in o {
                    all.insert(k.clone(), v.clone());
                }
            }
        }
        Snap::of(Value::Object(all))
    }

    /// Hands an event (JSON) to the module whose slice reads it; everything it starts runs.
    pub(crate) fn send(&mut self, event: Value) -> &mut Self {
        if event["type"] == "fetchResult" {
            let id = event["id"].as_u64();
            if let Some(p) = self.open_fetches.iter().rposition(|f| Some(f.0) == id) {
                self.open_fetches.remove(p);
            }
        }
        self.effects.clear();
        self.from.clear();
        self.notes.clear();
        let target = self.target(&event);
        let mut queue: VecDeque<(&'static str, Value)> = VecDeque::from([(target, event)]);
        while let Some((module, event)) = queue.pop_front() {
            self.load(module);
            self.step(module, event, &mut queue);
        }
        self.snap = self.merged();
        self
    }

    /// Hands an event to one module (a note another module raised, say).
    pub(crate) fn send_to(&mut self, module: &'static str, event: Value) -> &mut Self {
        self.effects.clear();
        self.from.clear();
        self.notes.clear();
        self.run(module, event);
        self.snap = self.merged();
        self
    }

    /// The module an event goes to: its slice's, or (answers, timers) the one that asked.
    fn target(&self, event: &Value) -> &'static str {
        let ty = event["type"].as_str().unwrap_or_default();
        match ty {
            "providerResult" | "fetchResult" => {
                let id = event["id"].as_u64().unwrap_or(0);
                self.owners.iter().rev().find(|(i, _)| *i == id).map(|(_, m)| *m).unwrap_or("engine")
            }
            "timer" => {
                let id = event["id"].as_str().unwrap_or_default();
                self.timers.iter().rev().find(|(i, _)| i == id).map(|(_, m)| *m).unwrap_or("engine")
            }
            "request" | "release" => module_of_connector(event["connector"].as_str().unwrap_or_default()).unwrap_or("engine"),
            _ => module_of_event(ty).unwrap_or("engine"),
        }
    }

    fn run(&mut self, module: &'static str, event: Value) {
        let mut queue = VecDeque::from([(module, event)]);
        while let Some((module, event)) = queue.pop_front() {
            self.load(module);
            self.step(module, event, &mut queue);
        }
    }

    fn step(&mut self, module: &'static str, event: Value, queue: &mut VecDeque<(&'static str, Value)>) {
        let now = self.now;
        let i = self.hosts.iter().position(|(n, ..)| *n == module).unwrap();
        let (effects, notes, snap) = self.hosts[i].1.handle(event.into(), now);
        self.hosts[i].2 = snap;
        for e in effects {
            match &e {
                Effect::Dispatch { event } => {
                    let event: Value = serde_json::to_value(event).unwrap();
                    queue.push_back((self.target(&event), event));
                }
                Effect::ProviderRequest { id, connector_id, method, params } => {
                    self.owners.push((*id, module));
                    if let Some(owner) = module_of_connector(connector_id) {
                        self.keys += 1;
                        let key = format!("k{}", self.keys);
                        self.connector_requests.push((key.clone(), module, *id));
                        let params: Value = serde_json::to_value(params).unwrap();
                        queue.push_back((owner, json!({"type": "request", "connector": connector_id, "key": key, "method": method, "params": params})));
                    }
                }
                Effect::ReleaseProvider { connector_id } => {
                    if let Some(owner) = module_of_connector(connector_id) {
                        if self.loaded(owner) {
                            queue.push_back((owner, json!({"type": "release", "connector": connector_id})));
                        }
                    }
                }
                Effect::Answer { key, outcome } => {
                    if let Some(p) = self.connector_requests.iter().position(|(k, ..)| k == key) {
                        let (_, asker, id) = self.connector_requests.remove(p);
                        let event = match outcome {
                            Ok(v) => json!({"type": "providerResult", "id": id, "result": serde_json::to_value(v).unwrap()}),
                            Err((code, message)) => json!({"type": "providerResult", "id": id, "error": {"code": code, "message": message}}),
                        };
                        queue.push_back((asker, event));
                    }
                }
                Effect::Fetch { id, url, .. } if url.contains("/v1/supported-chains") && self.api_chains.is_some() => {
                    self.owners.push((*id, module));
                    let http = match self.api_chains.clone().unwrap() {
                        Value::Null => self.hosts[0].2["networks"].as_array().map(|l| l.iter().map(|n| n["caipNetworkId"].clone()).collect()).unwrap_or_default(),
                        v => v,
                    };
                    let body = json!({"http": http, "ws": []}).to_string();
                    queue.push_back((module, json!({"type": "fetchResult", "id": id, "status": 200, "body": body})));
                }
                Effect::Fetch { id, url, body, .. } => {
                    self.owners.push((*id, module));
                    self.open_fetches.push((*id, module, url.clone(), body.clone()));
                }
                Effect::FramePost { message } => {
                    let m: Value = serde_json::to_value(message).unwrap();
                    self.frame_posts.push((m["type"].as_str().unwrap_or_default().into(), m["id"].as_str().unwrap_or_default().into(), m["payload"].clone()));
                }
                Effect::StartTimer { id, .. } => self.timers.push((id.clone(), module)),
                _ => {}
            }
            self.effects.push(e);
            self.from.push(module);
        }
        if !notes.is_empty() {
            let list = Value::Array(notes.clone());
            for (other, ..) in &self.hosts {
                if *other != module {
                    queue.push_back((other, json!({"type": "notes", "notes": list})));
                }
            }
            self.notes.extend(notes.into_iter().map(|n| (module, n)));
        }
        // A view that needs a module loads it (the shell does so when the snapshot shows it).
        if module == "engine" {
            let s = &self.hosts[i].2;
            let shows = s["open"] == true || s["embedded"] == true;
            if let (true, Some(v)) = (shows, s["view"].as_str().and_then(View::from_name)) {
                for m in modules_of_view(v) {
                    if !self.loaded(m) {
                        self.load(m);
                    }
                }
            }
        }
    }

    /// The view shown.
    pub(crate) fn view(&self) -> View {
        self.snap.view
    }

    pub(crate) fn start(&mut self, storage: Value) -> &mut Self {
        self.send(json!({"type": "start", "storage": storage}))
    }

    pub(crate) fn announce(&mut self) -> &mut Self {
        self.send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "Demo Wallet", "icon": "data:image/svg+xml;base64,AA==", "rdns": RDNS, "namespace": "eip155"}))
    }

    /// The wallet request with this method among the last effects (to a wallet the test plays).
    pub(crate) fn request(&self, method: &str) -> (u64, Value) {
        self.try_request(method).unwrap_or_else(|| panic!("no {method} request in {:?}", self.effects))
    }

    pub(crate) fn try_request(&self, method: &str) -> Option<(u64, Value)> {
        self.effects.iter().find_map(|e| match e {
            Effect::ProviderRequest { id, method: m, params, connector_id } if m == method && module_of_connector(connector_id).is_none() => {
                Some((*id, serde_json::to_value(params).unwrap()))
            }
            _ => None,
        })
    }

    pub(crate) fn answer(&mut self, method: &str, result: Value) -> &mut Self {
        let (id, _) = self.request(method);
        self.send(json!({"type": "providerResult", "id": id, "result": result}))
    }

    pub(crate) fn reject(&mut self, method: &str, code: i64) -> &mut Self {
        let (id, _) = self.request(method);
        self.send(json!({"type": "providerResult", "id": id, "error": {"code": code, "message": "no"}}))
    }

    pub(crate) fn fetches(&self) -> Vec<(u64, String)> {
        self.effects.iter().filter_map(|e| match e { Effect::Fetch { id, url, .. } => Some((*id, url.clone())), _ => None }).collect()
    }

    /// The fetch whose URL contains `part` among the last effects.
    pub(crate) fn fetch(&self, part: &str) -> (u64, String, Option<String>) {
        self.effects
            .iter()
            .find_map(|e| match e {
                Effect::Fetch { id, url, body, .. } if url.contains(part) => Some((*id, url.clone(), body.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no fetch of {part} in {:?}", self.fetches()))
    }

    /// The newest fetch not answered yet whose URL contains `part` (made by any earlier step).
    pub(crate) fn open_fetch(&self, part: &str) -> Option<(u64, String, Option<String>)> {
        self.open_fetches.iter().rev().find(|f| f.2.contains(part)).map(|f| (f.0, f.2.clone(), f.3.clone()))
    }

    /// Answers the newest fetch not answered yet whose URL contains `part`.
    pub(crate) fn serve(&mut self, part: &str, status: u16, body: Value) -> &mut Self {
        let (id, ..) = self.open_fetch(part).unwrap_or_else(|| panic!("no open fetch of {part}"));
        let body = if let Value::String(s) = &body { s.clone() } else { body.to_string() };
        self.send(json!({"type": "fetchResult", "id": id, "status": status, "body": body}))
    }

    /// Answers the newest open fetch whose URL contains `part` and whose body contains `body_part`.
    pub(crate) fn serve_where(&mut self, part: &str, body_part: &str, status: u16, body: Value) -> &mut Self {
        let id = self
            .open_fetches
            .iter()
            .rev()
            .find(|f| f.2.contains(part) && f.3.as_deref().is_some_and(|b| b.contains(body_part)))
            .map(|f| f.0)
            .unwrap_or_else(|| panic!("no open fetch of {part} with {body_part}"));
        self.send(json!({"type": "fetchResult", "id": id, "status": status, "body": body.to_string()}))
    }

    /// Whether a module raised `note` (as the shell forwards it) during the last send.
    pub(crate) fn noted(&self, module: &str, note: Value) -> bool {
        self.notes.iter().any(|(m, n)| *m == module && *n == note)
    }

    /// Fires a timer when it is due (its delay taken from the last effects).
    pub(crate) fn timer_fires(&mut self, id: &str) -> &mut Self {
        let ms = self.effects.iter().find_map(|e| match e {
            Effect::StartTimer { id: t, ms } if t == id => Some(*ms),
            _ => None,
        });
        self.now += ms.unwrap_or_else(|| panic!("no {id} timer in {:?}", self.effects));
        self.fire(id)
    }

    /// Fires a timer started earlier.
    pub(crate) fn fire(&mut self, id: &str) -> &mut Self {
        self.send(json!({"type": "timer", "id": id}))
    }

    pub(crate) fn emitted(&self, name: &str) -> Option<Value> {
        self.effects.iter().find_map(|e| match e { Effect::Emit { name: n, detail } if *n == name => Some(serde_json::to_value(detail).unwrap()), _ => None })
    }

    pub(crate) fn persisted(&self, key: &str) -> Option<Option<String>> {
        self.effects.iter().find_map(|e| match e { Effect::Persist { key: k, value } if k == key => Some(value.clone()), _ => None })
    }

    /// The dispatches of the last send, as JSON.
    pub(crate) fn dispatched(&self) -> Vec<Value> {
        self.effects.iter().filter_map(|e| match e { Effect::Dispatch { event } => Some(serde_json::to_value(event).unwrap()), _ => None }).collect()
    }

    // ----- the embedded wallet -----

    /// The host page asks the embedded wallet's provider (`getProvider()`), with the shell's `key`.
    pub(crate) fn host_request(&mut self, key: &str, method: &str, params: Value) -> &mut Self {
        self.send(json!({"type": "request", "connector": "embedded", "key": key, "method": method, "params": params}))
    }

    /// The answer to the shell's request `key` among the last effects: its result, or its error.
    pub(crate) fn answered(&self, key: &str) -> Option<Result<Value, (i64, String)>> {
        self.effects.iter().find_map(|e| match e {
            Effect::Answer { key: k, outcome } if k == key => Some(match outcome {
                Ok(v) => Ok(serde_json::to_value(v).unwrap()),
                Err((c, m)) => Err((*c, m.clone())),
            }),
            _ => None,
        })
    }

    /// Logged in by email code: the frame (played here) sends the code, takes it, and says who
    /// logged in; the engine connects the embedded wallet.
    pub(crate) fn email_login(&mut self) -> &mut Self {
        self.start(json!({})).send(json!({"type": "open"}));
        self.send(json!({"type": "emailSubmit", "email": "a@example.com"}));
        self.frame_ready().frame_answer("CONNECT_EMAIL", json!({"action": "VERIFY_OTP"}));
        self.send(json!({"type": "emailOtp", "otp": "123456"})).frame_answer("CONNECT_OTP", json!({}));
        self.frame_answer("IS_CONNECTED", json!({"isConnected": true}));
        self.frame_answer("GET_USER", json!({"address": ADDR.to_lowercase(), "email": "a@example.com", "chainId": 31337}));
        assert_eq!(self.snap.connection.as_ref().map(|a| a.connector_id.as_str()), Some("embedded"), "logged in");
        self
    }

    // ----- the secure frame, played by the test -----

    /// The frame says it is ready; what was queued for it is posted 500 ms later.
    pub(crate) fn frame_ready(&mut self) -> &mut Self {
        self.send(json!({"type": "frameMessage", "data": {"type": "@w3m-frame/READY"}}));
        self.now += 500;
        self.fire("frame-deadline")
    }

    /// The newest message posted to the frame for `event` (`GET_USER`): its id and payload.
    pub(crate) fn frame_post(&self, event: &str) -> (String, Value) {
        let ty = format!("@w3m-app/{event}");
        self.frame_posts.iter().rev().find(|(t, ..)| *t == ty).map(|(_, id, p)| (id.clone(), p.clone())).unwrap_or_else(|| panic!("nothing posted for {event}: {:?}", self.frame_posts))
    }

    /// The frame answers its newest `event` request with success and `payload`.
    pub(crate) fn frame_answer(&mut self, event: &str, payload: Value) -> &mut Self {
        let (id, _) = self.frame_post(event);
        self.frame_posts.retain(|(_, i, _)| *i != id);
        self.send(json!({"type": "frameMessage", "data": {"type": format!("@w3m-frame/{event}_SUCCESS"), "id": id, "payload": payload}}))
    }

    /// The frame answers its newest `event` request with an error.
    pub(crate) fn frame_fail(&mut self, event: &str, message: &str) -> &mut Self {
        let (id, _) = self.frame_post(event);
        self.frame_posts.retain(|(_, i, _)| *i != id);
        self.send(json!({"type": "frameMessage", "data": {"type": format!("@w3m-frame/{event}_ERROR"), "id": id, "payload": {"message": message}}}))
    }

    // ----- the account, for the Account view's slices -----

    /// Connected (the demo wallet, on `chain`: `eip155:31337` or `eip155:31338`), with the Account
    /// view showing or the modal closed.
    pub(crate) fn account(&mut self, chain: &str, shown: bool) -> &mut Self {
        if self.snap.connection.is_none() {
            self.connect();
        }
        let current = self.snap.connection.as_ref().map(|a| a.caip_network_id.clone()).unwrap_or_default();
        if current != chain {
            let id: u64 = chain.rsplit(':').next().unwrap().parse().unwrap();
            self.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "chainChanged", "data": format!("{id:#x}")}));
        }
        match (shown, self.snap.open) {
            (true, false) => self.send(json!({"type": "open"})),
            (false, true) => self.send(json!({"type": "close"})),
            (true, true) if self.view() != View::Account => self.send(json!({"type": "navigate", "view": "Account", "reset": true})),
            _ => self,
        }
    }

    /// Another account of the same wallet.
    pub(crate) fn switch_account(&mut self, address: &str) -> &mut Self {
        self.send(json!({"type": "providerEvent", "connectorId": RDNS, "name": "accountsChanged", "data": [address]}))
    }

    pub(crate) fn connect(&mut self) -> &mut Self {
        self.start(json!({})).announce().send(json!({"type": "open"}));
        self.send(json!({"type": "selectConnector", "id": RDNS}));
        self.answer("eth_requestAccounts", json!([ADDR.to_lowercase()]));
        self.answer("eth_chainId", json!("0x7a69"))
    }
}

impl Snap {
    fn default_placeholder() -> Snap {
        Snap {
            open: false,
            embedded: false,
            loading: false,
            shake: false,
            view: View::Connect,
            title: String::new(),
            can_go_back: false,
            can_close: false,
            connect_methods: Vec::new(),
            socials: Vec::new(),
            connectors: Vec::new(),
            status: BTreeMap::new(),
            connection: None,
            account: None,
            network: None,
            networks: Vec::new(),
            connecting: None,
            wallet_connect: None,
            switching: None,
            all_wallets: AllWalletsSnap { items: Vec::new(), count: 0, query: String::new(), loading: false, has_more: false, error: None },
            config_error: None,
            banner: None,
            wallet_request: None,
            wallet_features: Vec::new(),
            raw: Value::Null,
        }
    }
}

pub(crate) fn stored_connection() -> Value {
    json!({
        storage::KEY_CONNECTIONS: format!("[{{\"namespace\":\"eip155\",\"connectorId\":\"{RDNS}\",\"accounts\":[\"{ADDR}\"],\"caipNetworkId\":\"eip155:31337\"}}]"),
        storage::KEY_ACTIVE_NETWORK: "\"eip155:31338\"",
    })
}

// ----- WalletConnect -----

pub(crate) const WC_URI: &str = "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&relay-protocol=irn&expiryTimestamp=1975";

impl Harness {
    /// Opens the modal with a catalogue page holding one wallet that is not installed.
    pub(crate) fn open_with_catalogue_wallet(&mut self) -> &mut Self {
        self.start(json!({})).send(json!({"type": "open", "view": "AllWallets"}));
        let (id, _) = self.fetches().into_iter().find(|(_, u)| u.contains("/getWallets")).unwrap();
        let body = json!({"count": 1, "data": [{"id": "mobile1", "name": "Phone Wallet", "image_id": "img1",
            "mobile_link": "phonewallet://", "desktop_link": null, "webapp_link": "https://phone.example/app"}]});
        self.send(json!({"type": "fetchResult", "id": id, "status": 200, "body": body.to_string()}))
    }
}
