//! Feature gates, in one place: the remote project config's features (else the host's local
//! `features`, else the spec's defaults; none in basic mode: service/config.rs) decide which
//! capabilities are active and so which rows, tabs and buttons exist. Everything that shows or
//! hides a capability asks [`gates`] (or one of its functions); nothing else reads the features
//! for that.

use crate::service::entities::RemoteFeatures;

/// Whether several wallets may be connected at once (the `multiWallet` feature): without it,
/// getting, switching and deleting connections only says 'Multi-wallet not enabled'.
pub fn multi_wallet(features: &RemoteFeatures) -> bool {
    features.multi_wallet
}

/// Whether the Account view has its Activity tab (the `activity` feature).
pub fn activity(features: &RemoteFeatures) -> bool {
    features.activity
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

/// The gates for these features.
pub fn gates(features: &RemoteFeatures) -> Gates {
    let email = features.email;
    let social = !features.socials.is_empty();
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
        swaps: !features.swaps.is_empty(),
        onramp: !features.onramp.is_empty(),
        activity: activity(features),
        multi_wallet: multi_wallet(features),
        branding: features.reown_branding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_defaults_switch_every_capability_on_but_multi_wallet() {
        let g = gates(&RemoteFeatures::default_remote());
        assert_eq!(g.connect_methods, ["email", "social", "wallet"]);
        assert!(!g.socials.is_empty() && g.swaps && g.onramp && g.activity && g.branding);
        assert!(!g.multi_wallet, "multi-wallet is off by default (spec §9)");
        assert!(!gates(&RemoteFeatures::none()).swaps, "not without the config's providers");
    }

    #[test]
    fn connect_rows_follow_email_social_wallet_order_when_their_features_are_on() {
        let basic = crate::service::config::basic_features();
        let all = RemoteFeatures { email: true, socials: vec!["google".into()], ..basic.clone() };
        assert_eq!(gates(&all).connect_methods, ["email", "social", "wallet"]);
        assert_eq!(gates(&basic).connect_methods, ["wallet"]);
    }

    #[test]
    fn the_config_switches_each_capability_off() {
        let off = RemoteFeatures { email: false, socials: vec![], swaps: vec![], onramp: vec![], activity: false, reown_branding: false, multi_wallet: false, swap_networks: vec![] };
        let g = gates(&off);
        assert_eq!(g.connect_methods, ["wallet"]);
        assert!(!g.swaps && !g.onramp && !g.activity && !g.multi_wallet && !g.branding);
        let socials_only = RemoteFeatures { socials: vec!["github".into()], ..off.clone() };
        assert_eq!(gates(&socials_only).connect_methods, ["social", "wallet"]);
        let on = RemoteFeatures { activity: true, multi_wallet: true, reown_branding: true, ..off };
        let g = gates(&on);
        assert!(g.activity && g.multi_wallet && g.branding && activity(&on) && multi_wallet(&on));
    }
}
