//! Guarded regeneration: a dry run returns a plan bound to the repository's state; a real run
//! needs that plan (still valid), explicit confirmation, and allow_dirty on a dirty worktree.
//! Nexus re-checks the plan; this side waits for the run, reports progress, and compares.

use super::typed::typed;
use crate::generated::nexus_code_kg::{
    KgRegenerateInput, KgRegenerateOutput, Regeneration, RegenerationPlan,
};
use nexus_mcp_runtime::app::ToolContext;
use nexus_mcp_runtime::backend::NexusRequest;
use nexus_mcp_runtime::error::{ToolError, log_internal};
use nexus_mcp_runtime::spec::Mode;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A regeneration that runs longer than this is reported as still running, not waited for.
const WAIT_LIMIT: Duration = Duration::from_secs(600);
const POLL_EVERY: Duration = Duration::from_millis(150);

pub async fn plan(
    ctx: &ToolContext,
    repository: &str,
    branch: &str,
) -> Result<(RegenerationPlan, Vec<String>), ToolError> {
    let answer = ctx
        .nexus(&NexusRequest::post(
            "/api/v1/regenerations/plan",
            json!({"repository": repository, "branch": branch}),
        ))
        .await?;
    let plan: RegenerationPlan = typed(&answer, "regeneration plan")?;
    let mut warnings = Vec::new();
    if plan.worktree_dirty == Some(true) {
        let files = plan.dirty_files.clone().unwrap_or_default();
        warnings.push(format!(
            "The worktree is dirty ({} file(s): {}). A real run indexes uncommitted changes and needs allow_dirty=true.",
            files.len(),
            files.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    if plan.ambiguous == Some(true) {
        warnings.push(format!(
            "The target is ambiguous ({}): a real run will be refused until that is resolved.",
            plan.ambiguity_reason
                .as_deref()
                .unwrap_or("no reason given")
        ));
    }
    Ok((plan, warnings))
}

pub fn after_plan_hint(plan: &RegenerationPlan) -> String {
    if plan.ambiguous == Some(true) {
        return "Resolve the ambiguity (check out the requested branch) and run the dry run again."
            .to_owned();
    }
    format!(
        "Review the plan with a human or the SR method; then kg_regenerate_submit with plan_id {} and confirmed_by_sr=true{} before {}.",
        plan.plan_id.as_deref().unwrap_or("?"),
        if plan.worktree_dirty == Some(true) {
            " and allow_dirty=true"
        } else {
            ""
        },
        plan.expires_at.as_deref().unwrap_or("it expires")
    )
}

pub struct Finished {
    pub regeneration: Regeneration,
    pub comparison: Option<Value>,
    pub comparison_skipped_reason: Option<String>,
    pub warnings: Vec<String>,
}

impl Finished {
    /// What the agent does next: only a comparison has findings to check; a failed or
    /// unfinished run says what to do instead.
    pub fn next_step(&self) -> String {
        match (&self.comparison, self.regeneration.status.as_deref()) {
            (Some(_), _) => "Check comparison.findings: your fixed finding should be `absent`; anything `new` needs a look.",
            (None, Some("ready")) => "This is the first graph: list its findings with kg_list_audit_risks.",
            (None, Some("running")) => "The regeneration is still running: compare later with kg_compare_runs.",
            (None, _) => "The regeneration did not finish (see comparison_skipped_reason): plan again with kg_regenerate_dry_run.",
        }
        .to_owned()
    }
}

/// Starts the planned run, waits for it with progress notifications, then compares graphs.
pub async fn submit(
    ctx: &ToolContext,
    plan_id: &str,
    allow_dirty: bool,
) -> Result<Finished, ToolError> {
    let started = ctx
        .nexus(&NexusRequest::post(
            "/api/v1/regenerations",
            json!({"plan_id": plan_id, "allow_dirty": allow_dirty}),
        ))
        .await
        .map_err(explain_refusal)?;
    let id = started
        .get("regeneration_id")
        .and_then(Value::as_str)
        .ok_or_else(|| ToolError::Backend {
            code: "bad_response".to_owned(),
            message: "Nexus started a regeneration without a regeneration_id".to_owned(),
            retryable: false,
        })?;
    let path = format!(
        "/api/v1/regenerations/{}",
        utf8_percent_encode(id, NON_ALPHANUMERIC)
    );
    let begun = Instant::now();
    let mut state = started.clone();
    while state.get("status").and_then(Value::as_str) == Some("running")
        && begun.elapsed() < WAIT_LIMIT
    {
        let done = state
            .pointer("/progress/done")
            .and_then(Value::as_f64)
            .unwrap_or(0.0);
        let total = state.pointer("/progress/total").and_then(Value::as_f64);
        let phase = state
            .get("phase")
            .and_then(Value::as_str)
            .unwrap_or("running")
            .to_owned();
        ctx.progress(done, total, format!("regeneration {phase}"))
            .await;
        // Polling Nexus is the contract (no push channel); the interval is short and bounded.
        tokio::time::sleep(POLL_EVERY).await;
        state = ctx.nexus(&NexusRequest::get(path.clone())).await?;
    }
    let mut regeneration: Regeneration = typed(&state, "regeneration")?;
    // A failed run's error is the server's (absolute paths, git's stderr): over HTTP the
    // client gets a reference to the log instead.
    if ctx.mode == Mode::RemoteHttp
        && let Some(error) = regeneration.error.take()
    {
        regeneration.error = Some(format!(
            "the regeneration failed on the server; the operator finds the details in its log under reference {}",
            log_internal(&error)
        ));
    }
    let mut warnings = regeneration.warnings.clone().unwrap_or_default();
    if allow_dirty {
        warnings.push("allow_dirty was set: the new graph includes uncommitted changes, so its commit_sha alone does not describe it.".to_owned());
    }
    let (comparison, skipped) = match (
        regeneration.status.as_deref(),
        &regeneration.previous_graph_id,
        &regeneration.graph_id,
    ) {
        (Some("ready"), Some(base), Some(head)) => {
            let cmp = ctx
                .nexus(
                    &NexusRequest::get("/api/v1/compare")
                        .param("base_graph_id", Some(base))
                        .param("head_graph_id", Some(head))
                        .param("limit", Some(50)),
                )
                .await?;
            (Some(cmp), None)
        }
        (Some("ready"), None, _) => (
            None,
            Some(
                "this is the first graph of the repository and branch: nothing to compare with"
                    .to_owned(),
            ),
        ),
        (Some("running"), _, _) => (
            None,
            Some(format!(
                "still running after {}s; compare later with kg_compare_runs",
                WAIT_LIMIT.as_secs()
            )),
        ),
        _ => (
            None,
            Some(format!(
                "the regeneration did not finish: {}",
                regeneration.error.as_deref().unwrap_or("no error given")
            )),
        ),
    };
    ctx.progress(1.0, Some(1.0), "regeneration finished").await;
    Ok(Finished {
        regeneration,
        comparison,
        comparison_skipped_reason: skipped,
        warnings,
    })
}

/// Nexus' 409 codes become refusals that say what to do next.
fn explain_refusal(e: ToolError) -> ToolError {
    match e {
        ToolError::Backend { code, message, .. }
            if code == "plan_stale" || code == "plan_expired" =>
        {
            ToolError::refused(
                "plan_stale",
                format!(
                    "{message}. The repository changed since the dry run (or the plan expired): run the dry run again and review the new plan."
                ),
            )
        }
        ToolError::Backend { code, message, .. } if code == "dirty_not_allowed" => {
            ToolError::refused(
                "dirty_not_allowed",
                format!(
                    "{message}. The worktree is dirty: pass allow_dirty=true only if indexing uncommitted changes is intended."
                ),
            )
        }
        ToolError::Backend { code, message, .. } if code == "ambiguous_target" => {
            ToolError::refused(
                "ambiguous_target",
                format!("{message}. The target graph is ambiguous; nothing was regenerated."),
            )
        }
        ToolError::NotFound { message } => ToolError::refused(
            "plan_stale",
            format!("{message}. Unknown plan: run the dry run again."),
        ),
        other => other,
    }
}

/// kg_regenerate: one tool for both steps, dry run unless told otherwise.
pub async fn compat(
    ctx: &ToolContext,
    input: KgRegenerateInput,
) -> Result<KgRegenerateOutput, ToolError> {
    if input.dry_run {
        let (plan, warnings) = plan(ctx, &input.repository, &input.branch).await?;
        return Ok(KgRegenerateOutput {
            dry_run: true,
            next_step: Some(after_plan_hint(&plan).replace(
                "kg_regenerate_submit with",
                "kg_regenerate with dry_run=false,",
            )),
            plan: Some(plan),
            regeneration: None,
            comparison: None,
            comparison_skipped_reason: None,
            warnings: Some(warnings),
        });
    }
    // The runtime already required confirmed_by_sr=true and a plan_id (manifest mutation rules).
    let plan_id = input.plan_id.unwrap_or_default();
    let done = submit(ctx, &plan_id, input.allow_dirty).await?;
    let next_step = done.next_step();
    Ok(KgRegenerateOutput {
        dry_run: false,
        plan: None,
        regeneration: Some(done.regeneration),
        comparison: done.comparison,
        comparison_skipped_reason: done.comparison_skipped_reason,
        warnings: Some(done.warnings),
        next_step: Some(next_step),
    })
}
