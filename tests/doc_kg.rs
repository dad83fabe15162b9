//! nexus-doc-kg end to end: `nexus-mcp --surface nexus-doc-kg` over the embedded nexus-lite's
//! docs domain, on git copies of the three fixture folders (nexus-lite/tests/fixtures/docs:
//! a Backlog.md task folder, a kep.yaml sidecar folder, plain Markdown). The Python MCP SDK
//! drives every tool, resource and prompt over stdio and Streamable HTTP
//! (tests/clients/doc_kg.py); this file adds what needs no client: HTTP authentication fails
//! closed, and the surfaces never mix.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tempfile::TempDir;

const PYTHON_WHAT: &str = "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)";
const KEY: &str = "doc-kg-test-key-7f3a";
const DOC_TOOLS: [&str; 8] = [
    "get_task_context",
    "get_dependency_graph",
    "validate_traceability",
    "list_tasks",
    "get_acceptance_criteria",
    "analyze_impact",
    "get_node",
    "search_nodes",
];

/// The three fixture folders copied into one tempdir, each its own committed git repository.
struct Folders {
    _dir: TempDir,
    root: PathBuf,
}

impl Folders {
    fn new() -> Folders {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical tempdir");
        for name in ["backlog", "kep", "plain"] {
            let from = support::root()
                .join("nexus-lite/tests/fixtures/docs")
                .join(name);
            assert!(
                from.is_dir(),
                "fixture folder {} is missing",
                from.display()
            );
            let to = root.join(name);
            copy_dir(&from, &to);
            support::git(&to, &["init", "-q", "-b", "main"]);
            support::git(&to, &["add", "-A"]);
            support::git(&to, &["commit", "-q", "-m", "fixture"]);
        }
        Folders { _dir: dir, root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    fn workspace_args(&self) -> Vec<String> {
        ["backlog", "kep", "plain"]
            .iter()
            .flat_map(|n| {
                [
                    "--workspace".to_owned(),
                    format!("{n}={}", self.path(n).display()),
                ]
            })
            .collect()
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}

/// `nexus-mcp --surface nexus-doc-kg serve --transport http` over the three folders; killed on drop.
struct DocServer {
    child: Child,
    addr: SocketAddr,
    _data: TempDir,
}

impl DocServer {
    fn start(folders: &Folders) -> DocServer {
        DocServer::serving(folders.workspace_args())
    }

    /// The server over `--workspace` arguments of its own.
    fn serving(workspace_args: Vec<String>) -> DocServer {
        let data = tempfile::tempdir().expect("data tempdir");
        let port = support::free_port();
        let mut child = Command::new(support::bin())
            .args(["--surface", "nexus-doc-kg", "serve", "--transport", "http"])
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .args(workspace_args)
            .arg("--data-dir")
            .arg(data.path())
            .env("PATH", support::tool_path())
            .env("NEXUS_MCP_API_KEY", KEY)
            .env_remove("NEXUS_API_URL")
            .env_remove("DOCUGRAPH_WORKSPACE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn nexus-mcp serve --transport http");
        let log = Arc::new(Mutex::new(String::new()));
        let rx = support::tee_lines(child.stderr.take().expect("piped stderr"), log.clone());
        support::wait_for_line(
            &rx,
            "nexus-mcp listening on",
            Duration::from_secs(60),
            &log,
            "nexus-doc-kg over HTTP",
        );
        DocServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            _data: data,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }
}

impl Drop for DocServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn script() -> PathBuf {
    support::root().join("tests/clients/doc_kg.py")
}

fn run(command: &mut Command, what: &str) {
    support::run_client_script(command, Duration::from_secs(180), what);
}

#[test]
fn every_tool_resource_and_prompt_over_stdio() {
    let Some(py) = support::require(
        support::python_with_mcp(),
        PYTHON_WHAT,
        "every_tool_resource_and_prompt_over_stdio",
    ) else {
        return;
    };
    let folders = Folders::new();
    let data = tempfile::tempdir().expect("data tempdir");
    run(
        Command::new(py)
            .arg(script())
            .args(["stdio", "--binary"])
            .arg(support::bin())
            .arg("--backlog")
            .arg(folders.path("backlog"))
            .arg("--data-dir")
            .arg(data.path())
            .env("PATH", support::tool_path()),
        "the Python SDK over stdio (nexus-doc-kg)",
    );
}

#[test]
fn three_workspaces_over_streamable_http() {
    let Some(py) = support::require(
        support::python_with_mcp(),
        PYTHON_WHAT,
        "three_workspaces_over_streamable_http",
    ) else {
        return;
    };
    let folders = Folders::new();
    let server = DocServer::start(&folders);
    run(
        Command::new(py)
            .arg(script())
            .args(["http", "--url"])
            .arg(server.url())
            .arg("--backlog")
            .arg(folders.path("backlog"))
            .env("NEXUS_MCP_TEST_KEY", KEY),
        "the Python SDK over Streamable HTTP (nexus-doc-kg)",
    );
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"doc_kg","version":"0"}}}"#;

fn initialize(server: &DocServer, auth: Option<(&str, &str)>) -> u16 {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    headers.extend(auth);
    support::http_request(server.addr, "POST", "/mcp", &headers, INIT).0
}

#[test]
fn http_authentication_fails_closed() {
    let folders = Folders::new();
    let server = DocServer::start(&folders);
    assert_eq!(initialize(&server, None), 401, "no key");
    assert_eq!(
        initialize(&server, Some(("X-MCP-API-KEY", "wrong"))),
        401,
        "a wrong X-MCP-API-KEY"
    );
    let bearer_wrong = format!("Bearer {KEY}x");
    assert_eq!(
        initialize(&server, Some(("Authorization", &bearer_wrong))),
        401,
        "a wrong bearer token"
    );
    assert_eq!(
        initialize(&server, Some(("X-MCP-API-KEY", KEY))),
        200,
        "the key in X-MCP-API-KEY"
    );
    let bearer = format!("Bearer {KEY}");
    assert_eq!(
        initialize(&server, Some(("Authorization", &bearer))),
        200,
        "the key as a bearer token"
    );

    // No key configured and no --insecure-no-auth: the server does not start at all.
    let out = support::run_bounded(
        Command::new(support::bin())
            .args(["--surface", "nexus-doc-kg", "serve", "--transport", "http"])
            .arg("--listen")
            .arg(format!("127.0.0.1:{}", support::free_port()))
            .arg("--workspace")
            .arg(folders.path("backlog"))
            .env_remove("NEXUS_MCP_API_KEY")
            .env_remove("NEXUS_API_URL"),
        Duration::from_secs(60),
        "nexus-doc-kg over HTTP without keys",
    );
    assert!(!out.status.success(), "an HTTP server without keys started");
}

#[test]
fn the_surfaces_never_mix() {
    let doc = nexus_mcp::surface("nexus-doc-kg").expect("nexus-doc-kg is compiled in");
    let code = nexus_mcp::surface("nexus-code-kg").expect("nexus-code-kg is compiled in");
    let doc_tools: Vec<&str> = doc.tools.iter().map(|t| t.name).collect();
    assert_eq!(doc_tools, DOC_TOOLS, "nexus-doc-kg's tools");
    assert!(
        doc.tools
            .iter()
            .all(|t| !t.name.starts_with("kg_") && t.scope == "docs:read"),
        "a code-kg tool or scope in nexus-doc-kg: {doc_tools:?}"
    );
    assert!(
        doc.tools
            .iter()
            .all(|t| t.access == nexus_mcp_runtime::spec::Access::Read),
        "nexus-doc-kg is read-only"
    );
    for t in code.tools {
        assert!(
            !DOC_TOOLS.contains(&t.name) && !t.scope.starts_with("docs:"),
            "nexus-code-kg has doc-kg's {}",
            t.name
        );
    }
    assert!(
        code.resources
            .iter()
            .all(|r| !r.uri.starts_with("docugraph://")),
        "a docugraph resource in nexus-code-kg"
    );
    assert!(
        doc.resources.iter().all(|r| {
            r.uri.starts_with("docugraph://workspace/")
                || r.uri.starts_with("docugraph://{workspace}/")
        }),
        "nexus-doc-kg serves a resource outside docugraph://workspace/ and docugraph://{{workspace}}/"
    );
}

#[test]
fn doc_kg_fits_its_tool_list_budget() {
    use nexus_mcp_runtime::tool_cost::{costs, report};
    let surface = nexus_mcp::surface("nexus-doc-kg").unwrap();
    let (costs, total) = costs(surface);
    assert_eq!(costs.len(), 8, "{costs:?}");
    let budget = surface.tool_list_budget.unwrap_or(0);
    assert!(total <= budget, "{total} > {budget}:\n{}", report(surface));
}

/// A hostile documentation workspace served over stdio by the real binary (issue 24): a sidecar
/// body linked to the server's own stdin (`/proc/self/fd/0`, the client's JSON-RPC pipe), one
/// linked to a file outside, one that is a FIFO; none is read, nothing blocks (every request is
/// bounded by the client's own timeout), and resource ids are bounded and never `..`.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_workspace_over_stdio_reads_nothing_outside_and_never_blocks() {
    use rmcp::ServiceExt;
    use rmcp::model::{ClientRequest, ReadResourceRequestParams};
    use rmcp::transport::TokioChildProcess;
    use serde_json::json;
    use std::os::unix::fs::symlink;

