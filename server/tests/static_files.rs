//! Static file serving: index, demo/, dist/, content types, traversal.

mod common;

use common::{get, start_with_root};
use std::path::PathBuf;

/// A throw-away root with demo/ and dist/ trees.
fn fixture() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "wm-demo-static-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    let w = |p: &str, c: &[u8]| {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    };
    w(
        "demo/page/index.html",
        b"<!doctype html><title>demo</title>",
    );
    w("demo/page/demo.js", b"export {};");
    w("demo/page/demo.css", b"body{}");
    w("demo/wallet/demo-wallet.js", b"// wallet");
    w("demo/wallet/extension/manifest.json", b"{}");
    w("demo/contracts/src/Secret.sol", b"fn main(){}");
    w(
        "demo/wallet-mobile/index.html",
        b"<!doctype html><title>mobile</title>",
    );
    w("demo/wallet-mobile/wallet.css", b"body{}");
    w("demo/wallet-mobile/dist/wallet-mobile.js", b"export {};");
    w("demo/wallet-mobile/src/wallet.js", b"// source");
    w("demo/wallet-mobile/build.mjs", b"// build");
    w("dist/wallet-modal.js", b"export {};");
    w("dist/chunk.mjs", b"export {};");
    w("dist/core_bg.wasm", b"\0asm\x01\0\0\0");
    w("dist/style.css", b"a{}");
    w("dist/wallet-modal.js.map", b"{}");
    w("dist/.secret", b"no");
    w("secret.txt", b"no");
    dir
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

#[tokio::test]
async fn index_and_content_types() {
    let root = fixture();
    let s = start_with_root(root.clone()).await;
    let cases = [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/demo/page/index.html", "text/html; charset=utf-8"),
        ("/demo/page/demo.js", "text/javascript; charset=utf-8"),
        ("/demo/page/demo.css", "text/css; charset=utf-8"),
        (
            "/demo/wallet/demo-wallet.js",
            "text/javascript; charset=utf-8",
        ),
        ("/demo/wallet/extension/manifest.json", "application/json"),
        ("/dist/wallet-modal.js", "text/javascript; charset=utf-8"),
        ("/dist/chunk.mjs", "text/javascript; charset=utf-8"),
        ("/dist/core_bg.wasm", "application/wasm"),
        ("/dist/style.css", "text/css; charset=utf-8"),
        ("/dist/wallet-modal.js.map", "application/json"),
    ];
    for (path, ct) in cases {
        let r = get(s.addr, path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some(ct), "{path}");
        assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{path}");
    }
    assert_eq!(
        get(s.addr, "/").await.text(),
        "<!doctype html><title>demo</title>"
    );
    assert_eq!(
        get(s.addr, "/dist/core_bg.wasm").await.body,
        b"\0asm\x01\0\0\0"
    );
    std::fs::remove_dir_all(root).ok();
}

#[tokio::test]
async fn no_traversal_no_server_sources_no_dotfiles() {
    let root = fixture();
    let s = start_with_root(root.clone()).await;
    for path in [
        "/demo/contracts/src/Secret.sol",
        "/demo/../secret.txt",
        "/demo/page/..%2F..%2Fsecret.txt",
        "/dist/..%2Fsecret.txt",
        "/dist/%2e%2e/secret.txt",
        "/dist/.secret",
        "/dist/",
        "/dist/nope.js",
        "/demo/page/",
        "/node_modules/react/index.js",
        "/wallet-mobile/src/wallet.js",
        "/wallet-mobile/build.mjs",
        "/wallet-mobile/index.html",
        "/wallet-mobile/dist/..%2Fbuild.mjs",
    ] {
        let r = get(s.addr, path).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text());
    }
    std::fs::remove_dir_all(root).ok();
}

#[tokio::test]
async fn serves_the_real_demo_page() {
    let s = common::start().await;
    let r = get(s.addr, "/").await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("<wallet-modal"));
    let r = get(s.addr, "/demo/wallet/demo-wallet.js").await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("installDemoWallet"));
}

#[tokio::test]
async fn mobile_wallet_page_its_deep_link_and_its_bundle() {
    let root = fixture();
    let s = start_with_root(root.clone()).await;
    for path in [
        "/wallet-mobile/",
        "/wallet-mobile/?uri=wc%3Aabc%402",
        "/wallet-mobile/wc?uri=wc%3Aabc%402",
    ] {
        let r = get(s.addr, path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(r.text(), "<!doctype html><title>mobile</title>", "{path}");
    }
    let r = get(s.addr, "/wallet-mobile").await;
    assert_eq!(r.status, 308);
    assert_eq!(r.header("location"), Some("/wallet-mobile/"));
    let r = get(s.addr, "/wallet-mobile/wallet.css").await;
    assert_eq!(r.header("content-type"), Some("text/css; charset=utf-8"));
    let r = get(s.addr, "/wallet-mobile/dist/wallet-mobile.js").await;
    assert_eq!(
        r.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(r.text(), "export {};");
    std::fs::remove_dir_all(root).ok();
}

#[tokio::test]
async fn serves_the_real_mobile_wallet_page() {
    let s = common::start().await;
    let r = get(s.addr, "/wallet-mobile/").await;
    assert_eq!(r.status, 200);
    let page = r.text();
    assert!(
        page.contains("/wallet-mobile/dist/wallet-mobile.js"),
        "{page}"
    );
    assert!(page.contains("script-src 'self'"), "strict CSP: {page}");
    assert!(!page.contains("<script>"), "no inline script: {page}");
}
