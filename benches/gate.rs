//! What `nexus-mcp gate` costs over the analysers it runs, on a real project.
//!
//! The fastmcp 2.12.4 sdist from PyPI (its own ruff configuration) is committed into a git
//! repository as `main`, and a branch `change` edits three Python files and adds one (a
//! `shell=True` the gate blocks, an unsorted import, a blind `except`). Each round runs, one
//! after the other: `ruff check` + `bandit` on the changed files in the checkout (what a user
//! would otherwise run), the gate of this build, and with $NEXUS_MCP_BENCH_BEFORE_BIN the gate
//! of another build. The gate runs twice per round: on a data directory it has used before (its
//! local nexus-lite running, analyser versions known) and on a fresh one, as on a CI runner.
//! Medians and p99; the cost is the median of the per-round differences gate − analysers.
//!
//!   cargo bench --bench gate                                        # N=20 rounds
//!   NEXUS_MCP_BENCH_ROUNDS=50 cargo bench --bench gate
//!   NEXUS_MCP_BENCH_BEFORE_BIN=/work/before/nexus-mcp cargo bench --bench gate
//!
//! Needs PyPI access (pip download) and ruff and bandit on PATH.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/stats.rs"]
mod stats;
#[path = "../tests/support/mod.rs"]
mod support;

use stats::{Row, compared, ms, row};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::fixtures::{git, put};
use support::local::stop_daemon;

const SDIST: &str = "fastmcp==2.12.4";

/// The change under review: (path, what is appended to it at head, or its whole text when new).
const CHANGE: &[(&str, &str, bool)] = &[
    (
        "src/fastmcp/cli/run.py",
        "\n\ndef run_shell(command: str) -> int:\n    import subprocess\n\n    return subprocess.call(command, shell=True)\n",
        false,
    ),
    (
        "src/fastmcp/client/logging.py",
        "\n\ndef log_level_name(level: int) -> str:\n    names = {10: \"debug\", 20: \"info\", 30: \"warning\", 40: \"error\"}\n    return names.get(level, \"unknown\")\n",
        false,
    ),
    (
        "src/fastmcp/utilities/cli.py",
        "\nimport os\n\nHOME = os.environ.get(\"HOME\", \"\")\n",
        false,
    ),
    (
        "src/fastmcp/utilities/retry.py",
        "\"\"\"Retry an awaitable.\"\"\"\n\nimport asyncio\n\n\nasync def retry(call, attempts=3):\n    for _ in range(attempts):\n        try:\n            return await call()\n        except Exception:\n            pass\n        await asyncio.sleep(0)\n",
        true,
    ),
];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn commit_all(repo: &Path, message: &str) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

/// The fastmcp sdist as `main`, and the change as branch `change` (checked out).
fn project(work: &Path) -> PathBuf {
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    let repo = support::sdist::fetch(&python, SDIST, work);
    git(&repo, &["init", "-q", "-b", "main"]);
    commit_all(&repo, "fastmcp 2.12.4 as released");
    git(&repo, &["checkout", "-q", "-b", "change"]);
    for (path, text, new) in CHANGE {
        let body = if *new {
            text.to_string()
        } else {
            std::fs::read_to_string(repo.join(path)).unwrap() + text
        };
        put(&repo, path, &body);
    }
    commit_all(&repo, "a change of a few files");
    repo
}

/// One gate run of `bin` on the change; it must block (the `shell=True`).
fn gate(bin: &Path, repo: &Path, data: &Path, path: &std::ffi::OsStr) -> Duration {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(["gate", "--base", "main", "--head", "change", "--repo"])
        .arg(repo)
        .arg("--data-dir")
        .arg(data)
        .env("PATH", path)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    let took = t.elapsed();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{} gate did not block the shell=True:\n{}{}",
        bin.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

/// `ruff check` then `bandit` on the changed files, in the checkout, as a user runs them.
fn analysers(repo: &Path, path: &std::ffi::OsStr) -> Duration {
    let files: Vec<&str> = CHANGE.iter().map(|(p, _, _)| *p).collect();
    let t = Instant::now();
    for (program, args) in [
        (
            "ruff",
            &["check", "--output-format", "json", "--no-cache"][..],
        ),
        ("bandit", &["-f", "json", "-q"][..]),
    ] {
        let out = Command::new(program)
            .current_dir(repo)
            .args(args)
            .arg("--")
            .args(&files)
            .env("PATH", path)
            .output()
            .unwrap();
        // 1: findings, as the change has.
        assert_eq!(out.status.code(), Some(1), "{program} on the change");
    }
    t.elapsed()
}

fn main() {
    let rounds = env_usize("NEXUS_MCP_BENCH_ROUNDS", 20);
    let path = support::tool_path();
    let before = std::env::var_os("NEXUS_MCP_BENCH_BEFORE_BIN").map(PathBuf::from);
    let work = tempfile::tempdir().unwrap();
    let repo = project(work.path());
    let this = support::bin();
    let mut builds = vec![("this build", this)];
    if let Some(b) = before {
        builds.push(("the build before", b));
    }
    let warm_dirs: Vec<tempfile::TempDir> = builds
        .iter()
        .map(|_| tempfile::tempdir().unwrap())
        .collect();
    // Warm-up: the analysers' and git's files in the page cache, each warm data dir used once.
    analysers(&repo, &path);
    for ((_, bin), data) in builds.iter().zip(&warm_dirs) {
        gate(bin, &repo, data.path(), &path);
    }
    let mut alone = Vec::with_capacity(rounds);
    let mut warm: Vec<Vec<Duration>> = builds.iter().map(|_| Vec::new()).collect();
    let mut cold: Vec<Vec<Duration>> = builds.iter().map(|_| Vec::new()).collect();
    for _ in 0..rounds {
        alone.push(analysers(&repo, &path));
        for (i, (_, bin)) in builds.iter().enumerate() {
            warm[i].push(gate(bin, &repo, warm_dirs[i].path(), &path));
            let fresh = tempfile::tempdir().unwrap();
            cold[i].push(gate(bin, &repo, fresh.path(), &path));
            stop_daemon(fresh.path());
        }
    }
    for data in &warm_dirs {
        stop_daemon(data.path());
    }
    let base = row(
        "ruff check + bandit on the changed files",
        alone.clone(),
        None,
    );
    let mut rows: Vec<Row> = Vec::new();
    for (i, (label, _)) in builds.iter().enumerate() {
        rows.push(compared(
            format!("gate, {label}, data dir used before"),
            warm[i].clone(),
            &alone,
            base.median,
        ));
        rows.push(compared(
            format!("gate, {label}, fresh data dir (a CI runner)"),
            cold[i].clone(),
            &alone,
            base.median,
        ));
    }
    println!(
        "gate on {SDIST} + a change of {} Python files, {rounds} interleaved rounds",
        CHANGE.len()
    );
    println!("| row | n | median | p99 | cost over the analysers (paired median) |");
    println!("|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {} | — |",
        base.name,
        base.n,
        ms(base.median),
        ms(base.p99)
    );
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} |",
            r.name,
            r.n,
            ms(r.median),
            ms(r.p99),
            r.paired.map_or("—".into(), |p| format!("{p:+.1} ms"))
        );
    }
}
