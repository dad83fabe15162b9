//! tools/list shows what the mode and the granted scopes allow, and nothing else is callable.

use crate::engine;
use crate::support::inproc::Options;
use nexus_mcp_runtime::spec::Mode;
use serde_json::json;

#[tokio::test]
async fn the_list_follows_mode_and_scopes_and_hidden_tools_are_unknown() {
    let stdio = engine(Options::default()).await;
    let names = stdio.tool_names().await;
    assert!(names.contains(&"list_notes".to_owned()), "{names:?}");
    assert!(
        names.contains(&"compare_note_with_local".to_owned()),
        "a local tool under the default stdio scopes: {names:?}"
    );
    assert!(
        !names.contains(&"export_notes".to_owned()),
        "export is never granted by default: {names:?}"
    );

    let remote = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["notes:read", "notes:local", "notes:export"]),
        ..Options::default()
    })
    .await;
    let names = remote.tool_names().await;
    assert!(names.contains(&"export_notes".to_owned()), "{names:?}");
    assert!(
        !names.contains(&"compare_note_with_local".to_owned()),
        "local tools do not exist over HTTP, whatever the scopes: {names:?}"
    );

    let reader = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["notes:read"]),
        ..Options::default()
    })
    .await;
    let names = reader.tool_names().await;
    assert!(!names.contains(&"export_notes".to_owned()), "{names:?}");
    // A tool the caller cannot see is an unknown tool: a protocol error, not an isError result.
    let hidden = reader
        .call("export_notes", json!({"folder": "team"}))
        .await
        .unwrap_err();
    assert!(
        hidden.contains("-32602") || hidden.contains("unknown tool"),
        "{hidden}"
    );
    assert!(
        reader.backend.seen().is_empty(),
        "{:?}",
        reader.backend.seen()
    );
}
