//! Progress and log notifications of a call reach the client that asked for them.
#![allow(deprecated)] // MCP logging (SEP-2577), still what 2025 clients use

use crate::engine;
use crate::support::inproc::{Options, request};
use rmcp::model::{
    LoggingLevel, NumberOrString, ProgressToken, RequestMetaObject, SetLevelRequestParams,
};
use serde_json::json;

#[tokio::test]
async fn backend_requests_are_logged_at_debug_once_the_client_asks() {
    let e = engine(Options::default()).await;
    e.client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap();
    e.call("list_notes", json!({"folder": "team"}))
        .await
        .unwrap();
    let logs = e
        .notes
        .logs_until(|logs| logs.iter().any(|l| l.data.to_string().contains("/notes")))
        .await;
    // The backend request at debug; the call's own start and end at info.
    assert!(
        logs.iter().all(|l| {
            let backend = l.data.to_string().contains("/notes");
            l.level
                == if backend {
                    LoggingLevel::Debug
                } else {
                    LoggingLevel::Info
                }
        }),
        "{logs:?}"
    );
}

/// A mapped tool reports progress around its backend request. (Custom tools report their own
/// through `ToolContext::progress`; a manifest loaded like demo.yaml has none, and the code-kg
/// surface's tests cover them.)
#[tokio::test]
async fn a_mapped_tool_reports_progress_to_the_caller() {
    let e = engine(Options::default()).await;
    let mut call = request("list_notes", json!({"folder": "team", "limit": 1}));
    call.meta = Some(RequestMetaObject::with_progress_token(ProgressToken(
        NumberOrString::String("p-1".into()),
    )));
    let result = e.client.call_tool(call).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(result.structured_content.unwrap()["items"][0]["id"], "n0");
    let steps = e.notes.progress_until(|p| p.len() >= 3).await;
    let seen: Vec<(f64, Option<f64>)> = steps.iter().map(|p| (p.progress, p.total)).collect();
    assert_eq!(
        seen,
        vec![(0.0, Some(2.0)), (1.0, Some(2.0)), (2.0, Some(2.0))]
    );
}
