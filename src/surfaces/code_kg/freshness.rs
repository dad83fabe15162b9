//! How fresh is the graph compared with a local checkout? Fails closed: anything git cannot
//! answer is never `fresh`.

use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;
use tokio::process::Command;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Fresh,
    StaleButUsable,
    Stale,
    UnsafeForPatchDecision,
}

/// The verdict and everything it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub verdict: Verdict,
    pub graph_commit: String,
    pub head: Option<String>,
    pub commits_between: Option<u64>,
    pub dirty_files: Vec<String>,
    pub changed_files: Vec<String>,
    pub files_with_findings_touched: Vec<String>,
    pub reasons: Vec<String>,
}

/// Runs git through nexus-lite's hardened builder: nothing the repository configures runs.
async fn git(repo: &Path, args: &[&str]) -> Result<(bool, String), String> {
    run(Command::from(nexus_lite::git::command(repo)), args).await
}

async fn run(mut cmd: Command, args: &[&str]) -> Result<(bool, String), String> {
    let out = cmd
        .args(args)
        .output()
        .await
        .map_err(|e| format!("cannot run git: {e}"))?;
    Ok((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

async fn git_ok(repo: &Path, args: &[&str]) -> Result<String, String> {
    match git(repo, args).await? {
        (true, out) => Ok(out),
        (false, _) => Err(format!("`git {}` failed", args.join(" "))),
    }
}

/// `git status` hashes modified files through clean filters: the drivers the repository
/// configures are listed first and neutralised (see `nexus_lite::git::neutralise_drivers`).
async fn content_git(repo: &Path, args: &[&str]) -> Result<String, String> {
    let listing = Command::from(nexus_lite::git::drivers_listing_command(repo))
        .output()
        .await
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !nexus_lite::git::listing_succeeded(&listing) {
        return Err("`git config --get-regexp` failed".to_owned());
    }
    let mut cmd = nexus_lite::git::command(repo);
    nexus_lite::git::neutralise_drivers(&mut cmd, &listing.stdout);
    match run(Command::from(cmd), args).await? {
        (true, out) => Ok(out),
        (false, _) => Err(format!("`git {}` failed", args.join(" "))),
    }
}

/// Dirty paths (modified, staged, untracked, both sides of renames), repo-relative. Submodules
/// are not recursed into: git would run there with the submodule's own config.
async fn dirty_files(repo: &Path) -> Result<Vec<String>, String> {
    let out = content_git(repo, nexus_lite::git::STATUS_ARGS).await?;
    let mut files = nexus_lite::git::parse_status(out.as_bytes());
    files.sort();
    files.dedup();
    Ok(files)
}

/// Compares the graph commit with the checkout at `repo`.
pub async fn assess(
    repo: &Path,
    graph_commit: &str,
    finding_paths: &BTreeSet<String>,
    max_behind: u32,
) -> Evidence {
    let mut ev = Evidence {
        verdict: Verdict::Stale,
        graph_commit: graph_commit.to_owned(),
        head: None,
        commits_between: None,
        dirty_files: Vec::new(),
        changed_files: Vec::new(),
        files_with_findings_touched: Vec::new(),
        reasons: Vec::new(),
    };
    let head = match git_ok(
        repo,
        &["rev-parse", "--verify", "--end-of-options", "HEAD^{commit}"],
    )
    .await
    {
        Ok(h) => h.trim().to_owned(),
        Err(e) => {
            ev.reasons.push(format!(
                "git cannot read HEAD ({e}); the comparison is impossible"
            ));
            return ev;
        }
    };
    ev.head = Some(head.clone());
    match dirty_files(repo).await {
        Ok(d) => ev.dirty_files = d,
        Err(e) => {
            ev.reasons.push(format!(
                "git cannot list local changes ({e}); the comparison is impossible"
            ));
            return ev;
        }
    }
    let ancestor = if head == graph_commit {
        ev.commits_between = Some(0);
        true
    } else {
        match git(
            repo,
            &[
                "merge-base",
                "--is-ancestor",
                "--end-of-options",
                graph_commit,
                &head,
            ],
        )
        .await
        {
            Ok((true, _)) => {
                let range = format!("{graph_commit}..{head}");
                ev.commits_between =
                    git_ok(repo, &["rev-list", "--count", "--end-of-options", &range])
                        .await
                        .ok()
                        .and_then(|n| n.trim().parse().ok());
                let names = nexus_lite::git::changed_names_args(graph_commit, &head);
                if let Ok(names) = git_ok(repo, &names).await {
                    ev.changed_files = nexus_lite::git::split_z(names.as_bytes());
                }
                true
            }
            Ok((false, _)) => {
                let known = git(
                    repo,
                    &[
                        "cat-file",
                        "-e",
                        "--end-of-options",
                        &format!("{graph_commit}^{{commit}}"),
                    ],
                )
                .await
                .is_ok_and(|(ok, _)| ok);
                ev.reasons.push(if known {
                    "the graph commit is not an ancestor of local HEAD (diverged history)".to_owned()
                } else {
                    "the graph commit is not in the local history (fetch it, or the graph is of another clone)".to_owned()
                });
                false
            }
            Err(e) => {
                ev.reasons.push(format!("git cannot compare commits ({e})"));
                false
            }
        }
    };
    let touched: BTreeSet<&String> = ev
        .changed_files
        .iter()
        .chain(&ev.dirty_files)
        .filter(|f| finding_paths.contains(*f))
        .collect();
    ev.files_with_findings_touched = touched.into_iter().cloned().collect();
    ev.verdict = if !ev.files_with_findings_touched.is_empty() {
        ev.reasons.push("files that carry findings changed since the graph: the findings may no longer match the code".to_owned());
        Verdict::UnsafeForPatchDecision
    } else if !ancestor {
        Verdict::Stale
    } else if ev.commits_between.is_none() {
        ev.reasons
            .push("git could not count the commits since the graph".to_owned());
        Verdict::Stale
    } else if ev
        .commits_between
        .is_some_and(|n| n > u64::from(max_behind))
    {
        ev.reasons.push(format!(
            "local HEAD is more than {max_behind} commits ahead of the graph"
        ));
        Verdict::Stale
    } else if ev.commits_between == Some(0) && ev.dirty_files.is_empty() {
        Verdict::Fresh
    } else {
        if !ev.dirty_files.is_empty() {
            ev.reasons
                .push("the worktree has local changes, none in files with findings".to_owned());
        }
        if ev.commits_between.is_some_and(|n| n > 0) {
            ev.reasons.push(
                "local HEAD descends from the graph commit; no changed file carries a finding"
                    .to_owned(),
            );
        }
        Verdict::StaleButUsable
    };
    ev
}
