//! The one bridge between the shell and a host module: `export_host!(wm_core::modules::Engine)`
//! makes the crate a WebAssembly module whose `WasmHost` class the shell drives through JSON
//! strings, whichever slices the host runs. Every call returns `{"effects": [...], "notes":
//! [...], "snapshot": {...}}`; malformed input never traps (it comes back as an alert effect and
//! the state is unchanged).

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub use lol_alloc;

/// Exports a host type (a `wm_core::host::Host` over its slices) as this crate's `WasmHost`.
#[macro_export]
macro_rules! export_host {
    ($host:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[global_allocator]
        // SAFETY: a host module's WebAssembly instance runs on one thread (no shared memory, no
        // atomics). A small free-list allocator instead of dlmalloc: ~5 KB less WebAssembly.
        static ALLOCATOR: $crate::lol_alloc::AssumeSingleThreaded<$crate::lol_alloc::FreeListAllocator> =
            unsafe { $crate::lol_alloc::AssumeSingleThreaded::new($crate::lol_alloc::FreeListAllocator::new()) };

        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub struct WasmHost {
            host: $host,
        }

        #[::wasm_bindgen::prelude::wasm_bindgen]
        impl WasmHost {
            /// The host for the element's options (JSON); bad options fall back to defaults.
            #[::wasm_bindgen::prelude::wasm_bindgen(constructor)]
            pub fn new(options_json: &str) -> WasmHost {
                WasmHost { host: <$host>::from_json(options_json) }
            }

            /// Handles one event (JSON) at `now_ms`.
            pub fn dispatch(&mut self, event_json: &str, now_ms: f64) -> String {
                self.host.dispatch_json(event_json, now_ms)
            }

            /// Replaces the options (an attribute or property changed).
            #[::wasm_bindgen::prelude::wasm_bindgen(js_name = setOptions)]
            pub fn set_options(&mut self, options_json: &str, now_ms: f64) -> String {
                self.host.set_options_json(options_json, now_ms)
            }

            /// The snapshot (JSON), for `getState()`.
            pub fn snapshot(&self) -> String {
                self.host.snapshot_json()
            }

            /// The shared facts as notes (JSON array), for a module that loads late.
            pub fn facts(&self) -> String {
                self.host.facts_json()
            }
        }
    };
}
