//! Thin: the generator lives in codegen/. A bad manifest fails the build at file:line:column.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // Tests point this at a copy of the manifest to show that a manifest edit alone adds a tool.
    let manifest_dir = std::env::var_os("NEXUS_MCP_MANIFEST_DIR")
        .map_or_else(|| root.join("manifest"), PathBuf::from);
    println!("cargo::rerun-if-env-changed=NEXUS_MCP_MANIFEST_DIR");
    bake(&manifest_dir, &root, &out.join("surfaces.rs"));
    // The test manifests, baked the same way: tests/registry_parity.rs compares each baked value
    // with the one `--manifest` builds from the file.
    bake(
        &root.join("tests/manifests"),
        &root,
        &out.join("test_surfaces.rs"),
    );
}

fn bake(dir: &Path, root: &Path, out: &Path) {
    println!("cargo::rerun-if-changed={}", dir.display());
    match nexus_mcp_codegen::build(dir, root, out) {
        Ok(files) => {
            for file in files {
                println!("cargo::rerun-if-changed={}", file.display());
            }
        }
        Err(e) => {
            for line in e.to_string().lines() {
                println!("cargo::error={line}");
            }
            std::process::exit(1);
        }
    }
}