    let marker = "OUTSIDE-SECRET-7731";
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical tempdir");
    let outside = root.join("outside.md");
    std::fs::write(&outside, format!("# {marker}\n")).expect("outside file");
    let ws = root.join("ws");
    let files = [
        (
            ".nexus/docgraph.yaml",
            "doc_graph:\n  include: [\"keps/**/kep.yaml\"]\n  exclude: []\n  metadata:\n    sources: [sidecar]\n    sidecar: {file: kep.yaml, body: README.md}\n  id: {keys: [kep-number], fallback: [dir_name], normalize: {default_prefix: KEP}}\n",
        ),
        ("keps/1-stdin/kep.yaml", "kep-number: 1\ntitle: Stdin\n"),
        ("keps/2-outside/kep.yaml", "kep-number: 2\ntitle: Outside\n"),
        ("keps/3-fifo/kep.yaml", "kep-number: 3\ntitle: Fifo\n"),
    ];
    for (path, text) in files {
        let p = ws.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    symlink("/proc/self/fd/0", ws.join("keps/1-stdin/README.md")).expect("link to stdin");
    symlink(&outside, ws.join("keps/2-outside/README.md")).expect("link outside");
    support::git(&ws, &["init", "-q", "-b", "main"]);
    support::git(&ws, &["add", "-A"]);
    support::git(&ws, &["commit", "-q", "-m", "hostile"]);
    let fifo = ws.join("keps/3-fifo/README.md");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());

    let data = tempfile::tempdir().expect("data tempdir");
    let mut cmd = tokio::process::Command::new(support::bin());
    cmd.args(["--surface", "nexus-doc-kg", "serve", "--workspace"])
        .arg(format!("ws={}", ws.display()))
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("DOCUGRAPH_WORKSPACE");
    let client = ().serve(TokioChildProcess::new(cmd).expect("spawn")).await.expect("initialize");
    /// The client's own bound on one request: a blocked server fails the test, never hangs it.
    async fn bounded<T>(what: &str, request: impl std::future::Future<Output = T>) -> T {
        let within = Duration::from_secs(30);
        tokio::time::timeout(within, request)
            .await
            .unwrap_or_else(|_| panic!("{what}: no answer within {within:?}"))
    }

