//! The `polkadot` family: the SS58 prefixes of its networks (none is built in: the spec's default
//! list has none; a host configures them), its extensions
//! (`window.injectedWeb3`, carried by the shell's `families/polkadot.ts`), network selection,
//! message signatures (sr25519 over `<Bytes>`) and its WalletConnect namespace. No balances: the
//! spec's blockchain API covers EVM and Solana, and no Polkadot node runs offline here.

#[cfg(feature = "crypto")]
pub mod message;
pub mod ss58;
pub mod wallet;
mod walletconnect;

use super::family::*;

/// What the engine links: the shell checks this family's wallets with [`RULES`] (lazily loaded).
static CHECKED: Checked = Checked(NAMESPACE);

pub const NAMESPACE: &str = "polkadot";

/// The family's rules for its wallets' accounts and networks, applied by its lazily loaded module
/// (`element/families`) before the engine hears of them.
pub static RULES: &dyn AccountRules = &wallet::Injected;

pub struct Polkadot;

pub const POLKADOT_REF: &str = "91b171bb158e2d3848fa23a9f1c25182";
pub const KUSAMA_REF: &str = "b0a8d493285c2df73290dfb7e61f870f";
pub const WESTEND_REF: &str = "e143f23803ac50e8f6f8e62695d1ce9e";

/// Each network's SS58 prefix (others: the generic 42).
const PREFIXES: &[(&str, u16)] = &[(POLKADOT_REF, 0), (KUSAMA_REF, 2), (WESTEND_REF, 42)];

/// The SS58 prefix of a network (CAIP-2).
pub fn prefix_of(caip_network_id: &str) -> u16 {
    let r = caip_network_id.strip_prefix("polkadot:").unwrap_or_default();
    PREFIXES.iter().find(|(x, _)| *x == r).map_or(42, |(_, p)| *p)
}

impl Family for Polkadot {
    const NAMESPACE: &'static str = NAMESPACE;

    fn explorer_address(explorer: &str, address: &str) -> String {
        format!("{}/account/{address}", explorer.trim_end_matches('/'))
    }
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
