//! The Cargo packages a work tree holds: a path starting with one of their crate names
//! (`semver::Version` in the crate's own tests/, benches/ or examples/, `nexus_lite::index_once`
//! in another member of a workspace) reaches the library's files instead of an external crate.

use super::read_project_file;
use super::resolve::{normalize_path, parent_dir};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The library crates of a work tree: crate name -> the tracked path of its root file.
#[derive(Debug, Default, Hash)]
pub(super) struct Crates {
    by_name: BTreeMap<String, String>,
}

/// The library a Cargo.toml declares: its crate name (`[lib] name`, else the package's name
/// with `-` as `_`) and its root (`[lib] path`, else `src/lib.rs`), relative to the repository.
fn library(text: &str, dir: &str) -> Option<(String, String)> {
    let toml: toml::Table = toml::from_str(text).ok()?;
    let package = toml.get("package")?.get("name")?.as_str()?;
    let lib = toml.get("lib");
    let name = lib
        .and_then(|l| l.get("name"))
        .and_then(toml::Value::as_str)
        .unwrap_or(package)
        .replace('-', "_");
    let path = lib
        .and_then(|l| l.get("path"))
        .and_then(toml::Value::as_str)
        .unwrap_or("src/lib.rs");
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    parts.extend(path.split('/'));
    Some((name, normalize_path(&parts)?))
}

impl Crates {
    /// Reads the Cargo.toml files among `files` whose library root is tracked.
    pub(super) fn detect(root: &Path, files: &[String]) -> Crates {
        let tracked: HashSet<&str> = files.iter().map(String::as_str).collect();
        let mut by_name: BTreeMap<String, String> = BTreeMap::new();
        for f in files {
            if f.rsplit('/').next() != Some("Cargo.toml") {
                continue;
            }
            let Some(text) = read_project_file(&root.join(f)) else {
                continue;
            };
            if let Some((name, lib)) = library(&text, parent_dir(f))
                && tracked.contains(lib.as_str())
            {
                // Two packages of one crate name (a vendored copy): the shallowest wins.
                let depth = |p: &str| p.matches('/').count();
                match by_name.get(&name) {
                    Some(old) if depth(old.as_str()) <= depth(lib.as_str()) => {}
                    _ => {
                        by_name.insert(name, lib);
                    }
                }
            }
        }
        Crates { by_name }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The root file of the library crate `name` of the work tree.
    pub(super) fn root_of(&self, name: &str) -> Option<&str> {
        self.by_name.get(name).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crates(files: &[(&str, &str)]) -> Crates {
        super::super::detect_in(files, Crates::detect)
    }

    #[test]
    fn package_and_lib_names_paths_and_workspaces() {
        let c = crates(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"a-b\", \"c\"]\n"),
            (
                "a-b/Cargo.toml",
                "[package]\nname = \"a-b\"\nversion = \"0.1.0\"\n",
            ),
            ("a-b/src/lib.rs", ""),
            (
                "c/Cargo.toml",
                "[package]\nname = \"c\"\n[lib]\nname = \"cee\"\npath = \"lib.rs\"\n",
            ),
            ("c/lib.rs", ""),
            // A binary only: no library to reach by name.
            ("tool/Cargo.toml", "[package]\nname = \"tool\"\n"),
            ("tool/src/main.rs", ""),
            ("broken/Cargo.toml", "[package\nname = \"broken\"\n"),
        ]);
        assert_eq!(c.root_of("a_b"), Some("a-b/src/lib.rs"));
        assert_eq!(c.root_of("a-b"), None);
        assert_eq!(c.root_of("cee"), Some("c/lib.rs"));
        assert_eq!(c.root_of("c"), None);
        assert_eq!(c.root_of("tool"), None);
        assert_eq!(c.root_of("broken"), None);
    }
}
