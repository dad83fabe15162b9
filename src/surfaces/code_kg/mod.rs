//! The nexus-code-kg tools that need code: proof-tuple resolution and action packets, the
//! local freshness verdict, and guarded regeneration. Everything goes through the Nexus API.

mod checkout_watch;
pub mod freshness;
mod freshness_block;
mod packet;
mod regenerate;
mod resolve;
mod state;
mod typed;

use state::CodeKg;
use typed::typed;

use super::environment::Environment;
use crate::generated::nexus_code_kg::*;
use nexus_mcp_runtime::app::{EnvelopeHook, SurfaceParts, ToolContext};
use nexus_mcp_runtime::backend::NexusRequest;
use nexus_mcp_runtime::error::ToolError;
use nexus_mcp_runtime::local_paths;
use nexus_mcp_runtime::spec::ToolSpec;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

/// The binding: custom handlers and the freshness envelope, sharing one [`CodeKg`].
pub fn bind(env: &Environment) -> SurfaceParts {
    let code_kg = Arc::new(CodeKg {
        local_checkouts: env.local_checkouts.clone(),
        max_commits_behind: env.max_commits_behind.unwrap_or(20),
        finding_paths: Mutex::default(),
        checkout_watches: Default::default(),
    });
    let handlers = code_kg.clone();
    SurfaceParts {
        custom: Arc::new(move |ctx, tool, args| dispatch_custom(handlers.clone(), ctx, tool, args)),
        envelope: Some(code_kg),
        progress: None,
    }
}

/// Every answer that names its graph says how fresh that graph is.
impl EnvelopeHook for CodeKg {
    fn fields<'a>(
        &'a self,
        ctx: &'a ToolContext,
        _tool: &'static ToolSpec,
        raw: &'a Value,
    ) -> Pin<Box<dyn Future<Output = Map<String, Value>> + Send + 'a>> {
        Box::pin(async move {
            let mut fields = Map::new();
            if let Some(block) = freshness_block::block(self, ctx, raw).await {
                fields.insert("freshness".to_owned(), block);
            }
            fields
        })
    }
}

impl CustomHandlers for CodeKg {
    async fn kg_get_audit_risk(
        &self,
        ctx: ToolContext,
        input: KgGetAuditRiskInput,
    ) -> Result<KgGetAuditRiskOutput, ToolError> {
        resolve::audit_risk(&ctx, input).await
    }

    async fn kg_get_anomaly(
        &self,
        ctx: ToolContext,
        input: KgGetAnomalyInput,
    ) -> Result<KgGetAnomalyOutput, ToolError> {
        resolve::anomaly(&ctx, input).await
    }

    async fn kg_compare_with_local_git(
        &self,
        ctx: ToolContext,
        input: KgCompareWithLocalGitInput,
    ) -> Result<KgCompareWithLocalGitOutput, ToolError> {
        let checkout = local_paths::resolve(&ctx, &input.local_path)?;
        let request = NexusRequest::get("/api/v1/graphs/select")
            .param("repository", input.repository.as_deref())
            .param("branch", input.branch.as_deref())
            .param("graph_id", input.graph_id.as_deref());
        let answer = ctx.nexus(&request).await?;
        let graph = answer.get("graph").cloned().unwrap_or(Value::Null);
        let commit = graph
            .get("commit_sha")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let graph_id = graph
            .get("graph_id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let paths = freshness_block::finding_paths(self, &ctx, &graph_id).await?;
        let max = u32::try_from(input.max_commits_behind.max(0)).unwrap_or(u32::MAX);
        let ev = freshness::assess(&checkout, &commit, &paths, max).await;
        let local_branch = tokio::process::Command::from(nexus_lite::git::command(&checkout))
            .args(["symbolic-ref", "--short", "-q", "HEAD"])
            .output()
            .await
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
        let verdict = serde_json::to_value(ev.verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let next_step = match ev.verdict {
            freshness::Verdict::Fresh => {
                "The graph matches your checkout: findings and line numbers can be trusted; still read the real code before patching."
            }
            freshness::Verdict::StaleButUsable => {
                "Usable for orientation; re-read each flagged file before patching, and regenerate after your fix."
            }
            freshness::Verdict::Stale => {
                "Do not rely on the graph for patch decisions: regenerate (kg_regenerate_dry_run) or read the code directly."
            }
            freshness::Verdict::UnsafeForPatchDecision => {
                "Files with findings changed since the graph: regenerate before trusting any finding in them."
            }
        };
        Ok(KgCompareWithLocalGitOutput {
            verdict,
            graph: typed(&graph, "graph").ok(),
            graph_commit: Some(ev.graph_commit),
            head: ev.head,
            local_branch,
            commits_between: ev.commits_between.and_then(|n| i64::try_from(n).ok()),
            dirty_files: Some(ev.dirty_files),
            changed_files: Some(ev.changed_files),
            files_with_findings_touched: Some(ev.files_with_findings_touched),
            reasons: ev.reasons,
            next_step: Some(next_step.to_owned()),
        })
    }

    async fn kg_regenerate(
        &self,
        ctx: ToolContext,
        input: KgRegenerateInput,
    ) -> Result<KgRegenerateOutput, ToolError> {
        regenerate::compat(&ctx, input).await
    }

    async fn kg_regenerate_dry_run(
        &self,
        ctx: ToolContext,
        input: KgRegenerateDryRunInput,
    ) -> Result<KgRegenerateDryRunOutput, ToolError> {
        let (plan, warnings) = regenerate::plan(&ctx, &input.repository, &input.branch).await?;
        Ok(KgRegenerateDryRunOutput {
            next_step: Some(regenerate::after_plan_hint(&plan)),
            plan,
            warnings: Some(warnings),
        })
    }

    async fn kg_regenerate_submit(
        &self,
        ctx: ToolContext,
        input: KgRegenerateSubmitInput,
    ) -> Result<KgRegenerateSubmitOutput, ToolError> {
        let done = regenerate::submit(&ctx, &input.plan_id, input.allow_dirty).await?;
        let next_step = Some(done.next_step());
        Ok(KgRegenerateSubmitOutput {
            regeneration: done.regeneration,
            comparison: done.comparison,
            comparison_skipped_reason: done.comparison_skipped_reason,
            warnings: Some(done.warnings),
            next_step,
        })
    }
}
