//! One opened data directory and its views. A [`Server`] holds what every client of the data
//! directory shares: the core, the repository registry, the registered workspaces, and each
//! domain once it is first served (a server that never serves code never creates its tables nor
//! its state). A [`Server::view`] serves some domains over a subset of the repositories and
//! workspaces. `nexus-lite serve` is one view behind the bearer check; the local daemon gives
//! each client its own.

use crate::code::engine::{AppState, CodeShared};
use crate::core::config::{LiteConfig, RepoSpec};
use crate::core::error::LiteError;
use crate::core::http::not_found_route;
use crate::core::repos::{Registry, ServedRepo, served_repos};
use crate::core::state::Core;
use crate::docs::config::Limits;
use crate::docs::{DocsState, Workspace, WorkspaceSpec};
use crate::rules::RulesState;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};

/// One opened data directory (see the module comment).
pub struct Server {
    pub core: Arc<Core>,
    pub index_on_first_use: bool,
    /// Ready code graphs kept per (repository, branch) (see `crate::code::retention`).
    pub keep_graphs: usize,
    /// The registered repositories (code and rules read the same names).
    pub repos: Registry,
    /// The code domain, opened by the first view that serves it.
    code: Mutex<Option<CodeShared>>,
    /// Shared when name, canonical root and limits are identical.
    workspaces: Mutex<Vec<(Limits, Weak<Workspace>)>>,
}

/// The states of one view: a domain it does not serve has none.
#[derive(Clone, Default)]
pub struct Domains {
    pub code: Option<Arc<AppState>>,
    pub rules: Option<Arc<RulesState>>,
    pub docs: Option<Arc<DocsState>>,
}

impl Domains {
    /// The served domains' routes, without auth; any other path answers 404, saying which
    /// domain would serve it when one is not served here.
    pub fn router(&self) -> axum::Router {
        let mut api = axum::Router::new();
        let mut served = BTreeSet::new();
        if let Some(rules) = &self.rules {
            api = api.merge(crate::rules::router(rules.clone()));
            served.insert(crate::rules::DOMAIN.name);
        }
        if let Some(code) = &self.code {
            api = api.merge(crate::code::router(code.clone()));
            served.insert(crate::code::DOMAIN.name);
        }
        if let Some(docs) = &self.docs {
            api = api.merge(crate::docs::router(docs.clone()));
            served.insert(crate::docs::DOMAIN.name);
        }
        api.fallback(move |req: Request| unserved(served.clone(), req))
    }
}

/// The 404 of a path no served domain answers: "not served here" for another domain's route,
/// else core's "no endpoint".
async fn unserved(served: BTreeSet<&'static str>, req: Request) -> Response {
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let owner = crate::DOMAINS.iter().find(|d| {
        !served.contains(d.name)
            && d.routes
                .iter()
                .any(|(m, t)| m.eq_ignore_ascii_case(&method) && template_matches(t, &path))
    });
    match owner {
        Some(d) => crate::core::http::ApiError::not_found(format!(
            "no endpoint {method} {path} here: it belongs to the {} domain, which is not served here (nexus-lite serve serves it with --domain {}, or every domain without --domain)",
            d.name, d.name
        ))
        .into_response(),
        None => not_found_route(req).await.into_response(),
    }
}

/// Whether `path` fits the OpenAPI path `template` (a `{name}` segment matches any one segment).
fn template_matches(template: &str, path: &str) -> bool {
    let (mut t, mut p) = (template.split('/'), path.split('/'));
    loop {
        match (t.next(), p.next()) {
            (None, None) => return true,
            (Some(ts), Some(ps)) if ts == ps || (ts.starts_with('{') && !ps.is_empty()) => {}
            _ => return false,
        }
    }
}

impl Server {
    /// Locks `data_dir` and opens its database; no domain is opened yet (see [`Server::view`]).
    pub fn open(
        data_dir: &Path,
        token: &str,
        index_on_first_use: bool,
        keep_graphs: usize,
    ) -> Result<Arc<Server>, LiteError> {
        let core = Core::open(data_dir, token)?;
        Ok(Arc::new(Server {
            core,
            index_on_first_use,
            keep_graphs,
            repos: Registry::default(),
            code: Mutex::new(None),
            workspaces: Mutex::new(Vec::new()),
        }))
    }