    let tasks = bounded(
        "list_tasks",
        support::call_tool(&client, "list_tasks", json!({})),
    )
    .await
    .expect("list_tasks answers");
    assert_eq!(tasks["total"], 3, "{tasks}");
    bounded(
        "ping",
        client.send_request(ClientRequest::PingRequest(Default::default())),
    )
    .await
    .expect("ping answered");
    for id in ["KEP-1", "KEP-2", "KEP-3"] {
        let node = bounded(
            "get_node",
            support::call_tool(&client, "get_node", json!({"nodeId": id})),
        )
        .await
        .expect("get_node answers");
        assert_eq!(node["node"]["markdown"], "", "{id}: {node}");
        let read = bounded(
            "resources/read",
            client.read_resource(ReadResourceRequestParams::new(format!(
                "docugraph://workspace/node/{id}"
            ))),
        )
        .await
        .expect("the node resource reads");
        assert!(!format!("{read:?}").contains(marker), "{id}: {read:?}");
    }
    let found = bounded(
        "search_nodes",
        support::call_tool(&client, "search_nodes", json!({"query": "secret"})),
    )
    .await
    .expect("search_nodes answers");
    assert_eq!(found["total"], 0, "{found}");

    // Resource ids: bounded by get_node's nodeId schema, and never a dot segment.
    let huge = "x".repeat(200_000);
    for (uri, expect) in [
        (
            format!("docugraph://workspace/node/{huge}"),
            "is longer than 200 characters",
        ),
        ("docugraph://workspace/node/..".to_owned(), "cannot be `..`"),
        ("docugraph://workspace/node/%2E".to_owned(), "cannot be `.`"),
    ] {
        let err = bounded(
            "resources/read of a hostile id",
            client.read_resource(ReadResourceRequestParams::new(uri)),
        )
        .await
        .expect_err("a hostile id is refused");
        let text = err.to_string();
        assert!(
            text.contains(expect) && text.len() < 1_500,
            "{} characters: {}",
            text.len(),
            &text[..text.len().min(1_500)]
        );
    }
    let dots = support::call_tool(&client, "get_node", json!({"nodeId": ".."}))
        .await
        .expect_err("`..` is not a node id");
    assert!(
        dots.contains("invalid_arguments") && dots.contains("cannot be `..`"),
        "{dots}"
    );
    client.cancel().await.expect("cancel");
}

/// `nexus-mcp --surface nexus-doc-kg serve` over stdio with `--workspace` each of `workspaces`,
/// driven by the Python MCP SDK (tests/clients/line_client.py); None (the test skips, or fails
/// under NEXUS_MCP_REQUIRE_CLIENTS) without Python and the `mcp` package.
fn py_doc_kg(workspaces: &[String], data: &Path, test: &str) -> Option<support::local::PySdk> {
    let py = support::require(support::python_with_mcp(), PYTHON_WHAT, test)?;
    let mut cmd = Command::new(support::bin());
    cmd.args(["--surface", "nexus-doc-kg", "serve"]);
    for w in workspaces {
        cmd.arg("--workspace").arg(w);
    }
    cmd.arg("--data-dir")
        .arg(data)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("DOCUGRAPH_WORKSPACE");
    Some(support::local::PySdk::stdio(&py, &cmd, test))
}

/// The ariadne Backlog.md corpus, unpacked and committed, with the data directory its server uses.
struct Ariadne {
    _dirs: (TempDir, TempDir),
    root: PathBuf,
}

/// nexus-doc-kg on the ariadne corpus, driven by the Python SDK (see [`py_doc_kg`]).
fn ariadne_agent(test: &str) -> Option<(Ariadne, support::local::PySdk)> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let data = tempfile::tempdir().expect("data tempdir");
    let client = py_doc_kg(&[root.display().to_string()], data.path(), test)?;
    Some((
        Ariadne {
            _dirs: (tmp, data),
            root,
        },
        client,
    ))
}

/// Issue 26: on a real Backlog.md folder (the ariadne corpus), list_tasks {"status":"To Do"}
/// returns exactly the live To Do tasks (counted from the files of backlog/tasks), `lifecycle`
/// reaches archived ones, marked; completions offer live ids only.
#[test]
fn list_tasks_shows_the_live_work_of_a_real_backlog() {
    use serde_json::json;
    let Some((ariadne, mut client)) =
        ariadne_agent("list_tasks_shows_the_live_work_of_a_real_backlog")
    else {
        return;
    };
    let root = &ariadne.root;
    let live_todo: Vec<PathBuf> =
        support::corpora::frontmatter_statuses(&root.join("backlog/tasks"))
            .into_iter()
            .filter(|(_, s)| s == "To Do")
            .map(|(p, _)| p)
            .collect();

    let todo = client.all_items("list_tasks", json!({"status": "To Do", "limit": 200}));
    assert_eq!(todo.len(), live_todo.len(), "live To Do tasks");
    let mut paths: Vec<String> = todo
        .iter()
        .map(|i| i["path"].as_str().unwrap().to_owned())
        .collect();
    let mut expected: Vec<String> = live_todo
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    paths.sort();
    expected.sort();
    assert_eq!(
        paths, expected,
        "list_tasks lists the files of backlog/tasks whose status is To Do"
    );
    assert!(
        todo.iter().all(|i| i.get("lifecycle").is_none()),
        "a live item carries a lifecycle"
    );

    let archived = client.all_items(
        "list_tasks",
        json!({"status": "To Do", "lifecycle": "archived", "limit": 200}),
    );
    assert!(
        !archived.is_empty() && archived.iter().all(|i| i["lifecycle"] == "archived"),
        "{archived:?}"
    );
    let ready = client.all_items("list_tasks", json!({"ready": true, "limit": 200}));
    assert!(!ready.is_empty() && ready.iter().all(|i| i["ready"] == true));
    let refused = client
        .call("list_tasks", json!({"lifecycle": "gone"}))
        .expect_err("an unknown lifecycle is refused");
    assert!(refused.contains("invalid_arguments"), "{refused}");

    // An id only the archive holds completes to nothing; a live one completes.
    let live_ids: Vec<String> = client
        .all_items("list_tasks", json!({"limit": 200}))
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();
    let only_archived = archived
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .find(|id| !live_ids.iter().any(|l| l.eq_ignore_ascii_case(id)))
        .expect("an archived id no live task has");
    let mut complete = |value: &str| {
        client
            .complete(
                json!({"prompt": "prompt_implement_task"}),
                "taskId",
                value,
                None,
            )
            .expect("complete")
    };
    let got = complete(&only_archived);
    assert!(
        !got.iter().any(|v| v.eq_ignore_ascii_case(&only_archived)),
        "{only_archived} completes to {got:?}"
    );
    let got = complete(todo[0]["id"].as_str().unwrap());
    assert!(got.iter().any(|v| v == &todo[0]["id"]), "{got:?}");
}

