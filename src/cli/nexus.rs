//! The Nexus API a CLI subcommand talks to: --nexus-url with --nexus-token (NEXUS_API_URL,
//! NEXUS_API_TOKEN), or the local nexus-lite of the data directory `serve` uses, shared with
//! every running server.

use crate::local_nexus::{self, Client};
use crate::runtime::backend::{NexusClient, Secret};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A remote Nexus: --nexus-url (NEXUS_API_URL) and --nexus-token (NEXUS_API_TOKEN).
#[derive(Debug, Clone, Copy)]
pub struct Remote<'a> {
    pub url: &'a str,
    pub token: Option<&'a str>,
}

/// The shortest service token accepted. Its value is cut out of every Nexus answer before an
/// agent sees it, so a shorter one (`t`, `test`) would cut ordinary text: paths, names.
const MIN_TOKEN_CHARS: usize = 8;

/// A client of the remote Nexus, with its service token.
pub fn remote(remote: Remote<'_>, timeout: Duration) -> Result<NexusClient, String> {
    // An empty variable is unset (see `cli::main`); an empty flag is refused the same way.
    let token = remote.token.filter(|t| !t.is_empty()).ok_or_else(|| {
        "NEXUS_API_URL is set but NEXUS_API_TOKEN is not (or is empty): set the Nexus service token (or pass --nexus-token)".to_owned()
    })?;
    let chars = token.chars().count();
    if chars < MIN_TOKEN_CHARS {
        return Err(format!(
            "NEXUS_API_TOKEN (or --nexus-token) is {chars} characters long: nexus-mcp removes the token's value from every Nexus answer so that no agent sees it, and a value this short would be cut out of ordinary text (paths, names). Set the Nexus service token itself (at least {MIN_TOKEN_CHARS} characters)"
        ));
    }
    NexusClient::new(remote.url, Secret::new(token.to_owned()), timeout).map_err(|e| e.to_string())
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
        nexus: Option<Remote<'_>>,
        path: &Path,
        name: Option<&str>,
        data_dir: Option<PathBuf>,
        client: Client<'_>,
    ) -> Result<(PathBuf, Connection), String> {
        let root = nexus_lite::git::toplevel(path).map_err(|e| e.to_string())?;
        let timeout = Duration::from_secs(120);
        let conn = match nexus {
            Some(nexus) => Connection {
                client: remote(nexus, timeout)?,
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
