//! Chain families behind one adapter. A family is a folder of `core/src/chain/` named after its
//! CAIP-2 namespace (the EVM family's, `solana/`, …) whose type implements [`Family`]: its namespace, its
//! built-in networks, and the capabilities it has, each a narrow trait and each optional. A slice
//! never names a family: it asks the adapter for a capability of the namespace it works in
//! (`family::transfers(ns)`) and offers nothing where the family has none (Send shows
//! 'Unsupported chain', Swap 'Network not supported for Swaps', …).
//!
//! Each capability is reached through its own function (`family::wallet(ns)`, `family::node(ns)`,
//! …), written once for every family by `families!` from the one list of families in
//! `chain/mod.rs`: a WebAssembly module links only the capabilities its slices ask for (the engine
//! has no transfer or swap code, whatever the families can do).
//!
//! To add a family: create its folder with a type implementing [`Family`] and the capability
//! traits it can do, then add its `mod` and its type to the list in `chain/mod.rs`.

pub use super::registry::*;

use crate::service::entities::{AccountType, ChainNamespace, Network};
use crate::service::errors::WmError;
use crate::service::json::Value;

/// One built-in network of a family: chain reference, name, currency (name, symbol, decimals),
/// RPC URL, explorer (name, URL), testnet. A table read by one loop: ~0.3 KB less gzipped engine
/// than one call per network.
pub type Builtin = (&'static str, &'static str, (&'static str, &'static str, u32), &'static str, (&'static str, &'static str), bool);

/// Ether, the currency of most EVM networks.
pub const ETH: (&str, &str, u32) = ("Ether", "ETH", 18);

/// A request to a wallet: an EIP-1193-style method and its params.
#[derive(Clone, Debug, PartialEq)]
pub struct WalletCall {
    pub method: &'static str,
    pub params: Value,
}

impl WalletCall {
    pub fn new(method: &'static str, params: Vec<Value>) -> WalletCall {
        WalletCall { method, params: Value::Array(params) }
    }
}

/// A request a capability needs made: to the connected wallet, to the network's node (a
/// JSON-RPC method and params, posted to the network's RPC URL), or to a family whose chain API
/// is REST (Bitcoin's Esplora) at a path under the network's RPC URL. A wallet that is a signer
/// only (a Solana wallet-standard wallet, a Bitcoin one) reads nothing from the chain: its family
/// asks the node.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Wallet(WalletCall),
    Node(WalletCall),
    Rest(RestCall),
}

/// A REST request: a GET of `path` (under the network's RPC URL), or a POST of `body` there.
#[derive(Clone, Debug, PartialEq)]
pub struct RestCall {
    pub path: String,
    pub body: Option<String>,
}

/// A REST API's answer to a [`Call::Rest`] as a wallet's would be: its JSON, or its text (a
/// transaction id), or why not — the API's own words, bounded.
pub fn rest_outcome(status: u16, body: &str) -> Result<Value, WmError> {
    let text = || body.trim().chars().take(200).collect::<String>();
    match status {
        0 => Err(WmError::Provider { code: -32603, message: "The network's API did not answer".into() }), // i18n
        200..=299 => match crate::service::json::parse(body) {
            Ok(v) => Ok(v),
            Err(_) if body.trim().len() <= 200 => Ok(Value::String(text())),
            Err(_) => Err(WmError::Provider { code: -32603, message: "The network's API answered something that is not JSON".into() }), // i18n
        },
        _ if text().is_empty() => Err(WmError::Provider { code: -32603, message: format!("The network's API answered HTTP {status}") }), // i18n
        _ => {
            let reason = text();
            Err(WmError::Provider { code: -32603, message: format!("The network's API refused the request: {reason}") }) // i18n
        }
    }
}

/// A node request's body.
pub fn node_body(id: u64, call: &WalletCall) -> String {
    crate::service::json::obj(vec![("jsonrpc", "2.0".into()), ("id", id.into()), ("method", call.method.into()), ("params", call.params.clone())]).to_string()
}

