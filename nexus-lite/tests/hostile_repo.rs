#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Hostile repositories against nexus-lite's indexing (what a read-only `kg_latest_graph`
//! triggers): git configured to run programs, and file names that are analyser options.

mod common;
#[path = "common/hostile.rs"]
mod hostile;

use common::{analysers_available, get, start_server};
use serde_json::Value;

/// For each vector: indexing on first use (GET /graphs/select) runs no planted program, and the
/// graph still reports the modified file dirty. Planning (which diffs against the previous graph's
/// commit, lazily fetched in a partial clone) runs none either.
#[test]
fn indexing_a_hostile_repository_runs_none_of_its_programs() {
    let tmp = tempfile::tempdir().unwrap();
    let mut fired = Vec::new();
    for vector in hostile::VECTORS {
        let h = hostile::plant(tmp.path(), vector);
        let data = tmp.path().join(format!("data-{vector}"));
        let srv = start_server(&h.repo, &data, Some("acme/hostile"), true);
        let sel = get(srv.addr, "/api/v1/graphs/select?repository=acme/hostile");
        assert_eq!(sel.status, 200, "{vector}: {}", sel.body);
        let g = &sel.body["graph"];
        assert_eq!(g["status"], "ready", "{vector}: {g}");
        assert_eq!(g["worktree_dirty"], true, "{vector}: {g}");
        assert_eq!(
            g["dirty_files"],
            Value::from(vec![hostile::DIRTY_FILE]),
            "{vector}: the modified file must still be reported dirty"
        );
        // The diff a plan makes against an older graph's commit, here one the clone lacks.
        let _ = nexus_lite::git::changed_between(&h.repo, hostile::MISSING_COMMIT, "HEAD");
        let _ = nexus_lite::git::show(&h.repo, hostile::MISSING_COMMIT, hostile::DIRTY_FILE);
        srv.stop();
        if h.fired() {
            fired.push(h.vector);
        }
    }
    assert!(fired.is_empty(), "planted programs ran for: {fired:?}");
}

/// Tracked files named like ruff's and bandit's output options are scanned as files: app.py is
/// not overwritten, and the findings of the real files are still reported.
#[test]
fn file_names_never_become_analyser_options() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    hostile::git(&repo, &["init", "-q", "-b", "main"]);
    let app =
        "import hashlib\nimport os\n\n\ndef digest(b):\n    return hashlib.sha1(b).hexdigest()\n";
    std::fs::write(repo.join("app.py"), app).unwrap();
    // Python files (they are what the analysers get) that read as output options: ruff's
    // `--output-file`/`-o`, bandit's `--output`/`-o`.
    for name in [
        "--output-file=app.py",
        "--output=app.py",
        "-oapp.py",
        "-o=app.py",
    ] {
        std::fs::write(repo.join(name), "x = 1\n").unwrap();
    }
    hostile::git(&repo, &["add", "-A", "--", "."]);
    hostile::git(&repo, &["commit", "-qm", "initial"]);
    let data = tmp.path().join("data");
    let srv = start_server(&repo, &data, Some("acme/names"), true);
    let sel = get(srv.addr, "/api/v1/graphs/select?repository=acme/names");
    assert_eq!(sel.status, 200, "{}", sel.body);
    let gid = sel.body["graph"]["graph_id"].as_str().unwrap().to_string();
    assert_eq!(
        std::fs::read_to_string(repo.join("app.py")).unwrap(),
        app,
        "app.py was overwritten"
    );
    let sum = get(srv.addr, &format!("/api/v1/summary?graph_id={gid}"));
    let analysers = sum.body["analysers"].to_string();
    assert!(
        analysers.contains("\"ruff\"") && analysers.contains("\"bandit\""),
        "{analysers}"
    );
    let findings = get(
        srv.addr,
        &format!("/api/v1/findings?graph_id={gid}&limit=100"),
    );
    let items = findings.body["items"].as_array().unwrap();
    let has = |tool: &str, ty: &str, path: &str| {
        items
            .iter()
            .any(|f| f["source_tool"] == tool && f["finding_type"] == ty && f["path"] == path)
    };
    assert!(has("bandit", "bandit_b324_hashlib", "app.py"), "{items:?}");
    assert!(has("ruff", "ruff_f401", "app.py"), "{items:?}");
    srv.stop();
    let status = hostile::git(&repo, &["status", "--porcelain"]);
    assert!(
        status.is_empty(),
        "indexing changed the work tree: {status}"
    );
}
