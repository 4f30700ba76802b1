//! End-to-end tests of the demo backend over real HTTP on a loopback port.

mod common;

use common::{get, request, start};
use serde_json::{json, Value};
use wm_server::entities::{AllowedOrigins, AnalyticsEvent, ProjectConfig, WalletsPage};

fn ids(v: &Value) -> Vec<String> {
    v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap().to_string())
        .collect()
}

// ----- project config ----------------------------------------------------------------------------------

#[tokio::test]
async fn config_returns_features_and_accepts_any_sdk_properties() {
    let s = start().await;
    let r = get(
        s.addr,
        "/appkit/v1/config?projectId=demo-project&st=appkit&sv=html-wagmi-1.0.0&foo=bar",
    )
    .await;
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("application/json"));
    let cfg: ProjectConfig = serde_json::from_slice(&r.body).unwrap();
    assert!(cfg.features.email);
    assert!(cfg.features.socials.contains(&"google".to_string()));
    assert_eq!(cfg.features.swaps, vec!["1inch"]);
    assert!(!cfg.features.onramp.is_empty());
    assert!(cfg.features.activity && cfg.features.reown_branding && cfg.features.multi_wallet);
    // camelCase keys on the wire
    let v = r.json();
    assert_eq!(v["features"]["reownBranding"], json!(true));
    assert_eq!(v["features"]["multiWallet"], json!(true));
}

#[tokio::test]
async fn config_project_id_in_header_and_features_off() {
    let s = start().await;
    let r = request(
        s.addr,
        "GET",
        "/appkit/v1/config",
        &[("x-project-id", "demo-project")],
        b"",
    )
    .await;
    assert_eq!(r.status, 200);
    let r = get(s.addr, "/appkit/v1/config?projectId=features-off").await;
    let cfg: ProjectConfig = serde_json::from_slice(&r.body).unwrap();
    assert!(!cfg.features.email && cfg.features.socials.is_empty() && !cfg.features.multi_wallet);
    let r = get(s.addr, "/appkit/v1/config?projectId=single-wallet").await;
    let cfg: ProjectConfig = serde_json::from_slice(&r.body).unwrap();
    assert!(cfg.features.email && !cfg.features.multi_wallet);
}

#[tokio::test]
async fn config_error_paths() {
    let s = start().await;
    assert_eq!(get(s.addr, "/appkit/v1/config").await.status, 400);
    assert_eq!(
        get(s.addr, "/appkit/v1/config?projectId=").await.status,
        400
    );
    let r = get(s.addr, "/appkit/v1/config?projectId=bad").await;
    assert_eq!(r.status, 403);
    assert_eq!(r.json()["status"], json!(403));
    assert_eq!(
        get(s.addr, "/appkit/v1/config?projectId=server-error")
            .await
            .status,
        500
    );
    assert_eq!(
        get(s.addr, "/appkit/v1/config?projectId=rate-limited")
            .await
            .status,
        429
    );
}

// ----- origins -----------------------------------------------------------------------------------------

#[tokio::test]
async fn origins_default_and_special_ids() {
    let s = start().await;
    let r = get(s.addr, "/projects/v1/origins?projectId=demo-project").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({"allowedOrigins": ["http://127.0.0.1:*", "http://localhost:*"]})
    );
    let o: AllowedOrigins = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(o.allowed_origins.len(), 2);

    let r = get(s.addr, "/projects/v1/origins?projectId=foreign-origin").await;
    assert_eq!(
        r.json(),
        json!({"allowedOrigins": ["https://only.example.com"]})
    );
    assert_eq!(
        get(s.addr, "/projects/v1/origins?projectId=rate-limited")
            .await
            .status,
        429
    );
    assert_eq!(
        get(s.addr, "/projects/v1/origins?projectId=server-error")
            .await
            .status,
        500
    );
    assert_eq!(
        get(s.addr, "/projects/v1/origins?projectId=bad")
            .await
            .status,
        403
    );
    assert_eq!(get(s.addr, "/projects/v1/origins").await.status, 400);
}

// ----- wallets -----------------------------------------------------------------------------------------

