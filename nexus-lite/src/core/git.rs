//! Thin, typed wrappers over the git command line, and the one hardened way to run git.
//!
//! Repositories are not trusted: their `.git/config` (and anything it includes) and their
//! attributes can name programs for git to run. Every git run of nexus-lite and nexus-mcp goes
//! through [`command`] (and [`content_command`] for commands that read work-tree content), which
//! forces each of those settings off. A pure-Rust reader (gix) was considered: it runs filter
//! drivers too, and its compile cost on a small machine is large, so git stays a subprocess.

use crate::core::error::LiteError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

/// Config forced on every run, as command-line config (`-c`, understood by every git), which
/// wins over the repository's own config and its includes. Why each one:
const FORCED_CONFIG: &[(&str, &str)] = &[
    // `status` runs the fsmonitor command to learn which files changed.
    ("core.fsmonitor", "false"),
    // Hooks (e.g. post-index-change when the index is refreshed) are looked up in no directory.
    ("core.hooksPath", "/dev/null"),
    // Output goes to a pipe, but a pager must never be a repository's program.
    ("core.pager", "cat"),
    // An external diff program; diffs also pass --no-ext-diff.
    ("diff.external", ""),
    // The attributes file named by config; the work tree's .gitattributes is replaced by the
    // empty tree in [`content_command`].
    ("core.attributesFile", "/dev/null"),
    // ssh, askpass and credential helpers only run for network access, which
    // protocol.allow=never already refuses (a partial clone fetches missing objects lazily).
    ("core.sshCommand", "false"),
    ("core.askPass", ""),
    ("credential.helper", ""),
    ("protocol.allow", "never"),
    // Signature verification runs gpg (or ssh-keygen, gpgsm).
    ("log.showSignature", "false"),
    ("gpg.program", "false"),
    ("gpg.openpgp.program", "false"),
    ("gpg.ssh.program", "false"),
    ("gpg.x509.program", "false"),
    // Nothing we run edits a message; an editor is never the repository's program.
    ("core.editor", "false"),
];

/// The empty tree per object format: the attribute source of [`content_command`], so no
/// `.gitattributes` of the work tree applies.
const EMPTY_TREE_SHA1: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const EMPTY_TREE_SHA256: &str = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321";

/// A git command for `repo` that runs nothing the repository configures: the settings of
/// [`FORCED_CONFIG`], no system or global config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL`:
/// neither is needed to read state, and the results do not depend on the user's setup), no
/// terminal prompt, no lazy fetch of missing objects, no pager, and no optional locks (reads
/// never write the index under a concurrent git). Arguments go after it; put revisions after
/// `--end-of-options` and paths after `--`.
pub fn command(repo: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--no-pager").arg("-C").arg(repo);
    for (key, value) in FORCED_CONFIG {
        cmd.arg("-c").arg(format!("{key}={value}"));
    }
    // Variables of the caller that would redirect git to another repository or program.
    for var in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_CONFIG_PARAMETERS",
        "GIT_EXTERNAL_DIFF",
        "GIT_ATTR_SOURCE",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_ATTR_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_PAGER", "cat")
        .env("GIT_OPTIONAL_LOCKS", "0");
    set_config(&mut cmd, &[]);
    cmd
}

/// Sets `extra` as command-scope config through the environment (`GIT_CONFIG_COUNT`, git
/// 2.31+), which takes any key verbatim: `-c` would split a driver name containing `=`.
fn set_config(cmd: &mut Command, extra: &[(String, String)]) {
    cmd.env("GIT_CONFIG_COUNT", extra.len().to_string());
    for (i, (key, value)) in extra.iter().enumerate() {
        cmd.env(format!("GIT_CONFIG_KEY_{i}"), key)
            .env(format!("GIT_CONFIG_VALUE_{i}"), value);
    }
}

/// The command listing what [`neutralise_drivers`] needs: the configured filter and diff
/// drivers and the object format (`git config` reads config and executes nothing).
pub fn drivers_listing_command(repo: &Path) -> Command {
    let mut cmd = command(repo);
    cmd.args([
        "config",
        "-z",
        "--get-regexp",
        r"^(filter|diff)\..*\.|^extensions\.objectformat$",
    ]);
    cmd
}

