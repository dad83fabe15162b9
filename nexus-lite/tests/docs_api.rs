#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The docs domain over HTTP on the three committed fixtures (Backlog.md folder, kep.yaml
//! sidecars, plain Markdown), each copied into a fresh git repository: ids, aliases,
//! duplicates, links, criteria, context, impact, the audit, and edits seen by the next request.

mod common;

use common::corpora::{corpus, frontmatter_statuses, task_file};
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
        keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
        data_dir: data.to_path_buf(),
        repos: Vec::new(),
        token: TOKEN.into(),
        index_on_first_use: false,
        workspaces,
        docs_limits: Default::default(),
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
    let nodes = ok(a, "/api/v1/docs/nodes?limit=500&lifecycle=any");
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
                    4 - c["nodes"].as_array().unwrap().len()
                );
                assert_eq!(
                    c["omitted"]["onLaterPages"].as_u64().unwrap() as usize,
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

// ---------- attacks of a hostile workspace (issue 24, round 2) ----------

/// A GET that gives up after `within`: an attack that blocks the server fails the test instead
/// of hanging it.
fn get_within(addr: SocketAddr, path: &str, within: std::time::Duration) -> common::Resp {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(within)).unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    if let Err(e) = s.read_to_end(&mut raw) {
        panic!(
            "GET {} got no answer within {within:?}: {e}",
            &path[..path.len().min(80)]
        );
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, payload) = text.split_once("\r\n\r\n").expect("http response");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = serde_json::from_str(payload).unwrap_or(Value::String(payload.to_string()));
    common::Resp { status, body }
}

const SECS: std::time::Duration = std::time::Duration::from_secs(20);

/// A committed git repository at `dir` holding `files` (path, text).
fn repo(dir: &Path, files: &[(&str, &str)]) {
    for (p, t) in files {
        write(dir, p, t);
    }
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "workspace"]);
}

fn spec(name: &str, path: &Path) -> WorkspaceSpec {
    WorkspaceSpec {
        name: Some(name.into()),
        path: path.to_path_buf(),
    }
}

/// A search answer without the query it echoes.
fn search(a: SocketAddr, query: &str) -> Value {
    let mut s = ok(a, &format!("/api/v1/docs/search?{query}"));
    s.as_object_mut().unwrap().remove("query");
    s
}

/// Everything a workspace answers: the graph, every node and a search for `marker`.
fn everything(a: SocketAddr, ws: &str, marker: &str) -> String {
    let mut all = ok(a, "/api/v1/docs/workspaces").to_string();
    let nodes = ok(
        a,
        &format!("/api/v1/docs/nodes?workspace={ws}&limit=500&lifecycle=any"),
    );
    for id in ids(&nodes["items"]) {
        let n = get_within(
            a,
            &format!("/api/v1/docs/nodes/{}?workspace={ws}", enc(&id)),
            SECS,
        );
        all.push_str(&n.body.to_string());
    }
    all.push_str(&nodes.to_string());
    all.push_str(&ok(a, &format!("/api/v1/docs/graph?workspace={ws}")).to_string());
    all.push_str(&search(a, &format!("workspace={ws}&query={marker}")).to_string());
    all
}

#[cfg(unix)]
#[test]
fn a_workspace_cannot_make_the_index_read_outside_it() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let marker = "OUTSIDEMARKER";
    let outside = t.join("outside");
    write(
        &outside,
        "secret.md",
        &format!("---\nid: OUT-1\n---\n# {marker}\n"),
    );
    write(
        &outside,
        "passwd",
        &format!("root:x:0:0:{marker}:/root:/bin/sh\n"),
    );
    write(
        &outside,
        "evil.yaml",
        &format!(
            "doc_graph:\n  workspace_root: {}\n  include: [\"*\"]\n  exclude: []\n",
            outside.display()
        ),
    );
    let task = "---\nid: TASK-1\ntitle: A task\n---\nbody\n";
    // 1. workspace_root absolute, then `../..`-style, with include: [passwd].
    let abs = t.join("abs");
    repo(
        &abs,
        &[
            ("backlog/tasks/task-1.md", task),
            (
                ".nexus/docgraph.yaml",
                &format!(
                    "doc_graph:\n  workspace_root: {}\n  include: [passwd, \"*.md\"]\n  exclude: []\n",
                    outside.display()
                ),
            ),
        ],
    );
    let rel = t.join("rel");
    repo(
        &rel,
        &[
            ("backlog/tasks/task-1.md", task),
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  workspace_root: ../outside\n  include: [passwd, \"*.md\"]\n  exclude: []\n",
            ),
        ],
    );
    // 2. The configuration file is itself a link to a file outside.
    let linked = t.join("linked");
    repo(&linked, &[("backlog/tasks/task-1.md", task)]);
    std::fs::create_dir_all(linked.join(".nexus")).unwrap();
    symlink(
        outside.join("evil.yaml"),
        linked.join(".nexus/docgraph.yaml"),
    )
    .unwrap();
    git(&linked, &["add", "-A"]);
    git(&linked, &["commit", "-qm", "config link"]);
    // 3. Sidecar layout: a committed body link to a file outside, and a `body: ../..` path.
    let kep_cfg = "doc_graph:\n  include: [\"keps/**/kep.yaml\", \"keps/**/README.md\"]\n  exclude: []\n  metadata:\n    sources: [sidecar]\n    sidecar: {file: kep.yaml, body: README.md}\n  id: {keys: [kep-number], fallback: [dir_name], normalize: {default_prefix: KEP}}\n";
    let sidecar = t.join("sidecar");
    repo(
        &sidecar,
        &[
            (".nexus/docgraph.yaml", kep_cfg),
            ("keps/1-a/kep.yaml", "kep-number: 1\ntitle: A\n"),
            ("keps/2-b/kep.yaml", "kep-number: 2\ntitle: B\n"),
            ("keps/2-b/README.md", "# B\n"),
        ],
    );
    symlink(outside.join("passwd"), sidecar.join("keps/1-a/README.md")).unwrap();
    // A link to a directory outside, on the way to the body.
    std::fs::remove_file(sidecar.join("keps/2-b/README.md")).unwrap();
    symlink(&outside, sidecar.join("keps/2-b/docs")).unwrap();
    git(&sidecar, &["add", "-A"]);
    git(&sidecar, &["commit", "-qm", "links"]);
    let dotdot = t.join("dotdot");
    let body = "../".repeat(12) + &outside.join("passwd").display().to_string()[1..];
    repo(
        &dotdot,
        &[
            (
                ".nexus/docgraph.yaml",
                &kep_cfg.replace("body: README.md", &format!("body: \"{body}\"")),
            ),
            ("keps/1-a/kep.yaml", "kep-number: 1\ntitle: A\n"),
        ],
    );
    let srv = serve(
        &t.join("data"),
        vec![
            spec("abs", &abs),
            spec("rel", &rel),
            spec("linked", &linked),
            spec("sidecar", &sidecar),
            spec("dotdot", &dotdot),
        ],
    );
    let a = srv.addr;
    for ws in ["abs", "rel", "linked", "sidecar", "dotdot"] {
        let all = everything(a, ws, marker);
        assert!(
            !all.contains(marker),
            "{ws}: content from outside the workspace: {all}"
        );
        assert!(
            !all.contains("OUT-1"),
            "{ws}: a document from outside the workspace: {all}"
        );
    }
    // What a user reads: why the configuration was not used.
    let w = ok(a, "/api/v1/docs/workspaces").to_string();
    assert!(
        w.contains("`workspace_root: ")
            && w.contains("must be a relative path inside the workspace"),
        "{w}"
    );
    assert!(
        w.contains("symbolic link"),
        "the linked configuration is refused as a link: {w}"
    );
    assert!(w.contains("`metadata.sidecar.body: "), "{w}");
    // A sidecar node whose body is a link keeps its metadata and shows no body.
    let n = ok(a, "/api/v1/docs/nodes/KEP-1?workspace=sidecar");
    assert_eq!(n["node"]["title"], "A");
    assert_eq!(n["node"]["markdown"], "");
}

