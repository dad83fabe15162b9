//! The freshness verdict without running git on every answer. An inotify watch covers the
//! checkout: every directory holding a file git lists (tracked, or untracked and not ignored),
//! `.git` with its `info` and `refs`, and the user's git ignore directory. While no event
//! arrived, the last verdict for the same graph still holds, so an answer costs one
//! non-blocking read instead of four git processes (~40 ms on a million-line checkout).
//!
//! Any event, an overflow, a directory created or removed, a checkout git cannot list (a linked
//! worktree, whose `.git` is a file), no watches left, or [`SAFETY`] elapsed: git runs again.
//! Why an edit is never missed is the argument of [`nexus_lite::core::watch`]: the event is
//! queued inside the write itself, and the watches are set before git is asked.

use super::freshness::{Evidence, assess};
use nexus_lite::core::watch::{Changes, Watcher};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::process::Command;
use tokio::sync::Mutex;

/// The longest time a verdict is trusted on the watch alone (events a filesystem never
/// delivers, such as network mounts).
const SAFETY: Duration = Duration::from_secs(30);
/// Past this many directories the checkout is not watched: git runs on every answer.
const MAX_DIRS: usize = 50_000;

/// One watched checkout per local path, and the last verdict given for it.
#[derive(Default)]
pub struct CheckoutWatches {
    checkouts: Mutex<HashMap<PathBuf, Slot>>,
    /// How many times git was asked (read by the tests).
    assessed: std::sync::atomic::AtomicU64,
}

#[derive(Default)]
struct Slot {
    watcher: Option<Watcher>,
    last: Option<Last>,
    /// After a checkout could not be watched, when to try again (not on every answer: the
    /// listing alone costs what the cache saves).
    retry_at: Option<Instant>,
}

struct Last {
    graph_id: String,
    at: Instant,
    evidence: Evidence,
}

impl CheckoutWatches {
    /// [`assess`], or its last answer for `graph_id` when nothing in the checkout changed since.
    pub async fn evidence(
        &self,
        repo: &Path,
        graph_id: &str,
        graph_commit: &str,
        finding_paths: &BTreeSet<String>,
        max_behind: u32,
    ) -> Evidence {
        let mut checkouts = self.checkouts.lock().await;
        let slot = checkouts.entry(repo.to_path_buf()).or_default();
        let changes = slot.watcher.as_mut().map(Watcher::drain);
        let quiet = matches!(&changes, Some(Ok(c)) if c.paths.is_empty() && !c.rescan);
        if quiet
            && let Some(last) = &slot.last
            && last.graph_id == graph_id
            && last.at.elapsed() < SAFETY
        {
            return last.evidence.clone();
        }
        // A change of the directory set or of what git ignores, or the safety re-check (for a
        // directory a missed event hid), needs the listing again.
        let expired = slot.last.as_ref().is_some_and(|l| l.at.elapsed() >= SAFETY);
        let relist = match &changes {
            Some(Ok(c)) => c.rescan || ignore_rules_changed(c) || expired,
            _ => true,
        };
        slot.last = None;
        if relist && slot.retry_at.is_none_or(|t| Instant::now() >= t) {
            slot.watcher = watch(repo).await;
            slot.retry_at = slot.watcher.is_none().then(|| Instant::now() + SAFETY);
        }
        self.assessed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let evidence = assess(repo, graph_commit, finding_paths, max_behind).await;
        if slot.watcher.is_some() {
            slot.last = Some(Last {
                graph_id: graph_id.to_owned(),
                at: Instant::now(),
                evidence: evidence.clone(),
            });
        }
        evidence
    }

    #[cfg(test)]
    fn assessed(&self) -> u64 {
        self.assessed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

fn ignore_rules_changed(c: &Changes) -> bool {
    c.paths
        .iter()
        .any(|p| p.ends_with(".gitignore") || p.starts_with(".git/info/") || p.starts_with("~"))
}

/// Watches everything the verdict reads, or `None` when the checkout cannot be watched.
async fn watch(repo: &Path) -> Option<Watcher> {
    let git_dir = repo.join(".git");
    if !git_dir.is_dir() {
        return None;
    }
    let mut watcher = Watcher::new().ok()?;
    let mut dirs = BTreeSet::from([".git".to_owned()]);
    for sub in ["info", "refs"] {
        subdirs(&git_dir.join(sub), &format!(".git/{sub}"), &mut dirs);
    }
    // Set before git lists the files: a directory created in between shows as a change.
    for dir in &dirs {
        watcher.watch(&repo.join(dir), dir).ok()?;
    }
    let listing = Command::from(nexus_lite::git::command(repo))
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .await
        .ok()?;
    if !listing.status.success() {
        return None;
    }
    let mut worktree = BTreeSet::from([String::new()]);
    for path in listing.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let mut path = std::str::from_utf8(path).ok()?;
        while let Some(slash) = path.rfind('/') {
            path = &path[..slash];
            if !worktree.insert(path.to_owned()) {
                break;
            }
        }
        if worktree.len() > MAX_DIRS {
            tracing::info!(repo = %repo.display(), "too many directories to watch; freshness runs git on every answer");
            return None;
        }
    }
    for dir in &worktree {
        if let Err(e) = watcher.watch(&repo.join(dir), dir) {
            tracing::info!(repo = %repo.display(), error = %e, "cannot watch the checkout; freshness runs git on every answer");
            return None;
        }
    }
    if let Some(user) = user_ignore_dir() {
        // Absent or unreadable: nothing to follow.
        let _ = watcher.watch(&user, "~");
    }
    Some(watcher)
}

/// `dir` and every directory below it.
fn subdirs(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    out.insert(rel.to_owned());
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir())
            && let Some(name) = entry.file_name().to_str()
        {
            subdirs(&entry.path(), &format!("{rel}/{name}"), out);
        }
    }
}

