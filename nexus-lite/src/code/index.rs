//! Builds one graph (nodes, edges, imports, anomalies) from a git work tree.

use crate::code::lang::{FileParse, Import, Lang, Parsers, SymKind};
use crate::code::secret_spans::{self, SecretSpan};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Files larger than this are skipped and recorded as `skipped_file` anomalies.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
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

#[derive(Debug, Clone)]
pub struct EdgeRow {
    pub kind: &'static str,
    pub src: i64,
    pub dst: i64,
    pub confidence: f64,
    pub line: Option<u32>,
}

#[derive(Debug, Clone)]
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
    pub severity: &'static str,
    pub details: Value,
}

#[derive(Debug, Clone)]
pub struct FileRow {
    pub path: String,
    pub language: &'static str,
    pub content_hash: String,
    pub size: u64,
}

/// Everything the indexer produces for one run (findings are added later).
#[derive(Debug, Default)]
pub struct GraphData {
    pub nodes: Vec<NodeRow>,
    pub edges: Vec<EdgeRow>,
    pub imports: Vec<ImportRow>,
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
    /// Secret spans of every tracked text file that has some (see `secret_spans`).
    pub secret_spans: BTreeMap<String, Vec<SecretSpan>>,
}

/// Parse results keyed by `grammar:content hash`, reused by incremental regenerations. The
/// in-memory level in front of the SQLite `parse_cache` (see `cache.rs`): `persisted` says
/// whether the entry is known to be stored there.
#[derive(Default)]
pub struct ParseCache {
    map: Mutex<HashMap<String, Cached>>,
}

struct Cached {
    parse: Arc<FileParse>,
    persisted: bool,
}

