//! With no NEXUS_API_URL, nexus-mcp starts nexus-lite in-process on a loopback port with a
//! random token and talks to it over HTTP exactly as it would to a remote Nexus.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

pub struct Embedded {
    pub url: String,
    pub token: String,
    /// Repository name → local checkout, for freshness verdicts in local stdio.
    pub checkouts: BTreeMap<String, PathBuf>,
    /// Documentation workspace name → root (`--workspace`), for nexus-doc-kg's workspacePath.
    pub workspaces: BTreeMap<String, PathBuf>,
    pub running: nexus_lite::Running,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    #[error(
        "cannot start the embedded nexus-lite: {0}. Set NEXUS_API_URL to use a remote Nexus instead."
    )]
    Start(#[from] nexus_lite::error::LiteError),
}

/// Starts nexus-lite over `repos` and the documentation `workspaces` (both `[NAME=]PATH`; with
/// neither, the current directory's repository). `docs_limits`: the operator's maxima of the
/// limits a workspace's `.nexus/docgraph.yaml` may set.
pub async fn start(
    data_dir: Option<PathBuf>,
    repos: &[String],
    workspaces: &[String],
    docs_limits: nexus_lite::docs::config::Limits,
) -> Result<Embedded, EmbeddedError> {
    let repos: Vec<nexus_lite::RepoSpec> = if repos.is_empty() && workspaces.is_empty() {
        vec![nexus_lite::RepoSpec {
            name: None,
            path: PathBuf::from("."),
        }]
    } else {
        repos
            .iter()
            .map(|r| {
                let (name, path) = named_path(r);
                nexus_lite::RepoSpec { name, path }
            })
            .collect()
    };
    let workspaces: Vec<nexus_lite::WorkspaceSpec> = workspaces
        .iter()
        .map(|w| {
            let (name, path) = named_path(w);
            nexus_lite::WorkspaceSpec { name, path }
        })
        .collect();
    let token = format!("lite-{}", uuid::Uuid::new_v4().simple());
    let config = nexus_lite::LiteConfig {
        data_dir: data_dir.unwrap_or_else(nexus_lite::default_data_dir),
        repos,
        token: token.clone(),
        index_on_first_use: true,
        workspaces: workspaces.clone(),
        docs_limits,
    };
    let running = nexus_lite::spawn(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await?;
    let checkouts = running
        .state
        .repos
        .iter()
        .map(|r| (r.name.clone(), r.root.clone()))
        .collect();
    let workspaces = workspaces
        .iter()
        .map(|w| (workspace_name(w), w.path.clone()))
        .collect();
    tracing::info!(url = %running.url(), "embedded nexus-lite started");
    Ok(Embedded {
        url: running.url(),
        token,
        checkouts,
        workspaces,
        running,
    })
}

/// `NAME=PATH` or `PATH`.
fn named_path(arg: &str) -> (Option<String>, PathBuf) {
    match arg.split_once('=') {
        Some((name, path)) if !name.is_empty() => (Some(name.to_owned()), PathBuf::from(path)),
        _ => (None, PathBuf::from(arg)),
    }
}

/// A workspace's name as nexus-lite gives it: the declared one, else its directory's name.
fn workspace_name(spec: &nexus_lite::WorkspaceSpec) -> String {
    spec.name.clone().unwrap_or_else(|| {
        let path = spec
            .path
            .canonicalize()
            .unwrap_or_else(|_| spec.path.clone());
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "workspace".to_owned())
    })
}
