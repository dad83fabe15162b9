//! Resolution of every reference to a class: `resolved`, `broken`, `ambiguous`, `external`
//! (URL), `external_path` (a file outside the indexed set, never opened) or `sentinel` (a null
//! placeholder). A duplicated id never resolves to a winner picked by folder or file order:
//! references to it are `ambiguous` unless `lifecycle_precedence` breaks the tie.

use super::config::{DocGraphConfig, Scope};
use super::doc::{Doc, Kind, RawRef};
use super::ids::{self, AliasApplied, IdRules};
use super::links;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Resolved,
    Broken,
    Ambiguous,
    External,
    ExternalPath,
    Sentinel,
}

/// A resolved edge between two documents (indices into the index's `docs`).
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: Kind,
    /// The link record it came from.
    pub link: usize,
}

/// One reference and what it resolved to. Kept small (one per reference, ~80 bytes): the
/// reference as written stays in its document ([`Link::raw`]).
#[derive(Debug, Clone)]
pub struct Link {
    pub from: usize,
    /// Its position in `docs[from].refs`.
    pub ri: usize,
    pub kind: Kind,
    /// See [`RawRef::inverse`].
    pub inverse: bool,
    pub class: Class,
    pub to: Option<usize>,
    pub candidates: Box<[usize]>,
    pub alias: Option<Box<AliasApplied>>,
    /// For a broken reference: ids it may have meant (alias or number match).
    pub suggestions: Box<[String]>,
}

impl Link {
    /// The reference as written.
    pub fn raw<'d>(&self, docs: &'d [Arc<Doc>]) -> &'d RawRef {
        &docs[self.from].refs[self.ri]
    }
}

/// What an id lookup found.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    One(usize, Option<AliasApplied>),
    Many(Vec<usize>),
    None,
}

/// Lookup tables and the classified references of one index generation.
#[derive(Debug, Default)]
pub struct Resolved {
    by_key: HashMap<String, Vec<usize>>,
    by_path: HashMap<String, usize>,
    by_dir: HashMap<String, usize>,
    by_stem: HashMap<String, Vec<usize>>,
    by_permalink: HashMap<String, Vec<usize>>,
    by_alias: HashMap<String, Vec<usize>>,
    by_title: HashMap<String, Vec<usize>>,
    /// Keys held by more than one document (after scope), sorted.
    pub duplicates: Vec<(String, Vec<usize>)>,
    pub links: Vec<Link>,
    pub edges: Vec<Edge>,
    /// Per document: indices into `edges` leaving it / entering it.
    pub out: Vec<Vec<usize>>,
    pub inn: Vec<Vec<usize>>,
    precedence: Vec<String>,
    scope_per_dir: bool,
}

/// Whether two versions of a document are found by the same lookups (so references to it
/// resolve the same way, suggestions included).
fn lookup_keys_equal(a: &Doc, b: &Doc) -> bool {
    a.path == b.path
        && a.meta_file == b.meta_file
        && a.body_file == b.body_file
        && a.id == b.id
        && a.key == b.key
        && a.file_stem == b.file_stem
        && a.title == b.title
        && a.permalink == b.permalink
        && a.aliases == b.aliases
        && a.lifecycle == b.lifecycle
}

fn push(map: &mut HashMap<String, Vec<usize>>, k: String, i: usize) {
    let v = map.entry(k).or_default();
    if !v.contains(&i) {
        v.push(i);
    }
}