impl ParseCache {
    fn get(&self, key: &str) -> Option<Arc<FileParse>> {
        self.map
            .lock()
            .ok()
            .and_then(|m| m.get(key).map(|c| c.parse.clone()))
    }
    fn put(&self, key: String, parse: Arc<FileParse>, persisted: bool) {
        if let Ok(mut m) = self.map.lock() {
            let was = m.get(&key).is_some_and(|c| c.persisted);
            m.insert(
                key,
                Cached {
                    parse,
                    persisted: persisted || was,
                },
            );
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

/// Qualified name of a file: the dotted module for Python, else the path without its
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

enum Bind {
    /// A Python module name.
    Module(String),
    /// A symbol (local qualified name) of a file.
    Symbol(usize, String),
    /// A whole file (JS namespace import, `require`, Rust module).
    File(usize),
    /// An external package (npm package, crate, Python top-level module).
    External(String),
    /// Resolved to nothing we index, and not worth an anomaly (a Rust `use Enum::*`, a tracked
    /// non-source file such as `./data.json`).
    Nothing(Option<String>),
}

/// File extensions tried for an extension-less JS/TS import, in order.
const JS_EXTS: [&str; 10] = [
    "ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts", "json",
];

struct Indexed<'a> {
    files: &'a [Source],
    module_map: HashMap<String, usize>,
    path_map: HashMap<&'a str, usize>,
    internal_tops: HashSet<String>,
    /// Every tracked path, parsed or not (JS imports of `./data.json` are internal).
    tracked: &'a HashSet<String>,
}

struct Source {
    path: String,
    lang: Lang,
    module: String,
    parse: Arc<FileParse>,
}

/// `a/b/../c/./d` -> `a/c/d`; `None` when it climbs above the root.
fn normalize_path(parts: &[&str]) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for p in parts {
        match *p {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            p => out.push(p),
        }
    }
    Some(out.join("/"))
}

fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn join_dir(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The npm package of a bare specifier: `@scope/pkg/sub` -> `@scope/pkg`, `lodash/fp` -> `lodash`,
/// `node:fs` -> `fs`.
fn npm_package(spec: &str) -> String {
    let spec = spec.strip_prefix("node:").unwrap_or(spec);
    let mut parts = spec.split('/');
    let first = parts.next().unwrap_or(spec);
    match (first.starts_with('@'), parts.next()) {
        (true, Some(second)) => format!("{first}/{second}"),
        _ => first.to_string(),
    }
}

impl Indexed<'_> {
    fn by_path(&self, p: &str) -> Option<usize> {
        self.path_map
            .get(format!("{p}.py").as_str())
            .or_else(|| self.path_map.get(format!("{p}/__init__.py").as_str()))
            .copied()
    }

    fn dir_parts(&self, file: usize) -> Vec<&str> {
        let mut parts: Vec<&str> = self.files[file].path.split('/').collect();
        parts.pop();
        parts
    }

    fn resolve(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        match self.files[file].lang {
            Lang::Python => self.resolve_python(file, imp),
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => self.resolve_js(file, imp),
            Lang::Rust => self.resolve_rust(file, imp),
        }
    }

    /// JS/TS: relative specifiers are files of the repository (extension and `index` lookup,
    /// `./x.js` also finds `x.ts`), bare ones are npm packages.
    fn resolve_js(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        let spec = imp.module.as_str();
        if !(spec.starts_with('.') || spec.starts_with('/')) {
            return Ok(Bind::External(npm_package(spec)));
        }
        let dir = if spec.starts_with('/') {
            ""
        } else {
            parent_dir(&self.files[file].path)
        };
        let mut parts: Vec<&str> = dir.split('/').collect();
        parts.extend(spec.split('/'));
        let Some(base) = normalize_path(&parts) else {
            return Err("the path goes above the repository root".to_string());
        };
        let mut candidates = vec![base.clone()];
        for js in [".js", ".jsx", ".mjs", ".cjs"] {
            if let Some(stem) = base.strip_suffix(js) {
                candidates.extend(["ts", "tsx", "mts", "cts"].map(|e| format!("{stem}.{e}")));
            }
        }
        candidates.extend(JS_EXTS.iter().map(|e| format!("{base}.{e}")));
        candidates.extend(
            JS_EXTS
                .iter()
                .map(|e| join_dir(&base, &format!("index.{e}"))),
        );
        for c in &candidates {
            if let Some(f) = self.path_map.get(c.as_str()) {
                return Ok(match imp.name.as_deref() {
                    None | Some("*") => Bind::File(*f),
                    Some("default") => Bind::Symbol(*f, imp.alias.clone()),
                    Some(n) => Bind::Symbol(*f, n.to_string()),
                });
            }
            if self.tracked.contains(c) {
                return Ok(Bind::Nothing(Some(c.clone())));
            }
        }
        Err(format!(
            "no file {base}, {base}.ts/.tsx/.js/... or {base}/index.* in the repository"
        ))
    }

    /// The directory holding the child modules of a Rust file (`src/a.rs` -> `src/a`,
    /// `src/a/mod.rs` and `src/lib.rs` -> their directory).
    fn rust_mod_dir(path: &str) -> String {
        let dir = parent_dir(path);
        let name = path.rsplit('/').next().unwrap_or(path);
        match name {
            "mod.rs" | "lib.rs" | "main.rs" => dir.to_string(),
            _ => join_dir(dir, name.strip_suffix(".rs").unwrap_or(name)),
        }
    }

    fn rust_module_file(&self, dir: &str, name: &str) -> Option<usize> {
        self.path_map
            .get(join_dir(dir, &format!("{name}.rs")).as_str())
            .or_else(|| {
                self.path_map
                    .get(join_dir(dir, &format!("{name}/mod.rs")).as_str())
            })
            .copied()
    }

    /// Walks `segs` down the module files from (`file`, `dir`): the deepest module file and
    /// the rest of the path inside it.
    fn rust_walk(&self, file: Option<usize>, dir: String, segs: &[&str]) -> Option<Bind> {
        let (mut cur, mut cur_dir) = (file, dir);
        let mut rest = segs;
        while let Some((first, tail)) = rest.split_first() {
            match self.rust_module_file(&cur_dir, first) {
                Some(f) => {
                    cur = Some(f);
                    cur_dir = join_dir(&cur_dir, first);
                    rest = tail;
                }
                None => break,
            }
        }
        let f = cur?;
        Some(if rest.is_empty() {
            Bind::File(f)
        } else {
            Bind::Symbol(f, rest.join("."))
        })
    }

    /// Rust: `mod x;` must have its file; `crate::`/`self::`/`super::` paths resolve to the
    /// deepest existing module file; other paths are external crates.
    fn resolve_rust(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        let path = self.files[file].path.as_str();
        let mod_dir = Self::rust_mod_dir(path);
        if imp.mod_decl {
            return self
                .rust_module_file(&mod_dir, &imp.module)
                .map(Bind::File)
                .ok_or_else(|| {
                    format!(
                        "neither {} nor {} exists",
                        join_dir(&mod_dir, &format!("{}.rs", imp.module)),
                        join_dir(&mod_dir, &format!("{}/mod.rs", imp.module))
                    )
                });
        }
        let segs: Vec<&str> = imp.module.split("::").filter(|s| !s.is_empty()).collect();
        let Some((first, rest)) = segs.split_first() else {
            return Ok(Bind::Nothing(None));
        };
        let bind = match *first {
            "crate" => {
                // The crate root: the nearest lib.rs or main.rs above the file.
                let mut dir = parent_dir(path).to_string();
                let root = loop {
                    let hit = ["lib.rs", "main.rs"]
                        .iter()
                        .find_map(|n| self.path_map.get(join_dir(&dir, n).as_str()).copied());
                    if let Some(f) = hit {
                        break Some((f, dir));
                    }
                    if dir.is_empty() {
                        break None;
                    }
                    dir = parent_dir(&dir).to_string();
                };
                match root {
                    Some((f, dir)) => self.rust_walk(Some(f), dir, rest),
                    None => None,
                }
            }
            "self" => self.rust_walk(Some(file), mod_dir, rest),
            "super" => {
                let mut dir = mod_dir;
                let mut rest = segs.as_slice();
                while rest.first() == Some(&"super") {
                    dir = parent_dir(&dir).to_string();
                    rest = &rest[1..];
                }
                let owner = ["mod.rs", "lib.rs", "main.rs"]
                    .iter()
                    .find_map(|n| self.path_map.get(join_dir(&dir, n).as_str()).copied())
                    .or_else(|| self.path_map.get(format!("{dir}.rs").as_str()).copied());
                self.rust_walk(owner, dir, rest)
            }
            "std" | "core" | "alloc" => return Ok(Bind::External((*first).to_string())),
            name => {
                if let Some(f) = self.rust_module_file(&mod_dir, name) {
                    // 2018 paths: a child module of the current one.
                    self.rust_walk(Some(f), join_dir(&mod_dir, name), rest)
                } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    // `use Kind::*` of a local enum, `use Self::...`.
                    return Ok(Bind::Nothing(None));
                } else {
                    return Ok(Bind::External(name.to_string()));
                }
            }
        };
        Ok(bind.unwrap_or(Bind::Nothing(None)))
    }

