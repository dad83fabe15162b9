//! Real third-party MCP clients against the real nexus-mcp binary: the Python SDK (stdio and
//! Streamable HTTP), the official conformance suite (HTTP), the MCP Inspector CLI (legacy SSE)
//! and curl (authentication). `bash .ci/setup` installs the clients; without them each test
//! prints why it is skipped, unless NEXUS_MCP_REQUIRE_CLIENTS=1 (CI) makes that a failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/conformance_backend.rs"]
mod conformance_backend;
mod support;

use serde_json::{Value, json};
use std::process::{Command, Output};
use std::time::Duration;
use support::{HttpOptions, HttpServer, REPO_NAME};

const KEY: &str = "client-test-key-8f1c2e0a9b7d";

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status.code(),
        clip(&String::from_utf8_lossy(&out.stdout)),
        clip(&String::from_utf8_lossy(&out.stderr))
    )
}

const PYTHON_WHAT: &str = "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)";

/// Keeps failure messages readable: the head and the tail of long output.
fn clip(s: &str) -> String {
    const MAX: usize = 6000;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let head = s
        .char_indices()
        .take_while(|(i, _)| *i < MAX / 2)
        .map(|(_, c)| c)
        .collect::<String>();
    let tail_start = s
        .char_indices()
        .map(|(i, _)| i)
        .find(|i| *i >= s.len() - MAX / 2)
        .unwrap_or(0);
    format!(
        "{head}\n[... {} bytes cut ...]\n{}",
        s.len() - MAX,
        &s[tail_start..]
    )
}

fn python_script() -> std::path::PathBuf {
    support::root().join("tests/clients/python_client.py")
}

/// The Python SDK over stdio; `mode` is the SDK's protocol mode: `legacy` (initialize
/// handshake, 2025-11-25) or `auto` (its default: 2026-07-28 when the server offers it).
fn python_stdio(mode: &str, test: &str) {
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, test) else {
        return;
    };
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let out = support::run_bounded(
        Command::new(py)
            .arg(python_script())
            .args(["stdio", "--mode", mode, "--binary"])
            .arg(support::bin())
            .arg("--repo")
            .arg(fixture.repo_arg())
            .arg("--data-dir")
            .arg(data.path())
            .arg("--head")
            .arg(&fixture.head)
            .env("PATH", support::tool_path())
            .env_remove("NEXUS_API_URL"),
        Duration::from_secs(240),
        "python client (stdio)",
    );
    assert!(
        out.status.success(),
        "the Python SDK ({mode}) over stdio found a problem:\n{}",
        show(&out)
    );
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
}

/// The Python SDK over Streamable HTTP with the key in X-MCP-API-KEY.
/// `threads`: the legacy-mode test also runs the server on the multi-threaded runtime.
fn python_http(mode: &str, threads: Option<u16>, test: &str) {
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, test) else {
        return;
    };
    let fixture = support::fixture_repo();
    let server = HttpServer::start(
        &fixture,
        HttpOptions {
            key: Some(KEY.into()),
            threads,
            ..Default::default()
        },
    );
    let out = support::run_bounded(
        Command::new(py)
            .arg(python_script())
            .args(["http", "--mode", mode, "--url"])
            .arg(server.url("/mcp"))
            .arg("--repository")
            .arg(REPO_NAME)
            .arg("--head")
            .arg(&fixture.head)
            .env("NEXUS_MCP_TEST_KEY", KEY),
        Duration::from_secs(240),
        "python client (http)",
    );
    assert!(
        out.status.success(),
        "the Python SDK ({mode}) over Streamable HTTP found a problem:\n{}\n--- server stderr ---\n{}",
        show(&out),
        clip(&server.stderr())
    );
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn python_sdk_over_stdio() {
    python_stdio("legacy", "python_sdk_over_stdio");
}

#[test]
fn python_sdk_over_streamable_http() {
    python_http("legacy", Some(2), "python_sdk_over_streamable_http");
}

/// `mcp.Client(...)` with no mode argument negotiates 2026-07-28, where every result must
/// carry `resultType`.
#[test]
fn python_sdk_default_mode_over_stdio() {
    python_stdio("auto", "python_sdk_default_mode_over_stdio");
}

#[test]
fn python_sdk_default_mode_over_streamable_http() {
    python_http("auto", None, "python_sdk_default_mode_over_streamable_http");
}

