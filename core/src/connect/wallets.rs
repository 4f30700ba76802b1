//! Wallet discovery and connector order (spec 9, "Connector order").
//!
//! EIP-6963 announcements are hostile input: names are cleaned, icons are accepted only as
//! `data:image/` URIs, announcements are deduplicated by uuid and rdns. The legacy
//! `window.ethereum` provider shows as one "Browser Wallet" connector when nothing announced itself.

use crate::service::entities::WalletListing;
use crate::connect::storage::is_valid_id;
use serde::Serialize;

/// Id of the legacy injected connector (a family's one global provider, `window.ethereum`).
pub const LEGACY_INJECTED_ID: &str = "injected";
/// Id of the WalletConnect connector.
pub const WALLETCONNECT_ID: &str = "walletConnect";
/// A Safe app's own Safe (found only inside a Safe's iframe, by the shell's EVM family),
/// listed before every other connector (spec §6).
pub const SAFE_ID: &str = "global.safe";
const MAX_NAME_CHARS: usize = 64;
const MAX_ICON_BYTES: usize = 256 * 1024;

/// Where a connector row comes from; the order of the variants is the display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ConnectorKind {
    Safe,
    WalletConnect,
    Recent,
    Injected,
    Featured,
    Custom,
    External,
    Recommended,
}

impl ConnectorKind {
    /// The JSON name (`walletConnect`, `recent`, …).
    pub fn name(self) -> &'static str {
        match self {
            ConnectorKind::Safe => "safe",
            ConnectorKind::WalletConnect => "walletConnect",
            ConnectorKind::Recent => "recent",
            ConnectorKind::Injected => "injected",
            ConnectorKind::Featured => "featured",
            ConnectorKind::Custom => "custom",
            ConnectorKind::External => "external",
            ConnectorKind::Recommended => "recommended",
        }
    }
}

/// A provider found in this browser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InjectedWallet {
    /// rdns for EIP-6963 wallets (stable across reloads), `injected` for window.ethereum.
    pub id: String,
    pub uuid: String,
    pub name: String,
    pub icon: Option<String>,
    pub rdns: Option<String>,
    /// The namespace of the chain family whose discovery found it (the shell's `families/*.ts`).
    pub namespace: &'static str,
}

/// A row of the Connect view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorRow {
    pub id: String,
    pub name: String,
    pub icon: Option<String>,
    pub kind: ConnectorKind,
    pub installed: bool,
}

