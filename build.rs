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
    link_hot_functions_first(&root);
}

/// A release build for x86_64 Linux links first the functions callgrind saw run (tool calls
/// and start-up), most instructions first (benches/hot-symbols.txt, written by benches/hot_symbols.py), with the
/// toolchain's rust-lld: side by side with LLVM's own order, 6–22 µs less server CPU per call.
/// A name the build no longer has is skipped, so a stale list costs speed, never the build.
/// Left out when another linker is configured, or with a toolchain older than 1.90 (whose
/// default linker on this target is not rust-lld): it may not know the flag.
fn link_hot_functions_first(root: &Path) {
    let order = root.join("benches/hot-symbols.txt");
    println!("cargo::rerun-if-changed={}", order.display());
    println!("cargo::rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let own_linker = var("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_empty()
        && !flags.contains("linker")
        && !flags.contains("fuse-ld");
    if var("PROFILE") == "release"
        && var("TARGET") == "x86_64-unknown-linux-gnu"
        && own_linker
        && rust_lld_by_default(&var("RUSTC"))
        && order.is_file()
    {
        let arg = |flag: String| println!("cargo::rustc-link-arg-bin=nexus-mcp={flag}");
        arg(format!("-Wl,--symbol-ordering-file={}", order.display()));
        arg("-Wl,--no-warn-symbol-ordering".to_string());
    }
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

/// Whether `rustc` links x86_64 Linux binaries with its own rust-lld by default (1.90 and later).
fn rust_lld_by_default(rustc: &str) -> bool {
    let Ok(out) = std::process::Command::new(rustc).arg("-vV").output() else {
        return false;
    };
    let version = String::from_utf8_lossy(&out.stdout);
    let minor = version
        .lines()
        .find_map(|l| l.strip_prefix("release: 1."))
        .and_then(|rest| rest.split('.').next())
        .and_then(|m| m.parse::<u32>().ok());
    minor.is_some_and(|m| m >= 90)
}
