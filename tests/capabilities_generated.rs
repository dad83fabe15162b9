//! The generator's output for a rules-like manifest (codegen/tests/output/rules_demo.rs, pinned
//! by codegen/tests/capabilities.rs) compiled with `#![deny(warnings)]` and run by the engine:
//! the meta-tools it writes front the hidden tool, error codes and defaults work from the
//! registry as generated, not only from a hand-written one.
#![deny(warnings)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod generated {
    include!("../codegen/tests/output/rules_demo.rs");
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
    async fn rule(Path(id): Path<String>) -> (StatusCode, Json<Value>) {
        (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"code": "not_found", "message": format!("no rule {id}")}})),
        )
    }
    async fn gate(Query(q): Query<BTreeMap<String, String>>) -> Json<Value> {
        Json(json!({"found": true, "query": q}))
    }
    let app = Router::new()
        .route("/api/v1/rules/{id}", get(rule))
        .route("/api/v1/gate", get(gate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn the_generated_meta_tools_front_the_hidden_tool() {
    let surface = &generated::rules::SURFACE;
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
    assert_eq!(listed, ["get_rule", "use_capability", "list_capabilities"]);
    let ctx = ToolContext {
        app,
        mode: Mode::LocalStdio,
        scopes: Arc::new(scopes),
        repositories: None,
        progress: None,
        log: None,
    };
    let list = call(ctx.clone(), "list_capabilities", json!({}))
        .await
        .unwrap();
    assert_eq!(
        list["capabilities"],
        json!([{"name": "get_gate_result", "title": "Gate result", "summary": "The CI gate verdict for a repo, PR or sha.", "access": "read"}])
    );
    let gate = call(
        ctx.clone(),
        "use_capability",
        json!({"capability": "get_gate_result", "arguments": {"repo": "acme/api"}}),
    )
    .await
    .unwrap();
    assert_eq!(gate["query"], json!({"repo": "acme/api", "limit": "20"}));
    let direct = call(ctx.clone(), "get_gate_result", json!({})).await;
    assert!(
        matches!(direct, Err(CallError::UnknownTool(_))),
        "{direct:?}"
    );
    let missing = match call(ctx, "get_rule", json!({"ruleId": "R9"})).await {
        Err(CallError::Tool(e)) => e.to_json(),
        other => panic!("{other:?}"),
    };
    assert_eq!(missing["error"]["code"], "RULE_NOT_FOUND");
    assert_eq!(missing["error"]["message"], "No rule `R9` (no rule R9).");
}

/// Every generated type is used (this test crate exports nothing, so `deny(warnings)` would
/// otherwise call them dead), and the input structs decode with their manifest defaults.
#[test]
fn the_generated_types_decode_with_their_defaults() {
    use generated::rules::*;
    assert_eq!(generated::SURFACES.len(), 1);
    let gate: GetGateResultInput = serde_json::from_value(json!({})).unwrap();
    assert_eq!(gate.limit, 20);
    let proposal: ProposeRuleInput = serde_json::from_value(json!({"text": "x"})).unwrap();
    assert!(proposal.dry_run, "dry_run defaults to true");
    let list: ListCapabilitiesInput = serde_json::from_value(json!({})).unwrap();
    assert!(!list.include_schemas);
    let use_input: UseCapabilityInput =
        serde_json::from_value(json!({"capability": "get_gate_result"})).unwrap();
    assert_eq!(use_input.capability, "get_gate_result");
    // (Its Rust field name is the naming rule's business, not this test's.)
    let _: GetRuleInput = serde_json::from_value(json!({"ruleId": "R1"})).unwrap();
    let _ = (
        GetRuleOutput::default(),
        GetGateResultOutput::default(),
        ProposeRuleOutput::default(),
        UseCapabilityOutput::default(),
        ListCapabilitiesOutput::default(),
    );
    struct NoCustomTools;
    impl CustomHandlers for NoCustomTools {}
    let _ = dispatch_custom::<NoCustomTools>;
}
