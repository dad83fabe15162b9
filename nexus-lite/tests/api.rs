#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every endpoint against a real git repository indexed by the real pipeline.

mod common;

use common::*;
use serde_json::Value;
use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::Path;

fn start(repo: &Path, data: &Path, first_use: bool) -> Server {
    start_server(repo, data, None, first_use)
}

fn items(v: &Value) -> &Vec<Value> {
    v["items"].as_array().expect("items array")
}

fn wait_regeneration(addr: SocketAddr, id: &str) -> Value {
    // Bounded poll on the real status; each GET is a round trip, no fixed sleeps.
    for _ in 0..600 {
        let r = get(addr, &format!("/api/v1/regenerations/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        if r.body["status"] != "running" {
            return r.body;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("regeneration {id} did not finish within 30 s");
}

#[test]
fn every_endpoint_answers_on_an_indexed_repository() {
    let analysers = analysers_available();
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    fixture_repo(repo);
    let head = git(repo, &["rev-parse", "HEAD"]);
    let srv = start(repo, data_dir.path(), true);
    let a = srv.addr;

    let h = http(a, "GET", "/healthz", None, None);
    assert_eq!(h.status, 200);
    assert_eq!(h.body["status"], "ok");

    let r = get(a, "/api/v1/repositories");
    assert_eq!(r.status, 200);
    assert_eq!(items(&r.body)[0]["name"], "acme/fixture");
    assert_eq!(items(&r.body)[0]["default_branch"], "main");
    assert!(items(&r.body)[0]["latest_graph_id"].is_null());

    // First use indexes the repository.
    let sel = get(a, "/api/v1/graphs/select?repository=acme/fixture");
    assert_eq!(sel.status, 200, "{}", sel.body);
    let g = sel.body["graph"].clone();
    let gid = g["graph_id"].as_str().unwrap().to_string();
    assert_eq!(g["status"], "ready");
    assert_eq!(g["commit_sha"], head.as_str());
    assert_eq!(g["branch"], "main");
    assert_eq!(g["worktree_dirty"], false);
    assert_eq!(g["counts"]["files"], 7);
    assert_eq!(g["counts"]["classes"], 2);
    assert_eq!(g["counts"]["functions"], 8);
    let r = get(a, "/api/v1/repositories");
    assert_eq!(items(&r.body)[0]["latest_graph_id"], gid.as_str());

    let list = get(a, "/api/v1/graphs?repository=acme/fixture");
    assert_eq!(list.status, 200);
    assert_eq!(list.body["total"], 1);
    assert_eq!(items(&list.body)[0]["graph_id"], gid.as_str());

    let sum = get(a, &format!("/api/v1/summary?graph_id={gid}"));
    assert_eq!(sum.status, 200, "{}", sum.body);
    assert_eq!(sum.body["graph"]["graph_id"], gid.as_str());
    assert_eq!(sum.body["files_by_language"]["python"], 7);
    assert_eq!(sum.body["nodes_by_kind"]["method"], 2);
    assert_eq!(sum.body["edges_by_kind"]["inherits"], 1);
    assert_eq!(sum.body["anomalies_by_kind"]["import_cycle"], 1);
    let tools: Vec<(String, String)> = sum.body["analysers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["tool"].as_str().unwrap().into(),
                t["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(tools.contains(&("osv".into(), "unavailable".into())));
    if analysers {
        assert!(tools.contains(&("ruff".into(), "ok".into())), "{tools:?}");
        assert!(tools.contains(&("bandit".into(), "ok".into())), "{tools:?}");
    } else {
        assert!(!tools.contains(&("ruff".into(), "ok".into())));
    }

    // Anomalies.
    let an = get(
        a,
        "/api/v1/anomalies?repository=acme/fixture&kind=unresolved_import",
    );
    assert_eq!(an.status, 200);
    assert_eq!(an.body["total"], 1);
    let un = &items(&an.body)[0];
    assert_eq!(un["path"], "app/b.py");
    assert_eq!(un["line"], 2);
    let cyc = get(
        a,
        "/api/v1/anomalies?repository=acme/fixture&kind=import_cycle",
    );
    assert_eq!(
        items(&cyc.body)[0]["details"]["files"],
        serde_json::json!(["app/a.py", "app/b.py"])
    );
    let pe = get(
        a,
        "/api/v1/anomalies?repository=acme/fixture&kind=parse_error",
    );
    assert_eq!(items(&pe.body)[0]["path"], "app/broken.py");
    // bandit cannot scan it either: its bandit findings are unknown, and the file says so.
    let skipped = get(
        a,
        "/api/v1/anomalies?repository=acme/fixture&kind=skipped_file",
    );
    if analysers {
        assert_eq!(skipped.body["total"], 1, "{}", skipped.body);
        let s = &items(&skipped.body)[0];
        assert_eq!(s["path"], "app/broken.py");
        assert_eq!(s["details"]["tool"], "bandit", "{s}");
        let ctx = get(
            a,
            &format!("/api/v1/file-context?graph_id={gid}&path=app/broken.py"),
        );
        assert!(
            ctx.body.to_string().contains("was not scanned by bandit"),
            "{}",
            ctx.body
        );
    } else {
        assert_eq!(skipped.body["total"], 0, "{}", skipped.body);
    }
    let one = get(
        a,
        &format!(
            "/api/v1/anomalies/{}?graph_id={gid}",
            un["anomaly_id"].as_str().unwrap()
        ),
    );
    assert_eq!(one.status, 200);
    assert_eq!(one.body["anomaly"], *un);

    // Findings and pagination.
    let all = get(a, "/api/v1/findings?repository=acme/fixture&limit=500");
    let total = all.body["total"].as_u64().unwrap();
    assert!(total >= 3);
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(c) => format!("/api/v1/findings?graph_id={gid}&limit=2&cursor={c}"),
            None => format!("/api/v1/findings?graph_id={gid}&limit=2"),
        };
        let page = get(a, &url);
        assert_eq!(page.status, 200, "{}", page.body);
        for f in items(&page.body) {
            assert!(seen.insert(f["finding_id"].as_str().unwrap().to_string()));
        }
        match page.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen.len() as u64, total);

    if analysers {
        let b = get(
            a,
            "/api/v1/findings?repository=acme/fixture&source_tool=bandit&path=app/crypto.py",
        );
        let b324 = items(&b.body)
            .iter()
            .find(|f| f["finding_type"] == "bandit_b324_hashlib")
            .expect("bandit B324 on hashlib.sha1");
        assert_eq!(b324["line"], 6);
        assert_eq!(b324["rule_id"], "B324");
        assert_eq!(b324["severity"], "high");
        assert_eq!(b324["symbol"], "app.crypto.digest");
        let f401 = get(
            a,
            "/api/v1/findings?repository=acme/fixture&finding_type=ruff_f401&path=app/crypto.py",
        );
        assert_eq!(items(&f401.body)[0]["line"], 2);
        let one = get(
            a,
            &format!(
                "/api/v1/findings/{}?graph_id={gid}",
                b324["finding_id"].as_str().unwrap()
            ),
        );
        assert_eq!(one.status, 200);
        assert_eq!(one.body["finding"]["rank"], 1);
        assert_eq!(one.body["finding"]["dedupe_key"], b324["dedupe_key"]);

        // Audit risks: ranks 1-4 by default, sorted; low and false positives on request.
        let risks = get(a, "/api/v1/audit-risks?repository=acme/fixture");
        assert_eq!(risks.status, 200);
        let ranks: Vec<u64> = items(&risks.body)
            .iter()
            .map(|r| r["rank"].as_u64().unwrap())
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        assert!(ranks.iter().all(|r| *r <= 4));
        assert_eq!(items(&risks.body)[0]["finding_type"], "bandit_b324_hashlib");
        assert!(ranks.contains(&2));
        assert!(risks.body["ranks"]["5"].as_u64().unwrap() >= 1);
        let low = get(
            a,
            "/api/v1/audit-risks?repository=acme/fixture&include_low=true",
        );
        let fp = items(&low.body)
            .iter()
            .find(|r| r["finding_type"] == "bandit_b101_assert_used")
            .expect("B101 in test code");
        assert_eq!(fp["rank"], 6);
        assert!(fp["false_positive_hint"].as_str().unwrap().contains("test"));
        let only2 = get(a, "/api/v1/audit-risks?repository=acme/fixture&rank=2");
        assert!(items(&only2.body).iter().all(|r| r["rank"] == 2));
        assert!(
            items(&only2.body)
                .iter()
                .any(|r| r["finding_type"] == "nexus_kg_unresolved_import")
        );
    }

    // File context.
    let fc = get(
        a,
        "/api/v1/file-context?repository=acme/fixture&path=app/crypto.py&line=6&radius=1",
    );
    assert_eq!(fc.status, 200, "{}", fc.body);
    assert_eq!(fc.body["in_graph"], true);
    assert_eq!(fc.body["language"], "python");
    assert_eq!(
        fc.body["enclosing_symbol"]["qualified_name"],
        "app.crypto.digest"
    );
    assert_eq!(fc.body["snippet"]["start_line"], 5);
    assert!(
        fc.body["snippet"]["text"]
            .as_str()
            .unwrap()
            .contains("hashlib.sha1")
    );
    let imports = fc.body["imports"].as_array().unwrap();
    assert!(
        imports
            .iter()
            .any(|i| i["module"] == "hashlib" && i["external"] == true)
    );
    assert_eq!(fc.body["imported_by"][0]["path"], "app/service.py");
    let readme = get(
        a,
        "/api/v1/file-context?repository=acme/fixture&path=README.md",
    );
    assert_eq!(readme.body["in_graph"], false);
    assert!(
        readme.body["snippet"]["text"]
            .as_str()
            .unwrap()
            .contains("fixture")
    );

    // Impact.
    let imp = get(
        a,
        "/api/v1/impact?repository=acme/fixture&symbol=app.crypto.digest",
    );
    assert_eq!(imp.status, 200);
    assert_eq!(imp.body["resolved"], true);
    let lvl1: Vec<String> = imp.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["depth"] == 1)
        .map(|i| i["symbol"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(
        lvl1.contains(&"app.crypto.Hasher.run".to_string()),
        "{lvl1:?}"
    );
    assert!(
        lvl1.contains(&"app.service.FastHasher.run".to_string()),
        "{lvl1:?}"
    );
    assert_eq!(imp.body["completeness"], "lower_bound");
    let impf = get(
        a,
        "/api/v1/impact?repository=acme/fixture&path=app/crypto.py&depth=2",
    );
    let via_imports: Vec<&Value> = impf.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["depth"] == 1)
        .filter(|i| i["via"] == "imports")
        .collect();
    assert_eq!(via_imports[0]["path"], "app/service.py");
    let nothing = get(a, "/api/v1/impact?repository=acme/fixture&symbol=app.nope");
    assert_eq!(nothing.body["resolved"], false);
    assert_eq!(nothing.body["risk"], "unknown");

    // Regeneration after a commit: plan, run, status, compare.
    write(
        repo,
        "app/service.py",
        "from app.crypto import Hasher, digest\n\n\nclass FastHasher(Hasher):\n    def run(self, data):\n        return digest(data) + b\"x\"\n\n\ndef main():\n    return FastHasher().run(b\"x\")\n\n\ndef evaluate(expr):\n    return eval(expr)\n",
    );
    git(repo, &["commit", "-qam", "add evaluate"]);
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture","branch":"main"}"#,
    );
    assert_eq!(plan.status, 200, "{}", plan.body);
    assert_eq!(plan.body["ambiguous"], false);
    assert_eq!(plan.body["previous_graph_id"], gid.as_str());
    assert_eq!(
        plan.body["changed_files"],
        serde_json::json!(["app/service.py"])
    );
    assert_eq!(plan.body["would_reindex"]["mode"], "incremental");
    let plan_id = plan.body["plan_id"].as_str().unwrap().to_string();
    let run = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{plan_id}","allow_dirty":false}}"#),
    );
    assert_eq!(run.status, 202, "{}", run.body);
    assert_eq!(run.body["previous_graph_id"], gid.as_str());
    let done = wait_regeneration(a, run.body["regeneration_id"].as_str().unwrap());
    assert_eq!(done["status"], "ready", "{done}");
    assert_eq!(done["phase"], "done");
    let new_gid = done["graph_id"].as_str().unwrap().to_string();
    assert_ne!(new_gid, gid);
    let sel2 = get(
        a,
        "/api/v1/graphs/select?repository=acme/fixture&branch=main",
    );
    assert_eq!(sel2.body["graph"]["graph_id"], new_gid.as_str());
    let cmp = get(
        a,
        &format!("/api/v1/compare?base_graph_id={gid}&head_graph_id={new_gid}"),
    );
    assert_eq!(cmp.status, 200, "{}", cmp.body);
    assert!(
        cmp.body["nodes"]["added"]
            .as_array()
            .unwrap()
            .contains(&Value::from("app.service.evaluate"))
    );
    assert_eq!(cmp.body["nodes"]["removed_count"], 0);
    if analysers {
        let fitems = cmp.body["findings"]["items"].as_array().unwrap();
        let first = &fitems[0];
        assert_eq!(first["baseline_state"], "new");
        assert!(
            fitems
                .iter()
                .any(|f| f["baseline_state"] == "new" && f["rule_id"] == "B307")
        );
        assert!(
            fitems
                .iter()
                .any(|f| f["baseline_state"] == "unchanged" && f["rule_id"] == "B324")
        );
        assert!(cmp.body["findings"]["counts"]["absent"] == 0);
    }

    // Plan state checks: dirty, stale, ambiguous.
    write(
        repo,
        "app/a.py",
        "from . import b\n\n\ndef fa():\n    return b.fb() + 1\n",
    );
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture"}"#,
    );
    assert_eq!(plan.body["worktree_dirty"], true);
    assert_eq!(plan.body["dirty_files"], serde_json::json!(["app/a.py"]));
    let pid = plan.body["plan_id"].as_str().unwrap().to_string();
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    assert_eq!(r.status, 409);
    assert_eq!(r.body["error"]["code"], "dirty_not_allowed");
    write(repo, "app/b.py", "def fb():\n    return 1\n");
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}","allow_dirty":true}}"#),
    );
    assert_eq!(r.status, 409);
    assert_eq!(r.body["error"]["code"], "plan_stale");
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture","branch":"release"}"#,
    );
    assert_eq!(plan.body["ambiguous"], true);
    assert!(
        plan.body["ambiguity_reason"]
            .as_str()
            .unwrap()
            .contains("release")
    );
    let pid = plan.body["plan_id"].as_str().unwrap();
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}","allow_dirty":true}}"#),
    );
    assert_eq!(r.body["error"]["code"], "ambiguous_target");
    // A dirty run when allowed records the dirty files.
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture"}"#,
    );
    let pid = plan.body["plan_id"].as_str().unwrap();
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}","allow_dirty":true}}"#),
    );
    assert_eq!(r.status, 202);
    let done = wait_regeneration(a, r.body["regeneration_id"].as_str().unwrap());
    let g3 = get(
        a,
        &format!(
            "/api/v1/graphs/select?graph_id={}",
            done["graph_id"].as_str().unwrap()
        ),
    );
    assert_eq!(g3.body["graph"]["worktree_dirty"], true);
    assert_eq!(
        g3.body["graph"]["dirty_files"],
        serde_json::json!(["app/a.py", "app/b.py"])
    );
    // The cycle and the unresolved import are gone from the dirty work tree.
    let an = get(
        a,
        "/api/v1/anomalies?repository=acme/fixture&kind=unresolved_import,import_cycle",
    );
    assert_eq!(an.body["total"], 0, "{}", an.body);
}

