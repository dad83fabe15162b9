//! Progress and log notifications of a call reach the client that asked for them.
#![allow(deprecated)] // MCP logging (SEP-2577), still what 2025 clients use

use crate::engine;
use crate::support::inproc::{Options, request};
use nexus_mcp_runtime::app::{SurfaceParts, ToolFuture};
use rmcp::model::{
    LoggingLevel, NumberOrString, ProgressToken, RequestMetaObject, SetLevelRequestParams,
};
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn backend_requests_are_logged_at_debug_once_the_client_asks() {
    let e = engine(Options::default()).await;
    e.client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap();
    e.call("kg_latest_graph", json!({"repository": "acme/shop"}))
        .await
        .unwrap();
    let logs = e
        .notes
        .logs_until(|logs| {
            logs.iter()
                .any(|l| l.data.to_string().contains("/api/v1/graphs/select"))
        })
        .await;
    // The backend request at debug; the call's own start and end at info.
    assert!(
        logs.iter().all(|l| {
            let backend = l.data.to_string().contains("/api/v1/graphs/select");
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

#[tokio::test]
async fn a_custom_tool_reports_progress_to_the_caller() {
    let parts = SurfaceParts {
        custom: Arc::new(|ctx, name, _arguments| {
            (name == "kg_get_audit_risk").then(|| {
                Box::pin(async move {
                    ctx.progress(1.0, Some(2.0), "looking").await;
                    ctx.progress(2.0, Some(2.0), "found").await;
                    Ok(json!({"finding": {"finding_id": "f1"}}))
                }) as ToolFuture
            })
        }),
        envelope: None,
        progress: None,
    };
    let e = engine(Options {
        parts,
        ..Options::default()
    })
    .await;
    let mut call = request(
        "kg_get_audit_risk",
        json!({"graph_id": "g1", "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/crypto.py"}),
    );
    call.meta = Some(RequestMetaObject::with_progress_token(ProgressToken(
        NumberOrString::String("p-1".into()),
    )));
    let result = e.client.call_tool(call).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(
        result.structured_content.unwrap()["finding"]["finding_id"],
        "f1"
    );
    let steps = e.notes.progress_until(|p| p.len() >= 2).await;
    let seen: Vec<(f64, Option<f64>)> = steps.iter().map(|p| (p.progress, p.total)).collect();
    assert_eq!(seen, vec![(1.0, Some(2.0)), (2.0, Some(2.0))]);
}