    /// Resolves `from <level dots><module> import <name>` or `import <module>`.
    fn resolve_python(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        if imp.level > 0 {
            let mut dir = self.dir_parts(file);
            for _ in 1..imp.level {
                if dir.pop().is_none() {
                    return Err(format!(
                        "relative import goes above the repository root ({} dots)",
                        imp.level
                    ));
                }
            }
            let mut base: Vec<&str> = dir.clone();
            base.extend(imp.module.split('.').filter(|s| !s.is_empty()));
            let base_path = base.join("/");
            if let Some(name) = imp.name.as_deref().filter(|n| *n != "*") {
                let sub = if base_path.is_empty() {
                    name.to_string()
                } else {
                    format!("{base_path}/{name}")
                };
                if let Some(f) = self.by_path(&sub) {
                    return Ok(Bind::Module(self.files[f].module.clone()));
                }
            }
            let target = if base_path.is_empty() {
                self.path_map.get("__init__.py").copied()
            } else {
                self.by_path(&base_path)
            };
            return match target {
                Some(f) => Ok(match imp.name.as_deref() {
                    Some(n) if n != "*" => Bind::Symbol(f, n.to_string()),
                    _ => Bind::Module(self.files[f].module.clone()),
                }),
                None => Err(format!(
                    "no module {base_path}.py or {base_path}/__init__.py in the repository"
                )),
            };
        }
        let module = imp.module.as_str();
        if let Some(name) = imp.name.as_deref() {
            if name != "*"
                && let Some(f) = self.module_map.get(&format!("{module}.{name}"))
            {
                return Ok(Bind::Module(self.files[*f].module.clone()));
            }
            if let Some(f) = self.module_map.get(module) {
                return Ok(if name == "*" {
                    Bind::Module(self.files[*f].module.clone())
                } else {
                    Bind::Symbol(*f, name.to_string())
                });
            }
        } else if let Some(f) = self.module_map.get(module) {
            let _ = f;
            return Ok(Bind::Module(
                if imp.alias.contains('.') || imp.alias == module {
                    module.to_string()
                } else if imp.alias == module.split('.').next().unwrap_or(module) {
                    imp.alias.clone()
                } else {
                    module.to_string()
                },
            ));
        }
        // Script-style sibling import (`import helpers` next to helpers.py).
        let mut sib = self.dir_parts(file);
        sib.extend(module.split('.'));
        if let Some(f) = self.by_path(&sib.join("/")) {
            return Ok(match imp.name.as_deref() {
                Some(n) if n != "*" => Bind::Symbol(f, n.to_string()),
                _ => Bind::Module(self.files[f].module.clone()),
            });
        }
        let top = module.split('.').next().unwrap_or(module);
        if self.internal_tops.contains(top) {
            Err(format!(
                "`{top}` is a package of this repository but it has no module `{module}`"
            ))
        } else {
            Ok(Bind::External(top.to_string()))
        }
    }
}

