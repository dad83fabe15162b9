//! nexus-lite: a real local implementation of the Nexus Code KG API.
//!
//! It indexes git work trees with tree-sitter into a code knowledge graph, attaches findings
//! from real analysers (ruff, bandit, SARIF imports, audit_ai files), keeps every run in
//! SQLite and serves the HTTP API described in `API.md` (machine-readable at
//! `GET /openapi.json`). Library code never writes to stdout: nexus-mcp embeds this crate and
//! stdout is its stdio protocol channel.
//!
//! The crate is organised by domain: `core` is what every domain shares (database and
//! migrations, HTTP and auth, graph algorithms, git), `code` is the code graph. This file is
//! the list of domains ([`DOMAINS`]) and the server around them; `core`'s module comment says
//! how a new domain plugs in.

pub mod code;
pub mod core;
pub mod docs;
// The shared local daemon (Unix socket, peer credentials, uid and host name through rustix).
#[cfg(target_os = "linux")]
pub mod local;
pub mod rules;
pub mod server;

// Paths from before the domain split that the root crate uses (nexus_lite::git::command,
// nexus_lite::error::LiteError).
pub use crate::core::{error, git};

pub use crate::code::engine::{AppState, RunOutcome};
pub use crate::core::config::{GENERATOR, LiteConfig, RepoSpec, WorkspaceSpec};
pub use crate::core::error::LiteError;
pub use crate::server::{Server, domains_of};

use crate::core::Domain;
use crate::core::db::Migration;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The domains served, in the order their migrations run and their OpenAPI fragments merge.
/// A new domain is one more line here and one `merge` in [`router`] (see `core`'s module
/// comment for what it brings).
pub const DOMAINS: &[&Domain] = &[&core::DOMAIN, &code::DOMAIN, &rules::DOMAIN, &docs::DOMAIN];

/// The domains a view serves routes of (the core's routes are public, outside views).
pub const SERVED_DOMAINS: [&str; 3] = ["code", "rules", "docs"];

/// Every domain's migrations, in domain order.
pub fn migrations() -> Vec<&'static [Migration]> {
    DOMAINS.iter().map(|d| d.migrations).collect()
}

/// Every route served, as (METHOD, OpenAPI path).
pub fn routes() -> impl Iterator<Item = (&'static str, &'static str)> {
    DOMAINS.iter().flat_map(|d| d.routes.iter().copied())
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
    pub docs: Arc<docs::DocsState>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Base URL, e.g. `http://127.0.0.1:8787`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting connections and waits for the server task to end.
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// The platform's user data directory for nexus-lite (e.g. `~/.local/share/nexus-lite`).
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .or_else(dirs::home_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("nexus-lite")
}

/// The HTTP router over a state (useful for tests and custom servers), serving no
/// documentation workspace; [`router_with_docs`] serves some.
pub fn router(state: Arc<AppState>) -> axum::Router {
    let docs = Arc::new(docs::DocsState {
        core: state.core.clone(),
        workspaces: Vec::new(),
    });
    router_with_docs(state, docs)
}

/// The HTTP router: the unauthenticated core routes, then every domain's routes under the
/// bearer-token check.
pub fn router_with_docs(state: Arc<AppState>, docs: Arc<docs::DocsState>) -> axum::Router {
    let core = state.core.clone();
    let all = SERVED_DOMAINS.into_iter().collect();
    let api = domain_routers(state, docs, &all).layer(axum::middleware::from_fn_with_state(
        core,
        crate::core::http::auth,
    ));
    crate::core::http::public_router(openapi_document().to_string()).merge(api)
}

/// The routers of `domains` (of [`SERVED_DOMAINS`]) over `state`'s repositories and `docs`'s
/// workspaces, with the "no endpoint" fallback; no auth.
pub(crate) fn domain_routers(
    state: Arc<AppState>,
    docs: Arc<docs::DocsState>,
    domains: &std::collections::BTreeSet<&str>,
) -> axum::Router {
    let mut api = axum::Router::new();
    if domains.contains("rules") {
        let rules = rules::RulesState::new(state.core.clone(), served(&state));
        api = api.merge(rules::router(rules));
    }
    if domains.contains("code") {
        api = api.merge(code::router(state));
    }
    if domains.contains("docs") {
        api = api.merge(docs::router(docs));
    }
    api.fallback(crate::core::http::not_found_route)
}

/// The served repositories by name (the rules domain's view of the code domain's list).
fn served(state: &AppState) -> Vec<core::repos::ServedRepo> {
    state
        .repos
        .iter()
        .map(|r| core::repos::ServedRepo {
            name: r.name.clone(),
            root: r.root.clone(),
        })
        .collect()
}

/// The served OpenAPI document: every domain's fragment merged (see `core::openapi`).
pub fn openapi_document() -> &'static str {
    static DOCUMENT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        crate::core::openapi::document(DOMAINS).unwrap_or_else(|e| {
            // The fragments are compiled in and a unit test merges them: this cannot happen
            // in a tested build, and the API still answers without its document.
            tracing::error!(error = %e, "cannot build the OpenAPI document");
            String::from("{}")
        })
    });
    &DOCUMENT
}

