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
#[path = "config_tests.rs"]
mod tests;