/// The requirement sets of MCP revisions the conformance suite checks a server against: each
/// run is scored on exactly the scenarios that revision requires, on its own wire version.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// Runs the suite's server scenarios required by each revision against `url`. The scenarios
/// this server is expected to fail are listed, with their reasons, in
/// `tests/conformance/<name>-<revision>.yml`; the suite fails the run on any other failure and
/// on a listed scenario that passes. Scenarios a revision runs without scoring (extensions,
/// pending ones) are reported and never fail the run.
fn run_conformance(
    conformance: &std::path::Path,
    url: &str,
    name: &str,
    server_stderr: impl Fn() -> String,
) {
    for revision in REVISIONS {
        let results = tempfile::tempdir().unwrap();
        let baseline = support::root().join(format!("tests/conformance/{name}-{revision}.yml"));
        let out = support::run_bounded(
            Command::new(conformance)
                .args(["server", "--url", url, "--requirements", revision])
                .arg("--expected-failures")
                .arg(&baseline)
                .arg("-o")
                .arg(results.path())
                .env("PATH", support::tool_path()),
            Duration::from_secs(600),
            "conformance server --requirements",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let summary: Vec<&str> = stdout
            .lines()
            .skip_while(|l| !l.contains("=== SUMMARY ==="))
            .collect();
        eprintln!("{revision}:\n{}", summary.join("\n"));
        assert!(
            out.status.success() && stdout.contains("Baseline check passed"),
            "conformance {revision}: a scored scenario failed that is not in {} (or a listed one now passes):\n{}\n--- server stderr ---\n{}",
            baseline.display(),
            show(&out),
            clip(&server_stderr())
        );
    }
}

/// The server scenarios of @modelcontextprotocol/conformance that MCP 2025-11-25 and 2026-07-28
/// require, against the real surface. Scenarios that call the suite's own fixture
/// tools/resources/prompts are listed, with the reason, in tests/conformance/code-kg-*.yml; any
/// other failure fails this test, and so does a listed scenario that starts passing.
///
/// The suite cannot send custom headers, so the server runs with `--insecure-no-auth` on
/// 127.0.0.1; authentication is covered by `http_auth_with_curl`.
#[test]
fn conformance_server_scenarios() {
    let Some(conformance) = support::require(
        support::npm_tool("conformance"),
        "Node 22 + @modelcontextprotocol/conformance",
        "conformance_server_scenarios",
    ) else {
        return;
    };
    let fixture = support::fixture_repo();
    let server = HttpServer::start(
        &fixture,
        HttpOptions {
            insecure_no_auth: true,
            ..Default::default()
        },
    );
    run_conformance(&conformance, &server.url("/mcp"), "code-kg", || {
        server.stderr()
    });
}

/// The same requirement sets against tests/manifests/conformance.yaml served by the same binary
/// with `--manifest` over a stub backend: the suite's fixture tools, resources, resource
/// templates and prompts, from a manifest alone (questions for the client included: `ask:`).
/// What fails there is listed with its reason in tests/conformance/manifest-*.yml: the
/// revisions' unscored (extension, pending) scenarios, and resource subscriptions.
#[test]
fn conformance_scenarios_from_a_manifest() {
    let Some(conformance) = support::require(
        support::npm_tool("conformance"),
        "Node 22 + @modelcontextprotocol/conformance",
        "conformance_scenarios_from_a_manifest",
    ) else {
        return;
    };
    let backend = conformance_backend::start_backend();
    let server = conformance_backend::ManifestServer::start(
        &support::root().join("tests/manifests/conformance.yaml"),
        &backend,
    );
    run_conformance(&conformance, &server.url("/mcp"), "manifest", || {
        server.stderr()
    });
}

fn inspector(server: &HttpServer, args: &[&str]) -> Output {
    let inspector = support::npm_tool("mcp-inspector").unwrap();
    let home = tempfile::tempdir().unwrap();
    support::run_bounded(
        Command::new(inspector)
            .args([
                "--cli",
                "--format",
                "json",
                &server.url("/sse"),
                "--transport",
                "sse",
                "--header",
            ])
            .arg(format!("X-MCP-API-KEY: {KEY}"))
            .args(args)
            .env("PATH", support::tool_path())
            .env("HOME", home.path())
            .env("MCP_CATALOG_PATH", home.path().join("mcp.json"))
            .env("MCP_CLIENT_CONFIG_PATH", home.path().join("client.json")),
        Duration::from_secs(120),
        "mcp-inspector --cli",
    )
}

/// The inspector's `--format json` answer is `{"result": <the JSON-RPC result>}`.
fn json_stdout(out: &Output) -> Value {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "inspector output is not one JSON object ({e}):\n{}",
            show(out)
        )
    });
    match v.get("result") {
        Some(r) => r.clone(),
        None => panic!("inspector output has no `result`:\n{}", show(out)),
    }
}