/// Opens a FIFO's writing end (not blocking) and closes it when dropped: a reader blocked on
/// the FIFO gets end-of-file, so a failing test ends instead of hanging the runtime's drop.
struct FifoUnblock(PathBuf);

impl Drop for FifoUnblock {
    fn drop(&mut self) {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(0o4000) // O_NONBLOCK on Linux
            .open(&self.0);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn fifos_and_devices_in_a_workspace_block_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    repo(
        &dir,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  include: [\"keps/**/kep.yaml\"]\n  exclude: []\n  metadata:\n    sources: [sidecar]\n    sidecar: {file: kep.yaml, body: README.md}\n  id: {keys: [kep-number], fallback: [dir_name], normalize: {default_prefix: KEP}}\n",
            ),
            ("keps/1-a/kep.yaml", "kep-number: 1\ntitle: A\n"),
            ("keps/2-b/kep.yaml", "kep-number: 2\ntitle: B\n"),
            ("backlog/tasks/task-1.md", "---\nid: TASK-1\n---\n"),
        ],
    );
    let fifo = dir.join("keps/1-a/README.md");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", dir.join("keps/2-b/README.md")).unwrap();
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    // Dropped before the server, whose shutdown would wait for a blocked reader.
    let _unblock = FifoUnblock(fifo);
    let list = get_within(srv.addr, "/api/v1/docs/tasks?limit=50", SECS);
    assert_eq!(list.status, 200, "{}", list.body);
    assert_eq!(list.body["total"], 2, "{}", list.body);
    let n = get_within(srv.addr, "/api/v1/docs/nodes/KEP-1", SECS);
    assert_eq!(n.body["node"]["markdown"], "", "{}", n.body);
}

#[test]
fn workspace_limits_only_lower_the_operators() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let big = format!(
        "---\nid: TASK-1\ntitle: Big\n---\n{}\n",
        "lorem ipsum ".repeat(300_000)
    );
    let raised = t.join("raised");
    repo(
        &raised,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  limits: {max_file_bytes: 100000000, context_max_bytes: 100000000, max_cycles: 100000000}\n",
            ),
            ("backlog/tasks/task-1.md", &big),
        ],
    );
    let lowered = t.join("lowered");
    repo(
        &lowered,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  limits: {max_file_bytes: 1000}\n",
            ),
            ("backlog/tasks/task-1.md", &big),
        ],
    );
    let srv = serve(
        &t.join("data"),
        vec![spec("raised", &raised), spec("lowered", &lowered)],
    );
    let a = srv.addr;
    let n = ok(a, "/api/v1/docs/nodes/TASK-1?workspace=raised");
    let e = n["node"]["parseError"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        e.contains("only the first 1048576 bytes are read"),
        "the operator's 1 MiB holds: {}",
        n["node"]["parseError"]
    );
    assert!(n["node"]["markdown"].as_str().unwrap().len() <= 1_048_576);
    let ctx = ok(a, "/api/v1/docs/context?workspace=raised&task_id=TASK-1");
    assert!(
        ctx.to_string().len() < 200_000,
        "context_max_bytes is the operator's: {} bytes",
        ctx.to_string().len()
    );
    let n = ok(a, "/api/v1/docs/nodes/TASK-1?workspace=lowered");
    assert!(
        n["node"]["parseError"]["message"]
            .as_str()
            .unwrap()
            .contains("only the first 1000 bytes"),
        "{}",
        n["node"]["parseError"]
    );
}

#[test]
fn an_operator_cap_bounds_what_a_workspace_sets() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    repo(
        &dir,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  limits: {max_file_bytes: 100000000}\n",
            ),
            (
                "backlog/tasks/task-1.md",
                &format!("---\nid: TASK-1\n---\n{}\n", "x".repeat(10_000)),
            ),
        ],
    );
    let config = LiteConfig {
        keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
        data_dir: t.join("data"),
        repos: Vec::new(),
        token: TOKEN.into(),
        index_on_first_use: false,
        workspaces: vec![spec("ws", &dir)],
        docs_limits: nexus_lite::docs::config::Limits {
            max_file_bytes: 2_000,
            ..Default::default()
        },
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let running = rt
        .block_on(nexus_lite::spawn(config, "127.0.0.1:0".parse().unwrap()))
        .unwrap();
    let n = get_within(running.addr, "/api/v1/docs/nodes/TASK-1", SECS);
    assert!(
        n.body["node"]["parseError"]["message"]
            .as_str()
            .unwrap()
            .contains("only the first 2000 bytes"),
        "{}",
        n.body
    );
    rt.block_on(running.shutdown());
}

