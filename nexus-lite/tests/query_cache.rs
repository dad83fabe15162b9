#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Answers served from what is kept in memory or stored with a graph (scale, issue 13) are the
//! answers the graph's rows give: a new graph is seen at once, an older graph keeps its own
//! answers, and the summary is the same whether its counts were stored or counted.

mod common;

use common::*;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/cache";

fn cache_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "pkg/__init__.py", "");
    write(dir, "pkg/core.py", "def target():\n    return 1\n");
    write(
        dir,
        "pkg/user_a.py",
        "from pkg.core import target\n\n\ndef direct():\n    return target()\n",
    );
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

fn ok(a: SocketAddr, path: &str) -> Value {
    let r = get(a, path);
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.body
}

fn dependents(v: &Value) -> Vec<String> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| format!("{} {}", i["path"], i["symbol"]))
        .collect()
}

/// A commit adding a caller, indexed as a new graph: the graph's id.
fn commit_caller(repo: &Path, srv: &Server, n: usize) -> String {
    write(
        repo,
        &format!("pkg/user_{n}.py"),
        "from pkg.core import target\n\n\ndef again():\n    return target()\n",
    );
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "another caller"]);
    let r = srv.state.repo(REPO).unwrap();
    srv.state.index_now(r, None).unwrap().graph_id
}

#[test]
fn impact_sees_a_new_graph_at_once_and_an_older_graph_keeps_its_answer() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    cache_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let q = "symbol=pkg.core.target&depth=2";
    let first = ok(srv.addr, &format!("/api/v1/impact?repository={REPO}&{q}"));
    let first_gid = first["graph"]["graph_id"].as_str().unwrap().to_string();
    // The module-level import is a use of the file; `direct` calls it.
    assert_eq!(
        dependents(&first),
        [
            "\"pkg/user_a.py\" null",
            "\"pkg/user_a.py\" \"pkg.user_a.direct\""
        ],
        "{first}"
    );

    commit_caller(repo.path(), &srv, 1);
    let second = ok(srv.addr, &format!("/api/v1/impact?repository={REPO}&{q}"));
    assert_ne!(second["graph"]["graph_id"], first_gid.as_str());
    assert!(
        dependents(&second)
            .iter()
            .any(|d| d.contains("pkg/user_1.py")),
        "the new caller is missing: {second}"
    );

    // More graphs than are kept in memory: the first graph is read again, same answer.
    commit_caller(repo.path(), &srv, 2);
    commit_caller(repo.path(), &srv, 3);
    let latest = ok(srv.addr, &format!("/api/v1/impact?repository={REPO}&{q}"));
    assert!(
        dependents(&latest)
            .iter()
            .any(|d| d.contains("pkg/user_3.py")),
        "{latest}"
    );
    let again = ok(
        srv.addr,
        &format!("/api/v1/impact?graph_id={first_gid}&{q}"),
    );
    assert_eq!(again, first);
}

#[test]
fn the_summary_stored_with_a_graph_is_the_one_its_rows_count() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    cache_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let stored = get(srv.addr, &format!("/api/v1/summary?repository={REPO}"));
    assert_eq!(stored.status, 200, "{}", stored.body);
    assert_eq!(
        stored.body["nodes_by_kind"]["function"], 2,
        "{}",
        stored.body
    );
    // A graph written before the counts were stored with it: they are counted from its rows.
    let db = rusqlite::Connection::open(data.path().join("nexus-lite.sqlite3")).unwrap();
    let n = db
        .execute(
            "UPDATE graphs SET stats=json_remove(stats, '$.summary_counts')",
            [],
        )
        .unwrap();
    assert_eq!(n, 1);
    let counted = get(srv.addr, &format!("/api/v1/summary?repository={REPO}"));
    assert_eq!(counted.body.to_string(), stored.body.to_string());
}

fn symbols(v: &Value) -> Vec<String> {
    v["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["qualified_name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_file_rewritten_with_the_same_size_and_time_is_read_again() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    cache_repo(repo.path());
    age_files(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), false);
    let r = srv.state.repo(REPO).unwrap();
    let first = srv.state.index_now(r, None).unwrap();
    assert_eq!(first.stats["files_unread"], 0, "{}", first.stats);
    let second = srv.state.index_now(r, None).unwrap();
    assert_eq!(second.stats["files_unread"], 3, "{}", second.stats);

    // Same size, same modification time, other content: only its change time tells.
    write(
        repo.path(),
        "pkg/user_a.py",
        "from pkg.core import target\n\n\ndef triple():\n    return target()\n",
    );
    age_files(repo.path());
    git(repo.path(), &["commit", "-qam", "rename direct to triple"]);
    let third = srv.state.index_now(r, None).unwrap();
    assert_eq!(third.stats["files_parsed"], 1, "{}", third.stats);
    let ctx = ok(
        srv.addr,
        &format!(
            "/api/v1/file-context?graph_id={}&path=pkg/user_a.py",
            third.graph_id
        ),
    );
    assert_eq!(symbols(&ctx), ["pkg.user_a.triple"], "{ctx}");

    // The graph equals a from-scratch one of the same commit.
    let fresh_data = tempfile::tempdir().unwrap();
    let fresh = nexus_lite::index_once(
        fresh_data.path().to_path_buf(),
        nexus_lite::RepoSpec {
            name: Some(REPO.into()),
            path: repo.path().to_path_buf(),
        },
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(third.counts, fresh.counts);
    for k in ["nodes", "edges"] {
        assert_eq!(third.stats[k], fresh.stats[k], "{k}");
    }
}

#[test]
fn the_snippet_is_the_indexed_commit_even_after_the_work_tree_changed() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    cache_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let q = format!("/api/v1/file-context?repository={REPO}&path=pkg/core.py&line=1");
    let before = ok(srv.addr, &q);
    assert_eq!(
        before["snippet"]["text"], "def target():\n    return 1",
        "{before}"
    );
    write(repo.path(), "pkg/core.py", "def target():\n    return 2\n");
    let after = ok(srv.addr, &q);
    assert_eq!(after["graph"]["graph_id"], before["graph"]["graph_id"]);
    assert_eq!(after["snippet"], before["snippet"]);
}

