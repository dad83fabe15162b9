//! Writing an accepted proposal's file inside the repository, and nowhere else: every
//! directory on the way is a real directory (a symlink is refused, wherever it points), the
//! file is created new (`O_EXCL`, so an existing file or a dangling symlink is refused too),
//! and the path's components are plain names.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(
        "`{path}` already exists in the repository; remove or rename it, or reject this proposal"
    )]
    Exists { path: String },
    #[error(
        "`{path}` is a symbolic link; proposals are only written through real directories of the repository, so replace the link with a directory"
    )]
    Symlink { path: String },
    #[error("`{path}` exists and is not a directory, so nothing can be written under it")]
    NotADirectory { path: String },
    #[error("`{path}` is not a plain repo-relative path")]
    BadPath { path: String },
    #[error("cannot write `{path}`: {source}; check the repository's permissions")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Creates `rel` (`/`-separated, plain components) under `root` with `content`; returns the
/// absolute path written. A regular file already there with exactly `content` counts as
/// written: it is what an accept killed between writing the file and recording the decision
/// left, and the retry finishes that accept.
pub fn write_new(root: &Path, rel: &str, content: &str) -> Result<PathBuf, WriteError> {
    let bad = || WriteError::BadPath {
        path: rel.to_string(),
    };
    let parts: Vec<&str> = rel.split('/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == ".." || p.contains(['\\', '\0']))
    {
        return Err(bad());
    }
    let (file, dirs) = parts.split_last().ok_or_else(bad)?;
    let io = |path: &str, source| WriteError::Io {
        path: path.to_string(),
        source,
    };
    let root = root.canonicalize().map_err(|e| io("", e))?;
    let mut dir = root.clone();
    let mut so_far = String::new();
    for d in dirs {
        if !so_far.is_empty() {
            so_far.push('/');
        }
        so_far.push_str(d);
        let next = dir.join(d);
        match std::fs::symlink_metadata(&next) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(WriteError::Symlink { path: so_far });
            }
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(WriteError::NotADirectory { path: so_far }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(&next).map_err(|e| io(&so_far, e))?;
            }
            Err(e) => return Err(io(&so_far, e)),
        }
        dir = next;
    }
    // The checks above are per component; this one catches anything they could miss.
    let real = dir.canonicalize().map_err(|e| io(&so_far, e))?;
    if !real.starts_with(&root) {
        return Err(WriteError::Symlink { path: so_far });
    }
    let target = real.join(file);
    let f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&target)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => WriteError::Exists {
                path: rel.to_string(),
            },
            _ => io(rel, e),
        });
    let mut f = match f {
        Err(WriteError::Exists { .. }) if holds_exactly(&target, content) => return Ok(target),
        other => other?,
    };
    f.write_all(content.as_bytes()).map_err(|e| io(rel, e))?;
    Ok(target)
}

/// Whether `path` is a regular file (not a symlink) whose bytes are `content`.
fn holds_exactly(path: &Path, content: &str) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() == content.len() as u64)
        && std::fs::read(path).is_ok_and(|bytes| bytes == content.as_bytes())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn refuses_symlinked_directories_existing_files_and_odd_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join(".nexus")).unwrap();
        let e = write_new(&root, ".nexus/rules/a.md", "x").unwrap_err();
        assert!(matches!(e, WriteError::Symlink { .. }), "{e}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);

        let p = write_new(&root, ".agents/skills/a/SKILL.md", "x").unwrap();
        assert!(p.starts_with(root.canonicalize().unwrap()));
        let e = write_new(&root, ".agents/skills/a/SKILL.md", "y").unwrap_err();
        assert!(matches!(e, WriteError::Exists { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(p).unwrap(), "x");

        std::os::unix::fs::symlink(outside.join("f"), root.join("dangling.md")).unwrap();
        let e = write_new(&root, "dangling.md", "x").unwrap_err();
        assert!(matches!(e, WriteError::Exists { .. }), "{e}");
        assert!(!outside.join("f").exists());

        for bad in ["../x.md", "a//b.md", "/etc/x", "a/./b.md"] {
            assert!(matches!(
                write_new(&root, bad, "x").unwrap_err(),
                WriteError::BadPath { .. }
            ));
        }
    }
}
