//! One registry value, made by one function: for every manifest under manifest/ and
//! tests/manifests/, the value the build baked into Rust equals, as a whole, the value
//! `nexus_mcp_codegen::surface` builds from the file at run time (what `--manifest` serves).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_runtime::spec::SurfaceSpec;
use std::path::{Path, PathBuf};

/// tests/manifests/*.yaml, baked by build.rs like manifest/.
#[allow(dead_code, clippy::all)]
mod test_surfaces {
    include!(concat!(env!("OUT_DIR"), "/test_surfaces.rs"));
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The registry value of each `*.yaml` in `dir`, in file-name order (the order baked).
fn built(dir: &Path) -> Vec<&'static SurfaceSpec> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let source = std::fs::read_to_string(path).unwrap();
            let manifest = nexus_mcp_codegen::parse(path, &source)
                .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            nexus_mcp_codegen::surface(&manifest)
        })
        .collect()
}

fn assert_same(baked: &[&SurfaceSpec], dir: &str) {
    let built = built(&root().join(dir));
    let names = |list: &[&SurfaceSpec]| list.iter().map(|s| s.name).collect::<Vec<_>>();
    assert_eq!(names(baked), names(&built), "{dir}");
    for (baked, built) in baked.iter().zip(built) {
        assert_eq!(*baked, built, "{dir}: surface {}", baked.name);
    }
}

#[test]
fn every_compiled_surface_is_the_value_its_manifest_builds() {
    assert_same(nexus_mcp::SURFACES, "manifest");
}

#[test]
fn every_test_surface_is_the_value_its_manifest_builds() {
    assert_same(test_surfaces::SURFACES, "tests/manifests");
}

#[test]
fn a_server_name_that_is_not_the_surface_is_refused_at_file_line_column() {
    let path = root().join("tests/manifests/demo.yaml");
    let source = std::fs::read_to_string(&path).unwrap().replacen(
        "  name: demo\n",
        "  name: demo-server\n",
        1,
    );
    let errors = nexus_mcp_codegen::parse(&path, &source).unwrap_err();
    let line = source
        .lines()
        .position(|l| l == "  name: demo-server")
        .unwrap()
        + 1;
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        shown
            .iter()
            .any(|e| e.contains(&format!("demo.yaml:{line}:"))
                && e.contains("server.name is `demo-server` but surface is `demo`")),
        "{shown:#?}"
    );
}
