//! `nexus-mcp view`, the read-only web viewer, as people use it: in headless Chromium (Debian's,
//! driven by playwright-core from tests/browser/pages.mjs), on a real Backlog.md folder, where
//! what the pages show equals what the MCP tools answer; on hostile content, which runs no
//! script; and behind its access rule, which never takes an MCP key (nor MCP a viewer token).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use support::HttpServer;

const VIEWER_TOKEN: &str = "nxv_0123456789abcdef0123";

/// `nexus-mcp view` on `workspace` (NAME=PATH), its local Nexus in a data directory of its own.
fn viewer(workspace: &str, extra: &[&str]) -> HttpServer {
    viewer_of(&[&["--workspace", workspace], extra].concat())
}

/// `nexus-mcp view ARGS`, its local Nexus in a data directory of its own.
fn viewer_of(args: &[&str]) -> HttpServer {
    let data = tempfile::tempdir().unwrap();
    let port = support::free_port();
    let mut cmd = Command::new(support::bin());
    cmd.args(["view", "--listen", &format!("127.0.0.1:{port}")])
        .args(args)
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    HttpServer::launch_until(&mut cmd, port, None, data, "nexus-mcp viewer on")
}

/// One nexus-doc-kg tool call on the viewer's own local Nexus (same data directory).
fn mcp_answer(server: &HttpServer, workspace: &str, tool: &str, arguments: Value) -> Value {
    surface_answer(
        server,
        "nexus-doc-kg",
        &["--workspace", workspace],
        tool,
        arguments,
    )
}

/// One tool call of `surface` through local stdio's dispatch (`nexus-mcp call`), registering
/// `register` with the viewer's local Nexus (same data directory).
fn surface_answer(
    server: &HttpServer,
    surface: &str,
    register: &[&str],
    tool: &str,
    arguments: Value,
) -> Value {
    let out = Command::new(support::bin())
        .args(["--surface", surface, "call", tool, &arguments.to_string()])
        .args(register)
        .arg("--data-dir")
        .arg(server.data_dir())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs the browser over `visits`; `None` when no browser is installed (a skip, or a failure
/// under NEXUS_MCP_REQUIRE_CLIENTS).
fn browse(server: &HttpServer, visits: Value, cookie: Option<Value>, test: &str) -> Option<()> {
    let browser = support::require(
        support::browser(),
        "Chromium and playwright-core (.ci/setup installs both)",
        test,
    )?;
    let screenshots = std::env::var("NEXUS_MCP_SCREENSHOTS").ok();
    let spec = json!({
        "base": server.url(""),
        "chromium": browser.chromium,
        "modules": browser.modules,
        "screenshots": screenshots,
        "cookie": cookie,
        "visits": visits,
    });
    let out = support::run_bounded(
        Command::new(&browser.node)
            .arg(support::root().join("tests/browser/pages.mjs"))
            .arg(spec.to_string()),
        Duration::from_secs(180),
        "the browser",
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the browser saw a problem:\n{text}\n--- viewer stderr ---\n{}",
        server.stderr()
    );
    eprintln!("{text}");
    Some(())
}

/// The ariadne Backlog.md folder with one dependency added so that TASK-195.6 and TASK-195.7
/// depend on each other: a real folder with one cycle.
fn ariadne_with_a_cycle(dir: &Path) -> std::path::PathBuf {
    let root = support::corpora::corpus(dir, "ariadne-backlog");
    let file = support::corpora::task_file(&root, "task-195.6 ");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen("dependencies:\n", "dependencies:\n  - TASK-195.7\n", 1);
    assert_ne!(text, edited, "task-195.6 lists its dependencies");
    std::fs::write(&file, edited).unwrap();
    support::git(&root, &["add", "-A"]);
    support::git(&root, &["commit", "-qm", "a cycle"]);
    root
}

#[test]
fn the_documentation_graph_shows_what_the_tools_answer_on_a_real_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = ariadne_with_a_cycle(tmp.path());
    let workspace = format!("ariadne={}", root.display());
    let server = viewer(&workspace, &[]);

    let audit = mcp_answer(&server, &workspace, "validate_traceability", json!({}));
    assert_eq!(audit["counts"]["cycles"], 1, "the edit made one cycle");
    let mut expect =
        vec![json!({"selector": "#health-score", "text": audit["healthScore"].to_string()})];
    for (name, n) in audit["counts"].as_object().unwrap() {
        expect.push(json!({"selector": format!("[data-count={name}]"), "text": n.to_string()}));
    }
    let criteria = mcp_answer(
        &server,
        &workspace,
        "get_acceptance_criteria",
        json!({"taskId": "TASK-195.7"}),
    );
    let all = criteria["criteria"].as_array().unwrap();
    let checked = all.iter().filter(|c| c["checked"] == true).count();
    let search = mcp_answer(
        &server,
        &workspace,
        "search_nodes",
        json!({"query": "persistence", "limit": 50}),
    );

    let visits = json!([
        {"path": "/docs", "expect": [{"selector": "#workspaces", "contains": "ariadne"}]},
        {"path": "/docs/ariadne", "expect": expect,
         "count": [{"selector": "#cat-cycles li.cycle", "n": 1}],
         "screenshot": "viewer-audit.png"},
        {"path": "/docs/ariadne/node/TASK-195.7?depth=2",
         "expect": [
            {"selector": "#node-title", "contains": "Persistence test suite"},
            {"selector": "#cycles", "contains": "TASK-195.6"},
         ],
         "count": [
            {"selector": "svg .edge.cycle", "min": 2},
            {"selector": "svg a.node.cycle[data-id='TASK-195.6']", "n": 1},
            {"selector": "svg a.node.cycle[data-id='TASK-195.7']", "n": 1},
            {"selector": "#criteria li", "n": all.len()},
            {"selector": "#criteria li.checked", "n": checked},
         ],
         "screenshot": "viewer-task.png",
         "click": "svg a.node[data-id='TASK-195.6']",
         "arrive": "/docs/ariadne/node/TASK-195.6"},
        {"path": "/docs/ariadne/search?q=persistence",
         "count": [{"selector": "#results li", "n": search["items"].as_array().unwrap().len()}]},
    ]);
    browse(
        &server,
        visits,
        None,
        "the_documentation_graph_shows_what_the_tools_answer_on_a_real_folder",
    );
}

/// A token the pages must never show (the secret filter shared with MCP answers redacts it).
const SECRET: &str = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";

/// Script in every place a folder can put text: titles, bodies, criteria, links, file names.
const PAYLOADS: [&str; 6] = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<svg onload=alert(3)><circle r=1 /></svg>",
    "\"><iframe src=javascript:alert(4)>",
    "<a href=\"javascript:alert(5)\">x</a>",
    "' onmouseover='alert(6)",
];

