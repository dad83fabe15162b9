//! The stdio transport on every kind of standard stream an agent may hand it: pipes (Python,
//! Codex; covered by the client tests), a Unix socketpair (what Node's libuv gives a child, so
//! Claude Code and the Inspector), and regular files (a script replaying requests), which
//! cannot be polled and take the blocking fallback.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stdio_transport", "version": "0"}}})
}

fn serve(fixture: &support::Fixture, data: &std::path::Path) -> Command {
    let mut cmd = Command::new(support::bin());
    cmd.arg("serve")
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .stderr(Stdio::inherit());
    cmd
}

/// Waits for the server to exit on its own (it must, once its input ends).
fn exits_within(child: Child, within: Duration) -> std::process::ExitStatus {
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut child = child;
        let _ = tx.send(child.wait());
    });
    match rx.recv_timeout(within) {
        Ok(status) => status.expect("wait for nexus-mcp"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("nexus-mcp did not exit within {within:?} after its input ended");
        }
    }
}

fn tool_names(answer: &Value) -> Vec<String> {
    answer["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("tools/list answered no tools: {answer}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_socketpair_as_stdin_and_stdout_serves_a_whole_session() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let (ours, theirs) = UnixStream::pair().unwrap();
    let child = serve(&fixture, data.path())
        .stdin(Stdio::from(OwnedFd::from(theirs.try_clone().unwrap())))
        .stdout(Stdio::from(OwnedFd::from(theirs)))
        .spawn()
        .expect("spawn nexus-mcp serve");
    // Bounds every read, so a server that never answers fails the test instead of hanging it.
    ours.set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut reader = BufReader::new(ours.try_clone().unwrap());
    let mut writer = ours;
    let mut answer = |msg: Value, id: Option<u64>| -> Option<Value> {
        writer.write_all(format!("{msg}\n").as_bytes()).unwrap();
        let id = id?;
        loop {
            let mut line = String::new();
            assert!(
                reader.read_line(&mut line).expect("read from the socket") > 0,
                "nexus-mcp closed the socket before answering {id}"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"].as_u64() == Some(id) {
                return Some(v);
            }
        }
    };

    let init = answer(initialize(1), Some(1)).unwrap();
    assert_eq!(init["result"]["serverInfo"]["name"], "nexus-code-kg");
    answer(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        None,
    );
    let tools = answer(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        Some(2),
    )
    .unwrap();
    assert!(tool_names(&tools).contains(&"kg_latest_graph".to_owned()));
    let call = answer(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "kg_latest_graph", "arguments": {"repository": support::REPO_NAME}}}),
        Some(3),
    )
    .unwrap();
    assert!(
        call["result"]["structuredContent"]["graph"]["commit_sha"].is_string(),
        "kg_latest_graph over a socketpair: {call}"
    );

    // End of input ends the session.
    reader
        .get_ref()
        .shutdown(std::net::Shutdown::Write)
        .unwrap();
    let status = exits_within(child, Duration::from_secs(30));
    assert!(status.success(), "nexus-mcp exited with {status}");
}

#[test]
fn requests_replayed_from_a_file_are_answered_into_a_file() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let answers = dir.path().join("answers.jsonl");
    let lines = [
        initialize(1),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    std::fs::write(
        &requests,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let child = serve(&fixture, data.path())
        .stdin(std::fs::File::open(&requests).unwrap())
        .stdout(std::fs::File::create(&answers).unwrap())
        .spawn()
        .expect("spawn nexus-mcp serve");
    let status = exits_within(child, Duration::from_secs(120));
    assert!(status.success(), "nexus-mcp exited with {status}");

    let out = std::fs::read_to_string(&answers).unwrap();
    let by_id = |id: u64| {
        out.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["id"].as_u64() == Some(id))
            .unwrap_or_else(|| panic!("no answer to request {id} in {out:?}"))
    };
    assert_eq!(by_id(1)["result"]["serverInfo"]["name"], "nexus-code-kg");
    assert!(tool_names(&by_id(2)).contains(&"kg_latest_graph".to_owned()));
}

