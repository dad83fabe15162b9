#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Graph retention, through the HTTP API of a real server on a real git repository: only the
//! newest `keep_graphs` ready graphs of a branch stay, another branch's are its own, asking for
//! a pruned graph answers 410 `graph_pruned` naming the branch's newest, no part is left that
//! no graph holds, a file brought back to a pruned graph's content is written again, and a
//! month later the tombstones and finished regenerations are forgotten.

mod common;

use common::*;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

const REPO: &str = "acme/fixture";

/// Plans and submits a regeneration of `branch` (checked out), waits for it; its graph id.
fn regenerate(addr: SocketAddr, branch: &str) -> String {
    let plan = post(
        addr,
        "/api/v1/regenerations/plan",
        &format!(r#"{{"repository":"{REPO}","branch":"{branch}"}}"#),
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    let started = post(
        addr,
        "/api/v1/regenerations",
        &format!(
            r#"{{"plan_id":"{}"}}"#,
            plan.body["plan_id"].as_str().unwrap()
        ),
    );
    assert_eq!(started.status, 202, "{}", started.body);
    let id = started.body["regeneration_id"].as_str().unwrap();
    let done = until(|| {
        let r = get(addr, &format!("/api/v1/regenerations/{id}"));
        (r.body["status"] != "running").then_some(r.body)
    });
    assert_eq!(done["status"], "ready", "{done}");
    done["graph_id"].as_str().unwrap().to_string()
}

/// Polls `check` (each call a real round trip, no fixed sleep) until it gives a value.
fn until<T>(mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(Instant::now() < deadline, "gave up waiting");
        std::thread::yield_now();
    }
}

fn summary(addr: SocketAddr, graph_id: &str) -> Resp {
    get(addr, &format!("/api/v1/summary?graph_id={graph_id}"))
}

fn commit(repo: &Path, rel: &str, text: &str) {
    write(repo, rel, text);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", rel]);
}

fn count(data: &Path, sql: &str) -> i64 {
    let conn = nexus_lite::core::db::open(data).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn only_the_newest_graphs_of_a_branch_stay_and_a_pruned_one_says_so() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let (repo, data) = (repo_dir.path(), data_dir.path());
    fixture_repo(repo);
    let original = std::fs::read_to_string(repo.join("app/a.py")).unwrap();
    let srv = start_server_keeping(repo, data, None, false, 2);

    // One graph of another branch, older than every graph of main.
    git(repo, &["checkout", "-q", "-b", "feature"]);
    commit(repo, "app/feature.py", "def feature():\n    return 1\n");
    let feature = regenerate(srv.addr, "feature");
    git(repo, &["checkout", "-q", "main"]);

    let mut main = Vec::new();
    for i in 0..4 {
        commit(
            repo,
            "app/a.py",
            &format!("{original}\n\ndef added_{i}():\n    return {i}\n"),
        );
        main.push(regenerate(srv.addr, "main"));
    }
    // The rule runs once the last run is reported: the oldest graph of main answers 410 then.
    let gone = until(|| {
        let r = summary(srv.addr, &main[1]);
        (r.status != 200).then_some(r)
    });
    assert_eq!(gone.status, 410, "{}", gone.body);
    let error = &gone.body["error"];
    assert_eq!(error["code"], "graph_pruned", "{error}");
    assert_eq!(error["latest_graph_id"], main[3].as_str(), "{error}");
    assert_eq!(error["pruned"]["graph_id"], main[1].as_str(), "{error}");
    assert_eq!(error["pruned"]["branch"], "main", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("newest 2 ready graphs") && message.contains(&main[3]),
        "{message}"
    );
    assert_eq!(summary(srv.addr, &main[0]).status, 410);
    let compared = get(
        srv.addr,
        &format!(
            "/api/v1/compare?base_graph_id={}&head_graph_id={}",
            main[0], main[3]
        ),
    );
    assert_eq!(compared.status, 410, "{}", compared.body);
    assert_eq!(compared.body["error"]["code"], "graph_pruned");
    // An id never stored is still unknown, not pruned.
    assert_eq!(summary(srv.addr, "no-such-graph").status, 404);

    // What stays: main's two newest, and feature's one (its branch has fewer than two).
    for id in [&main[2], &main[3], &feature] {
        let r = summary(srv.addr, id);
        assert_eq!(r.status, 200, "{id}: {}", r.body);
    }
    let listed = get(
        srv.addr,
        &format!("/api/v1/graphs?repository={}", enc(REPO)),
    );
    let ids: Vec<&str> = listed.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["graph_id"].as_str())
        .collect();
    assert_eq!(ids.len(), 3, "{}", listed.body);
    for id in [&main[2], &main[3], &feature] {
        assert!(ids.contains(&id.as_str()), "{id} not listed: {ids:?}");
    }
    // No row of a pruned graph is left, nor a part no graph holds.
    assert_eq!(count(data, "SELECT COUNT(*) FROM graphs"), 3);
    for table in [
        "files",
        "graph_parts",
        "findings",
        "anomalies",
        "secret_spans",
    ] {
        assert_eq!(
            count(
                data,
                &format!("SELECT COUNT(*) FROM {table} WHERE gpk NOT IN (SELECT gpk FROM graphs)")
            ),
            0,
            "{table}"
        );
    }
    assert_eq!(
        count(
            data,
            "SELECT COUNT(*) FROM parts WHERE part NOT IN (SELECT part FROM graph_parts)"
        ),
        0
    );
    for table in ["part_nodes", "part_edges", "part_imports"] {
        assert_eq!(
            count(
                data,
                &format!("SELECT COUNT(*) FROM {table} WHERE part NOT IN (SELECT part FROM parts)")
            ),
            0,
            "{table}"
        );
    }

    // app/a.py back as the first graph had it: its part was pruned with that graph, so the
    // next graph writes it again, and answers for it as a fresh index does.
    commit(repo, "app/a.py", &original);
    let back = regenerate(srv.addr, "main");
    let context = |addr: SocketAddr, graph: &str| -> Value {
        let r = get(
            addr,
            &format!("/api/v1/file-context?graph_id={graph}&path=app/a.py"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let mut body = r.body;
        body.as_object_mut().unwrap().remove("graph");
        body
    };
    let fresh_data = tempfile::tempdir().unwrap();
    let fresh = start_server(repo, fresh_data.path(), None, false);
    let full = regenerate(fresh.addr, "main");
    assert_eq!(context(srv.addr, &back), context(fresh.addr, &full));
    // Counts by kind; the analysers' reasons differ (results reused by content hash).
    let sum = |addr: SocketAddr, graph: &str| {
        let mut body = summary(addr, graph).body;
        let body = body.as_object_mut().unwrap();
        body.remove("graph");
        body.remove("analysers");
        body.clone()
    };
    assert_eq!(sum(srv.addr, &back), sum(fresh.addr, &full));

    // The next process on the same data keeps 20 graphs, but states the rule that pruned them.
    drop(srv);
    let srv = start_server_keeping(repo, data, None, false, 20);
    let told = summary(srv.addr, &main[1]);
    assert_eq!(told.status, 410, "{}", told.body);
    assert_eq!(told.body["error"]["pruned"]["kept"], 2, "{}", told.body);
    let message = told.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("the newest 2 ready graphs"), "{message}");

    // A month on, the tombstones and the finished regenerations' rows are forgotten too: a
    // pruned id is then as unknown as any other.
    srv.state
        .clock
        .advance(nexus_lite::code::retention::FORGET_AFTER_SECS + 86_400);
    commit(repo, "app/later.py", "def later():\n    return 2\n");
    regenerate(srv.addr, "main");
    let forgotten = until(|| {
        let r = summary(srv.addr, &main[0]);
        (r.status != 410).then_some(r)
    });
    assert_eq!(forgotten.status, 404, "{}", forgotten.body);
    assert_eq!(count(data, "SELECT COUNT(*) FROM regenerations"), 0);
}