/// Makes `cmd` (from [`command`]) safe for commands that read work-tree content (`status`
/// hashes modified files through clean filters): the attribute source is the empty tree, so
/// the work tree's `.gitattributes` names no driver, and each driver configured anywhere
/// (attributes in `$GIT_DIR/info/attributes` still apply) gets empty programs, which git
/// treats as no filter, and `required=false`. `listing` is the stdout of
/// [`drivers_listing_command`].
pub fn neutralise_drivers(cmd: &mut Command, listing: &[u8]) {
    let mut extra = Vec::new();
    let mut empty_tree = EMPTY_TREE_SHA1;
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let (key, value) = entry.split_once('\n').unwrap_or((&entry, ""));
        if key == "extensions.objectformat" {
            if value.trim() == "sha256" {
                empty_tree = EMPTY_TREE_SHA256;
            }
            continue;
        }
        let Some((section, rest)) = key.split_once('.') else {
            continue;
        };
        let Some((driver, _)) = rest.rsplit_once('.') else {
            continue;
        };
        let keys: &[(&str, &str)] = match section {
            "filter" => &[
                ("clean", ""),
                ("smudge", ""),
                ("process", ""),
                ("required", "false"),
            ],
            "diff" => &[("textconv", ""), ("command", "")],
            _ => continue,
        };
        for (name, value) in keys {
            let pair = (format!("{section}.{driver}.{name}"), (*value).to_string());
            if !extra.contains(&pair) {
                extra.push(pair);
            }
        }
    }
    set_config(cmd, &extra);
    cmd.env("GIT_ATTR_SOURCE", empty_tree);
}

/// Whether [`drivers_listing_command`] answered: exit 1 with no output means no driver.
pub fn listing_succeeded(out: &std::process::Output) -> bool {
    out.status.success() || (out.status.code() == Some(1) && out.stdout.is_empty())
}

/// [`command`] made safe for reading work-tree content (see [`neutralise_drivers`]).
pub fn content_command(repo: &Path) -> Result<Command, LiteError> {
    let [cmd] = content_commands(repo)?;
    Ok(cmd)
}

/// `N` commands as [`content_command`] makes them, for one listing of the repository's drivers.
pub fn content_commands<const N: usize>(repo: &Path) -> Result<[Command; N], LiteError> {
    let listing = drivers_listing_command(repo)
        .output()
        .map_err(|e| cannot_run(repo, "config --get-regexp", &e))?;
    if !listing_succeeded(&listing) {
        return Err(LiteError::Git {
            path: repo.to_path_buf(),
            args: "config --get-regexp".into(),
            message: String::from_utf8_lossy(&listing.stderr).trim().to_string(),
        });
    }
    Ok(std::array::from_fn(|_| {
        let mut cmd = command(repo);
        neutralise_drivers(&mut cmd, &listing.stdout);
        cmd
    }))
}

fn cannot_run(repo: &Path, args: &str, e: &std::io::Error) -> LiteError {
    LiteError::Git {
        path: repo.to_path_buf(),
        args: args.into(),
        message: format!("cannot run git ({e}); is git installed and on PATH?"),
    }
}

/// `git args` in `repo` through [`command`]: its stdout, or why it failed.
pub fn run(repo: &Path, args: &[&str]) -> Result<Vec<u8>, LiteError> {
    output(repo, command(repo), args)
}