#[test]
fn malformed_requests_get_clear_errors() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    fixture_repo(repo_dir.path());
    let srv = start(repo_dir.path(), data_dir.path(), false);
    let a = srv.addr;
    let expect = |r: Resp, status: u16, code: &str, needle: &str| {
        assert_eq!(r.status, status, "{}", r.body);
        assert_eq!(r.body["error"]["code"], code, "{}", r.body);
        let msg = r.body["error"]["message"].as_str().unwrap();
        assert!(msg.contains(needle), "message `{msg}` lacks `{needle}`");
    };
    expect(
        http(a, "GET", "/api/v1/repositories", None, None),
        401,
        "unauthorized",
        "Bearer",
    );
    expect(
        http(a, "GET", "/api/v1/repositories", Some("wrong"), None),
        401,
        "unauthorized",
        "token",
    );
    // Standalone: no graph yet.
    expect(
        get(a, "/api/v1/summary?repository=acme/fixture"),
        404,
        "not_found",
        "regeneration",
    );
    expect(
        get(a, "/api/v1/summary?repository=nobody/nothing"),
        404,
        "not_found",
        "acme/fixture",
    );
    expect(get(a, "/api/v1/summary"), 400, "bad_request", "repository");
    expect(
        get(
            a,
            "/api/v1/summary?graph_id=00000000-0000-0000-0000-000000000000",
        ),
        404,
        "not_found",
        "graph_id",
    );
    // Index once through a regeneration so graph-scoped calls work.
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture"}"#,
    );
    assert_eq!(plan.body["would_reindex"]["mode"], "full");
    assert_eq!(plan.body["would_reindex"]["files"], 7);
    let pid = plan.body["plan_id"].as_str().unwrap();
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    assert_eq!(r.status, 202);
    let done = wait_regeneration(a, r.body["regeneration_id"].as_str().unwrap());
    let gid = done["graph_id"].as_str().unwrap().to_string();
    let reused = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    expect(reused, 404, "not_found", "plan");
    expect(
        get(a, "/api/v1/findings?repository=acme/fixture&cursor=garbage"),
        400,
        "bad_request",
        "cursor",
    );
    expect(
        get(a, "/api/v1/findings?repository=acme/fixture&limit=0"),
        400,
        "bad_request",
        "limit",
    );
    expect(
        get(
            a,
            "/api/v1/findings?repository=acme/fixture&severity=urgent",
        ),
        400,
        "bad_request",
        "urgent",
    );
    expect(
        get(
            a,
            "/api/v1/findings?repository=acme/fixture&path=../etc/passwd",
        ),
        400,
        "bad_request",
        "repo-relative",
    );
    expect(
        get(a, "/api/v1/findings?repository=acme/fixture&line=abc"),
        400,
        "bad_request",
        "line",
    );
    expect(
        get(a, "/api/v1/audit-risks?repository=acme/fixture&rank=9"),
        400,
        "bad_request",
        "rank",
    );
    expect(
        get(
            a,
            "/api/v1/audit-risks?repository=acme/fixture&include_low=maybe",
        ),
        400,
        "bad_request",
        "include_low",
    );
    expect(
        get(a, "/api/v1/anomalies?repository=acme/fixture&kind=weird"),
        400,
        "bad_request",
        "weird",
    );
    expect(
        get(a, &format!("/api/v1/findings/f99999?graph_id={gid}")),
        404,
        "not_found",
        "f99999",
    );
    expect(
        get(a, "/api/v1/findings/f1"),
        400,
        "bad_request",
        "graph_id",
    );
    expect(
        get(a, &format!("/api/v1/anomalies/zzz?graph_id={gid}")),
        404,
        "not_found",
        "zzz",
    );
    expect(
        get(a, "/api/v1/file-context?repository=acme/fixture"),
        400,
        "bad_request",
        "path",
    );
    expect(
        get(
            a,
            "/api/v1/file-context?repository=acme/fixture&path=app/a.py&radius=99",
        ),
        400,
        "bad_request",
        "radius",
    );
    expect(
        get(a, "/api/v1/impact?repository=acme/fixture"),
        400,
        "bad_request",
        "symbol",
    );
    expect(
        get(a, &format!("/api/v1/compare?base_graph_id={gid}")),
        400,
        "bad_request",
        "head_graph_id",
    );
    expect(
        get(
            a,
            &format!("/api/v1/compare?base_graph_id={gid}&head_graph_id=nope"),
        ),
        404,
        "not_found",
        "nope",
    );
    expect(
        get(a, "/api/v1/regenerations/does-not-exist"),
        404,
        "not_found",
        "does-not-exist",
    );
    expect(
        post(a, "/api/v1/regenerations/plan", "{not json"),
        400,
        "bad_request",
        "JSON",
    );
    expect(
        post(a, "/api/v1/regenerations/plan", r#"{"repository":"x/y"}"#),
        404,
        "not_found",
        "x/y",
    );
    expect(
        post(a, "/api/v1/regenerations", r#"{"plan_id":"nope"}"#),
        404,
        "not_found",
        "plan",
    );
    expect(
        post(a, "/api/v1/regenerations", r#"{}"#),
        400,
        "bad_request",
        "plan_id",
    );
    expect(get(a, "/api/v1/nothing-here"), 404, "not_found", "openapi");
    expect(
        get(
            a,
            &format!("/api/v1/summary?graph_id={gid}&repository=other/repo"),
        ),
        400,
        "bad_request",
        "belongs",
    );
}

/// Every documented path answers on the running server, and every route is documented.
#[test]
fn openapi_matches_the_running_server() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    fixture_repo(repo_dir.path());
    let srv = start(repo_dir.path(), data_dir.path(), true);
    let a = srv.addr;
    let doc = http(a, "GET", "/openapi.json", None, None);
    assert_eq!(doc.status, 200);
    assert_eq!(doc.body["openapi"], "3.1.0");
    let gid = get(a, "/api/v1/graphs/select?repository=acme/fixture").body["graph"]["graph_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut documented = HashSet::new();
    for (path, ops) in doc.body["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            documented.insert((method.to_uppercase(), path.clone()));
            let mut url = path
                .replace("{finding_id}", "f1")
                .replace("{anomaly_id}", "a1")
                .replace("{regeneration_id}", "unknown");
            // Fill required query parameters with working values.
            let mut q = vec![format!("graph_id={gid}")];
            for p in op["parameters"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                match p["name"].as_str().unwrap() {
                    "path" => q.push("path=app/crypto.py".into()),
                    "base_graph_id" => q.push(format!("base_graph_id={gid}")),
                    "head_graph_id" => q.push(format!("head_graph_id={gid}")),
                    _ => {}
                }
            }
            url = format!("{url}?{}", q.join("&"));
            let r = if method == "post" {
                let body = if path.ends_with("/plan") {
                    r#"{"repository":"acme/fixture"}"#.to_string()
                } else {
                    r#"{"plan_id":"unknown"}"#.to_string()
                };
                post(a, &url, &body)
            } else {
                get(a, &url)
            };
            let msg = r.body["error"]["message"].as_str().unwrap_or("");
            assert!(
                !msg.starts_with("no endpoint"),
                "{method} {path} is documented but not served"
            );
            assert_ne!(r.status, 405, "{method} {path}");
            assert!(r.status < 500, "{method} {path}: {}", r.body);
            // Documented status codes cover what the server answered.
            let code = r.status.to_string();
            assert!(
                op["responses"].get(&code).is_some(),
                "{method} {path} answered undocumented {code}"
            );
        }
    }
    let served: HashSet<(String, String)> = nexus_lite::routes()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(served, documented, "routes and openapi.json differ");
}

#[test]
fn sarif_and_audit_ai_imports_become_findings() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    fixture_repo(repo_dir.path());
    write(repo_dir.path(), "requirements.txt", "jinja2==2.10\n");
    git(repo_dir.path(), &["add", "-A"]);
    git(repo_dir.path(), &["commit", "-qm", "deps"]);
    let imports = data_dir.path().join("imports/acme/fixture");
    std::fs::create_dir_all(&imports).unwrap();
    std::fs::write(
        imports.join("osv.sarif"),
        r#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"osv-scanner","rules":[
            {"id":"GHSA-462w-v97r-4m45","properties":{"security-severity":"7.5"}}]}},
          "results":[{"ruleId":"GHSA-462w-v97r-4m45","level":"warning",
            "message":{"text":"jinja2 2.10 has a sandbox escape"},
            "locations":[{"physicalLocation":{"artifactLocation":{"uri":"requirements.txt"},"region":{"startLine":1}}}]}]}]}"#,
    )
    .unwrap();
    std::fs::write(
        imports.join("review.audit_ai.json"),
        r#"{"version":1,"findings":[
            {"rule_id":"AI-AUTHZ-001","path":"app/service.py","line":9,"message":"main() runs without authorization","severity":"medium","category":"security"},
            {"rule_id":"AI-NOISE-002","path":"app/a.py","line":4,"message":"looks odd but is intended","severity":"low","false_positive":true,"false_positive_reason":"reviewed: intended"}]}"#,
    )
    .unwrap();
    let srv = start(repo_dir.path(), data_dir.path(), true);
    let a = srv.addr;
    let osv = get(
        a,
        "/api/v1/findings?repository=acme/fixture&source_tool=osv",
    );
    assert_eq!(osv.status, 200, "{}", osv.body);
    let f = &items(&osv.body)[0];
    assert_eq!(f["finding_type"], "osv_ghsa_462w_v97r_4m45");
    assert_eq!(f["path"], "requirements.txt");
    assert!(f["line"].is_null());
    assert_eq!(f["severity"], "high");
    let ai = get(
        a,
        "/api/v1/audit-risks?repository=acme/fixture&source_tool=audit_ai&include_low=true",
    );
    let by_rule = |r: &str| {
        items(&ai.body)
            .iter()
            .find(|f| f["rule_id"] == r)
            .unwrap_or_else(|| panic!("{r} missing: {}", ai.body))
            .clone()
    };
    let authz = by_rule("AI-AUTHZ-001");
    assert_eq!(authz["rank"], 3);
    assert_eq!(authz["symbol"], "app.service.main");
    let fp = by_rule("AI-NOISE-002");
    assert_eq!(fp["rank"], 6);
    assert!(
        fp["false_positive_hint"]
            .as_str()
            .unwrap()
            .contains("intended")
    );
    let sum = get(a, "/api/v1/summary?repository=acme/fixture");
    let status = |tool: &str| {
        sum.body["analysers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tool"] == tool)
            .unwrap()["status"]
            .clone()
    };
    assert_eq!(status("osv"), "ok");
    assert_eq!(status("audit_ai"), "ok");
}

