//! The fid registry stand-in: which Farcaster account (fid) has which custody address and profile.
//!
//! In real Farcaster the custody address of a fid is read from the IdRegistry contract on OP
//! Mainnet (`custodyOf(fid)`, as the official relay's `AddressService` and `@farcaster/auth-client`'s
//! verifier do) and the profile comes from a hub. The demo has no Optimism and no hub: this fixed
//! map answers both.
//!
//! The one account, fid 1 `@alice`, is custodied by **anvil's dev account #5** of the default
//! mnemonic (`test test … junk`): address `0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc`, private key
//! `0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba`. That key is public (every
//! Foundry and Hardhat install prints it): whoever has it can sign in as `@alice`, which is the
//! point in a demo and the reason nothing real may use it. The demo Farcaster client page
//! (`demo/farcaster/`) holds it and signs with it.

/// A registered Farcaster account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FarcasterUser {
    pub fid: u64,
    pub username: &'static str,
    pub display_name: &'static str,
    pub bio: &'static str,
    /// EIP-55 custody address (what `IdRegistry.custodyOf(fid)` answers).
    pub custody: &'static str,
}

/// Every registered account.
pub const USERS: &[FarcasterUser] = &[FarcasterUser {
    fid: 1,
    username: "alice",
    display_name: "Alice (demo)",
    bio: "The demo's Farcaster account (custody: anvil dev account #5)",
    custody: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
}];

/// What `IdRegistry.custodyOf` answers for a fid nobody registered.
pub const ZERO_ADDRESS: &str = "0x0000000000000000000000000000000000000000";

/// The account of `fid`, if registered.
pub fn by_fid(fid: u64) -> Option<&'static FarcasterUser> {
    USERS.iter().find(|u| u.fid == fid)
}

/// The custody address of `fid`: the zero address when unregistered, as the contract answers.
pub fn custody_of(fid: u64) -> &'static str {
    by_fid(fid).map_or(ZERO_ADDRESS, |u| u.custody)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alice_is_fid_1_custodied_by_anvil_account_5() {
        let a = by_fid(1).unwrap();
        assert_eq!(a.username, "alice");
        assert_eq!(a.display_name, "Alice (demo)");
        assert_eq!(custody_of(1), "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc");
        assert_eq!(custody_of(2), ZERO_ADDRESS);
        assert!(by_fid(0).is_none());
    }
}
