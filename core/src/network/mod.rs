//! Networks: which one is active, and moving to another (asking the wallet through its family's
//! adapter); the `network` slice.

pub mod switching;
pub mod slice;
#[cfg(test)]
mod slice_tests;
