//! The tree a self-check describes: the work tree's content as `git add -A && git write-tree`
//! would record it now (tracked files plus untracked files that are not ignored), computed
//! without touching the user's index or object store: a copy of the index in a scratch
//! directory (`GIT_INDEX_FILE`) and new objects in a scratch object directory that borrows the
//! repository's as an alternate (`GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`).

use crate::core::error::LiteError;
use crate::core::{git, scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The work tree's tree id, HEAD, and whether they differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkTree {
    pub tree_sha: String,
    /// HEAD's commit, `None` before the first commit.
    pub head_sha: Option<String>,
    /// HEAD's tree, `None` before the first commit.
    pub head_tree_sha: Option<String>,
    /// The work tree's content differs from HEAD's tree.
    pub dirty: bool,
}

fn git_err(root: &Path, args: &[&str], message: impl Into<String>) -> LiteError {
    LiteError::Git {
        path: root.to_path_buf(),
        args: args.join(" "),
        message: message.into(),
    }
}

/// [`git::output`] as trimmed text.
fn output(root: &Path, cmd: Command, args: &[&str]) -> Result<String, LiteError> {
    let out = git::output(root, cmd, args)?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

fn absolute_git_path(root: &Path, what: &str) -> Result<PathBuf, LiteError> {
    let p = output(
        root,
        git::command(root),
        &["rev-parse", "--path-format=absolute", "--git-path", what],
    )?;
    Ok(PathBuf::from(p))
}

/// Points `cmd` at the scratch index and object directory.
fn scratch(cmd: &mut Command, index: &Path, objects: &Path, alternate: &Path) {
    cmd.env("GIT_INDEX_FILE", index)
        .env("GIT_OBJECT_DIRECTORY", objects)
        .env("GIT_ALTERNATE_OBJECT_DIRECTORIES", alternate);
}

/// Copies the index keeping its modification time: git re-reads a file whose mtime is not
/// older than the index's ("racily clean"), and a copy stamped now would hide an edit made in
/// the same second as the last index write.
fn copy_index(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::copy(from, to)?;
    let modified = std::fs::metadata(from)?.modified()?;
    std::fs::File::options()
        .write(true)
        .open(to)?
        .set_modified(modified)
}

/// Computes the work tree's tree id of the repository at `root`.
pub fn work_tree(root: &Path) -> Result<WorkTree, LiteError> {
    let head_sha = git::head_sha(root)?;
    let head_tree_sha = match &head_sha {
        Some(h) => Some(output(
            root,
            git::command(root),
            &[
                "rev-parse",
                "--verify",
                "--end-of-options",
                &format!("{h}^{{tree}}"),
            ],
        )?),
        None => None,
    };
    let real_index = absolute_git_path(root, "index")?;
    let objects = absolute_git_path(root, "objects")?;
    let tmp = scratch::create("nexus-check-tree-", "the self-check's scratch index")?;
    let index = tmp.path().join("index");
    let scratch_objects = tmp.path().join("objects");
    std::fs::create_dir_all(&scratch_objects).map_err(|e| {
        git_err(
            root,
            &["add", "-A"],
            format!("cannot create a scratch object directory ({e})"),
        )
    })?;
    // The index copy keeps the stat cache (unchanged files are not re-read) and the
    // skip-worktree bits of a sparse checkout; without an index, start from HEAD.
    let excludes = git::user_excludes_file();
    let copied = real_index.is_file() && copy_index(&real_index, &index).is_ok();
    let add = |fresh: bool| -> Result<(), LiteError> {
        if fresh {
            let _ = std::fs::remove_file(&index);
            if let Some(h) = &head_sha {
                let mut cmd = git::content_command(root)?;
                scratch(&mut cmd, &index, &scratch_objects, &objects);
                output(root, cmd, &["read-tree", "--end-of-options", h])?;
            }
        }
        let mut cmd = git::content_command(root)?;
        scratch(&mut cmd, &index, &scratch_objects, &objects);
        if let Some(file) = &excludes {
            cmd.arg("-c").arg(format!("core.excludesFile={file}"));
        }
        output(root, cmd, &["add", "-A", "--", "."]).map(|_| ())
    };
    if let Err(e) = add(!copied) {
        if !copied {
            return Err(e);
        }
        // A copied index git cannot use here (a split index, say): start from HEAD.
        tracing::debug!(error = %e, "report_check: the index copy was not usable; reading HEAD");
        add(true)?;
    }
    // Writing an index re-reads its racily clean entries' files (through clean filters), so
    // write-tree needs the same neutralised drivers as add.
    let mut cmd = git::content_command(root)?;
    scratch(&mut cmd, &index, &scratch_objects, &objects);
    let tree_sha = output(root, cmd, &["write-tree"])?;
    let dirty = head_tree_sha.as_deref() != Some(tree_sha.as_str());
    Ok(WorkTree {
        tree_sha,
        head_sha,
        head_tree_sha,
        dirty,
    })
}