    /// The server of `config` and its repositories (checked before the data directory is
    /// locked: names unique, each a git work tree).
    pub fn open_config(
        config: &LiteConfig,
    ) -> Result<(Arc<Server>, Vec<Arc<ServedRepo>>), LiteError> {
        let served = served_repos(config)?;
        let server = Server::open(
            &config.data_dir,
            &config.token,
            config.index_on_first_use,
            config.keep_graphs,
        )?;
        let repos = served
            .into_iter()
            .map(|r| server.repos.served(r))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((server, repos))
    }

    /// The repository of `spec`, shared with every view that registered the same name and root.
    pub fn repo(&self, spec: &RepoSpec) -> Result<Arc<ServedRepo>, LiteError> {
        self.repos.register(spec)
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

    /// The code domain's shared state, opening the domain (tables, recovery) on first use.
    pub fn code(&self) -> Result<CodeShared, LiteError> {
        let mut code = self.code.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(shared) = code.as_ref() {
            return Ok(shared.clone());
        }
        let shared = CodeShared::open(&self.core, self.keep_graphs)?;
        *code = Some(shared.clone());
        Ok(shared)
    }

    /// Whether the code domain was opened (a view served it).
    pub fn code_is_open(&self) -> bool {
        self.code
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    /// Whether a regeneration runs (in the code domain, if opened).
    pub fn regenerating(&self) -> bool {
        self.code
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|c| c.running.lock().map(|r| !r.is_empty()).unwrap_or(false))
    }

    /// The code domain over `repos`, sharing everything else of this server.
    pub fn code_state(&self, repos: &[Arc<ServedRepo>]) -> Result<Arc<AppState>, LiteError> {
        let shared = self.code()?;
        let repos = repos.iter().map(|r| shared.repo(r.clone())).collect();
        let state = AppState::view(self.core.clone(), &shared, repos, self.index_on_first_use);
        // Not joined: the client's first question waits for the graph only if it comes first.
        let _reading = state.read_ahead();
        Ok(state)
    }

    /// The states of `domains` (names from [`crate::SERVED_DOMAINS`]) over `repos` and
    /// `workspaces`, each domain opened on first use.
    pub fn domains(
        &self,
        repos: &[Arc<ServedRepo>],
        workspaces: Vec<Arc<Workspace>>,
        domains: &BTreeSet<&str>,
    ) -> Result<Domains, LiteError> {
        let mut out = Domains::default();
        if domains.contains(crate::rules::DOMAIN.name) {
            self.core.open_domain(&crate::rules::DOMAIN)?;
            out.rules = Some(RulesState::new(self.core.clone(), repos.to_vec()));
        }
        if domains.contains(crate::code::DOMAIN.name) {
            out.code = Some(self.code_state(repos)?);
        }
        if domains.contains(crate::docs::DOMAIN.name) {
            self.core.open_domain(&crate::docs::DOMAIN)?;
            out.docs = Some(DocsState::with(self.core.clone(), workspaces)?);
        }
        Ok(out)
    }

    /// The routers of `domains` over `repos` and `workspaces` only, without auth (the caller
    /// checks who asks) and without the public routes (see [`Domains::router`]).
    pub fn view(
        &self,
        repos: Vec<Arc<ServedRepo>>,
        workspaces: Vec<Arc<Workspace>>,
        domains: &BTreeSet<&str>,
    ) -> Result<axum::Router, LiteError> {
        Ok(self.domains(&repos, workspaces, domains)?.router())
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

    #[test]
    fn a_template_matches_its_paths_segment_by_segment() {
        assert!(template_matches(
            "/api/v1/findings/{finding_id}",
            "/api/v1/findings/f-1"
        ));
        assert!(template_matches("/api/v1/graphs", "/api/v1/graphs"));
        assert!(!template_matches(
            "/api/v1/findings/{finding_id}",
            "/api/v1/findings/"
        ));
        assert!(!template_matches("/api/v1/graphs", "/api/v1/graphs/select"));
    }
}