/// Issue 26: `docugraph://workspace/node/{id}` is the raw document, frontmatter included, as
/// the seed and its description say: a real Backlog.md task reads back as its file.
#[test]
fn the_node_resource_is_the_raw_document() {
    let Some((ariadne, mut client)) = ariadne_agent("the_node_resource_is_the_raw_document") else {
        return;
    };
    let root = &ariadne.root;
    let file = support::corpora::task_file(root, "task-104 ");
    let text = std::fs::read_to_string(&file).expect("read the task");
    assert!(text.starts_with("---\nid: task-104\n"), "{text}");
    let (got, mime) = client
        .read("docugraph://workspace/node/TASK-104")
        .expect("the node resource reads");
    assert_eq!(got, text, "the resource is the file as written");
    assert_eq!(mime.as_deref(), Some("text/markdown"));
}

/// Issue 26: honest emptiness and caller errors, through the real binary. A workspace pointed
/// at a real Backlog.md folder's `backlog/` itself warns instead of scoring 100; caller errors
/// are isError results with domain codes whose messages name tools, never Nexus routes or
/// "Nexus API error"; a prompt on an unknown task is invalid params, not -32603.
#[test]
fn an_empty_workspace_warns_and_caller_errors_name_tools() {
    use serde_json::json;
    const TEST: &str = "an_empty_workspace_warns_and_caller_errors_name_tools";
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let data = tempfile::tempdir().expect("data tempdir");

    let inner = [root.join("backlog").display().to_string()];
    let Some(mut inner) = py_doc_kg(&inner, data.path(), TEST) else {
        return;
    };
    let audit = inner.ok("validate_traceability", json!({}));
    assert!(audit["healthScore"].is_null(), "{audit}");
    let warning = audit["warnings"][0].as_str().unwrap_or_default().to_owned();
    assert!(
        warning.contains("holds 0 documents")
            && warning.contains("the folder that holds `backlog/`"),
        "{audit}"
    );
    let listed = inner.ok("list_tasks", json!({}));
    assert_eq!(listed["warnings"][0], warning.as_str(), "{listed}");
    let prompt = inner
        .prompt("prompt_audit_traceability", json!({}))
        .expect("the audit prompt renders");
    assert!(
        prompt.concat().contains("no health score: workspace"),
        "{prompt:?}"
    );
    drop(inner);

    let data = tempfile::tempdir().expect("data tempdir");
    let Some(mut client) = py_doc_kg(&[root.display().to_string()], data.path(), TEST) else {
        return;
    };
    for (tool, args, code) in [
        (
            "get_node",
            json!({"nodeId": "task-999999"}),
            "NODE_NOT_FOUND",
        ),
        (
            "get_task_context",
            json!({"taskId": "."}),
            "INVALID_REQUEST",
        ),
        (
            "list_tasks",
            json!({"cursor": "not-a-cursor"}),
            "invalid_arguments",
        ),
    ] {
        let err = client.call(tool, args.clone()).expect_err("a caller error");
        let body: serde_json::Value = serde_json::from_str(&err).expect("an isError JSON body");
        assert_eq!(body["error"]["code"], code, "{tool} {args}: {err}");
        assert!(
            !err.contains("/api/v1") && !err.contains("Nexus API error"),
            "{tool} {args}: {err}"
        );
    }
    let unknown = client
        .call("get_node", json!({"nodeId": "qqqq-nothing"}))
        .expect_err("unknown");
    assert!(unknown.contains("list_tasks"), "{unknown}");
    let (code, message) = client
        .prompt("prompt_implement_task", json!({"taskId": "task-999999"}))
        .expect_err("a prompt on an unknown task fails");
    assert_eq!(code, -32602, "{message}");
    assert!(message.contains("TASK_NOT_FOUND"), "{message}");
}

/// The KEP sample of tests/corpora under `dir`, with the sidecar configuration its layout
/// needs (kep.yaml metadata, README.md bodies).
fn keps_corpus(dir: &Path) -> PathBuf {
    let keps = support::corpora::corpus(dir, "keps-sample");
    std::fs::create_dir_all(keps.join(".nexus")).expect("mkdir .nexus");
    std::fs::write(
        keps.join(".nexus/docgraph.yaml"),
        "doc_graph:\n  include: [\"keps/**/kep.yaml\"]\n  exclude: []\n  metadata:\n    sources: [sidecar]\n    sidecar: {file: kep.yaml, body: README.md}\n  id: {keys: [kep-number], fallback: [dir_name], normalize: {default_prefix: KEP}}\n",
    )
    .expect("write the KEP configuration");
    keps
}

