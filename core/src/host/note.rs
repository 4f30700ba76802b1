//! Notes: what one slice tells the others, in its host and across hosts.
//!
//! A slice raises a note through [`super::Ctx::note`]; the host delivers it to every slice after
//! the event, in order, and hands it to the shell, which forwards it to every other host (the
//! engine and each lazily loaded module) as a `{"type": "notes", "notes": [...]}` event. The
//! shared facts every slice reads from the [`super::Ctx`] (connections, the active network, which
//! view shows, the features, what the account holds) are owned by the slices that change them;
//! when an event changed one, the host raises its [`Fact`] note itself (it compares each fact as
//! JSON with what it last told), which carries the fact's value across hosts: a host that hears
//! one from another host learns the value into its [`super::Ctx`] before its slices hear it, and
//! a slice reads the value from the `Ctx`. A module that loads late hears the engine's facts once
//! ([`super::Host::facts`]), then notes.

use super::Ctx;
use crate::host::json::{object, string, Fields};
use crate::service::json::{Value, Writer};
use crate::ui::modal::ModalEvent;
use crate::ui::router::View;

/// What the connected account holds: one row of the Tokens tab, as other slices need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Holding {
    pub name: String,
    pub symbol: String,
    /// The token's contract (as the chain family writes it); `None` for the native currency.
    pub address: Option<String>,
    pub decimals: u32,
    /// The balance as a decimal (`"1234.5"`).
    pub balance: String,
    /// The USD price, when the service knows it.
    pub price: Option<f64>,
}

/// The embedded wallet's logged-in visitor, as its slices tell each other.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddedUser {
    pub address: String,
    /// Its account in each namespace the embedded wallet serves (namespace, address): one key,
    /// an address per family.
    pub accounts: Vec<(String, String)>,
    pub email: Option<String>,
    pub user_name: Option<String>,
    pub social_provider: Option<String>,
    /// The sign-in the secure frame signed at login for this page (message, signature): sign-in
    /// with no second prompt.
    pub sign_in: Option<(String, String)>,
}

impl EmbeddedUser {
    /// Its address in `namespace` (its first address when it has none there).
    pub fn address_in(&self, namespace: &str) -> &str {
        self.accounts.iter().find(|(ns, _)| ns == namespace).map(|(_, a)| a.as_str()).unwrap_or(&self.address)
    }

    /// `{address, accounts, email, userName, socialProvider}`, or `null` when nobody is logged in.
    pub fn write(user: Option<&EmbeddedUser>, w: &mut Writer) {
        match user {
            Some(u) => {
                w.begin_object().key("address").str(&u.address).key("accounts").begin_array();
                for (ns, a) in &u.accounts {
                    w.begin_object().key("namespace").str(ns).key("address").str(a).end_object();
                }
                w.end_array().key("email").opt_str(u.email.as_deref());
                w.key("userName").opt_str(u.user_name.as_deref()).key("socialProvider").opt_str(u.social_provider.as_deref());
                if let Some((message, signature)) = &u.sign_in {
                    w.key("signIn").begin_object().key("message").str(message).key("signature").str(signature).end_object();
                }
                w.end_object();
            }
            None => {
                w.null();
            }
        }
    }
}

/// A shared fact: which one changed (its value is the [`Ctx`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The connections of every namespace (`Ctx::conn`).
    Connections,
    /// The network chosen, by the host, the visitor or the wallet (`Ctx::active_network`).
    Network,
    /// Whether the modal shows (open, or embedded in the page), and its view.
    Frame,
    /// The features in force: the remote configuration, the host's, or basic mode's (`Ctx::features`).
    Features,
    /// What the connected account holds, with prices: the portfolio's answer (`Ctx::holdings`).
    Holdings,
}

impl Fact {
    #[cfg(not(feature = "modules"))]
    pub const ALL: [Fact; 4] = [Fact::Connections, Fact::Network, Fact::Frame, Fact::Features];
    #[cfg(feature = "modules")]
    pub const ALL: [Fact; 5] = [Fact::Connections, Fact::Network, Fact::Frame, Fact::Features, Fact::Holdings];

