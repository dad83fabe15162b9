//! The served repositories by name: shared by every domain that reads them (code, rules), so
//! one `--repo` list means the same names everywhere.

use crate::core::config::{LiteConfig, RepoSpec};
use crate::core::error::LiteError;
use crate::core::git;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

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

/// The repositories one server serves, by name: a name is served from one root at a time. A
/// registration lasts while a view holds it (weak here), so a name no view serves is free again.
#[derive(Default)]
pub struct Registry {
    by_name: Mutex<HashMap<String, Weak<ServedRepo>>>,
}

impl Registry {
    /// The repository of `spec` (resolved to its work tree root and named), shared with every
    /// view that registered the same name and root.
    pub fn register(&self, spec: &RepoSpec) -> Result<Arc<ServedRepo>, LiteError> {
        let root = git::toplevel(&spec.path)?;
        let name = repo_name(spec.name.as_deref(), &root);
        self.served(ServedRepo { name, root })
    }

    /// The shared registration of `served`; its name served from another root is refused.
    pub fn served(&self, served: ServedRepo) -> Result<Arc<ServedRepo>, LiteError> {
        let mut by_name = self.by_name.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(existing) = by_name.get(&served.name).and_then(Weak::upgrade) {
            if existing.root == served.root {
                return Ok(existing);
            }
            return Err(LiteError::RepoNameTaken {
                name: served.name,
                root: existing.root.clone(),
                path: served.root,
            });
        }
        let repo = Arc::new(served);
        by_name.retain(|_, r| r.strong_count() > 0);
        by_name.insert(repo.name.clone(), Arc::downgrade(&repo));
        Ok(repo)
    }
}