#[test]
fn inspector_cli_over_legacy_sse() {
    if support::require(
        support::npm_tool("mcp-inspector"),
        "Node 22 + @modelcontextprotocol/inspector",
        "inspector_cli_over_legacy_sse",
    )
    .is_none()
    {
        return;
    }
    let fixture = support::fixture_repo();
    let server = keyed_server(&fixture);

    // --strict: the Inspector's schema portability check (what single-type dialects such as
    // Gemini's function declarations reject) reports nothing for any tool of any scope.
    let out = inspector(&server, &["--method", "tools/list", "--strict"]);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "inspector tools/list --strict over /sse failed or reported portability problems:\n{}\n--- server ---\n{}",
        show(&out),
        clip(&server.stderr())
    );
    let listed = json_stdout(&out);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools[] in {}", clip(&listed.to_string())))
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for want in [
        "kg_latest_graph",
        "kg_graph_summary",
        "kg_list_audit_risks",
        "kg_regenerate",
    ] {
        assert!(
            names.contains(&want),
            "inspector tools/list over /sse lacks {want}: {names:?}"
        );
    }

    let args = format!(r#"{{"repository":"{REPO_NAME}","branch":"main"}}"#);
    let out = inspector(
        &server,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "kg_latest_graph",
            "--tool-args-json",
            &args,
        ],
    );
    assert!(
        out.status.success(),
        "inspector tools/call kg_latest_graph over /sse failed:\n{}\n--- server ---\n{}",
        show(&out),
        clip(&server.stderr())
    );
    let result = json_stdout(&out);
    assert_ne!(
        result["isError"],
        Value::Bool(true),
        "kg_latest_graph returned isError: {}",
        clip(&result.to_string())
    );
    assert_eq!(
        result["structuredContent"]["graph"]["commit_sha"].as_str(),
        Some(fixture.head.as_str()),
        "kg_latest_graph over /sse did not return the fixture's HEAD: {}",
        clip(&result.to_string())
    );
}

/// The Inspector's schema portability check (`--strict`: what single-type dialects such as
/// Gemini's function declarations reject) over the doc-kg and rules tool lists, every scope.
#[test]
fn inspector_strict_finds_the_doc_kg_and_rules_tool_lists_portable() {
    if support::require(
        support::npm_tool("mcp-inspector"),
        "Node 22 + @modelcontextprotocol/inspector",
        "inspector_strict_finds_the_doc_kg_and_rules_tool_lists_portable",
    )
    .is_none()
    {
        return;
    }
    let fixture = support::fixture_repo();
    for (surface, want) in [
        ("nexus-doc-kg", "get_task_context"),
        ("nexus-rules", "use_capability"),
    ] {
        let server = HttpServer::start(
            &fixture,
            HttpOptions {
                key: Some(KEY.into()),
                surface: Some(surface),
                ..Default::default()
            },
        );
        let out = inspector(&server, &["--method", "tools/list", "--strict"]);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "inspector tools/list --strict on {surface} failed or reported portability problems:\n{}\n--- server ---\n{}",
            show(&out),
            clip(&server.stderr())
        );
        let listed = json_stdout(&out);
        assert!(
            listed["tools"]
                .as_array()
                .is_some_and(|tools| tools.iter().any(|t| t["name"] == want)),
            "{surface}: no {want} in {}",
            clip(&listed.to_string())
        );
    }
}

/// `serve --transport http` over `fixture`, with KEY as its API key.
fn keyed_server(fixture: &support::Fixture) -> HttpServer {
    HttpServer::start(
        fixture,
        HttpOptions {
            key: Some(KEY.into()),
            ..Default::default()
        },
    )
}

