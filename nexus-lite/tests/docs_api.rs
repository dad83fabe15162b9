#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The docs domain over HTTP on the three committed fixtures (Backlog.md folder, kep.yaml
//! sidecars, plain Markdown), each copied into a fresh git repository: ids, aliases,
//! duplicates, links, criteria, context, impact, the audit, and edits seen by the next request.

mod common;

use common::{TOKEN, enc, get, git};
use nexus_lite::{LiteConfig, WorkspaceSpec};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

struct DocsServer {
    addr: SocketAddr,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for DocsServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(data: &Path, workspaces: Vec<WorkspaceSpec>) -> DocsServer {
    let config = LiteConfig {
        data_dir: data.to_path_buf(),
        repos: Vec::new(),
        token: TOKEN.into(),
        index_on_first_use: false,
        workspaces,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let running = nexus_lite::spawn(config, "127.0.0.1:0".parse().unwrap())
                .await
                .unwrap();
            tx.send(running.addr).unwrap();
            let _ = tokio::task::spawn_blocking(move || stop_rx.recv()).await;
            running.shutdown().await;
        });
    });
    let addr = rx.recv().unwrap();
    DocsServer {
        addr,
        stop: Some(stop_tx),
        thread: Some(thread),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The fixture `name` copied into `<tmp>/<name>`, committed in a new git repository.
fn fixture(tmp: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/docs")
        .join(name);
    let dir = tmp.join(name);
    copy_dir(&src, &dir);
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "fixture"]);
    dir
}

fn ok(addr: SocketAddr, path: &str) -> Value {
    let r = get(addr, path);
    assert_eq!(r.status, 200, "GET {path}: {}", r.body);
    r.body
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect()
}

fn find_file(dir: &Path, start: &str) -> PathBuf {
    let d = dir.join("backlog/tasks");
    std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(start))
        .unwrap()
}

