//! Swapping tokens: the `swap` slice (the Swap view) over the convert API.

pub mod slice;

#[cfg(test)]
pub(crate) mod slice_tests;
