//! The indexed files of a workspace and how their changes are found: a full walk (include and
//! exclude globs, hidden files skipped, .gitignore honoured, one `stat` per file) on the first
//! request, then the watcher's changed paths, each checked alone. The walk runs again when the
//! watcher cannot say what changed (see [`crate::core::watch`]), when no watcher is available, and at
//! most every [`SAFETY_WALK`] as a safety net against events a filesystem never delivers
//! (network mounts).

use super::frontmatter::ParseError;
use crate::core::watch::Watcher;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The longest time the index trusts the watcher alone before walking again.
pub const SAFETY_WALK: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub mtime_ns: i128,
    pub size: u64,
}

/// The stat of a regular file (a link is not followed: `None`).
pub fn stat(path: &Path) -> Option<Stat> {
    let md = std::fs::symlink_metadata(path).ok()?;
    md.is_file().then(|| stat_of(&md))
}

pub fn stat_of(md: &std::fs::Metadata) -> Stat {
    let mtime_ns = md
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128);
    Stat {
        mtime_ns,
        size: md.len(),
    }
}

/// Which files are indexed, beyond the hidden and .gitignore rules.
pub struct Filter<'a> {
    pub globs: &'a dyn Fn(&str) -> bool,
    pub gitignore: bool,
}

/// What an update found.
#[derive(Debug, PartialEq, Eq)]
pub enum Delta {
    /// The tree was walked: `files` is new.
    Walked,
    /// Only these paths (relative) may differ; `files` was updated for each.
    Changed(BTreeSet<String>),
}

/// The indexed files (relative path → stat) and the directories the walk visited.
#[derive(Default)]
pub struct Tree {
    pub files: BTreeMap<String, Stat>,
    dirs: BTreeSet<String>,
    watcher: Option<Watcher>,
    /// Whether creating the watcher was tried (it is tried once).
    watcher_tried: bool,
    last_walk: Option<Instant>,
    /// Problems of the last walk (unreadable directories).
    pub errors: Vec<ParseError>,
}

impl Tree {
    /// Brings `files` up to date. `walk` forces a full walk (the configuration changed).
    pub fn update(&mut self, root: &Path, filter: &Filter<'_>, walk: bool) -> Delta {
        let due = self.last_walk.is_none_or(|t| t.elapsed() >= SAFETY_WALK);
        // Drained even when walking anyway: the drain also forgets the watches the kernel
        // dropped (a removed directory), so a directory recreated under the same name is
        // watched again by the walk.
        let changes = match self.watcher.as_mut().map(Watcher::drain) {
            Some(Ok(c)) => Some(c),
            Some(Err(e)) => {
                tracing::warn!(root = %root.display(), error = %e, "reading file change events failed; walking the workspace on every request from now on");
                self.watcher = None;
                None
            }
            None => None,
        };
        match changes {
            Some(c)
                if !walk
                    && !due
                    && !c.rescan
                    && !c.paths.iter().any(|p| is_ignore_file(p, filter)) =>
            {
                for p in &c.paths {
                    self.recheck(root, filter, p);
                }
                Delta::Changed(c.paths)
            }
            _ => {
                self.walk(root, filter);
                Delta::Walked
            }
        }
    }

    /// Re-reads one path's stat (and whether it is indexed at all).
    fn recheck(&mut self, root: &Path, filter: &Filter<'_>, rel: &str) {
        let md = std::fs::symlink_metadata(root.join(rel)).ok();
        let known = self.files.contains_key(rel);
        let indexed = md.as_ref().is_some_and(|m| m.is_file())
            && self.dirs.contains(super::links::parent(rel))
            && (known || self.admits(root, filter, rel));
        match (indexed, md) {
            (true, Some(md)) => {
                self.files.insert(rel.to_string(), stat_of(&md));
            }
            _ => {
                self.files.remove(rel);
            }
        }
    }

    /// Whether a new file in a walked directory would be walked: not hidden, within the
    /// globs, and not ignored by the .gitignore files that apply to it.
    fn admits(&self, root: &Path, filter: &Filter<'_>, rel: &str) -> bool {
        let name = super::doc::file_name(rel);
        if name.starts_with('.') || !(filter.globs)(rel) {
            return false;
        }
        !filter.gitignore || !gitignored(&root.join(rel))
    }