#[test]
fn hostile_yaml_is_refused_quickly_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let deep = format!("---\nid: TASK-1\nx: {}\n---\nbody\n", "[".repeat(100_000));
    let blocks: String = (0..200)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    let laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n";
    let dir = t.join("ws");
    repo(
        &dir,
        &[
            ("backlog/tasks/task-1.md", &deep),
            (
                "backlog/tasks/task-2.md",
                &format!("---\nid: TASK-2\n{blocks}---\n"),
            ),
            (
                "backlog/tasks/task-3.md",
                &format!("---\nid: TASK-3\n{laughs}---\n"),
            ),
        ],
    );
    let conf = t.join("conf");
    repo(
        &conf,
        &[
            (
                ".nexus/docgraph.yaml",
                &format!("doc_graph:\n  include: {}\n", "[".repeat(100_000)),
            ),
            ("backlog/tasks/task-1.md", "---\nid: TASK-1\n---\n"),
        ],
    );
    let srv = serve(&t.join("data"), vec![spec("ws", &dir), spec("conf", &conf)]);
    let started = std::time::Instant::now();
    for (id, why) in [
        ("TASK-1", "nested more than 64 levels"),
        ("task-2", "nested more than 64 levels"),
        ("TASK-3", "aliases"),
    ] {
        let n = get_within(
            srv.addr,
            &format!("/api/v1/docs/nodes/{id}?workspace=ws"),
            SECS,
        );
        assert_eq!(n.status, 200, "{id}: {}", n.body);
        let e = n.body["node"]["parseError"]["message"]
            .as_str()
            .unwrap_or_default();
        assert!(e.contains(why), "{id}: {e}");
    }
    let w = get_within(srv.addr, "/api/v1/docs/workspaces", SECS)
        .body
        .to_string();
    assert!(w.contains("nested more than 64 levels"), "{w}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn ids_are_bounded_and_dot_segments_are_not_ids() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    let files: Vec<(String, String)> = (0..300)
        .map(|i| {
            (
                format!("backlog/tasks/task-{i}.md"),
                format!("---\nid: TASK-{i}\ntitle: Task {i}\n---\n"),
            )
        })
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    repo(&dir, &refs);
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    let a = srv.addr;
    // Near the longest URI HTTP carries (64 KiB).
    let huge = "TASK-".to_string() + &"1".repeat(60_000);
    let started = std::time::Instant::now();
    let r = get_within(a, &format!("/api/v1/docs/nodes/{huge}"), SECS);
    assert_eq!(r.status, 404, "{}", r.body);
    let text = r.body.to_string();
    assert!(
        text.len() < 1_000,
        "the id comes back whole: {} bytes",
        text.len()
    );
    assert!(text.contains("60005 characters"), "{text}");
    assert_eq!(r.body["error"]["nearMatches"], serde_json::json!([]));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Near matches still help a short typo.
    assert!(
        !get(a, "/api/v1/docs/nodes/TASK-1000").body["error"]["nearMatches"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    for dots in [".", "..", "%2E%2E"] {
        let r = get(a, &format!("/api/v1/docs/nodes/{dots}"));
        assert_eq!(r.status, 400, "{dots}: {}", r.body);
        assert!(
            r.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("name no document"),
            "{}",
            r.body
        );
        let r = get(a, &format!("/api/v1/docs/context?task_id={dots}"));
        assert_eq!(r.status, 400, "{dots}: {}", r.body);
    }
}

#[test]
fn search_snippets_are_redacted_like_node_bodies() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    let secrets = [
        ("password: hunter2xx", "hunter2xx"),
        ("secret_key = \"q8Zr5LmT2vXw9Kp3\"", "q8Zr5LmT2vXw9Kp3"),
        ("DB_PASSWORD=Zt7yQmW4pL9s", "Zt7yQmW4pL9s"),
        ("aws AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
        (
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ),
        (
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw",
        ),
    ];
    let mut files = Vec::new();
    for (i, (line, _)) in secrets.iter().enumerate() {
        let pem = if line.starts_with("MIIE") {
            format!("-----BEGIN PRIVATE KEY-----\n{line}\n-----END PRIVATE KEY-----\n")
        } else {
            format!("{line}\n")
        };
        files.push((
            format!("backlog/tasks/task-{i}.md"),
            format!("---\nid: TASK-{i}\n---\nsome words before the setting\n{pem}deploywords and more text after it\n"),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    repo(&dir, &refs);
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    let a = srv.addr;
    for query in [
        "deploywords",
        "setting",
        "hunter2xx",
        "ghp",
        "AKIA",
        "MIIE",
        "password",
        "Zt7yQmW4pL9s",
    ] {
        let text = search(a, &format!("query={query}&limit=50")).to_string();
        for (_, secret) in &secrets {
            assert!(
                !text.contains(secret),
                "search `{query}` leaks {secret}: {text}"
            );
        }
    }
    let s = ok(a, "/api/v1/docs/search?query=deploywords&limit=50");
    assert_eq!(s["total"], 6, "{s}");
    assert!(s.to_string().contains("[REDACTED"), "{s}");
}

// ---------- red team (issue 24, round 2): what still gets through ----------

/// Red team: YAML (libyaml) also breaks lines at a lone `\r`, the depth guard only at `\n`; a
/// quote right after a lone `\r` is not seen as one by the guard (`\r` is not a token start),
/// so the `]` inside `"…"` close the guard's count while YAML keeps nesting. 100,000 levels in
/// 200 KB of frontmatter: the guard lets it through and libyaml's quadratic work holds the
/// workspace for minutes (20,000 levels took 4-7 s in a debug build, 100,000 over 90 s).
#[test]
fn a_lone_cr_does_not_let_deep_flow_nesting_past_the_guard() {
    let chunk = format!("{}\r\"{}\",", "[".repeat(60), "]".repeat(60));
    let yaml = format!("id: TASK-1\nx: {}\n", chunk.repeat(100_000 / 60));
    assert!(
        nexus_lite::docs::frontmatter::guard(&yaml).is_err(),
        "the guard accepts {} levels of `[` separated by lone CRs",
        100_000 / 60 * 60
    );
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    repo(
        &dir,
        &[(
            "backlog/tasks/task-1.md",
            &format!("---\n{yaml}---\nbody\n"),
        )],
    );
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    let n = get_within(srv.addr, "/api/v1/docs/nodes/TASK-1?workspace=ws", SECS);
    assert_eq!(n.status, 200, "{}", n.body);
}

/// Red team: the same lone-`\r` trick hides aliases from the guard's count (`*` after `\r` is
/// not counted); yaml_serde's own repetition limit still stops a billion laughs, so this only
/// shows that the guard does not hold its stated bound.
#[test]
fn a_lone_cr_does_not_hide_aliases_from_the_guard() {
    let mut yaml = String::from("a: &a [\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..10u8 {
        let (p, c) = ((b'a' + i - 1) as char, (b'a' + i) as char);
        yaml.push_str(&format!(
            "{c}: &{c} [{}]\n",
            vec![format!("\r*{p}"); 9].join(",")
        ));
    }
    assert!(nexus_lite::docs::frontmatter::guard(&yaml).is_err());
}

/// Red team: in a Markdown body a `name: value` setting often starts after a list, task or
/// quote marker, in bold, in backticks or in a table cell. `- password: …` is redacted, these
/// are not (get_node's markdown and search snippets show them); nor is an AWS secret after
/// `AWS_SECRET_ACCESS_KEY` and a space.
#[test]
fn markdown_shaped_settings_are_redacted_in_node_bodies() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    let lines = [
        ("* password: StarPwAaaa222", "StarPwAaaa222"),
        ("- [ ] password: CheckPwAaaa333", "CheckPwAaaa333"),
        ("> password: QuotePwAaaa444", "QuotePwAaaa444"),
        ("| password | TablePwAaaa555 |", "TablePwAaaa555"),
        ("1. password: NumPwAaaa777", "NumPwAaaa777"),
        ("**password**: BoldPwAaaa888", "BoldPwAaaa888"),
        ("`password: TickPwAaaa999`", "TickPwAaaa999"),
        (
            "AWS_SECRET_ACCESS_KEY wJalrXUtnFEMIaaaK7MDENGbPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMIaaaK7MDENGbPxRfiCYEXAMPLEKEY",
        ),
    ];
    let body: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    repo(
        &dir,
        &[(
            "backlog/tasks/task-1.md",
            &format!("---\nid: TASK-1\napi_token: FrontTokAaaa111\n---\nsetup notes\n\n{body}"),
        )],
    );
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    // The raw document (the node resource) too, frontmatter included; the parsed
    // `frontmatter` map is redacted by key name on the MCP side, like every answer.
    let node = ok(srv.addr, "/api/v1/docs/nodes/TASK-1?workspace=ws&raw=true")["node"].clone();
    let raw = node["raw"].as_str().unwrap();
    assert!(
        raw.contains("api_token: [REDACTED]") && !raw.contains("FrontTokAaaa111"),
        "{raw}"
    );
    let node = format!("{raw}{}", node["markdown"]);
    let found = search(srv.addr, "workspace=ws&query=password").to_string();
    let leaked: Vec<&str> = lines
        .iter()
        .map(|(_, s)| *s)
        .filter(|s| node.contains(s) || found.contains(s))
        .collect();
    assert!(leaked.is_empty(), "leaked: {leaked:?}\n{node}\n{found}");
}

/// Red team: Markdown (CommonMark) and YAML both end a line at a lone `\r`; the redaction's
/// "a setting starts its line" does not. A body written with CR line endings shows
/// `password: …` in get_node, context, search snippets and criteria (the frontmatter key after
/// a lone CR is parsed as a key and redacted by name).
#[test]
fn settings_after_a_lone_cr_are_redacted() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let dir = t.join("ws");
    repo(
        &dir,
        &[(
            "backlog/tasks/task-1.md",
            "---\nid: TASK-1\ntitle: cr\n---\nintro words here\rpassword: CrBodyAaad222\n\n## Acceptance Criteria\n- [ ] first\r- [ ] password: CrAcAaad444\n",
        )],
    );
    let srv = serve(&t.join("data"), vec![spec("ws", &dir)]);
    let mut all = ok(srv.addr, "/api/v1/docs/nodes/TASK-1?workspace=ws").to_string();
    all.push_str(&search(srv.addr, "workspace=ws&query=intro").to_string());
    for secret in ["CrBodyAaad222", "CrAcAaad444"] {
        assert!(!all.contains(secret), "{secret} leaks: {all}");
    }
}

/// Red team: hidden paths are skipped by the walk only. A workspace's own configuration can
/// still make the index read its `.git` directory (`workspace_root: .git`, or a sidecar
/// `body: .git/config`): `.git/config` (remote URLs, `http.extraheader` with the CI token,
/// which actions/checkout persists there) is served as a node. Known secret formats in it are
/// redacted; anything else (here a marker) is served.
#[test]
fn a_workspace_config_cannot_make_the_index_read_its_git_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().canonicalize().unwrap();
    let root = t.join("root");
    repo(
        &root,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  workspace_root: .git\n  include: [\"**/*\", \"*\"]\n",
            ),
            ("backlog/tasks/task-1.md", "---\nid: TASK-1\n---\nbody\n"),
        ],
    );
    git(&root, &["config", "custom.marker", "GITCONFIG-MARKER-a30"]);
    let side = t.join("side");
    repo(
        &side,
        &[
            (
                ".nexus/docgraph.yaml",
                "doc_graph:\n  include: [\"kep.yaml\"]\n  metadata: {sources: [sidecar], sidecar: {file: kep.yaml, body: .git/config}}\n  id: {keys: [kep-number], fallback: [dir_name]}\n",
            ),
            ("kep.yaml", "kep-number: 1\ntitle: root\n"),
        ],
    );
    git(&side, &["config", "custom.marker", "GITCONFIG-MARKER-a30"]);
    let srv = serve(
        &t.join("data"),
        vec![spec("root", &root), spec("side", &side)],
    );
    for ws in ["root", "side"] {
        let all = everything(srv.addr, ws, "GITCONFIG");
        assert!(
            !all.contains("GITCONFIG-MARKER-a30"),
            "{ws}: .git/config is served: {all}"
        );
    }
}

/// Issue 26: on a real Backlog.md folder (the ariadne corpus), lists show the live work. The
/// expected sets are read from the files themselves: `backlog/tasks` is live, `drafts`,
/// `archive` and `completed` are not, whatever their status says.
#[test]
fn lists_show_the_live_work_of_a_real_backlog() {
    let tmp = tempfile::tempdir().unwrap();
    let root = corpus(tmp.path(), "ariadne-backlog");
    let data = tmp.path().join("data");
    let srv = serve(
        &data,
        vec![WorkspaceSpec {
            name: Some("ariadne".into()),
            path: root.clone(),
        }],
    );
    let a = srv.addr;
    let todo_in = |folder: &str| -> usize {
        frontmatter_statuses(&root.join("backlog").join(folder))
            .iter()
            .filter(|(_, s)| s == "To Do")
            .count()
    };
    let live = todo_in("tasks");
    assert!(
        live > 0 && todo_in("archive") > 0 && todo_in("drafts") > 0,
        "the corpus has To Do tasks in tasks/, archive/ and drafts/"
    );

    let all_pages = |query: &str| -> Vec<Value> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let c = cursor
                .as_deref()
                .map(|c| format!("&cursor={}", enc(c)))
                .unwrap_or_default();
            let page = ok(a, &format!("/api/v1/docs/tasks?{query}&limit=500{c}"));
            items.extend(page["items"].as_array().unwrap().iter().cloned());
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => return items,
            }
        }
    };
    let todo = all_pages("status=To%20Do");
    assert_eq!(
        todo.len(),
        live,
        "live To Do tasks: {:?}",
        ids(&Value::Array(todo.clone()))
    );
    assert!(
        todo.iter().all(
            |i| i["path"].as_str().unwrap().starts_with("backlog/tasks/")
                && i.get("lifecycle").is_none()
        ),
        "a live item is outside backlog/tasks or carries a lifecycle"
    );

    for (lifecycle, folder) in [("archived", "archive"), ("draft", "drafts")] {
        let items = all_pages(&format!("status=To%20Do&lifecycle={lifecycle}"));
        assert_eq!(items.len(), todo_in(folder), "{lifecycle} To Do tasks");
        assert!(
            items.iter().all(|i| i["lifecycle"] == lifecycle
                && i["path"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("backlog/{folder}/"))),
            "{lifecycle}: {items:?}"
        );
    }
    let any = all_pages("status=To%20Do&lifecycle=any");
    assert_eq!(
        any.len(),
        live + todo_in("archive") + todo_in("drafts") + todo_in("completed"),
        "lifecycle=any reaches every To Do document"
    );
    let done = all_pages("lifecycle=done");
    assert_eq!(
        done.len(),
        frontmatter_statuses(&root.join("backlog/completed")).len(),
        "lifecycle=done is backlog/completed"
    );

    // `ready` reaches live tasks only; the nodes list and search keep to the live set too.
    let ready = all_pages("ready=true");
    assert!(
        !ready.is_empty()
            && ready
                .iter()
                .all(|i| i["ready"] == true && i.get("lifecycle").is_none())
    );
    let nodes = ok(a, "/api/v1/docs/nodes?limit=500");
    assert!(
        nodes["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i.get("lifecycle").is_none()),
        "the nodes list holds a document that is not live"
    );
    let everything = ok(a, "/api/v1/docs/nodes?limit=1&lifecycle=any");
    assert!(everything["total"].as_u64() > nodes["total"].as_u64());
    let found = ok(a, "/api/v1/docs/search?query=task&limit=200");
    assert!(found["total"].as_u64().unwrap() > 0);
    assert!(
        found["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i.get("lifecycle").is_none()),
        "search found a document that is not live: {found}"
    );
    let archived = ok(
        a,
        "/api/v1/docs/search?query=task&limit=200&lifecycle=archived",
    );
    assert!(
        archived["total"].as_u64().unwrap() > 0
            && archived["items"]
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i["lifecycle"] == "archived")
    );
    let wrong = get(a, "/api/v1/docs/tasks?lifecycle=gone");
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    assert!(
        wrong.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("active, done, archived, draft, any")
    );
    let wrong = get(a, "/api/v1/docs/nodes?order=priority");
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    assert!(
        wrong.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`id` (the default) or `work`"),
        "{}",
        wrong.body
    );
}