impl Resolved {
    pub fn build(
        docs: &[Arc<Doc>],
        rules: &IdRules,
        cfg: &DocGraphConfig,
        root: &Path,
    ) -> Resolved {
        let mut r = Resolved {
            precedence: cfg
                .lifecycle_precedence
                .iter()
                .map(|s| s.to_lowercase())
                .collect(),
            scope_per_dir: cfg.id.scope == Scope::PerDirectory,
            out: vec![Vec::new(); docs.len()],
            inn: vec![Vec::new(); docs.len()],
            ..Resolved::default()
        };
        for (i, d) in docs.iter().enumerate() {
            push(&mut r.by_key, d.key.clone(), i);
            r.by_path.insert(d.path.clone(), i);
            r.by_path.insert(d.meta_file.clone(), i);
            if let Some(b) = &d.body_file {
                r.by_path.insert(b.clone(), i);
            }
            if d.path != d.meta_file {
                r.by_dir.insert(d.path.clone(), i);
            } else {
                let name = super::doc::file_name(&d.path);
                if ["readme.md", "index.md"]
                    .iter()
                    .any(|n| name.eq_ignore_ascii_case(n))
                {
                    r.by_dir
                        .entry(links::parent(&d.path).to_string())
                        .or_insert(i);
                }
            }
            push(&mut r.by_stem, d.file_stem.to_lowercase(), i);
            if let Some(p) = &d.permalink {
                push(&mut r.by_permalink, p.to_lowercase(), i);
            }
            for a in &d.aliases {
                push(&mut r.by_alias, a.to_lowercase(), i);
            }
            push(&mut r.by_title, d.title.to_lowercase(), i);
        }
        let mut dups: Vec<(String, Vec<usize>)> = r
            .by_key
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .flat_map(|(k, v)| {
                if r.scope_per_dir {
                    let mut per: HashMap<&str, Vec<usize>> = HashMap::new();
                    for &i in v {
                        per.entry(links::parent(&docs[i].path)).or_default().push(i);
                    }
                    per.into_values()
                        .filter(|g| g.len() > 1)
                        .map(|g| (k.clone(), g))
                        .collect::<Vec<_>>()
                } else {
                    vec![(k.clone(), v.clone())]
                }
            })
            .collect();
        dups.sort();
        r.duplicates = dups;
        for i in 0..docs.len() {
            let mine = r.doc_links(docs, i, rules, cfg, root);
            r.links.extend(mine);
        }
        r.links.shrink_to_fit();
        r.link_edges(docs.len());
        r
    }

    /// The position of the document at node path `path`.
    pub fn position(&self, path: &str) -> Option<usize> {
        self.by_path.get(path).copied()
    }

    /// After documents were edited in place (`edited`: their positions and their previous
    /// versions): when no lookup key changed (id, paths, title, aliases, permalink, lifecycle),
    /// no other document's references can resolve differently, so only the edited documents'
    /// references are classified again; else everything is rebuilt.
    pub fn update(
        &mut self,
        docs: &[Arc<Doc>],
        edited: &[(usize, Arc<Doc>)],
        rules: &IdRules,
        cfg: &DocGraphConfig,
        root: &Path,
    ) {
        let same_keys = edited
            .iter()
            .all(|(i, old)| docs.get(*i).is_some_and(|new| lookup_keys_equal(old, new)));
        if !same_keys || self.out.len() != docs.len() {
            *self = Resolved::build(docs, rules, cfg, root);
            return;
        }
        // Links are grouped by document in document order: each edited document's group is
        // replaced in place (no second copy of every link).
        let mut changed: Vec<usize> = edited.iter().map(|(i, _)| *i).collect();
        changed.sort_unstable();
        changed.dedup();
        for i in changed {
            let start = self.links.partition_point(|l| l.from < i);
            let end = self.links.partition_point(|l| l.from <= i);
            let mine = self.doc_links(docs, i, rules, cfg, root);
            self.links.splice(start..end, mine);
        }
        self.link_edges(docs.len());
    }

    /// The classified references of document `i`.
    fn doc_links(
        &self,
        docs: &[Arc<Doc>],
        i: usize,
        rules: &IdRules,
        cfg: &DocGraphConfig,
        root: &Path,
    ) -> Vec<Link> {
        (0..docs[i].refs.len())
            .map(|ri| self.classify(docs, i, ri, rules, cfg, root))
            // A milestone named by a title no document has is a label, not a link.
            .filter(|l| !(l.kind == Kind::Milestone && l.class == Class::Broken))
            .collect()
    }

    /// The edges of the resolved links, and each document's edges out and in.
    fn link_edges(&mut self, n: usize) {
        self.edges.clear();
        self.out.resize(n, Vec::new());
        self.inn.resize(n, Vec::new());
        self.out.iter_mut().for_each(Vec::clear);
        self.inn.iter_mut().for_each(Vec::clear);
        for (li, link) in self.links.iter().enumerate() {
            let (Class::Resolved, Some(to)) = (link.class, link.to) else {
                continue;
            };
            let (from, to) = if link.inverse {
                (to, link.from)
            } else {
                (link.from, to)
            };
            let self_related =
                from == to && link.kind != Kind::DependsOn && link.kind != Kind::Parent;
            if !self_related {
                let ei = self.edges.len();
                self.edges.push(Edge {
                    from,
                    to,
                    kind: link.kind,
                    link: li,
                });
                self.out[from].push(ei);
                self.inn[to].push(ei);
            }
        }
    }

