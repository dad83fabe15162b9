#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A hung analyser times out in an index run as it does in a gate (issue 27): ruff and bandit
//! that never answer are killed after NEXUS_LITE_ANALYSER_TIMEOUT seconds, and the index
//! finishes with each reported unavailable, with the reason, never as clean.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nexus-lite");

/// A directory with `ruff` and `bandit` that hang (whatever they are asked), as a PATH entry.
#[cfg(unix)]
fn hanging_analysers(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    for name in ["ruff", "bandit"] {
        let p = dir.join(name);
        std::fs::write(&p, "#!/bin/sh\nexec sleep 600\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_hung_analyser_is_stopped_and_the_index_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    fixture_repo(&repo);
    let shims = tmp.path().join("bin");
    hanging_analysers(&shims);
    let path = std::env::join_paths(
        std::iter::once(shims).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let started = Instant::now();
    let out = Command::new(BIN)
        .args(["index", "--repo"])
        .arg(format!("acme/hung={}", repo.display()))
        .arg("--data-dir")
        .arg(tmp.path().join("data"))
        .env("PATH", path)
        .env("NEXUS_LITE_ANALYSER_TIMEOUT", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "index failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both hung for 600 s; each was stopped after about one.
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    for tool in ["ruff", "bandit"] {
        let status = summary["analysers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["tool"] == tool)
            .unwrap_or_else(|| panic!("no {tool} in {summary}"));
        assert_eq!(status["status"], "unavailable", "{status}");
        assert_eq!(status["findings"], 0, "{status}");
        let reason = status["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("stopped after running longer than 1 s")
                && reason.contains("NEXUS_LITE_ANALYSER_TIMEOUT"),
            "{reason}"
        );
    }
}
