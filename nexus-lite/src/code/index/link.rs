//! Links one run's parse results into the graph, in phases: file and symbol nodes, imports,
//! package nodes and import edges, inheritance, calls and value uses (`infer` types receivers),
//! pytest fixtures, dynamic uses, import cycles. Node ids are made from the nodes' content
//! (see [`content_id`]), and each file's nodes and edges form its own part of the graph.

mod builtins;
mod infer;

use super::resolve::{Bind, Indexed};
use super::{AnomalyRow, EdgeRow, ImportRow, NodeRow, Part, Source};
use crate::code::lang::{FUNCTION_TYPE, INTERFACE, Import, Lang, SymKind, Symbol};
use crate::core::analyser::severity::Level;
use crate::core::graph::tarjan;
use infer::{Target, Types};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::{Arc, OnceLock};

/// One run's link: a part per source file (in listing order), then the graph's own part
/// (the repository and package nodes), and the anomalies.
pub(super) struct Linked {
    pub(super) parts: Vec<Arc<Part>>,
    pub(super) anomalies: Vec<AnomalyRow>,
    /// Each source's resolved imports, for the next run to keep.
    pub(super) imports: Vec<Arc<FileImports>>,
}

/// A file offered for reuse did not link the same way again (its imports resolve
/// differently, or its nodes are not its parse's): the caller links every file instead.
#[derive(Debug)]
pub(super) struct Stale;

/// Turns parse results into parts and anomalies. `reuse[fi]` is file `fi`'s part in the
/// previous graph when nothing it depends on changed (see `incremental`): its nodes, calls
/// and uses are taken as they are, and its import rows and edges must match its imports
/// (`kept_imports[fi]`, the previous run's while the file and the layout are the same, else
/// resolved again).
pub(super) fn link(
    repository: &str,
    sources: &[Source],
    tracked: &HashSet<String>,
    reuse: &[Option<Arc<Part>>],
    kept_imports: &[Option<Arc<FileImports>>],
) -> Result<Linked, Stale> {
    let idx = Indexed::new(sources, tracked);
    let mut g = Builder::new(sources.len());
    let mut anomalies = Vec::new();
    let symbols = add_files_and_symbols(&mut g, repository, sources, reuse, &mut anomalies)?;
    let imports = link_imports(&idx, sources, kept_imports, &mut anomalies);
    add_import_edges(&mut g, &symbols.file_ids, &imports);
    let fixtures = Fixtures::new(sources, &symbols);
    let mut resolver = Resolver {
        sources,
        idx: &idx,
        symbols: &symbols,
        imports: &imports,
        fixtures: &fixtures,
        types: Types::new(sources, &symbols),
    };
    resolver.types.bases = add_bases(&mut g, &resolver, reuse);
    let impls = impl_members(&resolver);
    resolver.types.add_members(&impls);
    let implemented = trait_methods(&resolver);
    add_calls_and_uses(&mut g, &resolver, &impls, &implemented, reuse);
    add_fixture_uses(&mut g, &resolver, reuse);
    flag_dynamic_uses(sources, &mut anomalies);
    flag_import_cycles(sources, &imports, &mut anomalies);
    Ok(Linked {
        parts: g.finish(sources, reuse, &imports)?,
        anomalies,
        imports,
    })
}