    /// Looks an id up as a caller wrote it: its key, else its key under a prefix alias (the
    /// alias is reported), else a node path.
    pub fn find(
        &self,
        docs: &[Arc<Doc>],
        rules: &IdRules,
        raw: &str,
        from_dir: Option<&str>,
    ) -> Found {
        let raw = raw.trim();
        let hits = |k: &str| self.by_key.get(k).cloned().unwrap_or_default();
        let direct = hits(&rules.key(raw));
        let found = self.pick(docs, direct, from_dir);
        if found != Found::None {
            return found;
        }
        if let Some((key, applied)) = rules.alias(raw) {
            match self.pick(docs, hits(&key), from_dir) {
                Found::One(i, _) => return Found::One(i, Some(applied)),
                Found::None => {}
                many => return many,
            }
        }
        let path = raw.trim_start_matches("./").trim_end_matches('/');
        if let Some(&i) = self.by_path.get(path) {
            return Found::One(i, None);
        }
        Found::None
    }

    fn pick(&self, docs: &[Arc<Doc>], mut hits: Vec<usize>, from_dir: Option<&str>) -> Found {
        if hits.len() > 1
            && self.scope_per_dir
            && let Some(dir) = from_dir
        {
            let same: Vec<usize> = hits
                .iter()
                .copied()
                .filter(|i| links::parent(&docs[*i].path) == dir)
                .collect();
            if same.len() == 1 {
                return Found::One(same[0], None);
            }
        }
        if hits.len() > 1 && !self.precedence.is_empty() {
            let rank = |i: &usize| {
                let state = docs[*i]
                    .lifecycle
                    .as_deref()
                    .unwrap_or("active")
                    .to_lowercase();
                self.precedence
                    .iter()
                    .position(|p| *p == state)
                    .unwrap_or(usize::MAX)
            };
            let best = hits.iter().map(rank).min().unwrap_or(usize::MAX);
            let winners: Vec<usize> = hits.iter().copied().filter(|i| rank(i) == best).collect();
            if best != usize::MAX && winners.len() == 1 {
                return Found::One(winners[0], None);
            }
        }
        match hits.len() {
            0 => Found::None,
            1 => Found::One(hits.remove(0), None),
            _ => {
                hits.sort_by(|a, b| docs[*a].path.cmp(&docs[*b].path));
                Found::Many(hits)
            }
        }
    }

