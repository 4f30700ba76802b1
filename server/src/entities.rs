//! API shapes served by the demo backend: the shared serde types of `wm_core::service::entities`, so the
//! modal and this server agree on one definition of every JSON field.

pub use wm_core::service::entities::{
    AllowedOrigins, AnalyticsConfig, AnalyticsEvent, ProjectConfig, RemoteFeatures, WalletListing,
    WalletsPage,
};
