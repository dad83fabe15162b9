//! With no NEXUS_API_URL, nexus-mcp uses the local nexus-lite of its data directory: one daemon
//! shared by every local nexus-mcp process (any surface, `gate`, `rules`, `call`), joined over
//! its Unix socket, and started by whichever process needs it first (`nexus_lite::local`). It is
//! used exactly as a remote Nexus is: the same API, a bearer token held by this process only.

use crate::runtime::backend::NexusClient;
use nexus_lite::local::join::{self, Joined, Registration, Starter};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub struct Embedded {
    /// A client of the local nexus-lite that joins it again when it is restarted.
    pub client: NexusClient,
    /// Repository name → local checkout, for freshness verdicts in local stdio.
    pub checkouts: BTreeMap<String, PathBuf>,
    /// Documentation workspace name → root (`--workspace`), for nexus-doc-kg's workspacePath.
    pub workspaces: BTreeMap<String, PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    #[error("{0}. Or set NEXUS_API_URL to use a remote Nexus instead.")]
    Join(#[from] join::JoinError),
    #[error("cannot find this program to start the local nexus-lite: {0}")]
    Program(std::io::Error),
    #[error("cannot reach the local nexus-lite: {0}")]
    Client(String),
}

/// Who is asking: shown by `nexus-mcp status`, and the routes that decide what the local Nexus
/// lets this process reach.
pub struct Client<'a> {
    /// `serve`, `call`, `gate` or `rules`.
    pub kind: &'a str,
    pub surface: Option<&'a str>,
    pub routes: Vec<(&'a str, &'a str)>,
}

/// How a process starts the daemon: this very program, `nexus-mcp daemon`.
pub fn starter() -> Result<Starter, EmbeddedError> {
    Ok(Starter {
        program: std::env::current_exe().map_err(EmbeddedError::Program)?,
        args: vec!["daemon".into()],
    })
}

/// Joins the local nexus-lite of `data_dir` (default: the user's) with `repos` and the
/// documentation `workspaces` (both `[NAME=]PATH`; with neither, the current directory's
/// repository). `docs_limits`: the operator's maxima of the limits a workspace's
/// `.nexus/docgraph.yaml` may set.
pub async fn start(
    data_dir: Option<PathBuf>,
    repos: &[String],
    workspaces: &[String],
    docs_limits: nexus_lite::docs::config::Limits,
    client: Client<'_>,
    timeout: Duration,
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
    let registration = Registration {
        kind: client.kind.to_owned(),
        surface: client.surface.map(str::to_owned),
        routes: client
            .routes
            .iter()
            .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
            .collect(),
        repos,
        workspaces,
        limits: docs_limits,
    };
    let data_dir = data_dir.unwrap_or_else(nexus_lite::default_data_dir);
    let Joined {
        client: local,
        socket,
        repos,
        workspaces,
    } = join::join(&data_dir, &registration, starter()?).await?;
    tracing::info!(socket = %socket.display(), "joined the local nexus-lite");
    let client = NexusClient::local(socket, Arc::clone(&local) as _, timeout)
        .map_err(|e| EmbeddedError::Client(e.to_string()))?;
    Ok(Embedded {
        client,
        checkouts: repos.into_iter().map(|r| (r.name, r.root)).collect(),
        workspaces: workspaces.into_iter().collect(),
    })
}

/// `NAME=PATH` or `PATH`.
fn named_path(arg: &str) -> (Option<String>, PathBuf) {
    match arg.split_once('=') {
        Some((name, path)) if !name.is_empty() => (Some(name.to_owned()), PathBuf::from(path)),
        _ => (None, PathBuf::from(arg)),
    }
}