/// `cmd` (from [`command`] or [`content_command`]) with `args`: its stdout, or why it failed.
pub fn output(repo: &Path, mut cmd: Command, args: &[&str]) -> Result<Vec<u8>, LiteError> {
    let out = cmd
        .args(args)
        .output()
        .map_err(|e| cannot_run(repo, &args.join(" "), &e))?;
    if !out.status.success() {
        return Err(LiteError::Git {
            path: repo.to_path_buf(),
            args: args.join(" "),
            message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// [`run`]'s stdout as trimmed text.
pub fn run_text(repo: &Path, args: &[&str]) -> Result<String, LiteError> {
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

/// The non-empty NUL-separated names of `-z` output.
pub fn split_z(out: &[u8]) -> Vec<String> {
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

/// The `git status` of every dirty-state question: modified, staged and untracked files, NUL
/// separated. Submodules are not recursed into: git would run there with the submodule's
/// config. It reads work-tree content: run it with [`content_command`] (or
/// [`neutralise_drivers`]); paths to limit it to go after `--`.
pub const STATUS_ARGS: &[&str] = &[
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignore-submodules=all",
];

/// The paths of [`STATUS_ARGS`] output, in git's order, both sides of a rename or copy.
pub fn parse_status(out: &[u8]) -> Vec<String> {
    let mut files = Vec::new();
    let mut entries = out.split(|b| *b == 0).filter(|s| !s.is_empty());
    while let Some(entry) = entries.next() {
        if entry.len() < 4 {
            continue;
        }
        files.push(String::from_utf8_lossy(&entry[3..]).into_owned());
        // Renames and copies carry the original path as the next entry.
        if matches!(entry[0], b'R' | b'C')
            && let Some(orig) = entries.next()
        {
            files.push(String::from_utf8_lossy(orig).into_owned());
        }
    }
    files
}

/// Files with uncommitted changes, sorted: what [`STATUS_ARGS`] lists, from two git processes
/// at once. Listing the untracked files walks every directory, two thirds of `git status`'s
/// time on a large tree (35 of 53 ms on 8.8k files), and the tracked files' check need not
/// wait for it.
pub fn dirty_files(repo: &Path) -> Result<Vec<String>, LiteError> {
    const TRACKED: &[&str] = &[
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=no",
        "--ignore-submodules=all",
    ];
    const UNTRACKED: &[&str] = &["ls-files", "-z", "--others", "--exclude-standard"];
    let (tracked, untracked) = std::thread::scope(|s| {
        let untracked = s.spawn(|| run(repo, UNTRACKED));
        let tracked = content_command(repo).and_then(|cmd| output(repo, cmd, TRACKED));
        let untracked = untracked
            .join()
            .unwrap_or_else(|_| Err(LiteError::Task("`git ls-files` failed unexpectedly".into())));
        (tracked, untracked)
    });
    let mut files = parse_status(&tracked?);
    files.extend(split_z(&untracked?));
    files.sort();
    files.dedup();
    Ok(files)
}

/// [`dirty_files`] on a thread of its own while `meanwhile` runs: `git status` is the slow
/// one of a plan's git questions (~50 ms on 9k files), and the others need not wait for it.
/// `meanwhile` is told when `git status` has finished (work it may cut short).
pub fn dirty_files_while<T>(
    repo: &Path,
    meanwhile: impl FnOnce(&AtomicBool) -> T,
) -> (Result<Vec<String>, LiteError>, T) {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let status = s.spawn(|| {
            let dirty = dirty_files(repo);
            done.store(true, Ordering::Release);
            dirty
        });
        let other = meanwhile(&done);
        let dirty = status
            .join()
            .unwrap_or_else(|_| Err(LiteError::Task("`git status` failed unexpectedly".into())));
        (dirty, other)
    })
}

/// The arguments listing the names of the files changed between two commits (`-z`: read them
/// with [`split_z`]); no diff program or text conversion runs.
pub fn changed_names_args<'a>(from: &'a str, to: &'a str) -> [&'a str; 9] {
    [
        "diff",
        "--name-only",
        "-z",
        "--no-ext-diff",
        "--no-textconv",
        "--end-of-options",
        from,
        to,
        "--",
    ]
}

/// Files changed between two commits.
pub fn changed_between(repo: &Path, from: &str, to: &str) -> Result<Vec<String>, LiteError> {
    let out = run(repo, &changed_names_args(from, to))?;
    Ok(split_z(&out))
}

/// Content of `path` at commit `sha`, as stored (`git cat-file blob`: no textconv, no filter).
pub fn show(repo: &Path, sha: &str, path: &str) -> Result<Vec<u8>, LiteError> {
    run(
        repo,
        &[
            "cat-file",
            "blob",
            "--end-of-options",
            &format!("{sha}:{path}"),
        ],
    )
}

/// The user's own global excludes file (`core.excludesFile` in their global config, which
/// [`command`] does not read): files it ignores stay out of their commits, so out of the
/// tree too. The user's config, not the repository's, so honouring it runs nothing untrusted.
pub fn user_excludes_file() -> Option<String> {
    let out = Command::new("git")
        .args(["config", "--global", "--path", "--get", "core.excludesFile"])
        .env_remove("GIT_DIR")
        .env_remove("GIT_CONFIG_PARAMETERS")
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !path.is_empty()).then_some(path)
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

    /// The attribute source is the empty tree of the repository's object format: a SHA-256
    /// repository's status works (a SHA-1 tree name would make git refuse to run).
    #[test]
    fn status_reads_a_sha256_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        git_ok(
            repo,
            &["init", "-q", "--object-format=sha256", "-b", "main"],
        );
        std::fs::write(repo.join("a.py"), "x = 1\n").unwrap();
        git_ok(repo, &["add", "-A"]);
        git_ok(repo, &["commit", "-qm", "one"]);
        std::fs::write(repo.join("a.py"), "x = 2\n").unwrap();
        assert_eq!(dirty_files(repo).unwrap(), vec!["a.py".to_string()]);
    }

    #[test]
    fn status_lists_both_sides_of_a_rename_and_skips_short_entries() {
        let out = b" M a.py\0R  new.py\0old.py\0?? dir/x y.md\0ab\0";
        assert_eq!(
            parse_status(out),
            ["a.py", "new.py", "old.py", "dir/x y.md"]
        );
        assert_eq!(split_z(b"a\0\0b c\0"), ["a", "b c"]);
    }

    /// Two git processes list what one `git status` lists: modified, staged (both sides of
    /// a rename), deleted and untracked files, a nested repository once, nothing ignored
    /// (by `.gitignore` or `info/exclude`) and nothing inside a submodule.
    #[test]
    fn dirty_files_lists_what_one_git_status_lists() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = &tmp.path().join("r");
        let write = |path: &str, text: &str| {
            let full = repo.join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        };
        git_ok(tmp.path(), &["init", "-q", "-b", "main", "r"]);
        write("src/a.py", "a = 1\n");
        write("docs/c.md", "c\n");
        write("keep.txt", "k\n");
        write(".gitignore", "*.log\n");
        git_ok(repo, &["add", "-A"]);
        git_ok(repo, &["commit", "-qm", "one"]);
        let nested = repo.join("nested");
        git_ok(repo, &["init", "-q", "nested"]);
        write("nested/n.txt", "n\n");
        git_ok(&nested, &["add", "-A"]);
        git_ok(&nested, &["commit", "-qm", "n"]);
        let sub = tmp.path().join("sub");
        git_ok(tmp.path(), &["init", "-q", "sub"]);
        std::fs::write(sub.join("s.txt"), "s\n").unwrap();
        git_ok(&sub, &["add", "-A"]);
        git_ok(&sub, &["commit", "-qm", "s"]);
        let sub_url = sub.to_str().unwrap();
        git_ok(
            repo,
            &[
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "add",
                "-q",
                sub_url,
                "sm",
            ],
        );
        git_ok(repo, &["commit", "-qm", "submodule"]);
        write("sm/inside.txt", "in a submodule\n");
        write("src/a.py", "a = 2\n");
        std::fs::remove_file(repo.join("docs/c.md")).unwrap();
        git_ok(repo, &["mv", "keep.txt", "kept.txt"]);
        write("new dir/deep/é u.py", "u\n");
        write("x.log", "ignored\n");
        write("excluded.txt", "ignored\n");
        write(".git/info/exclude", "excluded.txt\n");
        let status = output(repo, content_command(repo).unwrap(), STATUS_ARGS).unwrap();
        let mut expected = parse_status(&status);
        expected.sort();
        assert_eq!(
            dirty_files(repo).unwrap(),
            expected,
            "git status: {}",
            String::from_utf8_lossy(&status)
        );
        assert_eq!(
            expected,
            [
                "docs/c.md",
                "keep.txt",
                "kept.txt",
                "nested/",
                "new dir/deep/é u.py",
                "src/a.py"
            ]
        );
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
