//! Remote project configuration (`GET /appkit/v1/config`, spec 6 and 7): which features are on.
//!
//! Basic mode turns every remote feature off. A successful fetch wins over local options (debug
//! mode says the local ones were ignored); a failed fetch falls back to local options, then to the
//! spec's defaults.

use crate::service::entities::{ProjectConfig, RemoteFeatures};
use serde::Serialize;

/// Where the features in force came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Basic,
    Remote,
    Local,
    Default,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub features: RemoteFeatures,
    pub source: Source,
    /// Debug-mode notice to show (e.g. local features ignored because remote config was used).
    pub notice: Option<String>,
}

/// Every remote feature off.
pub fn basic_features() -> RemoteFeatures {
    RemoteFeatures {
        email: false,
        socials: Vec::new(),
        swaps: Vec::new(),
        onramp: Vec::new(),
        activity: false,
        reown_branding: false,
        multi_wallet: false,
        swap_networks: Vec::new(),
    }
}

/// Parses a config answer; None for a failure or a body of the wrong shape.
pub fn parse_config_response(status: u16, body: &str) -> Option<RemoteFeatures> {
    if !(200..300).contains(&status) {
        return None;
    }
    crate::host::json::from_str::<ProjectConfig>(body).ok().map(|c| c.features)
}

/// Decides the features in force.
pub fn resolve(basic: bool, local: Option<&RemoteFeatures>, remote: Option<RemoteFeatures>) -> Resolved {
    if basic {
        return Resolved { features: basic_features(), source: Source::Basic, notice: None };
    }
    match (remote, local) {
        (Some(features), Some(_)) => Resolved {
            features,
            source: Source::Remote,
            notice: Some("Remote project configuration was used; the local features option was ignored.".into()),
        },
        (Some(features), None) => Resolved { features, source: Source::Remote, notice: None },
        (None, Some(local)) => Resolved {
            features: local.clone(),
            source: Source::Local,
            notice: Some("Remote project configuration could not be fetched; using the local features option.".into()),
        },
        (None, None) => Resolved {
            features: RemoteFeatures::default_remote(),
            source: Source::Default,
            notice: Some("Remote project configuration could not be fetched; using default features.".into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projects_swap_networks_are_read_and_bounded() {
        let list: Vec<String> = (0..100).map(|i| format!("\"eip155:{i}\"")).collect();
        let body = format!(r#"{{"features":{{"swaps":["1inch"],"swapNetworks":[{}]}}}}"#, list.join(","));
        let f = parse_config_response(200, &body).unwrap();
        assert_eq!(f.swap_networks.len(), 64, "at most 64 kept");
        assert_eq!(f.swap_networks[0], "eip155:0");
        let f = parse_config_response(200, r#"{"features":{"swaps":["1inch"]}}"#).unwrap();
        assert!(f.swap_networks.is_empty(), "optional");
        assert!(parse_config_response(200, r#"{"features":{"swapNetworks":[1]}}"#).is_none(), "strings only");
    }

    fn remote() -> RemoteFeatures {
        RemoteFeatures { email: false, socials: vec!["github".into()], multi_wallet: true, ..basic_features() }
    }

    #[test]
    fn basic_mode_disables_all_remote_features() {
        let r = resolve(true, Some(&remote()), Some(remote()));
        assert_eq!(r.source, Source::Basic);
        assert_eq!(r.features, basic_features());
    }

    #[test]
    fn remote_config_wins_and_debug_notice_says_local_was_ignored() {
        let local = RemoteFeatures { email: true, ..basic_features() };
        let r = resolve(false, Some(&local), Some(remote()));
        assert_eq!(r.source, Source::Remote);
        assert_eq!(r.features, remote());
        assert!(r.notice.unwrap().contains("ignored"));
        assert_eq!(resolve(false, None, Some(remote())).notice, None);
    }

    #[test]
    fn failed_remote_config_falls_back_to_local_then_defaults() {
        let local = RemoteFeatures { email: true, ..basic_features() };
        let r = resolve(false, Some(&local), None);
        assert_eq!((r.source, r.features.email), (Source::Local, true));
        let r = resolve(false, None, None);
        assert_eq!(r.source, Source::Default);
        assert_eq!(r.features, RemoteFeatures::default_remote());
    }

    #[test]
    fn config_response_needs_success_status_and_shape() {
        let body = serde_json::json!({"features": {"email": true, "socials": ["x"], "multiWallet": true}}).to_string();
        let f = parse_config_response(200, &body).unwrap();
        assert!(f.email && f.multi_wallet);
        assert_eq!(parse_config_response(500, &body), None);
        assert_eq!(parse_config_response(200, "[]"), None);
        assert_eq!(parse_config_response(200, "<html>"), None);
    }
}
