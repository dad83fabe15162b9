//! The spec's cycle, end to end, with a real MCP client (rmcp's) over stdio against the real
//! binary and its embedded nexus-lite indexing a real git repository with real ruff and bandit.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

mod support;

use support::git;

const REPO: &str = support::REPO_NAME;

/// PATH with the project's venv (ruff, bandit) first; None when bandit is not available.
fn analyser_path() -> Option<String> {
    let path = support::tool_path().to_string_lossy().into_owned();
    let found = std::env::split_paths(&path).any(|d| d.join("bandit").is_file());
    support::require(found.then_some(path), "bandit", "kg_cycle")
}

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    repo: PathBuf,
    data: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let repo = root.join("shop");
    std::fs::create_dir_all(repo.join("shop")).unwrap();
    std::fs::write(repo.join("shop/__init__.py"), "").unwrap();
    std::fs::write(
        repo.join("shop/hashing.py"),
        "import hashlib\n\n\ndef digest(data):\n    return hashlib.sha1(data).hexdigest()\n\n\ndef legacy(data):\n    return hashlib.sha1(data).digest()\n",
    )
    .unwrap();
    std::fs::write(repo.join("shop/orders.py"), "from shop.hashing import digest\n\nAPI_KEY = \"sk-live-0123456789abcdefghijklmnop\"\n\n\ndef order_id(data):\n    return digest(data)\n").unwrap();
    std::fs::write(
        repo.join("shop/util.py"),
        "def add(a, b):\n    return a + b\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("test_orders.py"),
        "from shop.orders import order_id\n\n\ndef test_order_id():\n    assert order_id(b\"x\")\n",
    )
    .unwrap();
    Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .arg(&repo)
        .status()
        .unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "initial"]);
    let data = root.join("data");
    Fixture {
        _dir: dir,
        root,
        repo,
        data,
    }
}

type Client = support::McpClient;

async fn connect(f: &Fixture, path: &str, scopes: &str) -> Client {
    connect_with(f, path, scopes, &[]).await
}

/// [`connect`] with more environment (the local nexus-lite it starts inherits it).
async fn connect_with(f: &Fixture, path: &str, scopes: &str, env: &[(&str, &str)]) -> Client {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_nexus-mcp"));
    cmd.arg("serve")
        .arg("--repo")
        .arg(format!("{REPO}={}", f.repo.display()))
        .arg("--data-dir")
        .arg(&f.data)
        .arg("--scopes")
        .arg(scopes)
        .env("PATH", path)
        .env("NEXUS_MCP_LOCAL_REPO_ROOTS", &f.root)
        .env("NEXUS_MCP_MAX_COMMITS_BEHIND", "3")
        .env_remove("NEXUS_API_URL")
        .envs(env.iter().copied());
    ().serve(TokioChildProcess::new(cmd).unwrap())
        .await
        .unwrap()
}

async fn ok(client: &Client, tool: &str, args: Value) -> Value {
    let result = support::call_tool(client, tool, args.clone())
        .await
        .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
    // What clients validate: the published output schema (the Python SDK rejects a mismatch).
    let spec = nexus_mcp::surface("nexus-code-kg")
        .unwrap()
        .tool(tool)
        .unwrap();
    let schema: Value = serde_json::from_str(spec.output_schema).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let problems: Vec<String> = validator
        .iter_errors(&result)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "{tool} result breaks its output schema: {problems:?}\n{result}"
    );
    let size = serde_json::to_string(&result).unwrap().len();
    assert!(
        size <= 8000,
        "{tool} answered {size} characters, over its 8000 budget"
    );
    if tool.starts_with("kg_get_") {
        // Action packets fit the default budget whole: nothing an agent acts on is cut.
        assert!(
            result.get("truncation").is_none(),
            "{tool} packet was cut: {result}"
        );
    }
    result
}