/// A node's answer to a [`Call::Node`] as a wallet's would be: its `result`, or its error.
pub fn node_outcome(status: u16, body: &str) -> Result<Value, WmError> {
    let v = crate::service::json::parse(body).ok().filter(|_| (200..300).contains(&status));
    match v {
        Some(v) if v.get("error").is_some_and(|e| !e.is_null()) => {
            let e = &v["error"];
            let message: String = e.get("message").and_then(Value::as_str).unwrap_or("The node refused the request").chars().take(200).collect();
            Err(WmError::Provider { code: e.get("code").and_then(Value::as_i64).unwrap_or(-32603), message })
        }
        Some(v) => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
        None if status == 0 => Err(WmError::Provider { code: -32603, message: "The network's node did not answer".into() }),
        None if (200..300).contains(&status) => Err(WmError::Provider { code: -32603, message: "The network's node answered something that is not JSON-RPC".into() }),
        None => Err(WmError::Provider { code: -32603, message: format!("The network's node answered HTTP {status}") }),
    }
}

impl ChainNamespace {
    /// The namespace of a family this build knows, from its exact name.
    pub fn parse(s: &str) -> Option<ChainNamespace> {
        namespace(s).map(ChainNamespace)
    }

    /// The account type an account of this family gets (spec §6).
    pub fn default_account_type(&self) -> AccountType {
        account_type(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for ChainNamespace {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ChainNamespace::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown chain namespace `{}`", s.chars().take(40).collect::<String>())))
    }
}

/// A chain family: its namespace and facts, and the capabilities it has (none by default).
pub trait Family: 'static {
    /// Its CAIP-2 namespace.
    const NAMESPACE: &'static str;
    /// The account type an account of this family gets (spec §6).
    const ACCOUNT_TYPE: AccountType = AccountType::Eoa;
    /// Its built-in networks (spec §1).
    const NETWORKS: &'static [Builtin] = &[];
    /// Whether its chain references are decimal numbers (then `5` and `"5"` are the same chain).
    const NUMERIC_REFS: bool = false;
    /// Whether the blockchain API has its accounts' history (spec §8: activity is EVM only).
    const HISTORY: bool = false;
    /// Whether the blockchain API has its accounts' token balances (spec: EVM and Solana).
    const BALANCES: bool = false;

    /// The explorer page of an address.
    fn explorer_address(explorer: &str, address: &str) -> String {
        format!("{}/address/{address}", explorer.trim_end_matches('/'))
    }
    fn wallet() -> Option<&'static dyn Wallet> {
        None
    }
    fn switching() -> Option<&'static dyn Switching> {
        None
    }
    fn node() -> Option<&'static dyn Node> {
        None
    }
    fn host_requests() -> Option<&'static dyn HostRequests> {
        None
    }
    fn transactions() -> Option<&'static dyn Transactions> {
        None
    }
    fn transfers() -> Option<&'static dyn Transfers> {
        None
    }
    fn swaps() -> Option<&'static dyn Swaps> {
        None
    }
    fn embedded() -> Option<&'static dyn EmbeddedWallet> {
        None
    }
    fn walletconnect() -> Option<&'static dyn WalletConnect> {
        None
    }
    #[cfg(feature = "crypto")]
    fn sign_in() -> Option<&'static dyn SignIn> {
        None
    }
}

/// Sign-in with the wallet (SIWX, CAIP-122): the family's message dialect, the wallet call that
/// signs a message, and how a signature is checked. Built with curve cryptography only (the
/// sign-in module's build and the natively compiled verifier).
#[cfg(feature = "crypto")]
pub trait SignIn: Sync {
    /// How its messages write the chain, its addresses and chain ids.
    fn dialect(&self) -> &'static crate::auth::siwx::Dialect;
    /// The `Chain ID:` value for a CAIP-2 network of the family.
    fn chain_id(&self, caip_network_id: &str) -> Option<String>;
    /// Whether a `Chain ID:` value names this CAIP-2 network.
    fn same_chain(&self, chain_id: &str, caip_network_id: &str) -> bool {
        self.chain_id(caip_network_id).as_deref() == Some(chain_id)
    }
    /// The account as the message writes it (EIP-55 for EVM), from the address the wallet gave.
    fn message_address(&self, address: &str) -> Option<String>;
    /// Asks the wallet to sign `message` with `address`.
    fn sign_call(&self, message: &str, address: &str) -> WalletCall;
    /// The signature in the wallet's answer, as the family writes it (0x hex; base58).
    fn signature(&self, answer: &Value) -> Option<String>;
    /// The text the wallet signed, when it wrote the message itself (Solana's `solana:signIn`):
    /// it is checked like the modal's own.
    fn signed_message(&self, _answer: &Value) -> Option<String> {
        None
    }
    /// Whether `signature` is `address`'s over `message`: yes, no, or a question to the chain
    /// (a contract account's own check, ERC-1271), whose answer [`SignIn::chain_says`] reads.
    fn verify(&self, message: &str, address: &str, signature: &str) -> Verdict;
    fn chain_says(&self, answer: &Value) -> bool;
}

