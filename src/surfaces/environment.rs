//! What the product knows at start-up that a surface's code may need (its own module so that
//! surfaces and the binding table both import it, not each other).

use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the product knows at start-up that a surface's code may need.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// Local checkouts served by the embedded nexus-lite, by repository name.
    pub local_checkouts: BTreeMap<String, PathBuf>,
    /// Documentation workspaces served by the embedded nexus-lite, by name (nexus-doc-kg).
    pub doc_workspaces: BTreeMap<String, PathBuf>,
    /// --max-commits-behind (nexus-code-kg; None: the surface's default).
    pub max_commits_behind: Option<u32>,
}
