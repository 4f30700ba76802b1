//! The sign-in module's WebAssembly module: the host of `wm_core::modules::SignIn`.

wallet_modal_host::export_host!(wm_core::modules::SignIn);
