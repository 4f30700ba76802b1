//! The embedded wallet: the secure frame protocol and the email throttle.

pub mod frame;
pub mod throttle;
