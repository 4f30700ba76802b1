//! `make bench`: timings of the engine's hot paths, natively (release build). Prints figures only;
//! tests never assert timings.
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use wm_core::host::Options;
use wm_core::modules::{Account, Engine};
use wm_core::service::json::Value;

/// Counts the bytes live on the heap, for the account module's memory figure.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE.fetch_add(n, Ordering::Relaxed);
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}
#[global_allocator]
static ALLOC: Counting = Counting;

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

fn event(v: serde_json::Value) -> Value {
    v.into()
}

/// The output's effects of a host, as JSON.
fn effects(out: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(out).unwrap();
    v["effects"].as_array().cloned().unwrap_or_default()
}

fn main() {
    let opts: Options = serde_json::from_value(serde_json::json!({"projectId": "p", "apiUrl": "http://api.test"})).unwrap();
    time("engine: new (built-in networks)", 2_000, || {
        black_box(Engine::new(opts.clone()));
    });
    time("engine: start + announce + open + output", 2_000, || {
        let mut e = Engine::new(opts.clone());
        e.handle(event(serde_json::json!({"type": "start"})), 1);
        e.handle(event(serde_json::json!({"type": "announce", "uuid": "u1", "name": "Demo", "icon": "", "rdns": "dev.demo", "namespace": "eip155"})), 2);
        e.handle(event(serde_json::json!({"type": "open"})), 3);
        black_box(e.output());
    });
    let mut e = Engine::new(opts.clone());
    time("engine: snapshot written as JSON", 5_000, || {
        black_box(e.snapshot_json());
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
    account_module(&opts);
}

fn answer(m: &mut Account, effects: &[serde_json::Value], path: &str, body: &str, now: u64) -> Vec<serde_json::Value> {
    let id = effects.iter().find_map(|e| (e["type"] == "fetch" && e["url"].as_str().is_some_and(|u| u.contains(path))).then(|| e["id"].as_u64()).flatten());
    let id = id.unwrap_or_else(|| panic!("no {path} request"));
    self::effects(&m.dispatch_json(&serde_json::json!({"type": "fetchResult", "id": id, "status": 200, "body": body}).to_string(), now as f64))
}

/// The account module (Account view): its snapshot with 1,000 Activity rows, the heap it holds,
/// and reopening the view with the portfolio cached.
fn account_module(opts: &Options) {
    const ADDR: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    // The engine's facts once connected and showing Account, as a module loading then hears them.
    let mut e = Engine::new(opts.clone());
    for (i, ev) in [
        serde_json::json!({"type": "start", "storage": {"@wallet-modal/connections": format!("[{{\"namespace\":\"eip155\",\"connectorId\":\"dev.demo\",\"accounts\":[\"{ADDR}\"],\"caipNetworkId\":\"eip155:1\"}}]")}}),
        serde_json::json!({"type": "announce", "uuid": "u1", "name": "Demo", "icon": "", "rdns": "dev.demo", "namespace": "eip155"}),
    ]
    .into_iter()
    .enumerate()
    {
        e.handle(event(ev), i as u64);
    }
    let out = e.output();
    let ask = |method: &str| effects(&out).into_iter().find(|f| f["method"] == method).map(|f| f["id"].as_u64().unwrap());
    e.handle(event(serde_json::json!({"type": "providerResult", "id": ask("eth_accounts").unwrap(), "result": [ADDR]})), 3);
    let out = e.output();
    let id = effects(&out).into_iter().find(|f| f["method"] == "eth_chainId").unwrap()["id"].as_u64().unwrap();
    e.handle(event(serde_json::json!({"type": "providerResult", "id": id, "result": "0x1"})), 4);
    e.handle(event(serde_json::json!({"type": "open"})), 5);
    let facts = format!(r#"{{"type":"notes","notes":{}}}"#, e.facts_json());
    let hidden = facts.replace(r#""open":true"#, r#""open":false"#);

    let balances = serde_json::json!({"balances": (0..20).map(|i| serde_json::json!({"name": format!("Token {i}"), "symbol": format!("T{i}"), "chainId": "eip155:1",
        "address": format!("eip155:1:0x{:040x}", i + 1), "quantity": {"decimals": "18", "numeric": format!("{}.5", 1000 + i)}, "value": 10.0 * i as f64, "price": 1.0,
        "iconUrl": format!("https://api.test/public/getTokenImage/{i}")})).collect::<Vec<_>>()}).to_string();
    let page = |p: usize| serde_json::json!({"data": (0..50).map(|i| {
        let n = p * 50 + i;
        serde_json::json!({"id": format!("tx{n}"), "metadata": {"operationType": if n % 2 == 0 { "send" } else { "receive" },
            "minedAt": format!("2026-{:02}-{:02}T10:00:00Z", 12 - (n / 100) % 12, 28 - (n % 28)), "chain": "eip155:1", "hash": format!("0x{n:064x}"),
            "sentFrom": ADDR, "sentTo": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "status": "confirmed"},
            "transfers": [{"fungible_info": {"name": "USD Coin", "symbol": "USDC", "icon": {"url": "https://api.test/usdc.png"}}, "direction": "out", "quantity": {"numeric": "12.5"}, "value": 12.5, "price": 1.0}]})
    }).collect::<Vec<_>>(), "next": if p < 19 { serde_json::json!(format!("c{}", p + 1)) } else { serde_json::Value::Null }}).to_string();

    let before = LIVE.load(Ordering::Relaxed);
    let mut m = Account::new(opts.clone());
    let first = effects(&m.dispatch_json(&facts, 6.0));
    answer(&mut m, &first, "/balance", &balances, 7);
    let mut fx = effects(&m.dispatch_json(r#"{"type":"selectAccountTab","tab":"activity"}"#, 8.0));
    let t = Instant::now();
    for p in 0..20 {
        answer(&mut m, &fx, "/history", &page(p), 9);
        fx = effects(&m.dispatch_json(r#"{"type":"loadMoreActivity"}"#, 10.0));
    }
    let load = t.elapsed();
    let snap: serde_json::Value = serde_json::from_str(&m.snapshot_json()).unwrap();
    let rows: usize = snap["activity"]["groups"].as_array().unwrap().iter().map(|g| g["items"].as_array().unwrap().len()).sum();
    assert_eq!(rows, 1_000, "1,000 activity rows loaded");
    let held = LIVE.load(Ordering::Relaxed) - before;
    println!("{:<48} {:>10.1} ms total  (20 pages of 50, each answer renders the rows once)", "account: load 1,000 activity rows", load.as_secs_f64() * 1000.0);
    time("account: snapshot with 1,000 activity rows as JSON", 200, || {
        black_box(m.snapshot_json());
    });
    println!("{:<48} {:>10.2} MB  (heap the module holds)", "account: memory with 1,000 activity rows", held as f64 / 1e6);
    // Reopening the Account view with the portfolio cached: no request, the Tokens tab's rows are in
    // the snapshot the same event returns (the view renders it in the frame that shows it).
    let _ = m.dispatch_json(r#"{"type":"selectAccountTab","tab":"tokens"}"#, 11.0);
    time("account: reopen with the portfolio cached", 2_000, || {
        let _ = m.dispatch_json(&hidden, 12.0);
        let out = m.dispatch_json(&facts, 13.0);
        assert!(!effects(&out).iter().any(|e| e["type"] == "fetch"), "cached: nothing asked");
        black_box(out);
    });
}
