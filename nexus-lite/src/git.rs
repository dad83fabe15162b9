//! Thin, typed wrappers over the git command line.

use crate::error::LiteError;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(repo: &Path, args: &[&str]) -> Result<Vec<u8>, LiteError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .map_err(|e| LiteError::Git {
            path: repo.to_path_buf(),
            args: args.join(" "),
            message: format!("cannot run git ({e}); is git installed and on PATH?"),
        })?;
    if !out.status.success() {
        return Err(LiteError::Git {
            path: repo.to_path_buf(),
            args: args.join(" "),
            message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

fn run_text(repo: &Path, args: &[&str]) -> Result<String, LiteError> {
    Ok(String::from_utf8_lossy(&run(repo, args)?)
        .trim()
        .to_string())
}

/// Canonical root of the work tree containing `path`.
pub fn toplevel(path: &Path) -> Result<PathBuf, LiteError> {
    let canon = path.canonicalize().map_err(|e| LiteError::BadRepo {
        path: path.to_path_buf(),
        reason: format!("cannot resolve it ({e})"),
    })?;
    let top =
        run_text(&canon, &["rev-parse", "--show-toplevel"]).map_err(|e| LiteError::BadRepo {
            path: path.to_path_buf(),
            reason: format!("not inside a git work tree ({e})"),
        })?;
    PathBuf::from(top)
        .canonicalize()
        .map_err(|e| LiteError::BadRepo {
            path: path.to_path_buf(),
            reason: format!("cannot resolve its work tree root ({e})"),
        })
}

/// Tracked files (repo-relative, `/`-separated), from `git ls-files -z`.
pub fn ls_files(repo: &Path) -> Result<Vec<String>, LiteError> {
    let out = run(repo, &["ls-files", "-z", "--cached"])?;
    Ok(split_z(&out))
}

fn split_z(out: &[u8]) -> Vec<String> {
    out.split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

/// HEAD commit sha, or `None` for a repository without commits.
pub fn head_sha(repo: &Path) -> Result<Option<String>, LiteError> {
    match run_text(repo, &["rev-parse", "--verify", "-q", "HEAD"]) {
        Ok(s) if !s.is_empty() => Ok(Some(s)),
        Ok(_) => Ok(None),
        Err(LiteError::Git { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Current branch name, or `None` when HEAD is detached.
pub fn current_branch(repo: &Path) -> Result<Option<String>, LiteError> {
    if let Some(branch) = head_file_branch(repo) {
        return Ok(branch);
    }
    match run_text(repo, &["symbolic-ref", "-q", "--short", "HEAD"]) {
        Ok(s) if !s.is_empty() => Ok(Some(s)),
        _ => Ok(None),
    }
}

/// What `git symbolic-ref --short HEAD` says, read from the HEAD file: `Some(Some(branch))`,
/// `Some(None)` when detached, `None` when unsure (no readable HEAD, a symref outside
/// refs/heads), and git is asked. Every graph selection without a branch needs this, and
/// spawning git took ~1.7 ms of a ~2 ms request.
fn head_file_branch(repo: &Path) -> Option<Option<String>> {
    let dot_git = repo.join(".git");
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        // A linked worktree or submodule: `.git` is a file naming the real git dir.
        let link = std::fs::read_to_string(&dot_git).ok()?;
        repo.join(link.strip_prefix("gitdir:")?.trim())
    };
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    match head.trim().strip_prefix("ref:") {
        Some(target) => target
            .trim()
            .strip_prefix("refs/heads/")
            .map(|b| Some(b.to_string())),
        None => Some(None),
    }
}

/// Local branch names.
pub fn branches(repo: &Path) -> Result<Vec<String>, LiteError> {
    let out = run_text(
        repo,
        &["for-each-ref", "--format=%(refname:short)", "refs/heads"],
    )?;
    Ok(out
        .lines()
        .map(str::to_string)
        .filter(|s| !s.is_empty())
        .collect())
}

/// The default branch for graph selection: the checked-out branch (what nexus-lite can
/// index), else origin/HEAD, else `HEAD` (detached).
pub fn default_branch(repo: &Path) -> String {
    if let Ok(Some(b)) = current_branch(repo) {
        return b;
    }
    if let Ok(s) = run_text(
        repo,
        &["symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"],
    ) && let Some(b) = s.strip_prefix("origin/")
    {
        return b.to_string();
    }
    "HEAD".to_string()
}

/// URL of the `origin` remote, if any.
pub fn origin_url(repo: &Path) -> Option<String> {
    run_text(repo, &["config", "--get", "remote.origin.url"])
        .ok()
        .filter(|s| !s.is_empty())
}

/// `owner/name` from a remote URL (https, ssh or scp-like).
pub fn owner_name_from_url(url: &str) -> Option<String> {
    let trimmed = url.trim().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".git").unwrap_or(trimmed);
    let parts: Vec<&str> = trimmed
        .split(['/', ':'])
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let name = parts[parts.len() - 1];
    let owner = parts[parts.len() - 2];
    if owner.contains('@') || owner.contains('.') && parts.len() == 2 {
        return None;
    }
    Some(format!("{owner}/{name}"))
}

/// Files with uncommitted changes (`git status --porcelain=v1 -z`), sorted.
pub fn dirty_files(repo: &Path) -> Result<Vec<String>, LiteError> {
    let out = run(
        repo,
        &["status", "--porcelain=v1", "-z", "--untracked-files=all"],
    )?;
    let mut files = Vec::new();
    let mut entries = out.split(|b| *b == 0).filter(|s| !s.is_empty());
    while let Some(entry) = entries.next() {
        if entry.len() < 4 {
            continue;
        }
        let status = &entry[..2];
        files.push(String::from_utf8_lossy(&entry[3..]).into_owned());
        // Renames and copies carry the original path as the next entry.
        if (status[0] == b'R' || status[0] == b'C')
            && let Some(orig) = entries.next()
        {
            files.push(String::from_utf8_lossy(orig).into_owned());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Files changed between two commits.
pub fn changed_between(repo: &Path, from: &str, to: &str) -> Result<Vec<String>, LiteError> {
    let out = run(repo, &["diff", "--name-only", "-z", from, to])?;
    Ok(split_z(&out))
}

/// Content of `path` at commit `sha` (`git show SHA:path`).
pub fn show(repo: &Path, sha: &str, path: &str) -> Result<Vec<u8>, LiteError> {
    run(repo, &["show", &format!("{sha}:{path}")])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git_ok(dir: &Path, args: &[&str]) {
        let st = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .output()
            .unwrap();
        assert!(st.status.success(), "git {args:?}: {st:?}");
    }

    /// The HEAD-file reading agrees with git itself: a branch with a slash, an unborn branch,
    /// a detached HEAD and a linked worktree.
    #[test]
    fn the_head_file_says_what_git_symbolic_ref_says() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("r");
        std::fs::create_dir(&repo).unwrap();
        git_ok(&repo, &["init", "-q", "-b", "trunk"]);
        let agree = |dir: &Path, expected: Option<&str>| {
            let by_git = match run_text(dir, &["symbolic-ref", "-q", "--short", "HEAD"]) {
                Ok(s) if !s.is_empty() => Some(s),
                _ => None,
            };
            assert_eq!(by_git.as_deref(), expected, "git in {}", dir.display());
            assert_eq!(
                head_file_branch(dir),
                Some(expected.map(str::to_string)),
                "HEAD file in {}",
                dir.display()
            );
            assert_eq!(current_branch(dir).unwrap().as_deref(), expected);
        };
        agree(&repo, Some("trunk")); // unborn: no commit yet
        std::fs::write(repo.join("a.py"), "x = 1\n").unwrap();
        git_ok(&repo, &["add", "-A"]);
        git_ok(&repo, &["commit", "-qm", "one"]);
        git_ok(&repo, &["checkout", "-q", "-b", "feature/x"]);
        agree(&repo, Some("feature/x"));
        let wt = tmp.path().join("wt");
        git_ok(
            &repo,
            &["worktree", "add", "-q", "-b", "other", wt.to_str().unwrap()],
        );
        agree(&wt, Some("other"));
        git_ok(&repo, &["checkout", "-q", "--detach"]);
        agree(&repo, None);
    }

    #[test]
    fn owner_name_parses_common_remote_forms() {
        assert_eq!(
            owner_name_from_url("https://github.com/pallets/click.git").as_deref(),
            Some("pallets/click")
        );
        assert_eq!(
            owner_name_from_url("git@github.com:acme/nexus.git").as_deref(),
            Some("acme/nexus")
        );
        assert_eq!(
            owner_name_from_url("ssh://git@gitlab.example.com/team/app").as_deref(),
            Some("team/app")
        );
    }
}
