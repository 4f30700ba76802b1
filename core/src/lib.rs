//! wallet-modal core: every rule of the product, with no I/O, no clock and no randomness.
//! Time and random bytes come in as arguments; effects go out as data.

// Utilities published as the `./core` entry.
pub mod address;
pub mod caip;
pub mod format;
pub mod hash;
pub mod name;
pub mod json;
pub mod vecmap;
#[cfg(feature = "crypto")]
pub mod signature;
pub mod siwx;
pub mod units;

// Catalogue, constants, built-in data and API shapes.
pub mod constants;
pub mod entities;
pub mod errors;
pub mod networks;

// Validation rules and small state machines of the spec.
pub mod alerts;
pub mod analytics;
pub mod banner;
pub mod frame;
pub mod name_flow;
pub mod onramp;
pub mod origins;
pub mod pending;
pub mod send;
pub mod siwx_flow;
pub mod smart_account;
pub mod throttle;
pub mod transactions;
pub mod validation;

// The modal itself: views, connections, wallets, persistence, remote config, the engine.
pub mod balance;
pub mod config;
pub mod connection;
pub mod engine;
pub mod modal;
pub mod router;
pub mod storage;
pub mod switching;
pub mod wallets;
pub mod catalogue;
pub mod url;
pub mod qr;

// WalletConnect v2, dapp side, sans-IO (frames, time and random bytes in; frames, events, deadlines out).
#[cfg(feature = "walletconnect")]
pub mod wc;
