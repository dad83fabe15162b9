//! The one way the docs domain opens a file (configuration, documents, sidecar metadata and
//! bodies): a relative path of plain components under the canonical workspace directory, every
//! directory opened without following a link, the file itself opened with `O_NOFOLLOW` and
//! `O_NONBLOCK` (a FIFO must not block the open), kept only if it is a regular file, and read
//! to at most `cap` bytes whatever its size claims (`/proc` files claim 0).

use std::io::Read;
use std::path::{Component, Path};

/// Why a workspace file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(
        "`{0}` is not a relative path inside the workspace (absolute, `..` or empty); name a file under the workspace directory"
    )]
    Outside(String),
    #[error(
        "`{0}` names a `.git` directory; the repository's own files (its config, hooks, index) are never read as documents: point the configuration at files of the working tree"
    )]
    GitDir(String),
    #[error(
        "`{0}` or one of its directories is a symbolic link; links are not followed: commit the file itself"
    )]
    Link(String),
    #[error("`{path}` is a {kind}, not a regular file; only regular files are read")]
    NotRegular { path: String, kind: &'static str },
    #[error("`{path}` cannot be read: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl ReadError {
    /// The file does not exist (an optional file, such as the configuration, is absent).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The plain components of `rel` (`/`-separated, `.` skipped); an absolute path, `..`, a
/// `.git` component (any case: case-insensitive file systems open `.GIT` too; the walk skips
/// hidden directories, a configured path must not reach one either) or no component at all is
/// refused.
pub fn components(rel: &str) -> Result<Vec<&str>, ReadError> {
    let outside = || ReadError::Outside(rel.to_string());
    let mut parts = Vec::new();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(s) => {
                let s = s.to_str().ok_or_else(outside)?;
                if s.eq_ignore_ascii_case(".git") {
                    return Err(ReadError::GitDir(rel.to_string()));
                }
                parts.push(s);
            }
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(outside());
            }
        }
    }
    if parts.is_empty() {
        return Err(outside());
    }
    Ok(parts)
}

/// Reads `dir/rel` as text (invalid UTF-8 replaced), at most `cap` bytes; the size when cut
/// (the claimed size, or `cap + 1` when the file gave more than it claimed). `dir` must be
/// canonical (the workspace directory is).
pub fn read_capped(dir: &Path, rel: &str, cap: u64) -> Result<(String, Option<u64>), ReadError> {
    let parts = components(rel)?;
    let file = open(dir, &parts, rel)?;
    let io = |source| ReadError::Io {
        path: rel.to_string(),
        source,
    };
    let md = file.metadata().map_err(io)?;
    let ft = md.file_type();
    if !ft.is_file() {
        return Err(ReadError::NotRegular {
            path: rel.to_string(),
            kind: kind(&ft),
        });
    }
    let claimed = md.len();
    let mut buf = Vec::with_capacity(claimed.min(cap) as usize);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(io)?;
    let cut = if buf.len() as u64 > cap {
        buf.truncate(cap as usize);
        Some(claimed.max(cap + 1))
    } else {
        (claimed > cap).then_some(claimed)
    };
    let text = match String::from_utf8(buf) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok((text, cut))
}

/// Whether `dir/rel` is a regular file, no link followed on the way (what the index lists).
pub fn is_regular(dir: &Path, rel: &str) -> bool {
    metadata(dir, rel).is_some_and(|m| m.is_file())
}

/// Whether `dir/rel` is a directory (`""` and `.` are `dir`), no link followed on the way.
pub fn is_dir(dir: &Path, rel: &str) -> bool {
    matches!(rel.trim(), "" | "." | "./") || metadata(dir, rel).is_some_and(|m| m.is_dir())
}

/// The metadata of `dir/rel` (not following it) when every directory on the way is one.
fn metadata(dir: &Path, rel: &str) -> Option<std::fs::Metadata> {
    let parts = components(rel).ok()?;
    let mut p = dir.to_path_buf();
    let mut last = None;
    for c in parts {
        if last
            .as_ref()
            .is_some_and(|m: &std::fs::Metadata| !m.is_dir())
        {
            return None;
        }
        p.push(c);
        last = Some(std::fs::symlink_metadata(&p).ok()?);
    }
    last
}