fn hostile_folder(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("hostile");
    let tasks = root.join("backlog/tasks");
    std::fs::create_dir_all(&tasks).unwrap();
    for (i, payload) in PAYLOADS.iter().enumerate() {
        let n = i + 1;
        let title = payload.replace('"', "\\\"");
        let body = format!(
            "---\nid: task-{n}\ntitle: \"{title}\"\nstatus: To Do\ndependencies:\n  - task-{next}\n  - \"{title}\"\n---\n\n## Description\n\n{payload}\n\nAPI_KEY = \"{SECRET}\"\n\n[click me](javascript:alert({n})) [data](data:text/html,<script>alert(1)</script>) <javascript:alert(7)>\n\n![pic](https://evil.example/{n}.png)\n\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [ ] #1 {payload}\n- [x] #2 done {payload}\n<!-- AC:END -->\n",
            next = n % PAYLOADS.len() + 1,
        );
        let safe_name: String = payload
            .chars()
            .map(|c| if c == '/' { '_' } else { c })
            .collect();
        std::fs::write(tasks.join(format!("task-{n} - {safe_name}.md")), body).unwrap();
    }
    support::corpora::commit_folder(&root, "hostile");
    root
}

#[test]
fn hostile_content_runs_no_script_and_reads_as_text() {
    let tmp = tempfile::tempdir().unwrap();
    let root = hostile_folder(tmp.path());
    let server = viewer(&format!("hostile={}", root.display()), &[]);
    let mut visits = vec![
        json!({"path": "/docs"}),
        json!({"path": "/docs/hostile", "count": [{"selector": "#cat-cycles li.cycle", "min": 1}]}),
        json!({"path": "/docs/hostile?kind=brokenLinks"}),
        json!({"path": format!("/docs/hostile/search?q={}", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
               // The query comes back as text, not markup.
               "expect": [{"selector": "main > p", "contains": "for “<script>alert(1)</script>”"}]}),
        json!({"path": "/docs/hostile/search?q=alert"}),
        json!({"path": "/docs/hostile/node/%3Cscript%3E", "status": 404,
               "expect": [{"selector": "#error", "contains": "<script>"}]}),
    ];
    for (i, payload) in PAYLOADS.iter().enumerate() {
        visits.push(json!({
            "path": format!("/docs/hostile/node/task-{}?depth=3", i + 1),
            "expect": [
                {"selector": "#node-title", "contains": payload},
                {"selector": "#body", "contains": "[REDACTED]"},
            ],
            "count": [
                {"selector": "#body script, #body img, #body iframe, #body svg", "n": 0},
                {"selector": "a[href^='javascript:' i], a[href^='data:' i]", "n": 0},
                {"selector": "#criteria li", "n": 2},
            ],
            "screenshot": if i == 0 { Some("viewer-hostile.png") } else { None },
        }));
    }
    browse(
        &server,
        Value::Array(visits),
        None,
        "hostile_content_runs_no_script_and_reads_as_text",
    );
    let (status, page) = get(&server, "/docs/hostile/node/task-1", &[]);
    assert_eq!(status, 200);
    assert!(!page.contains(SECRET), "a secret reached the page");
}

/// The code graph of a real project (the requests 2.32.3 sdist under NEXUS_LITE_SDIST_TEST=1, as
/// CI runs it; else the fixture): its summary and an impact view, against nexus-code-kg's own
/// answers for the same graph.
#[test]
fn the_code_graph_shows_what_kg_impact_answers() {
    let (fixture, target) = if support::sdist::wanted("requests==2.32.3") {
        let tmp = tempfile::tempdir().unwrap();
        let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
        let repo = support::sdist::fetch(&python, "requests==2.32.3", tmp.path());
        support::corpora::commit_folder(&repo, "requests 2.32.3 as released");
        (
            support::Fixture::from_repo(tmp, repo),
            "src/requests/utils.py",
        )
    } else {
        (support::fixture_repo(), "shop/crypto.py")
    };
    let repo_arg = fixture.repo_arg();
    let server = viewer_of(&["--repo", &repo_arg]);
    let register = ["--repo", repo_arg.as_str()];
    let code = |tool: &str, arguments: Value| {
        surface_answer(&server, "nexus-code-kg", &register, tool, arguments)
    };
    let repository = support::REPO_NAME;
    let latest = code("kg_latest_graph", json!({"repository": repository}));
    let graph_id = latest["graph"]["graph_id"].as_str().unwrap().to_owned();
    let summary = code("kg_graph_summary", json!({"graph_id": graph_id}));
    let mut expect = vec![json!({"selector": "#verdict", "text": latest["freshness"]["verdict"]})];
    for (severity, n) in summary["findings_by_severity"].as_object().unwrap() {
        expect.push(
            json!({"selector": format!("[data-severity={severity}]"), "text": n.to_string()}),
        );
    }
    // kg_impact, every page, in its order.
    let mut items = Vec::new();
    let mut arguments = json!({"graph_id": graph_id, "path": target, "depth": 2});
    let first = loop {
        let page = code("kg_impact", arguments.clone());
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(cursor) if items.len() < 200 => arguments["cursor"] = json!(cursor),
            _ => break page,
        }
    };
    assert!(items.len() >= 2, "{first}");
    let shown = items.len().min(200);
    let mut rows = vec![
        json!({"selector": "#impact-total", "text": first["total"].to_string()}),
        json!({"selector": "#impact-risk", "text": first["risk"]}),
        json!({"selector": "#impact-completeness", "text": first["completeness"]}),
    ];
    let text = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for (k, item) in items.iter().take(shown).enumerate() {
        for (column, field) in ["depth", "path", "symbol", "via", "resolution", "confidence"]
            .iter()
            .enumerate()
        {
            rows.push(json!({
                "selector": format!("#impact tbody tr:nth-child({}) td:nth-child({})", k + 1, column + 1),
                "text": text(&item[*field]),
            }));
        }
    }
    let impact = format!(
        "/code/impact?repository={}&graph_id={graph_id}&path={}&depth=2",
        repository.replace('/', "%2F"),
        target.replace('/', "%2F")
    );
    browse(
        &server,
        json!([
            {"path": "/code", "expect": [{"selector": "#repositories", "contains": repository}]},
            {"path": format!("/code/repository?name={}", repository.replace('/', "%2F")),
             "expect": expect, "screenshot": "viewer-code.png"},
            {"path": impact, "expect": rows,
             "count": [{"selector": "#impact tbody tr", "n": shown}],
             "screenshot": "viewer-impact.png"},
        ]),
        None,
        "the_code_graph_shows_what_kg_impact_answers",
    );
}

