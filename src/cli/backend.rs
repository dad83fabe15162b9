//! What `serve` and `call` share: the Nexus they answer through (remote, or the local
//! nexus-lite with the repositories and workspaces this process registers) and the app state.

use super::nexus::{self, Remote};
use crate::local_nexus;
use crate::surfaces::{self, Environment};
use nexus_mcp_runtime::access;
use nexus_mcp_runtime::app::{App, Settings};
use nexus_mcp_runtime::backend::DEFAULT_MAX_ANSWER_BYTES;
use nexus_mcp_runtime::local_paths;
use nexus_mcp_runtime::spec::SurfaceSpec;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What a process registers with the local nexus-lite, and where that nexus-lite lives
/// (`serve`, `call` and `view` share these flags).
#[derive(clap::Args)]
pub struct Registration {
    /// Repositories this process registers with the local nexus-lite ([NAME=]PATH, repeatable; default: the current directory).
    #[arg(long = "repo")]
    pub repos: Vec<String>,
    /// Documentation workspaces this process registers with the local nexus-lite ([NAME=]PATH, repeatable; nexus-doc-kg).
    /// With workspaces and no --repo, no repository is registered.
    #[arg(long = "workspace", env = "DOCUGRAPH_WORKSPACE")]
    pub workspaces: Vec<String>,
    /// Data directory of the local nexus-lite (default: the user data directory, e.g. ~/.local/share/nexus-lite); every local server, gate and rules command on it shares one nexus-lite.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct Backend {
    #[command(flatten)]
    registration: Registration,
    /// Scopes granted over stdio and to `call` (default: the manifest's default_stdio scopes).
    #[arg(long, env = "NEXUS_MCP_SCOPES")]
    scopes: Option<String>,
    /// Directories local paths given to tools must lie in (separated like PATH; default: the
    /// repositories and workspaces registered with the local nexus-lite).
    #[arg(long, env = "NEXUS_MCP_LOCAL_REPO_ROOTS")]
    local_repo_roots: Option<String>,
    /// Largest Nexus answer read, in bytes; a larger one is an error.
    #[arg(long, env = "NEXUS_MCP_MAX_NEXUS_ANSWER_BYTES", default_value_t = DEFAULT_MAX_ANSWER_BYTES)]
    max_nexus_answer_bytes: usize,
    /// Commits a local checkout may be ahead of its graph before answers call the graph stale
    /// (nexus-code-kg; default 20).
    #[arg(long, env = "NEXUS_MCP_MAX_COMMITS_BEHIND")]
    max_commits_behind: Option<u32>,
    /// File holding the key that seals the state of input-required results (at least 32 bytes;
    /// give every replica behind one load balancer the same file). Default: a random key per
    /// process, so a retry must reach the replica that asked.
    #[arg(long, env = "NEXUS_MCP_STATE_KEY_FILE")]
    state_key_file: Option<PathBuf>,
    #[command(flatten)]
    docs_limits: nexus_lite::docs::config::OperatorLimits,
}

impl Backend {
    /// The scopes granted over stdio and to `call`.
    pub fn stdio_scopes(&self, surface: &SurfaceSpec) -> Result<BTreeSet<String>, String> {
        match &self.scopes {
            Some(list) => access::parse_scopes(surface, list),
            None => Ok(access::default_stdio_scopes(surface)),
        }
    }

    /// Connects to Nexus (`remote`, or the local nexus-lite, joined as a `kind` client) and
    /// builds the shared state.
    pub async fn app(
        &self,
        remote: Option<Remote<'_>>,
        surface: &'static SurfaceSpec,
        kind: &str,
    ) -> Result<Arc<App>, String> {
        let mut settings = Settings::default();
        let mut env = Environment {
            max_commits_behind: self.max_commits_behind,
            ..Environment::default()
        };
        if let Some(roots) = &self.local_repo_roots {
            settings.local_repo_roots = local_paths::parse_roots(roots);
        }
        if let Some(file) = &self.state_key_file {
            let key = std::fs::read(file)
                .map_err(|e| format!("cannot read the state key file {}: {e}", file.display()))?;
            let key = key.trim_ascii().to_vec();
            nexus_mcp_runtime::asking::check_key(&key)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            settings.request_state_key = Some(key);
        }
        let timeout = Duration::from_secs(60);
        let client = match remote {
            Some(remote) => nexus::remote(remote, timeout)?,
            None => {
                let lite = local_nexus::start(
                    self.registration.data_dir.clone(),
                    &self.registration.repos,
                    &self.registration.workspaces,
                    self.docs_limits.clone().into(),
                    local_nexus::Client {
                        kind,
                        surface: Some(surface.name),
                        routes: surface.nexus_routes(),
                    },
                    timeout,
                )
                .await
                .map_err(|e| e.to_string())?;
                env.local_checkouts = lite.checkouts.clone();
                env.doc_workspaces = lite.workspaces.clone();
                if settings.local_repo_roots.is_empty() {
                    // Embedded over local checkouts and workspaces: they are the natural allowlist.
                    settings.local_repo_roots = lite
                        .checkouts
                        .values()
                        .chain(lite.workspaces.values())
                        .filter_map(|p| p.canonicalize().ok())
                        .collect();
                }
                lite.client
            }
        };
        Ok(Arc::new(App::new(
            surface,
            client.with_max_answer_bytes(self.max_nexus_answer_bytes),
            settings,
            surfaces::parts(surface.name, &env),
        )))
    }
}
