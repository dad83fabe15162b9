//! Regeneration plans, their submission (the run goes on in the background) and status.

use super::*;
use crate::code::engine::{Plan, Regen, WorkTree};
use crate::core::http::on_blocking;

pub(super) async fn regen_plan(
    State(s): State<Arc<AppState>>,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let v = body(b)?;
    blocking(s, move |s| {
        let name = v["repository"]
            .as_str()
            .ok_or_else(|| ApiError::bad("`repository` (owner/name) is required in the body"))?;
        let branch = match &v["branch"] {
            Value::Null => None,
            Value::String(b) if !b.is_empty() => Some(b.clone()),
            _ => {
                return Err(ApiError::bad(
                    "`branch` must be a non-empty string when given",
                ));
            }
        };
        let repo = known_repo(s, name)?;
        let plan = s.make_plan(repo, branch.as_deref())?;
        Ok(plan.json)
    })
    .await
}

pub(super) async fn regen_start(
    State(s): State<Arc<AppState>>,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let v = body(b)?;
    let state = s.clone();
    let (regen, tree) = on_blocking(s, move |s| submit(s, &v)).await?;
    run_in_background(state, regen.regeneration_id.clone(), tree);
    Ok((StatusCode::ACCEPTED, Json(regen.to_json())).into_response())
}

/// The answers to a submit of a plan that cannot run (any more).
struct Refusals<'a> {
    plan_id: &'a str,
}

impl Refusals<'_> {
    fn unknown(&self) -> ApiError {
        ApiError::not_found(format!(
            "unknown plan_id `{}`; create a plan with POST /api/v1/regenerations/plan",
            self.plan_id
        ))
    }

    fn used(&self) -> ApiError {
        ApiError::not_found(format!(
            "plan_id `{}` was already used (plans are single use); create a new plan with POST /api/v1/regenerations/plan",
            self.plan_id
        ))
    }

    fn expired(&self) -> ApiError {
        ApiError::conflict(
            "plan_expired",
            "the plan expired (plans live 15 minutes); create a new plan",
        )
    }
}

/// A submit: the plan is checked against the work tree, then claimed (single use). The work
/// tree as checked goes to the run.
fn submit(s: &AppState, v: &Value) -> Result<(Regen, Option<WorkTree>), ApiError> {
    let plan_id = v["plan_id"].as_str().ok_or_else(|| {
        ApiError::bad("`plan_id` is required in the body (from POST /api/v1/regenerations/plan)")
    })?;
    let allow_dirty = match &v["allow_dirty"] {
        Value::Null => false,
        Value::Bool(b) => *b,
        _ => return Err(ApiError::bad("`allow_dirty` must be a boolean")),
    };
    let refuse = Refusals { plan_id };
    let plan = s.load_plan(plan_id)?.ok_or_else(|| refuse.unknown())?;
    let tree = check_plan(s, &plan, allow_dirty, &refuse)?;
    Ok((claim(s, &plan, &refuse)?, tree))
}

