//! Pins the Rust the generator emits: for the demo manifest (tests/manifests/demo.yaml, the
//! surface the engine tests serve) and for each real manifest in manifest/, the generated module
//! must equal its snapshot in codegen/tests/snapshots/<surface>.rs. The demo has no custom tool
//! (`--manifest` refuses them): the CustomHandlers methods and dispatch that custom tools get are
//! pinned by the nexus_code_kg and nexus_doc_kg snapshots. tests/trybuild/pass/generated_snapshots.rs (written here
//! too) compiles every snapshot with `#![deny(warnings)]`, run by `cargo test --test
//! typed_handlers` in the nexus-mcp crate.
//!
//! After a deliberate change to the generator or a manifest, regenerate and review the diff:
//!     NEXUS_MCP_UPDATE_SNAPSHOTS=1 cargo test -p nexus-mcp-codegen --test generated
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_codegen::{LoadedManifest, generate, load_dir, parse};
use std::path::{Path, PathBuf};

const UPDATE: &str = "NEXUS_MCP_UPDATE_SNAPSHOTS";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// The trybuild case that compiles the snapshots (in the nexus-mcp crate, which has the
/// runtime and the derive crates the generated code needs).
fn compile_case() -> PathBuf {
    workspace().join("tests/trybuild/pass/generated_snapshots.rs")
}

fn updating() -> bool {
    std::env::var(UPDATE).as_deref() == Ok("1")
}

/// The demo manifest and every real one, named relative to the workspace root.
fn manifests() -> Vec<LoadedManifest> {
    let root = workspace();
    // Only the demo of tests/manifests/: conformance.yaml belongs to the conformance suite.
    let demo = PathBuf::from("tests/manifests/demo.yaml");
    let source = std::fs::read_to_string(root.join(&demo)).unwrap();
    let manifest = parse(&demo, &source)
        .unwrap_or_else(|e| panic!("the demo manifest does not build:\n{e:#?}"));
    let mut all = vec![LoadedManifest {
        path: demo,
        manifest,
    }];
    all.extend(
        load_dir(&root.join("manifest"), &root)
            .unwrap_or_else(|e| panic!("a manifest does not build:\n{e}")),
    );
    all
}

/// `expected` at `path`, or written there in update mode; the difference otherwise.
fn check(path: &Path, expected: &str) -> Option<String> {
    if updating() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, expected).unwrap();
        return None;
    }
    let pinned = std::fs::read_to_string(path).unwrap_or_default();
    if pinned == expected {
        return None;
    }
    let first = pinned
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| pinned.lines().count().min(expected.lines().count()));
    Some(format!(
        "{} differs from what the generator emits now, first at line {}:\n  pinned:    {}\n  generated: {}",
        path.display(),
        first + 1,
        pinned.lines().nth(first).unwrap_or("<end of file>"),
        expected.lines().nth(first).unwrap_or("<end of file>"),
    ))
}

#[test]
fn generated_rust_matches_the_snapshots() {
    let manifests = manifests();
    let mut problems = Vec::new();
    let mut surfaces = Vec::new();
    for m in &manifests {
        let source = generate(std::slice::from_ref(m))
            .unwrap_or_else(|e| panic!("{}: {e}", m.path.display()));
        let name = m.manifest.surface.replace('-', "_");
        problems.extend(check(&snapshots().join(format!("{name}.rs")), &source));
        surfaces.push(name);
    }
    // A snapshot whose manifest is gone would still be compiled and read as current.
    let mut stale: Vec<String> = std::fs::read_dir(snapshots())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".rs")
                        .map(str::to_owned)
                })
                .filter(|name| !surfaces.contains(name))
                .collect()
        })
        .unwrap_or_default();
    stale.sort();
    for name in &stale {
        let path = snapshots().join(format!("{name}.rs"));
        if updating() {
            std::fs::remove_file(&path).unwrap();
        } else {
            problems.push(format!("{} has no manifest any more", path.display()));
        }
    }
    problems.extend(check(&compile_case(), &compile_source(&surfaces)));
    assert!(
        problems.is_empty(),
        "{}\n\nIf the change is intended: {UPDATE}=1 cargo test -p nexus-mcp-codegen --test generated, then review the diff.",
        problems.join("\n\n")
    );
}

/// The trybuild pass case: each snapshot in a module of its own, warnings denied.
fn compile_source(surfaces: &[String]) -> String {
    let mut out = String::from(
        "// Written by codegen/tests/generated.rs (NEXUS_MCP_UPDATE_SNAPSHOTS=1): compiles every pinned\n\
         // snapshot of generated Rust with warnings denied, so warning-free output is checked here\n\
         // instead of by a `deny` in the generated code itself.\n\
         #![deny(warnings)]\n\
         // In a binary nothing is exported, so generated items no code here calls would count as\n\
         // dead; in the nexus-mcp library they are public.\n\
         #![allow(dead_code)]\n\n",
    );
    for name in surfaces {
        out.push_str(&format!(
            "mod {name} {{\n    include!(\"../../../codegen/tests/snapshots/{name}.rs\");\n}}\n\n"
        ));
    }
    out.push_str("fn main() {\n");
    for name in surfaces {
        out.push_str(&format!("    assert!(!{name}::SURFACES.is_empty());\n"));
    }
    out.push_str("}\n");
    out
}
