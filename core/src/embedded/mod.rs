//! The embedded wallet (email, social and Farcaster logins through a secure frame on its own
//! origin): the frame protocol and the email rules, and the slices that run them — `frame` (the
//! secure frame, as the `frame` connector), `embeddedWallet` (the `embedded` connector: the
//! wallet's provider), `email`, `social`, `farcaster` and `approval` (ApproveTransaction).

#[cfg(feature = "modules")]
pub mod approve;
#[cfg(feature = "modules")]
pub mod email;
#[cfg(feature = "modules")]
pub mod frame;
#[cfg(feature = "modules")]
pub mod throttle;
#[cfg(feature = "modules")]
pub mod frame_slice;
#[cfg(feature = "modules")]
pub mod provider_slice;
#[cfg(feature = "modules")]
pub mod approval_slice;
#[cfg(feature = "modules")]
pub mod email_slice;
#[cfg(feature = "modules")]
pub mod social_slice;
#[cfg(feature = "modules")]
pub mod farcaster_slice;
#[cfg(test)]
mod email_tests;
#[cfg(test)]
mod provider_tests;
#[cfg(test)]
mod approval_tests;
#[cfg(test)]
mod social_tests;
