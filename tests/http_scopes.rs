//! Over HTTP, the key decides what exists: a tokens file grants scopes per key, local-path tools
//! never exist in remote_http, and regeneration reports progress to a real client (rmcp's
//! Streamable HTTP client).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CompleteRequestParams, CompletionContext, NumberOrString,
    ProgressNotificationParam, ProgressToken, Reference, RequestMetaObject,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

fn hash(key: &str) -> String {
    nexus_mcp_runtime::transport::auth::sha256(key)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

struct Server {
    child: Child,
    url: String,
    _data: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `serve --transport http --listen 127.0.0.1:0 --tokens FILE`; the bound address comes from stderr.
fn start(fixture: &support::Fixture, tokens: &str) -> Server {
    let data = tempfile::tempdir().unwrap();
    let tokens_file = data.path().join("tokens");
    std::fs::write(&tokens_file, tokens).unwrap();
    let mut child = Command::new(support::bin())
        .args([
            "serve",
            "--transport",
            "http",
            "--listen",
            "127.0.0.1:0",
            "--tokens",
        ])
        .arg(&tokens_file)
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("NEXUS_MCP_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let rx = support::tee_lines(child.stderr.take().unwrap(), log.clone());
    let line = support::wait_for_line(
        &rx,
        "nexus-mcp listening on http://",
        Duration::from_secs(60),
        &log,
        "http server",
    );
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    Server {
        child,
        url: format!("http://{addr}/mcp"),
        _data: data,
    }
}

/// (progress, total) of one notification.
type Step = (f64, Option<f64>);

/// Records progress notifications. rmcp's client handles each notification in a task of its
/// own, so a call's result can arrive before its last notification is handled: tests wait on
/// the channel instead of reading it right after the result.
#[derive(Clone)]
struct Progress(Arc<watch::Sender<Vec<Step>>>);

impl Default for Progress {
    fn default() -> Self {
        Progress(Arc::new(watch::channel(Vec::new()).0))
    }
}

impl ClientHandler for Progress {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _ctx: NotificationContext<RoleClient>,
    ) {
        self.0
            .send_modify(|seen| seen.push((params.progress, params.total)));
    }
}

/// A tools/call of `tool` with `arguments` (a JSON object).
fn call(tool: &'static str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be a JSON object: {arguments}");
    };
    CallToolRequestParams::new(tool).with_arguments(arguments)
}

async fn connect(url: &str, key: &str, handler: Progress) -> RunningService<RoleClient, Progress> {
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(key.to_owned()),
    );
    handler.serve(transport).await.unwrap()
}

async fn names(client: &RunningService<RoleClient, Progress>) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_key_sees_its_scopes_and_regeneration_reports_progress() {
    let fixture = support::fixture_repo();
    let tokens = format!(
        "# reader: read only\nsha256:{} kg:read\n# operator: may regenerate; kg:local is granted but has no tool over HTTP\nsha256:{} kg:read,kg:local,kg:regenerate\n",
        hash("reader-key"),
        hash("operator-key")
    );
    let server = start(&fixture, &tokens);

    let reader = connect(&server.url, "reader-key", Progress::default()).await;
    let tools = names(&reader).await;
    assert!(tools.contains(&"kg_latest_graph".to_owned()), "{tools:?}");
    assert!(
        !tools.iter().any(|t| t.starts_with("kg_regenerate")),
        "reader must not see regeneration: {tools:?}"
    );
    assert!(
        !tools.contains(&"kg_compare_with_local_git".to_owned()),
        "no local paths over HTTP: {tools:?}"
    );
    let latest = reader
        .call_tool(call(
            "kg_latest_graph",
            json!({"repository": support::REPO_NAME}),
        ))
        .await
        .unwrap();
    let latest = latest.structured_content.unwrap();
    assert_eq!(latest["graph"]["commit_sha"], fixture.head.as_str());
    assert_eq!(
        latest["freshness"]["verdict"],
        Value::Null,
        "remote answers carry no local verdict"
    );
    let err = reader
        .call_tool(call(
            "kg_regenerate_dry_run",
            json!({"repository": support::REPO_NAME, "branch": "main"}),
        ))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("unknown tool"), "{err}");
    reader.cancel().await.unwrap();

    let progress = Progress::default();
    let operator = connect(&server.url, "operator-key", progress.clone()).await;
    let tools = names(&operator).await;
    assert!(
        tools.contains(&"kg_regenerate_submit".to_owned()),
        "{tools:?}"
    );
    assert!(
        !tools.contains(&"kg_compare_with_local_git".to_owned()),
        "{tools:?}"
    );
    let plan = operator
        .call_tool(call(
            "kg_regenerate_dry_run",
            json!({"repository": support::REPO_NAME, "branch": "main"}),
        ))
        .await
        .unwrap()
        .structured_content
        .unwrap();
    let plan_id = plan["plan"]["plan_id"].as_str().unwrap();
    let mut submit = call(
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
    );
    submit.meta = Some(RequestMetaObject::with_progress_token(ProgressToken(
        NumberOrString::String("regen-1".into()),
    )));
    let done = operator
        .call_tool(submit)
        .await
        .unwrap()
        .structured_content
        .unwrap();
    assert_eq!(done["regeneration"]["status"], "ready", "{done}");
    let mut seen = progress.0.subscribe();
    let finished = tokio::time::timeout(
        Duration::from_secs(10),
        // Handled concurrently, notifications may be recorded out of order.
        seen.wait_for(|s| s.contains(&(1.0, Some(1.0)))),
    )
    .await;
    assert!(
        matches!(finished, Ok(Ok(_))),
        "no notification said finished: {:?}",
        *progress.0.borrow()
    );
    operator.cancel().await.unwrap();

    // A wrong key is refused before any MCP processing.
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(server.url.clone()).auth_header("nope"),
    );
    assert!(Progress::default().serve(transport).await.is_err());
}

