//! Chain facts and formats: addresses, CAIP ids, units, hashes, signatures, the built-in networks,
//! display formatting (most of them published as the `./core` entry), and the chain families.

pub mod error;
pub mod address;
pub mod caip;
pub mod units;
pub mod hash;
#[cfg(feature = "crypto")]
pub mod signature;
pub mod networks;
pub mod format;
pub mod bech32;
pub mod blake2b;
pub mod base64;
pub mod rpc_batch;
pub mod rpc_rank;
#[macro_use]
pub mod family;

// The chain families, one folder each (see `family`): adding one is its folder, its `mod` line
// here and its type in the list below. Nothing outside a family's folder names it but these lines.
pub mod eip155;
pub mod solana;
pub mod bip122;
pub mod polkadot;
pub mod cosmos;

families!(eip155::Eip155, solana::Solana, bip122::Bip122, polkadot::Polkadot, cosmos::Cosmos);
