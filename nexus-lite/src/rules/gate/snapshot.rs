//! Head's tree as a checkout presents it, written into a temporary directory: never the
//! user's work tree (uncommitted edits are not the change under review) and never a `git
//! worktree add` (which writes into the repository's `.git`). The analysers read the files
//! they are given and their configuration, but ruff decides packages (INP001) and first-party
//! modules (I001) by which files and directories exist: so every directory and Python file of
//! head's tree is there, empty, and the changed files and the analysers' configuration (with
//! the files ruff configurations `extend`, within head's tree) have their content. Blobs are read
//! with one `git cat-file --batch` (no filters, no textconv). The directory is a private
//! [`scratch`] directory.

use crate::core::error::LiteError;
use crate::core::{git, scratch};
use std::collections::{BTreeMap, BTreeSet};
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
    // Which files semgrep skips.
    ".semgrepignore",
];

/// The gate's scratch directories (a killed gate's leftovers are removed by the next one).
pub const SCRATCH_PREFIX: &str = "nexus-gate-";

/// At most this many configuration files are copied (a monorepo with more is unusual).
pub(super) const MAX_CONFIG_FILES: usize = 500;

/// `extend` links followed from one configuration file at most (ruff follows chains).
const MAX_EXTEND_DEPTH: usize = 8;

