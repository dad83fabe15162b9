#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A database written before nexus-lite was split into domains keeps opening as it is: its
//! graphs are served without re-indexing, no migration runs again, and new runs write into it.
//!
//! `fixtures/pre-domains.db` was written by `nexus-lite index` at commit 5df3634 (one list of
//! migrations, versions 1-5) for a three-file Python repository registered as `acme/old`.

mod common;

use common::*;
use std::collections::BTreeMap;

const OLD_GRAPH: &str = "6030ad17-278f-4916-a7ee-9639e24e9f8e";

fn migrations(data: &std::path::Path) -> BTreeMap<i64, String> {
    let conn = nexus_lite::core::db::open(data).unwrap();
    let mut st = conn
        .prepare("SELECT version, applied_at FROM schema_migrations")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_database_from_before_the_domain_split_is_served_and_extended_without_reindex() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q", "-b", "main"]);
    write(repo.path(), "app/__init__.py", "");
    write(repo.path(), "app/util.py", "def helper(x):\n    return x\n");
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "initial"]);
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pre-domains.db"),
        data.path().join("nexus-lite.sqlite3"),
    )
    .unwrap();
    let before = migrations(data.path());
    assert_eq!(before.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);

    let srv = start_server(repo.path(), data.path(), Some("acme/old"), false);
    let a = srv.addr;
    let sel = get(a, "/api/v1/graphs/select?repository=acme/old");
    assert_eq!(sel.status, 200, "{}", sel.body);
    assert_eq!(sel.body["graph"]["graph_id"], OLD_GRAPH);
    assert_eq!(sel.body["graph"]["counts"]["files"], 3);
    let findings = get(a, &format!("/api/v1/findings?graph_id={OLD_GRAPH}"));
    assert_eq!(findings.status, 200, "{}", findings.body);
    assert_eq!(findings.body["total"], 2, "{}", findings.body);
    let ctx = get(
        a,
        &format!("/api/v1/file-context?graph_id={OLD_GRAPH}&path=app/main.py"),
    );
    assert_eq!(ctx.status, 200, "{}", ctx.body);
    assert_eq!(ctx.body["symbols"][0]["qualified_name"], "app.main.main");
    // Nothing was applied again (same versions, same dates); only code's migrations written
    // since (6: graphs made of shared parts, the old graphs' rows moved into one part each; 7:
    // pruned graphs' tombstones; 8: stored file reads; 9: the count a tombstone's pruning kept)
    // and the domains added since (rules) ran.
    let after = migrations(data.path());
    let kept: BTreeMap<_, _> = after
        .iter()
        .filter(|(v, _)| before.contains_key(v))
        .map(|(v, d)| (*v, d.clone()))
        .collect();
    assert_eq!(kept, before);
    let added: Vec<i64> = after
        .keys()
        .copied()
        .filter(|v| !before.contains_key(v))
        .collect();
    assert!(
        added.iter().all(|v| [6, 7, 8, 9].contains(v) || *v >= 2000),
        "{added:?}"
    );
    assert!(added.contains(&6), "{added:?}");

    // The next regeneration builds on the old graph and writes into the old tables.
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/old"}"#,
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    assert_eq!(plan.body["previous_graph_id"], OLD_GRAPH);
    let body = format!(
        r#"{{"plan_id":"{}"}}"#,
        plan.body["plan_id"].as_str().unwrap()
    );
    let started = post(a, "/api/v1/regenerations", &body);
    assert_eq!(started.status, 202, "{}", started.body);
    let id = started.body["regeneration_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut done = started.body;
    for _ in 0..600 {
        if done["status"] != "running" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        done = get(a, &format!("/api/v1/regenerations/{id}")).body;
    }
    assert_eq!(done["status"], "ready", "{done}");
    assert_eq!(done["previous_graph_id"], OLD_GRAPH);
    let sel = get(a, "/api/v1/graphs/select?repository=acme/old");
    assert_eq!(sel.body["graph"]["graph_id"], done["graph_id"]);
    assert_eq!(sel.body["graph"]["counts"]["files"], 2);
    // The old graph is still served from its moved rows, beside the new one.
    let old = get(
        a,
        &format!("/api/v1/file-context?graph_id={OLD_GRAPH}&path=app/main.py"),
    );
    assert_eq!(old.status, 200, "{}", old.body);
    assert_eq!(old.body["symbols"][0]["qualified_name"], "app.main.main");
}
