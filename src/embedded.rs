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
    pub running: nexus_lite::Running,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    #[error(
        "cannot start the embedded nexus-lite: {0}. Set NEXUS_API_URL to use a remote Nexus instead."
    )]
    Start(#[from] nexus_lite::error::LiteError),
}

/// Starts nexus-lite over `repos` (default: the current directory's repository).
pub async fn start(data_dir: Option<PathBuf>, repos: &[String]) -> Result<Embedded, EmbeddedError> {
    let repos: Vec<nexus_lite::RepoSpec> = if repos.is_empty() {
        vec![nexus_lite::RepoSpec {
            name: None,
            path: PathBuf::from("."),
        }]
    } else {
        repos
            .iter()
            .map(|r| match r.split_once('=') {
                Some((name, path)) => nexus_lite::RepoSpec {
                    name: Some(name.to_owned()),
                    path: PathBuf::from(path),
                },
                None => nexus_lite::RepoSpec {
                    name: None,
                    path: PathBuf::from(r),
                },
            })
            .collect()
    };
    let token = format!("lite-{}", uuid::Uuid::new_v4().simple());
    let config = nexus_lite::LiteConfig {
        data_dir: data_dir.unwrap_or_else(nexus_lite::default_data_dir),
        repos,
        token: token.clone(),
        index_on_first_use: true,
    };
    let running = nexus_lite::spawn(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await?;
    let checkouts = running
        .state
        .repos
        .iter()
        .map(|r| (r.name.clone(), r.root.clone()))
        .collect();
    tracing::info!(url = %running.url(), "embedded nexus-lite started");
    Ok(Embedded {
        url: running.url(),
        token,
        checkouts,
        running,
    })
}
