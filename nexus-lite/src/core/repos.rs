//! The served repositories by name: shared by every domain that reads them (code, rules), so
//! one `--repo` list means the same names everywhere.

use crate::core::config::LiteConfig;
use crate::core::error::LiteError;
use crate::core::git;
use std::path::{Path, PathBuf};

/// One served repository: its name (owner/name) and the root of its work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedRepo {
    pub name: String,
    pub root: PathBuf,
}

/// The repositories of `config`, each at the root of its work tree, names checked unique.
pub fn served_repos(config: &LiteConfig) -> Result<Vec<ServedRepo>, LiteError> {
    let mut repos: Vec<ServedRepo> = Vec::new();
    for spec in &config.repos {
        let root = git::toplevel(&spec.path)?;
        let name = repo_name(spec.name.as_deref(), &root);
        if repos.iter().any(|r| r.name == name) {
            return Err(LiteError::DuplicateRepo { name });
        }
        repos.push(ServedRepo { name, root });
    }
    Ok(repos)
}

/// Name of a repository: explicit, else owner/name of origin, else local/<dir>.
pub fn repo_name(explicit: Option<&str>, root: &Path) -> String {
    if let Some(n) = explicit.filter(|n| !n.trim().is_empty()) {
        return n.trim().to_string();
    }
    if let Some(n) = git::origin_url(root).and_then(|u| git::owner_name_from_url(&u)) {
        return n;
    }
    let dir = root
        .file_name()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repository".into());
    format!("local/{dir}")
}