#[tokio::test]
async fn wallets_shape_and_first_page_of_four() {
    let s = start().await;
    let r = get(s.addr, "/getWallets?page=1&entries=4").await;
    assert_eq!(r.status, 200);
    let page: WalletsPage = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(page.count, 60);
    assert_eq!(page.data.len(), 4);
    assert_eq!(page.data[0].name, "Demo Wallet");
    assert_eq!(page.data[0].rdns.as_deref(), Some("dev.walletmodal.demo"));
    // every field is present on the wire (null when absent)
    let v = r.json();
    for w in v["data"].as_array().unwrap() {
        for key in [
            "id",
            "name",
            "image_id",
            "rdns",
            "chains",
            "mobile_link",
            "desktop_link",
            "webapp_link",
        ] {
            assert!(
                w.as_object().unwrap().contains_key(key),
                "missing {key} in {w}"
            );
        }
    }
}

#[tokio::test]
async fn wallets_pagination_40_and_100() {
    let s = start().await;
    let p1 = get(s.addr, "/getWallets?page=1&entries=40").await.json();
    let p2 = get(s.addr, "/getWallets?page=2&entries=40").await.json();
    let p3 = get(s.addr, "/getWallets?page=3&entries=40").await.json();
    assert_eq!(ids(&p1).len(), 40);
    assert_eq!(ids(&p2).len(), 20);
    assert_eq!(ids(&p3).len(), 0);
    assert_eq!(p3["count"], json!(60));
    let mut all = ids(&p1);
    all.extend(ids(&p2));
    let hundred = get(s.addr, "/getWallets?page=1&entries=100").await.json();
    assert_eq!(ids(&hundred), all);
    // entries above 100 are clamped; default page size is 40
    assert_eq!(
        ids(&get(s.addr, "/getWallets?entries=500").await.json()).len(),
        60
    );
    assert_eq!(ids(&get(s.addr, "/getWallets").await.json()).len(), 40);
}

#[tokio::test]
async fn wallets_bad_numbers_are_400() {
    let s = start().await;
    assert_eq!(get(s.addr, "/getWallets?page=0").await.status, 400);
    assert_eq!(get(s.addr, "/getWallets?page=-1").await.status, 400);
    assert_eq!(get(s.addr, "/getWallets?entries=abc").await.status, 400);
}

#[tokio::test]
async fn wallets_search_is_case_insensitive_on_name() {
    let s = start().await;
    let r = get(s.addr, "/getWallets?page=1&entries=100&search=DEMO")
        .await
        .json();
    assert_eq!(ids(&r), vec!["demo-wallet"]);
    assert_eq!(r["count"], json!(1));
    let r = get(
        s.addr,
        "/getWallets?page=1&entries=100&search=test%20wallet%200",
    )
    .await
    .json();
    assert_eq!(r["count"], json!(9)); // Test Wallet 01..09
    let r = get(s.addr, "/getWallets?search=zzz-nothing").await.json();
    assert_eq!(r, json!({"data": [], "count": 0}));
    // search matches names only, not ids
    let r = get(s.addr, "/getWallets?search=demo-wallet").await.json();
    assert_eq!(r["count"], json!(0));
}

#[tokio::test]
async fn wallets_include_and_exclude() {
    let s = start().await;
    let r = get(
        s.addr,
        "/getWallets?include=test-wallet-03,demo-wallet,nope",
    )
    .await
    .json();
    assert_eq!(ids(&r), vec!["demo-wallet", "test-wallet-03"]);
    assert_eq!(r["count"], json!(2));
    let r = get(
        s.addr,
        "/getWallets?entries=4&exclude=demo-wallet,rainbow-like",
    )
    .await
    .json();
    assert_eq!(r["count"], json!(58));
    assert!(!ids(&r).contains(&"demo-wallet".to_string()));
    assert_eq!(ids(&r)[0], "lantern-wallet");
    let r = get(
        s.addr,
        "/getWallets?include=demo-wallet,rainbow-like&exclude=demo-wallet",
    )
    .await
    .json();
    assert_eq!(ids(&r), vec!["rainbow-like"]);
}

