//! nexus-lite: a real local implementation of the Nexus Code KG API.
//!
//! It indexes git work trees with tree-sitter into a code knowledge graph, attaches findings
//! from real analysers (ruff, bandit, SARIF imports, audit_ai files), keeps every run in
//! SQLite and serves the HTTP API described in `API.md` (machine-readable at
//! `GET /openapi.json`). Library code never writes to stdout: nexus-mcp embeds this crate and
//! stdout is its stdio protocol channel.
//!
//! The crate is organised by domain: `core` is what every domain shares (configuration,
//! database and migrations, HTTP errors and auth, the repository registry, graph algorithms,
//! git); `code`, `docs` and `rules` import core and no other domain. This file is the list of
//! domains ([`DOMAINS`]) and the server around them ([`server::Server`] opens a domain when a
//! view first serves it; [`spawn_domains`] serves some); `core`'s module comment says how a new
//! domain plugs in.

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
pub use crate::core::config::{
    DEFAULT_KEEP_GRAPHS, GENERATOR, LiteConfig, RepoSpec, WorkspaceSpec,
};
pub use crate::core::error::LiteError;
pub use crate::server::{Server, domains_of};

use crate::core::Domain;
use crate::core::db::Migration;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The domains served, in the order their migrations run and their OpenAPI fragments merge.
/// A new domain is one more line here and one `merge` in [`server::Domains::router`] (see
/// `core`'s module comment for what it brings).
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

/// A server serving some domains (see [`spawn_domains`]).
pub struct Serving {
    pub addr: SocketAddr,
    pub server: Arc<Server>,
    /// The served view's states (a domain not served has none).
    pub domains: server::Domains,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Serving {
    /// Base URL, e.g. `http://127.0.0.1:8787`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The code domain's state, when it is served.
    pub fn code(&self) -> Option<&Arc<AppState>> {
        self.domains.code.as_ref()
    }

    /// Stops accepting connections and waits for the server task to end.
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// A running server of every domain ([`spawn`]), with its code and docs states at hand.
pub struct Running {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
    pub docs: Arc<docs::DocsState>,
    serving: Serving,
}

impl Running {
    /// Base URL, e.g. `http://127.0.0.1:8787`.
    pub fn url(&self) -> String {
        self.serving.url()
    }

    /// Stops accepting connections and waits for the server task to end.
    pub async fn shutdown(self) {
        self.serving.shutdown().await;
    }
}

/// The platform's user data directory for nexus-lite (e.g. `~/.local/share/nexus-lite`).
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .or_else(dirs::home_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("nexus-lite")
}

/// The HTTP router of a server: the unauthenticated core routes, then `api` (the routers of a
/// view, [`server::Domains::router`]) under `core`'s bearer-token check.
pub fn router(core: Arc<core::state::Core>, api: axum::Router) -> axum::Router {
    let api = api.layer(axum::middleware::from_fn_with_state(
        core,
        crate::core::http::auth,
    ));
    crate::core::http::public_router(openapi_document().to_string()).merge(api)
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

/// Opens the database, registers the repositories, binds `listen` and serves every domain in a
/// tokio task.
pub async fn spawn(config: LiteConfig, listen: SocketAddr) -> Result<Running, LiteError> {
    let serving = spawn_domains(config, listen, &SERVED_DOMAINS.into_iter().collect()).await?;
    let (Some(state), Some(docs)) = (serving.domains.code.clone(), serving.domains.docs.clone())
    else {
        return Err(LiteError::Task(
            "a domain of the full server was not opened".into(),
        ));
    };
    Ok(Running {
        addr: serving.addr,
        state,
        docs,
        serving,
    })
}

/// [`spawn`], serving only `domains` (of [`SERVED_DOMAINS`]): the others are never opened (no
/// tables, no state) and their routes answer 404 saying they are not served.
pub async fn spawn_domains(
    config: LiteConfig,
    listen: SocketAddr,
    domains: &std::collections::BTreeSet<&str>,
) -> Result<Serving, LiteError> {
    let cfg = config.clone();
    let domains: std::collections::BTreeSet<String> =
        domains.iter().map(|d| d.to_string()).collect();
    let (server, served) = tokio::task::spawn_blocking(move || {
        let (server, repos) = Server::open_config(&cfg)?;
        let workspaces = if domains.contains(docs::DOMAIN.name) {
            cfg.workspaces
                .iter()
                .map(|w| server.workspace(w, &cfg.docs_limits))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        let set = domains.iter().map(String::as_str).collect();
        let served = server.domains(&repos, workspaces, &set)?;
        Ok::<_, LiteError>((server, served))
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
    let app = router(server.core.clone(), served.router());
    let task = tokio::spawn(async move {
        let result = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
        if let Err(e) = result {
            tracing::error!(error = %e, "nexus-lite server stopped with an error");
        }
    });
    tracing::info!(
        %addr,
        repos = config.repos.len(),
        workspaces = served.docs.as_ref().map_or(0, |d| d.workspaces.len()),
        code = served.code.is_some(),
        rules = served.rules.is_some(),
        docs = served.docs.is_some(),
        "nexus-lite listening"
    );
    Ok(Serving {
        addr,
        server,
        domains: served,
        shutdown: Some(tx),
        task,
    })
}

/// One-shot indexing of one repository into `data_dir` (what `nexus-lite index` runs), keeping
/// `keep_graphs` ready graphs per branch.
pub fn index_once(
    data_dir: PathBuf,
    repo: RepoSpec,
    keep_graphs: usize,
) -> Result<RunOutcome, LiteError> {
    let state = AppState::new(&LiteConfig {
        keep_graphs,
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