/// Issue 26: the node resource's route (`raw=true`) answers the whole document as written,
/// frontmatter included, on real folders: a Backlog.md task file byte for byte, and a KEP's
/// kep.yaml as a frontmatter block before its README.md. Without `raw` nothing changes.
#[test]
fn node_raw_is_the_whole_document_of_real_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let backlog = corpus(tmp.path(), "ariadne-backlog");
    let keps = corpus(tmp.path(), "keps-sample");
    std::fs::create_dir_all(keps.join(".nexus")).unwrap();
    std::fs::write(
        keps.join(".nexus/docgraph.yaml"),
        "doc_graph:\n  include: [\"keps/**/kep.yaml\"]\n  exclude: []\n  metadata:\n    sources: [sidecar]\n    sidecar: {file: kep.yaml, body: README.md}\n  id: {keys: [kep-number], fallback: [dir_name], normalize: {default_prefix: KEP}}\n",
    )
    .unwrap();
    let srv = serve(
        &tmp.path().join("data"),
        vec![
            WorkspaceSpec {
                name: Some("backlog".into()),
                path: backlog.clone(),
            },
            WorkspaceSpec {
                name: Some("keps".into()),
                path: keps.clone(),
            },
        ],
    );
    let a = srv.addr;

    // A live task with frontmatter: its file, as is.
    let file = task_file(&backlog, "task-104 ");
    let text = std::fs::read_to_string(&file).unwrap();
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .unwrap()
        .trim()
        .to_string();
    let node = ok(
        a,
        &format!("/api/v1/docs/nodes/{id}?workspace=backlog&raw=true"),
    );
    assert_eq!(node["node"]["raw"], text.as_str(), "{id}'s file as written");
    let plain = ok(a, &format!("/api/v1/docs/nodes/{id}?workspace=backlog"));
    assert!(plain["node"].get("raw").is_none());
    assert!(
        !plain["node"]["markdown"]
            .as_str()
            .unwrap()
            .starts_with("---")
    );

    // A KEP: kep.yaml as the frontmatter, README.md as the body.
    let dir = keps.join("keps/sig-node/1029-ephemeral-storage-quotas");
    let meta = std::fs::read_to_string(dir.join("kep.yaml")).unwrap();
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let node = ok(a, "/api/v1/docs/nodes/KEP-1029?workspace=keps&raw=true");
    let raw = node["node"]["raw"].as_str().unwrap();
    let sep = if meta.ends_with('\n') { "" } else { "\n" };
    assert_eq!(
        raw,
        format!("---\n{meta}{sep}---\n\n{readme}"),
        "KEP-1029 as one document"
    );
    assert_eq!(
        get(a, "/api/v1/docs/nodes/KEP-1029?workspace=keps&raw=maybe").status,
        400
    );
}