    fn walk(&mut self, root: &Path, filter: &Filter<'_>) {
        if !self.watcher_tried {
            self.watcher_tried = true;
            match Watcher::new() {
                Ok(w) => self.watcher = Some(w),
                Err(e) => {
                    tracing::info!(root = %root.display(), error = %e, "no file watcher; every request walks the workspace to find edits")
                }
            }
        }
        let mut errors = Vec::new();
        let mut files = BTreeMap::new();
        let mut dirs = BTreeSet::new();
        let mut wb = ignore::WalkBuilder::new(root);
        wb.hidden(true)
            .ignore(false)
            .git_global(false)
            .git_ignore(filter.gitignore)
            .git_exclude(filter.gitignore)
            .parents(filter.gitignore)
            .require_git(false)
            .follow_links(false);
        for entry in wb.build() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errors.push(ParseError {
                        path: String::new(),
                        line: None,
                        column: None,
                        message: format!("part of the workspace could not be read: {e}"),
                    });
                    continue;
                }
            };
            let Some(kind) = entry.file_type() else {
                continue;
            };
            let Some(rel) = rel_path(root, entry.path()) else {
                continue;
            };
            if kind.is_dir() {
                // Watched as yielded, before the walk reads its entries: no change in between
                // is missed.
                if let Some(w) = self.watcher.as_mut()
                    && let Err(e) = w.watch(entry.path(), &rel)
                {
                    tracing::warn!(dir = %entry.path().display(), error = %e, "cannot watch a directory (raise fs.inotify.max_user_watches?); walking the workspace on every request instead");
                    self.watcher = None;
                }
                dirs.insert(rel);
                continue;
            }
            if !kind.is_file() || !(filter.globs)(&rel) {
                continue;
            }
            if let Ok(md) = entry.metadata() {
                files.insert(rel, stat_of(&md));
            }
        }
        if let Some(w) = self.watcher.as_mut() {
            w.retain(&dirs);
        }
        self.files = files;
        self.dirs = dirs;
        self.errors = errors;
        self.last_walk = Some(Instant::now());
    }
}

/// A changed ignore file changes which files are indexed: only a walk can tell.
fn is_ignore_file(rel: &str, filter: &Filter<'_>) -> bool {
    filter.gitignore && super::doc::file_name(rel) == ".gitignore"
}

/// Whether `abs` (a file) is ignored by the .gitignore files of its directory and its
/// ancestors (the deepest match wins, as in git) up to the repository's top, then by
/// `.git/info/exclude`.
fn gitignored(abs: &Path) -> bool {
    // Matching strips the .gitignore's directory as a text prefix: no `./` may be left in.
    let abs: PathBuf = abs.components().collect();
    let abs = abs.as_path();
    let mut dir = abs.parent();
    while let Some(d) = dir {
        let file = d.join(".gitignore");
        if file.is_file() {
            let (gi, _) = ignore::gitignore::Gitignore::new(&file);
            let m = gi.matched(abs, false);
            if m.is_ignore() {
                return true;
            }
            if m.is_whitelist() {
                return false;
            }
        }
        let git = d.join(".git");
        if git.exists() {
            let exclude = git.join("info").join("exclude");
            if exclude.is_file() {
                let mut b = ignore::gitignore::GitignoreBuilder::new(d);
                let _ = b.add(&exclude);
                if let Ok(gi) = b.build() {
                    return gi.matched(abs, false).is_ignore();
                }
            }
            return false;
        }
        dir = d.parent();
    }
    false
}

/// `p` relative to `root`, `/`-separated (`""` for the root); `None` outside it or not UTF-8.
pub fn rel_path(root: &Path, p: &Path) -> Option<String> {
    let rel = p.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<Vec<_>>>()?;
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_rules_apply_to_a_single_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".");
        std::fs::create_dir_all(root.join("backlog/tasks")).unwrap();
        std::fs::write(root.join(".gitignore"), "backlog/tasks/scratch*\n").unwrap();
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        assert!(gitignored(&root.join("backlog/tasks/scratch-1.md")));
        assert!(!gitignored(&root.join("backlog/tasks/task-1.md")));
    }
}
