//! Account-name rules of the `./core` entry: which names can be registered, and the ENSIP-11 coin
//! type an EVM chain's address records use.

use crate::chain::error::UtilError;

/// The shortest name that can be registered.
pub const MIN_NAME_LENGTH: usize = 4;

/// A registrable account name: at least 4 characters, only ASCII letters, digits and `-`.
pub fn validate_account_name(name: &str) -> bool {
    name.len() >= MIN_NAME_LENGTH && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The ENSIP-11 coin type of an EVM chain: `0x80000000 | chain_id` for `chain_id < 2^31`; any
/// other chain id is rejected with exactly `Invalid chainId`.
pub fn name_coin_type(chain_id: u64) -> Result<u32, UtilError> {
    if chain_id >= 0x8000_0000 {
        return Err(UtilError("Invalid chainId".into()));
    }
    Ok(0x8000_0000 | chain_id as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn account_name_needs_4_ascii_letters_digits_or_hyphens() {
        for ok in [
            "abcd",
            "my-name",
            "A1-b2",
            "----",
            "1234",
            "a".repeat(100).as_str(),
        ] {
            assert!(validate_account_name(ok), "{ok:?}");
        }
        for bad in [
            "",
            "abc",
            "ab_cd",
            "ab.cd",
            "abc ",
            "naïve",
            "名字名字",
            "ab\ncd",
            "a-é",
        ] {
            assert!(!validate_account_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn name_coin_type_is_ensip11_below_2_pow_31() {
        assert_eq!(name_coin_type(0).unwrap(), 0x8000_0000);
        assert_eq!(name_coin_type(1).unwrap(), 2_147_483_649);
        assert_eq!(name_coin_type(137).unwrap(), 0x8000_0089);
        assert_eq!(name_coin_type(0x7fff_ffff).unwrap(), 0xffff_ffff);
    }

    #[test]
    fn name_coin_type_rejects_chain_id_from_2_pow_31_with_invalid_chain_id() {
        for bad in [0x8000_0000u64, 0x8000_0001, u32::MAX as u64, u64::MAX] {
            assert_eq!(name_coin_type(bad).unwrap_err().0, "Invalid chainId");
        }
    }

    proptest! {
        #[test]
        fn name_rules_never_panic(s in ".*", id in any::<u64>()) {
            let _ = validate_account_name(&s);
            let r = name_coin_type(id);
            prop_assert_eq!(r.is_ok(), id < 1 << 31);
        }
    }
}
