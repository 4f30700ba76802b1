//! Buying crypto with fiat: the on-ramp rules and the `buy` slice (the OnRampProviders view).

pub mod onramp;
pub mod purchases;
pub mod slice;

#[cfg(test)]
mod slice_tests;
