#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Two nexus-mcp servers on one data directory (issue 25): both join the one nexus-lite daemon
//! that holds the directory's lock, share its graph and both answer, also after the first one
//! exits. A standalone nexus-lite (what `nexus-lite serve --data-dir D` starts) is still
//! refused while the daemon holds D, naming the directory, the daemon's pid and what to do.

mod support;

use serde_json::json;
use std::path::Path;
use std::process::Command;
use support::local::{DAEMON_JSON, McpStdio};

fn serve(fixture: &support::Fixture, data: &Path) -> Command {
    let mut cmd = Command::new(support::bin());
    cmd.arg("serve")
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("NEXUS_API_TOKEN");
    cmd
}

fn graph_id(server: &mut McpStdio) -> String {
    let answer = server.ok(
        "kg_latest_graph",
        json!({"repository": support::REPO_NAME, "branch": "main"}),
    );
    answer["graph"]["graph_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no graph: {answer:#}"))
        .to_owned()
}

#[test]
fn two_servers_on_one_data_directory_both_answer_and_a_standalone_nexus_lite_is_refused() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().canonicalize().unwrap();
    let mut first = McpStdio::spawn(serve(&fixture, &dir), "the first server");
    let mut second = McpStdio::spawn(serve(&fixture, &dir), "the second server");
    first.initialized();
    second.initialized();
    let graph = graph_id(&mut first);
    assert_eq!(
        graph_id(&mut second),
        graph,
        "one data directory, one graph"
    );

    let daemon: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(DAEMON_JSON)).unwrap()).unwrap();
    let holder = daemon["pid"].as_u64().expect("the daemon's pid");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let standalone = runtime.block_on(nexus_lite::spawn(
        nexus_lite::LiteConfig {
            keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
            data_dir: dir.clone(),
            repos: Vec::new(),
            token: "unused-token".into(),
            index_on_first_use: false,
            workspaces: Vec::new(),
            docs_limits: Default::default(),
        },
        "127.0.0.1:0".parse().unwrap(),
    ));
    let Err(err) = standalone else {
        panic!("a standalone nexus-lite started on a directory the daemon holds");
    };
    let err = err.to_string();
    assert!(
        err.contains(&dir.display().to_string()),
        "names the directory: {err}"
    );
    assert!(
        err.contains(&format!("pid {holder}")),
        "names the holder: {err}"
    );
    assert!(err.contains("--data-dir"), "says what to do: {err}");

    // The first one exits (its client closes stdin); the second carries on.
    let status = first.close();
    assert!(status.success(), "the first server exits cleanly: {status}");
    assert_eq!(graph_id(&mut second), graph);
}
