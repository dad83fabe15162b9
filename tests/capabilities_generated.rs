//! The generator's output for the demo manifest (codegen/tests/snapshots/demo.rs, pinned by
//! codegen/tests/generated.rs from tests/manifests/demo.yaml) compiled with `#![deny(warnings)]`
//! and run by the engine: the meta-tools it writes front the hidden tool, error codes and
//! defaults work from the registry as generated, not only from a hand-written one.
#![deny(warnings)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod generated {
    include!("../codegen/tests/snapshots/demo.rs");
}

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use nexus_mcp_runtime::access;
use nexus_mcp_runtime::app::{App, Settings, ToolContext};
use nexus_mcp_runtime::backend::{NexusClient, Secret};
use nexus_mcp_runtime::call::{CallError, call};
use nexus_mcp_runtime::spec::Mode;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

async fn backend() -> String {
    async fn note(Path(id): Path<String>) -> (StatusCode, Json<Value>) {
        (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"code": "not_found", "message": format!("no note {id}")}})),
        )
    }
    async fn history(Query(q): Query<BTreeMap<String, String>>) -> Json<Value> {
        Json(json!({"edits": [], "query": q}))
    }
    let app = Router::new()
        .route("/notes/{id}", get(note))
        .route("/notes/{id}/history", get(history));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn the_generated_meta_tools_front_the_hidden_tool() {
    let surface = &generated::demo::SURFACE;
    let nexus = NexusClient::new(
        &backend().await,
        Secret::new("service-token".into()),
        Duration::from_secs(5),
    )
    .unwrap();
    let app = Arc::new(App::new(
        surface,
        nexus,
        Settings::default(),
        Default::default(),
    ));
    let scopes: BTreeSet<String> = access::default_stdio_scopes(surface);
    let listed: Vec<&str> = surface
        .tools
        .iter()
        .filter(|t| access::listed(surface, t, Mode::LocalStdio, &scopes))
        .map(|t| t.name)
        .collect();
    assert_eq!(
        listed,
        [
            "get_note",
            "list_notes",
            "compare_note_with_local",
            "use_capability",
            "list_capabilities"
        ]
    );
    let ctx = ToolContext {
        app,
        mode: Mode::LocalStdio,
        scopes: Arc::new(scopes),
        repositories: None,
        progress: None,
        log: None,
        asking: None,
    };
    let list = call(ctx.clone(), "list_capabilities", json!({}))
        .await
        .unwrap();
    assert_eq!(
        list["capabilities"],
        json!([{"name": "get_note_history", "title": "Note history", "summary": "Every edit of one note, newest first.", "access": "read"}]),
        "archive_note needs notes:export, not granted by default"
    );
    let history = call(
        ctx.clone(),
        "use_capability",
        json!({"capability": "get_note_history", "arguments": {"noteId": "roadmap"}}),
    )
    .await
    .unwrap();
    assert_eq!(history["query"], json!({"limit": "5"}));
    let direct = call(
        ctx.clone(),
        "get_note_history",
        json!({"noteId": "roadmap"}),
    )
    .await;
    assert!(
        matches!(direct, Err(CallError::UnknownTool(_))),
        "{direct:?}"
    );
    let missing = match call(ctx, "get_note", json!({"noteId": "r9"})).await {
        Err(CallError::Tool(e)) => e.to_json(),
        other => panic!("{other:?}"),
    };
    assert_eq!(missing["error"]["code"], "NOTE_NOT_FOUND");
    assert_eq!(missing["error"]["message"], "No note `r9` (no note r9).");
}

/// Every generated type is used (this test crate exports nothing, so `deny(warnings)` would
/// otherwise call them dead), and the input structs decode with their manifest defaults.
#[test]
fn the_generated_types_decode_with_their_defaults() {
    use generated::demo::*;
    assert_eq!(generated::SURFACES.len(), 1);
    let history: GetNoteHistoryInput = serde_json::from_value(json!({"noteId": "n1"})).unwrap();
    assert_eq!((history.note_id.as_str(), history.limit), ("n1", 5));
    let notes: ListNotesInput = serde_json::from_value(json!({"folder": "team"})).unwrap();
    assert_eq!(notes.limit, 20);
    let export: ExportNotesInput = serde_json::from_value(json!({"folder": "team"})).unwrap();
    assert!(export.dry_run, "dry_run defaults to true");
    let archive: ArchiveNoteInput = serde_json::from_value(json!({"noteId": "n1"})).unwrap();
    assert!(archive.dry_run && !archive.confirmed);
    let list: ListCapabilitiesInput = serde_json::from_value(json!({})).unwrap();
    assert!(!list.include_schemas);
    let use_input: UseCapabilityInput =
        serde_json::from_value(json!({"capability": "get_note_history"})).unwrap();
    assert_eq!(use_input.capability, "get_note_history");
    // (Field names and the other fields are the naming rule's business, not this test's.)
    let _: GetNoteInput = serde_json::from_value(json!({"noteId": "n1"})).unwrap();
    let _: CompareNoteWithLocalInput =
        serde_json::from_value(json!({"noteId": "n1", "local_path": "n1.md"})).unwrap();
    let _: NoteId = "n1".into();
    let _ = (
        GetNoteOutput::default(),
        GetNoteHistoryOutput::default(),
        ListNotesOutput::default(),
        CompareNoteWithLocalOutput::default(),
        ExportNotesOutput::default(),
        ArchiveNoteOutput::default(),
        UseCapabilityOutput::default(),
        ListCapabilitiesOutput::default(),
    );
    struct NoCustomTools;
    impl CustomHandlers for NoCustomTools {}
    let _ = dispatch_custom::<NoCustomTools>;
}
