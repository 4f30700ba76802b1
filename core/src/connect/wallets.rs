//! Wallet discovery and connector order (spec 9, "Connector order").
//!
//! EIP-6963 announcements are hostile input: names are cleaned, icons are accepted only as
//! `data:image/` URIs, announcements are deduplicated by uuid and rdns. The legacy
//! `window.ethereum` provider shows as one "Browser Wallet" connector when nothing announced itself.

use crate::service::entities::WalletListing;
use crate::connect::storage::is_valid_id;
use serde::Serialize;

/// Id of the legacy `window.ethereum` connector.
pub const LEGACY_INJECTED_ID: &str = "injected";
/// The namespace of injected (EIP-6963 and `window.ethereum`) wallets: EIP-1193 providers.
pub const INJECTED_NAMESPACE: &str = crate::chain::eip155::NAMESPACE;
/// Id of the WalletConnect connector.
pub const WALLETCONNECT_ID: &str = "walletConnect";
const MAX_NAME_CHARS: usize = 64;
const MAX_ICON_BYTES: usize = 256 * 1024;

/// Where a connector row comes from; the order of the variants is the display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ConnectorKind {
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

/// Trims, drops control characters and bounds the length of a wallet name.
pub fn clean_name(name: &str) -> Option<String> {
    let cleaned: String = name.chars().filter(|c| !c.is_control() && !is_bidi_control(*c)).take(MAX_NAME_CHARS).collect();
    let cleaned = cleaned.trim().to_string();
    (!cleaned.is_empty()).then_some(cleaned)
}

/// Bidirectional-text controls (embeddings, overrides, isolates and marks): a wallet name holding
/// them can show the visitor a name other than its own ("Wallet\u{202E}tsuS" reads "WalletSust").
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Why an announcement was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    BadUuid,
    BadName,
    BadRdns,
    Duplicate,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    wallets: Vec<InjectedWallet>,
    legacy: bool,
}

impl Discovery {
    /// Records an EIP-6963 announcement. Duplicates (same uuid or same rdns) are refused.
    pub fn announce(&mut self, uuid: &str, name: &str, icon: &str, rdns: &str) -> Result<&InjectedWallet, Refused> {
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
        self.wallets.push(InjectedWallet { id: rdns.to_string(), uuid: uuid.to_string(), name, icon: safe_icon(icon), rdns: Some(rdns.to_string()) });
        Ok(self.wallets.last().expect("just pushed"))
    }

    /// Records that `window.ethereum` exists.
    pub fn set_legacy(&mut self, present: bool) {
        self.legacy = present;
    }

    /// Installed wallets: the announced ones, or the legacy provider when none announced.
    pub fn installed(&self) -> Vec<InjectedWallet> {
        if self.wallets.is_empty() && self.legacy {
            return vec![InjectedWallet { id: LEGACY_INJECTED_ID.into(), uuid: LEGACY_INJECTED_ID.into(), name: "Browser Wallet".into(), icon: None, rdns: None }];
        }
        self.wallets.clone()
    }

    pub fn find(&self, id: &str) -> Option<InjectedWallet> {
        self.installed().into_iter().find(|w| w.id == id)
    }

    pub fn is_installed_rdns(&self, rdns: &str) -> bool {
        self.wallets.iter().any(|w| w.rdns.as_deref() == Some(rdns))
    }
}

