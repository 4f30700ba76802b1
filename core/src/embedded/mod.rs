//! The embedded wallet: the secure frame protocol, the email throttle, the email slice, what an
//! approval shows, and the module that runs them (its own lazily loaded wasm, `element/embedded`).

pub mod approve;
pub mod email;
pub mod frame;
pub mod module;
pub mod throttle;
