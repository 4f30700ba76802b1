//! Feature gates, in one place: the remote project config's features (or the host's local ones, or
//! none in basic mode), the host's options, and what this build has decide which capabilities are
//! active and so which rows and buttons exist. Everything that shows or hides a capability asks
//! [`gates`]; nothing else reads the features for that.

use crate::service::entities::RemoteFeatures;

/// The capabilities this build has (a capability is off while its slice does not exist, whatever
/// the config says: a row that leads nowhere is worse than no row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Built {
    /// The embedded wallet (email and social login).
    pub embedded_wallet: bool,
    pub swaps: bool,
    pub onramp: bool,
    pub activity: bool,
    pub multi_wallet: bool,
}

/// This build: connecting (injected, WalletConnect, the embedded wallet by email, social login or
/// Farcaster), the account, swaps and the on-ramp.
pub const BUILT: Built = Built { embedded_wallet: true, swaps: true, onramp: true, activity: false, multi_wallet: true };

/// Whether several wallets may be connected at once (the `multiWallet` feature in this build):
/// without it, getting, switching and deleting connections only says 'Multi-wallet not enabled'.
pub fn multi_wallet(features: &RemoteFeatures) -> bool {
    BUILT.multi_wallet && features.multi_wallet
}

/// What is switched on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gates {
    /// Connect view rows in the spec's order (email, social, wallet); the wallet row is always there.
    pub connect_methods: Vec<&'static str>,
    /// Social providers offered (empty when the social row is off).
    pub socials: Vec<String>,
    pub swaps: bool,
    pub onramp: bool,
    pub activity: bool,
    pub multi_wallet: bool,
    /// "UX by Reown"-style branding in the footer.
    pub branding: bool,
}

/// The networks (CAIP-2) where swaps are offered: the chain family's list (`spec`, §9) and the
/// project's own.
pub fn swap_networks(spec: Vec<String>, features: &RemoteFeatures) -> Vec<String> {
    let mut list = spec;
    for n in features.swap_networks.iter().take(64) {
        if n.len() <= 64 && !list.contains(n) {
            list.push(n.clone());
        }
    }
    list
}

/// The gates for these features in a build that has `built`.
pub fn gates(features: &RemoteFeatures, built: Built) -> Gates {
    let email = built.embedded_wallet && features.email;
    let social = built.embedded_wallet && !features.socials.is_empty();
    let mut connect_methods = Vec::new();
    if email {
        connect_methods.push("email");
    }
    if social {
        connect_methods.push("social");
    }
    connect_methods.push("wallet");
    Gates {
        connect_methods,
        socials: if social { features.socials.clone() } else { Vec::new() },
        swaps: built.swaps && !features.swaps.is_empty(),
        onramp: built.onramp && !features.onramp.is_empty(),
        activity: built.activity && features.activity,
        multi_wallet: built.multi_wallet && features.multi_wallet,
        branding: features.reown_branding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: Built = Built { embedded_wallet: true, swaps: true, onramp: true, activity: true, multi_wallet: true };

    #[test]
    fn a_capability_is_on_only_when_both_the_config_and_the_build_have_it() {
        let f = RemoteFeatures::default_remote();
        let g = gates(&f, ALL);
        assert_eq!(g.connect_methods, ["email", "social", "wallet"]);
        assert!(!g.socials.is_empty() && g.swaps && g.onramp && g.activity);
        let g = gates(&f, BUILT);
        assert_eq!(g.connect_methods, ["email", "social", "wallet"], "this build has the embedded wallet");
        assert!(!g.socials.is_empty() && !g.activity && !g.multi_wallet);
        let no_embedded = Built { embedded_wallet: false, ..BUILT };
        assert_eq!(gates(&f, no_embedded).connect_methods, ["wallet"], "no email or social row without the embedded wallet");
        assert!(g.swaps && g.onramp, "this build swaps and buys (the swap and buy slices)");
        assert!(!gates(&RemoteFeatures::none(), BUILT).swaps, "not without the config's providers");
    }

    #[test]
    fn connect_rows_follow_email_social_wallet_order_when_their_features_are_on() {
        let basic = crate::service::config::basic_features();
        let all = RemoteFeatures { email: true, socials: vec!["google".into()], ..basic.clone() };
        assert_eq!(gates(&all, ALL).connect_methods, ["email", "social", "wallet"]);
        assert_eq!(gates(&basic, ALL).connect_methods, ["wallet"]);
        let no_embedded = Built { embedded_wallet: false, ..BUILT };
        assert_eq!(gates(&all, no_embedded).connect_methods, ["wallet"], "no email/social rows without the embedded wallet");
    }

    #[test]
    fn the_config_switches_capabilities_off() {
        let off = RemoteFeatures { email: false, socials: vec![], swaps: vec![], onramp: vec![], activity: false, reown_branding: false, multi_wallet: false, swap_networks: vec![] };
        let g = gates(&off, ALL);
        assert_eq!(g.connect_methods, ["wallet"]);
        assert!(!g.swaps && !g.onramp && !g.activity && !g.multi_wallet && !g.branding);
        let socials_only = RemoteFeatures { socials: vec!["github".into()], ..off };
        assert_eq!(gates(&socials_only, ALL).connect_methods, ["social", "wallet"]);
    }
}
