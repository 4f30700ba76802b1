//! The account module's WebAssembly module: the host of `wm_core::modules::Account`.

wallet_modal_host::export_host!(wm_core::modules::Account);
