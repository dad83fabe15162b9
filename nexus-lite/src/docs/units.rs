//! Documents as files: a node is a Markdown file, or a sidecar directory (its metadata file
//! plus an optional body file). Built from the whole file set after a walk, or for the few node
//! paths a change can touch.

use super::doc::file_name;
use super::links;
use super::tree::{Stat, stat};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A document's files: the metadata file (a Markdown file or a sidecar) and a sidecar body.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub sidecar: bool,
    pub meta_file: String,
    pub body_file: Option<String>,
    pub stats: Vec<Stat>,
}

/// The sidecar layout, if configured: the metadata file name and the body path relative to
/// the node's directory.
#[derive(Clone, Copy)]
pub struct Layout<'a> {
    pub sidecar: Option<&'a str>,
    pub body: &'a str,
}

fn join_rel(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn dir_key(dir: &str) -> String {
    if dir.is_empty() {
        ".".to_string()
    } else {
        dir.to_string()
    }
}

/// The sidecar unit of the directory `dir` (`""` is the root), if it holds the metadata file.
fn sidecar_unit(
    files: &BTreeMap<String, Stat>,
    sc: &str,
    body_name: &str,
    dir: &str,
    root: &Path,
) -> Option<Unit> {
    let meta = join_rel(dir, sc);
    let st = files.get(&meta)?;
    let body = join_rel(dir, body_name);
    let body_stat = files
        .get(&body)
        .copied()
        .or_else(|| stat(&root.join(&body)));
    let mut stats = vec![*st];
    stats.extend(body_stat);
    Some(Unit {
        sidecar: true,
        meta_file: meta,
        body_file: body_stat.map(|_| body),
        stats,
    })
}

/// The directory whose sidecar body `path` would be (`body` may hold a `/`).
fn body_dir<'p>(path: &'p str, body: &str) -> Option<&'p str> {
    if path == body {
        return Some("");
    }
    path.strip_suffix(body)?.strip_suffix('/')
}

/// Every unit of the file set, keyed by node path.
pub fn all(
    files: &BTreeMap<String, Stat>,
    layout: Layout<'_>,
    root: &Path,
) -> BTreeMap<String, Unit> {
    let mut units = BTreeMap::new();
    let mut bodies: BTreeSet<String> = BTreeSet::new();
    if let Some(sc) = layout.sidecar {
        for path in files.keys() {
            if file_name(path) != sc {
                continue;
            }
            let dir = links::parent(path);
            if let Some(u) = sidecar_unit(files, sc, layout.body, dir, root) {
                bodies.insert(join_rel(dir, layout.body));
                units.insert(dir_key(dir), u);
            }
        }
    }
    for (path, st) in files {
        if layout.sidecar.is_some_and(|sc| file_name(path) == sc) || bodies.contains(path) {
            continue;
        }
        units.insert(path.clone(), plain(path, *st));
    }
    units
}

fn plain(path: &str, st: Stat) -> Unit {
    Unit {
        sidecar: false,
        meta_file: path.to_string(),
        body_file: None,
        stats: vec![st],
    }
}

/// The node paths a change of `path` can add, remove or alter: the file itself, and the
/// sidecar directory it may be the metadata or the body of.
pub fn touched_by(path: &str, layout: Layout<'_>, out: &mut BTreeSet<String>) {
    out.insert(path.to_string());
    if layout.sidecar.is_some() {
        out.insert(dir_key(links::parent(path)));
        if let Some(dir) = body_dir(path, layout.body) {
            out.insert(dir_key(dir));
        }
    }
}

/// The unit at node path `key` as [`all`] would build it, if any.
pub fn at(
    files: &BTreeMap<String, Stat>,
    layout: Layout<'_>,
    root: &Path,
    key: &str,
) -> Option<Unit> {
    if let Some(sc) = layout.sidecar {
        let dir = if key == "." { "" } else { key };
        if let Some(u) = sidecar_unit(files, sc, layout.body, dir, root) {
            return Some(u);
        }
        if file_name(key) == sc {
            return None;
        }
        if let Some(dir) = body_dir(key, layout.body)
            && files.contains_key(&join_rel(dir, sc))
        {
            return None;
        }
    }
    files.get(key).map(|st| plain(key, *st))
}
