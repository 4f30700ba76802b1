//! The route table: which module (WebAssembly file) runs which slices, and so which module reads
//! each event type, writes each snapshot key, needs loading for each view and answers each
//! connector. The shell's one bridge is driven by it: `element/ts/routes.gen.ts` is written from
//! this table (`WM_WRITE_ROUTES=1 cargo test -p wallet-modal-core --all-features routes`), and a
//! test fails when the two differ.

use super::SliceInfo;
use crate::ui::router::View;

/// One module of the table: its name (its wasm crate's) and its slices.
pub struct ModuleRoutes {
    pub name: &'static str,
    pub slices: Vec<SliceInfo>,
}

/// The table as the TypeScript module the shell imports. The first module (the engine, loaded at
/// start-up) is the default route: only the lazily loaded modules are listed, with what loads them.
pub fn to_typescript(modules: &[ModuleRoutes]) -> String {
    let list = |items: &[&str]| items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ");
    let mut out = String::from(
        "// Written by the Rust side (core/src/host/routes.rs) from core/src/modules.rs: which module runs\n\
         // which slices, and so which module reads each event, needs loading for each view and answers\n\
         // each connector. Do not edit: regenerate with\n\
         // `WM_WRITE_ROUTES=1 cargo test -p wallet-modal-core --all-features routes`.\n\n\
         export interface ModuleRoute {\n  events: readonly string[];\n  views: readonly string[];\n  connectors: readonly string[];\n}\n\n",
    );
    let union = |items: &[&str]| items.iter().map(|s| format!("\n  | '{s}'")).collect::<String>();
    let views: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
    out.push_str(&format!("/** Every view of the modal (the core's `View`). */\nexport type ViewName ={};\n\n", union(&views)));
    let Some((engine, lazy)) = modules.split_first() else { return out };
    let slices = |m: &ModuleRoutes| m.slices.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
    let events = |m: &ModuleRoutes| m.slices.iter().flat_map(|s| s.events.iter().copied()).collect::<Vec<_>>();
    out.push_str(&format!(
        "/** The module loaded at start-up: every event no other module reads goes to it. */\nexport const ENGINE = '{}';\n\n",
        engine.name
    ));
    out.push_str(&format!("/** The events the engine's slices ({}) read. */\nexport type EngineEventType ={};\n\n", slices(engine), union(&events(engine))));
    out.push_str("/** The lazily loaded modules, and what loads each one. */\nexport const ROUTES = {\n");
    for m in lazy {
        let mut views: Vec<&str> = m.slices.iter().flat_map(|s| s.views.iter().map(|v: &View| v.name())).collect();
        views.dedup();
        let connectors: Vec<&str> = m.slices.iter().flat_map(|s| s.connectors.iter().copied()).collect();
        out.push_str(&format!(
            "  // slices: {}\n  {}: {{\n    events: [{}],\n    views: [{}],\n    connectors: [{}],\n  }},\n",
            slices(m),
            m.name,
            list(&events(m)),
            list(&views),
            list(&connectors)
        ));
    }
    out.push_str("} as const satisfies Record<string, ModuleRoute>;\n\nexport type ModuleName = typeof ENGINE | keyof typeof ROUTES;\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shell's copy of the table (`element/ts/routes.gen.ts`) is the one this crate writes.
    /// `WM_WRITE_ROUTES=1` rewrites it.
    #[test]
    fn routes_table_of_the_shell_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../element/ts/routes.gen.ts");
        let table = to_typescript(&crate::modules::routes());
        if std::env::var_os("WM_WRITE_ROUTES").is_some() {
            std::fs::write(path, &table).unwrap();
        }
        let file = std::fs::read_to_string(path).unwrap_or_default();
        assert!(file == table, "element/ts/routes.gen.ts is stale: run `WM_WRITE_ROUTES=1 cargo test -p wallet-modal-core --all-features routes`");
    }

    #[test]
    fn every_event_part_view_and_connector_has_exactly_one_owner() {
        let modules = crate::modules::routes();
        let mut events = Vec::new();
        let mut parts = Vec::new();
        let mut connectors = Vec::new();
        for m in &modules {
            for s in &m.slices {
                events.extend(s.events.iter().copied());
                parts.extend(s.parts.iter().copied());
                connectors.extend(s.connectors.iter().copied());
            }
        }
        for (what, list) in [("event", &events), ("snapshot key", &parts), ("connector", &connectors)] {
            let mut sorted = list.clone();
            sorted.sort();
            let before = sorted.len();
            sorted.dedup();
            assert_eq!(sorted.len(), before, "a {what} owned twice: {list:?}");
        }
        // The host's own events are no slice's.
        for own in ["providerResult", "fetchResult", "timer", "notes", "request", "release"] {
            assert!(!events.contains(&own), "{own}");
        }
        // Every view that needs a module is a view a slice shows.
        assert!(modules.iter().any(|m| m.name == "account" && m.slices.iter().any(|s| s.views.contains(&crate::ui::router::View::Swap))));
    }
}
