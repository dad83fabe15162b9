//! One opened data directory and its views. A [`Server`] holds what every client of the data
//! directory shares (the core, the code domain's regenerations, running set, graph cache and
//! clock, and the registered repositories and workspaces with their caches and locks); a
//! [`Server::view`] serves some domains over a subset of them. `nexus-lite serve` is one view of
//! everything behind the bearer check; the local daemon gives each client its own.

use crate::code::engine::{AppState, CodeShared, Repo};
use crate::core::error::LiteError;
use crate::core::repos::{ServedRepo, repo_name, served_repos};
use crate::core::state::Core;
use crate::docs::config::Limits;
use crate::docs::{DocsState, Workspace, WorkspaceSpec};
use crate::{LiteConfig, RepoSpec};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};

/// One opened data directory (see the module comment).
pub struct Server {
    pub core: Arc<Core>,
    pub index_on_first_use: bool,
    pub code: CodeShared,
    /// By name. Weak: a repository no view serves any more is forgotten (its name is free).
    repos: Mutex<HashMap<String, Weak<Repo>>>,
    /// Shared when name, canonical root and limits are identical.
    workspaces: Mutex<Vec<(Limits, Weak<Workspace>)>>,
}

impl Server {
    /// Locks `data_dir`, opens its database (every domain's migrations) and marks the runs a
    /// previous process left `running` failed.
    pub fn open(
        data_dir: &Path,
        token: &str,
        index_on_first_use: bool,
    ) -> Result<Arc<Server>, LiteError> {
        let core = Core::open(data_dir, token, &crate::migrations())?;
        let recovered = crate::code::store::recover_interrupted(&core.writer()?)?;
        if recovered > 0 {
            tracing::warn!(recovered, "marked interrupted graph runs as failed");
        }
        Ok(Arc::new(Server {
            core,
            index_on_first_use,
            code: CodeShared::default(),
            repos: Mutex::new(HashMap::new()),
            workspaces: Mutex::new(Vec::new()),
        }))
    }

    /// The server of `config` and its repositories (checked before the data directory is
    /// locked: names unique, each a git work tree).
    pub fn open_config(config: &LiteConfig) -> Result<(Arc<Server>, Vec<Arc<Repo>>), LiteError> {
        let served = served_repos(config)?;
        let server = Server::open(&config.data_dir, &config.token, config.index_on_first_use)?;
        let repos = served
            .into_iter()
            .map(|r| server.served_repo(r))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((server, repos))
    }

    /// The repository of `spec` (resolved to its work tree root and named), shared with every
    /// view that registered the same name and root.
    pub fn repo(&self, spec: &RepoSpec) -> Result<Arc<Repo>, LiteError> {
        let root = crate::core::git::toplevel(&spec.path)?;
        let name = repo_name(spec.name.as_deref(), &root);
        self.served_repo(ServedRepo { name, root })
    }

    /// The shared repository `served`; its name served from another root is refused.
    pub fn served_repo(&self, served: ServedRepo) -> Result<Arc<Repo>, LiteError> {
        let mut repos = self.repos.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(existing) = repos.get(&served.name).and_then(Weak::upgrade) {
            if existing.root == served.root {
                return Ok(existing);
            }
            return Err(LiteError::RepoNameTaken {
                name: served.name,
                root: existing.root.clone(),
                path: served.root,
            });
        }
        let repo = Arc::new(Repo::new(served.name.clone(), served.root));
        repos.retain(|_, r| r.strong_count() > 0);
        repos.insert(served.name, Arc::downgrade(&repo));
        Ok(repo)
    }

    /// The workspace of `spec` under the operator's `limits`, shared with every view that
    /// registered the same name, canonical root and limits (else a new one: its index is its own).
    pub fn workspace(
        &self,
        spec: &WorkspaceSpec,
        limits: &Limits,
    ) -> Result<Arc<Workspace>, LiteError> {
        let candidate = Workspace::open(spec, limits)?;
        let mut all = self.workspaces.lock().unwrap_or_else(|p| p.into_inner());
        all.retain(|(_, w)| w.strong_count() > 0);
        for (l, w) in all.iter() {
            if let Some(w) = w.upgrade()
                && l == limits
                && w.name == candidate.name
                && w.dir == candidate.dir
            {
                return Ok(w);
            }
        }
        let ws = Arc::new(candidate);
        all.push((limits.clone(), Arc::downgrade(&ws)));
        Ok(ws)
    }

    /// The code domain over `repos`, sharing everything else of this server.
    pub fn code_state(&self, repos: Vec<Arc<Repo>>) -> Arc<AppState> {
        AppState::view(
            self.core.clone(),
            &self.code,
            repos,
            self.index_on_first_use,
        )
    }

    /// The routers of `domains` (names from [`crate::DOMAINS`]) over `repos` and `workspaces`
    /// only, without auth (the caller checks who asks) and without the public routes; any other
    /// path answers 404 "no endpoint".
    pub fn view(
        &self,
        repos: Vec<Arc<Repo>>,
        workspaces: Vec<Arc<Workspace>>,
        domains: &BTreeSet<&str>,
    ) -> Result<axum::Router, LiteError> {
        let docs = DocsState::with(self.core.clone(), workspaces)?;
        Ok(crate::domain_routers(self.code_state(repos), docs, domains))
    }
}

/// The domains (code, rules, docs) whose routes include one of `routes` (METHOD, OpenAPI path
/// template); unknown routes are ignored.
pub fn domains_of(routes: &[(String, String)]) -> BTreeSet<&'static str> {
    crate::DOMAINS
        .iter()
        .filter(|d| crate::SERVED_DOMAINS.contains(&d.name))
        .filter(|d| {
            d.routes.iter().any(|(m, p)| {
                routes
                    .iter()
                    .any(|(rm, rp)| rm.eq_ignore_ascii_case(m) && rp == p)
            })
        })
        .map(|d| d.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_of_maps_route_templates_to_their_domains_and_ignores_the_rest() {
        let routes = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(m, p)| (m.to_string(), p.to_string()))
                .collect()
        };
        let docs = domains_of(&routes(&[
            ("GET", "/api/v1/docs/tasks"),
            ("GET", "/api/v1/nope"),
            ("GET", "/healthz"),
        ]));
        assert_eq!(docs, BTreeSet::from(["docs"]));
        let both = domains_of(&routes(&[
            ("get", "/api/v1/repositories"),
            ("POST", "/api/v1/rules/gate-results"),
        ]));
        assert_eq!(both, BTreeSet::from(["code", "rules"]));
        assert!(domains_of(&routes(&[("POST", "/api/v1/repositories")])).is_empty());
    }
}
