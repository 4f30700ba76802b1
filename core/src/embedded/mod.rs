//! The embedded wallet (email, social and Farcaster logins through a secure frame on its own
//! origin): the frame protocol and the email rules, and the slices that run them — `frame` (the
//! secure frame, as the `frame` connector), `embeddedWallet` (the `embedded` connector: the
//! wallet's provider), `email`, `social`, `farcaster` and `approval` (ApproveTransaction).

pub mod connectors;
pub mod email;
pub mod frame;
pub mod throttle;
pub mod frame_slice;
pub mod provider_slice;
pub mod approval_slice;
pub mod email_slice;
pub mod social_slice;
pub mod farcaster_slice;
#[cfg(test)]
mod email_tests;
#[cfg(test)]
mod provider_tests;
#[cfg(test)]
mod approval_tests;
#[cfg(test)]
mod social_tests;
