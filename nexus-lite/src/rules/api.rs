//! The rules domain's HTTP handlers, under `/api/v1/rules` (see `openapi.json`). Answers are
//! camelCase JSON; errors are nexus-lite's `{"error": {"code", "message", ...}}` with stable
//! UPPER_SNAKE codes and, where useful, more fields in the error object (`nearMatches`).

use crate::core::http::{ApiError, ApiResult, Params, Q, blocking_with};
use crate::core::repos::ServedRepo;
use crate::rules::state::RulesState;
use crate::rules::{analyser_rules, checks, playbook, proposals, skills, stats};
use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde_json::Value;
use std::sync::Arc;

/// The request's `visible` list (comma-separated repository names), when given.
pub fn visible(p: &Params) -> Option<Vec<String>> {
    p.str("visible").map(|v| {
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    })
}

fn params(q: Q) -> Result<Params, ApiError> {
    Params::new(q)
}

fn json_body(b: Result<Json<Value>, JsonRejection>) -> Result<Value, ApiError> {
    crate::core::http::body(b)
}

/// The repository a request names (`repository` from the query, else from the body), within
/// the caller's `visible` list.
fn repo_of<'a>(
    s: &'a RulesState,
    p: &Params,
    body: Option<&Value>,
) -> Result<&'a ServedRepo, ApiError> {
    let named = p.str("repository").or_else(|| {
        body.and_then(|b| b["repository"].as_str())
            .filter(|s| !s.is_empty())
    });
    s.resolve(named, visible(p).as_deref())
}

async fn get_playbook(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        let path = p.path("path")?;
        playbook::answer(repo, path.as_deref(), p.str("since_version"))
    })
    .await
}

async fn get_rule(
    State(s): State<Arc<RulesState>>,
    Path(rule_id): Path<String>,
    q: Q,
) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        analyser_rules::get_rule(repo, &rule_id)
    })
    .await
}

async fn post_check(
    State(s): State<Arc<RulesState>>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let p = params(q)?;
    let body = json_body(b)?;
    blocking_with(s, StatusCode::CREATED, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        checks::report(s, repo, &body)
    })
    .await
}

async fn list_checks(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    let limit = p.int("limit", 20, 1, 200)? as usize;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        checks::list_answer(s, repo, p.str("session_id"), limit)
    })
    .await
}

async fn list_skills(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        skills::list(s, repo)
    })
    .await
}

async fn get_skill(State(s): State<Arc<RulesState>>, Path(name): Path<String>, q: Q) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        let path = p.path("path")?;
        skills::fetch(s, repo, &name, path.as_deref())
    })
    .await
}

async fn list_proposals(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        let status = p.list("status", &["queued", "accepted", "rejected"])?;
        proposals::list_answer(s, repo, &status)
    })
    .await
}

async fn post_proposal(
    State(s): State<Arc<RulesState>>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let p = params(q)?;
    let body = json_body(b)?;
    blocking_with(s, StatusCode::CREATED, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        proposals::propose_answer(s, repo, &body)
    })
    .await
}

async fn bootstrap(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        proposals::bootstrap_answer(s, repo)
    })
    .await
}

async fn accept(
    s: State<Arc<RulesState>>,
    id: Path<String>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    decide(s, id, q, b, proposals::Decision::Accept).await
}

async fn reject(
    s: State<Arc<RulesState>>,
    id: Path<String>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    decide(s, id, q, b, proposals::Decision::Reject).await
}

async fn decide(
    State(s): State<Arc<RulesState>>,
    Path(id): Path<String>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
    decision: proposals::Decision,
) -> ApiResult {
    let p = params(q)?;
    let body = b.ok().map(|Json(v)| v).unwrap_or(Value::Null);
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        proposals::decide_answer(s, repo, &id, decision, &body)
    })
    .await
}

async fn get_stats(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let p = params(q)?;
    let days = p.opt_int("days", 1, 36_500)?;
    blocking_with(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        stats::answer(s, repo, days)
    })
    .await
}

/// The rules domain's routes (under the bearer-token check `crate::router` adds).
pub fn router(state: Arc<RulesState>) -> Router {
    Router::new()
        .route("/api/v1/rules/playbook", get(get_playbook))
        .route("/api/v1/rules/rules/{*rule_id}", get(get_rule))
        .route("/api/v1/rules/checks", get(list_checks).post(post_check))
        .route("/api/v1/rules/skills", get(list_skills))
        .route("/api/v1/rules/skills/{name}", get(get_skill))
        .route(
            "/api/v1/rules/proposals",
            get(list_proposals).post(post_proposal),
        )
        .route("/api/v1/rules/proposals/bootstrap", post(bootstrap))
        .route("/api/v1/rules/proposals/{proposal_id}/accept", post(accept))
        .route("/api/v1/rules/proposals/{proposal_id}/reject", post(reject))
        .route("/api/v1/rules/stats", get(get_stats))
        // rules::gate routes: `.merge(crate::rules::gate::router(state.clone()))` below this line.
        .with_state(state.clone())
        .merge(crate::rules::gate::api::router(state))
}
