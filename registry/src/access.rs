//! Who may see and call what: runtime mode plus granted scopes.

use crate::spec::{Handler, Mode, SurfaceSpec, ToolSpec};
use std::collections::BTreeSet;

/// A tool exists for a caller only when its mode allows it and the caller holds its scope. A
/// meta-tool exists only when at least one capability behind it does.
pub fn visible(
    surface: &SurfaceSpec,
    tool: &ToolSpec,
    mode: Mode,
    scopes: &BTreeSet<String>,
) -> bool {
    tool.modes.contains(&mode)
        && scope_usable(surface, tool.scope, mode, scopes)
        && (!matches!(tool.handler, Handler::Meta(_))
            || surface
                .tools
                .iter()
                .any(|t| !t.listed && visible(surface, t, mode, scopes)))
}

/// What tools/list shows and tools/call accepts by name: visible and not a capability.
pub fn listed(
    surface: &SurfaceSpec,
    tool: &ToolSpec,
    mode: Mode,
    scopes: &BTreeSet<String>,
) -> bool {
    tool.listed && visible(surface, tool, mode, scopes)
}

/// The caller holds `scope`, and the scope exists in `mode`.
pub fn scope_usable(
    surface: &SurfaceSpec,
    scope: &str,
    mode: Mode,
    scopes: &BTreeSet<String>,
) -> bool {
    scopes.contains(scope)
        && surface
            .scope(scope)
            .is_some_and(|s| s.modes.contains(&mode))
}

/// Scopes granted over stdio when none are asked for: those the manifest marks default_stdio.
pub fn default_stdio_scopes(surface: &SurfaceSpec) -> BTreeSet<String> {
    surface
        .scopes
        .iter()
        .filter(|s| s.default_stdio)
        .map(|s| s.name.to_owned())
        .collect()
}

/// Parses `a,b` and checks every scope exists on the surface.
pub fn parse_scopes(surface: &SurfaceSpec, list: &str) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if surface.scope(name).is_none() {
            let known: Vec<&str> = surface.scopes.iter().map(|s| s.name).collect();
            return Err(format!(
                "unknown scope `{name}` for surface {}; known scopes: {}",
                surface.name,
                known.join(", ")
            ));
        }
        out.insert(name.to_owned());
    }
    Ok(out)
}