/// A signature checked offline, or the question that decides it on the chain.
#[cfg(feature = "crypto")]
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Valid,
    Invalid,
    AskChain(Call),
}

/// Connecting a wallet: its accounts and its chain.
pub trait Wallet: Sync {
    /// Asks the wallet for its accounts: with a prompt (connect), or silently (reconnect).
    fn accounts_call(&self, silent: bool) -> WalletCall;
    /// Asks the wallet for its current chain.
    fn chain_call(&self) -> WalletCall;
    /// The wallet's account list, checked and normalised; `None` when it is not one.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>>;
    /// The wallet's chain as a CAIP-2 network id; `None` when it is not one.
    fn parse_chain(&self, v: &Value) -> Option<String>;
    /// Asks the wallet to drop the site's permission (best effort, on disconnect), if it can.
    fn revoke_call(&self) -> Option<WalletCall>;
}

/// The rules of a family's wallets' answers, for a family whose wallets the shell checks
/// ([`Checked`]): they run in its lazily loaded rules module (`element/families`), not in the engine.
pub trait AccountRules: Sync {
    /// The wallet's account list, checked and normalised (payment addresses first for Bitcoin);
    /// `None` when it is not one.
    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>>;
    /// The network a wallet names (as the family's wallets name it, or CAIP-2) as CAIP-2.
    fn parse_chain(&self, v: &Value) -> Option<String>;
    /// The accounts as they are on a network (CAIP-2): written for it (Polkadot's SS58 prefix), or
    /// `None` when one is another network's (a Bitcoin testnet address on mainnet, a Cosmos
    /// address of another chain).
    fn on_network(&self, accounts: Vec<String>, caip_network_id: &str) -> Option<Vec<String>>;
}

/// A wallet's list of 1 to `max` strings, each one `ok` accepts.
pub fn address_list(v: &Value, max: usize, ok: fn(&str) -> bool) -> Option<Vec<String>> {
    let list = v.as_array().filter(|l| !l.is_empty() && l.len() <= max)?;
    let mut out = Vec::with_capacity(list.len());
    for a in list {
        out.push(a.as_str().filter(|s| ok(s))?.to_string());
    }
    Some(out)
}