/// `nexus-mcp ARGS` on the viewer's local Nexus, as the fixture repository `acme/shop` at `repo`.
fn command(server: &HttpServer, repo: &Path, args: &[&str]) -> std::process::Output {
    Command::new(support::bin())
        .args(args)
        .arg("--data-dir")
        .arg(server.data_dir())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .current_dir(repo)
        .output()
        .unwrap()
}

/// The rules dashboard of a real project's agent rules (the fastmcp-rules corpus: AGENTS.md,
/// Cursor rules, skills) after two gate runs (one failing on bandit B602, one passing after the
/// fix), an agent's self-checks (failing, then passing in the same session), a skill fetched
/// and a rule proposed by an agent: its numbers equal `nexus-mcp rules stats --json`.
#[test]
fn the_rules_dashboard_shows_what_rules_stats_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = support::corpora::corpus(tmp.path(), "fastmcp-rules");
    let name = support::REPO_NAME;
    let server = viewer_of(&["--repo", &format!("{name}={}", repo.display())]);
    let ok = |out: std::process::Output, what: &str| -> String {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{what}: {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    // Skills and proposals are capabilities: reached through `use_capability`, as agents do.
    let capability =
        |name: &str, arguments: Value| json!({"capability": name, "arguments": arguments});
    let rules = |tool: &str, arguments: Value| -> Value {
        let out = command(
            &server,
            &repo,
            &[
                "--surface",
                "nexus-rules",
                "call",
                tool,
                &arguments.to_string(),
                "--repo",
                &format!("{name}={}", repo.display()),
                "--scopes",
                "rules:read,rules:report,rules:propose",
            ],
        );
        assert!(
            out.status.success(),
            "{tool}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let gate = |pr: &str| {
        ok(
            command(
                &server,
                &repo,
                &[
                    "gate",
                    "--base",
                    "HEAD~1",
                    "--head",
                    "HEAD",
                    "--pr",
                    pr,
                    "--repo",
                    ".",
                    "--repository",
                    name,
                ],
            ),
            "gate",
        )
    };
    std::fs::write(repo.join("app.py"), support::SAFE).unwrap();
    // A rule whose heading carries script: its title is shown in the table, as text.
    let mut claude = std::fs::read_to_string(repo.join("CLAUDE.md")).unwrap();
    claude.push_str("\n## Hostile `<img src=x onerror=alert(9)>` rule\n\nNever run this.\n");
    std::fs::write(repo.join("CLAUDE.md"), claude).unwrap();
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-qm", "app"]);
    std::fs::write(repo.join("app.py"), support::SHELL).unwrap();
    support::git(&repo, &["commit", "-qam", "run through a shell"]);
    let check = |pass: bool| {
        rules(
            "report_check",
            json!({"sessionId": "feature-shell", "repository": name, "results": [{"ruleId": "bandit:B602", "pass": pass}]}),
        )
    };
    check(false);
    assert!(gate("7").contains("FAILED"));
    std::fs::write(repo.join("app.py"), support::SAFE).unwrap();
    support::git(&repo, &["commit", "-qam", "no shell"]);
    check(true);
    gate("7");
    let skills = rules(
        "use_capability",
        capability("list_skills", json!({"repository": name})),
    );
    let skill = skills["skills"][0]["name"].as_str().unwrap().to_owned();
    rules(
        "use_capability",
        capability("get_skill", json!({"repository": name, "name": skill})),
    );
    rules(
        "use_capability",
        capability(
            "propose_rule",
            json!({"repository": name, "title": "Never pass shell=True to subprocess", "body": "Use a list of arguments.", "rationale": "bandit B602 broke the gate on pr 7 <script>alert(1)</script><img src=x onerror=alert(2)>"}),
        ),
    );

    let rules_stats = |window: &[&str]| -> Value {
        let args = [
            &[
                "rules",
                "stats",
                "--json",
                "--repo",
                ".",
                "--repository",
                name,
            ][..],
            window,
        ]
        .concat();
        serde_json::from_str(&ok(command(&server, &repo, &args), "rules stats")).unwrap()
    };
    let stats = rules_stats(&[]);
    let columns = [
        "timesBroken",
        "gateRunsBroken",
        "gateViolations",
        "selfCheckFailures",
        "timesFixed",
        "fixedBeforeCommit",
        "fixedInPr",
        "claimed",
        "witnessed",
        "disputed",
    ];
    let mut expect = Vec::new();
    let mut rows = 0;
    for rule in stats["rules"].as_array().unwrap() {
        rows += 1;
        for c in columns {
            expect.push(json!({
                "selector": format!("#rule-stats tr[data-rule='{}'] td[data-col={c}]", rule["ruleId"].as_str().unwrap()),
                "text": rule[c].to_string(),
            }));
        }
    }
    for c in columns {
        expect.push(json!({"selector": format!("#rule-totals td[data-col={c}]"), "text": stats["totals"][c].to_string()}));
    }
    let b602 = stats["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "bandit:B602")
        .unwrap_or_else(|| panic!("{stats:#}"));
    assert_eq!(b602["gateRunsBroken"], 1, "{b602}");
    assert_eq!(b602["selfCheckFailures"], 1, "{b602}");
    assert!(b602["timesFixed"].as_i64().unwrap() >= 1, "{b602}");
    expect.push(json!({"selector": format!("[data-fetches='{skill}']"), "text": "1"}));
    expect.push(json!({"selector": "#proposals li", "contains": "Never pass shell=True"}));
    expect.push(json!({"selector": "#proposals .badge.ai", "text": "AI-generated"}));
    // An agent's text is shown as text (the browser fails the visit on any script or request).
    expect
        .push(json!({"selector": "#proposals .snippet", "contains": "<script>alert(1)</script>"}));
    expect.push(
        json!({"selector": "#rule-stats", "contains": "Hostile <img src=x onerror=alert(9)> rule"}),
    );
    // Over time: the totals of the last 7 and 30 days beside all time, as `--days` counts them.
    for (label, window) in [
        ("last 7 days", &["--days", "7"][..]),
        ("last 30 days", &["--days", "30"]),
        ("all time", &[]),
    ] {
        let totals = rules_stats(window)["totals"].clone();
        for c in [
            "gateRuns",
            "checks",
            "timesBroken",
            "timesFixed",
            "witnessed",
            "disputed",
        ] {
            expect.push(json!({
                "selector": format!("#trend tr[data-window='{label}'] td[data-col={c}]"),
                "text": totals[c].to_string(),
            }));
        }
    }
    let dashboard = format!("/rules/repository?name={}", name.replace('/', "%2F"));
    let runs = support::http_request(server.addr, "GET", &dashboard, &[], "").1;
    let failing = runs
        .split("/rules/run?")
        .nth(2)
        .and_then(|rest| rest.split('"').next())
        .map(|q| {
            format!(
                "/rules/run?{}",
                q.replace("&amp;", "&").replace("&#x2f;", "%2F")
            )
        })
        .unwrap_or_else(|| panic!("two runs listed: {runs}"));
    browse(
        &server,
        json!([
            {"path": dashboard, "expect": expect,
             "count": [{"selector": "#rule-stats tbody tr", "n": rows}, {"selector": "#gate-runs tbody tr", "n": 2}],
             "screenshot": "viewer-rules.png"},
            {"path": format!("{dashboard}&days=30"), "expect": [
                {"selector": "#window", "text": "the last 30 days"},
                {"selector": "#rule-totals td[data-col=timesBroken]", "text": rules_stats(&["--days", "30"])["totals"]["timesBroken"].to_string()},
             ]},
            {"path": failing, "expect": [
                {"selector": "#run-status", "text": "failed"},
                {"selector": "#violations tbody tr td", "text": "app.py:5"},
             ], "screenshot": "viewer-run.png",
             // The violation opens its file at its line, as the code graph has it.
             "click": "#violations tbody tr td a", "arrive": "/code/file"},
            {"path": format!("/code/file?repository={}&path=app.py&line=5", name.replace('/', "%2F")), "expect": [
                {"selector": "#file-path", "text": "app.py"},
                {"selector": "#snippet .line.at", "contains": "subprocess.run([cmd], check=True)"},
             ], "screenshot": "viewer-file.png"},
        ]),
        None,
        "the_rules_dashboard_shows_what_rules_stats_answers",
    );
}

fn get(server: &HttpServer, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    support::http_request(server.addr, "GET", path, headers, "")
}

#[test]
fn the_viewer_takes_no_mcp_key_and_mcp_takes_no_viewer_token() {
    let tmp = tempfile::tempdir().unwrap();
    let root = hostile_folder(tmp.path());
    let workspace = format!("hostile={}", root.display());

    // Loopback only: this machine's name, GET only, and an MCP key is refused outright.
    let local = viewer(&workspace, &[]);
    assert_eq!(get(&local, "/docs", &[]).0, 200);
    assert_eq!(get(&local, "/docs", &[("Host", "localhost")]).0, 200);
    assert_eq!(get(&local, "/docs", &[("Host", "evil.example")]).0, 403);
    let (status, body) = get(&local, "/docs", &[("X-MCP-API-KEY", "k")]);
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("MCP keys are not accepted here"), "{body}");
    let posted = support::http_request(local.addr, "POST", "/docs", &[], "{}");
    assert_eq!(posted.0, 405);

    // With a token: nothing without it, the login link sets it as a cookie.
    let token_file = tmp.path().join("viewer-token");
    std::fs::write(&token_file, format!("{VIEWER_TOKEN}\n")).unwrap();
    let guarded = viewer(&workspace, &["--token-file", token_file.to_str().unwrap()]);
    assert_eq!(get(&guarded, "/docs", &[]).0, 401);
    let bearer = format!("Bearer {VIEWER_TOKEN}");
    assert_eq!(get(&guarded, "/docs", &[("Authorization", &bearer)]).0, 200);
    assert_eq!(get(&guarded, "/login?token=nxv_wrong", &[]).0, 401);
    let (status, _) = get(&guarded, &format!("/login?token={VIEWER_TOKEN}"), &[]);
    assert_eq!(status, 303);
    let cookie = format!("nexus_viewer={VIEWER_TOKEN}");
    assert_eq!(get(&guarded, "/docs", &[("Cookie", &cookie)]).0, 200);
    // An MCP key is refused even beside a valid viewer token.
    assert_eq!(
        get(
            &guarded,
            "/docs",
            &[("Cookie", &cookie), ("X-MCP-API-KEY", "mcp-key")]
        )
        .0,
        401
    );
    // The browser, logged in by its cookie, reads the pages.
    browse(
        &guarded,
        json!([{"path": "/docs/hostile", "expect": [{"selector": "h1", "text": "hostile"}]}]),
        Some(json!({"name": "nexus_viewer", "value": VIEWER_TOKEN})),
        "the_viewer_takes_no_mcp_key_and_mcp_takes_no_viewer_token",
    );

    // A viewer token never opens MCP: refused as a request's key, and as a server's key.
    let fixture = support::fixture_repo();
    let mcp = HttpServer::start(
        &fixture,
        support::HttpOptions {
            key: Some("mcp-key-0123456789".into()),
            ..Default::default()
        },
    );
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string();
    let headers = |key: &'static str| {
        vec![
            ("X-MCP-API-KEY", key),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ]
    };
    let ok = support::http_request(
        mcp.addr,
        "POST",
        "/mcp",
        &headers("mcp-key-0123456789"),
        &init,
    );
    assert_eq!(ok.0, 200, "{}", ok.1);
    let refused = support::http_request(mcp.addr, "POST", "/mcp", &headers(VIEWER_TOKEN), &init);
    assert_eq!(refused.0, 401, "{}", refused.1);
    let out = Command::new(support::bin())
        .args(["serve", "--transport", "http", "--listen", "127.0.0.1:0"])
        .env("NEXUS_MCP_API_KEY", VIEWER_TOKEN)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("marks a viewer token"), "{stderr}");

    // Off this machine without a token: refused at start.
    let out = Command::new(support::bin())
        .args(["view", "--listen", "0.0.0.0:0"])
        .arg("--workspace")
        .arg(&workspace)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a loopback address"), "{stderr}");
}
