//! A served workspace: its name, its index, and the git state the answers describe (commit
//! and dirty flag of the repository holding it), cached until `.git/HEAD`, the branch ref,
//! `packed-refs` or `.git/index` change, or the stat walk saw a change.

use super::index::{Index, Refresh};
use crate::core::error::LiteError;
use crate::core::git;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// One workspace as configured (`--workspace [NAME=]PATH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceSpec {
    /// Defaults to the directory name.
    pub name: Option<String>,
    pub path: PathBuf,
}

pub struct Workspace {
    pub name: String,
    pub dir: PathBuf,
    index: Mutex<Index>,
    git: Mutex<GitState>,
}

#[derive(Default)]
struct GitState {
    /// `None`: not looked up yet; `Some(None)`: not in a git work tree.
    repo: Option<Option<Repo>>,
    signature: Vec<Option<(i128, u64)>>,
    generation: u64,
    sha: Option<String>,
    dirty: Option<bool>,
}

struct Repo {
    top: PathBuf,
    git_dir: PathBuf,
    common_dir: PathBuf,
    /// The workspace directory relative to the work tree root (`""` at the root).
    prefix: String,
}

/// The index, refreshed, with the git state that goes with it.
pub struct View<'a> {
    pub index: MutexGuard<'a, Index>,
    pub refresh: Refresh,
    pub info: Value,
}

impl Workspace {
    pub fn open(spec: &WorkspaceSpec) -> Result<Workspace, LiteError> {
        let dir = spec.path.canonicalize().map_err(|e| LiteError::Config {
            path: spec.path.clone(),
            reason: format!(
                "the workspace directory cannot be opened ({e}); pass an existing directory with --workspace [NAME=]PATH"
            ),
        })?;
        if !dir.is_dir() {
            return Err(LiteError::Config {
                path: spec.path.clone(),
                reason:
                    "the workspace is not a directory; pass the folder that holds the documents"
                        .into(),
            });
        }
        let name = match &spec.name {
            Some(n) if !n.trim().is_empty() => n.trim().to_string(),
            _ => dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "workspace".into()),
        };
        Ok(Workspace {
            name,
            index: Mutex::new(Index::new(&dir)),
            dir,
            git: Mutex::new(GitState::default()),
        })
    }

    /// Refreshes the index (what changed since the last call) and the git state.
    pub fn view(&self) -> View<'_> {
        let mut index = self.index.lock().unwrap_or_else(|p| p.into_inner());
        let refresh = index.refresh();
        let (sha, dirty) = self.git_state(index.generation);
        let info = json!({
            "name": self.name,
            "commitSha": sha,
            "dirty": dirty,
            "indexedAt": crate::core::util::rfc3339(index.indexed_at),
            "documents": index.docs.len(),
        });
        View {
            index,
            refresh,
            info,
        }
    }

    fn git_state(&self, generation: u64) -> (Option<String>, Option<bool>) {
        let mut g = self.git.lock().unwrap_or_else(|p| p.into_inner());
        if g.repo.is_none() || (generation != g.generation && matches!(g.repo, Some(None))) {
            g.repo = Some(find_repo(&self.dir));
            g.signature.clear();
        }
        let Some(Some(repo)) = &g.repo else {
            g.generation = generation;
            return (None, None);
        };
        let sig = signature(repo);
        if sig == g.signature && generation == g.generation && !g.signature.is_empty() {
            return (g.sha.clone(), g.dirty);
        }
        let sha = git::head_sha(&repo.top).ok().flatten();
        let dirty = git::dirty_files(&repo.top).ok().map(|files| {
            files
                .iter()
                .any(|f| repo.prefix.is_empty() || f.starts_with(&format!("{}/", repo.prefix)))
        });
        g.signature = sig;
        g.generation = generation;
        g.sha = sha.clone();
        g.dirty = dirty;
        (sha, dirty)
    }
}

fn find_repo(dir: &Path) -> Option<Repo> {
    let top = git::toplevel(dir).ok()?;
    let text = |args: &[&str]| -> Option<PathBuf> {
        let out = git::command(&top).args(args).output().ok()?;
        out.status
            .success()
            .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    };
    let git_dir = text(&["rev-parse", "--absolute-git-dir"])?;
    let common = text(&["rev-parse", "--git-common-dir"])?;
    let common_dir = if common.is_absolute() {
        common
    } else {
        top.join(common)
    };
    let prefix = dir
        .strip_prefix(&top)
        .ok()
        .map(|p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default();
    Some(Repo {
        top,
        git_dir,
        common_dir,
        prefix,
    })
}

/// Stats of the files whose change means HEAD or the dirty state may have changed.
fn signature(repo: &Repo) -> Vec<Option<(i128, u64)>> {
    let st = |p: &Path| {
        std::fs::metadata(p).ok().map(|m| {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            (t, m.len())
        })
    };
    let head = repo.git_dir.join("HEAD");
    let mut files = vec![
        head.clone(),
        repo.git_dir.join("index"),
        repo.common_dir.join("packed-refs"),
    ];
    if let Ok(h) = std::fs::read_to_string(&head)
        && let Some(r) = h.trim().strip_prefix("ref: ")
    {
        files.push(repo.common_dir.join(r));
        files.push(repo.git_dir.join(r));
    }
    files.iter().map(|p| st(p)).collect()
}
