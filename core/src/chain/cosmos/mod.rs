//! The `cosmos` family: the Bech32 prefixes of its networks (none is built in: the spec's default
//! list has none; a host configures them), `window.keplr`-style
//! wallets (carried by the shell's `families/cosmos.ts`), network switches (the wallet enables
//! the chain and gives its key there), ADR-036 message signatures and its WalletConnect
//! namespace. No balances: the spec's blockchain API covers EVM and Solana, and no Cosmos node
//! runs offline here.

#[cfg(feature = "crypto")]
pub mod message;
pub mod wallet;
mod walletconnect;

use super::family::*;

/// What the engine links: the shell checks this family's wallets with [`RULES`] (lazily loaded).
static CHECKED: Checked = Checked(NAMESPACE);

pub const NAMESPACE: &str = "cosmos";

/// The family's rules for its wallets' accounts and networks, applied by its lazily loaded module
/// (`element/families`) before the engine hears of them.
pub static RULES: &dyn AccountRules = &wallet::Keplr;

pub struct Cosmos;

/// Each network's chain id (its CAIP-2 reference) and the Bech32 prefix of its addresses.
pub const PREFIXES: &[(&str, &str)] = &[("cosmoshub-4", "cosmos"), ("osmosis-1", "osmo"), ("osmo-test-5", "osmo")];

/// The Bech32 prefix of a network's addresses (CAIP-2), where the modal knows it.
pub fn prefix_of(caip_network_id: &str) -> Option<&'static str> {
    let r = caip_network_id.strip_prefix("cosmos:")?;
    PREFIXES.iter().find(|(c, _)| *c == r).map(|(_, p)| *p)
}

/// A Cosmos address: its Bech32 prefix and its 20 (account) or 32 (module, contract) bytes.
pub fn decode_address(s: &str) -> Option<(String, Vec<u8>)> {
    crate::chain::bech32::decode_bytes(s, 90).filter(|(_, b)| b.len() == 20 || b.len() == 32)
}

/// Whether `s` is a Cosmos address of any chain (or, with `prefix`, of the chains writing it so).
pub fn is_address(s: &str, prefix: Option<&str>) -> bool {
    decode_address(s).is_some_and(|(hrp, _)| prefix.is_none_or(|p| p == hrp))
}

impl Family for Cosmos {
    const NAMESPACE: &'static str = NAMESPACE;

    fn wallet() -> Option<&'static dyn Wallet> {
        Some(&CHECKED)
    }
    fn switching() -> Option<&'static dyn Switching> {
        Some(&CHECKED)
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        Some(&walletconnect::Methods)
    }
}

#[cfg(test)]
mod tests;