/// Where git reads the user's ignore file by default (`core.excludesFile` is not read: git runs
/// without the global config).
fn user_ignore_dir() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("git"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command as Std;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Std::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    fn head(dir: &Path) -> String {
        let out = Std::new("git")
            .arg("-C")
            .arg(dir)
            .args(["rev-parse", "HEAD"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    #[tokio::test]
    async fn the_verdict_follows_every_change_and_git_runs_only_after_one() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        git(repo, &["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(repo.join("pkg")).unwrap();
        std::fs::write(repo.join("pkg/a.py"), "x = 1\n").unwrap();
        std::fs::write(repo.join(".gitignore"), "build/\n").unwrap();
        git(repo, &["add", "-A"]);
        git(repo, &["commit", "-q", "-m", "one"]);
        let commit = head(repo);
        let findings = BTreeSet::from(["pkg/a.py".to_owned()]);
        let w = CheckoutWatches::default();
        let ask = || w.evidence(repo, "g1", &commit, &findings, 20);

        let first = ask().await;
        assert_eq!(first.verdict, super::super::freshness::Verdict::Fresh);
        assert_eq!(ask().await, first);
        assert_eq!(w.assessed(), 1, "nothing changed: git is not asked again");

        // An ignored directory and its files change nothing git reports.
        std::fs::create_dir_all(repo.join("build")).unwrap();
        std::fs::write(repo.join("build/out.txt"), "o").unwrap();
        assert_eq!(ask().await.verdict, first.verdict);

        // An edit in a file with findings.
        std::fs::write(repo.join("pkg/a.py"), "x = 2\n").unwrap();
        let edited = ask().await;
        assert_eq!(edited.dirty_files, ["pkg/a.py"]);
        assert_eq!(
            edited.verdict,
            super::super::freshness::Verdict::UnsafeForPatchDecision
        );
        let runs = w.assessed();
        assert_eq!(ask().await, edited);
        assert_eq!(w.assessed(), runs);

        // Reverted, then a new file in a new directory.
        std::fs::write(repo.join("pkg/a.py"), "x = 1\n").unwrap();
        assert_eq!(ask().await.verdict, first.verdict);
        std::fs::create_dir_all(repo.join("pkg/sub")).unwrap();
        std::fs::write(repo.join("pkg/sub/b.py"), "y = 1\n").unwrap();
        assert_eq!(ask().await.dirty_files, ["pkg/sub/b.py"]);
        std::fs::write(repo.join("pkg/sub/b.py"), "y = 2\n").unwrap();
        std::fs::remove_file(repo.join("pkg/sub/b.py")).unwrap();
        assert_eq!(ask().await.verdict, first.verdict);

        // A commit moves HEAD past the graph; a new .gitignore rule hides a dirty file.
        std::fs::write(repo.join("pkg/c.py"), "z = 1\n").unwrap();
        git(repo, &["add", "-A"]);
        git(repo, &["commit", "-q", "-m", "two"]);
        let later = ask().await;
        assert_eq!(later.commits_between, Some(1));
        assert_eq!(later.changed_files, ["pkg/c.py"]);
        std::fs::write(repo.join("notes.txt"), "n").unwrap();
        assert_eq!(ask().await.dirty_files, ["notes.txt"]);
        std::fs::write(repo.join(".gitignore"), "build/\nnotes.txt\n").unwrap();
        assert_eq!(ask().await.dirty_files, [".gitignore"]);

        // Another graph is asked about on its own.
        let other = w.evidence(repo, "g2", &head(repo), &findings, 20).await;
        assert_eq!(other.commits_between, Some(0));
    }

    #[tokio::test]
    async fn a_checkout_that_cannot_be_watched_runs_git_on_every_answer() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("main");
        std::fs::create_dir_all(&main).unwrap();
        git(&main, &["init", "-q", "-b", "main"]);
        std::fs::write(main.join("a.py"), "x = 1\n").unwrap();
        git(&main, &["add", "-A"]);
        git(&main, &["commit", "-q", "-m", "one"]);
        // A linked worktree: its `.git` is a file naming a directory inside the main checkout.
        let linked = tmp.path().join("linked");
        git(&main, &["worktree", "add", "-q", linked.to_str().unwrap()]);
        let commit = head(&linked);
        let w = CheckoutWatches::default();
        let none = BTreeSet::new();
        let ask = || w.evidence(&linked, "g1", &commit, &none, 20);
        assert_eq!(ask().await.verdict, super::super::freshness::Verdict::Fresh);
        std::fs::write(linked.join("a.py"), "x = 2\n").unwrap();
        assert_eq!(ask().await.dirty_files, ["a.py"]);
        assert_eq!(ask().await.dirty_files, ["a.py"]);
        assert_eq!(w.assessed(), 3, "nothing is kept without a watch");
    }
}
