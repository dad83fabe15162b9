//! The tracked files of a repository, either as checked out (the work tree, the index's
//! entries with the blob ids of modified files recomputed) or at a commit (`git ls-tree`),
//! and their contents (read from disk, or from git with one `cat-file --batch`).

use crate::core::error::LiteError;
use crate::core::git;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// One tracked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: String,
    /// The git blob id of its content (the link text for a symlink).
    pub blob: String,
    pub symlink: bool,
}

/// The tracked files of a work tree or of a commit.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub root: PathBuf,
    /// The commit read, or `None` for the work tree.
    pub commit: Option<String>,
    /// HEAD when reading the work tree; the commit otherwise.
    pub head: Option<String>,
    /// Tracked paths whose content differs from HEAD (work tree only).
    pub dirty: Vec<String>,
    pub entries: Vec<Entry>,
}

fn git_err(root: &Path, args: &str, message: impl Into<String>) -> LiteError {
    LiteError::Git {
        path: root.to_path_buf(),
        args: args.to_string(),
        message: message.into(),
    }
}

fn run(root: &Path, args: &[&str]) -> Result<Vec<u8>, LiteError> {
    let out = git::command(root)
        .args(args)
        .output()
        .map_err(|e| git_err(root, &args.join(" "), format!("cannot run git ({e})")))?;
    if !out.status.success() {
        return Err(git_err(
            root,
            &args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim(),
        ));
    }
    Ok(out.stdout)
}

impl Snapshot {
    /// The checked-out work tree: tracked files only (`git ls-files`).
    pub fn worktree(root: &Path) -> Result<Snapshot, LiteError> {
        let out = run(root, &["ls-files", "-s", "-z"])?;
        let mut entries = Vec::new();
        for rec in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let rec = String::from_utf8_lossy(rec);
            // "<mode> <blob> <stage>\t<path>"
            let Some((meta, path)) = rec.split_once('\t') else {
                continue;
            };
            let mut parts = meta.split(' ');
            let (Some(mode), Some(blob), Some(stage)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            // Conflicted paths list stages 1-3: keep one entry.
            if stage != "0" && stage != "2" {
                continue;
            }
            if mode == "160000" {
                continue; // a submodule
            }
            entries.push(Entry {
                path: path.to_string(),
                blob: blob.to_string(),
                symlink: mode == "120000",
            });
        }
        let head = git::head_sha(root)?;
        let dirty: Vec<String> = git::dirty_files(root)?
            .into_iter()
            .filter(|d| entries.iter().any(|e| &e.path == d))
            .collect();
        let mut snap = Snapshot {
            root: root.to_path_buf(),
            commit: None,
            head,
            dirty,
            entries,
        };
        snap.rehash_dirty()?;
        Ok(snap)
    }

