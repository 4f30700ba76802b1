//! Unit tests of `activity`.

use super::*;

#[test]
fn rows_say_what_happened_with_the_spec_sign() {
    assert_eq!(describe("send"), "Sent");
    assert_eq!(describe("RECEIVE"), "Received");
    assert_eq!(describe("stake"), "Stake");
    assert_eq!(sign("receive", "out"), "+", "the operation type wins");
    assert_eq!(sign("burn", "in"), "-");
    assert_eq!(sign("send", "out"), "-", "no spec sign: the direction");
    assert_eq!(sign("execute", "self"), "");
}

#[test]
fn a_row_names_the_counterparty_and_the_signed_amount() {
    let tx: Transaction = serde_json::from_value(serde_json::json!({"id": "t1", "metadata": {"operationType": "send", "minedAt": "2026-11-02T10:00:00Z",
        "sentFrom": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "sentTo": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "chain": "eip155:31337", "hash": "0xab", "status": "confirmed"},
        "transfers": [{"fungible_info": {"name": "USD Coin", "symbol": "USDC"}, "direction": "out", "quantity": {"numeric": "12.5"}}]}))
    .unwrap();
    let r = row(&tx, "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
    assert_eq!(r["title"], "Sent");
    assert_eq!(r["amount"], "-12.500 USDC");
    assert_eq!(r["counterparty"], "0x70...dc79C8", "4 characters, then the last 6");
    assert_eq!(month_label(r["minedAt"].as_i64().unwrap()), "November 2026");
    assert_eq!(r["swap"], Value::Null);
}

#[test]
fn a_swap_says_what_went_out_for_what_came_in() {
    let tx: Transaction = serde_json::from_value(serde_json::json!({"id": "t2", "metadata": {"operationType": "trade", "minedAt": "2026-11-02T10:00:00Z",
        "sentFrom": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "sentTo": "0xb19b36b1456E65E3A6D514D3F715f204BD59f431", "chain": "eip155:31337", "hash": "0xab", "status": "confirmed"},
        "transfers": [{"fungible_info": {"name": "Ether", "symbol": "ETH"}, "direction": "out", "quantity": {"numeric": "0.5"}},
                      {"fungible_info": {"name": "USD Coin", "symbol": "USDC", "icon": {"url": "http://x/usdc.svg"}}, "direction": "in", "quantity": {"numeric": "1494.01"}}]}))
    .unwrap();
    let r = row(&tx, "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
    assert_eq!(r["title"], "Swapped");
    assert_eq!(r["swap"], "0.500 ETH → 1,494.010 USDC");
    assert_eq!(r["amount"], "+1,494.010 USDC");
    assert_eq!(r["iconUrl"], "http://x/usdc.svg");
}
