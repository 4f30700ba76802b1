//! The nfts slice's flows: the NFTs tab.

use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";

#[test]
fn the_nfts_tab_reads_the_held_items_when_it_shows_and_pages_with_the_cursor() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/nfts")), "not before the tab shows");
    h.send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    assert_eq!(h.snap.part("nfts")["loading"], true);
    let (_, url, _) = h.fetch("/nfts");
    assert!(url.starts_with(&format!("http://api.test/v1/account/{ADDR}/nfts?")) && url.contains("chainId=eip155%3A31337"), "{url}");
    let nft = |id: &str, spam: bool| json!({"chainId": CHAIN, "contract": {"address": "0xE7f1725E7734CE288F8367e1Bb143E90bb3F0512", "name": "Wallet Modal Pass", "symbol": "WMP"},
        "tokenId": id, "name": format!("Wallet Modal Pass #{id}"), "imageUrl": format!("http://api.test/demo-nft/{id}/image.svg"), "isSpam": spam});
    h.serve("/nfts", 200, json!({"data": [nft("3", false), nft("1", false), nft("7", true)], "next": "2"}));
    let items = h.snap.part("nfts")["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 2, "spam dropped");
    assert_eq!(items[0]["name"], "Wallet Modal Pass #3");
    assert_eq!(items[0]["collection"], "Wallet Modal Pass");
    assert_eq!(items[0]["imageUrl"], "http://api.test/demo-nft/3/image.svg");
    assert_eq!(h.snap.part("nfts")["hasMore"], true);
    h.send(json!({"type": "loadMoreNfts"}));
    let (_, url, _) = h.fetch("/nfts");
    assert!(url.contains("cursor=2"), "{url}");
    h.serve("/nfts", 200, json!({"data": [nft("1", false)], "next": null}));
    assert_eq!(h.snap.part("nfts")["items"].as_array().unwrap().len(), 2, "an item seen twice shows once");
    assert_eq!(h.snap.part("nfts")["hasMore"], false);
    // Another account: read again, empty says so.
    h.switch_account("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    h.serve("/nfts", 200, json!({"data": [], "next": null}));
    assert_eq!(h.snap.part("nfts")["empty"], true);
    assert_eq!(h.snap.part("nfts")["items"], json!([]));
}

#[test]
fn a_failed_nfts_read_says_so_and_is_not_empty() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    h.serve("/nfts", 503, json!({"status": "FAILED"}));
    assert_eq!(h.snap.part("nfts")["error"], "Failed to fetch NFTs");
    assert_eq!(h.snap.part("nfts")["empty"], false);
    assert_eq!(h.snap.part("nfts")["loading"], false);
}

#[test]
fn the_nfts_tab_waits_for_the_supported_chains_before_its_first_read() {
    // Spec §7: the supported chains are asked before the first call (a remembered tab included).
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    assert!(h.open_fetch("/v1/supported-chains").is_some());
    assert!(h.open_fetch("/nfts").is_none(), "no NFT read before they are known");
    h.serve("/v1/supported-chains", 200, json!({"http": [CHAIN], "ws": []}));
    h.now += 200;
    h.fire("nfts-chains");
    let (_, url, _) = h.fetch("/nfts");
    assert!(url.contains("chainId=eip155%3A31337"), "{url}");
}

#[test]
fn on_a_family_whose_supported_chains_are_never_asked_the_nfts_tab_reads_at_once() {
    // The portfolio asks the list only for families with the API's balances: Bitcoin's tab must
    // not wait 5 s for a list that never comes.
    let mut h = crate::account::send_tests::bitcoin_harness();
    h.api_chains = None;
    h.send(json!({"type": "selectAccountTab", "tab": "nfts"}));
    assert!(h.open_fetch("/v1/supported-chains").is_none(), "nobody asks it here");
    assert!(h.open_fetch("/nfts").is_some(), "read at once");
}