/// The Connect view's wallet rows in the spec's connector order, each wallet once:
/// walletConnect, recent, injected, featured, custom, external, recommended.
pub fn connector_rows(
    discovery: &Discovery,
    recent: &[String],
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
    if walletconnect {
        push(ConnectorRow { id: WALLETCONNECT_ID.into(), name: "WalletConnect".into(), icon: None, kind: ConnectorKind::WalletConnect, installed: false }, &mut rows);
    }
    for id in recent.iter().filter(|id| is_valid_id(id)) {
        if let Some(w) = installed.iter().find(|w| &w.id == id) {
            push(ConnectorRow { id: w.id.clone(), name: w.name.clone(), icon: w.icon.clone(), kind: ConnectorKind::Recent, installed: true }, &mut rows);
        }
    }
    for w in &installed {
        push(ConnectorRow { id: w.id.clone(), name: w.name.clone(), icon: w.icon.clone(), kind: ConnectorKind::Injected, installed: true }, &mut rows);
    }
    for l in recommended {
        let is_installed = l.rdns.as_deref().is_some_and(|r| discovery.is_installed_rdns(r));
        if is_installed {
            continue;
        }
        push(
            ConnectorRow { id: l.id.clone(), name: l.name.clone(), icon: Some(image_url(&l.image_id)), kind: ConnectorKind::Recommended, installed: false },
            &mut rows,
        );
    }
    rows.sort_by_key(|r| r.kind);
    rows
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
mod tests {
    use super::*;

    const ICON: &str = "data:image/svg+xml;base64,PHN2Zy8+";

    fn listing(id: &str, rdns: Option<&str>) -> WalletListing {
        serde_json::from_value(serde_json::json!({
            "id": id, "name": format!("Wallet {id}"), "image_id": format!("img-{id}"), "rdns": rdns,
            "chains": ["eip155:1"], "mobile_link": null, "desktop_link": null, "webapp_link": null
        }))
        .unwrap()
    }

    #[test]
    fn eip6963_announcement_is_recorded_with_rdns_as_id() {
        let mut d = Discovery::default();
        let w = d.announce("350670db-19fa-4704-a166-e52e178b59d2", "Demo Wallet", ICON, "dev.walletmodal.demo").unwrap();
        assert_eq!(w.id, "dev.walletmodal.demo");
        assert_eq!(w.icon.as_deref(), Some(ICON));
    }

    #[test]
    fn eip6963_duplicates_by_uuid_or_rdns_are_refused() {
        let mut d = Discovery::default();
        d.announce("u1", "A", ICON, "com.a").unwrap();
        assert_eq!(d.announce("u1", "B", ICON, "com.b").unwrap_err(), Refused::Duplicate);
        assert_eq!(d.announce("u2", "A again", ICON, "com.a").unwrap_err(), Refused::Duplicate);
        assert_eq!(d.installed().len(), 1);
    }

    #[test]
    fn eip6963_icons_accepted_only_as_data_image_uris() {
        assert_eq!(safe_icon(ICON).as_deref(), Some(ICON));
        assert_eq!(safe_icon("https://evil.example/x.svg"), None);
        assert_eq!(safe_icon("javascript:alert(1)"), None);
        assert_eq!(safe_icon("data:text/html,<script>"), None);
        assert_eq!(safe_icon("data:image/svg+xml,<svg onload=x>"), None, "markup characters refused");
        let mut d = Discovery::default();
        let w = d.announce("u1", "A", "https://x/y.png", "com.a").unwrap();
        assert_eq!(w.icon, None, "a wallet with a bad icon keeps a placeholder");
    }

    #[test]
    fn eip6963_bad_announcements_are_refused() {
        let mut d = Discovery::default();
        assert_eq!(d.announce("", "A", ICON, "com.a").unwrap_err(), Refused::BadUuid);
        assert_eq!(d.announce("u\"", "A", ICON, "com.a").unwrap_err(), Refused::BadUuid);
        assert_eq!(d.announce("u1", " \u{0007} ", ICON, "com.a").unwrap_err(), Refused::BadName);
        assert_eq!(d.announce("u1", "A", ICON, "nodots").unwrap_err(), Refused::BadRdns);
        assert_eq!(d.announce("u1", "A", ICON, "a..b").unwrap_err(), Refused::BadRdns);
    }

    #[test]
    fn wallet_names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("  Demo\u{0000} Wallet ").as_deref(), Some("Demo Wallet"));
        assert_eq!(clean_name("Demo\u{202E}tellaW\u{202C} \u{2066}x\u{2069}\u{200F}").as_deref(), Some("DemotellaW x"), "bidi controls stripped");
        assert_eq!(clean_name("\u{202E}\u{2067}"), None, "nothing left");
        assert_eq!(clean_name(&"x".repeat(500)).unwrap().len(), MAX_NAME_CHARS);
    }

    #[test]
    fn legacy_window_ethereum_shows_only_when_nothing_announced() {
        let mut d = Discovery::default();
        d.set_legacy(true);
        assert_eq!(d.installed()[0].id, LEGACY_INJECTED_ID);
        d.announce("u1", "A", ICON, "com.a").unwrap();
        assert_eq!(d.installed().len(), 1);
        assert_eq!(d.installed()[0].id, "com.a");
    }

    #[test]
    fn connector_order_is_walletconnect_recent_injected_then_recommended() {
        let mut d = Discovery::default();
        d.announce("u1", "A", ICON, "com.a").unwrap();
        d.announce("u2", "B", ICON, "com.b").unwrap();
        let rec = vec![listing("r1", None), listing("r2", Some("com.a"))];
        let rows = connector_rows(&d, &["com.b".into()], &rec, true, |id| format!("img/{id}"));
        let ids: Vec<_> = rows.iter().map(|r| (r.id.as_str(), r.kind)).collect();
        assert_eq!(
            ids,
            vec![
                ("walletConnect", ConnectorKind::WalletConnect),
                ("com.b", ConnectorKind::Recent),
                ("com.a", ConnectorKind::Injected),
                ("r1", ConnectorKind::Recommended),
            ]
        );
        assert_eq!(rows[3].icon.as_deref(), Some("img/img-r1"));
    }

    #[test]
    fn recent_wallet_not_installed_is_not_shown_as_recent() {
        let d = Discovery::default();
        let rows = connector_rows(&d, &["com.gone".into()], &[], false, |id| id.to_string());
        assert!(rows.is_empty());
    }

    #[test]
    fn connector_kinds_sort_in_spec_order() {
        let mut kinds = vec![
            ConnectorKind::Recommended,
            ConnectorKind::External,
            ConnectorKind::Custom,
            ConnectorKind::Featured,
            ConnectorKind::Injected,
            ConnectorKind::Recent,
            ConnectorKind::WalletConnect,
        ];
        kinds.sort();
        let names: Vec<String> = kinds.iter().map(|k| serde_json::to_string(k).unwrap().replace('"', "")).collect();
        assert_eq!(names, crate::service::constants::CONNECTOR_ORDER.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    }
}