/// A node id made from what the node is, not from when it was made: the same symbol of the
/// same file keeps its id when another file changes, so unchanged files keep their rows.
/// `nth` tells apart nodes with the same key (a function defined twice in one file).
fn content_id(
    kind: &str,
    qualified_name: &str,
    path: Option<&str>,
    language: Option<&str>,
    nth: u32,
) -> i64 {
    let mut h = Sha256::new();
    for field in [
        kind,
        qualified_name,
        path.unwrap_or(""),
        language.unwrap_or(""),
    ] {
        h.update(field.as_bytes());
        h.update([0]);
    }
    h.update(nth.to_le_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    // Positive and non-zero: SQLite integers, and 0 is never a row's id.
    ((u64::from_le_bytes(first) >> 1) as i64).max(1)
}

/// One file's nodes and the edges leaving them, as linked in this run.
#[derive(Default)]
struct Out {
    nodes: Vec<NodeRow>,
    edges: Vec<EdgeRow>,
}

/// The nodes and edges built so far, by the file that owns them.
struct Builder {
    /// One per source file, then the graph's own (repository and package nodes).
    out: Vec<Out>,
    /// Every id given out (reused parts' too): a clash takes the next `nth`.
    used: FxHashSet<i64>,
}

impl Builder {
    fn new(files: usize) -> Builder {
        Builder {
            out: (0..=files).map(|_| Out::default()).collect(),
            used: FxHashSet::default(),
        }
    }

    /// The index of the graph's own part in `out`.
    fn graph(&self) -> usize {
        self.out.len() - 1
    }

    /// The id `row` gets: its content id, unless another node of this graph has it.
    fn id_for(&mut self, row: &NodeRow) -> i64 {
        let mut nth = 0;
        loop {
            let id = content_id(
                row.kind,
                &row.qualified_name,
                row.path.as_deref(),
                row.language,
                nth,
            );
            if self.used.insert(id) {
                return id;
            }
            nth += 1;
        }
    }

    /// Adds `row` to `owner`'s part under its content id and returns the id.
    fn node(&mut self, owner: usize, mut row: NodeRow) -> i64 {
        row.id = self.id_for(&row);
        let id = row.id;
        self.out[owner].nodes.push(row);
        id
    }

    fn edge(
        &mut self,
        owner: usize,
        kind: &'static str,
        src: i64,
        dst: i64,
        confidence: f64,
        line: Option<u32>,
    ) {
        self.out[owner].edges.push(EdgeRow {
            kind,
            src,
            dst,
            confidence,
            line,
        });
    }

    /// The parts of this run: a reused part where its imports linked the same way again
    /// (a reused file's `out` holds only its import edges by then), else a new one.
    fn finish(
        self,
        sources: &[Source],
        reuse: &[Option<Arc<Part>>],
        imports: &[Arc<FileImports>],
    ) -> Result<Vec<Arc<Part>>, Stale> {
        let mut parts = Vec::with_capacity(self.out.len());
        for (fi, out) in self.out.into_iter().enumerate() {
            let rows = imports.get(fi).map(|i| i.rows.as_slice()).unwrap_or(&[]);
            match (sources.get(fi), reuse.get(fi).and_then(Option::as_ref)) {
                (Some(_), Some(old)) => {
                    let old_edges = old.edges.iter().filter(|e| e.kind == "imports");
                    if old.imports != rows || !old_edges.eq(out.edges.iter()) {
                        return Err(Stale);
                    }
                    parts.push(old.clone());
                }
                (source, _) => parts.push(Arc::new(Part::new(
                    source.map(|s| s.path.clone()),
                    out.nodes,
                    out.edges,
                    rows.to_vec(),
                ))),
            }
        }
        Ok(parts)
    }
}

/// Node ids of the files and symbols, and the lookups calls and bases resolve through.
struct Symbols<'a> {
    /// Node id of each source file.
    file_ids: Vec<i64>,
    /// Per file, made when first looked up: local qualified name -> (node id, kind). A
    /// one-file run looks up few files' symbols.
    sym_ids: Vec<OnceLock<FxHashMap<&'a str, (i64, SymKind)>>>,
    /// Node id of each symbol of each file, by the symbol's index in its parse.
    sym_node_of: Vec<Vec<i64>>,
    /// Functions and methods by (language, name), for best-effort call matching.
    by_name: FxHashMap<(Lang, &'a str), Vec<Named>>,
    /// Classes by (language, name), for a docstring naming a class Sphinx-style (`.Message`).
    classes_by_name: FxHashMap<(Lang, &'a str), Vec<i64>>,
    /// The interfaces declaring a member by (language, name): a call by that name on an
    /// untyped receiver may reach any object of their shapes.
    signatures: FxHashMap<(Lang, &'a str), Vec<i64>>,
    /// Each interface's member names (its method signatures and function-typed properties).
    interface_members: FxHashMap<i64, Vec<&'a str>>,
    /// TypeScript/JavaScript: the names put in an object somewhere ([`FileParse::placed`]).
    placed: FxHashSet<&'a str>,
}

/// A function or method a call may be matched to by name.
struct Named {
    id: i64,
    method: bool,
    /// The class node of a method.
    class: Option<i64>,
    /// A TypeScript/JavaScript function declared by name, not an object's or a namespace's
    /// member: a call on a receiver reaches it only through an object it is put in.
    declared: bool,
}

/// Phase 1: the repository node, a node per file and per symbol with their `contains` and
/// `defines` edges (a reused file's ids are read from its part), and a `parse_error`
/// anomaly per file that did not parse cleanly.
fn add_files_and_symbols<'a>(
    g: &mut Builder,
    repository: &str,
    sources: &'a [Source],
    reuse: &[Option<Arc<Part>>],
    anomalies: &mut Vec<AnomalyRow>,
) -> Result<Symbols<'a>, Stale> {
    let graph = g.graph();
    let repo_id = g.node(
        graph,
        NodeRow {
            id: 0,
            kind: "repository",
            name: repository.to_string(),
            qualified_name: repository.to_string(),
            path: None,
            line: None,
            end_line: None,
            language: None,
            detail: None,
        },
    );
    // Sized up front: growing these tables was a tenth of a one-file run's link.
    let symbols: usize = sources.iter().map(|s| s.parse.symbols.len()).sum();
    let mut out = Symbols {
        file_ids: Vec::with_capacity(sources.len()),
        sym_ids: sources.iter().map(|_| OnceLock::new()).collect(),
        sym_node_of: Vec::with_capacity(sources.len()),
        by_name: FxHashMap::with_capacity_and_hasher(symbols, Default::default()),
        classes_by_name: FxHashMap::default(),
        signatures: FxHashMap::default(),
        interface_members: FxHashMap::default(),
        placed: FxHashSet::default(),
    };
    // Reused ids first: a new node never takes one of them.
    for part in reuse.iter().flatten() {
        g.used.extend(part.nodes.iter().map(|n| n.id));
    }
    for (fi, s) in sources.iter().enumerate() {
        let (fid, ids) = match reuse.get(fi).and_then(Option::as_ref) {
            Some(part) => reused_ids(part, s)?,
            None => new_nodes(g, fi, repo_id, s),
        };
        out.file_ids.push(fid);
        let ecmascript = builtins::is_ecmascript(s.lang);
        out.placed.extend(s.parse.placed.iter().map(String::as_str));
        for (si, (sym, id)) in s.parse.symbols.iter().zip(&ids).enumerate() {
            let key = (s.lang, sym.name.as_str());
            // An interface's signature is never a guess's target: the guess is what runs.
            let interface = s.parse.interface_of(sym).and_then(|p| ids.get(p).copied());
            if sym.kind == SymKind::Class {
                out.classes_by_name.entry(key).or_default().push(*id);
            } else if let Some(interface) = interface {
                out.signatures.entry(key).or_default().push(interface);
                out.interface_members
                    .entry(interface)
                    .or_default()
                    .push(sym.name.as_str());
            } else if !sym.name.starts_with("__") {
                let method = sym.kind == SymKind::Method;
                let class = sym
                    .parent
                    .filter(|_| method)
                    .and_then(|p| ids.get(p).copied());
                let declared = ecmascript && !method && s.parse.members.binary_search(&si).is_err();
                out.by_name.entry(key).or_default().push(Named {
                    id: *id,
                    method,
                    class,
                    declared,
                });
            }
        }
        out.sym_node_of.push(ids);
        if let Some((line, msg)) = &s.parse.parse_error {
            anomalies.push(AnomalyRow {
                kind: "parse_error",
                path: s.path.clone(),
                line: Some(*line),
                message: format!(
                    "{}:{line}: {msg}; the file's symbols may be incomplete, fix the syntax",
                    s.path
                ),
                severity: Level::High,
                details: json!({"error_nodes": s.parse.error_nodes}),
            });
        }
    }
    Ok(out)
}

/// The file node and symbol nodes of file `fi`, with their `contains` and `defines` edges:
/// (file id, symbol ids in parse order).
fn new_nodes(g: &mut Builder, fi: usize, repo_id: i64, s: &Source) -> (i64, Vec<i64>) {
    let name = s.path.rsplit('/').next().unwrap_or(&s.path).to_string();
    let fid = g.node(
        fi,
        NodeRow {
            id: 0,
            kind: "file",
            name,
            qualified_name: s.module.clone(),
            path: Some(s.path.clone()),
            line: Some(1),
            end_line: None,
            language: Some(s.lang.name()),
            detail: None,
        },
    );
    g.edge(fi, "contains", repo_id, fid, 1.0, None);
    let mut ids = Vec::with_capacity(s.parse.symbols.len());
    for sym in &s.parse.symbols {
        let id = g.node(
            fi,
            NodeRow {
                id: 0,
                kind: sym.kind.as_str(),
                name: sym.name.clone(),
                qualified_name: format!("{}.{}", s.module, sym.local_qname),
                path: Some(s.path.clone()),
                line: Some(sym.line),
                end_line: Some(sym.end_line),
                language: Some(s.lang.name()),
                detail: sym.detail,
            },
        );
        ids.push(id);
        let parent = sym.parent.map(|p| ids[p]).unwrap_or(fid);
        let kind = if sym.parent.is_none() {
            "defines"
        } else {
            "contains"
        };
        g.edge(fi, kind, parent, id, 1.0, Some(sym.line));
    }
    (fid, ids)
}

/// The file id and symbol ids a reused part holds (its file node, then its symbols in
/// parse order, as [`new_nodes`] made them).
fn reused_ids(part: &Part, s: &Source) -> Result<(i64, Vec<i64>), Stale> {
    match part.nodes.split_first() {
        Some((file, syms)) if syms.len() == s.parse.symbols.len() && file.kind == "file" => {
            Ok((file.id, syms.iter().map(|n| n.id).collect()))
        }
        _ => Err(Stale),
    }
}

/// What one file's imports resolved to. Resolution reads only the file itself and the work
/// tree's layout (module names, tracked paths), so a run keeps this for every file whose
/// content and layout are unchanged (see `incremental`).
#[derive(Default)]
pub(super) struct FileImports {
    /// Internal imports executed at module import time (what import cycles are made of).
    file_graph: BTreeSet<usize>,
    /// Every internal import, deferred or not (the `imports` edges between files).
    import_targets: BTreeSet<usize>,
    /// Imported name -> what it is bound to.
    binds: FxHashMap<String, Bind>,
    /// The files it star-imports (`from .core import *`), in source order.
    stars: Vec<usize>,
    /// (language, package, line) of every external import, in source order.
    packages: Vec<(&'static str, String, u32)>,
    rows: Vec<ImportRow>,
    /// An `unresolved_import` anomaly per import that resolves to nothing.
    unresolved: Vec<AnomalyRow>,
}

/// Phase 2: every file's imports, resolved (`kept[fi]` when the previous run's still holds),
/// with the `unresolved_import` anomalies in file order.
fn link_imports(
    idx: &Indexed<'_>,
    sources: &[Source],
    kept: &[Option<Arc<FileImports>>],
    anomalies: &mut Vec<AnomalyRow>,
) -> Vec<Arc<FileImports>> {
    let mut out = Vec::with_capacity(sources.len());
    for fi in 0..sources.len() {
        let imports = match kept.get(fi).and_then(Option::as_ref) {
            Some(k) => k.clone(),
            None => Arc::new(resolve_imports(idx, sources, fi)),
        };
        anomalies.extend(imports.unresolved.iter().cloned());
        out.push(imports);
    }
    out
}

/// Resolves file `fi`'s imports: its rows, bindings and file dependencies.
fn resolve_imports(idx: &Indexed<'_>, sources: &[Source], fi: usize) -> FileImports {
    let s = &sources[fi];
    let mut out = FileImports::default();
    let mut seen_rows = FxHashSet::default();
    for imp in &s.parse.imports {
        let shown = shown_module(s.lang, imp);
        let res = idx.resolve(fi, imp);
        let (resolved_path, external) = resolved_path(idx, sources, fi, imp, &res);
        match &res {
            Ok(Bind::External(pkg)) => {
                if !pkg.is_empty() && imp.module != "__future__" {
                    out.packages.push((s.lang.name(), pkg.clone(), imp.line));
                }
            }
            Ok(_) => {
                if let Some(rp) = &resolved_path
                    && let Some(t) = idx.path_map.get(rp.as_str())
                    && *t != fi
                {
                    out.import_targets.insert(*t);
                    // Cycles only count imports executed at module import time.
                    if !imp.deferred {
                        out.file_graph.insert(*t);
                    }
                }
            }
            Err(reason) => out
                .unresolved
                .push(unresolved_import(s, imp, &shown, reason)),
        }
        if seen_rows.insert((shown.clone(), imp.line)) {
            out.rows.push(ImportRow {
                path: s.path.clone(),
                module: shown,
                resolved_path,
                external,
                line: imp.line,
            });
        }
        // Star imports: Python `from m import *`, TS `export * from`, Rust `use m::*`.
        let star = match (&res, imp.alias == "*") {
            (Ok(Bind::Module(m)), true) => idx.module(fi, m),
            (Ok(Bind::File(t)), true) => Some(*t),
            _ => None,
        };
        if let Some(t) = star
            && t != fi
        {
            out.stars.push(t);
        }
        if let Ok(bind) = res
            && imp.alias != "*"
            && !imp.alias.is_empty()
        {
            out.binds.insert(imp.alias.clone(), bind);
        }
    }
    out
}

/// The import's module as shown in rows and messages (Python: with its leading dots).
fn shown_module(lang: Lang, imp: &Import) -> String {
    if lang != Lang::Python {
        imp.module.clone()
    } else if imp.module.is_empty() {
        format!(
            "{}{}",
            ".".repeat(imp.level as usize),
            imp.name.as_deref().unwrap_or("")
        )
    } else {
        format!("{}{}", ".".repeat(imp.level as usize), imp.module)
    }
}

/// The repository path an import resolved to, and whether it is external.
fn resolved_path(
    idx: &Indexed<'_>,
    sources: &[Source],
    fi: usize,
    imp: &Import,
    res: &Result<Bind, String>,
) -> (Option<String>, bool) {
    match res {
        Ok(Bind::Module(m)) => {
            let key = if imp.name.is_none() && imp.level == 0 {
                imp.module.as_str()
            } else {
                m.as_str()
            };
            let hit = idx.module(fi, key).or_else(|| idx.module(fi, m));
            (hit.map(|f| sources[f].path.clone()), false)
        }
        Ok(Bind::Symbol(f, _)) | Ok(Bind::File(f)) => (Some(sources[*f].path.clone()), false),
        Ok(Bind::External(_)) => (None, true),
        Ok(Bind::Nothing(p)) => (p.clone(), false),
        Err(_) => (None, false),
    }
}

fn unresolved_import(s: &Source, imp: &Import, shown: &str, reason: &str) -> AnomalyRow {
    let stmt = match (s.lang, &imp.name) {
        (Lang::Rust, _) if imp.mod_decl => format!("mod {shown};"),
        (Lang::Rust, _) => format!("use {shown}"),
        (Lang::Python, Some(n)) => format!("from {shown} import {n}"),
        (Lang::Python, None) => format!("import {shown}"),
        (_, _) => format!("import '{shown}'"),
    };
    AnomalyRow {
        kind: "unresolved_import",
        path: s.path.clone(),
        line: Some(imp.line),
        message: format!(
            "{}:{}: cannot resolve `{stmt}`: {reason}; fix the import or add the missing module",
            s.path, imp.line
        ),
        severity: Level::High,
        details: json!({"module": shown, "name": imp.name, "level": imp.level}),
    }
}

/// Phase 3: a `package` node per external package (per language) with `imports` edges from
/// the files importing it, then the `imports` edges between files.
fn add_import_edges(g: &mut Builder, file_ids: &[i64], imports: &[Arc<FileImports>]) {
    let mut packages: BTreeMap<(&'static str, &str), i64> = BTreeMap::new();
    for (fi, file) in imports.iter().enumerate() {
        let mut seen_pkg_edges = FxHashSet::default();
        for (language, top, line) in &file.packages {
            let pid = *packages
                .entry((*language, top.as_str()))
                .or_insert_with(|| content_id("package", top, None, Some(language), 0));
            if seen_pkg_edges.insert(pid) {
                g.edge(fi, "imports", file_ids[fi], pid, 1.0, Some(*line));
            }
        }
    }
    for (fi, file) in imports.iter().enumerate() {
        for t in &file.import_targets {
            g.edge(fi, "imports", file_ids[fi], file_ids[*t], 1.0, None);
        }
    }
    let graph = g.graph();
    for ((language, top), pid) in packages {
        g.used.insert(pid);
        g.out[graph].nodes.push(NodeRow {
            id: pid,
            kind: "package",
            name: top.to_string(),
            qualified_name: top.to_string(),
            path: None,
            line: None,
            end_line: None,
            language: Some(language),
            detail: None,
        });
    }
}

/// Resolves dotted names (`f`, `self.m`, `mod.Class.m`) used in a file to symbol nodes.
struct Resolver<'a> {
    sources: &'a [Source],
    idx: &'a Indexed<'a>,
    symbols: &'a Symbols<'a>,
    imports: &'a [Arc<FileImports>],
    fixtures: &'a Fixtures<'a>,
    types: Types<'a>,
}

/// How many re-exports (`from .core import X` in a package `__init__.py`) a name is followed
/// through before giving up (a cycle of re-exports ends here too).
const MAX_REEXPORT_HOPS: usize = 8;

impl<'a> Resolver<'a> {
    fn lookup_in(&self, f: usize, q: &str) -> Option<(i64, SymKind)> {
        let table = self.symbols.sym_ids[f].get_or_init(|| {
            let syms = &self.sources[f].parse.symbols;
            let mut table = FxHashMap::default();
            // A name defined twice in one file is its last definition, but an interface merges
            // into a class of its name (TypeScript's declaration merging): the class. A
            // function type alias is a type: a value of its name is what the name calls.
            for (sym, id) in syms.iter().zip(&self.symbols.sym_node_of[f]) {
                let q = sym.local_qname.as_str();
                if matches!(sym.detail, Some(INTERFACE | FUNCTION_TYPE)) && table.contains_key(q) {
                    continue;
                }
                table.insert(q, (*id, sym.kind));
            }
            table
        });
        table.get(q).copied()
    }

    /// The symbol `q` (a local qualified name) of file `f`, or what `f` re-exports under that
    /// name: `from .core import Engine`, `from .util import helper as assist`, `from . import
    /// sub` followed by `sub.f`, or a star import (`from .core import *`).
    fn exported(&self, f: usize, q: &str) -> Option<(i64, SymKind)> {
        self.reexported(f, q, MAX_REEXPORT_HOPS, &|g, q| self.lookup_in(g, q))
    }

    /// `probe(file, name)` in file `f` for `q`, then along what `f` re-exports under that
    /// name, in at most `hops` re-exports (star re-exports of star re-exports, TS
    /// `export * from` chains, count too).
    fn reexported<T>(
        &self,
        f: usize,
        q: &str,
        hops: usize,
        probe: &impl Fn(usize, &str) -> Option<T>,
    ) -> Option<T> {
        if let Some(found) = probe(f, q) {
            return Some(found); // the common case, without allocating
        }
        let (mut f, mut q) = (f, q.to_string());
        for hop in 0..hops {
            if let Some(found) = probe(f, &q) {
                return Some(found);
            }
            let (head, rest) = match q.split_once('.') {
                Some((h, r)) => (h, Some(r)),
                None => (q.as_str(), None),
            };
            let Some(bind) = self.imports[f].binds.get(head) else {
                // Not bound by name: the first star-imported module exporting it (listed in
                // its `__all__`, else any name not starting with `_`).
                let found = self.imports[f].stars.iter().find_map(|g| {
                    let source = &self.sources[*g];
                    let public = match &source.parse.dunder_all {
                        Some(all) => all.iter().any(|n| n == head),
                        None => source.lang != Lang::Python || !head.starts_with('_'),
                    };
                    let left = hops - hop - 1;
                    public
                        .then(|| self.reexported(*g, &q, left, probe))
                        .flatten()
                });
                return found;
            };
            let (next_f, next_q) = match (bind, rest) {
                (Bind::Symbol(g, n), None) => (*g, n.clone()),
                (Bind::Symbol(g, n), Some(r)) => (*g, format!("{n}.{r}")),
                (Bind::Module(m), Some(r)) => (self.idx.module(f, m)?, r.to_string()),
                (Bind::File(g), Some(r)) => (*g, r.to_string()),
                _ => return None,
            };
            (f, q) = (next_f, next_q);
        }
        None
    }

    /// A class or function `name` defined in `caller` or a function enclosing it (a test's own
    /// `class MySchema(Schema)`); class bodies are no enclosing scope, as in Python.
    fn in_enclosing_functions(&self, fi: usize, name: &str, caller: Option<usize>) -> Option<i64> {
        let syms = &self.sources[fi].parse.symbols;
        let mut cur = caller;
        while let Some(c) = cur {
            let sym = &syms[c];
            if sym.kind != SymKind::Class {
                // Symbols are in source order: a function's own definitions follow it, inside
                // its lines (most functions have none, and the scan stops at once). A name
                // defined twice is its last definition, as in `lookup_in`.
                let inside = syms[c + 1..]
                    .iter()
                    .take_while(|d| d.line <= sym.end_line)
                    .count();
                let found = syms[c + 1..c + 1 + inside]
                    .iter()
                    .rposition(|d| d.parent == Some(c) && d.name == name);
                if let Some(i) = found {
                    return Some(self.symbols.sym_node_of[fi][c + 1 + i]);
                }
            }
            cur = sym.parent;
        }
        None
    }

    /// Rust: the item a `crate::…` or `super::…` path names, as a `use` of it would bind it
    /// (`crate::util::helper()`, a bound `T: super::Buf`).
    fn rust_path(&self, fi: usize, parts: &[&str]) -> Option<(i64, f64)> {
        let path = Import {
            module: parts.join("::"),
            level: 0,
            name: None,
            alias: String::new(),
            line: 0,
            deferred: true,
            mod_decl: false,
        };
        match self.idx.resolve(fi, &path).ok()? {
            Bind::Symbol(f, n) => self.exported(f, &n).map(|(id, _)| (id, 0.9)),
            _ => None,
        }
    }

    /// The node `dotted` names in file `fi` (inside symbol `caller`), with the confidence of
    /// the match.
    fn resolve_dotted(&self, fi: usize, dotted: &str, caller: Option<usize>) -> Option<(i64, f64)> {
        let parts: Vec<&str> = dotted.split('.').collect();
        let s = &self.sources[fi];
        if parts.len() == 1 {
            if let Some((id, _)) = self.lookup_in(fi, parts[0]) {
                return Some((id, 1.0));
            }
            if let Some(id) = self.in_enclosing_functions(fi, parts[0], caller) {
                return Some((id, 1.0));
            }
            return self.exported(fi, parts[0]).map(|(id, _)| (id, 0.9));
        }
        if matches!(parts[0], "self" | "cls") && parts.len() == 2 {
            let mut cur = caller;
            while let Some(c) = cur {
                let sym = &s.parse.symbols[c];
                if sym.kind == SymKind::Class {
                    let class = self.symbols.sym_node_of[fi][c];
                    return self
                        .member(class, parts[1], 0)
                        .map(|id| (id, infer::INFERRED));
                }
                cur = sym.parent;
            }
            return None;
        }
        if let Some((_, SymKind::Class)) = self.lookup_in(fi, parts[0]) {
            return self.lookup_in(fi, dotted).map(|(id, _)| (id, 0.8));
        }
        if s.lang == Lang::Rust && matches!(parts[0], "crate" | "super") {
            return self.rust_path(fi, &parts);
        }
        match self.imports[fi].binds.get(parts[0]) {
            Some(Bind::Module(m)) => {
                for k in (1..parts.len()).rev() {
                    let mut module = m.clone();
                    for p in &parts[1..k] {
                        module.push('.');
                        module.push_str(p);
                    }
                    if let Some(f) = self.idx.module(fi, &module) {
                        return self
                            .exported(f, &parts[k..].join("."))
                            .map(|(id, _)| (id, 0.9));
                    }
                }
                None
            }
            // Python: an imported class's attribute (an override is not seen); TS/Rust: a
            // namespace member or `Type::f`, bound statically.
            Some(Bind::Symbol(f, n)) => self
                .exported(*f, &format!("{n}.{}", parts[1..].join(".")))
                .map(|(id, _)| (id, if s.lang == Lang::Python { 0.8 } else { 0.9 })),
            Some(Bind::File(f)) => self
                .exported(*f, &parts[1..].join("."))
                .map(|(id, _)| (id, 0.9)),
            _ => None,
        }
    }
}

/// What calling an instance runs, what makes a class answer any attribute, and what types the
/// callbacks a TypeScript construction passes: members the linker asks a class for by itself,
/// where no file writes their names.
pub(super) const CALL: &str = "__call__";
pub(super) const GETATTR: &str = "__getattr__";
pub(super) const CONSTRUCTOR: &str = "constructor";
pub(super) const IMPLICIT_MEMBERS: [&str; 3] = [CALL, GETATTR, CONSTRUCTOR];

/// The confidence of a call edge matched by name only (impact calls it `name_match`).
const NAME_MATCH_CONFIDENCE: f64 = 0.3;

/// Phase 4a: `inherits` edges between classes; the resolved bases of each class, which
/// receiver typing follows to inherited methods.
fn add_bases(
    g: &mut Builder,
    r: &Resolver<'_>,
    reuse: &[Option<Arc<Part>>],
) -> FxHashMap<i64, Vec<i64>> {
    let mut bases: FxHashMap<i64, Vec<i64>> = FxHashMap::default();
    for (fi, s) in r.sources.iter().enumerate() {
        // A kept part's `inherits` edges are its bases as resolved when it was linked, in
        // source order, and nothing they resolve through has changed since.
        if let Some(part) = reuse.get(fi).and_then(Option::as_ref) {
            for e in part.edges.iter().filter(|e| e.kind == "inherits") {
                bases.entry(e.src).or_default().push(e.dst);
            }
            continue;
        }
        for base in &s.parse.bases {
            if let Some((dst, conf)) = r.resolve_dotted(fi, &base.base, None) {
                let src = r.symbols.sym_node_of[fi][base.class];
                if r.types.is_class(dst) && dst != src {
                    g.edge(fi, "inherits", src, dst, conf, Some(base.line));
                    bases.entry(src).or_default().push(dst);
                }
            }
        }
    }
    bases
}

/// Rust: the methods of an `impl` written in another file than its type (`impl FromStr for
/// Version` in parse.rs, `struct Version` in lib.rs), as members of the type, which the
/// impl's file names through its own imports. Made from the sources alone, as the type
/// tables are, so a kept part and a relinked one see the same members.
fn impl_members<'a>(r: &Resolver<'a>) -> Vec<((i64, &'a str), i64)> {
    let mut out = Vec::new();
    for (fi, s) in r.sources.iter().enumerate() {
        if s.lang != Lang::Rust {
            continue;
        }
        for (si, sym) in s.parse.symbols.iter().enumerate() {
            if sym.kind != SymKind::Method || sym.parent.is_some() {
                continue;
            }
            let Some((owner, _)) = sym.local_qname.rsplit_once('.') else {
                continue;
            };
            if let Some((class, _)) = r.resolve_dotted(fi, owner, None)
                && r.types.is_class(class)
            {
                out.push(((class, sym.name.as_str()), r.symbols.sym_node_of[fi][si]));
            }
        }
    }
    out
}

/// Rust: the trait method each method of an `impl Trait for Type` block implements (found in
/// the trait or its supertraits). rust-analyzer, like the compiler, counts a call of the
/// impl's method as a use of the trait's: changing the trait's signature changes the call.
fn trait_methods(r: &Resolver<'_>) -> FxHashMap<i64, i64> {
    let mut out = FxHashMap::default();
    for (fi, s) in r.sources.iter().enumerate() {
        for (si, tr) in &s.parse.implemented {
            let (Some(sym), Some(&own)) =
                (s.parse.symbols.get(*si), r.symbols.sym_node_of[fi].get(*si))
            else {
                continue;
            };
            if let Some((t, _)) = r.resolve_dotted(fi, tr, None)
                && r.types.is_class(t)
                && let Some(m) = r.member(t, &sym.name, 0)
                && m != own
            {
                out.insert(own, m);
            }
        }
    }
    out
}

/// Phase 4b: `calls` edges (resolved names and typed receivers, else a unique function of
/// that name in the repository at [`NAME_MATCH_CONFIDENCE`], except builtin and
/// standard-library method names and receivers of a known type), then `uses` edges for names
/// read as values (resolved only, never guessed). Reused files keep their part's. `impls`
/// ([`impl_members`]) go into each thread's type tables too.
fn add_calls_and_uses<'a>(
    g: &mut Builder,
    r: &Resolver<'a>,
    impls: &[((i64, &'a str), i64)],
    implemented: &FxHashMap<i64, i64>,
    reuse: &[Option<Arc<Part>>],
) {
    let todo: Vec<usize> = (0..r.sources.len())
        .filter(|fi| !reuse.get(*fi).is_some_and(Option::is_some))
        .collect();
    // Each edge leaves its own file's nodes and typing is order-free (see `Types::partial`),
    // so many files are shared among threads, each typing with memos of its own (the files'
    // locals are shared); a few (a regeneration's usual case) are linked here, without a
    // second set of type tables.
    let edges: Vec<Vec<EdgeRow>> = if todo.len() < PARALLEL_LINK_FILES {
        todo.iter()
            .map(|&fi| calls_and_uses(r, implemented, fi))
            .collect()
    } else {
        // The read-only tables are shared; `r` itself is not (its memos are cells).
        let (sources, idx, symbols) = (r.sources, r.idx, r.symbols);
        let (imports, fixtures, bases) = (r.imports, r.fixtures, &r.types.bases);
        let facts = &r.types.facts;
        let own = || {
            let mut types = Types::new(sources, symbols);
            types.bases = bases.clone();
            types.add_members(impls);
            types.facts = Arc::clone(facts);
            Resolver {
                sources,
                idx,
                symbols,
                imports,
                fixtures,
                types,
            }
        };
        super::parallel_map(todo.len(), own, |own, k| {
            calls_and_uses(own, implemented, todo[k])
        })
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
    };
    for (fi, edges) in todo.into_iter().zip(edges) {
        for e in edges {
            g.edge(fi, e.kind, e.src, e.dst, e.confidence, e.line);
        }
    }
}

/// Below this many files to link, calls and uses are resolved on one thread.
const PARALLEL_LINK_FILES: usize = 64;

/// File `fi`'s `calls` and `uses` edges (see [`add_calls_and_uses`]), each pair once.
fn calls_and_uses(r: &Resolver<'_>, implemented: &FxHashMap<i64, i64>, fi: usize) -> Vec<EdgeRow> {
    let (s, symbols) = (&r.sources[fi], r.symbols);
    let mut out: Vec<EdgeRow> = Vec::new();
    let mut seen: FxHashMap<(i64, i64), usize> = FxHashMap::default();
    let mut edge = |kind: &'static str, src: i64, dst: i64, confidence: f64, line: u32| {
        match seen.entry((src, dst)) {
            Entry::Vacant(v) => {
                v.insert(out.len());
                out.push(EdgeRow {
                    kind,
                    src,
                    dst,
                    confidence,
                    line: Some(line),
                });
            }
            // The strongest evidence for the pair wins (a typed call after a guess), with
            // its line; among equals, the first line (a property read in a call's chain is
            // met before the file's plain reads).
            Entry::Occupied(o) => {
                let e = &mut out[*o.get()];
                let earlier = confidence == e.confidence && e.line.is_some_and(|l| line < l);
                if e.kind == kind && (confidence > e.confidence || earlier) {
                    e.confidence = confidence;
                    e.line = Some(line);
                }
            }
        }
    };
    let node_of = |caller: Option<usize>| {
        caller
            .map(|c| symbols.sym_node_of[fi][c])
            .unwrap_or(symbols.file_ids[fi])
    };
    for call in &s.parse.calls {
        let src = node_of(call.caller);
        let mut call_edge = |dst: i64, conf: f64| {
            for dst in std::iter::once(dst).chain(implemented.get(&dst).copied()) {
                if dst != src {
                    edge("calls", src, dst, conf, call.line);
                }
            }
        };
        match r.resolve_call(fi, &call.callee, call.caller, 0) {
            Target::Found(id, conf) => call_edge(id, conf),
            // A receiver that may be one of several classes: each one's method.
            Target::Many(u, conf) => r.types.list(u).iter().for_each(|id| call_edge(*id, conf)),
            Target::Known => {}
            Target::Unknown => {
                // Rust: `v.f()` on a local or parameter is a method call, `m::f()` a path's;
                // the callee text writes both `v.f`. (A longer path may start with a crate
                // a local shadows: `url::quirks::f(&mut url)`.)
                let on_value = s.lang == Lang::Rust
                    && call.callee.split_once('.').is_some_and(|(head, f)| {
                        !f.contains('.') && r.local_fact(fi, call.caller, head).is_some()
                    });
                if let Some((id, conf)) = name_match(r, s.lang, &call.callee, on_value) {
                    call_edge(id, conf);
                }
            }
        }
        r.chain_reads(fi, &call.callee, call.caller, |dst, conf| {
            if dst != src {
                edge("uses", src, dst, conf, call.line);
            }
        });
    }
    // `from .m import X` binds X: the importing file depends on it even when nothing
    // else in the file names it (re-exports, `TYPE_CHECKING` imports). An import inside a
    // function is that function's dependency, not the module's.
    for imp in &s.parse.imports {
        if let Some(Bind::Symbol(from, n)) = r.imports[fi].binds.get(imp.alias.as_str())
            && let Some((dst, _)) = r.exported(*from, n)
        {
            let src = node_of(enclosing_symbol(&s.parse.symbols, imp.line));
            edge("uses", src, dst, 0.9, imp.line);
        }
    }
    for u in &s.parse.uses {
        let src = node_of(u.caller);
        if let Some((dst, conf)) = r.resolve_use(fi, &u.callee, u.caller)
            && dst != src
        {
            edge("uses", src, dst, conf, u.line);
        }
        r.chain_reads(fi, &u.callee, u.caller, |dst, conf| {
            if dst != src {
                edge("uses", src, dst, conf, u.line);
            }
        });
    }
    out
}

/// The innermost symbol whose lines hold `line` (symbols come parents first).
fn enclosing_symbol(symbols: &[Symbol], line: u32) -> Option<usize> {
    symbols
        .iter()
        .rposition(|sym| sym.line < line && line <= sym.end_line)
}

/// Best effort by name: a unique function of that name anywhere in the repository, unless
/// the name is a builtin's, or a method call by a name the standard library owns, on a Rust
/// call's result, or an interface declares for a shape the function's class does not have.
/// A call of a bare name is never a method's (no language here reaches a method without a
/// receiver), a Rust call on a local value (`on_value`) never a free function's, and a call
/// on a receiver is never a TypeScript/JavaScript function declared by name that no object
/// holds (`match.findWrapping()` on a library's value is not the module function
/// `findWrapping`).
fn name_match(r: &Resolver<'_>, lang: Lang, callee: &str, on_value: bool) -> Option<(i64, f64)> {
    let (receiver, last) = callee.rsplit_once('.').unwrap_or(("", callee));
    if receiver.is_empty() && builtins::builtin_call(lang, last) {
        return None;
    }
    if !receiver.is_empty() && builtins::library_method(lang, last) {
        return None;
    }
    // Rust: a method of an untyped call's result (`path.parent().display()`, `Router::new()
    // .with_state(s)`) is most often a library type's; typed, it resolves without a guess.
    if lang == Lang::Rust && receiver.contains("()") {
        return None;
    }
    match r.symbols.by_name.get(&(lang, last)).map(Vec::as_slice) {
        Some([only])
            if last.len() > 3
                && !(receiver.is_empty() && only.method)
                && (only.method || !on_value)
                && (receiver.is_empty() || r.fits_every_shape(only.class, lang, last))
                && (receiver.is_empty() || !only.declared || r.symbols.placed.contains(last)) =>
        {
            Some((only.id, NAME_MATCH_CONFIDENCE))
        }
        _ => None,
    }
}

impl Resolver<'_> {
    /// Whether `class` has every member of each interface declaring a member `name`: a value
    /// of such a shape may then be an instance of it (TypeScript's types are structural), and
    /// its method is the one guess. zod's v4 `interface ZodType` declares `parse` too, and v3's
    /// `class ZodType` does not have its members, so an untyped `schema.parse()` is not guessed
    /// to be v3's. A function is never a method call's guess when an interface has the name.
    fn fits_every_shape(&self, class: Option<i64>, lang: Lang, name: &str) -> bool {
        let Some(shapes) = self.symbols.signatures.get(&(lang, name)) else {
            return true;
        };
        class.is_some_and(|c| {
            shapes.iter().all(|i| {
                let members = self.symbols.interface_members.get(i);
                members
                    .into_iter()
                    .flatten()
                    .all(|m| self.member(c, m, 0).is_some())
            })
        })
    }
}

/// The confidence of a pytest fixture use (impact calls it `inferred`): pytest picks the
/// nearest definition of the name, which a plugin or a `usefixtures` mark may change.
const FIXTURE_CONFIDENCE: f64 = 0.8;

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// pytest's fixtures: which fixture each parameter of a test function or fixture (and each
/// `usefixtures` mark) names: one of its own module, else one of the nearest `conftest.py` in
/// its directory or above (pytest's scoping). A fixture overriding one of the same name (its
/// parameter) uses the outer one.
struct Fixtures<'a> {
    /// (file, function symbol, parameter) -> the fixture's node.
    params: FxHashMap<(usize, usize, &'a str), i64>,
    /// The same for `usefixtures` marks, which bind no name in the function.
    marks: FxHashMap<(usize, usize, &'a str), i64>,
}

impl<'a> Fixtures<'a> {
    fn new(sources: &'a [Source], symbols: &Symbols<'_>) -> Fixtures<'a> {
        let mut in_conftest: FxHashMap<(&str, &str), i64> = FxHashMap::default();
        let mut in_module: FxHashMap<(usize, &str), i64> = FxHashMap::default();
        for (fi, s) in sources.iter().enumerate() {
            for &sym in &s.parse.fixtures {
                let name = s.parse.symbols[sym].name.as_str();
                let id = symbols.sym_node_of[fi][sym];
                in_module.entry((fi, name)).or_insert(id);
                if s.path == "conftest.py" || s.path.ends_with("/conftest.py") {
                    in_conftest.entry((dir_of(&s.path), name)).or_insert(id);
                }
            }
        }
        let (mut params, mut marks) = (FxHashMap::default(), FxHashMap::default());
        if in_module.is_empty() {
            return Fixtures { params, marks };
        }
        for (fi, s) in sources.iter().enumerate() {
            let named = s.parse.params.iter().map(|p| (p, false));
            for ((sym, param), mark) in named.chain(s.parse.fixture_marks.iter().map(|p| (p, true)))
            {
                let user = symbols.sym_node_of[fi][*sym];
                let param = param.as_str();
                let own = in_module
                    .get(&(fi, param))
                    .copied()
                    .filter(|id| *id != user);
                let fixture = own.or_else(|| {
                    let mut dir = dir_of(&s.path);
                    loop {
                        if let Some(id) = in_conftest.get(&(dir, param))
                            && *id != user
                            && in_module.get(&(fi, param)) != Some(id)
                        {
                            return Some(*id);
                        }
                        if dir.is_empty() {
                            return None;
                        }
                        dir = dir_of(dir);
                    }
                });
                if let Some(id) = fixture {
                    let table = if mark { &mut marks } else { &mut params };
                    table.insert((fi, *sym, param), id);
                }
            }
        }
        Fixtures { params, marks }
    }

    /// The fixture parameter `param` of function `sym` in file `fi` names.
    fn of(&self, fi: usize, sym: usize, param: &str) -> Option<i64> {
        self.params.get(&(fi, sym, param)).copied()
    }
}

/// Phase 4c: pytest fixture injection, as `calls` edges (`uses` for `usefixtures` marks)
/// from each test function or fixture to the fixture its parameter names.
fn add_fixture_uses(g: &mut Builder, r: &Resolver<'_>, reuse: &[Option<Arc<Part>>]) {
    if r.fixtures.params.is_empty() && r.fixtures.marks.is_empty() {
        return;
    }
    let mut seen = FxHashSet::default();
    for (fi, s) in r.sources.iter().enumerate() {
        if reuse.get(fi).is_some_and(Option::is_some) {
            continue;
        }
        let params = s
            .parse
            .params
            .iter()
            .map(|p| (p, "calls", &r.fixtures.params));
        let marks = s
            .parse
            .fixture_marks
            .iter()
            .map(|p| (p, "uses", &r.fixtures.marks));
        for ((sym, param), kind, table) in params.chain(marks) {
            let user = r.symbols.sym_node_of[fi][*sym];
            if let Some(dst) = table.get(&(fi, *sym, param.as_str())).copied()
                && seen.insert((user, dst))
            {
                let line = s.parse.symbols[*sym].line;
                g.edge(fi, kind, user, dst, FIXTURE_CONFIDENCE, Some(line));
            }
        }
    }
}

/// Phase 4d: a `dynamic_use` anomaly per file with constructs that reach code without an
/// edge (computed `getattr`, `importlib.import_module`, `globals()`); impact reads them to
/// keep its answers a lower bound.
fn flag_dynamic_uses(sources: &[Source], anomalies: &mut Vec<AnomalyRow>) {
    for s in sources {
        let Some((first, _)) = s.parse.dynamic.first() else {
            continue;
        };
        let mut by_kind: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for (line, kind) in &s.parse.dynamic {
            by_kind.entry(kind.as_str()).or_default().push(*line);
        }
        let what: Vec<String> = by_kind
            .iter()
            .map(|(k, lines)| format!("{} {k}", lines.len()))
            .collect();
        anomalies.push(AnomalyRow {
            kind: "dynamic_use",
            path: s.path.clone(),
            line: Some(*first),
            message: format!(
                "{}:{first}: dynamic uses ({}): code reached through them has no edge, so impact answers stay a lower bound",
                s.path,
                what.join(", ")
            ),
            severity: Level::Low,
            details: json!(by_kind),
        });
    }
}

/// Phase 5: an `import_cycle` anomaly per cycle of internal module-level imports.
fn flag_import_cycles(
    sources: &[Source],
    imports: &[Arc<FileImports>],
    anomalies: &mut Vec<AnomalyRow>,
) {
    let files: Vec<usize> = (0..imports.len()).collect();
    for scc in tarjan(&files, |f| imports[*f].file_graph.iter().copied()) {
        let self_loop = scc.len() == 1 && imports[scc[0]].file_graph.contains(&scc[0]);
        if scc.len() < 2 && !self_loop {
            continue;
        }
        let mut paths: Vec<String> = scc.iter().map(|i| sources[*i].path.clone()).collect();
        paths.sort();
        let first = paths[0].clone();
        anomalies.push(AnomalyRow {
            kind: "import_cycle",
            path: first,
            line: None,
            message: format!(
                "import cycle between {} modules: {}; break it by moving shared code into a module both can import",
                paths.len(),
                paths.join(" <-> ")
            ),
            severity: Level::Medium,
            details: json!({"files": paths}),
        });
    }
}
