//! The code graph's pages: the repositories; one repository's latest graph with its freshness
//! verdict and its findings by severity and by analyser; the impact of a file or symbol (its
//! dependents by depth, each with how it was resolved and how sure that is), the answer
//! kg_impact gives, paged as the API pages it; and a file at a line, as kg_file_context sees
//! it (the code around the line, secrets redacted, its findings, what it imports and what
//! imports it): where a gate violation's `path:line` leads.

use crate::error::PageError;
use crate::{Viewer, ViewerState, pages};
use axum::Router;
use axum::extract::Query;
use axum::response::Html;
use axum::routing::get;
use nexus_mcp_runtime::backend::NexusRequest;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// Dependents listed per page.
const IMPACT_PAGE: u32 = 200;
/// Lines of code shown on each side of the line a file page is opened at.
const FILE_RADIUS: u32 = 12;
const MAX_DEPTH: u32 = 6;

pub fn routes() -> Router<Arc<Viewer>> {
    Router::new()
        .route("/code", get(repositories))
        .route("/code/repository", get(repository))
        .route("/code/impact", get(impact))
        .route("/code/file", get(file))
}

#[derive(Deserialize)]
struct FileQuery {
    repository: String,
    path: String,
    line: Option<u32>,
    graph_id: Option<String>,
}

async fn file(
    axum::extract::State(v): ViewerState,
    Query(q): Query<FileQuery>,
) -> Result<Html<String>, PageError> {
    let answer = v
        .read(
            NexusRequest::get("/api/v1/file-context")
                .param("repository", Some(&q.repository))
                .param("graph_id", q.graph_id.as_deref())
                .param("path", Some(&q.path))
                .param("line", q.line)
                .param("radius", Some(FILE_RADIUS)),
        )
        .await?;
    // The snippet numbered line by line, the line asked for marked.
    let start = answer
        .pointer("/snippet/start_line")
        .and_then(Value::as_u64)
        .unwrap_or(1);
    let lines: Vec<Value> = answer
        .pointer("/snippet/text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .lines()
        .zip(start..)
        .map(|(text, n)| {
            serde_json::json!({"n": n, "text": text, "at": q.line.map(u64::from) == Some(n)})
        })
        .collect();
    pages::page(
        "file.html",
        minijinja::context! {
            repository => q.repository,
            line => q.line,
            file => pages::value(&answer),
            lines => pages::value(&lines),
        },
    )
}

async fn repositories(axum::extract::State(v): ViewerState) -> Result<Html<String>, PageError> {
    v.repositories("repositories.html").await
}

#[derive(Deserialize)]
struct RepositoryQuery {
    name: String,
    branch: Option<String>,
}

async fn repository(
    axum::extract::State(v): ViewerState,
    Query(q): Query<RepositoryQuery>,
) -> Result<Html<String>, PageError> {
    let latest = v
        .read(
            NexusRequest::get("/api/v1/graphs/select")
                .param("repository", Some(&q.name))
                .param("branch", q.branch.as_deref()),
        )
        .await?;
    let graph = latest.get("graph").cloned().unwrap_or(Value::Null);
    let graph_id = graph
        .get("graph_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let summary = v
        .read(NexusRequest::get("/api/v1/summary").param("graph_id", Some(graph_id)))
        .await?;
    let freshness = match &v.freshness {
        Some(hook) => hook.freshness(&graph).await,
        None => None,
    };
    pages::page(
        "repository.html",
        minijinja::context! {
            name => q.name,
            graph => pages::value(&graph),
            summary => pages::value(&summary),
            freshness => pages::value(&freshness),
        },
    )
}

#[derive(Deserialize)]
struct ImpactQuery {
    repository: String,
    graph_id: Option<String>,
    path: Option<String>,
    symbol: Option<String>,
    depth: Option<u32>,
    cursor: Option<String>,
}

async fn impact(
    axum::extract::State(v): ViewerState,
    Query(q): Query<ImpactQuery>,
) -> Result<Html<String>, PageError> {
    let nonempty = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let (path, symbol) = (nonempty(&q.path), nonempty(&q.symbol));
    if path.is_none() && symbol.is_none() {
        return Err(PageError::BadRequest(
            "give a file path or a symbol's qualified name to see what depends on it".to_owned(),
        ));
    }
    let depth = q.depth.unwrap_or(3).clamp(1, MAX_DEPTH);
    let answer = v
        .read(
            NexusRequest::get("/api/v1/impact")
                .param("repository", Some(&q.repository))
                .param("graph_id", q.graph_id.as_deref())
                .param("path", path.as_deref())
                .param("symbol", symbol.as_deref())
                .param("depth", Some(depth))
                .param("cursor", q.cursor.as_deref())
                .param("limit", Some(IMPACT_PAGE)),
        )
        .await?;
    pages::page(
        "impact.html",
        minijinja::context! {
            repository => q.repository,
            path => path,
            symbol => symbol,
            depth => depth,
            depths => (1..=MAX_DEPTH).collect::<Vec<_>>(),
            impact => pages::value(&answer),
        },
    )
}