/// A temporary copy of some of head's files; removed when dropped.
pub struct Snapshot {
    dir: scratch::ScratchDir,
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

/// Head's regular files: path -> (blob, size).
pub type Tree = BTreeMap<String, (String, u64)>;

/// Writes head's tree (`tree`, from [`regular_files`]) into a new temporary directory: `files`
/// and head's analyser configuration with their content, and the shape ruff reads, empty.
pub fn write(repo: &Path, tree: &Tree, files: &[Wanted<'_>]) -> Result<Snapshot, LiteError> {
    let dir = scratch::create(SCRATCH_PREFIX, "the gate's copy of head")?;
    let root = dir.path().canonicalize().map_err(|e| {
        LiteError::Task(format!(
            "cannot resolve the gate's temporary directory: {e}"
        ))
    })?;
    write_shape(&root, tree, files)?;
    let mut configs = config_files(tree);
    let mut blobs: BTreeMap<String, String> = files
        .iter()
        .map(|w| (w.path.to_string(), w.blob.to_string()))
        .collect();
    for (path, blob) in &configs {
        blobs.entry(path.clone()).or_insert_with(|| blob.clone());
    }
    // One `git cat-file --batch` for the changed files and the configuration; the files ruff
    // configurations `extend` are read after, when there are any.
    let mut contents = cat_blobs(repo, blobs.values().map(String::as_str))?;
    add_extended(repo, tree, &mut configs, &mut contents)?;
    for (path, blob) in &configs {
        blobs.entry(path.clone()).or_insert_with(|| blob.clone());
    }
    for (path, blob) in &blobs {
        let Some(bytes) = contents.get(blob) else {
            continue;
        };
        if !safe_relative(path) {
            continue;
        }
        write_file(&root.join(path), bytes)?;
    }
    // Ruff looks for its configuration up from the files, out of the snapshot into $TMPDIR
    // (`/tmp/ruff.toml` is anyone's on a shared runner): a neutral one at the root ends the
    // search where the repository ends, and equals ruff's defaults.
    let pyproject_ruff = std::fs::read_to_string(root.join("pyproject.toml"))
        .is_ok_and(|t| t.contains("[tool.ruff"));
    if !pyproject_ruff && !root.join("ruff.toml").exists() && !root.join(".ruff.toml").exists() {
        std::fs::write(
            root.join("ruff.toml"),
            "# The gate's: the repository configures no ruff at its root.\n",
        )
        .map_err(|e| {
            LiteError::Task(format!(
                "cannot write ruff.toml in the gate's copy of head {}: {e}",
                root.display()
            ))
        })?;
    }
    Ok(Snapshot {
        dir,
        root,
        configs: configs.into_iter().map(|(p, _)| p).collect(),
    })
}

/// The shape of head's tree that ruff's decisions read, empty: INP001 and the package root
/// (the `__init__.py` of each directory above a changed file) and I001's first-party names (a
/// directory or module at a source root: every directory and module outside a package). Files
/// inside packages are left out, with every other file: creating a file costs far more than
/// the analysers read of it, which is nothing.
fn write_shape(root: &Path, tree: &Tree, files: &[Wanted<'_>]) -> Result<(), LiteError> {
    let paths: Vec<&String> = tree.keys().filter(|p| safe_relative(p)).collect();
    let parent = |p: &str| p.rsplit_once('/').map_or("", |(dir, _)| dir).to_string();
    let is_init = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        name == "__init__.py" || name == "__init__.pyi"
    };
    let packages: BTreeSet<String> = paths
        .iter()
        .filter(|p| is_init(p))
        .map(|p| parent(p))
        .collect();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for p in &paths {
        // Every directory of the path whose parent is no package.
        let mut dir = parent(p);
        while !dir.is_empty() {
            let up = parent(&dir);
            if !packages.contains(&up) {
                dirs.insert(dir.clone());
            }
            dir = up;
        }
    }
    for w in files {
        let mut dir = parent(w.path);
        while !dir.is_empty() {
            dirs.insert(dir.clone());
            dir = parent(&dir);
        }
    }
    for dir in &dirs {
        let target = root.join(dir);
        std::fs::create_dir_all(&target).map_err(|e| {
            LiteError::Task(format!(
                "cannot create {} for the gate's copy of head: {e}",
                target.display()
            ))
        })?;
    }
    for path in paths.iter().filter(|p| {
        let dir = parent(p);
        let python = p.ends_with(".py") || p.ends_with(".pyi");
        let dir_made = dir.is_empty() || dirs.contains(&dir);
        python && dir_made && (is_init(p) || !packages.contains(&dir))
    }) {
        write_file(&root.join(path), b"")?;
    }
    Ok(())
}

/// Writes `bytes` at `target`, creating its directories.
fn write_file(target: &Path, bytes: &[u8]) -> Result<(), LiteError> {
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            LiteError::Task(format!(
                "cannot create {} for the gate's copy of head: {e}",
                parent.display()
            ))
        })?;
    }
    std::fs::write(target, bytes).map_err(|e| {
        LiteError::Task(format!(
            "cannot write {} for the gate's copy of head: {e}",
            target.display()
        ))
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

/// Head's regular files (symbolic links and submodules are not written), with their blobs and
/// sizes: one `git ls-tree -r -l`.
pub fn regular_files(repo: &Path, head_sha: &str) -> Result<Tree, LiteError> {
    let out = git::command(repo)
        .args([
            "ls-tree",
            "-r",
            "-z",
            "-l",
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
    let mut tree = BTreeMap::new();
    for entry in out.stdout.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        // `<mode> <type> <object> <size, padded>`.
        let mut meta = meta.split_whitespace();
        let (Some(mode), Some(kind), Some(blob), Some(size)) =
            (meta.next(), meta.next(), meta.next(), meta.next())
        else {
            continue;
        };
        if kind == "blob"
            && mode.starts_with("100")
            && let Ok(size) = size.parse()
        {
            tree.insert(path.to_string(), (blob.to_string(), size));
        }
    }
    Ok(tree)
}

/// Head's analyser configuration files among its regular files `tree`: (path, blob). The
/// files ruff configurations `extend` are added by [`add_extended`].
fn config_files(tree: &Tree) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, (blob, _)) in tree {
        let name = path.rsplit('/').next().unwrap_or(path);
        let semgrep_dir =
            path.starts_with(".semgrep/") && (name.ends_with(".yml") || name.ends_with(".yaml"));
        if CONFIG_NAMES.contains(&name) || semgrep_dir {
            found.push((path.clone(), blob.clone()));
            if found.len() >= MAX_CONFIG_FILES {
                tracing::warn!(
                    limit = MAX_CONFIG_FILES,
                    "more analyser configuration files than copied"
                );
                break;
            }
        }
    }
    found
}

/// Adds the files head's ruff configurations `extend`, transitively (at most
/// [`MAX_EXTEND_DEPTH`] links), when they are regular files of head's tree: a target outside
/// the repository (absolute, `~`, `$VAR`, or climbing above the root) is never read.
fn add_extended(
    repo: &Path,
    tree: &Tree,
    found: &mut Vec<(String, String)>,
    contents: &mut BTreeMap<String, Vec<u8>>,
) -> Result<(), LiteError> {
    let mut frontier: Vec<(String, String)> = found
        .iter()
        .filter(|(p, _)| is_ruff_config(p))
        .cloned()
        .collect();
    for _ in 0..MAX_EXTEND_DEPTH {
        if frontier.is_empty() || found.len() >= MAX_CONFIG_FILES {
            break;
        }
        let unread: Vec<&str> = frontier
            .iter()
            .map(|(_, b)| b.as_str())
            .filter(|b| !contents.contains_key(*b))
            .collect();
        if !unread.is_empty() {
            contents.extend(cat_blobs(repo, unread.into_iter())?);
        }
        let mut next = Vec::new();
        for (path, blob) in &frontier {
            let Some(target) = contents
                .get(blob)
                .and_then(|bytes| ruff_extend(path, bytes))
                .and_then(|t| join_in_repo(path, &t))
            else {
                continue;
            };
            if found.iter().any(|(p, _)| *p == target) || found.len() >= MAX_CONFIG_FILES {
                continue;
            }
            if let Some((blob, _)) = tree.get(&target) {
                found.push((target.clone(), blob.clone()));
                next.push((target, blob.clone()));
            }
        }
        frontier = next;
    }
    Ok(())
}

/// Whether ruff reads `path` as a configuration (the names it looks for, or an extended file).
pub(super) fn is_ruff_config(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "pyproject.toml" | "ruff.toml" | ".ruff.toml")
}