async fn complete(
    client: &RunningService<RoleClient, Progress>,
    prompt: &str,
    argument: &str,
    typed: &str,
) -> Result<Vec<String>, rmcp::ServiceError> {
    let params = CompleteRequestParams::new(
        Reference::for_prompt(prompt),
        ArgumentInfo::new(argument, typed),
    );
    Ok(client.complete(params).await?.completion.values)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_arguments_complete_from_nexus_only_for_keys_that_can_read_it() {
    let fixture = support::fixture_repo();
    let tokens = format!(
        "sha256:{} kg:read\nsha256:{} kg:regenerate\n",
        hash("reader-key"),
        hash("regenerate-only-key")
    );
    let server = start(&fixture, &tokens);

    let reader = connect(&server.url, "reader-key", Progress::default()).await;
    let offered = reader
        .peer_info()
        .and_then(|info| info.capabilities.completions.clone());
    assert!(
        offered.is_some(),
        "the completions capability is advertised"
    );
    assert_eq!(
        complete(&reader, "triage_graph", "repository", "ACME/")
            .await
            .unwrap(),
        [support::REPO_NAME],
        "repositories come from Nexus, matched by prefix in any case"
    );
    assert!(
        complete(&reader, "triage_graph", "repository", "zz")
            .await
            .unwrap()
            .is_empty(),
        "no repository starts with zz"
    );
    assert_eq!(
        complete(&reader, "fix_audit_risk", "source_tool", "b")
            .await
            .unwrap(),
        ["bandit"]
    );
    assert!(
        complete(&reader, "fix_audit_risk", "path", "s")
            .await
            .unwrap()
            .is_empty(),
        "an argument with no declared source completes to nothing"
    );
    // Branches come from the repository's graphs, once the first one exists.
    reader
        .call_tool(call(
            "kg_latest_graph",
            json!({"repository": support::REPO_NAME}),
        ))
        .await
        .unwrap();
    let mut params = CompleteRequestParams::new(
        Reference::for_prompt("triage_graph"),
        ArgumentInfo::new("branch", "m"),
    );
    params.context = Some(CompletionContext::with_arguments(
        [("repository".to_owned(), support::REPO_NAME.to_owned())].into(),
    ));
    assert_eq!(
        reader
            .complete(params.clone())
            .await
            .unwrap()
            .completion
            .values,
        ["main"]
    );
    params.context = Some(CompletionContext::with_arguments(
        [("repository".to_owned(), "acme/unknown".to_owned())].into(),
    ));
    assert!(
        reader
            .complete(params)
            .await
            .unwrap()
            .completion
            .values
            .is_empty(),
        "a repository Nexus does not know has no branches (not an error)"
    );
    let err = complete(&reader, "no_such_prompt", "repository", "")
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("unknown prompt `no_such_prompt`"),
        "{err}"
    );
    let err = complete(&reader, "triage_graph", "repo", "")
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("its arguments are: repository, branch"),
        "{err}"
    );
    reader.cancel().await.unwrap();

    // Without kg:read no tool can read the repository list, and neither can completion.
    let other = connect(&server.url, "regenerate-only-key", Progress::default()).await;
    assert!(
        complete(&other, "triage_graph", "repository", "")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        complete(&other, "fix_audit_risk", "source_tool", "")
            .await
            .unwrap(),
        ["nexus_kg", "ruff", "bandit", "osv", "audit_ai"]
    );
    other.cancel().await.unwrap();
}
