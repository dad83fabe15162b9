//! What the registry holds beyond the manifest's own values: each tool's narrowed modes, its
//! published schemas and its budget. emit.rs writes these as Rust; nexus-mcp's `--manifest`
//! loader builds its in-memory registry from the same functions, so a manifest served from a
//! file publishes exactly what the compiled one would.

use crate::model::{Manifest, Mode, Tool};
use serde_json::Value;

/// The derived registry values of one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDerived {
    /// The tool's own modes, or its scope's.
    pub modes: Vec<Mode>,
    /// Published input schema, canonical JSON (what contract/ holds).
    pub input_schema: String,
    /// Published output schema with the envelope fields, canonical JSON.
    pub output_schema: String,
    /// The tool's result budget, or the server's.
    pub budget: usize,
}

pub fn tool_derived(manifest: &Manifest, tool: &Tool) -> ToolDerived {
    let types = &manifest.types;
    let scope_modes = manifest
        .scopes
        .iter()
        .find(|s| s.name == tool.scope)
        .map(|s| s.modes.clone())
        .unwrap_or_default();
    ToolDerived {
        modes: tool.modes.clone().unwrap_or(scope_modes),
        input_schema: canonical_json(&crate::portable::input(&tool.input, types)),
        output_schema: canonical_json(&crate::portable::output(
            &crate::envelope::with_envelope(&tool.output, &manifest.envelope),
            types,
        )),
        budget: tool
            .response
            .budget
            .unwrap_or(manifest.server.result_budget),
    }
}

/// The budget of a resource's backend answer: its own, or the server's.
pub fn resource_budget(manifest: &Manifest, resource: &crate::model::Resource) -> usize {
    resource
        .response
        .budget
        .unwrap_or(manifest.server.result_budget)
}

fn canonical_json(value: &Value) -> String {
    crate::emit::canonical_json(value)
}