    fn classify(
        &self,
        docs: &[Arc<Doc>],
        from: usize,
        ri: usize,
        rules: &IdRules,
        cfg: &DocGraphConfig,
        root: &Path,
    ) -> Link {
        let raw = &docs[from].refs[ri];
        let mut link = Link {
            from,
            ri,
            kind: raw.kind,
            inverse: raw.inverse,
            class: Class::Broken,
            to: None,
            candidates: Box::default(),
            alias: None,
            suggestions: Box::default(),
        };
        let d = &docs[from];
        if ids::is_sentinel(&raw.target, &cfg.null_values) {
            link.class = Class::Sentinel;
            return link;
        }
        let set = |link: &mut Link, f: Found| -> bool {
            match f {
                Found::One(i, alias) => {
                    link.class = Class::Resolved;
                    link.to = Some(i);
                    link.alias = alias.map(Box::new);
                    true
                }
                Found::Many(c) => {
                    link.class = Class::Ambiguous;
                    link.candidates = c.into_boxed_slice();
                    true
                }
                Found::None => false,
            }
        };
        let from_dir = links::parent(&d.path);
        if raw.key.is_some() {
            // Metadata: the canonical id first, then a path.
            let t = raw.target.trim();
            if links::is_url(t) {
                return self.url(link, t, cfg);
            }
            if set(&mut link, self.find(docs, rules, t, Some(from_dir))) {
                return link;
            }
            let base = links::parent(&d.meta_file);
            if let Some(l) = self.path_link(link.clone(), base, t, root) {
                return l;
            }
        } else if raw.wikilink {
            let t = raw.target.split('#').next().unwrap_or("").trim();
            if t.is_empty() {
                link.class = Class::Sentinel;
                return link;
            }
            for how in &cfg.links.wikilink_resolve_by {
                let lower = t.to_lowercase();
                let hits = match how.as_str() {
                    "id" => {
                        if set(&mut link, self.find(docs, rules, t, Some(from_dir))) {
                            return link;
                        }
                        continue;
                    }
                    "permalink" => self.by_permalink.get(&lower),
                    "file_stem" => self.by_stem.get(&lower),
                    "aliases" => self.by_alias.get(&lower),
                    "title" => self.by_title.get(&lower),
                    _ => None,
                };
                if let Some(h) = hits
                    && set(&mut link, self.pick(docs, h.clone(), Some(from_dir)))
                {
                    return link;
                }
            }
            if let Some(l) = self.path_link(link.clone(), d.body_dir(), t, root) {
                return l;
            }
        } else {
            let Some(t) = links::clean_target(&raw.target) else {
                link.class = Class::Sentinel;
                return link;
            };
            if links::is_url(&t) {
                return self.url(link, &t, cfg);
            }
            if let Some(l) = self.path_link(link.clone(), d.body_dir(), &t, root) {
                return l;
            }
            if set(&mut link, self.find(docs, rules, &t, Some(from_dir))) {
                return link;
            }
            if let Some(h) = self.by_stem.get(&t.to_lowercase())
                && set(&mut link, self.pick(docs, h.clone(), Some(from_dir)))
            {
                return link;
            }
        }
        link.suggestions = self.suggest(docs, rules, &raw.target).into_boxed_slice();
        link
    }

    fn url(&self, mut link: Link, url: &str, cfg: &DocGraphConfig) -> Link {
        link.class = Class::External;
        for (prefix, to) in &cfg.links.url_rewrite {
            if let Some(rest) = url.strip_prefix(prefix.as_str()) {
                let p = links::join("", &format!("{}/{}", to.trim_end_matches('/'), rest));
                if let Some(i) = p.and_then(|p| self.by_path.get(p.trim_end_matches('/')).copied())
                {
                    link.class = Class::Resolved;
                    link.to = Some(i);
                }
            }
        }
        link
    }

    /// A path target: a document's file, or a directory holding a sidecar or a README; a file
    /// that exists but is not indexed, or lies above the root, is `external_path`.
    fn path_link(&self, mut link: Link, base: &str, target: &str, root: &Path) -> Option<Link> {
        let Some(p) = links::join(base, target) else {
            link.class = Class::ExternalPath;
            return Some(link);
        };
        let p = p.trim_end_matches('/').to_string();
        let hit = self
            .by_path
            .get(&p)
            .or_else(|| self.by_dir.get(&p))
            .or_else(|| self.by_path.get(&format!("{p}.md")));
        if let Some(&i) = hit {
            link.class = Class::Resolved;
            link.to = Some(i);
            return Some(link);
        }
        let looks_like_path = target.contains('/') || target.contains('.');
        if looks_like_path && !p.is_empty() && root.join(&p).exists() {
            link.class = Class::ExternalPath;
            return Some(link);
        }
        None
    }

