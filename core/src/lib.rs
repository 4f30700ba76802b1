//! wallet-modal core: every rule of the product, with no I/O, no clock and no randomness.
//! Time and random bytes come in as arguments; effects go out as data.
//!
//! One folder per domain (see the README's "Core layout"): what the folder holds is in its name.

pub mod account;
pub mod auth;
pub mod chain;
pub mod connect;
pub mod embedded;
pub mod service;
pub mod swap;
pub mod buy;
pub mod network;
pub mod ui;

// The host: routes the shell's events to the slices above and answers with effects, notes and a
// snapshot; `modules` says which slices each WebAssembly module runs.
pub mod host;
pub mod modules;