/// The connection capability of a family whose rules (address checks, network names, SS58
/// prefixes) ship in a lazily loaded module beside its shell file (Bitcoin, Polkadot, Cosmos:
/// `element/families`, loaded with `element/ts/families/<namespace>.ts`), not in the engine. The
/// shell's provider answers `standard:connect` (`[silent]`; the names are the wallet standard's,
/// whatever the wallet speaks) with the accounts the family's [`AccountRules`]
/// accepted for the chain (`wallet-modal:chain`, CAIP-2); the engine checks only their shape:
/// 1 to 32 addresses of 1 to 128 characters, and a chain of the namespace (at most 80).
pub struct Checked(pub &'static str);

impl Wallet for Checked {
    /// `[silent]`.
    fn accounts_call(&self, silent: bool) -> WalletCall {
        WalletCall::new("standard:connect", vec![silent.into()])
    }

    fn chain_call(&self) -> WalletCall {
        WalletCall::new("wallet-modal:chain", Vec::new())
    }

    fn parse_accounts(&self, v: &Value) -> Option<Vec<String>> {
        let list = v.as_array().filter(|l| !l.is_empty() && l.len() <= 32)?;
        let mut out = Vec::with_capacity(list.len());
        for a in list {
            out.push(a.as_str().filter(|s| !s.is_empty() && s.len() <= 128)?.to_string());
        }
        Some(out)
    }

    /// `<namespace>:<reference>`, at most 80 characters.
    fn parse_chain(&self, v: &Value) -> Option<String> {
        let s = v.as_str().filter(|s| s.len() <= 80 && s.len() > self.0.len() + 1)?;
        (s.starts_with(self.0) && s.as_bytes()[self.0.len()] == b':').then(|| s.to_string())
    }

    fn revoke_call(&self) -> Option<WalletCall> {
        Some(WalletCall::new("standard:disconnect", Vec::new()))
    }
}

/// Switching for a [`Checked`] family (`[caipNetworkId]`): the shell's provider moves the wallet (or
/// selects the network, for a wallet without one) and tells the new accounts.
impl Switching for Checked {
    fn switch_call(&self, target: &Network) -> WalletCall {
        WalletCall::new("wallet-modal:switchChain", vec![target.caip_network_id.clone().into()])
    }

    fn unknown_network(&self, _code: i64) -> bool {
        false
    }

    fn add_call(&self, network: &Network) -> WalletCall {
        self.switch_call(network)
    }
}

/// Moving the connected wallet to another network of the family.
pub trait Switching: Sync {
    fn switch_call(&self, target: &Network) -> WalletCall;
    /// Whether a failed switch means the wallet does not know the network (then it is added).
    fn unknown_network(&self, code: i64) -> bool;
    /// Asks the wallet to add a network it does not know.
    fn add_call(&self, network: &Network) -> WalletCall;
}

/// Reading from the family's node (JSON-RPC bodies and their answers).
pub trait Node: Sync {
    /// The request reading an address's native balance.
    fn balance_body(&self, id: u64, address: &str) -> String;
    /// Where and how that is asked: the network's RPC URL (`rpc_url`) and the body (POST), by
    /// default; a family whose node speaks REST answers its own URL and no body (GET).
    fn balance_request(&self, _network: &Network, rpc_url: String, id: u64, address: &str) -> (String, Option<String>) {
        (rpc_url, Some(self.balance_body(id, address)))
    }
    /// A balance answer as displayed (floored to 3 decimals, grouped); `None` when unreadable.
    fn parse_balance(&self, body: &str, decimals: u32) -> Option<String>;
    /// A balance answer in base units, exactly (what a family without a token API offers the
    /// Send form); `None` when unreadable, or where the token API says it.
    fn balance_units(&self, _body: &str) -> Option<String> {
        None
    }
    /// The request reading a transaction's receipt.
    fn receipt_body(&self, id: u64, hash: &str) -> String;
    /// A cheap call that only says whether the node is up: asked of each of a network's several
    /// URLs every 4 s while the modal shows, to keep their ranking true (spec §9's fallback
    /// polling); `None`: such a family's URLs are ranked by its own calls only.
    fn ping_call(&self) -> Option<WalletCall> {
        None
    }
    /// Whether a receipt answer says the transaction is mined.
    fn is_mined(&self, status: u16, body: &str) -> bool;
}

/// What the host asks the connected wallet through `getProvider()`, as the modal follows it.
pub trait HostRequests: Sync {
    /// Whether the modal wants to hear of a request with this method (it waits for the visitor in
    /// the wallet, or sends a transaction).
    fn watches(&self, method: &str) -> bool;
    /// Whether the wallet asks the visitor before answering `method`.
    fn prompts(&self, method: &str) -> bool;
    /// The transaction a request sent, from its result (to watch until mined).
    fn sent_transaction(&self, method: &str, result: &str) -> Option<String>;
}

/// Sending a transaction the modal built through the connected wallet, and following it.
pub trait Transactions: Sync {
    /// Asks the wallet to sign and send `tx` (the family's transaction object).
    fn send_call(&self, tx: Value) -> WalletCall;
    /// The transaction id a send answered, checked.
    fn sent(&self, result: &Value) -> Option<String>;
    /// A wallet that signs without sending answers the signed transaction: the request sending it
    /// through the node (whose answer [`Transactions::sent`] then reads); `None` when it was sent;
    /// `Err(why)` when what the wallet signed is not `sent` (the transaction the visitor approved)
    /// or cannot be sent.
    fn relay(&self, _sent: &Value, _result: &Value) -> Result<Option<Call>, String> {
        Ok(None)
    }
    /// Asks for a sent transaction's receipt (the wallet, or the node).
    fn receipt_call(&self, hash: &str) -> Call;
    /// Whether a receipt answer says mined.
    fn mined(&self, result: &Value) -> bool;
    /// Whether a mined transaction's receipt says it failed (reverted) on chain.
    fn failed(&self, _result: &Value) -> bool {
        false
    }
    /// How often a sent transaction the visitor waits for is looked for (about a block time).
    fn poll_ms(&self) -> u64 {
        1_500
    }
    /// The explorer page of a transaction.
    fn explorer_tx(&self, explorer: &str, hash: &str) -> String {
        format!("{}/tx/{hash}", explorer.trim_end_matches('/'))
    }
}

/// The Send form: checking a receiver and building a transfer.
pub trait Transfers: Sync {
    /// What the receiver field suggests (the family's address form).
    fn receiver_hint(&self) -> &'static str {
        "Address" // i18n
    }
    /// What the preview says when a fee request failed.
    fn fee_failed(&self) -> &'static str {
        "Could not estimate the network fee: try again" // i18n
    }
    /// `Err(why)` when `to` is not an address of the family (the visitor reads why).
    fn check_receiver(&self, to: &str) -> Result<(), String>;
    /// The transaction moving `value` base units of `token` (a contract or mint; `None`: the
    /// native currency) from `from` to `to`.
    fn transfer(&self, from: &str, to: &str, token: Option<&str>, value: &str) -> Result<Value, WmError>;
    /// The requests estimating what `tx` costs (and reading what it still needs from the chain);
    /// their answers in order go to [`Transfers::fee`] and [`Transfers::finish`].
    fn fee_calls(&self, tx: &Value) -> Vec<Call>;
    /// The network fee of `tx` in base units of the native currency (everything the sender pays
    /// beside the amount), from the answers of the fee calls.
    fn fee(&self, tx: &Value, answers: &[Value]) -> Option<String>;
    /// What the fee includes beside the network's own fee, from the fee calls' answers: what it
    /// pays for and how much (base units of the native currency), if anything.
    fn fee_detail(&self, _tx: &Value, _answers: &[Value]) -> Option<(&'static str, String)> {
        None
    }
    /// The transaction to send, from `tx` and the fee calls' answers (those that must be read from
    /// the chain first: a recent block, whether the receiver has a token account); `Err(why)`
    /// when they do not allow one.
    fn finish(&self, tx: Value, _answers: &[Value]) -> Result<Value, String> {
        Ok(tx)
    }
    /// What Max leaves of the native currency (base units): the fee where it does not depend on
    /// the amount, else nothing.
    fn max_reserve(&self) -> u64 {
        0
    }
}

