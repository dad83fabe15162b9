//! The Nexus API a CLI subcommand talks to: NEXUS_API_URL (token from NEXUS_API_TOKEN), or an
//! embedded nexus-lite over the repository, on the same data directory `serve` uses.

use crate::embedded::{self, Embedded};
use crate::runtime::backend::{NexusClient, Secret};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A client of the remote Nexus at `url`, with the service token from NEXUS_API_TOKEN.
pub fn remote(url: &str, timeout: Duration) -> Result<NexusClient, String> {
    let token = std::env::var("NEXUS_API_TOKEN").map_err(|_| {
        "NEXUS_API_URL is set but NEXUS_API_TOKEN is not: set the Nexus service token".to_owned()
    })?;
    NexusClient::new(url, Secret::new(token), timeout).map_err(|e| e.to_string())
}

/// A connected client, the repository's name there, and the embedded server to stop after.
pub struct Connection {
    pub client: NexusClient,
    pub repository: String,
    lite: Option<Embedded>,
}

impl Connection {
    /// Connects for the git work tree holding `path` (any path inside it); returns the work
    /// tree's root with the connection.
    pub async fn for_work_tree(
        nexus_url: Option<&str>,
        path: &Path,
        name: Option<&str>,
        data_dir: Option<PathBuf>,
    ) -> Result<(PathBuf, Connection), String> {
        let root = nexus_lite::git::toplevel(path).map_err(|e| e.to_string())?;
        let conn = Connection::open(nexus_url, &root, name, data_dir).await?;
        Ok((root, conn))
    }

    /// Connects for the git work tree at `root`; `name` overrides the repository's name.
    async fn open(
        nexus_url: Option<&str>,
        root: &Path,
        name: Option<&str>,
        data_dir: Option<PathBuf>,
    ) -> Result<Connection, String> {
        let timeout = Duration::from_secs(120);
        match nexus_url {
            Some(url) => Ok(Connection {
                client: remote(url, timeout)?,
                repository: nexus_lite::core::repos::repo_name(name, root),
                lite: None,
            }),
            None => {
                let spec = match name {
                    Some(name) => format!("{name}={}", root.display()),
                    None => root.display().to_string(),
                };
                let lite = embedded::start(data_dir, &[spec], &[], Default::default())
                    .await
                    .map_err(|e| e.to_string())?;
                let repository = lite
                    .checkouts
                    .iter()
                    .find(|(_, path)| path.as_path() == root)
                    .map(|(name, _)| name.clone())
                    .ok_or_else(|| {
                        format!("the embedded nexus-lite does not serve {}", root.display())
                    })?;
                let client = NexusClient::new(&lite.url, Secret::new(lite.token.clone()), timeout)
                    .map_err(|e| e.to_string())?;
                Ok(Connection {
                    client,
                    repository,
                    lite: Some(lite),
                })
            }
        }
    }

    /// Stops the embedded nexus-lite, if one was started.
    pub async fn close(self) {
        if let Some(lite) = self.lite {
            lite.running.shutdown().await;
        }
    }
}