/// Issue 26: a workspace with no document is not "all well". Pointed at a real Backlog.md
/// folder's `backlog/` itself, or at an empty folder, every answer warns with what was looked
/// for and the fix, the audit has no health score, and a not-found says why.
#[test]
fn an_empty_workspace_warns_and_has_no_health_score() {
    let tmp = tempfile::tempdir().unwrap();
    let root = corpus(tmp.path(), "ariadne-backlog");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let srv = serve(
        &tmp.path().join("data"),
        vec![
            WorkspaceSpec {
                name: Some("inner".into()),
                path: root.join("backlog"),
            },
            WorkspaceSpec {
                name: Some("empty".into()),
                path: empty,
            },
        ],
    );
    let a = srv.addr;
    for (ws, hint) in [
        (
            "inner",
            "serve the folder that holds `backlog/`, its parent",
        ),
        (
            "empty",
            "or say where they are with `include` in .nexus/docgraph.yaml",
        ),
    ] {
        let nodes = ok(a, &format!("/api/v1/docs/tasks?workspace={ws}"));
        assert_eq!(nodes["total"], 0);
        let warning = nodes["warnings"][0].as_str().unwrap_or_default();
        assert!(
            warning.contains(&format!("workspace `{ws}` holds 0 documents"))
                && warning
                    .contains("backlog/{tasks,completed,drafts,docs,decisions,milestones}/**/*.md")
                && warning.contains(hint),
            "{ws}: {nodes}"
        );
        assert!(
            !warning.contains(&*tmp.path().to_string_lossy()),
            "no server path: {warning}"
        );
        let audit = ok(a, &format!("/api/v1/docs/traceability?workspace={ws}"));
        assert!(audit["healthScore"].is_null(), "{ws}: {audit}");
        assert_eq!(audit["warnings"][0], warning);
        let missing = get(a, &format!("/api/v1/docs/nodes/task-1?workspace={ws}"));
        assert_eq!(missing.status, 404);
        assert!(
            missing.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains(hint),
            "{}",
            missing.body
        );
    }
}