/// The convert API (spec §7 `/v1/convert/*`) on the family's networks.
pub trait Swaps: Sync {
    /// The spec's swap networks of the family (CAIP-2).
    fn networks(&self) -> Vec<String>;
    /// The API's address of the native currency.
    fn native_token(&self) -> &'static str;
    /// A token address of an API answer (CAIP-10 or plain), normalised; `None` when not one.
    fn token_address(&self, address: &str) -> Option<String>;
    /// The family's own fields of a build request (`slippage` in percent).
    fn build_fields(&self, slippage: u32) -> (&'static str, Value);
    /// The transaction of a build answer's `tx`, sent from `from` (never the answer's own sender).
    fn transaction(&self, tx: &Value, from: &str) -> Option<Value>;
    /// The receiver of a transaction built by [`Swaps::transaction`] (an approval must go to the
    /// token paid with, nowhere else).
    fn receiver<'a>(&self, tx: &'a Value) -> Option<&'a str>;
}

/// How the embedded wallet's provider serves the family (spec §6): the RPC allow-list, the methods
/// it answers itself. What a request that signs shows is the secure frame's to work out (it is
/// the only place that asks the visitor).
pub trait EmbeddedWallet: Sync {
    /// The checked address of the frame's logged-in user.
    fn user_address(&self, address: &str) -> Option<String>;
    /// What the provider does with `method`.
    fn method(&self, method: &str) -> EmbeddedMethod;
    /// The frame's `chainId` of a network of the family (CAIP-2).
    fn frame_chain(&self, caip_network_id: &str) -> Option<Value>;
    /// The network (CAIP-2) a switch request's params ask for.
    fn switch_target(&self, params: &Value) -> Option<String>;
    /// The chain-id method's answer on a network (CAIP-2).
    fn chain_answer(&self, caip_network_id: &str) -> Value;
}