/// Opens the database, registers the repositories, binds `listen` and serves in a tokio task.
pub async fn spawn(config: LiteConfig, listen: SocketAddr) -> Result<Running, LiteError> {
    let cfg = config.clone();
    let (state, docs) = tokio::task::spawn_blocking(move || {
        let (server, repos) = Server::open_config(&cfg)?;
        let workspaces = cfg
            .workspaces
            .iter()
            .map(|w| server.workspace(w, &cfg.docs_limits))
            .collect::<Result<Vec<_>, _>>()?;
        let docs = docs::DocsState::with(server.core.clone(), workspaces)?;
        Ok::<_, LiteError>((server.code_state(repos), docs))
    })
    .await
    .map_err(|e| LiteError::Task(e.to_string()))??;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| LiteError::Bind {
            addr: listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| LiteError::Bind {
        addr: listen,
        source,
    })?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let app = router_with_docs(state.clone(), docs.clone());
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
        if let Err(e) = served {
            tracing::error!(error = %e, "nexus-lite server stopped with an error");
        }
    });
    tracing::info!(%addr, repos = state.repos.len(), workspaces = docs.workspaces.len(), "nexus-lite listening");
    Ok(Running {
        addr,
        state,
        docs,
        shutdown: Some(tx),
        task,
    })
}

/// One-shot indexing of one repository into `data_dir` (what `nexus-lite index` runs).
pub fn index_once(data_dir: PathBuf, repo: RepoSpec) -> Result<RunOutcome, LiteError> {
    let state = AppState::new(&LiteConfig {
        data_dir,
        repos: vec![repo],
        token: String::new(),
        index_on_first_use: false,
        workspaces: Vec::new(),
        docs_limits: Default::default(),
    })?;
    let repo = state
        .repos
        .first()
        .ok_or_else(|| LiteError::Task("no repository registered".into()))?;
    state.index_now(repo, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_keep_their_migrations_in_disjoint_ranges_in_ascending_order() {
        for (i, d) in DOMAINS.iter().enumerate() {
            for other in &DOMAINS[i + 1..] {
                let disjoint = d.versions.end() < other.versions.start()
                    || other.versions.end() < d.versions.start();
                assert!(
                    disjoint,
                    "{} and {} share migration versions",
                    d.name, other.name
                );
            }
            for m in d.migrations {
                assert!(
                    d.versions.contains(&m.version),
                    "{} migration {} is outside {:?}",
                    d.name,
                    m.version,
                    d.versions
                );
            }
            assert!(
                d.migrations.windows(2).all(|w| w[0].version < w[1].version),
                "{} migrations are not in ascending order",
                d.name
            );
        }
    }

    #[test]
    fn every_domain_documents_exactly_the_routes_it_serves() {
        let doc: serde_json::Value = serde_json::from_str(openapi_document()).unwrap();
        assert_eq!(doc["openapi"], "3.1.0");
        for d in DOMAINS {
            let fragment: serde_json::Value = serde_json::from_str(d.openapi).unwrap();
            let mut documented: Vec<(String, String)> = Vec::new();
            for (path, ops) in fragment["paths"].as_object().into_iter().flatten() {
                for method in ops.as_object().unwrap().keys() {
                    documented.push((method.to_uppercase(), path.clone()));
                }
            }
            let mut served: Vec<(String, String)> = d
                .routes
                .iter()
                .map(|(m, p)| (m.to_string(), p.to_string()))
                .collect();
            documented.sort();
            served.sort();
            assert_eq!(documented, served, "domain {}", d.name);
        }
    }
}