/// Accepts an icon only as a `data:image/` URI of bounded size with no markup-breaking characters.
pub fn safe_icon(icon: &str) -> Option<String> {
    let ok = icon.len() <= MAX_ICON_BYTES
        && icon.starts_with("data:image/")
        && !icon.chars().any(|c| c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`' | '\\' | ' '));
    ok.then(|| icon.to_string())
}

/// A reverse-DNS name such as `io.metamask`: at least two dot-separated labels of [a-z0-9-_].
pub fn is_rdns(s: &str) -> bool {
    s.len() <= 128
        && s.split('.').count() >= 2
        && s.split('.').all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
}

/// Trims, drops control, bidi-control and invisible characters and bounds the length of a wallet name.
pub fn clean_name(name: &str) -> Option<String> {
    crate::service::text::shown(name, MAX_NAME_CHARS)
}

/// Why an announcement was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    BadUuid,
    BadName,
    BadRdns,
    /// Not a family this build can connect.
    BadNamespace,
    Duplicate,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    wallets: Vec<InjectedWallet>,
    /// The namespace of the legacy provider, when there is one.
    legacy: Option<&'static str>,
}

impl Discovery {
    /// Records an announcement (EIP-6963 for EVM wallets) of a family's wallet. Duplicates (same
    /// uuid or same rdns) are refused.
    pub fn announce(&mut self, uuid: &str, name: &str, icon: &str, rdns: &str, namespace: &str) -> Result<&InjectedWallet, Refused> {
        let namespace = crate::chain::family::namespace(namespace).filter(|ns| crate::chain::family::has_wallet(ns)).ok_or(Refused::BadNamespace)?;
        if uuid.is_empty() || uuid.len() > 64 || !uuid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Err(Refused::BadUuid);
        }
        let name = clean_name(name).ok_or(Refused::BadName)?;
        if !is_rdns(rdns) {
            return Err(Refused::BadRdns);
        }
        if self.wallets.iter().any(|w| w.uuid == uuid || w.rdns.as_deref() == Some(rdns)) {
            return Err(Refused::Duplicate);
        }
        self.wallets.push(InjectedWallet { id: rdns.to_string(), uuid: uuid.to_string(), name, icon: safe_icon(icon), rdns: Some(rdns.to_string()), namespace });
        Ok(self.wallets.last().expect("just pushed"))
    }

    /// Records that a family's legacy provider (`window.ethereum`) exists, in its namespace.
    pub fn set_legacy(&mut self, namespace: Option<&str>) {
        self.legacy = namespace.and_then(crate::chain::family::namespace).filter(|ns| crate::chain::family::has_wallet(ns));
    }

    /// Installed wallets: the announced ones, or the legacy provider when none announced.
    pub fn installed(&self) -> Vec<InjectedWallet> {
        if let (true, Some(namespace)) = (self.wallets.is_empty(), self.legacy) {
            return vec![InjectedWallet { id: LEGACY_INJECTED_ID.into(), uuid: LEGACY_INJECTED_ID.into(), name: "Browser Wallet".into(), icon: None, rdns: None, namespace }];
        }
        self.wallets.clone()
    }

    pub fn find(&self, id: &str) -> Option<InjectedWallet> {
        for w in self.installed() {
            if w.id == id {
                return Some(w);
            }
        }
        None
    }

    /// The wallet to connect for the row `id` in `namespace`: the same wallet's side of that
    /// family when it has one (a wallet found by two families' discovery, under one name), else
    /// the row's own.
    pub fn for_namespace(&self, id: &str, namespace: &str) -> Option<InjectedWallet> {
        let w = self.find(id)?;
        let side = self.wallets.iter().find(|o| o.namespace == namespace && same_wallet(o, &w));
        Some(side.cloned().unwrap_or(w))
    }

    pub fn is_installed_rdns(&self, rdns: &str) -> bool {
        self.wallets.iter().any(|w| w.rdns.as_deref() == Some(rdns))
    }
}

/// The Connect view's wallet rows in the spec's connector order, each wallet once:
/// walletConnect, recent, injected, featured, custom, external, recommended — after a Safe app's
/// own Safe.
pub fn connector_rows(
    discovery: &Discovery,
    recent: &[String],
    featured: &[WalletListing],
    recommended: &[WalletListing],
    walletconnect: bool,
    image_url: impl Fn(&str) -> String,
) -> Vec<ConnectorRow> {
    let installed = discovery.installed();
    let mut rows: Vec<ConnectorRow> = Vec::new();
    let push = |row: ConnectorRow, rows: &mut Vec<ConnectorRow>| {
        if !rows.iter().any(|r| r.id == row.id) {
            rows.push(row);
        }
    };
    let found = |w: &InjectedWallet, kind| ConnectorRow { id: w.id.clone(), name: w.name.clone(), icon: w.icon.clone(), kind, installed: true };
    for w in installed.iter().filter(|w| w.id == SAFE_ID) {
        push(found(w, ConnectorKind::Safe), &mut rows);
    }
    if walletconnect {
        push(ConnectorRow { id: WALLETCONNECT_ID.into(), name: "WalletConnect".into(), icon: None, kind: ConnectorKind::WalletConnect, installed: false }, &mut rows);
    }
    for id in recent.iter().filter(|id| is_valid_id(id)) {
        // (A recent wallet of several families shows under its first side's id.)
        let first = installed.iter().find(|w| &w.id == id).and_then(|w| installed.iter().find(|o| same_wallet(o, w)));
        if let Some(w) = first {
            push(found(w, ConnectorKind::Recent), &mut rows);
        }
    }
    for w in &installed {
        // A wallet of several families (each found by its own discovery, under one name) is one row.
        if installed.iter().take_while(|o| o.id != w.id).any(|o| same_wallet(o, w)) {
            continue;
        }
        push(found(w, ConnectorKind::Injected), &mut rows);
    }
    let listed = featured.iter().map(|l| (l, ConnectorKind::Featured)).chain(recommended.iter().map(|l| (l, ConnectorKind::Recommended)));
    for (l, kind) in listed {
        let is_installed = l.rdns.as_deref().is_some_and(|r| discovery.is_installed_rdns(r));
        if is_installed {
            continue;
        }
        push(ConnectorRow { id: l.id.clone(), name: l.name.clone(), icon: Some(image_url(&l.image_id)), kind, installed: false }, &mut rows);
    }
    // Pushed kind by kind in the spec's order (a wallet once, at its first kind): already in
    // order, with no sort linked into the engine (~300 B gzip).
    debug_assert!(rows.windows(2).all(|w| w[0].kind <= w[1].kind));
    rows
}

/// Whether two found wallets are one wallet's sides of two families: the same name, in different
/// families.
fn same_wallet(a: &InjectedWallet, b: &InjectedWallet) -> bool {
    a.namespace != b.namespace && a.name.eq_ignore_ascii_case(&b.name) || a.id == b.id
}

impl ConnectorRow {
    /// `{id, name, icon, kind, installed}`, as the Connect view lists it.
    pub fn write_json(&self, w: &mut crate::service::json::Writer) {
        w.begin_object();
        w.key("id").str(&self.id).key("name").str(&self.name).key("icon").opt_str(self.icon.as_deref());
        w.key("kind").str(self.kind.name()).key("installed").bool(self.installed);
        w.end_object();
    }
}

#[cfg(test)]
#[path = "wallets_tests.rs"]
mod tests;
