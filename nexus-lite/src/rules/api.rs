//! The rules domain's HTTP handlers, under `/api/v1/rules` (see `openapi.json`). Answers are
//! camelCase JSON; errors are nexus-lite's `{"error": {"code", "message", ...}}` with stable
//! UPPER_SNAKE codes and, where useful, more fields in the error object (`nearMatches`).

use crate::core::error::LiteError;
use crate::core::http::{ApiError, Params, Q};
use crate::core::repos::ServedRepo;
use crate::rules::state::RulesState;
use crate::rules::{analyser_rules, checks, playbook, proposals, skills, stats};
use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// An error answer of the rules domain.
#[derive(Debug)]
pub struct RulesError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// More fields of the error object (e.g. `nearMatches`).
    pub extra: Map<String, Value>,
}

impl RulesError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        RulesError {
            status,
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "BAD_REQUEST", message)
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    /// A repository outside the caller's `visible` list. 404, not 403: to the MCP surface a 403
    /// means its own service token was refused, which is not what happened.
    pub fn not_visible(repository: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "REPOSITORY_NOT_VISIBLE",
            format!(
                "repository `{repository}` is outside the repositories your key may see; a key bound to `{repository}` (or an unrestricted key) would see it"
            ),
        )
    }
    pub fn with(mut self, key: &str, value: Value) -> Self {
        self.extra.insert(key.to_string(), value);
        self
    }
}

impl From<LiteError> for RulesError {
    fn from(e: LiteError) -> Self {
        tracing::error!(error = %e, "rules request failed");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string())
    }
}

impl From<rusqlite::Error> for RulesError {
    fn from(e: rusqlite::Error) -> Self {
        RulesError::from(LiteError::Db {
            context: "answering a rules request".into(),
            source: e,
        })
    }
}

impl From<ApiError> for RulesError {
    fn from(e: ApiError) -> Self {
        let code = match e.status {
            StatusCode::BAD_REQUEST => "BAD_REQUEST",
            StatusCode::NOT_FOUND => "NOT_FOUND",
            StatusCode::CONFLICT => "CONFLICT",
            _ => "INTERNAL",
        };
        Self::new(e.status, code, e.message)
    }
}

impl IntoResponse for RulesError {
    fn into_response(self) -> Response {
        let mut error = Map::new();
        error.insert("code".into(), json!(self.code));
        error.insert("message".into(), json!(self.message));
        error.extend(self.extra);
        (self.status, Json(json!({ "error": error }))).into_response()
    }
}

pub type RulesResult = Result<Response, RulesError>;

/// Runs `f` on a blocking thread under one of the core's permits; answers its value as JSON
/// with `status`.
pub async fn blocking<F>(state: Arc<RulesState>, status: StatusCode, f: F) -> RulesResult
where
    F: FnOnce(&RulesState) -> Result<Value, RulesError> + Send + 'static,
{
    let permit = state
        .core
        .blocking_permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| LiteError::Task(format!("the request queue is closed: {e}")))?;
    let v = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f(&state)
    })
    .await
    .map_err(|e| LiteError::Task(e.to_string()))??;
    Ok((status, Json(v)).into_response())
}

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

fn params(q: Q) -> Result<Params, RulesError> {
    Ok(Params::new(q)?)
}

fn json_body(b: Result<Json<Value>, JsonRejection>) -> Result<Value, RulesError> {
    Ok(crate::core::http::body(b)?)
}

/// The repository a request names (`repository` from the query, else from the body), within
/// the caller's `visible` list.
fn repo_of<'a>(
    s: &'a RulesState,
    p: &Params,
    body: Option<&Value>,
) -> Result<&'a ServedRepo, RulesError> {
    let named = p.str("repository").or_else(|| {
        body.and_then(|b| b["repository"].as_str())
            .filter(|s| !s.is_empty())
    });
    s.resolve(named, visible(p).as_deref())
}

async fn get_playbook(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
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
) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        analyser_rules::get_rule(repo, &rule_id)
    })
    .await
}

async fn post_check(
    State(s): State<Arc<RulesState>>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> RulesResult {
    let p = params(q)?;
    let body = json_body(b)?;
    blocking(s, StatusCode::CREATED, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        checks::report(s, repo, &body)
    })
    .await
}

async fn list_checks(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    let limit = p.int("limit", 20, 1, 200)? as usize;
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        checks::list_answer(s, repo, p.str("session_id"), limit)
    })
    .await
}

async fn list_skills(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        skills::list(s, repo)
    })
    .await
}

async fn get_skill(
    State(s): State<Arc<RulesState>>,
    Path(name): Path<String>,
    q: Q,
) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        let path = p.path("path")?;
        skills::fetch(s, repo, &name, path.as_deref())
    })
    .await
}

async fn list_proposals(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
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
) -> RulesResult {
    let p = params(q)?;
    let body = json_body(b)?;
    blocking(s, StatusCode::CREATED, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        proposals::propose_answer(s, repo, &body)
    })
    .await
}

async fn bootstrap(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
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
) -> RulesResult {
    decide(s, id, q, b, proposals::Decision::Accept).await
}

async fn reject(
    s: State<Arc<RulesState>>,
    id: Path<String>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
) -> RulesResult {
    decide(s, id, q, b, proposals::Decision::Reject).await
}

async fn decide(
    State(s): State<Arc<RulesState>>,
    Path(id): Path<String>,
    q: Q,
    b: Result<Json<Value>, JsonRejection>,
    decision: proposals::Decision,
) -> RulesResult {
    let p = params(q)?;
    let body = b.ok().map(|Json(v)| v).unwrap_or(Value::Null);
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, Some(&body))?;
        proposals::decide_answer(s, repo, &id, decision, &body)
    })
    .await
}

async fn get_stats(State(s): State<Arc<RulesState>>, q: Q) -> RulesResult {
    let p = params(q)?;
    blocking(s, StatusCode::OK, move |s| {
        let repo = repo_of(s, &p, None)?;
        stats::answer(s, repo)
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