/// The plan is unused, unexpired, unambiguous and still describes the work tree (HEAD,
/// branch, dirty set), and the work tree is clean unless `allow_dirty`.
fn check_plan(
    s: &AppState,
    plan: &Plan,
    allow_dirty: bool,
    refuse: &Refusals<'_>,
) -> Result<Option<WorkTree>, ApiError> {
    if plan.used {
        return Err(refuse.used());
    }
    if plan.expires_at <= s.clock.now() {
        return Err(refuse.expired());
    }
    if plan.ambiguous {
        return Err(ApiError::conflict(
            "ambiguous_target",
            format!(
                "the plan is ambiguous: {}",
                plan.ambiguity_reason.clone().unwrap_or_default()
            ),
        ));
    }
    let repo = known_repo(s, &plan.repository)?;
    // `git status` takes one core for tens of milliseconds on a large tree; meanwhile the
    // plan's changed files are parsed for the run on the other.
    let (dirty, rest) = git::dirty_files_while(&repo.root, |status_done| {
        let head = git::head_sha(&repo.root)?;
        let branch = git::current_branch(&repo.root)?;
        if let Some(changed) = plan.json["changed_files"].as_array() {
            let paths: Vec<String> = changed
                .iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect();
            repo.parse_ahead(&paths, status_done);
        }
        Ok::<_, LiteError>((head, branch))
    });
    let ((head, branch), dirty) = (rest?, dirty?);
    if head != plan.head_sha
        || branch != plan.current_branch
        || crate::code::engine::dirty_fingerprint(&dirty) != plan.dirty_fingerprint
    {
        return Err(ApiError::conflict(
            "plan_stale",
            "HEAD, the branch or the set of dirty files changed since the plan; create a new plan",
        ));
    }
    if !dirty.is_empty() && !allow_dirty {
        return Err(ApiError::conflict(
            "dirty_not_allowed",
            format!(
                "the work tree has {} uncommitted file(s) ({}); commit or stash them, or pass allow_dirty: true",
                dirty.len(),
                dirty.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    Ok(head.map(|head| WorkTree {
        head,
        branch,
        dirty,
    }))
}

/// Marks the repository's regeneration running (one at a time) and consumes the plan.
fn claim(s: &AppState, plan: &Plan, refuse: &Refusals<'_>) -> Result<Regen, ApiError> {
    {
        let mut running = s
            .running
            .lock()
            .map_err(|_| LiteError::Task("lock poisoned".into()))?;
        if !running.insert(plan.repository.clone()) {
            return Err(ApiError::conflict(
                "regeneration_running",
                format!(
                    "a regeneration of {} is already running; wait for it (GET /api/v1/regenerations/{{id}})",
                    plan.repository
                ),
            ));
        }
    }
    let started = s.start_regen(plan);
    if !matches!(started, Ok(Submitted::Started(_)))
        && let Ok(mut running) = s.running.lock()
    {
        running.remove(&plan.repository);
    }
    match started? {
        Submitted::Started(r) => Ok(r),
        Submitted::AlreadyUsed => Err(refuse.used()),
        Submitted::Expired => Err(refuse.expired()),
        Submitted::Unknown => Err(refuse.unknown()),
    }
}

/// Runs the claimed regeneration `id` on a blocking thread and records how it ended.
fn run_in_background(state: Arc<AppState>, id: String, tree: Option<WorkTree>) {
    let plan_repo = plan_repo_of(&state, &id);
    tokio::task::spawn_blocking(move || {
        let repo = plan_repo.as_deref().and_then(|n| state.repo(n));
        let ran = match repo {
            Some(repo) => state.index_at(repo, Some(&id), tree),
            None => Err(LiteError::Task(
                "the plan's repository is no longer registered".into(),
            )),
        };
        let (result, pending) = match ran {
            Ok((outcome, pending)) => (Ok(outcome), pending),
            Err(e) => (Err(e), None),
        };
        state.finish_regen(&id, &result);
        if let (Some(n), Ok(mut running)) = (&plan_repo, state.running.lock()) {
            running.remove(n);
        }
        // Reported ready first.
        if let Some(repo) = repo {
            state.after_reported(repo, pending);
        }
    });
}

pub(super) fn plan_repo_of(state: &AppState, regen_id: &str) -> Option<String> {
    let conn = state.reader().ok()?;
    conn.query_row(
        "SELECT repository FROM regenerations WHERE regeneration_id=?1",
        [regen_id],
        |r| r.get(0),
    )
    .ok()
}

pub(super) async fn regen_get(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> ApiResult {
    blocking(s, move |s| {
        // Another view's regeneration is as unknown as a wrong id.
        let served = plan_repo_of(s, &id).is_none_or(|r| s.repo(&r).is_some());
        served
            .then(|| s.regen_json(&id))
            .transpose()?
            .flatten()
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "unknown regeneration `{id}`; start one with POST /api/v1/regenerations"
                ))
            })
    })
    .await
}
