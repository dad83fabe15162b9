//! Context economy at build time: `server.tool_list_budget` is the most bytes a surface's tool
//! list may cost a model in the default local setup (local_stdio, scopes granted by default).
//! A tool costs the compact JSON of its name, title, description and inputSchema: what a client
//! puts in front of the model (the registry's `tool_cost`, the one the runtime reports). Output
//! schemas are not counted (clients rarely show them).

use crate::model::Manifest;
use nexus_mcp_registry::tool_cost;

/// Every default-listed tool with its cost, heaviest first, and the total: the runtime's own
/// measure (`nexus-mcp tools --cost`) of the registry value the build bakes.
pub fn costs(manifest: &Manifest) -> (Vec<(String, usize)>, usize) {
    let (costs, total) = tool_cost::costs(crate::surface(manifest));
    let mut costs: Vec<(String, usize)> = costs
        .into_iter()
        .map(|(name, bytes)| (name.to_owned(), bytes))
        .collect();
    costs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
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
