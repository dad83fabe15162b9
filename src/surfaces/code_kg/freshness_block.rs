//! The freshness block every answer naming its graph carries: the verdict of
//! [`freshness`](super::freshness) for the served checkout, with the graph's finding paths
//! cached per graph.

use super::freshness::Verdict;
use super::state::CodeKg;
use nexus_mcp_runtime::app::ToolContext;
use nexus_mcp_runtime::backend::NexusRequest;
use nexus_mcp_runtime::error::ToolError;
use nexus_mcp_runtime::spec::Mode;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Paths that carry at least one finding in `graph_id` (all pages), cached per graph: a graph
/// never changes once ready.
pub async fn finding_paths(
    code_kg: &CodeKg,
    ctx: &ToolContext,
    graph_id: &str,
) -> Result<Arc<BTreeSet<String>>, ToolError> {
    if let Some(hit) = code_kg.cached_finding_paths(graph_id) {
        return Ok(hit);
    }
    let mut paths = BTreeSet::new();
    let mut cursor: Option<String> = None;
    // Bounded: 40 pages of 500 findings; a larger graph is cut and the verdict says unsafe below.
    for _ in 0..40 {
        let page = ctx
            .nexus(
                &NexusRequest::get("/api/v1/findings")
                    .param("graph_id", Some(graph_id))
                    .param("limit", Some(500))
                    .param("cursor", cursor.as_deref()),
            )
            .await?;
        for item in page
            .get("items")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(p) = item.get("path").and_then(Value::as_str) {
                paths.insert(p.to_owned());
            }
        }
        cursor = page
            .get("next_cursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if cursor.is_none() {
            let paths = Arc::new(paths);
            code_kg.cache_finding_paths(graph_id, paths.clone());
            return Ok(paths);
        }
    }
    Err(ToolError::Internal(
        "too many findings to check freshness".to_owned(),
    ))
}

/// The short freshness block put on every answer that names its graph.
pub async fn block(code_kg: &CodeKg, ctx: &ToolContext, raw: &Value) -> Option<Value> {
    let graph = raw.get("graph").or_else(|| raw.get("head"))?;
    let text = |k: &str| graph.get(k).and_then(Value::as_str).map(str::to_owned);
    let (graph_id, commit) = (text("graph_id"), text("commit_sha"));
    let mut block = json!({"graph_id": graph_id, "commit_sha": commit, "generated_at": text("generated_at"), "verdict": null});
    let checkout = text("repository").and_then(|r| code_kg.local_checkouts.get(&r).cloned());
    let note = match (ctx.mode, checkout, graph_id, commit) {
        (Mode::LocalStdio, Some(repo), Some(id), Some(commit)) => match finding_paths(code_kg, ctx, &id).await {
            Ok(paths) => {
                let ev = code_kg.checkout_watches.evidence(&repo, &id, &commit, &paths, code_kg.max_commits_behind).await;
                block["verdict"] = json!(ev.verdict);
                if ev.verdict == Verdict::Fresh {
                    "The graph matches the local checkout.".to_owned()
                } else {
                    format!("{} Call kg_compare_with_local_git for the evidence; read the real code before patching.", ev.reasons.join("; "))
                }
            }
            Err(e) => format!("Freshness unknown ({e}); treat the graph as stale."),
        },
        (Mode::LocalStdio, _, _, _) => "No local checkout is known for this repository: call kg_compare_with_local_git with local_path before patching.".to_owned(),
        _ => "The graph describes commit_sha only; compare it with your checkout before patching.".to_owned(),
    };
    block["note"] = json!(note);
    Some(block)
}
