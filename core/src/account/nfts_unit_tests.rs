//! Unit tests of `nfts`.

use super::*;

#[test]
fn a_page_keeps_this_chains_items_without_spam_and_names_unnamed_ones_by_collection() {
    let body = json!({"data": [
        {"chainId": "eip155:31337", "contract": {"address": "0xAbC", "name": "Pass"}, "tokenId": "3", "name": "Pass #3", "imageUrl": "http://127.0.0.1/i.svg", "isSpam": false},
        {"chainId": "eip155:31337", "contract": {"address": "0xabc", "name": "Pass"}, "tokenId": "4", "imageUrl": "javascript:alert(1)"},
        {"chainId": "eip155:31337", "contract": {"address": "0xdef"}, "tokenId": "1", "isSpam": true},
        {"chainId": "eip155:1", "contract": {"address": "0xabc"}, "tokenId": "9"},
        {"chainId": "eip155:31337", "contract": {"address": "0xabc"}, "tokenId": "x"}
    ], "next": "50"})
    .to_string();
    let (tiles, next) = parse_page(&body, "eip155:31337").unwrap();
    assert_eq!(next.as_deref(), Some("50"));
    assert_eq!(tiles.len(), 2, "{tiles:?}");
    assert_eq!(tiles[0], NftTile { id: "0xabc:3".into(), name: "Pass #3".into(), collection: Some("Pass".into()), image_url: Some("http://127.0.0.1/i.svg".into()) });
    assert_eq!(tiles[1].name, "Pass #4");
    assert_eq!(tiles[1].image_url, None, "only http(s) images");
    assert!(parse_page("{\"data\": 3}", "eip155:31337").is_none());
    assert!(parse_page("not json", "eip155:31337").is_none());
}

#[test]
fn nft_names_lose_bidi_controls() {
    let body = json!({"data": [{"chainId": "eip155:31337", "contract": {"address": "0xabc", "name": "Bored\u{202E}spA"}, "tokenId": "1", "name": "Ape \u{2067}#1\u{2069}"}]}).to_string();
    let (tiles, _) = parse_page(&body, "eip155:31337").unwrap();
    assert_eq!((tiles[0].name.as_str(), tiles[0].collection.as_deref()), ("Ape #1", Some("BoredspA")));
}
