//! The server's configuration, read by every domain: the data directory, token, repositories,
//! documentation workspaces and their limits, and the generator id recorded in what is produced.
//! It lives in core so a domain reads it without importing the crate root or another domain.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Version string recorded in every graph.
pub const GENERATOR: &str = concat!("nexus-lite ", env!("CARGO_PKG_VERSION"));

/// Configuration of an embedded or standalone nexus-lite.
#[derive(Debug, Clone)]
pub struct LiteConfig {
    pub data_dir: PathBuf,
    pub repos: Vec<RepoSpec>,
    pub token: String,
    pub index_on_first_use: bool,
    /// Documentation workspaces served under `/api/v1/docs/` (the docs domain).
    pub workspaces: Vec<WorkspaceSpec>,
    /// The operator's maxima of the `limits` a workspace's `.nexus/docgraph.yaml` may set.
    pub docs_limits: Limits,
    /// Ready code graphs kept per (repository, branch); older ones are pruned after a run.
    pub keep_graphs: usize,
}

/// Ready code graphs kept per (repository, branch) unless configured otherwise: the newest,
/// and enough before it for comparisons and for clients still reading an older one.
pub const DEFAULT_KEEP_GRAPHS: usize = 20;

/// The fewest ready graphs kept per (repository, branch): a regeneration's answer compares the
/// graph before it with the new one, after the run (and so after its pruning).
pub const MIN_KEEP_GRAPHS: usize = 2;

/// How many graphs a data directory keeps (flag or environment of `nexus-lite serve`, `index`
/// and `daemon`, and of `nexus-mcp daemon`).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Retention {
    /// Ready code graphs kept per repository branch (at least 2); after each run older ones are
    /// pruned, and asking for a pruned graph answers `graph_pruned` naming the branch's newest.
    #[arg(long = "keep-graphs", env = "NEXUS_LITE_KEEP_GRAPHS", default_value_t = DEFAULT_KEEP_GRAPHS as u32, value_parser = clap::value_parser!(u32).range(MIN_KEEP_GRAPHS as i64..))]
    pub keep_graphs: u32,
}

impl Retention {
    pub fn keep_graphs(&self) -> usize {
        self.keep_graphs as usize
    }
}

/// One registered repository.
#[derive(Debug, Clone)]
pub struct RepoSpec {
    /// `None` → owner/name from the origin remote, else `local/<dir name>`.
    pub name: Option<String>,
    pub path: PathBuf,
}

/// One workspace as configured (`--workspace [NAME=]PATH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceSpec {
    /// Defaults to the directory name.
    pub name: Option<String>,
    pub path: PathBuf,
}

/// The docs domain's limits (the operator's maxima, or a workspace's own).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Files larger than this are indexed from their first bytes only (and reported).
    pub max_file_bytes: u64,
    /// The Markdown bytes one get_task_context answer carries at most.
    pub context_max_bytes: usize,
    /// Cycles listed at most in the audit (`cycleEnumeration: capped` past it).
    pub max_cycles: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 1_048_576,
            context_max_bytes: 65_536,
            max_cycles: 100,
        }
    }
}

impl Limits {
    /// These limits as a workspace file may set them: lowered, never raised, past the
    /// operator's.
    pub fn within(&self, operator: &Limits) -> Limits {
        Limits {
            max_file_bytes: self.max_file_bytes.min(operator.max_file_bytes),
            context_max_bytes: self.context_max_bytes.min(operator.context_max_bytes),
            max_cycles: self.max_cycles.min(operator.max_cycles),
        }
    }
}
