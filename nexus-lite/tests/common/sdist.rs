//! A real project's source distribution from PyPI (or its package from npm), unpacked: the
//! tests that run on code nobody here wrote share this (nexus-lite's `sdist` and `typescript`,
//! nexus-mcp's `gate_cli`). They run only with NEXUS_LITE_SDIST_TEST=1 (CI sets it): it needs
//! network access to PyPI and npm.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the sdist tests are asked for; says how to ask when they are not.
pub fn wanted(spec: &str) -> bool {
    let on = std::env::var("NEXUS_LITE_SDIST_TEST").as_deref() == Ok("1");
    if !on {
        eprintln!("skipped: set NEXUS_LITE_SDIST_TEST=1 to download {spec} and run it");
    }
    on
}

/// Downloads `spec` (`name@version`) from npm with `npm pack` into `work` and unpacks it
/// there; returns the package directory (its package.json and what it ships).
pub fn fetch_npm(spec: &str, work: &Path) -> PathBuf {
    let pack = Command::new("npm")
        .args(["pack", "--silent", spec, "--pack-destination"])
        .arg(work)
        .output()
        .unwrap();
    assert!(
        pack.status.success(),
        "npm pack {spec} failed: {}",
        String::from_utf8_lossy(&pack.stderr)
    );
    unpack(work, ".tgz")
}

/// Downloads `spec` (`name==version`) as an sdist with `python -m pip` into `work` and
/// unpacks it there; returns the unpacked project directory.
pub fn fetch(python: &Path, spec: &str, work: &Path) -> PathBuf {
    let dl = Command::new(python)
        .args([
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            spec,
            "-d",
        ])
        .arg(work)
        .output()
        .unwrap();
    assert!(
        dl.status.success(),
        "pip download {spec} failed: {}",
        String::from_utf8_lossy(&dl.stderr)
    );
    unpack(work, ".tar.gz")
}

/// Unpacks the one archive ending in `ext` in `work`; returns the directory it made.
fn unpack(work: &Path, ext: &str) -> PathBuf {
    let archive = std::fs::read_dir(work)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(ext))
        .expect("an archive");
    let unpack = Command::new("tar")
        .args(["--no-same-owner", "-xzf"])
        .arg(&archive)
        .arg("-C")
        .arg(work)
        .status()
        .unwrap();
    assert!(
        unpack.success(),
        "tar could not unpack {}",
        archive.display()
    );
    std::fs::read_dir(work)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("an unpacked directory")
}
