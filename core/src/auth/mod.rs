//! Sign-in with X: the sign-in messages (EIP-4361 and its CAIP-122 kin).

pub mod siwx;
#[cfg(feature = "crypto")]
pub mod slice;