/// What the embedded wallet's provider does with a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbeddedMethod {
    /// The accounts (`silent`: without a prompt).
    Accounts { silent: bool },
    /// The chain id.
    Chain,
    /// A network switch (through the frame).
    Switch,
    /// Dropping the site's permission: answered at once (the session ends when the connector is released).
    Revoke,
    /// Forwarded to the frame without approval.
    Safe,
    /// Shown in ApproveTransaction first.
    NeedsApproval,
    /// Refused ('RPC method not allowed').
    Disallowed,
}

/// A WalletConnect proposal's namespace for the family.
pub trait WalletConnect: Sync {
    fn methods(&self) -> &'static [&'static str];
    fn events(&self) -> &'static [&'static str] {
        &["chainChanged", "accountsChanged"]
    }
}

/// Writes the registry of families (`chain::registry`, re-exported here): the list of namespaces
/// and one lookup per capability.
macro_rules! families {
    ($($f:ty),+ $(,)?) => {
        pub mod registry {
            #[allow(unused_imports)]
            use super::*;
            use super::family::*;
            use crate::service::entities::AccountType;

            /// The namespaces of the families this build knows, in the spec's order.
            pub const NAMESPACES: &[&str] = &[$(<$f as Family>::NAMESPACE),+];

            /// The family's namespace as a `'static` string, if it is one.
            pub fn namespace(ns: &str) -> Option<&'static str> {
                NAMESPACES.iter().find(|n| **n == ns).copied()
            }

            /// Each family's namespace and built-in networks.
            pub const BUILTIN: &[(&str, &[Builtin])] = &[$((<$f as Family>::NAMESPACE, <$f as Family>::NETWORKS)),+];

            pub fn account_type(ns: &str) -> AccountType {
                $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::ACCOUNT_TYPE; })+
                AccountType::Eoa
            }

            pub fn numeric_refs(ns: &str) -> bool {
                $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::NUMERIC_REFS; })+
                false
            }

            /// Whether the blockchain API has the history of the namespace's accounts.
            pub fn history(ns: &str) -> bool {
                $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::HISTORY; })+
                false
            }

            /// Whether the blockchain API has the token balances of the namespace's accounts.
            pub fn balances(ns: &str) -> bool {
                $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::BALANCES; })+
                false
            }

            /// The explorer page of an address of the namespace.
            pub fn explorer_address(ns: &str, explorer: &str, address: &str) -> Option<String> {
                $(if ns == <$f as Family>::NAMESPACE { return Some(<$f as Family>::explorer_address(explorer, address)); })+
                None
            }

            families!(@caps [$($f),+] wallet has_wallet Wallet, switching has_switching Switching, node has_node Node,
                host_requests has_host_requests HostRequests, transactions has_transactions Transactions,
                transfers has_transfers Transfers, swaps has_swaps Swaps, embedded has_embedded EmbeddedWallet,
                walletconnect has_walletconnect WalletConnect);
            #[cfg(feature = "crypto")]
            families!(@cap [$($f),+] sign_in has_sign_in SignIn);
        }
    };
    (@caps $fs:tt $($cap:ident $has:ident $Trait:ident),+) => {
        $(families!(@cap $fs $cap $has $Trait);)+
    };
    (@cap [$($f:ty),+] $cap:ident $has:ident $Trait:ident) => {
        #[doc = concat!("The `", stringify!($Trait), "` capability of a namespace's family, if it has one.")]
        pub fn $cap(ns: &str) -> Option<&'static dyn $Trait> {
            $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::$cap(); })+
            None
        }

        #[doc = concat!("Whether a namespace's family has the `", stringify!($Trait), "` capability (without linking it in).")]
        pub fn $has(ns: &str) -> bool {
            $(if ns == <$f as Family>::NAMESPACE { return <$f as Family>::$cap().is_some(); })+
            false
        }
    };
}

#[cfg(test)]
#[path = "family_tests.rs"]
mod tests;