#[tokio::test]
async fn wallets_badge_and_chains_filters() {
    let s = start().await;
    let all = get(s.addr, "/getWallets?entries=100").await.json()["count"]
        .as_u64()
        .unwrap();
    let certified = get(s.addr, "/getWallets?entries=100&badge_type=certified")
        .await
        .json();
    let n = certified["count"].as_u64().unwrap();
    assert!(n > 0 && n < all);
    assert_eq!(
        get(s.addr, "/getWallets?badge_type=none").await.json()["count"],
        json!(all)
    );
    let sol = get(
        s.addr,
        "/getWallets?entries=100&chains=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    )
    .await
    .json();
    assert!(ids(&sol).contains(&"sunrise-sol".to_string()));
    assert!(!ids(&sol).contains(&"demo-wallet".to_string()));
    let anvil = get(
        s.addr,
        "/getWallets?entries=100&chains=eip155:31337,eip155:31338",
    )
    .await
    .json();
    assert!(ids(&anvil).contains(&"demo-wallet".to_string()));
    assert!(!ids(&anvil).contains(&"sunrise-sol".to_string()));
}

// ----- images ------------------------------------------------------------------------------------------

#[tokio::test]
async fn wallet_images_are_generated_svgs() {
    let s = start().await;
    let r = get(s.addr, "/getWalletImage/demo-wallet").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    let svg = r.text();
    assert!(svg.starts_with("<svg") && svg.contains(">DW</text>"));
    let other = get(s.addr, "/getWalletImage/test-wallet-07").await.text();
    assert_ne!(svg, other);
    assert_eq!(
        get(s.addr, "/getWalletImage/no-such-wallet").await.status,
        404
    );
    assert_eq!(
        get(s.addr, "/getWalletImage/missing-image").await.status,
        404
    );
}

#[tokio::test]
async fn every_catalogue_image_resolves_except_the_broken_and_slow_ones() {
    let s = start().await;
    let all = get(s.addr, "/getWallets?entries=100").await.json();
    for w in all["data"].as_array().unwrap() {
        let image = w["image_id"].as_str().unwrap();
        if image == "slow" {
            continue;
        }
        let status = get(s.addr, &format!("/getWalletImage/{image}"))
            .await
            .status;
        let expected = if image == "missing-image" { 404 } else { 200 };
        assert_eq!(status, expected, "{image}");
    }
}

#[tokio::test]
async fn public_images() {
    let s = start().await;
    for p in [
        "getAssetImage/692ed6ba-e569-459a-556a-776476829e00",
        "getTokenImage/USDC",
        "getCurrencyImage/USD",
    ] {
        let r = get(s.addr, &format!("/public/{p}")).await;
        assert_eq!(r.status, 200, "{p}");
        assert_eq!(r.header("content-type"), Some("image/svg+xml"));
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    }
    assert_eq!(
        get(s.addr, "/public/getTokenImage/missing").await.status,
        404
    );
    assert_eq!(
        get(s.addr, "/public/getAssetImage/%3Cscript%3E")
            .await
            .status,
        404
    );
    assert_eq!(
        get(
            s.addr,
            &format!("/public/getCurrencyImage/{}", "x".repeat(65))
        )
        .await
        .status,
        404
    );
}

#[tokio::test]
async fn slow_image_takes_five_seconds() {
    let s = start().await;
    let t = std::time::Instant::now();
    let quick = tokio::time::timeout(
        std::time::Duration::from_millis(2000),
        get(s.addr, "/getWalletImage/slow"),
    )
    .await;
    assert!(
        quick.is_err(),
        "slow image answered before the 2000 ms preload time-out"
    );
    let r = get(s.addr, "/public/getTokenImage/slow").await;
    assert_eq!(r.status, 200);
    assert!(t.elapsed() >= std::time::Duration::from_millis(6900));
}

// ----- analytics ---------------------------------------------------------------------------------------

#[tokio::test]
async fn analytics_config() {
    let s = start().await;
    let r = get(s.addr, "/getAnalyticsConfig?projectId=demo-project").await;
    assert_eq!(r.json(), json!({"isAnalyticsEnabled": true}));
    let r = get(s.addr, "/getAnalyticsConfig").await;
    assert_eq!(r.json(), json!({"isAnalyticsEnabled": true}));
    let r = get(s.addr, "/getAnalyticsConfig?projectId=analytics-disabled").await;
    assert_eq!(r.json(), json!({"isAnalyticsEnabled": false}));
}

fn event(id: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "eventId": id, "url": "http://127.0.0.1:1/", "domain": "127.0.0.1", "timestamp": 1_700_000_000_000u64,
        "props": {"type": "track", "event": "MODAL_OPEN", "properties": {"connected": false}}
    }))
    .unwrap()
}