    /// The tracked files of commit `rev` (any revision git understands).
    pub fn at_commit(root: &Path, rev: &str) -> Result<Snapshot, LiteError> {
        let spec = format!("{rev}^{{commit}}");
        let sha = String::from_utf8_lossy(&run(
            root,
            &["rev-parse", "--verify", "--end-of-options", &spec],
        )?)
        .trim()
        .to_string();
        let out = run(root, &["ls-tree", "-r", "-z", "--full-tree", &sha])?;
        let mut entries = Vec::new();
        for rec in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let rec = String::from_utf8_lossy(rec);
            // "<mode> <type> <blob>\t<path>"
            let Some((meta, path)) = rec.split_once('\t') else {
                continue;
            };
            let parts: Vec<&str> = meta.split(' ').collect();
            if parts.len() != 3 || parts[1] != "blob" {
                continue;
            }
            entries.push(Entry {
                path: path.to_string(),
                blob: parts[2].to_string(),
                symlink: parts[0] == "120000",
            });
        }
        Ok(Snapshot {
            root: root.to_path_buf(),
            commit: Some(sha.clone()),
            head: Some(sha),
            dirty: Vec::new(),
            entries,
        })
    }

    /// Recomputes the blob ids of modified tracked files (`git hash-object` writes nothing);
    /// deleted ones leave the snapshot.
    fn rehash_dirty(&mut self) -> Result<(), LiteError> {
        let mut present = Vec::new();
        let mut gone = Vec::new();
        for d in &self.dirty {
            match std::fs::symlink_metadata(self.root.join(d)) {
                Ok(m) if m.is_file() => present.push(d.clone()),
                Ok(_) => {}
                Err(_) => gone.push(d.clone()),
            }
        }
        self.entries.retain(|e| !gone.contains(&e.path));
        if present.is_empty() {
            return Ok(());
        }
        let mut args = vec!["hash-object", "--no-filters", "--"];
        args.extend(present.iter().map(String::as_str));
        let out = run(&self.root, &args)?;
        let ids = String::from_utf8_lossy(&out);
        let ids: HashMap<&str, &str> = present
            .iter()
            .map(String::as_str)
            .zip(ids.lines())
            .collect();
        for e in &mut self.entries {
            if let Some(id) = ids.get(e.path.as_str()) {
                e.blob = id.to_string();
                e.symlink = false;
            }
        }
        Ok(())
    }

    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.path == path)
    }

    /// Contents of `entries` (by path), each capped at `max` bytes: a longer file answers its
    /// size instead. Symlinks answer their link text.
    pub fn read(
        &self,
        entries: &[&Entry],
        max: usize,
    ) -> Result<HashMap<String, Content>, LiteError> {
        match &self.commit {
            None => Ok(entries
                .iter()
                .map(|e| (e.path.clone(), self.read_disk(e, max)))
                .collect()),
            Some(_) => self.read_git(entries, max),
        }
    }

    fn read_disk(&self, e: &Entry, max: usize) -> Content {
        let path = self.root.join(&e.path);
        if e.symlink {
            return match std::fs::read_link(&path) {
                Ok(t) => Content::Text(t.to_string_lossy().into_owned()),
                Err(err) => Content::Unreadable(format!("cannot read the link: {err}")),
            };
        }
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Content::Unreadable(
                    "tracked as a file but a symlink in the work tree; not followed".into(),
                );
            }
            Ok(m) if m.len() as usize > max => return Content::TooBig(m.len() as usize),
            Ok(_) => {}
            Err(err) => return Content::Unreadable(format!("cannot read it: {err}")),
        }
        match std::fs::read(&path) {
            Ok(bytes) => text(bytes),
            Err(err) => Content::Unreadable(format!("cannot read it: {err}")),
        }
    }

    fn read_git(
        &self,
        entries: &[&Entry],
        max: usize,
    ) -> Result<HashMap<String, Content>, LiteError> {
        let mut out = HashMap::new();
        if entries.is_empty() {
            return Ok(out);
        }
        let mut child = git::command(&self.root)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                git_err(
                    &self.root,
                    "cat-file --batch",
                    format!("cannot run git ({e})"),
                )
            })?;
        let mut input = String::new();
        for e in entries {
            input.push_str(&e.blob);
            input.push('\n');
        }
        // Written from a thread: git answers while it reads, and both pipes could fill.
        let mut stdin = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(s) = stdin.as_mut() {
                let _ = s.write_all(input.as_bytes());
            }
        });
        let mut raw = Vec::new();
        if let Some(mut stdout) = child.stdout.take() {
            stdout
                .read_to_end(&mut raw)
                .map_err(|e| git_err(&self.root, "cat-file --batch", e.to_string()))?;
        }
        let _ = writer.join();
        let _ = child.wait();
        let mut pos = 0;
        for e in entries {
            let Some(nl) = raw[pos..].iter().position(|b| *b == b'\n') else {
                break;
            };
            let header = String::from_utf8_lossy(&raw[pos..pos + nl]).to_string();
            pos += nl + 1;
            let size: Option<usize> = header.split(' ').nth(2).and_then(|s| s.parse().ok());
            let Some(size) = size else {
                out.insert(
                    e.path.clone(),
                    Content::Unreadable(format!("git: {header}")),
                );
                continue;
            };
            let end = (pos + size).min(raw.len());
            let bytes = raw[pos..end].to_vec();
            pos = end + 1;
            let content = if size > max && !e.symlink {
                Content::TooBig(size)
            } else {
                text(bytes)
            };
            out.insert(e.path.clone(), content);
        }
        Ok(out)
    }
}

/// A file's content as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
    TooBig(usize),
    NotUtf8,
    Unreadable(String),
}

fn text(bytes: Vec<u8>) -> Content {
    match String::from_utf8(bytes) {
        Ok(s) => Content::Text(s),
        Err(_) => Content::NotUtf8,
    }
}

/// The repo-relative path a symlink at `link` with text `target` points to, when it stays
/// inside the repository.
pub fn resolve_link(link: &str, target: &str) -> Option<String> {
    if target.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = link.split('/').collect();
    parts.pop();
    for comp in target.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_resolve_inside_the_repository_only() {
        assert_eq!(
            resolve_link("CLAUDE.md", "AGENTS.md").as_deref(),
            Some("AGENTS.md")
        );
        assert_eq!(
            resolve_link("a/b/CLAUDE.md", "../AGENTS.md").as_deref(),
            Some("a/AGENTS.md")
        );
        assert_eq!(resolve_link("CLAUDE.md", "../x"), None);
        assert_eq!(resolve_link("CLAUDE.md", "/etc/passwd"), None);
    }
}
