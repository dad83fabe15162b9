#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The crash guarantee: kill -9 during a regeneration's write, restart, the previous graph is
//! served, the interrupted run is `failed`, and the database passes `PRAGMA integrity_check`.

mod common;

use common::*;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nexus-lite");

fn serve(repo: &Path, data: &Path, pause_file: Option<&Path>) -> (Child, SocketAddr) {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data)
        .arg("--repo")
        .arg(format!("acme/crash={}", repo.display()))
        .env("NEXUS_API_TOKEN", TOKEN)
        .env_remove("NEXUS_LITE_TEST_PAUSE_BEFORE_COMMIT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(p) = pause_file {
        cmd.env("NEXUS_LITE_TEST_PAUSE_BEFORE_COMMIT", p);
    }
    let mut child = cmd.spawn().expect("start nexus-lite serve");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(url) = line.strip_prefix("nexus-lite listening on http://") {
                let _ = tx.send(url.trim().to_string());
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("nexus-lite serve printed its address")
        .parse()
        .unwrap();
    (child, addr)
}

#[test]
fn killing_a_regeneration_before_commit_keeps_the_previous_graph() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    let data = data_dir.path();
    fixture_repo(repo);

    // 1. A first graph through the one-shot CLI.
    let out = Command::new(BIN)
        .args(["index", "--data-dir"])
        .arg(data)
        .arg("--repo")
        .arg(format!("acme/crash={}", repo.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = summary["graph_id"].as_str().unwrap().to_string();
    assert_eq!(summary["counts"]["files"], 7);

    // 2. A server whose writer blocks right before COMMIT.
    let pause = data.join("paused-before-commit");
    let (mut child, a) = serve(repo, data, Some(&pause));
    write(repo, "app/extra.py", "def extra():\n    return 42\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "extra"]);
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/crash"}"#,
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    let pid = plan.body["plan_id"].as_str().unwrap();
    let run = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    assert_eq!(run.status, 202, "{}", run.body);
    let regen_id = run.body["regeneration_id"].as_str().unwrap().to_string();
    // Wait (bounded) for the writer to reach the point just before COMMIT.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !pause.exists() {
        assert!(Instant::now() < deadline, "the writer never reached COMMIT");
        std::thread::sleep(Duration::from_millis(20));
    }
    let running_graph = std::fs::read_to_string(&pause).unwrap();
    let st = get(a, &format!("/api/v1/regenerations/{regen_id}"));
    assert_eq!(st.body["phase"], "writing");
    // While the transaction is open, readers still see the previous graph.
    let sel = get(a, "/api/v1/graphs/select?repository=acme/crash");
    assert_eq!(sel.body["graph"]["graph_id"], first.as_str());
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    // 3. Restart: the previous graph is served, the run is failed, the database is intact.
    let (mut child, a) = serve(repo, data, None);
    let sel = get(a, "/api/v1/graphs/select?repository=acme/crash");
    assert_eq!(sel.status, 200, "{}", sel.body);
    assert_eq!(sel.body["graph"]["graph_id"], first.as_str());
    assert_eq!(sel.body["graph"]["counts"]["files"], 7);
    let graphs = get(a, "/api/v1/graphs?repository=acme/crash");
    let newest = &graphs.body["items"][0];
    assert_eq!(newest["graph_id"], running_graph.as_str());
    assert_eq!(newest["status"], "failed");
    assert!(newest["error"].as_str().unwrap().contains("interrupted"));
    assert_eq!(newest["counts"]["files"], 0);
    let st = get(a, &format!("/api/v1/regenerations/{regen_id}"));
    assert_eq!(st.status, 200);
    assert_eq!(st.body["status"], "failed");
    let nodes_of_failed = get(a, &format!("/api/v1/summary?graph_id={running_graph}"));
    assert_eq!(nodes_of_failed.body["nodes_by_kind"], serde_json::json!({}));
    child.kill().unwrap();
    child.wait().unwrap();

    let conn = rusqlite::Connection::open(data.join("nexus-lite.sqlite3")).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let orphans: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM nodes WHERE gpk NOT IN (SELECT gpk FROM graphs WHERE status='ready')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0, "nothing half-written may remain");
}

/// A second process on a data directory whose first process is mid-regeneration is refused,
/// naming the directory, the holder's PID and what to do, and the live run is left alone (it
/// used to be marked `failed` as "interrupted"). Once the first process is gone, a new one
/// starts.
#[test]
fn a_second_process_on_the_data_directory_is_refused_and_leaves_the_live_run_alone() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    let data = data_dir.path();
    fixture_repo(repo);
    let index = || {
        Command::new(BIN)
            .args(["index", "--data-dir"])
            .arg(data)
            .arg("--repo")
            .arg(format!("acme/crash={}", repo.display()))
            .output()
            .unwrap()
    };

    let pause = data.join("paused-before-commit");
    let (mut child, a) = serve(repo, data, Some(&pause));
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/crash"}"#,
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    let pid = plan.body["plan_id"].as_str().unwrap();
    let run = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    assert_eq!(run.status, 202, "{}", run.body);
    let regen_id = run.body["regeneration_id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !pause.exists() {
        assert!(Instant::now() < deadline, "the writer never reached COMMIT");
        std::thread::sleep(Duration::from_millis(20));
    }

    let second = index();
    assert!(!second.status.success(), "the second process must refuse");
    let err = String::from_utf8_lossy(&second.stderr);
    let dir = data.canonicalize().unwrap().display().to_string();
    assert!(err.contains(&dir), "names the directory: {err}");
    assert!(
        err.contains(&format!("pid {}", child.id())),
        "names the holder: {err}"
    );
    assert!(err.contains("--data-dir"), "says what to do: {err}");

    let st = get(a, &format!("/api/v1/regenerations/{regen_id}"));
    assert_eq!(st.body["status"], "running", "{}", st.body);
    let graphs = get(a, "/api/v1/graphs?repository=acme/crash");
    assert_eq!(graphs.body["total"], 1, "{}", graphs.body);
    assert_eq!(
        graphs.body["items"][0]["status"], "running",
        "{}",
        graphs.body
    );
    child.kill().unwrap();
    child.wait().unwrap();

    let after = index();
    assert!(
        after.status.success(),
        "{}",
        String::from_utf8_lossy(&after.stderr)
    );
}
