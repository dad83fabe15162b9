//! A served workspace: its name, its index, and the git state the answers describe (commit
//! and dirty flag of the repository holding it). Both are cached: the commit and the set of
//! dirty paths are read again (`git status`) only when `.git/HEAD`, the branch ref,
//! `packed-refs`, `.git/index` or `.git/config` change, or a walk saw a document change; a
//! watched edit only marks its paths as unknown, and those are asked about (`git status --
//! PATHS`) only when no other path is known to be dirty, since one dirty path decides the flag.

use super::config::Limits;
use super::index::{Index, Progress, Refresh};
use crate::core::error::LiteError;
use crate::core::git;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

// In core: the server's configuration lists the workspaces.
pub use crate::core::config::WorkspaceSpec;

pub struct Workspace {
    pub name: String,
    pub dir: PathBuf,
    index: Mutex<Index>,
    progress: Arc<Progress>,
    git: Mutex<GitState>,
}

#[derive(Default)]
struct GitState {
    /// `None`: not looked up yet; `Some(None)`: not in a git work tree.
    repo: Option<Option<Repo>>,
    signature: Vec<Option<(i128, u64)>>,
    generation: u64,
    sha: Option<String>,
    /// The driver listing the content-reading `git status` needs (see `git::neutralise_drivers`).
    drivers: Option<Vec<u8>>,
    /// Paths (relative to the work tree's top, under the workspace) known to differ from HEAD;
    /// `None` when `git status` failed.
    dirty_paths: Option<BTreeSet<String>>,
    /// Paths changed since `dirty_paths` was read, not asked about yet.
    unknown: BTreeSet<String>,
}

/// More changed paths than this are asked about with one whole `git status`.
const MAX_PATHSPECS: usize = 200;

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
    /// `limits`: the operator's maxima of what the workspace's configuration may set.
    pub fn open(spec: &WorkspaceSpec, limits: &Limits) -> Result<Workspace, LiteError> {
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
        let index = Index::new(&dir, limits);
        Ok(Workspace {
            name,
            progress: index.progress.clone(),
            index: Mutex::new(index),
            dir,
            git: Mutex::new(GitState::default()),
        })
    }

    /// While another request refreshes the index: how far it got (`indexing: {phase, files,
    /// of}`, `of` null while files are listed), without waiting for it; `None` when it is free.
    pub fn busy(&self) -> Option<Value> {
        match self.index.try_lock() {
            Err(TryLockError::WouldBlock) => {
                let of = self.progress.of.load(Ordering::Relaxed);
                let (phase, of) = match of {
                    usize::MAX => ("listing files", Value::Null),
                    n => ("parsing", json!(n)),
                };
                Some(json!({
                    "name": self.name,
                    "indexing": {
                        "phase": phase,
                        "files": self.progress.parsed.load(Ordering::Relaxed),
                        "of": of,
                    },
                }))
            }
            _ => None,
        }
    }

    /// Refreshes the index (what changed since the last call) and the git state.
    pub fn view(&self) -> View<'_> {
        let mut index = self.index.lock().unwrap_or_else(|p| p.into_inner());
        let refresh = index.refresh();
        let (sha, dirty) = self.git_state(index.generation, &refresh, &index.root);
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

    fn git_state(
        &self,
        generation: u64,
        refresh: &Refresh,
        root: &Path,
    ) -> (Option<String>, Option<bool>) {
        let mut g = self.git.lock().unwrap_or_else(|p| p.into_inner());
        if g.repo.is_none() || (generation != g.generation && matches!(g.repo, Some(None))) {
            g.repo = Some(find_repo(&self.dir));
            g.signature.clear();
        }
        let g = &mut *g;
        let Some(Some(repo)) = &g.repo else {
            g.generation = generation;
            return (None, None);
        };
        let sig = signature(repo);
        let walked_change = refresh.walked && generation != g.generation;
        if sig != g.signature || g.signature.is_empty() || walked_change {
            g.sha = git::head_sha(&repo.top).ok().flatten();
            g.drivers = drivers(&repo.top);
            g.dirty_paths = g
                .drivers
                .as_ref()
                .and_then(|d| status(&repo.top, d, &[]))
                .map(|files| files.into_iter().filter(|f| repo.holds(f)).collect());
            g.unknown.clear();
            g.signature = sig;
        } else if let Some(known) = g.dirty_paths.as_mut() {
            for p in &refresh.touched {
                if let Some(rel) = super::tree::rel_path(&repo.top, &root.join(p)) {
                    known.remove(&rel);
                    g.unknown.insert(rel);
                }
            }
        }
        g.generation = generation;
        let dirty = match g.dirty_paths.as_mut() {
            None => None,
            Some(known) if !known.is_empty() || g.unknown.is_empty() => Some(!known.is_empty()),
            Some(known) => {
                let asked: Vec<String> = std::mem::take(&mut g.unknown).into_iter().collect();
                let specs = if asked.len() > MAX_PATHSPECS {
                    &[][..]
                } else {
                    &asked[..]
                };
                match g.drivers.as_ref().and_then(|d| status(&repo.top, d, specs)) {
                    Some(files) => {
                        known.extend(files.into_iter().filter(|f| repo.holds(f)));
                        Some(!known.is_empty())
                    }
                    None => {
                        g.dirty_paths = None;
                        None
                    }
                }
            }
        };
        (g.sha.clone(), dirty)
    }
}

impl Repo {
    /// Whether a top-relative path lies in the workspace.
    fn holds(&self, path: &str) -> bool {
        self.prefix.is_empty()
            || path
                .strip_prefix(&self.prefix)
                .is_some_and(|rest| rest.starts_with('/'))
    }
}

/// The filter and diff drivers to neutralise before `git status` reads work-tree content.
fn drivers(top: &Path) -> Option<Vec<u8>> {
    let out = git::drivers_listing_command(top).output().ok()?;
    git::listing_succeeded(&out).then_some(out.stdout)
}

/// The paths `git status` reports (both sides of a rename), limited to `paths` (literal,
/// top-relative) unless empty; `None` when git fails.
fn status(top: &Path, drivers: &[u8], paths: &[String]) -> Option<Vec<String>> {
    let mut cmd = git::command(top);
    git::neutralise_drivers(&mut cmd, drivers);
    cmd.arg("--literal-pathspecs");
    let mut args = git::STATUS_ARGS.to_vec();
    args.push("--");
    args.extend(paths.iter().map(String::as_str));
    match git::output(top, cmd, &args) {
        Ok(out) => Some(git::parse_status(&out)),
        Err(e) => {
            tracing::warn!(repo = %top.display(), error = %e, "git status failed; the dirty flag is unknown");
            None
        }
    }
}

fn find_repo(dir: &Path) -> Option<Repo> {
    let top = git::toplevel(dir).ok()?;
    let text = |args: &[&str]| git::run_text(&top, args).ok().map(PathBuf::from);
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
        repo.common_dir.join("config"),
    ];
    if let Ok(h) = std::fs::read_to_string(&head)
        && let Some(r) = h.trim().strip_prefix("ref: ")
    {
        files.push(repo.common_dir.join(r));
        files.push(repo.git_dir.join(r));
    }
    files.iter().map(|p| st(p)).collect()
}