/// A tracked file as read from the work tree.
struct Listed {
    path: String,
    lang: Option<Lang>,
    bytes: Option<Arc<Vec<u8>>>,
    size: u64,
    skipped: Option<String>,
    spans: Vec<SecretSpan>,
}

fn read_listed(root: &Path, path: &str) -> Listed {
    let lang = Lang::from_path(path);
    let full = root.join(path);
    let mut listed = Listed {
        path: path.to_string(),
        lang,
        bytes: None,
        size: 0,
        skipped: None,
        spans: Vec::new(),
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
                listed.bytes = Some(Arc::new(bytes));
            }
        }
        Err(e) if lang.is_some() => listed.skipped = Some(format!("cannot be read: {e}")),
        Err(_) => {}
    }
    listed
}

type Slot = Mutex<Option<Result<Arc<FileParse>, String>>>;

/// Builds the graph of `files` (from `git ls-files`) under `root`.
pub fn build(
    repository: &str,
    root: &Path,
    files: &[String],
    cache: &ParseCache,
    load: ParseLoader<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<GraphData, String> {
    let total = files.len();
    let mut listed: Vec<Listed> = files.iter().map(|p| read_listed(root, p)).collect();
    let mut data = GraphData::default();
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
                severity: "info",
                details: json!({"reason": reason, "size": l.size}),
            });
        }
    }
    // Parse (in parallel, reusing cached results by content hash).
    // (listed index, content hash, cache key): the same bytes parse differently per language.
    let todo: Vec<(usize, String, String)> = listed
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (bytes, lang) = (l.bytes.as_ref()?, l.lang?);
            let hash = format!("sha256:{}", crate::core::util::sha256_hex(bytes));
            let key = format!("{}:{hash}", lang.grammar_name());
            Some((i, hash, key))
        })
        .collect();
    // The persistent level: what memory misses, the database may hold (first run after a
    // start).
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
    let results: Vec<Slot> = todo.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(total - todo.len());
    let reused = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut parsers = Parsers::default();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= todo.len() {
                        break;
                    }
                    let (i, _, key) = &todo[k];
                    let res = if let Some(hit) = cache.get(key) {
                        reused.fetch_add(1, Ordering::Relaxed);
                        Ok(hit)
                    } else {
                        let bytes = listed[*i]
                            .bytes
                            .as_deref()
                            .map(Vec::as_slice)
                            .unwrap_or(&[]);
                        match listed[*i].lang {
                            Some(lang) => parsers.parse(lang, bytes).map(Arc::new),
                            None => Err(format!("{} has no parsed language", listed[*i].path)),
                        }
                    };
                    if let Ok(mut slot) = results[k].lock() {
                        *slot = Some(res);
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(64) {
                        progress(d, total);
                    }
                }
            });
        }
    });
    progress(total, total);
    data.reused_files = reused.load(Ordering::Relaxed);
    let mut sources = Vec::new();
    let mut keep = HashSet::new();
    for (k, slot) in results.into_iter().enumerate() {
        let (i, hash, key) = &todo[k];
        let parse = slot
            .into_inner()
            .map_err(|_| "a parser thread panicked".to_string())?
            .ok_or_else(|| "a file was not parsed".to_string())??;
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
        sources.push(Source {
            path: l.path.clone(),
            lang,
            module: file_qualified_name(&l.path, lang),
            parse,
        });
    }
    cache.retain(&keep);
    data.parsed_files = sources.len() - data.reused_files.min(sources.len());
    let tracked: HashSet<String> = files.iter().cloned().collect();
    link(repository, &sources, &tracked, &mut data);
    mask_anomaly_messages(&mut data);
    for s in sources {
        data.parses.insert(s.path, (s.module, s.parse));
    }
    Ok(data)
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

