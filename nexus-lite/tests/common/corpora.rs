//! The real corpora of tests/corpora (committed verbatim with their licences) for tests, shared
//! by nexus-lite's tests and (by path) nexus-mcp's: unpack one into a committed git repository,
//! and read what a folder holds without the docs domain, so a test's expectation is counted
//! independently.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The tarball of the corpus `name` (`ariadne-backlog`, `keps-sample`, `fastmcp-rules`) in the
/// repository's tests/corpora, from nexus-lite's tests or the root crate's.
pub fn tarball(name: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = format!("{name}.tar.gz");
    [
        manifest.join("tests/corpora"),
        manifest.join("../tests/corpora"),
    ]
    .into_iter()
    .map(|d| d.join(&file))
    .find(|p| p.is_file())
    .unwrap_or_else(|| panic!("tests/corpora/{file} is missing from the checkout"))
}

/// A real corpus of tests/corpora unpacked under `dir/name` and committed as a git repository;
/// answers the folder the tarball holds.
pub fn corpus(dir: &Path, name: &str) -> PathBuf {
    let tar = tarball(name);
    let tar = tar.display().to_string();
    let dir = dir.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let status = Command::new("tar")
        .args(["xzf", &tar, "-C"])
        .arg(&dir)
        .status()
        .expect("tar runs");
    assert!(status.success(), "unpacking {tar}");
    let root = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("the tarball holds one folder");
    commit_folder(&root, "corpus");
    root
}

/// Makes `root` a git repository (branch `main`) whose one commit, `message`, holds everything
/// in it.
pub fn commit_folder(root: &Path, message: &str) {
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-qm",
            message,
        ],
    ] {
        let ok = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .status()
            .expect("git runs");
        assert!(ok.success(), "git {args:?} in {}", root.display());
    }
}

/// The task file of the Backlog.md folder at `root` whose name starts with `prefix` (e.g.
/// `"task-104 "`), found by walking `backlog/tasks`.
pub fn task_file(root: &Path, prefix: &str) -> PathBuf {
    frontmatter_statuses(&root.join("backlog/tasks"))
        .into_iter()
        .map(|(p, _)| p)
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("a task file named {prefix}… is in the corpus"))
}

/// The frontmatter `status` of each Markdown file under `dir` (readme.md excluded, as the docs
/// domain's default), read without the docs domain: quotes stripped; files without frontmatter
/// or status give nothing.
pub fn frontmatter_statuses(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            out.extend(frontmatter_statuses(&path));
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
        if !name.ends_with(".md") || name == "readme.md" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(rest) = text.strip_prefix("---\n") else {
            continue;
        };
        let Some(end) = rest.find("\n---") else {
            continue;
        };
        let status = rest[..end]
            .lines()
            .find_map(|l| l.strip_prefix("status:"))
            .map(|s| s.trim().trim_matches(['"', '\'']).to_string());
        if let Some(s) = status {
            out.push((path, s));
        }
    }
    out
}
