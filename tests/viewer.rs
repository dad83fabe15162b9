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
    let data = tempfile::tempdir().unwrap();
    let port = support::free_port();
    let mut cmd = Command::new(support::bin());
    cmd.args(["view", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--workspace", workspace])
        .arg("--data-dir")
        .arg(data.path())
        .args(extra)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    HttpServer::launch_until(&mut cmd, port, None, data, "nexus-mcp viewer on")
}

/// One nexus-doc-kg tool call on the viewer's own local Nexus (same data directory).
fn mcp_answer(server: &HttpServer, workspace: &str, tool: &str, arguments: Value) -> Value {
    let data = server.data_dir();
    let out = Command::new(support::bin())
        .args([
            "--surface",
            "nexus-doc-kg",
            "call",
            tool,
            &arguments.to_string(),
        ])
        .args(["--workspace", workspace])
        .arg("--data-dir")
        .arg(data)
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
            "---\nid: task-{n}\ntitle: \"{title}\"\nstatus: To Do\ndependencies:\n  - task-{next}\n  - \"{title}\"\n---\n\n## Description\n\n{payload}\n\n[click me](javascript:alert({n})) [data](data:text/html,<script>alert(1)</script>) <javascript:alert(7)>\n\n![pic](https://evil.example/{n}.png)\n\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [ ] #1 {payload}\n- [x] #2 done {payload}\n<!-- AC:END -->\n",
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
               "expect": [{"selector": "form.search input", "text": ""}]}),
        json!({"path": "/docs/hostile/search?q=alert"}),
        json!({"path": "/docs/hostile/node/%3Cscript%3E", "status": 404,
               "expect": [{"selector": "#error", "contains": "<script>"}]}),
    ];
    for (i, payload) in PAYLOADS.iter().enumerate() {
        visits.push(json!({
            "path": format!("/docs/hostile/node/task-{}?depth=3", i + 1),
            "expect": [{"selector": "#node-title", "contains": payload}],
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