fn curl_status(args: &[&str]) -> u16 {
    let out = support::run_bounded(
        Command::new("curl")
            .args([
                "-s",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "--max-time",
                "30",
            ])
            .args(args),
        Duration::from_secs(60),
        "curl",
    );
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("curl printed no status:\n{}", show(&out)))
}

#[test]
fn http_auth_with_curl() {
    if support::require(support::curl(), "curl", "http_auth_with_curl").is_none() {
        return;
    }
    let fixture = support::fixture_repo();
    let server = keyed_server(&fixture);
    let mcp = server.url("/mcp");
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}"#;
    let post = |extra: &[&str]| {
        let mut args = vec![
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "-H",
            "Accept: application/json, text/event-stream",
            "--data",
            init,
        ];
        args.extend_from_slice(extra);
        args.push(&mcp);
        curl_status(&args)
    };
    assert_eq!(post(&[]), 401, "POST /mcp without a key must be refused");
    assert_eq!(
        post(&["-H", "X-MCP-API-KEY: wrong-key"]),
        401,
        "POST /mcp with a wrong X-MCP-API-KEY must be refused"
    );
    assert_eq!(
        post(&["-H", "Authorization: Bearer wrong-key"]),
        401,
        "POST /mcp with a wrong bearer key must be refused"
    );
    assert_eq!(
        curl_status(&[&server.url("/sse")]),
        401,
        "GET /sse without a key must be refused"
    );
    assert_eq!(
        curl_status(&[&server.url("/healthz")]),
        200,
        "/healthz must answer without a key"
    );
    let key_header = format!("X-MCP-API-KEY: {KEY}");
    let bearer = format!("Authorization: Bearer {KEY}");
    assert_eq!(
        post(&["-H", &key_header]),
        200,
        "initialize with the right X-MCP-API-KEY must succeed"
    );
    assert_eq!(
        post(&["-H", &bearer]),
        200,
        "initialize with the right bearer key must succeed"
    );

    // A refusal never echoes the key; the health body names the surface.
    let (status, body) = support::http_request(
        server.addr,
        "POST",
        "/mcp",
        &[("Content-Type", "application/json")],
        init,
    );
    assert_eq!(status, 401);
    assert!(!body.contains(KEY), "the 401 body leaks the key: {body}");
    let (status, body) = support::http_request(server.addr, "GET", "/healthz", &[], "");
    assert_eq!(status, 200);
    assert!(
        body.contains("nexus-code-kg"),
        "/healthz body does not name the surface: {body}"
    );
}

/// One 2026-07-28 request with curl: the per-request `_meta`, the SEP-2243 headers, no session.
/// Returns the lowercased response head and the body.
fn stateless_post(
    server: &HttpServer,
    id: u64,
    tool: &str,
    arguments: Value,
    meta: Value,
) -> (String, String) {
    let mut meta = meta;
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments, "_meta": meta,
    }})
    .to_string();
    let key_header = format!("X-MCP-API-KEY: {KEY}");
    let name_header = format!("Mcp-Name: {tool}");
    let out = support::run_bounded(
        Command::new("curl").args([
            "-s",
            "-i",
            "--max-time",
            "60",
            "-X",
            "POST",
            "-H",
            "Content-Type: application/json",
            "-H",
            "Accept: application/json, text/event-stream",
            "-H",
            "MCP-Protocol-Version: 2026-07-28",
            "-H",
            "Mcp-Method: tools/call",
            "-H",
            &name_header,
            "-H",
            &key_header,
            "--data",
            &call,
            &server.url("/mcp"),
        ]),
        Duration::from_secs(90),
        "curl (2026-07-28 tools/call)",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("curl got no HTTP response:\n{}", show(&out)));
    let head = head.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "stateless {tool}: {text}");
    assert!(
        !head.contains("mcp-session-id"),
        "a 2026-07-28 request must not open a session: {text}"
    );
    (head, body.to_owned())
}

