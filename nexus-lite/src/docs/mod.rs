//! The documentation graph: Markdown documents (Backlog.md tasks, sidecar-metadata folders such
//! as KEPs, plain docs) indexed in memory per workspace, with their ids, edges, links and
//! acceptance criteria, served under `/api/v1/docs/` for the nexus-doc-kg surface.
//!
//! Modules: [`config`] (the optional `.nexus/docgraph.yaml`), [`frontmatter`] (lenient YAML),
//! [`ids`] (normalisation and aliases), [`links`] (CommonMark links and wikilinks),
//! [`criteria`], [`index`] (the incremental index), [`tree`] (the indexed files: walk and
//! changed paths), [`read`] (the one safe way a workspace file is opened), [`units`] (files to documents), [`resolve`] (link
//! classes and edges), [`graph`] (cycles, context, impact, audit), [`audit`] (the audit's pages), [`search`], [`mermaid`] (the dependency graph as a flowchart), [`workspace`]
//! (git state) and [`api`]. Returned Markdown is masked by `nexus_secrets::markdown`. The index lives in memory: the domain has no tables.

pub mod api;
pub mod audit;
pub mod config;
pub mod criteria;
pub mod doc;
pub mod frontmatter;
pub mod graph;
pub mod ids;
pub mod index;
pub mod links;
pub mod mermaid;
pub mod read;
pub mod resolve;
pub mod search;
pub mod tree;
pub mod units;
pub mod workspace;

use crate::core::Domain;
use crate::core::error::LiteError;
use crate::core::http::Shared;
use crate::core::state::Core;
use std::sync::Arc;
pub use workspace::{Workspace, WorkspaceSpec};

pub const DOMAIN: Domain = Domain {
    name: "docs",
    versions: 3000..=3999,
    migrations: &[],
    openapi: include_str!("openapi.json"),
    routes: api::ROUTES,
};

/// The served workspaces.
pub struct DocsState {
    pub core: Arc<Core>,
    pub workspaces: Vec<Arc<Workspace>>,
}

impl Shared for DocsState {
    fn core(&self) -> &Core {
        &self.core
    }
}

impl DocsState {
    /// Opens every workspace (their indexes fill on the first request). Two workspaces with one
    /// name are refused.
    /// `limits` are the operator's maxima of the limits a workspace's configuration sets.
    pub fn open(
        core: Arc<Core>,
        specs: &[WorkspaceSpec],
        limits: &config::Limits,
    ) -> Result<Arc<DocsState>, LiteError> {
        let workspaces = specs
            .iter()
            .map(|spec| Workspace::open(spec, limits).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        DocsState::with(core, workspaces)
    }

    /// The state over opened (possibly shared) workspaces; two with one name are refused.
    pub fn with(
        core: Arc<Core>,
        workspaces: Vec<Arc<Workspace>>,
    ) -> Result<Arc<DocsState>, LiteError> {
        for (i, ws) in workspaces.iter().enumerate() {
            if workspaces[..i].iter().any(|w| w.name == ws.name) {
                return Err(LiteError::Config {
                    path: ws.dir.clone(),
                    reason: format!(
                        "two workspaces are named `{}`; give one of them another name with --workspace NAME=PATH",
                        ws.name
                    ),
                });
            }
        }
        Ok(Arc::new(DocsState { core, workspaces }))
    }
}

/// The docs domain's routes over its state.
pub fn router(state: Arc<DocsState>) -> axum::Router {
    api::router(state)
}
