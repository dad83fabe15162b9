#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Two nexus-mcp processes on one data directory: the second one's embedded nexus-lite refuses
//! to start, saying which directory, which process holds it and what to do.

mod support;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn serve(fixture: &support::Fixture, data: &Path) -> Command {
    let mut cmd = Command::new(support::bin());
    cmd.arg("serve")
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL");
    cmd
}

/// Starts a server and waits for its answer to `initialize`: it is up, its data dir locked.
fn started(mut cmd: Command) -> Child {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "data_dir_lock", "version": "0"}}});
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{init}").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
    assert!(answer["result"]["serverInfo"].is_object(), "{line}");
    child.stdin = Some(stdin);
    child
}

#[test]
fn a_second_server_on_the_data_directory_is_refused_until_the_first_exits() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let mut first = started(serve(&fixture, data.path()));

    let second = support::run_bounded(
        &mut serve(&fixture, data.path()),
        Duration::from_secs(60),
        "the second nexus-mcp serve",
    );
    assert!(!second.status.success(), "the second server must refuse");
    let err = String::from_utf8_lossy(&second.stderr);
    let dir = data.path().canonicalize().unwrap().display().to_string();
    assert!(err.contains(&dir), "names the directory: {err}");
    assert!(
        err.contains(&format!("pid {}", first.id())),
        "names the holder: {err}"
    );
    assert!(err.contains("--data-dir"), "says what to do: {err}");

    // The first one exits (its client closes stdin); a new server starts.
    drop(first.stdin.take());
    first.wait().unwrap();
    let mut third = started(serve(&fixture, data.path()));
    drop(third.stdin.take());
    third.wait().unwrap();
}