#[test]
fn backlog_folder_ids_aliases_duplicates_criteria_context_impact_and_audit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixture(tmp.path(), "backlog");
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: Some("billing".into()),
            path: dir.clone(),
        }],
    );
    let a = srv.addr;

    let w = ok(a, "/api/v1/docs/workspaces");
    let ws = &w["workspaces"][0];
    assert_eq!(ws["name"], "billing");
    assert_eq!(ws["commitSha"], head.as_str());
    assert_eq!(ws["dirty"], false);
    assert_eq!(ws["defaultPrefix"], "BILL");
    assert_eq!(ws["prefixAliases"][0]["from"], "TASK");
    assert!(
        ws.to_string().find(&*dir.to_string_lossy()).is_none(),
        "no server path in answers"
    );

    // Every answer carries the workspace; the readme and the .gitignored scratch file are not documents.
    let nodes = ok(a, "/api/v1/docs/nodes?limit=500");
    assert_eq!(nodes["workspace"]["commitSha"], head.as_str());
    let all = ids(&nodes["items"]);
    assert_eq!(nodes["total"], 14, "{all:?}");
    assert!(!all.contains(&"BILL-999".to_string()));
    assert_eq!(get(a, "/api/v1/docs/nodes/BILL-999").status, 404);

    // Ids: case, leading zeros, the implied task- alias.
    assert_eq!(ok(a, "/api/v1/docs/nodes/bill-03")["node"]["id"], "BILL-3");
    let aliased = ok(a, "/api/v1/docs/nodes/task-1");
    assert_eq!(aliased["node"]["id"], "BILL-1");
    assert_eq!(aliased["aliasApplied"]["written"], "task-1");
    assert_eq!(aliased["aliasApplied"]["resolvedTo"], "BILL-1");

    // A duplicated id is never answered with one of its documents.
    let dup = get(a, "/api/v1/docs/nodes/BILL-7");
    assert_eq!(dup.status, 409, "{}", dup.body);
    assert_eq!(dup.body["error"]["code"], "AMBIGUOUS");
    let paths: Vec<&str> = dup.body["error"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 2);
    assert!(paths[0].contains("archive/tasks/"), "{paths:?}");

    // Unknown ids: 404 with near matches.
    let missing = get(a, "/api/v1/docs/nodes/BILL-33");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["error"]["code"], "NODE_NOT_FOUND");
    assert!(
        !missing.body["error"]["nearMatches"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{}",
        missing.body
    );
    let missing_task = get(a, "/api/v1/docs/context?task_id=BILL-99");
    assert_eq!(missing_task.body["error"]["code"], "TASK_NOT_FOUND");

    // Secrets in bodies are redacted.
    let b4 = ok(a, "/api/v1/docs/nodes/BILL-4");
    let md = b4["node"]["markdown"].as_str().unwrap();
    assert!(!md.contains("MIIEvQIBADAN"), "{md}");
    assert!(md.contains("Bounces") || md.contains("finalised"));

    // Acceptance criteria: markers, any mark, DoD excluded; headings with groups; none → [].
    let ac = ok(a, "/api/v1/docs/acceptance-criteria?task_id=BILL-2");
    let marks: Vec<(Value, Value)> = ac["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["mark"].clone(), c["checked"].clone()))
        .collect();
    assert_eq!(
        marks,
        vec![
            ("x".into(), true.into()),
            (" ".into(), false.into()),
            ("~".into(), Value::Null)
        ]
    );
    assert_eq!(
        ac["criteria"][0]["sourcePath"],
        "backlog/tasks/bill-2 - Define-invoice-schema.md"
    );
    assert_eq!(ac["criteria"][0]["section"], "markers");
    let ac5 = ok(a, "/api/v1/docs/acceptance-criteria?task_id=BILL-5");
    let groups: Vec<&str> = ac5["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["group"].as_str().unwrap())
        .collect();
    assert_eq!(groups, vec!["Storage", "Storage", "Access", "Access"]);
    assert_eq!(ac5["criteria"][3]["mark"], "-");
    let ac4 = ok(a, "/api/v1/docs/acceptance-criteria?task_id=BILL-4");
    assert!(
        ac4["warnings"][0].as_str().unwrap().contains("gaps"),
        "{}",
        ac4["warnings"]
    );
    let ac7 = ok(a, "/api/v1/docs/acceptance-criteria?task_id=doc-1");
    assert_eq!(ac7["criteria"], serde_json::json!([]));

    // Context: nearest first through BILL-3.01 → BILL-3.1 and the task-1 alias.
    let ctx = ok(a, "/api/v1/docs/context?task_id=BILL-3.2");
    let order: Vec<(String, i64)> = ctx["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["id"].as_str().unwrap().to_string(),
                n["depth"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        order,
        vec![
            ("BILL-3.2".into(), 0),
            ("BILL-3.1".into(), 1),
            ("BILL-2".into(), 2),
            ("BILL-1".into(), 3)
        ]
    );
    assert_eq!(ctx["truncated"], false);
    let shallow = ok(a, "/api/v1/docs/context?task_id=BILL-3.2&max_depth=1");
    assert_eq!(shallow["truncated"], true);
    assert_eq!(shallow["depthLimited"], true);
    // BILL-4's dangling BILL-42 is announced, not silently dropped.
    let c4 = ok(a, "/api/v1/docs/context?task_id=BILL-4");
    assert!(c4["unresolvedDependencies"].to_string().contains("BILL-42"));

    // Impact: transitive dependents and the longest chains.
    let imp = ok(a, "/api/v1/docs/impact?task_id=BILL-2");
    let affected = ids(&imp["affectedNodes"]);
    for want in [
        "BILL-3", "BILL-3.1", "BILL-3.2", "BILL-4", "BILL-5", "BILL-8", "DRAFT-1",
    ] {
        assert!(
            affected.contains(&want.to_string()),
            "{want} in {affected:?}"
        );
    }
    assert_eq!(imp["totalAffected"], affected.len());
    let paths = imp["criticalPaths"].as_array().unwrap();
    assert!(
        paths.iter().all(|p| p.as_array().unwrap().len() == 4),
        "{paths:?}"
    );
    assert!(
        paths.contains(&serde_json::json!([
            "BILL-2", "BILL-3", "BILL-4", "DRAFT-1"
        ])),
        "{paths:?}"
    );
    // BILL-8 names the duplicated BILL-7: the impact of the CSV export says so.
    let imp7 = get(a, "/api/v1/docs/impact?task_id=BILL-7");
    assert_eq!(imp7.status, 409);

    // The audit.
    let t = ok(a, "/api/v1/docs/traceability");
    assert_eq!(t["cycles"], serde_json::json!([]));
    assert_eq!(t["cycleEnumeration"], "complete");
    let pe = &t["parseErrors"][0];
    assert_eq!(pe["path"], "backlog/tasks/bill-6 - Refund-workflow.md");
    assert!(pe["line"].as_u64().unwrap() >= 4, "{pe}");
    assert_eq!(t["duplicateIds"][0]["id"], "BILL-7");
    assert!(t["danglingDependencies"].to_string().contains("BILL-42"));
    assert!(t["ambiguousLinks"].to_string().contains("BILL-7"));
    assert!(t["aliasesApplied"].to_string().contains("task-1"));
    let score = t["healthScore"].as_i64().unwrap();
    assert!((1..100).contains(&score), "{score}");
    assert!(t["healthFormula"].as_str().unwrap().contains("linkRate"));
    // The broken bill-6 is still a document and is served.
    assert_eq!(
        ok(a, "/api/v1/docs/nodes/bill-6")["node"]["parseError"]["path"],
        pe["path"]
    );

    // list_tasks filters; readiness needs done dependencies.
    let todo = ok(a, "/api/v1/docs/tasks?status=to%20do&type=task&limit=100");
    assert!(ids(&todo["items"]).contains(&"BILL-3".to_string()));
    assert!(
        todo["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["status"] == "To Do")
    );
    let ready = ids(&ok(a, "/api/v1/docs/tasks?ready=true")["items"]);
    assert!(
        !ready.contains(&"BILL-3".to_string()),
        "BILL-2 is not done: {ready:?}"
    );

    // Search ranks the id and title.
    let s = ok(a, "/api/v1/docs/search?query=idempotency");
    assert_eq!(s["items"][0]["id"], "BILL-3");
    assert!(
        s["items"][0]["snippet"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("idempotency")
    );

    // An edit is seen by the next request, and the workspace turns dirty.
    let f2 = find_file(&dir, "bill-2 ");
    let text = std::fs::read_to_string(&f2).unwrap();
    std::fs::write(
        &f2,
        text.replace(
            "title: Define the invoice schema",
            "title: Define the invoice and credit-note schema",
        ),
    )
    .unwrap();
    let n2 = ok(a, "/api/v1/docs/nodes/BILL-2");
    assert_eq!(
        n2["node"]["title"],
        "Define the invoice and credit-note schema"
    );
    assert_eq!(n2["workspace"]["dirty"], true);

    // A cycle introduced by an edit is reported with a readable path.
    let text = std::fs::read_to_string(&f2).unwrap();
    std::fs::write(
        &f2,
        text.replace("dependencies: [task-1]", "dependencies: [task-1, BILL-4]"),
    )
    .unwrap();
    let t = ok(a, "/api/v1/docs/traceability");
    assert_eq!(t["cycles"].as_array().unwrap().len(), 1, "{}", t["cycles"]);
    assert_eq!(
        t["cycles"][0]["path"],
        "BILL-2 -> BILL-4 -> BILL-3 -> BILL-2"
    );
    assert_eq!(t["componentCount"], 1);
    assert!(t["healthScore"].as_i64().unwrap() < score);
    // Impact and context still terminate on the cycle.
    assert_eq!(
        ok(a, "/api/v1/docs/impact?task_id=BILL-3")["truncated"],
        false
    );
    ok(a, "/api/v1/docs/context?task_id=BILL-4&max_depth=50");

    // A commit moves commitSha and clears dirty.
    git(&dir, &["commit", "-qam", "cycle"]);
    let after = ok(a, "/api/v1/docs/nodes?limit=1");
    assert_ne!(after["workspace"]["commitSha"], head.as_str());
    assert_eq!(after["workspace"]["dirty"], false);

    // A removed file disappears.
    std::fs::remove_file(find_file(&dir, "bill-8 ")).unwrap();
    assert_eq!(get(a, "/api/v1/docs/nodes/BILL-8").status, 404);
}

#[test]
fn context_is_byte_capped_and_pages_the_rest_with_a_cursor() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixture(tmp.path(), "backlog");
    common::write(
        &dir,
        ".nexus/docgraph.yaml",
        "doc_graph:\n  limits: {context_max_bytes: 1200}\n",
    );
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: None,
            path: dir.clone(),
        }],
    );
    let a = srv.addr;
    let mut seen = Vec::new();
    let mut path = "/api/v1/docs/context?task_id=BILL-3.2".to_string();
    let mut pages = 0;
    loop {
        let c = ok(a, &path);
        pages += 1;
        let bytes: usize = c["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["markdown"].as_str().unwrap().len())
            .sum();
        assert!(bytes <= 1200, "{bytes}");
        seen.extend(ids(&c["nodes"]));
        match c["nextCursor"].as_str() {
            Some(cur) => {
                assert_eq!(c["truncated"], true);
                assert_eq!(
                    c["omitted"]["count"].as_u64().unwrap() as usize,
                    4 - seen.len()
                );
                path = format!("/api/v1/docs/context?task_id=BILL-3.2&cursor={}", enc(cur));
            }
            None => break,
        }
        assert!(pages < 10);
    }
    assert!(pages > 1, "the budget should have cut the closure");
    assert_eq!(seen, vec!["BILL-3.2", "BILL-3.1", "BILL-2", "BILL-1"]);
}

#[test]
fn kep_sidecars_see_also_loops_are_not_cycles_and_placeholders_are_sentinels() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixture(tmp.path(), "kep");
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: Some("keps".into()),
            path: dir,
        }],
    );
    let a = srv.addr;
    let n = ok(a, "/api/v1/docs/nodes/KEP-1001");
    assert_eq!(
        n["node"]["path"],
        "keps/sig-auth/1001-bound-service-account-tokens"
    );
    assert_eq!(n["node"]["title"], "Bound Service Account Tokens");
    assert_eq!(n["node"]["status"], "implemented");
    // The sidecar's metadata, as a map.
    assert_eq!(n["node"]["frontmatter"]["status"], "implemented");
    assert!(
        n["node"]["markdown"]
            .as_str()
            .unwrap()
            .contains("## Graduation Criteria")
    );
    assert_eq!(ok(a, "/api/v1/docs/nodes/1002")["node"]["id"], "KEP-1002");

    let t = ok(a, "/api/v1/docs/traceability");
    assert_eq!(
        t["cycles"],
        serde_json::json!([]),
        "see-also loops are not cycles"
    );
    assert_eq!(t["selfLoops"], serde_json::json!([]));
    assert_eq!(t["parseErrors"], serde_json::json!([]));
    let broken = t["brokenLinks"].to_string();
    for dead in [
        "1099-token-audit",
        "key-rotation.md",
        "0753-sidecar-containers",
    ] {
        assert!(broken.contains(dead), "{dead} in {broken}");
    }
    assert!(
        !broken.contains("TBD") && !broken.contains("n/a"),
        "placeholders are not broken: {broken}"
    );
    assert!(
        t["counts"]["sentinels"].as_u64().unwrap() >= 6,
        "{}",
        t["counts"]
    );
    assert!(
        t["externalLinks"]
            .to_string()
            .contains("github.com/kubernetes/enhancements")
    );
    // The related see-also edges are drawn in the graph.
    let g = ok(a, "/api/v1/docs/dependency-graph?node_id=KEP-1001&depth=1");
    let kinds: Vec<&str> = g["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"related") && kinds.contains(&"supersedes"),
        "{kinds:?}"
    );
    // prerequisite-keps (configured as depends_on) drive impact.
    let imp = ok(a, "/api/v1/docs/impact?task_id=KEP-2002");
    assert_eq!(ids(&imp["affectedNodes"]), vec!["KEP-2001", "KEP-2003"]);
    assert_eq!(
        imp["criticalPaths"],
        serde_json::json!([["KEP-2002", "KEP-2001", "KEP-2003"]])
    );
    let ac = ok(a, "/api/v1/docs/acceptance-criteria?task_id=KEP-2003");
    assert_eq!(ac["criteria"].as_array().unwrap().len(), 3);
    assert_eq!(ac["criteria"][2]["group"], "Beta");
    assert_eq!(
        ac["criteria"][0]["sourcePath"],
        "keps/sig-node/2003-sidecar-containers/README.md"
    );
    // The directory index links resolve to the sidecar directories.
    let idx = ok(a, "/api/v1/docs/nodes/keps");
    assert_eq!(
        idx["node"]["dependsOn"].as_array().unwrap().len(),
        2,
        "{}",
        idx["node"]
    );
}