#[tokio::test]
async fn analytics_records_lists_and_clears() {
    let s = start().await;
    assert_eq!(common::recorded(s.addr, "").await.json(), json!([]));
    let json_ct = [("content-type", "application/json")];
    let r = request(
        s.addr,
        "POST",
        "/e?projectId=demo-project&st=appkit&sv=html-1.0.0",
        &json_ct,
        &event("a"),
    )
    .await;
    assert_eq!(r.status, 200);
    // text/plain (sendBeacon) is accepted too
    let r = request(
        s.addr,
        "POST",
        "/e?projectId=demo-project",
        &[("content-type", "text/plain")],
        &event("b"),
    )
    .await;
    assert_eq!(r.status, 200);
    let list = common::recorded(s.addr, "").await.json();
    let events: Vec<AnalyticsEvent> = serde_json::from_value(list.clone()).unwrap();
    assert_eq!(
        events
            .iter()
            .map(|e| e.event_id.as_str())
            .collect::<Vec<_>>(),
        vec!["a", "b"]
    );
    assert_eq!(list[0]["props"]["event"], json!("MODAL_OPEN"));
    let meta = common::recorded(s.addr, "?withMeta=true").await.json();
    assert_eq!(meta[0]["projectId"], json!("demo-project"));
    assert_eq!(meta[0]["st"], json!("appkit"));
    assert_eq!(meta[0]["sv"], json!("html-1.0.0"));
    assert_eq!(meta[0]["event"]["eventId"], json!("a"));
    assert!(meta[0]["receivedAt"].as_u64().unwrap() > 0);
    assert_eq!(meta[1]["st"], Value::Null);

    let r = common::test_hook(s.addr, "DELETE", "/e/recorded").await;
    assert_eq!(r.status, 204);
    assert_eq!(common::recorded(s.addr, "").await.json(), json!([]));
}

#[tokio::test]
async fn the_test_hooks_need_the_test_token_and_do_not_exist_without_it() {
    let s = start().await;
    let kept = event("kept");
    let r = request(s.addr, "POST", "/e?projectId=p", &[], &kept).await;
    assert_eq!(r.status, 200);
    // Without the token, or with another one: the 404 of an unknown route, and nothing is cleared.
    let wrong = format!("Bearer {}x", common::TEST_TOKEN);
    let short = &common::TEST_TOKEN[..common::TEST_TOKEN.len() - 1];
    let short = format!("Bearer {short}");
    let basic = format!("Basic {}", common::TEST_TOKEN);
    let unknown = get(s.addr, "/definitely/not/here").await;
    for auth in [
        None,
        Some(wrong.as_str()),
        Some(short.as_str()),
        Some(basic.as_str()),
    ] {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
        for method in ["GET", "DELETE"] {
            let r = request(s.addr, method, "/e/recorded", &headers, b"").await;
            assert_eq!(r.status, 404, "{method} {auth:?}: {}", r.text());
            assert_eq!(r.json(), unknown.json(), "{method} {auth:?}");
            assert_eq!(r.header("www-authenticate"), None);
        }
    }
    assert_eq!(
        common::recorded(s.addr, "").await.json()[0]["eventId"],
        "kept"
    );
    // A server started without --test-token has no test hooks at all.
    let options = wm_server::Options {
        test_token: None,
        ..s.state.options.clone()
    };
    let bare = wm_server::start(options, 0, std::future::pending())
        .await
        .unwrap();
    let auth = format!("Bearer {}", common::TEST_TOKEN);
    for method in ["GET", "DELETE"] {
        for headers in [vec![], vec![("Authorization", auth.as_str())]] {
            let r = request(bare.addr, method, "/e/recorded", &headers, b"").await;
            assert_eq!(r.status, 404, "{method}");
        }
    }
    // Recording itself needs no token.
    let r = request(bare.addr, "POST", "/e?projectId=p", &[], &event("x")).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn analytics_rejects_bad_input() {
    let s = start().await;
    assert_eq!(
        request(
            s.addr,
            "POST",
            "/e?projectId=demo-project",
            &[],
            b"not json"
        )
        .await
        .status,
        400
    );
    assert_eq!(
        request(s.addr, "POST", "/e?projectId=demo-project", &[], b"[1,2]")
            .await
            .status,
        400
    );
    assert_eq!(
        request(s.addr, "POST", "/e", &[], &event("x")).await.status,
        400
    );
    assert_eq!(
        request(s.addr, "POST", "/e?projectId=bad", &[], &event("x"))
            .await
            .status,
        403
    );
    assert_eq!(common::recorded(s.addr, "").await.json(), json!([]));
}

#[tokio::test]
async fn analytics_body_limit_is_64_kib() {
    let s = start().await;
    // exactly at the limit: accepted
    let mut body = br#"{"eventId":"big","pad":""#.to_vec();
    let tail = br#""}"#;
    body.resize(wm_server::MAX_EVENT_BODY - tail.len(), b'x');
    body.extend_from_slice(tail);
    assert_eq!(body.len(), 65536);
    assert_eq!(
        request(s.addr, "POST", "/e?projectId=p", &[], &body)
            .await
            .status,
        200
    );
    // one byte more: 413
    let mut over = br#"{"eventId":"big","pad":""#.to_vec();
    over.resize(wm_server::MAX_EVENT_BODY + 1 - tail.len(), b'x');
    over.extend_from_slice(tail);
    let r = request(s.addr, "POST", "/e?projectId=p", &[], &over).await;
    assert_eq!(r.status, 413);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        common::recorded(s.addr, "")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn analytics_body_limit_applies_to_chunked_bodies() {
    let s = start().await;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /e?projectId=p HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b'x'; 16 * 1024];
    for _ in 0..5 {
        let _ = stream
            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .await;
        let _ = stream.write_all(&chunk).await;
        let _ = stream.write_all(b"\r\n").await;
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    assert_eq!(common::parse(&raw).status, 413);
}

#[tokio::test]
async fn analytics_keeps_at_most_1000_events() {
    let s = start().await;
    for i in 0..1005 {
        let r = request(
            s.addr,
            "POST",
            "/e?projectId=p",
            &[],
            &event(&format!("e{i}")),
        )
        .await;
        assert_eq!(r.status, 200);
    }
    let list = common::recorded(s.addr, "").await.json();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), wm_server::MAX_RECORDED_EVENTS);
    assert_eq!(list[0]["eventId"], json!("e5"));
    assert_eq!(list[999]["eventId"], json!("e1004"));
}