#[test]
fn dedupe_keys_survive_line_shifts() {
    if !analysers_available() {
        return;
    }
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    fixture_repo(repo);
    let srv = start(repo, data_dir.path(), true);
    let a = srv.addr;
    let q = "/api/v1/findings?repository=acme/fixture&finding_type=bandit_b324_hashlib";
    let before = items(&get(a, q).body)[0].clone();
    // Shift every line of crypto.py down by three.
    let text = std::fs::read_to_string(repo.join("app/crypto.py")).unwrap();
    write(
        repo,
        "app/crypto.py",
        &format!("\"\"\"Crypto helpers.\"\"\"\n\n\n{text}"),
    );
    git(repo, &["commit", "-qam", "docstring"]);
    let plan = post(
        a,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture"}"#,
    );
    let pid = plan.body["plan_id"].as_str().unwrap();
    let r = post(
        a,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{pid}"}}"#),
    );
    let done = wait_regeneration(a, r.body["regeneration_id"].as_str().unwrap());
    assert_eq!(done["status"], "ready", "{done}");
    let after = items(&get(a, q).body)[0].clone();
    assert_eq!(after["line"], before["line"].as_i64().unwrap() + 3);
    assert_eq!(after["dedupe_key"], before["dedupe_key"]);
    let cmp = get(
        a,
        &format!(
            "/api/v1/compare?base_graph_id={}&head_graph_id={}",
            done["previous_graph_id"].as_str().unwrap(),
            done["graph_id"].as_str().unwrap()
        ),
    );
    let b324 = cmp.body["findings"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "B324")
        .unwrap()
        .clone();
    assert_eq!(
        b324["baseline_state"], "updated",
        "same finding, moved line"
    );
}

/// Agents connecting together to a fresh server all ask for the latest graph at once: every one
/// must wait for the one first-use index and get its graph. A call that waited on the index lock
/// while another call indexed used to answer "no ready graph" (7 of 1,000 first calls on a fresh
/// code-kg HTTP server).
#[test]
fn concurrent_first_calls_all_wait_for_the_first_index() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    fixture_repo(repo.path());
    let srv = start(repo.path(), data.path(), true);
    let addr = srv.addr;
    const CALLERS: usize = 6;
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(CALLERS));
    let callers: Vec<_> = (0..CALLERS)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                http(
                    addr,
                    "GET",
                    "/api/v1/graphs/select?repository=acme/fixture",
                    Some(TOKEN),
                    None,
                )
            })
        })
        .collect();
    let answers: Vec<Resp> = callers.into_iter().map(|c| c.join().unwrap()).collect();
    let graphs: HashSet<String> = answers
        .iter()
        .map(|r| {
            assert_eq!(
                r.status, 200,
                "a first call did not get the graph: {}",
                r.body
            );
            r.body["graph"]["graph_id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(
        graphs.len(),
        1,
        "one first-use index, one graph: {graphs:?}"
    );
}
