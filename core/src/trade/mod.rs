//! Buying and swapping: the on-ramp rules, and the buy and swap slices (in the lazily loaded
//! account module).

pub mod buy;
pub mod module;
pub mod onramp;
pub mod swap;
