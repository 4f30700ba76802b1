//! A Bitcoin wallet's accounts and networks. The shell's `families/bip122.ts` gives a
//! wallet-standard wallet (`bitcoin:connect`) or a sats-connect provider (`getAddresses`,
//! `wallet_getNetwork`) one request interface, and has these rules check what they answer: its
//! addresses, each a string or `{address, purpose}` (`payment`, `ordinals`), and its network as the
//! wallet names it (`bitcoin:mainnet`, sats-connect's `Mainnet`/`Testnet`/`Signet`/`Regtest`) or as
//! CAIP-2. The payment address comes first: it is the one shown (spec §6: account type `payment`).

use super::address::{parse, Net};
use super::{MAINNET_REF, REGTEST_REF, SIGNET_REF, TESTNET4_REF, TESTNET_REF};
use crate::chain::family::AccountRules;
use crate::service::json::Value;

/// At most this many addresses are read from a wallet.
pub const ACCOUNTS_MAX: usize = 8;

/// The names wallets give networks, and their CAIP-2 references.
pub const NAMED: &[(&str, &str)] = &[
    ("mainnet", MAINNET_REF),
    ("testnet", TESTNET_REF),
    ("testnet4", TESTNET4_REF),
    ("signet", SIGNET_REF),
    ("regtest", REGTEST_REF),
];

pub struct Connect;

impl AccountRules for Connect {
    /// Non-empty, at most [`ACCOUNTS_MAX`], each a Bitcoin address; payment addresses first.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        let list = v.as_array()?;
        if list.is_empty() || list.len() > ACCOUNTS_MAX {
            return None;
        }
        let (mut payment, mut other) = (Vec::new(), Vec::new());
        for a in list {
            let (address, purpose) = match a {
                Value::String(s) => (s.as_str(), ""),
                _ => (a.get("address")?.as_str()?, a.get("purpose").and_then(Value::as_str).unwrap_or("")),
            };
            parse(address).ok()?;
            if payment.iter().chain(&other).any(|x| x == address) {
                continue;
            }
            if purpose == "payment" { payment.push(address.to_string()) } else { other.push(address.to_string()) }
        }
        payment.append(&mut other);
        Some(payment)
    }

    fn parse_chain(&self, v: &Value) -> Option<String> {
        caip_chain(v.as_str()?)
    }

    /// Every address must be one of the network's (a testnet address on mainnet is refused).
    fn on_network(&self, accounts: Vec<String>, caip_network_id: &str) -> Option<Vec<String>> {
        let net = net_of(caip_network_id);
        accounts.iter().all(|a| parse(a).is_ok_and(|a| a.on(net))).then_some(accounts)
    }
}

/// A network as a wallet names it (`bitcoin:testnet`, `Testnet`, or a CAIP-2 id) as CAIP-2.
pub fn caip_chain(chain: &str) -> Option<String> {
    if chain.len() > 64 {
        return None;
    }
    let lower = chain.to_ascii_lowercase();
    let name = lower.strip_prefix("bitcoin:").unwrap_or(&lower);
    if let Some((_, r)) = NAMED.iter().find(|(n, _)| *n == name) {
        return Some(format!("bip122:{r}"));
    }
    let reference = chain.strip_prefix("bip122:")?;
    (reference.len() == 32 && reference.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))).then(|| chain.to_string())
}

/// The name a wallet gives a network (CAIP-2), `Mainnet`-style; `None` for a chain without one.
pub fn network_name(caip_network_id: &str) -> Option<&'static str> {
    let r = caip_network_id.strip_prefix("bip122:")?;
    NAMED.iter().find(|(_, x)| *x == r).map(|(n, _)| *n)
}

/// The name sats-connect's `wallet_changeNetwork` takes for a network (CAIP-2): `Mainnet`,
/// `Testnet`, `Testnet4`, `Signet`, `Regtest` (a wallet's regtest is whichever local chain it is
/// pointed at: the demo's litecoind one too); `None` for a chain without one.
pub fn sats_network_name(caip_network_id: &str) -> Option<String> {
    let name = match caip_network_id.strip_prefix("bip122:") {
        Some(super::LOCAL_REF) => "regtest",
        _ => network_name(caip_network_id)?,
    };
    Some(name[..1].to_ascii_uppercase() + &name[1..])
}

/// The kind of addresses a network (CAIP-2) has: mainnet's, regtest's, or testnet's (every other
/// chain: testnets, signet).
pub fn net_of(caip_network_id: &str) -> Net {
    match caip_network_id.strip_prefix("bip122:") {
        Some(MAINNET_REF) => Net::Main,
        Some(r) if r == REGTEST_REF || r == super::LOCAL_REF => Net::Regtest,
        _ => Net::Test,
    }
}