/// Issue 26: with two `--workspace NAME=PATH` over HTTP (the README's own example, on the real
/// Backlog.md and KEP folders), resources, resource templates, both prompts and completions
/// take the workspace as the tools do; without one they say so as invalid params.
#[test]
fn two_workspaces_over_http_reach_resources_prompts_and_completions() {
    use serde_json::{Value, json};
    const TEST: &str = "two_workspaces_over_http_reach_resources_prompts_and_completions";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, TEST) else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let backlog = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let keps = keps_corpus(tmp.path());
    let server = DocServer::serving(vec![
        "--workspace".into(),
        format!("backlog={}", backlog.display()),
        "--workspace".into(),
        format!("keps={}", keps.display()),
    ]);
    let mut client = support::local::PySdk::http(&py, &server.url(), KEY, TEST);

    let templates = client.templates();
    for t in [
        "docugraph://{workspace}/nodes",
        "docugraph://{workspace}/nodes/page/{cursor}",
        "docugraph://{workspace}/graph",
        "docugraph://{workspace}/node/{id}",
        "docugraph://{workspace}/audit-report",
    ] {
        assert!(templates.iter().any(|x| x == t), "{t} in {templates:?}");
    }
    let mut read = |uri: &str| client.read(uri).map(|(text, _)| text);

    let nodes: Value =
        serde_json::from_str(&read("docugraph://backlog/nodes").expect("backlog nodes")).unwrap();
    assert!(
        nodes["items"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with("backlog/"),
        "{nodes}"
    );
    assert_eq!(nodes["workspace"]["name"], "backlog");
    let cursor = nodes["nextCursor"]
        .as_str()
        .expect("600+ live documents page");
    let more: Value = serde_json::from_str(
        &read(&format!("docugraph://backlog/nodes/page/{cursor}")).expect("backlog's next page"),
    )
    .unwrap();
    assert_eq!(more["workspace"]["name"], "backlog");
    assert!(
        more["items"].as_array().is_some_and(|i| !i.is_empty())
            && more["items"][0] != nodes["items"][0],
        "{more}"
    );
    let graph: Value =
        serde_json::from_str(&read("docugraph://keps/graph").expect("keps graph")).unwrap();
    assert!(
        graph["nodes"].as_array().is_some_and(|n| !n.is_empty())
            && graph["workspace"]["name"] == "keps"
    );
    let audit: Value =
        serde_json::from_str(&read("docugraph://keps/audit-report").expect("keps audit")).unwrap();
    assert!(audit["healthScore"].is_number(), "{audit}");
    let kep = read("docugraph://keps/node/KEP-1029").expect("KEP-1029");
    let meta =
        std::fs::read_to_string(keps.join("keps/sig-node/1029-ephemeral-storage-quotas/kep.yaml"))
            .unwrap();
    assert!(kep.starts_with(&format!("---\n{meta}")), "{kep}");

    // A workspace name is checked as the tools check it, and quoted cut.
    let huge = format!("docugraph://{}/nodes", "w".repeat(100_000));
    let (code, message) = read(&huge).expect_err("no such workspace");
    assert!(
        code == -32602 && message.contains("checked as `workspace`"),
        "{}",
        &message[..message.len().min(500)]
    );
    assert!(message.len() < 1_500, "{} characters", message.len());

    // The one-workspace forms name what is missing, as invalid params (not -32603).
    for uri in [
        "docugraph://workspace/nodes",
        "docugraph://workspace/node/KEP-1029",
        "docugraph://workspace/audit-report",
    ] {
        let (code, message) = read(uri).expect_err("a workspace must be named");
        assert_eq!(code, -32602, "{uri}: {message}");
        assert!(
            message.contains("WORKSPACE_REQUIRED") && message.contains("docugraph://NAME/"),
            "{uri}: {message}"
        );
    }

    // Both prompts take the workspace; without it they say so.
    let implement = client
        .prompt(
            "prompt_implement_task",
            json!({"taskId": "KEP-1029", "workspace": "keps"}),
        )
        .expect("prompt_implement_task in keps");
    assert!(implement.concat().contains("Implement task KEP-1029"));
    let audit = client
        .prompt("prompt_audit_traceability", json!({"workspace": "backlog"}))
        .expect("prompt_audit_traceability in backlog");
    assert!(audit.concat().contains("workspace backlog"));
    let (code, message) = client
        .prompt("prompt_implement_task", json!({"taskId": "KEP-1029"}))
        .expect_err("no workspace");
    assert!(
        code == -32602 && message.contains("WORKSPACE_REQUIRED"),
        "{message}"
    );

    // Completions read the workspace from the arguments filled in so far.
    let node_template = || json!({"template": "docugraph://{workspace}/node/{id}"});
    let ws = client
        .complete(node_template(), "workspace", "k", None)
        .expect("workspace names");
    assert_eq!(ws, ["keps"]);
    let ids = client
        .complete(
            node_template(),
            "id",
            "KEP-102",
            Some(json!({"workspace": "keps"})),
        )
        .expect("KEP ids");
    assert!(ids.iter().any(|i| i == "KEP-1029"), "{ids:?}");
    let ids = client
        .complete(
            json!({"prompt": "prompt_implement_task"}),
            "taskId",
            "task-10",
            Some(json!({"workspace": "backlog"})),
        )
        .expect("task ids");
    assert!(
        !ids.is_empty() && ids.iter().all(|i| i.to_lowercase().starts_with("task-10")),
        "{ids:?}"
    );
    let (code, message) = client
        .complete(
            json!({"prompt": "prompt_implement_task"}),
            "taskId",
            "task-10",
            None,
        )
        .expect_err("no workspace");
    assert!(
        code == -32602 && message.contains("WORKSPACE_REQUIRED"),
        "{message}"
    );
}

/// Issue 26: get_dependency_graph `format: mermaid` through the real binary, on the real
/// ariadne backlog: a flowchart an agent can show, with the task's dependency arrow.
#[test]
fn the_dependency_graph_comes_as_mermaid() {
    use serde_json::json;
    let Some((_ariadne, mut client)) = ariadne_agent("the_dependency_graph_comes_as_mermaid")
    else {
        return;
    };
    let got = client.ok(
        "get_dependency_graph",
        json!({"nodeId": "task-195.7", "format": "mermaid"}),
    );
    let chart = got["mermaid"].as_str().unwrap_or_default();
    assert!(chart.starts_with("flowchart LR\n"), "{got}");
    assert!(
        chart.contains("[\"TASK-195.7: ")
            && chart.contains("[\"TASK-195.6: ")
            && chart.contains("-->|depends_on|"),
        "{chart}"
    );
    let refused = client
        .call(
            "get_dependency_graph",
            json!({"nodeId": "task-195.7", "format": "svg"}),
        )
        .expect_err("an unknown format");
    assert!(refused.contains("invalid_arguments"), "{refused}");
}