/// Issue 26: get_dependency_graph as a Mermaid flowchart on the real ariadne backlog: one
/// labelled node per document and one arrow per edge of the JSON answer, the asked-for node
/// outlined; an unknown format is refused.
#[test]
fn the_dependency_graph_as_mermaid_on_a_real_backlog() {
    let tmp = tempfile::tempdir().unwrap();
    let root = corpus(tmp.path(), "ariadne-backlog");
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: None,
            path: root,
        }],
    );
    let a = srv.addr;
    let json = ok(
        a,
        "/api/v1/docs/dependency-graph?node_id=TASK-195.7&depth=3",
    );
    let (nodes, edges) = (
        json["nodes"].as_array().unwrap(),
        json["edges"].as_array().unwrap(),
    );
    assert!(
        !edges.is_empty(),
        "TASK-195.7 depends on TASK-195.6: {json}"
    );
    let m = ok(
        a,
        "/api/v1/docs/dependency-graph?node_id=TASK-195.7&depth=3&format=mermaid",
    );
    assert!(m.get("nodes").is_none() && m.get("edges").is_none(), "{m}");
    let chart = m["mermaid"].as_str().unwrap();
    assert!(chart.starts_with("flowchart LR\n"), "{chart}");
    assert_eq!(
        chart.lines().filter(|l| l.contains("[\"")).count(),
        nodes.len(),
        "{chart}"
    );
    assert_eq!(
        chart.lines().filter(|l| l.contains(" -->|")).count(),
        edges.len(),
        "{chart}"
    );
    let root_line = chart
        .lines()
        .find(|l| l.contains("[\"TASK-195.7: "))
        .expect("the asked-for node is drawn");
    let name = root_line.trim().split('[').next().unwrap();
    assert!(
        chart.contains(&format!("style {name} stroke-width:3px")),
        "{chart}"
    );
    assert!(chart.contains("-->|depends_on|"), "{chart}");
    assert_eq!(m["workspace"]["name"], "ariadne");
    let wrong = get(
        a,
        "/api/v1/docs/dependency-graph?node_id=TASK-195.7&format=svg",
    );
    assert_eq!(wrong.status, 400, "{}", wrong.body);
}

/// Issue 26: on the doc-kg benchmark's generated 10,000-task folder, over 200 random task ids,
/// `omitted` is exact: its count is the closure's size (walked here from the files'
/// frontmatter) minus the nodes shown, split into what later pages hold and what lies beyond
/// maxDepth; every page stays within the page size. Following the cursors of a few tasks yields
/// each node of the depth-bounded closure exactly once, nearest first, at its true distance.
#[test]
fn context_omitted_is_exact_on_ten_thousand_tasks() {
    use common::generated_backlog::{Rng, closure, dependencies, generate};
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(&root).unwrap();
    generate(&root, 10_000);
    let deps = dependencies(&root);
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: None,
            path: root.clone(),
        }],
    );
    let a = srv.addr;
    let mut rng = Rng(7);
    let mut depth_cuts = 0;
    let mut page_cuts = 0;
    for _ in 0..200 {
        let id = format!("TASK-{}", 1 + rng.below(10_000));
        let want = closure(&deps, &id);
        let within = want.values().filter(|d| **d <= 5).count();
        let c = ok(a, &format!("/api/v1/docs/context?task_id={id}"));
        let shown = c["nodes"].as_array().unwrap().len();
        let o = &c["omitted"];
        assert_eq!(o["count"], want.len() - shown, "{id}: {o}");
        assert_eq!(o["onLaterPages"], within - shown, "{id}: {o}");
        assert_eq!(o["beyondMaxDepth"], want.len() - within, "{id}: {o}");
        assert_eq!(c["totalNodes"], want.len(), "{id}");
        assert_eq!(c["nextCursor"].is_string(), within > shown, "{id}");
        assert!(
            c.to_string().len() <= 7_600,
            "{id}: {} chars",
            c.to_string().len()
        );
        depth_cuts += usize::from(within < want.len());
        page_cuts += usize::from(shown < within);
    }
    assert!(
        depth_cuts > 20 && page_cuts > 20,
        "the sample exercises both cuts: {depth_cuts} by maxDepth, {page_cuts} by page"
    );
    for _ in 0..4 {
        let id = format!("TASK-{}", 5_001 + rng.below(5_000));
        let want = closure(&deps, &id);
        let mut seen: Vec<(String, usize)> = Vec::new();
        let base = format!("/api/v1/docs/context?task_id={id}&max_depth=3");
        let mut path = base.clone();
        loop {
            let c = ok(a, &path);
            for n in c["nodes"].as_array().unwrap() {
                let depth = n["depth"].as_u64().unwrap() as usize;
                seen.push((n["id"].as_str().unwrap().to_owned(), depth));
            }
            let within = want.values().filter(|d| **d <= 3).count();
            assert_eq!(c["omitted"]["onLaterPages"], within - seen.len(), "{id}");
            let page = c["nodes"].as_array().unwrap().len();
            assert_eq!(c["omitted"]["count"], want.len() - page, "{id}");
            match c["nextCursor"].as_str() {
                Some(cur) => path = format!("{base}&cursor={}", enc(cur)),
                None => break,
            }
        }
        let mut expected: Vec<(String, usize)> = want
            .iter()
            .filter(|(_, d)| **d <= 3)
            .map(|(n, d)| (n.clone(), *d))
            .collect();
        expected.sort_by_key(|(n, d)| (*d, n.clone()));
        let mut got = seen.clone();
        got.sort_by_key(|(n, d)| (*d, n.clone()));
        assert_eq!(got, expected, "{id}: every node once, at its distance");
        assert!(
            seen.windows(2).all(|w| w[0].1 <= w[1].1),
            "{id}: nearest first"
        );
    }
}

