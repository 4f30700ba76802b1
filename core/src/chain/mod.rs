//! Chain facts and formats: addresses, CAIP ids, units, hashes, signatures, the built-in networks, display formatting (most of them published as the `./core` entry).

pub mod address;
pub mod caip;
pub mod units;
pub mod hash;
#[cfg(feature = "crypto")]
pub mod signature;
pub mod networks;
pub mod format;
pub mod adapter;
pub mod eip155;
