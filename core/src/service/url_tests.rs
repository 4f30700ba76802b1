//! Unit tests of `url`.

use super::*;

#[test]
fn wallet_deep_links_are_built_the_walletconnect_way_and_unsafe_links_refused() {
    let uri = "wc:7f6e@2?symKey=58&relay-protocol=irn";
    let e = encode_component(uri);
    assert_eq!(e, "wc%3A7f6e%402%3FsymKey%3D58%26relay-protocol%3Dirn");
    assert_eq!(wallet_deep_link("metamask://", uri), Some(format!("metamask://wc?uri={e}")));
    assert_eq!(wallet_deep_link("rainbow:", uri), Some(format!("rainbow://wc?uri={e}")));
    assert_eq!(wallet_deep_link("https://link.trustwallet.com/", uri), Some(format!("https://link.trustwallet.com/wc?uri={e}")));
    assert_eq!(wallet_deep_link("https://harbor-vault.example/wc", uri), Some(format!("https://harbor-vault.example/wc/wc?uri={e}")));
    for bad in ["javascript:alert(1)", "JavaScript://x", "data:text/html,x", "http://plain.example", "vbscript:x", "", "no scheme", "1abc://x", "https:evil", "wallet://a b"] {
        assert_eq!(wallet_deep_link(bad, uri), None, "{bad:?}");
    }
}

#[test]
fn components_are_encoded_like_encode_uri_component() {
    assert_eq!(encode_component("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
    assert_eq!(encode_component("eip155:1,solana:x"), "eip155%3A1%2Csolana%3Ax");
    assert_eq!(encode_component("A-z_0.9~!*'()"), "A-z_0.9~!*'()");
}

#[test]
fn build_joins_base_path_and_non_empty_query_pairs() {
    assert_eq!(build("http://h:1/", "/getWallets", &[("page", "1"), ("search", ""), ("q", "a b")]), "http://h:1/getWallets?page=1&q=a%20b");
    assert_eq!(build("http://h/v1/?chainId=1", "", &[("projectId", "p")]), "http://h/v1/?chainId=1&projectId=p");
}

#[test]
fn segments_cannot_escape_the_path() {
    assert_eq!(segment("../admin?x=1#"), "..%2Fadmin%3Fx%3D1%23");
}

#[test]
fn after_scheme_is_what_split_nth_1_gives() {
    for o in ["https://app.example:8443", "http://[::1]:5173", "null", "", "a://b://c", "://x", "x://"] {
        assert_eq!(after_scheme(o), o.split("://").nth(1).unwrap_or(""), "{o:?}");
    }
}

#[test]
fn components_decode_back_and_broken_escapes_are_refused() {
    for s in ["a b&c=d/é", "me@example.com", "wc:7f6e@2?symKey=58", "100%", ""] {
        assert_eq!(decode_component(&encode_component(s)).as_deref(), Some(s), "{s:?}");
    }
    assert_eq!(decode_component("a+b%2b").as_deref(), Some("a+b+"));
    for bad in ["%", "%4", "%zz", "%+1", "%-1", "%ff", "%C3"] {
        assert_eq!(decode_component(bad), None, "{bad:?}");
    }
}