/// Issue 26: redacted bodies are cached per parsed document, and an edit is seen by the next
/// request: the context shows the new text, redacted, never the cached old one; an edit that
/// closes a dependency cycle is marked by the next context (the cycles are cached per change).
#[test]
fn context_shows_an_edited_body_redacted_not_the_cached_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixture(tmp.path(), "backlog");
    let srv = serve(
        &tmp.path().join("data"),
        vec![WorkspaceSpec {
            name: None,
            path: dir.clone(),
        }],
    );
    let a = srv.addr;
    let markdown = |c: &Value| c["nodes"][0]["markdown"].as_str().unwrap().to_owned();
    let before = ok(a, "/api/v1/docs/context?task_id=BILL-3");
    assert!(markdown(&before).contains("Idempotency-Key"));
    // Served twice from the cache: the same text.
    assert_eq!(
        markdown(&ok(a, "/api/v1/docs/context?task_id=BILL-3")),
        markdown(&before)
    );
    let file = find_file(&dir, "bill-3 ");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "Idempotency-Key",
            "Replay-Guard (token ghp_abcdefghijklmnopqrstuvwxyz0123456789)",
        ),
    )
    .unwrap();
    let after = markdown(&ok(a, "/api/v1/docs/context?task_id=BILL-3"));
    assert!(after.contains("Replay-Guard"), "{after}");
    assert!(
        !after.contains("Idempotency-Key"),
        "the cached body was served: {after}"
    );
    assert!(
        !after.contains("ghp_abcdef"),
        "the edited body is not redacted: {after}"
    );

    // The cycles are found once per change: an edit that closes one is marked by the next call.
    assert_eq!(
        ok(a, "/api/v1/docs/context?task_id=BILL-3")["cycles"],
        serde_json::json!([])
    );
    let bill2 = find_file(&dir, "bill-2 ");
    let text = std::fs::read_to_string(&bill2).unwrap();
    std::fs::write(
        &bill2,
        text.replace("dependencies: [task-1]", "dependencies: [task-1, BILL-3]"),
    )
    .unwrap();
    let c = ok(a, "/api/v1/docs/context?task_id=BILL-3");
    assert_eq!(c["cyclesTotal"], 1, "{}", c["cycles"]);
    assert_eq!(
        c["cycles"][0]["ids"],
        serde_json::json!(["BILL-2", "BILL-3"])
    );
    assert_eq!(c["cycles"][0]["path"], "BILL-2 -> BILL-3 -> BILL-2");
    assert_eq!(c["nodes"][0]["inCycle"], true);
}

/// Issue 26: readiness is status plus blocking dependencies only, the same in list_tasks'
/// `ready` filter, every summary and get_node: a to-do task whose dependencies are all done is
/// ready; one blocked by a live task is not, and says by whom; related links never block; a
/// dependency that resolves to nothing makes readiness unknown (null, with the reason), never
/// true, unless another dependency already blocks; work in progress, done work and a task
/// without status are not ready (the last unknown).
#[test]
fn readiness_is_status_plus_blocking_dependencies_only() {
    use serde_json::json;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let t = |id: &str, status: Option<&str>, extra: &str| {
        let status = status.map(|s| format!("status: {s}\n")).unwrap_or_default();
        format!("---\nid: {id}\ntitle: {id}\n{status}{extra}---\n\n{id}.\n")
    };
    let files = [
        (
            "backlog/tasks/task-1 - a.md",
            t("TASK-1", Some("To Do"), ""),
        ),
        (
            "backlog/tasks/task-2 - b.md",
            t("TASK-2", Some("To Do"), "dependencies: [TASK-1]\n"),
        ),
        (
            "backlog/tasks/task-3 - c.md",
            t("TASK-3", Some("To Do"), "dependencies: [TASK-4]\n"),
        ),
        ("backlog/tasks/task-4 - d.md", t("TASK-4", Some("Done"), "")),
        (
            "backlog/tasks/task-5 - e.md",
            t("TASK-5", Some("To Do"), "dependencies: [TASK-99]\n"),
        ),
        (
            "backlog/tasks/task-6 - f.md",
            t("TASK-6", Some("To Do"), "related: [TASK-1]\n"),
        ),
        (
            "backlog/tasks/task-7 - g.md",
            t("TASK-7", Some("In Progress"), ""),
        ),
        (
            "backlog/tasks/task-8 - h.md",
            t("TASK-8", Some("To Do"), "dependencies: [TASK-99, TASK-1]\n"),
        ),
        ("backlog/tasks/task-9 - i.md", t("TASK-9", None, "")),
    ];
    let owned: Vec<(&str, &str)> = files.iter().map(|(p, s)| (*p, s.as_str())).collect();
    repo(&root, &owned);
    let srv = serve(&tmp.path().join("data"), vec![spec("edge", &root)]);
    let a = srv.addr;
    let listed = ok(a, "/api/v1/docs/tasks?limit=50");
    let by_id = |id: &str| -> Value {
        listed["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} not listed: {listed}"))
    };
    let expect = [
        ("TASK-1", json!(true), None),
        ("TASK-2", json!(false), Some("blocked by TASK-1 (To Do)")),
        ("TASK-3", json!(true), None),
        ("TASK-4", json!(false), Some("done")),
        ("TASK-5", Value::Null, Some("TASK-99 does not resolve")),
        ("TASK-6", json!(true), None),
        (
            "TASK-7",
            json!(false),
            Some("`In Progress` is not a to-do status"),
        ),
        ("TASK-8", json!(false), Some("blocked by TASK-1")),
        ("TASK-9", Value::Null, Some("no status")),
    ];
    for (id, ready, why) in &expect {
        for (what, v) in [
            ("list_tasks", by_id(id)),
            (
                "get_node",
                ok(a, &format!("/api/v1/docs/nodes/{id}"))["node"].clone(),
            ),
        ] {
            assert_eq!(&v["ready"], ready, "{what} {id}: {v}");
            match why {
                Some(why) => assert!(
                    v["readyReason"].as_str().is_some_and(|r| r.contains(why)),
                    "{what} {id}: {v}"
                ),
                None => assert!(v.get("readyReason").is_none(), "{what} {id}: {v}"),
            }
        }
    }
    assert_eq!(
        ids(&ok(a, "/api/v1/docs/tasks?ready=true")["items"]),
        ["TASK-1", "TASK-3", "TASK-6"]
    );
    assert_eq!(
        ids(&ok(a, "/api/v1/docs/tasks?ready=false")["items"]),
        ["TASK-2", "TASK-4", "TASK-7", "TASK-8"],
        "unknown readiness is neither ready nor not ready"
    );
}

