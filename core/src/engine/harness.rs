//! The test harness of the slices' flow tests: the whole engine driven by JSON events, with the
//! wallet and the servers played by the test. Each slice's flows live beside it (`*/slice_tests.rs`).

pub(crate) use crate::engine::*;
pub(crate) use crate::connect::connection::Status;
pub(crate) use crate::connect::storage;
pub(crate) use crate::ui::router::View;
pub(crate) use crate::service::errors::WmError;
pub(crate) use serde_json::{json, Value};

pub(crate) const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
pub(crate) const RDNS: &str = "dev.walletmodal.demo";

pub(crate) fn anvil(id: u64) -> Value {
    json!({"id": id, "caipNetworkId": format!("eip155:{id}"), "name": format!("Anvil {id}"), "chainNamespace": "eip155",
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "rpcUrls": {"default": {"http": [format!("http://127.0.0.1:{}", 8000 + id % 1000)]}}, "testnet": true})
}

pub(crate) fn options(extra: Value) -> Options {
    let mut o = json!({"projectId": "p", "apiUrl": "http://api.test", "analyticsUrl": "http://pulse.test", "origin": "http://127.0.0.1:5000",
        "networks": [anvil(31337), anvil(31338)]});
    if let (Some(o), Some(e)) = (o.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(o).unwrap()
}

pub(crate) struct Harness {
    pub(crate) engine: Engine,
    pub(crate) now: u64,
    pub(crate) effects: Vec<Effect>,
    pub(crate) snap: Snapshot,
}

impl Harness {
    pub(crate) fn new(extra: Value) -> Harness {
        let engine = Engine::new(options(extra));
        let snap = engine.snapshot();
        Harness { engine, now: 1_000, effects: Vec::new(), snap }
    }

    pub(crate) fn send(&mut self, event: Value) -> &mut Self {
        let event: Event = serde_json::from_value(event).unwrap();
        let out = self.engine.handle(event, self.now);
        self.effects = out.effects;
        self.snap = out.snapshot;
        self
    }

    pub(crate) fn start(&mut self, storage: Value) -> &mut Self {
        self.send(json!({"type": "start", "storage": storage, "legacyProvider": false}))
    }

    pub(crate) fn announce(&mut self) -> &mut Self {
        self.send(json!({"type": "announce", "uuid": "350670db-19fa-4704-a166-e52e178b59d2", "name": "Demo Wallet", "icon": "data:image/svg+xml;base64,AA==", "rdns": RDNS}))
    }

    /// The provider request with this method among the last effects.
    pub(crate) fn request(&self, method: &str) -> (u64, Value) {
        self.effects
            .iter()
            .find_map(|e| match e {
                Effect::ProviderRequest { id, method: m, params, .. } if m == method => Some((*id, serde_json::to_value(params).unwrap())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {method} request in {:?}", self.effects))
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

    pub(crate) fn emitted(&self, name: &str) -> Option<Value> {
        self.effects.iter().find_map(|e| match e { Effect::Emit { name: n, detail } if *n == name => Some(serde_json::to_value(detail).unwrap()), _ => None })
    }

    pub(crate) fn persisted(&self, key: &str) -> Option<Option<String>> {
        self.effects.iter().find_map(|e| match e { Effect::Persist { key: k, value } if k == key => Some(value.clone()), _ => None })
    }

    pub(crate) fn connect(&mut self) -> &mut Self {
        self.start(json!({})).announce().send(json!({"type": "open"}));
        self.send(json!({"type": "selectConnector", "id": RDNS}));
        self.answer("eth_requestAccounts", json!([ADDR.to_lowercase()]));
        self.answer("eth_chainId", json!("0x7a69"))
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

