//! The activity slice's flows: the Activity tab.

use crate::host::harness::*;

const CHAIN: &str = "eip155:31337";

#[test]
fn activity_pages_with_the_cursor_groups_by_month_and_drops_spam() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/history")), "not before its tab shows");
    h.send(json!({"type": "selectAccountTab", "tab": "activity"}));
    assert_eq!(h.snap.part("tab"), "activity");
    let tx = |id: &str, at: &str, spam: bool| json!({"id": id, "metadata": {"operationType": "receive", "minedAt": at, "chain": CHAIN, "sentFrom": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "sentTo": ADDR},
        "transfers": [{"nft_info": {"name": "Junk", "flags": {"is_spam": spam}}, "direction": "in", "quantity": {"numeric": "1"}}]});
    let spam_token = json!({"id": "f", "metadata": {"operationType": "receive", "minedAt": "2026-11-22T10:00:00Z", "chain": CHAIN},
        "transfers": [{"fungible_info": {"name": null, "symbol": null, "icon": null, "flags": {"is_spam": true}}, "direction": "in", "quantity": {"numeric": "5"}}]});
    h.serve("/history", 200, json!({"data": [tx("a", "2026-11-20T10:00:00Z", false), tx("b", "2026-10-01T10:00:00Z", false), tx("s", "2026-11-21T10:00:00Z", true), spam_token], "next": "c2"}));
    let groups = h.snap.part("activity")["groups"].as_array().unwrap().clone();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["label"], "November 2026");
    assert_eq!(groups[0]["items"].as_array().unwrap().len(), 1, "spam NFTs and spam tokens dropped (null names read)");
    assert_eq!(groups[0]["items"][0]["amount"], "+1 Junk", "an NFT is counted");
    assert_eq!(h.snap.part("activity")["hasMore"], true);
    h.send(json!({"type": "loadMoreActivity"}));
    let (_, url, _) = h.fetch("/history");
    assert!(url.contains("cursor=c2"), "{url}");
    h.send(json!({"type": "selectAccountTab", "tab": "tokens"}));
    assert_eq!(h.snap.part("activity"), &Value::Null, "only the shown tab's list is in the snapshot");
}

#[test]
fn a_failed_history_read_says_failed_to_fetch_transactions_and_the_engine_sends_the_analytics_event() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    h.serve("/history", 0, json!(null));
    assert_eq!(h.snap.part("activity")["error"]["message"], "Failed to fetch transactions");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Emit { name: "error", .. })));
    let note = h.notes.iter().find_map(|(m, n)| (*m == "account" && n["note"] == "analytics").then(|| n["event"].as_str().unwrap().to_string()));
    assert_eq!(note.as_deref(), Some("ERROR_FETCH_TRANSACTIONS"), "told to the engine, whose service slice sends it");
}

#[test]
fn without_the_activity_feature_the_account_has_no_activity_tab_and_reads_no_history() {
    let mut h = Harness::new(json!({"debug": true}));
    h.send(json!({"type": "open"}));
    h.serve("appkit/v1/config", 200, json!({"features": {"activity": false}}));
    h.account(CHAIN, true);
    assert_eq!(h.snap.part("tabs"), &json!(["tokens", "nfts"]));
    h.send(json!({"type": "selectAccountTab", "tab": "activity"}));
    assert_eq!(h.snap.part("tab"), "tokens", "the tab stays");
    assert!(h.effects.iter().any(|e| matches!(e, Effect::Alert { key, .. } if key == "TAB_OFF")), "{:?}", h.effects);
    assert!(!h.fetches().iter().any(|(_, u)| u.contains("/history")), "no history read");
}

#[test]
fn the_activity_tab_is_there_with_the_spec_defaults() {
    let mut h = Harness::new(json!({}));
    h.account(CHAIN, true);
    assert_eq!(h.snap.part("tabs"), &json!(["tokens", "nfts", "activity"]));
}

#[test]
fn the_activity_tab_waits_for_the_supported_chains_before_its_first_history_read() {
    // Spec §7: the supported chains are asked before the first call; a tab shown before they
    // arrive (a remembered tab) asks nothing until they do, then reads — or says it cannot.
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    assert!(h.open_fetch("/v1/supported-chains").is_some(), "the portfolio asked them");
    assert!(h.open_fetch("/history").is_none(), "no history read before they are known");
    h.now += 200;
    h.fire("activity-chains");
    assert!(h.open_fetch("/history").is_none(), "still waiting");
    h.serve("/v1/supported-chains", 200, json!({"http": [CHAIN], "ws": []}));
    h.now += 200;
    h.fire("activity-chains");
    assert!(h.open_fetch("/history").is_some(), "read once they are known");
}

#[test]
fn the_activity_tab_says_it_has_no_history_on_a_chain_the_api_does_not_read_without_asking() {
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    h.serve("/v1/supported-chains", 200, json!({"http": ["eip155:1"], "ws": []}));
    h.now += 200;
    h.fire("activity-chains");
    assert!(h.open_fetch("/history").is_none(), "never asked");
    assert_eq!(h.snap.part("activity")["unavailable"], "Activity is not available for accounts on Anvil 31337");
}

#[test]
fn a_tab_waits_for_the_supported_chains_five_seconds_at_most_then_reads() {
    let mut h = Harness::new(json!({}));
    h.api_chains = None;
    h.account(CHAIN, true).send(json!({"type": "selectAccountTab", "tab": "activity"}));
    for _ in 0..25 {
        assert!(h.open_fetch("/history").is_none());
        h.now += 200;
        h.fire("activity-chains");
    }
    assert!(h.open_fetch("/history").is_some(), "after 25 checks: read without the list");
}
