//! Buying and swapping: the on-ramp rules.

pub mod onramp;
