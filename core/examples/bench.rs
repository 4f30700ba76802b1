//! `make bench`: timings of the engine's hot paths, natively (release build). Prints figures only;
//! tests never assert timings.
use std::hint::black_box;
use std::time::Instant;
use wm_core::engine::{Engine, Event, Options};

fn time<F: FnMut()>(name: &str, iterations: u32, mut f: F) {
    for _ in 0..iterations / 10 {
        f();
    }
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    let per = start.elapsed().as_nanos() as f64 / iterations as f64;
    println!("{name:<48} {:>10.1} µs/op  ({iterations} runs)", per / 1000.0);
}

fn event(v: serde_json::Value) -> Event {
    serde_json::from_value(v).expect("valid event")
}

fn main() {
    let opts: Options = serde_json::from_value(serde_json::json!({"projectId": "p", "apiUrl": "http://api.test"})).unwrap();
    time("engine: new (built-in networks)", 2_000, || {
        black_box(Engine::new(opts.clone()));
    });
    time("engine: start + announce + open + snapshot", 2_000, || {
        let mut e = Engine::new(opts.clone());
        e.handle(event(serde_json::json!({"type": "start"})), 1);
        e.handle(event(serde_json::json!({"type": "announce", "uuid": "u1", "name": "Demo", "icon": "", "rdns": "dev.demo"})), 2);
        black_box(e.handle(event(serde_json::json!({"type": "open"})), 3));
    });
    let mut e = Engine::new(opts.clone());
    time("engine: snapshot (state only)", 5_000, || {
        black_box(e.snapshot());
    });
    let snap = e.snapshot();
    time("engine: snapshot written as JSON", 5_000, || {
        black_box(snap.to_json_string());
    });
    time("engine: snapshot to JSON", 5_000, || {
        black_box(e.snapshot().to_json_string());
    });
    let page = serde_json::json!({"data": (0..100).map(|i| serde_json::json!({"id": format!("w{i}"), "name": format!("Wallet {i}"), "image_id": format!("i{i}"), "chains": ["eip155:1"]})).collect::<Vec<_>>(), "count": 500}).to_string();
    time("catalogue: parse a page of 100 wallets", 5_000, || {
        black_box(wm_core::connect::catalogue::parse_page(&page));
    });
    let storage = vec![(wm_core::connect::storage::KEY_CONNECTIONS.to_string(), r#"[{"namespace":"eip155","connectorId":"dev.demo","accounts":["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],"caipNetworkId":"eip155:1"}]"#.to_string())];
    time("storage: load persisted state", 20_000, || {
        black_box(wm_core::connect::storage::load(&storage));
    });
    let wallets = r#"{"effects":[],"snapshot":{"open":true,"networks":[1,2,3],"name":"Wallet \u00e9"}}"#.repeat(1);
    time("json: parse a small engine message", 50_000, || {
        black_box(wm_core::service::json::parse(&wallets).unwrap());
    });
    // The 1 MB body cap admits about 100,000 keys: parsing must stay O(n log n) in them.
    let many_keys = format!("{{{}}}", (0..100_000).map(|i| format!("\"{i:05}\":{}", i % 10)).collect::<Vec<_>>().join(","));
    time("json: parse a 100,000-key object (1 MB)", 20, || {
        black_box(wm_core::service::json::parse(&many_keys).unwrap());
    });
    time("address: EIP-55 checksum", 50_000, || {
        black_box(wm_core::chain::address::checksum_address("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").unwrap());
    });
    let _ = &mut e;
}