fn kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "FIFO";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "device";
        }
        if ft.is_socket() {
            return "socket";
        }
    }
    if ft.is_dir() {
        "directory"
    } else {
        "special file"
    }
}

/// Opens the file one directory at a time (`openat`), no link followed at any step.
#[cfg(target_os = "linux")]
fn open(dir: &Path, parts: &[&str], rel: &str) -> Result<std::fs::File, ReadError> {
    use rustix::fs::{CWD, Mode, OFlags, openat};
    use rustix::io::Errno;
    let fail = |e: Errno| match e {
        Errno::LOOP | Errno::NOTDIR => ReadError::Link(rel.to_string()),
        e => ReadError::Io {
            path: rel.to_string(),
            source: e.into(),
        },
    };
    let walk = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut fd = openat(CWD, dir, walk, Mode::empty()).map_err(fail)?;
    let (last, dirs) = parts
        .split_last()
        .ok_or_else(|| ReadError::Outside(rel.to_string()))?;
    for d in dirs {
        fd = openat(&fd, *d, walk, Mode::empty()).map_err(fail)?;
    }
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let file = openat(&fd, *last, flags, Mode::empty()).map_err(|e| match e {
        // The last component: ELOOP is a link; ENOTDIR cannot happen without O_DIRECTORY.
        Errno::LOOP => ReadError::Link(rel.to_string()),
        e => ReadError::Io {
            path: rel.to_string(),
            source: e.into(),
        },
    })?;
    Ok(std::fs::File::from(file))
}

/// Without `openat` here: every component checked with `symlink_metadata`, then opened.
#[cfg(not(target_os = "linux"))]
fn open(dir: &Path, parts: &[&str], rel: &str) -> Result<std::fs::File, ReadError> {
    let mut p = dir.to_path_buf();
    for c in parts {
        p.push(c);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => return Err(ReadError::Link(rel.to_string())),
            Ok(_) => {}
            Err(source) => {
                return Err(ReadError::Io {
                    path: rel.to_string(),
                    source,
                });
            }
        }
    }
    std::fs::File::open(&p).map_err(|source| ReadError::Io {
        path: rel.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_relative_paths_only() {
        assert_eq!(components("./a/b.md").unwrap(), vec!["a", "b.md"]);
        for bad in ["/etc/passwd", "../x", "a/../../x", "", "."] {
            assert!(
                matches!(components(bad), Err(ReadError::Outside(_))),
                "{bad}"
            );
        }
        for git in [
            ".git",
            ".git/config",
            "docs/.GIT/hooks/pre-commit",
            "./a/.Git",
        ] {
            assert!(
                matches!(components(git), Err(ReadError::GitDir(_))),
                "{git}"
            );
        }
        assert!(components(".github/workflows/ci.yml").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_and_oversized_files_are_refused_or_cut() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("d")).unwrap();
        std::fs::write(root.join("d/a.md"), "hello world").unwrap();
        std::os::unix::fs::symlink(root.join("d/a.md"), root.join("link.md")).unwrap();
        std::os::unix::fs::symlink(root.join("d"), root.join("dl")).unwrap();
        assert_eq!(
            read_capped(&root, "d/a.md", 5).unwrap(),
            ("hello".into(), Some(11))
        );
        assert!(matches!(
            read_capped(&root, "link.md", 99),
            Err(ReadError::Link(_))
        ));
        assert!(matches!(
            read_capped(&root, "dl/a.md", 99),
            Err(ReadError::Link(_))
        ));
        assert!(!is_regular(&root, "dl/a.md") && is_regular(&root, "d/a.md"));
        let fifo = root.join("f.md");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(matches!(
            read_capped(&root, "f.md", 99),
            Err(ReadError::NotRegular { kind: "FIFO", .. })
        ));
        assert!(
            read_capped(&root, "missing.md", 9)
                .unwrap_err()
                .is_not_found()
        );
    }
}
