//! The modal itself: the view router, modal state, notification banner, debug alerts, the QR encoder.

pub mod router;
pub mod modal;
pub mod banner;
pub mod alerts;
pub mod qr;
pub mod slice;
#[cfg(test)]
mod slice_tests;