#[test]
fn a_served_repositorys_newest_graph_is_read_into_memory_ahead_of_its_first_query() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    cache_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let older = srv
        .state
        .index_now(srv.state.repo(REPO).unwrap(), None)
        .unwrap()
        .graph_id;
    let newest = commit_caller(repo.path(), &srv, 1);
    // A fresh view (a client connecting) over the same data: nothing in memory yet.
    let view = nexus_lite::AppState::view(
        srv.state.core.clone(),
        &Default::default(),
        srv.state.repos.clone(),
        false,
    );
    assert!(!view.graph_in_memory(&newest).unwrap());
    view.read_ahead().unwrap().join().unwrap();
    assert!(
        view.graph_in_memory(&newest).unwrap(),
        "the newest graph is read ahead"
    );
    assert!(
        !view.graph_in_memory(&older).unwrap(),
        "only the newest graph"
    );
}

/// This repository's Python and Rust sources under `nexus-lite/bench` and `nexus-lite/src/code`
/// (real code), plus a package with a syntax error, dynamic uses and an unresolved import (the
/// rows an impact answer reads besides nodes and edges): the sources' paths.
fn real_repo(dir: &Path) -> Vec<String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = git(here, &["ls-files", "bench", "src/code"]);
    let mut sources = Vec::new();
    for rel in listed
        .lines()
        .filter(|p| p.ends_with(".py") || p.ends_with(".rs"))
    {
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(here.join(rel), &to).unwrap();
        sources.push(rel.to_string());
    }
    for (rel, text) in [
        ("probe/__init__.py", ""),
        ("probe/lib.py", "def helper():\n    return 1\n"),
        (
            "probe/broken.py",
            "def ok():\n    return 1\n\ndef broken(:\n",
        ),
        (
            "probe/dynamic.py",
            "import importlib\nfrom probe.missing import nothing\nfrom probe.lib import helper\n\n\ndef load(name):\n    return getattr(importlib.import_module(name), 'run')()\n",
        ),
    ] {
        write(dir, rel, text);
        sources.push(rel.to_string());
    }
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "real sources"]);
    sources
}

#[test]
fn a_regenerated_graph_is_held_in_memory_as_its_stored_rows_give_it() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let sources = real_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), false);
    srv.state
        .index_now(srv.state.repo(REPO).unwrap(), None)
        .unwrap();
    // A one-file commit, regenerated through the API: the new graph is built in memory from
    // the run's rows (not read back from SQLite).
    let mut body = std::fs::read_to_string(repo.path().join("probe/dynamic.py")).unwrap();
    body.push_str("\n\ndef regenerated():\n    return helper()\n");
    write(repo.path(), "probe/dynamic.py", &body);
    git(repo.path(), &["commit", "-qam", "a new caller"]);
    let plan = post(
        srv.addr,
        "/api/v1/regenerations/plan",
        &format!(r#"{{"repository":"{REPO}"}}"#),
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    let started = post(
        srv.addr,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":{}}}"#, plan.body["plan_id"]),
    );
    assert_eq!(started.status, 202, "{}", started.body);
    let id = started.body["regeneration_id"].as_str().unwrap();
    let done = loop {
        let r = ok(srv.addr, &format!("/api/v1/regenerations/{id}"));
        if r["status"] != "running" {
            break r;
        }
        std::thread::yield_now();
    };
    assert_eq!(done["status"], "ready", "{done}");
    let graph = done["graph_id"].as_str().unwrap();
    let queries: Vec<String> = sources
        .iter()
        .map(|p| {
            format!(
                "/api/v1/impact?graph_id={graph}&path={}&depth=3&limit=500",
                enc(p)
            )
        })
        .chain(
            ["probe.lib.helper", "probe.broken.ok"]
                .iter()
                .map(|s| format!("/api/v1/impact?graph_id={graph}&symbol={}&depth=3", enc(s))),
        )
        .collect();
    let held: Vec<Value> = queries.iter().map(|q| ok(srv.addr, q)).collect();
    assert!(
        held.iter()
            .any(|a| dependents(a).iter().any(|d| d.contains("regenerated"))),
        "the new caller is missing"
    );
    srv.stop();
    // A new process reads the same graph from SQLite: every answer is the same.
    let fresh = start_server(repo.path(), data.path(), Some(REPO), false);
    for (q, held) in queries.iter().zip(&held) {
        assert_eq!(&ok(fresh.addr, q), held, "{q}");
    }
}
