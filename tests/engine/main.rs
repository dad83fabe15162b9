//! Engine tests on the in-process harness (tests/support/inproc.rs): the rmcp server over
//! `tokio::io::duplex` against an axum stub backend, with no spawned process, no nexus-lite
//! and no analysers. They pin what a client of any surface sees: which tools are listed under
//! which scopes, how a mapped answer is trimmed and continued, and how bad arguments and backend
//! failures come back. The whole binary runs in a few seconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../support/mod.rs"]
mod support;

mod arguments;
mod backend_errors;
mod http;
mod listing;
mod notifications;
mod results;

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use nexus_mcp_runtime::spec::SurfaceSpec;
use serde_json::{Value, json};
use std::collections::HashMap;
use support::inproc::{Engine, Options};

/// The surface the engine tests drive. A small demo manifest surface replaces it once one exists;
/// the tests use only its generic features (scopes, mapped tools, pagination, budget).
fn surface() -> &'static SurfaceSpec {
    nexus_mcp::surface("nexus-code-kg").expect("the nexus-code-kg surface is generated")
}

/// Items in one stub page of audit risks, each with a long message: far over the 8,000-character
/// budget together, so the engine must cut the page.
const PAGE_ITEMS: usize = 50;

fn graph() -> Value {
    json!({"graph_id": "g1", "repository": "acme/shop", "branch": "main", "commit_sha": "0123456789abcdef0123456789abcdef01234567", "worktree_dirty": false, "generated_at": "2026-01-01T00:00:00Z", "status": "ready"})
}

/// A backend page of audit risks: `f0`… on the first page (no cursor), `p2-f0`… after `b2`.
async fn audit_risks(Query(q): Query<HashMap<String, String>>) -> Json<Value> {
    let (prefix, next) = match q.get("cursor").map(String::as_str) {
        None => ("f", json!("b2")),
        Some("b2") => ("p2-f", Value::Null),
        Some(other) => panic!("the engine sent a cursor it never got from the backend: {other}"),
    };
    let items: Vec<Value> = (0..PAGE_ITEMS)
        .map(|i| {
            json!({
                "finding_id": format!("{prefix}{i}"),
                "source_tool": "bandit",
                "finding_type": "bandit_b324_hashlib",
                "path": format!("src/module_{i}.py"),
                "line": i + 1,
                "message": format!("finding {i}: {}", "weak hash ".repeat(60)),
                "severity": "high",
                "rank": 1,
                "internal_only": "not picked by the manifest",
            })
        })
        .collect();
    Json(
        json!({"graph": graph(), "items": items, "total": 2 * PAGE_ITEMS, "next_cursor": next, "ranks": {"1": 2 * PAGE_ITEMS}}),
    )
}

/// `acme/missing` is a 404, `acme/broken` a 500 naming a server path, anything else a graph.
async fn select_graph(Query(q): Query<HashMap<String, String>>) -> Response {
    match q.get("repository").map(String::as_str) {
        Some("acme/missing") => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"code": "graph_not_found", "message": "no ready graph for acme/missing"}})),
        )
            .into_response(),
        Some("acme/broken") => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": {"code": "db", "message": "sqlite failed at /srv/nexus/secret.db"}})),
        )
            .into_response(),
        _ => Json(json!({"graph": graph()})).into_response(),
    }
}

fn routes() -> Router {
    Router::new()
        .route("/api/v1/audit-risks", get(audit_risks))
        .route("/api/v1/graphs/select", get(select_graph))
}

async fn engine(options: Options) -> Engine {
    Engine::start(surface(), routes(), options).await
}
