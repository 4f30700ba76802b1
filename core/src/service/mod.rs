//! The hosted services and shared plumbing: remote config, allowed origins, analytics, JSON, the error catalogue, constants, API shapes, URLs, small maps, validation rules.

pub mod config;
pub mod origins;
pub mod analytics;
pub mod json;
pub mod decimal;
pub mod errors;
pub mod constants;
pub mod gates;
pub mod entities;
pub mod url;
pub mod vecmap;
pub mod validation;
pub mod text;
pub mod slice;
#[cfg(test)]
mod slice_tests;
