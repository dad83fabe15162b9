//! The gate-results routes: `GET /api/v1/rules/gate-results` (the get_gate_result answer)
//! and `POST /api/v1/rules/gate-results` (store a record made by `nexus-mcp gate`).

use crate::core::http::{self, ApiError, ApiResult, Params, Q, blocking_with};
use crate::rules::gate::answer::{self, DEFAULT_LIMIT, MAX_LIMIT, Question};
use crate::rules::gate::model::GateRecord;
use crate::rules::gate::record::{self, Stored};
use crate::rules::state::RulesState;
use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use serde_json::{Value, json};
use std::sync::Arc;

pub const PATH: &str = "/api/v1/rules/gate-results";
/// The stored gate runs of a repository, newest first (the dashboard's list).
pub const RUNS_PATH: &str = "/api/v1/rules/gate-runs";

/// Runs listed when the caller does not say, and at most.
const RUNS_DEFAULT: i64 = 50;
const RUNS_MAX: i64 = 500;

pub fn router(state: Arc<RulesState>) -> Router {
    Router::new()
        .route(PATH, get(get_results).post(post_result))
        .route(RUNS_PATH, get(get_runs))
        .with_state(state)
}

/// `GET /api/v1/rules/gate-runs?repository=&limit=`: one line per stored run, its verdict and
/// counts; a run's violations are `gate-results?sha=`.
async fn get_runs(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let visible = visible(&q);
    let p = Params::new(q)?;
    let repository = p.str("repository").map(str::to_string);
    let limit = p.int("limit", RUNS_DEFAULT, 1, RUNS_MAX)? as usize;
    blocking_with(s, StatusCode::OK, move |s| {
        let conn = s.core.reader()?;
        let filter = record::Filter {
            repository: repository.as_deref(),
            pr: None,
            sha_prefix: None,
            visible: visible.as_deref(),
        };
        // One more than asked: whether the list goes on.
        let rows = record::find(&conn, &filter, limit + 1)?;
        let more = rows.len() > limit;
        let runs: Vec<Value> = rows
            .iter()
            .take(limit)
            .map(|r| {
                json!({
                    "recordId": r.record_id, "repository": r.repository, "pr": r.pr,
                    "sha": r.head_sha, "baseSha": r.base_sha, "status": r.status,
                    "blocking": r.blocking, "blockingCount": r.blocking_count,
                    "violationCount": r.violation_count, "waivedCount": r.waived_count,
                    "detailComplete": r.detail_complete, "analyzedAt": r.analyzed_at,
                })
            })
            .collect();
        let total = match repository.as_deref() {
            Some(repo) => Some(record::count_for(&conn, repo)?),
            None => None,
        };
        Ok(json!({"runs": runs, "truncated": more, "total": total}))
    })
    .await
}

/// After a record is stored: the rules domain marks agents' claims on the same tree
/// witnessed or disputed. A failure there is logged; the record stays stored.
fn after_store(
    conn: &mut rusqlite::Connection,
    record: &GateRecord,
    stored: &Stored,
) -> Result<crate::rules::checks::Witnessing, String> {
    let w =
        crate::rules::checks::record_gate_run(conn, record, stored, crate::core::util::now_epoch())
            .map_err(|e| e.to_string())?;
    tracing::info!(
        record = %stored.record_id,
        checks = w.checks,
        witnessed = w.witnessed,
        disputed = w.disputed,
        "gate run recorded; self-checks on its tree judged"
    );
    Ok(w)
}

/// `visible` as sent: absent = unrestricted; present (even empty) = exactly those.
fn visible(q: &Q) -> Option<Vec<String>> {
    let Ok(Query(pairs)) = q else { return None };
    pairs.iter().find(|(k, _)| k == "visible").map(|(_, v)| {
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    })
}

async fn get_results(State(s): State<Arc<RulesState>>, q: Q) -> ApiResult {
    let visible = visible(&q);
    let p = Params::new(q)?;
    let sha = p
        .str("sha")
        .map(answer::sha_prefix)
        .transpose()
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "INVALID_SHA", e.to_string()))?;
    let pr = p.opt_int("pr", 1, i64::MAX)?.map(|n| n as u64);
    let limit = p.int("limit", DEFAULT_LIMIT as i64, 1, MAX_LIMIT as i64)? as usize;
    let repository = p.str("repository").map(str::to_string);
    let checked_prefix = p.str("checkedPrefix").map(str::to_string);
    blocking_with(s, StatusCode::OK, move |s| {
        let conn = s.core.reader()?;
        let q = Question {
            repository: repository.as_deref(),
            sha: sha.as_deref(),
            pr,
            visible: visible.as_deref(),
            limit,
            checked_prefix: checked_prefix.as_deref(),
        };
        Ok(answer::answer(&conn, &q)?)
    })
    .await
}

async fn post_result(
    State(s): State<Arc<RulesState>>,
    body: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let body = http::body(body)?;
    let rec: GateRecord = serde_json::from_value(body).map_err(|e| {
        ApiError::bad(format!(
            "the body is not a gate record ({e}); send the JSON `nexus-mcp gate` produces"
        ))
    })?;
    record::validate(&rec).map_err(|e| ApiError::bad(e.to_string()))?;
    let served: Vec<String> = s.repos.iter().map(|r| r.name.clone()).collect();
    if !served.iter().any(|n| n == &rec.repository) {
        return Err(ApiError::not_found_as(
            "REPOSITORY_NOT_FOUND",
            format!(
                "no repository `{}` is served here, so its gate record cannot be stored; served repositories: {}",
                rec.repository,
                if served.is_empty() {
                    "none".to_string()
                } else {
                    served.join(", ")
                }
            ),
        ));
    }
    blocking_with(s, StatusCode::CREATED, move |s| {
        let mut conn = s.core.writer()?;
        let stored = record::store(&mut conn, &rec, crate::core::util::now_epoch())?;
        let self_checks = match after_store(&mut conn, &rec, &stored) {
            Ok(w) => json!({"onTree": w.checks, "witnessed": w.witnessed, "disputed": w.disputed}),
            Err(e) => {
                tracing::warn!(error = %e, record = %stored.record_id, "gate record stored, but witnessing claims failed");
                Value::Null
            }
        };
        let v = rec.verdict();
        Ok(json!({
            "recordId": stored.record_id,
            "replaced": stored.replaced,
            "repo": rec.repository,
            "pr": rec.pr,
            "sha": rec.head_sha.to_ascii_lowercase(),
            "status": v.status.as_str(),
            "blocking": v.blocking,
            "blockingCount": v.blocking_count,
            "violationCount": rec.violations.len(),
            "detailComplete": v.detail_complete,
            "statusNote": v.note,
            "selfChecks": self_checks,
        }))
    })
    .await
}
