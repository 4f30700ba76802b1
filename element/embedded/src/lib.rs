//! The embedded wallet's WebAssembly module: the host of `wm_core::modules::Embedded`.

wallet_modal_host::export_host!(wm_core::modules::Embedded);
