//! How the gate starts an analyser in a snapshot: its limits ([`Options`]), the command
//! looked up on the configured PATH, and which configuration the repository gives it. Both the
//! analyser runs (`analysers`) and the checked-rule resolution (`checked`) start analysers so.

use crate::core::analyser::{self, version};
use crate::rules::gate::snapshot::Snapshot;
use std::process::Command;
use std::time::Duration;

/// Limits of one gate run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Larger files are skipped (and the run says so).
    pub max_file_bytes: u64,
    /// Files analysed at most; the rest are skipped (and the run says so).
    pub max_files: usize,
    /// Per analyser run; a run over it is killed and reported failed.
    pub timeout: Duration,
    /// The PATH analysers are looked up in (and run with); `None` = this process's PATH.
    pub search_path: Option<std::ffi::OsString>,
    /// Where analyser versions are cached ([`version`]); `None`: probed on every run.
    pub version_cache: Option<std::path::PathBuf>,
    /// Every Python file of head, not the diff's (a push to the default branch): a file the
    /// repository's or the analysers' excludes leave out is left out, as `ruff check .` does.
    pub whole_files: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_bytes: 2 * 1024 * 1024,
            max_files: 5_000,
            timeout: analyser::DEFAULT_TIMEOUT,
            search_path: None,
            version_cache: None,
            whole_files: false,
        }
    }
}

impl Options {
    /// Where the analysers' versions are looked up and cached.
    pub(super) fn lookup(&self) -> version::Lookup<'_> {
        version::Lookup {
            search_path: self.search_path.as_deref(),
            cache: self.version_cache.as_deref(),
        }
    }
}

/// A command for analyser `program`, looked up in `opts.search_path` when set.
pub(super) fn tool(program: &str, opts: &Options) -> Command {
    analyser::command_in(program, opts.search_path.as_ref())
}

/// Whether `pyproject.toml` has a `[tool.bandit]` table.
pub(super) fn pyproject_configures_bandit(snap: &Snapshot) -> bool {
    std::fs::read_to_string(snap.root().join("pyproject.toml"))
        .is_ok_and(|t| t.contains("[tool.bandit"))
}

/// Whether the repository gives bandit a configuration (which may select or skip tests).
pub(super) fn bandit_configured(snap: &Snapshot) -> bool {
    snap.has(".bandit") || pyproject_configures_bandit(snap)
}

/// The semgrep configuration at head: `.semgrep.yml`, `.semgrep.yaml` or `.semgrep/`.
pub(super) fn semgrep_config(snap: &Snapshot) -> Option<&'static str> {
    [".semgrep.yml", ".semgrep.yaml"]
        .into_iter()
        .find(|c| snap.has(c))
        .or_else(|| snap.root().join(".semgrep").is_dir().then_some(".semgrep"))
}
