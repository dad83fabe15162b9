//! `nexus-mcp gate` as CI runs it, on a real git repository with real ruff and bandit: a change
//! adding `shell=True` blocks (exit 1, the violation in the summary and in the SARIF file); the
//! fix passes (exit 0); an unknown base is a usage failure (exit 2), never a pass.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::fixtures::git;
use support::spawn::{bin, tool_path};

fn gate(repo: &Path, data: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .arg("gate")
        .args(args)
        .arg("--repo")
        .arg(repo)
        .arg("--data-dir")
        .arg(data)
        .env("PATH", tool_path())
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap()
}

fn commit(repo: &Path, body: &str, message: &str) {
    std::fs::write(repo.join("app.py"), body).unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

#[test]
fn a_blocking_change_fails_the_gate_and_its_fix_passes() {
    if !support::analysers_on_path() {
        eprintln!("skipped: ruff and bandit are not installed (run .ci/setup)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("shop");
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n",
        "base",
    );
    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True, check=True)\n",
        "run through a shell",
    );
    let sarif = tmp.path().join("gate.sarif");
    let out = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--pr", "7", "--sarif"],
    );
    // --sarif takes a value: the call above is a usage error, refused before any analysis.
    assert_eq!(out.status.code(), Some(2), "{out:?}");

    let out = gate(
        &repo,
        &data,
        &[
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
            "--pr",
            "7",
            "--sarif",
            sarif.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("FAILED"), "{stdout}");
    assert!(stdout.contains("app.py:5  bandit:B602"), "{stdout}");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results: Vec<&serde_json::Value> = log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().unwrap())
        .collect();
    let b602 = results
        .iter()
        .find(|r| r["ruleId"] == "bandit:B602")
        .unwrap_or_else(|| panic!("no bandit:B602 in {log:#}"));
    assert_eq!(b602["level"], "error");
    assert_eq!(
        b602["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );

    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n",
        "no shell",
    );
    let out = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--json"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(!stdout.contains("B602"), "{stdout}");
    assert_eq!(record["detailComplete"], true, "{record:#}");

    let out = gate(&repo, &data, &["--base", "no-such-ref", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