/// The `extend` of a ruff configuration file (`[tool.ruff]` in a pyproject.toml, top level
/// elsewhere), as written.
fn ruff_extend(path: &str, bytes: &[u8]) -> Option<String> {
    let doc: toml::Table = std::str::from_utf8(bytes).ok()?.parse().ok()?;
    let extend = if path.rsplit('/').next() == Some("pyproject.toml") {
        doc.get("tool")?.get("ruff")?.get("extend")?
    } else {
        doc.get("extend")?
    };
    extend.as_str().map(str::to_string)
}

/// `target` (relative to `from`'s directory) as a repo-relative path, if it stays inside.
fn join_in_repo(from: &str, target: &str) -> Option<String> {
    if target.starts_with(['/', '~', '$']) || target.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    safe_relative(&joined).then_some(joined)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `extend` targets resolve from the extending file's directory and never leave the tree.
    #[test]
    fn extend_targets_stay_inside_the_repository() {
        assert_eq!(
            join_in_repo("ruff.toml", "lint/house.toml").as_deref(),
            Some("lint/house.toml")
        );
        assert_eq!(
            join_in_repo("svc/api/pyproject.toml", "../../base.toml").as_deref(),
            Some("base.toml")
        );
        assert_eq!(
            join_in_repo("svc/ruff.toml", "./a/./b.toml").as_deref(),
            Some("svc/a/b.toml")
        );
        for outside in [
            "../base.toml",
            "/etc/ruff.toml",
            "~/.config/ruff/ruff.toml",
            "$HOME/ruff.toml",
            "a\\b.toml",
            "",
        ] {
            assert_eq!(join_in_repo("ruff.toml", outside), None, "{outside}");
        }
        assert_eq!(
            ruff_extend("ruff.toml", b"extend = \"x.toml\"\n").as_deref(),
            Some("x.toml")
        );
        assert_eq!(
            ruff_extend("a/pyproject.toml", b"[tool.ruff]\nextend = \"y.toml\"\n").as_deref(),
            Some("y.toml")
        );
        assert_eq!(
            ruff_extend("pyproject.toml", b"extend = \"z.toml\"\n"),
            None
        );
    }
}