fn finding<'a>(risks: &'a Value, finding_type: &str) -> Vec<&'a Value> {
    risks["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["finding_type"] == finding_type)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_cycle_fixes_a_bandit_finding() {
    let Some(path) = analyser_path() else { return };
    let f = fixture();
    let client = connect(&f, &path, "kg:read,kg:local,kg:regenerate").await;

    // kg_latest_graph → kg_graph_summary
    let latest = ok(
        &client,
        "kg_latest_graph",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    let graph_id = latest["graph"]["graph_id"].as_str().unwrap().to_owned();
    assert_eq!(
        latest["graph"]["commit_sha"],
        git(&f.repo, &["rev-parse", "HEAD"])
    );
    assert_eq!(latest["freshness"]["verdict"], "fresh");
    let summary = ok(&client, "kg_graph_summary", json!({"graph_id": graph_id})).await;
    let bandit = summary["analysers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["tool"] == "bandit")
        .unwrap();
    assert_eq!(bandit["status"], "ok", "{summary}");

    // kg_list_audit_risks: the two SHA1 uses rank first, each with its reason.
    let risks = ok(
        &client,
        "kg_list_audit_risks",
        json!({"graph_id": graph_id}),
    )
    .await;
    let sha1 = finding(&risks, "bandit_b324_hashlib");
    assert_eq!(sha1.len(), 2, "{risks}");
    assert!(
        sha1.iter()
            .all(|r| r["rank"] == 1 && r["rank_reason"].as_str().is_some_and(|s| !s.is_empty()))
    );
    assert!(
        finding(&risks, "ruff_f401").is_empty(),
        "low findings only when asked"
    );

    // Proof without line: two candidates, never a silent pick.
    let proof = json!({"graph_id": graph_id, "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/hashing.py"});
    let ambiguous = ok(&client, "kg_get_audit_risk", proof.clone()).await;
    assert_eq!(ambiguous["status"], "ambiguous");
    assert_eq!(
        ambiguous["required_disambiguation"],
        json!(["line", "message", "dedupe_key"])
    );
    assert_eq!(ambiguous["total_candidates"], 2);
    assert_eq!(ambiguous["candidates_truncated"], false);
    assert_eq!(ambiguous["candidates"].as_array().unwrap().len(), 2);

    // Wrong line: not_found says which part matched nothing.
    let mut wrong = proof.clone();
    wrong["line"] = json!(3);
    let missing = ok(&client, "kg_get_audit_risk", wrong).await;
    assert_eq!(missing["status"], "not_found");
    assert!(
        missing["reason"].as_str().unwrap().contains("line(s) 5, 9"),
        "{missing}"
    );

    // The full proof: an action packet.
    let mut exact = proof.clone();
    exact["line"] = json!(5);
    let packet = ok(&client, "kg_get_audit_risk", exact).await;
    assert_eq!(packet["status"], "ready", "{packet}");
    assert_eq!(packet["finding"]["line"], 5);
    assert_eq!(
        packet["file_context"]["enclosing_symbol"]["qualified_name"],
        "shop.hashing.digest"
    );
    assert!(packet["recommended_reads"][0]["path"] == "shop/hashing.py");
    assert!(
        packet["recommended_commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "bandit -q 'shop/hashing.py'")
    );
    assert!(
        packet["recommended_commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "python -m pytest -q 'test_orders.py'"),
        "the test reaching hashing.py through orders.py: {packet}"
    );
    assert!(
        packet["safety_notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("Read the real code"))
    );
    assert_eq!(packet["freshness"]["verdict"], "fresh");

    // kg_file_context / kg_impact: orders.py imports hashing.py; its secret never leaves.
    let ctx = ok(
        &client,
        "kg_file_context",
        json!({"graph_id": graph_id, "path": "shop/orders.py", "line": 3}),
    )
    .await;
    let snippet = ctx["snippet"]["text"].as_str().unwrap();
    assert!(snippet.contains("API_KEY = \"[REDACTED]\""), "{snippet}");
    assert!(
        !serde_json::to_string(&ctx)
            .unwrap()
            .contains("sk-live-0123")
    );
    let impact = ok(
        &client,
        "kg_impact",
        json!({"graph_id": graph_id, "path": "shop/hashing.py", "depth": 3}),
    )
    .await;
    let dependents: Vec<&str> = impact["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert!(
        dependents.contains(&"shop/orders.py") && dependents.contains(&"test_orders.py"),
        "{impact}"
    );

    // Fresh before the fix.
    let local = json!({"graph_id": graph_id, "local_path": f.repo.display().to_string()});
    assert_eq!(
        ok(&client, "kg_compare_with_local_git", local.clone()).await["verdict"],
        "fresh"
    );

    // Read the real code, fix it, commit.
    let code = std::fs::read_to_string(f.repo.join("shop/hashing.py")).unwrap();
    std::fs::write(
        f.repo.join("shop/hashing.py"),
        code.replace(
            "hashlib.sha1(data).hexdigest()",
            "hashlib.sha256(data).hexdigest()",
        ),
    )
    .unwrap();
    let dirty = ok(&client, "kg_compare_with_local_git", local.clone()).await;
    assert_eq!(
        dirty["verdict"], "unsafe_for_patch_decision",
        "a dirty file with findings: {dirty}"
    );
    git(&f.repo, &["commit", "-qam", "use sha256 for order digests"]);

    // Regenerate: dry run, refusals, then the confirmed submit.
    let plan = ok(
        &client,
        "kg_regenerate_dry_run",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    let plan_id = plan["plan"]["plan_id"].as_str().unwrap().to_owned();
    assert_eq!(
        plan["plan"]["head_sha"],
        git(&f.repo, &["rev-parse", "HEAD"])
    );
    let refused = support::call_tool(&client, "kg_regenerate_submit", json!({"plan_id": plan_id}))
        .await
        .unwrap_err();
    assert!(refused.contains("confirmation_required"), "{refused}");
    // Worded from the manifest's mutation.changes and mutation.approver.
    assert!(
        refused.contains(
            "`kg_regenerate_submit` changes the graph and needs explicit confirmation: call \
             kg_regenerate_dry_run first, review the plan, then set confirmed_by_sr to true once \
             a human or the SR method has approved it."
        ),
        "{refused}"
    );
    let compat = ok(
        &client,
        "kg_regenerate",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    assert_eq!(
        compat["dry_run"], true,
        "kg_regenerate is a dry run by default"
    );
    let done = ok(
        &client,
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
    )
    .await;
    assert_eq!(done["regeneration"]["status"], "ready", "{done}");

    // kg_compare_runs (returned by the submit): the fixed finding is absent, the other unchanged.
    let findings = done["comparison"]["findings"]["items"].as_array().unwrap();
    let fixed: Vec<&Value> = findings
        .iter()
        .filter(|i| i["finding_type"] == "bandit_b324_hashlib" && i["baseline_state"] == "absent")
        .collect();
    assert_eq!(fixed.len(), 1, "{done}");
    assert_eq!(fixed[0]["line"], 5);
    assert!(
        done["comparison"]["findings"]["counts"]["unchanged"]
            .as_u64()
            .unwrap()
            >= 1,
        "the other SHA1 use is still there: {done}"
    );
    let new_graph = done["regeneration"]["graph_id"].as_str().unwrap();
    let again = ok(
        &client,
        "kg_compare_runs",
        json!({"base_graph_id": graph_id, "head_graph_id": new_graph}),
    )
    .await;
    assert_eq!(again["findings"]["counts"]["absent"], 1, "{again}");
    let latest = ok(
        &client,
        "kg_latest_graph",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    assert_eq!(latest["graph"]["graph_id"], new_graph);
    assert_eq!(latest["freshness"]["verdict"], "fresh");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regeneration_refuses_stale_plans_dirty_worktrees_and_missing_scope() {
    let Some(path) = analyser_path() else { return };
    let f = fixture();
    let reader = connect(&f, &path, "kg:read,kg:local").await;
    let tools: Vec<String> = reader
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        tools.contains(&"kg_latest_graph".to_owned())
            && tools.contains(&"kg_compare_with_local_git".to_owned())
    );
    assert!(
        !tools.iter().any(|t| t.starts_with("kg_regenerate")),
        "{tools:?}"
    );
    let err = support::call_tool(
        &reader,
        "kg_regenerate_dry_run",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await
    .unwrap_err();
    assert!(err.contains("unknown tool"), "{err}");
    reader.cancel().await.unwrap();

    let client = connect(&f, &path, "kg:read,kg:regenerate").await;
    ok(&client, "kg_latest_graph", json!({"repository": REPO})).await;
    // A plan goes stale when HEAD moves.
    let plan = ok(
        &client,
        "kg_regenerate_dry_run",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    std::fs::write(
        f.repo.join("shop/util.py"),
        "def add(a, b):\n    return b + a\n",
    )
    .unwrap();
    git(&f.repo, &["commit", "-qam", "swap"]);
    let stale = support::call_tool(
        &client,
        "kg_regenerate_submit",
        json!({"plan_id": plan["plan"]["plan_id"], "confirmed_by_sr": true}),
    )
    .await
    .unwrap_err();
    assert!(
        stale.contains("plan_stale") && stale.contains("dry run again"),
        "{stale}"
    );
    // A dirty worktree needs allow_dirty, and then says so.
    std::fs::write(
        f.repo.join("shop/util.py"),
        "def add(a, b):\n    return a + b + 0\n",
    )
    .unwrap();
    let plan = ok(
        &client,
        "kg_regenerate_dry_run",
        json!({"repository": REPO, "branch": "main"}),
    )
    .await;
    assert_eq!(plan["plan"]["worktree_dirty"], true);
    assert!(
        plan["warnings"][0]
            .as_str()
            .unwrap()
            .contains("allow_dirty"),
        "{plan}"
    );
    let plan_id = plan["plan"]["plan_id"].clone();
    let dirty = support::call_tool(
        &client,
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
    )
    .await
    .unwrap_err();
    assert!(dirty.contains("dirty_not_allowed"), "{dirty}");
    let done = ok(
        &client,
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true, "allow_dirty": true}),
    )
    .await;
    assert_eq!(done["regeneration"]["status"], "ready", "{done}");
    assert!(
        done["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("uncommitted")),
        "{done}"
    );
    // The compat tool needs the plan too.
    let no_plan = support::call_tool(
        &client,
        "kg_regenerate",
        json!({"repository": REPO, "branch": "main", "dry_run": false, "confirmed_by_sr": true}),
    )
    .await
    .unwrap_err();
    assert!(no_plan.contains("plan_required"), "{no_plan}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn freshness_verdicts_and_local_path_refusals() {
    let Some(path) = analyser_path() else { return };
    let f = fixture();
    let client = connect(&f, &path, "kg:read,kg:local").await;
    let graph =
        ok(&client, "kg_latest_graph", json!({"repository": REPO})).await["graph"]["graph_id"]
            .clone();
    let local = json!({"graph_id": graph, "local_path": f.repo.display().to_string()});
    let verdict = |v: &Value| v["verdict"].as_str().unwrap().to_owned();

    assert_eq!(
        verdict(&ok(&client, "kg_compare_with_local_git", local.clone()).await),
        "fresh"
    );
    // A new commit in a file without findings: usable, with the evidence.
    std::fs::write(
        f.repo.join("shop/util.py"),
        "def add(a, b):\n    return b + a\n",
    )
    .unwrap();
    git(&f.repo, &["commit", "-qam", "one"]);
    let usable = ok(&client, "kg_compare_with_local_git", local.clone()).await;
    assert_eq!(verdict(&usable), "stale_but_usable", "{usable}");
    assert_eq!(usable["commits_between"], 1);
    assert_eq!(usable["changed_files"], json!(["shop/util.py"]));
    // A dirty file that carries a finding: unsafe.
    std::fs::write(f.repo.join("shop/hashing.py"), "import hashlib\n").unwrap();
    let unsafe_ = ok(&client, "kg_compare_with_local_git", local.clone()).await;
    assert_eq!(verdict(&unsafe_), "unsafe_for_patch_decision");
    assert_eq!(
        unsafe_["files_with_findings_touched"],
        json!(["shop/hashing.py"])
    );
    git(&f.repo, &["checkout", "--", "shop/hashing.py"]);
    // More commits than allowed (NEXUS_MCP_MAX_COMMITS_BEHIND=3 is the default here; 3 more).
    for i in 0..3 {
        std::fs::write(f.repo.join(format!("notes{i}.txt")), "x").unwrap();
        git(&f.repo, &["add", "."]);
        git(&f.repo, &["commit", "-qm", "more"]);
    }
    let stale = ok(&client, "kg_compare_with_local_git", json!({"graph_id": graph, "local_path": f.repo.display().to_string(), "max_commits_behind": 3})).await;
    assert_eq!(verdict(&stale), "stale", "{stale}");
    // A graph commit that is not in this history: stale, and says why (fails closed).
    let other = f.root.join("other");
    Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .arg(&other)
        .status()
        .unwrap();
    std::fs::write(other.join("x.py"), "x = 1\n").unwrap();
    git(&other, &["add", "."]);
    git(&other, &["commit", "-qm", "unrelated"]);
    let diverged = ok(
        &client,
        "kg_compare_with_local_git",
        json!({"graph_id": graph, "local_path": other.display().to_string()}),
    )
    .await;
    assert_eq!(verdict(&diverged), "stale");
    assert!(
        diverged["reasons"][0]
            .as_str()
            .unwrap()
            .contains("not in the local history"),
        "{diverged}"
    );

    // Local paths: outside the roots, `..`, a symlink escaping the roots.
    let outside = tempfile::tempdir().unwrap();
    for bad in [
        outside.path().display().to_string(),
        format!("{}/../shop", f.repo.display()),
        {
            let link = f.root.join("escape");
            std::os::unix::fs::symlink(outside.path(), &link).unwrap();
            link.display().to_string()
        },
    ] {
        let err = support::call_tool(
            &client,
            "kg_compare_with_local_git",
            json!({"graph_id": graph, "local_path": bad}),
        )
        .await
        .unwrap_err();
        assert!(err.contains("local_path_refused"), "{bad}: {err}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_are_cut_to_budget_and_continue_with_a_cursor() {
    let Some(path) = analyser_path() else { return };
    let f = fixture();
    // 120 unused imports: ruff reports each (low severity, so only with include_low).
    let imports: String = (0..120)
        .map(|i| format!("import mod_{i:03}_with_a_long_enough_name_to_weigh\n"))
        .collect();
    std::fs::write(f.repo.join("shop/noisy.py"), imports).unwrap();
    git(&f.repo, &["add", "."]);
    git(&f.repo, &["commit", "-qm", "noise"]);
    let client = connect(&f, &path, "kg:read").await;
    let args =
        json!({"repository": REPO, "include_low": true, "finding_type": "ruff_f401", "limit": 50});
    let first = ok(&client, "kg_list_audit_risks", args.clone()).await;
    let total = first["total"].as_u64().unwrap();
    assert_eq!(total, 120, "{first}");
    let shown = first["items"].as_array().unwrap().len();
    assert!(
        shown < 50,
        "a page of 50 long findings cannot fit 8000 characters"
    );
    assert_eq!(first["truncation"]["truncated"], true);
    assert_eq!(first["truncation"]["cuts"][0]["path"], "items");
    let cursor = first["truncation"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(first["next_cursor"], cursor.as_str());
    // Walk every page: each finding exactly once, no page over budget.
    let mut seen: Vec<String> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["finding_id"].as_str().unwrap().to_owned())
        .collect();
    let mut next = Some(cursor);
    while let Some(c) = next {
        let mut a = args.clone();
        a["cursor"] = json!(c);
        let page = ok(&client, "kg_list_audit_risks", a).await;
        seen.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["finding_id"].as_str().unwrap().to_owned()),
        );
        next = page["next_cursor"].as_str().map(str::to_owned);
    }
    let unique: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert_eq!((seen.len(), unique.len()), (120, 120));
    let bad = support::call_tool(
        &client,
        "kg_list_audit_risks",
        json!({"repository": REPO, "cursor": "not-a-cursor"}),
    )
    .await
    .unwrap_err();
    assert!(bad.contains("not a cursor this server issued"), "{bad}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pruned_graph_says_so_and_names_the_newest() {
    let Some(path) = analyser_path() else { return };
    let f = fixture();
    let client = connect_with(
        &f,
        &path,
        "kg:read,kg:regenerate",
        &[("NEXUS_LITE_KEEP_GRAPHS", "2")],
    )
    .await;
    let first = ok(&client, "kg_latest_graph", json!({"repository": REPO})).await;
    let first = first["graph"]["graph_id"].as_str().unwrap().to_owned();
    // Two regenerations: the second one's answer still compares with the graph before it.
    let mut newest = String::new();
    for body in ["return b + a", "return a + b"] {
        std::fs::write(
            f.repo.join("shop/util.py"),
            format!("def add(a, b):\n    {body}\n"),
        )
        .unwrap();
        git(&f.repo, &["commit", "-qam", body]);
        let plan = ok(
            &client,
            "kg_regenerate_dry_run",
            json!({"repository": REPO, "branch": "main"}),
        )
        .await;
        let done = ok(
            &client,
            "kg_regenerate_submit",
            json!({"plan_id": plan["plan"]["plan_id"], "confirmed_by_sr": true}),
        )
        .await;
        newest = done["regeneration"]["graph_id"]
            .as_str()
            .unwrap()
            .to_owned();
    }
    // The rule runs once the run is reported; until then the first graph still answers.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pruned = loop {
        let asked = json!({"graph_id": first, "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/hashing.py", "line": 5});
        if let Err(e) = support::call_tool(&client, "kg_get_audit_risk", asked).await {
            break e;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{first} was never pruned"
        );
        tokio::task::yield_now().await;
    };
    assert!(
        pruned.contains("graph_pruned") && pruned.contains(&newest),
        "{pruned}"
    );
    // The same proof resolves against the graph the error names.
    let packet = ok(
        &client,
        "kg_get_audit_risk",
        json!({"graph_id": newest, "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/hashing.py", "line": 5}),
    )
    .await;
    assert_eq!(packet["status"], "ready", "{packet}");
    client.cancel().await.unwrap();
}
