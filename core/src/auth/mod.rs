//! Sign-in with X: messages and the sign-in flow.

pub mod siwx;
pub mod siwx_flow;
