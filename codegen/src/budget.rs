//! Context economy at build time: `server.tool_list_budget` is the most bytes a surface's tool
//! list may cost a model in the default local setup (local_stdio, scopes granted by default).
//! A tool costs the compact JSON of its name, title, description and inputSchema: what a client
//! puts in front of the model. Output schemas are not counted (clients rarely show them).

use crate::model::{Manifest, Mode, Tool};
use crate::portable;
use serde_json::json;

/// The tools listed by default over stdio: meta-tools included, capabilities (`listed: false`)
/// not.
pub fn default_listed(manifest: &Manifest) -> Vec<Tool> {
    crate::emit_capabilities::listed_tools(manifest)
        .into_iter()
        .filter(|tool| {
            manifest
                .scopes
                .iter()
                .find(|s| s.name == tool.scope)
                .is_some_and(|scope| {
                    scope.default_stdio
                        && tool
                            .modes
                            .as_ref()
                            .unwrap_or(&scope.modes)
                            .contains(&Mode::LocalStdio)
                })
        })
        .collect()
}

/// What one tool costs in the tool list, in bytes.
pub fn cost(tool: &Tool, manifest: &Manifest) -> usize {
    let listed = json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": portable::input(&tool.input, &manifest.types),
    });
    serde_json::to_string(&listed).map_or(0, |s| s.len())
}

/// Every default-listed tool with its cost, heaviest first, and the total.
pub fn costs(manifest: &Manifest) -> (Vec<(String, usize)>, usize) {
    let mut costs: Vec<(String, usize)> = default_listed(manifest)
        .into_iter()
        .map(|t| {
            let cost = cost(&t, manifest);
            (t.name, cost)
        })
        .collect();
    costs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let total = costs.iter().map(|c| c.1).sum();
    (costs, total)
}

/// The problem with the surface's tool list, if it is over budget.
pub fn over_budget(manifest: &Manifest) -> Option<String> {
    let budget = manifest.server.tool_list_budget?;
    let (costs, total) = costs(manifest);
    if total <= budget {
        return None;
    }
    let heaviest: Vec<String> = costs
        .iter()
        .take(3)
        .map(|(name, bytes)| format!("{name} {bytes}"))
        .collect();
    Some(format!(
        "the tool list costs {total} bytes, over tool_list_budget {budget} (heaviest: {}). Shorten descriptions, state constraints as enum/format/pattern instead of prose, or raise the budget; `nexus-mcp tools --cost` shows every tool.",
        heaviest.join(", ")
    ))
}