/// A 2026-07-28 client needs no session. A result with nothing before it comes back as plain
/// JSON; a call that reports progress streams its notifications, then its result, over SSE.
#[test]
fn stateless_calls_with_curl_answer_json_or_stream_progress() {
    if support::require(
        support::curl(),
        "curl",
        "stateless_calls_with_curl_answer_json_or_stream_progress",
    )
    .is_none()
    {
        return;
    }
    let fixture = support::fixture_repo();
    let server = keyed_server(&fixture);
    let (head, body) = stateless_post(
        &server,
        7,
        "kg_latest_graph",
        json!({"repository": REPO_NAME}),
        json!({}),
    );
    assert!(
        head.contains("content-type: application/json"),
        "a stateless result with nothing before it should be plain JSON: {head}\n{body}"
    );
    let answer: Value = serde_json::from_str(&body)
        .unwrap_or_else(|e| panic!("the body is not one JSON-RPC message ({e}): {body}"));
    assert_eq!(answer["id"], 7, "{answer}");
    assert_ne!(answer["result"]["isError"], json!(true), "{answer}");
    assert!(
        answer["result"]["structuredContent"]["graph"]["commit_sha"].is_string(),
        "no graph in the stateless result: {answer}"
    );

    // Regeneration reports progress: the answer falls back to a stream that carries it.
    let (_, body) = stateless_post(
        &server,
        8,
        "kg_regenerate_dry_run",
        json!({"repository": REPO_NAME, "branch": "main"}),
        json!({}),
    );
    let plan: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let plan_id = plan["result"]["structuredContent"]["plan"]["plan_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no plan_id in the dry run: {plan}"))
        .to_owned();
    let (head, body) = stateless_post(
        &server,
        9,
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
        json!({"progressToken": "regen-9"}),
    );
    assert!(
        head.contains("content-type: text/event-stream"),
        "progress needs a stream: {head}\n{body}"
    );
    let events: Vec<Value> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect();
    let progress: Vec<&Value> = events
        .iter()
        .filter(|e| e["method"] == "notifications/progress")
        .collect();
    assert!(!progress.is_empty(), "no progress in the stream: {body}");
    assert!(
        progress
            .iter()
            .all(|p| p["params"]["progressToken"] == "regen-9"),
        "{body}"
    );
    let last = events
        .last()
        .unwrap_or_else(|| panic!("empty stream: {body}"));
    assert_eq!(last["id"], 9, "the result ends the stream: {body}");
    assert_eq!(
        last["result"]["structuredContent"]["regeneration"]["status"], "ready",
        "{body}"
    );
}

/// The server refuses to start over HTTP with no key configured (and says why).
#[test]
fn http_without_keys_refuses_to_start() {
    let data = tempfile::tempdir().unwrap();
    let fixture = support::fixture_repo();
    let out = support::run_bounded(
        Command::new(support::bin())
            .args([
                "serve",
                "--transport",
                "http",
                "--listen",
                &format!("127.0.0.1:{}", support::free_port()),
            ])
            .arg("--repo")
            .arg(fixture.repo_arg())
            .arg("--data-dir")
            .arg(data.path())
            .env_remove("NEXUS_MCP_API_KEY")
            .env_remove("NEXUS_API_URL"),
        Duration::from_secs(60),
        "nexus-mcp serve --transport http (no key)",
    );
    assert!(
        !out.status.success(),
        "served HTTP without any key:\n{}",
        show(&out)
    );
    let err = String::from_utf8_lossy(&out.stderr).to_lowercase();
    assert!(
        err.contains("key"),
        "the refusal does not mention keys:\n{}",
        show(&out)
    );
}

/// A resource subscription as the official Python SDK makes it, over Streamable HTTP against
/// tests/manifests/conformance.yaml: a 2026-07-28 `subscriptions/listen` stream and a 2025-11-25
/// `resources/subscribe` both hear that the backend changed `test://watched-resource`
/// (tests/clients/subscriptions.py).
#[test]
fn python_sdk_hears_a_subscribed_resource_change_in_both_revisions() {
    let test = "python_sdk_hears_a_subscribed_resource_change_in_both_revisions";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, test) else {
        return;
    };
    let backend = conformance_backend::start_backend();
    let server = conformance_backend::ManifestServer::start(
        &support::root().join("tests/manifests/conformance.yaml"),
        &backend,
    );
    let out = support::run_bounded(
        Command::new(py)
            .arg(support::root().join("tests/clients/subscriptions.py"))
            .arg("--url")
            .arg(server.url("/mcp"))
            .arg("--backend")
            .arg(&backend),
        Duration::from_secs(120),
        "python subscriptions client",
    );
    assert!(
        out.status.success(),
        "the Python SDK did not hear the change:\n{}\n--- server stderr ---\n{}",
        show(&out),
        clip(&server.stderr())
    );
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
}
