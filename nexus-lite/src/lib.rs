//! nexus-lite: a real local implementation of the Nexus Code KG API.
//!
//! It indexes git work trees with tree-sitter into a code knowledge graph, attaches findings
//! from real analysers (ruff, bandit, SARIF imports, audit_ai files), keeps every run in
//! SQLite and serves the HTTP API described in `API.md` (machine-readable at
//! `GET /openapi.json`). Library code never writes to stdout: nexus-mcp embeds this crate and
//! stdout is its stdio protocol channel.

pub mod api;
pub mod cache;
pub mod ecmascript;
pub mod engine;
pub mod error;
pub mod findings;
pub mod git;
pub mod index;
pub mod lang;
pub mod lock;
pub mod python;
pub mod rust_lang;
pub mod secret_spans;
pub mod store;
pub mod util;

pub use engine::{AppState, RunOutcome};
pub use error::LiteError;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Version string recorded in every graph.
pub const GENERATOR: &str = concat!("nexus-lite ", env!("CARGO_PKG_VERSION"));

/// Configuration of an embedded or standalone nexus-lite.
#[derive(Debug, Clone)]
pub struct LiteConfig {
    pub data_dir: PathBuf,
    pub repos: Vec<RepoSpec>,
    pub token: String,
    pub index_on_first_use: bool,
}

/// One registered repository.
#[derive(Debug, Clone)]
pub struct RepoSpec {
    /// `None` → owner/name from the origin remote, else `local/<dir name>`.
    pub name: Option<String>,
    pub path: PathBuf,
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
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

/// The HTTP router over a state (useful for tests and custom servers).
pub fn router(state: Arc<AppState>) -> axum::Router {
    api::router(state)
}

/// Opens the database, registers the repositories, binds `listen` and serves in a tokio task.
pub async fn spawn(config: LiteConfig, listen: SocketAddr) -> Result<Running, LiteError> {
    let cfg = config.clone();
    let state = tokio::task::spawn_blocking(move || AppState::new(&cfg))
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
    let app = router(state.clone());
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
    tracing::info!(%addr, repos = state.repos.len(), "nexus-lite listening");
    Ok(Running {
        addr,
        state,
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
    })?;
    let repo = state
        .repos
        .first()
        .ok_or_else(|| LiteError::Task("no repository registered".into()))?;
    state.index_now(repo, None)
}
