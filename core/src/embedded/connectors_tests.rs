use super::*;

#[test]
fn the_frames_user_has_an_account_in_each_family_each_checked_by_its_family() {
    let evm = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let sol = "FWJuUc8JMhsvinUGc5KxxZ2e9cDcobu2nePqWGQfszDc";
    let u = user_from_frame(&json!({
        "address": evm.to_ascii_lowercase(),
        "email": "a@example.com",
        "accounts": [{"address": evm, "type": "eoa"}, {"address": sol, "type": "eoa", "namespace": "solana"}, {"address": "not an address"}],
    }))
    .unwrap();
    assert_eq!(u.address, evm, "checksummed");
    assert_eq!(u.accounts, vec![("eip155".to_string(), evm.to_string()), ("solana".to_string(), sol.to_string())]);
    assert_eq!((u.address_in("solana"), u.address_in("eip155"), u.address_in("bip122")), (sol, evm, evm));
    // The frame of an older version: its address alone.
    let old = user_from_frame(&json!({"address": evm})).unwrap();
    assert_eq!(old.accounts, vec![("eip155".to_string(), evm.to_string())]);
    assert_eq!(old.address_in("solana"), evm, "no Solana account: its first address");
    assert!(user_from_frame(&json!({"address": "nope"})).is_none());
}
