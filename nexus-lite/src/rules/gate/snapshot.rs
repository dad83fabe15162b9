//! The files the analysers read, as committed at head, written into a temporary directory:
//! never the user's work tree (uncommitted edits are not the change under review) and never a
//! `git worktree add` (which writes into the repository's `.git`). Blobs are read with one
//! `git cat-file --batch` (no filters, no textconv); the analysers' configuration files at head
//! come along so the repository's own settings apply.

use crate::core::error::LiteError;
use crate::core::git;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Configuration files the analysers read, by file name (at any depth).
pub const CONFIG_NAMES: &[&str] = &[
    "pyproject.toml",
    "ruff.toml",
    ".ruff.toml",
    "setup.cfg",
    "tox.ini",
    ".bandit",
    ".semgrep.yml",
    ".semgrep.yaml",
];

/// At most this many configuration files are copied (a monorepo with more is unusual).
const MAX_CONFIG_FILES: usize = 500;

/// A temporary copy of some of head's files; removed when dropped.
pub struct Snapshot {
    dir: tempfile::TempDir,
    root: PathBuf,
    /// Repo-relative paths of the configuration files copied.
    pub configs: Vec<String>,
}

impl Snapshot {
    /// The directory holding the files (canonical: analysers print canonical paths).
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn has(&self, rel: &str) -> bool {
        self.root.join(rel).is_file()
    }

    /// Keeps the directory alive for as long as the snapshot is.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A blob to write: its repo-relative path and sha.
pub struct Wanted<'a> {
    pub path: &'a str,
    pub blob: &'a str,
}

/// Writes `files` (and head's analyser configuration) into a new temporary directory.
pub fn write(repo: &Path, head_sha: &str, files: &[Wanted<'_>]) -> Result<Snapshot, LiteError> {
    let dir = tempfile::Builder::new()
        .prefix("nexus-gate-")
        .tempdir()
        .map_err(|e| {
            LiteError::Task(format!(
                "cannot create a temporary directory for the gate's copy of head: {e}"
            ))
        })?;
    let root = dir.path().canonicalize().map_err(|e| {
        LiteError::Task(format!(
            "cannot resolve the gate's temporary directory: {e}"
        ))
    })?;
    let configs = config_files(repo, head_sha)?;
    let mut blobs: BTreeMap<String, String> = files
        .iter()
        .map(|w| (w.path.to_string(), w.blob.to_string()))
        .collect();
    for (path, blob) in &configs {
        blobs.entry(path.clone()).or_insert_with(|| blob.clone());
    }
    let contents = cat_blobs(repo, blobs.values().map(String::as_str))?;
    for (path, blob) in &blobs {
        let Some(bytes) = contents.get(blob) else {
            continue;
        };
        if !safe_relative(path) {
            continue;
        }
        let target = root.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                LiteError::Task(format!(
                    "cannot create {} for the gate's copy of head: {e}",
                    parent.display()
                ))
            })?;
        }
        std::fs::write(&target, bytes).map_err(|e| {
            LiteError::Task(format!(
                "cannot write {} for the gate's copy of head: {e}",
                target.display()
            ))
        })?;
    }
    Ok(Snapshot {
        dir,
        root,
        configs: configs.into_iter().map(|(p, _)| p).collect(),
    })
}

/// Git paths never climb out, but a path is written only when that is plainly true.
fn safe_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != ".." && s != ".")
}

/// Head's analyser configuration files (regular files only): (path, blob).
fn config_files(repo: &Path, head_sha: &str) -> Result<Vec<(String, String)>, LiteError> {
    let out = git::command(repo)
        .args([
            "ls-tree",
            "-r",
            "-z",
            "--full-tree",
            "--end-of-options",
            head_sha,
        ])
        .output()
        .map_err(|e| git_error(repo, "ls-tree", &e.to_string()))?;
    if !out.status.success() {
        return Err(git_error(
            repo,
            "ls-tree",
            String::from_utf8_lossy(&out.stderr).trim(),
        ));
    }
    let mut found = Vec::new();
    for entry in out.stdout.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (Some(mode), Some(kind), Some(blob)) = (meta.next(), meta.next(), meta.next()) else {
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        let semgrep_dir =
            path.starts_with(".semgrep/") && (name.ends_with(".yml") || name.ends_with(".yaml"));
        if kind == "blob"
            && mode.starts_with("100")
            && (CONFIG_NAMES.contains(&name) || semgrep_dir)
        {
            found.push((path.to_string(), blob.to_string()));
            if found.len() >= MAX_CONFIG_FILES {
                tracing::warn!(
                    limit = MAX_CONFIG_FILES,
                    "more analyser configuration files than copied"
                );
                break;
            }
        }
    }
    Ok(found)
}

/// Sizes of blobs (`git cat-file --batch-check`); a missing blob has none.
pub fn blob_sizes<'a>(
    repo: &Path,
    blobs: impl Iterator<Item = &'a str>,
) -> Result<BTreeMap<String, u64>, LiteError> {
    let out = batch(repo, "--batch-check", blobs)?;
    let mut sizes = BTreeMap::new();
    for line in out.split(|b| *b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let parts: Vec<&str> = line.split(' ').collect();
        if let [sha, "blob", size] = parts[..]
            && let Ok(size) = size.parse()
        {
            sizes.insert(sha.to_string(), size);
        }
    }
    Ok(sizes)
}

/// Contents of blobs (`git cat-file --batch`), by sha.
fn cat_blobs<'a>(
    repo: &Path,
    blobs: impl Iterator<Item = &'a str>,
) -> Result<BTreeMap<String, Vec<u8>>, LiteError> {
    let out = batch(repo, "--batch", blobs)?;
    let mut reader = BufReader::new(&out[..]);
    let mut contents = BTreeMap::new();
    let mut header = String::new();
    loop {
        header.clear();
        if reader
            .read_line(&mut header)
            .map_err(|e| git_error(repo, "cat-file --batch", &e.to_string()))?
            == 0
        {
            break;
        }
        let parts: Vec<&str> = header.trim_end().split(' ').collect();
        let [sha, _kind, size] = parts[..] else {
            // "<sha> missing": nothing follows.
            continue;
        };
        let Ok(size) = size.parse::<usize>() else {
            continue;
        };
        let mut bytes = vec![0; size + 1];
        reader
            .read_exact(&mut bytes)
            .map_err(|e| git_error(repo, "cat-file --batch", &e.to_string()))?;
        bytes.truncate(size);
        contents.insert(sha.to_string(), bytes);
    }
    Ok(contents)
}

fn batch<'a>(
    repo: &Path,
    mode: &str,
    blobs: impl Iterator<Item = &'a str>,
) -> Result<Vec<u8>, LiteError> {
    let input: String = blobs.map(|b| format!("{b}\n")).collect();
    let mut child = git::command(repo)
        .args(["cat-file", mode])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| git_error(repo, "cat-file", &format!("cannot run git ({e})")))?;
    let stdin = child.stdin.take();
    // Written from another thread: git answers while it reads, and both pipes can fill.
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(input.as_bytes());
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| git_error(repo, "cat-file", &e.to_string()))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(git_error(
            repo,
            "cat-file",
            String::from_utf8_lossy(&out.stderr).trim(),
        ));
    }
    Ok(out.stdout)
}

fn git_error(repo: &Path, args: &str, message: &str) -> LiteError {
    LiteError::Git {
        path: repo.to_path_buf(),
        args: args.into(),
        message: message.into(),
    }
}