/// Issue 26: on a real Backlog.md folder, every task list_tasks calls ready has a to-do status
/// and only done blocking dependencies (read back with get_node), and every live task that is
/// not ready says why.
#[test]
fn readiness_on_a_real_backlog_follows_status_and_dependencies() {
    let tmp = tempfile::tempdir().unwrap();
    let root = corpus(tmp.path(), "ariadne-backlog");
    let srv = serve(&tmp.path().join("data"), vec![spec("ariadne", &root)]);
    let a = srv.addr;
    let all = ok(a, "/api/v1/docs/tasks?limit=500");
    let items = all["items"].as_array().unwrap();
    let ready: Vec<&Value> = items.iter().filter(|i| i["ready"] == true).collect();
    assert!(!ready.is_empty() && ready.len() < items.len(), "{all}");
    // A node by id; None for an id two documents share (the real folder has some).
    let node = |id: &str| {
        let r = get(a, &format!("/api/v1/docs/nodes/{}", enc(id)));
        (r.status == 200).then(|| r.body["node"].clone())
    };
    for item in &ready {
        assert_eq!(item["status"], "To Do", "{item}");
        let Some(n) = node(item["id"].as_str().unwrap()) else {
            continue;
        };
        for dep in n["dependsOn"].as_array().unwrap() {
            if dep["kind"] == "depends_on" {
                let d = node(dep["id"].as_str().unwrap())
                    .expect("a dependency of a ready task resolves");
                assert!(
                    d["status"] == "Done" || d["lifecycle"] == "done",
                    "{} is ready but depends on {d}",
                    item["id"]
                );
            }
        }
    }
    for item in items.iter().filter(|i| i["ready"] != true) {
        assert!(
            item["readyReason"].as_str().is_some_and(|r| !r.is_empty()),
            "{item}"
        );
    }
    // Every blocked task has a blocking dependency that is not done.
    let mut checked = 0;
    for item in items.iter().filter(|i| {
        i["readyReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("blocked by"))
    }) {
        let Some(n) = node(item["id"].as_str().unwrap()) else {
            continue;
        };
        let open = n["dependsOn"].as_array().unwrap().iter().any(|dep| {
            dep["kind"] == "depends_on"
                && node(dep["id"].as_str().unwrap())
                    .is_some_and(|d| d["status"] != "Done" && d["lifecycle"] != "done")
        });
        assert!(open, "{} is blocked by nothing open: {item}", item["id"]);
        checked += 1;
    }
    assert!(checked > 0, "the real folder has blocked tasks: {all}");
}

/// Issue 26: one cycle path per strongly connected component, the shortest, with the
/// component's size, in the audit and get_dependency_graph alike, bounded by max_cycles (said
/// when cut). TASK-1..5 form one component holding a 5-cycle, its rotations, and the 2-cycle
/// TASK-3 <-> TASK-4; TASK-6 <-> TASK-7 is another.
#[test]
fn one_shortest_cycle_per_strongly_connected_component() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    let deps = [
        ("1", "TASK-2"),
        ("2", "TASK-3"),
        ("3", "TASK-4"),
        ("4", "TASK-5, TASK-3"),
        ("5", "TASK-1"),
        ("6", "TASK-7"),
        ("7", "TASK-6"),
    ];
    let files: Vec<(String, String)> = deps
        .iter()
        .map(|(n, d)| {
            (
                format!("backlog/tasks/task-{n} - t{n}.md"),
                task(&format!("TASK-{n}"), &format!("T{n}"), d),
            )
        })
        .collect();
    let mut owned: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let capped = "limits: {max_cycles: 1}\n";
    owned.push((".nexus/docgraph.yaml", capped));
    repo(&root, &owned[..owned.len() - 1]);
    let srv = serve(&tmp.path().join("data"), vec![spec("cyc", &root)]);
    let a = srv.addr;

    let audit = ok(a, "/api/v1/docs/traceability?kind=cycles");
    let cycles = audit["cycles"].as_array().unwrap();
    assert_eq!(cycles.len(), 2, "one entry per component: {audit}");
    assert_eq!(cycles[0]["size"], 5);
    assert_eq!(
        cycles[0]["pathIds"],
        serde_json::json!(["TASK-3", "TASK-4", "TASK-3"]),
        "the component's shortest cycle, not the one through its smallest id"
    );
    assert_eq!(cycles[1]["size"], 2);
    assert_eq!(audit["cycleEnumeration"], "complete");

    let g = ok(a, "/api/v1/docs/dependency-graph?node_id=TASK-1&depth=6");
    assert_eq!(g["cycles"].as_array().unwrap().len(), 1, "{g}");
    assert_eq!(g["cycles"][0]["pathIds"], cycles[0]["pathIds"]);
    assert_eq!(g["cycles"][0]["size"], 5);

    // The workspace's cap (below the operator's) lists one, and says the rest was cut.
    write(&root, ".nexus/docgraph.yaml", capped);
    let audit = ok(a, "/api/v1/docs/traceability?kind=cycles");
    assert_eq!(audit["cycles"].as_array().unwrap().len(), 1, "{audit}");
    assert_eq!(audit["cycleEnumeration"], "capped");
    assert_eq!(audit["counts"]["cycles"], 2);
}

/// Issue 26: `match=` ranks the live documents of a real folder (the exact id first, then ids
/// it starts), and typed text longer than any id matches nothing.
#[test]
fn match_ranks_a_real_backlog_and_too_long_text_matches_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = corpus(tmp.path(), "ariadne-backlog");
    let srv = serve(&tmp.path().join("data"), vec![spec("ariadne", &root)]);
    let a = srv.addr;
    let got = ids(&ok(a, "/api/v1/docs/tasks?match=TASK-190&limit=100")["items"]);
    assert!(
        got.len() > 5 && got[0].eq_ignore_ascii_case("task-190"),
        "{got:?}"
    );
    assert!(
        got.iter()
            .all(|id| id.to_lowercase().starts_with("task-190")),
        "{got:?}"
    );
    let long = "task-1".repeat(50);
    let none = ok(a, &format!("/api/v1/docs/nodes?match={long}"));
    assert_eq!(none["total"], 0, "{none}");
}