    /// Its name in a note (`{"note": name, name: value}`).
    pub fn name(self) -> &'static str {
        match self {
            Fact::Connections => "connections",
            Fact::Network => "network",
            Fact::Frame => "frame",
            Fact::Features => "features",
            Fact::Holdings => "holdings",
        }
    }

    /// Its value now, as JSON.
    pub fn write_value(self, c: &Ctx, w: &mut Writer) {
        match self {
            Fact::Connections => c.conn.write_json(w),
            Fact::Network => {
                w.opt_str(c.active_network.as_deref());
            }
            Fact::Frame => {
                w.begin_object().key("open").bool(c.modal.open || c.opts.embedded).key("view").str(c.router.view().name()).end_object();
            }
            Fact::Features => c.features.write_json(w),
            #[cfg(feature = "modules")]
            Fact::Holdings => {
                w.begin_array();
                for h in &c.holdings {
                    w.begin_object().key("name").str(&h.name).key("symbol").str(&h.symbol).key("address").opt_str(h.address.as_deref());
                    w.key("decimals").u64(h.decimals as u64).key("balance").str(&h.balance).key("price");
                    match h.price {
                        Some(p) => w.f64(p),
                        None => w.null(),
                    };
                    w.end_object();
                }
                w.end_array();
            }
            // The engine never tells what the account holds (the account module does).
            #[cfg(not(feature = "modules"))]
            Fact::Holdings => {
                w.null();
            }
        }
    }

    /// Its value now, as JSON text (what the host compares to tell a change).
    pub(super) fn json(self, c: &Ctx) -> String {
        let mut w = Writer::new();
        self.write_value(c, &mut w);
        w.finish()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// A shared fact changed (raised by the host; the value is the `Ctx`'s).
    Fact(Fact),
    // ----- what happened -----
    /// The options changed (each host hears its own: the shell hands options to every host).
    Options,
    /// The modal opened.
    Opened,
    /// The modal closed (the visitor gave up whatever was under way in it).
    Closed,
    /// This view is now shown after a navigation: load what it needs.
    Shown(View),
    /// An analytics event (opening, closing, or a slice's own).
    Analytics(ModalEvent),
    /// An error the host heard (`error` event), reported to analytics (spec §7: at most 5 a minute).
    ErrorReport { key: String, message: String },
    /// A wallet connected (or reconnected).
    Connected,
    /// The connected account changed.
    AccountsChanged,
    /// The connected wallet's chain changed (already applied to the connections).
    ChainChanged { chain: String },
    /// A namespace lost its last connection.
    Disconnected,
    /// One of the modal's own wallet requests (a send, a swap) waits for the visitor in the
    /// wallet (its method), or no longer (`None`): the modal says "Approve in your wallet".
    WalletPrompt(Option<String>),
    /// A transaction of the modal's mined (a send, a swap, a purchase paid out): balances,
    /// tokens and history are read again; the tokens it moved (CAIP-10) are read afresh by the
    /// balance API (`forceUpdate`). The list stays in the module that raised it (the others hear
    /// the note without it).
    BalancesChanged(Vec<String>),
    /// The Account view's tab now showing (`tokens`, `nfts`, `activity`).
    TabShown(&'static str),
    /// The embedded wallet's visitor logged in, or logged out.
    EmbeddedUser(Option<EmbeddedUser>),
    /// The embedded wallet's visitor changed their email.
    EmbeddedEmail(String),
    /// The secure frame shows its approval (the method it asks for and the height it needs, in
    /// CSS pixels), or no longer (`None`). Heard by the embedded wallet's slices only.
    FrameApproval(Option<(String, u32)>),
    /// The secure frame's session ended in another tab (or at the service).
    FrameSignedOut,
}

impl Note {
    /// Whether the shell forwards it to the other hosts (each host hears its own options).
    pub fn forwarded(&self) -> bool {
        !matches!(self, Note::Options | Note::FrameApproval(_) | Note::FrameSignedOut)
    }

    /// The note as JSON, tagged by `note` (a fact with its value in `c`).
    pub fn write(&self, c: &Ctx, w: &mut Writer) {
        w.begin_object().key("note");
        match self {
            Note::Fact(f) => {
                w.str(f.name()).key(f.name());
                f.write_value(c, w);
            }
            Note::Options => {
                w.str("options");
            }
            Note::Opened => {
                w.str("opened");
            }
            Note::Closed => {
                w.str("closed");
            }
            Note::Shown(v) => {
                w.str("shown").key("view").str(v.name());
            }
            Note::Analytics(e) => {
                w.str("analytics").key("event").str(e.event).key("connected").bool(e.connected);
            }
            Note::ErrorReport { key, message } => {
                w.str("errorReport").key("key").str(key).key("message").str(message);
            }
            Note::Connected => {
                w.str("connected");
            }
            Note::AccountsChanged => {
                w.str("accountsChanged");
            }
            Note::ChainChanged { chain } => {
                w.str("chainChanged").key("chain").str(chain);
            }
            Note::Disconnected => {
                w.str("disconnected");
            }
            Note::BalancesChanged(_) => {
                w.str("balancesChanged");
            }
            Note::WalletPrompt(m) => {
                w.str("walletPrompt").key("method").opt_str(m.as_deref());
            }
            #[cfg(feature = "modules")]
            Note::EmbeddedEmail(e) => {
                w.str("embeddedEmail").key("email").str(e);
            }
            #[cfg(feature = "modules")]
            Note::TabShown(tab) => {
                w.str("tabShown").key("tab").str(tab);
            }
            #[cfg(feature = "modules")]
            Note::EmbeddedUser(u) => {
                w.str("embeddedUser").key("user");
                EmbeddedUser::write(u.as_ref(), w);
            }
            #[cfg(feature = "modules")]
            Note::FrameApproval(a) => {
                w.str("frameApproval").key("method").opt_str(a.as_ref().map(|(m, _)| m.as_str()));
            }
            #[cfg(feature = "modules")]
            Note::FrameSignedOut => {
                w.str("frameSignedOut");
            }
            // The modules' own notes: the engine (built without `modules`) raises none of them.
            #[cfg(not(feature = "modules"))]
            Note::EmbeddedEmail(_) | Note::TabShown(_) | Note::EmbeddedUser(_) | Note::FrameApproval(_) | Note::FrameSignedOut => {}
        }
        w.end_object();
    }

    /// Reads a note another host sent; a fact's value is learned into `c` at once. `Ok(None)`: a
    /// note this host has no use for. The engine reads only the modules' analytics (it raises the
    /// other notes it needs itself).
    pub fn read(v: Value, c: &mut Ctx) -> Result<Option<Note>, String> {
        let o = &mut object(v, "a note")?;
        let name = string(o, "note")?;
        Ok(match name.as_str() {
            "analytics" => {
                let event = string(o, "event")?;
                let event = crate::service::analytics::TRACKED.iter().find(|e| **e == event).ok_or_else(|| "an unknown analytics event".to_string())?;
                Some(Note::Analytics(ModalEvent { event, connected: matches!(o.get("connected"), Some(Value::Bool(true))) }))
            }
            "errorReport" => {
                let (key, message) = (string(o, "key")?, string(o, "message")?);
                (key.len() <= 64 && message.len() <= 1_000).then_some(Note::ErrorReport { key, message })
            }
            _ => read_more(&name, o, c)?,
        })
    }
}


/// The notes only module hosts hear: the engine's (it raises these itself) and the modules' own.
/// The one thing the `modules` feature changes: the engine, built without it, carries no reader of
/// them (nor the holdings fact), which a slice hearing them would need in the engine too.
#[cfg(feature = "modules")]
fn read_more(name: &str, o: &mut Fields, c: &mut Ctx) -> Result<Option<Note>, String> {
    use crate::connect::connection::ConnectionState;
    use crate::host::json::{boolean, opt_string, uint, FromJson};
    use crate::service::entities::RemoteFeatures;
    fn bounded(o: &mut Fields, key: &str, max: usize) -> Result<String, String> {
        string(o, key).and_then(|s| if s.len() <= max { Ok(s) } else { Err(format!("`{key}` is too long")) })
    }
    fn view(o: &mut Fields) -> Result<View, String> {
        string(o, "view").ok().as_deref().and_then(View::from_name).ok_or_else(|| "missing or invalid field `view`".to_string())
    }
    let value = |o: &mut Fields| o.get(name).cloned().unwrap_or(Value::Null);
    Ok(match name {
        "balancesChanged" => Some(Note::BalancesChanged(Vec::new())),
        "walletPrompt" => Some(Note::WalletPrompt(opt_string(o, "method")?.filter(|m| m.len() <= 64))),
        "opened" => Some(Note::Opened),
        "closed" => Some(Note::Closed),
        "connected" => Some(Note::Connected),
        "accountsChanged" => Some(Note::AccountsChanged),
        "disconnected" => Some(Note::Disconnected),
        "chainChanged" => Some(Note::ChainChanged { chain: bounded(o, "chain", 128)? }),
        "shown" => Some(Note::Shown(view(o)?)),
        "connections" => {
            c.conn = ConnectionState::read_json(value(o))?;
            Some(Note::Fact(Fact::Connections))
        }
        "network" => {
            c.active_network = opt_string(o, "network")?.filter(|n| n.len() <= 128);
            Some(Note::Fact(Fact::Network))
        }
        "frame" => {
            let f = &mut object(value(o), "the frame")?;
            c.modal.open = boolean(f, "open", None)?;
            c.router.reset(view(f)?);
            Some(Note::Fact(Fact::Frame))
        }
        "features" => {
            c.features = RemoteFeatures::from_json(value(o))?;
            Some(Note::Fact(Fact::Features))
        }
        "holdings" => {
            let Value::Array(list) = value(o) else { return Err("missing or invalid field `holdings`".into()) };
            let mut out = Vec::new();
            for h in list.into_iter().take(500) {
                let h = &mut object(h, "a holding")?;
                out.push(Holding {
                    name: bounded(h, "name", 256)?,
                    symbol: bounded(h, "symbol", 64)?,
                    address: opt_string(h, "address")?.filter(|a| a.len() <= 128),
                    decimals: uint(h, "decimals", 255)? as u32,
                    balance: bounded(h, "balance", 96)?,
                    price: h.get("price").and_then(Value::as_f64).filter(|p| p.is_finite() && *p >= 0.0),
                });
            }
            c.holdings = out;
            Some(Note::Fact(Fact::Holdings))
        }
        "embeddedEmail" => Some(Note::EmbeddedEmail(bounded(o, "email", 254)?)),
        "tabShown" => {
            let tab = string(o, "tab")?;
            Some(Note::TabShown(crate::account::portfolio::TABS.iter().find(|t| **t == tab).ok_or_else(|| "an unknown tab".to_string())?))
        }
        // Written under `user` (see `Note::write`).
        "embeddedUser" => Some(Note::EmbeddedUser(match o.get("user").cloned().unwrap_or(Value::Null) {
            Value::Null => None,
            u => {
                let u = &mut object(u, "the user")?;
                let mut accounts = Vec::new();
                if let Some(Value::Array(list)) = u.get("accounts").cloned() {
                    for a in list.into_iter().take(8) {
                        let a = &mut object(a, "an account")?;
                        accounts.push((bounded(a, "namespace", 16)?, bounded(a, "address", 128)?));
                    }
                }
                Some(EmbeddedUser {
                    address: bounded(u, "address", 128)?,
                    accounts,
                    email: opt_string(u, "email")?.filter(|e| e.len() <= 254),
                    user_name: opt_string(u, "userName")?.filter(|e| e.len() <= 64),
                    social_provider: opt_string(u, "socialProvider")?.filter(|e| e.len() <= 32),
                    sign_in: match u.get("signIn").cloned() {
                        Some(v @ Value::Object(_)) => {
                            let si = &mut object(v, "the sign-in")?;
                            Some((bounded(si, "message", 8_192)?, bounded(si, "signature", 1_024)?))
                        }
                        _ => None,
                    },
                })
            }
        })),
        _ => None,
    })
}

#[cfg(not(feature = "modules"))]
fn read_more(_name: &str, _o: &mut Fields, _c: &mut Ctx) -> Result<Option<Note>, String> {
    Ok(None)
}