/// Runs tests/clients/doc_kg.py's `context` checks on `workspace` (a folder served alone over
/// stdio) with `args`.
fn context_checks(workspace: &Path, args: &[String], what: &str) {
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, what) else {
        return;
    };
    let data = tempfile::tempdir().expect("data tempdir");
    run(
        Command::new(py)
            .arg(script())
            .args(["context", "--binary"])
            .arg(support::bin())
            .arg("--workspace")
            .arg(workspace)
            .arg("--data-dir")
            .arg(data.path())
            .args(args)
            .env("PATH", support::tool_path()),
        what,
    );
}

/// Issue 26, on the real ariadne Backlog.md folder: the context of its largest tasks (36 KB of
/// Markdown and more) answers within 8,000 characters a page, its cursors reach every node
/// once, and `omitted` is exact on every page. The folder has no dependency cycle of its own
/// (validate_traceability: 0), so task-190.7 is made to depend on task-190.8, which depends on
/// it: the context of task-190.8 marks the cycle with its path, and so does the context of
/// task-190.9, which depends on the cycle without being in it.
#[test]
fn task_context_pages_within_8000_characters_and_marks_cycles_on_a_real_backlog() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let mut sized: Vec<(u64, PathBuf)> =
        support::corpora::frontmatter_statuses(&root.join("backlog/tasks"))
            .into_iter()
            .map(|(p, _)| (std::fs::metadata(&p).expect("stat").len(), p))
            .collect();
    sized.sort_by_key(|s| std::cmp::Reverse(s.0));
    let largest: Vec<String> = sized
        .iter()
        .take(10)
        .map(|(_, p)| {
            let text = std::fs::read_to_string(p).expect("read");
            text.lines()
                .find_map(|l| l.strip_prefix("id: "))
                .expect("an id")
                .trim()
                .to_owned()
        })
        .collect();
    assert!(
        sized[0].0 > 20_000,
        "the largest task is {} bytes",
        sized[0].0
    );
    let (file, _) = support::corpora::frontmatter_statuses(&root.join("backlog/completed"))
        .into_iter()
        .find(|(p, _)| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("task-190.7 "))
        })
        .expect("task-190.7 is in backlog/completed");
    let text = std::fs::read_to_string(&file).expect("read task-190.7");
    assert!(text.contains("dependencies:\n"), "{text}");
    std::fs::write(
        &file,
        text.replacen("dependencies:\n", "dependencies:\n  - task-190.8\n", 1),
    )
    .expect("edit task-190.7");
    support::git(
        &root,
        &["commit", "-qam", "task-190.7 depends on task-190.8"],
    );
    context_checks(
        &root,
        &[
            "--pages".to_owned(),
            largest.join(","),
            "--cycle".to_owned(),
        ],
        "the Python SDK: task context on the real ariadne backlog",
    );
}

/// Issue 26, on the doc-kg benchmark's generated 10,000-task folder: the cursors of tasks deep
/// in the graph reach exactly the nodes of their closure within maxDepth (walked here from the
/// files' frontmatter), each once, every page within 8,000 characters with an exact `omitted`;
/// prompt_implement_task states the true number cut and the cursor that reaches the rest.
#[test]
fn task_context_pages_reach_the_whole_closure_of_ten_thousand_tasks() {
    use support::generated_backlog::{closure, dependencies, generate};
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(&root).expect("mkdir");
    generate(&root, 10_000);
    let deps = dependencies(&root);
    let pages: Vec<String> = ["TASK-9517", "TASK-6203", "TASK-4350"]
        .iter()
        .map(|t| {
            let within = closure(&deps, t).values().filter(|d| **d <= 4).count();
            format!("{t}={within}")
        })
        .collect();
    assert!(
        closure(&deps, "TASK-8801").len() > 100,
        "TASK-8801's closure is large enough to be cut"
    );
    context_checks(
        &root,
        &[
            "--pages".to_owned(),
            pages.join(","),
            "--max-depth".to_owned(),
            "4".to_owned(),
            "--prompt".to_owned(),
            "TASK-8801".to_owned(),
        ],
        "the Python SDK: task context on 10,000 generated tasks",
    );
}

