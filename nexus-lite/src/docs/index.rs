//! The in-memory index of one workspace: which files are documents (include/exclude globs,
//! .gitignore), each document parsed (metadata, id, title, type, status, references), and an
//! incremental refresh: the changed paths (from the watcher, or a stat walk by mtime + size, see
//! [`super::tree`]) are parsed again, then only the references that can resolve differently are
//! classified again (see [`Resolved::update`]).

use super::config::{self, DocGraphConfig, Fallback, Limits, Loaded, Source};
use super::doc::{Doc, Kind, RawRef, file_name};
use super::frontmatter::{self, ParseError};
use super::ids::{self, IdRules};
use super::links;
use super::read::{self, ReadError};
use super::resolve::Resolved;
use super::tree::{Delta, Filter, Stat, Tree, stat};
use super::units::{self, Layout, Unit};
use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a refresh did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Refresh {
    pub parsed: usize,
    pub removed: usize,
    pub config_reloaded: bool,
    /// The workspace was walked (the first request, a rescan, or no watcher): any file may
    /// have changed. Otherwise `touched` lists every path (relative to the root) that did.
    pub walked: bool,
    pub touched: Vec<String>,
}

impl Refresh {
    pub fn changed(&self) -> bool {
        self.parsed > 0 || self.removed > 0 || self.config_reloaded
    }
}

struct Matchers {
    include: GlobSet,
    exclude: GlobSet,
    lifecycle: Vec<(GlobMatcher, String)>,
    types: Vec<(GlobMatcher, String)>,
    problems: Vec<ParseError>,
}

fn glob(pattern: &str, case_insensitive: bool) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(case_insensitive)
        .build()
}

