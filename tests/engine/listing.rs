//! tools/list shows what the mode and the granted scopes allow, and nothing else is callable.

use crate::engine;
use crate::support::inproc::Options;
use nexus_mcp_runtime::spec::Mode;
use serde_json::json;

#[tokio::test]
async fn the_list_follows_mode_and_scopes_and_hidden_tools_are_unknown() {
    let stdio = engine(Options::default()).await;
    let names = stdio.tool_names().await;
    assert!(names.contains(&"kg_latest_graph".to_owned()), "{names:?}");
    assert!(
        names.contains(&"kg_compare_with_local_git".to_owned()),
        "a local tool under the default stdio scopes: {names:?}"
    );
    assert!(
        !names.iter().any(|n| n.starts_with("kg_regenerate")),
        "regeneration is never granted by default: {names:?}"
    );

    let remote = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["kg:read", "kg:local", "kg:regenerate"]),
        ..Options::default()
    })
    .await;
    let names = remote.tool_names().await;
    assert!(names.contains(&"kg_regenerate".to_owned()), "{names:?}");
    assert!(
        !names.contains(&"kg_compare_with_local_git".to_owned()),
        "local tools do not exist over HTTP, whatever the scopes: {names:?}"
    );

    let reader = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["kg:read"]),
        ..Options::default()
    })
    .await;
    let names = reader.tool_names().await;
    assert!(
        !names.iter().any(|n| n.starts_with("kg_regenerate")),
        "{names:?}"
    );
    // A tool the caller cannot see is an unknown tool: a protocol error, not an isError result.
    let hidden = reader
        .call(
            "kg_regenerate_dry_run",
            json!({"repository": "acme/shop", "branch": "main"}),
        )
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