/// Issue 26: on a real Backlog.md folder, validate_traceability answers within 8,000 characters,
/// pages by category with a cursor that reaches every finding exactly once, carries the exact
/// count per category in every page, and filters by category (`kind`) and file prefix (`path`);
/// the audit-report resource is its first page, within the same bound.
#[test]
fn the_audit_of_a_real_backlog_pages_by_category_within_8000_characters() {
    use serde_json::{Value, json};
    use std::collections::BTreeMap;
    let Some((_ariadne, mut client)) =
        ariadne_agent("the_audit_of_a_real_backlog_pages_by_category_within_8000_characters")
    else {
        return;
    };

    // Every page of an audit, with each category's findings joined.
    let mut all_pages = |args: Value| {
        let mut args = args;
        let mut found: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut pages = Vec::new();
        loop {
            let (page, text) = client.ok_with_text("validate_traceability", args.clone());
            assert!(text.len() <= 8000, "{} characters: {text}", text.len());
            assert!(
                page.get("truncation").is_none(),
                "the engine cut a page: {page}"
            );
            for (category, c) in page["page"]["categories"].as_object().expect("categories") {
                let shown = page[category].as_array().expect("category list");
                assert_eq!(c["shown"], shown.len(), "{category}: {c}");
                found
                    .entry(category.clone())
                    .or_default()
                    .extend(shown.iter().cloned());
            }
            pages.push(page.clone());
            match page["nextCursor"].as_str() {
                Some(next) => args["cursor"] = json!(next),
                None => return (found, pages),
            }
        }
    };

    let (found, pages) = all_pages(json!({}));
    assert!(
        pages.len() > 1,
        "the real folder's audit fits one page: {:?}",
        pages[0]["page"]
    );
    let counts = &pages[0]["counts"];
    for page in &pages {
        assert_eq!(&page["counts"], counts, "counts change between pages");
        for (category, c) in pages[0]["page"]["categories"].as_object().unwrap() {
            let here = &page["page"]["categories"][category];
            assert_eq!(
                here["matched"], c["matched"],
                "{category}: matched changes between pages"
            );
        }
    }
    for (category, list) in &found {
        let matched = pages[0]["page"]["categories"][category]["matched"]
            .as_u64()
            .unwrap();
        assert_eq!(
            list.len() as u64,
            matched,
            "{category}: the pages reach every finding once"
        );
        if let Some(total) = counts.get(category) {
            assert_eq!(list.len() as u64, total.as_u64().unwrap(), "{category}");
        }
    }
    let broken = &found["brokenLinks"];
    assert!(!broken.is_empty(), "the real folder has broken links");

    // kind: one category only, and its findings are the same.
    let (only, _) = all_pages(json!({"kind": "brokenLinks"}));
    assert_eq!(only.keys().collect::<Vec<_>>(), vec!["brokenLinks"]);
    assert_eq!(&only["brokenLinks"], broken);

    // path: the findings about files under a prefix, counted exactly.
    let from = broken[0]["fromPath"].as_str().expect("fromPath");
    let prefix = &from[..from.rfind('/').map_or(from.len(), |i| i + 1)];
    let (under, pages) = all_pages(json!({"kind": "brokenLinks", "path": prefix}));
    let expected: Vec<&Value> = broken
        .iter()
        .filter(|l| {
            l["fromPath"]
                .as_str()
                .is_some_and(|p| p.starts_with(prefix))
        })
        .collect();
    assert_eq!(
        under["brokenLinks"].iter().collect::<Vec<_>>(),
        expected,
        "{prefix}"
    );
    assert_eq!(
        pages[0]["page"]["categories"]["brokenLinks"]["matched"],
        expected.len()
    );

    let refused = client
        .call("validate_traceability", json!({"kind": "orphans"}))
        .expect_err("an unknown category is refused");
    assert!(
        refused.contains("orphans") && refused.contains("brokenLinks"),
        "{refused}"
    );

    let (text, _) = client
        .read("docugraph://workspace/audit-report")
        .expect("the audit report reads");
    assert!(text.len() <= 8000, "{} characters", text.len());
    let report: Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        report["nextCursor"].is_string() && report["page"]["matched"].as_u64() > Some(0),
        "{report}"
    );
}

/// Issue 26: completions rank by relevance over every live document, not the first 500 in path
/// order: on a real Backlog.md folder an id prefix completes to every live task it starts
/// (the exact id first, shorter ids before their subtasks), a title word finds its task, and
/// the node resource's `{id}` completes the same way.
#[test]
fn completions_rank_ids_and_title_words_on_a_real_backlog() {
    use serde_json::{Value, json};
    let Some((_ariadne, mut client)) =
        ariadne_agent("completions_rank_ids_and_title_words_on_a_real_backlog")
    else {
        return;
    };
    let live: Vec<String> = client
        .all_items("list_tasks", json!({"limit": 200}))
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();

    let mut complete = |target: Value, name: &str, value: &str| {
        client
            .complete(target, name, value, None)
            .expect("complete")
    };
    let got = complete(
        json!({"prompt": "prompt_implement_task"}),
        "taskId",
        "task-190",
    );
    let mut expected: Vec<&String> = live
        .iter()
        .filter(|id| id.to_lowercase().starts_with("task-190"))
        .collect();
    assert!(expected.len() > 5, "{expected:?}");
    assert!(
        got[0].eq_ignore_ascii_case("TASK-190"),
        "the exact id first: {got:?}"
    );
    let mut sorted = got.iter().collect::<Vec<_>>();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected, "every live TASK-190… and nothing else");
    let lengths: Vec<usize> = got.iter().map(String::len).collect();
    assert!(lengths.is_sorted(), "shorter ids first: {got:?}");

    let got = complete(
        json!({"prompt": "prompt_implement_task"}),
        "taskId",
        "taxonom",
    );
    assert!(
        got.len() == 1 && got[0].eq_ignore_ascii_case("TASK-189"),
        "a title word finds its live task: {got:?}"
    );

    let got = complete(
        json!({"template": "docugraph://workspace/node/{id}"}),
        "id",
        "190.15",
    );
    assert!(
        got.first()
            .is_some_and(|id| id.eq_ignore_ascii_case("TASK-190.15")),
        "{got:?}"
    );
    assert!(
        got.len() > 1 && got.iter().all(|id| id.contains("190.15")),
        "{got:?}"
    );
}