#[test]
fn plain_markdown_links_wikilinks_and_workspace_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = fixture(tmp.path(), "plain");
    let kep = fixture(tmp.path(), "kep");
    let srv = serve(
        &tmp.path().join("data"),
        vec![
            WorkspaceSpec {
                name: None,
                path: plain,
            },
            WorkspaceSpec {
                name: None,
                path: kep,
            },
        ],
    );
    let a = srv.addr;
    let need = get(a, "/api/v1/docs/nodes");
    assert_eq!(need.status, 400);
    assert_eq!(need.body["error"]["code"], "WORKSPACE_REQUIRED");
    let unknown = get(a, "/api/v1/docs/nodes?workspace=nope");
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.body["error"]["code"], "WORKSPACE_NOT_FOUND");

    let q = "workspace=plain";
    let nodes = ids(&ok(a, &format!("/api/v1/docs/nodes?{q}&limit=100"))["items"]);
    assert!(
        !nodes.iter().any(|n| n.contains("wip")),
        "excluded drafts: {nodes:?}"
    );
    assert!(
        nodes.contains(&"getting-started".to_string()) && nodes.contains(&"install".to_string())
    );

    let t = ok(a, &format!("/api/v1/docs/traceability?{q}"));
    let broken: Vec<String> = t["brokenLinks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["target"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(
        broken.contains(&"no-such-page".to_string())
            && broken.contains(&"../reference/logging.md".to_string())
    );
    assert!(
        !t.to_string().contains("inline-code-is-not-a-link") && !t.to_string().contains("nor-this")
    );
    assert!(t["externalPaths"].to_string().contains("../README.md"));
    assert_eq!(
        t["cycles"],
        serde_json::json!([]),
        "install <-> troubleshooting links are related, not cycles"
    );

    // Wikilinks by title and permalink, relative and root-absolute links: all resolved.
    let g = ok(
        a,
        &format!("/api/v1/docs/dependency-graph?{q}&node_id=index&depth=1"),
    );
    let to: Vec<&str> = g["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["from"] == "index")
        .map(|e| e["to"].as_str().unwrap())
        .collect();
    for want in ["install", "getting-started", "config", "cli"] {
        assert!(to.contains(&want), "{want} in {to:?}");
    }
    let cli = ok(a, &format!("/api/v1/docs/nodes/cli?{q}"));
    assert!(
        cli["node"]["dependedBy"].to_string().contains("\"config\""),
        "[[config]] by permalink"
    );
    // `- depends_on [[install]]` is a dependency: the context of getting-started carries install.
    let ctx = ok(
        a,
        &format!("/api/v1/docs/context?{q}&task_id=getting-started"),
    );
    assert_eq!(ids(&ctx["nodes"]), vec!["getting-started", "install"]);
    let ac = ok(
        a,
        &format!("/api/v1/docs/acceptance-criteria?{q}&task_id=getting-started"),
    );
    assert_eq!(ac["section"], "Done When");
    assert_eq!(ac["criteria"].as_array().unwrap().len(), 2);
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn task(id: &str, title: &str, deps: &str) -> String {
    format!(
        "---\nid: {id}\ntitle: {title}\ndependencies: [{deps}]\n---\n\n## Description\n\n{title}.\n"
    )
}

fn context_ids(a: SocketAddr, id: &str) -> Vec<String> {
    ids(&ok(a, &format!("/api/v1/docs/context?task_id={}", enc(id)))["nodes"])
}

/// Every kind of change is seen by the very next request (no sleep, no retry): an edit, a new
/// file, a deleted file, a rename, a new directory, a revert that makes the tree clean again,
/// and a new file that .gitignore hides; the dirty flag follows each.
#[test]
fn every_change_is_seen_by_the_very_next_request() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ws");
    let t2 = task("TASK-2", "B", "TASK-1");
    write(
        &dir,
        "backlog/tasks/task-1 - A.md",
        &task("TASK-1", "A", ""),
    );
    write(&dir, "backlog/tasks/task-2 - B.md", &t2);
    write(
        &dir,
        "backlog/tasks/task-3 - C.md",
        &task("TASK-3", "C", "TASK-9"),
    );
    write(&dir, ".gitignore", "backlog/tasks/scratch*\n");
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "tasks"]);
    let data = tempfile::tempdir().unwrap();
    let server = serve(
        data.path(),
        vec![WorkspaceSpec {
            name: None,
            path: dir.clone(),
        }],
    );
    let a = server.addr;
    assert_eq!(context_ids(a, "TASK-2"), ["TASK-2", "TASK-1"]);
    let dirty = |path: &str| ok(a, path)["workspace"]["dirty"].clone();
    assert_eq!(dirty("/api/v1/docs/nodes?limit=1"), false);

    // An edit in place that changes a dependency (no id or title changes).
    write(
        &dir,
        "backlog/tasks/task-2 - B.md",
        &task("TASK-2", "B", "TASK-3"),
    );
    assert_eq!(context_ids(a, "TASK-2"), ["TASK-2", "TASK-3"]);
    assert_eq!(dirty("/api/v1/docs/nodes?limit=1"), true);
    // Reverted: clean again.
    write(&dir, "backlog/tasks/task-2 - B.md", &t2);
    assert_eq!(context_ids(a, "TASK-2"), ["TASK-2", "TASK-1"]);
    assert_eq!(dirty("/api/v1/docs/nodes?limit=1"), false);

    // A new file: TASK-3's broken dependency now resolves to it.
    write(
        &dir,
        "backlog/tasks/task-9 - N.md",
        &task("TASK-9", "N", ""),
    );
    let impact = ok(a, "/api/v1/docs/impact?task_id=TASK-9");
    assert_eq!(ids(&impact["affectedNodes"]), ["TASK-3"]);
    assert_eq!(impact["workspace"]["dirty"], true);
    assert_eq!(impact["workspace"]["documents"], 4);

    // A new file .gitignore hides is not indexed.
    write(
        &dir,
        "backlog/tasks/scratch-1.md",
        &task("TASK-50", "S", ""),
    );
    assert_eq!(get(a, "/api/v1/docs/nodes/TASK-50").status, 404);

    // A deleted file: gone, and TASK-2's dependency on it is unresolved.
    std::fs::remove_file(dir.join("backlog/tasks/task-1 - A.md")).unwrap();
    assert_eq!(get(a, "/api/v1/docs/nodes/TASK-1").status, 404);
    let ctx = ok(a, "/api/v1/docs/context?task_id=TASK-2");
    assert_eq!(ctx["unresolvedDependencies"][0]["target"], "TASK-1");
    assert_eq!(ctx["unresolvedDependencies"][0]["class"], "broken");

    // A rename: same id, new path.
    std::fs::rename(
        dir.join("backlog/tasks/task-3 - C.md"),
        dir.join("backlog/tasks/task-3 - Renamed.md"),
    )
    .unwrap();
    let n3 = ok(a, "/api/v1/docs/nodes/TASK-3");
    assert_eq!(n3["node"]["path"], "backlog/tasks/task-3 - Renamed.md");
    assert_eq!(
        n3["node"]["frontmatter"]["dependencies"],
        serde_json::json!(["TASK-9"])
    );
    assert_eq!(n3["workspace"]["documents"], 3);

    // A new directory holding a document, then an edit inside it.
    write(
        &dir,
        "backlog/tasks/sub/task-10.md",
        &task("TASK-10", "Ten", "TASK-9"),
    );
    assert_eq!(context_ids(a, "TASK-10"), ["TASK-10", "TASK-9"]);
    write(
        &dir,
        "backlog/tasks/sub/task-10.md",
        &task("TASK-10", "Ten", "TASK-2"),
    );
    assert_eq!(context_ids(a, "TASK-10"), ["TASK-10", "TASK-2"]);
    // The directory removed, then made again under the same name: still followed.
    std::fs::remove_dir_all(dir.join("backlog/tasks/sub")).unwrap();
    assert_eq!(get(a, "/api/v1/docs/nodes/TASK-10").status, 404);
    write(
        &dir,
        "backlog/tasks/sub/task-11.md",
        &task("TASK-11", "Eleven", ""),
    );
    assert_eq!(context_ids(a, "TASK-11"), ["TASK-11"]);
    write(
        &dir,
        "backlog/tasks/sub/task-11.md",
        &task("TASK-11", "Eleven", "TASK-9"),
    );
    assert_eq!(context_ids(a, "TASK-11"), ["TASK-11", "TASK-9"]);

    // Everything committed: clean, at the new commit.
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "changes"]);
    let after = ok(a, "/api/v1/docs/nodes?limit=1");
    assert_eq!(after["workspace"]["dirty"], false);
    assert_eq!(
        after["workspace"]["commitSha"],
        git(&dir, &["rev-parse", "HEAD"]).trim()
    );
}