// ----- CORS --------------------------------------------------------------------------------------------

#[tokio::test]
async fn cors_preflight_on_api_routes() {
    let s = start().await;
    for path in [
        "/e?projectId=p",
        "/getWallets",
        "/appkit/v1/config",
        "/projects/v1/origins",
        "/e/recorded",
    ] {
        let r = request(
            s.addr,
            "OPTIONS",
            path,
            &[
                ("origin", "http://127.0.0.1:9"),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "content-type,x-project-id",
                ),
            ],
            b"",
        )
        .await;
        assert_eq!(r.status, 204, "{path}");
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        assert!(r
            .header("access-control-allow-methods")
            .unwrap()
            .contains("POST"));
        assert!(r
            .header("access-control-allow-methods")
            .unwrap()
            .contains("DELETE"));
        assert_eq!(
            r.header("access-control-allow-headers"),
            Some("content-type,x-project-id")
        );
    }
}

#[tokio::test]
async fn cors_header_on_every_response_including_errors() {
    let s = start().await;
    for path in [
        "/getWallets",
        "/appkit/v1/config?projectId=bad",
        "/nope",
        "/getAnalyticsConfig",
        "/demo-config.json",
    ] {
        let r = request(
            s.addr,
            "GET",
            path,
            &[("origin", "http://localhost:9")],
            b"",
        )
        .await;
        assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{path}");
    }
}

// ----- demo config and static files -------------------------------------------------------------------

#[tokio::test]
async fn demo_config_lists_chains_and_own_origin() {
    let s = start().await;
    let r = get(s.addr, "/demo-config.json").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["apiUrl"], json!(s.origin()));
    assert_eq!(
        v["chains"][0],
        json!({"chainId": 31337, "rpcUrl": "http://127.0.0.1:18545", "name": "Anvil A"})
    );
    assert_eq!(v["chains"][1]["chainId"], json!(31338));
    assert_eq!(v["projectId"], json!("demo-project"));
    // a loopback Host with the right port is echoed (the page may be opened via localhost)
    let host = format!("localhost:{}", s.addr.port());
    let r = request(
        s.addr,
        "GET",
        "/demo-config.json",
        &[("Host", host.as_str())],
        b"",
    )
    .await;
    assert_eq!(r.json()["apiUrl"], json!(format!("http://{host}")));
    // anything else falls back to the bound address
    let evil = format!("evil.example:{}", s.addr.port());
    let r = request(
        s.addr,
        "GET",
        "/demo-config.json",
        &[("Host", evil.as_str())],
        b"",
    )
    .await;
    assert_eq!(r.json()["apiUrl"], json!(s.origin()));
    let r = request(
        s.addr,
        "GET",
        "/demo-config.json",
        &[("Host", "localhost:1")],
        b"",
    )
    .await;
    assert_eq!(r.json()["apiUrl"], json!(s.origin()));
}

#[tokio::test]
async fn not_found_is_json_404() {
    let s = start().await;
    let r = get(s.addr, "/definitely/not/here").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["status"], json!(404));
}