/// Turns parse results into nodes, edges, imports and anomalies.
fn link(repository: &str, sources: &[Source], tracked: &HashSet<String>, data: &mut GraphData) {
    let mut module_map = HashMap::new();
    let mut path_map = HashMap::new();
    for (i, s) in sources.iter().enumerate() {
        if s.lang == Lang::Python {
            module_map.insert(s.module.clone(), i);
        }
        path_map.insert(s.path.as_str(), i);
    }
    for (i, s) in sources.iter().enumerate() {
        if s.lang != Lang::Python {
            continue;
        }
        for root in ["src.", "lib.", "python."] {
            if let Some(rest) = s.module.strip_prefix(root) {
                module_map.entry(rest.to_string()).or_insert(i);
            }
        }
    }
    let internal_tops: HashSet<String> = module_map
        .keys()
        .filter_map(|m| m.split('.').next())
        .filter(|t| !matches!(*t, "src" | "lib" | "python"))
        .map(str::to_string)
        .collect();
    let idx = Indexed {
        files: sources,
        module_map,
        path_map,
        internal_tops,
        tracked,
    };

    let mut next_id: i64 = 1;
    let mut nodes = Vec::new();
    let repo_id = next_id;
    nodes.push(NodeRow {
        id: repo_id,
        kind: "repository",
        name: repository.to_string(),
        qualified_name: repository.to_string(),
        path: None,
        line: None,
        end_line: None,
        language: None,
        detail: None,
    });
    next_id += 1;
    let mut edges = Vec::new();
    let mut file_ids = Vec::with_capacity(sources.len());
    // (file, local qname) -> (node id, kind)
    let mut sym_ids: HashMap<(usize, &str), (i64, SymKind)> = HashMap::new();
    let mut sym_node_of: Vec<Vec<i64>> = Vec::with_capacity(sources.len());
    let mut by_name: HashMap<(Lang, &str), Vec<i64>> = HashMap::new();
    let mut class_ids: HashSet<i64> = HashSet::new();
    for (fi, s) in sources.iter().enumerate() {
        let fid = next_id;
        next_id += 1;
        file_ids.push(fid);
        let name = s.path.rsplit('/').next().unwrap_or(&s.path).to_string();
        nodes.push(NodeRow {
            id: fid,
            kind: "file",
            name,
            qualified_name: s.module.clone(),
            path: Some(s.path.clone()),
            line: Some(1),
            end_line: None,
            language: Some(s.lang.name()),
            detail: None,
        });
        edges.push(EdgeRow {
            kind: "contains",
            src: repo_id,
            dst: fid,
            confidence: 1.0,
            line: None,
        });
        let mut ids = Vec::with_capacity(s.parse.symbols.len());
        for sym in &s.parse.symbols {
            let id = next_id;
            next_id += 1;
            ids.push(id);
            nodes.push(NodeRow {
                id,
                kind: sym.kind.as_str(),
                name: sym.name.clone(),
                qualified_name: format!("{}.{}", s.module, sym.local_qname),
                path: Some(s.path.clone()),
                line: Some(sym.line),
                end_line: Some(sym.end_line),
                language: Some(s.lang.name()),
                detail: sym.detail,
            });
            let parent = sym.parent.map(|p| ids[p]).unwrap_or(fid);
            edges.push(EdgeRow {
                kind: if sym.parent.is_none() {
                    "defines"
                } else {
                    "contains"
                },
                src: parent,
                dst: id,
                confidence: 1.0,
                line: Some(sym.line),
            });
            sym_ids.insert((fi, sym.local_qname.as_str()), (id, sym.kind));
            if sym.kind == SymKind::Class {
                class_ids.insert(id);
            }
            if sym.kind != SymKind::Class && !sym.name.starts_with("__") {
                let key = (s.lang, sym.name.as_str());
                by_name.entry(key).or_default().push(id);
            }
        }
        sym_node_of.push(ids);
        if let Some((line, msg)) = &s.parse.parse_error {
            data.anomalies.push(AnomalyRow {
                kind: "parse_error",
                path: s.path.clone(),
                line: Some(*line),
                message: format!(
                    "{}:{line}: {msg}; the file's symbols may be incomplete, fix the syntax",
                    s.path
                ),
                severity: "high",
                details: json!({"error_nodes": s.parse.error_nodes}),
            });
        }
    }

    // Imports.
    let mut packages: BTreeMap<(&'static str, String), i64> = BTreeMap::new();
    let mut file_graph: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); sources.len()];
    let mut import_targets: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); sources.len()];
    let mut binds: Vec<HashMap<&str, Bind>> = Vec::with_capacity(sources.len());
    let mut pending_pkg_edges: Vec<(i64, &'static str, String, u32)> = Vec::new();
    for (fi, s) in sources.iter().enumerate() {
        let mut b = HashMap::new();
        let mut seen_rows = HashSet::new();
        for imp in &s.parse.imports {
            let shown = if s.lang != Lang::Python {
                imp.module.clone()
            } else if imp.module.is_empty() {
                format!(
                    "{}{}",
                    ".".repeat(imp.level as usize),
                    imp.name.as_deref().unwrap_or("")
                )
            } else {
                format!("{}{}", ".".repeat(imp.level as usize), imp.module)
            };
            let res = idx.resolve(fi, imp);
            let (resolved_path, external) = match &res {
                Ok(Bind::Module(m)) => {
                    let key = if imp.name.is_none() && imp.level == 0 {
                        imp.module.as_str()
                    } else {
                        m.as_str()
                    };
                    let hit = idx
                        .module_map
                        .get(key)
                        .or_else(|| idx.module_map.get(m.as_str()));
                    (hit.map(|f| sources[*f].path.clone()), false)
                }
                Ok(Bind::Symbol(f, _)) | Ok(Bind::File(f)) => {
                    (Some(sources[*f].path.clone()), false)
                }
                Ok(Bind::External(_)) => (None, true),
                Ok(Bind::Nothing(p)) => (p.clone(), false),
                Err(_) => (None, false),
            };
            match &res {
                Ok(Bind::External(pkg)) => {
                    if !pkg.is_empty() && imp.module != "__future__" {
                        pending_pkg_edges.push((
                            file_ids[fi],
                            s.lang.name(),
                            pkg.clone(),
                            imp.line,
                        ));
                    }
                }
                Ok(_) => {
                    if let Some(rp) = &resolved_path
                        && let Some(t) = idx.path_map.get(rp.as_str())
                        && *t != fi
                    {
                        import_targets[fi].insert(*t);
                        // Cycles only count imports executed at module import time.
                        if !imp.deferred {
                            file_graph[fi].insert(*t);
                        }
                    }
                }
                Err(reason) => {
                    let stmt = match (s.lang, &imp.name) {
                        (Lang::Rust, _) if imp.mod_decl => format!("mod {shown};"),
                        (Lang::Rust, _) => format!("use {shown}"),
                        (Lang::Python, Some(n)) => format!("from {shown} import {n}"),
                        (Lang::Python, None) => format!("import {shown}"),
                        (_, _) => format!("import '{shown}'"),
                    };
                    data.anomalies.push(AnomalyRow {
                        kind: "unresolved_import",
                        path: s.path.clone(),
                        line: Some(imp.line),
                        message: format!(
                            "{}:{}: cannot resolve `{stmt}`: {reason}; fix the import or add the missing module",
                            s.path, imp.line
                        ),
                        severity: "high",
                        details: json!({"module": shown, "name": imp.name, "level": imp.level}),
                    });
                }
            }
            if seen_rows.insert((shown.clone(), imp.line)) {
                data.imports.push(ImportRow {
                    path: s.path.clone(),
                    module: shown,
                    resolved_path,
                    external,
                    line: imp.line,
                });
            }
            if let Ok(bind) = res
                && imp.alias != "*"
                && !imp.alias.is_empty()
            {
                b.insert(imp.alias.as_str(), bind);
            }
        }
        binds.push(b);
    }
    let mut seen_pkg_edges = HashSet::new();
    for (fid, language, top, line) in pending_pkg_edges {
        let pid = *packages.entry((language, top.clone())).or_insert_with(|| {
            let id = next_id;
            next_id += 1;
            nodes.push(NodeRow {
                id,
                kind: "package",
                name: top.clone(),
                qualified_name: top.clone(),
                path: None,
                line: None,
                end_line: None,
                language: Some(language),
                detail: None,
            });
            id
        });
        if seen_pkg_edges.insert((fid, pid)) {
            edges.push(EdgeRow {
                kind: "imports",
                src: fid,
                dst: pid,
                confidence: 1.0,
                line: Some(line),
            });
        }
    }
    for (fi, targets) in import_targets.iter().enumerate() {
        for t in targets {
            edges.push(EdgeRow {
                kind: "imports",
                src: file_ids[fi],
                dst: file_ids[*t],
                confidence: 1.0,
                line: None,
            });
        }
    }

    // Calls and inheritance.
    let lookup_in = |f: usize, q: &str| sym_ids.get(&(f, q)).copied();
    let resolve_dotted = |fi: usize, dotted: &str, caller: Option<usize>| -> Option<(i64, f64)> {
        let parts: Vec<&str> = dotted.split('.').collect();
        let s = &sources[fi];
        if parts.len() == 1 {
            if let Some((id, _)) = lookup_in(fi, parts[0]) {
                return Some((id, 1.0));
            }
            match binds[fi].get(parts[0]) {
                Some(Bind::Symbol(f, n)) => return lookup_in(*f, n).map(|(id, _)| (id, 0.9)),
                Some(_) => return None,
                None => {}
            }
            return None;
        }
        if matches!(parts[0], "self" | "cls") && parts.len() == 2 {
            let mut cur = caller;
            while let Some(c) = cur {
                let sym = &s.parse.symbols[c];
                if sym.kind == SymKind::Class {
                    return lookup_in(fi, &format!("{}.{}", sym.local_qname, parts[1]))
                        .map(|(id, _)| (id, 0.8));
                }
                cur = sym.parent;
            }
            return None;
        }
        if let Some((_, SymKind::Class)) = lookup_in(fi, parts[0]) {
            return lookup_in(fi, dotted).map(|(id, _)| (id, 0.8));
        }
        match binds[fi].get(parts[0]) {
            Some(Bind::Module(m)) => {
                for k in (1..parts.len()).rev() {
                    let mut module = m.clone();
                    for p in &parts[1..k] {
                        module.push('.');
                        module.push_str(p);
                    }
                    if let Some(f) = idx.module_map.get(module.as_str()) {
                        return lookup_in(*f, &parts[k..].join(".")).map(|(id, _)| (id, 0.9));
                    }
                }
                None
            }
            Some(Bind::Symbol(f, n)) => {
                lookup_in(*f, &format!("{n}.{}", parts[1..].join("."))).map(|(id, _)| (id, 0.8))
            }
            Some(Bind::File(f)) => lookup_in(*f, &parts[1..].join(".")).map(|(id, _)| (id, 0.9)),
            _ => None,
        }
    };
    let mut seen_calls = HashSet::new();
    for (fi, s) in sources.iter().enumerate() {
        for call in &s.parse.calls {
            let src = call
                .caller
                .map(|c| sym_node_of[fi][c])
                .unwrap_or(file_ids[fi]);
            let target = resolve_dotted(fi, &call.callee, call.caller).or_else(|| {
                // Best effort by name: a unique function of that name anywhere in the repo.
                let last = call.callee.rsplit('.').next().unwrap_or(&call.callee);
                match by_name.get(&(s.lang, last)).map(Vec::as_slice) {
                    Some([only]) if last.len() > 3 => Some((*only, 0.3)),
                    _ => None,
                }
            });
            if let Some((dst, conf)) = target
                && dst != src
                && seen_calls.insert((src, dst))
            {
                edges.push(EdgeRow {
                    kind: "calls",
                    src,
                    dst,
                    confidence: conf,
                    line: Some(call.line),
                });
            }
        }
        for base in &s.parse.bases {
            if let Some((dst, conf)) = resolve_dotted(fi, &base.base, None) {
                let src = sym_node_of[fi][base.class];
                if class_ids.contains(&dst) {
                    edges.push(EdgeRow {
                        kind: "inherits",
                        src,
                        dst,
                        confidence: conf,
                        line: Some(base.line),
                    });
                }
            }
        }
    }

    // Import cycles (Tarjan SCC over internal file imports).
    for scc in tarjan(&file_graph) {
        let self_loop = scc.len() == 1 && file_graph[scc[0]].contains(&scc[0]);
        if scc.len() < 2 && !self_loop {
            continue;
        }
        let mut paths: Vec<String> = scc.iter().map(|i| sources[*i].path.clone()).collect();
        paths.sort();
        let first = paths[0].clone();
        data.anomalies.push(AnomalyRow {
            kind: "import_cycle",
            path: first,
            line: None,
            message: format!(
                "import cycle between {} modules: {}; break it by moving shared code into a module both can import",
                paths.len(),
                paths.join(" <-> ")
            ),
            severity: "medium",
            details: json!({"files": paths}),
        });
    }
    data.nodes = nodes;
    data.edges = edges;
}

/// Iterative Tarjan strongly connected components.
pub fn tarjan(graph: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    let n = graph.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0;
    let adj: Vec<Vec<usize>> = graph.iter().map(|s| s.iter().copied().collect()).collect();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            if *pos < adj[v].len() {
                let w = adj[v][*pos];
                *pos += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tarjan_finds_cycles() {
        let g: Vec<BTreeSet<usize>> = vec![
            [1].into_iter().collect(),
            [0, 2].into_iter().collect(),
            BTreeSet::new(),
        ];
        let mut sccs: Vec<Vec<usize>> = tarjan(&g)
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        sccs.sort();
        assert_eq!(sccs, vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn module_names() {
        assert_eq!(module_name("pkg/__init__.py"), "pkg");
        assert_eq!(module_name("pkg/sub/mod.py"), "pkg.sub.mod");
        assert_eq!(module_name("setup.py"), "setup");
    }
}