fn matchers(cfg: &DocGraphConfig) -> Matchers {
    let mut problems = Vec::new();
    let mut bad = |key: &str, p: &str, e: globset::Error| {
        problems.push(ParseError {
            path: config::CONFIG_PATH.into(),
            line: None,
            column: None,
            message: format!("`{key}` pattern `{p}` is not a valid glob ({e}); it is ignored"),
        })
    };
    let mut set = |key: &str, pats: &[String], ci: bool| {
        let mut b = GlobSetBuilder::new();
        for p in pats {
            match glob(p, ci) {
                Ok(g) => {
                    b.add(g);
                }
                Err(e) => bad(key, p, e),
            }
        }
        b.build().unwrap_or_else(|_| GlobSet::empty())
    };
    let include = set("include", &cfg.include, false);
    let exclude = set("exclude", &cfg.exclude, true);
    let mut ordered = |key: &str, map: &Map<String, Value>| {
        map.iter()
            .filter_map(|(p, v)| {
                let v = v.as_str()?.to_string();
                match glob(p, false) {
                    Ok(g) => Some((g.compile_matcher(), v)),
                    Err(e) => {
                        bad(key, p, e);
                        None
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let lifecycle = ordered("lifecycle", &cfg.lifecycle);
    let types = ordered("types", &cfg.types);
    Matchers {
        include,
        exclude,
        lifecycle,
        types,
        problems,
    }
}

/// How far the running refresh has parsed, readable without the index's lock (a cold index of
/// a big folder holds it for seconds): files parsed of files to parse.
#[derive(Debug, Default)]
pub struct Progress {
    pub parsed: AtomicUsize,
    /// Files to parse; `usize::MAX` while the files are still being listed.
    pub of: AtomicUsize,
}

/// The index of one workspace.
pub struct Index {
    /// Shared with the workspace, which reads it while a refresh holds the index.
    pub progress: Arc<Progress>,
    /// The workspace directory (the configuration file lives under it).
    dir: PathBuf,
    /// The indexed root (`dir/workspace_root`); node paths are relative to it.
    pub root: PathBuf,
    /// Why the root is not walked (it is a link, or not a directory).
    root_error: Option<ParseError>,
    /// The operator's maxima of the configuration's `limits`.
    operator: Limits,
    pub loaded: Loaded,
    pub rules: IdRules,
    matchers: Matchers,
    config_stats: Vec<Option<Stat>>,
    /// The indexed files and how their changes are found.
    tree: Tree,
    units: BTreeMap<String, (Unit, Arc<Doc>)>,
    /// Documents sorted by path.
    pub docs: Vec<Arc<Doc>>,
    pub resolved: Resolved,
    /// Problems of the walk itself (unreadable directories).
    pub walk_errors: Vec<ParseError>,
    /// Unix seconds of the last change seen.
    pub indexed_at: i64,
    /// Bumped on every change.
    pub generation: u64,
    /// Bodies known to need no redaction, so that a document is scanned once, not on every answer.
    clean: std::sync::Mutex<CleanBodies>,
    /// The dependency cycles of [`Index::generation`], computed once per change.
    cycles: std::sync::Mutex<Option<(u64, CycleMembers)>>,
}

/// A keyed hash of the last body of each node path found to hold no secret. A body is served
/// unscanned only when it hashes to that value, so a file rewritten since (even before the
/// watcher reports it) is scanned again; bodies with a secret are redacted on every answer
/// (rare). Holding hashes, not texts, keeps the daemon's memory flat on big folders.
#[derive(Default)]
struct CleanBodies {
    keys: std::hash::RandomState,
    by_path: std::collections::HashMap<String, u64>,
}

/// The documents of each dependency cycle (positions in [`Index::docs`]).
pub type CycleMembers = Arc<Vec<Vec<usize>>>;

impl Index {
    /// An empty index of `dir`; the first [`Index::refresh`] reads it.
    /// `dir` is the canonical workspace directory; `operator` bounds the configured limits.
    pub fn new(dir: &Path, operator: &Limits) -> Index {
        let loaded = config::load(dir, operator);
        let rules = rules_of(&loaded);
        let matchers = matchers(&loaded.config);
        let root = dir.join(&loaded.config.workspace_root);
        Index {
            progress: Arc::default(),
            dir: dir.to_path_buf(),
            root,
            root_error: root_error(dir, &loaded.config),
            operator: operator.clone(),
            rules,
            matchers,
            config_stats: config_files(dir, &loaded.config)
                .iter()
                .map(|p| stat(p))
                .collect(),
            loaded,
            tree: Tree::default(),
            units: BTreeMap::new(),
            docs: Vec::new(),
            resolved: Resolved::default(),
            walk_errors: Vec::new(),
            indexed_at: 0,
            generation: 0,
            clean: std::sync::Mutex::default(),
            cycles: std::sync::Mutex::default(),
        }
    }

    pub fn config(&self) -> &DocGraphConfig {
        &self.loaded.config
    }

    /// A document's Markdown body, read from its file: the index keeps no bodies (~0.65 KB a
    /// document on a Backlog.md task, most of what a document costs). The request refreshed the
    /// index first, so this is the indexed version unless the file is being written right now;
    /// `""` when it cannot be read.
    pub fn body(&self, d: &Doc) -> String {
        let Some(file) = &d.body_file else {
            return String::new();
        };
        let Ok((text, _)) = self.read(file) else {
            return String::new();
        };
        if d.path != d.meta_file {
            text
        } else {
            frontmatter::split(&text).body.to_string()
        }
    }

    /// [`Index::body`] as it may be returned ([`nexus_secrets::markdown::markdown`]); the secret scan is
    /// skipped when these exact bytes were found clean before.
    pub fn redacted_body(&self, d: &Doc) -> String {
        use std::hash::BuildHasher;
        let body = self.body(d);
        let clean = self.clean.lock().unwrap_or_else(|e| e.into_inner());
        let hash = clean.keys.hash_one(&body);
        if clean.by_path.get(&d.path) == Some(&hash) {
            return body;
        }
        drop(clean);
        match nexus_secrets::markdown::markdown(&body) {
            std::borrow::Cow::Owned(redacted) => redacted,
            std::borrow::Cow::Borrowed(_) => {
                let mut clean = self.clean.lock().unwrap_or_else(|e| e.into_inner());
                clean.by_path.insert(d.path.clone(), hash);
                body
            }
        }
    }

    /// `compute()` (the documents in each dependency cycle), once per [`Index::generation`].
    pub fn cycle_members(&self, compute: impl FnOnce() -> Vec<Vec<usize>>) -> CycleMembers {
        let mut memo = self.cycles.lock().unwrap_or_else(|e| e.into_inner());
        match &*memo {
            Some((generation, c)) if *generation == self.generation => c.clone(),
            _ => {
                let c = Arc::new(compute());
                *memo = Some((self.generation, c.clone()));
                c
            }
        }
    }

    /// Forgets the clean bodies of `paths` (all of them when `paths` is `None`): deleted or
    /// renamed documents leave no entry behind.
    fn forget_bodies<'a>(&self, paths: Option<impl Iterator<Item = &'a String>>) {
        let mut clean = self.clean.lock().unwrap_or_else(|e| e.into_inner());
        match paths {
            None => clean.by_path.clear(),
            Some(paths) => {
                for p in paths {
                    clean.by_path.remove(p);
                }
            }
        }
    }

    /// Why a workspace holding no document is not "all well": what was looked for and where,
    /// and the likely fix. `None` when there are documents.
    pub fn emptiness(&self, name: &str) -> Option<String> {
        if !self.docs.is_empty() {
            return None;
        }
        let cfg = self.config();
        let is_dir = |rel: &str| {
            std::fs::symlink_metadata(self.root.join(rel)).is_ok_and(|m| m.file_type().is_dir())
        };
        let hint = if is_dir("tasks") && !is_dir("backlog") {
            "this folder looks like a Backlog.md `backlog/` folder itself (it holds `tasks/`): serve the folder that holds `backlog/`, its parent"
        } else {
            "serve the folder that holds the documents, or say where they are with `include` in .nexus/docgraph.yaml"
        };
        let config = match (&self.loaded.file, &self.loaded.error) {
            (Some(f), Some(e)) => format!(" ({f} does not apply: {})", e.message),
            (Some(f), None) => format!(" (from {f})"),
            (None, _) => " (the defaults: no .nexus/docgraph.yaml)".to_owned(),
        };
        let root = if cfg.workspace_root == "." {
            String::new()
        } else {
            format!(" under `{}`", cfg.workspace_root)
        };
        Some(format!(
            "workspace `{name}` holds 0 documents: no file matches include [{}]{root}, exclude [{}]{config}; {hint}",
            cfg.include.join(", "),
            cfg.exclude.join(", "),
        ))
    }

    /// The whole document as its author wrote it, frontmatter included (the node resource):
    /// the file itself, or for sidecar metadata the sidecar file as a frontmatter block before
    /// the body. `""` when the metadata file cannot be read.
    pub fn raw(&self, d: &Doc) -> String {
        let Ok((text, _)) = self.read(&d.meta_file) else {
            return String::new();
        };
        if d.path == d.meta_file {
            return text;
        }
        let body = self.body(d);
        let sep = if text.ends_with('\n') { "" } else { "\n" };
        format!("---\n{text}{sep}---\n\n{body}")
    }

    /// A document's metadata as a map, read again from its file for the one document an
    /// answer shows: kept parsed for every document it cost ~1.8 KB each, and nothing else
    /// reads it. The request refreshed the index first, so the file is the indexed version
    /// unless it is being written right now. Empty when it does not parse.
    pub fn metadata(&self, d: &Doc) -> Map<String, Value> {
        let cfg = &self.loaded.config;
        let Ok((text, _)) = self.read(&d.meta_file) else {
            return Map::new();
        };
        let yaml = if d.path != d.meta_file {
            Some(text.as_str())
        } else if cfg.metadata.sources.contains(&Source::Frontmatter) {
            frontmatter::split(&text).yaml
        } else {
            None
        };
        yaml.and_then(|y| frontmatter::parse_yaml(y, 1, &cfg.metadata.prequote_keys).ok())
            .unwrap_or_default()
    }

    /// A file of the indexed root (`rel` relative to it), read the one safe way
    /// ([`read::read_capped`]) to at most `limits.max_file_bytes`.
    fn read(&self, rel: &str) -> Result<(String, Option<u64>), ReadError> {
        let cfg = &self.loaded.config;
        read::read_capped(
            &self.dir,
            &config::under_root(cfg, rel),
            cfg.limits.max_file_bytes,
        )
    }

    /// Invalid globs of the configuration (each ignored).
    pub fn glob_problems(&self) -> &[ParseError] {
        &self.matchers.problems
    }

    /// Reads what changed since the last call: the configuration (a change re-reads every
    /// document), then the changed files (watcher or walk); only new or changed files are
    /// parsed.
    pub fn refresh(&mut self) -> Refresh {
        self.progress.parsed.store(0, Ordering::Relaxed);
        self.progress.of.store(usize::MAX, Ordering::Relaxed);
        let mut out = Refresh::default();
        let now_stats: Vec<Option<Stat>> = config_files(&self.dir, &self.loaded.config)
            .iter()
            .map(|p| stat(p))
            .collect();
        if now_stats != self.config_stats {
            self.loaded = config::load(&self.dir, &self.operator);
            self.rules = rules_of(&self.loaded);
            self.matchers = matchers(&self.loaded.config);
            self.root = self.dir.join(&self.loaded.config.workspace_root);
            self.root_error = root_error(&self.dir, &self.loaded.config);
            self.config_stats = config_files(&self.dir, &self.loaded.config)
                .iter()
                .map(|p| stat(p))
                .collect();
            self.units.clear();
            self.docs.clear();
            out.config_reloaded = true;
        }
        let sidecar = self
            .loaded
            .config
            .metadata
            .sources
            .contains(&Source::Sidecar)
            .then_some(self.loaded.config.metadata.sidecar.file.as_deref())
            .flatten();
        let layout = Layout {
            sidecar,
            body: &self.loaded.config.metadata.sidecar.body,
        };
        let m = &self.matchers;
        let globs = |rel: &str| m.include.is_match(rel) && !m.exclude.is_match(rel);
        let filter = Filter {
            globs: &globs,
            gitignore: self.loaded.config.gitignore,
        };
        let delta = match &self.root_error {
            Some(e) => {
                self.tree.files.clear();
                self.tree.errors = vec![e.clone()];
                Delta::Walked
            }
            None => self.tree.update(&self.root, &filter, out.config_reloaded),
        };
        let mut todo: Vec<(String, Unit)> = Vec::new();
        let mut gone: Vec<String> = Vec::new();
        match delta {
            Delta::Walked => {
                out.walked = true;
                self.walk_errors = self.tree.errors.clone();
                let found = units::all(&self.tree.files, layout, &self.root);
                gone.extend(
                    self.units
                        .keys()
                        .filter(|k| !found.contains_key(*k))
                        .cloned(),
                );
                todo.extend(found.into_iter().filter(|(path, unit)| {
                    self.units.get(path).is_none_or(|(old, _)| old != unit)
                }));
            }
            Delta::Changed(paths) => {
                let mut keys = BTreeSet::new();
                for p in &paths {
                    units::touched_by(p, layout, &mut keys);
                }
                for k in keys {
                    match units::at(&self.tree.files, layout, &self.root, &k) {
                        None if self.units.contains_key(&k) => gone.push(k),
                        None => {}
                        Some(u) if self.units.get(&k).is_none_or(|(old, _)| *old != u) => {
                            todo.push((k, u));
                        }
                        Some(_) => {}
                    }
                }
                out.touched = paths.into_iter().collect();
            }
        }
        out.removed = gone.len();
        out.parsed = todo.len();
        // A document edited in place keeps its position; any other change moves positions.
        let in_place = !out.config_reloaded
            && gone.is_empty()
            && self.generation > 0
            && todo.iter().all(|(k, _)| self.units.contains_key(k));
        for k in &gone {
            self.units.remove(k);
        }
        if out.config_reloaded {
            self.forget_bodies(None::<std::iter::Empty<&String>>);
        } else {
            self.forget_bodies(Some(gone.iter().chain(todo.iter().map(|(k, _)| k))));
        }
        self.progress.of.store(todo.len(), Ordering::Relaxed);
        let parsed = self.parse_all(&todo);
        let mut edited = Vec::new();
        for ((path, unit), doc) in todo.into_iter().zip(parsed) {
            if in_place && let Some(i) = self.resolved.position(&path) {
                edited.push((i, std::mem::replace(&mut self.docs[i], doc.clone())));
            }
            self.units.insert(path, (unit, doc));
        }
        if !out.changed() && self.generation > 0 {
            return out;
        }
        if in_place && edited.len() == out.parsed {
            self.resolved.update(
                &self.docs,
                &edited,
                &self.rules,
                &self.loaded.config,
                &self.root,
            );
        } else {
            self.docs = self.units.values().map(|(_, d)| d.clone()).collect();
            self.resolved =
                Resolved::build(&self.docs, &self.rules, &self.loaded.config, &self.root);
        }
        self.generation += 1;
        self.indexed_at = crate::core::util::now_epoch();
        out
    }

    /// Parses `todo` on up to 8 threads; each document goes straight into its `Arc` (no
    /// second copy of every document at the cold index's peak).
    fn parse_all(&self, todo: &[(String, Unit)]) -> Vec<Arc<Doc>> {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(8);
        if todo.len() < 64 || threads < 2 {
            return todo.iter().map(|(p, u)| self.parse_counted(p, u)).collect();
        }
        let chunk = todo.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = todo
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|(p, u)| self.parse_counted(p, u))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    }

    /// [`Index::parse`], counted in [`Index::progress`].
    fn parse_counted(&self, path: &str, unit: &Unit) -> Arc<Doc> {
        let doc = Arc::new(self.parse(path, unit));
        self.progress.parsed.fetch_add(1, Ordering::Relaxed);
        doc
    }

    /// Reads and parses one document. Never fails: problems are kept in `parse_error`.
    fn parse(&self, path: &str, unit: &Unit) -> Doc {
        let cfg = &self.loaded.config;
        let mut error: Option<ParseError> = None;
        let mut note = |line: Option<usize>, column: Option<usize>, message: String| {
            if error.is_none() {
                error = Some(ParseError {
                    path: unit.meta_file.clone(),
                    line,
                    column,
                    message,
                });
            }
        };
        let text = match self.read(&unit.meta_file) {
            Ok((t, cut)) => {
                if let Some(n) = cut {
                    note(
                        None,
                        None,
                        format!(
                            "the file is {n} bytes, over limits.max_file_bytes; only the first {} bytes are read",
                            cfg.limits.max_file_bytes
                        ),
                    );
                }
                t
            }
            Err(e) => {
                note(None, None, format!("the file is not read: {e}"));
                String::new()
            }
        };
        let (meta, body, body_line, yaml_text, yaml_line) = if unit.sidecar {
            let meta = match frontmatter::parse_yaml(&text, 1, &cfg.metadata.prequote_keys) {
                Ok(m) => m,
                Err(e) => {
                    note(e.line, e.column, format!("invalid YAML: {}", e.message));
                    Map::new()
                }
            };
            let body = match &unit.body_file {
                Some(b) => match self.read(b) {
                    Ok((t, _)) => t,
                    Err(e) => {
                        note(None, None, format!("the body is not read: {e}"));
                        String::new()
                    }
                },
                None => String::new(),
            };
            (meta, body, 1, text, 1)
        } else {
            let split = frontmatter::split(&text);
            let use_fm = cfg.metadata.sources.contains(&Source::Frontmatter);
            let mut meta = Map::new();
            if split.unclosed && use_fm {
                note(
                    Some(1),
                    Some(1),
                    "the frontmatter opened with `---` on line 1 is never closed; add a closing `---` line".into(),
                );
            }
            if let (Some(yaml), true) = (split.yaml, use_fm) {
                match frontmatter::parse_yaml(yaml, split.yaml_line, &cfg.metadata.prequote_keys) {
                    Ok(m) => meta = m,
                    Err(e) => note(
                        e.line,
                        e.column,
                        format!("invalid YAML frontmatter: {}", e.message),
                    ),
                }
            }
            let yaml = split.yaml.unwrap_or("").to_string();
            let body = split.body.to_string();
            (meta, body, split.body_line, yaml, split.yaml_line)
        };
        let nulls = &cfg.null_values;
        let file_stem = if unit.sidecar {
            file_name(path).to_string()
        } else {
            stem(file_name(path)).to_string()
        };
        let (id_raw, id_source) = self.id_of(&meta, path, unit, &file_stem);
        let title = scalar(&meta, &cfg.title_key)
            .filter(|t| !ids::is_sentinel(t, nulls))
            .or_else(|| first_heading(&body))
            .unwrap_or_else(|| file_stem.clone());
        let doc_type = scalar(&meta, &cfg.type_key)
            .filter(|t| !ids::is_sentinel(t, nulls))
            .or_else(|| first_match(&self.matchers.types, &unit.meta_file))
            .unwrap_or_else(|| cfg.default_type.clone());
        let status = scalar(&meta, &cfg.status_key).filter(|t| !ids::is_sentinel(t, nulls));
        let lifecycle = first_match(&self.matchers.lifecycle, &unit.meta_file);
        let mut refs = Vec::new();
        for kind in Kind::ALL {
            let spec = kind.spec(cfg);
            for (keys, inverse) in [(&spec.keys, false), (&spec.inverse_keys, true)] {
                for key in keys {
                    let Some(v) = meta.get(key) else { continue };
                    let line = key_line(&yaml_text, key).map(|l| l + yaml_line - 1);
                    for target in values(v) {
                        refs.push(RawRef {
                            kind,
                            target,
                            key: Some(key.clone()),
                            line,
                            wikilink: false,
                            inverse,
                        });
                    }
                }
            }
        }
        for l in links::extract(&body, cfg.links.markdown, cfg.links.wikilinks) {
            let kind = l
                .relation
                .as_deref()
                .and_then(|r| relation_kind(cfg, r))
                .unwrap_or(Kind::Related);
            refs.push(RawRef {
                kind,
                target: l.target,
                key: None,
                line: Some(body_line + l.line - 1),
                wikilink: l.wikilink,
                inverse: false,
            });
        }
        let permalink = scalar(&meta, "permalink");
        let aliases = meta.get("aliases").map(values).unwrap_or_default();
        refs.shrink_to_fit();
        Doc {
            path: path.to_string(),
            meta_file: unit.meta_file.clone(),
            body_file: if unit.sidecar {
                unit.body_file.clone()
            } else {
                Some(unit.meta_file.clone())
            },
            id: self.rules.display(&id_raw),
            key: self.rules.key(&id_raw),
            id_source,
            title,
            doc_type,
            status,
            lifecycle,
            body_line,
            refs,
            permalink,
            aliases,
            file_stem,
            parse_error: error.map(Box::new),
        }
    }

    fn id_of(
        &self,
        meta: &Map<String, Value>,
        path: &str,
        unit: &Unit,
        file_stem: &str,
    ) -> (String, &'static str) {
        let cfg = &self.loaded.config;
        for key in &cfg.id.keys {
            if let Some(v) = scalar(meta, key).filter(|v| !ids::is_sentinel(v, &cfg.null_values)) {
                return (v, "metadata");
            }
        }
        for fb in &cfg.id.fallback {
            match fb {
                Fallback::FilenameId if !unit.sidecar => {
                    if let Some(id) = ids::filename_id(file_stem) {
                        return (id.to_string(), "filename_id");
                    }
                }
                Fallback::FileStem if !unit.sidecar => return (file_stem.to_string(), "file_stem"),
                Fallback::DirName => {
                    let name = file_name(&unit.meta_file);
                    let readme = ["readme.md", "index.md"]
                        .iter()
                        .any(|r| name.eq_ignore_ascii_case(r));
                    if unit.sidecar || readme {
                        let dir = if unit.sidecar {
                            path
                        } else {
                            links::parent(path)
                        };
                        let d = file_name(dir);
                        if !d.is_empty() && d != "." {
                            return (d.to_string(), "dir_name");
                        }
                    }
                }
                _ => {}
            }
        }
        (path.to_string(), "path")
    }
}

/// The files whose change reloads the configuration.
fn config_files(dir: &Path, cfg: &DocGraphConfig) -> Vec<PathBuf> {
    vec![
        dir.join(config::CONFIG_PATH),
        dir.join(&cfg.workspace_root)
            .join("backlog")
            .join("config.yml"),
    ]
}

/// Why the configured root is not walked: it must be a directory inside the workspace,
/// reached without following a link.
fn root_error(dir: &Path, cfg: &DocGraphConfig) -> Option<ParseError> {
    (!read::is_dir(dir, &cfg.workspace_root)).then(|| ParseError {
        path: config::CONFIG_PATH.into(),
        line: None,
        column: None,
        message: format!(
            "workspace_root `{}` is not a directory of the workspace (missing, or a symbolic link, which is not followed); nothing is indexed until it is one",
            cfg.workspace_root
        ),
    })
}

fn rules_of(loaded: &Loaded) -> IdRules {
    let n = &loaded.config.id.normalize;
    IdRules::new(
        n.case_insensitive_prefix,
        n.strip_leading_zeros,
        &loaded.default_prefix,
        &n.prefix_aliases,
    )
}

fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

fn first_match(list: &[(GlobMatcher, String)], path: &str) -> Option<String> {
    list.iter()
        .find(|(m, _)| m.is_match(path))
        .map(|(_, v)| v.clone())
}

/// A scalar metadata value as text (strings and numbers; YAML integers are ids).
pub fn scalar(meta: &Map<String, Value>, key: &str) -> Option<String> {
    match meta.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The reference values of a metadata value: a scalar is a one-element list, `null` is a
/// sentinel (`""`), a map (Doorstop `links: [{UID: stamp}]`) gives its keys.
pub fn values(v: &Value) -> Vec<String> {
    match v {
        Value::Null => vec![String::new()],
        Value::String(s) => vec![s.clone()],
        Value::Number(n) => vec![n.to_string()],
        Value::Bool(_) => Vec::new(),
        Value::Array(items) => items
            .iter()
            .flat_map(|i| match i {
                Value::Array(_) => Vec::new(),
                other => values(other),
            })
            .collect(),
        Value::Object(m) => m.keys().cloned().collect(),
    }
}

/// The file line (1-based, relative to the YAML text) of a top-level `key:`.
fn key_line(yaml: &str, key: &str) -> Option<usize> {
    yaml.lines()
        .position(|l| {
            let l = l.trim_end();
            let rest = l
                .strip_prefix(key)
                .or_else(|| l.strip_prefix(&format!("\"{key}\"")))
                .or_else(|| l.strip_prefix(&format!("'{key}'")));
            rest.is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map(|i| i + 1)
}

fn first_heading(body: &str) -> Option<String> {
    body.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// The edge kind a typed body relation (`- depends_on [[X]]`) names, by the configured keys.
fn relation_kind(cfg: &DocGraphConfig, word: &str) -> Option<Kind> {
    let norm = |s: &str| s.to_lowercase().replace('-', "_");
    let w = norm(word);
    Kind::ALL.into_iter().find(|k| {
        let spec = k.spec(cfg);
        norm(k.as_str()) == w || spec.keys.iter().any(|key| norm(key) == w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn refresh_reparses_only_what_changed_and_drops_removed_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "backlog/tasks/task-1 - A.md",
            "---\nid: TASK-1\ntitle: A\n---\nbody\n",
        );
        write(
            root,
            "backlog/tasks/task-2 - B.md",
            "---\nid: TASK-2\ndependencies: [task-1]\n---\n",
        );
        write(root, "backlog/tasks/readme.md", "# not a task\n");
        write(root, "notes/x.md", "# not included\n");
        let mut idx = Index::new(&root.canonicalize().unwrap(), &Limits::default());
        let first = idx.refresh();
        assert_eq!(first.parsed, 2);
        assert_eq!(idx.docs.len(), 2);
        assert_eq!(idx.refresh(), Refresh::default(), "nothing changed");
        write(
            root,
            "backlog/tasks/task-1 - A.md",
            "---\nid: TASK-1\ntitle: A changed\n---\nbody\n",
        );
        let r = idx.refresh();
        assert_eq!((r.parsed, r.removed), (1, 0));
        assert_eq!(idx.docs[0].title, "A changed");
        std::fs::remove_file(root.join("backlog/tasks/task-2 - B.md")).unwrap();
        assert_eq!(idx.refresh().removed, 1);
        assert_eq!(idx.docs.len(), 1);
    }

    /// A body found clean is not scanned again, but a file rewritten with a secret before the
    /// index sees the change (no refresh in between) is scanned again and comes back redacted.
    #[test]
    fn a_body_rewritten_with_a_secret_is_redacted_before_any_refresh() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let file = "backlog/tasks/task-1 - A.md";
        write(root, file, "---\nid: TASK-1\n---\nplain body\n");
        let mut idx = Index::new(&root.canonicalize().unwrap(), &Limits::default());
        idx.refresh();
        let doc = idx.docs[0].clone();
        assert_eq!(idx.redacted_body(&doc), "plain body\n");
        assert_eq!(
            idx.redacted_body(&doc),
            "plain body\n",
            "served from the clean hash"
        );
        let key = "AKIAIOSFODNN7EXAMPLE";
        write(
            root,
            file,
            &format!("---\nid: TASK-1\n---\naws_access_key_id = {key}\n"),
        );
        let body = idx.redacted_body(&doc);
        assert!(
            !body.contains(key) && body.contains("aws_access_key_id"),
            "{body}"
        );
        assert!(
            !idx.redacted_body(&doc).contains(key),
            "a body with a secret is redacted each time"
        );
    }

    #[test]
    fn gitignored_files_are_not_indexed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".gitignore", "backlog/tasks/scratch*\n");
        write(root, "backlog/tasks/task-1.md", "---\nid: TASK-1\n---\n");
        write(root, "backlog/tasks/scratch.md", "---\nid: TASK-9\n---\n");
        let mut idx = Index::new(&root.canonicalize().unwrap(), &Limits::default());
        idx.refresh();
        let ids: Vec<&str> = idx.docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, vec!["TASK-1"]);
    }

    #[test]
    fn ids_fall_back_to_the_file_name_and_invalid_yaml_keeps_the_document() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "backlog/tasks/task-7 - Broken.md",
            "---\ntitle: X\nlabels: [a\n---\n# Broken\n",
        );
        let mut idx = Index::new(&root.canonicalize().unwrap(), &Limits::default());
        idx.refresh();
        let d = &idx.docs[0];
        assert_eq!((d.id.as_str(), d.id_source), ("task-7", "filename_id"));
        let e = d.parse_error.as_ref().unwrap();
        assert_eq!(e.path, "backlog/tasks/task-7 - Broken.md");
        assert!(e.line.is_some_and(|l| l >= 3), "{e:?}");
        assert_eq!(d.title, "Broken");
    }
}
