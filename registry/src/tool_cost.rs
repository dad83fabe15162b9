//! What a surface's tool list costs a model: the compact JSON bytes of each tool's name, title,
//! description and inputSchema, for the tools listed over stdio with the default scopes. The
//! build refuses a manifest over `server.tool_list_budget` (codegen/src/budget.rs measures the
//! same thing); `nexus-mcp tools --cost` prints it.

use crate::access;
use crate::spec::{Mode, SurfaceSpec, ToolSpec};
use serde_json::{Value, json};

/// The bytes `tool` costs in a tool list.
pub fn cost(tool: &ToolSpec) -> usize {
    let input: Value = serde_json::from_str(tool.input_schema).unwrap_or(Value::Null);
    let listed = json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": input,
    });
    serde_json::to_string(&listed).map_or(0, |s| s.len())
}

/// Each default-listed tool with its cost, in registry order, and the total.
pub fn costs(surface: &SurfaceSpec) -> (Vec<(&'static str, usize)>, usize) {
    let scopes = access::default_stdio_scopes(surface);
    let costs: Vec<(&'static str, usize)> = surface
        .tools
        .iter()
        .filter(|t| access::listed(surface, t, Mode::LocalStdio, &scopes))
        .map(|t| (t.name, cost(t)))
        .collect();
    let total = costs.iter().map(|c| c.1).sum();
    (costs, total)
}

/// The `tools --cost` report: one line per tool, then the total against the budget.
pub fn report(surface: &SurfaceSpec) -> String {
    let (costs, total) = costs(surface);
    let mut out: String = costs
        .iter()
        .map(|(name, bytes)| format!("{name:<28} {bytes:>6}\n"))
        .collect();
    let budget = surface
        .tool_list_budget
        .map_or("no tool_list_budget".to_owned(), |b| format!("budget {b}"));
    out.push_str(&format!("{:<28} {total:>6}  ({budget})\n", "total"));
    out
}
