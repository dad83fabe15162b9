//! A real project's source distribution from PyPI, unpacked: the tests that run on code nobody
//! here wrote share this (nexus-lite's `sdist` and nexus-mcp's `gate_cli`). They run only with
//! NEXUS_LITE_SDIST_TEST=1 (CI sets it): it needs network access to PyPI.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the sdist tests are asked for; says how to ask when they are not.
pub fn wanted(spec: &str) -> bool {
    let on = std::env::var("NEXUS_LITE_SDIST_TEST").as_deref() == Ok("1");
    if !on {
        eprintln!("skipped: set NEXUS_LITE_SDIST_TEST=1 to download {spec} from PyPI and run it");
    }
    on
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
    let archive = std::fs::read_dir(work)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("an sdist archive");
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
