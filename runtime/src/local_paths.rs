//! Local paths from agents are accepted only in local stdio, only inside
//! NEXUS_MCP_LOCAL_REPO_ROOTS, after resolving symlinks, and never with `..`.

use crate::app::ToolContext;
use crate::error::{ToolError, echo};
use crate::spec::Mode;
use std::path::{Component, Path, PathBuf};

/// Parses NEXUS_MCP_LOCAL_REPO_ROOTS (`:`-separated); roots that do not exist are dropped with a warning.
pub fn parse_roots(list: &str) -> Vec<PathBuf> {
    std::env::split_paths(list)
        .filter(|p| !p.as_os_str().is_empty())
        .filter_map(|p| match p.canonicalize() {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::warn!(root = %p.display(), error = %e, "ignoring a local repo root that cannot be resolved");
                None
            }
        })
        .collect()
}

/// The canonical checkout `local_path` names, or a refusal that says why.
pub fn resolve(ctx: &ToolContext, local_path: &str) -> Result<PathBuf, ToolError> {
    if ctx.mode != Mode::LocalStdio {
        return Err(ToolError::refused(
            "local_path_refused",
            "local paths are only accepted by a local stdio server; over HTTP, name what to read with the tool's other inputs",
        ));
    }
    let path = Path::new(local_path);
    let shown = echo(local_path);
    if !path.is_absolute() {
        return Err(ToolError::refused(
            "local_path_refused",
            format!("local_path `{shown}` must be absolute"),
        ));
    }
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(ToolError::refused(
            "local_path_refused",
            format!("local_path `{shown}` contains `..`; pass the checkout's real path"),
        ));
    }
    let roots = &ctx.app.settings.local_repo_roots;
    if roots.is_empty() {
        return Err(ToolError::refused(
            "local_path_refused",
            "no local repository roots are allowed: the operator must set NEXUS_MCP_LOCAL_REPO_ROOTS",
        ));
    }
    let canonical = path.canonicalize().map_err(|e| ToolError::NotFound {
        message: format!("local_path `{shown}` cannot be resolved: {e}"),
    })?;
    if !roots.iter().any(|root| canonical.starts_with(root)) {
        return Err(ToolError::refused(
            "local_path_refused",
            format!(
                "local_path `{shown}` resolves outside NEXUS_MCP_LOCAL_REPO_ROOTS (symlinks are followed before the check)"
            ),
        ));
    }
    Ok(canonical)
}
