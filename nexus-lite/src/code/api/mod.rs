//! The code graph's HTTP handlers (see API.md): graphs, findings, anomalies, file context,
//! impact, compare and regenerations.

use crate::code::engine::{AppState, Repo, Submitted};
use crate::code::index;
use crate::code::retention;
use crate::code::store::{self, GRAPH_COLS};
use crate::core::error::LiteError;
use crate::core::git;
use crate::core::http::{
    ApiError, ApiResult, Params as P, Q, blocking, body, count_and_page, filter_in, next_cursor,
    page_json,
};
use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use nexus_secrets::spans::{self as secret_spans, SecretSpan};
use rusqlite::Connection;
use rusqlite::types::Value as Sql;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

mod compare;
mod context;
mod findings;
mod graphs;
mod impact;
mod regenerations;

fn known_repo<'a>(state: &'a AppState, name: &str) -> Result<&'a Repo, ApiError> {
    state.repo(name).ok_or_else(|| {
        let known: Vec<&str> = state.repos.iter().map(|r| r.name.as_str()).collect();
        ApiError::not_found(format!(
            "unknown repository `{name}`; registered repositories: {}",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })
}

/// The graph `id` when its repository is served here: a view's clients see only the graphs of
/// the repositories they registered (another view's graph is as unknown as a wrong id).
fn served_graph(
    state: &AppState,
    conn: &Connection,
    id: &str,
) -> Result<Option<(i64, Value)>, ApiError> {
    Ok(store::graph_by_id(conn, id)?.filter(|(_, g)| {
        g["repository"]
            .as_str()
            .is_some_and(|r| state.repo(r).is_some())
    }))
}

/// Resolves the graph selector (graph_id, else repository + branch).
fn select(state: &AppState, conn: &Connection, p: &P) -> Result<(i64, Value), ApiError> {
    if let Some(id) = p.str("graph_id") {
        let found = named_graph(state, conn, "graph_id", id)?;
        if let Some(repo) = p.str("repository")
            && found.1["repository"] != repo
        {
            return Err(ApiError::bad(format!(
                "graph {id} belongs to {}, not {repo}; drop `repository` or pick a graph of {repo}",
                found.1["repository"].as_str().unwrap_or("")
            )));
        }
        return Ok(found);
    }
    let name = p.str("repository").ok_or_else(|| {
        ApiError::bad("give `graph_id`, or `repository` (owner/name) with an optional `branch`")
    })?;
    let repo = known_repo(state, name)?;
    let branch = p
        .str("branch")
        .map(str::to_string)
        .unwrap_or_else(|| git::default_branch(&repo.root));
    if let Some(g) = store::latest_ready(conn, name, &branch)? {
        return Ok(g);
    }
    if state.index_on_first_use && state.ensure_indexed(repo, &branch)? {
        // The first index was written by another connection after this request's snapshot.
        crate::core::db::renew_snapshot(conn)?;
        if let Some(g) = store::latest_ready(conn, name, &branch)? {
            return Ok(g);
        }
    }
    Err(ApiError::not_found(format!(
        "no ready graph for {name} on branch {branch} yet; run a regeneration first \
         (POST /api/v1/regenerations/plan, then POST /api/v1/regenerations)"
    )))
}

fn require_graph(state: &AppState, conn: &Connection, p: &P) -> Result<(i64, Value), ApiError> {
    let id = p
        .str("graph_id")
        .ok_or_else(|| ApiError::bad("`graph_id` is required for this endpoint"))?;
    named_graph(state, conn, "graph_id", id)
}

/// The served graph `id` (given as parameter `param`). One no longer stored answers 410
/// `graph_pruned` with its tombstone and its branch's newest graph; any other, 404.
fn named_graph(
    state: &AppState,
    conn: &Connection,
    param: &str,
    id: &str,
) -> Result<(i64, Value), ApiError> {
    if let Some(found) = served_graph(state, conn, id)? {
        return Ok(found);
    }
    let pruned = retention::tombstone(conn, id)?.filter(|t| {
        t["repository"]
            .as_str()
            .is_some_and(|r| state.repo(r).is_some())
    });
    let Some(pruned) = pruned else {
        return Err(ApiError::not_found(format!(
            "unknown {param} `{id}`; list graphs with GET /api/v1/graphs?repository=owner/name"
        )));
    };
    let (repository, branch) = (
        pruned["repository"].as_str().unwrap_or_default(),
        pruned["branch"].as_str().unwrap_or_default(),
    );
    let latest = store::latest_ready(conn, repository, branch)?.map(|(_, g)| g["graph_id"].clone());
    let instead = match latest.as_ref().and_then(Value::as_str) {
        Some(latest) => format!(
            "read {branch}'s newest graph `{latest}` instead (or select it by repository and branch); a finding's proof (source_tool, finding_type, path, line) resolves against it"
        ),
        None => format!("{repository} has no ready graph on {branch} now; run a regeneration"),
    };
    // The rule as the pruning process applied it (a tombstone from before migration 9 has no
    // count, and this process's setting may not be the one that pruned it).
    let rule = match pruned["kept"].as_i64() {
        Some(kept) => format!("the newest {kept} ready graphs of its branch were kept"),
        None => "it was older than the ready graphs its branch keeps".to_owned(),
    };
    Err(ApiError::new(
        StatusCode::GONE,
        "graph_pruned",
        format!(
            "{param} `{id}` ({repository}@{branch}, generated {}) was pruned at {}: {rule}; {instead}",
            pruned["generated_at"].as_str().unwrap_or_default(),
            pruned["pruned_at"].as_str().unwrap_or_default(),
        ),
    )
    .with("pruned", pruned.clone())
    .with("latest_graph_id", latest.unwrap_or(Value::Null)))
}

/// The code domain's routes (under the bearer-token check `crate::router` adds).
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/v1/repositories", get(graphs::repositories))
        .route("/api/v1/graphs/select", get(graphs::graphs_select))
        .route("/api/v1/graphs", get(graphs::graphs_list))
        .route("/api/v1/summary", get(graphs::summary))
        .route("/api/v1/findings", get(findings::findings_list))
        .route("/api/v1/findings/{finding_id}", get(findings::finding_get))
        .route("/api/v1/audit-risks", get(findings::audit_risks))
        .route("/api/v1/anomalies", get(findings::anomalies_list))
        .route("/api/v1/anomalies/{anomaly_id}", get(findings::anomaly_get))
        .route("/api/v1/file-context", get(context::file_context))
        .route("/api/v1/impact", get(impact::impact))
        .route("/api/v1/compare", get(compare::compare))
        .route(
            "/api/v1/regenerations/plan",
            post(regenerations::regen_plan),
        )
        .route("/api/v1/regenerations", post(regenerations::regen_start))
        .route(
            "/api/v1/regenerations/{regeneration_id}",
            get(regenerations::regen_get),
        )
        .with_state(state)
}
