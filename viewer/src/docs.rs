//! The documentation graph's pages: the workspaces, one workspace's audit (health score and its
//! formula, cycles, broken links, duplicates, each naming its file) with search, and one node:
//! its neighbourhood drawn (depth selectable, cycles highlighted), its Markdown and its
//! acceptance criteria. Every page reads a bounded answer: a 10,000-task workspace never comes
//! whole.

use crate::error::PageError;
use crate::{Viewer, ViewerState, graph, markdown, pages};
use axum::Router;
use axum::extract::{Path, Query};
use axum::response::Html;
use axum::routing::get;
use nexus_mcp_runtime::backend::NexusRequest;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// Hops drawn around a node unless the page asks for more (at most [`MAX_DEPTH`]).
const DEFAULT_DEPTH: u32 = 2;
const MAX_DEPTH: u32 = 5;
/// Characters of audit findings per page (the API pages them).
const AUDIT_PAGE_CHARS: u32 = 24_000;
const SEARCH_LIMIT: u32 = 50;

pub fn routes() -> Router<Arc<Viewer>> {
    Router::new()
        .route("/docs", get(workspaces))
        .route("/docs/{ws}", get(workspace))
        .route("/docs/{ws}/search", get(search))
        .route("/docs/{ws}/node/{id}", get(node))
}

async fn workspaces(axum::extract::State(v): ViewerState) -> Result<Html<String>, PageError> {
    let answer = v.read(NexusRequest::get("/api/v1/docs/workspaces")).await?;
    pages::page(
        "workspaces.html",
        minijinja::context! { workspaces => pages::value(answer.get("workspaces")) },
    )
}

#[derive(Deserialize)]
struct AuditQuery {
    kind: Option<String>,
    cursor: Option<String>,
}

async fn workspace(
    axum::extract::State(v): ViewerState,
    Path(ws): Path<String>,
    Query(q): Query<AuditQuery>,
) -> Result<Html<String>, PageError> {
    let audit = v
        .read(
            NexusRequest::get("/api/v1/docs/traceability")
                .param("workspace", Some(&ws))
                .param("kind", q.kind.as_deref())
                .param("cursor", q.cursor.as_deref())
                .param("max_chars", Some(AUDIT_PAGE_CHARS)),
        )
        .await?;
    let categories: Vec<Value> = audit
        .pointer("/page/categories")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, counts)| {
            let items = audit.get(name)?.as_array()?;
            Some(json!({"name": name, "counts": counts, "items": items}))
        })
        .collect();
    pages::page(
        "workspace.html",
        minijinja::context! {
            ws => ws,
            audit => pages::value(&audit),
            categories => pages::value(&categories),
            kind => q.kind,
        },
    )
}

#[derive(Deserialize)]
struct SearchQuery {
    q: Option<String>,
}

async fn search(
    axum::extract::State(v): ViewerState,
    Path(ws): Path<String>,
    Query(q): Query<SearchQuery>,
) -> Result<Html<String>, PageError> {
    let query = q.q.unwrap_or_default();
    let answer = if query.trim().is_empty() {
        Value::Null
    } else {
        v.read(
            NexusRequest::get("/api/v1/docs/search")
                .param("workspace", Some(&ws))
                .param("query", Some(&query))
                .param("limit", Some(SEARCH_LIMIT)),
        )
        .await?
    };
    let items: Vec<Value> = answer
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|item| with_state(item.clone()))
        .collect();
    pages::page(
        "search.html",
        minijinja::context! { ws => ws, q => query, items => pages::value(&items) },
    )
}

#[derive(Deserialize)]
struct NodeQuery {
    depth: Option<u32>,
}

async fn node(
    axum::extract::State(v): ViewerState,
    Path((ws, id)): Path<(String, String)>,
    Query(q): Query<NodeQuery>,
) -> Result<Html<String>, PageError> {
    let depth = q.depth.unwrap_or(DEFAULT_DEPTH).clamp(1, MAX_DEPTH);
    let path = format!(
        "/api/v1/docs/nodes/{}",
        utf8_percent_encode(&id, NON_ALPHANUMERIC)
    );
    let (node, neighbourhood, criteria) = tokio::join!(
        v.read(NexusRequest::get(path).param("workspace", Some(&ws))),
        v.read(
            NexusRequest::get("/api/v1/docs/dependency-graph")
                .param("workspace", Some(&ws))
                .param("node_id", Some(&id))
                .param("depth", Some(depth)),
        ),
        v.read(
            NexusRequest::get("/api/v1/docs/acceptance-criteria")
                .param("workspace", Some(&ws))
                .param("task_id", Some(&id)),
        ),
    );
    let node = node?;
    let neighbourhood = neighbourhood?;
    // Only tasks have criteria: for another node the API answers 404 (or 400), and the page
    // shows none; any other failure is the page's.
    let criteria = match criteria {
        Ok(c) => Some(c),
        Err(PageError::NotFound(_) | PageError::BadRequest(_)) => None,
        Err(e) => return Err(e),
    };
    let body = node
        .pointer("/node/markdown")
        .and_then(Value::as_str)
        .map(markdown::to_html)
        .unwrap_or_default();
    let info = node.get("node").cloned().map(with_state);
    pages::page(
        "node.html",
        minijinja::context! {
            ws => ws,
            node => pages::value(&info),
            // Markup made by markdown::to_html from escaped text, never the document's own HTML.
            body => minijinja::Value::from_safe_string(body),
            graph => pages::value(graph::draw(&neighbourhood)),
            neighbourhood => pages::value(&neighbourhood),
            criteria => pages::value(&criteria),
            depth => depth,
            depths => (1..=MAX_DEPTH).collect::<Vec<_>>(),
        },
    )
}

/// `item` with the `state` the pages colour it by.
fn with_state(mut item: Value) -> Value {
    let state = graph::state(&item);
    if let Some(obj) = item.as_object_mut() {
        obj.insert("state".to_owned(), json!(state));
    }
    item
}