    /// Ids a broken reference may have meant: its alias, or a document with the same number
    /// under another prefix (a suggestion only: numbers never match across prefixes).
    fn suggest(&self, docs: &[Arc<Doc>], rules: &IdRules, raw: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((key, _)) = rules.alias(raw)
            && let Some(h) = self.by_key.get(&key)
        {
            out.extend(h.iter().map(|i| docs[*i].id.clone()));
        }
        let target = raw.trim().trim_end_matches('/');
        let last = target.rsplit('/').next().unwrap_or(target);
        if let Some(n) = ids::trailing_number(last) {
            out.extend(
                docs.iter()
                    .filter(|d| ids::trailing_number(&d.key) == Some(n))
                    .map(|d| d.id.clone()),
            );
        }
        out.sort();
        out.dedup();
        out.truncate(5);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::index::Index;
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn classes(idx: &Index) -> Vec<(String, String, Class)> {
        idx.resolved
            .links
            .iter()
            .map(|l| {
                (
                    idx.docs[l.from].id.clone(),
                    l.raw(&idx.docs).target.clone(),
                    l.class,
                )
            })
            .collect()
    }

    #[test]
    fn duplicates_are_ambiguous_and_aliases_and_sentinels_are_classified() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "backlog/config.yml", "task_prefix: bill\n");
        write(root, "backlog/tasks/bill-1.md", "---\nid: BILL-1\n---\n");
        write(root, "backlog/tasks/bill-2.md", "---\nid: BILL-2\n---\n");
        write(
            root,
            "backlog/archive/tasks/bill-2.md",
            "---\nid: BILL-2\n---\n",
        );
        write(
            root,
            "backlog/tasks/bill-3.md",
            "---\nid: BILL-3\ndependencies: [task-1, bill-2, n/a, BILL-42]\n---\n",
        );
        let mut idx = Index::new(
            &root.canonicalize().unwrap(),
            &crate::docs::config::Limits::default(),
        );
        idx.refresh();
        let c = classes(&idx);
        assert!(c.contains(&("BILL-3".into(), "task-1".into(), Class::Resolved)));
        assert!(c.contains(&("BILL-3".into(), "bill-2".into(), Class::Ambiguous)));
        assert!(c.contains(&("BILL-3".into(), "n/a".into(), Class::Sentinel)));
        assert!(c.contains(&("BILL-3".into(), "BILL-42".into(), Class::Broken)));
        let alias = idx
            .resolved
            .links
            .iter()
            .find_map(|l| l.alias.as_deref().cloned())
            .unwrap();
        assert_eq!(
            (alias.written.as_str(), alias.resolved.as_str()),
            ("task-1", "BILL-1")
        );
        assert_eq!(idx.resolved.duplicates.len(), 1);
    }

    #[test]
    fn precedence_breaks_a_tie_but_the_duplicate_is_still_reported() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            ".nexus/docgraph.yaml",
            "doc_graph:\n  lifecycle_precedence: [active, archived]\n",
        );
        write(root, "backlog/tasks/task-2.md", "---\nid: TASK-2\n---\n");
        write(
            root,
            "backlog/archive/tasks/task-2.md",
            "---\nid: TASK-2\n---\n",
        );
        write(
            root,
            "backlog/tasks/task-3.md",
            "---\nid: TASK-3\ndependencies: [TASK-2]\n---\n",
        );
        let mut idx = Index::new(
            &root.canonicalize().unwrap(),
            &crate::docs::config::Limits::default(),
        );
        idx.refresh();
        let l = &idx.resolved.links[0];
        assert_eq!(l.class, Class::Resolved);
        assert_eq!(idx.docs[l.to.unwrap()].path, "backlog/tasks/task-2.md");
        assert_eq!(idx.resolved.duplicates.len(), 1);
    }

    #[test]
    fn body_links_resolve_relative_root_absolute_and_wikilinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            ".nexus/docgraph.yaml",
            "doc_graph:\n  include: [\"docs/**/*.md\"]\n  id: {fallback: [file_stem]}\n",
        );
        write(root, "README.md", "outside\n");
        write(
            root,
            "docs/a.md",
            "[b](sub/b.md) [c](/docs/c.md) [[C title]] [x](missing.md) [r](../README.md) [u](https://x.y)\n",
        );
        write(root, "docs/sub/b.md", "---\ntitle: B\n---\n");
        write(root, "docs/c.md", "---\ntitle: C title\n---\n");
        let mut idx = Index::new(
            &root.canonicalize().unwrap(),
            &crate::docs::config::Limits::default(),
        );
        idx.refresh();
        let got: Vec<(String, Class)> = classes(&idx).into_iter().map(|(_, t, c)| (t, c)).collect();
        assert_eq!(
            got,
            vec![
                ("sub/b.md".into(), Class::Resolved),
                ("/docs/c.md".into(), Class::Resolved),
                ("C title".into(), Class::Resolved),
                ("missing.md".into(), Class::Broken),
                ("../README.md".into(), Class::ExternalPath),
                ("https://x.y".into(), Class::External),
            ]
        );
    }
}
