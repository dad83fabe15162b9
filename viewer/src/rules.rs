//! The rules dashboard: per rule, how often it broke and was fixed (before the commit, within
//! the pull request) and how agents' claims stood against the gate (claimed, witnessed,
//! disputed), the answer `nexus-mcp rules stats --json [--days N]` prints, with the totals of
//! the last 7 and 30 days beside all time; the skills and how often each
//! was fetched; the gate runs with their verdicts, each opening its violations at file and
//! line; and the proposal queue, AI-generated ones marked. Read-only: accepting a proposal
//! stays `nexus-mcp rules review accept`, a person's act at a terminal.

use crate::error::PageError;
use crate::{Viewer, ViewerState, pages};
use axum::Router;
use axum::extract::Query;
use axum::response::Html;
use axum::routing::get;
use nexus_mcp_runtime::backend::NexusRequest;
use serde::Deserialize;
use std::sync::Arc;

/// Violations shown for one run (most severe first, as the API orders them).
const RUN_VIOLATIONS: u32 = 500;

pub fn routes() -> Router<Arc<Viewer>> {
    Router::new()
        .route("/rules", get(repositories))
        .route("/rules/repository", get(dashboard))
        .route("/rules/run", get(run))
}

async fn repositories(axum::extract::State(v): ViewerState) -> Result<Html<String>, PageError> {
    v.repositories("rules_repositories.html").await
}

#[derive(Deserialize)]
struct RepositoryQuery {
    name: String,
    /// Count only the last N days; absent: all time.
    days: Option<u32>,
}

/// The windows the trend compares, in days (and all time).
const TREND_DAYS: [u32; 2] = [7, 30];

async fn dashboard(
    axum::extract::State(v): ViewerState,
    Query(q): Query<RepositoryQuery>,
) -> Result<Html<String>, PageError> {
    let repo = Some(q.name.as_str());
    let stats_for = |days: Option<u32>| {
        v.read(
            NexusRequest::get("/api/v1/rules/stats")
                .param("repository", repo)
                .param("days", days),
        )
    };
    // The trend's three windows; the per-rule table shows one of them unless asked for another.
    let other = q.days.filter(|d| !TREND_DAYS.contains(d));
    let (week, month, all, asked, skills, runs, proposals) = tokio::join!(
        stats_for(Some(TREND_DAYS[0])),
        stats_for(Some(TREND_DAYS[1])),
        stats_for(None),
        async {
            match other {
                Some(days) => stats_for(Some(days)).await.map(Some),
                None => Ok(None),
            }
        },
        v.read(NexusRequest::get("/api/v1/rules/skills").param("repository", repo)),
        v.read(NexusRequest::get("/api/v1/rules/gate-runs").param("repository", repo)),
        v.read(
            NexusRequest::get("/api/v1/rules/proposals")
                .param("repository", repo)
                .param("status", Some("queued")),
        ),
    );
    let (week, month, all) = (week?, month?, all?);
    let stats = match (asked?, q.days) {
        (Some(asked), _) => asked,
        (None, Some(d)) if d == TREND_DAYS[0] => week.clone(),
        (None, Some(_)) => month.clone(),
        (None, None) => all.clone(),
    };
    pages::page(
        "rules.html",
        minijinja::context! {
            name => q.name,
            days => q.days,
            windows => TREND_DAYS,
            trend => pages::value([
                ("last 7 days", week.get("totals")),
                ("last 30 days", month.get("totals")),
                ("all time", all.get("totals")),
            ]),
            stats => pages::value(&stats),
            skills => pages::value(skills?),
            runs => pages::value(runs?),
            proposals => pages::value(proposals?),
        },
    )
}

#[derive(Deserialize)]
struct RunQuery {
    repository: String,
    sha: String,
}

async fn run(
    axum::extract::State(v): ViewerState,
    Query(q): Query<RunQuery>,
) -> Result<Html<String>, PageError> {
    let result = v
        .read(
            NexusRequest::get("/api/v1/rules/gate-results")
                .param("repository", Some(&q.repository))
                .param("sha", Some(&q.sha))
                .param("limit", Some(RUN_VIOLATIONS)),
        )
        .await?;
    pages::page(
        "rules_run.html",
        minijinja::context! { repository => q.repository, result => pages::value(&result) },
    )
}
