//! Builds one graph (nodes, edges, imports, anomalies) from a git work tree.

mod crates;
mod incremental;
mod link;
mod packages;
mod reads;
mod resolve;
mod roots;
mod tsconfig;

pub use reads::FileRead;
use reads::{Seen, Stamp, now_ns, stamp_of};

use crate::code::lang::{FileParse, Lang, Parsers};
use crate::core::analyser::severity::Level;
use nexus_secrets::spans::{self as secret_spans, SecretSpan};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Files larger than this are skipped and recorded as `skipped_file` anomalies.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct NodeRow {
    pub id: i64,
    pub kind: &'static str,
    pub name: String,
    pub qualified_name: String,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub end_line: Option<u32>,
    pub language: Option<&'static str>,
    /// The language's own kind when it differs from `kind` (Rust `struct`/`enum`/`trait`).
    pub detail: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EdgeRow {
    pub kind: &'static str,
    pub src: i64,
    pub dst: i64,
    pub confidence: f64,
    pub line: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImportRow {
    pub path: String,
    pub module: String,
    pub resolved_path: Option<String>,
    pub external: bool,
    pub line: u32,
}

#[derive(Debug, Clone)]
pub struct AnomalyRow {
    pub kind: &'static str,
    pub path: String,
    pub line: Option<u32>,
    pub message: String,
    pub severity: Level,
    pub details: Value,
}

#[derive(Debug, Clone)]
pub struct FileRow {
    pub path: String,
    pub language: &'static str,
    pub content_hash: String,
    pub size: u64,
}

/// One file's share of a graph: its file and symbol nodes, the edges leaving them (and the
/// repository's `contains` edge to it), its import rows. A graph's part of a file nothing
/// changed for is its previous graph's, shared in memory and in the database. The graph's
/// own part (`path` None) holds the repository and package nodes.
#[derive(Debug, Default)]
pub struct Part {
    pub path: Option<String>,
    pub nodes: Vec<NodeRow>,
    pub edges: Vec<EdgeRow>,
    pub imports: Vec<ImportRow>,
    /// [`Part::digest`], computed once: a part kept by the next run is not hashed again.
    digest: std::sync::OnceLock<String>,
    /// [`Part::kinds`], counted once.
    kinds: std::sync::OnceLock<Kinds>,
    /// The row id of this part in the database, once a committed graph holds it: a part kept
    /// by the next run is not looked up again.
    stored_as: std::sync::OnceLock<i64>,
}

/// How many nodes and edges of each kind a part holds.
#[derive(Debug, Default)]
pub struct Kinds {
    pub nodes: Vec<(&'static str, usize)>,
    pub edges: Vec<(&'static str, usize)>,
}

/// Everything the indexer produces for one run (findings are added later).
#[derive(Debug, Default)]
pub struct GraphData {
    /// A part per source file, in listing order, then the graph's own part.
    pub parts: Vec<Arc<Part>>,
    /// How many parts were linked in this run (the others are the previous graph's).
    pub linked_parts: usize,
    pub anomalies: Vec<AnomalyRow>,
    pub files: Vec<FileRow>,
    /// Source text of every indexed file, for anchors and symbols.
    pub contents: HashMap<String, Arc<Vec<u8>>>,
    /// path -> (module name, parse) for symbol lookup.
    pub parses: HashMap<String, (String, Arc<FileParse>)>,
    pub parsed_files: usize,
    pub reused_files: usize,
    /// Of `reused_files`, how many came from the database (not from this process's memory).
    pub loaded_files: usize,
    /// Parses used by this run that are not stored yet: (cache key, language, parse).
    pub new_parses: Vec<(String, &'static str, Arc<FileParse>)>,
    /// Secret spans of every tracked text file that has some (see `nexus_secrets::spans`).
    pub secret_spans: BTreeMap<String, Vec<SecretSpan>>,
    /// Tracked files not read again: unchanged since an earlier run read them (this process's,
    /// or one whose reads are stored).
    pub unread_files: usize,
    /// Milliseconds of each phase of `build` (read, load, parse, link), for the run's stats.
    pub phase_ms: Vec<(&'static str, f64)>,
}

impl Part {
    pub fn new(
        path: Option<String>,
        nodes: Vec<NodeRow>,
        edges: Vec<EdgeRow>,
        imports: Vec<ImportRow>,
    ) -> Part {
        Part {
            path,
            nodes,
            edges,
            imports,
            digest: std::sync::OnceLock::new(),
            kinds: std::sync::OnceLock::new(),
            stored_as: std::sync::OnceLock::new(),
        }
    }

    /// Its nodes and edges counted by kind (summed over the parts for a graph's summary, so
    /// a kept part is not counted again).
    pub fn kinds(&self) -> &Kinds {
        fn count(kinds: impl Iterator<Item = &'static str>) -> Vec<(&'static str, usize)> {
            let mut out: Vec<(&'static str, usize)> = Vec::new();
            for k in kinds {
                match out.iter_mut().find(|(seen, _)| *seen == k) {
                    Some((_, n)) => *n += 1,
                    None => out.push((k, 1)),
                }
            }
            out
        }
        self.kinds.get_or_init(|| Kinds {
            nodes: count(self.nodes.iter().map(|n| n.kind)),
            edges: count(self.edges.iter().map(|e| e.kind)),
        })
    }

    /// The part's row id in the database, if a committed graph is known to hold it.
    pub fn stored_as(&self) -> Option<i64> {
        self.stored_as.get().copied()
    }

    /// Records the part's row id, once the transaction that holds it has committed.
    pub fn set_stored_as(&self, id: i64) {
        let _ = self.stored_as.set(id);
    }

    /// A hash of every row of the part: parts with the same digest hold the same rows, and
    /// the database stores them once.
    pub fn digest(&self) -> &str {
        self.digest.get_or_init(|| self.hash_rows())
    }

    fn hash_rows(&self) -> String {
        use sha2::{Digest, Sha256};
        fn text(h: &mut Sha256, s: Option<&str>) {
            match s {
                Some(s) => {
                    h.update([1]);
                    h.update((s.len() as u64).to_le_bytes());
                    h.update(s.as_bytes());
                }
                None => h.update([0]),
            }
        }
        fn num(h: &mut Sha256, n: Option<u32>) {
            match n {
                Some(n) => {
                    h.update([1]);
                    h.update(n.to_le_bytes());
                }
                None => h.update([0]),
            }
        }
        let mut h = Sha256::new();
        h.update(b"nexus-lite part 1");
        text(&mut h, self.path.as_deref());
        h.update((self.nodes.len() as u64).to_le_bytes());
        for n in &self.nodes {
            h.update(n.id.to_le_bytes());
            for t in [
                Some(n.kind),
                Some(n.name.as_str()),
                Some(n.qualified_name.as_str()),
            ] {
                text(&mut h, t);
            }
            text(&mut h, n.path.as_deref());
            num(&mut h, n.line);
            num(&mut h, n.end_line);
            text(&mut h, n.language);
            text(&mut h, n.detail);
        }
        h.update((self.edges.len() as u64).to_le_bytes());
        for e in &self.edges {
            text(&mut h, Some(e.kind));
            h.update(e.src.to_le_bytes());
            h.update(e.dst.to_le_bytes());
            h.update(e.confidence.to_bits().to_le_bytes());
            num(&mut h, e.line);
        }
        h.update((self.imports.len() as u64).to_le_bytes());
        for i in &self.imports {
            text(&mut h, Some(i.path.as_str()));
            text(&mut h, Some(i.module.as_str()));
            text(&mut h, i.resolved_path.as_deref());
            h.update([u8::from(i.external)]);
            h.update(i.line.to_le_bytes());
        }
        crate::core::util::hex(&h.finalize())
    }
}

impl GraphData {
    pub fn nodes(&self) -> impl Iterator<Item = &NodeRow> {
        self.parts.iter().flat_map(|p| &p.nodes)
    }
    /// The graph's nodes and edges counted by kind: (nodes, edges).
    pub fn kinds(&self) -> (BTreeMap<&'static str, usize>, BTreeMap<&'static str, usize>) {
        let (mut nodes, mut edges) = (BTreeMap::new(), BTreeMap::new());
        for k in self.parts.iter().map(|p| p.kinds()) {
            for (kind, n) in &k.nodes {
                *nodes.entry(*kind).or_insert(0) += n;
            }
            for (kind, n) in &k.edges {
                *edges.entry(*kind).or_insert(0) += n;
            }
        }
        (nodes, edges)
    }
    pub fn edges(&self) -> impl Iterator<Item = &EdgeRow> {
        self.parts.iter().flat_map(|p| &p.edges)
    }
    pub fn imports(&self) -> impl Iterator<Item = &ImportRow> {
        self.parts.iter().flat_map(|p| &p.imports)
    }
}

/// Parse results keyed by `grammar:content hash`, reused by incremental regenerations. The
/// in-memory level in front of the SQLite `parse_cache` (see `cache.rs`): `persisted` says
/// whether the entry is known to be stored there.
#[derive(Default)]
pub struct ParseCache {
    map: Mutex<HashMap<String, Cached>>,
    /// What the last read of each tracked file found (see [`reads`]).
    seen: Mutex<reads::Reads>,
    /// What the last run linked: the next run links again only what a change may reach.
    linked: Mutex<Option<incremental::Previous>>,
}

struct Cached {
    parse: Arc<FileParse>,
    persisted: bool,
    /// Parsed by [`parse_ahead`] and not yet used by a run: the run counts it as parsed.
    ahead: bool,
}

impl ParseCache {
    /// The parse cached under `key`, and whether it was parsed ahead of the run.
    fn get(&self, key: &str) -> Option<(Arc<FileParse>, bool)> {
        self.map
            .lock()
            .ok()
            .and_then(|m| m.get(key).map(|c| (c.parse.clone(), c.ahead)))
    }
    fn put(&self, key: String, parse: Arc<FileParse>, persisted: bool) {
        if let Ok(mut m) = self.map.lock() {
            let was = m.get(&key).is_some_and(|c| c.persisted);
            m.insert(
                key,
                Cached {
                    parse,
                    persisted: persisted || was,
                    ahead: false,
                },
            );
        }
    }
    /// The last read of `path`, if its metadata is still `stamp`. A source file's parse may
    /// be neither in memory nor stored: the run then reads it after all (`parse_parallel`).
    fn seen(&self, path: &str, stamp: &Stamp) -> Option<Seen> {
        self.seen.lock().ok()?.get(path, stamp)
    }
    fn remember(&self, path: &str, seen: Seen) {
        if let Ok(mut m) = self.seen.lock() {
            m.remember(path, seen);
        }
    }
    /// Forgets the reads of files no longer tracked.
    fn retain_seen(&self, tracked: &HashSet<String>) {
        if let Ok(mut m) = self.seen.lock() {
            m.retain(tracked);
        }
    }
    /// Whether the stored reads were taken in by this process.
    pub fn reads_loaded(&self) -> bool {
        self.seen.lock().is_ok_and(|m| m.loaded())
    }
    /// Takes in the stored reads (the first run of a process).
    pub fn load_reads(&self, rows: Vec<FileRead>) {
        if let Ok(mut m) = self.seen.lock() {
            m.load(rows);
        }
    }
    /// Reads the database lacks: rows to write, and paths whose row to delete.
    pub fn unstored_reads(&self) -> (Vec<FileRead>, Vec<String>) {
        self.seen.lock().map(|m| m.unstored()).unwrap_or_default()
    }
    /// Records that the database holds the reads of `paths` (after the graph's COMMIT).
    pub fn reads_stored(&self, paths: &[String]) {
        if let Ok(mut m) = self.seen.lock() {
            m.stored(paths);
        }
    }
    fn contains(&self, key: &str) -> bool {
        self.map.lock().is_ok_and(|m| m.contains_key(key))
    }
    fn is_persisted(&self, key: &str) -> bool {
        self.map
            .lock()
            .is_ok_and(|m| m.get(key).is_some_and(|c| c.persisted))
    }
    /// Readies what the next run's plan needs (see [`incremental::prepare`]), off the
    /// critical path of a regeneration.
    pub fn prepare_next_run(&self) {
        if let Ok(mut linked) = self.linked.lock()
            && let Some(prev) = linked.as_mut()
        {
            let started = std::time::Instant::now();
            incremental::prepare(prev);
            let ms = started.elapsed().as_millis();
            tracing::debug!(ms, "the next run's plan is ready");
        }
    }

    /// Records that `keys` were written to the database (after the graph's COMMIT).
    pub fn mark_persisted(&self, keys: &[String]) {
        if let Ok(mut m) = self.map.lock() {
            for k in keys {
                if let Some(c) = m.get_mut(k) {
                    c.persisted = true;
                }
            }
        }
    }
    /// Drops entries not used by the latest run.
    fn retain(&self, keep: &HashSet<String>) {
        if let Ok(mut m) = self.map.lock() {
            m.retain(|k, _| keep.contains(k));
        }
    }
    pub fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Loads stored parses for cache keys missing from memory (the persistent level).
pub type ParseLoader<'a> = &'a dyn Fn(&[String]) -> HashMap<String, FileParse>;

pub fn language_of(path: &str) -> Option<&'static str> {
    Lang::from_path(path).map(Lang::name)
}

/// Qualified name of a file: the dotted module of its path for Python (the indexer names
/// Python files from their source roots instead, see `roots`), else the path without its
/// extension (`web/src/app.ts` -> `web/src/app`, `src/lib.rs` -> `src/lib`).
pub fn file_qualified_name(path: &str, lang: Lang) -> String {
    if lang == Lang::Python {
        return module_name(path);
    }
    let name_start = path.rfind('/').map(|i| i + 1).unwrap_or(0);
    match path[name_start..].find('.') {
        Some(dot) if dot > 0 => path[..name_start + dot].to_string(),
        _ => path.to_string(),
    }
}

/// Dotted module name of a Python file path (`pkg/__init__.py` -> `pkg`).
pub fn module_name(path: &str) -> String {
    let stem = path.strip_suffix(".py").unwrap_or(path);
    let mut parts: Vec<&str> = stem.split('/').collect();
    if parts.len() > 1 && parts.last() == Some(&"__init__") {
        parts.pop();
    }
    parts.join(".")
}

struct Source {
    path: String,
    lang: Lang,
    module: String,
    parse: Arc<FileParse>,
    /// Python: the project holding the file (see `roots`), where its imports look first.
    project: usize,
    /// Python: other names an import may use for the file (its path name, its name inside
    /// its project), looked up after every module's own name.
    aliases: Vec<String>,
    /// TS/JS: the path aliases of the nearest tsconfig.json / jsconfig.json that has some.
    ts_paths: Option<Arc<tsconfig::TsPaths>>,
    /// TS/JS: the work tree's named packages, when it has some (one value shared by all).
    packages: Option<Arc<packages::Packages>>,
    /// Rust: the work tree's library crates, when it has some (one value shared by all).
    crates: Option<Arc<crates::Crates>>,
}

/// What the project files of a work tree say about module names: Python source roots, TS/JS
/// path aliases and packages, Rust library crates.
struct Layout {
    roots: roots::Roots,
    ts: tsconfig::TsConfigs,
    packages: Arc<packages::Packages>,
    crates: Arc<crates::Crates>,
}

/// A tracked file as read from the work tree.
struct Listed {
    path: String,
    lang: Option<Lang>,
    bytes: Option<Arc<Vec<u8>>>,
    size: u64,
    skipped: Option<String>,
    spans: Vec<SecretSpan>,
    /// `sha256:…` of the content (also when `bytes` were not read again: see `Seen`).
    hash: Option<String>,
    /// The metadata of a file read now (not taken from `Seen`).
    stamp: Option<Stamp>,
    /// Taken from `Seen`: the file was not read again.
    unread: bool,
}

/// The parse-cache key of a file: the same bytes parse differently per language.
fn parse_key(lang: Lang, hash: &str) -> String {
    format!("{}:{hash}", lang.grammar_name())
}

fn read_listed(root: &Path, path: &str, cache: &ParseCache) -> Listed {
    let read_at = now_ns();
    let mut listed = read_file(root, path, cache);
    if let Some(stamp) = listed.stamp.take()
        && stamp.settled_before(read_at)
    {
        cache.remember(
            path,
            Seen {
                stamp,
                hash: listed.hash.clone(),
                spans: listed.spans.clone(),
                skipped: listed.skipped.clone(),
            },
        );
    }
    listed
}

/// Reads one tracked file, or takes what its last read found while its metadata is unchanged;
/// `stamp` is set when the file was read (to remember it).
fn read_file(root: &Path, path: &str, cache: &ParseCache) -> Listed {
    let lang = Lang::from_path(path);
    let full = root.join(path);
    let mut listed = Listed {
        path: path.to_string(),
        lang,
        bytes: None,
        size: 0,
        skipped: None,
        spans: Vec::new(),
        hash: None,
        stamp: None,
        unread: false,
    };
    let meta = match std::fs::symlink_metadata(&full) {
        Ok(m) => m,
        Err(_) => {
            if lang.is_some() {
                listed.skipped = Some("tracked but missing from the work tree".into());
            }
            return listed;
        }
    };
    if !meta.is_file() {
        return listed; // symlinks and submodules are not followed
    }
    listed.size = meta.len();
    let stamp = stamp_of(&meta);
    if let Some(seen) = stamp.as_ref().and_then(|st| cache.seen(path, st)) {
        listed.hash = seen.hash;
        listed.spans = seen.spans;
        listed.skipped = seen.skipped;
        listed.unread = true;
        return listed;
    }
    listed.stamp = stamp;
    if meta.len() > MAX_FILE_BYTES {
        listed.skipped = Some(format!(
            "larger than {} bytes ({} bytes)",
            MAX_FILE_BYTES,
            meta.len()
        ));
        return listed;
    }
    // Every text file is read for its secret spans (kg_file_context shows any tracked file);
    // only source files are parsed.
    match std::fs::read(&full) {
        Ok(bytes) => {
            let binary = bytes[..bytes.len().min(8000)].contains(&0);
            if !binary {
                listed.spans = secret_spans::detect(&String::from_utf8_lossy(&bytes));
            }
            if lang.is_none() {
                return listed;
            }
            if binary {
                listed.skipped = Some("binary content (NUL bytes)".into());
            } else if std::str::from_utf8(&bytes).is_err() {
                listed.skipped = Some("not valid UTF-8".into());
            } else {
                listed.hash = Some(format!("sha256:{}", crate::core::util::sha256_hex(&bytes)));
                listed.bytes = Some(Arc::new(bytes));
            }
        }
        Err(e) if lang.is_some() => listed.skipped = Some(format!("cannot be read: {e}")),
        Err(_) => {}
    }
    listed
}

/// The text of a small project file of the work tree (pyproject.toml, setup.cfg, tsconfig.json),
/// read like every tracked file: symlinks are not followed, nothing over [`MAX_FILE_BYTES`].
fn read_project_file(path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::debug!(path = %path.display(), error = %e, "project file not read");
            None
        }
    }
}

/// A file's parse or why it failed (`None` only if its thread panicked).
type Parsed = Option<Result<Arc<FileParse>, String>>;

/// A file to parse: (index in the listing, content hash, cache key). The same bytes parse
/// differently per language, so the key is `grammar:hash`.
type Todo = (usize, String, String);

/// Builds the graph of `files` (from `git ls-files`) under `root`, in phases: read the files,
/// find their parses (memory, database, else parse in parallel), link them.
pub fn build(
    repository: &str,
    root: &Path,
    files: &[String],
    cache: &ParseCache,
    load: ParseLoader<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<GraphData, String> {
    let mut data = GraphData::default();
    let mut clock = std::time::Instant::now();
    let mut lap = |data: &mut GraphData, phase: &'static str| {
        data.phase_ms
            .push((phase, clock.elapsed().as_secs_f64() * 1000.0));
        clock = std::time::Instant::now();
    };
    let listed = read_all(root, files, cache, &mut data);
    data.unread_files = listed.iter().filter(|l| l.unread).count();
    lap(&mut data, "read_ms");
    let todo = parse_todo(&listed, cache, load, &mut data);
    lap(&mut data, "load_ms");
    let (results, reused) = parse_parallel(root, &listed, &todo, cache, files.len(), progress);
    data.reused_files = reused;
    let layout = Layout {
        roots: roots::Roots::detect(root, files),
        ts: tsconfig::TsConfigs::detect(root, files),
        packages: Arc::new(packages::Packages::detect(root, files)),
        crates: Arc::new(crates::Crates::detect(root, files)),
    };
    let sources = collect_sources(&listed, &todo, results, cache, &layout, &mut data)?;
    data.parsed_files = sources.len() - data.reused_files.min(sources.len());
    lap(&mut data, "parse_ms");
    let tracked: HashSet<String> = files.iter().cloned().collect();
    cache.retain_seen(&tracked);
    let keys: Vec<&str> = todo.iter().map(|(_, _, key)| key.as_str()).collect();
    let layout = incremental::layout(files, &sources);
    let mut previous = cache.linked.lock().ok().and_then(|mut p| p.take());
    let plan = incremental::plan(previous.as_mut(), layout, &sources, &keys);
    let reuse = plan.parts;
    lap(&mut data, "plan_ms");
    let linked = match link::link(repository, &sources, &tracked, &reuse, &plan.imports) {
        Ok(linked) => linked,
        Err(link::Stale) => {
            tracing::warn!(
                "a file kept from the previous graph links differently now; linking every file"
            );
            let n = sources.len();
            link::link(repository, &sources, &tracked, &vec![None; n], &vec![None; n])
                .map_err(|_| "linking every file failed: no part was offered for reuse, yet one was stale; index again".to_string())?
        }
    };
    data.linked_parts = linked
        .parts
        .iter()
        .zip(reuse.iter().map(Some).chain(std::iter::repeat(None)))
        .filter(|(part, old)| {
            !old.and_then(Option::as_ref)
                .is_some_and(|o| Arc::ptr_eq(o, part))
        })
        .count();
    let next = incremental::remember(
        previous,
        layout,
        &sources,
        &keys,
        &linked.parts,
        &linked.imports,
    );
    if let Ok(mut slot) = cache.linked.lock() {
        *slot = Some(next);
    }
    data.parts = linked.parts;
    data.anomalies.extend(linked.anomalies);
    mask_anomaly_messages(&mut data);
    lap(&mut data, "link_ms");
    for s in sources {
        data.parses.insert(s.path, (s.module, s.parse));
    }
    Ok(data)
}

/// Reads and parses `paths` (a plan's changed files) into `cache` before a run starts, one
/// file after another until `stop` is set: a submit does it while `git status` checks the work
/// tree on the other core, and the run then finds those parses in memory. Nothing else
/// changes: a file edited in between has another content hash, and the run parses it itself.
pub fn parse_ahead(root: &Path, paths: &[String], cache: &ParseCache, stop: &AtomicBool) {
    let mut parsers = Parsers::default();
    for path in paths {
        if stop.load(Ordering::Acquire) {
            return;
        }
        let listed = read_listed(root, path, cache);
        let (Some(lang), Some(hash), Some(bytes)) = (listed.lang, &listed.hash, &listed.bytes)
        else {
            continue;
        };
        let key = parse_key(lang, hash);
        if cache.contains(&key) {
            continue;
        }
        if let (Ok(parse), Ok(mut m)) = (parsers.parse(lang, bytes), cache.map.lock()) {
            m.insert(
                key,
                Cached {
                    parse: Arc::new(parse),
                    persisted: false,
                    ahead: true,
                },
            );
        }
    }
}

/// Reads every tracked file: its secret spans go to `data`, and so does a `skipped_file`
/// anomaly for each source file that cannot be indexed.
fn read_all(
    root: &Path,
    files: &[String],
    cache: &ParseCache,
    data: &mut GraphData,
) -> Vec<Listed> {
    // In parallel: reading, hashing and the secret-span scan of every tracked file are a
    // second or more of one core at a million lines.
    let mut listed: Vec<Listed> = parallel_map(
        files.len(),
        || (),
        |_, i| read_listed(root, &files[i], cache),
    )
    .into_iter()
    .flatten()
    .collect();
    for l in &mut listed {
        if !l.spans.is_empty() {
            data.secret_spans
                .insert(l.path.clone(), std::mem::take(&mut l.spans));
        }
    }
    for l in &listed {
        if let Some(reason) = &l.skipped {
            data.anomalies.push(AnomalyRow {
                kind: "skipped_file",
                path: l.path.clone(),
                line: None,
                message: format!("{} was not indexed: {reason}", l.path),
                severity: Level::Info,
                details: json!({"reason": reason, "size": l.size}),
            });
        }
    }
    listed
}

/// `f(state, i)` for every `i < n` on up to four threads, in index order; `init` makes each
/// thread's own state (a parser). `None` only where a thread panicked, which `scope` re-raises.
pub(crate) fn parallel_map<S, T: Send>(
    n: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> T + Sync,
) -> Vec<Option<T>> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(slot) = slots.get(i) else {
                        break;
                    };
                    let out = f(&mut state, i);
                    if let Ok(mut slot) = slot.lock() {
                        *slot = Some(out);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|s| s.into_inner().ok().flatten())
        .collect()
}

/// The source files to parse, after loading from the database the stored parses memory
/// lacks (the first run after a start).
fn parse_todo(
    listed: &[Listed],
    cache: &ParseCache,
    load: ParseLoader<'_>,
    data: &mut GraphData,
) -> Vec<Todo> {
    let todo: Vec<Todo> = listed
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (hash, lang) = (l.hash.clone()?, l.lang?);
            let key = parse_key(lang, &hash);
            Some((i, hash, key))
        })
        .collect();
    let mut missing: Vec<String> = todo
        .iter()
        .filter(|(_, _, key)| !cache.contains(key))
        .map(|(_, _, key)| key.clone())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    let loaded = load(&missing);
    data.loaded_files = todo
        .iter()
        .filter(|(_, _, key)| loaded.contains_key(key))
        .count();
    for (key, parse) in loaded {
        cache.put(key, Arc::new(parse), true);
    }
    todo
}

/// Parses `todo` on up to four threads, reusing cached parses; reports progress every 64
/// files. Returns one result slot per entry of `todo` and how many came from the cache.
fn parse_parallel(
    root: &Path,
    listed: &[Listed],
    todo: &[Todo],
    cache: &ParseCache,
    total: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<Parsed>, usize) {
    let done = AtomicUsize::new(total - todo.len());
    let reused = AtomicUsize::new(0);
    let results = parallel_map(todo.len(), Parsers::default, |parsers, k| {
        let (i, hash, key) = &todo[k];
        let l = &listed[*i];
        let res = if let Some((hit, ahead)) = cache.get(key) {
            if !ahead {
                reused.fetch_add(1, Ordering::Relaxed);
            }
            Ok(hit)
        } else {
            match (l.lang, l.bytes.as_deref()) {
                (Some(lang), Some(bytes)) => parsers.parse(lang, bytes).map(Arc::new),
                (None, _) => Err(format!("{} has no parsed language", l.path)),
                // Unchanged since its stored read, but its parse is neither in memory nor
                // stored (another parser version, a pruned cache): read it after all.
                (Some(lang), None) => read_again(root, &l.path, hash)
                    .and_then(|bytes| parsers.parse(lang, &bytes))
                    .map(Arc::new),
            }
        };
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if d.is_multiple_of(64) {
            progress(d, total);
        }
        res
    });
    progress(total, total);
    (results, reused.load(Ordering::Relaxed))
}

/// The content of `path` when its hash is still `hash` (what its stored read says).
fn read_again(root: &Path, path: &str, hash: &str) -> Result<Vec<u8>, String> {
    let bytes =
        std::fs::read(root.join(path)).map_err(|e| format!("{path} cannot be read: {e}"))?;
    if format!("sha256:{}", crate::core::util::sha256_hex(&bytes)) != hash {
        return Err(format!(
            "{path} changed while it was indexed; run the regeneration again"
        ));
    }
    Ok(bytes)
}

/// The parsed sources in listing order, with their file rows and contents in `data`; parses
/// not stored yet are queued in `data.new_parses`, and the cache keeps only this run's.
fn collect_sources(
    listed: &[Listed],
    todo: &[Todo],
    results: Vec<Parsed>,
    cache: &ParseCache,
    layout: &Layout,
    data: &mut GraphData,
) -> Result<Vec<Source>, String> {
    let mut sources = Vec::new();
    let mut keep = HashSet::new();
    for (k, parsed) in results.into_iter().enumerate() {
        let (i, hash, key) = &todo[k];
        let parse = parsed.ok_or_else(|| "a file was not parsed".to_string())??;
        let l = &listed[*i];
        let lang = l.lang.unwrap_or(Lang::Python);
        if !cache.is_persisted(key) {
            cache.put(key.clone(), parse.clone(), false);
            if keep.insert(key.clone()) {
                data.new_parses
                    .push((key.clone(), lang.name(), parse.clone()));
            }
        }
        keep.insert(key.clone());
        data.files.push(FileRow {
            path: l.path.clone(),
            language: lang.name(),
            content_hash: hash.clone(),
            size: l.size,
        });
        if let Some(b) = &l.bytes {
            data.contents.insert(l.path.clone(), b.clone());
        }
        let (module, project, aliases) = if lang == Lang::Python {
            let p = layout.roots.place(&l.path);
            (p.module, p.project, p.aliases)
        } else {
            (file_qualified_name(&l.path, lang), 0, Vec::new())
        };
        let js = matches!(lang, Lang::TypeScript | Lang::Tsx | Lang::JavaScript);
        let ts_paths = js.then(|| layout.ts.for_file(&l.path)).flatten();
        let packages = (js && !layout.packages.is_empty()).then(|| layout.packages.clone());
        let crates =
            (lang == Lang::Rust && !layout.crates.is_empty()).then(|| layout.crates.clone());
        sources.push(Source {
            path: l.path.clone(),
            lang,
            module,
            parse,
            project,
            aliases,
            ts_paths,
            packages,
            crates,
        });
    }
    cache.retain(&keep);
    Ok(sources)
}

/// An anomaly on a line of a secret span may quote it (a syntax error "near `MIIE…`"): its
/// message is withheld.
fn mask_anomaly_messages(data: &mut GraphData) {
    for a in &mut data.anomalies {
        let (Some(line), Some(spans)) = (a.line, data.secret_spans.get(&a.path)) else {
            continue;
        };
        if let Some(masked) = secret_spans::mask_message(spans, line, line) {
            a.message = format!("{}:{line}: {masked}", a.path);
        }
    }
}

/// A work tree of `files` (path, text) in a temporary folder, handed to `detect` with the
/// paths as `git ls-files` lists them: the project-file readers' tests.
#[cfg(test)]
fn detect_in<T>(files: &[(&str, &str)], detect: impl FnOnce(&Path, &[String]) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let full = dir.path().join(p);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let paths: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    detect(dir.path(), &paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names() {
        assert_eq!(module_name("pkg/__init__.py"), "pkg");
        assert_eq!(module_name("pkg/sub/mod.py"), "pkg.sub.mod");
        assert_eq!(module_name("setup.py"), "setup");
    }
}