/// Defect 12: a hostile or buggy client writes lines that are not valid JSON-RPC. Each one gets
/// its JSON-RPC error (with the request's id when it can be read, null otherwise) and the
/// session goes on.
#[test]
fn malformed_lines_get_json_rpc_errors_and_the_session_continues() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let mut child = serve(&fixture, data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn nexus-mcp serve");
    let mut stdin = child.stdin.take().unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let lines = support::tee_lines(child.stdout.take().unwrap(), log.clone());
    // Writes one line; reads the next answer (bounded) unless `line` is a notification.
    let mut exchange = |line: &str, answered: bool| -> Value {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        if !answered {
            return Value::Null;
        }
        let answer = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                panic!(
                    "no answer to {line:?}; stdout so far:\n{}",
                    log.lock().unwrap()
                )
            });
        serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("answer to {line:?} is not JSON ({e}): {answer}"))
    };
    let init = exchange(&initialize(1).to_string(), true);
    assert_eq!(init["id"], 1, "{init}");
    exchange(
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        false,
    );

    let cases: &[(&str, i64, Value)] = &[
        ("garbage", -32700, Value::Null),
        ("{", -32700, Value::Null),
        ("[]", -32600, Value::Null),
        (
            r#"[{"jsonrpc":"2.0","id":20,"method":"ping"}]"#,
            -32600,
            Value::Null,
        ),
        ("42", -32600, Value::Null),
        (r#"{"jsonrpc":"2.0","id":7}"#, -32600, json!(7)),
        (
            r#"{"jsonrpc":"1.0","id":8,"method":"ping"}"#,
            -32600,
            json!(8),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"eight","method":5}"#,
            -32600,
            json!("eight"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
            -32600,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"kg_latest_graph","arguments":[1]}}"#,
            -32602,
            json!(9),
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"kg_latest_graph","arguments":"x"}}"#,
            -32602,
            json!(10),
        ),
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/list","params":[]}"#,
            -32602,
            json!(11),
        ),
    ];
    for (line, code, id) in cases {
        let answer = exchange(line, true);
        assert_eq!(answer["error"]["code"], *code, "answer to {line}: {answer}");
        assert_eq!(
            answer.get("id"),
            Some(id),
            "answer to {line} must carry id {id}: {answer}"
        );
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{answer}"
        );
    }

    let pong = exchange(r#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#, true);
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 12, "result": {}}));
    let call = exchange(&json!({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "kg_latest_graph", "arguments": {"repository": support::REPO_NAME}}}).to_string(), true);
    assert!(
        call["result"]["structuredContent"]["graph"]["commit_sha"].is_string(),
        "a tools/call after the bad lines: {call}"
    );
    // Arguments that break the schema are a tool result the model can read (SEP-1303), naming
    // the field, the rule and what is allowed; an unknown tool stays -32602.
    let bad = exchange(&json!({"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "kg_list_audit_risks", "arguments": {"repository": support::REPO_NAME, "source_tool": "pylint"}}}).to_string(), true);
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let text = bad["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    let error: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {bad}"));
    assert_eq!(error["error"]["code"], "invalid_arguments", "{error}");
    assert_eq!(error["error"]["field"], "/source_tool", "{error}");
    assert_eq!(error["error"]["rule"], "enum", "{error}");
    assert!(
        error["error"]["allowed"]
            .as_array()
            .is_some_and(|a| a.contains(&json!("bandit"))),
        "{error}"
    );
    let unknown = exchange(&json!({"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": {"name": "kg_no_such_tool", "arguments": {}}}).to_string(), true);
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // An unknown method is named in the answer cut, with its length: 100 KB in, not 100 KB out.
    let huge = format!("x/{}", "m".repeat(100_000));
    let unknown = exchange(
        &json!({"jsonrpc": "2.0", "id": 16, "method": huge}).to_string(),
        true,
    );
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let message = unknown["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.len() < 200 && message.contains("(100002 characters)"),
        "{} bytes: {}",
        message.len(),
        message.chars().take(200).collect::<String>()
    );
    drop(stdin);
    let status = exits_within(child, Duration::from_secs(30));
    assert!(status.success(), "nexus-mcp exited with {status}");
}
