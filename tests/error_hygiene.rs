//! Issue 11, defect 10 and the second bullet of 13: over HTTP an internal failure answers a
//! generic message with a reference (the details go to the server's log under it), and no
//! error quotes a huge input back whole. Real server, real git repository, real clients.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The 32-hex reference in `message`.
fn reference(message: &str) -> String {
    let at = message
        .find("reference ")
        .unwrap_or_else(|| panic!("no reference in {message}"));
    let id: String = message[at + "reference ".len()..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(id.len(), 32, "{message}");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_git_failure_reaches_an_http_client_as_a_reference_only() {
    let f = support::fixture_repo();
    let key = "defect-10-key-0123456789";
    let server = support::HttpServer::start(
        &f,
        support::HttpOptions {
            key: Some(key.to_owned()),
            ..Default::default()
        },
    );
    let client = support::http_client(server.url("/mcp"), key).await;
    // The repository stops being a git repository under the running server: every git
    // command of the next plan fails, with the work tree's absolute path in its error.
    std::fs::rename(f.path.join(".git"), f.path.with_extension("moved-git")).unwrap();
    let error = support::call_tool(
        &client,
        "kg_regenerate_dry_run",
        json!({"repository": support::REPO_NAME, "branch": "main"}),
    )
    .await
    .expect_err("planning on a broken repository fails");
    let body: Value = serde_json::from_str(&error).unwrap();
    let message = body["error"]["message"].as_str().unwrap();
    let root = f.path.parent().unwrap().to_string_lossy().into_owned();
    for secret in [
        root.as_str(),
        "/tmp",
        "fatal",
        "not a git repository",
        "rev-parse",
    ] {
        assert!(
            !error.contains(secret),
            "`{secret}` reached the client: {error}"
        );
    }
    assert!(
        message.starts_with("internal error on the server"),
        "{error}"
    );
    let id = reference(message);
    // The operator finds the details under the same reference on stderr (bounded wait for the
    // log line the server wrote before answering).
    let deadline = Instant::now() + Duration::from_secs(20);
    let line = loop {
        let log = server.stderr();
        if let Some(line) = log.lines().find(|l| l.contains(&id)) {
            break line.to_owned();
        }
        assert!(Instant::now() < deadline, "no log line with {id}:\n{log}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        line.contains(&f.path.to_string_lossy().into_owned()),
        "the log line has the details: {line}"
    );
    // stderr is a pipe here, as under a client or in a log file: plain text, no colour codes.
    let log = server.stderr();
    assert!(
        !log.contains('\x1b'),
        "ANSI escapes in a log that is not a terminal:\n{log:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_quote_huge_inputs_capped() {
    let f = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(support::bin());
    cmd.arg("serve")
        .arg("--repo")
        .arg(f.repo_arg())
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    // A 1 MB path breaks the schema (maxLength 1024): the error names the problem, not the value.
    let huge = "a".repeat(1_000_000);
    let error = support::call_tool(&client, "kg_file_context", json!({"path": huge}))
        .await
        .expect_err("a 1 MB path is refused");
    assert!(
        error.len() < 1_500,
        "{} characters: {}",
        error.len(),
        &error[..2_000.min(error.len())]
    );
    assert!(error.contains("1000002 characters"), "{error}");
    // A long finding_type (no maxLength) is quoted capped in the not_found reason.
    let graph = support::call_tool(
        &client,
        "kg_latest_graph",
        json!({"repository": support::REPO_NAME}),
    )
    .await
    .unwrap();
    let graph_id = graph["graph"]["graph_id"].as_str().unwrap();
    let long_type = "bandit_".to_owned() + &"x".repeat(5_000);
    let answer = support::call_tool(
        &client,
        "kg_get_audit_risk",
        json!({"graph_id": graph_id, "source_tool": "bandit", "finding_type": long_type, "path": "shop/crypto.py", "line": 6}),
    )
    .await
    .unwrap();
    assert_eq!(answer["status"], "not_found", "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    assert!(reason.len() < 600, "{reason}");
    assert!(reason.contains("… (5007 characters)"), "{reason}");
    client.cancel().await.unwrap();
}
