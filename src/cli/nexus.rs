//! The Nexus API a CLI subcommand talks to: NEXUS_API_URL (token from NEXUS_API_TOKEN), or the
//! local nexus-lite of the data directory `serve` uses, shared with every running server.

use crate::local_nexus::{self, Client};
use crate::runtime::backend::{NexusClient, Secret};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A client of the remote Nexus at `url`, with the service token from NEXUS_API_TOKEN.
pub fn remote(url: &str, timeout: Duration) -> Result<NexusClient, String> {
    // Empty is unset, as for every variable the command line reads (see `main`).
    let token = std::env::var("NEXUS_API_TOKEN")
        .ok()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            "NEXUS_API_URL is set but NEXUS_API_TOKEN is not (or is empty): set the Nexus service token".to_owned()
        })?;
    NexusClient::new(url, Secret::new(token), timeout).map_err(|e| e.to_string())
}

/// A connected client and the repository's name there.
pub struct Connection {
    pub client: NexusClient,
    pub repository: String,
}

impl Connection {
    /// Connects for the git work tree holding `path` (any path inside it); returns the work
    /// tree's root with the connection. `client` says who asks (the local Nexus lets it reach
    /// the domains of its routes only).
    pub async fn for_work_tree(
        nexus_url: Option<&str>,
        path: &Path,
        name: Option<&str>,
        data_dir: Option<PathBuf>,
        client: Client<'_>,
    ) -> Result<(PathBuf, Connection), String> {
        let root = nexus_lite::git::toplevel(path).map_err(|e| e.to_string())?;
        let timeout = Duration::from_secs(120);
        let conn = match nexus_url {
            Some(url) => Connection {
                client: remote(url, timeout)?,
                repository: nexus_lite::core::repos::repo_name(name, &root),
            },
            None => {
                let spec = match name {
                    Some(name) => format!("{name}={}", root.display()),
                    None => root.display().to_string(),
                };
                let lite =
                    local_nexus::start(data_dir, &[spec], &[], Default::default(), client, timeout)
                        .await
                        .map_err(|e| e.to_string())?;
                let repository = lite
                    .checkouts
                    .iter()
                    .find(|(_, path)| path.as_path() == root)
                    .map(|(name, _)| name.clone())
                    .ok_or_else(|| {
                        format!("the local nexus-lite does not serve {}", root.display())
                    })?;
                Connection {
                    client: lite.client,
                    repository,
                }
            }
        };
        Ok((root, conn))
    }
}