/// Issue 26: the `nodes` resource of a real Backlog.md folder (the ariadne corpus, 600+ live
/// documents) lists the live work first, not the first 500 paths: started tasks, then ready
/// ones, then waiting ones, then documents with no status; its `nextCursor` reads on at
/// `docugraph://workspace/nodes/page/{cursor}` until every live document was listed once, and
/// nothing done, archived or drafted.
#[test]
fn the_nodes_resource_lists_live_work_first_and_pages_on_a_real_backlog() {
    use serde_json::Value;
    let Some((_ariadne, mut client)) =
        ariadne_agent("the_nodes_resource_lists_live_work_first_and_pages_on_a_real_backlog")
    else {
        return;
    };
    assert!(
        client
            .templates()
            .iter()
            .any(|t| t == "docugraph://workspace/nodes/page/{cursor}"),
        "{:?}",
        client.templates()
    );
    let mut read = |uri: &str| -> Value {
        let (text, mime) = client.read(uri).expect("read a nodes page");
        assert_eq!(mime.as_deref(), Some("application/json"));
        serde_json::from_str(&text).expect("a nodes page is JSON")
    };
    let first = read("docugraph://workspace/nodes");
    let total = first["total"].as_u64().expect("total") as usize;
    assert!(
        total > 500,
        "the corpus has more live documents than a page: {total}"
    );
    let mut items: Vec<Value> = Vec::new();
    let mut page = first;
    let mut pages = 1;
    loop {
        let got = page["items"].as_array().expect("items");
        assert!(!got.is_empty() && got.len() <= 500, "{} items", got.len());
        items.extend(got.iter().cloned());
        let Some(cursor) = page["nextCursor"].as_str() else {
            break;
        };
        page = read(&format!("docugraph://workspace/nodes/page/{cursor}"));
        pages += 1;
        assert!(pages <= 3, "more pages than {total} documents need");
    }
    assert_eq!(items.len(), total, "the pages hold every live document");
    let mut paths: Vec<&str> = items.iter().map(|i| i["path"].as_str().unwrap()).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), total, "each document is listed once");
    for dead in ["backlog/completed/", "backlog/archive/", "backlog/drafts/"] {
        assert!(!paths.iter().any(|p| p.starts_with(dead)), "{dead} listed");
    }

    // Work order, read off each item's own status and readiness (the corpus's statuses: To Do,
    // In Progress, In-Progress, Done and Completed; the last two are done).
    let rank = |i: &Value| match (i["status"].as_str(), i["ready"].as_bool()) {
        (None, _) => 3,
        (Some(_), Some(true)) => 1,
        (Some(s), _) if s.eq_ignore_ascii_case("To Do") => 2,
        (Some(s), _) if ["done", "completed"].contains(&s.to_ascii_lowercase().as_str()) => 4,
        (Some(_), _) => 0,
    };
    let ranks: Vec<u8> = items.iter().map(rank).collect();
    assert!(ranks.is_sorted(), "work order: {ranks:?}");
    for r in 0..4 {
        assert!(ranks.contains(&r), "the corpus has rank {r}: {ranks:?}");
    }
    assert!(
        items[0]["status"]
            .as_str()
            .is_some_and(|s| s.to_ascii_lowercase().contains("progress")),
        "started work first: {}",
        items[0]
    );
}

/// Issue 26: a call that waits on a workspace being indexed gets MCP progress notifications
/// saying how many files of how many are parsed, through the Python SDK. A real Backlog.md
/// folder, its completed tasks copied ten times (~1,800 documents) so that indexing lasts long
/// enough to be reported; each attempt after the first changes the configuration, which makes
/// the next call parse every document again.
#[test]
fn a_call_waiting_on_indexing_reports_files_of_how_many() {
    use serde_json::json;
    const TEST: &str = "a_call_waiting_on_indexing_reports_files_of_how_many";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, TEST) else {
        return;
    };
    let home = support::local::LocalHome::new();
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let completed = tmp.path().join("completed");
    copy_dir(&root.join("backlog/completed"), &completed);
    for k in 0..10 {
        copy_dir(
            &completed,
            &root.join(format!("backlog/completed/copy-{k}")),
        );
    }
    let workspace = root.display().to_string();
    let mut agent = support::local::PySdk::spawn(
        &home,
        &py,
        &[
            "--surface",
            "nexus-doc-kg",
            "serve",
            "--workspace",
            &workspace,
        ],
        "nexus-doc-kg on a big backlog (Python SDK)",
    );
    agent.ready();
    let mut said = Vec::new();
    for attempt in 0..5 {
        if attempt > 0 {
            std::fs::create_dir_all(root.join(".nexus")).expect("mkdir .nexus");
            std::fs::write(
                root.join(".nexus/docgraph.yaml"),
                format!("# attempt {attempt}\n"),
            )
            .expect("write the configuration");
        }
        let (body, progress) =
            agent.ok_with_progress("list_tasks", json!({"limit": 1, "lifecycle": "any"}));
        assert!(body["total"].as_u64() > Some(1000), "{body}");
        said = progress
            .iter()
            .filter_map(|p| p["message"].as_str().map(str::to_owned))
            .filter(|m| m.contains("files parsed"))
            .collect();
        if !said.is_empty() {
            let total = body["total"].as_u64().unwrap();
            let values: Vec<f64> = progress
                .iter()
                .filter_map(|p| p["progress"].as_f64())
                .collect();
            assert!(values.is_sorted(), "progress only increases: {progress:?}");
            assert!(
                said.iter()
                    .all(|m| m.ends_with(&format!("of {total} files parsed"))),
                "{said:?} (total {total})"
            );
            break;
        }
    }
    assert!(!said.is_empty(), "no indexing progress in 5 attempts");
}

/// Issue 28: on a real Backlog.md folder, a client subscribed to a node (2025-11-25
/// resources/subscribe) hears that the task file changed on disk, and reads the new text.
#[test]
fn a_subscriber_hears_a_task_file_change_on_a_real_backlog() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = support::corpora::corpus(tmp.path(), "ariadne-backlog");
    let data = tempfile::tempdir().expect("data tempdir");
    let mut cmd = Command::new(support::bin());
    cmd.args(["--surface", "nexus-doc-kg", "serve", "--workspace"])
        .arg(&root)
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("DOCUGRAPH_WORKSPACE");
    let mut server = support::lines::Lines::spawn(&mut cmd);
    let initialized = server.initialize();
    assert_eq!(
        initialized["result"]["capabilities"]["resources"]["subscribe"], true,
        "{initialized}"
    );
    let uri = "docugraph://workspace/node/TASK-104";
    let subscribed = server.request("resources/subscribe", serde_json::json!({"uri": uri}));
    assert_eq!(subscribed["result"], serde_json::json!({}), "{subscribed}");

    let file = support::corpora::task_file(&root, "task-104 ");
    let mut text = std::fs::read_to_string(&file).expect("read the task");
    text.push_str("\nA line the subscriber must hear about.\n");
    std::fs::write(&file, &text).expect("edit the task");
    let updated = server.next_where(|v| v["method"] == "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], uri, "{updated}");
    let read = server.request("resources/read", serde_json::json!({"uri": uri}));
    assert_eq!(
        read["result"]["contents"][0]["text"],
        text.as_str(),
        "{read}"
    );
}
