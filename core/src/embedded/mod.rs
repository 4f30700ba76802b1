//! The embedded wallet: the secure frame protocol, the email throttle, the email slice, what an
//! approval shows, and the module that runs them (its own lazily loaded wasm, `element/embedded`).

#[cfg(feature = "modules")]
pub mod approve;
#[cfg(feature = "modules")]
pub mod email;
#[cfg(feature = "modules")]
pub mod frame;
#[cfg(feature = "modules")]
pub mod module;
#[cfg(feature = "modules")]
pub mod throttle;
