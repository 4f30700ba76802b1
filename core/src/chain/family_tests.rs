//! The families' boundary: nothing outside a family's folder names it or its wallet methods.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `"eth_…`, `"wallet_…` or `eip155` anywhere in the line.
fn names_the_evm_family(line: &str) -> bool {
    line.contains("\"eth_") || line.contains("\"wallet_") || line.contains("eip155")
}

/// The issue's check, `grep -rnE '"(eth_|wallet_)|eip155' core/src` outside the EVM family's
/// folder and the tests: only the registry of families (`chain/mod.rs`) may name it, once as a
/// module and once in the list.
#[test]
fn only_the_evm_familys_folder_names_it_or_its_wallet_methods() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut found = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let name = rel.rsplit('/').next().unwrap_or_default();
        if rel.starts_with("chain/eip155") || name.ends_with("_tests.rs") || name == "tests.rs" || name == "harness.rs" {
            continue;
        }
        for (i, line) in std::fs::read_to_string(&f).unwrap().lines().enumerate() {
            let registry = rel == "chain/mod.rs" && (line == "pub mod eip155;" || line.starts_with("families!(eip155::Eip155, "));
            if names_the_evm_family(line) && !registry {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "named outside the family's folder:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_a_method_or_the_namespace() {
    assert!(names_the_evm_family(r#"let m = "eth_sendTransaction";"#));
    assert!(names_the_evm_family(r#"call("wallet_switchEthereumChain")"#));
    assert!(names_the_evm_family("// eip155 only"));
    assert!(!names_the_evm_family("family::transfers(ns)"));
}

#[test]
fn every_family_has_a_distinct_namespace_and_its_built_in_networks_are_its_own() {
    let mut seen = Vec::new();
    for ns in super::NAMESPACES {
        assert!(!seen.contains(ns), "{ns} twice");
        seen.push(*ns);
    }
    for n in crate::chain::networks::builtin_networks() {
        assert!(n.caip_network_id.starts_with(&format!("{}:", n.chain_namespace.as_str())));
    }
}
